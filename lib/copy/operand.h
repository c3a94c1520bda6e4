/* copy/operand.h -- one operand of xcp: SRC copied to the name DST
   (copy_to), or into a directory (copy_into), as the top of a copy: a
   file through copy_file, a directory and what is below it (-r)
   through copy_tree.

   The name of the copy is DST's last component in DST's directory, or
   SRC's in the directory it goes into; its directory is opened once and
   the copy made relative to it.  A directory is never copied into
   itself or below itself ("cannot copy a directory, 'SRC', into itself,
   'DST'", as from cp), and a DST that ends in '/' takes only a
   directory.  A DST that cannot be reached is reported as cp reports
   it: SRC is looked at first, then DST.  Without -r, the operands
   that are names of one file become links to its first copy with
   --preserve=links, as in a tree.

   Failures are reported (copy/msg.h: the message, cli_status); nothing
   here returns an error.  */

#ifndef NC_COPY_OPERAND_H
#define NC_COPY_OPERAND_H

#include "copy/options.h"

/* Copy SRC to DST, a name.  With -f and --backup, a SRC that is DST, a
   regular file, is copied to the name its backup would get, as cp
   makes it.  */
void copy_to (const struct copy_options *x, const char *src,
              const char *dst);

/* Copy SRC into directory DIRFD, DIR in messages, by SRC's last
   component (after --strip-trailing-slashes).  */
void copy_into (const struct copy_options *x, const char *src, int dirfd,
                const char *dir);

/* Copy SRC to NAME in DIRFD, displayed as DST.  */
void copy_operand (const struct copy_options *x, const char *src,
                   int dirfd, const char *name, const char *dst);

/* With --strip-trailing-slashes, *SRC without the slashes at its end:
   the new string to free, which *SRC then is; else NULL.  */
char *copy_strip_slashes (const struct copy_options *x, const char **src);

#endif
