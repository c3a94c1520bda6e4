/* wait/kill.c -- what a deadline does to the processes waited for; see
   wait/kill.h.  */

#include <config.h>

#include "wait/kill.h"

#include <poll.h>
#include <stdlib.h>

#include "wait/loop.h"
#include "wait/pidfd.h"
#include "xalloc.h"

/* Send SIG to each process target of the N of T not ended; return how
   many were sent it, or -errno with *FAILED the one that failed.  */
static int
signal_processes (struct target *t, size_t n, int sig,
                  struct target **failed)
{
  int sent = 0;
  for (size_t i = 0; i < n; i++)
    if (t[i].kind == TARGET_PROCESS && !t[i].revents)
      {
        int ret = process_signal (t[i].fd, sig);
        if (ret < 0)
          {
            *failed = &t[i];
            return ret;
          }
        sent++;
      }
  return sent;
}

/* Wait for the end of each process target of the N of T not ended,
   TIMEOUT at most (NULL: no limit); mark the ones that end ready.
   Return the outcome of wait_run, or -errno with *FAILED.  */
static int
wait_processes (struct target *t, size_t n, const struct wait_kill *k,
                const struct timespec *timeout, struct target **failed)
{
  struct target **of = xnmalloc (n, sizeof *of);
  struct target *left = xnmalloc (n, sizeof *left);
  size_t n_left = 0;
  for (size_t i = 0; i < n; i++)
    if (t[i].kind == TARGET_PROCESS && !t[i].revents)
      {
        of[n_left] = &t[i];
        left[n_left++] = t[i];
      }
  struct timespec time_left = timeout ? *timeout : (struct timespec) { 0 };
  struct wait_request w = {
    .targets = left, .n_targets = n_left, .events = POLLIN, .all = true,
    .mask = k->mask, .timeout = timeout ? &time_left : NULL,
    .status = k->status };
  int outcome = wait_run (&w, failed);
  for (size_t i = 0; i < n_left; i++)
    {
      if (*failed == &left[i])
        *failed = of[i];
      *of[i] = left[i];
    }
  free (left);
  free (of);
  return outcome;
}

int
wait_kill (struct target *t, size_t n, const struct wait_kill *k,
           struct target **failed)
{
  *failed = NULL;
  int ret = signal_processes (t, n, k->signal, failed);
  if (ret <= 0)
    return ret;
  int sent = k->signal;
  ret = wait_processes (t, n, k, sent == SIGKILL ? NULL : k->grace,
                        failed);
  if (ret == WAIT_TIMEOUT)
    {
      ret = signal_processes (t, n, SIGKILL, failed);
      if (ret > 0)
        {
          sent = SIGKILL;
          ret = wait_processes (t, n, k, NULL, failed);
        }
    }
  return ret < 0 ? ret : sent;
}
