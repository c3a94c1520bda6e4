/* xcp -- copy files with the cheapest call the file systems allow
   (FICLONE, copy_file_range, splice), keeping holes, into an unnamed
   temporary file that is linked into place only once complete.

   SYNOPSIS: xcp [OPTION]... SRC DST
             xcp [OPTION]... SRC... DIR
             xcp [OPTION]... -t DIR SRC...  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/common.h"
#include "cli/progress.h"
#include "cli/shortpath.h"
#include "copy/attrs.h"
#include "copy/data.h"
#include "copy/dest.h"
#include "copy/file.h"
#include "copy/inodes.h"
#include "copy/install.h"
#include "copy/jobs.h"
#include "copy/msg.h"
#include "copy/options.h"
#include "copy/tree.h"
#include "dirname.h"
#include "error.h"
#include "human.h"
#include "progname.h"
#include "same-inode.h"
#include "sys/calls.h"
#include "sys/fdroom.h"
#include "walk/walker.h"
#include "xalloc.h"
#include "yesno.h"

enum { OPT_ENGINE = 1, OPT_REFLINK, OPT_SPARSE, OPT_PRESERVE, OPT_FORCE,
       OPT_NO_CLOBBER, OPT_INTERACTIVE, OPT_PRESERVE_DEFAULT, OPT_DEBUG,
       OPT_FSYNC, OPT_INPLACE, OPT_UPDATE,
       OPT_VERBOSE, OPT_RECURSIVE, OPT_ARCHIVE, OPT_TARGET_DIR,
       OPT_NO_TARGET_DIR, OPT_JOBS, OPT_NO_PRESERVE,
       OPT_STRIP_SLASHES, OPT_ONE_FS,
       OPT_NO_DEREF, OPT_DEREF_ARGS, OPT_DEREF, OPT_NO_DEREF_LINKS,
       OPT_PARENTS, OPT_ATTRIBUTES_ONLY, OPT_KEEP_DIR_SYMLINK,
       OPT_LINK, OPT_SYMBOLIC_LINK,
       OPT_BACKUP, OPT_BACKUP_SHORT, OPT_SUFFIX, OPT_COPY_CONTENTS,
       OPT_UPDATE_OLDER, OPT_REMOVE_DEST };

static struct poptOption tool_options[] = {
  { "engine", '\0', POPT_ARG_STRING, NULL, OPT_ENGINE,
    "move file data with this call only: clone, copy_file_range, "
    "sendfile, splice or rw (default: the first that works of clone, "
    "copy_file_range, splice, rw)", "ENGINE" },
  { "reflink", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL,
    OPT_REFLINK,
    "share the source's blocks (FICLONE): auto (if the file system can), "
    "always (fail if it cannot; a bare --reflink), never (not even through "
    "copy_file_range, which may share them too)", "WHEN" },
  { "sparse", '\0', POPT_ARG_STRING, NULL, OPT_SPARSE,
    "keep holes: auto (if the source has some), always (look for them in "
    "every file), never (write them out as zeros)", "WHEN" },
  { "debug", '\0', POPT_ARG_NONE, NULL, OPT_DEBUG,
    "tell on standard error, per file, the engine, the holes and the "
    "byte count", NULL },
  { "fsync", '\0', POPT_ARG_NONE, NULL, OPT_FSYNC,
    "flush each file, and its directory, to the disk before going on",
    NULL },
  { "no-clobber", 'n', POPT_ARG_NONE, NULL, OPT_NO_CLOBBER,
    "never replace an existing file, silently (as --update=none; cancels "
    "an earlier -i)", NULL },
  { "interactive", 'i', POPT_ARG_NONE, NULL, OPT_INTERACTIVE,
    "ask before replacing an existing file; one not replaced is a "
    "failure (cancels an earlier -n)", NULL },
  { "force", 'f', POPT_ARG_NONE, NULL, OPT_FORCE,
    "replace by a new file an existing one that cannot be opened for "
    "writing (as cp removes it and tries again); -i still asks", NULL },
  { "inplace", '\0', POPT_ARG_NONE, NULL, OPT_INPLACE,
    "write over an existing regular file in place, as cp does, instead "
    "of replacing it whole (it is then half-written while the copy runs)",
    NULL },
  { "update", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL,
    OPT_UPDATE,
    "which existing files are replaced, before -i asks: all (the "
    "default), none (silently), none-fail (none, each one reported, exit "
    "status 1), older (those older than the source; --update alone)",
    "WHEN" },
  { NULL, 'u', POPT_ARG_NONE, NULL, OPT_UPDATE_OLDER,
    "same as --update=older", NULL },
  { "verbose", 'v', POPT_ARG_NONE, NULL, OPT_VERBOSE,
    "print 'SRC' -> 'DST' for each file copied", NULL },
  { "recursive", 'r', POPT_ARG_NONE, NULL, OPT_RECURSIVE,
    "copy directories and everything below them; symbolic links are "
    "copied as links", NULL },
  { NULL, 'R', POPT_ARG_NONE, NULL, OPT_RECURSIVE, "same as -r", NULL },
  { "no-dereference", 'P', POPT_ARG_NONE, NULL, OPT_NO_DEREF,
    "copy symbolic links as links, operands too (the default with -r)",
    NULL },
  { NULL, 'H', POPT_ARG_NONE, NULL, OPT_DEREF_ARGS,
    "follow the symbolic links given as operands, not those in a tree",
    NULL },
  { "dereference", 'L', POPT_ARG_NONE, NULL, OPT_DEREF,
    "follow symbolic links, operands (the default without -r) and those "
    "in a tree: a link to a directory is copied as that directory, unless "
    "it leads to one it is in (a cycle, reported)", NULL },
  { NULL, 'd', POPT_ARG_NONE, NULL, OPT_NO_DEREF_LINKS,
    "same as -P --preserve=links", NULL },
  { "archive", 'a', POPT_ARG_NONE, NULL, OPT_ARCHIVE,
    "same as -r -P --preserve=all", NULL },
  { NULL, 'p', POPT_ARG_NONE, NULL, OPT_PRESERVE_DEFAULT,
    "same as --preserve=mode,ownership,timestamps", NULL },
  { "preserve", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL,
    OPT_PRESERVE,
    "keep these attributes: mode, ownership, timestamps, links, xattr, "
    "all (default: mode,ownership,timestamps)", "LIST" },
  { "no-preserve", '\0', POPT_ARG_STRING, NULL, OPT_NO_PRESERVE,
    "do not keep these attributes: mode, ownership, timestamps, links, "
    "xattr, context (none without SELinux), all; after --preserve or "
    "--archive, which it undoes as the options come; without mode, new "
    "copies get 0666 or 0777 less the umask", "LIST" },
  { "jobs", 'j', POPT_ARG_STRING, NULL, OPT_JOBS,
    "copy the files of directories with N threads (default: one per "
    "CPU it may run on; 1: one file at a time, no thread)", "N" },
  { "target-directory", 't', POPT_ARG_STRING, NULL, OPT_TARGET_DIR,
    "copy every SRC into DIR", "DIR" },
  { "no-target-directory", 'T', POPT_ARG_NONE, NULL, OPT_NO_TARGET_DIR,
    "treat DST as the name of the copy, even if it is a directory", NULL },
  { "one-file-system", 'x', POPT_ARG_NONE, NULL, OPT_ONE_FS,
    "with -r, copy a directory on another file system than its SRC's "
    "empty, as a mount point", NULL },
  { "attributes-only", '\0', POPT_ARG_NONE, NULL, OPT_ATTRIBUTES_ONLY,
    "copy no data: a new file is made empty, an existing one keeps its "
    "data; the attributes as --preserve says", NULL },
  { "keep-directory-symlink", '\0', POPT_ARG_NONE, NULL,
    OPT_KEEP_DIR_SYMLINK,
    "with -r, copy into the directory a symbolic link at the destination "
    "names, where the source has a directory, leaving the link and the "
    "directory's attributes as they are", NULL },
  { "parents", '\0', POPT_ARG_NONE, NULL, OPT_PARENTS,
    "copy each SRC to DIR/SRC, making the directories of its path there "
    "as SRC's are", NULL },
  { "strip-trailing-slashes", '\0', POPT_ARG_NONE, NULL, OPT_STRIP_SLASHES,
    "copy each SRC into DIR by its name without the slashes at its end: "
    "a symbolic link to a directory is then copied as a link", NULL },
  { "link", 'l', POPT_ARG_NONE, NULL, OPT_LINK,
    "hard-link files instead of copying them (directories are made); "
    "symbolic links are followed unless -P, -d or -a says not to", NULL },
  { "symbolic-link", 's', POPT_ARG_NONE, NULL, OPT_SYMBOLIC_LINK,
    "make symbolic links to the sources instead of copying them: a SRC "
    "not starting with / only into the current directory", NULL },
  { "backup", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL,
    OPT_BACKUP,
    "keep each file replaced under a backup name, made as a hard link "
    "before the copy takes its place; CONTROL: none or off (never kept), "
    "numbered or t (NAME.~N~), existing or nil (numbered where NAME has "
    "numbered backups, else simple), simple or never (NAME~); a bare "
    "--backup or -b: as $VERSION_CONTROL says, else existing",
    "CONTROL" },
  { NULL, 'b', POPT_ARG_NONE, NULL, OPT_BACKUP_SHORT,
    "like --backup, taking no argument", NULL },
  { "suffix", 'S', POPT_ARG_STRING, NULL, OPT_SUFFIX,
    "end simple backup names with SUFFIX (default: $SIMPLE_BACKUP_SUFFIX, "
    "else ~); implies --backup", "SUFFIX" },
  { "copy-contents", '\0', POPT_ARG_NONE, NULL, OPT_COPY_CONTENTS,
    "with -r, read FIFOs and devices as files, copying their data into "
    "regular files (reading a FIFO waits for a writer)", NULL },
  { "remove-destination", '\0', POPT_ARG_NONE, NULL, OPT_REMOVE_DEST,
    "replace each existing destination but a directory by a new file, as "
    "cp removes it first: never written through a symbolic link or into a "
    "FIFO or device, keeping nothing of it (the name is never missing)",
    NULL },
  CLI_PROGRESS_OPTIONS,
  POPT_TABLEEND
};

static struct poptOption options[] = {
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, tool_options, 0,
    "Copy SRC to DST, or each SRC into DIR.  File data moves by reflink, "
    "copy_file_range or splice where the file systems allow; holes are "
    "kept.  Each copy is written to an unnamed temporary file in the "
    "destination directory and linked or renamed into place only when "
    "complete: an existing DST holds its old content or the new one, "
    "never a part, and keeps its owner, mode and ACL unless -a or "
    "--preserve asks for the source's.  A DST that is a symbolic link is "
    "written through; a device, FIFO or socket is written into (both are "
    "replaced by --remove-destination).  Where a "
    "replacement could not keep what DST is (other hard links, an owner "
    "this user cannot give, a directory this user cannot write), DST is "
    "written in place, as cp does; where cp removes it first (other hard "
    "links with --preserve=links, one -f cannot open), a new file "
    "replaces it.  The progress line shows bytes, files, "
    "rate and time left.\n\n"
    CLI_EXIT_STATUS_USUAL "\n\nOptions:", NULL },
  CLI_COMMON_OPTIONS
};

/* --preserve without a list.  */
#define PRESERVE_DEFAULT "mode,ownership,timestamps"


/* --- progress ------------------------------------------------------ */

static uintmax_t n_bytes, n_files, total_bytes;
static struct progress bar;

static const char *
human (uintmax_t n, char *buf)
{
  return human_readable (n, buf, human_autoscale | human_SI | human_base_1024
                         | human_suppress_point_zero | human_B, 1, 1);
}

static void
progress_line (bool last)
{
  double secs = progress_seconds (&bar);
  char b1[LONGEST_HUMAN_READABLE + 1], b2[LONGEST_HUMAN_READABLE + 1];
  uintmax_t rate = secs > 0 ? (uintmax_t) ((double) n_bytes / secs) : 0;
  char eta[32] = "";
  if (!last && rate > 0 && total_bytes > n_bytes)
    snprintf (eta, sizeof eta, ", ETA %.0f s",
              (double) (total_bytes - n_bytes) / (double) rate);
  progress_draw (&bar, last, "%s, %" PRIuMAX " file%s, %s/s%s",
                 human (n_bytes, b1), n_files, n_files == 1 ? "" : "s",
                 human (rate, b2), eta);
}

/* Count N bytes (and a file if FILE); draw the line when it is due.  */
static void
progress_count (uintmax_t n, bool file)
{
  n_bytes += n;
  n_files += file;
  if (progress_due (&bar))
    progress_line (false);
}

/* The same, if X draws the line at all.  */
static void
progress_add (const struct copy_options *x, uintmax_t n, bool file)
{
  if (x->progress)
    progress_count (n, file);
}

/* --- messages ------------------------------------------------------ */

/* Whole, for -v's listing on standard output, which is data.  */
#define quote_file2(name) quote_file_n (1, name)

/* x->copied: "'SRC' -> 'DST'" for -v, then " (backup: 'BACKUP')",
   after cp's "removed 'DST'" where cp removes it first; a file for the
   progress line.  */
static void
say_copied (const struct copy_options *x, const char *src, const char *dst,
            const char *backup, bool removed, bool file)
{
  if (x->verbose)
    {
      progress_clear (&bar);
      if (removed)
        printf ("removed %s\n", quote_file2 (dst));
      printf ("%s -> %s", quote_file (src), quote_file2 (dst));
      if (backup)
        printf (" (backup: %s)", quote_file (backup));
      putchar ('\n');
    }
  if (file)
    progress_add (x, 0, true);
}

/* --- file data ----------------------------------------------------- */

/* copy_file_data's count of the bytes moved, while the progress line is
   drawn.  */
static void
count_bytes (void *arg, uint64_t n)
{
  (void) arg;
  /* From the workers too.  */
  copy_msg_lock ();
  progress_count (n, false);
  copy_msg_unlock ();
}

/* The last component of PATH, trailing slashes left out, in a new
   string.  */
static char *
base_name_of (const char *path)
{
  const char *base = last_component (path);
  return ximemdup0 (base, base_len (base));
}

/* Whether the directory SRC_ST is DIRFD or one of its ancestors: a copy
   of it into DIRFD would never end.  */
static bool
inside (const struct stat *src_st, int dirfd)
{
  struct stat st, prev = { 0 };
  int fd = sys_openat (dirfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
  bool found = false;
  for (int depth = 0; fd >= 0 && depth < 4096; depth++)
    {
      if (sys_fstat (fd, &st) < 0)
        break;
      if (SAME_INODE (st, *src_st))
        {
          found = true;
          break;
        }
      if (depth > 0 && SAME_INODE (st, prev))
        break;                  /* "/" is its own parent */
      prev = st;
      int up = sys_openat (fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
      sys_close (fd);
      fd = up;
    }
  if (fd >= 0)
    sys_close (fd);
  return found;
}

/* Copy operand SRC to D, whose directory's stat is DIR_ST.  */
static void
copy_operand_to (const struct copy_options *x, const char *src,
                 const struct stat *dir_st, const struct dest *d)
{
  bool follow = copy_follows_operand (x);
  if (!x->recursive && follow)
    {
      copy_file (x, AT_FDCWD, src, src, 0, false, d);
      return;
    }

  struct stat st;
  int ret = sys_fstatat (AT_FDCWD, src, &st, AT_SYMLINK_NOFOLLOW);
  if (ret < 0)
    {
      copy_fail (-ret, "cannot stat %s", src);
      return;
    }
  /* -P without -r: a link is copied as a link, anything else as
     without it.  */
  if (!x->recursive && !S_ISLNK (st.st_mode))
    {
      copy_file (x, AT_FDCWD, src, src, 0, false, d);
      return;
    }
  /* -H, -L: the walk follows SRC (copy_follows_operand), a link to a
     directory entered as that directory, one to anything else copied as
     what it names: a regular file's data, a FIFO made a FIFO unless
     --copy-contents reads it.  */
  if (x->recursive && follow && S_ISLNK (st.st_mode))
    {
      ret = sys_fstatat (AT_FDCWD, src, &st, 0);
      if (ret < 0)
        {
          copy_fail (-ret, "cannot stat %s", src);
          return;
        }
    }
  if (S_ISDIR (st.st_mode) && inside (&st, d->dirfd))
    {
      copy_fail2 (0, "cannot copy a directory, %s, into itself, %s", src,
                  d->display);
      return;
    }
  /* The descriptors left under RLIMIT_NOFILE, shared between the
     workers, the walker's stack of source directories and ours of the
     copies.  -i asks one question at a time: no workers.  Nor with -u
     and hard links: the first name of a file in the walk's order must
     be the one whose up-to-date copy the others become links to, and
     workers would race for it.  */
  bool serial = (x->clobber == COPY_CLOBBER_ASK && !copy_leaves_existing (x))
                || (x->update == COPY_UPDATE_OLDER && x->preserve.links);
  struct copy_tree_limits limits = { .jobs = serial ? 1 : x->jobs };
  size_t room = copy_tree_fds (&limits.jobs, &limits.walk_fds,
                               &limits.dst_fds, &limits.dirs);
  if (x->debug)
    {
      progress_clear (&bar);
      fprintf (stderr, "%s: %s: %zu descriptors free: %zu for the source "
               "directories, %zu for the copies\n", program_name,
               quote_msg (src), room, limits.walk_fds, limits.dst_fds);
      fprintf (stderr, "%s: %s: %u jobs\n", program_name, quote_msg (src),
               limits.jobs);
    }
  copy_tree (x, src, src, d->dirfd, dir_st, d->inherits_acl, d->name,
             d->display, &limits);
}

/* Copy operand SRC to NAME in DIRFD, displayed as DST.  */
static void
copy_operand (const struct copy_options *x, const char *src, int dirfd,
              const char *name, const char *dst)
{
  struct stat dir_st;
  int ret = sys_fstat (dirfd, &dir_st);
  if (ret < 0)
    {
      copy_fail (-ret, "cannot create %s", dst);
      return;
    }
  bool parent_acl = dir_has_default_acl (dirfd);
  /* Without -r, --preserve=links: the operands that are names of one
     file become links to its first copy, as in a tree.  */
  int link_base;
  char *link_path = copy_link_place (dirfd, name, &link_base);
  struct dest d = { .dirfd = dirfd, .dev = dir_st.st_dev, .name = name,
                    .display = dst, .inherits_acl = parent_acl,
                    .group_of_dir = dir_st.st_mode & S_ISGID,
                    .made_here = copy_made_here, .link_base = link_base,
                    .link_path = x->preserve.links ? link_path : NULL };
  copy_operand_to (x, src, &dir_st, &d);
  free (link_path);
}

/* Open directory DIR for copies into it.  */
static int
open_target_dir (const char *dir)
{
  int fd = sys_openat (AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0)
    error (EXIT_FAILURE, -fd, "target directory %s", quote_msg (dir));
  return fd;
}

/* With --strip-trailing-slashes, *SRC without the slashes at its end:
   the new string to free, which *SRC then is; else NULL.  */
static char *
strip_slashes (const struct copy_options *x, const char **src)
{
  if (!x->strip_slashes)
    return NULL;
  size_t len = strlen (*src);
  while (len > 1 && (*src)[len - 1] == '/')
    len--;
  char *stripped = ximemdup0 (*src, len);
  *src = stripped;
  return stripped;
}

/* Copy SRC into directory DIRFD, DIR in messages.  */
static void
copy_into (const struct copy_options *x, const char *src, int dirfd,
           const char *dir)
{
  char *stripped = strip_slashes (x, &src);
  char *base = base_name_of (src);
  size_t dlen = strlen (dir);
  char *dst = xmalloc (dlen + strlen (base) + 2);
  sprintf (dst, "%s%s%s", dir, dlen && dir[dlen - 1] == '/' ? "" : "/",
           base);
  copy_operand (x, src, dirfd, base, dst);
  free (dst);
  free (base);
  free (stripped);
}

/* An operand of several copied into a directory, for cp's warning about
   one given twice: the file it names and its name, the last component
   in a directory.  */
struct operand_id
{
  struct stat st, dir;
  char *base;
  size_t i;                     /* its place among the operands */
};

/* By file, then place.  */
static int
compare_ids (const void *a, const void *b)
{
  const struct operand_id *p = a, *q = b;
  if (p->st.st_dev != q->st.st_dev)
    return p->st.st_dev < q->st.st_dev ? -1 : 1;
  if (p->st.st_ino != q->st.st_ino)
    return p->st.st_ino < q->st.st_ino ? -1 : 1;
  return p->i < q->i ? -1 : p->i > q->i;
}

/* The status of operand SRC, as X looks at it.  */
static int
stat_operand (const struct copy_options *x, const char *src,
              struct stat *st)
{
  return sys_fstatat (AT_FDCWD, src, st, copy_follows_operand (x)
                                         ? 0 : AT_SYMLINK_NOFOLLOW);
}

/* Which of the N operands ARGS name the file an earlier one named, by
   the same last component, as cp tells them: a new array of N, true for
   those to be warned of and left.  A directory is copied to the same
   name again whatever the path to it; a file only if the name is the
   same entry (same directory), and not where backups are made (each
   copy makes one).  A directory without -r is refused each time, as by
   cp.  */
static bool *
given_twice (const struct copy_options *x, const char **args, size_t n)
{
  bool *twice = xcalloc (n, sizeof *twice);
  struct operand_id *ids = xnmalloc (n, sizeof *ids);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    {
      struct operand_id *id = &ids[m];
      char *dir = mdir_name (args[i]);
      if (dir && stat_operand (x, args[i], &id->st) == 0
          && (x->recursive || !S_ISDIR (id->st.st_mode))
          && sys_fstatat (AT_FDCWD, dir, &id->dir, 0) == 0)
        {
          id->base = base_name_of (args[i]);
          id->i = i;
          m++;
        }
      free (dir);
    }
  qsort (ids, m, sizeof *ids, compare_ids);
  /* Within each file's run, by place: a name met before in it.  */
  for (size_t k = 0; k < m; k++)
    for (size_t j = k; j-- > 0 && SAME_INODE (ids[j].st, ids[k].st); )
      if (strcmp (ids[j].base, ids[k].base) == 0
          && (S_ISDIR (ids[k].st.st_mode)
              || (SAME_INODE (ids[j].dir, ids[k].dir)
                  && x->backup == BACKUP_NONE)))
        {
          twice[ids[k].i] = true;
          break;
        }
  for (size_t k = 0; k < m; k++)
    free (ids[k].base);
  free (ids);
  return twice;
}

/* Warn, as cp, of operand SRC given twice.  */
static void
warn_twice (const struct copy_options *x, const char *src)
{
  struct stat st;
  bool dir = stat_operand (x, src, &st) == 0 && S_ISDIR (st.st_mode);
  error (0, 0, "warning: source %s %s specified more than once",
         dir ? "directory" : "file", quote_msg (src));
}

/* --- --parents ---------------------------------------------------- */

/* A directory --parents made (or found, with -p), its attributes to
   come once the copy below it is done (they may take away our write
   permission).  */
struct made_parent
{
  int parent;                   /* the directory it is in */
  char *name;
  char *dst;
  struct stat src_st;           /* of the source's directory */
  mode_t made_mode;
  mode_t inherited;             /* set-group-ID from its parent */
};

/* Make, under DIRFD, the directory NAME (DST in messages), the copy of
   the directory SRC of the source's path, unless it is there.  *MADE
   gets it, for its attributes, if it was made, or if it was there and -p
   or -a keeps attributes, unless ALL_THERE (the whole path was there);
   *IS_MADE says whether it did.  Return the directory's descriptor, or -1
   after a reported failure.  */
static int
make_parent (const struct copy_options *x, int dirfd, const char *name,
             const char *src, const char *dst, bool all_there,
             struct made_parent *made, bool *is_made)
{
  struct stat st;
  *is_made = false;
  int ret = sys_fstatat (AT_FDCWD, src, &st, 0);
  /* A file where the path has a directory: nothing is made for it.  */
  if (ret == 0 && !S_ISDIR (st.st_mode))
    ret = -ENOTDIR;
  if (ret < 0)
    {
      copy_fail (-ret, "failed to get attributes of %s", src);
      return -1;
    }
  /* Writable and searchable by us while the copy goes in.  */
  mode_t mode = dir_made_mode (x, st.st_mode);
  ret = sys_mkdirat (dirfd, name, mode);
  if (ret < 0 && ret != -EEXIST)
    {
      copy_fail (-ret, "cannot make directory %s", dst);
      return -1;
    }
  int fd = sys_openat (dirfd, name, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      copy_fail (-fd, "cannot open directory %s", dst);
      return -1;
    }
  /* One there already gets what -p or -a keeps too, as from cp, unless
     the whole path was there.  */
  const struct copy_preserve *keep = &x->preserve;
  if (ret == 0
      || (!all_there && (keep->mode || keep->owner || keep->times)))
    {
      struct stat now;
      *is_made = true;
      *made = (struct made_parent) {
        .parent = sys_fcntl (dirfd, F_DUPFD_CLOEXEC, 0),
        .name = xstrdup (name), .dst = xstrdup (dst), .src_st = st,
        .made_mode = ret == 0 ? mode & ~x->umask_bits : (mode_t) -1,
        .inherited = sys_fstat (fd, &now) == 0 ? now.st_mode & S_ISGID : 0,
      };
    }
  if (ret == 0)
    {
      if (x->verbose)
        {
          /* Unquoted, as cp says these.  */
          progress_clear (&bar);
          printf ("%s -> %s\n", src, dst);
        }
    }
  return fd;
}

/* Give the directories MADE[0..N-1] their attributes, the deepest
   first, and forget them.  */
static void
finish_parents (const struct copy_options *x, struct made_parent *made,
                size_t n)
{
  while (n-- > 0)
    {
      struct made_parent *m = &made[n];
      if (m->parent >= 0)
        {
          set_entry_attrs (x, m->parent, m->name, &m->src_st, m->dst,
                           m->made_mode, m->inherited);
          sys_close (m->parent);
        }
      free (m->name);
      free (m->dst);
    }
}

/* --parents: copy SRC to DIR/SRC, DIRFD open on DIR, making the
   directories of SRC's path under DIR as cp does: each from the
   source's directory of that path, its mode less the umask, or its
   attributes with -p or -a.  */
static void
copy_parents (const struct copy_options *x, const char *src, int dirfd,
              const char *dir)
{
  char *stripped = strip_slashes (x, &src);
  size_t dlen = strlen (dir);
  char *dst = xmalloc (dlen + strlen (src) + 2);
  sprintf (dst, "%s%s%s", dir,
           (dlen && dir[dlen - 1] == '/') || src[0] == '/' ? "" : "/", src);
  size_t dst_off = strlen (dst) - strlen (src);
  char *base = base_name_of (src);
  /* The path up to its last component, each directory of it in turn.  */
  size_t end = last_component (src) - src;
  char *path = xstrdup (src);
  struct made_parent *made = xnmalloc (end / 2 + 1, sizeof *made);
  size_t n = 0;
  int cur = sys_fcntl (dirfd, F_DUPFD_CLOEXEC, 0);
  size_t i = strspn (src, "/");
  struct stat st;
  char *whole = ximemdup0 (src + i, end > i ? end - i : 0);
  bool all_there = !*whole || (sys_fstatat (dirfd, whole, &st, 0) == 0
                               && S_ISDIR (st.st_mode));
  /* The copies of hard links are found relative to DIR, where those of
     every operand are: SRC's is at WHOLE, then its name.  */
  copy_links_base (dirfd, whole);
  free (whole);
  while (cur >= 0 && i < end)
    {
      while (i < end && src[i] == '/')
        i++;
      size_t j = i;
      while (j < end && src[j] != '/')
        j++;
      if (j == i)
        break;
      path[j] = '\0';
      char *name = ximemdup0 (src + i, j - i);
      char *dpath = ximemdup0 (dst, dst_off + j);
      bool is_made;
      int fd = make_parent (x, cur, name, path, dpath, all_there, &made[n],
                            &is_made);
      n += is_made;
      free (name);
      free (dpath);
      path[j] = src[j];
      sys_close (cur);
      cur = fd;
      i = j;
    }
  if (cur >= 0)
    {
      copy_operand (x, src, cur, base, dst);
      sys_close (cur);
    }
  finish_parents (x, made, n);
  free (made);
  free (path);
  free (base);
  free (dst);
  free (stripped);
}

/* SRC cannot be copied to DST, whose directory cannot be opened (ERR),
   or which ends in '/' while SRC is no directory (ENOTDIR): report it
   as cp, which looks at SRC first, then at DST, and fails to create DST
   only where nothing is there.  */
static void
report_unreachable (const struct copy_options *x, const char *src,
                    const char *dst, int err)
{
  struct stat st, dst_st;
  int ret = sys_fstatat (AT_FDCWD, src, &st, copy_follows_operand (x)
                                             ? 0 : AT_SYMLINK_NOFOLLOW);
  if (ret < 0)
    copy_fail (-ret, "cannot stat %s", src);
  else if (S_ISDIR (st.st_mode) && !x->recursive)
    copy_fail (0, "-r not specified; omitting directory %s", src);
  else if ((ret = sys_fstatat (AT_FDCWD, dst, &dst_st, 0)) < 0
           && ret != -ENOENT)
    copy_fail (-ret, "cannot stat %s", dst);
  else
    copy_fail_create (err, st.st_mode, dst);
}

/* Copy SRC to DST, a name.  */
static void
copy_to (const struct copy_options *x, const char *src, const char *dst)
{
  /* xcp --force --backup F F, F a regular file: a copy of F to the name
     its backup would get, as cp makes it.  */
  struct stat reg;
  char *to_backup = NULL;
  if (x->force && x->backup != BACKUP_NONE && strcmp (src, dst) == 0
      && sys_fstatat (AT_FDCWD, dst, &reg, 0) == 0 && S_ISREG (reg.st_mode)
      && backup_name (AT_FDCWD, dst, x->backup, x->backup_suffix,
                      &to_backup) == 0)
    {
      struct copy_options plain = *x;
      plain.backup = BACKUP_NONE;
      copy_to (&plain, src, to_backup);
      free (to_backup);
      return;
    }
  size_t len = strlen (dst);
  /* "dst/" names a directory: only a directory can be copied there.  */
  if (len > 1 && dst[len - 1] == '/')
    {
      struct stat st;
      int ret = sys_fstatat (AT_FDCWD, src, &st,
                             x->recursive ? AT_SYMLINK_NOFOLLOW : 0);
      if (ret == 0 && !S_ISDIR (st.st_mode))
        {
          report_unreachable (x, src, dst, ENOTDIR);
          return;
        }
    }
  char *base = base_name_of (dst);
  while (len > 1 && dst[len - 1] == '/')
    len--;
  size_t plen = len - strlen (base);
  int dirfd = AT_FDCWD;
  if (plen > 0)
    {
      char *parent = ximemdup0 (dst, plen);
      dirfd = sys_openat (AT_FDCWD, parent, O_PATH | O_DIRECTORY | O_CLOEXEC,
                          0);
      free (parent);
      if (dirfd < 0)
        {
          report_unreachable (x, src, dst, -dirfd);
          free (base);
          return;
        }
    }
  else
    dirfd = sys_openat (AT_FDCWD, ".", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
  copy_operand (x, src, dirfd, base, dst);
  if (dirfd >= 0)
    sys_close (dirfd);
  free (base);
}

static bool
is_dir (const char *path)
{
  struct stat st;
  return sys_fstatat (AT_FDCWD, path, &st, 0) == 0 && S_ISDIR (st.st_mode);
}

/* --- option values ------------------------------------------------- */

/* --reflink=WHEN, --sparse=WHEN: in the order of enum copy_when.  */
static enum copy_when
parse_when (const char *option, const char *arg)
{
  static const char *const words[] = { "auto", "always", "never", NULL };
  return cli_keyword (option, arg, words);
}

/* --update=WHEN, in the order of enum copy_update.  */
static enum copy_update
parse_update (const char *arg)
{
  static const char *const words[] = {
    "all", "none", "none-fail", "older", NULL
  };
  return cli_keyword ("update", arg, words);
}

static enum copy_engine
parse_engine (const char *arg)
{
  static const char *const words[] = {
    "clone", "copy_file_range", "sendfile", "splice", "rw", NULL
  };
  static const enum copy_engine engines[] = {
    COPY_ENGINE_CLONE, COPY_ENGINE_COPY_FILE_RANGE, COPY_ENGINE_SENDFILE,
    COPY_ENGINE_SPLICE, COPY_ENGINE_RW,
  };
  return engines[cli_keyword ("engine", arg, words)];
}

/* Set the attributes of the list ARG in X to ON, under the name OPTION:
   for --preserve, NULL or empty is the default list; --no-preserve
   also takes context, which a kernel without SELinux has none of, to
   leave it out.  The words in cp's order.  */
static void
parse_preserve (const char *option, const char *arg, bool on,
                struct copy_options *x)
{
  static const char *const words[] = {
    "mode", "timestamps", "ownership", "links", "xattr", "all", NULL
  };
  static const char *const no_words[] = {
    "mode", "timestamps", "ownership", "links", "context", "xattr", "all",
    NULL
  };
  struct copy_preserve *keep = &x->preserve;
  bool context;
  bool *const kept[] = { &keep->mode, &keep->times, &keep->owner,
                         &keep->links, &keep->xattr };
  bool *const no_kept[] = { &keep->mode, &keep->times, &keep->owner,
                            &keep->links, &context, &keep->xattr };
  enum { ALL = sizeof kept / sizeof kept[0],
         NO_ALL = sizeof no_kept / sizeof no_kept[0] };
  if (!on && (!arg || !*arg))
    cli_keyword (option, "", no_words);     /* ambiguous, as in cp */
  char *list = xstrdup (arg && *arg ? arg : PRESERVE_DEFAULT);
  char *save = NULL;
  for (char *tok = strtok_r (list, ",", &save); tok;
       tok = strtok_r (NULL, ",", &save))
    {
      size_t i = cli_keyword (option, tok, on ? words : no_words);
      size_t all = on ? ALL : NO_ALL;
      /* Only xattr by name makes a failure to keep one an error.  */
      if (strcmp ((on ? words : no_words)[i], "xattr") == 0)
        keep->xattr_required = on;
      for (size_t k = 0; k < all; k++)
        if (k == i || i == all)
          *(on ? kept : no_kept)[k] = on;
      /* The last word about the mode wins, as in cp.  */
      if (i == 0 || i == all)
        x->default_mode = !on;
    }
  free (list);
}

/* The backup type CONTROL names (WHAT in messages): a usage error if
   none or several.  */
static enum backup_type
parse_control (const char *what, const char *control)
{
  return backup_types[cli_keyword_of (what, control, backup_words,
                                      backup_types, sizeof backup_types[0])];
}

/* -b, a bare --backup or -S, without --backup=CONTROL: the backups
   $VERSION_CONTROL says, else existing, as cp.  */
static enum backup_type
default_backup (void)
{
  const char *control = getenv ("VERSION_CONTROL");
  return control && *control ? parse_control ("$VERSION_CONTROL", control)
                             : BACKUP_EXISTING;
}

/* The options parsed; reachable to the end, for leak checkers, whichever
   way xcp exits.  */
static poptContext ctx;

/* -l or -s (LINK), never both, as cp.  */
static void
set_link (struct copy_options *x, enum copy_link link)
{
  if (x->link != COPY_LINK_NONE && x->link != link)
    cli_usage_error ("cannot make both hard and symbolic links");
  x->link = link;
}

/* The options that set one flag of struct copy_options, and which (-f
   undoes neither -i nor -n, as in cp).  */
#define FLAG(opt, field) { opt, offsetof (struct copy_options, field) }
static const struct { int opt; size_t field; } flag_options[] = {
  FLAG (OPT_RECURSIVE, recursive),
  FLAG (OPT_FORCE, force),
  FLAG (OPT_DEBUG, debug),
  FLAG (OPT_FSYNC, fsync),
  FLAG (OPT_INPLACE, inplace),
  FLAG (OPT_REMOVE_DEST, remove_dest),
  FLAG (OPT_VERBOSE, verbose),
  FLAG (OPT_NO_TARGET_DIR, no_target_dir),
  FLAG (OPT_ATTRIBUTES_ONLY, attributes_only),
  FLAG (OPT_KEEP_DIR_SYMLINK, keep_dir_symlink),
  FLAG (OPT_COPY_CONTENTS, copy_contents),
  FLAG (OPT_PARENTS, parents),
  FLAG (OPT_ONE_FS, one_fs),
  FLAG (OPT_STRIP_SLASHES, strip_slashes),
};
#undef FLAG

/* Apply option OPT, of argument ARG (or NULL), to X.  */
static void
apply_option (struct copy_options *x, int opt, const char *arg)
{
  for (size_t i = 0; i < sizeof flag_options / sizeof flag_options[0]; i++)
    if (flag_options[i].opt == opt)
      {
        *(bool *) ((char *) x + flag_options[i].field) = true;
        return;
      }
  switch (opt)
    {
    case OPT_ENGINE:
      x->engine = parse_engine (arg);
      break;
    case OPT_REFLINK:           /* a bare --reflink is --reflink=always */
      x->reflink = arg && *arg ? parse_when ("reflink", arg)
                                : COPY_WHEN_ALWAYS;
      break;
    case OPT_SPARSE:
      x->sparse = parse_when ("sparse", arg);
      break;
    case OPT_PRESERVE:          /* each --preserve adds to the list */
    case OPT_PRESERVE_DEFAULT:
      parse_preserve ("preserve", arg, true, x);
      break;
    case OPT_NO_PRESERVE:       /* and each --no-preserve takes away */
      parse_preserve ("no-preserve", arg, false, x);
      break;
    case OPT_ARCHIVE:           /* -dR --preserve=all: -P too, as cp */
      parse_preserve ("preserve", "all", true, x);
      x->preserve.xattr_quiet = true;
      x->recursive = true;
      x->deref = COPY_DEREF_NEVER;
      break;
    case OPT_NO_CLOBBER:
      x->clobber = COPY_CLOBBER_NO;
      break;
    case OPT_INTERACTIVE:
      x->clobber = COPY_CLOBBER_ASK;
      break;
    case OPT_UPDATE:            /* the last --update or -u counts */
      x->update = arg && *arg ? parse_update (arg) : COPY_UPDATE_OLDER;
      break;
    case OPT_UPDATE_OLDER:
      x->update = COPY_UPDATE_OLDER;
      break;
    case OPT_NO_DEREF:          /* the last of -P, -H, -L counts */
      x->deref = COPY_DEREF_NEVER;
      break;
    case OPT_NO_DEREF_LINKS:
      x->deref = COPY_DEREF_NEVER;
      x->preserve.links = true;
      break;
    case OPT_DEREF_ARGS:
      x->deref = COPY_DEREF_ARGS;
      break;
    case OPT_DEREF:
      x->deref = COPY_DEREF_ALWAYS;
      break;
    case OPT_LINK:
      set_link (x, COPY_LINK_HARD);
      break;
    case OPT_SYMBOLIC_LINK:
      set_link (x, COPY_LINK_SYMBOLIC);
      break;
    case OPT_JOBS:
      x->jobs = (unsigned int) cli_parse_number ("jobs", "number of jobs",
                                                 arg, COPY_JOBS_MAX, 0);
      if (x->jobs == 0)
        cli_usage_error ("invalid --jobs %s: at least 1", quote_file (arg));
      break;
    }
}

/* -j's default: a worker per CPU this process may run on (taskset,
   cgroup cpusets), else per online CPU.  */
static unsigned int
default_jobs (void)
{
  cpu_set_t set;
  long cpus = sched_getaffinity (0, sizeof set, &set) == 0
              ? CPU_COUNT (&set) : sysconf (_SC_NPROCESSORS_ONLN);
  return cpus < 1 ? 1 : cpus > COPY_JOBS_MAX ? COPY_JOBS_MAX
                                             : (unsigned int) cpus;
}

/* Parse the options of ARGV into X; return the operands, their number in
   *N.  */
static const char **
parse_options (int argc, char **argv, struct copy_options *x, size_t *n)
{
  /* cp takes an optional argument only after '=': a bare --preserve or
     --reflink gives "".  */
  ctx = cli_context_flags (argc, argv, options,
                           "[OPTION]... SRC DST\n"
                           "  or:  xcp [OPTION]... SRC... DIR\n"
                           "  or:  xcp [OPTION]... -t DIR SRC...",
                           CLI_OPTIONAL_AFTER_EQUALS);
  int opt;
  /* -b, -S, --backup; with a CONTROL, the type it says (the last).  */
  bool backup = false, control = false;
  while ((opt = cli_next_option (ctx)) >= 0)
    {
      /* Each string is freed once applied: popt would not free one when
         storing the next of the same option.  */
      char *arg = poptGetOptArg (ctx);
      if (opt == OPT_TARGET_DIR)
        {
          free (x->target_dir);
          x->target_dir = arg;
          continue;
        }
      if (opt == OPT_BACKUP || opt == OPT_BACKUP_SHORT)
        {
          backup = true;
          if (arg && *arg)
            {
              x->backup = parse_control ("backup type", arg);
              control = true;
            }
          free (arg);
          continue;
        }
      if (opt == OPT_SUFFIX)
        {
          backup = true;
          free (x->backup_suffix);
          x->backup_suffix = arg;
          continue;
        }
      apply_option (x, opt, arg);
      free (arg);
    }
  x->progress = cli_progress;
  /* -n after the last -i leaves every file, whatever --update says; -i
     after it asks about those --update would replace (cp's order).  */
  if (x->clobber == COPY_CLOBBER_NO)
    x->update = COPY_UPDATE_NONE;
  /* -r -l links what a tree's symbolic links name, as cp -r -l does.  */
  if (x->link == COPY_LINK_HARD && x->recursive
      && x->deref == COPY_DEREF_DEFAULT)
    x->deref = COPY_DEREF_ALWAYS;
  if (backup && copy_leaves_existing (x))
    cli_usage_error ("--backup is mutually exclusive with -n or "
                     "--update=none-fail");
  if (backup && !control)
    x->backup = default_backup ();
  if (x->jobs == 0)
    x->jobs = default_jobs ();
  if (x->engine == COPY_ENGINE_CLONE && x->reflink == COPY_WHEN_NEVER)
    cli_usage_error ("--engine=clone and --reflink=never contradict");
  /* Shared blocks cannot be written out as zeros.  */
  if (x->reflink == COPY_WHEN_ALWAYS && x->sparse == COPY_WHEN_NEVER)
    cli_usage_error ("--reflink=always and --sparse=never contradict");

  const char **args = poptGetArgs (ctx);
  *n = 0;
  while (args && args[*n])
    ++*n;
  return args;
}

/* Check the number of operands N of ARGS against X's -t and -T.  */
static void
check_operands (const struct copy_options *x, const char **args, size_t n)
{
  if (n == 0)
    cli_usage_error ("missing file operand");
  if (x->target_dir && x->no_target_dir)
    cli_usage_error ("cannot combine --target-directory (-t) and "
                     "--no-target-directory (-T)");
  if (!x->target_dir && n == 1)
    cli_usage_error ("missing destination file operand after %s",
                     quote_file (args[0]));
  if (x->no_target_dir && n > 2)
    cli_usage_error ("extra operand %s", quote_file (args[2]));
}

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  struct copy_options x = { 0 };
  size_t n;
  const char **args = parse_options (argc, argv, &x, &n);
  check_operands (&x, args, n);

  copy_options_init (&x);
  progress_start (&bar, x.progress > 0);
  if (x.progress < 0)
    x.progress = bar.tty;
  x.copied = say_copied;
  if (x.progress)
    x.bytes_done = count_bytes;
  install_catch_signals ();

  const char *dir = x.target_dir;
  if (!dir && !x.no_target_dir && (n > 2 || is_dir (args[n - 1])))
    {
      dir = args[n - 1];
      n--;
      if (!is_dir (dir))
        {
          struct stat st;
          int ret = sys_fstatat (AT_FDCWD, dir, &st, 0);
          error (EXIT_FAILURE, ret < 0 ? -ret : ENOTDIR, "target %s",
                 quote_msg (dir));
        }
    }

  /* The total, for the time left: the sizes of the regular operands.  */
  if (x.progress)
    for (size_t i = 0; i < n; i++)
      {
        struct stat st;
        if (sys_fstatat (AT_FDCWD, args[i], &st, 0) == 0
            && S_ISREG (st.st_mode))
          total_bytes += st.st_size;
      }

  /* N is the number of sources now.  */
  x.record_made = dir && n > 1;
  if (dir)
    {
      int dirfd = open_target_dir (dir);
      bool *twice = given_twice (&x, args, n);
      for (size_t i = 0; i < n; i++)
        if (twice[i])
          warn_twice (&x, args[i]);
        else if (x.parents)
          copy_parents (&x, args[i], dirfd, dir);
        else
          copy_into (&x, args[i], dirfd, dir);
      free (twice);
      sys_close (dirfd);
    }
  else if (x.parents)
    cli_usage_error ("with --parents, the destination must be a directory");
  else
    copy_to (&x, args[0], args[1]);

  if (progress_finish (&bar))
    progress_line (true);
  poptFreeContext (ctx);
  free (x.target_dir);
  free (x.backup_suffix);
  return cli_status;
}
