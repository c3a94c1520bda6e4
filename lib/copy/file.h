/* copy/file.h -- copy one regular file to its destination, as cp does,
   with the guarantees of copy/dest.h (what happens to what is there),
   copy/install.h (never a half-written file at the name) and copy/attrs.h
   (owner, mode, ACLs, times).

   A copy whose source changed while it was read (size, modification or
   change time, or data that ended before the size) is not put in place:
   the destination stays as it was.  One written in place or into a
   device holds what was read.  Every failure is reported (copy/msg.h);
   the copy then leaves the destination as it was, except one written in
   place or into a device, which holds what was written.  */

#ifndef NC_COPY_FILE_H
#define NC_COPY_FILE_H

#include <stdbool.h>
#include <stdint.h>

struct copy_options;
struct dest;

/* Copy the regular file (or, at the top without -r, anything readable)
   NAME of SRC_DIRFD, displayed as SRC, to D, as O says.  IN_TREE: found
   by the walk, listed with inode LISTED_INO (0: unknown), never followed:
   one that is no longer that regular file is skipped, reported.  A
   directory is refused (-r not specified).  In a tree with
   --preserve=links, a second name of a file already copied becomes a
   link to its copy.  With -l or -s, D becomes a link to the source
   instead (copy/link.h), followed unless IN_TREE.  */
void copy_file (const struct copy_options *o, int src_dirfd,
                const char *name, const char *src, uint64_t listed_ino,
                bool in_tree, const struct dest *d);

#endif
