/* copy/msg.h -- how the copy modules (and xcp) report a failure about a
   file: through cli_fail (the exit status becomes failure, a progress
   line is erased first), the file named by its path quoted and, when it
   is long (deep in a tree), shortened from the left (lib/cli/shortpath).
   The words are cp's where cp reports the same failure, so that a
   script's matching of them holds.  */

#ifndef NC_COPY_MSG_H
#define NC_COPY_MSG_H

#include <stdbool.h>
#include <sys/stat.h>

#include "cli/common.h"
#include "cli/features.h"
#include "cli/shortpath.h"
#include "walk/walker.h"

/* A name in a message; a second name in the same message needs buffers
   of its own.  */
#define quote_msg(name) quote_file (short_path (name))
#define quote_msg2(name) quote_file_n (1, short_path_n (1, name))

/* What a copy of a file of MODE is, in "cannot create %s %s": cp's
   words.  */
static inline const char *
copy_kind (mode_t mode)
{
  return S_ISDIR (mode) ? "directory"
         : S_ISLNK (mode) ? "symbolic link"
         : S_ISFIFO (mode) ? "fifo"
         : S_ISREG (mode) ? "regular file" : "special file";
}

/* The workers of a parallel copy (copy/jobs.h) share the quoting
   buffers, the progress line and the exit status: every report of the
   copy modules, and whatever xcp draws while they run, is made under
   this lock (nothing while no worker runs).  Not recursive.  */
void copy_msg_lock (void);
void copy_msg_unlock (void);

/* Whether workers run (ON), set by copy/jobs.c before the first starts
   and after the last ended: the lock is taken only while they do.  */
void copy_msg_threads (bool on);

/* Report a failure of errno ERR (0: none) about NAME (and B): the
   failure's path, for --json, is NAME (A).  */
#define copy_fail(err, format, name) \
  (copy_msg_lock (), cli_fail_file (name, err, format, quote_msg (name)), \
   copy_msg_unlock ())
#define copy_fail2(err, format, a, b) \
  (copy_msg_lock (), \
   cli_fail_file (a, err, format, quote_msg (a), quote_msg2 (b)), \
   copy_msg_unlock ())
/* "cannot create", what a copy of a file of MODE is, and NAME.  */
#define copy_fail_create(err, mode, name) \
  (copy_msg_lock (), \
   cli_fail_file (name, err, "cannot create %s %s", copy_kind (mode), \
                  quote_msg (name)), \
   copy_msg_unlock ())
/* The same for an error ERR of the walk's kind (WALK_EMOVED as well):
   an errno value is the failure's errno.  */
#define copy_fail_walk(err, format, name) \
  (copy_msg_lock (), \
   ((err) < WALK_ECHANGED \
    ? cli_fail_file (name, err, format, quote_msg (name)) \
    : cli_fail_file (name, 0, format ": %s", quote_msg (name), \
                     walk_strerror (err))), \
   copy_msg_unlock ())

/* Where ERR (an errno value) is the failure of copy/install.h's rename
   (install_rename_refused: asked here) and says that renameat2 is
   missing or refused: cli_call_trouble's words, which name it and the
   Linux it needs; else NULL, the errno's words to be used.  Under
   copy_msg_lock: the words are in a shared buffer.  */
const char *copy_rename_trouble (int err);

/* Report ERR, a failure of copy/install.h's calls that rename, about
   FILE, as cli_fail_file (FILE, ERR, FORMAT, ...) would, but with
   copy_rename_trouble's words in place of the errno's where it has
   some.  */
#define copy_fail_renaming(file, err, format, ...) \
  do \
    { \
      copy_msg_lock (); \
      const char *why_ = copy_rename_trouble (err); \
      if (why_) \
        cli_fail_file (file, 0, format ": %s", __VA_ARGS__, why_); \
      else \
        cli_fail_file (file, err, format, __VA_ARGS__); \
      copy_msg_unlock (); \
    } \
  while (0)
/* copy_fail and copy_fail2 so.  */
#define copy_fail_rename(err, format, name) \
  copy_fail_renaming (name, err, format, quote_msg (name))
#define copy_fail_rename2(err, format, a, b) \
  copy_fail_renaming (a, err, format, quote_msg (a), quote_msg2 (b))
/* copy_fail_create so.  */
#define copy_fail_install(err, mode, name) \
  copy_fail_renaming (name, err, "cannot create %s %s", copy_kind (mode), \
                      quote_msg (name))

#endif
