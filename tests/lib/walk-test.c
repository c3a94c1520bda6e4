/* walk-test.c -- the C test driver for lib/walk/walker.c: the order and types
   of the visits, skip and stop, descriptors bounded beyond PATH_MAX, entries
   replaced or moved during the walk, one file system, removal of wide
   directories with and without rescans, the post-order before the end
   is read (WALK_EARLY_END), the closes told (walk_on_closing).

   Every check prints "ok N - what" or "not ok N - what (detail)"; a skip
   prints "ok N - # SKIP why".  The last line is
   "walk-test: N passed, M failed, K skipped"; the exit status is 1 if any
   check failed.  Scratch trees live in mkdtemp directories under /tmp and
   /dev/shm (tmpfs), removed at the end.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "walk/walker.h"

/* gnulib replaces these; the tests want glibc's own.  */
#undef fcntl
#undef open
#undef close

/* ------------------------------------------------------------------ */
/* Reporting: tap.h, under the names this driver has always used.  */

#define TAP_NAME "walk-test"
#include "tap.h"

#define check tap_ok
#define check_int(got, want, what) tap_check_int (got, want, "%s", what)
#define skip tap_skip
#define die tap_die
#define remove_all tap_remove_tree

/* ------------------------------------------------------------------ */
/* Scratch trees: on disk under /tmp, and on a tmpfs under /dev/shm if
   there is one (NULL if not).  */

static const char *scratch_disk, *scratch_shm;

static void
xmkdir (int at, const char *path)
{
  if (mkdirat (at, path, 0755) < 0)
    die (path);
}

static void
xfile (int at, const char *path)
{
  if (mknodat (at, path, S_IFREG | 0644, 0) < 0)
    die (path);
}

static void
xsymlink (const char *target, int at, const char *path)
{
  if (symlinkat (target, at, path) < 0)
    die (path);
}

static int
xopendir (int at, const char *path)
{
  int fd = openat (at, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    die (path);
  return fd;
}

static void
files (int at, const char *dir, const char *prefix, int n)
{
  int fd = xopendir (at, dir);
  char name[64];
  for (int i = 0; i < n; i++)
    {
      snprintf (name, sizeof name, "%s%d", prefix, i);
      xfile (fd, name);
    }
  close (fd);
}

/* A chain DIR/NAME/NAME/... of LEVELS directories below DIR (created),
   FILES files in each.  */
static void
chain (int at, const char *dir, const char *name, int levels, int nfiles)
{
  xmkdir (at, dir);
  int fd = xopendir (at, dir);
  for (int i = 0; i <= levels; i++)
    {
      files (fd, ".", "f", nfiles);
      if (i == levels)
        break;
      xmkdir (fd, name);
      int sub = xopendir (fd, name);
      close (fd);
      fd = sub;
    }
  close (fd);
}

static bool
exists (int at, const char *path)
{
  struct stat st;
  return fstatat (at, path, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static int
open_fds (void)
{
  int n = 0;
  for (int fd = 0; fd < 64; fd++)
    if (fcntl (fd, F_GETFD) >= 0)
      n++;
  return n;
}

/* ------------------------------------------------------------------ */
/* A walk that records its visits.  */

struct rec
{
  enum walk_type type;
  size_t depth;
  char *path;
  int err;
  unsigned long kept;
  bool complete;
  bool has_st;
};

struct run;
typedef int (*hook_fn) (struct walk *w, const struct walk_entry *e,
                        const char *path, struct run *r);

struct run
{
  struct rec *v;
  size_t n, cap;
  bool record;             /* keep the visits in v */
  bool remove;             /* unlink and rmdir, as rmtree does */
  const char *skip_at;     /* return WALK_SKIP at this WALK_DIR */
  const char *stop_at;     /* return WALK_STOP at this path */
  bool count_fds;
  int max_fds;
  bool bad_entry;          /* dirfd/name did not lead to the entry */
  char bad_detail[256];
  int rescans;             /* WALK_RESCAN returned */
  int force_rescans;       /* return WALK_RESCAN this many times at a
                              WALK_DIR_POST of depth 0 */
  hook_fn hook;            /* first say; -1 to go on */
  void *data;
  size_t visits;
};

static void
run_free (struct run *r)
{
  for (size_t i = 0; i < r->n; i++)
    free (r->v[i].path);
  free (r->v);
}

/* Does E's dirfd + name lead to something of E's type?  */
static void
check_entry (const struct walk_entry *e, const char *path, struct run *r)
{
  if (e->type == WALK_ERR || e->dirfd < 0 || r->bad_entry)
    return;
  struct stat st;
  if (fstatat (e->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    {
      if (e->type == WALK_DIR_POST && r->remove)
        return;
      snprintf (r->bad_detail, sizeof r->bad_detail, "%s: %s", path,
                strerror (errno));
      r->bad_entry = true;
      return;
    }
  bool ok;
  switch (e->type)
    {
    case WALK_DIR:
    case WALK_DIR_POST:
    case WALK_MOUNT:
      ok = S_ISDIR (st.st_mode);
      if (ok && e->fd >= 0)
        {
          struct stat fst;
          ok = fstat (e->fd, &fst) == 0 && S_ISDIR (fst.st_mode)
               && (e->st == NULL || fst.st_ino == e->st->st_ino);
        }
      break;
    case WALK_REG: ok = S_ISREG (st.st_mode); break;
    case WALK_LNK: ok = S_ISLNK (st.st_mode); break;
    case WALK_FIFO: ok = S_ISFIFO (st.st_mode); break;
    case WALK_SOCK: ok = S_ISSOCK (st.st_mode); break;
    case WALK_CHR: ok = S_ISCHR (st.st_mode); break;
    case WALK_BLK: ok = S_ISBLK (st.st_mode); break;
    default: ok = true; break;
    }
  if (ok && e->st && !(e->type == WALK_DIR_POST))
    ok = e->st->st_ino == st.st_ino && e->st->st_mode == st.st_mode;
  if (!ok)
    {
      snprintf (r->bad_detail, sizeof r->bad_detail,
                "%s: type %d does not match", path, (int) e->type);
      r->bad_entry = true;
    }
}

static int
remove_like_rmtree (const struct walk_entry *e, struct run *r)
{
  switch (e->type)
    {
    case WALK_DIR:
    case WALK_MOUNT:
    case WALK_ERR:
      return WALK_CONTINUE;
    case WALK_DIR_POST:
      if (e->kept && e->complete)
        return WALK_CONTINUE;
      if (unlinkat (e->dirfd, e->name, AT_REMOVEDIR) == 0 || errno == ENOENT)
        return WALK_REMOVED;
      if ((errno == ENOTEMPTY || errno == EEXIST) && !e->complete)
        {
          r->rescans++;
          return WALK_RESCAN;
        }
      return WALK_CONTINUE;
    default:
      if (unlinkat (e->dirfd, e->name, 0) == 0 || errno == ENOENT)
        return WALK_REMOVED;
      return WALK_CONTINUE;
    }
}

static int
visit (struct walk *w, const struct walk_entry *e, void *arg)
{
  struct run *r = arg;
  const char *path = walk_path (w);
  r->visits++;
  if (r->record)
    {
      if (r->n == r->cap)
        {
          r->cap = r->cap ? 2 * r->cap : 64;
          r->v = realloc (r->v, r->cap * sizeof *r->v);
          if (!r->v)
            die ("realloc");
        }
      r->v[r->n++] = (struct rec) { e->type, e->depth, strdup (path), e->err,
                                    e->kept, e->complete, e->st != NULL };
    }
  if (r->count_fds)
    {
      int n = open_fds ();
      if (n > r->max_fds)
        r->max_fds = n;
    }
  check_entry (e, path, r);
  if (r->hook)
    {
      int a = r->hook (w, e, path, r);
      if (a >= 0)
        return a;
    }
  if (r->skip_at && e->type == WALK_DIR && strcmp (path, r->skip_at) == 0)
    return WALK_SKIP;
  if (r->stop_at && strcmp (path, r->stop_at) == 0)
    return WALK_STOP;
  if (e->type == WALK_DIR_POST && e->depth == 0 && r->force_rescans > 0)
    {
      r->force_rescans--;
      r->rescans++;
      return WALK_RESCAN;
    }
  if (r->remove)
    return remove_like_rmtree (e, r);
  return WALK_CONTINUE;
}

/* The visits, as TAP comments, after a failed check.  */
static void
dump (const struct run *r, bool failed)
{
  if (!failed)
    return;
  for (size_t i = 0; i < r->n && i < 200; i++)
    printf ("# %d %s depth %zu err %d kept %lu%s\n", (int) r->v[i].type,
            r->v[i].path, r->v[i].depth, r->v[i].err, r->v[i].kept,
            r->v[i].complete ? " complete" : "");
}

/* Index of the visit of PATH with TYPE, or -1.  */
static long
find (const struct run *r, const char *path, enum walk_type type)
{
  for (size_t i = 0; i < r->n; i++)
    if (r->v[i].type == type && strcmp (r->v[i].path, path) == 0)
      return (long) i;
  return -1;
}

static size_t
count_path (const struct run *r, const char *path)
{
  size_t n = 0;
  for (size_t i = 0; i < r->n; i++)
    if (strcmp (r->v[i].path, path) == 0)
      n++;
  return n;
}

static size_t
count_prefix (const struct run *r, const char *prefix)
{
  size_t n = 0, len = strlen (prefix);
  for (size_t i = 0; i < r->n; i++)
    if (strncmp (r->v[i].path, prefix, len) == 0)
      n++;
  return n;
}

/* ------------------------------------------------------------------ */
/* The tests.  */

static int dfd;   /* scratch_disk */
static int sfd;   /* scratch_shm, or -1 */

static void
make_socket (int at, const char *dir, const char *name)
{
  int fd = socket (AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0)
    die ("socket");
  /* bind takes a path: go there.  */
  int here = open (".", O_RDONLY | O_DIRECTORY);
  int there = xopendir (at, dir);
  if (fchdir (there) < 0)
    die ("fchdir");
  struct sockaddr_un sun = { .sun_family = AF_UNIX };
  snprintf (sun.sun_path, sizeof sun.sun_path, "%s", name);
  if (bind (fd, (struct sockaddr *) &sun, sizeof sun) < 0)
    die ("bind");
  if (fchdir (here) < 0)
    die ("fchdir");
  close (here);
  close (there);
  close (fd);
}

static void
test_order (void)
{
  /* o/ {a/ {x, y/ {z}}, f, l -> a, p (fifo), s (socket), dang -> nowhere} */
  xmkdir (dfd, "o");
  xmkdir (dfd, "o/a");
  xfile (dfd, "o/a/x");
  xmkdir (dfd, "o/a/y");
  xfile (dfd, "o/a/y/z");
  xfile (dfd, "o/f");
  xsymlink ("a", dfd, "o/l");
  xsymlink ("nowhere", dfd, "o/dang");
  if (mkfifoat (dfd, "o/p", 0644) < 0)
    die ("mkfifo");
  make_socket (dfd, "o", "s");
  bool have_chr = mknodat (dfd, "o/null", S_IFCHR | 0600, makedev (1, 3)) == 0;

  struct run r = { .record = true };
  int ret = walk_at (dfd, "o", 0, "top", visit, &r);
  check_int (ret, 0, "walk: returns 0");
  check (!r.bad_entry, "walk: every dirfd/name leads to the entry visited%s%s",
         r.bad_entry ? ": " : "", r.bad_detail);
  size_t want = 13 + have_chr;
  check_int ((long long) r.n, (long long) want,
             "walk: one visit per entry, two per directory");
  check (r.n > 0 && r.v[0].type == WALK_DIR && strcmp (r.v[0].path, "top") == 0
         && r.v[0].depth == 0,
         "walk: the root first, pre-order, depth 0, shown as DISPLAY");
  check (r.n > 0 && r.v[r.n - 1].type == WALK_DIR_POST
         && strcmp (r.v[r.n - 1].path, "top") == 0,
         "walk: the root last, post-order");
  long pa = find (&r, "top/a", WALK_DIR), qa = find (&r, "top/a", WALK_DIR_POST);
  long x = find (&r, "top/a/x", WALK_REG), z = find (&r, "top/a/y/z", WALK_REG);
  long py = find (&r, "top/a/y", WALK_DIR), qy = find (&r, "top/a/y", WALK_DIR_POST);
  check (pa >= 0 && qa > pa && x > pa && x < qa && py > pa && z > py
         && qy > z && qa > qy,
         "walk: a directory before its entries, after them in post-order");
  check (find (&r, "top/f", WALK_REG) >= 0, "walk: regular file");
  check (find (&r, "top/l", WALK_LNK) >= 0
         && count_prefix (&r, "top/l/") == 0,
         "walk: symbolic link to a directory visited, not followed");
  check (find (&r, "top/dang", WALK_LNK) >= 0, "walk: dangling symlink");
  check (find (&r, "top/p", WALK_FIFO) >= 0, "walk: FIFO (not opened)");
  check (find (&r, "top/s", WALK_SOCK) >= 0, "walk: socket");
  if (have_chr)
    check (find (&r, "top/null", WALK_CHR) >= 0, "walk: character device");
  else
    skip ("walk: character device: mknod not permitted");
  check (z >= 0 && r.v[z].depth == 3, "walk: depth of top/a/y/z is 3");
  bool st_dirs = true, st_files = false;
  for (size_t i = 0; i < r.n; i++)
    if (r.v[i].type == WALK_DIR || r.v[i].type == WALK_DIR_POST)
      st_dirs &= r.v[i].has_st;
    else
      st_files |= r.v[i].has_st;
  check (st_dirs, "walk: directories come with their stat");
  check (!st_files, "walk: files without a stat (d_type said enough)");
  run_free (&r);

  /* WALK_STAT: every entry stat'ed, the same types.  */
  struct run s = { .record = true };
  walk_at (dfd, "o", WALK_STAT, NULL, visit, &s);
  bool all = s.n == want;
  for (size_t i = 0; i < s.n; i++)
    all &= s.v[i].has_st;
  check (all, "walk WALK_STAT: every entry with its stat");
  check (!s.bad_entry && find (&s, "o/p", WALK_FIFO) >= 0
         && find (&s, "o/l", WALK_LNK) >= 0,
         "walk WALK_STAT: types from the stat; DISPLAY NULL is NAME");
  run_free (&s);

  /* Skip and stop.  */
  struct run k = { .record = true, .skip_at = "o/a" };
  walk_at (dfd, "o", 0, NULL, visit, &k);
  check (find (&k, "o/a", WALK_DIR) >= 0 && count_prefix (&k, "o/a/") == 0
         && find (&k, "o/a", WALK_DIR_POST) < 0
         && find (&k, "o", WALK_DIR_POST) >= 0,
         "walk: WALK_SKIP leaves a directory out, the walk goes on");
  run_free (&k);

  int fds = open_fds ();
  struct run t = { .record = true, .stop_at = "o/a/y/z" };
  ret = walk_at (dfd, "o", 0, NULL, visit, &t);
  check_int (ret, WALK_STOP, "walk: WALK_STOP ends the walk, walk_at says so");
  check (t.n > 0 && strcmp (t.v[t.n - 1].path, "o/a/y/z") == 0,
         "walk: no visit after WALK_STOP");
  check_int (open_fds (), fds, "walk: WALK_STOP closes what the walk opened");
  run_free (&t);

  /* The root itself: a file, a symlink, missing, a path of several
     components.  */
  struct run f = { .record = true };
  walk_at (dfd, "o/f", 0, NULL, visit, &f);
  check (f.n == 1 && f.v[0].type == WALK_REG && f.v[0].depth == 0,
         "walk: a file as the root, one visit");
  run_free (&f);
  struct run l = { .record = true };
  walk_at (dfd, "o/l", 0, NULL, visit, &l);
  check (l.n == 1 && l.v[0].type == WALK_LNK,
         "walk: a symlink as the root is not followed");
  run_free (&l);
  struct run m = { .record = true };
  walk_at (dfd, "o/missing", 0, NULL, visit, &m);
  check (m.n == 1 && m.v[0].type == WALK_ERR && m.v[0].err == ENOENT,
         "walk: a missing root is a WALK_ERR ENOENT");
  run_free (&m);
  struct run y = { .record = true };
  walk_at (dfd, "o/a/y", 0, NULL, visit, &y);
  check (y.n == 3 && find (&y, "o/a/y/z", WALK_REG) >= 0,
         "walk: a root of several components");
  run_free (&y);

  /* Removal: all gone.  */
  struct run d = { .remove = true };
  walk_at (dfd, "o", WALK_REMOVING, NULL, visit, &d);
  check (!exists (dfd, "o"), "walk WALK_REMOVING: the tree is removed");
}

/* Beyond PATH_MAX with few descriptors.  */
static void
test_deep (int at, const char *where, int LEVELS)
{
  chain (at, "deep", "0123456789", LEVELS, 1);
  int base = open_fds ();
  struct run r = { .count_fds = true };
  walk_at (at, "deep", 0, NULL, visit, &r);
  check (r.visits == 3 * (size_t) (LEVELS + 1),
         "deep %s: %d levels, every one visited", where, LEVELS);
  check (r.max_fds <= base + WALK_MAX_FDS,
         "deep %s: at most %d descriptors held (held %d)", where,
         WALK_MAX_FDS, r.max_fds - base);
  check (!r.bad_entry, "deep %s: every dirfd/name right%s%s", where,
         r.bad_entry ? ": " : "", r.bad_detail);
  check (open_fds () == base, "deep %s: all closed at the end", where);

  /* A bound from the caller (a share of RLIMIT_NOFILE): held, and the
     walk as complete.  */
  struct run b2 = { .count_fds = true };
  walk_at_fds (at, "deep", 0, 3, NULL, visit, &b2);
  check (b2.visits == r.visits && b2.max_fds <= base + 3 && !b2.bad_entry,
         "deep %s: walk_at_fds 3: every level visited, at most 3 held "
         "(held %d)", where, b2.max_fds - base);

  /* The path of the deepest file: no PATH_MAX limit.  */
  struct run p = { .record = true, .stop_at = NULL };
  char *want = malloc (LEVELS * 11 + 16);
  strcpy (want, "deep");
  for (int i = 0; i < LEVELS; i++)
    strcat (want + 4 + 11 * i, "/0123456789");
  strcat (want, "/f0");
  p.stop_at = want;
  walk_at (at, "deep", 0, NULL, visit, &p);
  check (p.n > 0 && strcmp (p.v[p.n - 1].path, want) == 0
         && strlen (want) > PATH_MAX,
         "deep %s: walk_path beyond PATH_MAX (%zu bytes)", where,
         strlen (want));
  free (want);
  run_free (&p);

  /* Removal with 3 descriptors to spare: EMFILE makes the walk hold
     fewer.  */
  struct rlimit old, lim;
  getrlimit (RLIMIT_NOFILE, &old);
  lim = old;
  lim.rlim_cur = base + 3;
  setrlimit (RLIMIT_NOFILE, &lim);
  struct run d = { .remove = true };
  walk_at (at, "deep", WALK_REMOVING, NULL, visit, &d);
  setrlimit (RLIMIT_NOFILE, &old);
  check (!exists (at, "deep"),
         "deep %s: removed with a limit of 3 spare descriptors", where);
}

/* Whether R visited each of the files TOP/a0..., TOP/b0... (FILES of
   each, made before and after the subdirectories) once.  */
static bool
top_files_once (const struct run *r, const char *top, int files)
{
  char path[64];
  for (int i = 0; i < files; i++)
    {
      snprintf (path, sizeof path, "%s/a%d", top, i);
      if (count_path (r, path) != 1)
        return false;
      snprintf (path, sizeof path, "%s/b%d", top, i);
      if (count_path (r, path) != 1)
        return false;
    }
  return true;
}

/* The parent of a deep directory goes on after coming back, on a
   descriptor opened again: the rest of its batch, then its listing from
   the saved offset.  */
static void
test_resume (int at, const char *where, int LEVELS, int FILES)
{
  /* res/ LEVELS levels d, each with FILES files made before and after d.  */
  xmkdir (at, "res");
  int fd = xopendir (at, "res");
  for (int i = 0; i <= LEVELS; i++)
    {
      files (fd, ".", "a", FILES);
      if (i < LEVELS)
        xmkdir (fd, "d");
      files (fd, ".", "b", FILES);
      if (i == LEVELS)
        break;
      int sub = xopendir (fd, "d");
      close (fd);
      fd = sub;
    }
  close (fd);
  struct run r = { .record = true };
  walk_at (at, "res", 0, NULL, visit, &r);
  size_t want = 2 * (LEVELS + 1) + (size_t) (LEVELS + 1) * 2 * FILES;
  bool once = r.n == want && top_files_once (&r, "res", FILES);
  check (once, "resume %s: each entry once after deep excursions (%zu "
         "visits, want %zu)", where, r.n, want);
  run_free (&r);
  struct run d = { .remove = true };
  walk_at (at, "res", WALK_REMOVING, NULL, visit, &d);
  check (!exists (at, "res"), "resume %s: removed", where);
}

/* A directory of several subdirectories, chains deeper than the
   descriptors held and shallow ones in turn: its listing goes on after
   each, on a descriptor opened again after a deep one, every entry
   once.  */
static void
test_siblings (int at, const char *where)
{
  enum { SUBS = 5, DEPTH = 12, FILES = 30 };
#define depth(s) ((s) % 2 ? 1 : DEPTH)
  xmkdir (at, "sib");
  int top = xopendir (at, "sib");
  files (top, ".", "a", FILES);
  for (int s = 0; s < SUBS; s++)
    {
      char name[16];
      snprintf (name, sizeof name, "s%d", s);
      xmkdir (top, name);
      int fd = xopendir (top, name);
      for (int i = 0; i < depth (s); i++)
        {
          files (fd, ".", "f", 2);
          xmkdir (fd, "d");
          int sub = xopendir (fd, "d");
          close (fd);
          fd = sub;
        }
      close (fd);
    }
  files (top, ".", "b", FILES);
  close (top);
  for (int removing = 0; removing <= 1; removing++)
    {
      struct run r = { .record = true, .remove = removing };
      walk_at_fds (at, "sib", removing ? WALK_REMOVING : 0, 3, NULL, visit,
                   &r);
      /* Each file once, each directory twice (pre and post-order).  */
      size_t levels = 0;
      for (int s = 0; s < SUBS; s++)
        levels += (size_t) depth (s);
      size_t dirs = 1 + SUBS + levels;
      size_t want = 2 * dirs + 2 * FILES + 2 * levels;
      bool once = r.n == want && top_files_once (&r, "sib", FILES);
      for (int s = 0; s < SUBS && once; s++)
        {
          char path[64];
          snprintf (path, sizeof path, "sib/s%d", s);
          once = count_path (&r, path) == 2;
        }
      check (once, "siblings %s%s: each entry once, the listing going on "
             "after each deep subdirectory (%zu visits, want %zu)", where,
             removing ? ", removing" : "", r.n, want);
      dump (&r, !once);
      run_free (&r);
    }
  check (!exists (at, "sib"), "siblings %s: removed", where);
#undef depth
}

/* 100 000 entries removed while reading: each visited once, all gone.  */
struct wide
{
  unsigned char *seen;
  long n;
  bool bad;
};

static int
wide_hook (struct walk *w, const struct walk_entry *e, const char *path,
           struct run *r)
{
  (void) w, (void) path;
  struct wide *wd = r->data;
  if (e->type == WALK_REG)
    {
      long i = strtol (e->name + 1, NULL, 10);
      if (i < 0 || i >= wd->n || wd->seen[i]++)
        wd->bad = true;
    }
  return -1;
}

static void
test_wide (int at, const char *where, int N)
{
  xmkdir (at, "wide");
  files (at, "wide", "f", N);
  struct wide wd = { calloc (N, 1), N, false };
  struct run r = { .remove = true, .hook = wide_hook, .data = &wd };
  walk_at (at, "wide", WALK_REMOVING, NULL, visit, &r);
  long seen = 0;
  for (long i = 0; i < N; i++)
    seen += wd.seen[i] == 1;
  check (!wd.bad && seen == N,
         "wide %s: %d entries, each visited once while removing (%ld)",
         where, N, seen);
  check (!exists (at, "wide"), "wide %s: removed (%d rescans)", where,
         r.rescans);
  free (wd.seen);
}

/* WALK_RESCAN: the entries left in place are not visited again.  */
static int
keep_hook (struct walk *w, const struct walk_entry *e, const char *path,
           struct run *r)
{
  (void) w, (void) path, (void) r;
  if (e->name[0] == 'k')
    return WALK_CONTINUE;
  return -1;
}

static void
test_rescan (void)
{
  xmkdir (dfd, "rs");
  files (dfd, "rs", "k", 20);
  files (dfd, "rs", "r", 20);
  xmkdir (dfd, "rs/ksub");
  files (dfd, "rs/ksub", "x", 3);
  struct run r = { .record = true, .remove = true, .hook = keep_hook,
                   .force_rescans = 1 };
  walk_at (dfd, "rs", WALK_REMOVING, NULL, visit, &r);
  bool once = true;
  char path[64];
  for (int i = 0; i < 20; i++)
    {
      snprintf (path, sizeof path, "rs/k%d", i);
      once &= count_path (&r, path) == 1;
    }
  check (once && count_path (&r, "rs/ksub") == 2,
         "rescan: entries left in place are not visited again");
  long p1 = -1, p2 = -1;
  for (size_t i = 0; i < r.n; i++)
    if (r.v[i].type == WALK_DIR_POST && r.v[i].depth == 0)
      {
        if (p1 < 0)
          p1 = (long) i;
        else
          p2 = (long) i;
      }
  check (p1 >= 0 && p2 > p1 && !r.v[p1].complete && r.v[p2].complete
         && r.v[p1].kept == 21 && r.v[p2].kept == 21,
         "rescan: post-order again, complete once nothing was removed, "
         "kept counted once");
  check (exists (dfd, "rs/k0") && !exists (dfd, "rs/r0"),
         "rescan: what was kept is there, the rest gone");
  run_free (&r);
  remove_all (dfd, "rs");
}

/* A removing walk handles the files of a batch first, then goes down
   into the directories: coming back, what follows in the listing is read
   again, and the files left in place there must not be visited twice.  */
static void
test_kept_resume (int at, const char *where)
{
  xmkdir (at, "mix");
  int fd = xopendir (at, "mix");
  char name[32];
  for (int i = 0; i < 40; i++)
    {
      snprintf (name, sizeof name, "k%d", i);
      xfile (fd, name);
      snprintf (name, sizeof name, "r%d", i);
      xfile (fd, name);
      if (i % 4 == 0)
        {
          snprintf (name, sizeof name, "d%d", i);
          xmkdir (fd, name);
          files (fd, name, "f", 3);
        }
    }
  close (fd);
  struct run r = { .record = true, .remove = true, .hook = keep_hook };
  walk_at (at, "mix", WALK_REMOVING, NULL, visit, &r);
  bool once = true;
  char path[64];
  for (int i = 0; i < 40; i++)
    {
      snprintf (path, sizeof path, "mix/k%d", i);
      once &= count_path (&r, path) == 1;
      snprintf (path, sizeof path, "mix/r%d", i);
      once &= count_path (&r, path) == 1;
    }
  long post = find (&r, "mix", WALK_DIR_POST);
  dump (&r, !check (once && post >= 0 && r.v[post].kept == 40,
                    "kept %s: files left in place visited once, though the "
                    "directory is read again after each subdirectory",
                    where));
  check (exists (at, "mix/k39") && !exists (at, "mix/r0")
         && !exists (at, "mix/d0"), "kept %s: the rest is removed", where);
  run_free (&r);
  remove_all (at, "mix");
}

/* An entry replaced between the listing and the opening.  */
struct swap
{
  int at;
  bool done;
  bool first_was_d;
  bool with_dir;
};

static int
swap_hook (struct walk *w, const struct walk_entry *e, const char *path,
           struct run *r)
{
  (void) w, (void) path;
  struct swap *s = r->data;
  if (e->depth == 1 && !s->done && e->type != WALK_DIR_POST)
    {
      s->done = true;
      if (strcmp (e->name, "d") == 0)
        s->first_was_d = true;
      else if (renameat2 (e->dirfd, "d", e->dirfd, s->with_dir ? "../other"
                          : "l", RENAME_EXCHANGE) < 0)
        die ("renameat2");
    }
  return -1;
}

static void
test_replaced (int at, const char *where)
{
  for (int with_dir = 0; with_dir <= 1; with_dir++)
    {
      xmkdir (at, "outside");
      files (at, "outside", "f", 10);
      /* d in the middle, whether the listing is in the order of
         creation, the reverse, or a hash order.  */
      xmkdir (at, "rp");
      files (at, "rp", "a", 50);
      xmkdir (at, "rp/d");
      files (at, "rp/d", "f", 10);
      files (at, "rp", "b", 50);
      if (with_dir)
        {
          xmkdir (at, "other");
          files (at, "other", "f", 10);
        }
      else
        xsymlink ("../outside", at, "rp/l");
      struct swap s = { at, false, false, with_dir };
      struct run r = { .record = true, .remove = true, .hook = swap_hook,
                       .data = &s };
      walk_at (at, "rp", WALK_REMOVING, NULL, visit, &r);
      if (s.first_was_d)
        {
          skip ("replaced %s: the directory was listed first", where);
          run_free (&r);
          remove_all (at, "rp");
          remove_all (at, "outside");
          remove_all (at, "other");
          continue;
        }
      else if (!with_dir)
        {
          long i = find (&r, "rp/d", WALK_LNK);
          check (i >= 0 && count_prefix (&r, "rp/d/") == 0,
                 "replaced %s: a directory swapped for a symlink is "
                 "visited as the symlink", where);
        }
      else
        {
          long i = find (&r, "rp/d", WALK_ERR);
          dump (&r, !check (i >= 0 && r.v[i].err == WALK_ECHANGED
                            && count_prefix (&r, "rp/d/") == 0,
                            "replaced %s: a directory swapped for another "
                            "directory is reported, not entered", where));
        }
      /* The symlink's target, or both directories: the one swapped in
         (now rp/d) and the one swapped out (now other).  */
      int left = 0, want = with_dir ? 20 : 10;
      for (int i = 0; i < 10; i++)
        {
          char p[64];
          snprintf (p, sizeof p, "%s/f%d", with_dir ? "other" : "outside", i);
          left += exists (at, p);
          snprintf (p, sizeof p, "rp/d/f%d", i);
          left += with_dir && exists (at, p);
        }
      check_int (left, want, with_dir
                 ? "replaced: the files of both directories survive"
                 : "replaced: the files behind the symlink survive");
      run_free (&r);
      remove_all (at, "rp");
      remove_all (at, "outside");
      remove_all (at, "other");
    }
}

/* A directory moved out of the tree while the walk is below it, past
   the descriptors it holds: the way up by ".." leads elsewhere.  */
struct move
{
  int at;
  bool done;
  bool twice;      /* move the 10th away too */
};

static int
move_hook (struct walk *w, const struct walk_entry *e, const char *path,
           struct run *r)
{
  (void) w;
  struct move *m = r->data;
  /* mv/c/c/.../c (40 levels): at the deepest, move the 20th away.  */
  if (!m->done && e->type == WALK_DIR && e->depth == 40)
    {
      m->done = true;
      char from[256] = "";
      strncat (from, path, 2 + 2 * 20);
      if (renameat (m->at, from, m->at, "away/m") < 0)
        die ("rename");
      if (m->twice)
        {
          from[2 + 2 * 10] = '\0';
          if (renameat (m->at, from, m->at, "away/m2") < 0)
            die ("rename");
        }
    }
  return -1;
}

static void
test_moved (int at, const char *where)
{
  xmkdir (at, "away");
  files (at, "away", "keep", 10);
  chain (at, "mv", "c", 40, 2);
  struct move m = { at, false, false };
  struct run r = { .record = true, .remove = true, .hook = move_hook,
                   .data = &m };
  walk_at (at, "mv", WALK_REMOVING, NULL, visit, &r);
  char c20[128] = "mv";
  for (int i = 0; i < 20; i++)
    strcat (c20, "/c");
  long i = find (&r, c20, WALK_ERR);
  dump (&r, !check (m.done && i >= 0 && r.v[i].err == WALK_EMOVED,
                    "moved %s: the directory moved away is reported", where));
  int keep = 0;
  for (int k = 0; k < 10; k++)
    {
      char p[64];
      snprintf (p, sizeof p, "away/keep%d", k);
      keep += exists (at, p);
    }
  check_int (keep, 10, "moved: the files of the directory it went to survive");
  check (!exists (at, "mv"),
         "moved: the walk went on from the top, the rest is removed");
  run_free (&r);

  /* The way down from the top fails too, at the 10th: it is reported,
     and the walk goes on above it.  */
  chain (at, "mv", "c", 40, 2);
  struct move m2 = { at, false, true };
  struct run r2 = { .record = true, .remove = true, .hook = move_hook,
                    .data = &m2 };
  walk_at (at, "mv", WALK_REMOVING, NULL, visit, &r2);
  char c10[128] = "mv";
  for (int k = 0; k < 10; k++)
    strcat (c10, "/c");
  long i20 = find (&r2, c20, WALK_ERR), i10 = find (&r2, c10, WALK_ERR);
  dump (&r2, !check (m2.done && i20 >= 0 && r2.v[i20].err == WALK_EMOVED
                     && i10 > i20 && r2.v[i10].err == WALK_EMOVED
                     && find (&r2, c10, WALK_DIR_POST) < 0
                     && find (&r2, "mv/c", WALK_DIR_POST) > i10
                     && !exists (at, "mv") && exists (at, "away/m2"),
                     "moved %s: a second move is found on the way down "
                     "again, the walk goes on above it", where));
  run_free (&r2);
  remove_all (at, "away");
}

/* rm/c/c/.../c (40 levels): at the deepest, remove the 20th and what is
   below it, as rm -rf or a move to another file system does.  */
static int
remove_hook (struct walk *w, const struct walk_entry *e, const char *path,
             struct run *r)
{
  (void) w;
  struct move *m = r->data;
  if (!m->done && e->type == WALK_DIR && e->depth == 40)
    {
      m->done = true;
      char from[256] = "";
      strncat (from, path, 2 + 2 * 20);
      remove_all (m->at, from);
    }
  return -1;
}

static size_t
count_type (const struct run *r, enum walk_type type)
{
  size_t n = 0;
  for (size_t i = 0; i < r->n; i++)
    n += r->v[i].type == type;
  return n;
}

/* Every level below the one removed fails to be read on the way back
   up: only the top-most is reported, then the walk goes on above it;
   with 4 descriptors, the levels closed are opened again through "..".
   Removing, the rest is removed.  */
static void
test_removed (int at, const char *where)
{
  char c19[128] = "rm", c20[128];
  for (int i = 0; i < 19; i++)
    strcat (c19, "/c");
  snprintf (c20, sizeof c20, "%s/c", c19);
  for (int removing = 0; removing < 2; removing++)
    {
      chain (at, "rm", "c", 40, 2);
      struct move m = { at, false, false };
      struct run r = { .record = true, .remove = removing,
                       .hook = remove_hook, .data = &m };
      walk_at_fds (at, "rm", removing ? WALK_REMOVING : 0, 4, NULL, visit,
                   &r);
      long i = find (&r, c20, WALK_ERR);
      dump (&r, !check (m.done && count_type (&r, WALK_ERR) == 1 && i >= 0
                        && r.v[i].err == ENOENT
                        && find (&r, c19, WALK_DIR_POST) > i
                        && find (&r, "rm", WALK_DIR_POST) > i,
                        "removed %s%s: one error, at the top of the subtree "
                        "removed; the walk goes on above it", where,
                        removing ? ", removing" : ""));
      if (removing)
        check (!exists (at, "rm"), "removed %s, removing: the rest is "
               "removed", where);
      else
        remove_all (at, "rm");
      run_free (&r);
    }
}

/* WALK_ONE_FS with a tmpfs and a bind mount inside the tree.  */
static void
test_one_fs (void)
{
  xmkdir (dfd, "fs");
  xmkdir (dfd, "fs/t");
  xmkdir (dfd, "fs/b");
  xmkdir (dfd, "fs/src");
  xfile (dfd, "fs/src/s");
  char t[256], b[256], src[256];
  snprintf (t, sizeof t, "%s/fs/t", scratch_disk);
  snprintf (b, sizeof b, "%s/fs/b", scratch_disk);
  snprintf (src, sizeof src, "%s/fs/src", scratch_disk);
  if (mount ("walk-test", t, "tmpfs", 0, "size=1m") < 0)
    {
      skip ("one-fs: cannot mount a tmpfs: %s", strerror (errno));
      remove_all (dfd, "fs");
      return;
    }
  xfile (dfd, "fs/t/inside");
  bool bind = mount (src, b, NULL, MS_BIND, NULL) == 0;

  struct run r = { .record = true };
  walk_at (dfd, "fs", WALK_ONE_FS, NULL, visit, &r);
  check (find (&r, "fs/t", WALK_MOUNT) >= 0
         && count_prefix (&r, "fs/t/") == 0,
         "one-fs: another file system is WALK_MOUNT, not entered");
  if (bind)
    check (find (&r, "fs/b", WALK_MOUNT) >= 0
           && count_prefix (&r, "fs/b/") == 0,
           "one-fs: a bind mount of the same file system too");
  else
    skip ("one-fs: bind mount: %s", strerror (errno));
  run_free (&r);

  struct run o = { .record = true };
  walk_at (dfd, "fs", WALK_ONE_FS | WALK_ONE_DEV, NULL, visit, &o);
  check (find (&o, "fs/t", WALK_MOUNT) >= 0
         && count_prefix (&o, "fs/t/") == 0 && !o.bad_entry,
         "one-dev: another file system is WALK_MOUNT, not entered");
  if (bind)
    check (find (&o, "fs/b/s", WALK_REG) >= 0 && find (&o, "fs/b", WALK_ERR) < 0,
           "one-dev: a bind mount of the same file system is entered");
  run_free (&o);

  struct run a = { .record = true };
  walk_at (dfd, "fs", 0, NULL, visit, &a);
  check (find (&a, "fs/t/inside", WALK_REG) >= 0,
         "one-fs: without it, a mount point is entered");
  if (bind)
    check (find (&a, "fs/b/s", WALK_REG) >= 0 && find (&a, "fs/b", WALK_ERR) < 0,
           "one-fs: without it, a bind mount is entered, not taken for a "
           "replaced directory");
  run_free (&a);
  if (bind)
    umount (b);
  umount (t);
  remove_all (dfd, "fs");
}

/* overlayfs over two file systems lists other inode numbers than stat
   shows: not a replaced directory.  */
static void
test_overlay (void)
{
  char lower[128], upper[128], work[128], merged[128], opts[512];
  snprintf (lower, sizeof lower, "%s/lower", scratch_disk);
  snprintf (merged, sizeof merged, "%s/merged", scratch_disk);
  snprintf (upper, sizeof upper, "%s/upper", scratch_shm);
  snprintf (work, sizeof work, "%s/work", scratch_shm);
  xmkdir (AT_FDCWD, lower);
  xmkdir (AT_FDCWD, merged);
  xmkdir (AT_FDCWD, upper);
  xmkdir (AT_FDCWD, work);
  xmkdir (dfd, "lower/t");
  xmkdir (dfd, "lower/t/a");
  xmkdir (dfd, "lower/t/a/b");
  xfile (dfd, "lower/t/a/b/f");
  snprintf (opts, sizeof opts, "lowerdir=%s,upperdir=%s,workdir=%s", lower,
            upper, work);
  if (mount ("walk-test", merged, "overlay", 0, opts) < 0)
    {
      skip ("overlay: cannot mount: %s", strerror (errno));
      return;
    }
  xmkdir (dfd, "merged/t/new");
  xmkdir (dfd, "merged/t/a/new");
  xfile (dfd, "merged/t/a/new/g");
  struct run r = { .record = true, .remove = true };
  walk_at (dfd, "merged/t", WALK_REMOVING, NULL, visit, &r);
  bool errors = false;
  for (size_t i = 0; i < r.n; i++)
    errors |= r.v[i].type == WALK_ERR;
  dump (&r, !check (!errors && !exists (dfd, "merged/t"),
                    "overlay: a tree over two file systems is removed, no "
                    "directory taken for replaced"));
  run_free (&r);
  umount (merged);
}

/* ------------------------------------------------------------------ */
/* e->ino: what getdents64 listed, for a caller that opens the entry to
   compare with fstat.  */

struct ino_run
{
  size_t listed, zero, wrong;
  char detail[256];
};

static int
visit_ino (struct walk *w, const struct walk_entry *e, void *arg)
{
  struct ino_run *r = arg;
  (void) w;
  if (e->type == WALK_ERR || e->type == WALK_DIR_POST)
    return WALK_CONTINUE;
  if (e->depth == 0 || e->ino == 0)
    {
      r->zero += e->depth > 0;
      if (e->depth == 0 && e->ino != 0)
        r->wrong++;
      return WALK_CONTINUE;
    }
  struct stat st;
  if (fstatat (e->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0)
    {
      r->listed++;
      if ((uint64_t) st.st_ino != e->ino && !r->wrong++)
        snprintf (r->detail, sizeof r->detail, "%s: ino %llu, stat %llu",
                  e->name, (unsigned long long) e->ino,
                  (unsigned long long) st.st_ino);
    }
  return WALK_CONTINUE;
}

static void
test_ino (int at, const char *where)
{
  chain (at, "ino", "sub", 3, 5);
  struct ino_run r = { .listed = 0 };
  walk_at (at, "ino", 0, NULL, visit_ino, &r);
  check (r.wrong == 0, "%s: e->ino is the inode stat gives, 0 for the root%s%s",
         where, r.wrong ? ": " : "", r.detail);
  check (r.listed == 3 + 4 * 5 && r.zero == 0,
         "%s: e->ino given for every entry (%zu given, %zu zero)", where,
         r.listed, r.zero);
}

/* ------------------------------------------------------------------ */
/* The stack of directory descriptors on its own (walk_stack), as a copier
   uses it for the copies: bounded, levels found again through "..", a
   moved directory told.  */

/* Push the chain AT/DIR/NAME/... (LEVELS directories below DIR) onto S,
   each opened with walk_stack_open from the level above.  Check after
   each push that at most the bound is open, the deepest always, and
   that the process holds no more than BASE + the levels open.  */
static bool
push_chain (struct walk_stack *s, int at, const char *dir, const char *name,
            int levels, int base, char *detail, size_t detail_len)
{
  for (int i = 0; i <= levels; i++)
    {
      int parent = i ? s->dir[s->n - 1].fd : at;
      int fd = walk_stack_open (s, parent, i ? name : dir);
      struct stat st;
      if (fd < 0 || fstat (fd, &st) < 0)
        {
          snprintf (detail, detail_len, "level %d: open: %s", i,
                    strerror (fd < 0 ? -fd : errno));
          return false;
        }
      walk_stack_push (s, fd, &st);
      size_t open = 0;
      for (size_t k = 0; k < s->n; k++)
        if (s->dir[k].fd >= 0)
          open++;
      if (open > s->max_fds || s->dir[s->n - 1].fd < 0
          || open != s->n - s->low || open_fds () != base + (int) open)
        {
          snprintf (detail, detail_len, "level %d: %zu open, low %zu, "
                    "bound %zu, %d descriptors beyond the %d before", i,
                    open, s->low, s->max_fds, open_fds () - base, base);
          return false;
        }
    }
  return true;
}

/* Whether FD is the directory S pushed at LEVEL.  */
static bool
is_level (const struct walk_stack *s, size_t level, int fd)
{
  struct stat st;
  return fd >= 0 && fstat (fd, &st) == 0
         && st.st_dev == s->dir[level].st.st_dev
         && st.st_ino == s->dir[level].st.st_ino;
}

static void
test_stack (int at, const char *where)
{
  enum { LEVELS = 12 };
  chain (at, "stk", "d", LEVELS, 0);
  int base = open_fds ();
  char detail[256] = "";

  /* Eviction: 13 levels with a bound of 3.  */
  struct walk_stack s;
  walk_stack_init (&s, 3);
  bool ok = push_chain (&s, at, "stk", "d", LEVELS, base, detail,
                        sizeof detail);
  check (ok && s.n == LEVELS + 1 && s.low == LEVELS + 1 - 3,
         "stack %s: %d levels pushed with a bound of 3: the 3 deepest open%s%s",
         where, LEVELS + 1, ok ? "" : ": ", detail);

  /* The way back up: each level found again through "..", as it was.  */
  bool up_ok = ok;
  for (size_t level = LEVELS; up_ok && level > 0; level--)
    {
      int fd = walk_stack_fd (&s, level - 1);
      up_ok = is_level (&s, level - 1, fd) && s.low <= level - 1
              && open_fds () == base + (int) (s.n - s.low);
      if (!up_ok)
        snprintf (detail, sizeof detail, "level %zu: %s", level - 1,
                  fd < 0 ? walk_strerror (-fd) : "another directory");
      walk_stack_pop (&s);
    }
  check (up_ok && s.n == 1,
         "stack %s: every closed level opened again through \"..\" and "
         "checked%s%s", where, up_ok ? "" : ": ", detail);

  /* Several levels at once, from the deepest open one.  */
  walk_stack_free (&s);
  walk_stack_init (&s, 2);
  ok = push_chain (&s, at, "stk", "d", LEVELS, base, detail, sizeof detail);
  int fd = ok ? walk_stack_fd (&s, 2) : -1;
  check (ok && is_level (&s, 2, fd) && s.low == 2
         && is_level (&s, 7, s.dir[7].fd),
         "stack %s: level 2 reached from level %d through %d \"..\"",
         where, LEVELS - 1, LEVELS - 3);
  walk_stack_free (&s);
  check (open_fds () == base, "stack %s: walk_stack_free closes them all",
         where);

  /* A directory moved while its descriptor was closed: its child's
     ".." is now another directory, which is told.  */
  walk_stack_init (&s, 3);
  ok = push_chain (&s, at, "stk", "d", LEVELS, base, detail, sizeof detail);
  if (ok && renameat (at, "stk/d/d/d/d/d", at, "stk/moved") < 0)
    die ("rename");
  int moved = ok ? walk_stack_fd (&s, 4) : 0;
  check (moved == -WALK_EMOVED && s.dir[4].fd < 0,
         "stack %s: a level whose child was moved away is reported "
         "(WALK_EMOVED), not opened (got %d)", where, moved);
  /* Popped down past the moved one, the level above it cannot be
     reached any more: reported too, never another directory.  */
  while (ok && s.n > 4)
    walk_stack_pop (&s);
  int lost = ok ? walk_stack_fd (&s, 3) : 0;
  check (lost == -WALK_EMOVED,
         "stack %s: no open level to climb from: WALK_EMOVED (got %d)",
         where, lost);
  walk_stack_free (&s);
  check (open_fds () == base, "stack %s: all closed after the move", where);

  /* Out of descriptors (RLIMIT_NOFILE 3 above what is open): open
     closes one more level and holds fewer from then on.  */
  if (renameat (at, "stk/moved", at, "stk/d/d/d/d/d") < 0)
    die ("rename back");
  struct rlimit old, lim;
  getrlimit (RLIMIT_NOFILE, &old);
  lim = old;
  lim.rlim_cur = base + 3;
  /* Descriptors open above the limit leave more room below it.  */
  int spare = (int) lim.rlim_cur;
  for (int k = 0; k < (int) lim.rlim_cur; k++)
    if (fcntl (k, F_GETFD) >= 0)
      spare--;
  walk_stack_init (&s, 16);
  setrlimit (RLIMIT_NOFILE, &lim);
  ok = push_chain (&s, at, "stk", "d", LEVELS, base, detail, sizeof detail);
  setrlimit (RLIMIT_NOFILE, &old);
  check (ok && s.n == LEVELS + 1 && s.max_fds <= (size_t) spare,
         "stack %s: EMFILE with %d spare: every level pushed, the bound "
         "down to %zu%s%s", where, spare, s.max_fds, ok ? "" : ": ", detail);
  walk_stack_free (&s);
  remove_all (at, "stk");
}

/* ------------------------------------------------------------------ */
/* WALK_EARLY_END: a directory is visited in post-order before the read
   of its end; a remover that finds it not empty has it read on.  */

struct early
{
  int posts[2];          /* post-order visits of depth 0 and 1 */
  bool first_unread;     /* the first one of depth 0 had unread, */
  bool second_unread;    /* the second */
  bool any_unread;
  int late_visits;       /* visits of "late", made at that first one */
};

static int
early_visit (struct walk *w, const struct walk_entry *e, void *arg)
{
  (void) w;
  struct early *x = arg;
  if (e->type == WALK_DIR)
    return WALK_CONTINUE;
  if (e->type != WALK_DIR_POST)
    {
      x->late_visits += strcmp (e->name, "late") == 0;
      return unlinkat (e->dirfd, e->name, 0) == 0 ? WALK_REMOVED
                                                  : WALK_CONTINUE;
    }
  x->any_unread |= e->unread;
  if (e->depth == 0 && x->posts[0]++ == 0)
    {
      x->first_unread = e->unread;
      xfile (e->fd, "late");
    }
  else if (e->depth == 0 && x->posts[0] == 2)
    x->second_unread = e->unread;
  else if (e->depth == 1)
    x->posts[1]++;
  if (unlinkat (e->dirfd, e->name, AT_REMOVEDIR) == 0)
    return WALK_REMOVED;
  /* As a remover: read on, or once again if entries may have been
     missed (that finds "late" where the end was read already).  */
  return errno == ENOTEMPTY && (e->unread
                                || (!e->complete && e->rescans == 0))
         ? WALK_RESCAN : WALK_CONTINUE;
}

static void
test_early_end (int at, const char *where)
{
  for (int flag = 0; flag < 2; flag++)
    {
      xmkdir (at, "ee");
      files (at, "ee", "f", 10);
      xmkdir (at, "ee/sub");
      files (at, "ee/sub", "g", 2);
      struct early x = { 0 };
      walk_at (at, "ee", WALK_REMOVING | (flag ? WALK_EARLY_END : 0), NULL,
               early_visit, &x);
      if (flag)
        check (x.first_unread && !x.second_unread && x.late_visits == 1
               && x.posts[0] == 3 && x.posts[1] == 1 && !exists (at, "ee"),
               "%s: early end: post-order before the end is read; not "
               "empty, read on to the end, read again, removed", where);
      else
        {
          check (!x.any_unread && x.late_visits == 1 && x.posts[0] == 2
                 && !exists (at, "ee"),
                 "%s: without WALK_EARLY_END, no post-order is unread",
                 where);
        }
      if (exists (at, "ee"))
        remove_all (at, "ee");
    }
}

/* walk_on_closing: every descriptor closed to hold fewer is told of
   while still open.  */

struct closing
{
  int calls, open;
};

static void
closing_hook (int fd, void *arg)
{
  struct closing *c = arg;
  c->calls++;
  c->open += fcntl (fd, F_GETFD) >= 0;
}

static int
closing_visit (struct walk *w, const struct walk_entry *e, void *arg)
{
  if (e->type == WALK_DIR)
    {
      if (e->depth == 0)
        walk_on_closing (w, closing_hook, arg);
      return WALK_CONTINUE;
    }
  return unlinkat (e->dirfd, e->name,
                   e->type == WALK_DIR_POST ? AT_REMOVEDIR : 0) == 0
         ? WALK_REMOVED : WALK_CONTINUE;
}

static void
test_closing (int at, const char *where)
{
  chain (at, "cl", "d", 40, 1);
  struct closing c = { 0 };
  walk_at_fds (at, "cl", WALK_REMOVING, 4, NULL, closing_visit, &c);
  check (c.calls >= 36 && c.open == c.calls && !exists (at, "cl"),
         "%s: walk_on_closing: %d closes told, each while open", where,
         c.calls);
  if (exists (at, "cl"))
    remove_all (at, "cl");
}

int
main (void)
{
  umask (022);
  scratch_disk = tap_scratch ("/tmp");
  if (!scratch_disk)
    die ("mkdtemp");
  dfd = xopendir (AT_FDCWD, scratch_disk);
  if (chdir (scratch_disk) < 0)
    die ("chdir");
  scratch_shm = tap_scratch ("/dev/shm");
  sfd = scratch_shm ? xopendir (AT_FDCWD, scratch_shm) : -1;

  test_order ();
  /* Creating files on the disk may be slow: smaller trees there (the
     bats suite removes 100 000 entries on ext4 and tmpfs).  */
  test_deep (dfd, "disk", 400);
  test_resume (dfd, "disk", 10, 40);
  test_siblings (dfd, "disk");
  test_rescan ();
  test_kept_resume (dfd, "disk");
  test_replaced (dfd, "disk");
  test_moved (dfd, "disk");
  test_removed (dfd, "disk");
  test_wide (dfd, "disk", 2000);
  test_ino (dfd, "disk");
  test_stack (dfd, "disk");
  test_early_end (dfd, "disk");
  test_closing (dfd, "disk");
  if (sfd >= 0)
    {
      test_deep (sfd, "tmpfs", 3000);
      test_resume (sfd, "tmpfs", 40, 300);
      test_siblings (sfd, "tmpfs");
      test_kept_resume (sfd, "tmpfs");
      test_replaced (sfd, "tmpfs");
      test_moved (sfd, "tmpfs");
      test_removed (sfd, "tmpfs");
      test_wide (sfd, "tmpfs", 100000);
      test_ino (sfd, "tmpfs");
      test_stack (sfd, "tmpfs");
      test_early_end (sfd, "tmpfs");
      test_closing (sfd, "tmpfs");
    }
  else
    skip ("tmpfs: no /dev/shm");
  if (geteuid () == 0)
    test_one_fs ();
  else
    skip ("one-fs: needs root");
  if (geteuid () == 0 && sfd >= 0)
    test_overlay ();
  else
    skip ("overlay: needs root and /dev/shm");

  return tap_done ();
}
