/* copy/meter.c -- splice-in's and splice-out's progress line and rate
   limit; see copy/meter.h.  */

#include <config.h>

#include "copy/meter.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>

enum { NSEC_PER_SEC = 1000000000 };

/* With --progress alone, the most one call moves: the line moves at
   least every few milliseconds of a fast copy, and a copy between two
   regular files (copy_file_range, a gigabyte a call) is no exception.  */
enum { PROGRESS_MAX_CALL = 16 << 20 };

/* The bucket of a rate limit: an eighth of a second's bytes, no less
   than one, no more than the largest pipe a user gets by default.  */
static double
bucket_of (uint64_t rate)
{
  uint64_t b = rate / 8;
  return b < 1 ? 1 : b > COPY_DEFAULT_PIPE_SIZE ? COPY_DEFAULT_PIPE_SIZE : b;
}

static double
seconds_between (const struct timespec *a, const struct timespec *b)
{
  return (double) (b->tv_sec - a->tv_sec)
         + (double) (b->tv_nsec - a->tv_nsec) / 1e9;
}

/* Sleep SECS seconds, signals or not: to an absolute time, so that an
   interrupted sleep is resumed for what is left.  */
static void
sleep_for (const struct timespec *from, double secs)
{
  struct timespec until = *from;
  time_t whole = (time_t) secs;
  until.tv_sec += whole;
  until.tv_nsec += (long) ((secs - (double) whole) * NSEC_PER_SEC);
  if (until.tv_nsec >= NSEC_PER_SEC)
    {
      until.tv_sec++;
      until.tv_nsec -= NSEC_PER_SEC;
    }
  while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL)
         == EINTR)
    continue;
}

/* N bytes were taken from M's bucket: refill it for the time gone by,
   and sleep until it is no longer in debt.  */
static void
throttle (struct pipe_meter *m, uint64_t n)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  m->tokens += seconds_between (&m->filled, &now) * (double) m->rate;
  if (m->tokens > m->bucket)
    m->tokens = m->bucket;
  m->filled = now;
  m->tokens -= (double) n;
  if (m->tokens < 0)
    sleep_for (&now, -m->tokens / (double) m->rate);
}

/* The line: the bytes, of how many with the share done, the rate, and
   the time left; the last one the time taken instead.  */
static void
draw_line (struct pipe_meter *m, bool last)
{
  char b1[PROGRESS_WORD_SIZE], b2[PROGRESS_WORD_SIZE];
  char b3[PROGRESS_WORD_SIZE], left[PROGRESS_WORD_SIZE];
  double secs = progress_seconds (&m->bar);
  uintmax_t per_sec = progress_rate (m->bytes, secs);
  const char *done = progress_bytes (m->bytes, b1);
  const char *rate = progress_bytes (per_sec, b2);
  if (last)
    progress_draw (&m->bar, true, "%s in %.1f s, %s/s", done, secs, rate);
  else if (m->size && m->bytes <= m->size)
    progress_draw (&m->bar, false, "%s of %s (%" PRIu64 "%%), %s/s, ETA %s",
                   done, progress_bytes (m->size, b3),
                   m->bytes * 100 / m->size, rate,
                   per_sec ? progress_duration ((double) (m->size - m->bytes)
                                                / (double) per_sec, left)
                           : "?");
  else
    progress_draw (&m->bar, false, "%s, %s/s, %.0f s", done, rate, secs);
}

static void
moved (struct copy_meter *hook, uint64_t n)
{
  struct pipe_meter *m = (struct pipe_meter *) hook;
  m->bytes += n;
  if (m->rate)
    throttle (m, n);
  if (m->draw && progress_due (&m->bar))
    draw_line (m, false);
}

struct copy_meter *
pipe_meter_start (struct pipe_meter *m, bool progress, uint64_t rate,
                  uint64_t size)
{
  *m = (struct pipe_meter) { .rate = rate, .size = size };
  progress_start (&m->bar, progress);
  m->draw = progress && m->bar.tty;
  if (!m->draw && !rate)
    return NULL;
  m->hook.moved = moved;
  m->hook.max_call = PROGRESS_MAX_CALL;
  if (rate)
    {
      m->bucket = m->tokens = bucket_of (rate);
      m->hook.max_call = (size_t) m->bucket;
      m->filled = m->bar.start;
    }
  return &m->hook;
}

void
pipe_meter_end (struct pipe_meter *m, bool succeeded)
{
  if (!m->draw)
    return;
  if (succeeded && progress_finish (&m->bar))
    draw_line (m, true);
  else
    progress_clear (&m->bar);
}
