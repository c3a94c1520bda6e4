/* remove/remover.c -- the removal of an operand; see remove/remover.h.

   The visitor answers each of the walker's visits: a directory before
   its entries (enter_dir: the operand's refusals, -d, -i's question),
   every other entry (remove_file), a directory after its entries
   (remove_dir), another file system (-x), and the failures (failed).  */

#include <config.h>

#include "remove/remover.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/common.h"
#include "remove/ask.h"
#include "remove/guard.h"
#include "remove/unlinker.h"
#include "sys/calls.h"
#include "walk/walker.h"
#include "xalloc.h"

/* A directory removal does not read the directory forever: once read
   again (entries can be missed while others are removed), a directory
   still not empty is reported.  Another process that keeps creating
   entries in it cannot hold the removal.  */
enum { RESCANS_MAX = 1 };

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
          if (!remove_dot_or_dotdot (de->d_name))
            ret = 0;
          off += de->d_reclen;
        }
    }
  sys_close (dfd);
  return ret;
}

/* Whether the operand, written with a trailing slash, is not a directory
   itself (a symbolic link, or a file).  */
static bool
top_not_dir (const struct removal *r)
{
  struct stat st;
  return sys_fstatat (r->top.dirfd, r->top.base, &st,
                      AT_SYMLINK_NOFOLLOW) == 0
         && !S_ISDIR (st.st_mode);
}

/* unlinkat, EINTR retried: on a network or FUSE file system a signal
   can interrupt the call, which then removed nothing.  */
static int
unlink_retry (int dirfd, const char *name, int flags)
{
  return SYS_RETRY_EINTR (sys_unlinkat (dirfd, name, flags));
}

static void
report_unlinked (const char *name, int err, void *arg)
{
  remove_report_name (arg, name, err);
}

/* Wait for the files of the directory E handed to the unlinker, count
   them, and report those it could not remove.  Return how many those
   are: then E cannot be empty, and is left, its ancestors quietly.  */
static size_t
await_files (struct removal *r, struct walk *w, const struct walk_entry *e)
{
  struct remove_dir *ds = removal_dir (r, e->depth);
  if (!ds->queued)
    return 0;
  ds->queued = false;
  unlinker_wait (r->unlinker, ds->ticket);
  removal_count_unlinked (r);
  return unlinker_failures (r->unlinker, ds->key, report_unlinked, w);
}

/* The walk closes FD before its post-order visit: what was queued in it
   must be done first.  */
static void
await_all (int fd _GL_UNUSED, void *arg)
{
  struct removal *r = arg;
  if (r->unlinker)
    unlinker_wait (r->unlinker, UINT64_MAX);
}

/* Hand the file E to the unlinker: counted, or reported, when its
   directory's post-order visit waits for it (await_files).  */
static int
queue_file (struct removal *r, const struct walk_entry *e)
{
  struct remove_dir *ds = removal_dir (r, e->depth - 1);
  ds->queued = true;
  ds->ticket = unlinker_add (r->unlinker, e->dirfd, e->name, ds->key);
  /* The progress line moves in a wide directory too.  */
  if (r->progress && (ds->ticket & 1023) == 1023)
    removal_count_unlinked (r);
  return WALK_REMOVED;
}

static int
remove_dir (struct removal *r, struct walk *w, const struct walk_entry *e)
{
  const struct remove_options *o = r->o;
  if (o->dry_run)
    {
      /* LINK/: the real run empties the directory, then fails to remove
         LINK/ (ENOTDIR): say that.  */
      if (e->depth == 0 && r->top.slash && top_not_dir (r))
        {
          if (!o->force)
            remove_report (w, ENOTDIR);
          return WALK_CONTINUE;
        }
      removal_say (r, w, true);
      return WALK_CONTINUE;
    }
  size_t failed = await_files (r, w, e);
  struct remove_dir *ds = removal_dir (r, e->depth);
  ds->failed |= failed > 0;
  /* It stays: its end not read yet, it is still read to the end, as rm
     removes every entry it can.  */
  if (ds->failed)
    return e->unread ? WALK_RESCAN : WALK_CONTINUE;
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
  if (!ds->asked && remove_must_ask (o, e, false, &protected))
    {
      if (!remove_ask (r, w, "remove", protected, "directory"))
        return removal_keep (r, e);
      ds->asked = true;
    }
  int ret = unlink_retry (e->dirfd, e->name, AT_REMOVEDIR);
  if (ret == 0 || ret == -ENOENT)
    {
      if (ret == 0)
        {
          removal_say (r, w, true);
          removal_count (r);
        }
      return WALK_REMOVED;
    }
  /* Its end was not read, or entries may have been missed while others
     were removed: read on, or read it again.  */
  if ((ret == -ENOTEMPTY || ret == -EEXIST) && (e->unread || again))
    return WALK_RESCAN;
  /* LINK/ was emptied, and the link is not a directory: the link stays.
     -f takes ENOTDIR for a missing operand, as rm -f does.  */
  if (!(e->depth == 0 && o->force && ret == -ENOTDIR))
    remove_report (w, -ret);
  ds->failed = true;
  return e->unread ? WALK_RESCAN : WALK_CONTINUE;
}

static int
remove_file (struct removal *r, struct walk *w, const struct walk_entry *e)
{
  if (r->o->dry_run)
    {
      removal_say (r, w, false);
      return WALK_CONTINUE;
    }
  bool protected;
  if (remove_must_ask (r->o, e, e->type == WALK_LNK, &protected))
    {
      int answer = remove_ask_entry (r, w, e, protected);
      if (answer <= 0)
        return answer == 0 ? removal_keep (r, e) : WALK_CONTINUE;
    }
  if (e->depth > 0 && removal_unlinker (r))
    return queue_file (r, e);
  int ret = unlink_retry (e->dirfd, e->name, 0);
  if (ret == 0 || ret == -ENOENT)
    {
      if (ret == 0)
        {
          removal_say (r, w, false);
          removal_count (r);
        }
      return WALK_REMOVED;
    }
  remove_report (w, -ret);
  return WALK_CONTINUE;
}

/* E, a directory that cannot be opened (EACCES, EPERM): removed if it
   is empty.  Asked about, it is tried only with -d, which is for empty
   directories; with -r alone, rm reports it unasked.  Return what the
   walker is told, or -1 for E's error to be reported.  */
static int
remove_inaccessible (struct removal *r, struct walk *w,
                     const struct walk_entry *e)
{
  bool protected;
  if (remove_must_ask (r->o, e, false, &protected))
    {
      if (!r->o->dir)
        return -1;
      if (!remove_ask (r, w, "attempt removal of", false,
                       "inaccessible directory"))
        return removal_keep (r, e);
    }
  if (unlink_retry (e->dirfd, e->name, AT_REMOVEDIR) < 0)
    return -1;
  removal_say (r, w, true);
  removal_count (r);
  return WALK_REMOVED;
}

static int
failed (struct removal *r, struct walk *w, const struct walk_entry *e)
{
  const struct remove_options *o = r->o;
  int err = e->err;
  /* NAME/ could not be resolved, and NAME is there but is no directory:
     a dangling link, a link to a file or a loop, a file.  That is
     ENOTDIR, whatever the resolution said (ENOENT, ELOOP...), as the
     kernel says for unlinkat of NAME/ and rm reports.  */
  if (e->depth == 0 && r->top.slash && !e->is_dir && err != ENOTDIR
      && top_not_dir (r))
    err = ENOTDIR;
  /* -f: a missing operand is fine.  */
  if (e->depth == 0 && o->force && (err == ENOENT || err == ENOTDIR))
    return WALK_CONTINUE;
  /* A directory that cannot be opened may still be empty, and
     removable.  (dirfd is -1 when the parent is not known.)  */
  if (e->is_dir && e->fd < 0 && e->dirfd != -1 && !o->dry_run
      && (e->err == EACCES || e->err == EPERM))
    {
      int ret = remove_inaccessible (r, w, e);
      if (ret >= 0)
        return ret;
    }
  remove_report (w, err);
  return WALK_CONTINUE;
}

/* The directory operand E, with -d and without -r: removed if it is
   empty, as rm -d does, never entered.  */
static int
remove_empty_operand (struct removal *r, struct walk *w,
                      const struct walk_entry *e)
{
  bool protected;
  bool asking = remove_must_ask (r->o, e, false, &protected);
  if (asking || r->o->dry_run)
    {
      int empty = dir_empty (e->fd);
      if (empty <= 0)
        {
          remove_report (w, empty < 0 ? -empty : ENOTEMPTY);
          return WALK_SKIP;
        }
    }
  if (asking && !remove_ask (r, w, "remove", protected, "directory"))
    return WALK_SKIP;
  if (r->o->dry_run)
    {
      removal_say (r, w, true);
      return WALK_SKIP;
    }
  int ret = unlink_retry (e->dirfd, e->name, AT_REMOVEDIR);
  if (ret < 0)
    remove_report (w, -ret);
  else
    {
      removal_say (r, w, true);
      removal_count (r);
    }
  return WALK_SKIP;
}

/* Directory E, before its entries: whether to enter it.  -i asks first:
   whether to remove it if it is empty (then not again after), whether
   to enter it otherwise.  */
static int
enter_dir (struct removal *r, struct walk *w, const struct walk_entry *e)
{
  if (e->depth == 0)
    {
      if (!remove_operand_allowed (r, w, e))
        return WALK_SKIP;
      if (r->o->dir && !r->o->recursive)
        return remove_empty_operand (r, w, e);
      r->top.dev = e->st->st_dev;
      if (r->silent)
        walk_on_closing (w, await_all, r);
    }
  struct remove_dir *ds = removal_dir (r, e->depth);
  *ds = (struct remove_dir) { .key = r->next_key++ };
  removal_reserve_fds (r, e->depth);
  bool protected;
  if (!remove_must_ask (r->o, e, false, &protected))
    return WALK_CONTINUE;
  bool empty = dir_empty (e->fd) == 1;
  if (empty ? remove_ask (r, w, "remove", protected, "directory")
            : remove_ask (r, w, "descend into", protected, "directory"))
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
  struct removal *r = arg;
  switch (e->type)
    {
    case WALK_DIR:
      return enter_dir (r, w, e);
    case WALK_DIR_POST:
      return remove_dir (r, w, e);
    case WALK_MOUNT:
      {
        /* GNU rm's words for another device; rmtree also skips a mount
           point of the same device (a bind mount), and says so.  */
        const char *path = walk_path (w);
        cli_fail_file (path, 0, "skipping %s, since it's %s",
                       quote_file (path),
                       e->st->st_dev != r->top.dev ? "on a different device"
                                                   : "a mount point");
        return WALK_CONTINUE;
      }
    case WALK_ERR:
      return failed (r, w, e);
    default:
      return remove_file (r, w, e);
    }
}

/* The walk starts from ARG's parent directory, opened once: from there
   on, every name is one component relative to a descriptor.

   A trailing slash is kept on the last component (NAME/): the walk's
   stat and openat then resolve it, following a symbolic link to a
   directory, for this one component only (O_NOFOLLOW does not apply to
   a name ending in a slash), and the final unlinkat of NAME/ fails with
   ENOTDIR for the link: the directory is emptied, the link kept, as
   POSIX and rm have it.  Everything below is walked as usual, never
   following a link.  */
void
remove_operand (struct removal *r, const char *arg)
{
  const struct remove_options *o = r->o;
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
  if (remove_dot_or_dotdot (base))
    {
      cli_fail_file (display, 0,
                     "refusing to remove '.' or '..' directory: skipping %s",
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
          if (!(o->force && (dirfd == -ENOENT || dirfd == -ENOTDIR)))
            cli_fail_file (display, -dirfd, "cannot remove %s",
                           quote_file (display));
          goto out;
        }
    }

  /* "/" itself has no trailing slash to keep.  */
  r->top.slash = len < shown && strcmp (path, "/") != 0;
  r->top.dirfd = dirfd;
  r->top.base = base;
  r->top.dev = 0;
  size_t blen = strlen (base);
  char *name = xmalloc (blen + 2);
  memcpy (name, base, blen);
  name[blen] = '/';
  name[blen + r->top.slash] = '\0';
  int flags = (o->dry_run ? 0 : WALK_REMOVING)
              | (o->one_file_system ? WALK_ONE_FS : 0)
              | (r->silent ? WALK_EARLY_END : 0);
  walk_at_fds (dirfd, name, flags, r->max_fds, display, visit, r);
  free (name);
  if (dirfd >= 0)
    sys_close (dirfd);
out:
  free (path);
  free (display);
}
