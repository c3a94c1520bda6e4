/* wait/selectpoll.h -- ppoll(2) done by pselect6(2), for a tool that offers
   the older call as well: the same descriptors, events and results.  */

#ifndef NC_WAIT_SELECTPOLL_H
#define NC_WAIT_SELECTPOLL_H

#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <time.h>

/* Wait as sys_ppoll (PFD, N, TIMEOUT, MASK) would, by one pselect6 call:
   POLLIN of an entry's events is its read set, POLLOUT its write set,
   POLLPRI its exceptional set; an entry with a negative descriptor is
   skipped.  Every descriptor is below FD_SETSIZE (the caller checks);
   select has no set for POLLRDHUP, which is not waited for.  When
   pselect6 reports descriptors ready, each entry's revents holds the
   events found (0 for one not ready); else the revents are left alone.
   Return pselect6's result: the number of set bits, 0 on a timeout, or
   -errno (-EINTR for a signal), TIMEOUT holding what the kernel left of
   it.  */
int select_poll (struct pollfd *pfd, size_t n, struct timespec *timeout,
                 const sigset_t *mask);

#endif
