/* wait/loop.c -- the wait for targets or signals; see wait/loop.h.  */

#include <config.h>

#include "wait/loop.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "sys/calls.h"
#include "timespec.h"
#include "wait/pidfd.h"
#include "wait/selectpoll.h"
#include "wait/signals.h"
#include "xalloc.h"

void
wait_deadline (const struct timespec *now, const struct timespec *ts,
               struct timespec *deadline)
{
  /* gnulib's sum stops at the largest time_t and its last nanosecond.  */
  *deadline = timespec_add (*now, *ts);
}

void
wait_time_left (const struct timespec *deadline, const struct timespec *now,
                struct timespec *left)
{
  /* No overflow: the difference of two non-negative times.  */
  *left = (timespec_cmp (*deadline, *now) > 0
           ? timespec_sub (*deadline, *now) : make_timespec (0, 0));
}

/* The clock ticks from the boot to the start of this process: field 22
   of /proc/self/stat, after the name in parentheses.  0 or -errno.  */
static int
start_ticks (unsigned long long *ticks)
{
  char buf[1024];
  int fd = sys_openat (AT_FDCWD, "/proc/self/stat", O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    return fd;
  ssize_t got = sys_read (fd, buf, sizeof buf - 1);
  sys_close (fd);
  if (got < 0)
    return got;
  buf[got] = '\0';
  const char *p = strrchr (buf, ')');
  /* Fields 3 to 21 after the name, then starttime.  */
  for (int field = 2; p && field < 22; field++)
    p = strchr (p + 1, ' ');
  if (!p || sscanf (p + 1, "%llu", ticks) != 1)
    return -EINVAL;
  return 0;
}

void
wait_start_time (struct timespec *start)
{
  struct timespec boot, real;
  clock_gettime (CLOCK_REALTIME_COARSE, start);
  unsigned long long ticks;
  long hz = sysconf (_SC_CLK_TCK);
  if (start_ticks (&ticks) < 0 || hz <= 0
      || clock_gettime (CLOCK_BOOTTIME, &boot) != 0
      || clock_gettime (CLOCK_REALTIME, &real) != 0)
    return;
  struct timespec since_boot = make_timespec ((time_t) (ticks / hz),
                                              (long) (ticks % hz)
                                              * (1000000000 / hz));
  struct timespec age = timespec_sub (boot, since_boot);
  /* File times come from the coarse clock, up to a jiffy (10 ms at
     most) behind the real time that the start is counted in.  */
  if (timespec_sign (age) > 0)
    *start = timespec_sub (timespec_sub (real, age),
                           make_timespec (0, 10 * 1000 * 1000));
}

/* The time left until DEADLINE, into *LEFT: zero once it has passed.  */
static void
time_left (const struct timespec *deadline, struct timespec *left)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  wait_time_left (deadline, &now, left);
}

/* Record T, of poll entry PFD, as ready with REVENTS: a negative
   descriptor is skipped by the next ppoll.  */
static void
set_ready (struct target *t, struct pollfd *pfd, short revents)
{
  t->revents = revents;
  pfd->fd = -1;
}

/* Whether the process target T, whose pidfd PFD says it has ended, has
   its status known, or known to be unknown; else its parent has yet to
   reap it, and PFD waits for that alone: a pidfd is readable from the
   end on, and hangs up once the process is reaped.  0, 1, or -errno.  */
static int
process_settled (struct target *t, struct pollfd *pfd)
{
  int ret = process_status (t->fd, &t->wstatus);
  if (ret < 0)
    return ret;
  t->status = ret;
  if (ret != PROCESS_STATUS_PENDING)
    return 1;
  pfd->events = 0;
  return 0;
}

/* Whether target T, of poll entry PFD, is ready: a path once its watch
   says so, a process with STATUS once its status is settled.  0, 1, or
   -errno.  */
static int
target_ready (struct target *t, struct pollfd *pfd, bool status)
{
  if (t->kind == TARGET_PATH)
    return pathwatch_update (t->watch);
  if (t->kind == TARGET_PROCESS && status)
    return process_settled (t, pfd);
  return 1;
}

/* Record the N targets of T found ready by the last wait; return how
   many, or -errno with *FAILED the target whose path watch or process
   status failed.  */
static ssize_t
mark_ready (struct target *t, size_t n, struct pollfd *pfd, bool status,
            struct target **failed)
{
  size_t ready = 0;
  for (size_t i = 0; i < n; i++)
    if (pfd[i].fd >= 0 && pfd[i].revents)
      {
        int ret = target_ready (&t[i], &pfd[i], status);
        if (ret < 0)
          {
            *failed = &t[i];
            return ret;
          }
        if (ret == 0)
          continue;
        set_ready (&t[i], &pfd[i], pfd[i].revents);
        ready++;
      }
  return ready;
}

/* Record the path targets ready from the start, as ready; return how
   many.  */
static size_t
mark_ready_paths (struct target *t, size_t n, struct pollfd *pfd)
{
  size_t ready = 0;
  for (size_t i = 0; i < n; i++)
    if (t[i].kind == TARGET_PATH && pathwatch_ready (t[i].watch))
      {
        set_ready (&t[i], &pfd[i], POLLIN);
        ready++;
      }
  return ready;
}

/* Whether FOUND ready targets, WAITING others, end W's wait.  */
static bool
enough (const struct wait_request *w, size_t found, size_t waiting)
{
  if (w->all)
    return waiting == 0;
  return found >= (w->count ? w->count : 1);
}

/* Wait for W's targets, until DEADLINE; see wait_run.  */
static int
wait_targets (const struct wait_request *w, const struct timespec *deadline,
              struct target **failed)
{
  size_t n = w->n_targets;
  struct pollfd *pfd = xnmalloc (n, sizeof *pfd);
  for (size_t i = 0; i < n; i++)
    pfd[i] = (struct pollfd) { .fd = w->targets[i].fd,
                               .events = (w->targets[i].kind
                                          == TARGET_DESCRIPTOR
                                          ? w->events : POLLIN) };
  size_t found = mark_ready_paths (w->targets, n, pfd);
  size_t waiting = n - found;
  bool looked = false;
  int outcome;
  for (bool again = false;; again = true)
    {
      struct timespec no_time = { 0, 0 };
      struct timespec *wait_time = w->timeout;
      if (enough (w, found, waiting))
        {
          if (waiting == 0 || looked)
            {
              outcome = WAIT_READY;
              break;
            }
          wait_time = &no_time;
          looked = true;
        }
      /* Every wait but the first: the time left now.  */
      else if (w->timeout && again)
        time_left (deadline, w->timeout);
      int ret = (w->select ? select_poll (pfd, n, wait_time, w->mask)
                 : sys_ppoll (pfd, n, wait_time, w->mask));
      if (ret == -EINTR && !wait_caught_signal ())
        continue;
      if (ret < 0 && ret != -EINTR)
        {
          outcome = ret;
          break;
        }
      if (ret > 0)
        {
          ssize_t now = mark_ready (w->targets, n, pfd, w->status,
                                    failed);
          if (now < 0)
            {
              outcome = now;
              break;
            }
          found += now;
          waiting -= now;
          /* This wait saw every target ready at its end.  */
          looked = true;
          continue;
        }
      /* Targets found ready before a signal or the end of the time
         still end the wait as ready.  */
      if (enough (w, found, waiting))
        continue;
      outcome = ret == 0 ? WAIT_TIMEOUT : WAIT_SIGNAL;
      break;
    }
  free (pfd);
  return outcome;
}

/* Wait for a signal of W alone, until DEADLINE; see wait_run.  */
static int
wait_signals (const struct wait_request *w, const struct timespec *deadline)
{
  for (bool again = false;; again = true)
    {
      if (w->timeout && again)
        time_left (deadline, w->timeout);
      int ret;
      if (!w->timeout)
        ret = sys_rt_sigsuspend (w->mask);
      else if (w->select)
        ret = sys_pselect6 (0, NULL, NULL, NULL, w->timeout, w->mask);
      else
        ret = sys_ppoll (NULL, 0, w->timeout, w->mask);
      if (ret == -EINTR && wait_caught_signal ())
        return WAIT_SIGNAL;
      if (ret == 0)
        return WAIT_TIMEOUT;
      if (ret != -EINTR)
        return ret;
    }
}

int
wait_run (const struct wait_request *w, struct target **failed)
{
  *failed = NULL;
  struct timespec deadline;
  if (w->timeout)
    {
      struct timespec now;
      clock_gettime (CLOCK_MONOTONIC, &now);
      wait_deadline (&now, w->timeout, &deadline);
    }
  int outcome = (w->n_targets > 0 ? wait_targets (w, &deadline, failed)
                 : wait_signals (w, &deadline));
  if (w->timeout && outcome == WAIT_TIMEOUT)
    *w->timeout = make_timespec (0, 0);
  else if (w->timeout && outcome >= 0)
    time_left (&deadline, w->timeout);
  return outcome;
}
