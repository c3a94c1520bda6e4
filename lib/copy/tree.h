/* copy/tree.h -- copy a directory tree: the walk of xcp -r.

   copy_tree walks the source with walk_at_fds (lib/walk/walker) and makes the
   copy in step with it: a directory is made on the way in (writable and
   searchable by its owner, writable by no one else, whatever the source
   says: dir_made_mode) and given its mode, times and other attributes on
   the way out; regular files go through copy_file; symbolic links,
   FIFOs, sockets and devices are made as what they are (see below for -L
   and --copy-contents; with -l or -s they go through copy_file too,
   which links them: copy/link.h).  The copies of the directories are
   held in a walk_stack, as bounded as the walker's own: the parent of a
   copy whose descriptor was closed is opened again through ".." and
   must be the directory made (WALK_EMOVED otherwise: the entries that
   would go in it are reported, nothing is made elsewhere).  Where the
   walker leaves many levels at once (a source directory moved during the
   walk), the copies' stack is climbed one level at a time, each level
   above opened before the one below is closed: it never holds more than
   its bound.  Symbolic links are never followed on either side below
   the top, except in the source with -L (WALK_FOLLOW: the walker's
   bound holds through them too); with --copy-contents, FIFOs, sockets
   and devices are read as files are.

   The walk never copies its own output: a source directory that is the
   directory of the top copy, or one of the copies' directories entered
   so far (by device and inode, remembered for the walk: a bind mount of
   the destination inside the source, the destination moved into the
   source during the copy), ends the walk with cp's message, "cannot
   copy a directory, 'SRC', into itself, 'DST'", before anything is made
   for it; the copies of the directories above it are given their
   attributes, as they would be on the way out.

   Hard links: with --preserve=links, a file with more than one link is
   copied once, and its other names in the tree become links to the copy
   (the map of copy/inodes.h).  With several sources into one directory
   (copy_options.record_made), what the run made is remembered there too,
   so that a later source of the same name does not replace it, as cp
   refuses.

   Failures are reported (copy/msg.h: the message, cli_status) and the
   walk goes on; nothing here returns an error.  */

#ifndef NC_COPY_TREE_H
#define NC_COPY_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "copy/options.h"
#include "walk/walker.h"

/* The most descriptors of copies of directories a walk holds at once, as
   the walker holds at most WALK_MAX_FDS of the sources: fewer under a low
   RLIMIT_NOFILE (see copy_tree_fds).  */
enum { COPY_TREE_MAX_FDS = 16 };

/* The destination side of one walk.  */
struct copy_tree;

/* The most copy_dirs (copy/jobs.h) of queued files held at once, two
   descriptors each, and as many directories whose attributes wait for
   their files, one each: fewer under a low RLIMIT_NOFILE.  */
enum { COPY_TREE_MAX_DIRS = 16 };

/* What a walk may hold: at most WALK_FDS source directories and DST_FDS
   copies open; JOBS workers (1: none, the walk copies every file), with
   at most DIRS copy_dirs.  */
struct copy_tree_limits
{
  unsigned int jobs;
  size_t walk_fds;
  size_t dst_fds;
  size_t dirs;
};

/* Share the descriptors left under RLIMIT_NOFILE (less what each file
   copied needs: the source, the copy, the file it replaces, a directory
   a symbolic link at the destination leads to, splice's pipe) between
   *JOBS workers (as many as there is room for; 1 if fewer than two),
   the copy_dirs of their files (*DIRS), the walker's stack of source
   directories (*WALK_FDS) and ours of the copies (*DST_FDS); each stack
   works with two.  Return the descriptors free.  */
size_t copy_tree_fds (unsigned int *jobs, size_t *walk_fds, size_t *dst_fds,
                      size_t *dirs);

/* Copy SRC (a directory and everything below it, or anything else as
   what it is) to NAME in DIRFD, whose stat is DIR_ST and which has a
   default ACL if PARENT_ACL; SRC_DISPLAY and DST in messages; within
   LIMITS.  SRC, a symbolic link, is followed where O follows operands
   (-H, -L, no -r), and, with -L, every link below it: a link to a
   directory is copied as a directory, one to a directory it is in is
   reported (a cycle), as cp reports it.  With --copy-contents, FIFOs,
   sockets and devices are read into regular files.  */
void copy_tree (const struct copy_options *o, const char *src,
                const char *src_display, int dirfd,
                const struct stat *dir_st, bool parent_acl,
                const char *name, const char *dst,
                const struct copy_tree_limits *limits);

#endif
