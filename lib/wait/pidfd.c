/* wait/pidfd.c -- a process waited for through its pidfd; see
   wait/pidfd.h.  */

#include <config.h>

#include "wait/pidfd.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/calls.h"
#include "sys/consts.h"
#include "wait/target.h"

/* The wait status that waitpid(2) would give for SI, a waitid result.  */
static int
wait_status_of (const siginfo_t *si)
{
  switch (si->si_code)
    {
    case CLD_EXITED:
      return (si->si_status & 0xff) << 8;
    case CLD_DUMPED:
      return (si->si_status & 0x7f) | 0x80;
    default:
      return si->si_status & 0x7f;
    }
}

/* The status of the caller's own ended child of PIDFD, left unreaped:
   PROCESS_STATUS_KNOWN, or -ECHILD for a process that is not a child
   (or a kernel without P_PIDFD, Linux 5.4: EINVAL).  */
static int
child_status (int pidfd, int *wstatus)
{
  siginfo_t si = { 0 };
  int ret = sys_waitid (NC_P_PIDFD, pidfd, &si,
                        WEXITED | WNOHANG | WNOWAIT, NULL);
  if (ret == -EINVAL)
    return -ECHILD;
  if (ret < 0)
    return ret;
  /* Ended, as the pidfd said; WNOHANG would leave si_pid 0 otherwise.  */
  if (si.si_pid == 0)
    return -ECHILD;
  *wstatus = wait_status_of (&si);
  return PROCESS_STATUS_KNOWN;
}

int
process_status (int pidfd, int *wstatus)
{
  int ret = child_status (pidfd, wstatus);
  if (ret != -ECHILD)
    return ret;
  struct nc_pidfd_info info = { .mask = PIDFD_INFO_EXIT };
  ret = sys_pidfd_get_info (pidfd, &info);
  /* Reaped while the kernel answered: it looked for the exit before the
     reap stored it, and for the process after the reap.  Asked again, a
     kernel that keeps exits has it.  */
  if (ret == -ESRCH)
    {
      info = (struct nc_pidfd_info) { .mask = PIDFD_INFO_EXIT };
      ret = sys_pidfd_get_info (pidfd, &info);
    }
  /* No PIDFD_GET_INFO (before 6.13), or, reaped, none of its exit
     (6.13 and 6.14).  */
  if (ret == -ENOTTY || ret == -EINVAL || ret == -ESRCH)
    return PROCESS_STATUS_UNKNOWN;
  if (ret < 0)
    return ret;
  if (!(info.mask & PIDFD_INFO_EXIT))
    return PROCESS_STATUS_PENDING;
  *wstatus = info.exit_code;
  return PROCESS_STATUS_KNOWN;
}

void
process_read_statuses (struct target *t, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (t[i].kind == TARGET_PROCESS && t[i].revents)
      {
        int ret = process_status (t[i].fd, &t[i].wstatus);
        t[i].status = ret < 0 ? PROCESS_STATUS_UNKNOWN : ret;
      }
}

/* A child that ends once told to, through a pipe, after the pidfd that
   names it has been taken: into *PIDFD.  Return its pid or -errno.  */
static pid_t
start_short_child (int *pidfd)
{
  int go[2];
  int ret = sys_pipe2 (go, O_CLOEXEC);
  if (ret < 0)
    return ret;
  pid_t pid = fork ();
  if (pid == 0)
    {
      char c;
      sys_close (go[1]);
      while (sys_read (go[0], &c, 1) == -EINTR)
        continue;
      _exit (0);
    }
  int err = errno;
  sys_close (go[0]);
  *pidfd = pid > 0 ? sys_pidfd_open (pid, 0) : -1;
  sys_close (go[1]);
  if (pid < 0)
    return -err;
  return *pidfd < 0 ? *pidfd : pid;
}

int
process_status_kept (void)
{
  /* A child that ends and is reaped, then asked for through its pidfd:
     only a kernel that keeps statuses still has its status.  Reaped here,
     or at once where SIGCHLD is ignored.  */
  int pidfd = -1;
  pid_t pid = start_short_child (&pidfd);
  if (pid > 0)
    while (waitpid (pid, NULL, 0) < 0 && errno == EINTR)
      continue;
  if (pidfd < 0)
    return pid < 0 ? pid : pidfd;
  /* Reaped once the pidfd hangs up.  */
  struct pollfd hup = { .fd = pidfd, .events = 0 };
  int ret;
  while ((ret = sys_ppoll (&hup, 1, NULL, NULL)) == -EINTR)
    continue;
  struct nc_pidfd_info info = { .mask = PIDFD_INFO_EXIT };
  if (ret >= 0)
    ret = sys_pidfd_get_info (pidfd, &info);
  sys_close (pidfd);
  if (ret < 0 && ret != -ENOTTY && ret != -EINVAL && ret != -ESRCH)
    return ret;
  return ret == 0 && (info.mask & PIDFD_INFO_EXIT) != 0;
}

int
process_signal (int pidfd, int sig)
{
  int ret = sys_pidfd_send_signal (pidfd, sig, NULL, 0);
  return ret == -ESRCH ? 0 : ret;
}
