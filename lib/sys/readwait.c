/* sys/readwait.c -- one read(2) that waits for input; see
   sys/readwait.h.  */

#include <config.h>

#include "sys/readwait.h"

#include <errno.h>
#include <poll.h>

#include "sys/calls.h"

ssize_t
read_wait (int fd, void *buf, size_t n)
{
  for (;;)
    {
      ssize_t got = sys_read (fd, buf, n);
      if (got == -EAGAIN)
        {
          /* POLLHUP and POLLERR end the wait too: the read that follows
             then gives the end (0) or the error.  */
          struct pollfd pfd = { .fd = fd, .events = POLLIN };
          int ret = SYS_RETRY_EINTR (sys_ppoll (&pfd, 1, NULL, NULL));
          if (ret < 0)
            return ret;
        }
      else if (got != -EINTR)
        return got;
    }
}
