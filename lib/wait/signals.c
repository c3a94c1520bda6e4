/* wait/signals.c -- the signals of a wait; see wait/signals.h.  */

#include <config.h>

#include "wait/signals.h"

#include "exec/inherit.h"
#include "sys/calls.h"

/* The first of the WAKE signals that arrived.  The handler runs only
   inside the wait, where the signals are unblocked.  */
static volatile sig_atomic_t caught_signal;

static void
catch_signal (int sig)
{
  if (!caught_signal)
    caught_signal = sig;
}

/* The handler of SIGCONT where the personality is refused: it does
   nothing, but its mere presence makes the kernel end a wait that a stop
   interrupted with EINTR instead of restarting it.  */
static void
on_continue (int sig)
{
  (void) sig;
}

int
wait_block_signals (const sigset_t *wake, const sigset_t *ignore,
                    sigset_t *inherited, sigset_t *mask)
{
  sigset_t block;
  sigemptyset (&block);
  for (int sig = 1; sig < NSIG; sig++)
    if (sigismember (wake, sig) == 1 || sigismember (ignore, sig) == 1)
      sigaddset (&block, sig);
  int ret = sys_rt_sigprocmask (SIG_BLOCK, &block, inherited);
  if (ret < 0)
    return ret;
  *mask = *inherited;
  for (int sig = 1; sig < NSIG; sig++)
    {
      if (sigismember (ignore, sig) == 1)
        sigaddset (mask, sig);
      if (sigismember (wake, sig) == 1)
        sigdelset (mask, sig);
    }
  return 0;
}

int
wait_catch_signals (const sigset_t *wake, int *failed)
{
  struct sigaction sa = { .sa_handler = catch_signal };
  sa.sa_mask = *wake;
  for (int sig = 1; sig < NSIG; sig++)
    if (sigismember (wake, sig) == 1)
      {
        int ret = inherit_sigaction (sig, &sa);
        if (ret < 0)
          {
            *failed = sig;
            return ret;
          }
      }
  return 0;
}

int
wait_caught_signal (void)
{
  return caught_signal;
}

int
wait_count_stops (const sigset_t *wake, const sigset_t *ignore,
                  sigset_t *mask)
{
  if (inherit_sticky_timeouts () == 0 || sigismember (wake, SIGCONT) == 1
      || sigismember (ignore, SIGCONT) == 1)
    return 0;
  struct sigaction sa = { .sa_handler = on_continue };
  int ret = inherit_sigaction (SIGCONT, &sa);
  if (ret < 0)
    return ret;
  sigdelset (mask, SIGCONT);
  return 0;
}

int
wait_restore_signals (const sigset_t *ignore, const sigset_t *inherited,
                      const char **what)
{
  int ret = inherit_restore (what);
  if (ret < 0)
    return ret;
  sigset_t discard;
  sigemptyset (&discard);
  for (int sig = 1; sig < NSIG; sig++)
    if (sigismember (ignore, sig) == 1 && sigismember (inherited, sig) != 1)
      sigaddset (&discard, sig);
  *what = NULL;
  ret = inherit_discard_pending (&discard);
  if (ret < 0)
    return ret;
  *what = "the signal mask";
  return sys_rt_sigprocmask (SIG_SETMASK, inherited, NULL);
}
