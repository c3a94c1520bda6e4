/* fuzz-duration.c -- duration_parse (ppoll-wait --timeout), against two
   references: an exact one in 128-bit arithmetic, part by part, for the
   value; and the rule of timeout(1) (strtod in the C locale, then at most
   one of the suffixes s, m, h, d) for which strings are taken where the
   two grammars meet.  Then what ppoll-wait does with a parsed duration:
   format it (--json), add it to the clock and take the time left.  */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cli/duration.h"
#include "wait/loop.h"
#include "fuzz.h"
#include "intprops.h"

#define NS_PER_S 1000000000

typedef unsigned __int128 u128;

/* The first value that is infinite: the seconds of the largest time_t
   and one more second, in nanoseconds.  */
static u128
infinite_ns (void)
{
  return ((u128) TYPE_MAXIMUM (time_t) + 1) * NS_PER_S;
}

/* A + B, or infinite_ns () if it is not below it.  */
static u128
sum_sat (u128 a, u128 b)
{
  u128 inf = infinite_ns ();
  return a >= inf || b >= inf || a + b >= inf ? inf : a + b;
}

/* The nanoseconds of UNIT, the LEN bytes at S; 0 if it is not one.  */
static unsigned long long
unit_ns (const char *s, size_t len, int *rank)
{
  static const char *const names[] = { "d", "h", "m", "s", "ms", "us",
                                       "ns" };
  static const unsigned long long ns[] = {
    86400ull * NS_PER_S, 3600ull * NS_PER_S, 60ull * NS_PER_S, NS_PER_S,
    1000000, 1000, 1 };
  for (int i = 0; i < 7; i++)
    if (strlen (names[i]) == len && strncmp (names[i], s, len) == 0)
      {
        *rank = i;
        return ns[i];
      }
  return 0;
}

static bool
is_hex (char c)
{
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')
         || (c >= 'A' && c <= 'F');
}

static bool
is_letter (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The value M * B^E * UNIT in nanoseconds, rounded up, saturated at
   infinite_ns (); M * UNIT fits in 128 bits.  */
static u128
scaled_ns (u128 m, unsigned int b, long e, unsigned long long unit)
{
  u128 x = m * unit;
  if (x == 0)
    return 0;
  for (; e > 0; e--)
    {
      if (x >= infinite_ns ())
        return infinite_ns ();
      x *= b;
    }
  /* Once the divisor is beyond X, the quotient rounds up to 1.  */
  u128 d = 1;
  for (; e < 0; e++)
    {
      if (d > x / b)
        return 1;
      d *= b;
    }
  x = x / d + (x % d != 0);
  return x >= infinite_ns () ? infinite_ns () : x;
}

/* The reference: the duration ARG in nanoseconds, saturated at
   infinite_ns (), in *NS: 1, and in *SIMPLE whether it is one number with
   no unit or one of timeout(1)'s; -1 for a malformed one; 0 for one with
   too many digits to check.  */
static int
reference_ns (const char *arg, u128 *ns, bool *simple)
{
  size_t i = 0, parts = 0;
  int prev_rank = -1;
  bool unchecked = false;
  *ns = 0;
  *simple = false;
  if (strncasecmp (arg, "inf", 3) == 0)
    {
      i = strncasecmp (arg, "infinity", 8) == 0 ? 8 : 3;
      int rank;
      size_t len = strlen (arg + i);
      if (len > 0 && !unit_ns (arg + i, len, &rank))
        return -1;
      *ns = infinite_ns ();
      *simple = len == 0 || rank <= 3;
      return 1;
    }
  while (arg[i] || parts == 0)
    {
      bool hex = arg[i] == '0' && (arg[i + 1] == 'x' || arg[i + 1] == 'X');
      if (hex)
        i += 2;
      u128 m = 0;
      int sig = 0;
      long n_frac = 0;
      bool point = false, any = false;
      for (; is_hex (arg[i]) || (arg[i] == '.' && !point); i++)
        {
          if (arg[i] == '.')
            {
              point = true;
              continue;
            }
          if (!hex && !(arg[i] >= '0' && arg[i] <= '9'))
            break;
          any = true;
          int v = arg[i] <= '9' ? arg[i] - '0' : (arg[i] | 0x20) - 'a' + 10;
          if (m != 0 || v != 0)
            sig++;
          if (sig > 20)
            unchecked = true;
          else
            m = m * (hex ? 16 : 10) + (u128) v;
          n_frac += point;
        }
      if (!any)
        return -1;
      long e = 0;
      if ((arg[i] | 0x20) == (hex ? 'p' : 'e'))
        {
          i++;
          bool minus = arg[i] == '-';
          if (arg[i] == '-' || arg[i] == '+')
            i++;
          if (!(arg[i] >= '0' && arg[i] <= '9'))
            return -1;
          int n_exp = 0;
          for (; arg[i] >= '0' && arg[i] <= '9'; i++)
            if (++n_exp <= 6)
              e = e * 10 + (arg[i] - '0');
            else
              unchecked = true;
          if (minus)
            e = -e;
        }
      size_t u = i;
      while (is_letter (arg[i]))
        i++;
      int rank = 3;
      unsigned long long unit = NS_PER_S;
      parts++;
      if (i > u)
        {
          unit = unit_ns (arg + u, i - u, &rank);
          if (!unit || rank <= prev_rank)
            return -1;
          if (arg[i] && !(arg[i] >= '0' && arg[i] <= '9') && arg[i] != '.')
            return -1;
        }
      else if (arg[i] || parts > 1)
        return -1;
      prev_rank = rank;
      *simple = parts == 1 && rank <= 3 && !arg[i];
      long exp = hex ? e - 4 * n_frac : e - n_frac;
      if (!unchecked)
        *ns = sum_sat (*ns, scaled_ns (m, hex ? 2 : 10, exp, unit));
    }
  return unchecked ? 0 : 1;
}

/* Whether timeout(1) takes ARG: strtod in the C locale, a non-negative
   result, then at most one of the suffixes s, m, h and d.  */
static bool
timeout_takes (const char *arg)
{
  char *end;
  double v = strtod (arg, &end);
  if (end == arg || !(v >= 0))
    return false;
  return !*end || (!end[1] && strchr ("smhd", *end));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *arg = fuzz_string (data, size);
  struct duration d;
  enum duration_error ret = duration_parse (arg, &d);
  char why[DURATION_MESSAGE_SIZE];
  const char *msg = duration_message (&d, arg, why);
  fuzz_assert (ret == d.error && (ret == DURATION_OK) == !msg,
               "duration_parse's error and message disagree");
  if (ret != DURATION_OK)
    fuzz_assert (d.ts.tv_sec == 0 && d.ts.tv_nsec == 0 && !d.infinite
                 && d.pos <= strlen (arg) && d.pos + d.len <= strlen (arg)
                 && strlen (msg) < DURATION_MESSAGE_SIZE - 1,
                 "a failed duration_parse left a value, or points outside");
  else
    fuzz_assert (d.ts.tv_sec >= 0 && d.ts.tv_nsec >= 0
                 && d.ts.tv_nsec < NS_PER_S
                 && (!d.infinite || (d.ts.tv_sec == TYPE_MAXIMUM (time_t)
                                     && d.ts.tv_nsec == NS_PER_S - 1)),
                 "a parsed duration is not a normalized, non-negative one");

  u128 ns;
  bool simple;
  int ref = reference_ns (arg, &ns, &simple);
  if (ref < 0)
    fuzz_assert (ret != DURATION_OK, "a malformed duration parsed");
  else if (ref > 0 && ns >= infinite_ns ())
    fuzz_assert (ret == DURATION_OK && d.infinite,
                 "an infinite duration is not");
  else if (ref > 0)
    fuzz_assert (ret == DURATION_OK && !d.infinite
                 && (u128) d.ts.tv_sec * NS_PER_S + (u128) d.ts.tv_nsec == ns,
                 "a duration is not what it says, rounded up");

  /* Where the grammars meet, timeout(1)'s verdict: a string without sign
     or blank in front, and one number with at most its units.  */
  if (strchr ("0123456789.iInN", arg[0]) && arg[0])
    {
      if (timeout_takes (arg))
        fuzz_assert (ret == DURATION_OK, "timeout(1) takes it, not we");
      else if (ret == DURATION_OK)
        fuzz_assert (ref == 0 || !simple,
                     "we take a plain number timeout(1) refuses");
    }

  if (ret == DURATION_OK)
    {
      /* --json writes it; it must read back the same.  */
      char buf[DURATION_BUFSIZE];
      struct duration again;
      fuzz_assert (duration_parse (duration_format (&d.ts, buf), &again)
                   == DURATION_OK
                   && again.ts.tv_sec == d.ts.tv_sec
                   && again.ts.tv_nsec == d.ts.tv_nsec,
                   "a formatted duration does not parse back to itself");

      /* A deadline a whole duration away leaves that duration, unless it
         was beyond the last time_t, where it stops.  */
      struct timespec now = { 1700000000, NS_PER_S - 1 }, deadline, left;
      wait_deadline (&now, &d.ts, &deadline);
      wait_time_left (&deadline, &now, &left);
      fuzz_assert (deadline.tv_nsec >= 0 && deadline.tv_nsec < NS_PER_S,
                   "a deadline is not normalized");
      if (d.ts.tv_sec < TYPE_MAXIMUM (time_t) - now.tv_sec - 1)
        fuzz_assert (left.tv_sec == d.ts.tv_sec
                     && left.tv_nsec == d.ts.tv_nsec,
                     "the time left at once is not the duration");
      else
        fuzz_assert (deadline.tv_sec == TYPE_MAXIMUM (time_t)
                     || (left.tv_sec == d.ts.tv_sec
                         && left.tv_nsec == d.ts.tv_nsec),
                     "an overflowing deadline does not stop at the end of "
                     "time_t");
    }
  free (arg);
  return 0;
}
