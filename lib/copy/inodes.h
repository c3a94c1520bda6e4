/* copy/inodes.h -- the maps by device and inode that a copy keeps, shared
   by the threads of xcp -j (each map under its own lock).

   Hard links: with --preserve=links, a file with more than one link is
   copied once, and its other names become links to the copy
   (copy_link_claim, copy_link_add: a map from the source's device and
   inode to the copy's path relative to the directory of the top copy, or
   to the one copy_links_base says).
   With several sources into one directory (copy_options.record_made),
   what the run made is remembered (copy_made_add) so that a later source
   of the same name does not replace it (copy_made_here), as cp refuses.

   The maps live as long as the process; nothing here fails but memory
   (xalloc).  */

#ifndef NC_COPY_INODES_H
#define NC_COPY_INODES_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

struct copy_options;

/* Inodes seen, each with a string (NULL while a thread claims it, see
   copy_link_claim): an open-addressing table, all zero when empty.  The
   maps below are such tables; copy/tree.c keeps one of its own, of the
   directories it made (not locked: the caller's).  */
struct ino_rec
{
  bool used;
  dev_t dev;
  ino_t ino;
  char *path;
  pthread_t claimer;
};

struct ino_map
{
  struct ino_rec *v;
  size_t used, cap;
};

/* The record of DEV/INO in M, or NULL.  */
struct ino_rec *ino_rec (const struct ino_map *m, dev_t dev, ino_t ino);

/* Record DEV/INO with a copy of PATH (NULL: claimed by this thread),
   unless it is recorded.  */
void ino_add (struct ino_map *m, dev_t dev, ino_t ino, const char *path);

/* What copy_link_claim finds.  */
enum { LINK_FOUND, LINK_MINE };

/* The file DEV/INO, one of several names: LINK_FOUND with *FIRST the
   path of its copy (relative to the top copy's directory, or see
   copy_links_base) if it was
   copied; else LINK_MINE: the caller copies it, and ends the claim with
   copy_link_add (the copy is in place) or copy_link_drop (it failed).
   While another thread's claim lasts, the call waits for its end.  */
int copy_link_claim (dev_t dev, ino_t ino, const char **first);
/* Record PATH (copied) for DEV/INO, unless one is already; a claim of
   the calling thread ends.  */
void copy_link_add (dev_t dev, ino_t ino, const char *path);
/* The calling thread's claim of DEV/INO ends with no copy: the next
   name to ask copies it.  */
void copy_link_drop (dev_t dev, ino_t ino);
/* From now on, record the copies' paths relative to DIRFD, each as
   PREFIX (empty, or ending in '/') and its path in its directory: where
   the operands' copies go in different directories under DIRFD (xcp
   --parents: PREFIX is SRC's directory), and are links of one another
   all the same.  DIRFD -1 (the default): relative to the directory of
   each operand's copy.  */
void copy_links_base (int dirfd, const char *prefix);
/* What the paths recorded for the copies of DIRFD are relative to (see
   copy_links_base): the directory, returned, and in *PREFIX what comes
   before a copy's path in its directory ("" or SRC's directory).  */
int copy_links_where (int dirfd, const char **prefix);
/* The path to record for the copy NAME of DIRFD, in a new string, and in
   *BASE the directory it is relative to (see copy_links_base).  */
char *copy_link_place (int dirfd, const char *name, int *base);

/* With O->record_made: remember DEV/INO as made by this run; tell
   whether ST was.  Without: nothing, and false.  */
void copy_made_add (const struct copy_options *o, dev_t dev, ino_t ino);
/* The same for the entry NAME of DIRFD, as it is now (not followed).  */
void copy_made_name (const struct copy_options *o, int dirfd,
                     const char *name);
bool copy_made_here (const struct copy_options *o, const struct stat *st);

#endif
