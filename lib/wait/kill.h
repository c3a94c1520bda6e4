/* wait/kill.h -- what a deadline does to the processes waited for:
   a signal through each one's pidfd, then, if they outlive a grace
   period, KILL, as timeout(1) does to its child, but for any process
   and with no pid that could have been reused.  */

#ifndef NC_WAIT_KILL_H
#define NC_WAIT_KILL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "wait/target.h"

/* What to send, and how long to wait before KILL.  */
struct wait_kill
{
  int signal;                    /* sent first */
  const struct timespec *grace;  /* then KILL after this; NULL: never */
  const sigset_t *mask;          /* the signal mask of the waits */
  bool status;                   /* as struct wait_request's */
};

/* Send K->signal to each process target of the N targets T that has
   not ended, wait for their end (K->grace at most, then send KILL to
   those left and wait for their end), a wake signal of K->mask ending
   the waits early.  The targets that ended are marked ready as wait_run
   marks them.  Return the last signal sent, 0 if none was (they had all
   ended), or -errno with *FAILED the target that could not be signalled
   (EPERM) or waited for.  */
int wait_kill (struct target *t, size_t n, const struct wait_kill *k,
               struct target **failed);

#endif
