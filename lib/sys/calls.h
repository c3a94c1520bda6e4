/* sys/calls.h -- typed wrappers for the system calls the toolset uses.

   Every sys_* function returns the kernel's answer: a non-negative result,
   or -errno.  errno is never touched.  Where a libc-style API is wanted,
   nc_errno() converts at the call site.

   Architecture differences are absorbed here, once, without naming an
   architecture: 64-bit arguments in the form syscall_arch.h gives them
   (two halves on 32-bit architectures), the kernel's 8-byte sigset,
   64-bit time on 32-bit architectures (the *_time64 calls), fstatat done
   with statx (by the C library's where statx is missing or refused), and
   O_LARGEFILE.  sys/calls.c defines the wrappers in the order
   they are declared here, each under the prototype of its man(2) page.  */

#ifndef NC_SYS_CALLS_H
#define NC_SYS_CALLS_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>

/* The kernel's struct linux_dirent64, as getdents64 returns it.  */
struct nc_dirent64
{
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/* The kernel's struct mount_attr (<linux/mount.h>, Linux 5.12), what
   mount_setattr sets on a mount: ATTR_SET's MOUNT_ATTR_* bits on,
   ATTR_CLR's off, PROPAGATION one of MS_PRIVATE, MS_SLAVE, MS_SHARED,
   MS_UNBINDABLE or 0 for unchanged.  Its own name: C libraries that
   have one define it in headers that conflict with each other.  */
struct nc_mount_attr
{
  uint64_t attr_set;
  uint64_t attr_clr;
  uint64_t propagation;
  uint64_t userns_fd;
};

/* The kernel's struct open_how (<linux/openat2.h>, Linux 5.6): openat's
   FLAGS and MODE, and RESOLVE, RESOLVE_* bits saying how PATH may be
   walked.  */
struct nc_open_how
{
  uint64_t flags;
  uint64_t mode;
  uint64_t resolve;
};

/* The kernel's struct pidfd_info (<linux/pidfd.h>, Linux 6.13; its
   EXIT_CODE from 6.15): MASK, the PIDFD_INFO_* bits asked for, then
   those filled in; EXIT_CODE, a wait status as waitpid(2) gives it, once
   the process has been reaped.  */
struct nc_pidfd_info
{
  uint64_t mask;
  uint64_t cgroupid;
  uint32_t pid, tgid, ppid;
  uint32_t ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
  int32_t exit_code;
};

/* The value of CALL, a sys_* call, made again while it answers -EINTR.
   For calls that a signal or a network or FUSE file system can interrupt
   after nothing was done (linkat, renameat2, fsync, openat...); never for
   a transfer, whose partial result the caller must count.  */
#define SYS_RETRY_EINTR(call) \
  __extension__ ({ __typeof__ (call) sys_ret_; \
                   while ((sys_ret_ = (call)) == -EINTR) \
                     continue; \
                   sys_ret_; })

/* Convert a -errno result to the libc convention: -1 with errno set.  */
static inline long
nc_errno (long ret)
{
  if (ret < 0)
    {
      errno = (int) -ret;
      return -1;
    }
  return ret;
}

/* Plain I/O.  */
ssize_t sys_read (int fd, void *buf, size_t len);
ssize_t sys_write (int fd, const void *buf, size_t len);
int sys_close (int fd);
int sys_pipe2 (int fds[2], int flags);
off_t sys_lseek (int fd, off_t off, int whence);
int sys_fsync (int fd);
int sys_ftruncate (int fd, off_t len);

/* Moving data between descriptors.  */
ssize_t sys_splice (int fd_in, off_t *off_in, int fd_out, off_t *off_out,
                    size_t len, unsigned int flags);
ssize_t sys_tee (int fd_in, int fd_out, size_t len, unsigned int flags);
ssize_t sys_vmsplice (int fd, const struct iovec *iov, unsigned long nr_segs,
                      unsigned int flags);
ssize_t sys_copy_file_range (int fd_in, off_t *off_in, int fd_out,
                             off_t *off_out, size_t len, unsigned int flags);
ssize_t sys_sendfile (int out_fd, int in_fd, off_t *offset, size_t count);

/* Positioned, vectored I/O.  */
ssize_t sys_preadv (int fd, const struct iovec *iov, int iovcnt, off_t off);
ssize_t sys_pwritev (int fd, const struct iovec *iov, int iovcnt, off_t off);
ssize_t sys_preadv2 (int fd, const struct iovec *iov, int iovcnt, off_t off,
                     int flags);
ssize_t sys_pwritev2 (int fd, const struct iovec *iov, int iovcnt, off_t off,
                      int flags);

/* Waiting with an atomically applied signal mask.  TIMEOUT, when not NULL,
   is updated with the time left, as the kernel reports it.  */
int sys_ppoll (struct pollfd *fds, nfds_t nfds, struct timespec *timeout,
               const sigset_t *mask);
int sys_pselect6 (int nfds, fd_set *rfds, fd_set *wfds, fd_set *efds,
                  struct timespec *timeout, const sigset_t *mask);
int sys_rt_sigsuspend (const sigset_t *mask);
int sys_rt_sigprocmask (int how, const sigset_t *set, sigset_t *oldset);

/* What a wait can watch besides files: a process (a pidfd, readable once
   the process has ended) and directories (an inotify descriptor, readable
   once an event is queued).  */
int sys_pidfd_open (pid_t pid, unsigned int flags);
/* Send SIG to the process of PIDFD, which a reused pid can never be
   (Linux 5.1).  */
int sys_pidfd_send_signal (int pidfd, int sig, siginfo_t *info,
                           unsigned int flags);
/* ioctl (PIDFD, PIDFD_GET_INFO, INFO): what INFO->mask asks for, of the
   process of PIDFD (Linux 6.13; ENOTTY before).  */
int sys_pidfd_get_info (int pidfd, struct nc_pidfd_info *info);
/* The raw waitid, with its fifth argument, RUSAGE (NULL: none).  */
int sys_waitid (int idtype, int id, siginfo_t *info, int options,
                struct rusage *rusage);
int sys_inotify_init1 (int flags);
int sys_inotify_add_watch (int fd, const char *path, uint32_t mask);
int sys_inotify_rm_watch (int fd, int wd);

/* Namespaces and what a process in new ones sets up.  */
int sys_unshare (int flags);
int sys_setns (int fd, int nstype);
int sys_mount (const char *source, const char *target, const char *fstype,
               unsigned long flags, const void *data);
int sys_umount2 (const char *target, int flags);
int sys_pivot_root (const char *new_root, const char *put_old);
int sys_fchdir (int fd);
int sys_sethostname (const char *name, size_t len);
int sys_prctl (int option, unsigned long a2, unsigned long a3,
               unsigned long a4, unsigned long a5);
/* HEADER and DATA are the kernel's cap_user_header_t and cap_user_data_t
   (<linux/capability.h>).  */
int sys_capget (void *header, void *data);
int sys_capset (void *header, const void *data);
/* ARGS is OPERATION's argument: for SECCOMP_SET_MODE_FILTER a struct
   sock_fprog of <linux/filter.h> (Linux 3.17).  */
int sys_seccomp (unsigned int operation, unsigned int flags,
                 const void *args);

/* Mounts as descriptors (Linux 5.2; mount_setattr 5.12): a mount or a
   file system context held by a descriptor, set up, then attached.  */
int sys_open_tree (int dirfd, const char *path, unsigned int flags);
int sys_move_mount (int from_dirfd, const char *from_path, int to_dirfd,
                    const char *to_path, unsigned int flags);
int sys_mount_setattr (int dirfd, const char *path, unsigned int flags,
                       const struct nc_mount_attr *attr);
int sys_fsopen (const char *fsname, unsigned int flags);
int sys_fsconfig (int fd, unsigned int cmd, const char *key,
                  const void *value, int aux);
int sys_fsmount (int fd, unsigned int flags, unsigned int attr_flags);

/* The *at family.  */
int sys_openat (int dirfd, const char *path, int flags, mode_t mode);
/* openat with HOW's rules for walking PATH (Linux 5.6), O_LARGEFILE
   added as sys_openat adds it.  */
int sys_openat2 (int dirfd, const char *path, const struct nc_open_how *how);
int sys_mkdirat (int dirfd, const char *path, mode_t mode);
int sys_mknodat (int dirfd, const char *path, mode_t mode, dev_t dev);
int sys_unlinkat (int dirfd, const char *path, int flags);
int sys_symlinkat (const char *target, int dirfd, const char *path);
int sys_linkat (int olddirfd, const char *oldpath, int newdirfd,
                const char *newpath, int flags);
int sys_renameat2 (int olddirfd, const char *oldpath, int newdirfd,
                   const char *newpath, unsigned int flags);
int sys_renameat (int olddirfd, const char *oldpath, int newdirfd,
                  const char *newpath);
int sys_fchownat (int dirfd, const char *path, uid_t owner, gid_t group,
                  int flags);
int sys_utimensat (int dirfd, const char *path, const struct timespec ts[2],
                   int flags);
int sys_statx (int dirfd, const char *path, int flags, unsigned int mask,
               struct statx *stx);
int sys_fstatat (int dirfd, const char *path, struct stat *st, int flags);
/* sys_fstatat, telling also, when MOUNT_ROOT is not NULL, whether PATH is
   the root of a mount: *MOUNT_ROOT is true only where the kernel says so
   (STATX_ATTR_MOUNT_ROOT, Linux 5.8; before, always false).  */
int sys_fstatat_mount (int dirfd, const char *path, struct stat *st,
                       int flags, bool *mount_root);
/* Fill ST from STX (what sys_fstatat does after its statx).  */
void stat_from_statx (struct stat *st, const struct statx *stx);
int sys_fstat (int fd, struct stat *st);
ssize_t sys_readlinkat (int dirfd, const char *path, char *buf, size_t len);
int sys_faccessat (int dirfd, const char *path, int mode, int flags);
/* sys_faccessat by the effective ids (AT_EACCESS), as cp and rm ask
   whether a file may be written.  Where faccessat2 is missing (before
   Linux 5.8) or a seccomp filter that does not know it answers EPERM,
   by the real ids: the same unless the process runs set-ID.  An
   immutable file answers EPERM either way.  */
int sys_faccessat_effective (int dirfd, const char *path, int mode);
int sys_fchmodat (int dirfd, const char *path, mode_t mode, int flags);
ssize_t sys_getdents64 (int fd, void *buf, size_t len);

/* Descriptor-based attributes: what *at calls do not cover (fchmodat
   cannot take AT_EMPTY_PATH before Linux 6.6; the xattr calls have no *at
   form).  */
int sys_fchmod (int fd, mode_t mode);
ssize_t sys_fgetxattr (int fd, const char *name, void *value, size_t size);
ssize_t sys_flistxattr (int fd, char *list, size_t size);
int sys_fsetxattr (int fd, const char *name, const void *value, size_t size,
                   int flags);
int sys_fremovexattr (int fd, const char *name);

/* Descriptor control.  */
int sys_fcntl (int fd, int cmd, long arg);
int sys_ioctl (int fd, unsigned long request, unsigned long arg);
/* The record locks of fcntl: F_OFD_SETLK, F_OFD_SETLKW, F_OFD_GETLK
   (Linux 3.15) and their POSIX forms, on *LOCK.  */
int sys_fcntl_lock (int fd, int cmd, struct flock *lock);

/* io_uring rings (lib/sys/uring.c is their one user).  sys_io_uring_enter is
   the form without a signal mask: see sys/calls.c.  */
struct io_uring_params;
int sys_io_uring_setup (uint32_t entries, struct io_uring_params *p);
int sys_io_uring_enter (unsigned int fd, unsigned int to_submit,
                        unsigned int min_complete, unsigned int flags);
int sys_io_uring_register (unsigned int fd, unsigned int opcode, void *arg,
                           unsigned int nr_args);

#endif
