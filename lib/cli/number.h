/* cli/number.h -- the one number syntax of every newcalls tool (newcalls(7),
   NUMBERS).

   A number is decimal digits (a leading 0 does not make it octal), or
   0x (or 0X) followed by hexadecimal digits.  A size may end with a unit:
   K (or k), M, G, T, P or E alone or followed by iB for powers of 1024,
   or followed by B for powers of 1000 ("4K" = "4KiB" = 4096, "4KB" =
   4000).  A hexadecimal number takes no unit, since B and E would be
   digits: "0x1B" is 27, "0x1G" is an error.  No sign (but see
   nc_parse_signed), no blanks, no fraction.

   The parsers are pure functions: the text in, the value or a precise
   error out; they never exit or allocate, and read only the LEN bytes
   given (ARG need not be null-terminated).  nc_number_message turns the
   outcome into the words of a message, which names the maximum when a
   number is beyond it ("pipe size too large (at most 1073741824, 1G)": a
   size limit that is a whole number of a unit is also shown with it).  */

#ifndef NC_CLI_NUMBER_H
#define NC_CLI_NUMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What can be wrong with a number.  */
enum nc_number_error
{
  NC_NUMBER_OK,
  NC_NUMBER_EMPTY,        /* No character at all.  */
  NC_NUMBER_NEGATIVE,     /* A '-' in front, where no sign is taken.  */
  NC_NUMBER_NO_DIGITS,    /* "0x" or "-" and nothing after.  */
  NC_NUMBER_BAD_DIGIT,    /* The character at POS is not a digit.  */
  NC_NUMBER_BAD_UNIT,     /* The suffix from POS is not a unit.  */
  NC_NUMBER_HEX_UNIT,     /* A unit letter at POS after a 0x number.  */
  NC_NUMBER_NO_UNIT,      /* A unit letter at POS, where none is taken.  */
  NC_NUMBER_TOO_LARGE,    /* Beyond MAX (below -MAX when NEGATIVE).  */
  NC_NUMBER_ZERO          /* 0, where NC_NUMBER_NONZERO says it means
                             nothing.  */
};

/* Flags of the parsers.  */
enum
{
  NC_NUMBER_UNITS = 1,    /* A size: a unit suffix is taken.  */
  NC_NUMBER_NONZERO = 2   /* 0 (in any spelling: 0x0, 0K) is refused.  */
};

/* The outcome of a parse.  */
struct nc_number
{
  enum nc_number_error error;
  uint64_t value;         /* The magnitude, when ERROR is NC_NUMBER_OK.  */
  uint64_t max;           /* The largest magnitude allowed.  */
  size_t pos;             /* Index of the character at fault.  */
  size_t end;             /* Index just past the number's text.  */
  bool hex;               /* Written with 0x.  */
  bool negative;          /* Written with '-' (nc_parse_signed).  */
  bool units;             /* A size (NC_NUMBER_UNITS): messages may
                             show its maximum with a unit.  */
};

/* Parse the LEN bytes at ARG as a number of at most MAX into N; FLAGS are
   NC_NUMBER_* flags.  Return N->error.  N->pos and N->end count from ARG:
   a caller that parsed part of an operand may add the part's start to
   both before calling nc_number_message with the whole operand.  */
enum nc_number_error nc_parse_number (const char *arg, size_t len,
                                      uint64_t max, unsigned int flags,
                                      struct nc_number *n);

/* As nc_parse_number, but a leading '-' is taken: *VALUE is set to the
   number, between -MAX and MAX (MAX at most INT64_MAX), on success.  */
enum nc_number_error nc_parse_signed (const char *arg, size_t len,
                                      int64_t max, unsigned int flags,
                                      struct nc_number *n, int64_t *value);

/* Room for nc_number_message's result, WHAT included if it is at most
   NC_NUMBER_WHAT_MAX bytes long.  */
enum { NC_NUMBER_WHAT_MAX = 40, NC_NUMBER_MESSAGE_SIZE = 200 };

/* Write into BUF, and return, what is wrong with the number N parsed from
   ARG (which must hold at least N->end bytes), in words such as "negative
   offset" or "'G' at position 4 is not a hexadecimal digit (a 0x number
   takes no unit)"; WHAT names the number ("offset", "length"...).
   Return NULL when N->error is NC_NUMBER_OK.  */
const char *nc_number_message (const struct nc_number *n, const char *arg,
                               const char *what,
                               char buf[NC_NUMBER_MESSAGE_SIZE]);

/* The parse and its message in one call, what every tool does with a
   number, be it an option's argument (lib/cli/common) or part of an operand
   (lib/ranges/operands): parse the LEN bytes at ARG + START as a number of at
   most MAX (FLAGS as for nc_parse_number) into *VALUE and return NULL; else
   write into MSG, and return, what is wrong with it, WHAT naming it and
   positions counted from the start of ARG, the whole word.  */
const char *nc_parse_number_at (const char *arg, size_t start, size_t len,
                                uint64_t max, unsigned int flags,
                                const char *what, uint64_t *value,
                                char msg[NC_NUMBER_MESSAGE_SIZE]);

/* Write the byte C into BUF as a message shows it: itself when it is
   printable ASCII other than a quote or backslash, else as \xHH.  Return
   BUF.  */
enum { NC_CHAR_SHOWN_SIZE = 5 };
char *nc_char_shown (unsigned char c, char buf[NC_CHAR_SHOWN_SIZE]);

#endif
