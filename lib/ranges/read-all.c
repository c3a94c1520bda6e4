/* ranges/read-all.c -- the whole contents of a file descriptor
   (ranges/read-all.h).  */

#include <config.h>

#include "ranges/read-all.h"

#include <stdlib.h>

#include "sys/readwait.h"
#include "xalloc.h"

int
nc_read_all (int fd, unsigned char **buf, size_t *len)
{
  idx_t alloc = 0;
  size_t n = 0;
  *buf = NULL;
  for (;;)
    {
      if (alloc - n < 4096)
        *buf = xpalloc (*buf, &alloc, 65536, -1, 1);
      ssize_t got = read_wait (fd, *buf + n, alloc - n);
      if (got < 0)
        {
          free (*buf);
          *buf = NULL;
          return got;
        }
      if (got == 0)
        break;
      n += got;
    }
  *len = n;
  return 0;
}
