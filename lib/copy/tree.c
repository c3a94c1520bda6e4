/* copy/tree.c -- copy a directory tree; see copy/tree.h.  */

#include <config.h>

#include "copy/tree.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "copy/attrs.h"
#include "copy/dest.h"
#include "copy/file.h"
#include "copy/inodes.h"
#include "copy/install.h"
#include "copy/jobs.h"
#include "copy/msg.h"
#include "copy/names.h"
#include "same-inode.h"
#include "sys/calls.h"
#include "sys/fdroom.h"
#include "xalloc.h"

/* --- trees --------------------------------------------------------- */

/* The destination side of a walk: one level per source directory being
   walked.  The copies' descriptors are a walk_stack, bounded as the
   walker's (a closed one is found again through ".." and checked); beside
   it, what is needed to set a copy's attributes on the way out.  */
struct dlevel
{
  struct stat src_st;   /* the source directory */
  mode_t made_mode;     /* the mode it was made with */
  bool fresh;           /* made by this run: empty to begin with */
  bool linked;          /* reached through a symbolic link: left as is */
  bool default_acl;     /* files made in it inherit an ACL */
  /* With workers: the directories its files are copied with, or NULL
     (none queued yet, or let go of to bound the descriptors).  */
  struct copy_dirs *files;
};

/* A directory's last step, its attributes, deferred until its files are
   copied (with workers): its parent (a descriptor of our own, or
   dst_parent) and name, for set_entry_attrs.  */
struct leave
{
  int parent;
  char *name;
  char *dst;
  struct stat src_st;
  mode_t made_mode;
  bool fresh;
  bool linked;
  mode_t inherited;             /* the mode bits it got from its parent */
  struct copy_dirs *files;      /* its files, or NULL */
};

/* What a walk needs open besides the two stacks of directories, at most:
   the source file, the copy, the file it replaces (read for its ACL), a
   directory a symbolic link at the destination leads to, and splice's
   internal pipe.  */
enum { FILE_FDS = 6 };

struct copy_tree
{
  const struct copy_options *x;
  const char *src_display;
  size_t src_display_len;
  int dst_parent;       /* the directory of the top copy */
  dev_t dst_parent_dev;
  ino_t dst_parent_ino;
  bool dst_parent_acl;  /* it has a default ACL */
  mode_t dst_parent_mode;
  const char *dst_name;
  const char *dst_display;
  struct walk_stack dirs;  /* the copies, as made, lv[i]'s in dirs.dir[i] */
  /* Every directory of the copy entered so far (made or filled), by
     device and inode: a source directory that is one of them, or
     dst_parent, is the copy itself, met again through a bind mount or
     moved into the source, whose walk would never end.  */
  struct ino_map ours;
  struct dlevel *lv;
  size_t nalloc;
  char *path;           /* scratch for dst_path */
  size_t path_alloc;
  char *lpath;          /* scratch for link_path */
  size_t lpath_alloc;
  int link_base;        /* what link_path is relative to */
  const char *link_prefix;  /* before the top copy's name in it */
  /* Workers (copy/jobs.h), started at the first file below the top:
     JOBS asked, POOL once started, then X is its copy_pool_options.  */
  unsigned int jobs;
  struct copy_pool *pool;
  /* The levels' copy_dirs: at most MAX_DIRS held (two descriptors each),
     none below level DIRS_LOW.  */
  size_t max_dirs, live_dirs, dirs_low;
  /* The deferred leaves, oldest first: at most MAX_DIRS, a descriptor
     each, in a ring.  */
  struct leave *leaves;
  size_t leaves_head, nleaves;
};

/* The path of the entry W is visiting below the top copy, in the
   scratch *BUF of *ALLOC bytes (grown as needed): HEAD, NAME, then what
   follows the source's path in walk_path, after a slash unless that
   starts with one or what comes before is empty or ends in one.  */
static const char *
path_below (const struct copy_tree *t, struct walk *w, const char *head,
            const char *name, char **buf, size_t *alloc)
{
  const char *s = walk_path (w) + t->src_display_len;
  size_t need = strlen (head) + strlen (name) + strlen (s) + 2;
  if (*alloc < need)
    {
      free (*buf);
      *alloc = 2 * need;
      *buf = xmalloc (*alloc);
    }
  char *p = stpcpy (stpcpy (*buf, head), name);
  if (*s && *s != '/' && p > *buf && p[-1] != '/')
    *p++ = '/';
  strcpy (p, s);
  return *buf;
}

/* The destination path of the entry being visited: the top copy's
   display name, then what follows the source's in walk_path.  */
static const char *
dst_path (struct copy_tree *t, struct walk *w)
{
  return path_below (t, w, "", t->dst_display, &t->path, &t->path_alloc);
}

/* The copy's path relative to link_base, for hard links.  */
static const char *
link_path (struct copy_tree *t, struct walk *w)
{
  return path_below (t, w, t->link_prefix, t->dst_name, &t->lpath,
                     &t->lpath_alloc);
}

/* Let go of the copy_dirs of level D, once its files are done (their
   copies are complete: the directory's attributes may come).  */
static void
files_done (struct copy_tree *t, size_t d)
{
  struct dlevel *l = &t->lv[d];
  if (!l->files)
    return;
  copy_dirs_wait (t->pool, l->files);
  copy_dirs_put (t->pool, l->files);
  l->files = NULL;
  t->live_dirs--;
}

/* Forget the levels from D down that the walker left without a
   WALK_DIR_POST (it reports a source directory moved away and goes on
   above it, maybe hundreds of levels up): their copies are left as they
   are.  Level D - 1 must stay reachable, through the levels below it:
   the way up goes one level at a time, each level above opened again
   (as ".." of this one) before this one is closed, so that no more are
   open at once than the stack holds.  */
static void
drop_levels (struct copy_tree *t, size_t d)
{
  while (t->dirs.n > d)
    {
      size_t n = t->dirs.n;
      if (d > 0)
        walk_stack_fd (&t->dirs, n - 2);
      files_done (t, n - 1);
      walk_stack_pop (&t->dirs);
    }
}

/* The directory the copy of an entry at depth D goes in, and its
   device.  */
static int
parent_of (struct copy_tree *t, size_t d, dev_t *dev)
{
  if (d == 0)
    {
      *dev = t->dst_parent_dev;
      return t->dst_parent;
    }
  *dev = t->dirs.dir[d - 1].st.st_dev;
  return walk_stack_fd (&t->dirs, d - 1);
}

/* NAME of PARENT (DST in messages), where the copy of the source
   directory E (SRC) goes, exists: 0 to fill it (L->linked where it is a
   link --keep-directory-symlink goes through), 1 after a reported
   refusal, or -errno.  */
static int
existing_dir (const struct copy_options *x, const struct walk_entry *e,
              int parent, const char *name, const char *src,
              const char *dst, struct dlevel *l)
{
  /* A link there is a non-directory, as cp finds, but where
     --keep-directory-symlink goes through it.  */
  struct stat st;
  int ret = sys_fstatat (parent, name, &st,
                         x->keep_dir_symlink ? 0 : AT_SYMLINK_NOFOLLOW);
  if (ret < 0)
    return ret;
  if (!S_ISDIR (st.st_mode))
    {
      copy_fail2 (0, "cannot overwrite non-directory %s with directory %s",
                  dst, src);
      return 1;
    }
  if (SAME_INODE (st, *e->st))
    {
      copy_fail2 (0, "%s and %s are the same file", src, dst);
      return 1;
    }
  /* --keep-directory-symlink: a link there to a directory is gone
     through, the directory left as it is.  */
  struct stat lst;
  l->linked = x->keep_dir_symlink
              && sys_fstatat (parent, name, &lst, AT_SYMLINK_NOFOLLOW) == 0
              && S_ISLNK (lst.st_mode);
  return 0;
}

/* Open the copy NAME of PARENT, a directory (LINKED: through a link
   --keep-directory-symlink follows), and fill *ST: its descriptor, or
   -errno.  */
static int
open_copy_dir (struct copy_tree *t, int parent, const char *name,
               bool linked, struct stat *st)
{
  /* Fewer descriptors than counted (another thread, a library): the
     stack holds fewer levels from then on.  */
  int fd = linked ? sys_openat (parent, name, O_RDONLY | O_DIRECTORY
                                              | O_CLOEXEC, 0)
                  : walk_stack_open (&t->dirs, parent, name);
  int ret;
  if (fd >= 0 && (ret = sys_fstat (fd, st)) < 0)
    {
      sys_close (fd);
      fd = ret;
    }
  return fd;
}

/* Whether the source directory ST is the copy's directory or one of the
   copies made: the walk has reached its own output.  */
static bool
is_ours (const struct copy_tree *t, const struct stat *st)
{
  return (st->st_dev == t->dst_parent_dev && st->st_ino == t->dst_parent_ino)
         || ino_rec (&t->ours, st->st_dev, st->st_ino) != NULL;
}

static int
enter_dir (struct copy_tree *t, struct walk *w, const struct walk_entry *e)
{
  const struct copy_options *x = t->x;
  size_t d = e->depth;
  if (is_ours (t, e->st))
    {
      /* The rest of the walk would copy the copy, without end.  */
      copy_fail2 (0, "cannot copy a directory, %s, into itself, %s",
                  t->src_display, t->dst_display);
      return WALK_STOP;
    }
  if (t->pool)
    copy_pool_handoff (t->pool);
  drop_levels (t, d);
  dev_t dev;
  int parent = parent_of (t, d, &dev);
  const char *name = d ? e->name : t->dst_name;
  const char *dst = dst_path (t, w);
  if (parent < 0)
    {
      copy_fail_walk (-parent, "cannot create directory %s", dst);
      return WALK_SKIP;
    }
  if (d + 1 >= t->nalloc)
    {
      t->nalloc = 2 * t->nalloc + 16;
      t->lv = xnrealloc (t->lv, t->nalloc, sizeof *t->lv);
    }
  struct dlevel *l = &t->lv[d];
  *l = (struct dlevel) { .src_st = *e->st };

  /* Made writable and searchable by us at first, whatever the source
     says; the mode comes on the way out.  */
  bool fresh_parent = d > 0 && t->lv[d - 1].fresh;
  mode_t mode = dir_made_mode (x, e->st->st_mode);
  l->made_mode = mode & ~x->umask_bits;
  int ret = sys_mkdirat (parent, name, mode);
  if (ret == 0)
    l->fresh = true;
  else if (ret == -EEXIST && !fresh_parent)
    {
      ret = existing_dir (x, e, parent, name, walk_path (w), dst, l);
      if (ret == 1)
        return WALK_SKIP;
    }
  if (ret < 0)
    {
      copy_fail (-ret, "cannot create directory %s", dst);
      return WALK_SKIP;
    }

  struct stat dst_st;
  int fd = open_copy_dir (t, parent, name, l->linked, &dst_st);
  if (fd < 0)
    {
      copy_fail (-fd, "cannot open directory %s", dst);
      return WALK_SKIP;
    }
  walk_stack_push (&t->dirs, fd, &dst_st);
  ino_add (&t->ours, dst_st.st_dev, dst_st.st_ino, NULL);
  /* A directory's ACLs, the default one too, go with its mode; one it
     inherited is dropped where the source has none, as cp -a leaves.  */
  unsigned int acls = copy_kept_xattrs (x, e->fd, fd, dst);
  if (x->preserve.mode && (!l->fresh || (d ? t->lv[d - 1].default_acl
                                           : t->dst_parent_acl)))
    drop_acls (fd, true, acls, dst);
  l->default_acl = has_default_acl (fd);
  if (l->fresh)
    copy_tell_dir_made (x);
  /* cp -v names the directories it makes, not those it fills.  */
  if (x->verbose && l->fresh)
    copy_tell_copied (x, walk_path (w), dst, false);
  return WALK_CONTINUE;
}

/* Give the directory of L its attributes: the last step of its copy.  */
static void
set_dir_attrs (struct copy_tree *t, const struct leave *l)
{
  if (l->linked)
    return;
  set_entry_attrs (t->x, l->parent, l->name, &l->src_st, l->dst,
                   l->fresh ? l->made_mode : (mode_t) -1, l->inherited);
}

/* Apply the oldest deferred leave; with WAIT, once its files are done,
   else only if they are.  Return whether it was applied.  */
static bool
leave_oldest (struct copy_tree *t, bool wait)
{
  if (t->nleaves == 0)
    return false;
  struct leave *l = &t->leaves[t->leaves_head];
  if (l->files)
    {
      if (wait)
        copy_dirs_wait (t->pool, l->files);
      else if (!copy_dirs_idle (t->pool, l->files))
        return false;
      copy_dirs_put (t->pool, l->files);
      t->live_dirs--;
    }
  set_dir_attrs (t, l);
  if (l->parent != t->dst_parent)
    sys_close (l->parent);
  free (l->name);
  free (l->dst);
  t->leaves_head = (t->leaves_head + 1) % t->max_dirs;
  t->nleaves--;
  return true;
}

/* Defer the leave of level D (its files still being copied, or leaves
   before it deferred): its attributes come once its files are done, in
   the order of the walk (a child's before its parent's, which may take
   away the search permission).  Return false if it cannot be (no room
   for the parent's descriptor): the caller waits and does it itself.  */
static bool
defer_leave (struct copy_tree *t, const struct leave *now, size_t d)
{
  struct dlevel *lv = &t->lv[d];
  if (!lv->files && t->nleaves == 0)
    return false;
  if (t->nleaves == t->max_dirs)
    leave_oldest (t, true);
  struct leave l = *now;
  if (l.parent != t->dst_parent
      && (l.parent = sys_fcntl (now->parent, F_DUPFD_CLOEXEC, 0)) < 0)
    {
      /* Those before it first, then this one, waited for.  */
      while (leave_oldest (t, true))
        ;
      return false;
    }
  l.name = xstrdup (now->name);
  l.dst = xstrdup (now->dst);
  l.files = lv->files;
  lv->files = NULL;
  t->leaves[(t->leaves_head + t->nleaves) % t->max_dirs] = l;
  t->nleaves++;
  /* And those whose files are done meanwhile.  */
  while (leave_oldest (t, false))
    ;
  return true;
}

/* Leave the copy of level D, the deepest, NAME in its parent (DST in
   messages): its attributes now, or once its files are copied.  */
static void
leave_level (struct copy_tree *t, size_t d, const char *name,
             const char *dst)
{
  struct dlevel *l = &t->lv[d];
  dev_t dev;
  int parent = parent_of (t, d, &dev);
  struct leave now = {
    .parent = parent, .name = (char *) name,
    .dst = (char *) dst, .src_st = l->src_st,
    .made_mode = l->made_mode, .fresh = l->fresh, .linked = l->linked,
    .inherited = t->dirs.dir[d].st.st_mode & S_ISGID,
  };
  if (parent < 0)
    {
      files_done (t, d);
      copy_fail_walk (-parent, "cannot set the attributes of %s", now.dst);
    }
  else if (!t->pool || !defer_leave (t, &now, d))
    {
      files_done (t, d);
      set_dir_attrs (t, &now);
    }
  /* The level above is read next; the walker holds it open, and so do
     we: parent_of opened it again if it was closed.  */
  walk_stack_pop (&t->dirs);
}

static int
leave_dir (struct copy_tree *t, struct walk *w, const struct walk_entry *e)
{
  size_t d = e->depth;
  drop_levels (t, d + 1);
  leave_level (t, d, d ? e->name : t->dst_name, dst_path (t, w));
  return WALK_CONTINUE;
}

/* The walk stops at E (a directory not entered): leave the copies of
   the levels above it, deepest first, as their WALK_DIR_POST would (cp
   gives them their attributes on its way out too).  Their names are in
   the path of E; the levels below them that the walker abandoned before
   are left as they are (see drop_levels).  */
static void
leave_all (struct copy_tree *t, struct walk *w, const struct walk_entry *e)
{
  size_t d = e->depth;
  drop_levels (t, d);
  char *dst = xstrdup (dst_path (t, w));
  while (d-- > 0)
    {
      /* DST becomes the path of level D: its last name is E's, or that
         of the level left before.  */
      *strrchr (dst, '/') = '\0';
      leave_level (t, d, d ? strrchr (dst, '/') + 1 : t->dst_name,
                   d ? dst : t->dst_display);
    }
  free (dst);
}

/* Before the special file E (ST, SRC) is copied as what it is over the
   existing NAME of PARENT (DST_ST, DST): 1 to go on, 0 when there is
   nothing to do, -1 after a reported error.  A symbolic link copied onto
   the file it leads to would leave a link to itself in place of the
   data; onto another name of itself (a hard link of a link) there is
   nothing to do, as cp finds.  */
static int
same_special (const struct walk_entry *e, const struct stat *st, int parent,
              const char *name, const struct stat *dst_st, const char *src,
              const char *dst)
{
  if (!S_ISLNK (st->st_mode))
    return 1;
  if (S_ISLNK (dst_st->st_mode))
    {
      if (!SAME_INODE (*st, *dst_st))
        return 1;
      /* One name, or two in one directory?  (At the top of the walk,
         E's name is the operand, a path.)  */
      char *base = copy_base_name (e->name);
      size_t dir_len = strlen (e->name) - strlen (base);
      char *dir = dir_len ? ximemdup0 (e->name, dir_len) : xstrdup ("");
      struct stat a, b;
      bool one_name
        = st->st_nlink == 1
          || (strcmp (base, name) == 0
              && sys_fstatat (e->dirfd, dir, &a, AT_EMPTY_PATH) == 0
              && sys_fstatat (parent, "", &b, AT_EMPTY_PATH) == 0
              && SAME_INODE (a, b));
      free (dir);
      free (base);
      if (!one_name)
        return 0;
    }
  else
    {
      struct stat to;
      if (sys_fstatat (e->dirfd, e->name, &to, 0) < 0
          || !SAME_INODE (to, *dst_st))
        return 1;
    }
  copy_fail2 (0, "%s and %s are the same file", src, dst);
  return -1;
}

/* The target of the symbolic link NAME of DIRFD (ST), in a new string;
   NULL after a reported failure (SRC in messages).  */
static char *
read_link (int dirfd, const char *name, const struct stat *st,
           const char *src)
{
  char *target = NULL;
  size_t size = st->st_size > 0 ? (size_t) st->st_size + 1 : 256;
  for (;;)
    {
      target = xrealloc (target, size);
      ssize_t n = sys_readlinkat (dirfd, name, target, size);
      if (n == -EINVAL)
        {
          /* Not a link any more: replaced since it was looked at.  */
          copy_fail (0, "%s changed while being copied; skipped", src);
          free (target);
          return NULL;
        }
      if (n < 0)
        {
          copy_fail (-n, "cannot read symbolic link %s", src);
          free (target);
          return NULL;
        }
      if ((size_t) n < size)
        {
          target[n] = '\0';
          return target;
        }
      size *= 2;
    }
}

/* Whether the special file E (ST, SRC) may be copied over DST_ST, the
   existing NAME of PARENT (DST): 1 to go on, 0 when there is nothing to
   do, -1 after a reported error.  */
static int
special_may_replace (const struct copy_options *x,
                     const struct walk_entry *e, const struct stat *st,
                     int parent, const char *name,
                     const struct stat *dst_st, const char *src,
                     const char *dst)
{
  int go = 1;
  /* With --backup only the same entry is refused, as cp refuses it.  */
  if (x->backup == BACKUP_NONE)
    go = same_special (e, st, parent, name, dst_st, src, dst);
  else if (SAME_INODE (*st, *dst_st)
           && same_entry (AT_FDCWD, src, parent, name))
    {
      copy_fail2 (0, "%s and %s are the same file", src, dst);
      go = -1;
    }
  if (go > 0 && x->backup != BACKUP_NUMBERED && copy_made_here (x, dst_st))
    {
      copy_fail2 (0, "will not overwrite just-created %s with %s", dst, src);
      go = -1;
    }
  if (go > 0)
    go = may_replace (x, st, dst_st, src, dst);
  /* With no data to copy, cp does not remove what is there (unless
     --remove-destination or a backup): making the link or node fails.  */
  if (go > 0 && x->attributes_only && !x->remove_dest
      && x->backup == BACKUP_NONE && !S_ISDIR (dst_st->st_mode))
    {
      copy_fail_create (EEXIST, st->st_mode, dst);
      go = -1;
    }
  return go;
}

/* Make NAME of PARENT the special file ST (a symbolic link to TARGET),
   with its attributes: at a temporary name if something is in the way
   (EXISTS), then renamed over it.  Return 0, or -1 after a reported
   failure.  */
static int
make_special (const struct copy_options *x, int parent, const char *name,
              const struct stat *st, const char *target, bool exists,
              const char *dst)
{
  const char *make = exists ? install_tmp_name (parent) : name;
  mode_t made_mode = 0;
  int ret = 0;
  for (int tries = 0; tries < 100; tries++)
    {
      if (S_ISLNK (st->st_mode))
        ret = sys_symlinkat (target, parent, make);
      else
        {
          made_mode = st->st_mode & 0777 & ~x->umask_bits;
          ret = sys_mknodat (parent, make, (st->st_mode & S_IFMT)
                             | (st->st_mode & 0777), st->st_rdev);
        }
      if (ret != -EEXIST || !exists)
        break;
      make = install_tmp_name (parent);
    }
  if (exists && ret == 0)
    install_tmp_made ();
  if (ret < 0)
    {
      if (exists)
        install_tmp_forget ();
      copy_fail_create (-ret, st->st_mode, dst);
      return -1;
    }
  set_entry_attrs (x, parent, make, st, dst, made_mode, 0);
  if (exists && (ret = install_rename (parent, make, name)) < 0)
    {
      copy_fail_install (-ret, st->st_mode, dst);
      return -1;
    }
  return 0;
}

static void copy_regular (struct copy_tree *t, struct walk *w,
                          const struct walk_entry *e, bool followed);

/* The source E of copy_special, SRC in messages: its status in *ST (of
   the file a followed link names) and, a symbolic link, its text in
   *TARGET.  False after a report, or where it vanished below the top.  */
static bool
special_source (const struct walk_entry *e, const char *src,
                struct stat *st, char **target)
{
  int ret = sys_fstatat (e->dirfd, e->name, st,
                         e->followed ? 0 : AT_SYMLINK_NOFOLLOW);
  if (ret < 0)
    {
      if (ret != -ENOENT || e->depth == 0)
        copy_fail (-ret, "cannot stat %s", src);
      return false;
    }
  if (S_ISREG (st->st_mode) || S_ISDIR (st->st_mode))
    {
      copy_fail (0, "%s changed while being copied; skipped", src);
      return false;
    }
  return !S_ISLNK (st->st_mode)
         || (*target = read_link (e->dirfd, e->name, st, src)) != NULL;
}

/* What is at NAME of PARENT (DST in messages), where copy_special makes
   the copy of E (ST; SRC): 0 nothing; 1 something, in *DST_ST, that may
   be replaced, its backup made (*BACKUP) where one is asked; -1 to leave
   it (reported where that is a failure).  */
static int
special_dest (const struct copy_options *x, const struct walk_entry *e,
              const struct stat *st, int parent, const char *name,
              struct stat *dst_st, const char *src, const char *dst,
              char **backup)
{
  if (sys_fstatat (parent, name, dst_st, AT_SYMLINK_NOFOLLOW) < 0)
    return 0;
  if (special_may_replace (x, e, st, parent, name, dst_st, src, dst) <= 0)
    return -1;
  if (x->backup != BACKUP_NONE && !S_ISDIR (dst_st->st_mode)
      && dest_backup (x, parent, name, dst, backup) < 0)
    return -1;
  return 1;
}

/* Copy a symbolic link, FIFO, socket or device E as what it is; with
   -l or -s, as a regular file is (a link to it, copy/link.h).  */
static void
copy_special (struct copy_tree *t, struct walk *w, const struct walk_entry *e)
{
  if (t->x->link != COPY_LINK_NONE)
    {
      copy_regular (t, w, e, e->followed);
      return;
    }
  const struct copy_options *x = t->x;
  size_t d = e->depth;
  dev_t dev;
  int parent = parent_of (t, d, &dev);
  const char *name = d ? e->name : t->dst_name;
  const char *src = walk_path (w);
  char *srcdup = xstrdup (src);
  const char *dst = dst_path (t, w);
  struct stat st;
  char *target = NULL;
  char *backup = NULL;
  bool claimed = false;
  if (parent < 0)
    {
      copy_fail_walk (-parent, "cannot create %s", dst);
      goto out;
    }
  if (!special_source (e, srcdup, &st, &target))
    goto out;

  bool fresh = d > 0 && t->lv[d - 1].fresh;
  struct stat dst_st;
  int there = fresh ? 0 : special_dest (x, e, &st, parent, name, &dst_st,
                                        srcdup, dst, &backup);
  if (there < 0)
    goto out;
  bool exists = there > 0;

  /* -L makes one file of every name a tree has for it, as cp -L.  */
  bool track = x->preserve.links
               && (st.st_nlink > 1 || x->deref == COPY_DEREF_ALWAYS);
  if (track)
    {
      const char *first;
      struct put p = { .how = exists ? PUT_REPLACE : PUT_NEW,
                       .dirfd = parent, .name = name, .st = dst_st };
      if (copy_link_claim (st.st_dev, st.st_ino, &first) == LINK_MINE)
        claimed = true;
      else if (link_over (t->link_base, first, &p) == 0)
        {
          copy_tell_backed_up (x, srcdup, dst, backup, false);
          goto out;
        }
    }

  if (make_special (x, parent, name, &st, target, exists, dst) < 0)
    {
      if (backup)
        dest_unbackup (parent, name, dst, backup);
      goto out;
    }
  copy_made_name (x, parent, name);
  if (track)
    {
      copy_link_add (st.st_dev, st.st_ino, link_path (t, w));
      claimed = false;
    }
  copy_tell_backed_up (x, srcdup, dst, backup, true);
out:
  if (claimed)
    copy_link_drop (st.st_dev, st.st_ino);
  free (backup);
  free (target);
  free (srcdup);
}

/* The copy_dirs for the files of level D (parent PARENT on DEV), made if
   need be; NULL if none can be (the walk copies them itself).  */
static struct copy_dirs *
files_dirs (struct copy_tree *t, const struct walk_entry *e, size_t d,
            int parent, dev_t dev)
{
  struct dlevel *l = &t->lv[d];
  if (l->files)
    return l->files;
  /* Beyond the bound, the deferred leaves go first, then the shallowest
     level's copy_dirs: their files were queued first, and are done
     first.  */
  while (t->live_dirs >= t->max_dirs && leave_oldest (t, true))
    ;
  while (t->live_dirs >= t->max_dirs && t->dirs_low < d)
    files_done (t, t->dirs_low++);
  if (t->live_dirs >= t->max_dirs)
    return NULL;
  l->files = copy_dirs_new (t->pool, e->dirfd, parent, dev);
  if (l->files)
    {
      t->live_dirs++;
      if (t->dirs_low > d)
        t->dirs_low = d;
    }
  return l->files;
}

/* Whether the files below the top go to workers: they are started at
   the first (a tree of directories only needs none).  */
static bool
use_workers (struct copy_tree *t)
{
  if (t->jobs > 1 && !t->pool)
    {
      t->pool = copy_pool_start (t->x, t->jobs, t->link_base);
      if (t->pool)
        t->x = copy_pool_options (t->pool);
      else
        t->jobs = 1;
    }
  return t->pool != NULL;
}

/* Copy the regular file E: queued for a worker below the top, where
   there are workers; else here.  FOLLOWED: E is a symbolic link (-L),
   copied as the file it names, which is read whatever it is, by the walk
   itself.  */
static void
copy_regular (struct copy_tree *t, struct walk *w, const struct walk_entry *e,
              bool followed)
{
  size_t d = e->depth;
  dev_t dev;
  int parent = parent_of (t, d, &dev);
  char *src = xstrdup (walk_path (w));
  const char *lpath = t->x->preserve.links ? link_path (t, w) : NULL;
  struct dest dd = {
    .dirfd = parent, .dev = dev, .name = d ? e->name : t->dst_name,
    .display = dst_path (t, w), .fresh = d > 0 && t->lv[d - 1].fresh,
    .inherits_acl = d ? t->lv[d - 1].default_acl : t->dst_parent_acl,
    .group_of_dir = (d ? t->dirs.dir[d - 1].st.st_mode
                     : t->dst_parent_mode) & S_ISGID,
    .made_here = copy_made_here, .link_base = t->link_base,
    .link_path = lpath,
  };
  struct copy_dirs *dirs;
  if (parent < 0)
    copy_fail_walk (-parent, "cannot create %s", dd.display);
  else if (followed)
    copy_file (t->x, e->dirfd, e->name, src, 0, false, &dd);
  else if (d > 0 && use_workers (t)
           && (dirs = files_dirs (t, e, d - 1, parent, dev)))
    {
      struct copy_job_file f = {
        .name = e->name, .src = src, .dst = dd.display, .link_path = lpath,
        .ino = e->ino, .fresh = dd.fresh, .inherits_acl = dd.inherits_acl,
        .group_of_dir = dd.group_of_dir,
      };
      copy_pool_file (t->pool, dirs, &f);
    }
  else
    copy_file (t->x, e->dirfd, e->name, src, e->ino, true, &dd);
  free (src);
}

/* A FIFO, socket or device E: read into a regular file with
   --copy-contents (as a file given without -r is), else made as what
   it is.  */
static void
copy_other (struct copy_tree *t, struct walk *w, const struct walk_entry *e)
{
  if (t->x->copy_contents)
    copy_regular (t, w, e, e->followed);
  else
    copy_special (t, w, e);
}

static int
visit (struct walk *w, const struct walk_entry *e, void *arg)
{
  struct copy_tree *t = arg;
  switch (e->type)
    {
    case WALK_DIR:
      {
        int action = enter_dir (t, w, e);
        if (action == WALK_STOP)
          leave_all (t, w, e);
        return action;
      }
    case WALK_DIR_POST:
      return leave_dir (t, w, e);
    case WALK_MOUNT:            /* -x: made, as cp makes it, but empty */
      if (enter_dir (t, w, e) == WALK_CONTINUE)
        leave_dir (t, w, e);
      return WALK_CONTINUE;
    case WALK_REG:
      if (e->depth > 0)
        copy_tell_listed (t->x, e->dirfd, e->name, e->st, true);
      copy_regular (t, w, e, e->followed);
      return WALK_CONTINUE;
    case WALK_LNK:
      /* -L: the walk follows links (WALK_FOLLOW); one it visits as a
         link was replaced while it was looked at.  */
      if (t->x->deref == COPY_DEREF_ALWAYS && e->depth > 0)
        copy_fail (0, "%s changed while being copied; skipped",
                   walk_path (w));
      else
        {
          if (e->depth > 0)
            copy_tell_listed (t->x, e->dirfd, e->name, e->st, false);
          copy_special (t, w, e);
        }
      return WALK_CONTINUE;
    case WALK_ERR:
      if (e->err == WALK_ECYCLE)
        copy_fail (0, "cannot copy cyclic symbolic link %s", walk_path (w));
      /* A directory not opened or not read whole: cp's words for both.  */
      else if (!e->is_dir)
        copy_fail_walk (e->err, "cannot stat %s", walk_path (w));
      else
        copy_fail_walk (e->err, "cannot access %s", walk_path (w));
      return WALK_CONTINUE;
    default:
      if (e->depth > 0)
        copy_tell_listed (t->x, e->dirfd, e->name, e->st, false);
      copy_other (t, w, e);
      return WALK_CONTINUE;
    }
}

/* --- the entry ---------------------------------------------------- */

size_t
copy_tree_fds (unsigned int *jobs, size_t *walk_fds, size_t *dst_fds,
               size_t *dirs)
{
  size_t workers = *jobs > 1 ? *jobs : 0;
  size_t room = fd_room (WALK_MAX_FDS + COPY_TREE_MAX_FDS + FILE_FDS
                         + workers * FILE_FDS + 3 * COPY_TREE_MAX_DIRS);
  /* Each worker holds what one file's copy needs; the queued files'
     directories two each and a deferred leave one (see struct leave),
     for two of each at least; and each stack two.  Fewer workers where
     that is more than there is, none below two.  */
  while (workers >= 2 && room < FILE_FDS + workers * FILE_FDS + 3 * 2 + 4)
    workers--;
  if (workers < 2)
    workers = 0;
  *jobs = workers ? (unsigned int) workers : 1;
  size_t spare = room > FILE_FDS * (workers + 1)
                 ? room - FILE_FDS * (workers + 1) : 0;
  *dirs = 0;
  if (workers)
    {
      /* A quarter of the rest for the queued files' directories and
         the deferred leaves.  */
      *dirs = spare / 12 < 2 ? 2 : spare / 12;
      if (*dirs > COPY_TREE_MAX_DIRS)
        *dirs = COPY_TREE_MAX_DIRS;
      spare = spare > 3 * *dirs ? spare - 3 * *dirs : 0;
    }
  *walk_fds = spare / 2 < 2 ? 2 : spare / 2;
  if (*walk_fds > WALK_MAX_FDS)
    *walk_fds = WALK_MAX_FDS;
  *dst_fds = spare > *walk_fds + 2 ? spare - *walk_fds : 2;
  if (*dst_fds > COPY_TREE_MAX_FDS)
    *dst_fds = COPY_TREE_MAX_FDS;
  return room;
}

void
copy_tree (const struct copy_options *x, const char *src,
           const char *src_display, int dirfd,
           const struct stat *dir_st, bool parent_acl, const char *name,
           const char *dst, const struct copy_tree_limits *limits)
{
  const char *link_prefix;
  int link_base = copy_links_where (dirfd, &link_prefix);
  struct copy_tree t = {
    .x = x,
    .src_display = src_display, .src_display_len = strlen (src_display),
    .dst_parent = dirfd, .dst_parent_dev = dir_st->st_dev,
    .dst_parent_ino = dir_st->st_ino, .dst_name = name,
    .dst_display = dst, .dst_parent_acl = parent_acl,
    .dst_parent_mode = dir_st->st_mode,
    .jobs = limits->jobs, .max_dirs = limits->dirs,
    .link_base = link_base, .link_prefix = link_prefix,
  };
  walk_stack_init (&t.dirs, limits->dst_fds);
  if (t.max_dirs)
    t.leaves = xnmalloc (t.max_dirs, sizeof *t.leaves);
  walk_at_fds (AT_FDCWD, src,
               (x->one_fs ? WALK_ONE_FS | WALK_ONE_DEV : 0)
               | (x->deref == COPY_DEREF_ALWAYS ? WALK_FOLLOW : 0)
               | (copy_follows_operand (x) ? WALK_FOLLOW_TOP : 0),
               limits->walk_fds, src_display, visit, &t);
  copy_tell_walked (x);
  drop_levels (&t, 0);
  while (leave_oldest (&t, true))
    ;
  if (t.pool)
    copy_pool_end (t.pool);
  walk_stack_free (&t.dirs);
  free (t.ours.v);
  free (t.lv);
  free (t.path);
  free (t.lpath);
  free (t.leaves);
}
