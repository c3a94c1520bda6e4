/* remove/removal.h -- what a removal of trees is asked to do, and what it
   keeps while it runs.

   struct remove_options holds rmtree's choices, parsed once in main and
   passed down read-only to every function of the removal.  struct removal
   is the state of one run over all the operands: the options, '/' as it
   was at the start (for --preserve-root), the operand being removed,
   what each directory being walked became, and the progress line with
   its count of the entries removed.  The functions here are the
   removal's words: its failures, its -v and -n lines, its count.  */

#ifndef NC_REMOVE_REMOVAL_H
#define NC_REMOVE_REMOVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "cli/progress.h"
#include "walk/walker.h"

/* When to ask before removing an entry, as rm: never, only for a
   write-protected one while standard input is a terminal (the default),
   or for every one (-i).  */
enum remove_asking
{
  REMOVE_ASK_NEVER,
  REMOVE_ASK_PROTECTED,
  REMOVE_ASK_ALWAYS
};

/* The int fields are popt's flags (POPT_ARG_NONE sets an int).  */
struct remove_options
{
  bool force;                   /* -f: a missing operand is fine */
  enum remove_asking ask;
  int recursive;                /* -r, -R */
  int dir;                      /* -d: without -r, an empty directory */
  int verbose;                  /* -v: "removed 'x'" */
  int dry_run;                  /* -n: "would remove 'x'", nothing removed */
  int one_file_system;          /* -x: no other file system is entered */
  bool preserve_root;           /* '/' is refused */
  bool preserve_all_root;       /* and a directory on another device than
                                   its parent (--preserve-root=all) */
  bool stdin_tty;               /* the answers come from a terminal */
  /* The progress line: 1 drawn, 0 not, -1 drawn if standard error is a
     terminal, unless -v or -n list the entries.  */
  int progress;
  /* --json: the object of remove/summary.h on standard output at the
     end, the lines of -v and -n on standard error.  */
  int json;
};

/* What a directory being walked became: a directory that keeps an entry
   that failed, or a subdirectory the user chose not to enter, is left
   quietly with its ancestors, as rm does: it cannot be empty.  One where
   the user only kept files (or said no to removing a subdirectory) is
   still asked about and tried, and its removal fails.  The walker counts
   the entries kept (kept); those the user chose to keep are counted
   here.  */
struct remove_dir
{
  unsigned long declined;       /* entries the user chose to keep */
  bool asked;                   /* the user already said to remove it */
  bool failed;                  /* it stays: its failure was said, or
                                   one of its files' was */
  bool queued;                  /* files queued to the unlinker, the last */
  uint64_t ticket;              /* with this ticket, */
  uint64_t key;                 /* all with this key (see next_key) */
};

/* The operand being removed: its last component without the trailing
   slashes, in the directory DIRFD; whether it was written with a
   trailing slash (then the walk starts from BASE "/", which resolves a
   symbolic link, as POSIX says); and the device of the directory the
   walk starts in.  */
struct remove_top
{
  int dirfd;
  const char *base;
  bool slash;
  dev_t dev;
};

struct removal
{
  const struct remove_options *o;
  struct stat root;             /* '/', if root_ok */
  bool root_ok;
  struct remove_top top;
  struct remove_dir *dirs;      /* by depth, from the operand down */
  size_t dirs_alloc;
  struct progress bar;
  bool progress;                /* the line is drawn */
  uintmax_t removed;            /* entries removed, for the line */
  /* The files and directories removed (with -n: listed), for --json.  */
  uintmax_t files, directories;
  /* The thread that removes files while the walk goes on, where nothing
     is said or asked of each file (remove/unlinker.h), or NULL; the
     files it removed that are counted above.  */
  struct unlinker *unlinker;
  bool unlinker_tried;
  uintmax_t unlinked;
  bool silent;                  /* nothing is said or asked of an entry */
  uint64_t next_key;            /* the key of the next directory entered */
  /* The most directory descriptors a walk holds, and the size the table
     of descriptors was grown to (see removal_reserve_fds).  */
  size_t max_fds, fds_reserved;
};

/* Start R, a run of the options O (which must outlive it): stat '/' for
   --preserve-root, start the progress line's clock, and raise the limit
   of descriptors (see max_fds).  */
void removal_start (struct removal *r, const struct remove_options *o);

/* End R: stop the unlinker, the progress line's last draw, if it was
   asked for; free what R holds.  */
void removal_finish (struct removal *r);

/* "cannot remove PATH: ERR" for the entry W visits; ERR is an errno
   value or a walker's (walk_strerror).  */
void remove_report (struct walk *w, int err);

/* One more entry removed (with -n: to be), a directory if DIR, counted;
   "removed [directory ]'PATH'" with -v, "would remove ..." with -n (on
   standard error with --json).  */
void removal_say (struct removal *r, struct walk *w, bool dir);

/* One more entry removed, for the progress line.  */
void removal_count (struct removal *r);

/* The walk holds a descriptor a level, now at DEPTH: grow the table of
   descriptors ahead of it, eight times at a time, with the unlinker's
   thread paused (see unlinker_pause): one step where the kernel would
   take one a doubling, each waiting for an RCU grace period.  */
void removal_reserve_fds (struct removal *r, size_t depth);

/* R's unlinker, started the first time (a run that removes no file
   below an operand starts no thread), or NULL: files are said or asked
   about, or the thread could not be created.  */
struct unlinker *removal_unlinker (struct removal *r);

/* Count the files the unlinker removed since the last call.  */
void removal_count_unlinked (struct removal *r);

/* "cannot remove PATH/NAME: ERR": NAME of the directory W visits.  */
void remove_report_name (struct walk *w, const char *name, int err);

/* The state of the directory at DEPTH (zeroed the first time).  */
struct remove_dir *removal_dir (struct removal *r, size_t depth);

/* The user chose to keep E: count it in its directory, and return what
   the visit returns for it.  */
int removal_keep (struct removal *r, const struct walk_entry *e);

#endif
