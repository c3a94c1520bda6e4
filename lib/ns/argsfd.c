/* ns/argsfd.c -- the words of --args FD; see ns/argsfd.h.  */

#include <config.h>

#include "ns/argsfd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sys/readwait.h"
#include "xalloc.h"

/* Read FD to its end into a new buffer *DATA of *LEN bytes, a NUL
   after them.  0, -EFBIG or the -errno of the read.  */
static int
read_data (int fd, char **data, size_t *len)
{
  char *buf = NULL;
  idx_t alloc = 0;
  size_t got = 0;
  for (;;)
    {
      /* Room for the NUL and one byte past the bound, which tells data
         longer than it.  */
      if (alloc - got < 2)
        buf = xpalloc (buf, &alloc, 4096, NS_ARGS_MAX_BYTES + 2, 1);
      ssize_t n = read_wait (fd, buf + got, alloc - 1 - got);
      if (n < 0 || (n > 0 && (got += n) > NS_ARGS_MAX_BYTES))
        {
          free (buf);
          return n < 0 ? n : -EFBIG;
        }
      if (n == 0)
        break;
    }
  buf[got] = '\0';
  *data = buf;
  *len = got;
  return 0;
}

int
ns_args_read (int fd, size_t max_words, struct ns_args_words *w)
{
  char *data = NULL;
  size_t len = 0;
  int ret = read_data (fd, &data, &len);
  if (ret < 0)
    return ret;
  /* A word ends at each NUL, and the last at the end of the data.  */
  size_t n = 0;
  for (size_t i = 0; i < len; i++)
    if (data[i] == '\0' || i + 1 == len)
      n++;
  if (n > max_words)
    {
      free (data);
      return -E2BIG;
    }
  char **words = xnmalloc (n + 1, sizeof *words);
  size_t k = 0;
  for (char *p = data; p < data + len; p += strlen (p) + 1)
    words[k++] = p;
  words[k] = NULL;
  *w = (struct ns_args_words) { data, words, n };
  return 0;
}
