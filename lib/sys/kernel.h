/* sys/kernel.h -- the system calls the tools make beyond POSIX's, the
   Linux version that brought each, and whether this kernel answers it.

   A call the kernel lacks answers ENOSYS; a seccomp filter (a container's,
   a sandbox's) answers what its profile says, most often EPERM, sometimes
   ENOSYS.  Each call here has a probe: the call made with arguments that
   the kernel refuses before it does anything (a descriptor of -1, flags no
   kernel defines, a NULL buffer), so that its answer tells only whether
   the call is there.  A probe never opens, mounts or signals anything.  */

#ifndef NC_SYS_KERNEL_H
#define NC_SYS_KERNEL_H

#include <stdbool.h>

/* What a call is here.  */
enum sys_call_state
{
  SYS_CALL_WORKS,
  SYS_CALL_MISSING,             /* ENOSYS: no such call, or one filtered so */
  SYS_CALL_REFUSED              /* EPERM or EACCES from a filter */
};

struct sys_kernel_call
{
  const char *name;             /* as in syscalls(2): "statx" */
  const char *since;            /* the Linux version: "4.11" */
  int (*probe) (void);          /* the harmless call: its result or -errno */
  /* The kernel checks the caller's privilege before anything else, so
     that the probe's EPERM is a filter's only when one is installed.  */
  bool privileged;
};

/* The entry of call NAME, or NULL if there is none.  */
const struct sys_kernel_call *sys_kernel_call (const char *name);

/* Whether call C works here: its probe's answer.  */
enum sys_call_state sys_kernel_probe (const struct sys_kernel_call *c);

/* What ERR, a -errno that call C answered, says of C: missing for ENOSYS,
   refused for EPERM or EACCES that C's probe gets too, else the call's
   own answer (SYS_CALL_WORKS).  */
enum sys_call_state sys_kernel_state_of (const struct sys_kernel_call *c,
                                         int err);

#endif
