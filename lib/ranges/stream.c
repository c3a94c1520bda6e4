/* ranges/stream.c -- an input read once, in order; see
   ranges/stream.h.  */

#include <config.h>

#include "ranges/stream.h"

#include <errno.h>
#include <stdlib.h>

#include "error.h"
#include "ranges/dumpfmt.h"
#include "sys/readwait.h"

void
stream_init (struct stream_reader *s, int fd, const char *name)
{
  *s = (struct stream_reader) { .fd = fd, .name = name };
}

/* One read of at most N bytes into BUF: what it returned, 0 at the
   end.  */
static size_t
read_some (struct stream_reader *s, void *buf, size_t n)
{
  ssize_t got = read_wait (s->fd, buf, n);
  /* -ENOMEM is the wait's failure (sys/readwait.h).  */
  if (got == -ENOMEM)
    error (EXIT_FAILURE, ENOMEM, "error waiting for %s", s->name);
  if (got < 0)
    error (EXIT_FAILURE, (int) -got, "error reading %s", s->name);
  return got;
}

size_t
stream_read (struct stream_reader *s, void *buf, size_t n)
{
  size_t done = 0;
  while (done < n && !s->at_eof)
    {
      size_t got = read_some (s, (char *) buf + done, n - done);
      if (got == 0)
        s->at_eof = true;
      done += got;
      s->pos += got;
    }
  return done;
}

bool
stream_skip_to (struct stream_reader *s, uint64_t pos, void *scratch,
                size_t size)
{
  while (s->pos < pos && !s->at_eof)
    {
      uint64_t left = pos - s->pos;
      stream_read (s, scratch, left < size ? left : size);
    }
  return s->pos >= pos;
}

uint64_t
stream_dump (struct stream_reader *s, uint64_t offset, size_t index,
             uint64_t len, unsigned char *chunk, size_t size)
{
  uint64_t got = 0;
  dump_begin (offset, index);
  while (s->pos == offset + got && got < len && !s->at_eof)
    {
      uint64_t left = len - got;
      size_t m = stream_read (s, chunk, left < size ? left : size);
      if (m)
        dump_data (chunk, m);
      got += m;
    }
  dump_end (index, got);
  return got;
}
