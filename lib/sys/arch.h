/* sys/arch.h -- the bridge from lib/ to the per-architecture raw layer.

   arch/<arch>/syscall_arch.h provides __nc_syscall0..6, which return the
   kernel's raw result (-errno on failure), and NC_SYSCALL_LL_E/_O, the
   form of a 64-bit argument (below); arch/<arch>/syscall_nr.h provides
   the NC_SYS_* numbers.  The build puts arch/<arch>/ on the include path, so
   nothing here, and nothing above it, knows which architecture it runs on.  */

#ifndef NC_SYS_ARCH_H
#define NC_SYS_ARCH_H

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

/* A 64-bit argument X (off_t, loff_t) as the architecture passes it:
   NC_SYSCALL_LL_O (X) where it is an odd-numbered argument (the second,
   the fourth...), NC_SYSCALL_LL_E (X) where it is an even-numbered one.
   syscall_arch.h defines both: one register on 64-bit architectures, two
   halves in the CPU's order on 32-bit ones, with a padding register
   first where the ABI aligns such pairs and the position is odd.  Such
   an argument may stand for one, two or three registers, so a call that
   passes one is written nc_syscall (N, ...), which counts them.  */
#define nc_syscall(...) \
  NC__CONCAT (nc_syscall, NC__NARGS (__VA_ARGS__)) (__VA_ARGS__)
/* How many arguments follow the number, 0 to 6; __VA_ARGS__ is expanded
   before it is counted.  */
#define NC__NARGS(...) NC__NARGS_ (__VA_ARGS__, 6, 5, 4, 3, 2, 1, 0, )
#define NC__NARGS_(n, a, b, c, d, e, f, count, ...) count
#define NC__CONCAT(a, b) NC__CONCAT_ (a, b)
#define NC__CONCAT_(a, b) a##b

/* The kernel's sigset_t is _NSIG bits, not glibc's 1024: the size passed to
   every rt_sig* style call.  */
#define NC_KERNEL_SIGSET_SIZE (NC_KERNEL_NSIG / 8)

#endif
