/* ns/run.c -- run a command in new namespaces; see ns/run.h.  */

#include <config.h>

#include "ns/run.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/common.h"
#include "error.h"
#include "exec/status.h"
#include "full-write.h"
#include "ns/confine.h"
#include "ns/keeper.h"
#include "ns/process.h"
#include "ns/steps.h"
#include "sys/calls.h"
#include "sys/consts.h"

/* --- signals ----------------------------------------------------------- */

/* The signals the init passes on to COMMAND, of those not ignored at the
   start.  */
static const int forwarded[] = {
  SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2
};

/* The forwarded signals and SIGCHLD: blocked before the first fork and
   taken with sigwaitinfo(2) by the init.  */
static sigset_t wait_set;
/* Block wait_set, and SIGINT and SIGTERM whatever their action.  */
static void
block_signals (void)
{
  sigemptyset (&wait_set);
  sigaddset (&wait_set, SIGCHLD);
  for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
    {
      struct sigaction old;
      if (sigaction (forwarded[i], NULL, &old) == 0
          && old.sa_handler != SIG_IGN)
        sigaddset (&wait_set, forwarded[i]);
    }
  sigset_t set = wait_set;
  sigaddset (&set, SIGINT);
  sigaddset (&set, SIGTERM);
  int ret = sys_rt_sigprocmask (SIG_BLOCK, &set, NULL);
  if (ret < 0)
    ns_run_fail (-ret, "cannot block signals");
}

/* In unshare-run, once the child exists, the signals to wait for in SET:
   SIGCHLD, and SIGINT and SIGTERM with --forward-signals.  Without it,
   as in unshare(1), those two stay blocked, never taken: a SIGTERM meant
   to kill unshare-run leaves it waiting and the child untouched.  The
   other signals of wait_set, blocked for the init's sake, get their
   usual effect back: they end unshare-run alone.  */
static void
parent_signals (const struct ns_run *r, sigset_t *set)
{
  sigset_t unblock = wait_set;
  sigemptyset (set);
  sigaddset (set, SIGCHLD);
  sigdelset (&unblock, SIGCHLD);
  sigdelset (&unblock, SIGINT);
  sigdelset (&unblock, SIGTERM);
  if (r->forward_signals)
    {
      if (sigismember (&wait_set, SIGINT))
        sigaddset (set, SIGINT);
      if (sigismember (&wait_set, SIGTERM))
        sigaddset (set, SIGTERM);
    }
  int ret = sys_rt_sigprocmask (SIG_UNBLOCK, &unblock, NULL);
  if (ret < 0)
    ns_run_fail (-ret, "cannot unblock signals");
}

/* Pass the signal SI describes on to PID.  The terminal sends ^C, ^\ and
   hangups to a whole process group (si_code SI_KERNEL); when PID is in
   ours it has its own copy already.  */
static void
forward (pid_t pid, const siginfo_t *si, bool same_group)
{
  if (si->si_code == SI_KERNEL && same_group)
    return;
  kill (pid, si->si_signo);
}

/* Wait for the next signal of SET.  */
static int
next_signal (const sigset_t *set, siginfo_t *si)
{
  for (;;)
    {
      /* libc's sigwaitinfo until sys/calls.h has rt_sigtimedwait.  */
      int sig = sigwaitinfo (set, si);
      if (sig > 0)
        return sig;
      if (errno != EINTR)
        ns_run_fail (errno, "cannot wait for signals");
    }
}

/* End as a process killed by SIG does, for the shell's sake ("Terminated",
   status 128+SIG).  */
static _Noreturn void
die_by_signal (int sig)
{
  /* COMMAND dumped its own core, if any; a second one would be ours.  */
  struct rlimit no_core = { 0, 0 };
  setrlimit (RLIMIT_CORE, &no_core);
  struct sigaction dfl = { .sa_handler = SIG_DFL };
  sigemptyset (&dfl.sa_mask);
  sigaction (sig, &dfl, NULL);
  sigset_t set;
  sigemptyset (&set);
  sigaddset (&set, sig);
  sys_rt_sigprocmask (SIG_UNBLOCK, &set, NULL);
  raise (sig);
  /* A signal whose default is to be ignored cannot kill: say it.  */
  ns_run_exit (128 + sig);
}

/* Arm the parent death signal SIG.  If the parent died before, the signal
   will never come: leave now.  LIFELINE is the read end of a pipe whose
   write end only the parent holds, or -1 to compare getppid() with
   PARENT instead.  */
static void
set_death_signal (int sig, int lifeline, pid_t parent)
{
  int ret = sys_prctl (PR_SET_PDEATHSIG, sig, 0, 0, 0);
  if (ret < 0)
    ns_run_fail (-ret, "cannot set the parent death signal");
  bool orphan;
  if (lifeline >= 0)
    {
      struct pollfd pfd = { .fd = lifeline, .events = POLLIN };
      struct timespec now = { 0, 0 };
      orphan = sys_ppoll (&pfd, 1, &now, NULL) > 0;
      sys_close (lifeline);
    }
  else
    orphan = getppid () != parent;
  if (orphan)
    ns_run_exit (EXIT_FAILURE);
}

/* --- setting up -------------------------------------------------------- */

/* Set the offset of CLOCK, which messages call WHAT, to SECONDS.  */
static void
set_time_offset (int clock, int64_t seconds, const char *what)
{
  int ret = ns_set_time_offset (0, clock, seconds);
  if (ret < 0)
    ns_run_fail (0, "cannot set the %s offset in /proc/self/timens_offsets: "
                 "%s%s", what, strerror (-ret),
                 ret == -ERANGE ? "; the clock must stay between 0 and "
                 "4611686018 s (146 years)" : "");
}

/* What happens in unshare-run itself once the namespaces exist: what must
   precede any process entering them (time offsets), then what COMMAND and
   its children share with it.  */
void
ns_run_set_up (const struct ns_run *r, int *ns_dir)
{
  int ret;
  if (r->boottime_set)
    set_time_offset (CLOCK_BOOTTIME, r->boottime, "boot time");
  if (r->monotonic_set)
    set_time_offset (CLOCK_MONOTONIC, r->monotonic, "monotonic clock");

  /* unshare(CLONE_NEWTIME) puts the children in the new namespace, not
     the caller: enter it to take COMMAND there without a fork.  */
  if ((r->flags & CLONE_NEWTIME) && !r->fork)
    {
      int fd = sys_openat (AT_FDCWD, "/proc/self/ns/time_for_children",
                           O_RDONLY | O_CLOEXEC, 0);
      ret = fd < 0 ? fd : sys_setns (fd, CLONE_NEWTIME);
      if (fd >= 0)
        sys_close (fd);
      if (ret < 0)
        ns_run_fail (-ret, "cannot enter the new time namespace");
    }

  /* For --json-status-fd and --info-fd, the namespaces as they are now,
     before a new root hides /proc.  */
  if (r->json_fd >= 0 || r->sandbox.info_fd >= 0)
    *ns_dir = sys_openat (AT_FDCWD, "/proc/self/ns",
                          O_PATH | O_DIRECTORY | O_CLOEXEC, 0);

  if (r->hostname
      && (ret = sys_sethostname (r->hostname, strlen (r->hostname))) < 0)
    ns_run_fail (-ret, "cannot set the host name to %s",
                 quote_file (r->hostname));

  /* A new mount namespace starts with copies of the old mounts, in the
     same peer groups: a shared mount would still pass mounts both ways.  */
  if ((r->flags & CLONE_NEWNS) && r->propagation
      && (ret = sys_mount ("none", "/", NULL, r->propagation, NULL)) < 0)
    ns_run_fail (-ret, "cannot make / %s in the new mount namespace",
                 r->propagation_name ? r->propagation_name : "private");

  if (r->root && chroot (r->root) < 0)
    ns_run_fail (errno, "cannot change the root directory to %s",
                 quote_file (r->root));
  const char *wd = r->wd ? r->wd : r->root ? "/" : NULL;
  if (wd && chdir (wd) < 0)
    ns_run_fail (errno, "cannot change the working directory to %s",
                 quote_file (wd));
}

void
ns_run_mount_proc (const struct ns_run *r)
{
  const char *dir = r->mount_proc;
  int ret;
  /* Under / made private or slave, the new mount stays in this namespace.
     Under a shared /, it would appear in the peers, outside, unless DIR
     is a mount of its own that can be made private first.  */
  if (!(r->propagation & (MS_PRIVATE | MS_SLAVE))
      && (ret = sys_mount ("none", dir, NULL, MS_REC | MS_PRIVATE,
                           NULL)) < 0)
    ns_run_fail (0, "cannot make %s private: %s%s", quote_file (dir),
                 strerror (-ret), ret == -EINVAL ? "; it is not a mount "
                 "point, and a proc mounted there would appear outside: "
                 "use --propagation=private or slave" : "");
  ret = sys_mount ("proc", dir, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                   NULL);
  if (ret < 0)
    ns_run_fail (0, "cannot mount proc on %s: %s%s", quote_file (dir),
                 strerror (-ret),
                 ret == -EPERM && (r->flags & CLONE_NEWUSER)
                 && !(r->flags & CLONE_NEWPID)
                 ? "; in a new user namespace, only a new PID namespace's "
                   "proc can be mounted: add -p" : "");
}

/* --- running COMMAND --------------------------------------------------- */

static void
set_ids (const struct ns_run *r)
{
  if (r->setgid_set)
    {
      /* In a user namespace where setgroups(2) is denied the
         supplementary groups cannot change, and stay as they were.  */
      if (setgroups (0, NULL) < 0
          && !(errno == EPERM && (r->flags & CLONE_NEWUSER)))
        ns_run_fail (errno, "cannot drop the supplementary groups");
      if (setgid (r->setgid) < 0)
        ns_run_fail (0, "cannot set the group ID to %lu: %s%s",
                     (unsigned long) r->setgid, strerror (errno),
                     errno == EINVAL ? "; it has no mapping in this user "
                     "namespace (see --map-group)" : "");
    }
  if (r->setuid_set)
    {
      int ret = ns_confine_keeps (r) ? sys_prctl (PR_SET_KEEPCAPS, 1, 0, 0,
                                                  0) : 0;
      if (ret < 0)
        ns_run_fail (-ret, "cannot keep the capabilities");
      if (setuid (r->setuid) < 0)
        ns_run_fail (0, "cannot set the user ID to %lu: %s%s",
                     (unsigned long) r->setuid, strerror (errno),
                     errno == EINVAL ? "; it has no mapping in this user "
                     "namespace (see --map-user)" : "");
    }
}

_Noreturn void
ns_run_exec (const struct ns_run *r, int death_sig, int lifeline,
             pid_t parent)
{
  if (r->new_session && setsid () < 0)
    ns_run_fail (errno, "cannot start a new session");
  ns_confine_fds (r);
  set_ids (r);
  ns_confine_caps (r);
  ns_confine_env (r);
  int ret = r->no_new_privs ? sys_prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) : 0;
  if (ret < 0)
    ns_run_fail (-ret, "cannot set no_new_privs");
  if (death_sig)
    set_death_signal (death_sig, lifeline, parent);
  ns_run_restore_signals ();
  ns_confine_seccomp (r);
  const char *file = r->file ? r->file : r->command[0];
  if (r->file)
    execv (file, r->command);
  else
    execvp (file, r->command);
  int err = errno;
  int status = exec_failure_status (file, &err);
  error (0, err, "cannot run %s", quote_file (file));
  ns_run_exit (status);
}

/* --json-status-fd.  */
static void
json_write (const struct ns_run *r, const char *line)
{
  /* A reader that went away must not kill unshare-run with SIGPIPE while
     COMMAND runs.  */
  struct sigaction ign = { .sa_handler = SIG_IGN }, old;
  sigemptyset (&ign.sa_mask);
  sigaction (SIGPIPE, &ign, &old);
  if (full_write (r->json_fd, line, strlen (line)) < strlen (line))
    error (0, errno, "cannot write to --json-status-fd=%d", r->json_fd);
  sigaction (SIGPIPE, &old, NULL);
}

void
ns_run_json_start (const struct ns_run *r, pid_t child, int ns_dir)
{
  ns_confine_info (r, child, ns_dir);
  if (r->json_fd < 0)
    return;
  char line[1024];
  size_t len = snprintf (line, sizeof line, "{\"child-pid\": %ld",
                         (long) child);
  for (const struct ns_info *ns = ns_table; ns->name && ns_dir >= 0; ns++)
    {
      struct stat st;
      const char *file = ns->children ? ns->children : ns->name;
      if (sys_fstatat (ns_dir, file, &st, 0) == 0 && len < sizeof line)
        len += snprintf (line + len, sizeof line - len,
                         ", \"%s-namespace\": %" PRIu64, ns->name,
                         (uint64_t) st.st_ino);
    }
  if (len < sizeof line)
    snprintf (line + len, sizeof line - len, "}\n");
  json_write (r, line);
}

static void
json_exit (const struct ns_run *r, int status)
{
  if (r->json_fd < 0)
    return;
  char line[64];
  if (WIFEXITED (status))
    snprintf (line, sizeof line, "{\"exit-code\": %d}\n",
              WEXITSTATUS (status));
  else
    snprintf (line, sizeof line, "{\"exit-signal\": %d}\n",
              WTERMSIG (status));
  json_write (r, line);
}

/* Whether the child of --fork is pid 1 of a new PID namespace, COMMAND
   its child.  */
static bool
init_is_pid_1 (const struct ns_run *r)
{
  return (r->flags & CLONE_NEWPID) && !r->as_pid_1;
}

/* Whether the child of --fork stays in the sandbox as COMMAND's parent,
   the init, for as long as it runs: as pid 1 of a new PID namespace, or
   to hold the locks of --lock-file, which COMMAND must not hold.  */
static bool
has_init (const struct ns_run *r)
{
  return init_is_pid_1 (r) || r->sandbox.n_lock_files > 0;
}

/* The init, COMMAND being CMD: reap every process that ends in a new
   PID namespace, pass signals on to CMD, and when CMD ends, report its
   status on STATUS_FD and end, which ends the namespace and lets go of
   the locks.  */
static _Noreturn void
init_loop (const struct ns_run *r, pid_t cmd, int status_fd)
{
  /* unshare-run may be gone (killed without --kill-child): the status
     then has no reader, and the write fails with EPIPE, not a SIGPIPE
     (which qemu-user, for one, does not deliver to a blocked write).  */
  struct sigaction ign = { .sa_handler = SIG_IGN };
  sigemptyset (&ign.sa_mask);
  sigaction (SIGPIPE, &ign, NULL);
  for (;;)
    {
      siginfo_t si;
      if (next_signal (&wait_set, &si) != SIGCHLD)
        {
          forward (cmd, &si, !r->new_session);
          continue;
        }
      int status;
      pid_t pid;
      while ((pid = ns_run_wait (-1, &status, WNOHANG)) > 0)
        if (pid == cmd)
          {
            if (ns_run_pipe_write (status_fd, &status, sizeof status) < 0)
              _exit (EXIT_FAILURE);
            _exit (EXIT_SUCCESS);
          }
    }
}

/* The child of --fork.  */
static _Noreturn void
child_main (const struct ns_run *r, int lifeline, int status_fd, int go)
{
  ns_run_forked_process ();
  ns_confine_forked (r);
  bool init = has_init (r);
  int death_sig = r->kill_child ? r->kill_child
                  : r->die_with_parent ? SIGKILL : 0;
  if (init && death_sig)
    {
      if (death_sig != SIGKILL && !sigismember (&wait_set, death_sig))
        {
          sigset_t set;
          sigemptyset (&set);
          sigaddset (&set, death_sig);
          sigaddset (&wait_set, death_sig);
          sys_rt_sigprocmask (SIG_BLOCK, &set, NULL);
        }
      /* As pid 1 of its namespace, the init takes only the signals it
         waits for: KILL, or a forwarded one that it passes on.  */
      set_death_signal (death_sig, lifeline, 0);
      lifeline = -1;
    }
  char byte;
  if (go >= 0 && ns_run_pipe_read (go, &byte, 1) != 1)
    _exit (EXIT_FAILURE);
  if (r->mount_proc)
    ns_run_mount_proc (r);
  ns_steps_mount (r);
  if (!init)
    ns_run_exec (r, death_sig, lifeline, 0);

  ns_confine_lock_files (r);
  pid_t self = getpid ();
  pid_t cmd = fork ();
  if (cmd < 0)
    ns_run_fail (errno, "cannot fork");
  if (cmd == 0)
    {
      sys_close (status_fd);
      /* Out of a new PID namespace, COMMAND would outlive an init that
         the death signal killed: it gets that signal of its own.  */
      ns_run_exec (r, init_is_pid_1 (r) ? 0 : death_sig, -1, self);
    }
  init_loop (r, cmd, status_fd);
}

static void
make_pipe (int fds[2], bool wanted)
{
  fds[0] = fds[1] = -1;
  int ret = wanted ? sys_pipe2 (fds, O_CLOEXEC) : 0;
  if (ret < 0)
    ns_run_fail (-ret, "cannot create a pipe");
}

static void
close_fd (int fd)
{
  if (fd >= 0)
    sys_close (fd);
}

/* Wait for CHILD, the init or COMMAND, passing on the signals of SET
   that unshare-run gets; return how it ended.  */
static int
wait_child (const struct ns_run *r, pid_t child, bool init,
            const sigset_t *set)
{
  for (;;)
    {
      siginfo_t si;
      if (next_signal (set, &si) != SIGCHLD)
        {
          /* The init stays in our process group; COMMAND itself leaves
             it with --new-session.  */
          forward (child, &si, init || !r->new_session);
          continue;
        }
      int status;
      pid_t pid = ns_run_wait (child, &status, WNOHANG);
      if (pid == child)
        return status;
      if (pid < 0)
        ns_run_fail (errno, "cannot wait for the child");
    }
}

_Noreturn void
ns_run_forked (const struct ns_run *r, struct ns_keeper *k, pid_t parent,
               int ns_dir)
{
  bool init = has_init (r);
  if (r->die_with_parent)
    set_death_signal (SIGKILL, -1, parent);

  /* Blocked before the child exists, no signal can be lost between its
     birth and the wait; the child gives COMMAND the original mask.  */
  ns_run_default_sigchld ();
  block_signals ();

  int lifeline[2], status_pipe[2], go[2];
  make_pipe (lifeline, r->kill_child || r->die_with_parent);
  make_pipe (status_pipe, init);
  make_pipe (go, k->stage2);
  pid_t child = fork ();
  if (child < 0)
    ns_run_fail (errno, "cannot fork");
  if (child == 0)
    {
      close_fd (lifeline[1]);
      close_fd (status_pipe[0]);
      close_fd (go[1]);
      ns_keeper_forget (k);
      child_main (r, lifeline[0], status_pipe[1], go[0]);
    }
  sigset_t parent_set;
  parent_signals (r, &parent_set);
  /* lifeline[1] stays open as long as unshare-run lives.  */
  close_fd (lifeline[0]);
  close_fd (status_pipe[1]);
  close_fd (go[0]);

  /* A PID namespace can be persisted once its first process exists.  */
  if (k->stage2)
    {
      ns_keeper_stage2 (k, child);
      ns_run_pipe_write (go[1], "", 1);
      close_fd (go[1]);
    }
  ns_run_json_start (r, child, ns_dir);

  int status = wait_child (r, child, init, &parent_set);
  if (init)
    {
      int cmd_status;
      if (ns_run_pipe_read (status_pipe[0], &cmd_status, sizeof cmd_status)
          == sizeof cmd_status)
        status = cmd_status;
    }
  json_exit (r, status);
  if (WIFSIGNALED (status))
    die_by_signal (WTERMSIG (status));
  ns_run_exit (WEXITSTATUS (status));
}
