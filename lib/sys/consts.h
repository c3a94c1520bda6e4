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

#include <limits.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/uio.h>

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

#endif
