/* ns/run.h -- run a command in new namespaces, as unshare-run does: the
   setting up, and the processes around COMMAND.  The request is
   ns/request.h; leaving, unshare(2), waiting and the signal state
   COMMAND gets back are ns/process.h's.

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
   that the module forked ends by _exit (ns/process.h).  The signals to
   forward and SIGCHLD are blocked from the first fork on; COMMAND gets
   the original mask and SIGCHLD action back.  */

#ifndef NC_NS_RUN_H
#define NC_NS_RUN_H

#include <sys/types.h>

#include "ns/request.h"

/* In the caller, once the namespaces exist: time offsets (and entering
   the new time namespace without fork), host name, propagation of /,
   root and working directory.  With json_fd, *NS_DIR becomes a
   descriptor of /proc/self/ns as it is before a new root hides it.  */
void ns_run_set_up (const struct ns_run *r, int *ns_dir);

/* Mount a new proc on R->mount_proc, not seen outside the new mount
   namespace.  */
void ns_run_mount_proc (const struct ns_run *r);

/* --json-status-fd: the line {"child-pid": CHILD, "NAME-namespace":
   INODE...} with the namespaces of NS_DIR (from ns_run_set_up); and
   --info-fd's text (ns/confine.h).  */
void ns_run_json_start (const struct ns_run *r, pid_t child, int ns_dir);

struct ns_keeper;

/* Run COMMAND in a child, forward signals, end as it ended; K: the
   keeper, told when the child exists to persist a PID namespace.
   PARENT: unshare-run's parent at the start, for die_with_parent.  */
_Noreturn void ns_run_forked (const struct ns_run *r, struct ns_keeper *k,
                              pid_t parent, int ns_dir);

/* Become COMMAND: new session, --block-fd, ids, capabilities,
   environment and working directory, no_new_privs, then the parent
   death signal DEATH_SIG (0: none), armed after the changes of user that
   would disarm it, and the seccomp program last (ns/confine.h); LIFELINE
   is the read end of a pipe whose write end only the parent holds, or -1
   to compare getppid() with PARENT.  Exits 126 or 127 if COMMAND cannot
   run or is not found.  */
_Noreturn void ns_run_exec (const struct ns_run *r, int death_sig,
                            int lifeline, pid_t parent);

#endif
