/* ranges/journal.h -- pwritev-patch's undo journal: the bytes a set of
   patches replaces, on the disk before the first patch is written, so
   that a crash leaves a file that the next run puts back as it was.

   CONTRACT.  The journal of FILE is ".BASE.pwritev-journal" in FILE's
   directory (BASE its last component), created with O_EXCL and mode
   0600: a journal that a crash left is recovered, never overwritten.
   Two runs on FILE take turns by ranges/patch-lock.h's lock, which the
   caller takes before the journal is looked at.  Its contents: a magic
   string; the device and inode of FILE; FILE's size before; whether the
   patches go past that size (the recovery then cuts FILE back to it);
   the number of records; each record's offset, length and old bytes;
   and last, an FNV-1a 64 checksum of everything before it.  The steps,
   in order:

     1. nc_journal_begin: the journal written, fsync'd, its directory
        fsync'd;
     2. the patches written (ranges/patch-write.h);
     3. nc_journal_end: FILE fsync'd, the journal removed, the directory
        fsync'd.

   A crash before step 1 ends leaves a journal that may be torn (its
   length or checksum wrong) and FILE untouched: such a journal is
   removed.  A crash at any later moment leaves a whole journal: the
   recovery (nc_journal_recover, at the start of the next run on FILE)
   writes the old bytes back, cuts FILE back to its old size if the
   patches went past it, fsyncs FILE, then removes the journal; a crash
   in the middle of a recovery leaves the journal for the next one.
   Whatever the moment of a crash, FILE ends wholly old or wholly new.

   A journal whose device and inode are not FILE's (FILE was replaced)
   is left alone, and the run fails: it may belong to the file that was
   there.  Messages go to standard error through error(), in the tool's
   words; failures exit with status 1 (nc_journal_begin, the recovery)
   or set cli_status (nc_journal_end).  */

#ifndef NC_RANGES_JOURNAL_H
#define NC_RANGES_JOURNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "ranges/patch-write.h"

struct nc_journal
{
  const char *file;             /* FILE's name, for messages */
  int dirfd;                    /* its directory */
  char *name;                   /* the journal's name there (malloc'd) */
  char *path;                   /* its path, for messages (malloc'd) */
};

/* Set up J for FILE: its directory opened.  Exit with status 1 if that
   fails.  */
void nc_journal_init (struct nc_journal *j, const char *file);

/* If J's journal exists: under DRY_RUN, say so; otherwise put the old
   bytes it holds back into FILE, open on FD with status ST, and remove
   it, saying so (a torn journal is removed, also saying so).  Return
   true if FILE was changed.  */
bool nc_journal_recover (struct nc_journal *j, int fd, const struct stat *st,
                         bool dry_run);

/* Step 1 for PLAN, whose old bytes are read (nc_patch_read_old), on a
   file of status ST and OLD_SIZE bytes.  */
void nc_journal_begin (struct nc_journal *j, const struct nc_patch_plan *plan,
                       const struct stat *st, uint64_t old_size);

/* Step 3, after nc_patch_write on PLAN: if a patch stays written after a
   failure (PLAN->left_written), the journal is kept for a recovery, and
   the message says so.  */
void nc_journal_end (struct nc_journal *j, const struct nc_patch_plan *plan);

/* Close and free what J holds.  */
void nc_journal_free (struct nc_journal *j);

/* The FNV-1a 64 hash of the LEN bytes at P, continuing from H (start with
   NC_JOURNAL_HASH_INIT).  */
#define NC_JOURNAL_HASH_INIT UINT64_C (0xcbf29ce484222325)
uint64_t nc_journal_hash (uint64_t h, const void *p, size_t len);

#endif
