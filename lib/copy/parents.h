/* copy/parents.h -- xcp --parents: SRC copied to DIR/SRC, the
   directories of SRC's path made under DIR as cp makes them.

   Each directory of the path is made from the source's directory of
   that path: its mode less the umask, or its attributes with -p or -a,
   given once the copy below it is done (they may take away the write
   permission the copy needs).  One that is there already is used as it
   is, and given what -p or -a keeps unless the whole path was there, as
   by cp.  -v tells each directory made, unquoted, as cp does.  A file of
   the source's path where a directory should be stops the copy of SRC
   ("failed to get attributes of", as from cp).

   The copies of hard links (--preserve=links) are found relative to
   DIR, where those of every operand are.  Failures are reported
   (copy/msg.h); nothing here returns an error.  */

#ifndef NC_COPY_PARENTS_H
#define NC_COPY_PARENTS_H

#include "copy/options.h"

/* --parents: copy SRC to DIR/SRC, DIRFD open on DIR.  */
void copy_parents (const struct copy_options *x, const char *src,
                   int dirfd, const char *dir);

#endif
