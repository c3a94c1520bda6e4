/* ranges.c -- the byte ranges and patches of preadv-dump and
   pwritev-patch; see ranges.h.  */

#include <config.h>

#include "ranges.h"

#include <string.h>
#include <sys/mount.h>

#include "c-ctype.h"
#include "sys.h"
#include "xalloc.h"
#include "xstrtol.h"

/* What can be wrong with one number of an operand.  */
enum number_error
{
  NUMBER_OK,
  NUMBER_MISSING,
  NUMBER_NEGATIVE,
  NUMBER_MALFORMED,
  NUMBER_TOO_LARGE
};

/* Longer than any number with a suffix; only leading zeros could make
   a valid one longer.  */
enum { NUMBER_MAX_CHARS = 127 };

static enum number_error
parse_number (const char *arg, size_t len, uint64_t *value)
{
  char buf[NUMBER_MAX_CHARS + 1];
  if (len == 0)
    return NUMBER_MISSING;
  if (arg[0] == '-')
    return NUMBER_NEGATIVE;
  /* strtoumax would skip white space and take a sign.  */
  if (!c_isdigit (arg[0]) || len > NUMBER_MAX_CHARS)
    return NUMBER_MALFORMED;
  memcpy (buf, arg, len);
  buf[len] = '\0';
  /* Base 16 only with 0x, so that a leading zero is not octal.  */
  int base = buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X') ? 16 : 10;
  uintmax_t v;
  switch (xstrtoumax (buf, NULL, base, &v, "EGkKMPT0"))
    {
    case LONGINT_OK:
      if (v > NC_OFFSET_MAX)
        return NUMBER_TOO_LARGE;
      *value = v;
      return NUMBER_OK;
    case LONGINT_OVERFLOW:
      return NUMBER_TOO_LARGE;
    default:
      return NUMBER_MALFORMED;
    }
}

/* The message for error E of the number that is an operand's WHAT:
   0 an offset, 1 a length, 2 an end.  */
static const char *
number_message (enum number_error e, int what)
{
  static const char *const messages[][3] = {
    [NUMBER_MISSING] = { "missing offset", "missing length", "missing end" },
    [NUMBER_NEGATIVE] = { "negative offset", "negative length",
                          "negative end" },
    [NUMBER_MALFORMED] = { "malformed offset", "malformed length",
                           "malformed end" },
    [NUMBER_TOO_LARGE] = { "offset too large", "length too large",
                           "end too large" },
  };
  return e == NUMBER_OK ? NULL : messages[e][what];
}

const char *
nc_parse_offset (const char *arg, size_t len, uint64_t *value)
{
  return number_message (parse_number (arg, len, value), 0);
}

const char *
nc_parse_range (const char *arg, struct nc_range *range)
{
  uint64_t offset, second;
  /* A leading '-' is a sign, never the separator.  */
  size_t seplen = arg[0] == '-' ? 0 : strcspn (arg, ":-");
  const char *sep = arg + seplen;
  const char *msg = number_message (parse_number (arg, seplen, &offset), 0);
  if (seplen == 0 && arg[0] == '-')
    msg = number_message (NUMBER_NEGATIVE, 0);
  if (msg)
    return msg;
  range->offset = offset;
  range->length = 0;
  range->to_eof = *sep == '\0';
  if (range->to_eof)
    return NULL;
  int what = *sep == ':' ? 1 : 2;
  msg = number_message (parse_number (sep + 1, strlen (sep + 1), &second),
                        what);
  if (msg)
    return msg;
  if (what == 1)
    {
      if (second > NC_OFFSET_MAX - offset)
        return "range ends past the largest file offset";
      range->length = second;
    }
  else
    {
      if (second < offset)
        return "end before offset";
      range->length = second - offset;
    }
  return NULL;
}

static int
hex_value (unsigned char c)
{
  return c_isdigit (c) ? c - '0' : c_tolower (c) - 'a' + 10;
}

const char *
nc_parse_hex (const char *arg, unsigned char **bytes, size_t *len)
{
  const char *p = arg;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    p += 2;
  unsigned char *buf = xmalloc (strlen (p) / 2 + 1);
  size_t n = 0;
  for (;;)
    {
      while (*p == ' ' || *p == ':' || *p == '_')
        p++;
      if (*p == '\0')
        break;
      if (!c_isxdigit (p[0]))
        {
          free (buf);
          return "not a hexadecimal digit";
        }
      if (!c_isxdigit (p[1]))
        {
          free (buf);
          return "odd number of hexadecimal digits";
        }
      buf[n++] = hex_value (p[0]) << 4 | hex_value (p[1]);
      p += 2;
    }
  if (n == 0)
    {
      free (buf);
      return "no bytes";
    }
  *bytes = buf;
  *len = n;
  return NULL;
}

bool
nc_file_size (int fd, const struct stat *st, uint64_t *size)
{
  if (S_ISREG (st->st_mode))
    {
      *size = st->st_size;
      return true;
    }
  if (S_ISBLK (st->st_mode))
    {
      /* The kernel stores 64 bits, whatever the size_t of the number.  */
      uint64_t bytes;
      if (sys_ioctl (fd, BLKGETSIZE64, (unsigned long) &bytes) == 0)
        {
          *size = bytes;
          return true;
        }
    }
  return false;
}
