/* fuzz-patch.c -- the PATCH operands of pwritev-patch: OFFSET=HEXBYTES or
   OFFSET@DATAFILE.

   The split at the first '=' or '@' lives in pwritev-patch's main, not in
   a function: it is done here as main does it (the operand loop belongs
   in lib/ranges/operands.c, as nc_parse_patch), and the parts go to the lib/
   parsers main calls, nc_parse_offset and nc_parse_hex.  The data file of
   OFFSET@DATAFILE is not read: that is I/O, not parsing.  The bytes must
   be the hexadecimal digits of the operand, two by two.  */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "c-ctype.h"
#include "fuzz.h"
#include "ranges/operands.h"

static int
hex_digit_value (char c)
{
  return c_isdigit (c) ? c - '0' : c_tolower (c) - 'a' + 10;
}

/* Check BYTES, LEN against the digits of HEX, separators skipped.  */
static void
check_bytes (const char *hex, const unsigned char *bytes, size_t len)
{
  if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
    hex += 2;
  size_t n = 0;
  for (const char *p = hex; *p; p++)
    {
      if (*p == ' ' || *p == ':' || *p == '_')
        continue;
      fuzz_assert (c_isxdigit (p[0]) && c_isxdigit (p[1]),
                   "bytes decoded from a non-hexadecimal digit");
      fuzz_assert (n < len, "fewer bytes than pairs of digits");
      fuzz_assert (bytes[n++] == (hex_digit_value (p[0]) << 4
                                  | hex_digit_value (p[1])),
                   "a byte is not its pair of digits");
      p++;
    }
  fuzz_assert (n == len && len > 0, "more bytes than pairs of digits");
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *arg = fuzz_string (data, size);
  size_t oplen = strcspn (arg, "=@");
  if (arg[oplen] != '\0')
    {
      uint64_t offset;
      char buf[NC_NUMBER_MESSAGE_SIZE];
      const char *msg = nc_parse_offset (arg, oplen, &offset, buf);
      if (!msg && arg[oplen] == '=')
        {
          unsigned char *bytes = NULL;
          size_t len = 0;
          msg = nc_parse_hex (arg, oplen + 1, &bytes, &len, buf);
          if (!msg)
            {
              check_bytes (arg + oplen + 1, bytes, len);
              free (bytes);
            }
          else
            fuzz_assert (bytes == NULL, "a refused patch left bytes");
        }
      if (!msg)
        fuzz_assert (offset <= NC_OFFSET_MAX,
                     "a patch offset beyond the largest offset parsed");
    }
  free (arg);
  return 0;
}
