/* duration.c -- durations as a struct timespec; see duration.h.  */

#include <config.h>

#include "duration.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "stdckdint.h"

#define NS_PER_S 1000000000u
#define NS_PER_S_LONG 1000000000L

/* The units, each as a number of nanoseconds.  The largest, a day, times
   ten still fits in 64 bits with a lot of room, which the arithmetic
   below relies on.  */
static const struct
{
  const char *suffix;
  uint64_t ns;
} units[] = {
  { "ns", 1 },
  { "us", 1000 },
  { "ms", 1000 * 1000 },
  { "", NS_PER_S },
  { "s", NS_PER_S },
  { "m", 60ull * NS_PER_S },
  { "h", 60ull * 60 * NS_PER_S },
  { "d", 24ull * 60 * 60 * NS_PER_S },
};

static bool
is_digit (char c)
{
  return '0' <= c && c <= '9';
}

/* *SEC, *NSEC += NS nanoseconds, with *NSEC kept below a second.  Return
   false if the seconds overflow.  */
static bool
add_ns (time_t *sec, uint64_t *nsec, uint64_t ns)
{
  *nsec += ns % NS_PER_S;
  uint64_t carry = ns / NS_PER_S + *nsec / NS_PER_S;
  *nsec %= NS_PER_S;
  return !ckd_add (sec, *sec, carry);
}

int
duration_parse (const char *arg, struct timespec *ts)
{
  const char *int_begin = arg;
  const char *p = arg;
  while (is_digit (*p))
    p++;
  const char *int_end = p;
  const char *frac_begin = p, *frac_end = p;
  if (*p == '.')
    {
      frac_begin = ++p;
      while (is_digit (*p))
        p++;
      frac_end = p;
    }
  if (int_begin == int_end && frac_begin == frac_end)
    return -EINVAL;

  uint64_t unit = 0;
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (strcmp (p, units[i].suffix) == 0)
      unit = units[i].ns;
  if (!unit)
    return -EINVAL;

  /* The whole units, a digit at a time: value = 10 * value + digit * unit,
     the value kept as seconds and nanoseconds.  */
  time_t sec = 0;
  uint64_t nsec = 0;
  for (p = int_begin; p < int_end; p++)
    {
      uint64_t nsec10 = nsec * 10;
      if (ckd_mul (&sec, sec, 10)
          || ckd_add (&sec, sec, nsec10 / NS_PER_S))
        return -ERANGE;
      nsec = nsec10 % NS_PER_S;
      if (!add_ns (&sec, &nsec, (uint64_t) (*p - '0') * unit))
        return -ERANGE;
    }

  /* The fraction of a unit, in nanoseconds, rounded up: Horner's scheme
     from the last digit, q = (digit * unit + q) / 10.  Flooring at each
     step floors the exact result (floor ((n + x) / 10) = floor ((n +
     floor (x)) / 10) for an integer n), and the result is exact only if no
     step left a remainder.  q stays below unit, so digit * unit + q below
     10 * unit.  */
  uint64_t q = 0;
  bool inexact = false;
  for (p = frac_end; p > frac_begin; p--)
    {
      uint64_t t = (uint64_t) (p[-1] - '0') * unit + q;
      q = t / 10;
      inexact |= t % 10 != 0;
    }
  if (!add_ns (&sec, &nsec, q + inexact))
    return -ERANGE;

  ts->tv_sec = sec;
  ts->tv_nsec = (long) nsec;
  return 0;
}

void
duration_deadline (const struct timespec *now, const struct timespec *ts,
                   struct timespec *deadline)
{
  /* Below 2e9: fits in a 32-bit long.  */
  long nsec = now->tv_nsec + ts->tv_nsec;
  time_t carry = nsec >= NS_PER_S_LONG;
  if (carry)
    nsec -= NS_PER_S_LONG;
  time_t sec;
  if (ckd_add (&sec, now->tv_sec, ts->tv_sec) || ckd_add (&sec, sec, carry))
    {
      sec = TYPE_MAXIMUM (time_t);
      nsec = NS_PER_S_LONG - 1;
    }
  deadline->tv_sec = sec;
  deadline->tv_nsec = nsec;
}

void
duration_left (const struct timespec *deadline, const struct timespec *now,
               struct timespec *left)
{
  if (deadline->tv_sec < now->tv_sec
      || (deadline->tv_sec == now->tv_sec
          && deadline->tv_nsec <= now->tv_nsec))
    {
      *left = (struct timespec) { 0, 0 };
      return;
    }
  /* No overflow: the difference of two non-negative times.  */
  time_t sec = deadline->tv_sec - now->tv_sec;
  long nsec = deadline->tv_nsec - now->tv_nsec;
  if (nsec < 0)
    {
      nsec += NS_PER_S_LONG;
      sec--;
    }
  left->tv_sec = sec;
  left->tv_nsec = nsec;
}

char *
duration_format (const struct timespec *ts, char buf[DURATION_BUFSIZE])
{
  snprintf (buf, DURATION_BUFSIZE, "%jd.%09ld", (intmax_t) ts->tv_sec,
            ts->tv_nsec);
  return buf;
}
