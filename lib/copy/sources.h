/* copy/sources.h -- xcp's operands taken together: the directory they
   are copied into, and those given twice.

   The last of several operands, or of two where it is a directory, is
   the directory the others go into, unless -T says DST is the copy's
   name; -t names it instead.  A target that is no directory, or cannot
   be opened, ends xcp with status 1 before anything is copied, as cp.

   Of the sources copied into a directory, one that names the file an
   earlier one named, by the same last component, is warned of and left
   as cp leaves it ("warning: source file 'F' specified more than
   once"): a directory whatever the path to it, for it would be copied
   to the same name again; a file only if it is the same directory entry,
   and not where backups are made (each copy makes one).  A directory
   without -r is refused each time, as by cp.  */

#ifndef NC_COPY_SOURCES_H
#define NC_COPY_SOURCES_H

#include <stddef.h>

#include "copy/options.h"

/* The directory the N operands ARGS go into, as X's -t and -T say: -t's
   DIR, the last operand (then taken off *N), or NULL for SRC DST.  */
const char *copy_target_dir (const struct copy_options *x,
                             const char **args, size_t *n);

/* Copy the N sources ARGS into directory DIR, each to DIR/SRC with
   --parents (copy/parents.h), else by its last component
   (copy/operand.h), leaving those given twice.  */
void copy_sources_into (const struct copy_options *x, const char **args,
                        size_t n, const char *dir);

#endif
