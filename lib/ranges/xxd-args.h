/* ranges/xxd-args.h -- the arguments of xxd(1)'s options as preadv-dump
   takes them: numbers in cli/number.h's syntax (units, 0x; a leading 0
   is not octal, as it is for xxd), with xxd's signs.

     -s [+][-]SEEK   from SEEK; +SEEK from where the input stands (its
                     file offset: standard input may have been read
                     from); -SEEK back from the end; +-SEEK back from
                     where it stands;
     -o [+][-]OFFSET added to the addresses; -OFFSET subtracted, modulo
                     2^64;
     -R WHEN         always, never or auto: auto colours on a terminal
                     whose $TERM is not dumb, $NO_COLOR unset or empty.

   A malformed argument is a usage error naming its option.  */

#ifndef NC_RANGES_XXD_ARGS_H
#define NC_RANGES_XXD_ARGS_H

#include <stdbool.h>
#include <stdint.h>

struct xxd_seek
{
  const char *arg;              /* as given, for messages */
  uint64_t value;
  bool plus;                    /* from where the input stands */
  bool minus;                   /* backwards */
  uint64_t len;                 /* -l, or 0 */
};

/* SEEK of -s (NULL: 0) and LEN of -l (NULL: none) into *S.  */
void xxd_parse_seek (const char *seek, const char *len, struct xxd_seek *s);

/* The offset *S stands for in the input FD named NAME: SIZE bytes long if
   SIZE_KNOWN; PIPED if it is read once, in order (where a seek back is
   a usage error, and +SEEK counts from where reading starts).  A seek
   before the start ends the process with a message.  */
uint64_t xxd_seek_offset (const struct xxd_seek *s, int fd,
                          const char *name, bool size_known, uint64_t size,
                          bool piped);

/* ARG of -o.  */
uint64_t xxd_display_offset (const char *arg);

/* Whether to colour, as WHEN (NULL: auto) says.  */
bool xxd_want_color (const char *when);

#endif
