/* cli/duration.c -- durations as a struct timespec; see cli/duration.h.  */

#include <config.h>

#include "cli/duration.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "c-ctype.h"
#include "cli/number.h"
#include "stdckdint.h"

#define NS_PER_S 1000000000u
#define NS_PER_S_LONG 1000000000L

/* The units, largest first: a compound duration takes them in this
   order.  Each as a number of nanoseconds; the largest, a day, times 10
   (the largest base) still fits in 64 bits with a lot of room, which the
   arithmetic below relies on.  */
static const struct
{
  const char *name;
  uint64_t ns;
} units[] = {
  { "d", 24ull * 60 * 60 * NS_PER_S },
  { "h", 60ull * 60 * NS_PER_S },
  { "m", 60ull * NS_PER_S },
  { "s", NS_PER_S },
  { "ms", 1000 * 1000 },
  { "us", 1000 },
  { "ns", 1 },
};
enum { N_UNITS = sizeof units / sizeof units[0], UNIT_SECONDS = 3 };

/* A bound on an exponent's magnitude, beyond the length of any string:
   past it, a number that is not zero is below a nanosecond or above the
   largest time_t whatever its digits.  */
#define EXPONENT_MAX INT64_C (1000000000000000)

/* A duration being summed up: seconds, and nanoseconds below a second.
   OVERFLOW once the seconds no longer fit in a time_t.  */
struct sum
{
  time_t sec;
  uint64_t nsec;
  bool overflow;
};

/* *S += NS nanoseconds.  */
static void
add_ns (struct sum *s, uint64_t ns)
{
  s->nsec += ns % NS_PER_S;
  uint64_t carry = ns / NS_PER_S + s->nsec / NS_PER_S;
  s->nsec %= NS_PER_S;
  s->overflow |= ckd_add (&s->sec, s->sec, carry);
}

/* *S *= BASE, 2 or 10.  */
static void
multiply (struct sum *s, unsigned int base)
{
  uint64_t nsec = s->nsec * base;
  s->overflow |= (ckd_mul (&s->sec, s->sec, base)
                  || ckd_add (&s->sec, s->sec, nsec / NS_PER_S));
  s->nsec = nsec % NS_PER_S;
}

/* A number as written, before its unit.  Its digits are those of
   [INT_BEGIN, INT_END) then of [FRAC_BEGIN, FRAC_END), in BASE 10, or
   for a 0x number in base 2, each hexadecimal digit being 4 of them;
   POINT is the number of digits before the point, the exponent
   included.  */
struct number
{
  const char *int_begin, *int_end, *frac_begin, *frac_end;
  unsigned int base;
  int64_t point;
};

static int
hex_value (char c)
{
  return c_isdigit (c) ? c - '0' : c_tolower (c) - 'a' + 10;
}

/* The number of digits of N.  */
static int64_t
n_digits (const struct number *n)
{
  int64_t len = ((n->int_end - n->int_begin) + (n->frac_end - n->frac_begin));
  return n->base == 2 ? 4 * len : len;
}

/* Digit I of N, 0 <= I < n_digits (N).  */
static unsigned int
digit (const struct number *n, int64_t i)
{
  int64_t per_char = n->base == 2 ? 4 : 1;
  int64_t c = i / per_char;
  int64_t n_int = n->int_end - n->int_begin;
  char ch = c < n_int ? n->int_begin[c] : n->frac_begin[c - n_int];
  if (n->base == 10)
    return ch - '0';
  return (hex_value (ch) >> (3 - i % 4)) & 1;
}

/* *S += N times UNIT nanoseconds, the fraction of a nanosecond rounded
   up.  */
static void
add_number (struct sum *s, const struct number *n, uint64_t unit)
{
  int64_t len = n_digits (n);
  int64_t first = 0;
  while (first < len && digit (n, first) == 0)
    first++;
  if (first == len)
    return;

  /* The whole nanoseconds, a digit at a time: value = base * value +
     digit * unit, from the first nonzero digit (so that a huge exponent
     overflows within a hundred steps) to the point, the digits past the
     last written one being zeros.  */
  struct sum whole = { 0, 0, false };
  for (int64_t i = first; i < n->point && !whole.overflow; i++)
    {
      multiply (&whole, n->base);
      if (i < len)
        add_ns (&whole, digit (n, i) * unit);
    }

  /* The fraction of a unit, in nanoseconds, rounded up: Horner's scheme
     from the last digit, q = (digit * unit + q) / base.  Flooring at each
     step floors the exact result (floor ((n + x) / b) = floor ((n +
     floor (x)) / b) for an integer n), and the result is exact only if no
     step left a remainder.  q stays below unit, so digit * unit + q below
     base * unit.  Zeros between the point and the first nonzero digit
     only divide: once q is 0 they change nothing more.  */
  uint64_t q = 0;
  bool inexact = false;
  int64_t i = len;
  for (; i > n->point && i > first; i--)
    {
      uint64_t t = digit (n, i - 1) * unit + q;
      q = t / n->base;
      inexact |= t % n->base != 0;
    }
  for (; i > n->point && q != 0; i--)
    {
      inexact |= q % n->base != 0;
      q /= n->base;
    }

  add_ns (s, q + inexact);
  if (!whole.overflow)
    add_ns (s, whole.nsec);
  s->overflow |= whole.overflow || ckd_add (&s->sec, s->sec, whole.sec);
}

static enum duration_error
fail (struct duration *d, enum duration_error e, size_t pos, size_t len)
{
  d->error = e;
  d->pos = pos;
  d->len = len;
  return e;
}

/* Whether the text at P starts with WORD, in either case.  */
static bool
starts_with (const char *p, const char *word)
{
  for (; *word; p++, word++)
    if (c_tolower (*p) != *word)
      return false;
  return true;
}

/* Scan the decimal digits at *P: skip them, return how many.  */
static size_t
skip_digits (const char **p, bool hex)
{
  const char *begin = *p;
  while (hex ? c_isxdigit (**p) : c_isdigit (**p))
    ++*p;
  return *p - begin;
}

/* Read the number of ARG at *P into *N and move *P past it.  */
static enum duration_error
scan_number (const char *arg, const char **p, struct number *n,
             struct duration *d)
{
  const char *start = *p;
  bool hex = (*p)[0] == '0' && ((*p)[1] == 'x' || (*p)[1] == 'X');
  if (hex)
    *p += 2;
  n->base = hex ? 2 : 10;
  n->int_begin = *p;
  skip_digits (p, hex);
  n->int_end = n->frac_begin = n->frac_end = *p;
  if (**p == '.')
    {
      n->frac_begin = ++*p;
      skip_digits (p, hex);
      n->frac_end = *p;
    }
  if (n->int_begin == n->int_end && n->frac_begin == n->frac_end)
    {
      d->hex = hex;
      return fail (d, DURATION_NO_DIGITS, start - arg, 0);
    }
  n->point = (n->int_end - n->int_begin) * (hex ? 4 : 1);

  /* The exponent, of 10 or of 2.  */
  if (c_tolower (**p) == (hex ? 'p' : 'e'))
    {
      const char *e = (*p)++;
      bool negative = **p == '-';
      if (**p == '-' || **p == '+')
        ++*p;
      if (!c_isdigit (**p))
        return fail (d, DURATION_NO_EXPONENT, e - arg, 0);
      int64_t exponent = 0;
      for (; c_isdigit (**p); ++*p)
        if (exponent < EXPONENT_MAX)
          exponent = exponent * 10 + (**p - '0');
      n->point += negative ? -exponent : exponent;
    }
  return DURATION_OK;
}

/* The index in units of the LEN bytes at P, or -1.  */
static int
find_unit (const char *p, size_t len)
{
  for (int u = 0; u < N_UNITS; u++)
    if (strlen (units[u].name) == len && memcmp (units[u].name, p, len) == 0)
      return u;
  return -1;
}

/* Read the letters at *P as a unit: -1 if there are none, its index in
   units, or an error.  */
static enum duration_error
scan_unit (const char *arg, const char **p, int *unit, struct duration *d)
{
  const char *begin = *p;
  while (c_isalpha (**p))
    ++*p;
  if (*p == begin)
    {
      *unit = -1;
      return DURATION_OK;
    }
  *unit = find_unit (begin, *p - begin);
  if (*unit < 0)
    return fail (d, DURATION_BAD_UNIT, begin - arg, *p - begin);
  return DURATION_OK;
}

static enum duration_error
parse (const char *arg, struct duration *d, struct sum *sum)
{
  const char *p = arg;
  if (*p == '\0')
    return fail (d, DURATION_EMPTY, 0, 0);
  if (*p == '-')
    return fail (d, DURATION_NEGATIVE, 0, 0);
  if (starts_with (p, "nan"))
    return fail (d, DURATION_NAN, 0, 3);
  if (starts_with (p, "inf"))
    {
      p += starts_with (p, "infinity") ? strlen ("infinity") : strlen ("inf");
      int unit;
      if (scan_unit (arg, &p, &unit, d) != DURATION_OK)
        return d->error;
      if (*p != '\0')
        return fail (d, DURATION_INF_PART, 0, 0);
      sum->overflow = true;
      return DURATION_OK;
    }

  int prev_unit = -1;
  size_t n_parts = 0;
  while (*p != '\0')
    {
      const char *part = p;
      if (!c_isdigit (*p) && *p != '.')
        return fail (d, DURATION_NOT_NUMBER, p - arg, 0);
      struct number n;
      if (scan_number (arg, &p, &n, d) != DURATION_OK)
        return d->error;
      const char *unit_begin = p;
      int unit;
      if (scan_unit (arg, &p, &unit, d) != DURATION_OK)
        return d->error;
      n_parts++;
      if (unit < 0)
        {
          /* Seconds, if it is the only part.  */
          if (*p != '\0')
            return fail (d, DURATION_BAD_CHAR, p - arg, 1);
          if (n_parts > 1)
            return fail (d, DURATION_MISSING_UNIT, part - arg, p - part);
          unit = UNIT_SECONDS;
        }
      else if (unit <= prev_unit)
        return fail (d, DURATION_UNIT_ORDER, unit_begin - arg,
                     p - unit_begin);
      else if (*p != '\0' && !c_isdigit (*p) && *p != '.')
        return fail (d, DURATION_BAD_CHAR, p - arg, 1);
      prev_unit = unit;
      add_number (sum, &n, units[unit].ns);
    }
  return DURATION_OK;
}

enum duration_error
duration_parse (const char *arg, struct duration *d)
{
  *d = (struct duration) { .error = DURATION_OK };
  struct sum sum = { 0, 0, false };
  if (parse (arg, d, &sum) != DURATION_OK)
    return d->error;
  d->infinite = sum.overflow;
  d->ts = (sum.overflow
           ? (struct timespec) { TYPE_MAXIMUM (time_t), NS_PER_S_LONG - 1 }
           : (struct timespec) { sum.sec, (long) sum.nsec });
  return DURATION_OK;
}

const char *
duration_message (const struct duration *d, const char *arg,
                  char buf[DURATION_MESSAGE_SIZE])
{
  char c[NC_CHAR_SHOWN_SIZE];
  size_t at = d->pos + 1;
  /* A unit longer than this is cut short in the message.  */
  enum { SHOWN_UNIT_MAX = 8 };
  char unit[SHOWN_UNIT_MAX * (NC_CHAR_SHOWN_SIZE - 1) + 4] = "";
  if (d->error == DURATION_BAD_UNIT || d->error == DURATION_UNIT_ORDER)
    {
      size_t len = 0;
      for (size_t i = 0; i < d->len; i++)
        {
          if (i == SHOWN_UNIT_MAX)
            {
              strcpy (unit + len, "...");
              break;
            }
          len += strlen (nc_char_shown (arg[d->pos + i], unit + len));
        }
    }
  else if (d->error == DURATION_NOT_NUMBER || d->error == DURATION_BAD_CHAR)
    nc_char_shown (arg[d->pos], c);
  switch (d->error)
    {
    case DURATION_OK:
      return NULL;
    case DURATION_EMPTY:
      snprintf (buf, DURATION_MESSAGE_SIZE, "empty duration");
      break;
    case DURATION_NEGATIVE:
      snprintf (buf, DURATION_MESSAGE_SIZE, "negative duration");
      break;
    case DURATION_NOT_NUMBER:
      snprintf (buf, DURATION_MESSAGE_SIZE,
                "'%s' at position %zu does not start a number%s", c, at,
                arg[d->pos] == '+' ? " (a duration takes no sign)"
                : c_isspace (arg[d->pos]) ? " (a duration takes no blank)"
                : "");
      break;
    case DURATION_NO_DIGITS:
      snprintf (buf, DURATION_MESSAGE_SIZE,
                d->hex ? "no hexadecimal digit after '0x' at position %zu"
                : "no digit in the number at position %zu", at);
      break;
    case DURATION_NO_EXPONENT:
      snprintf (buf, DURATION_MESSAGE_SIZE,
                "no digit in the exponent at position %zu", at);
      break;
    case DURATION_NAN:
      snprintf (buf, DURATION_MESSAGE_SIZE, "not a number");
      break;
    case DURATION_BAD_UNIT:
      snprintf (buf, DURATION_MESSAGE_SIZE,
                "unknown unit '%s' at position %zu (units: ns, us, ms, s, "
                "m, h, d)", unit, at);
      break;
    case DURATION_BAD_CHAR:
      snprintf (buf, DURATION_MESSAGE_SIZE,
                "'%s' at position %zu is neither a digit nor a unit%s", c,
                at, c_isspace (arg[d->pos]) ? " (a duration takes no blank)"
                : "");
      break;
    case DURATION_MISSING_UNIT:
      snprintf (buf, DURATION_MESSAGE_SIZE,
                "no unit for the number at position %zu (each part of a "
                "compound duration has one)", at);
      break;
    case DURATION_UNIT_ORDER:
      snprintf (buf, DURATION_MESSAGE_SIZE,
                "unit '%s' at position %zu out of order (a compound "
                "duration goes from d down to ns, each unit once)", unit, at);
      break;
    case DURATION_INF_PART:
      snprintf (buf, DURATION_MESSAGE_SIZE,
                "inf cannot be part of a compound duration");
      break;
    }
  return buf;
}

char *
duration_format (const struct timespec *ts, char buf[DURATION_BUFSIZE])
{
  snprintf (buf, DURATION_BUFSIZE, "%jd.%09ld", (intmax_t) ts->tv_sec,
            ts->tv_nsec);
  return buf;
}
