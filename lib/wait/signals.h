/* wait/signals.h -- the signals of a wait: those that end it (WAKE),
   caught, and those that it leaves blocked (IGNORE), both blocked
   outside the wait, so that the kernel unblocks them for the wait alone
   (in the mask given to ppoll, pselect6 or rt_sigsuspend) and none is
   lost between a check and the sleep; a stop made to end a wait, which
   is then given the time left; and all of it put back before a command
   is run.  The actions changed and the personality are recorded by
   exec/inherit, one record per process.  */

#ifndef NC_WAIT_SIGNALS_H
#define NC_WAIT_SIGNALS_H

#include <signal.h>

/* Block the WAKE and IGNORE signals from now on, *INHERITED the mask
   before, and set *MASK to the mask of the wait: the one inherited, plus
   IGNORE, less WAKE.  Return 0 or -errno.  */
int wait_block_signals (const sigset_t *wake, const sigset_t *ignore,
                        sigset_t *inherited, sigset_t *mask);

/* Handle the WAKE signals: the first to arrive is recorded, for
   wait_caught_signal.  While a handler runs, the other WAKE signals stay
   blocked, and the mask restored when it returns blocks them all again:
   a wait is ended by one signal, the first.  Return 0, or -errno with
   *FAILED the signal whose action could not be set.  */
int wait_catch_signals (const sigset_t *wake, int *failed);

/* The first of the WAKE signals that arrived, 0 while none has.  */
int wait_caught_signal (void);

/* Make a stop end a wait with EINTR, so that the wait that follows is
   given the time left until the deadline: by the STICKY_TIMEOUTS
   personality, else by a handler of SIGCONT, unblocked in the wait's
   *MASK, unless SIGCONT is a WAKE signal (a continue then ends the wait)
   or an IGNORE one (the time stopped is then not counted).  Return 0, or
   -errno if SIGCONT could not be caught.  */
int wait_count_stops (const sigset_t *wake, const sigset_t *ignore,
                      sigset_t *mask);

/* Put back what the functions above changed of what a command inherits:
   the personality, the signals' actions and the mask, INHERITED.  An
   IGNORE signal that they blocked and that arrived meanwhile is
   discarded, as an exit would discard it; a WAKE signal that arrived
   after the wait had ended, and any other, stays pending, to take its
   inherited action as the mask is restored, or, blocked by the caller,
   to be the command's.  Return 0, or -errno with *WHAT naming what could
   not be put back ("the personality", "a signal's action", "the signal
   mask"), NULL for a pending signal that could not be discarded.  */
int wait_restore_signals (const sigset_t *ignore, const sigset_t *inherited,
                          const char **what);

#endif
