/* copy/names.h -- the names a copy takes from its operands' paths.

   The copy of SRC into a directory, a tree's top and the sources that
   name one file twice are all named by the last component of a path:
   "a/b/" is "b", as cp names it.  */

#ifndef NC_COPY_NAMES_H
#define NC_COPY_NAMES_H

/* The last component of PATH, trailing slashes left out, in a new
   string ("" for "/").  */
char *copy_base_name (const char *path);

#endif
