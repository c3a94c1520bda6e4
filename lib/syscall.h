/* syscall.h -- the bridge from lib/ to the per-architecture raw layer.

   arch/<arch>/syscall_arch.h provides __nc_syscall0..6, which return the
   kernel's raw result (-errno on failure); arch/<arch>/syscall_nr.h provides
   the NC_SYS_* numbers.  The build puts arch/<arch>/ on the include path, so
   nothing here, and nothing above it, knows which architecture it runs on.  */

#ifndef NC_SYSCALL_H
#define NC_SYSCALL_H

#include "syscall_arch.h"
#include "syscall_nr.h"

/* Every argument travels as a long, the width of a register.  */
#define NC_ARG(x) ((long) (x))

#define nc_syscall0(n) __nc_syscall0 (n)
#define nc_syscall1(n, a) __nc_syscall1 (n, NC_ARG (a))
#define nc_syscall2(n, a, b) __nc_syscall2 (n, NC_ARG (a), NC_ARG (b))
#define nc_syscall3(n, a, b, c) \
  __nc_syscall3 (n, NC_ARG (a), NC_ARG (b), NC_ARG (c))
#define nc_syscall4(n, a, b, c, d) \
  __nc_syscall4 (n, NC_ARG (a), NC_ARG (b), NC_ARG (c), NC_ARG (d))
#define nc_syscall5(n, a, b, c, d, e) \
  __nc_syscall5 (n, NC_ARG (a), NC_ARG (b), NC_ARG (c), NC_ARG (d), \
                 NC_ARG (e))
#define nc_syscall6(n, a, b, c, d, e, f) \
  __nc_syscall6 (n, NC_ARG (a), NC_ARG (b), NC_ARG (c), NC_ARG (d), \
                 NC_ARG (e), NC_ARG (f))

/* The kernel's sigset_t is _NSIG bits, not glibc's 1024: the size passed to
   every rt_sig* style call.  */
#define NC_KERNEL_SIGSET_SIZE (NC_KERNEL_NSIG / 8)

#endif
