/* cli/number.c -- the number syntax of every tool; see cli/number.h.  */

#include <config.h>

#include "cli/number.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "c-ctype.h"

/* The value of the digit C in BASE (10 or 16), or -1.  */
static int
digit_value (unsigned char c, unsigned int base)
{
  if (c_isdigit (c))
    return c - '0';
  if (base == 16 && c_isxdigit (c))
    return c_tolower (c) - 'a' + 10;
  return -1;
}

/* Whether C starts a unit.  */
static bool
unit_letter (unsigned char c)
{
  return c != '\0' && strchr ("kKMGTPE", c) != NULL;
}

/* The multiplier of the unit in the LEN bytes at S, or 0 if they are not
   one.  */
static uint64_t
unit_multiplier (const char *s, size_t len)
{
  static const char letters[] = "KMGTPE";
  const char *letter = strchr (letters, s[0] == 'k' ? 'K' : s[0]);
  if (s[0] == '\0' || !letter)
    return 0;
  uint64_t base;
  if (len == 1 || (len == 3 && s[1] == 'i' && s[2] == 'B'))
    base = 1024;
  else if (len == 2 && s[1] == 'B')
    base = 1000;
  else
    return 0;
  /* 1000^6 and 1024^6 both fit in 64 bits.  */
  uint64_t m = 1;
  for (const char *l = letters; l <= letter; l++)
    m *= base;
  return m;
}

static enum nc_number_error
fail (struct nc_number *n, enum nc_number_error e, size_t pos)
{
  n->error = e;
  n->pos = pos;
  return e;
}

enum nc_number_error
nc_parse_number (const char *arg, size_t len, uint64_t max,
                 unsigned int flags, struct nc_number *n)
{
  *n = (struct nc_number) { .max = max, .end = len,
                            .units = (flags & NC_NUMBER_UNITS) != 0 };
  if (len == 0)
    return fail (n, NC_NUMBER_EMPTY, 0);
  if (arg[0] == '-')
    return fail (n, NC_NUMBER_NEGATIVE, 0);
  size_t i = 0;
  unsigned int base = 10;
  if (len >= 2 && arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X'))
    {
      n->hex = true;
      base = 16;
      i = 2;
      if (len == 2)
        return fail (n, NC_NUMBER_NO_DIGITS, 2);
    }
  size_t first = i;
  uint64_t v = 0;
  bool overflow = false;
  for (; i < len; i++)
    {
      int d = digit_value (arg[i], base);
      if (d < 0)
        break;
      /* Go on after an overflow: a bad character later is the error
         to report, since fixing it is the first thing to do.  */
      if (v > (UINT64_MAX - d) / base)
        overflow = true;
      else
        v = v * base + d;
    }
  if (i == first)
    return fail (n, (n->hex && unit_letter (arg[i]) ? NC_NUMBER_HEX_UNIT
                     : NC_NUMBER_BAD_DIGIT), i);
  uint64_t multiplier = 1;
  if (i < len)
    {
      unsigned char c = arg[i];
      if (n->hex)
        return fail (n, (unit_letter (c) ? NC_NUMBER_HEX_UNIT
                         : NC_NUMBER_BAD_DIGIT), i);
      if (!(flags & NC_NUMBER_UNITS))
        return fail (n, (unit_letter (c) ? NC_NUMBER_NO_UNIT
                         : NC_NUMBER_BAD_DIGIT), i);
      /* A letter starts a unit, anything else is a stray character.  */
      if (!c_isalpha (c))
        return fail (n, NC_NUMBER_BAD_DIGIT, i);
      multiplier = unit_multiplier (arg + i, len - i);
      if (multiplier == 0)
        return fail (n, NC_NUMBER_BAD_UNIT, i);
    }
  if (overflow || v > max / multiplier)
    return fail (n, NC_NUMBER_TOO_LARGE, 0);
  if (v == 0 && (flags & NC_NUMBER_NONZERO))
    return fail (n, NC_NUMBER_ZERO, 0);
  n->value = v * multiplier;
  return NC_NUMBER_OK;
}

enum nc_number_error
nc_parse_signed (const char *arg, size_t len, int64_t max,
                 unsigned int flags, struct nc_number *n, int64_t *value)
{
  if (max < 0)
    max = 0;
  if (len == 0 || arg[0] != '-')
    {
      if (nc_parse_number (arg, len, max, flags, n) == NC_NUMBER_OK)
        *value = n->value;
      return n->error;
    }
  nc_parse_number (arg + 1, len - 1, max, flags, n);
  n->negative = true;
  n->end = len;
  if (n->error != NC_NUMBER_TOO_LARGE)
    n->pos++;
  if (n->error == NC_NUMBER_EMPTY)
    return fail (n, NC_NUMBER_NO_DIGITS, 1);
  /* "--5": the second '-' is no digit.  */
  if (n->error == NC_NUMBER_NEGATIVE)
    return fail (n, NC_NUMBER_BAD_DIGIT, 1);
  if (n->error == NC_NUMBER_OK)
    *value = -(int64_t) n->value;
  return n->error;
}

char *
nc_char_shown (unsigned char c, char buf[NC_CHAR_SHOWN_SIZE])
{
  if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\')
    {
      buf[0] = c;
      buf[1] = '\0';
    }
  else
    snprintf (buf, NC_CHAR_SHOWN_SIZE, "\\x%02x", c);
  return buf;
}

/* Write into BUF ", 1G" when the size MAX is a whole number of the
   largest unit of 1024 that divides it, at least K; else "".  */
static void
round_in_unit (uint64_t max, char buf[32])
{
  static const char letters[] = "KMGTPE";
  int unit = -1;
  uint64_t count = max;
  while (count != 0 && count % 1024 == 0 && unit + 1 < 6)
    {
      count /= 1024;
      unit++;
    }
  buf[0] = '\0';
  if (unit >= 0)
    snprintf (buf, 32, ", %" PRIu64 "%c", count, letters[unit]);
}

/* Longest unit suffix shown in a message, in bytes of the operand.  */
enum { SHOWN_UNIT_MAX = 8 };

const char *
nc_number_message (const struct nc_number *n, const char *arg,
                   const char *what, char buf[NC_NUMBER_MESSAGE_SIZE])
{
  char c[NC_CHAR_SHOWN_SIZE];
  const char *digits = n->hex ? "hexadecimal" : "decimal";
  int w = NC_NUMBER_WHAT_MAX;
  size_t at = n->pos + 1;
  if (n->error == NC_NUMBER_BAD_DIGIT || n->error == NC_NUMBER_HEX_UNIT
      || n->error == NC_NUMBER_NO_UNIT)
    nc_char_shown (arg[n->pos], c);
  switch (n->error)
    {
    case NC_NUMBER_OK:
      return NULL;
    case NC_NUMBER_EMPTY:
      snprintf (buf, NC_NUMBER_MESSAGE_SIZE, "missing %.*s", w, what);
      break;
    case NC_NUMBER_NEGATIVE:
      snprintf (buf, NC_NUMBER_MESSAGE_SIZE, "negative %.*s", w, what);
      break;
    case NC_NUMBER_NO_DIGITS:
      snprintf (buf, NC_NUMBER_MESSAGE_SIZE, "no digits after '%.*s'",
                (int) (n->pos < 3 ? n->pos : 3), arg);
      break;
    case NC_NUMBER_BAD_DIGIT:
      snprintf (buf, NC_NUMBER_MESSAGE_SIZE,
                "'%s' at position %zu is not a %s digit", c, at, digits);
      break;
    case NC_NUMBER_HEX_UNIT:
      snprintf (buf, NC_NUMBER_MESSAGE_SIZE,
                "'%s' at position %zu is not a hexadecimal digit "
                "(a 0x number takes no unit)", c, at);
      break;
    case NC_NUMBER_NO_UNIT:
      snprintf (buf, NC_NUMBER_MESSAGE_SIZE,
                "'%s' at position %zu is not a decimal digit "
                "(a %.*s takes no unit)", c, at, w, what);
      break;
    case NC_NUMBER_BAD_UNIT:
      {
        char unit[SHOWN_UNIT_MAX * (NC_CHAR_SHOWN_SIZE - 1) + 4];
        size_t len = 0;
        for (size_t i = n->pos; i < n->end; i++)
          {
            if (i - n->pos == SHOWN_UNIT_MAX)
              {
                strcpy (unit + len, "...");
                break;
              }
            len += strlen (nc_char_shown (arg[i], unit + len));
          }
        snprintf (buf, NC_NUMBER_MESSAGE_SIZE,
                  "unknown unit '%s' at position %zu (units: K, M, G, T, P, "
                  "E, alone or followed by iB or B)", unit, at);
      }
      break;
    case NC_NUMBER_TOO_LARGE:
      {
        char unit[32] = "";
        if (n->units)
          round_in_unit (n->max, unit);
        snprintf (buf, NC_NUMBER_MESSAGE_SIZE,
                  n->negative ? "%.*s too small (at least -%" PRIu64 "%s)"
                  : "%.*s too large (at most %" PRIu64 "%s)", w, what,
                  n->max, unit);
      }
      break;
    case NC_NUMBER_ZERO:
      snprintf (buf, NC_NUMBER_MESSAGE_SIZE, "%.*s too small (at least 1)",
                w, what);
      break;
    }
  return buf;
}

const char *
nc_parse_number_at (const char *arg, size_t start, size_t len, uint64_t max,
                    unsigned int flags, const char *what, uint64_t *value,
                    char msg[NC_NUMBER_MESSAGE_SIZE])
{
  struct nc_number n;
  if (nc_parse_number (arg + start, len, max, flags, &n) == NC_NUMBER_OK)
    {
      *value = n.value;
      return NULL;
    }
  n.pos += start;
  n.end += start;
  return nc_number_message (&n, arg, what, msg);
}
