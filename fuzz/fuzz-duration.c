/* fuzz-duration.c -- duration_parse (ppoll-wait --timeout), against an
   exact reference in 128-bit arithmetic, and what ppoll-wait does with a
   parsed duration: format it (--json), add it to the clock and take the
   time left.  */

#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "fuzz.h"
#include "intprops.h"

#define NS_PER_S 1000000000

typedef unsigned __int128 u128;

/* Nanoseconds of each unit duration.h lists.  */
static u128
unit_ns (const char *suffix, bool *known)
{
  static const struct
  {
    const char *suffix;
    unsigned long long ns;
  } units[] = {
    { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "", NS_PER_S },
    { "s", NS_PER_S }, { "m", 60ull * NS_PER_S }, { "h", 3600ull * NS_PER_S },
    { "d", 86400ull * NS_PER_S },
  };
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (strcmp (suffix, units[i].suffix) == 0)
      {
        *known = true;
        return units[i].ns;
      }
  *known = false;
  return 0;
}

/* The duration ARG in nanoseconds, rounded up, if it has at most 20
   digits (so that digits * unit fits in 128 bits): 1 and *NS, -EINVAL
   for a malformed one, 0 for one too long to check.  */
static int
reference_ns (const char *arg, u128 *ns)
{
  u128 digits = 0, scale = 1;
  int count = 0;
  bool point = false, any = false;
  const char *p = arg;
  for (; (*p >= '0' && *p <= '9') || (*p == '.' && !point); p++)
    {
      if (*p == '.')
        {
          point = true;
          continue;
        }
      any = true;
      if (++count > 20)
        return 0;
      digits = digits * 10 + (u128) (*p - '0');
      if (point)
        scale *= 10;
    }
  bool known;
  u128 unit = unit_ns (p, &known);
  if (!any || !known)
    return -EINVAL;
  *ns = (digits * unit + scale - 1) / scale;
  return 1;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *arg = fuzz_string (data, size);
  struct timespec ts = { -1, -1 };
  int ret = duration_parse (arg, &ts);
  fuzz_assert (ret == 0 || ret == -EINVAL || ret == -ERANGE,
               "duration_parse returned neither 0, -EINVAL nor -ERANGE");
  if (ret < 0)
    fuzz_assert (ts.tv_sec == -1 && ts.tv_nsec == -1,
                 "a failed duration_parse changed its result");
  else
    fuzz_assert (ts.tv_sec >= 0 && ts.tv_nsec >= 0 && ts.tv_nsec < NS_PER_S,
                 "a parsed duration is not a normalized, non-negative one");

  u128 ns;
  int ref = reference_ns (arg, &ns);
  if (ref == -EINVAL)
    fuzz_assert (ret == -EINVAL, "a malformed duration parsed");
  else if (ref == 1 && ns / NS_PER_S > (u128) TYPE_MAXIMUM (time_t))
    fuzz_assert (ret == -ERANGE, "a duration beyond time_t parsed");
  else if (ref == 1)
    fuzz_assert (ret == 0 && (u128) ts.tv_sec * NS_PER_S + (u128) ts.tv_nsec
                 == ns, "a duration is not what it says, rounded up");

  if (ret == 0)
    {
      /* --json writes it; it must read back the same.  */
      char buf[DURATION_BUFSIZE];
      struct timespec again;
      fuzz_assert (duration_parse (duration_format (&ts, buf), &again) == 0
                   && again.tv_sec == ts.tv_sec
                   && again.tv_nsec == ts.tv_nsec,
                   "a formatted duration does not parse back to itself");

      /* A deadline a whole duration away leaves that duration, unless it
         was beyond the last time_t, where it stops.  */
      struct timespec now = { 1700000000, NS_PER_S - 1 }, deadline, left;
      duration_deadline (&now, &ts, &deadline);
      duration_left (&deadline, &now, &left);
      fuzz_assert (deadline.tv_nsec >= 0 && deadline.tv_nsec < NS_PER_S,
                   "a deadline is not normalized");
      if (ts.tv_sec < TYPE_MAXIMUM (time_t) - now.tv_sec - 1)
        fuzz_assert (left.tv_sec == ts.tv_sec && left.tv_nsec == ts.tv_nsec,
                     "the time left at once is not the duration");
      else
        fuzz_assert (deadline.tv_sec == TYPE_MAXIMUM (time_t)
                     || (left.tv_sec == ts.tv_sec
                         && left.tv_nsec == ts.tv_nsec),
                     "an overflowing deadline does not stop at the end of "
                     "time_t");
    }
  free (arg);
  return 0;
}
