/* copy/link.h -- xcp -l and -s: the copy of a file that is not a
   directory is a hard link to the source, or a symbolic link to the
   source's name, as cp --link and --symbolic-link make it.

   - No data is read or written: -l is one linkat, -s one symlinkat.
   - -l of a symbolic link links the link itself, or (FOLLOW) the file
     it names (AT_SYMLINK_FOLLOW), as -P, -H and -L say.
   - -s of a relative name is refused unless the copy goes into the
     current directory (elsewhere the link would name something else).
   - An existing destination is judged as cp does with these options: a
     name already linked to the source is left (nothing to do); a name
     that is the source itself is refused ("are the same file"); -n
     leaves it, -u, -i as for a copy.  Then, where cp removes it and
     makes the link (-f; -i answered yes, for -l; a source that is not
     a regular file, under -P), the link takes its place through a
     temporary name renamed over it, so that the name is never missing.
     Elsewhere the link is not made: "File exists", as from cp.
   - -s keeps the attributes --preserve asks of the source (owner,
     times) on the link; -l shares them.

   -v's line is told before the link is made, as cp prints it.  Failures
   are reported (copy/msg.h).  */

#ifndef NC_COPY_LINK_H
#define NC_COPY_LINK_H

#include <stdbool.h>

struct copy_options;
struct dest;

/* Make D a link, as O's link says, to NAME of SRC_DIRFD, displayed as
   SRC (the name a symbolic link gets); FOLLOW: a symbolic link NAME is
   followed.  */
void copy_file_link (const struct copy_options *o, int src_dirfd,
                     const char *name, const char *src, bool follow,
                     const struct dest *d);

#endif
