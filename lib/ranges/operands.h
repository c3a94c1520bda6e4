/* ranges/operands.h -- the byte ranges and patches of preadv-dump and
   pwritev-patch.

   Operands name places in a file with the sizes of every tool (cli/number.h):
   decimal, or hexadecimal with 0x, a decimal one with an optional unit.
   A place is an off_t: every offset, and every offset plus length, is at
   most INT64_MAX.

   The parsers are pure functions (they allocate only the bytes of a
   patch).  They return NULL on success, or a short message saying what
   is wrong, for the caller to put after the operand in a usage error:
   a constant string, or MSG, where positions count from 1 at the first
   byte of the operand.  */

#ifndef NC_RANGES_OPERANDS_H
#define NC_RANGES_OPERANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "cli/number.h"

/* The largest file offset, and the largest end of a range.  */
#define NC_OFFSET_MAX INT64_MAX

/* A byte range: OFFSET:LENGTH, OFFSET-END (END excluded) or OFFSET (to
   the end of the file: TO_EOF set, LENGTH 0).  */
struct nc_range
{
  uint64_t offset;
  uint64_t length;
  bool to_eof;
};

/* Parse the offset in the LEN bytes at ARG (not necessarily
   null-terminated) into *VALUE, at most NC_OFFSET_MAX.  */
const char *nc_parse_offset (const char *arg, size_t len, uint64_t *value,
                             char msg[NC_NUMBER_MESSAGE_SIZE]);

/* Parse the range ARG into *RANGE.  */
const char *nc_parse_range (const char *arg, struct nc_range *range,
                            char msg[NC_NUMBER_MESSAGE_SIZE]);

/* Decode the hexadecimal bytes at ARG + START, up to the null byte (pairs
   of digits, which a space, ':' or '_' may separate, after an optional
   0x), into *BYTES, allocated with xmalloc only on success, and *LEN.  At
   least one byte is required.  ARG is the whole operand, for positions.  */
const char *nc_parse_hex (const char *arg, size_t start,
                          unsigned char **bytes, size_t *len,
                          char msg[NC_NUMBER_MESSAGE_SIZE]);

/* Set *SIZE to the size of the file open on FD whose status is ST and
   return true, when the file has one: a regular file (whose size may be
   a mere 0, as /proc files show) or a block device.  */
bool nc_file_size (int fd, const struct stat *st, uint64_t *size);

#endif
