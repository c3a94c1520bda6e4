/* ranges/hexdump-xxd.h -- the line formats of xxd(1), byte for byte, on
   ranges/dumpout.h's output:

     hex     "00000010: 4865 6c6c 6f0a  Hello." (xxd), its groups of
             GROUP bytes read little-endian with LITTLE (xxd -e);
     bits    each byte as 8 binary digits (xxd -b);
     plain   hex digits alone, COLS bytes a line, 0 for one line (xxd -p).

   An address is the offset of its line's first byte plus DISPLAY (xxd -o,
   modulo 2^64), in hex (%08lx) or, with DECIMAL, in decimal (%08lu, as
   xxd 9.2 prints it: xxd 9.0 prints an address from 2^63 up as a
   negative number).  AUTOSKIP is xxd -a: in a run of full lines of
   zeros, the first and the last are printed, one "*" line for those
   between (the second itself when it is the only one).  COLOR is xxd
   9.x's -R: bold colours by byte class, on the hex digits and the
   characters of each byte.  One range at a time: xxd_begin, xxd_data in
   pieces, all but the last a multiple of COLS bytes, xxd_end.  */

#ifndef NC_RANGES_HEXDUMP_XXD_H
#define NC_RANGES_HEXDUMP_XXD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum xxd_style { XXD_HEX, XXD_BITS, XXD_PLAIN };

struct xxd_layout
{
  enum xxd_style style;
  int cols;                     /* bytes a line, 1 to 256; plain: any */
  int group;                    /* bytes a group, 1 to COLS */
  bool little;                  /* hex: each group's bytes reversed */
  bool upper;                   /* hex digits A-F */
  bool autoskip;
  bool decimal;
  bool color;
  uint64_t display;
};

/* The layout of the dump to come; the caller checked its limits.  */
void xxd_start (const struct xxd_layout *layout);

/* Start a range at OFFSET in the file.  */
void xxd_begin (uint64_t offset);

/* N bytes of the range from B.  */
void xxd_data (const unsigned char *b, size_t n);

/* End the range: the lines autoskip held back, plain's last newline.  */
void xxd_end (void);

#endif
