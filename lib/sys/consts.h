/* sys/consts.h -- the kernel's constants that a C library's headers
   may lack.

   The toolset runs on kernels newer than the C library it was built
   with: a flag older headers do not name is still the kernel's ABI, a
   fixed number.  Each is defined here only where the headers that
   should define it (included first) do not; a kernel too old for a flag
   refuses it (EINVAL, EOPNOTSUPP) as it would from any C library.
   Include this header instead of writing a fallback in place.  */

#ifndef NC_SYS_CONSTS_H
#define NC_SYS_CONSTS_H

#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/uio.h>

/* What PIDFD_GET_INFO fills in (Linux 6.13; PIDFD_INFO_EXIT, 6.15).  */
#ifndef PIDFD_INFO_PID
# define PIDFD_INFO_PID (1UL << 0)
#endif
#ifndef PIDFD_INFO_EXIT
# define PIDFD_INFO_EXIT (1UL << 3)
#endif
/* waitid's idtype for a pidfd (Linux 5.4): a value of the C library's
   enum idtype_t where it has one, so not a macro of that name.  */
#define NC_P_PIDFD 3

/* The most iovecs one readv/writev family call takes: UIO_MAXIOV, 1024
   on every Linux architecture.  */
#ifndef IOV_MAX
# define IOV_MAX 1024
#endif

/* preadv2/pwritev2 flags (Linux 4.6, RWF_NOWAIT 4.14).  */
#ifndef RWF_HIPRI
# define RWF_HIPRI 0x00000001
#endif
#ifndef RWF_DSYNC
# define RWF_DSYNC 0x00000002
#endif
#ifndef RWF_NOWAIT
# define RWF_NOWAIT 0x00000008
#endif

/* The ambient capability set (Linux 4.3).  */
#ifndef PR_CAP_AMBIENT
# define PR_CAP_AMBIENT 47
#endif
#ifndef PR_CAP_AMBIENT_RAISE
# define PR_CAP_AMBIENT_RAISE 2
#endif

/* Namespace kinds newer than some C libraries (cgroup: Linux 4.6; time:
   Linux 5.6).  */
#ifndef CLONE_NEWCGROUP
# define CLONE_NEWCGROUP 0x02000000
#endif
#ifndef CLONE_NEWTIME
# define CLONE_NEWTIME 0x00000080
#endif

/* Mounts as descriptors (Linux 5.2; the MOUNT_ATTR_* bits of
   mount_setattr, 5.12).  A C library that has them defines them in
   <sys/mount.h>, included above; <linux/mount.h> must not be included
   after this header (its enum of the FSCONFIG_* commands would meet
   these macros).  */
#ifndef AT_RECURSIVE
# define AT_RECURSIVE 0x8000
#endif
#ifndef OPEN_TREE_CLONE
# define OPEN_TREE_CLONE 1
#endif
#ifndef OPEN_TREE_CLOEXEC
# define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
# define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif
#ifndef MOVE_MOUNT_T_EMPTY_PATH
# define MOVE_MOUNT_T_EMPTY_PATH 0x00000040
#endif
#ifndef MOUNT_ATTR_RDONLY
# define MOUNT_ATTR_RDONLY 0x00000001
#endif
#ifndef MOUNT_ATTR_NOSUID
# define MOUNT_ATTR_NOSUID 0x00000002
#endif
#ifndef MOUNT_ATTR_NODEV
# define MOUNT_ATTR_NODEV 0x00000004
#endif
#ifndef MOUNT_ATTR_NOEXEC
# define MOUNT_ATTR_NOEXEC 0x00000008
#endif
#ifndef FSOPEN_CLOEXEC
# define FSOPEN_CLOEXEC 0x00000001
#endif
#ifndef FSMOUNT_CLOEXEC
# define FSMOUNT_CLOEXEC 0x00000001
#endif
#ifndef FSCONFIG_SET_FLAG
# define FSCONFIG_SET_FLAG 0
#endif
#ifndef FSCONFIG_SET_STRING
# define FSCONFIG_SET_STRING 1
#endif
#ifndef FSCONFIG_CMD_CREATE
# define FSCONFIG_CMD_CREATE 6
#endif

/* statx's mount id (Linux 5.8).  */
#ifndef STATX_MNT_ID
# define STATX_MNT_ID 0x00001000U
#endif

/* openat2's RESOLVE_* rules (Linux 5.6), from <linux/openat2.h>, which
   no C library header includes.  */
#ifndef RESOLVE_NO_XDEV
# define RESOLVE_NO_XDEV 0x01
#endif
#ifndef RESOLVE_NO_MAGICLINKS
# define RESOLVE_NO_MAGICLINKS 0x02
#endif
#ifndef RESOLVE_NO_SYMLINKS
# define RESOLVE_NO_SYMLINKS 0x04
#endif
#ifndef RESOLVE_BENEATH
# define RESOLVE_BENEATH 0x08
#endif
#ifndef RESOLVE_IN_ROOT
# define RESOLVE_IN_ROOT 0x10
#endif

#endif
