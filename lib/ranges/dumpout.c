/* ranges/dumpout.c -- the buffered output of a dump; see
   ranges/dumpout.h.  */

#include <config.h>

#include "ranges/dumpout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "full-write.h"
#include "xalloc.h"

static char *out_buf;
static size_t out_len;

static _Noreturn void
write_error (void)
{
  /* The reader went away: stop quietly, as cat does.  */
  if (errno == EPIPE)
    exit (EXIT_FAILURE);
  error (EXIT_FAILURE, errno, "write error");
  abort ();
}

static void
out_write (const void *p, size_t n)
{
  if (full_write (STDOUT_FILENO, p, n) != n)
    write_error ();
}

void
dump_flush (void)
{
  if (out_len)
    out_write (out_buf, out_len);
  out_len = 0;
}

void
out_open (void)
{
  out_buf = xmalloc (OUT_SIZE);
  out_len = 0;
}

void
out_close (void)
{
  dump_flush ();
  free (out_buf);
  out_buf = NULL;
}

char *
out_reserve (size_t n)
{
  if (OUT_SIZE - out_len < n)
    dump_flush ();
  return out_buf + out_len;
}

void
out_commit (char *end)
{
  out_len = end - out_buf;
}

void
out_bytes (const void *p, size_t n)
{
  if (n >= OUT_SIZE / 2)
    {
      dump_flush ();
      out_write (p, n);
    }
  else
    {
      char *q = out_reserve (n);
      memcpy (q, p, n);
      out_commit (q + n);
    }
}

void
out_str (const char *s)
{
  out_bytes (s, strlen (s));
}

char *
put_decimal (char *p, uint64_t v)
{
  char tmp[24];
  int n = 0;
  do
    tmp[n++] = '0' + v % 10;
  while ((v /= 10) != 0);
  while (n > 0)
    *p++ = tmp[--n];
  return p;
}

void
out_decimal (uint64_t v)
{
  char *p = out_reserve (24);
  out_commit (put_decimal (p, v));
}
