/* exec/inherit.c -- state a program would inherit, put back; see
   exec/inherit.h.  */

#include <config.h>

#include "exec/inherit.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/personality.h>

static struct sigaction inherited_actions[NSIG];
static sigset_t changed_actions;        /* zero: empty, as sigemptyset */
static int inherited_persona = -1;     /* -1: the personality is as it was */

int
inherit_sigaction (int sig, const struct sigaction *sa)
{
  bool kept = sigismember (&changed_actions, sig) == 1;
  if (sigaction (sig, sa, kept ? NULL : &inherited_actions[sig]) != 0)
    return -errno;
  sigaddset (&changed_actions, sig);
  return 0;
}

int
inherit_sticky_timeouts (void)
{
  int persona = personality (0xffffffff);
  if (persona < 0)
    return -errno;
  if (persona & STICKY_TIMEOUTS)
    return 0;
  if (personality ((unsigned long) persona | STICKY_TIMEOUTS) < 0)
    return -errno;
  inherited_persona = persona;
  return 0;
}

int
inherit_restore (const char **what)
{
  *what = "the personality";
  if (inherited_persona >= 0
      && personality ((unsigned long) inherited_persona) < 0)
    return -errno;
  *what = "a signal's action";
  for (int sig = 1; sig < NSIG; sig++)
    if (sigismember (&changed_actions, sig) == 1
        && sigaction (sig, &inherited_actions[sig], NULL) != 0)
      return -errno;
  return 0;
}

int
inherit_discard_pending (const sigset_t *set)
{
  for (int sig = 1; sig < NSIG; sig++)
    if (sigismember (set, sig) == 1)
      {
        struct sigaction discard = { .sa_handler = SIG_IGN }, old;
        if (sigaction (sig, &discard, &old) != 0
            || sigaction (sig, &old, NULL) != 0)
          return -errno;
      }
  return 0;
}
