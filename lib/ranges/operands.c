/* ranges/operands.c -- the byte ranges and patches of preadv-dump and
   pwritev-patch; see ranges/operands.h.  */

#include <config.h>

#include "ranges/operands.h"

#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "c-ctype.h"
#include "cli/number.h"
#include "sys/calls.h"
#include "xalloc.h"

/* The number in the LEN bytes at ARG + START, an operand's WHAT.  */
static const char *
operand_number (const char *arg, size_t start, size_t len, const char *what,
                uint64_t *value, char msg[NC_NUMBER_MESSAGE_SIZE])
{
  return nc_parse_number_at (arg, start, len, NC_OFFSET_MAX, NC_NUMBER_UNITS,
                             what, value, msg);
}

const char *
nc_parse_offset (const char *arg, size_t len, uint64_t *value,
                 char msg[NC_NUMBER_MESSAGE_SIZE])
{
  return operand_number (arg, 0, len, "offset", value, msg);
}

const char *
nc_parse_range (const char *arg, struct nc_range *range,
                char msg[NC_NUMBER_MESSAGE_SIZE])
{
  uint64_t offset, second;
  /* A leading '-' is a sign, never the separator.  */
  size_t seplen = (arg[0] == '-') + strcspn (arg + (arg[0] == '-'), ":-");
  const char *sep = arg + seplen;
  const char *err = operand_number (arg, 0, seplen, "offset", &offset, msg);
  if (err)
    return err;
  range->offset = offset;
  range->length = 0;
  range->to_eof = *sep == '\0';
  if (range->to_eof)
    return NULL;
  bool is_length = *sep == ':';
  err = operand_number (arg, seplen + 1, strlen (sep + 1),
                        is_length ? "length" : "end", &second, msg);
  if (err)
    return err;
  if (is_length)
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

static bool
hex_separator (unsigned char c)
{
  return c == ' ' || c == ':' || c == '_';
}

const char *
nc_parse_hex (const char *arg, size_t start, unsigned char **bytes,
              size_t *len, char msg[NC_NUMBER_MESSAGE_SIZE])
{
  const char *p = arg + start;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    p += 2;
  const char *bad = NULL;
  size_t n = 0;
  /* Check everything before allocating: a pure parse until the end.  */
  for (const char *q = p;; q += 2)
    {
      while (hex_separator (*q))
        q++;
      if (*q == '\0')
        break;
      if (!c_isxdigit (q[0]))
        bad = q;
      else if (q[1] == '\0' || hex_separator (q[1]))
        return "odd number of hexadecimal digits";
      else if (!c_isxdigit (q[1]))
        bad = q + 1;
      if (bad)
        {
          char c[NC_CHAR_SHOWN_SIZE];
          snprintf (msg, NC_NUMBER_MESSAGE_SIZE,
                    "'%s' at position %zu is not a hexadecimal digit",
                    nc_char_shown (*bad, c), (size_t) (bad - arg) + 1);
          return msg;
        }
      n++;
    }
  if (n == 0)
    return "no bytes";
  unsigned char *buf = xmalloc (n);
  for (size_t i = 0; i < n; p += 2)
    {
      while (hex_separator (*p))
        p++;
      buf[i++] = hex_value (p[0]) << 4 | hex_value (p[1]);
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
