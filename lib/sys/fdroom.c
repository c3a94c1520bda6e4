/* sys/fdroom.c -- how many more descriptors this process may open; see
   sys/fdroom.h.  */

#include <config.h>

#include "sys/fdroom.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/resource.h>

#include "sys/calls.h"

size_t
fd_room (size_t want)
{
  struct rlimit rl;
  if (getrlimit (RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return want;
  /* open() takes the lowest free number, and fails with EMFILE when none
     below the limit is free: count the free ones, as F_GETFD finds them
     (EBADF: free).  */
  size_t free_fds = 0;
  for (rlim_t fd = 0; fd < rl.rlim_cur && free_fds < want; fd++)
    if (fd > (rlim_t) 0x7fffffff
        || sys_fcntl ((int) fd, F_GETFD, 0) == -EBADF)
      free_fds++;
  return free_fds;
}

size_t
fd_raise_limit (size_t want)
{
  struct rlimit rl;
  if (getrlimit (RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return want;
  if (rl.rlim_cur < want && rl.rlim_cur < rl.rlim_max)
    {
      rlim_t cur = rl.rlim_cur;
      rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
      if (setrlimit (RLIMIT_NOFILE, &rl) != 0)
        rl.rlim_cur = cur;
    }
  return rl.rlim_cur < want ? rl.rlim_cur : want;
}

void
fd_table_reserve (size_t n)
{
  if (n == 0 || n > INT_MAX)
    return;
  int fd = sys_openat (AT_FDCWD, "/", O_PATH | O_CLOEXEC, 0);
  if (fd < 0)
    return;
  int high = sys_fcntl (fd, F_DUPFD_CLOEXEC, (long) (n - 1));
  if (high >= 0)
    sys_close (high);
  sys_close (fd);
}
