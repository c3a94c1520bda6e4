/* walk/walker.c -- walk a directory tree with the *at calls; see
   walk/walker.h.

   The walk is a loop over a stack of levels, one per directory from NAME
   down to the one being read.  A level holds the directory's descriptor
   (or -1 when it was closed to save descriptors), its stat, where its
   name is in the stack of names, and the getdents64 offset after the
   last entry handled.  One buffer serves every level: it holds a batch of
   the deepest directory's entries.  Entering a subdirectory gives the
   buffer to it, the entries of the parent's batch still to handle saved
   on a stack of their own (SAVED_MAX bytes at most for all the levels):
   coming back, the parent goes on with them, and reads on from the end
   of that batch, where its descriptor is.  Reading the rest of the batch
   again instead costs the file system as much as the first reading did,
   once per subdirectory: a directory of N subdirectories would list
   N * N / 2 entries.  Where the stack is full, or the parent's
   descriptor was closed, the parent is read again from its saved offset
   (an lseek).  A parent closed is opened again as ".." of its child, or, above
   a level entered through a symbolic link (WALK_FOLLOW), by the names of
   the levels from NAME down (reach_by_names).  A removing walk handles
   the files of a batch first (see files_first).  */

#include <config.h>

#include "walk/walker.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/calls.h"
#include "xalloc.h"

/* The getdents64 buffer: a batch of tens of thousands of entries.  */
enum { WALK_BUFSIZE = 2 * 1024 * 1024 };

/* The entries saved for the levels above the one being read, in all.  */
enum { SAVED_MAX = 4 * 1024 * 1024 };

/* The smallest getdents64 record: 19 bytes and a 1-byte name, aligned.  */
enum { MIN_RECLEN = 24 };

/* d_type of an entry of the batch already handled.  */
enum { DT_DONE = 0xff };

/* d_ino and st_ino are compared: both must be 64 bits.  */
_Static_assert (sizeof (ino_t) == 8, "ino_t must have 64 bits");

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* Entries left in place in a directory of a removing walk, as 64-bit
   hashes of their names: open addressing, linear probing, 0 for an empty
   slot.  */
struct kept_set
{
  uint64_t *slot;
  size_t used, cap;
};

/* What the walk keeps of a directory besides its descriptor and stat,
   which are in the stack of directories (w->dirs.dir[] at the same
   index).  */
struct level
{
  size_t name;           /* offset of the name in names (not level 0) */
  uint64_t key;          /* the key of this directory in its parent */
  int64_t resume;        /* getdents64 offset after the last entry handled */
  unsigned long kept;    /* entries left in place (WALK_REMOVING) */
  bool pos_ok;           /* fd's offset is resume: no lseek needed */
  size_t saved;          /* the rest of its batch: offset in saved, */
  size_t saved_len;      /* length (0: none), and the offset in it of */
  size_t saved_last;     /* the last entry to handle */
  bool dino_ok;          /* "." was listed with d_ino == st_ino */
  bool short_batch;      /* its last batch was well short of the buffer */
  bool removed;          /* an entry was removed in this pass */
  bool linked;           /* entered through a symbolic link (WALK_FOLLOW):
                            its ".." is not lv[i - 1] */
  unsigned int rescans;  /* passes read again after WALK_RESCAN */
  struct kept_set kept_set;
};

struct walk
{
  int flags;
  walk_fn visit;
  void *arg;
  int root_dirfd;
  const char *root_name;
  const char *display;
  dev_t root_dev;

  /* The levels: lv[0] is NAME, lv[depth (w)] the directory being read;
     their descriptors and stats are in dirs (no level left: the walk is
     over).  */
  struct walk_stack dirs;
  struct level *lv;
  size_t nalloc;

  /* The names of lv[1] to lv[depth], each NUL-terminated, one after the
     other: joined with '/', they are the path.  */
  char *names;
  size_t names_len, names_alloc;

  /* A batch of lv[depth]'s entries, the next one to handle, and the last
     one (SIZE_MAX: none) still to handle.  */
  char *buf;
  size_t buf_pos, buf_len, buf_last;

  /* The rest of the batches of the levels above lv[depth], one after the
     other (see struct level's saved).  */
  char *saved;
  size_t saved_len, saved_alloc;

  /* WALK_REMOVING: the files of the batch, in inode order.  */
  struct by_ino *order;

  /* The entry being visited, for walk_path: CUR_NAME in the directory
     lv[cur_level]; CUR_NAME NULL for the root.  */
  size_t cur_level;
  const char *cur_name;
  char *path;
  size_t path_alloc;
};

/* --- the set of entries left in place -------------------------------- */

static uint64_t
entry_key (const char *name)
{
  /* FNV-1a of the name, finished by a multiply-xorshift.  By name only:
     an entry left in place and then replaced by another file of the same
     name is still left alone on a second reading.  */
  uint64_t h = 0xcbf29ce484222325u;
  for (const unsigned char *p = (const unsigned char *) name; *p; p++)
    h = (h ^ *p) * 0x100000001b3u;
  h ^= h >> 32;
  h *= 0x9e3779b97f4a7c15u;
  h ^= h >> 29;
  return h ? h : 1;
}

static bool
set_has (const struct kept_set *s, uint64_t key)
{
  if (s->cap == 0)
    return false;
  size_t mask = s->cap - 1;
  for (size_t i = key & mask; s->slot[i]; i = (i + 1) & mask)
    if (s->slot[i] == key)
      return true;
  return false;
}

static void
set_put (uint64_t *slot, size_t cap, uint64_t key)
{
  size_t mask = cap - 1, i = key & mask;
  while (slot[i] && slot[i] != key)
    i = (i + 1) & mask;
  slot[i] = key;
}

static void
set_add (struct kept_set *s, uint64_t key)
{
  if (2 * (s->used + 1) > s->cap)
    {
      size_t cap = s->cap ? 2 * s->cap : 64;
      uint64_t *slot = xcalloc (cap, sizeof *slot);
      for (size_t i = 0; i < s->cap; i++)
        if (s->slot[i])
          set_put (slot, cap, s->slot[i]);
      free (s->slot);
      s->slot = slot;
      s->cap = cap;
    }
  if (!set_has (s, key))
    {
      set_put (s->slot, s->cap, key);
      s->used++;
    }
}

/* --- system calls -------------------------------------------------- */

/* DIRFD/NAME into ST (never triggering an automount); MOUNT says
   whether it is the root of a mount, where the kernel tells (5.8).  */
static int
stat_at (int dirfd, const char *name, int flags, struct stat *st,
         bool *mount)
{
  return sys_fstatat_mount (dirfd, name, st, flags, mount);
}

static bool
same_file (const struct stat *a, const struct stat *b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* openat of a directory, EINTR retried (a network or FUSE file system
   can be interrupted in the lookup).  */
static int
open_dir_retry (int dirfd, const char *name)
{
  int fd;
  while ((fd = sys_openat (dirfd, name, DIR_FLAGS, 0)) == -EINTR)
    continue;
  return fd;
}

/* openat of a directory a symbolic link may name (WALK_FOLLOW).  */
static int
open_dir_follow (int dirfd, const char *name)
{
  int fd;
  while ((fd = sys_openat (dirfd, name, DIR_FLAGS & ~O_NOFOLLOW, 0))
         == -EINTR)
    continue;
  return fd;
}

/* --- the stack of directory descriptors ---------------------------- */

void
walk_stack_init (struct walk_stack *s, size_t max_fds)
{
  *s = (struct walk_stack) { .max_fds = max_fds < 2 ? 2 : max_fds };
}

/* Tell the caller that dir[LEVEL] of S, open, is about to be closed
   other than after its post-order visit (see closing).  */
static void
tell_closing (struct walk_stack *s, size_t level)
{
  if (s->closing && s->dir[level].fd >= 0)
    s->closing (s->dir[level].fd, s->closing_arg);
}

/* Close dir[LEVEL] of S to hold fewer descriptors, telling the caller
   first.  */
static void
close_level (struct walk_stack *s, size_t level)
{
  tell_closing (s, level);
  sys_close (s->dir[level].fd);
  s->dir[level].fd = -1;
}

/* Close the shallowest open level other than the deepest; false if there
   is none.  */
static bool
evict (struct walk_stack *s)
{
  if (s->low + 1 >= s->n)
    return false;
  close_level (s, s->low);
  s->low++;
  return true;
}

/* walk_stack_open, following NAME if FOLLOW.  */
static int
stack_open (struct walk_stack *s, int dirfd, const char *name, bool follow)
{
  while (s->n - s->low >= s->max_fds && evict (s))
    continue;
  for (;;)
    {
      int fd = follow ? open_dir_follow (dirfd, name)
                      : open_dir_retry (dirfd, name);
      if ((fd != -EMFILE && fd != -ENFILE) || !evict (s))
        return fd;
      s->max_fds = s->n - s->low + 1;
    }
}

int
walk_stack_open (struct walk_stack *s, int dirfd, const char *name)
{
  return stack_open (s, dirfd, name, false);
}

void
walk_stack_push (struct walk_stack *s, int fd, const struct stat *st)
{
  if (s->n == s->nalloc)
    {
      s->nalloc = 2 * s->nalloc + 16;
      s->dir = xnrealloc (s->dir, s->nalloc, sizeof *s->dir);
    }
  s->dir[s->n++] = (struct walk_dir) { .fd = fd, .st = *st };
}

int
walk_stack_fd (struct walk_stack *s, size_t level)
{
  while (s->low > level)
    {
      if (s->low >= s->n)
        return -WALK_EMOVED;
      int fd = open_dir_retry (s->dir[s->low].fd, "..");
      if (fd < 0)
        return fd;
      struct stat st;
      int ret = stat_at (fd, "", AT_EMPTY_PATH, &st, NULL);
      if (ret == 0 && !same_file (&st, &s->dir[s->low - 1].st))
        ret = -WALK_EMOVED;
      if (ret < 0)
        {
          sys_close (fd);
          return ret;
        }
      s->dir[--s->low].fd = fd;
    }
  return s->dir[level].fd;
}

void
walk_stack_pop (struct walk_stack *s)
{
  struct walk_dir *d = &s->dir[--s->n];
  if (d->fd >= 0)
    sys_close (d->fd);
  if (s->low > s->n)
    s->low = s->n;
}

void
walk_stack_free (struct walk_stack *s)
{
  while (s->n > 0)
    walk_stack_pop (s);
  free (s->dir);
  s->dir = NULL;
  s->nalloc = 0;
}

/* --- levels -------------------------------------------------------- */

/* The index of the directory being read.  */
static size_t
depth (const struct walk *w)
{
  return w->dirs.n - 1;
}

/* The descriptor and stat of lv[I].  */
static struct walk_dir *
dir_of (struct walk *w, size_t i)
{
  return &w->dirs.dir[i];
}

static const char *
level_name (const struct walk *w, size_t i)
{
  return i == 0 ? w->root_name : w->names + w->lv[i].name;
}

/* Open lv[I] again by its name in DIRFD, following the symbolic link it
   was entered through, if it was.  */
static int
open_level (const struct walk *w, int dirfd, size_t i)
{
  const char *name = level_name (w, i);
  return w->lv[i].linked ? open_dir_follow (dirfd, name)
                         : open_dir_retry (dirfd, name);
}

/* Keep the entries of lv[depth]'s batch still to handle, if there is
   room.  Return whether they are kept.  */
static bool
save_batch (struct walk *w)
{
  size_t len = w->buf_len - w->buf_pos;
  if (w->buf_last == SIZE_MAX || w->buf_last < w->buf_pos
      || len > SAVED_MAX - w->saved_len)
    return false;
  if (w->saved_alloc - w->saved_len < len)
    {
      w->saved_alloc = w->saved_len + len > 2 * w->saved_alloc
                       ? w->saved_len + len : 2 * w->saved_alloc;
      w->saved = xrealloc (w->saved, w->saved_alloc);
    }
  struct level *l = &w->lv[depth (w)];
  memcpy (w->saved + w->saved_len, w->buf + w->buf_pos, len);
  l->saved = w->saved_len;
  l->saved_len = len;
  l->saved_last = w->buf_last - w->buf_pos;
  w->saved_len += len;
  return true;
}

/* Make FD, ST the directory being read, named NAME in the current one,
   which goes on with the rest of its batch, or at its resume offset
   (LAST: NAME was the last entry of the batch to handle).  Its
   descriptor is at the end of the batch unless it was opened again
   since the batch was read: then an lseek takes it there.  */
static void
push (struct walk *w, int fd, const struct stat *st, const char *name,
      uint64_t key, bool last)
{
  struct level *parent = &w->lv[depth (w)];
  parent->pos_ok = (last || save_batch (w)) && parent->pos_ok;
  if (w->dirs.n == w->nalloc)
    {
      w->nalloc *= 2;
      w->lv = xnrealloc (w->lv, w->nalloc, sizeof *w->lv);
    }
  size_t len = strlen (name) + 1;
  if (w->names_alloc - w->names_len < len)
    {
      w->names_alloc = 2 * w->names_alloc + len + 256;
      w->names = xrealloc (w->names, w->names_alloc);
    }
  memcpy (w->names + w->names_len, name, len);
  w->lv[w->dirs.n] = (struct level) { .name = w->names_len, .key = key,
                                      .pos_ok = true };
  walk_stack_push (&w->dirs, fd, st);
  w->names_len += len;
  w->buf_pos = w->buf_len = 0;
}

/* Forget lv[depth]: close it, and go back to reading its parent, with
   the rest of the parent's batch if RESUME and it was saved; otherwise
   the parent is read again from its resume offset.  */
static void
pop_level (struct walk *w, bool resume)
{
  struct level *l = &w->lv[depth (w)];
  free (l->kept_set.slot);
  w->buf_pos = w->buf_len = 0;
  if (depth (w) > 0)
    w->names_len = l->name;
  walk_stack_pop (&w->dirs);
  if (w->dirs.n == 0 || w->lv[depth (w)].saved_len == 0)
    return;
  l = &w->lv[depth (w)];
  if (resume)
    {
      memcpy (w->buf, w->saved + l->saved, l->saved_len);
      w->buf_len = l->saved_len;
      w->buf_last = l->saved_last;
    }
  else
    l->pos_ok = false;
  w->saved_len = l->saved;
  l->saved_len = 0;
}

/* Forget lv[depth] without its post-order visit (it was lost, or the
   walk is over), telling the caller before its descriptor is closed.  */
static void
pop (struct walk *w)
{
  tell_closing (&w->dirs, depth (w));
  pop_level (w, false);
}

/* Record in lv[I] what became of one of its entries, with KEY or NAME,
   after a visit that returned ACTION.  */
static void
account (struct walk *w, size_t i, int action, uint64_t key,
         const char *name)
{
  if (!(w->flags & WALK_REMOVING))
    return;
  struct level *l = &w->lv[i];
  if (action == WALK_REMOVED)
    l->removed = true;
  else
    {
      l->kept++;
      set_add (&l->kept_set, name ? entry_key (name) : key);
    }
}

/* --- visits -------------------------------------------------------- */

static int
call (struct walk *w, const struct walk_entry *e, size_t level,
      const char *name)
{
  w->cur_level = level;
  w->cur_name = name;
  return w->visit (w, e, w->arg);
}

static enum walk_type
dtype_type (unsigned char dtype)
{
  switch (dtype)
    {
    case DT_DIR: return WALK_DIR;
    case DT_REG: return WALK_REG;
    case DT_LNK: return WALK_LNK;
    case DT_FIFO: return WALK_FIFO;
    case DT_SOCK: return WALK_SOCK;
    case DT_CHR: return WALK_CHR;
    case DT_BLK: return WALK_BLK;
    default: return WALK_OTHER;
    }
}

/* Values of the functions below beside the walk_actions: the entry
   vanished, no visit; the directory was entered.  */
enum { GONE = -1, ENTERED = -2 };

/* E (NAME, in lv[LEVEL] or the root) was listed as a directory, but
   opening it said ENOTDIR or ELOOP: it was replaced.  Visit what it is
   now: a symbolic link or a file is harmless, another directory is an
   error (it would be a second change).  */
static int
visit_replaced (struct walk *w, struct walk_entry *e, size_t level,
                const char *name)
{
  struct stat st;
  int ret = stat_at (e->dirfd, e->name, AT_SYMLINK_NOFOLLOW, &st, NULL);
  if (ret == -ENOENT && e->depth > 0)
    return GONE;
  if (ret < 0 || S_ISDIR (st.st_mode))
    {
      e->type = WALK_ERR;
      e->err = ret < 0 ? -ret : WALK_ECHANGED;
      e->is_dir = true;
    }
  else
    {
      e->type = dtype_type (IFTODT (st.st_mode));
      e->st = &st;
    }
  return call (w, e, level, name);
}

/* Whether the directory ST is one being walked: NAME or one below it on
   the way to the current one.  */
static bool
is_walked (struct walk *w, const struct stat *st)
{
  for (size_t i = 0; i < w->dirs.n; i++)
    if (same_file (&dir_of (w, i)->st, st))
      return true;
  return false;
}

/* Directory NAME of lv[depth], listed with inode D_INO (and ST if it was
   stat'ed): open it, check it, visit it, and enter it.  LAST: NAME ended
   the batch.  LINKED: NAME is a symbolic link to the directory ST.  */
static int
enter (struct walk *w, const char *name, uint64_t d_ino,
       const struct stat *st, bool last, bool linked)
{
  size_t d = depth (w);
  struct walk_entry e = { .type = WALK_ERR, .dirfd = dir_of (w, d)->fd,
                          .name = name, .fd = -1,
                          .ino = w->lv[d].dino_ok && !linked ? d_ino : 0,
                          .depth = d + 1, .is_dir = true,
                          .followed = linked };
  /* Entered, it would be walked again and again.  */
  if (linked && is_walked (w, st))
    {
      e.err = WALK_ECYCLE;
      return call (w, &e, d, name);
    }
  int fd = stack_open (&w->dirs, e.dirfd, name, linked);
  if (fd == -ENOENT)
    return GONE;
  if (fd == -ENOTDIR || fd == -ELOOP)
    return visit_replaced (w, &e, d, name);
  if (fd < 0)
    {
      e.err = -fd;
      return call (w, &e, d, name);
    }

  struct stat dst;
  bool mount;
  int ret = stat_at (fd, "", AT_EMPTY_PATH, &dst, &mount);
  if (ret < 0)
    e.err = -ret;
  else if ((w->flags & WALK_ONE_FS)
           && (dst.st_dev != w->root_dev
               || (mount && !(w->flags & WALK_ONE_DEV))))
    {
      e.type = WALK_MOUNT;
      e.fd = fd;
      e.st = &dst;
      int action = call (w, &e, d, name);
      sys_close (fd);
      return action;
    }
  else if (st ? !same_file (st, &dst)
           /* The d_ino of a mount point is the inode it covers.  */
           : (dst.st_dev == dir_of (w, d)->st.st_dev && !mount
              && dst.st_ino != d_ino))
    e.err = WALK_ECHANGED;
  else
    {
      e.type = WALK_DIR;
      e.fd = fd;
      e.st = &dst;
      int action = call (w, &e, d, name);
      if (action == WALK_CONTINUE || action == WALK_REMOVED
          || action == WALK_RESCAN)
        {
          push (w, fd, &dst, name, entry_key (name), last);
          w->lv[depth (w)].linked = linked;
          return ENTERED;
        }
      sys_close (fd);
      return action;
    }
  sys_close (fd);
  return call (w, &e, d, name);
}

/* E, the symbolic link NAME of lv[depth], with WALK_FOLLOW: visit what
   it names, entering a directory.  LAST: NAME ended the batch.  */
static int
follow (struct walk *w, struct walk_entry *e, const char *name, bool last)
{
  size_t d = depth (w);
  struct stat st, lst;
  int ret = stat_at (e->dirfd, name, 0, &st, NULL);
  /* A dangling link is reported; one removed meanwhile is gone.  */
  if (ret == -ENOENT
      && stat_at (e->dirfd, name, AT_SYMLINK_NOFOLLOW, &lst, NULL) == -ENOENT)
    return GONE;
  if (ret < 0)
    {
      e->type = WALK_ERR;
      e->err = -ret;
      return call (w, e, d, name);
    }
  if (S_ISDIR (st.st_mode))
    return enter (w, name, 0, &st, last, true);
  e->type = dtype_type (IFTODT (st.st_mode));
  e->st = &st;
  e->ino = 0;
  e->followed = true;
  return call (w, e, d, name);
}

/* Handle entry NAME (d_type DTYPE, inode D_INO) of lv[depth].  Return
   WALK_STOP or 0.  */
static int
entry (struct walk *w, const char *name, unsigned char dtype,
       uint64_t d_ino, bool last)
{
  size_t d = depth (w);
  struct walk_entry e = { .dirfd = dir_of (w, d)->fd, .name = name, .fd = -1,
                          .ino = w->lv[d].dino_ok ? d_ino : 0,
                          .depth = d + 1 };
  struct stat st;
  const struct stat *stp = NULL;
  int action;

  /* A directory is checked against d_ino only where "." was listed with
     the inode number fstat gave: overlayfs and FUSE, for instance, may
     list other numbers than stat shows.  Elsewhere, it is stat'ed by
     name before being opened, and checked against that.  */
  if (dtype == DT_UNKNOWN || (w->flags & WALK_STAT)
      || (dtype == DT_DIR && !w->lv[d].dino_ok))
    {
      int ret = stat_at (e.dirfd, name, AT_SYMLINK_NOFOLLOW, &st, NULL);
      if (ret == -ENOENT)
        return 0;
      if (ret < 0)
        {
          e.type = WALK_ERR;
          e.err = -ret;
          e.is_dir = dtype == DT_DIR;
          action = call (w, &e, d, name);
          goto done;
        }
      stp = &st;
      dtype = IFTODT (st.st_mode);
    }

  if (dtype == DT_LNK && (w->flags & WALK_FOLLOW))
    {
      action = follow (w, &e, name, last);
      if (action == ENTERED)
        return 0;
    }
  else if (dtype == DT_DIR)
    {
      action = enter (w, name, d_ino, stp, last, false);
      if (action == ENTERED)
        return 0;
    }
  else
    {
      e.type = dtype_type (dtype);
      e.st = stp;
      action = call (w, &e, d, name);
    }

done:
  if (action == GONE)
    return 0;
  if (action == WALK_STOP)
    return WALK_STOP;
  account (w, d, action, 0, name);
  return 0;
}

/* --- the way back up ----------------------------------------------- */

/* Open lv[UPTO] again from NAME down, by the names of the levels, each
   checked against its stat: the way up from a level entered through a
   symbolic link, whose ".." is another directory.  Only lv[UPTO] stays
   open (every level above it is closed: the caller found it closed).  */
static int
reach_by_names (struct walk *w, size_t upto)
{
  int fd = -1;
  for (size_t i = 0; i <= upto; i++)
    {
      int next = open_level (w, i ? fd : w->root_dirfd, i);
      if (fd >= 0)
        sys_close (fd);
      if (next < 0)
        return next;
      struct stat st;
      int ret = stat_at (next, "", AT_EMPTY_PATH, &st, NULL);
      if (ret == 0 && !same_file (&st, &dir_of (w, i)->st))
        ret = -WALK_EMOVED;
      if (ret < 0)
        {
          sys_close (next);
          return ret;
        }
      fd = next;
    }
  dir_of (w, upto)->fd = fd;
  w->dirs.low = upto;
  return fd;
}

/* Open lv[depth - 1] again, as ".." of lv[depth] (or by names, if
   lv[depth] was entered through a link), and check it.  */
static int
reach_parent (struct walk *w)
{
  size_t d = depth (w);
  int fd = w->lv[d].linked ? reach_by_names (w, d - 1)
                           : walk_stack_fd (&w->dirs, d - 1);
  if (fd < 0)
    return fd;
  w->lv[d - 1].pos_ok = false;
  return 0;
}

/* Every level is closed (the way up by ".." failed): open them again
   from the root down by their names, checking each.  The first that is
   not what it was is reported and dropped with everything below it;
   reading goes on in its parent.  Return WALK_STOP, 1 if the walk is
   over, or 0.  */
static int
redescend (struct walk *w)
{
  size_t top = depth (w);
  for (size_t i = 0; i <= top; i++)
    {
      int dirfd = i ? dir_of (w, i - 1)->fd : w->root_dirfd;
      const char *name = level_name (w, i);
      /* Room first, unless the one to close is the one to open from.  */
      if (i >= w->dirs.max_fds && i - w->dirs.max_fds + 1 < i)
        {
          close_level (&w->dirs, i - w->dirs.max_fds);
        }
      int fd = open_level (w, dirfd, i);
      int ret = fd;
      struct stat st;
      if (fd >= 0)
        {
          ret = stat_at (fd, "", AT_EMPTY_PATH, &st, NULL);
          if (ret == 0 && !same_file (&st, &dir_of (w, i)->st))
            ret = -WALK_EMOVED;
          if (ret < 0)
            sys_close (fd);
        }
      if (ret < 0)
        {
          int err = ret == -ENOENT || ret == -ENOTDIR || ret == -ELOOP
                    ? WALK_EMOVED : -ret;
          struct walk_entry e = { .type = WALK_ERR, .dirfd = dirfd,
                                  .name = name, .fd = -1, .depth = i,
                                  .err = err, .is_dir = true };
          int action = call (w, &e, i ? i - 1 : 0, i ? name : NULL);
          uint64_t key = w->lv[i].key;
          /* Some of the levels above were opened again.  */
          w->dirs.low = i;
          while (w->dirs.low > 0 && dir_of (w, w->dirs.low - 1)->fd >= 0)
            w->dirs.low--;
          while (depth (w) > i)
            pop (w);
          pop (w);
          if (action == WALK_STOP)
            return WALK_STOP;
          if (i == 0)
            return 1;
          if (err == WALK_EMOVED)
            w->lv[i - 1].removed = true;
          else
            account (w, i - 1, action, key, NULL);
          return 0;
        }
      dir_of (w, i)->fd = fd;
      w->lv[i].pos_ok = false;
      if (w->dirs.max_fds == 1 && i > 0)
        {
          close_level (&w->dirs, i - 1);
        }
    }
  w->dirs.low = top + 1 > w->dirs.max_fds ? top + 1 - w->dirs.max_fds : 0;
  return 0;
}

/* lv[depth] could not go back to its parent (ERR): report it, leave it,
   and find the way back to the rest of the tree.  */
static int
lost (struct walk *w, int err)
{
  size_t d = depth (w);
  const char *name = level_name (w, d);
  struct walk_entry e = { .type = WALK_ERR, .dirfd = -1, .name = name,
                          .fd = dir_of (w, d)->fd, .st = &dir_of (w, d)->st,
                          .depth = d, .err = err, .is_dir = true };
  int action = call (w, &e, d - 1, name);
  uint64_t key = w->lv[d].key;
  pop (w);
  if (action == WALK_STOP)
    return WALK_STOP;
  /* Moved away, it is not in its parent any more: the parent's listing
     changed.  Otherwise it is still there.  */
  if (err == WALK_EMOVED)
    w->lv[d - 1].removed = true;
  else
    account (w, d - 1, action, key, NULL);
  return redescend (w);
}

/* Whether the directory open as FD is removed: no name leads to it any
   more (a subtree removed, or moved to another file system, during the
   walk).  */
static bool
removed (int fd)
{
  struct stat st;
  return stat_at (fd, "", AT_EMPTY_PATH, &st, NULL) == 0
         && st.st_nlink == 0;
}

/* lv[depth], removed, could not be read.  Return whether its parent is
   removed too: the subtree removed begins above it, and only its
   top-most level is reported, not each level the walk climbs back
   through (each fails to be read, thousands in a deep tree).  The
   parent is opened again if it was closed.  */
static bool
parent_removed (struct walk *w)
{
  size_t d = depth (w);
  if (d == 0 || (dir_of (w, d - 1)->fd < 0 && reach_parent (w) < 0))
    return false;
  return removed (dir_of (w, d - 1)->fd);
}

/* lv[depth] is read to its end (or, if UNREAD, to a batch short enough
   that its end is likely: see WALK_EARLY_END): visit it in post-order and
   leave it.  Return WALK_STOP, 1 if the walk is over, or 0.  */
static int
leave (struct walk *w, bool unread)
{
  size_t d = depth (w);
  if (d > 0 && dir_of (w, d - 1)->fd < 0)
    {
      int ret = reach_parent (w);
      if (ret < 0)
        return lost (w, -ret);
    }
  struct level *l = &w->lv[d];
  const char *name = level_name (w, d);
  struct walk_entry e = { .type = WALK_DIR_POST,
                          .dirfd = d ? dir_of (w, d - 1)->fd : w->root_dirfd,
                          .name = name, .fd = dir_of (w, d)->fd,
                          .st = &dir_of (w, d)->st,
                          .depth = d, .is_dir = true, .kept = l->kept,
                          .complete = !l->removed,
                          .rescans = l->rescans, .unread = unread };
  int action = call (w, &e, d ? d - 1 : 0, d ? name : NULL);
  if (action == WALK_RESCAN && unread)
    {
      /* Not the end: read on.  */
      l->short_batch = false;
      return 0;
    }
  if (action == WALK_RESCAN && (w->flags & WALK_REMOVING))
    {
      l->rescans++;
      l->removed = false;
      l->short_batch = false;
      l->resume = 0;
      l->pos_ok = false;
      w->buf_pos = w->buf_len = 0;
      return 0;
    }
  uint64_t key = l->key;
  pop_level (w, true);
  if (action == WALK_STOP)
    return WALK_STOP;
  if (d == 0)
    return 1;
  account (w, d - 1, action, key, NULL);
  return 0;
}

static bool
dot_or_dotdot (const char *name)
{
  return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

struct by_ino
{
  uint64_t ino;
  size_t off;
};

static int
cmp_ino (const void *a, const void *b)
{
  const struct by_ino *x = a, *y = b;
  return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* A removing walk handles the batch's files (anything d_type says is not
   a directory) first, in the order of their inode numbers: on ext4,
   removing them in that order touches the inode table in order, and
   takes a fifth less time than in the order of the listing.  Then the
   directories, in the order of the listing.  Reading resumes after the
   last entry handled in that order; the files after it that were handled
   already are gone, or were left in place and are in the kept set.  */
static int
files_first (struct walk *w)
{
  size_t n = 0;
  for (size_t off = 0; off < w->buf_len; )
    {
      struct nc_dirent64 *de = (struct nc_dirent64 *) (w->buf + off);
      if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN
          && !dot_or_dotdot (de->d_name))
        w->order[n++] = (struct by_ino) { de->d_ino, off };
      off += de->d_reclen;
    }
  qsort (w->order, n, sizeof *w->order, cmp_ino);
  struct level *l = &w->lv[depth (w)];
  for (size_t i = 0; i < n; i++)
    {
      struct nc_dirent64 *de
        = (struct nc_dirent64 *) (w->buf + w->order[i].off);
      unsigned char dtype = de->d_type;
      de->d_type = DT_DONE;
      if (l->kept_set.used && set_has (&l->kept_set, entry_key (de->d_name)))
        continue;
      if (entry (w, de->d_name, dtype, de->d_ino, false) == WALK_STOP)
        return WALK_STOP;
    }
  return 0;
}

/* The offset of the batch's last entry still to handle, or SIZE_MAX.  */
static size_t
last_to_handle (const struct walk *w)
{
  size_t last = SIZE_MAX;
  for (size_t off = 0; off < w->buf_len; )
    {
      const struct nc_dirent64 *de
        = (const struct nc_dirent64 *) (w->buf + off);
      if (de->d_type != DT_DONE && !dot_or_dotdot (de->d_name))
        last = off;
      off += de->d_reclen;
    }
  return last;
}

/* Read a batch of lv[depth]'s entries into the buffer, from its resume
   offset (an lseek first, unless the descriptor is there already).
   Return the bytes read, 0 at the end of the directory, or -errno.  */
static ssize_t
read_batch (struct walk *w)
{
  struct level *l = &w->lv[depth (w)];
  struct walk_dir *ld = dir_of (w, depth (w));
  ssize_t n = 0;
  if (!l->pos_ok)
    {
      off_t off = sys_lseek (ld->fd, l->resume, SEEK_SET);
      if (off < 0)
        n = off;
      else
        l->pos_ok = true;
    }
  /* An interrupted read of a directory (FUSE, NFS) is retried, not
     reported as an entry that cannot be read.  */
  if (l->pos_ok)
    while ((n = sys_getdents64 (ld->fd, w->buf, WALK_BUFSIZE)) == -EINTR)
      continue;
  return n;
}

/* Visit lv[depth], which could not be read (ERR), as a WALK_ERR.  Return
   the visit's action.  */
static int
unreadable (struct walk *w, int err)
{
  size_t d = depth (w);
  struct walk_dir *ld = dir_of (w, d);
  const char *name = level_name (w, d);
  struct walk_entry e = { .type = WALK_ERR,
                          .dirfd = d ? dir_of (w, d - 1)->fd : w->root_dirfd,
                          .name = name, .fd = ld->fd, .st = &ld->st,
                          .depth = d, .err = err, .is_dir = true };
  return call (w, &e, d ? d - 1 : 0, d ? name : NULL);
}

/* What next_batch did: read a batch to handle, left lv[depth] (read the
   one it was in next), ended the walk, or was told to stop.  */
enum batch { BATCH_READ, BATCH_LEFT, BATCH_OVER, BATCH_STOP };

/* Leave lv[depth] (see leave) and say what next_batch did.  */
static enum batch
leave_batch (struct walk *w, bool unread)
{
  int ret = leave (w, unread);
  if (ret == WALK_STOP)
    return BATCH_STOP;
  return ret == 1 || w->dirs.n == 0 ? BATCH_OVER : BATCH_LEFT;
}

/* The buffer is handled: read lv[depth]'s next batch, a removing walk's
   files handled first.  At the directory's end, or if it cannot be read
   (reported, unless it went with a removed subtree: see parent_removed),
   leave it.  */
static enum batch
next_batch (struct walk *w)
{
  struct level *l = &w->lv[depth (w)];
  if (l->short_batch && !l->kept && (w->flags & WALK_EARLY_END))
    return leave_batch (w, true);
  ssize_t n = read_batch (w);
  /* Removed, it fails to be read with ENOENT, or with EINVAL from the
     lseek on tmpfs: ENOENT is what it is.  */
  bool gone = n < 0 && removed (dir_of (w, depth (w))->fd);
  if (gone)
    n = -ENOENT;
  if (n < 0 && !(gone && parent_removed (w))
      && unreadable (w, (int) -n) == WALK_STOP)
    return BATCH_STOP;
  /* What could not be read is left in place, unless it is removed with
     the directory.  */
  if (n < 0 && !gone)
    l->kept++;
  if (n <= 0)
    return leave_batch (w, false);
  /* A file system fills the buffer as far as the directory goes; one
     that stops short of it at other times (a network one) costs a
     failed rmdir at most (see WALK_EARLY_END).  */
  l->short_batch = (size_t) n <= WALK_BUFSIZE / 2;
  w->buf_len = n;
  w->buf_pos = 0;
  if (w->order && files_first (w) == WALK_STOP)
    return BATCH_STOP;
  w->buf_last = last_to_handle (w);
  return BATCH_READ;
}

/* Handle the next entry of the batch, one of lv[D]'s.  Return WALK_STOP
   or 0.  */
static int
next_entry (struct walk *w, size_t d)
{
  struct level *l = &w->lv[d];
  size_t off = w->buf_pos;
  struct nc_dirent64 *de = (struct nc_dirent64 *) (w->buf + off);
  w->buf_pos += de->d_reclen;
  l->resume = de->d_off;
  if (de->d_type == DT_DONE)
    return 0;
  if (dot_or_dotdot (de->d_name))
    {
      if (de->d_name[1] == '\0')
        l->dino_ok = de->d_ino == (uint64_t) dir_of (w, d)->st.st_ino;
      return 0;
    }
  /* Left in place before a rescan, or before going down into a
     directory listed earlier.  */
  if (l->kept_set.used && set_has (&l->kept_set, entry_key (de->d_name)))
    return 0;
  return entry (w, de->d_name, de->d_type, de->d_ino, off == w->buf_last);
}

static int
walk_loop (struct walk *w)
{
  for (;;)
    {
      size_t d = depth (w);
      if (w->buf_pos >= w->buf_len)
        switch (next_batch (w))
          {
          case BATCH_STOP:
            return WALK_STOP;
          case BATCH_OVER:
            return 0;
          case BATCH_LEFT:
            continue;
          case BATCH_READ:
            break;
          }
      if (next_entry (w, d) == WALK_STOP)
        return WALK_STOP;
    }
}

/* Walk NAME from the directory FD (the walk owns it from now on), whose
   stat is ST, till the walk is over.  Return what walk_loop returns.  */
static int
walk_tree (struct walk *w, int fd, const struct stat *st, size_t max_fds)
{
  w->root_dev = st->st_dev;
  w->nalloc = 16;
  w->lv = xnmalloc (w->nalloc, sizeof *w->lv);
  w->lv[0] = (struct level) { .pos_ok = true,
                              .linked = w->flags & WALK_FOLLOW_TOP };
  /* The top directory's visit may have asked to be told of closes.  */
  void (*closing) (int fd, void *arg) = w->dirs.closing;
  void *closing_arg = w->dirs.closing_arg;
  walk_stack_init (&w->dirs, max_fds);
  walk_on_closing (w, closing, closing_arg);
  walk_stack_push (&w->dirs, fd, st);
  w->buf = xmalloc (WALK_BUFSIZE);
  if ((w->flags & WALK_REMOVING) && !(w->flags & WALK_STAT))
    w->order = xnmalloc (WALK_BUFSIZE / MIN_RECLEN, sizeof *w->order);
  int action = walk_loop (w);
  while (w->dirs.n > 0)
    pop (w);
  walk_stack_free (&w->dirs);
  free (w->lv);
  free (w->names);
  free (w->buf);
  free (w->saved);
  free (w->order);
  return action;
}

/* NAME, E, a directory as ST says: open it, check that it is the one
   stat'ed, visit it, and walk it unless the visit says not to.  Return
   the action of the last visit.  */
static int
walk_top_dir (struct walk *w, struct walk_entry *e, const struct stat *st,
              size_t max_fds)
{
  e->is_dir = true;
  int fd = w->flags & WALK_FOLLOW_TOP
           ? open_dir_follow (w->root_dirfd, w->root_name)
           : open_dir_retry (w->root_dirfd, w->root_name);
  if (fd == -ENOTDIR || fd == -ELOOP)
    return visit_replaced (w, e, 0, NULL);
  if (fd < 0)
    {
      e->err = -fd;
      return call (w, e, 0, NULL);
    }
  struct stat dst;
  int ret = stat_at (fd, "", AT_EMPTY_PATH, &dst, NULL);
  if (ret == 0 && !same_file (st, &dst))
    ret = -WALK_ECHANGED;
  if (ret < 0)
    {
      sys_close (fd);
      e->err = -ret;
      return call (w, e, 0, NULL);
    }
  e->type = WALK_DIR;
  e->fd = fd;
  e->st = &dst;
  int action = call (w, e, 0, NULL);
  if (action == WALK_SKIP || action == WALK_STOP)
    {
      sys_close (fd);
      return action;
    }
  return walk_tree (w, fd, &dst, max_fds);
}

/* --- the interface ------------------------------------------------- */

int
walk_at (int dirfd, const char *name, int flags, const char *display,
         walk_fn visit, void *arg)
{
  return walk_at_fds (dirfd, name, flags, WALK_MAX_FDS, display, visit, arg);
}

int
walk_at_fds (int dirfd, const char *name, int flags, size_t max_fds,
             const char *display, walk_fn visit, void *arg)
{
  struct walk w = { .flags = flags, .visit = visit, .arg = arg,
                    .root_dirfd = dirfd, .root_name = name,
                    .display = display ? display : name };
  struct walk_entry e = { .type = WALK_ERR, .dirfd = dirfd, .name = name,
                          .fd = -1, .depth = 0 };
  struct stat st;
  bool follow = flags & WALK_FOLLOW_TOP;
  int ret = stat_at (dirfd, name, follow ? 0 : AT_SYMLINK_NOFOLLOW, &st,
                     NULL);
  int action;
  if (ret < 0)
    {
      e.err = -ret;
      action = call (&w, &e, 0, NULL);
    }
  else if (!S_ISDIR (st.st_mode))
    {
      e.type = dtype_type (IFTODT (st.st_mode));
      e.st = &st;
      e.followed = follow;
      action = call (&w, &e, 0, NULL);
    }
  else
    action = walk_top_dir (&w, &e, &st, max_fds);
  free (w.path);
  return action == WALK_STOP ? WALK_STOP : 0;
}

void
walk_on_closing (struct walk *w, void (*closing) (int fd, void *arg),
                 void *arg)
{
  w->dirs.closing = closing;
  w->dirs.closing_arg = arg;
}

const char *
walk_path (struct walk *w)
{
  size_t dlen = strlen (w->display);
  size_t nlen = w->cur_level ? w->lv[w->cur_level].name
                               + strlen (w->names + w->lv[w->cur_level].name)
                             : 0;
  size_t clen = w->cur_name ? strlen (w->cur_name) : 0;
  size_t need = dlen + 1 + nlen + 1 + clen + 1;
  if (w->path_alloc < need)
    {
      free (w->path);
      w->path = xmalloc (need);
      w->path_alloc = need;
    }
  char *p = w->path;
  memcpy (p, w->display, dlen);
  p += dlen;
  if (nlen)
    {
      if (p > w->path && p[-1] != '/')
        *p++ = '/';
      memcpy (p, w->names, nlen);
      for (size_t i = 0; i < nlen; i++)
        if (p[i] == '\0')
          p[i] = '/';
      p += nlen;
    }
  if (w->cur_name)
    {
      if (p > w->path && p[-1] != '/')
        *p++ = '/';
      memcpy (p, w->cur_name, clen);
      p += clen;
    }
  *p = '\0';
  return w->path;
}

const char *
walk_strerror (int err)
{
  switch (err)
    {
    case WALK_ECHANGED:
      return "Directory replaced during the walk";
    case WALK_EMOVED:
      return "Directory moved during the walk";
    case WALK_ECYCLE:
      return "Symbolic link to a directory it is in";
    default:
      return strerror (err);
    }
}
