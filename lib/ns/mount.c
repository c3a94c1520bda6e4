/* ns/mount.c -- the sandbox's mount steps; see ns/mount.h.  */

#include <config.h>

#include "ns/mount.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "sys/calls.h"
#include "sys/consts.h"

/* The Linux versions that brought the calls this module makes.  */
#define SINCE_MOUNT_API "5.2"   /* open_tree, move_mount, fs* */
#define SINCE_OPENAT2 "5.6"
#define SINCE_SETATTR "5.12"    /* mount_setattr */

/* How every DST is walked: the new root is "/" for it, so that an
   absolute symlink or a ".." leads back into it, never out; never
   through a /proc magic link (which leads anywhere).  */
#define RESOLVE_INSIDE (RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS)


/* How many times openat2 is asked again when it answers EAGAIN (a ".."
   raced by a rename, which the kernel cannot prove stayed inside).
   Beyond, the step fails: a racer cannot make it succeed wrongly.  */
enum { OPENAT2_TRIES = 8 };

/* --- failures ---------------------------------------------------------- */

/* RET, after recording CALL (in Linux since SINCE) as M's failed call if
   RET is an error.  */
static int
failed (struct ns_mount *m, int ret, const char *call, const char *since)
{
  if (ret < 0)
    {
      m->fail.call = call;
      m->fail.since = since;
    }
  return ret;
}

/* --- paths in the new root --------------------------------------------- */

/* Copy DST into PATH (PATH_MAX bytes) as a path relative to the new
   root: no leading or trailing slash, none doubled, "." for the root
   itself.  0, or -ENAMETOOLONG (as openat2 would say).  */
static int
inside_path (struct ns_mount *m, const char *dst, char *path)
{
  size_t n = 0;
  for (const char *p = dst; *p; p++)
    {
      if (*p == '/' && (n == 0 || path[n - 1] == '/'))
        continue;
      if (n + 2 > PATH_MAX)
        return failed (m, -ENAMETOOLONG, "openat2", SINCE_OPENAT2);
      path[n++] = *p;
    }
  if (n > 0 && path[n - 1] == '/')
    n--;
  if (n == 0)
    path[n++] = '.';
  path[n] = '\0';
  return 0;
}

/* PATH (PATH_MAX bytes) made of DIR and NAME.  0, or -ENAMETOOLONG (as
   openat2 would say).  */
static int
sub_path (struct ns_mount *m, char *path, const char *dir, const char *name)
{
  int n = snprintf (path, PATH_MAX, "%s/%s", dir, name);
  if (n < 0 || n >= PATH_MAX)
    return failed (m, -ENAMETOOLONG, "openat2", SINCE_OPENAT2);
  return 0;
}

int
ns_mount_open_inside (int dirfd, const char *path, int flags)
{
  struct nc_open_how how = { .flags = O_CLOEXEC | flags,
                             .resolve = RESOLVE_INSIDE };
  int ret = -EAGAIN;
  for (int i = 0; i < OPENAT2_TRIES && ret == -EAGAIN; i++)
    ret = SYS_RETRY_EINTR (sys_openat2 (dirfd, path, &how));
  return ret;
}

/* PATH, relative, opened beneath DIRFD with O_PATH and FLAGS: the
   descriptor, or -errno.  */
static int
open_inside (struct ns_mount *m, int dirfd, const char *path, int flags)
{
  return failed (m, ns_mount_open_inside (dirfd, path, O_PATH | flags),
                 "openat2", SINCE_OPENAT2);
}

/* DST, a path in the new root, opened beneath it with O_PATH and FLAGS;
   nothing is made.  The descriptor, or -errno.  */
static int
open_dst (struct ns_mount *m, const char *dst, int flags)
{
  char path[PATH_MAX];
  int ret = inside_path (m, dst, path);
  return ret < 0 ? ret : open_inside (m, m->fd, path, flags);
}

static int make_inside (struct ns_mount *m, char *path, bool dir,
                        mode_t mode);

/* The directory holding PATH's last component, made with its missing
   parents (mode M.PARENT_MODE); *NAME is set to that component, within
   PATH.  The descriptor, or -errno.  */
static int
open_parent (struct ns_mount *m, char *path, char **name)
{
  char *slash = strrchr (path, '/');
  if (!slash)
    {
      *name = path;
      return open_inside (m, m->fd, ".", O_DIRECTORY);
    }
  *slash = '\0';
  int fd = make_inside (m, path, true, m->parent_mode);
  *slash = '/';
  *name = slash + 1;
  return fd;
}

/* PATH, a directory if DIR, else a file, made of MODE (less the umask)
   if it is missing, with its missing parents.  The descriptor, or
   -errno.  */
static int
make_inside (struct ns_mount *m, char *path, bool dir, mode_t mode)
{
  int flags = dir ? O_DIRECTORY : 0;
  int fd = open_inside (m, m->fd, path, flags);
  if (fd != -ENOENT)
    return fd;
  char *name;
  int parent = open_parent (m, path, &name);
  if (parent < 0)
    return parent;
  /* EEXIST: made meanwhile, or of another type, which the open tells.  */
  int ret = (dir ? sys_mkdirat (parent, name, mode)
             : sys_mknodat (parent, name, S_IFREG | mode, 0));
  sys_close (parent);
  if (ret < 0 && ret != -EEXIST)
    return failed (m, ret, dir ? "mkdirat" : "mknodat", NULL);
  /* The whole path again from the new root: a ".." after the parent
     made leads above it, which a walk rooted at the parent would stop.  */
  return open_inside (m, m->fd, path, flags);
}

/* PATH, a mount point made if it is missing, as bubblewrap makes them:
   a directory of mode 0755 if DIR, else an empty file of mode 0444.  */
static int
open_made (struct ns_mount *m, char *path, bool dir)
{
  return make_inside (m, path, dir, dir ? 0755 : 0444);
}

/* Set the mode of FD, an O_PATH descriptor of a file that is not a
   symlink, to MODE, and close FD: 0 or -errno.  An FD that is -errno
   (an open that failed) is returned as it is.  */
static int
chmod_fd (struct ns_mount *m, int fd, mode_t mode)
{
  if (fd < 0)
    return fd;
  int ret = sys_fchmodat (fd, "", mode, AT_EMPTY_PATH);
  if (ret == -ENOSYS)
    {
      /* Before Linux 6.6, through the descriptor's /proc link (the old
         root's /proc: this runs before ns_mount_enter).  */
      char link[sizeof "/proc/self/fd/" + 3 * sizeof (int)];
      snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
      ret = sys_fchmodat (AT_FDCWD, link, mode, 0);
    }
  sys_close (fd);
  return failed (m, ret, "fchmodat", NULL);
}

/* --- attaching --------------------------------------------------------- */

/* Whether TO is the new root's top mount itself, at its root: a mount
   there covers M.FD, which must then follow it.  */
static int
is_top (struct ns_mount *m, int to)
{
  struct statx top, at;
  unsigned int mask = STATX_INO | STATX_MNT_ID;
  int ret = sys_statx (m->fd, "", AT_EMPTY_PATH, mask, &top);
  if (ret == 0)
    ret = sys_statx (to, "", AT_EMPTY_PATH, mask, &at);
  if (ret < 0)
    return failed (m, ret, "statx", NULL);
  if ((top.stx_mask & at.stx_mask & STATX_MNT_ID) == 0)
    return failed (m, -ENOSYS, "statx (STATX_MNT_ID)", "5.8");
  return (top.stx_mnt_id == at.stx_mnt_id && top.stx_ino == at.stx_ino
          && top.stx_dev_major == at.stx_dev_major
          && top.stx_dev_minor == at.stx_dev_minor);
}

/* Attach TREE, a detached mount, on DST: a directory made if DIR, else
   a file.  TREE is closed, or becomes M.FD when DST is the new root,
   written so ("/"): a DST that leads there through a link or a ".."
   would cover every mount made before, and is refused (EINVAL).  */
static int
attach (struct ns_mount *m, int tree, const char *dst, bool dir)
{
  char path[PATH_MAX];
  int to = inside_path (m, dst, path);
  if (to == 0)
    to = open_made (m, path, dir);
  int top = to < 0 ? to : is_top (m, to);
  if (top > 0 && strcmp (path, ".") != 0)
    top = failed (m, -EINVAL, "a destination that leads to the new root",
                  NULL);
  int ret = top;
  if (top >= 0)
    ret = failed (m, sys_move_mount (tree, "", to, "",
                                     MOVE_MOUNT_F_EMPTY_PATH
                                     | MOVE_MOUNT_T_EMPTY_PATH),
                  "move_mount", SINCE_MOUNT_API);
  if (to >= 0)
    sys_close (to);
  if (ret == 0 && top)
    {
      sys_close (m->fd);
      m->fd = tree;
      return 0;
    }
  sys_close (tree);
  return ret;
}

/* A new file system of type FSTYPE, with OPTIONS (pairs of key and
   string value, ended by NULL), as a detached mount with ATTRS
   (MOUNT_ATTR_*): its descriptor, or -errno.  */
static int
new_fs (struct ns_mount *m, const char *fstype, const char *const *options,
        unsigned int attrs)
{
  int fs = failed (m, sys_fsopen (fstype, FSOPEN_CLOEXEC), "fsopen",
                   SINCE_MOUNT_API);
  if (fs < 0)
    return fs;
  int ret = 0;
  for (; ret == 0 && options && options[0]; options += 2)
    ret = sys_fsconfig (fs, FSCONFIG_SET_STRING, options[0], options[1], 0);
  if (ret == 0)
    ret = sys_fsconfig (fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0);
  ret = failed (m, ret, "fsconfig", SINCE_MOUNT_API);
  if (ret == 0)
    ret = failed (m, sys_fsmount (fs, FSMOUNT_CLOEXEC, attrs), "fsmount",
                  SINCE_MOUNT_API);
  sys_close (fs);
  return ret;
}

/* --- the mount namespace ----------------------------------------------- */

/* The mount namespace noted by ns_mount_note_namespace: its device and
   inode; NOTED false until then.  */
static struct
{
  bool noted;
  dev_t dev;
  ino_t ino;
} start_ns;

/* The device and inode of the calling process's mount namespace in *ST:
   0 or -errno.  */
static int
mount_namespace (struct stat *st)
{
  return sys_fstatat (AT_FDCWD, "/proc/self/ns/mnt", st, 0);
}

int
ns_mount_note_namespace (void)
{
  struct stat st;
  int ret = mount_namespace (&st);
  if (ret == 0)
    {
      start_ns.noted = true;
      start_ns.dev = st.st_dev;
      start_ns.ino = st.st_ino;
    }
  return ret;
}

/* Whether the process may build a new root here: in a mount namespace
   other than the noted one.  0, -NS_MOUNT_SAME_NAMESPACE, or -errno if
   its own cannot be told.  */
static int
check_namespace (struct ns_mount *m)
{
  struct stat st;
  int ret = start_ns.noted ? mount_namespace (&st) : -NS_MOUNT_SAME_NAMESPACE;
  if (ret == 0 && st.st_dev == start_ns.dev && st.st_ino == start_ns.ino)
    ret = -NS_MOUNT_SAME_NAMESPACE;
  return failed (m, ret, "the mount namespace check", NULL);
}

/* --- the steps --------------------------------------------------------- */

int
ns_mount_begin (struct ns_mount *m)
{
  static const char *const options[] = { "mode", "0755", NULL };
  m->fd = -1;
  m->fail = (struct ns_mount_fail) { NULL, NULL };
  m->parent_mode = 0755;
  /* "/" is about to be mounted over: never in the namespace the caller
     started in, which may be the machine's.  */
  int same = check_namespace (m);
  if (same < 0)
    return same;
  int fd = new_fs (m, "tmpfs", options, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
  if (fd < 0)
    return fd;
  /* Over "/", where no path leads (a lookup of "/" stops at the process's
     root, under it): only FD reaches it.  */
  int ret = failed (m, sys_move_mount (fd, "", AT_FDCWD, "/",
                                       MOVE_MOUNT_F_EMPTY_PATH),
                    "move_mount", SINCE_MOUNT_API);
  /* Unbindable: a recursive bind of the old root skips it and all it
     will hold.  */
  struct nc_mount_attr attr = { .propagation = MS_UNBINDABLE };
  if (ret == 0)
    ret = failed (m, sys_mount_setattr (fd, "", AT_EMPTY_PATH, &attr),
                  "mount_setattr", SINCE_SETATTR);
  if (ret < 0)
    {
      sys_close (fd);
      return ret;
    }
  m->fd = fd;
  return 0;
}

/* A detached clone of the tree at SRC, a path of the old root, with
   every mount under it: nosuid, nodev unless NS_BIND_DEV, read-only with
   NS_BIND_RO; the status of its root in *ST.  Its descriptor, or
   -errno.  */
static int
clone_tree (struct ns_mount *m, const char *src, unsigned int flags,
            struct stat *st)
{
  int tree = sys_open_tree (AT_FDCWD, src, OPEN_TREE_CLONE
                            | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
  if (failed (m, tree, "open_tree", SINCE_MOUNT_API) < 0)
    return tree;
  /* Set on the detached clone, before anything can use it.  */
  struct nc_mount_attr attr = {
    .attr_set = (MOUNT_ATTR_NOSUID
                 | (flags & NS_BIND_DEV ? 0 : MOUNT_ATTR_NODEV)
                 | (flags & NS_BIND_RO ? MOUNT_ATTR_RDONLY : 0))
  };
  int ret = failed (m, sys_mount_setattr (tree, "",
                                          AT_EMPTY_PATH | AT_RECURSIVE,
                                          &attr),
                    "mount_setattr", SINCE_SETATTR);
  if (ret == 0)
    ret = failed (m, sys_fstat (tree, st), "fstat", NULL);
  if (ret < 0)
    {
      sys_close (tree);
      return ret;
    }
  return tree;
}

int
ns_mount_bind (struct ns_mount *m, const char *src, const char *dst,
               unsigned int flags)
{
  struct stat st;
  int tree = clone_tree (m, src, flags, &st);
  if (tree == -ENOENT && (flags & NS_BIND_TRY))
    return 0;
  if (tree < 0)
    return tree;
  return attach (m, tree, dst, S_ISDIR (st.st_mode));
}

/* The path of the directory FD refers to, as /proc/self/fd reads it,
   into PATH (PATH_MAX bytes).  0 or -errno.  */
static int
fd_path (struct ns_mount *m, int fd, char *path)
{
  char link[sizeof "/proc/self/fd/" + 3 * sizeof (int)];
  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = sys_readlinkat (AT_FDCWD, link, path, PATH_MAX);
  if (n == PATH_MAX)
    n = -ENAMETOOLONG;
  /* A directory out of the process's root reads "(unreachable)/...", a
     removed one ends in " (deleted)": the clone's check refuses it, or
     what another made under that name.  */
  if (n >= 0)
    path[n] = '\0';
  return failed (m, n < 0 ? n : 0, "readlink of /proc/self/fd", NULL);
}

int
ns_mount_bind_fd (struct ns_mount *m, int fd, const char *dst,
                  unsigned int flags)
{
  struct stat want, got;
  char path[PATH_MAX];
  int ret = failed (m, sys_fstat (fd, &want), "fstat", NULL);
  if (ret == 0 && !S_ISDIR (want.st_mode))
    ret = failed (m, -ENOTDIR, "its descriptor", NULL);
  if (ret == 0)
    ret = fd_path (m, fd, path);
  int tree = ret < 0 ? ret : clone_tree (m, path, flags, &got);
  if (tree < 0)
    return tree;
  if (got.st_dev != want.st_dev || got.st_ino != want.st_ino)
    {
      sys_close (tree);
      return failed (m, -ESTALE, "the descriptor's path, which names "
                     "another directory now (removed, replaced or covered "
                     "since it was opened)", NULL);
    }
  return attach (m, tree, dst, true);
}

int
ns_mount_remount_ro (struct ns_mount *m, const char *dst)
{
  int fd = open_dst (m, dst, 0);
  if (fd < 0)
    return fd;
  struct nc_mount_attr attr = { .attr_set = MOUNT_ATTR_RDONLY };
  int ret = failed (m, sys_mount_setattr (fd, "",
                                          AT_EMPTY_PATH | AT_RECURSIVE,
                                          &attr),
                    "mount_setattr", SINCE_SETATTR);
  sys_close (fd);
  return ret;
}

int
ns_mount_tmpfs (struct ns_mount *m, const char *dst, uint64_t size,
                mode_t mode)
{
  char mode_s[sizeof "07777"];
  char size_s[sizeof "18446744073709551615"];
  snprintf (mode_s, sizeof mode_s, "%04o", (unsigned int) (mode & 07777));
  snprintf (size_s, sizeof size_s, "%" PRIu64, size);
  const char *const options[] = { "mode", mode_s,
                                  size ? "size" : NULL, size_s, NULL };
  int fd = new_fs (m, "tmpfs", options, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
  return fd < 0 ? fd : attach (m, fd, dst, true);
}

/* Whether NAME in the directory DIR could be written by this process,
   as access(2) tells: 1, 0 (missing, read-only or not allowed), or
   -errno.  */
static int
writable_at (struct ns_mount *m, int dir, const char *name)
{
  int ret = sys_faccessat (dir, name, W_OK, 0);
  if (ret == -ENOENT || ret == -EROFS || ret == -EACCES)
    return 0;
  return ret < 0 ? failed (m, ret, "faccessat", NULL) : 1;
}

/* Bind NAME of the proc at DST on itself, read-only with every mount
   under it, nosuid and nodev, unless this process could not write it
   anyway (as bubblewrap decides): missing, read-only already, or not
   allowed.  */
static int
cover_proc (struct ns_mount *m, const char *dst, const char *name)
{
  char path[PATH_MAX];
  int ret = inside_path (m, dst, path);
  int dir = ret < 0 ? ret : open_inside (m, m->fd, path, O_DIRECTORY);
  if (dir < 0)
    return dir;
  ret = writable_at (m, dir, name);
  int at = ret <= 0 ? ret : open_inside (m, dir, name, 0);
  sys_close (dir);
  if (at <= 0)
    return at;
  int tree = failed (m, sys_open_tree (at, "", OPEN_TREE_CLONE
                                       | OPEN_TREE_CLOEXEC | AT_RECURSIVE
                                       | AT_EMPTY_PATH),
                     "open_tree", SINCE_MOUNT_API);
  struct nc_mount_attr attr = { .attr_set = (MOUNT_ATTR_RDONLY
                                             | MOUNT_ATTR_NOSUID
                                             | MOUNT_ATTR_NODEV) };
  ret = tree < 0 ? tree
        : failed (m, sys_mount_setattr (tree, "",
                                        AT_EMPTY_PATH | AT_RECURSIVE, &attr),
                  "mount_setattr", SINCE_SETATTR);
  if (ret == 0)
    ret = failed (m, sys_move_mount (tree, "", at, "",
                                     MOVE_MOUNT_F_EMPTY_PATH
                                     | MOVE_MOUNT_T_EMPTY_PATH),
                  "move_mount", SINCE_MOUNT_API);
  if (tree >= 0)
    sys_close (tree);
  sys_close (at);
  return ret;
}

int
ns_mount_proc (struct ns_mount *m, const char *dst, bool own)
{
  /* What a write could harm the machine through, as bubblewrap covers
     it: the sysctls, the SysRq trigger, interrupts, buses.  */
  static const char *const covered[] = { "sys", "sysrq-trigger", "irq",
                                         "bus" };
  int ret;
  if (own)
    {
      int fd = new_fs (m, "proc", NULL, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV
                       | MOUNT_ATTR_NOEXEC);
      ret = fd < 0 ? fd : attach (m, fd, dst, true);
    }
  else
    ret = ns_mount_bind (m, "/proc", dst, 0);
  for (size_t i = 0; ret == 0 && i < sizeof covered / sizeof *covered; i++)
    ret = cover_proc (m, dst, covered[i]);
  return ret;
}

int
ns_mount_mqueue (struct ns_mount *m, const char *dst)
{
  int fd = new_fs (m, "mqueue", NULL, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV
                   | MOUNT_ATTR_NOEXEC);
  return fd < 0 ? fd : attach (m, fd, dst, true);
}

/* pts in /dev DIR: a new devpts instance, terminals mode 0620, its ptmx
   0666 (the one /dev/ptmx leads to).  */
static int
dev_pts (struct ns_mount *m, const char *dir)
{
  static const char *const options[] = { "mode", "0620",
                                         "ptmxmode", "0666", NULL };
  char path[PATH_MAX];
  int ret = sub_path (m, path, dir, "pts");
  int fd = ret < 0 ? ret : new_fs (m, "devpts", options,
                                   MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
  return fd < 0 ? fd : attach (m, fd, path, true);
}

int
ns_mount_dev (struct ns_mount *m, const char *dst)
{
  static const char *const nodes[] = { "null", "zero", "full", "random",
                                       "urandom", "tty" };
  /* name, target: the standard symlinks of /dev.  */
  static const char *const links[][2] = {
    { "fd", "/proc/self/fd" }, { "stdin", "/proc/self/fd/0" },
    { "stdout", "/proc/self/fd/1" }, { "stderr", "/proc/self/fd/2" },
    { "core", "/proc/kcore" }, { "ptmx", "pts/ptmx" }
  };
  char path[PATH_MAX], src[PATH_MAX];
  int ret = ns_mount_tmpfs (m, dst, 0, 0755);
  for (size_t i = 0; ret == 0 && i < sizeof nodes / sizeof *nodes; i++)
    {
      ret = sub_path (m, path, dst, nodes[i]);
      if (ret == 0)
        ret = sub_path (m, src, "/dev", nodes[i]);
      if (ret == 0)
        ret = ns_mount_bind (m, src, path, NS_BIND_DEV);
    }
  for (size_t i = 0; ret == 0 && i < sizeof links / sizeof *links; i++)
    {
      ret = sub_path (m, path, dst, links[i][0]);
      if (ret == 0)
        ret = ns_mount_symlink (m, links[i][1], path);
    }
  if (ret == 0)
    ret = dev_pts (m, dst);
  if (ret == 0)
    ret = sub_path (m, path, dst, "shm");
  return ret < 0 ? ret : ns_mount_tmpfs (m, path, 0, 01777);
}

int
ns_mount_dir (struct ns_mount *m, const char *dst, mode_t mode)
{
  int fd = open_dst (m, dst, O_DIRECTORY);
  if (fd >= 0)
    sys_close (fd);
  if (fd != -ENOENT)
    return fd < 0 ? fd : 0;
  char path[PATH_MAX];
  fd = inside_path (m, dst, path);
  if (fd == 0)
    fd = open_made (m, path, true);
  /* The exact MODE: mkdirat's is filtered by the umask.  */
  return chmod_fd (m, fd, mode);
}

int
ns_mount_symlink (struct ns_mount *m, const char *target, const char *dst)
{
  char path[PATH_MAX];
  char *name;
  int parent = inside_path (m, dst, path);
  if (parent == 0)
    parent = open_parent (m, path, &name);
  if (parent < 0)
    return parent;
  int ret = sys_symlinkat (target, parent, name);
  if (ret == -EEXIST)
    {
      char old[PATH_MAX];
      size_t len = strlen (target);
      ssize_t n = sys_readlinkat (parent, name, old, sizeof old);
      if (n >= 0 && (size_t) n == len && memcmp (old, target, len) == 0)
        ret = 0;
    }
  sys_close (parent);
  return failed (m, ret, "symlinkat", NULL);
}

int
ns_mount_chmod (struct ns_mount *m, const char *path, mode_t mode)
{
  /* PATH itself: a link at its end is refused, not followed, as a file
     of --file is (a link planted there would turn the change onto
     another file).  */
  int fd = open_dst (m, path, O_NOFOLLOW);
  if (fd < 0)
    return fd;
  struct statx stx;
  int ret = failed (m, sys_statx (fd, "", AT_EMPTY_PATH, STATX_TYPE, &stx),
                    "statx", NULL);
  if (ret == 0 && S_ISLNK (stx.stx_mode))
    ret = failed (m, -ELOOP, "openat2", SINCE_OPENAT2);
  if (ret < 0)
    {
      sys_close (fd);
      return ret;
    }
  return chmod_fd (m, fd, mode);
}

int
ns_mount_enter (struct ns_mount *m)
{
  int old = failed (m, sys_openat (AT_FDCWD, "/", O_PATH | O_DIRECTORY
                                   | O_CLOEXEC, 0), "openat", NULL);
  if (old < 0)
    return old;
  /* pivot_root (".", "."): the new root becomes "/", the old one is
     mounted over it, and detached from a working directory in it (a
     lookup of "." does not cross onto a mount).  No directory for the
     old root is needed.  */
  int ret = failed (m, sys_fchdir (m->fd), "fchdir", NULL);
  if (ret == 0)
    ret = failed (m, sys_pivot_root (".", "."), "pivot_root", NULL);
  if (ret == 0)
    ret = failed (m, sys_fchdir (old), "fchdir", NULL);
  /* An umount2 of "." detaches the topmost mount on the old root's "/":
     first what is stacked there (ns_mount_begin's tmpfs, when a step
     covered it), then the old root itself; then "." is on no mount
     (EINVAL).  */
  for (int n = 0; ret == 0; n++)
    {
      ret = sys_umount2 (".", MNT_DETACH);
      if (ret == -EINVAL && n > 0)
        break;
      ret = failed (m, ret, "umount2", NULL);
    }
  if (ret == -EINVAL)
    ret = 0;
  if (ret == 0)
    ret = failed (m, sys_fchdir (m->fd), "fchdir", NULL);
  /* Bindable again, from inside.  */
  struct nc_mount_attr attr = { .propagation = MS_PRIVATE };
  if (ret == 0)
    ret = failed (m, sys_mount_setattr (m->fd, "", AT_EMPTY_PATH, &attr),
                  "mount_setattr", SINCE_SETATTR);
  sys_close (old);
  sys_close (m->fd);
  m->fd = -1;
  return ret;
}

/* --- files from a descriptor ------------------------------------------- */

/* Copy what descriptor FROM holds, to its end, into descriptor TO: 0 or
   -errno, M.FAIL naming the call that failed.  */
static int
copy_data (struct ns_mount *m, int from, int to)
{
  char buf[8192];
  for (;;)
    {
      ssize_t n = SYS_RETRY_EINTR (sys_read (from, buf, sizeof buf));
      if (n <= 0)
        return failed (m, n, "read", NULL);
      for (ssize_t done = 0; done < n;)
        {
          ssize_t w = SYS_RETRY_EINTR (sys_write (to, buf + done, n - done));
          if (w < 0)
            return failed (m, w, "write", NULL);
          done += w;
        }
    }
}

/* Make PATH, a path relative to the new root, a new regular file of
   MODE (or truncate the one there), its missing parents made, holding
   what FD holds.  0 or -errno.  */
static int
write_file (struct ns_mount *m, char *path, int fd, mode_t mode)
{
  char *name;
  int parent = open_parent (m, path, &name);
  if (parent < 0)
    return parent;
  sys_close (parent);
  /* Never through a link at the end: the file made is DST itself.  */
  struct nc_open_how how = { .flags = O_WRONLY | O_CREAT | O_TRUNC
                                      | O_NOFOLLOW | O_CLOEXEC,
                             .mode = mode & 07777,
                             .resolve = RESOLVE_INSIDE };
  int to = failed (m, SYS_RETRY_EINTR (sys_openat2 (m->fd, path, &how)),
                   "openat2", SINCE_OPENAT2);
  if (to < 0)
    return to;
  /* The exact MODE, which the umask filtered.  */
  int ret = failed (m, sys_fchmod (to, mode & 07777), "fchmod", NULL);
  if (ret == 0)
    ret = copy_data (m, fd, to);
  sys_close (to);
  return ret;
}

/* Detach FS, a mount attached by clone_attached, through the working
   directory (no call unmounts a descriptor): an umount2 of "." there
   detaches the topmost mount on FS's root, FS itself.  0 or -errno.  */
static int
detach_fs (struct ns_mount *m, int fs)
{
  int cwd = failed (m, sys_openat (AT_FDCWD, ".", O_PATH | O_DIRECTORY
                                   | O_CLOEXEC, 0), "openat", NULL);
  if (cwd < 0)
    return cwd;
  int ret = failed (m, sys_fchdir (fs), "fchdir", NULL);
  if (ret == 0)
    ret = failed (m, sys_umount2 (".", MNT_DETACH), "umount2", NULL);
  int back = failed (m, sys_fchdir (cwd), "fchdir", NULL);
  sys_close (cwd);
  return ret < 0 ? ret : back;
}

/* The clone of FS's file "data" where the kernel clones no mount that
   is not attached (before Linux 6.15): FS attached for that time on
   the new root's top, where it covers the new root, then detached.
   The clone's descriptor, or -errno.  */
static int
clone_attached (struct ns_mount *m, int fs)
{
  int ret = failed (m, sys_move_mount (fs, "", m->fd, "",
                                       MOVE_MOUNT_F_EMPTY_PATH
                                       | MOVE_MOUNT_T_EMPTY_PATH),
                    "move_mount", SINCE_MOUNT_API);
  if (ret < 0)
    return ret;
  int tree = failed (m, sys_open_tree (fs, "data", OPEN_TREE_CLONE
                                       | OPEN_TREE_CLOEXEC),
                     "open_tree", SINCE_MOUNT_API);
  ret = detach_fs (m, fs);
  if (ret < 0 && tree >= 0)
    sys_close (tree);
  return ret < 0 ? ret : tree;
}

/* A detached bind of a new file of MODE holding what FD holds, "data"
   on a tmpfs of its own that no path reaches, whose descriptor is set
   in *DATA_FS: the bind's descriptor, or -errno.  */
static int
data_tree (struct ns_mount *m, int fd, mode_t mode, int *data_fs)
{
  int fs = new_fs (m, "tmpfs", NULL, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
  if (fs < 0)
    return fs;
  int file = failed (m, sys_openat (fs, "data", O_WRONLY | O_CREAT | O_EXCL
                                    | O_CLOEXEC, mode & 07777),
                     "openat", NULL);
  int ret = file;
  if (file >= 0)
    {
      ret = failed (m, sys_fchmod (file, mode & 07777), "fchmod", NULL);
      if (ret == 0)
        ret = copy_data (m, fd, file);
      sys_close (file);
    }
  int tree = ret < 0 ? ret : sys_open_tree (fs, "data", OPEN_TREE_CLONE
                                             | OPEN_TREE_CLOEXEC);
  if (ret == 0 && tree == -EINVAL)
    tree = clone_attached (m, fs);
  else if (ret == 0)
    tree = failed (m, tree, "open_tree", SINCE_MOUNT_API);
  if (tree < 0)
    sys_close (fs);
  else
    *data_fs = fs;
  return tree;
}

int
ns_mount_file (struct ns_mount *m, int fd, const char *dst, mode_t mode,
               unsigned int flags)
{
  if (!(flags & NS_FILE_BIND))
    {
      char path[PATH_MAX];
      int ret = inside_path (m, dst, path);
      return ret < 0 ? ret : write_file (m, path, fd, mode);
    }
  int fs;
  int tree = data_tree (m, fd, mode, &fs);
  if (tree < 0)
    return tree;
  struct nc_mount_attr attr = {
    .attr_set = (MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV
                 | (flags & NS_BIND_RO ? MOUNT_ATTR_RDONLY : 0))
  };
  int ret = failed (m, sys_mount_setattr (tree, "", AT_EMPTY_PATH, &attr),
                    "mount_setattr", SINCE_SETATTR);
  if (ret == 0)
    ret = attach (m, tree, dst, false);
  else
    sys_close (tree);
  /* Once bound (a mount of an unlinked file cannot be attached), the
     file keeps no name, as bubblewrap leaves it: the mount table shows
     it deleted.  */
  if (ret == 0)
    ret = failed (m, sys_unlinkat (fs, "data", 0), "unlinkat", NULL);
  sys_close (fs);
  return ret;
}
