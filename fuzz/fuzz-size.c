/* fuzz-size.c -- the number parser, nc_parse_number_at (lib/cli/number.c),
   through its two doors: cli_parse_size (option values: --offset,
   --length, --gap...) and nc_parse_offset (the numbers in range and patch
   operands).

   Each door is called in exactly one line below, so that another number
   parser can take their place by changing that line.  Where both accept
   the same syntax (a digit first, at most 127 bytes) they must agree on
   every input: what a tool takes as --offset it takes in a range.  A
   number inside a longer operand reads as it does alone: the parser reads
   its LEN bytes only.  NC_NUMBER_NONZERO (--pipe-size) changes one thing
   only: 0 is refused.  */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cli/common.h"
#include "cli/number.h"
#include "fuzz.h"
#include "ranges/operands.h"
#include "xalloc.h"

struct size_call
{
  const char *arg;
  uint64_t value;
};

static void
call_parse_size (void *p)
{
  struct size_call *c = p;
  c->value = cli_parse_size ("fuzz", c->arg);
}

/* The option parser: true and *VALUE if it takes ARG.  */
static bool
option_size (const char *arg, uint64_t *value)
{
  struct size_call c = { .arg = arg };
  bool ok = fuzz_call (call_parse_size, &c, NULL);
  *value = c.value;
  return ok;
}

/* The operand parser: true and *VALUE if it takes ARG.  */
static bool
operand_number (const char *arg, uint64_t *value)
{
  char buf[NC_NUMBER_MESSAGE_SIZE];
  return nc_parse_offset (arg, strlen (arg), value, buf) == NULL;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *arg = fuzz_string (data, size);
  uint64_t by_option = 0, by_operand = 0;
  bool option_ok = option_size (arg, &by_option);
  bool operand_ok = operand_number (arg, &by_operand);
  fuzz_assert (!option_ok || by_option <= INT64_MAX,
               "a size beyond INT64_MAX accepted");
  fuzz_assert (!operand_ok || by_operand <= NC_OFFSET_MAX,
               "an offset beyond NC_OFFSET_MAX accepted");
  struct nc_number plain, nonzero;
  size_t len = strlen (arg);
  nc_parse_number (arg, len, INT64_MAX, NC_NUMBER_UNITS, &plain);
  nc_parse_number (arg, len, INT64_MAX, NC_NUMBER_UNITS | NC_NUMBER_NONZERO,
                   &nonzero);
  fuzz_assert (plain.error == NC_NUMBER_OK && plain.value == 0
               ? nonzero.error == NC_NUMBER_ZERO
               : nonzero.error == plain.error && nonzero.value == plain.value,
               "NC_NUMBER_NONZERO changes more than a zero's outcome");
  /* The same bytes between "12=" and "@x": the same outcome.  */
  char *inside = xmalloc (len + 6);
  memcpy (inside, "12=", 3);
  memcpy (inside + 3, arg, len);
  memcpy (inside + 3 + len, "@x", 3);
  uint64_t alone = 0, within = 0;
  char msg[NC_NUMBER_MESSAGE_SIZE];
  bool alone_ok = !nc_parse_number_at (arg, 0, len, NC_OFFSET_MAX,
                                       NC_NUMBER_UNITS, "offset", &alone,
                                       msg);
  bool within_ok = !nc_parse_number_at (inside, 3, len, NC_OFFSET_MAX,
                                        NC_NUMBER_UNITS, "offset", &within,
                                        msg);
  fuzz_assert (alone_ok == within_ok && alone == within,
               "a number reads otherwise inside a longer operand");
  fuzz_assert (alone_ok == operand_ok && alone == by_operand,
               "nc_parse_offset is not nc_parse_number_at");
  free (inside);
  if (arg[0] >= '0' && arg[0] <= '9' && strlen (arg) <= 127)
    {
      fuzz_assert (option_ok == operand_ok,
                   "one number parser takes what the other refuses");
      fuzz_assert (by_option == by_operand,
                   "the number parsers read different values");
    }
  free (arg);
  return 0;
}
