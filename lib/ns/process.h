/* ns/process.h -- what the processes of unshare-run share: how they
   leave, unshare(2) as they make it, the signal state COMMAND gets back,
   the pipes between them and waiting for a child.

   A process forked by ns/run.c or ns/keeper.c ends by _exit, so that
   neither standard output nor the sanitizers' exit checks run twice; a
   failure is reported as error() does, then the process ends with
   status 1 (ns_run_fail).  */

#ifndef NC_NS_PROCESS_H
#define NC_NS_PROCESS_H

#include <stdlib.h>
#include <sys/types.h>

#include "error.h"
#include "sys/calls.h"

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

/* Give back the mask ns_run_save_signals saved, and SIGCHLD's action
   before ns_run_default_sigchld: for COMMAND, just before it runs.  */
void ns_run_restore_signals (void);

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

#endif
