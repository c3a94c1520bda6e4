/* wait/pathwatch.c -- wait for a path to exist, to be gone, or for its file to
   be closed after writing; see wait/pathwatch.h.

   Each resolution walks the path from its first directory ("/" or "."):
   the directory is watched first, then the next component is looked up in
   it with a statx that does not follow a link.  A directory is entered by
   extending the directory's path; a symbolic link on the way (or at the
   end, to follow it) has its target spliced in front of what remains of
   the path.  The resolution stops at the first missing component or at
   the end.  After it, the watches of directories no longer on the way are
   removed.  Every event that concerns the way (a directory's own removal
   or move, or an entry of the name looked up in it) starts a new
   resolution; the kernel gives the same watch descriptor to the same
   directory, so a watch that stays on the way is kept as it is.

   For PATHWATCH_CLOSED, the file at the end is watched too, for
   IN_CLOSE_WRITE: a close of any descriptor open for writing on it,
   whichever name opened it.  A file that was not there at the start but
   is found by a resolution (created, renamed or linked into place, or
   brought by a directory moved in) may have been written and closed
   before its watch was in place: it counts at once unless someone still
   has it open for writing, which a read lease tells (F_SETLEASE refuses a
   read lease with EAGAIN while the file is open for writing).  A file
   created by open(O_CREAT) is in its directory a moment before its opener
   counts as a writer; a lease taken in that moment, which the events of
   the creation must first wake the waiter for, would let the file count
   early.  A file linked into place (O_TMPFILE and linkat, as xcp makes
   it) has no close to wait for under its name: the lease is what tells
   when it is complete.  */

#include <config.h>

#include "wait/pathwatch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sys/calls.h"
#include "xalloc.h"

/* What a directory on the way is watched for: its own end, and a change
   of its entries.  IN_DONT_FOLLOW and IN_ONLYDIR: the resolution made
   the path lead to a directory without a link; if it no longer does, the
   watch fails rather than land elsewhere.  */
#define DIR_EVENTS (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO \
                    | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR \
                    | IN_DONT_FOLLOW)

/* For PATHWATCH_CLOSED, the last directory sees the closes of its
   entries too, by name: a file created, written and closed before the
   walk has watched it is seen all the same.  */
#define DIR_CLOSED_EVENTS (DIR_EVENTS | IN_CLOSE_WRITE)

/* What the file of a PATHWATCH_CLOSED is watched for.  */
#define FILE_EVENTS (IN_CLOSE_WRITE | IN_DONT_FOLLOW)

/* The most symbolic links a resolution follows, as the kernel's
   (MAXSYMLINKS): beyond, the path is taken to lead nowhere (ELOOP).  */
#define MAX_LINKS 40

/* A directory on the way, and the name looked up in it.  */
struct step
{
  int wd;
  char *name;
};

struct pathwatch
{
  int fd;
  enum pathwatch_event event;
  bool follow;
  char *path;            /* as given */
  struct step *steps;    /* the last resolution's way */
  size_t n_steps;
  size_t steps_alloc;
  ssize_t final_step;    /* the step of the last component, or -1 */
  bool exists;           /* the last resolution reached the end */
  bool resolved_once;
  /* PATHWATCH_CLOSED: when the waiter started, at the granularity of
     file times; a file changed since then is no older than the wait.  */
  bool since_set;
  struct timespec since;
  /* PATHWATCH_CLOSED: the file found at the end, and its watch.  */
  int file_wd;
  bool file_known;
  dev_t file_dev;
  ino_t file_ino;
  struct statx_timestamp file_mtime;
  uint64_t file_size;
  /* What the events read before a walk said about the file: created in
     its directory while watched; events lost (IN_Q_OVERFLOW).  */
  bool created;
  bool overflow;
  bool ready;
  char *failed;          /* the path of the last failure */
};

/* A growable string.  */
struct str
{
  char *s;
  size_t len;
  size_t alloc;
};

static void
str_set (struct str *b, const char *s, size_t len)
{
  if (len + 1 > b->alloc)
    {
      b->alloc = len + 1 > 2 * b->alloc ? len + 1 : 2 * b->alloc;
      b->s = xrealloc (b->s, b->alloc);
    }
  memcpy (b->s, s, len);
  b->s[len] = '\0';
  b->len = len;
}

static void
str_append (struct str *b, const char *s, size_t len)
{
  if (b->len + len + 1 > b->alloc)
    {
      size_t want = b->len + len + 1;
      b->alloc = want > 2 * b->alloc ? want : 2 * b->alloc;
      b->s = xrealloc (b->s, b->alloc);
    }
  memcpy (b->s + b->len, s, len);
  b->len += len;
  b->s[b->len] = '\0';
}

/* DIR/NAME into *B: the path of an entry of DIR.  */
static void
str_child (struct str *b, const char *dir, const char *name)
{
  size_t dlen = strlen (dir);
  str_set (b, dir, dlen);
  if (dlen == 0 || dir[dlen - 1] != '/')
    str_append (b, "/", 1);
  str_append (b, name, strlen (name));
}

static void
set_failed (struct pathwatch *pw, const char *path)
{
  free (pw->failed);
  pw->failed = xstrdup (path);
}

static void
add_step (struct pathwatch *pw, int wd, const char *name, size_t len)
{
  if (pw->n_steps == pw->steps_alloc)
    pw->steps = x2nrealloc (pw->steps, &pw->steps_alloc, sizeof *pw->steps);
  pw->steps[pw->n_steps++] = (struct step) { wd, ximemdup0 (name, len) };
}

static bool
uses_wd (const struct step *steps, size_t n, int wd)
{
  for (size_t i = 0; i < n; i++)
    if (steps[i].wd == wd)
      return true;
  return false;
}

/* Remove the watches of OLD that the new way does not use.  A watch the
   kernel already dropped (its directory removed) answers EINVAL.  */
static void
drop_old_watches (struct pathwatch *pw, struct step *old, size_t n_old)
{
  for (size_t i = 0; i < n_old; i++)
    {
      if (!uses_wd (pw->steps, pw->n_steps, old[i].wd)
          && !uses_wd (old, i, old[i].wd) && old[i].wd != pw->file_wd)
        sys_inotify_rm_watch (pw->fd, old[i].wd);
      free (old[i].name);
    }
  free (old);
}

/* Whether someone has the regular file PATH open for writing: 1 yes, 0
   no, -errno where a read lease cannot tell (refused, or the file could
   not be opened).  The lease is given back at once.  A writer that opens
   the file while the lease is held breaks it, and the kernel signals the
   holder: with SIGURG, whose default action is to ignore it, rather than
   SIGIO's, which would end the process.  */
static int
open_for_writing (const char *path)
{
  int fd = sys_openat (AT_FDCWD, path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW
                       | O_NOCTTY | O_CLOEXEC, 0);
  if (fd < 0)
    return fd;
  int ret = sys_fcntl (fd, F_SETSIG, SIGURG);
  if (ret == 0)
    ret = sys_fcntl (fd, F_SETLEASE, F_RDLCK);
  if (ret == 0)
    sys_fcntl (fd, F_SETLEASE, F_UNLCK);
  sys_close (fd);
  return ret == 0 ? 0 : ret == -EAGAIN ? 1 : ret;
}

/* Whether the file time T is before SINCE.  */
static bool
older (const struct statx_timestamp *t, const struct timespec *since)
{
  return (t->tv_sec < since->tv_sec
          || (t->tv_sec == since->tv_sec
              && (long) t->tv_nsec < since->tv_nsec));
}

/* The file of a PATHWATCH_CLOSED found at FINAL by a resolution, of
   status STX: watch it for closes.  If it is not the file the last
   resolution found (nor the one there at the start, which waits for its
   next close), or if events were lost and it changed, see whether it is
   already complete: no one has it open for writing.  Where a lease
   cannot tell, a file created in its directory while the directory was
   watched waits for its close, which the directory reports by name; any
   other (renamed or linked into place, or brought by a directory moved
   in) counts at once.  */
static int
check_final_file (struct pathwatch *pw, const char *final,
                  const struct statx *stx)
{
  dev_t dev = makedev (stx->stx_dev_major, stx->stx_dev_minor);
  bool same = (pw->file_known && pw->file_dev == dev
               && pw->file_ino == stx->stx_ino);
  bool changed = (!same || stx->stx_size != pw->file_size
                  || stx->stx_mtime.tv_sec != pw->file_mtime.tv_sec
                  || stx->stx_mtime.tv_nsec != pw->file_mtime.tv_nsec);
  bool check = pw->resolved_once && (!same || (pw->overflow && changed));
  /* At the first walk, a file written since the waiter started may have
     been closed before the watch: it counts if no one still writes.  */
  bool fresh = (!pw->resolved_once && pw->since_set
                && (!older (&stx->stx_mtime, &pw->since)
                    || !older (&stx->stx_ctime, &pw->since)));
  if (S_ISDIR (stx->stx_mode))
    ;     /* never written, never closed after writing */
  else if (!S_ISREG (stx->stx_mode))
    {
      /* Nothing to watch for a close; a new one counts at once.  */
      if (check)
        pw->ready = true;
    }
  else
    {
      int wd = sys_inotify_add_watch (pw->fd, final, FILE_EVENTS);
      if (wd == -ENOENT || wd == -ENOTDIR || wd == -ELOOP)
        return 0;     /* gone again: its directory's watch says so */
      if (wd < 0)
        {
          set_failed (pw, final);
          return wd;
        }
      if (pw->file_wd >= 0 && pw->file_wd != wd
          && !uses_wd (pw->steps, pw->n_steps, pw->file_wd))
        sys_inotify_rm_watch (pw->fd, pw->file_wd);
      pw->file_wd = wd;
      int writing = check || fresh ? open_for_writing (final) : 1;
      /* Gone again: its directory's watch says so.  */
      bool gone = (writing == -ENOENT || writing == -ENOTDIR
                   || writing == -ELOOP);
      if (writing == 0
          || (check && writing < 0 && !gone && !pw->created))
        pw->ready = true;
    }
  pw->file_known = true;
  pw->file_dev = dev;
  pw->file_ino = stx->stx_ino;
  pw->file_mtime = stx->stx_mtime;
  pw->file_size = stx->stx_size;
  return 0;
}

/* A resolution under way: where the walk is on the path, and what it
   found at its end.  */
struct resolution
{
  struct str dir;        /* the directory reached, watched next */
  struct str child;      /* the entry looked up in it */
  struct str rest;       /* what remains of the path */
  struct str link;       /* a link's target, what remains after it */
  const char *p;         /* the next component, in rest */
  bool want_dir;         /* "PATH/": the end must be a directory */
  int links;             /* links followed since the walk (re)started */
  int restarts;
  /* The steps of a walk started again, whose watches go if unused.  */
  struct step *dropped;
  size_t n_dropped;
  size_t dropped_alloc;
  bool found_file;       /* the walk reached the end: stx is its status */
  struct statx stx;
};

/* The walk at the path's first directory ("/" or "."), all of the path
   before it.  */
static void
walk_from_start (struct pathwatch *pw, struct resolution *r)
{
  str_set (&r->dir, pw->path[0] == '/' ? "/" : ".", 1);
  str_set (&r->rest, pw->path, strlen (pw->path));
  r->p = r->rest.s;
  r->links = 0;
}

/* Walk again from the start: the way changed under the walk.  Its steps
   so far are dropped, their watches removed after the walk unless it
   uses them again.  Return 1: the walk goes on.  */
static int
walk_again (struct pathwatch *pw, struct resolution *r)
{
  for (size_t i = 0; i < pw->n_steps; i++)
    {
      if (r->n_dropped == r->dropped_alloc)
        r->dropped = x2nrealloc (r->dropped, &r->dropped_alloc,
                                 sizeof *r->dropped);
      r->dropped[r->n_dropped++] = pw->steps[i];
    }
  pw->n_steps = 0;
  pw->final_step = -1;
  walk_from_start (pw, r);
  return 1;
}

/* The next component at *P, "." ones skipped, into *LEN; *P is moved
   past it and the slashes after it.  */
static const char *
next_component (const char **p, size_t *len)
{
  const char *name;
  do
    {
      while (**p == '/')
        (*p)++;
      name = *p;
      while (**p && **p != '/')
        (*p)++;
      *len = *p - name;
    }
  while (*len == 1 && name[0] == '.');
  while (**p == '/')
    (*p)++;
  return name;
}

/* Follow the symbolic link at R's child: its target spliced in front of
   what remains of the path.  Return 1 to go on, 0 where the walk ends
   (too many links: ELOOP), or -errno.  */
static int
follow_link (struct pathwatch *pw, struct resolution *r)
{
  if (++r->links > MAX_LINKS)
    return 0;
  char target[PATH_MAX];
  ssize_t n = sys_readlinkat (AT_FDCWD, r->child.s, target, sizeof target);
  /* Replaced since its statx, perhaps by a directory through which the
     path leads: walk again.  */
  if ((n == -ENOENT || n == -EINVAL) && ++r->restarts <= MAX_LINKS)
    return walk_again (pw, r);
  if (n == -ENOENT || n == -EINVAL)
    return 0;
  if (n < 0 || (size_t) n >= sizeof target)
    {
      set_failed (pw, r->child.s);
      return n < 0 ? (int) n : -ENAMETOOLONG;
    }
  /* The link's target, then what remains after the link.  */
  str_set (&r->link, target, n);
  str_append (&r->link, "/", 1);
  str_append (&r->link, r->p, strlen (r->p));
  str_set (&r->rest, r->link.s, r->link.len);
  r->p = r->rest.s;
  if (target[0] == '/')
    str_set (&r->dir, "/", 1);
  return 1;
}

/* One step of the walk: watch the directory reached, then look the next
   component up in it, and go into it, or through it if a link.  Return 1
   to go on, 0 where the walk ends (at the end of the path, or at a
   component missing or not a directory), or -errno.  */
static int
walk_step (struct pathwatch *pw, struct resolution *r)
{
  size_t len;
  const char *name = next_component (&r->p, &len);
  bool last = !*r->p;
  /* Only the last directory is told of its entries' closes.  */
  uint32_t mask = (last && len && pw->event == PATHWATCH_CLOSED
                   ? DIR_CLOSED_EVENTS : DIR_EVENTS);
  int wd = sys_inotify_add_watch (pw->fd, r->dir.s, mask);
  /* ENOENT: the directory was removed since it was looked up; the path
     did not exist at that moment.  ENOTDIR: it was replaced by something
     else, perhaps a link to a directory through which the path still
     leads: walk again, from the start.  */
  if (wd == -ENOTDIR && ++r->restarts <= MAX_LINKS)
    return walk_again (pw, r);
  if (wd == -ENOENT || wd == -ENOTDIR)
    return 0;
  if (wd < 0)
    {
      set_failed (pw, r->dir.s);
      return wd;
    }
  if (len == 0)
    {
      /* The path ends at a directory ("/", ".", "a/"): it exists.  Its
         watch is a step too, of no name: only its own end concerns the
         way.  */
      add_step (pw, wd, "", 0);
      pw->exists = true;
      return 0;
    }
  add_step (pw, wd, name, len);
  if (last)
    pw->final_step = pw->n_steps - 1;
  str_child (&r->child, r->dir.s, pw->steps[pw->n_steps - 1].name);
  int ret = sys_statx (AT_FDCWD, r->child.s, AT_SYMLINK_NOFOLLOW,
                       (STATX_TYPE | STATX_INO | STATX_SIZE | STATX_MTIME
                        | STATX_CTIME),
                       &r->stx);
  if (ret == -ENOENT || ret == -ENOTDIR)
    return 0;
  if (ret < 0)
    {
      set_failed (pw, r->child.s);
      return ret;
    }
  if (S_ISLNK (r->stx.stx_mode) && (!last || pw->follow || r->want_dir))
    return follow_link (pw, r);
  if (last && r->want_dir && !S_ISDIR (r->stx.stx_mode))
    return 0;             /* ENOTDIR */
  if (last)
    {
      pw->exists = true;
      r->found_file = true;
      return 0;
    }
  if (!S_ISDIR (r->stx.stx_mode))
    return 0;             /* ENOTDIR: the path leads nowhere */
  str_set (&r->dir, r->child.s, r->child.len);
  return 1;
}

/* What the walk R, which ended with RET (0 or -errno), says of the event:
   the file at the end checked or forgotten, the watch ready or not.
   Return RET, or the file's check's failure.  */
static int
judge_walk (struct pathwatch *pw, const struct resolution *r, int ret)
{
  if (ret == 0 && pw->event == PATHWATCH_CLOSED && r->found_file)
    ret = check_final_file (pw, r->child.s, &r->stx);
  else if (pw->event == PATHWATCH_CLOSED && !r->found_file)
    {
      /* A file moved away must not count by a close elsewhere.  */
      if (pw->file_wd >= 0 && !uses_wd (pw->steps, pw->n_steps, pw->file_wd))
        sys_inotify_rm_watch (pw->fd, pw->file_wd);
      pw->file_wd = -1;
      pw->file_known = false;
    }
  pw->resolved_once = true;
  pw->created = pw->overflow = false;
  if (pw->event == PATHWATCH_EXISTS && pw->exists)
    pw->ready = true;
  if (pw->event == PATHWATCH_GONE && !pw->exists && ret == 0)
    pw->ready = true;
  return ret;
}

/* Walk the path again, as the file comment says.  Return 0 or -errno.  */
static int
resolve (struct pathwatch *pw)
{
  struct step *old = pw->steps;
  size_t n_old = pw->n_steps;
  pw->steps = NULL;
  pw->n_steps = pw->steps_alloc = 0;
  pw->final_step = -1;
  pw->exists = false;
  /* "PATH/" names a directory, through a link at its end, as for lstat.  */
  struct resolution r = { .want_dir = pw->path[strlen (pw->path) - 1] == '/' };
  walk_from_start (pw, &r);
  int ret;
  while ((ret = walk_step (pw, &r)) > 0)
    continue;
  drop_old_watches (pw, old, n_old);
  drop_old_watches (pw, r.dropped, r.n_dropped);
  ret = judge_walk (pw, &r, ret);
  free (r.dir.s);
  free (r.child.s);
  free (r.rest.s);
  free (r.link.s);
  return ret;
}

int
pathwatch_start (const char *path, enum pathwatch_event event, bool follow,
                 const struct timespec *since, struct pathwatch **pwp)
{
  struct pathwatch *pw = xzalloc (sizeof *pw);
  *pwp = pw;
  pw->event = event;
  pw->follow = follow;
  pw->since_set = since != NULL;
  if (since)
    pw->since = *since;
  pw->path = xstrdup (path);
  pw->file_wd = -1;
  pw->fd = sys_inotify_init1 (IN_NONBLOCK | IN_CLOEXEC);
  if (pw->fd < 0)
    {
      set_failed (pw, path);
      return pw->fd;
    }
  if (!*path)
    {
      set_failed (pw, path);
      return -ENOENT;
    }
  return resolve (pw);
}

int
pathwatch_fd (const struct pathwatch *pw)
{
  return pw->fd;
}

bool
pathwatch_ready (const struct pathwatch *pw)
{
  return pw->ready;
}

const char *
pathwatch_failed (const struct pathwatch *pw)
{
  return pw->failed ? pw->failed : pw->path;
}

/* What the events of one read say.  */
struct news
{
  bool again;            /* something changed on the way: walk again */
  bool moved;            /* ... before the event at hand */
  bool moved_above;      /* ... in a directory above the last one */
  bool present;          /* a file at the path, as far as events tell */
  bool closed;           /* the file at the path closed after writing */
  bool late_close;       /* its file closed, after a change of the way */
};

/* What event E says, added to *NEWS: a change of the way is a directory's
   own change, or an entry of the name looked up in it.  For
   PATHWATCH_CLOSED, a close after writing of the path's file, by its own
   watch or by its name in the last directory, ends the wait, unless an
   earlier event of the read may have taken the file (or its directory)
   away from the path: the queue is in order, and the walk that follows
   the read finds what is at the path now.  */
static void
add_news (struct pathwatch *pw, const struct inotify_event *e,
          struct news *news)
{
  if (e->mask & IN_Q_OVERFLOW)
    {
      pw->overflow = true;
      news->again = true;
      return;
    }
  const struct step *last = (pw->final_step >= 0
                             ? &pw->steps[pw->final_step] : NULL);
  bool at_path = (last && e->len && last->wd == e->wd
                  && strcmp (e->name, last->name) == 0);
  if (e->mask & IN_CLOSE_WRITE)
    {
      if (e->wd == pw->file_wd)
        *(news->moved ? &news->late_close : &news->closed) = true;
      else if (at_path && !news->moved_above && news->present)
        news->closed = true;
      return;
    }
  if (at_path && (e->mask & IN_CREATE))
    pw->created = true;
  /* A close by name counts while a file is at the path: the one the last
     walk found, or one created or moved there since.  A file removed
     keeps its descriptors, whose close the directory still reports under
     the name that is no longer there.  */
  if (at_path)
    news->present = (e->mask & (IN_CREATE | IN_MOVED_TO)) != 0;
  bool way = false;
  for (size_t i = 0; i < pw->n_steps; i++)
    if (pw->steps[i].wd == e->wd
        && (!e->len || strcmp (e->name, pw->steps[i].name) == 0))
      way = true;
  /* The file's own watch dropped: it was removed.  */
  if (e->wd == pw->file_wd && (e->mask & IN_IGNORED))
    way = true;
  if (way)
    {
      news->again = news->moved = true;
      if (!at_path)
        news->moved_above = true;
    }
}

int
pathwatch_update (struct pathwatch *pw)
{
  if (pw->ready)
    return 1;
  union
  {
    struct inotify_event e;
    char bytes[4096];
  } buf;
  struct news news = { .present = pw->file_known };
  for (;;)
    {
      ssize_t n = sys_read (pw->fd, buf.bytes, sizeof buf.bytes);
      if (n == -EINTR)
        continue;
      if (n == -EAGAIN)
        break;
      if (n < 0)
        {
          set_failed (pw, pw->path);
          return n;
        }
      for (char *p = buf.bytes; p < buf.bytes + n;)
        {
          struct inotify_event *e = (struct inotify_event *) p;
          add_news (pw, e, &news);
          p += sizeof *e + e->len;
        }
    }
  if (news.closed)
    pw->ready = true;
  if (!pw->ready && news.again)
    {
      bool known = pw->file_known;
      dev_t dev = pw->file_dev;
      ino_t ino = pw->file_ino;
      int ret = resolve (pw);
      if (ret < 0)
        return ret;
      if (news.late_close && known && pw->file_known && pw->file_dev == dev
          && pw->file_ino == ino)
        pw->ready = true;
    }
  return pw->ready;
}

void
pathwatch_free (struct pathwatch *pw)
{
  if (!pw)
    return;
  if (pw->fd >= 0)
    sys_close (pw->fd);
  for (size_t i = 0; i < pw->n_steps; i++)
    free (pw->steps[i].name);
  free (pw->steps);
  free (pw->path);
  free (pw->failed);
  free (pw);
}
