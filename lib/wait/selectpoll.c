/* wait/selectpoll.c -- ppoll(2) done by pselect6(2); see
   wait/selectpoll.h.  */

#include <config.h>

#include "wait/selectpoll.h"

#include <sys/select.h>

#include "sys/calls.h"

int
select_poll (struct pollfd *pfd, size_t n, struct timespec *timeout,
             const sigset_t *mask)
{
  fd_set rfds, wfds, efds;
  FD_ZERO (&rfds);
  FD_ZERO (&wfds);
  FD_ZERO (&efds);
  int nfds = 0;
  for (size_t i = 0; i < n; i++)
    if (pfd[i].fd >= 0)
      {
        if (pfd[i].events & POLLIN)
          FD_SET (pfd[i].fd, &rfds);
        if (pfd[i].events & POLLOUT)
          FD_SET (pfd[i].fd, &wfds);
        if (pfd[i].events & POLLPRI)
          FD_SET (pfd[i].fd, &efds);
        if (nfds <= pfd[i].fd)
          nfds = pfd[i].fd + 1;
      }
  int ret = sys_pselect6 (nfds, &rfds, &wfds, &efds, timeout, mask);
  for (size_t i = 0; ret > 0 && i < n; i++)
    if (pfd[i].fd >= 0)
      pfd[i].revents = ((FD_ISSET (pfd[i].fd, &rfds) ? POLLIN : 0)
                        | (FD_ISSET (pfd[i].fd, &wfds) ? POLLOUT : 0)
                        | (FD_ISSET (pfd[i].fd, &efds) ? POLLPRI : 0));
  return ret;
}
