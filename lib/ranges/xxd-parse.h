/* ranges/xxd-parse.h -- an xxd dump read back into byte patches, as
   `xxd -r` reads it (xxd of vim 9.0).

   CONTRACT.  nc_xxd_parse reads the whole dump in a buffer, character by
   character, with the rules of `xxd -r`, and returns the bytes it would
   write as chunks: the bytes that go to consecutive offsets, in the
   order of the dump, are one chunk.  Nothing is written anywhere: the
   caller applies the chunks as one set of patches.

   A normal dump (NC_XXD_NORMAL): on each line, hex digits up to the
   first other character are the offset (the ':' and the spaces of xxd
   need not be there); then pairs of hex digits are bytes, at most COLS
   of them (the rest of the line is then skipped, which is how the
   column of characters is ignored), and two characters in a row that are
   no hex digit end the bytes of the line.  Characters before a line's
   first hex digit are skipped, '\r' everywhere; a line without a
   digit ("*" of xxd -a, an empty line) is skipped.  Offsets may jump
   forward and back: each byte goes where its line says.
   A plain dump (NC_XXD_PLAIN, xxd -p): spaces, tabs and newlines are
   skipped, the digits pair across them, two other characters in a row
   skip the rest of the line; the bytes follow one another from offset
   0.  Under both, BASE (xxd -r -s) is added to every offset.

   Errors, naming the line (lines count from 1 at every '\n'), where
   xxd -r fails half-way or writes what it can and drops the rest: an
   offset past NC_OFFSET_MAX (xxd's long wraps) or negative after BASE
   (xxd: "cannot seek backwards"), from the first character after it,
   where xxd -r seeks there; a line that writes a byte and also holds a
   lone hex digit (xxd drops it); and two lines that write the same
   byte (xxd writes it twice).  A line that writes nothing and seeks
   nowhere is never an error.  */

#ifndef NC_RANGES_XXD_PARSE_H
#define NC_RANGES_XXD_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* xxd -r's limit on COLS for a normal dump.  */
#define NC_XXD_MAX_COLS 256

/* The bytes of a normal dump's line that xxd -r reads without -c.  */
#define NC_XXD_DEFAULT_COLS 16

/* LEN bytes of the dump for OFFSET on, from line LINE on.  */
struct nc_xxd_chunk
{
  uint64_t offset;
  unsigned char *bytes;         /* malloc'd */
  size_t len;
  size_t line;
};

struct nc_xxd_dump
{
  bool plain;                   /* set by the caller: an xxd -p dump */
  int cols;                     /* set by the caller: bytes a line at most
                                   (normal dumps), 1 to NC_XXD_MAX_COLS */
  int64_t base;                 /* set by the caller: added to offsets */
  struct nc_xxd_chunk *chunks;  /* malloc'd, in the order of the dump */
  size_t n;
};

/* Read the LEN bytes of the dump at TEXT into DUMP->chunks and DUMP->n.
   Return NULL, or a constant message for the caller to put after
   "line N: ", *LINE being N.  After an error, DUMP still
   holds what it read, for nc_xxd_free.  */
const char *nc_xxd_parse (const unsigned char *text, size_t len,
                          struct nc_xxd_dump *dump, size_t *line);

/* The first two chunks of DUMP that write the same byte, in *A and *B
   (A's line before B's), and return true; false if no two do.  */
bool nc_xxd_overlap (const struct nc_xxd_dump *dump,
                     const struct nc_xxd_chunk **a,
                     const struct nc_xxd_chunk **b);

/* Free the chunks of DUMP (and their bytes, unless the caller took them
   and set them to NULL).  */
void nc_xxd_free (struct nc_xxd_dump *dump);

#endif
