/* wait/loop.h -- the wait itself: ppoll (or pselect6) over the targets'
   descriptors until one of them is ready, or all of them, a signal of the
   wait arrives, or a deadline passes; or, with no target, a wait for a
   signal alone.

   The wait is given the signal mask of wait/signals.h, which unblocks
   the WAKE signals for the wait alone; one caught ends it, where an
   interruption without one (a stop, made to end a wait) only makes it
   go on.  The deadline is on CLOCK_MONOTONIC, the clock of the kernel's
   own timeouts, which goes on while the process is stopped but not while
   the machine is suspended, like timeout(1)'s; every wait after an
   interruption is given the time left until it.  */

#ifndef NC_WAIT_LOOP_H
#define NC_WAIT_LOOP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "wait/target.h"

/* How a wait ended.  */
enum wait_outcome
{
  WAIT_READY,
  WAIT_TIMEOUT,
  WAIT_SIGNAL,
};

/* What to wait for, and how.  */
struct wait_request
{
  struct target *targets;        /* taken by targets_open */
  size_t n_targets;              /* 0: wait for a signal alone */
  short events;                  /* a descriptor target's poll events */
  bool all;                      /* until every target is ready */
  size_t count;                  /* until that many are; 0: one */
  bool status;                   /* a process is ready once its status
                                    is known, or known to be unknown */
  bool select;                   /* by pselect6 rather than ppoll (each
                                    descriptor below FD_SETSIZE) */
  const sigset_t *mask;          /* the signal mask during the wait */
  /* The time to wait, then the time it left; NULL: no deadline.  */
  struct timespec *timeout;
};

/* Wait as W says, the deadline W->timeout from now.  A ready target is
   not waited for again, its revents set to the events that made it
   ready: under W->all each counts once it has been seen ready.  A path
   target is ready once its watch says that its event happened (its
   descriptor only says that something changed on its way), with POLLIN;
   one ready from the start ends the wait as well, after one wait that
   does not sleep, which finds the other targets ready with it.  Targets
   found ready before a signal or the end of the time still end the wait
   as ready.  With W->status, an ended process whose parent has not
   reaped it yet is waited for until it is (process_status).  Without
   targets, the wait is rt_sigsuspend, or with a timeout ppoll (or
   pselect6) on no descriptor.

   Return how the wait ended, *W->timeout the time left (zero on a
   timeout: the kernel does not write it back under STICKY_TIMEOUTS); or
   -errno, the error of the wait, of a path target's watch or of a
   process target's status, then *FAILED (else NULL).  */
int wait_run (const struct wait_request *w, struct target **failed);

/* *DEADLINE = *NOW + *TS, two normalized, non-negative times; a sum
   beyond the largest time_t is that time_t, with the nanoseconds of the
   last second (a wait of "inf" has a deadline that never comes).  */
void wait_deadline (const struct timespec *now, const struct timespec *ts,
                    struct timespec *deadline);

/* *START = when this process started (forked), as the file times of
   the coarse clock would say it: from /proc/self/stat's start time (in
   clock ticks, rounded down), less a jiffy at most (10 ms); or, where
   that cannot be read, now on CLOCK_REALTIME_COARSE.  */
void wait_start_time (struct timespec *start);

/* *LEFT = *DEADLINE - *NOW, or zero once the deadline has passed.  */
void wait_time_left (const struct timespec *deadline,
                     const struct timespec *now, struct timespec *left);

#endif
