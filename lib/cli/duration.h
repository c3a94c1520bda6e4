/* cli/duration.h -- durations such as "250ms", "1.5", "1e3", "inf" or "1m30s"
   as a struct timespec, to the nanosecond, without floating point.

   What timeout(1) takes (a floating-point number as strtod reads it in
   the C locale, then at most one of the units s, m, h or d), plus the
   units ns, us and ms and compound durations:

     duration = ("inf" | "infinity") [unit]
              | number [unit]
              | number unit number unit [number unit]...

   where a number is
     decimal: digits ["." [digits]] | "." digits, then [e [+|-] digits]
     hex:     0x hexdigits ["." [hexdigits]] | 0x "." hexdigits,
              then [p [+|-] digits] (a power of 2)
     unit:    ns, us, ms, s (the default), m, h, d
   "inf", "e", "x" and "p" in either case; no sign, no blank.  A compound
   duration ("1m30s", "1h2m3.5s") gives a unit to every part, and its
   units go from d down to ns, each at most once.  After 0x, d is a digit:
   "0x1d" is 29 seconds, as strtod reads it.

   The value is exact: a positive duration finer than a nanosecond is
   rounded up to the next one, never down to zero, so that a timeout is
   never shorter than the one written.  A finite duration whose seconds
   do not fit in a time_t (about 292 billion years) is infinite, as
   timeout(1) takes any number too large for a double.

   The parser is a pure function: the text in, the value or a precise
   error out.  */

#ifndef NC_CLI_DURATION_H
#define NC_CLI_DURATION_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "intprops.h"

/* What can be wrong with a duration.  */
enum duration_error
{
  DURATION_OK,
  DURATION_EMPTY,         /* No character at all.  */
  DURATION_NEGATIVE,      /* A '-' in front.  */
  DURATION_NOT_NUMBER,    /* The character at POS does not start a
                             number.  */
  DURATION_NO_DIGITS,     /* A number from POS without a digit: ".",
                             "0x".  */
  DURATION_NO_EXPONENT,   /* An e or p at POS with no digits after it.  */
  DURATION_NAN,           /* "nan": not a number.  */
  DURATION_BAD_UNIT,      /* The LEN letters at POS are not a unit.  */
  DURATION_BAD_CHAR,      /* The character at POS, after a number, is
                             neither a unit nor the start of a part.  */
  DURATION_MISSING_UNIT,  /* The number at POS, the last part of a
                             compound duration, has no unit.  */
  DURATION_UNIT_ORDER,    /* The unit of LEN letters at POS is not smaller
                             than the unit before it.  */
  DURATION_INF_PART       /* inf in a compound duration, at POS.  */
};

/* The outcome of a parse.  */
struct duration
{
  enum duration_error error;
  size_t pos;             /* Index of the text at fault.  */
  size_t len;             /* Its length, for a unit.  */
  bool hex;               /* The number at fault is written with 0x.  */
  bool infinite;          /* inf, or beyond the largest time_t.  */
  struct timespec ts;     /* The value, normalized; for an infinite one,
                             the largest time_t and 999999999 ns.  */
};

/* Parse the null-terminated ARG into D.  Return D->error; on failure,
   D->ts is zero and D->infinite false.  */
enum duration_error duration_parse (const char *arg, struct duration *d);

/* Room for duration_message's result.  */
enum { DURATION_MESSAGE_SIZE = 200 };

/* Write into BUF, and return, what is wrong with the duration D parsed
   from ARG, in words such as "unknown unit 'x' at position 2 (units: ns,
   us, ms, s, m, h, d)".  Return NULL when D->error is DURATION_OK.  */
const char *duration_message (const struct duration *d, const char *arg,
                              char buf[DURATION_MESSAGE_SIZE]);

/* Room for duration_format's result: the seconds, a point, 9 digits and
   the terminating null byte.  */
#define DURATION_BUFSIZE (INT_STRLEN_BOUND (time_t) + 1 + 9 + 1)

/* Write the non-negative, normalized duration TS into BUF as seconds with
   nine decimals ("1.500000000"), a valid JSON number too.  Return BUF.  */
char *duration_format (const struct timespec *ts,
                       char buf[DURATION_BUFSIZE]);

#endif
