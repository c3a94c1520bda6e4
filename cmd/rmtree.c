/* rmtree -- remove directory trees with openat, getdents64 and unlinkat,
   without following a symbolic link and without a PATH_MAX limit.

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

#include "cli.h"
#include "error.h"
#include "human.h"
#include "progname.h"
#include "progress.h"
#include "sys.h"
#include "walk.h"
#include "xalloc.h"

static int force;
static int verbose;
static int one_fs;
static int dry_run;
static int preserve_root = true;

static struct poptOption tool_options[] = {
  { "force", 'f', POPT_ARG_NONE, &force, 0,
    "ignore missing operands (and LINK/ left in place), never fail for "
    "them", NULL },
  { "verbose", 'v', POPT_ARG_NONE, &verbose, 0,
    "list each file and directory as it is removed", NULL },
  { "one-file-system", 'x', POPT_ARG_NONE, &one_fs, 0,
    "do not enter other file systems or mount points: report and skip them",
    NULL },
  { "dry-run", 'n', POPT_ARG_NONE, &dry_run, 0,
    "remove nothing; list what would be removed", NULL },
  { "preserve-root", '\0', POPT_ARG_VAL, &preserve_root, true,
    "refuse to remove '/' (the default)", NULL },
  { "no-preserve-root", '\0', POPT_ARG_VAL, &preserve_root, false,
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
    "to, and keeps LINK.  The progress line counts the entries removed, "
    "and their rate.\n\n"
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
  /* Something below was left and reported: leave the ancestors quietly,
     once the directory was read without removing anything (reading while
     removing can skip entries on some file systems).  */
  if (e->kept)
    return e->complete ? WALK_CONTINUE : WALK_RESCAN;
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
  if ((ret == -ENOTEMPTY || ret == -EEXIST) && !e->complete)
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

static int
visit (struct walk *w, const struct walk_entry *e, void *arg)
{
  (void) arg;
  switch (e->type)
    {
    case WALK_DIR:
      if (e->depth == 0 && preserve_root && is_root (e->st))
        {
          const char *path = walk_path (w);
          error (0, 0, "it is dangerous to operate recursively on %s%s",
                 quote_file (path),
                 strcmp (path, "/") == 0 ? "" : " (same as '/')");
          cli_fail (0, "use --no-preserve-root to override this failsafe");
          return WALK_SKIP;
        }
      if (e->depth == 0)
        top.dev = e->st->st_dev;
      return WALK_CONTINUE;
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

static bool
dot_or_dotdot (const char *name)
{
  return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
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

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  poptContext ctx = cli_context (argc, argv, options, "[OPTION]... PATH...");
  while (cli_next_option (ctx) >= 0)
    continue;
  /* As rm: the override of the failsafe is written out, never reached
     by a slip of the fingers.  */
  if (cli_abbreviated ("no-preserve-root"))
    cli_usage_error ("you may not abbreviate the --no-preserve-root option");
  const char **args = poptGetArgs (ctx);
  if (!args && !force)
    cli_usage_error ("missing operand");

  if (preserve_root)
    root_st_ok = sys_fstatat (AT_FDCWD, "/", &root_st, 0) == 0;
  progress_start (&bar, cli_progress > 0);
  if (cli_progress < 0)
    cli_progress = bar.tty && !verbose && !dry_run;

  for (; args && *args; args++)
    remove_operand (*args);

  if (progress_finish (&bar))
    progress_line (true);
  poptFreeContext (ctx);
  return cli_status;
}
