/* ranges/dumpfmt.h -- byte ranges printed in the formats of a hex dump, on
   standard output, through a buffer of its own:

     xxd   as xxd(1) prints them: "00000010: 4865 6c6c 6f0a  Hello."
           lines of COLS bytes in groups of GROUP, each line's address
           the offset in the file;
     raw   the bytes as they are;
     c     as xxd -i: one array per range, "unsigned char NAME_I[]",
           NAME made from the file name, I the range's index, then its
           length "unsigned int NAME_I_len";
     json  one array of objects, {"offset": O, "data": "BASE64",
           "length": L}, one a range.

   One dump per process: dump_start, then for each range dump_begin,
   dump_data for its bytes in as many pieces as needed, dump_end; last
   dump_finish.  A write error ends the process: quietly with status 1
   for EPIPE (the reader went away, as cat does), else with a message.  */

#ifndef NC_RANGES_DUMPFMT_H
#define NC_RANGES_DUMPFMT_H

#include <stddef.h>
#include <stdint.h>

enum dump_format { DUMP_XXD, DUMP_RAW, DUMP_C, DUMP_JSON };

/* The names of the formats, in the order of enum dump_format; NULL
   ends them (argmatch's keyword list).  */
extern const char *const dump_format_names[];

/* Start a dump in FORMAT of the file named FILE ("-" for standard input:
   "stdin" in C names), COLS bytes a line (at most 256; 0: 12 for c, else
   16), in groups of GROUP bytes for xxd (-1: 2; 0 or more than COLS: one
   group a line).  Return the bytes a line.  */
int dump_start (enum dump_format format, int cols, int group,
                const char *file);

/* Start the range of index INDEX (from 0) at OFFSET in the file.  */
void dump_begin (uint64_t offset, size_t index);

/* N bytes of the range from B.  In a range printed in several calls,
   all calls but the last give a multiple of 3 * COLS bytes.  */
void dump_data (const unsigned char *b, size_t n);

/* End the range of index INDEX, TOTAL bytes long.  */
void dump_end (size_t index, uint64_t total);

/* A whole range at once: dump_begin, dump_data of its N bytes at B (if
   any), dump_end.  */
void dump_range (uint64_t offset, size_t index, const unsigned char *b,
                 size_t n);

/* Write out what is buffered, before a message on standard error.  */
void dump_flush (void);

/* End the dump, write out the rest and free what it used.  */
void dump_finish (void);

#endif
