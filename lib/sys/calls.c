/* sys/calls.c -- typed wrappers for the raw system calls; see sys/calls.h.  */

#include <config.h>

#include "sys/calls.h"

#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>

#include "sys/arch.h"

/* glibc's off_t is 64 bits only with _FILE_OFFSET_BITS=64, which gnulib's
   largefile module sets; the kernel's loff_t pointers rely on it.  */
_Static_assert (sizeof (off_t) == 8, "off_t must be 64 bits");

/* The timespec of ppoll, pselect6 and utimensat as the kernel reads it:
   NC_SYS_* names the 64-bit-time variant on 32-bit architectures, and on
   64-bit ones the native struct already has this layout.  */
struct nc_timespec64
{
  int64_t tv_sec;
  int64_t tv_nsec;
};

/* The sixth argument of pselect6: the mask and its size, packed because
   the kernel takes no seventh argument.  */
struct nc_sigset_arg
{
  const void *set;
  unsigned long size;
};

/* preadv/pwritev take the offset as two longs.  On 64-bit architectures the
   kernel uses only the first, on 32-bit ones it joins the two halves.  */
static inline long
off_lo (off_t off)
{
  return (long) (unsigned long) (uint64_t) off;
}

static inline long
off_hi (off_t off)
{
  return (long) (unsigned long) ((uint64_t) off >> 32);
}

static struct nc_timespec64 *
timespec_to_kernel (const struct timespec *ts, struct nc_timespec64 *k)
{
  if (!ts)
    return NULL;
  k->tv_sec = ts->tv_sec;
  k->tv_nsec = ts->tv_nsec;
  return k;
}

/* --- Plain I/O ------------------------------------------------------- */

/* ssize_t read (int fd, void *buf, size_t count);  */
ssize_t
sys_read (int fd, void *buf, size_t len)
{
  return nc_syscall3 (NC_SYS_read, fd, buf, len);
}

/* ssize_t write (int fd, const void *buf, size_t count);  */
ssize_t
sys_write (int fd, const void *buf, size_t len)
{
  return nc_syscall3 (NC_SYS_write, fd, buf, len);
}

/* int close (int fd);  */
int
sys_close (int fd)
{
  return nc_syscall1 (NC_SYS_close, fd);
}

/* int pipe2 (int pipefd[2], int flags);  */
int
sys_pipe2 (int fds[2], int flags)
{
  return nc_syscall2 (NC_SYS_pipe2, fds, flags);
}

/* off_t lseek (int fd, off_t offset, int whence);
   int _llseek (unsigned int fd, unsigned long offset_high,
                unsigned long offset_low, loff_t *result,
                unsigned int whence);  */
off_t
sys_lseek (int fd, off_t off, int whence)
{
#ifdef NC_SYS_llseek
  /* 32-bit architectures: _llseek takes the halves and stores the result.  */
  int64_t result;
  long ret = nc_syscall5 (NC_SYS_llseek, fd, off_hi (off), off_lo (off),
                          &result, whence);
  return ret < 0 ? ret : result;
#else
  return nc_syscall3 (NC_SYS_lseek, fd, off, whence);
#endif
}

/* int fsync (int fd);  */
int
sys_fsync (int fd)
{
  return nc_syscall1 (NC_SYS_fsync, fd);
}

/* int ftruncate (int fd, off_t length);  */
int
sys_ftruncate (int fd, off_t len)
{
  /* NC_SYS_ftruncate is ftruncate64 where long is 32 bits: the length is
     then the 64-bit argument that syscall_arch.h splits.  */
  return nc_syscall (NC_SYS_ftruncate, fd, NC_SYSCALL_LL_O (len));
}

/* --- Moving data between descriptors --------------------------------- */

/* ssize_t splice (int fd_in, loff_t *off_in, int fd_out,
                  loff_t *off_out, size_t len, unsigned int flags);  */
ssize_t
sys_splice (int fd_in, off_t *off_in, int fd_out, off_t *off_out,
            size_t len, unsigned int flags)
{
  return nc_syscall6 (NC_SYS_splice, fd_in, off_in, fd_out, off_out, len,
                      flags);
}

/* ssize_t tee (int fd_in, int fd_out, size_t len, unsigned int flags);  */
ssize_t
sys_tee (int fd_in, int fd_out, size_t len, unsigned int flags)
{
  return nc_syscall4 (NC_SYS_tee, fd_in, fd_out, len, flags);
}

/* ssize_t vmsplice (int fd, const struct iovec *iov, size_t nr_segs,
                    unsigned int flags);  */
ssize_t
sys_vmsplice (int fd, const struct iovec *iov, unsigned long nr_segs,
              unsigned int flags)
{
  return nc_syscall4 (NC_SYS_vmsplice, fd, iov, nr_segs, flags);
}

/* ssize_t copy_file_range (int fd_in, loff_t *off_in, int fd_out,
                           loff_t *off_out, size_t len,
                           unsigned int flags);  */
ssize_t
sys_copy_file_range (int fd_in, off_t *off_in, int fd_out, off_t *off_out,
                     size_t len, unsigned int flags)
{
  return nc_syscall6 (NC_SYS_copy_file_range, fd_in, off_in, fd_out, off_out,
                      len, flags);
}

/* ssize_t sendfile (int out_fd, int in_fd, off_t *offset,
                    size_t count);  */
ssize_t
sys_sendfile (int out_fd, int in_fd, off_t *offset, size_t count)
{
  /* NC_SYS_sendfile is sendfile64 where the plain one takes a 32-bit
     offset.  */
  return nc_syscall4 (NC_SYS_sendfile, out_fd, in_fd, offset, count);
}

/* --- Positioned, vectored I/O ---------------------------------------- */

/* ssize_t preadv (int fd, const struct iovec *iov, int iovcnt,
                  off_t offset);  */
ssize_t
sys_preadv (int fd, const struct iovec *iov, int iovcnt, off_t off)
{
  return nc_syscall5 (NC_SYS_preadv, fd, iov, iovcnt, off_lo (off),
                      off_hi (off));
}

/* ssize_t pwritev (int fd, const struct iovec *iov, int iovcnt,
                   off_t offset);  */
ssize_t
sys_pwritev (int fd, const struct iovec *iov, int iovcnt, off_t off)
{
  return nc_syscall5 (NC_SYS_pwritev, fd, iov, iovcnt, off_lo (off),
                      off_hi (off));
}

/* ssize_t preadv2 (int fd, const struct iovec *iov, int iovcnt,
                   off_t offset, int flags);  */
ssize_t
sys_preadv2 (int fd, const struct iovec *iov, int iovcnt, off_t off,
             int flags)
{
  return nc_syscall6 (NC_SYS_preadv2, fd, iov, iovcnt, off_lo (off),
                      off_hi (off), flags);
}

/* ssize_t pwritev2 (int fd, const struct iovec *iov, int iovcnt,
                    off_t offset, int flags);  */
ssize_t
sys_pwritev2 (int fd, const struct iovec *iov, int iovcnt, off_t off,
              int flags)
{
  return nc_syscall6 (NC_SYS_pwritev2, fd, iov, iovcnt, off_lo (off),
                      off_hi (off), flags);
}

/* --- Waiting with an atomically applied signal mask ------------------ */

/* int ppoll (struct pollfd *fds, nfds_t nfds,
              const struct timespec *tmo_p, const sigset_t *sigmask);  */
int
sys_ppoll (struct pollfd *fds, nfds_t nfds, struct timespec *timeout,
           const sigset_t *mask)
{
  struct nc_timespec64 k;
  struct nc_timespec64 *kp = timespec_to_kernel (timeout, &k);
  long ret = nc_syscall5 (NC_SYS_ppoll, fds, nfds, kp, mask,
                          NC_KERNEL_SIGSET_SIZE);
  if (kp)
    {
      timeout->tv_sec = k.tv_sec;
      timeout->tv_nsec = k.tv_nsec;
    }
  return ret;
}

/* int pselect (int nfds, fd_set *readfds, fd_set *writefds,
                fd_set *exceptfds, const struct timespec *timeout,
                const sigset_t *sigmask);  */
int
sys_pselect6 (int nfds, fd_set *rfds, fd_set *wfds, fd_set *efds,
              struct timespec *timeout, const sigset_t *mask)
{
  struct nc_timespec64 k;
  struct nc_timespec64 *kp = timespec_to_kernel (timeout, &k);
  struct nc_sigset_arg sig = { mask, NC_KERNEL_SIGSET_SIZE };
  long ret = nc_syscall6 (NC_SYS_pselect6, nfds, rfds, wfds, efds, kp,
                          mask ? &sig : NULL);
  if (kp)
    {
      timeout->tv_sec = k.tv_sec;
      timeout->tv_nsec = k.tv_nsec;
    }
  return ret;
}

/* int sigsuspend (const sigset_t *mask);  */
int
sys_rt_sigsuspend (const sigset_t *mask)
{
  return nc_syscall2 (NC_SYS_rt_sigsuspend, mask, NC_KERNEL_SIGSET_SIZE);
}

/* int rt_sigprocmask (int how, const kernel_sigset_t *set,
                      kernel_sigset_t *oldset, size_t sigsetsize);  */
int
sys_rt_sigprocmask (int how, const sigset_t *set, sigset_t *oldset)
{
  int ret = nc_syscall4 (NC_SYS_rt_sigprocmask, how, set, oldset,
                         NC_KERNEL_SIGSET_SIZE);
  /* The kernel wrote only its own 8 bytes of OLDSET: clear the rest of
     glibc's larger set, so that sigismember() on it means what it says.  */
  if (ret == 0 && oldset)
    memset ((char *) oldset + NC_KERNEL_SIGSET_SIZE, 0,
            sizeof *oldset - NC_KERNEL_SIGSET_SIZE);
  return ret;
}

/* int pidfd_open (pid_t pid, unsigned int flags);  */
int
sys_pidfd_open (pid_t pid, unsigned int flags)
{
  return nc_syscall2 (NC_SYS_pidfd_open, pid, flags);
}

/* int pidfd_send_signal (int pidfd, int sig, siginfo_t *info,
                          unsigned int flags);  */
int
sys_pidfd_send_signal (int pidfd, int sig, siginfo_t *info,
                       unsigned int flags)
{
  return nc_syscall4 (NC_SYS_pidfd_send_signal, pidfd, sig, info, flags);
}

/* <linux/pidfd.h>'s request, encoded by each architecture's _IOWR with
   the size of the structure, which the kernel reads as its version.  */
#define NC_PIDFD_GET_INFO _IOWR (0xFF, 11, struct nc_pidfd_info)

/* int ioctl (int pidfd, PIDFD_GET_INFO, struct pidfd_info *info);  */
int
sys_pidfd_get_info (int pidfd, struct nc_pidfd_info *info)
{
  return sys_ioctl (pidfd, NC_PIDFD_GET_INFO, (unsigned long) info);
}

/* int waitid (idtype_t idtype, id_t id, siginfo_t *info, int options,
               struct rusage *rusage);  */
int
sys_waitid (int idtype, int id, siginfo_t *info, int options,
            struct rusage *rusage)
{
  return nc_syscall5 (NC_SYS_waitid, idtype, id, info, options, rusage);
}

/* int inotify_init1 (int flags);  */
int
sys_inotify_init1 (int flags)
{
  return nc_syscall1 (NC_SYS_inotify_init1, flags);
}

/* int inotify_add_watch (int fd, const char *pathname, uint32_t mask);  */
int
sys_inotify_add_watch (int fd, const char *path, uint32_t mask)
{
  return nc_syscall3 (NC_SYS_inotify_add_watch, fd, path, mask);
}

/* int inotify_rm_watch (int fd, int wd);  */
int
sys_inotify_rm_watch (int fd, int wd)
{
  return nc_syscall2 (NC_SYS_inotify_rm_watch, fd, wd);
}

/* --- Namespaces and what a process in new ones sets up --------------- */

/* int unshare (int flags);  */
int
sys_unshare (int flags)
{
  return nc_syscall1 (NC_SYS_unshare, flags);
}

/* int setns (int fd, int nstype);  */
int
sys_setns (int fd, int nstype)
{
  return nc_syscall2 (NC_SYS_setns, fd, nstype);
}

/* int mount (const char *source, const char *target,
              const char *filesystemtype, unsigned long mountflags,
              const void *data);  */
int
sys_mount (const char *source, const char *target, const char *fstype,
           unsigned long flags, const void *data)
{
  return nc_syscall5 (NC_SYS_mount, source, target, fstype, flags, data);
}

/* int umount2 (const char *target, int flags);  */
int
sys_umount2 (const char *target, int flags)
{
  return nc_syscall2 (NC_SYS_umount2, target, flags);
}

/* int pivot_root (const char *new_root, const char *put_old);  */
int
sys_pivot_root (const char *new_root, const char *put_old)
{
  return nc_syscall2 (NC_SYS_pivot_root, new_root, put_old);
}

/* int fchdir (int fd);  */
int
sys_fchdir (int fd)
{
  return nc_syscall1 (NC_SYS_fchdir, fd);
}

/* int sethostname (const char *name, size_t len);  */
int
sys_sethostname (const char *name, size_t len)
{
  return nc_syscall2 (NC_SYS_sethostname, name, len);
}

/* int prctl (int option, unsigned long arg2, unsigned long arg3,
              unsigned long arg4, unsigned long arg5);  */
int
sys_prctl (int option, unsigned long a2, unsigned long a3, unsigned long a4,
           unsigned long a5)
{
  return nc_syscall5 (NC_SYS_prctl, option, a2, a3, a4, a5);
}

/* int capget (cap_user_header_t hdrp, cap_user_data_t datap);  */
int
sys_capget (void *header, void *data)
{
  return nc_syscall2 (NC_SYS_capget, header, data);
}

/* int capset (cap_user_header_t hdrp, const cap_user_data_t datap);  */
int
sys_capset (void *header, const void *data)
{
  return nc_syscall2 (NC_SYS_capset, header, data);
}

/* int seccomp (unsigned int operation, unsigned int flags, void *args);  */
int
sys_seccomp (unsigned int operation, unsigned int flags, const void *args)
{
  return nc_syscall3 (NC_SYS_seccomp, operation, flags, args);
}

/* --- Mounts as descriptors ------------------------------------------- */

/* int open_tree (int dirfd, const char *path, unsigned int flags);  */
int
sys_open_tree (int dirfd, const char *path, unsigned int flags)
{
  return nc_syscall3 (NC_SYS_open_tree, dirfd, path, flags);
}

/* int move_mount (int from_dirfd, const char *from_path,
                   int to_dirfd, const char *to_path, unsigned int flags);  */
int
sys_move_mount (int from_dirfd, const char *from_path, int to_dirfd,
                const char *to_path, unsigned int flags)
{
  return nc_syscall5 (NC_SYS_move_mount, from_dirfd, from_path, to_dirfd,
                      to_path, flags);
}

/* int mount_setattr (int dirfd, const char *path, unsigned int flags,
                      struct mount_attr *attr, size_t size);  */
int
sys_mount_setattr (int dirfd, const char *path, unsigned int flags,
                   const struct nc_mount_attr *attr)
{
  return nc_syscall5 (NC_SYS_mount_setattr, dirfd, path, flags, attr,
                      sizeof *attr);
}

/* int fsopen (const char *fsname, unsigned int flags);  */
int
sys_fsopen (const char *fsname, unsigned int flags)
{
  return nc_syscall2 (NC_SYS_fsopen, fsname, flags);
}

/* int fsconfig (int fd, unsigned int cmd, const char *key,
                 const void *value, int aux);  */
int
sys_fsconfig (int fd, unsigned int cmd, const char *key, const void *value,
              int aux)
{
  return nc_syscall5 (NC_SYS_fsconfig, fd, cmd, key, value, aux);
}

/* int fsmount (int fd, unsigned int flags, unsigned int attr_flags);  */
int
sys_fsmount (int fd, unsigned int flags, unsigned int attr_flags)
{
  return nc_syscall3 (NC_SYS_fsmount, fd, flags, attr_flags);
}

/* --- The *at family -------------------------------------------------- */

/* int openat (int dirfd, const char *pathname, int flags, mode_t mode);  */
int
sys_openat (int dirfd, const char *path, int flags, mode_t mode)
{
  /* glibc defines O_LARGEFILE as 0 where the kernel forces it (64-bit),
     and as the kernel's bit where it must be asked for.  */
  return nc_syscall4 (NC_SYS_openat, dirfd, path, flags | O_LARGEFILE, mode);
}

/* int openat2 (int dirfd, const char *pathname, struct open_how *how,
                size_t size);  */
int
sys_openat2 (int dirfd, const char *path, const struct nc_open_how *how)
{
  struct nc_open_how large = *how;
  /* As openat, large files on 32-bit architectures; but openat2 refuses
     any flag beside O_PATH's few where openat drops them (EINVAL).  */
  if (!(large.flags & O_PATH))
    large.flags |= O_LARGEFILE;
  return nc_syscall4 (NC_SYS_openat2, dirfd, path, &large, sizeof large);
}

/* int mkdirat (int dirfd, const char *pathname, mode_t mode);  */
int
sys_mkdirat (int dirfd, const char *path, mode_t mode)
{
  return nc_syscall3 (NC_SYS_mkdirat, dirfd, path, mode);
}

/* int mknodat (int dirfd, const char *pathname, mode_t mode, dev_t dev);  */
int
sys_mknodat (int dirfd, const char *path, mode_t mode, dev_t dev)
{
  /* The kernel takes the 32-bit encoding of dev_t, which glibc's makedev
     shares in its low word; glibc answers EINVAL for one that does not
     fit.  */
  if (dev != (dev_t) (unsigned int) dev)
    return -EINVAL;
  return nc_syscall4 (NC_SYS_mknodat, dirfd, path, mode, (unsigned int) dev);
}

/* int unlinkat (int dirfd, const char *pathname, int flags);  */
int
sys_unlinkat (int dirfd, const char *path, int flags)
{
  return nc_syscall3 (NC_SYS_unlinkat, dirfd, path, flags);
}

/* int symlinkat (const char *target, int newdirfd,
                  const char *linkpath);  */
int
sys_symlinkat (const char *target, int dirfd, const char *path)
{
  return nc_syscall3 (NC_SYS_symlinkat, target, dirfd, path);
}

/* int linkat (int olddirfd, const char *oldpath, int newdirfd,
               const char *newpath, int flags);  */
int
sys_linkat (int olddirfd, const char *oldpath, int newdirfd,
            const char *newpath, int flags)
{
  return nc_syscall5 (NC_SYS_linkat, olddirfd, oldpath, newdirfd, newpath,
                      flags);
}

/* int renameat2 (int olddirfd, const char *oldpath, int newdirfd,
                  const char *newpath, unsigned int flags);  */
int
sys_renameat2 (int olddirfd, const char *oldpath, int newdirfd,
               const char *newpath, unsigned int flags)
{
  return nc_syscall5 (NC_SYS_renameat2, olddirfd, oldpath, newdirfd, newpath,
                      flags);
}

/* int renameat (int olddirfd, const char *oldpath, int newdirfd,
                 const char *newpath);
   As the C library makes it: the renameat call where the architecture has
   one (elsewhere renameat2 again), for a kernel without renameat2 (before
   3.15) or a seccomp filter that refuses it and knows renameat (one
   written before renameat2 was).  */
int
sys_renameat (int olddirfd, const char *oldpath, int newdirfd,
              const char *newpath)
{
  int saved = errno;
  int ret = renameat (olddirfd, oldpath, newdirfd, newpath) == 0 ? 0 : -errno;
  errno = saved;
  return ret;
}

/* int fchownat (int dirfd, const char *pathname, uid_t owner,
                 gid_t group, int flags);  */
int
sys_fchownat (int dirfd, const char *path, uid_t owner, gid_t group,
              int flags)
{
  return nc_syscall5 (NC_SYS_fchownat, dirfd, path, owner, group, flags);
}

/* int utimensat (int dirfd, const char *pathname,
                  const struct timespec times[2], int flags);  */
int
sys_utimensat (int dirfd, const char *path, const struct timespec ts[2],
               int flags)
{
  struct nc_timespec64 k[2];
  if (ts)
    {
      timespec_to_kernel (&ts[0], &k[0]);
      timespec_to_kernel (&ts[1], &k[1]);
    }
  return nc_syscall4 (NC_SYS_utimensat, dirfd, path, ts ? k : NULL, flags);
}

/* int statx (int dirfd, const char *pathname, int flags,
              unsigned int mask, struct statx *statxbuf);  */
int
sys_statx (int dirfd, const char *path, int flags, unsigned int mask,
           struct statx *stx)
{
  return nc_syscall5 (NC_SYS_statx, dirfd, path, flags, mask, stx);
}

/* int fstatat (int dirfd, const char *pathname, struct stat *statbuf,
                int flags);  */
int
sys_fstatat (int dirfd, const char *path, struct stat *st, int flags)
{
  return sys_fstatat_mount (dirfd, path, st, flags, NULL);
}

/* fstatat as the C library does it, which knows each architecture's
   struct stat: for a kernel without statx (before 4.11), or a seccomp
   filter that refuses it (statx itself never answers EPERM).  Such a
   kernel does not tell a mount's root, as statx before 5.8 does not.  */
static int
fstatat_of_libc (int dirfd, const char *path, struct stat *st, int flags,
                 bool *mount_root)
{
  int saved = errno;
  int ret = fstatat (dirfd, path, st, flags) == 0 ? 0 : -errno;
  errno = saved;
  if (mount_root)
    *mount_root = false;
  return ret;
}

int
sys_fstatat_mount (int dirfd, const char *path, struct stat *st, int flags,
                   bool *mount_root)
{
  struct statx stx;
  /* As fstatat does, never trigger an automount.  */
  int ret = sys_statx (dirfd, path, flags | AT_NO_AUTOMOUNT,
                       STATX_BASIC_STATS, &stx);
  if (ret == -ENOSYS || ret == -EPERM)
    return fstatat_of_libc (dirfd, path, st, flags, mount_root);
  if (ret < 0)
    return ret;
  stat_from_statx (st, &stx);
  if (mount_root)
    *mount_root = (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)
                  && (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
  return 0;
}

/* statx has one layout on every architecture, unlike the stat structs of
   newfstatat and fstatat64; libc's struct stat is filled from it.  */
void
stat_from_statx (struct stat *st, const struct statx *stx)
{
  memset (st, 0, sizeof *st);
  st->st_dev = makedev (stx->stx_dev_major, stx->stx_dev_minor);
  st->st_ino = stx->stx_ino;
  st->st_mode = stx->stx_mode;
  st->st_nlink = stx->stx_nlink;
  st->st_uid = stx->stx_uid;
  st->st_gid = stx->stx_gid;
  st->st_rdev = makedev (stx->stx_rdev_major, stx->stx_rdev_minor);
  st->st_size = stx->stx_size;
  st->st_blksize = stx->stx_blksize;
  st->st_blocks = stx->stx_blocks;
  st->st_atim.tv_sec = stx->stx_atime.tv_sec;
  st->st_atim.tv_nsec = stx->stx_atime.tv_nsec;
  st->st_mtim.tv_sec = stx->stx_mtime.tv_sec;
  st->st_mtim.tv_nsec = stx->stx_mtime.tv_nsec;
  st->st_ctim.tv_sec = stx->stx_ctime.tv_sec;
  st->st_ctim.tv_nsec = stx->stx_ctime.tv_nsec;
}

/* int fstat (int fd, struct stat *statbuf);  */
int
sys_fstat (int fd, struct stat *st)
{
  /* statx would take AT_FDCWD and describe the working directory.  */
  if (fd < 0)
    return -EBADF;
  return sys_fstatat (fd, "", st, AT_EMPTY_PATH);
}

/* ssize_t readlinkat (int dirfd, const char *pathname, char *buf,
                      size_t bufsiz);  */
ssize_t
sys_readlinkat (int dirfd, const char *path, char *buf, size_t len)
{
  return nc_syscall4 (NC_SYS_readlinkat, dirfd, path, buf, len);
}

/* int faccessat (int dirfd, const char *pathname, int mode, int flags);  */
int
sys_faccessat (int dirfd, const char *path, int mode, int flags)
{
  /* The original faccessat has no flags argument; faccessat2 (5.8) does.  */
  if (flags == 0)
    return nc_syscall3 (NC_SYS_faccessat, dirfd, path, mode);
  return nc_syscall4 (NC_SYS_faccessat2, dirfd, path, mode, flags);
}

int
sys_faccessat_effective (int dirfd, const char *path, int mode)
{
  int ret = sys_faccessat (dirfd, path, mode, AT_EACCESS);
  if (ret == -ENOSYS || ret == -EPERM)
    ret = sys_faccessat (dirfd, path, mode, 0);
  return ret;
}

/* int fchmodat (int dirfd, const char *pathname, mode_t mode,
                 int flags);  */
int
sys_fchmodat (int dirfd, const char *path, mode_t mode, int flags)
{
  /* Likewise: fchmodat2 (6.6) is the one that honours flags.  */
  if (flags == 0)
    return nc_syscall3 (NC_SYS_fchmodat, dirfd, path, mode);
  long ret = nc_syscall4 (NC_SYS_fchmodat2, dirfd, path, mode, flags);
  if (ret != -ENOSYS)
    return ret;
  /* Before 6.6 a flag fchmodat2 does not know is still the caller's
     mistake (EINVAL, as 6.6 says), not a missing call.  */
  if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
    return -EINVAL;
  if (flags != AT_SYMLINK_NOFOLLOW)
    return ret;

  /* Before 6.6: hold the file itself with O_PATH, refuse a symlink (whose
     mode Linux cannot change), and change the mode through the
     descriptor's /proc link, which leads to the file, not to a name.  */
  int fd = sys_openat (dirfd, path, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
  if (fd < 0)
    return fd;
  struct stat st;
  ret = sys_fstat (fd, &st);
  if (ret == 0 && S_ISLNK (st.st_mode))
    ret = -EOPNOTSUPP;
  if (ret == 0)
    {
      char link[sizeof "/proc/self/fd/" + 3 * sizeof (int)];
      snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
      ret = nc_syscall3 (NC_SYS_fchmodat, AT_FDCWD, link, mode);
    }
  sys_close (fd);
  return ret;
}

/* ssize_t getdents64 (int fd, void *dirp, size_t count);  */
ssize_t
sys_getdents64 (int fd, void *buf, size_t len)
{
  return nc_syscall3 (NC_SYS_getdents64, fd, buf, len);
}

/* --- Descriptor-based attributes ------------------------------------- */

/* int fchmod (int fd, mode_t mode);  */
int
sys_fchmod (int fd, mode_t mode)
{
  return nc_syscall2 (NC_SYS_fchmod, fd, mode);
}

/* ssize_t fgetxattr (int fd, const char *name, void *value,
                     size_t size);  */
ssize_t
sys_fgetxattr (int fd, const char *name, void *value, size_t size)
{
  return nc_syscall4 (NC_SYS_fgetxattr, fd, name, value, size);
}

/* ssize_t flistxattr (int fd, char *list, size_t size);  */
ssize_t
sys_flistxattr (int fd, char *list, size_t size)
{
  return nc_syscall3 (NC_SYS_flistxattr, fd, list, size);
}

/* int fsetxattr (int fd, const char *name, const void *value,
                 size_t size, int flags);  */
int
sys_fsetxattr (int fd, const char *name, const void *value, size_t size,
               int flags)
{
  return nc_syscall5 (NC_SYS_fsetxattr, fd, name, value, size, flags);
}

/* int fremovexattr (int fd, const char *name);  */
int
sys_fremovexattr (int fd, const char *name)
{
  return nc_syscall2 (NC_SYS_fremovexattr, fd, name);
}

/* --- Descriptor control ---------------------------------------------- */

/* int fcntl (int fd, int cmd, ...);  */
int
sys_fcntl (int fd, int cmd, long arg)
{
  /* NC_SYS_fcntl is fcntl64 on 32-bit architectures.  */
  return nc_syscall3 (NC_SYS_fcntl, fd, cmd, arg);
}

/* int ioctl (int fd, unsigned long request, ...);  */
int
sys_ioctl (int fd, unsigned long request, unsigned long arg)
{
  return nc_syscall3 (NC_SYS_ioctl, fd, request, arg);
}

/* int fcntl (int fd, int cmd, struct flock *lock);  */
int
sys_fcntl_lock (int fd, int cmd, struct flock *lock)
{
  /* With a 64-bit off_t (above), struct flock is the kernel's flock64,
     which fcntl64 takes, and which the F_OFD_* commands require.  */
  return nc_syscall3 (NC_SYS_fcntl, fd, cmd, lock);
}

/* --- io_uring rings -------------------------------------------------- */

/* int io_uring_setup (u32 entries, struct io_uring_params *p);  */
int
sys_io_uring_setup (uint32_t entries, struct io_uring_params *p)
{
  return nc_syscall2 (NC_SYS_io_uring_setup, entries, p);
}

/* int io_uring_enter (unsigned int fd, unsigned int to_submit,
                       unsigned int min_complete, unsigned int flags,
                       sigset_t *sig);
   The kernel takes a sixth argument, the size of *SIG.  Both are passed
   as NULL and 0: the ring's one user waits with the signal mask it has
   (it retries -EINTR and has no signal to wait for atomically), so the
   kernel-sized sigset and its mask swapping would be dead weight.  */
int
sys_io_uring_enter (unsigned int fd, unsigned int to_submit,
                    unsigned int min_complete, unsigned int flags)
{
  return nc_syscall6 (NC_SYS_io_uring_enter, fd, to_submit, min_complete,
                      flags, NULL, 0);
}

/* int io_uring_register (unsigned int fd, unsigned int opcode, void *arg,
                          unsigned int nr_args);  */
int
sys_io_uring_register (unsigned int fd, unsigned int opcode, void *arg,
                       unsigned int nr_args)
{
  return nc_syscall4 (NC_SYS_io_uring_register, fd, opcode, arg, nr_args);
}
