/* copy-tree.h -- copy a directory tree: the walk of xcp -r.

   copy_tree walks the source with walk_at_fds (lib/walk) and makes the
   copy in step with it: a directory is made on the way in (writable and
   searchable by its owner, whatever the source says) and given its mode,
   times and other attributes on the way out; regular files go through
   copy_file; symbolic links, FIFOs, sockets and devices are made as what
   they are.  The copies of the directories are held in a walk_stack, as
   bounded as the walker's own: the parent of a copy whose descriptor was
   closed is opened again through ".." and must be the directory made
   (WALK_EMOVED otherwise: the entries that would go in it are reported,
   nothing is made elsewhere).  Symbolic links are never followed on
   either side below the top.

   Hard links: with --preserve=links, a file with more than one link is
   copied once, and its other names in the tree become links to the copy
   (copy_link_find, copy_link_add: a map from the source's device and
   inode to the copy's path relative to the directory of the top copy).
   With several sources into one directory (copy_options.record_made),
   what the run made is remembered (copy_made_add) so that a later source
   of the same name does not replace it (copy_made_here), as cp refuses.

   Failures are reported (copy-msg.h: the message, cli_status) and the
   walk goes on; nothing here returns an error.  */

#ifndef NC_COPY_TREE_H
#define NC_COPY_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "copy-options.h"
#include "walk.h"

/* The most descriptors of copies of directories a walk holds at once, as
   the walker holds at most WALK_MAX_FDS of the sources: fewer under a low
   RLIMIT_NOFILE (see copy_tree_fds).  */
enum { COPY_TREE_MAX_FDS = 16 };

/* The destination side of one walk.  */
struct copy_tree;

/* Share the descriptors left under RLIMIT_NOFILE (less what each file
   copied needs: the source, the copy, the file it replaces, a directory
   a symbolic link at the destination leads to, splice's pipe) between
   the walker's stack of source directories (*WALK_FDS) and ours of the
   copies (*DST_FDS); each works with two.  Return the descriptors
   free.  */
size_t copy_tree_fds (size_t *walk_fds, size_t *dst_fds);

/* Copy SRC (a directory and everything below it, or anything else as
   what it is) to NAME in DIRFD, whose stat is DIR_ST and which has a
   default ACL if PARENT_ACL; DST in messages.  Hold at most WALK_FDS
   source directories and DST_FDS copies open.  */
void copy_tree (const struct copy_options *o, const char *src, int dirfd,
                const struct stat *dir_st, bool parent_acl,
                const char *name, const char *dst, size_t walk_fds,
                size_t dst_fds);

/* The copy of the entry W is visiting: its path relative to
   copy_tree_link_base (T), in *BUF (freed first, then allocated), for
   copy_link_add.  */
const char *copy_tree_link_path (struct copy_tree *t, struct walk *w,
                                 char **buf);
int copy_tree_link_base (const struct copy_tree *t);

/* The path recorded for the file DEV/INO copied so far, or NULL.  */
const char *copy_link_find (dev_t dev, ino_t ino);
/* Record PATH (copied) for DEV/INO, unless one is already.  */
void copy_link_add (dev_t dev, ino_t ino, const char *path);

/* With O->record_made: remember DEV/INO as made by this run; tell
   whether ST was.  Without: nothing, and false.  */
void copy_made_add (const struct copy_options *o, dev_t dev, ino_t ino);
bool copy_made_here (const struct copy_options *o, const struct stat *st);

#endif
