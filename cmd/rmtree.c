/* rmtree -- remove directory trees with openat, getdents64 and unlinkat,
   without following a symbolic link and without a PATH_MAX limit.  A
   drop-in for rm -r: its options, questions, messages and exit statuses
   (rmtree recurses with or without -r).

   SYNOPSIS: rmtree [OPTION]... PATH...  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/common.h"
#include "cli/progress.h"
#include "error.h"
#include "human.h"
#include "progname.h"
#include "sys/calls.h"
#include "walk/walker.h"
#include "xalloc.h"
#include "yesno.h"

/* When to ask before removing an entry, as rm: never, only for a
   write-protected one while standard input is a terminal (the default),
   or for every one (-i).  */
enum ask { ASK_NEVER, ASK_PROTECTED, ASK_ALWAYS };

static bool force;
static enum ask ask_when = ASK_PROTECTED;
static bool ask_once;           /* -I: one question before anything */
static int recursive;
static int dir_only;
static int verbose;
static int one_fs;
static int dry_run;
static bool preserve_root = true;
static bool preserve_all_root;  /* --preserve-root=all */
static bool stdin_tty;

enum { OPT_FORCE = 1, OPT_ASK_ALWAYS, OPT_ASK_ONCE, OPT_INTERACTIVE,
       OPT_PRESERVE_ROOT, OPT_NO_PRESERVE_ROOT };

/* A directory removal does not read the directory forever: once read
   again (entries can be missed while others are removed), a directory
   still not empty is reported.  Another process that keeps creating
   entries in it cannot hold the removal.  */
enum { RESCANS_MAX = 1 };

static struct poptOption tool_options[] = {
  { "force", 'f', POPT_ARG_NONE, NULL, OPT_FORCE,
    "ignore missing operands (and LINK/ left in place), never fail for "
    "them, never ask", NULL },
  { "interactive", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL,
    OPT_INTERACTIVE,
    "WHEN to ask, the answer read from standard input: never, once (as "
    "-I), always (as -i, the default WHEN); without this option, only "
    "for write-protected files, if standard input is the terminal",
    "WHEN" },
  { NULL, 'i', POPT_ARG_NONE, NULL, OPT_ASK_ALWAYS,
    "ask before entering or removing every file and directory", NULL },
  { NULL, 'I', POPT_ARG_NONE, NULL, OPT_ASK_ONCE,
    "ask once, before anything is removed (rmtree always recurses)", NULL },
  { "recursive", 'r', POPT_ARG_NONE, &recursive, 0,
    "accepted for rm's users: rmtree always recurses, unless -d alone", NULL },
  { NULL, 'R', POPT_ARG_NONE, &recursive, 0, "the same as -r", NULL },
  { "dir", 'd', POPT_ARG_NONE, &dir_only, 0,
    "without -r: remove a directory operand only if it is empty, as rm -d",
    NULL },
  { "verbose", 'v', POPT_ARG_NONE, &verbose, 0,
    "list each file and directory as it is removed", NULL },
  { "one-file-system", 'x', POPT_ARG_NONE, &one_fs, 0,
    "do not enter other file systems or mount points: report and skip them",
    NULL },
  { "dry-run", 'n', POPT_ARG_NONE, &dry_run, 0,
    "remove nothing; list what would be removed", NULL },
  { "preserve-root", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL,
    OPT_PRESERVE_ROOT,
    "refuse to remove '/' (the default); with =all, also refuse a "
    "directory operand on another device than its parent", "all" },
  { "no-preserve-root", '\0', POPT_ARG_NONE, NULL, OPT_NO_PRESERVE_ROOT,
    "do not treat '/' specially", NULL },
  CLI_PROGRESS_OPTIONS,
  POPT_TABLEEND
};

static struct poptOption options[] = {
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, tool_options, 0,
    "Remove each PATH and, if it is a directory, everything below it.  "
    "Symbolic links are removed, never followed; every step is taken "
    "relative to a directory already open, so a tree changed during the "
    "removal cannot lead outside itself.  A PATH written with a trailing "
    "slash is resolved, as by rm: LINK/ empties the directory LINK points "
    "to, and keeps LINK.  As rm -r, with or without -r, it asks before "
    "removing a write-protected file if standard input is a terminal, and "
    "as -i or -I say.  The progress line counts the entries removed, and "
    "their rate.\n\n"
    CLI_EXIT_STATUS_USUAL "\n\nOptions:", NULL },
  CLI_COMMON_OPTIONS
};

static struct stat root_st;
static bool root_st_ok;

/* The operand being removed: its last component without the trailing
   slashes, in the directory DIRFD; whether it was written with a trailing
   slash (then the walk starts from BASE "/", which resolves a symbolic
   link, as POSIX says); and the device of the directory the walk
   starts in.  */
static struct
{
  int dirfd;
  const char *base;
  bool slash;
  dev_t dev;
} top;

/* --- progress ------------------------------------------------------ */

static uintmax_t n_removed;
static struct progress bar;

static void
progress_line (bool last)
{
  double secs = progress_seconds (&bar);
  char buf[LONGEST_HUMAN_READABLE + 1];
  uintmax_t per_sec = secs > 0 ? (uintmax_t) ((double) n_removed / secs) : 0;
  const char *rate = human_readable (per_sec, buf, human_autoscale | human_SI
                                     | human_suppress_point_zero
                                     | human_round_to_nearest, 1, 1);
  progress_draw (&bar, last, "%" PRIuMAX " removed, %.1f s, %s/s",
                 n_removed, secs, rate);
}

static void
count_removed (void)
{
  n_removed++;
  /* The clock is read every 64 entries only.  */
  if (cli_progress > 0 && (n_removed & 63) == 0 && progress_due (&bar))
    progress_line (false);
}

/* --- what each directory being walked became ------------------------

   Indexed by depth, for the directories from the operand down to the
   one being read.  A directory that keeps an entry that failed, or a
   subdirectory the user chose not to enter, is left quietly with its
   ancestors, as rm does: it cannot be empty.  One where the user only
   kept files (or said no to removing a subdirectory) is still asked
   about and tried, and its removal fails.  The walker counts the entries
   kept (kept); those the user chose to keep are counted here.  */

struct dir_state
{
  unsigned long declined;  /* entries the user chose to keep */
  bool asked;              /* the user already said to remove it */
};

static struct dir_state *dirs;
static size_t dirs_alloc;

static struct dir_state *
dir_state (size_t depth)
{
  if (depth >= dirs_alloc)
    {
      size_t old = dirs_alloc;
      dirs_alloc = 2 * depth + 16;
      dirs = xnrealloc (dirs, dirs_alloc, sizeof *dirs);
      memset (dirs + old, 0, (dirs_alloc - old) * sizeof *dirs);
    }
  return &dirs[depth];
}

/* The user chose to keep E: return what VISIT returns for it.  */
static int
keep (const struct walk_entry *e)
{
  if (e->depth > 0)
    dir_state (e->depth - 1)->declined++;
  return WALK_CONTINUE;
}

/* --- messages ------------------------------------------------------ */

static void
report (struct walk *w, int err)
{
  cli_fail (0, "cannot remove %s: %s", quote_file (walk_path (w)),
            walk_strerror (err));
}

/* "removed 'x'" (-v), "would remove 'x'" (-n).  */
static void
say (struct walk *w, bool dir)
{
  if (!verbose && !dry_run)
    return;
  progress_clear (&bar);
  printf ("%s%s %s\n", dry_run ? "would remove" : "removed",
          dir ? " directory" : "", quote_file (walk_path (w)));
}

/* --- questions ----------------------------------------------------- */

static bool
dot_or_dotdot (const char *name)
{
  return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/* The kind of file ST is, in rm's words.  */
static const char *
type_name (const struct stat *st)
{
  switch (st->st_mode & S_IFMT)
    {
    case S_IFREG:
      return st->st_size == 0 ? "regular empty file" : "regular file";
    case S_IFDIR: return "directory";
    case S_IFLNK: return "symbolic link";
    case S_IFIFO: return "fifo";
    case S_IFSOCK: return "socket";
    case S_IFCHR: return "character special file";
    case S_IFBLK: return "block special file";
    default: return "weird file";
    }
}

/* Whether E is write-protected: the effective ids may not write it.  A
   symbolic link is never (its mode means nothing).  */
static bool
write_protected (const struct walk_entry *e, bool link)
{
  if (link)
    return false;
  int ret = sys_faccessat (e->dirfd, e->name, W_OK, AT_EACCESS);
  /* Before Linux 5.8 (no faccessat2), or where a seccomp filter refuses
     the call (EPERM, as older container runtimes do), the real ids:
     those of every run but a set-user-ID one.  */
  if (ret == -ENOSYS || ret == -EPERM)
    ret = sys_faccessat (e->dirfd, e->name, W_OK, 0);
  return ret == -EACCES;
}

/* Whether E must be asked about before it is entered or removed; if so,
   whether it is write-protected, in *PROTECTED.  -f never asks, -i
   always, and the default only for a write-protected entry while the
   answer would come from a terminal.  */
static bool
must_ask (const struct walk_entry *e, bool link, bool *protected)
{
  *protected = false;
  if (dry_run || ask_when == ASK_NEVER)
    return false;
  if (!force && (ask_when == ASK_ALWAYS || stdin_tty))
    *protected = write_protected (e, link);
  return *protected || ask_when == ASK_ALWAYS;
}

/* Ask "VERB [write-protected ]WHAT 'PATH'?" on standard error, as rm
   asks, and read the answer from standard input (gnulib yesno: the
   locale's yes, the whole line read).  */
static bool
ask (struct walk *w, const char *verb, bool protected, const char *what)
{
  progress_clear (&bar);
  fprintf (stderr, "%s: %s %s%s %s? ", program_name, verb,
           protected ? "write-protected " : "", what,
           quote_file (walk_path (w)));
  fflush (stderr);
  return yesno ();
}

/* Ask whether to remove E, of the kind its stat says: 1 to remove it,
   0 to keep it, -1 if it cannot be stat'ed (reported).  */
static int
ask_remove (struct walk *w, const struct walk_entry *e, bool protected)
{
  struct stat st;
  const struct stat *stp = e->st;
  if (!stp)
    {
      int ret = sys_fstatat (e->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW);
      if (ret < 0)
        {
          report (w, -ret);
          return -1;
        }
      stp = &st;
    }
  return ask (w, "remove", protected, type_name (stp));
}

/* Whether the directory FD has no entry but "." and "..": 1, 0, or
   -errno.  Read through a descriptor of its own, the walk's keeps its
   offset.  */
static int
dir_empty (int fd)
{
  int dfd = sys_openat (fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (dfd < 0)
    return dfd;
  char buf[4096] __attribute__ ((aligned (8)));
  ssize_t n;
  int ret = 1;
  while (ret == 1 && (n = sys_getdents64 (dfd, buf, sizeof buf)) != 0)
    {
      if (n < 0)
        {
          if (n == -EINTR)
            continue;
          ret = n;
          break;
        }
      for (ssize_t off = 0; off < n; )
        {
          struct nc_dirent64 *de = (struct nc_dirent64 *) (buf + off);
          if (!dot_or_dotdot (de->d_name))
            ret = 0;
          off += de->d_reclen;
        }
    }
  sys_close (dfd);
  return ret;
}

/* --- removal ------------------------------------------------------- */

static bool
is_root (const struct stat *st)
{
  return root_st_ok && st->st_dev == root_st.st_dev
         && st->st_ino == root_st.st_ino;
}

/* Whether the operand, written with a trailing slash, is not a directory
   itself (a symbolic link, or a file).  */
static bool
top_not_dir (void)
{
  struct stat st;
  return sys_fstatat (top.dirfd, top.base, &st, AT_SYMLINK_NOFOLLOW) == 0
         && !S_ISDIR (st.st_mode);
}

/* unlinkat, EINTR retried: on a network or FUSE file system a signal
   can interrupt the call, which then removed nothing.  */
static int
unlink_retry (int dirfd, const char *name, int flags)
{
  int ret;
  while ((ret = sys_unlinkat (dirfd, name, flags)) == -EINTR)
    continue;
  return ret;
}

static int
remove_dir (struct walk *w, const struct walk_entry *e)
{
  if (dry_run)
    {
      /* LINK/: the real run empties the directory, then fails to remove
         LINK/ (ENOTDIR): say that.  */
      if (e->depth == 0 && top.slash && top_not_dir ())
        {
          if (!force)
            report (w, ENOTDIR);
          return WALK_CONTINUE;
        }
      say (w, true);
      return WALK_CONTINUE;
    }
  struct dir_state *ds = dir_state (e->depth);
  /* Reading while removing can skip entries on some file systems: a
     directory found not empty is read once again, not more (see
     RESCANS_MAX).  */
  bool again = !e->complete && e->rescans < RESCANS_MAX;
  if (e->kept && again)
    return WALK_RESCAN;
  /* Something below failed and was reported, or was not entered: leave
     the ancestors quietly.  */
  if (e->kept > ds->declined)
    return WALK_CONTINUE;
  bool protected;
  if (!ds->asked && must_ask (e, false, &protected))
    {
      if (!ask (w, "remove", protected, "directory"))
        return keep (e);
      ds->asked = true;
    }
  int ret = unlink_retry (e->dirfd, e->name, AT_REMOVEDIR);
  if (ret == 0 || ret == -ENOENT)
    {
      if (ret == 0)
        {
          say (w, true);
          count_removed ();
        }
      return WALK_REMOVED;
    }
  /* Entries may have been missed while others were removed: read it
     again.  */
  if ((ret == -ENOTEMPTY || ret == -EEXIST) && again)
    return WALK_RESCAN;
  /* LINK/ was emptied, and the link is not a directory: the link stays.
     -f takes ENOTDIR for a missing operand, as rm -f does.  */
  if (e->depth == 0 && force && ret == -ENOTDIR)
    return WALK_CONTINUE;
  report (w, -ret);
  return WALK_CONTINUE;
}

static int
remove_file (struct walk *w, const struct walk_entry *e)
{
  if (dry_run)
    {
      say (w, false);
      return WALK_CONTINUE;
    }
  bool protected;
  if (must_ask (e, e->type == WALK_LNK, &protected))
    {
      int answer = ask_remove (w, e, protected);
      if (answer <= 0)
        return answer == 0 ? keep (e) : WALK_CONTINUE;
    }
  int ret = unlink_retry (e->dirfd, e->name, 0);
  if (ret == 0 || ret == -ENOENT)
    {
      if (ret == 0)
        {
          say (w, false);
          count_removed ();
        }
      return WALK_REMOVED;
    }
  report (w, -ret);
  return WALK_CONTINUE;
}

static int
failed (struct walk *w, const struct walk_entry *e)
{
  int err = e->err;
  /* NAME/ could not be resolved, and NAME is there but is no directory:
     a dangling link, a link to a file or a loop, a file.  That is
     ENOTDIR, whatever the resolution said (ENOENT, ELOOP...), as the
     kernel says for unlinkat of NAME/ and rm reports.  */
  if (e->depth == 0 && top.slash && !e->is_dir && err != ENOTDIR
      && top_not_dir ())
    err = ENOTDIR;
  /* -f: a missing operand is fine.  */
  if (e->depth == 0 && force && (err == ENOENT || err == ENOTDIR))
    return WALK_CONTINUE;
  /* A directory that cannot be opened may still be empty, and
     removable.  (dirfd is -1 when the parent is not known.)  */
  if (e->is_dir && e->fd < 0 && e->dirfd != -1 && !dry_run
      && (e->err == EACCES || e->err == EPERM))
    {
      bool protected;
      if (must_ask (e, false, &protected)
          && !ask (w, "remove", protected, "directory"))
        return keep (e);
      int ret = unlink_retry (e->dirfd, e->name, AT_REMOVEDIR);
      if (ret == 0)
        {
          say (w, true);
          count_removed ();
          return WALK_REMOVED;
        }
    }
  report (w, err);
  return WALK_CONTINUE;
}

/* Whether the operand E, a directory, may be walked: not '/', nor, with
   --preserve-root=all, on another device than its parent (E/.., as rm
   has it).  */
static bool
operand_allowed (struct walk *w, const struct walk_entry *e)
{
  if (!preserve_root)
    return true;
  const char *path = walk_path (w);
  if (is_root (e->st))
    {
      error (0, 0, "it is dangerous to operate recursively on %s%s",
             quote_file (path),
             strcmp (path, "/") == 0 ? "" : " (same as '/')");
      cli_fail (0, "use --no-preserve-root to override this failsafe");
      return false;
    }
  if (!preserve_all_root)
    return true;
  struct stat parent;
  int ret = sys_fstatat (e->fd, "..", &parent, 0);
  if (ret < 0)
    {
      cli_fail (0, "failed to stat %s/..: %s", quote_file (path),
                strerror (-ret));
      return false;
    }
  if (parent.st_dev != e->st->st_dev)
    {
      error (0, 0, "skipping %s, since it's on a different device",
             quote_file (path));
      cli_fail (0, "and --preserve-root=all is in effect");
      return false;
    }
  return true;
}

/* The directory operand E, with -d and without -r: removed if it is
   empty, as rm -d does, never entered.  */
static int
remove_empty_operand (struct walk *w, const struct walk_entry *e)
{
  bool protected;
  bool asking = must_ask (e, false, &protected);
  if (asking || dry_run)
    {
      int empty = dir_empty (e->fd);
      if (empty <= 0)
        {
          report (w, empty < 0 ? -empty : ENOTEMPTY);
          return WALK_SKIP;
        }
    }
  if (asking && !ask (w, "remove", protected, "directory"))
    return WALK_SKIP;
  if (dry_run)
    {
      say (w, true);
      return WALK_SKIP;
    }
  int ret = unlink_retry (e->dirfd, e->name, AT_REMOVEDIR);
  if (ret < 0)
    report (w, -ret);
  else
    {
      say (w, true);
      count_removed ();
    }
  return WALK_SKIP;
}

/* Directory E, before its entries: whether to enter it.  -i asks first:
   whether to remove it if it is empty (then not again after), whether
   to enter it otherwise.  */
static int
enter_dir (struct walk *w, const struct walk_entry *e)
{
  if (e->depth == 0)
    {
      if (!operand_allowed (w, e))
        return WALK_SKIP;
      if (dir_only && !recursive)
        return remove_empty_operand (w, e);
      top.dev = e->st->st_dev;
    }
  struct dir_state *ds = dir_state (e->depth);
  *ds = (struct dir_state) { 0 };
  bool protected;
  if (!must_ask (e, false, &protected))
    return WALK_CONTINUE;
  bool empty = dir_empty (e->fd) == 1;
  if (empty ? ask (w, "remove", protected, "directory")
            : ask (w, "descend into", protected, "directory"))
    {
      ds->asked = empty;
      return WALK_CONTINUE;
    }
  /* Not entered: its ancestors are left quietly.  */
  return WALK_SKIP;
}

static int
visit (struct walk *w, const struct walk_entry *e, void *arg)
{
  (void) arg;
  switch (e->type)
    {
    case WALK_DIR:
      return enter_dir (w, e);
    case WALK_DIR_POST:
      return remove_dir (w, e);
    case WALK_MOUNT:
      /* GNU rm's words for another device; rmtree also skips a mount
         point of the same device (a bind mount), and says so.  */
      cli_fail (0, "skipping %s, since it's %s", quote_file (walk_path (w)),
                e->st->st_dev != top.dev ? "on a different device"
                                         : "a mount point");
      return WALK_CONTINUE;
    case WALK_ERR:
      return failed (w, e);
    default:
      return remove_file (w, e);
    }
}

/* Remove ARG and everything below it.  The walk starts from ARG's parent
   directory, opened once: from there on, every name is one component
   relative to a descriptor.

   A trailing slash is kept on the last component (NAME/): the walk's
   stat and openat then resolve it, following a symbolic link to a
   directory, for this one component only (O_NOFOLLOW does not apply to
   a name ending in a slash), and the final unlinkat of NAME/ fails with
   ENOTDIR for the link: the directory is emptied, the link kept, as
   POSIX and rm have it.  Everything below is walked as usual, never
   following a link.  */
static void
remove_operand (const char *arg)
{
  /* ARG in messages, as rm shows it: two or more trailing slashes made
     one.  */
  size_t shown = strlen (arg);
  if (shown > 2 && arg[shown - 1] == '/')
    while (shown > 1 && arg[shown - 2] == '/')
      shown--;
  char *display = ximemdup0 (arg, shown);

  size_t len = shown;
  while (len > 1 && arg[len - 1] == '/')
    len--;
  char *path = ximemdup0 (arg, len);
  char *slash = strrchr (path, '/');
  const char *base = slash && slash[1] ? slash + 1 : path;
  if (dot_or_dotdot (base))
    {
      cli_fail (0, "refusing to remove '.' or '..' directory: skipping %s",
                quote_file (display));
      goto out;
    }

  int dirfd = AT_FDCWD;
  if (slash && slash[1])
    {
      char *parent = slash == path ? xstrdup ("/")
                                   : ximemdup0 (path, slash - path);
      dirfd = sys_openat (AT_FDCWD, parent, O_PATH | O_DIRECTORY | O_CLOEXEC,
                          0);
      free (parent);
      if (dirfd < 0)
        {
          if (!(force && (dirfd == -ENOENT || dirfd == -ENOTDIR)))
            cli_fail (0, "cannot remove %s: %s", quote_file (display),
                      strerror (-dirfd));
          goto out;
        }
    }

  /* "/" itself has no trailing slash to keep.  */
  top.slash = len < shown && strcmp (path, "/") != 0;
  top.dirfd = dirfd;
  top.base = base;
  top.dev = 0;
  size_t blen = strlen (base);
  char *name = xmalloc (blen + 2);
  memcpy (name, base, blen);
  name[blen] = '/';
  name[blen + top.slash] = '\0';
  int flags = (dry_run ? 0 : WALK_REMOVING) | (one_fs ? WALK_ONE_FS : 0);
  walk_at (dirfd, name, flags, display, visit, NULL);
  free (name);
  if (dirfd >= 0)
    sys_close (dirfd);
out:
  free (path);
  free (display);
}

/* --interactive=WHEN (a bare --interactive is always).  */
static void
set_interactive (const char *arg)
{
  static const char *const words[] = {
    "never", "no", "none", "once", "always", "yes", NULL
  };
  static const enum ask whens[] = {
    ASK_NEVER, ASK_NEVER, ASK_NEVER, ASK_PROTECTED, ASK_ALWAYS, ASK_ALWAYS
  };
  size_t i = arg && *arg ? cli_keyword ("interactive", arg, words) : 4;
  ask_when = whens[i];
  ask_once = strcmp (words[i], "once") == 0;
  if (ask_when != ASK_NEVER || ask_once)
    force = false;
}

/* Apply option OPT (ARG its argument, or NULL).  The last of -f, -i, -I
   and --interactive wins, as in rm: one that asks cancels -f entirely,
   missing operands included.  */
static void
apply_option (int opt, const char *arg)
{
  switch (opt)
    {
    case OPT_FORCE:
      force = true;
      ask_when = ASK_NEVER;
      ask_once = false;
      break;
    case OPT_ASK_ALWAYS:
      force = false;
      ask_when = ASK_ALWAYS;
      ask_once = false;
      break;
    case OPT_ASK_ONCE:
      force = false;
      ask_when = ASK_PROTECTED;
      ask_once = true;
      break;
    case OPT_INTERACTIVE:
      set_interactive (arg);
      break;
    case OPT_PRESERVE_ROOT:
      if (arg && *arg && strcmp (arg, "all") != 0)
        cli_usage_error ("unrecognized --preserve-root argument: %s",
                         quote_file (arg));
      preserve_root = true;
      preserve_all_root = arg && *arg;
      break;
    case OPT_NO_PRESERVE_ROOT:
      preserve_root = preserve_all_root = false;
      break;
    }
}

/* -I: one question for all the operands (N of them), asked when they
   are removed recursively (always, but with -d alone) or when there are
   more than three, as rm asks; none for no operand (-f).  */
static bool
confirm_all (size_t n)
{
  bool recursing = recursive || !dir_only;
  if (!ask_once || dry_run || n == 0 || (!recursing && n <= 3))
    return true;
  fprintf (stderr, "%s: remove %zu argument%s%s? ", program_name, n,
           n == 1 ? "" : "s", recursing ? " recursively" : "");
  fflush (stderr);
  return yesno ();
}

/* The command line, for hint_dash_files.  */
static char **command_line;

/* After an unknown option: the first word beginning with '-' that names
   an existing file may have been meant as that file, as rm hints.  */
static void
hint_dash_files (void)
{
  struct stat st;
  for (char **word = command_line + 1; *word; word++)
    if ((*word)[0] == '-' && (*word)[1]
        && sys_fstatat (AT_FDCWD, *word, &st, AT_SYMLINK_NOFOLLOW) == 0)
      {
        fprintf (stderr, "Try '%s ./%s' to remove the file %s.\n",
                 program_name,
                 quotearg_n_style (1, shell_escape_quoting_style, *word),
                 quote_file (*word));
        return;
      }
}

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  command_line = argv;
  cli_on_bad_option (hint_dash_files);
  /* As rm: --interactive and --preserve-root take their argument only
     after '='.  */
  poptContext ctx = cli_context_flags (argc, argv, options,
                                       "[OPTION]... PATH...",
                                       CLI_OPTIONAL_AFTER_EQUALS);
  int opt;
  while ((opt = cli_next_option (ctx)) >= 0)
    {
      char *arg = poptGetOptArg (ctx);
      apply_option (opt, arg);
      free (arg);
    }
  /* As rm: the override of the failsafe is written out, never reached
     by a slip of the fingers.  */
  if (cli_abbreviated ("no-preserve-root"))
    cli_usage_error ("you may not abbreviate the --no-preserve-root option");
  const char **args = poptGetArgs (ctx);
  if (!args && !force)
    cli_usage_error ("missing operand");
  size_t n_args = 0;
  while (args && args[n_args])
    n_args++;
  stdin_tty = isatty (STDIN_FILENO);
  if (!confirm_all (n_args))
    {
      poptFreeContext (ctx);
      return EXIT_SUCCESS;
    }

  if (preserve_root)
    root_st_ok = sys_fstatat (AT_FDCWD, "/", &root_st, 0) == 0;
  progress_start (&bar, cli_progress > 0);
  if (cli_progress < 0)
    cli_progress = bar.tty && !verbose && !dry_run;

  for (; args && *args; args++)
    remove_operand (*args);

  if (progress_finish (&bar))
    progress_line (true);
  free (dirs);
  poptFreeContext (ctx);
  return cli_status;
}
