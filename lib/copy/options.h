/* copy/options.h -- what a copy of files is asked to do: xcp's options,
   parsed once in main and passed down, read-only, to every function of
   the copy (coreutils' struct cp_options).  What the words of the
   options mean, and the rules between options, are here too
   (copy_parse_*, copy_options_settle): the tool keeps its table.

   The struct holds choices only, no state: a copy in progress keeps its
   own (the refusal cache, the progress counters, the hard-link map).
   Fields are zero for the defaults, except the process's identity, which
   copy_options_init fills in.  */

#ifndef NC_COPY_OPTIONS_H
#define NC_COPY_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "copy/backup.h"
#include "copy/data.h"

/* What to do about an existing destination: -n, -i, the last of them
   (-f is another matter: see force).  */
enum copy_clobber
{
  COPY_CLOBBER_YES,             /* replace it (the default) */
  COPY_CLOBBER_NO,              /* leave it: -n, which makes update NONE */
  COPY_CLOBBER_ASK,             /* ask on standard error */
};

/* --update=WHEN, -u: which existing destinations are replaced, before
   -i asks (cp's order).  A directory is never left for it.  */
enum copy_update
{
  COPY_UPDATE_ALL,              /* each one (the default) */
  COPY_UPDATE_NONE,             /* none, silently (-n too) */
  COPY_UPDATE_NONE_FAIL,        /* none, each one a failure */
  COPY_UPDATE_OLDER,            /* those older than the source (-u) */
};

/* Which symbolic links among the sources are followed: -P, -H, -L.  */
enum copy_deref
{
  COPY_DEREF_DEFAULT,           /* the operands without -r, as cp */
  COPY_DEREF_NEVER,             /* -P: none, links are copied as links */
  COPY_DEREF_ARGS,              /* -H: the operands */
  COPY_DEREF_ALWAYS,            /* -L: every one */
};

/* --preserve's attributes of the source that a copy keeps.  */
struct copy_preserve
{
  bool mode;                    /* permissions, set-ID bits, POSIX ACLs */
  bool owner;
  bool times;                   /* access and modification times */
  bool links;                   /* hard links inside a tree stay links */
  bool xattr;                   /* extended attributes (ACLs with mode) */
  /* How an attribute the copy cannot be given is told, as by cp: with
     xattr named (--preserve=xattr), always, and it fails the copy; after
     -a (quiet), never; else (--preserve=all) but where the file system
     has no extended attributes at all, the exit status unchanged.  */
  bool xattr_required;
  bool xattr_quiet;
};

/* What a copy of a file that is not a directory is: -l, -s.  */
enum copy_link
{
  COPY_LINK_NONE,               /* a copy of the data (the default) */
  COPY_LINK_HARD,               /* -l: a hard link to the source */
  COPY_LINK_SYMBOLIC,           /* -s: a symbolic link to it, by its name */
};

struct copy_options
{
  /* The data.  */
  enum copy_engine engine;      /* --engine; COPY_ENGINE_NONE: choose */
  enum copy_when reflink;
  enum copy_when sparse;
  enum copy_link link;          /* -l, -s: no data is copied */

  /* The destination.  */
  enum copy_clobber clobber;
  /* -f: a destination that cannot be opened for writing is replaced by
     a new file, as cp removes it and tries again.  */
  bool force;
  enum copy_update update;
  bool inplace;                 /* --inplace: write over a regular file */
  bool fsync;                   /* --fsync: each file and its directory */
  /* --attributes-only: no data; a new file is empty, an existing one
     keeps its own and is given the attributes kept.  */
  bool attributes_only;
  struct copy_preserve preserve;
  /* --no-preserve=mode: new copies get 0666 (directories and sockets
     0777) less the umask rather than the source's permissions.  */
  bool default_mode;
  /* Several sources into one directory: remember what this run made, so
     that a later source of the same name does not replace it.  */
  bool record_made;
  /* --backup, -S: what is replaced is kept under a backup name
     (copy/backup.h); never a directory.  */
  enum backup_type backup;
  char *backup_suffix;          /* -S; NULL: the environment's or "~" */
  /* --remove-destination: an existing non-directory is replaced by a
     new file, never written into or through, as cp removes it first.  */
  bool remove_dest;

  /* The workers of a tree copy (-j): 1, none.  */
  unsigned int jobs;

  /* The operands.  */
  bool recursive;               /* -r: directories and what is below */
  enum copy_deref deref;
  /* -x: a directory on another device than its SRC is copied empty.  */
  bool one_fs;
  char *target_dir;             /* -t DIR: every source into DIR */
  bool no_target_dir;           /* -T: the destination is the copy's name */
  bool parents;                 /* --parents: SRC copied to DIR/SRC */
  /* --keep-directory-symlink: a symbolic link to a directory where a
     tree's copy has a directory is followed.  */
  bool keep_dir_symlink;
  /* --strip-trailing-slashes: each SRC copied into a directory is named
     without the slashes at its end (cp strips them there only).  */
  bool strip_slashes;
  /* --copy-contents: with -r, a FIFO, socket or device is read and its
     data copied into a regular file, as one given without -r is.  */
  bool copy_contents;

  /* Telling.  */
  bool verbose;                 /* -v: "'SRC' -> 'DST'" on standard output */
  bool debug;                   /* --debug: engines and choices on stderr */
  /* The progress line: 1 drawn (then files are copied in pieces, for
     it to move), 0 not; -1 while the options are parsed: only if
     standard error is a terminal.  */
  int progress;
  /* The tool's own telling, called from the copy; NULL: nothing.
     COPIED: SRC was copied to DST (-v's line), what was there kept as
     BACKUP (NULL: nothing was), or REMOVED (replaced where cp removes
     it first, and says so); FILE if it counts as one more file (the
     progress line's count: directories do not).
     BYTES_DONE (with BYTES_ARG): as data moves, while the progress line
     is drawn.  */
  void (*copied) (const struct copy_options *x, const char *src,
                  const char *dst, const char *backup, bool removed,
                  bool file);
  void (*bytes_done) (void *arg, uint64_t bytes);
  void *bytes_arg;
  /* For the progress line's total and --json (copy/telling.h); NULL:
     nothing is counted.  LISTED: a walk met NAME in DIRFD, no directory,
     before copying it (ST its status where the walk has one; REGULAR: a
     regular file).  WALKED: a walk met all of its tree.  DIR_MADE: a
     directory was made.  DATA_COPIED: ENGINE copied a file's data, SIZE
     bytes of copy (holes and clones count) of which MOVED were moved and
     told to BYTES_DONE.  */
  void (*listed) (int dirfd, const char *name, const struct stat *st,
                  bool regular);
  void (*walked) (void);
  void (*dir_made) (void);
  void (*data_copied) (enum copy_engine engine, uint64_t size,
                       uint64_t moved);
  /* --json: the lines -v and --debug print on standard output go to
     standard error, which leaves standard output to the object.  */
  bool json;

  /* The process, read once: what new files get and who may do what.  */
  mode_t umask_bits;
  uid_t euid;
  gid_t egid;
  bool is_root;
};

/* Tell X's tool that SRC was copied to DST (see copied above).  */
static inline void
copy_tell_copied (const struct copy_options *x, const char *src,
                  const char *dst, bool file)
{
  if (x->copied)
    x->copied (x, src, dst, NULL, false, file);
}

/* The same, what was at DST kept as BACKUP (NULL: nothing was), or
   REMOVED.  */
static inline void
copy_tell_replaced (const struct copy_options *x, const char *src,
                    const char *dst, const char *backup, bool removed,
                    bool file)
{
  if (x->copied)
    x->copied (x, src, dst, backup, removed, file);
}

/* The same, what was at DST kept as BACKUP (NULL: nothing was).  */
static inline void
copy_tell_backed_up (const struct copy_options *x, const char *src,
                     const char *dst, const char *backup, bool file)
{
  copy_tell_replaced (x, src, dst, backup, false, file);
}

/* Where X prints the lines of -v and --debug that cp prints on
   standard output.  */
static inline FILE *
copy_tell_stream (const struct copy_options *x)
{
  return x->json ? stderr : stdout;
}

/* Tell X's tool of what the copy met and did (see listed above).  */
static inline void
copy_tell_listed (const struct copy_options *x, int dirfd, const char *name,
                  const struct stat *st, bool regular)
{
  if (x->listed)
    x->listed (dirfd, name, st, regular);
}

static inline void
copy_tell_walked (const struct copy_options *x)
{
  if (x->walked)
    x->walked ();
}

static inline void
copy_tell_dir_made (const struct copy_options *x)
{
  if (x->dir_made)
    x->dir_made ();
}

static inline void
copy_tell_data (const struct copy_options *x, enum copy_engine engine,
                uint64_t size, uint64_t moved)
{
  if (x->data_copied)
    x->data_copied (engine, size, moved);
}

/* Whether X follows a symbolic link given as an operand.  */
static inline bool
copy_follows_operand (const struct copy_options *x)
{
  return x->deref == COPY_DEREF_ARGS || x->deref == COPY_DEREF_ALWAYS
         || (x->deref == COPY_DEREF_DEFAULT && !x->recursive);
}

/* Whether X leaves every existing destination but directories
   (--update=none, none-fail, -n): -i then never asks.  */
static inline bool
copy_leaves_existing (const struct copy_options *x)
{
  return x->update == COPY_UPDATE_NONE || x->update == COPY_UPDATE_NONE_FAIL;
}

/* Fill X's process fields: the umask (read without changing it for
   good), the effective user and group.  */
void copy_options_init (struct copy_options *x);

/* xcp's option words, as cp takes them: an argument that is none of
   them, or abbreviates several, is a usage error (cli_keyword).  */

/* --reflink=WHEN, --sparse=WHEN (the option's name, OPTION, in
   messages): auto, always, never, in the order of enum copy_when.  */
enum copy_when copy_parse_when (const char *option, const char *arg);

/* --update=WHEN: all, none, none-fail, older.  */
enum copy_update copy_parse_update (const char *arg);

/* --engine=ENGINE: clone, copy_file_range, sendfile, splice, rw.  */
enum copy_engine copy_parse_engine (const char *arg);

/* Set the attributes of the list ARG in X to ON, under the name OPTION:
   for --preserve, NULL or empty is the default list
   (mode,ownership,timestamps); --no-preserve also takes context, which a
   kernel without SELinux has none of, to leave it out.  The words in
   cp's order; each list adds to, or takes from, what the options before
   it said, and the last word about the mode wins.  */
void copy_parse_preserve (const char *option, const char *arg, bool on,
                          struct copy_options *x);

/* The backup type CONTROL names (WHAT in messages: "backup type",
   "$VERSION_CONTROL").  */
enum backup_type copy_parse_backup (const char *what, const char *control);

/* -b, a bare --backup or -S, without --backup=CONTROL: the backups
   $VERSION_CONTROL says, else existing, as cp.  */
enum backup_type copy_default_backup (void);

/* -l or -s (LINK), never both, as cp: a usage error.  */
void copy_set_link (struct copy_options *x, enum copy_link link);

/* Once every option is in X: the rules between them, as cp's.  -n
   leaves every file whatever --update says; -r -l without -P, -H or -L
   follows a tree's symbolic links; BACKUP (-b, -S or --backup given)
   without CONTROL (a --backup=CONTROL) takes copy_default_backup's.  A
   usage error where two contradict: --backup with -n or
   --update=none-fail, --engine=clone with --reflink=never,
   --reflink=always with --sparse=never.  */
void copy_options_settle (struct copy_options *x, bool backup,
                          bool control);

#endif
