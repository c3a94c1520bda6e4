/* fuzz-range.c -- nc_parse_range, the RANGE operands of preadv-dump:
   OFFSET:LENGTH, OFFSET-END or OFFSET.  A range it takes must be one the
   tool can read: within NC_OFFSET_MAX, and the numbers in it the ones
   nc_parse_offset reads on their own.  */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ranges/operands.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *arg = fuzz_string (data, size);
  struct nc_range r = { 0, 0, false };
  char buf[NC_NUMBER_MESSAGE_SIZE];
  const char *msg = nc_parse_range (arg, &r, buf);
  if (!msg)
    {
      fuzz_assert (r.offset <= NC_OFFSET_MAX
                   && r.length <= NC_OFFSET_MAX - r.offset,
                   "a range beyond the largest offset parsed");
      fuzz_assert (!r.to_eof || r.length == 0,
                   "a range to the end of the file has a length");
      size_t seplen = strcspn (arg, ":-");
      uint64_t offset, second;
      fuzz_assert (nc_parse_offset (arg, seplen, &offset, buf) == NULL
                   && offset == r.offset,
                   "a range's offset is not the number before its separator");
      fuzz_assert (r.to_eof == (arg[seplen] == '\0'),
                   "a range without a separator does not run to the end");
      if (!r.to_eof)
        {
          const char *rest = arg + seplen + 1;
          fuzz_assert (nc_parse_offset (rest, strlen (rest), &second, buf)
                       == NULL,
                       "a range's second number does not parse alone");
          fuzz_assert (arg[seplen] == ':' ? second == r.length
                       : second == r.offset + r.length,
                       "a range's length or end is not the number after "
                       "its separator");
        }
    }
  else
    fuzz_assert (*msg != '\0', "an empty message for a bad range");
  free (arg);
  return 0;
}
