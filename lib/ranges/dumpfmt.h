/* ranges/dumpfmt.h -- byte ranges printed in the formats of a hex dump, on
   standard output (ranges/dumpout.h):

     xxd     as xxd(1) prints them: "00000010: 4865 6c6c 6f0a  Hello."
             lines of COLS bytes in groups of GROUP, each line's address
             the offset in the file (ranges/hexdump-xxd.h: also xxd -e,
             -u, -a, -d, -o and -R);
     plain   as xxd -p, bits as xxd -b;
     raw     the bytes as they are;
     c       one array per range, "unsigned char NAME_I[]", NAME made
             from the file name, I the range's index, then its length
             "unsigned int NAME_I_len"; with XXD_C, exactly as xxd -i
             (no index when there is one range, no offset comment);
     json    one array of objects, {"offset": O, "data": "BASE64",
             "length": L}, one a range.

   One dump per process: dump_start, then for each range dump_begin,
   dump_data for its bytes in as many pieces as needed, dump_end; last
   dump_finish.  */

#ifndef NC_RANGES_DUMPFMT_H
#define NC_RANGES_DUMPFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ranges/dumpout.h"

enum dump_format
{
  DUMP_XXD, DUMP_RAW, DUMP_C, DUMP_JSON, DUMP_PLAIN, DUMP_BITS
};

/* The names of the formats, in the order of enum dump_format; NULL
   ends them (argmatch's keyword list).  */
extern const char *const dump_format_names[];

/* What a dump prints.  */
struct dump_options
{
  enum dump_format format;
  const char *file;             /* "-" for standard input */
  int cols;                     /* bytes a line; -1 the format's default */
  int group;                    /* bytes a group; -1 the default */
  bool little;                  /* xxd: groups little-endian (-e) */
  bool upper;                   /* hex digits in upper case (-u) */
  bool autoskip;                /* (-a) */
  bool decimal;                 /* decimal addresses (-d) */
  bool color;                   /* (-R) */
  uint64_t display;             /* added to the addresses (-o) */
  bool xxd_c;                   /* c: as xxd -i */
  const char *name;             /* c: the name to make the arrays' from,
                                   instead of FILE (-n) */
  bool capitalize;              /* c: names in upper case (-C) */
  size_t ranges;                /* how many ranges the dump will have */
};

/* The largest COLS of FORMAT (with xxd's LITTLE, the group must be a
   power of 2 too: dump_check says so).  */
int dump_max_cols (enum dump_format format);

/* NULL if the options OPT can be dumped, else why not.  */
const char *dump_check (const struct dump_options *opt);

/* Start a dump as OPT says (dump_check found nothing wrong).  Return the
   bytes a call of dump_data gives, but for a range's last, a multiple
   of.  */
size_t dump_start (const struct dump_options *opt);

/* Start the range of index INDEX (from 0) at OFFSET in the file.  */
void dump_begin (uint64_t offset, size_t index);

/* N bytes of the range from B.  In a range printed in several calls,
   all calls but the last give a multiple of what dump_start returned.  */
void dump_data (const unsigned char *b, size_t n);

/* End the range of index INDEX, TOTAL bytes long.  */
void dump_end (size_t index, uint64_t total);

/* A whole range at once: dump_begin, dump_data of its N bytes at B (if
   any), dump_end.  */
void dump_range (uint64_t offset, size_t index, const unsigned char *b,
                 size_t n);

/* End the dump, write out the rest and free what it used.  */
void dump_finish (void);

#endif
