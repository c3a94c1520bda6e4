/* exec/inherit.h -- what a tool changes of the state that a program it execs
   would inherit, recorded so that it can be put back before execve:
   the actions of the signals it catches (an inherited SIG_IGN would
   otherwise become SIG_DFL across execve) and the personality, which
   execve keeps.  One record per process; not async-signal-safe.  */

#ifndef NC_EXEC_INHERIT_H
#define NC_EXEC_INHERIT_H

#include <signal.h>

/* sigaction (SIG, SA, NULL), the action SIG had before the first change
   kept for inherit_restore.  Return 0 or -errno.  */
int inherit_sigaction (int sig, const struct sigaction *sa);

/* Have every interrupted wait return EINTR, with its timeout argument
   left alone: the STICKY_TIMEOUTS personality.  Otherwise the kernel
   restarts a wait interrupted by a stop (SIGSTOP, SIGTSTP...) by itself,
   with the time that was left when it stopped, so that the time stopped
   would not count.  The personality before is kept for inherit_restore.
   Return 0 (also if it was set already) or -errno (a seccomp filter, as
   container runtimes install, may refuse the call).  */
int inherit_sticky_timeouts (void);

/* Put back the personality, then the actions of the signals changed by
   inherit_sigaction.  Return 0, or -errno with *WHAT naming what could
   not be put back ("the personality", "a signal's action").  */
int inherit_restore (const char **what);

/* Discard the signals of SET that are pending, blocked, for this process
   (setting SIG_IGN discards a pending signal), leaving their actions as
   they are.  Return 0 or -errno.  */
int inherit_discard_pending (const sigset_t *set);

#endif
