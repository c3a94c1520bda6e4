/* duration-test.c -- the C test driver for lib/cli/duration.c: the value of
   each spelling to the nanosecond, infinity, the error, position and
   message of each malformed one, and the deadline arithmetic of a wait
   (wait/loop.h) on durations.

   Every check prints "ok N - what" or "not ok N - what (detail)"; the
   last line is "duration-test: N passed, M failed, K skipped"; the exit
   status is 1 if any check failed.  */

#include <config.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli/duration.h"
#include "wait/loop.h"
#include "intprops.h"

#define TAP_NAME "duration-test"
#include "tap.h"

/* A check described by WHAT, explained by DETAIL when it fails.  */
#define check(ok, what, detail) tap_check (ok, detail, "%s", what)

#define TMAX TYPE_MAXIMUM (time_t)

/* A spelling and its value.  */
struct value_case
{
  const char *arg;
  bool infinite;
  time_t sec;
  long nsec;
};

static const struct value_case values[] = {
  /* The syntax of before: decimal, fraction, the units.  */
  { "0", false, 0, 0 },
  { "1", false, 1, 0 },
  { "1.5", false, 1, 500000000 },
  { ".5", false, 0, 500000000 },
  { "2.", false, 2, 0 },
  { "250ms", false, 0, 250000000 },
  { "1500us", false, 0, 1500000 },
  { "7ns", false, 0, 7 },
  { "2m", false, 120, 0 },
  { ".25h", false, 900, 0 },
  { "2d", false, 172800, 0 },
  { "007s", false, 7, 0 },
  /* Rounded up to the nanosecond, never down to zero.  */
  { "1.0000000001", false, 1, 1 },
  { "0.1ns", false, 0, 1 },
  { "0.0000000001s", false, 0, 1 },
  { "0.0166666666667m", false, 1, 1 },
  { "0.333333333333m", false, 20, 0 },
  { "0.0000000000000000000000000000000000000000001d", false, 0, 1 },
  { "0.000", false, 0, 0 },
  /* Exponents, as strtod reads them.  */
  { "1e3", false, 1000, 0 },
  { "1E3", false, 1000, 0 },
  { "1e+3", false, 1000, 0 },
  { "1e-3", false, 0, 1000000 },
  { "1.5e1m", false, 900, 0 },
  { ".5e1", false, 5, 0 },
  { "5.e-1", false, 0, 500000000 },
  { "25e-2h", false, 900, 0 },
  { "1e-9", false, 0, 1 },
  { "1e-10", false, 0, 1 },
  { "1e-400", false, 0, 1 },
  { "1e-99999999999999999999", false, 0, 1 },
  { "0e99999999999999999999", false, 0, 0 },
  { "0.0000e-5", false, 0, 0 },
  { "123456789e-9", false, 0, 123456789 },
  { "1234567891e-9", false, 1, 234567891 },
  { "1e9ns", false, 1, 0 },
  { "100000000000000000000e-20", false, 1, 0 },
  { "0.0000000001e10", false, 1, 0 },
  { "0.00000000000000000000000000000000000000001e50", false, 1000000000,
    0 },
  /* Hexadecimal floating point: a power of 2 after p.  */
  { "0x10", false, 16, 0 },
  { "0X1F", false, 31, 0 },
  { "0x.8", false, 0, 500000000 },
  { "0x1.8", false, 1, 500000000 },
  { "0x1p3", false, 8, 0 },
  { "0x1P-1", false, 0, 500000000 },
  { "0x1p-30", false, 0, 1 },           /* 0.93 ns */
  { "0x1p-29", false, 0, 2 },           /* 1.86 ns */
  { "0x3p-1m", false, 90, 0 },
  { "0x1d", false, 29, 0 },             /* d is a digit */
  { "0x1ds", false, 29, 0 },
  { "0x1p0d", false, 86400, 0 },
  { "0x.000000000000000000001", false, 0, 1 },
  /* Infinity.  */
  { "inf", true, TMAX, 999999999 },
  { "INF", true, TMAX, 999999999 },
  { "Infinity", true, TMAX, 999999999 },
  { "infs", true, TMAX, 999999999 },
  { "infinityd", true, TMAX, 999999999 },
  { "infms", true, TMAX, 999999999 },
  /* Compound.  */
  { "1m30s", false, 90, 0 },
  { "1h2m3.5s", false, 3723, 500000000 },
  { "1d1h1m1s1ms1us1ns", false, 90061, 1001001 },
  { "1m5ms", false, 60, 5000000 },
  { "1h.5m", false, 3630, 0 },
  { "1e1m1e1s", false, 610, 0 },
  { "1s0.1ns", false, 1, 1 },
  { "0m0s", false, 0, 0 },
  /* Beyond any time_t: infinite.  */
  { "99999999999999999999d", true, TMAX, 999999999 },
  { "1e400", true, TMAX, 999999999 },
  { "1e99999999999999999999", true, TMAX, 999999999 },
};

/* Around the largest 64-bit time_t.  */
static const struct value_case values64[] = {
  { "9223372036854775807", false, INT64_MAX, 0 },
  { "9223372036854775807.999999999", false, INT64_MAX, 999999999 },
  { "9223372036854775807.9999999991", true, TMAX, 999999999 },
  { "9223372036854775808", true, TMAX, 999999999 },
  { "1e19", true, TMAX, 999999999 },
  { "0x1p63", true, TMAX, 999999999 },
  { "0x1p62", false, INT64_C (4611686018427387904), 0 },
  { "106751991167300d15h30m7s", false, INT64_MAX, 0 },
  { "106751991167300d15h30m8s", true, TMAX, 999999999 },
};

/* A malformed spelling: the error, its 0-based position, and the message
   (NULL: not checked).  */
static const struct
{
  const char *arg;
  enum duration_error error;
  size_t pos;
  const char *message;
} errors[] = {
  { "", DURATION_EMPTY, 0, "empty duration" },
  { "-1", DURATION_NEGATIVE, 0, "negative duration" },
  { "-0", DURATION_NEGATIVE, 0, NULL },
  { "+1", DURATION_NOT_NUMBER, 0,
    "'+' at position 1 does not start a number (a duration takes no sign)" },
  { " 1", DURATION_NOT_NUMBER, 0,
    "' ' at position 1 does not start a number (a duration takes no "
    "blank)" },
  { "s", DURATION_NOT_NUMBER, 0, NULL },
  { "abc", DURATION_NOT_NUMBER, 0, NULL },
  { ".", DURATION_NO_DIGITS, 0, "no digit in the number at position 1" },
  { ".e3", DURATION_NO_DIGITS, 0, NULL },
  { "0x", DURATION_NO_DIGITS, 0,
    "no hexadecimal digit after '0x' at position 1" },
  { "0x.", DURATION_NO_DIGITS, 0, NULL },
  { "0xp1", DURATION_NO_DIGITS, 0, NULL },
  { "1m0x", DURATION_NO_DIGITS, 2, NULL },
  { "1e", DURATION_NO_EXPONENT, 1,
    "no digit in the exponent at position 2" },
  { "1e+", DURATION_NO_EXPONENT, 1, NULL },
  { "1es", DURATION_NO_EXPONENT, 1, NULL },
  { "0x1p", DURATION_NO_EXPONENT, 3, NULL },
  { "0x1ps", DURATION_NO_EXPONENT, 3, NULL },
  { "nan", DURATION_NAN, 0, "not a number" },
  { "NaN", DURATION_NAN, 0, NULL },
  { "1x", DURATION_BAD_UNIT, 1,
    "unknown unit 'x' at position 2 (units: ns, us, ms, s, m, h, d)" },
  { "1sec", DURATION_BAD_UNIT, 1, NULL },
  { "1S", DURATION_BAD_UNIT, 1, NULL },
  { "1p3", DURATION_BAD_UNIT, 1, NULL },
  { "0x1g", DURATION_BAD_UNIT, 3, NULL },
  { "infinit", DURATION_BAD_UNIT, 3, NULL },
  { "1abcdefghijk", DURATION_BAD_UNIT, 1,
    "unknown unit 'abcdefgh...' at position 2 (units: ns, us, ms, s, m, h, "
    "d)" },
  { "1.2.3", DURATION_BAD_CHAR, 3,
    "'.' at position 4 is neither a digit nor a unit" },
  { "1 ", DURATION_BAD_CHAR, 1,
    "' ' at position 2 is neither a digit nor a unit (a duration takes no "
    "blank)" },
  { "1s ", DURATION_BAD_CHAR, 2, NULL },
  { "1\n", DURATION_BAD_CHAR, 1,
    "'\\x0a' at position 2 is neither a digit nor a unit (a duration "
    "takes no blank)" },
  { "1,5", DURATION_BAD_CHAR, 1, NULL },
  { "1m-5s", DURATION_BAD_CHAR, 2, NULL },
  { "1m30", DURATION_MISSING_UNIT, 2,
    "no unit for the number at position 3 (each part of a compound "
    "duration has one)" },
  { "1s1s", DURATION_UNIT_ORDER, 3,
    "unit 's' at position 4 out of order (a compound duration goes from "
    "d down to ns, each unit once)" },
  { "30s1m", DURATION_UNIT_ORDER, 4, NULL },
  { "1ms1s", DURATION_UNIT_ORDER, 4, NULL },
  { "inf1s", DURATION_INF_PART, 0,
    "inf cannot be part of a compound duration" },
  { "infs1m", DURATION_INF_PART, 0, NULL },
  /* The letters after a number are its unit.  */
  { "1minf", DURATION_BAD_UNIT, 1, NULL },
};

static void
check_values (const struct value_case *cases, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      const struct value_case *c = &cases[i];
      struct duration d;
      char what[160], detail[200], buf[DURATION_MESSAGE_SIZE];
      enum duration_error e = duration_parse (c->arg, &d);
      const char *msg = duration_message (&d, c->arg, buf);
      snprintf (what, sizeof what, "duration '%s'", c->arg);
      snprintf (detail, sizeof detail, "error %d, %s%jd s %ld ns, %s",
                (int) e, d.infinite ? "infinite, " : "",
                (intmax_t) d.ts.tv_sec, d.ts.tv_nsec, msg ? msg : "");
      check (e == DURATION_OK && !msg && d.infinite == c->infinite
             && d.ts.tv_sec == c->sec
             && d.ts.tv_nsec == c->nsec, what, detail);
    }
}

static void
check_errors (void)
{
  for (size_t i = 0; i < sizeof errors / sizeof *errors; i++)
    {
      struct duration d;
      char what[160], detail[300], buf[DURATION_MESSAGE_SIZE];
      enum duration_error e = duration_parse (errors[i].arg, &d);
      const char *msg = duration_message (&d, errors[i].arg, buf);
      snprintf (what, sizeof what, "malformed duration '%s'", errors[i].arg);
      for (char *p = what; *p; p++)
        if (*p == '\n')
          *p = '?';
      snprintf (detail, sizeof detail, "error %d pos %zu message %s",
                (int) e, d.pos, msg ? msg : "(none)");
      check (e == errors[i].error && d.error == e && d.pos == errors[i].pos
             && msg && !d.infinite && d.ts.tv_sec == 0 && d.ts.tv_nsec == 0
             && (!errors[i].message || strcmp (msg, errors[i].message) == 0),
             what, detail);
    }
}

/* duration_format writes what parses back; a duration's deadline and the
   time left (wait/loop.h), as a wait has them.  */
static void
check_arithmetic (void)
{
  char buf[DURATION_BUFSIZE];
  struct timespec ts = { 12, 5 };
  struct duration d;
  check (strcmp (duration_format (&ts, buf), "12.000000005") == 0
         && duration_parse (buf, &d) == DURATION_OK && d.ts.tv_sec == 12
         && d.ts.tv_nsec == 5, "format 12.000000005 and back", buf);

  struct timespec now = { 100, 999999999 }, deadline, left;
  ts = (struct timespec) { 1, 2 };
  wait_deadline (&now, &ts, &deadline);
  check (deadline.tv_sec == 102 && deadline.tv_nsec == 1,
         "deadline 100.999999999 + 1.000000002", "not 102.000000001");
  wait_time_left (&deadline, &now, &left);
  check (left.tv_sec == 1 && left.tv_nsec == 2, "time left of it at once",
         "not 1.000000002");
  wait_time_left (&now, &deadline, &left);
  check (left.tv_sec == 0 && left.tv_nsec == 0, "time left past a deadline",
         "not 0");

  /* An infinite duration's timespec is a deadline at the end of time.  */
  duration_parse ("inf", &d);
  wait_deadline (&now, &d.ts, &deadline);
  check (deadline.tv_sec == TMAX && deadline.tv_nsec == 999999999,
         "deadline of inf: the largest time_t", "not the largest");
}

int
main (void)
{
  check_values (values, sizeof values / sizeof *values);
  /* 32-bit time_t: these are infinite, as "1e19" is anyway.  */
  if (TMAX == INT64_MAX)
    check_values (values64, sizeof values64 / sizeof *values64);
  check_errors ();
  check_arithmetic ();
  return tap_done ();
}
