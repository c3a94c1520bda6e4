/* ns/process.c -- what the processes of unshare-run share; see
   ns/process.h.  */

#include <config.h>

#include "ns/process.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "closeout.h"
#include "intprops.h"
#include "sys/calls.h"

/* --- leaving ----------------------------------------------------------- */

/* True in every process that ns/run.c or ns/keeper.c forks: they leave
   by _exit, so that neither standard output nor the sanitizers' exit
   checks run twice.  */
static bool in_child;

void
ns_run_forked_process (void)
{
  in_child = true;
}

#if defined __SANITIZE_ADDRESS__
# define LEAK_CHECK_AT_EXIT 1
#elif defined __has_feature
# if __has_feature (address_sanitizer)
#  define LEAK_CHECK_AT_EXIT 1
# endif
#endif

#ifdef LEAK_CHECK_AT_EXIT
/* LeakSanitizer checks at exit from a tracer process that it clones, which
   reads /proc/PID/task.  After unshare(CLONE_NEWPID) that process would be
   born in the new PID namespace, which the kernel closes to new processes
   once its pid 1 has ended (clone fails, ENOMEM), and from where
   unshare-run could not be traced anyway; with --mount-proc, /proc is the
   new namespace's, without unshare-run in it.  The check would end
   unshare-run with status 1 whatever COMMAND's.  So, in a sanitizer build
   only, ns_run_exit makes unshare-run's own PID namespace the one for its
   children again (setns, as root in the namespace's user namespace), and
   where that is refused (a new user namespace too) or /proc is not its
   own, skips the check, as _exit does.  */
static int own_pid_ns = -1;
static bool pid_ns_unshared;

static bool
leak_check_can_run (void)
{
  if (!pid_ns_unshared)
    return true;
  if (own_pid_ns < 0 || sys_setns (own_pid_ns, CLONE_NEWPID) != 0)
    return false;
  char self[INT_STRLEN_BOUND (pid_t) + 1];
  ssize_t len = sys_readlinkat (AT_FDCWD, "/proc/self", self,
                                sizeof self - 1);
  if (len < 0)
    return false;
  self[len] = '\0';
  return strtol (self, NULL, 10) == getpid ();
}
#endif

_Noreturn void
ns_run_exit (int status)
{
  if (in_child)
    _exit (status);
#ifdef LEAK_CHECK_AT_EXIT
  if (!leak_check_can_run ())
    {
      close_stdout ();
      _exit (status);
    }
#endif
  exit (status);
}

int
ns_run_unshare (int flags)
{
#ifdef LEAK_CHECK_AT_EXIT
  if (flags & CLONE_NEWPID)
    own_pid_ns = sys_openat (AT_FDCWD, "/proc/self/ns/pid",
                             O_RDONLY | O_CLOEXEC, 0);
#endif
  int ret = sys_unshare (flags);
#ifdef LEAK_CHECK_AT_EXIT
  pid_ns_unshared = ret == 0 && (flags & CLONE_NEWPID);
#endif
  return ret;
}

/* --- the signals COMMAND gets back ------------------------------------- */

/* The mask and SIGCHLD action to give back to COMMAND.  */
static sigset_t orig_mask;
static struct sigaction orig_chld;
static bool chld_changed;

void
ns_run_save_signals (void)
{
  int ret = sys_rt_sigprocmask (SIG_SETMASK, NULL, &orig_mask);
  if (ret < 0)
    ns_run_fail (-ret, "cannot read the signal mask");
}

void
ns_run_default_sigchld (void)
{
  struct sigaction dfl = { .sa_handler = SIG_DFL };
  sigemptyset (&dfl.sa_mask);
  if (!chld_changed && sigaction (SIGCHLD, &dfl, &orig_chld) == 0)
    chld_changed = true;
}

void
ns_run_restore_signals (void)
{
  if (chld_changed)
    sigaction (SIGCHLD, &orig_chld, NULL);
  sys_rt_sigprocmask (SIG_SETMASK, &orig_mask, NULL);
}

/* --- waiting ----------------------------------------------------------- */

pid_t
ns_run_wait (pid_t pid, int *status, int flags)
{
  pid_t ret;
  while ((ret = waitpid (pid, status, flags)) < 0 && errno == EINTR)
    continue;
  return ret;
}
