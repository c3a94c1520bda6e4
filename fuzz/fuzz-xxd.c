/* fuzz-xxd.c -- nc_xxd_parse, an xxd dump read as xxd -r reads it, from
   untrusted input (pwritev-patch --from-xxd).  The first byte chooses
   the reading (bit 0: a plain dump; the rest: COLS, 0 standing for 16),
   the second a small BASE, negative if odd; the rest is the dump.

   A dump it takes must give chunks that pwritev-patch can write: not
   empty, within NC_OFFSET_MAX, in the order of their lines; a second
   reading gives the same; nc_xxd_overlap agrees with a search of every
   pair.  */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ranges/operands.h"
#include "ranges/xxd-parse.h"

/* Whether two chunks of DUMP write the same byte, pair by pair.  */
static bool
any_overlap (const struct nc_xxd_dump *dump)
{
  for (size_t i = 0; i < dump->n; i++)
    for (size_t k = i + 1; k < dump->n; k++)
      {
        const struct nc_xxd_chunk *a = &dump->chunks[i], *b = &dump->chunks[k];
        if (a->offset < b->offset + b->len && b->offset < a->offset + a->len)
          return true;
      }
  return false;
}

static void
check_chunks (const struct nc_xxd_dump *dump)
{
  for (size_t i = 0; i < dump->n; i++)
    {
      const struct nc_xxd_chunk *c = &dump->chunks[i];
      fuzz_assert (c->len > 0 && c->bytes, "an empty chunk");
      fuzz_assert (c->offset <= NC_OFFSET_MAX
                   && c->len <= NC_OFFSET_MAX - c->offset,
                   "a chunk past the largest offset");
      fuzz_assert (c->line >= 1 && (i == 0 || c->line >= c[-1].line),
                   "chunks out of the order of their lines");
    }
  const struct nc_xxd_chunk *a, *b;
  if (dump->n < 200)
    fuzz_assert (nc_xxd_overlap (dump, &a, &b) == any_overlap (dump),
                 "nc_xxd_overlap and the search of every pair disagree");
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size < 2)
    return 0;
  struct nc_xxd_dump one = { .plain = data[0] & 1, .cols = data[0] >> 1,
                             .base = (data[1] >> 1) * (data[1] & 1 ? -1 : 1) };
  if (one.cols == 0)
    one.cols = NC_XXD_DEFAULT_COLS;
  struct nc_xxd_dump two = one;
  size_t line1 = 0, line2 = 0;
  const char *e1 = nc_xxd_parse (data + 2, size - 2, &one, &line1);
  const char *e2 = nc_xxd_parse (data + 2, size - 2, &two, &line2);
  fuzz_assert (e1 == e2 && line1 == line2 && one.n == two.n,
               "two readings of a dump differ");
  if (!e1)
    {
      check_chunks (&one);
      for (size_t i = 0; i < one.n; i++)
        fuzz_assert (one.chunks[i].offset == two.chunks[i].offset
                     && one.chunks[i].len == two.chunks[i].len
                     && memcmp (one.chunks[i].bytes, two.chunks[i].bytes,
                                one.chunks[i].len) == 0,
                     "two readings of a dump differ");
    }
  else
    fuzz_assert (*e1 != '\0' && line1 >= 1, "an error without its line");
  nc_xxd_free (&one);
  nc_xxd_free (&two);
  return 0;
}
