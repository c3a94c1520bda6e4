/* ns/mount.h -- the sandbox's mount steps: a new root built in a fresh
   tmpfs, then entered with pivot_root, the old root detached.

   Built on the mount API of Linux 5.2 and 5.12 only, so that each step
   is exact: a bind is open_tree (OPEN_TREE_CLONE | AT_RECURSIVE) then
   move_mount; read-only, nosuid and nodev are one mount_setattr
   (AT_RECURSIVE) on the whole cloned tree before it is attached, so
   every submount of a read-only bind is read-only too; tmpfs, proc,
   mqueue and devpts are fsopen, fsconfig, fsmount.  Nothing falls back
   to mount(2): a kernel without a call fails the step (ENOSYS), and the
   caller says which call and which Linux it needs.

   Every DST is a path in the new root ("/" or "" is the new root
   itself), resolved by openat2 from the new root's descriptor with
   RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS: the new root is "/" for the
   walk, so a symlink met on the way is followed inside it, as it will
   read once entered (an absolute one, such as /etc/resolv.conf leading
   to /run/..., from the new root; a ".." never above it), and a symlink
   planted there, or swapped in by a racer, cannot send a mount outside;
   a /proc magic link fails the step (ELOOP).  Only a DST written as the
   new root ("/") mounts over it: one that leads there through a link or
   a ".." is refused (EINVAL).  Each mount is then attached to the
   descriptor that resolution gave, not to a path walked again.  Missing
   parents of DST are made as directories of mode M.PARENT_MODE (0755
   unless the caller sets it), less the umask, the path walked again
   from the new root after each; a mount point missing, as a directory
   of mode 0755 or, for a bind of anything else, an empty file of mode
   0444.

   The order:

     ns_mount_note_namespace ();    before unshare (CLONE_NEWNS)
     ns_mount_begin (&m);           the new root: a tmpfs, held by M.FD
     ns_mount_bind (&m, ...);       the steps, in the order given
     ...
     ns_mount_enter (&m);           pivot_root into it, the old root gone

   They run in a process with a mount namespace of its own whose "/" is
   not shared (MS_PRIVATE or MS_SLAVE, as unshare-run sets it) and is the
   root of a mount (not a chroot into a directory): pivot_root refuses
   either.  SRC paths are the old root's, read before
   ns_mount_enter.  Each returns 0 or -errno, and on failure sets M.FAIL
   to the call that failed; M is then only good for giving up (the
   process ends).  Nothing here reports or exits: the words are the
   caller's.  */

#ifndef NC_NS_MOUNT_H
#define NC_NS_MOUNT_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* The call a failed step made last: CALL, its name ("open_tree"), and
   SINCE, the first Linux that has it ("5.2"), or NULL for the calls
   every supported kernel has.  A message reads "CALL: strerror (needs
   Linux SINCE)".  */
struct ns_mount_fail
{
  const char *call;
  const char *since;
};

/* The new root being built.  FD is its topmost mount: the tmpfs of
   ns_mount_begin, or what a step mounted on "/" over it.  */
struct ns_mount
{
  int fd;
  struct ns_mount_fail fail;
  mode_t parent_mode;           /* of the missing parents a step makes */
};

/* ns_mount_bind's FLAGS.  A bind is always nosuid; nodev unless
   NS_BIND_DEV.  */
enum
{
  NS_BIND_RO = 1 << 0,          /* read-only, in every submount */
  NS_BIND_DEV = 1 << 1,         /* device files stay usable */
  NS_BIND_TRY = 1 << 2          /* a missing SRC mounts nothing, not an
                                   error */
};

/* PATH opened beneath DIRFD with FLAGS and O_CLOEXEC, walked as every
   DST is: DIRFD is "/" for it, so that no absolute symlink or ".."
   leads out, and no /proc magic link is followed.  openat2's EAGAIN (a
   ".." raced by a rename) is asked again a few times, then returned.
   The descriptor, or -errno (-ENOSYS before Linux 5.6).  */
int ns_mount_open_inside (int dirfd, const char *path, int flags);

/* Note the mount namespace the process is in, which ns_mount_begin
   refuses to mount over: the caller's before it makes a new one.  0, or
   -errno (/proc/self/ns/mnt cannot be read).  */
int ns_mount_note_namespace (void);

/* ns_mount_begin's answer (as -errno) in the mount namespace that
   ns_mount_note_namespace noted, or when none was noted: M.FAIL.CALL is
   then "the mount namespace check".  No mount call answers it.  */
#define NS_MOUNT_SAME_NAMESPACE ECANCELED

/* Mount an empty tmpfs (mode 0755) as the new root, over the old root's
   "/" where only M.FD reaches it, and make it unbindable so that a
   recursive bind of the old root does not copy it.  Refused
   (-NS_MOUNT_SAME_NAMESPACE) unless the process is in a mount namespace
   other than the one ns_mount_note_namespace noted.  */
int ns_mount_begin (struct ns_mount *m);

/* Bind SRC, a path of the old root, and every mount under it, on DST:
   a directory made for a directory, an empty file for anything else.  */
int ns_mount_bind (struct ns_mount *m, const char *src, const char *dst,
                   unsigned int flags);

/* Bind the directory descriptor FD refers to (opened, or O_PATH), and
   every mount under it, on DST, as ns_mount_bind with FLAGS.  FD's
   mount is one of the old mount namespace, which open_tree cannot
   clone from this one (EINVAL): the clone is of its path, as
   /proc/self/fd reads it, the old root's, and is attached only if its
   root is FD's directory (the same device and inode), else -ESTALE:
   the directory was removed, or its path replaced or covered by a
   mount, since FD was opened (a rename is followed).
   -ENOTDIR for anything but a directory.  */
int ns_mount_bind_fd (struct ns_mount *m, int fd, const char *dst,
                      unsigned int flags);

/* Make the mount at DST, with every mount under it, read-only.  DST
   must be the root of a mount (EINVAL).  */
int ns_mount_remount_ro (struct ns_mount *m, const char *dst);

/* A new tmpfs on DST, nosuid and nodev: SIZE bytes at most (0: the
   kernel's default, half of the RAM), its root with MODE.  */
int ns_mount_tmpfs (struct ns_mount *m, const char *dst, uint64_t size,
                    mode_t mode);

/* A proc on DST: with OWN, a new one, for the calling process's PID
   namespace, nosuid, nodev, noexec; else the old root's /proc, bound
   with every mount under it, nosuid and nodev (a user namespace may
   mount a new proc only for a PID namespace it owns).  Then, as
   bubblewrap does, its sys, sysrq-trigger, irq and bus, each bound on
   itself read-only with every mount under it, where access(2) says the
   process could write it (not where it is missing, read-only already
   or not allowed).  */
int ns_mount_proc (struct ns_mount *m, const char *dst, bool own);

/* A new mqueue on DST, for the calling process's IPC namespace;
   nosuid, nodev, noexec.  */
int ns_mount_mqueue (struct ns_mount *m, const char *dst);

/* A minimal /dev on DST: a tmpfs holding null, zero, full, random,
   urandom and tty bound from the old root's device files; pts, a new
   devpts instance, with ptmx a symlink to pts/ptmx; shm, a tmpfs of
   mode 1777; and the symlinks fd, stdin, stdout, stderr and core into
   /proc.  */
int ns_mount_dev (struct ns_mount *m, const char *dst);

/* Make the directory DST, with MODE (an existing one is left as it
   is).  */
int ns_mount_dir (struct ns_mount *m, const char *dst, mode_t mode);

/* Make DST a symlink to TARGET (one already there with that target is
   fine).  TARGET is not resolved: it is read inside the new root.  */
int ns_mount_symlink (struct ns_mount *m, const char *target,
                      const char *dst);

/* Set the mode of PATH, which exists, to MODE; a symlink at its end
   is refused (ELOOP), not followed.  */
int ns_mount_chmod (struct ns_mount *m, const char *path, mode_t mode);

/* ns_mount_file's FLAGS: NS_BIND_RO, and this.  */
enum
{
  NS_FILE_BIND = 1 << 3         /* a file bound on DST, not written there */
};

/* A file of MODE holding what descriptor FD holds, read to its end, as
   DST.  Without NS_FILE_BIND, DST is made (or truncated) and written
   where it is, a symlink at its end refused (ELOOP); with it, the file is made on a tmpfs of its own that no
   path reaches and bound on DST (read-only with NS_BIND_RO), as a bind
   of a file: a file made for it on DST.  (Before Linux 6.15, which
   clones a file of a mount attached nowhere, that tmpfs is attached
   over the new root for the time of the clone.)  */
int ns_mount_file (struct ns_mount *m, int fd, const char *dst, mode_t mode,
                   unsigned int flags);

/* Enter the new root: pivot_root into M.FD, detach the old root and
   all under it, and make "/" the working directory.  M.FD is closed.  */
int ns_mount_enter (struct ns_mount *m);

#endif
