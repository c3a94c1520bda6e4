/* ns/run.h -- run a command in new namespaces, as unshare-run does: the
   request, leaving, unshare(2) itself, and the processes around COMMAND.

   The processes (see unshare-run(1)):
   - without ns_run_forked, the caller becomes COMMAND (ns_run_exec);
   - ns_run_forked forks a child that becomes COMMAND and ends as it
     ended: same exit status, or killed by the same signal.  It keeps
     SIGINT and SIGTERM blocked while it waits, or forwards them
     (forward_signals);
   - in a new PID namespace that child is a minimal init there, unless
     as_pid_1: it forks COMMAND, reaps the orphans the namespace gives it,
     forwards the signals it gets to COMMAND and ends when COMMAND ends,
     handing COMMAND's status to its parent through a pipe.

   Failures: these functions do or die.  A failure is reported as error()
   does, then the process ends with status 1 (ns_run_fail); a process
   that the module forked ends by _exit, so that neither standard output
   nor the sanitizers' exit checks run twice.  The signals to forward and
   SIGCHLD are blocked from the first fork on; COMMAND gets the original
   mask and SIGCHLD action back.  */

#ifndef NC_NS_RUN_H
#define NC_NS_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>

#include "error.h"
#include "ns/kinds.h"
#include "sys/calls.h"

/* --setgroups.  */
enum ns_setgroups { NS_SETGROUPS_UNSET, NS_SETGROUPS_ALLOW,
                    NS_SETGROUPS_DENY };

/* What to do: unshare-run's command line, checked.  */
struct ns_run
{
  int flags;                    /* for unshare(2) */
  char *persist[NS_KINDS];      /* FILE of --NS=FILE, by ns_table index */
  bool map_uid_set, map_gid_set;
  uint32_t map_uid, map_gid;    /* the caller's euid/egid inside */
  enum ns_setgroups setgroups;
  bool setuid_set, setgid_set;
  uid_t setuid;
  gid_t setgid;
  bool keep_caps;               /* ambient capabilities for COMMAND */
  bool fork;
  char *mount_proc;             /* the directory, or NULL */
  unsigned long propagation;    /* mount flags for /, or 0: unchanged */
  const char *propagation_name; /* its keyword, or NULL: "private" */
  char *root, *wd, *hostname;
  bool monotonic_set, boottime_set;
  int64_t monotonic, boottime;  /* clock offsets, in seconds */
  int kill_child;               /* signal, or 0 */
  bool die_with_parent, new_session, as_pid_1, forward_signals;
  int no_new_privs;             /* -1: not decided yet */
  int json_fd;                  /* --json-status-fd, close-on-exec; -1 */
  char *file;                   /* what to execute; NULL: command[0] */
  char **command;
};

/* Leave with STATUS: exit, or _exit in a forked process.  In a
   sanitizer build, the main process unshared a PID namespace goes back
   to its own PID namespace for the leak check at exit, or skips it.  */
_Noreturn void ns_run_exit (int status);

/* Report a failure as error (0, ERRNUM, FORMAT, ...) does, then
   ns_run_exit (EXIT_FAILURE).  */
#define ns_run_fail(errnum, ...) \
  (error (0, errnum, __VA_ARGS__), ns_run_exit (EXIT_FAILURE))

/* Mark the calling process as forked: it leaves by _exit.  */
void ns_run_forked_process (void);

/* Save the signal mask, for COMMAND.  The first call, before any fork.  */
void ns_run_save_signals (void);

/* unshare (FLAGS): 0 or -errno.  */
int ns_run_unshare (int flags);

/* Make SIGCHLD usable for waiting (an inherited SIG_IGN would have the
   kernel reap the children itself); COMMAND gets the old action back.  */
void ns_run_default_sigchld (void);

/* Between the processes of unshare-run: a byte or a wait status that
   must not be lost to an interrupted call.  Each message is at most
   PIPE_BUF bytes, written whole or not at all, so there is no short count
   to continue: EINTR is retried.  The count, or -errno.  */
#define ns_run_pipe_write(fd, buf, len) \
  SYS_RETRY_EINTR (sys_write (fd, buf, len))
#define ns_run_pipe_read(fd, buf, len) \
  SYS_RETRY_EINTR (sys_read (fd, buf, len))

/* waitpid (PID, STATUS, FLAGS), EINTR retried: an interrupted wait must
   not have the caller wait for a SIGCHLD already taken.  -1 with errno
   set on failure.  */
pid_t ns_run_wait (pid_t pid, int *status, int flags);

/* In the caller, once the namespaces exist: time offsets (and entering
   the new time namespace without fork), host name, propagation of /,
   root and working directory.  With json_fd, *NS_DIR becomes a
   descriptor of /proc/self/ns as it is before a new root hides it.  */
void ns_run_set_up (const struct ns_run *r, int *ns_dir);

/* Mount a new proc on R->mount_proc, not seen outside the new mount
   namespace.  */
void ns_run_mount_proc (const struct ns_run *r);

/* --json-status-fd: the line {"child-pid": CHILD, "NAME-namespace":
   INODE...} with the namespaces of NS_DIR (from ns_run_set_up).  */
void ns_run_json_start (const struct ns_run *r, pid_t child, int ns_dir);

struct ns_keeper;

/* Run COMMAND in a child, forward signals, end as it ended; K: the
   keeper, told when the child exists to persist a PID namespace.
   PARENT: unshare-run's parent at the start, for die_with_parent.  */
_Noreturn void ns_run_forked (const struct ns_run *r, struct ns_keeper *k,
                              pid_t parent, int ns_dir);

/* Become COMMAND: new session, ids, capabilities, no_new_privs, then the
   parent death signal DEATH_SIG (0: none), armed last, after the changes
   of user that would disarm it; LIFELINE is the read end of a pipe whose
   write end only the parent holds, or -1 to compare getppid() with
   PARENT.  Exits 126 or 127 if COMMAND cannot run or is not found.  */
_Noreturn void ns_run_exec (const struct ns_run *r, int death_sig,
                            int lifeline, pid_t parent);

#endif
