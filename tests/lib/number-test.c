/* number-test.c -- the C test driver for lib/cli/number.c and the operand
   parsers of lib/ranges/operands.c: the value or error code of each spelling,
   the position at fault, and the message.

   Every check prints "ok N - what" or "not ok N - what (detail)"; the
   last line is "number-test: N passed, M failed, K skipped"; the exit
   status is 1 if any check failed.  */

#include <config.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/number.h"
#include "ranges/operands.h"

#define TAP_NAME "number-test"
#include "tap.h"

/* A check described by WHAT, explained by DETAIL when it fails.  */
#define check(ok, what, detail) tap_check (ok, detail, "%s", what)

/* A spelling, its flags and maximum, and what the parse should give: the
   error, then the value (for NC_NUMBER_OK) or the 0-based position at
   fault, and the message (NULL: not checked).  */
struct number_case
{
  const char *arg;
  unsigned int flags;
  uint64_t max;
  enum nc_number_error error;
  uint64_t value_or_pos;
  const char *message;
};

#define U NC_NUMBER_UNITS
#define BIG INT64_MAX

static const struct number_case number_cases[] = {
  { "0", U, BIG, NC_NUMBER_OK, 0, NULL },
  { "010", U, BIG, NC_NUMBER_OK, 10, NULL },
  { "0x10", U, BIG, NC_NUMBER_OK, 16, NULL },
  { "0XfF", U, BIG, NC_NUMBER_OK, 255, NULL },
  { "0x1B", U, BIG, NC_NUMBER_OK, 27, NULL },
  { "0x1E", U, BIG, NC_NUMBER_OK, 30, NULL },
  { "1K", U, BIG, NC_NUMBER_OK, 1024, NULL },
  { "1k", U, BIG, NC_NUMBER_OK, 1024, NULL },
  { "1KiB", U, BIG, NC_NUMBER_OK, 1024, NULL },
  { "1kB", U, BIG, NC_NUMBER_OK, 1000, NULL },
  { "3M", U, BIG, NC_NUMBER_OK, 3 << 20, NULL },
  { "1GB", U, BIG, NC_NUMBER_OK, 1000000000, NULL },
  { "7E", U, BIG, NC_NUMBER_OK, UINT64_C (7) << 60, NULL },
  { "9EB", U, BIG, NC_NUMBER_OK, UINT64_C (9000000000000000000), NULL },
  { "9223372036854775807", U, BIG, NC_NUMBER_OK, INT64_MAX, NULL },
  { "18446744073709551615", 0, UINT64_MAX, NC_NUMBER_OK, UINT64_MAX, NULL },
  { "256", 0, 256, NC_NUMBER_OK, 256, NULL },
  { "", U, BIG, NC_NUMBER_EMPTY, 0, "missing size" },
  { "-1", U, BIG, NC_NUMBER_NEGATIVE, 0, "negative size" },
  { "-x", U, BIG, NC_NUMBER_NEGATIVE, 0, NULL },
  { "0x", U, BIG, NC_NUMBER_NO_DIGITS, 2, "no digits after '0x'" },
  { "x", U, BIG, NC_NUMBER_BAD_DIGIT, 0,
    "'x' at position 1 is not a decimal digit" },
  { "K", U, BIG, NC_NUMBER_BAD_DIGIT, 0, NULL },
  { " 1", U, BIG, NC_NUMBER_BAD_DIGIT, 0, NULL },
  { "+1", U, BIG, NC_NUMBER_BAD_DIGIT, 0, NULL },
  { "1 ", U, BIG, NC_NUMBER_BAD_DIGIT, 1, NULL },
  { "1\n", U, BIG, NC_NUMBER_BAD_DIGIT, 1,
    "'\\x0a' at position 2 is not a decimal digit" },
  { "1'", U, BIG, NC_NUMBER_BAD_DIGIT, 1,
    "'\\x27' at position 2 is not a decimal digit" },
  { "0xg", U, BIG, NC_NUMBER_BAD_DIGIT, 2,
    "'g' at position 3 is not a hexadecimal digit" },
  { "0x1G", U, BIG, NC_NUMBER_HEX_UNIT, 3,
    "'G' at position 4 is not a hexadecimal digit (a 0x number takes no "
    "unit)" },
  { "0xK", U, BIG, NC_NUMBER_HEX_UNIT, 2, NULL },
  { "1Q", U, BIG, NC_NUMBER_BAD_UNIT, 1,
    "unknown unit 'Q' at position 2 (units: K, M, G, T, P, E, alone or "
    "followed by iB or B)" },
  { "1KiBKiBKiB", U, BIG, NC_NUMBER_BAD_UNIT, 1,
    "unknown unit 'KiBKiBKi...' at position 2 (units: K, M, G, T, P, E, "
    "alone or followed by iB or B)" },
  { "1Ki", U, BIG, NC_NUMBER_BAD_UNIT, 1, NULL },
  { "1KIB", U, BIG, NC_NUMBER_BAD_UNIT, 1, NULL },
  { "1b", U, BIG, NC_NUMBER_BAD_UNIT, 1, NULL },
  { "1K", 0, BIG, NC_NUMBER_NO_UNIT, 1,
    "'K' at position 2 is not a decimal digit (a size takes no unit)" },
  { "1x", 0, BIG, NC_NUMBER_BAD_DIGIT, 1, NULL },
  { "8E", U, BIG, NC_NUMBER_TOO_LARGE, 0,
    "size too large (at most 9223372036854775807)" },
  { "9223372036854775808", U, BIG, NC_NUMBER_TOO_LARGE, 0, NULL },
  { "18446744073709551616", 0, UINT64_MAX, NC_NUMBER_TOO_LARGE, 0, NULL },
  { "0x10000000000000000", 0, UINT64_MAX, NC_NUMBER_TOO_LARGE, 0, NULL },
  { "257", 0, 256, NC_NUMBER_TOO_LARGE, 0,
    "size too large (at most 256)" },
  { "19EB", U, UINT64_MAX, NC_NUMBER_TOO_LARGE, 0, NULL },
  { "18EB", U, UINT64_MAX, NC_NUMBER_OK, UINT64_C (18000000000000000000),
    NULL },
  /* A maximum that is a whole number of a unit is shown with it too.  */
  { "1025", U, 1024, NC_NUMBER_TOO_LARGE, 0,
    "size too large (at most 1024, 1K)" },
  { "2G", U, UINT64_C (1) << 30, NC_NUMBER_TOO_LARGE, 0,
    "size too large (at most 1073741824, 1G)" },
  { "7E", U, UINT64_C (6) << 60, NC_NUMBER_TOO_LARGE, 0,
    "size too large (at most 6917529027641081856, 6E)" },
  { "3073", U, 3072, NC_NUMBER_TOO_LARGE, 0,
    "size too large (at most 3072, 3K)" },
  { "3073", 0, 3072, NC_NUMBER_TOO_LARGE, 0,
    "size too large (at most 3072)" },
  { "1000", U, 999, NC_NUMBER_TOO_LARGE, 0,
    "size too large (at most 999)" },
  /* Zero where it means nothing, in any spelling.  */
  { "0", U | NC_NUMBER_NONZERO, BIG, NC_NUMBER_ZERO, 0,
    "size too small (at least 1)" },
  { "0x0", U | NC_NUMBER_NONZERO, BIG, NC_NUMBER_ZERO, 0, NULL },
  { "0K", U | NC_NUMBER_NONZERO, BIG, NC_NUMBER_ZERO, 0, NULL },
  { "000", NC_NUMBER_NONZERO, BIG, NC_NUMBER_ZERO, 0, NULL },
  { "1", U | NC_NUMBER_NONZERO, BIG, NC_NUMBER_OK, 1, NULL },
  { "0x01", NC_NUMBER_NONZERO, BIG, NC_NUMBER_OK, 1, NULL },
  /* Other errors come first.  */
  { "0Q", U | NC_NUMBER_NONZERO, BIG, NC_NUMBER_BAD_UNIT, 1, NULL },
  { "-0", U | NC_NUMBER_NONZERO, BIG, NC_NUMBER_NEGATIVE, 0, NULL },
  /* A bad character after an overflow is the error to fix first.  */
  { "99999999999999999999999x", U, BIG, NC_NUMBER_BAD_UNIT, 23, NULL },
};

static void
check_numbers (void)
{
  for (size_t i = 0; i < sizeof number_cases / sizeof *number_cases; i++)
    {
      const struct number_case *c = &number_cases[i];
      struct nc_number n;
      char what[160], detail[400], buf[NC_NUMBER_MESSAGE_SIZE];
      enum nc_number_error e = nc_parse_number (c->arg, strlen (c->arg),
                                                c->max, c->flags, &n);
      const char *msg = nc_number_message (&n, c->arg, "size", buf);
      snprintf (what, sizeof what, "number '%s' (flags %u)", c->arg,
                c->flags);
      /* One line per check, whatever the spelling.  */
      for (char *p = what; *p; p++)
        if (*p == '\n')
          *p = '?';
      snprintf (detail, sizeof detail,
                "error %d value %" PRIu64 " pos %zu message %s", (int) e,
                n.value, n.pos, msg ? msg : "(none)");
      bool ok = e == c->error && n.error == e;
      if (e == NC_NUMBER_OK)
        ok = ok && n.value == c->value_or_pos && !msg;
      else
        ok = ok && msg && (e == NC_NUMBER_TOO_LARGE
                           || n.pos == c->value_or_pos)
             && (!c->message || strcmp (msg, c->message) == 0);
      check (ok, what, detail);
    }

  /* Only LEN bytes are read: the rest of an operand is not the number.  */
  struct nc_number n;
  check (nc_parse_number ("12:34", 2, BIG, U, &n) == NC_NUMBER_OK
         && n.value == 12, "number in the first 2 bytes of '12:34'",
         "not 12");
}

static void
check_signed (void)
{
  static const struct
  {
    const char *arg;
    enum nc_number_error error;
    int64_t value;
    const char *message;
  } cases[] = {
    { "5", NC_NUMBER_OK, 5, NULL },
    { "-5", NC_NUMBER_OK, -5, NULL },
    { "-0x10", NC_NUMBER_OK, -16, NULL },
    { "-100", NC_NUMBER_OK, -100, NULL },
    { "-101", NC_NUMBER_TOO_LARGE, 0, "offset too small (at least -100)" },
    { "101", NC_NUMBER_TOO_LARGE, 0, "offset too large (at most 100)" },
    { "-", NC_NUMBER_NO_DIGITS, 0, "no digits after '-'" },
    { "-0x", NC_NUMBER_NO_DIGITS, 0, "no digits after '-0x'" },
    { "--5", NC_NUMBER_BAD_DIGIT, 0,
      "'-' at position 2 is not a decimal digit" },
    { "-5s", NC_NUMBER_BAD_DIGIT, 0,
      "'s' at position 3 is not a decimal digit" },
    { "", NC_NUMBER_EMPTY, 0, "missing offset" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      struct nc_number n;
      int64_t v = 12345;
      char what[100], detail[300], buf[NC_NUMBER_MESSAGE_SIZE];
      enum nc_number_error e = nc_parse_signed (cases[i].arg,
                                                strlen (cases[i].arg), 100,
                                                0, &n, &v);
      const char *msg = nc_number_message (&n, cases[i].arg, "offset", buf);
      snprintf (what, sizeof what, "signed '%s'", cases[i].arg);
      snprintf (detail, sizeof detail, "error %d value %" PRId64
                " message %s", (int) e, v, msg ? msg : "(none)");
      bool ok = e == cases[i].error;
      if (e == NC_NUMBER_OK)
        ok = ok && v == cases[i].value;
      else
        ok = ok && v == 12345 && msg && strcmp (msg, cases[i].message) == 0;
      check (ok, what, detail);
    }
}

static void
check_operands (void)
{
  static const struct
  {
    const char *arg;
    const char *message;  /* NULL: valid.  */
  } ranges[] = {
    { "0x10:1K", NULL },
    { "4K-8K", NULL },
    { "5", NULL },
    { "-1:2", "negative offset" },
    { "5:", "missing length" },
    { "5-", "missing end" },
    { ":5", "missing offset" },
    { "5:1.5", "'.' at position 4 is not a decimal digit" },
    { "5:1x", "unknown unit 'x' at position 4 (units: K, M, G, T, P, E, "
      "alone or followed by iB or B)" },
    { "5-0x1G", "'G' at position 6 is not a hexadecimal digit (a 0x number "
      "takes no unit)" },
    { "1:8E", "length too large (at most 9223372036854775807)" },
    { "9223372036854775807:1", "range ends past the largest file offset" },
    { "5-3", "end before offset" },
  };
  for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++)
    {
      struct nc_range r;
      char what[100], buf[NC_NUMBER_MESSAGE_SIZE];
      const char *msg = nc_parse_range (ranges[i].arg, &r, buf);
      snprintf (what, sizeof what, "range '%s'", ranges[i].arg);
      check (ranges[i].message
             ? msg && strcmp (msg, ranges[i].message) == 0 : !msg,
             what, msg ? msg : "accepted");
    }

  static const struct
  {
    const char *arg;
    size_t start;
    const char *message;
  } hexes[] = {
    { "2=4G", 2, "'G' at position 4 is not a hexadecimal digit" },
    { "2=G4", 2, "'G' at position 3 is not a hexadecimal digit" },
    { "2=abc", 2, "odd number of hexadecimal digits" },
    { "2=ab c", 2, "odd number of hexadecimal digits" },
    { "2=0x", 2, "no bytes" },
    { "2=0xde:ad_be ef", 2, NULL },
  };
  for (size_t i = 0; i < sizeof hexes / sizeof *hexes; i++)
    {
      unsigned char *bytes = NULL;
      size_t len = 0;
      char what[100], buf[NC_NUMBER_MESSAGE_SIZE];
      const char *msg = nc_parse_hex (hexes[i].arg, hexes[i].start, &bytes,
                                      &len, buf);
      snprintf (what, sizeof what, "hex bytes '%s'", hexes[i].arg);
      bool ok = (hexes[i].message
                 ? msg && strcmp (msg, hexes[i].message) == 0 && !bytes
                 : !msg && len == 4 && memcmp (bytes, "\xde\xad\xbe\xef",
                                               4) == 0);
      check (ok, what, msg ? msg : "accepted");
      free (bytes);
    }
}

/* nc_parse_number_at: a number inside a longer word, read to LEN bytes
   only, with positions in the message counted from the word's start.  */
static void
check_number_at (void)
{
  static const struct
  {
    const char *arg;
    size_t start, len;
    uint64_t max;
    unsigned int flags;
    uint64_t value;
    const char *message;  /* NULL: valid, VALUE.  */
  } cases[] = {
    { "12=0x10@f", 3, 4, INT64_MAX, U, 16, NULL },
    { "4K", 0, 2, INT64_MAX, U, 4096, NULL },
    { "4K", 0, 1, INT64_MAX, U, 4, NULL },
    { "12=0x1G=x", 3, 4, INT64_MAX, U, 0, "'G' at position 7 is not a "
      "hexadecimal digit (a 0x number takes no unit)" },
    { "ab1.5", 2, 3, INT64_MAX, U, 0,
      "'.' at position 4 is not a decimal digit" },
    { "x=-1", 2, 2, INT64_MAX, U, 0, "negative gap" },
    { "x=", 2, 0, INT64_MAX, U, 0, "missing gap" },
    { "x=0K", 2, 2, INT64_MAX, U | NC_NUMBER_NONZERO, 0,
      "gap too small (at least 1)" },
    { "257", 0, 3, 256, 0, 0, "gap too large (at most 256)" },
    { "2M", 0, 2, 1 << 20, U, 0,
      "gap too large (at most 1048576, 1M)" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      uint64_t v = 12345;
      char what[100], detail[300], buf[NC_NUMBER_MESSAGE_SIZE];
      const char *msg = nc_parse_number_at (cases[i].arg, cases[i].start,
                                            cases[i].len, cases[i].max,
                                            cases[i].flags, "gap", &v, buf);
      snprintf (what, sizeof what, "number at %zu of '%s'", cases[i].start,
                cases[i].arg);
      snprintf (detail, sizeof detail, "value %" PRIu64 " message %s", v,
                msg ? msg : "(none)");
      check (cases[i].message
             ? msg && strcmp (msg, cases[i].message) == 0 && v == 12345
             : !msg && v == cases[i].value, what, detail);
    }
}

int
main (void)
{
  check_numbers ();
  check_signed ();
  check_operands ();
  check_number_at ();
  return tap_done ();
}
