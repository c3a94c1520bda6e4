/* arch/sparc64/syscall_arch.h: raw Linux syscalls for 64-bit SPARC
 * (big-endian).
 *
 * "ta 0x6d" (the 64-bit system call trap; 32-bit programs use 0x10)
 * takes the number in %g1 and arguments in %o0..%o5; the result replaces
 * %o0.  Errors are not a negative result: the kernel sets the carry flag
 * of the condition codes (of both, icc and xcc) and leaves a POSITIVE
 * errno in %o0.  Each stub negates %o0 in that case with an annulled
 * branch, whose delay slot runs only when the branch is taken:
 *
 *	ta	0x6d
 *	bcs,a,pt %xcc, 1f	! carry set: failure
 *	 sub	%g0, %o0, %o0	!   so %o0 = -errno
 *   1:
 *
 * and callers see the same convention as on every other architecture:
 * -4095..-1 is -errno.  (The sign of %o0 would be wrong: a successful
 * call may return any value.)
 *
 * Besides %o0 and the condition codes, the kernel may change %o1 (a
 * second result, as pipe's), %g1..%g6 (%g7 is the thread pointer, which
 * it keeps) and the floating-point registers: all are outputs or
 * clobbers.  The floating-point list names the even registers above
 * %f31, which is how GCC names the double-only ones.
 */
#ifndef NC_ARCH_SYSCALL_ARCH_H
#define NC_ARCH_SYSCALL_ARCH_H

#define NC_ARCH_NAME "sparc64"
#define NC_KERNEL_NSIG 64

/* A 64-bit argument is one register.  */
#define NC_SYSCALL_LL_E(x) (long) (x)
#define NC_SYSCALL_LL_O(x) (long) (x)

#define NC__SPARC_TRAP "ta 0x6d\n\tbcs,a,pt %%xcc, 1f\n\tsub %%g0, %%o0, %%o0\n1:"
#define NC__SPARC_CLOBBERS \
	"g2", "g3", "g4", "g5", "g6", \
	"f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", \
	"f8", "f9", "f10", "f11", "f12", "f13", "f14", "f15", \
	"f16", "f17", "f18", "f19", "f20", "f21", "f22", "f23", \
	"f24", "f25", "f26", "f27", "f28", "f29", "f30", "f31", \
	"f32", "f34", "f36", "f38", "f40", "f42", "f44", "f46", \
	"f48", "f50", "f52", "f54", "f56", "f58", "f60", "f62", \
	"cc", "memory"

static inline long __nc_syscall0(long n)
{
	register long g1 __asm__ ("g1") = n;
	register long o0 __asm__ ("o0");
	__asm__ __volatile__ (NC__SPARC_TRAP
		: "+r" (g1), "=r" (o0)
		:
		: "o1", NC__SPARC_CLOBBERS);
	return o0;
}

static inline long __nc_syscall1(long n, long a)
{
	register long g1 __asm__ ("g1") = n;
	register long o0 __asm__ ("o0") = a;
	__asm__ __volatile__ (NC__SPARC_TRAP
		: "+r" (g1), "+r" (o0)
		:
		: "o1", NC__SPARC_CLOBBERS);
	return o0;
}

static inline long __nc_syscall2(long n, long a, long b)
{
	register long g1 __asm__ ("g1") = n;
	register long o0 __asm__ ("o0") = a;
	register long o1 __asm__ ("o1") = b;
	__asm__ __volatile__ (NC__SPARC_TRAP
		: "+r" (g1), "+r" (o0), "+r" (o1)
		:
		: NC__SPARC_CLOBBERS);
	return o0;
}

static inline long __nc_syscall3(long n, long a, long b, long c)
{
	register long g1 __asm__ ("g1") = n;
	register long o0 __asm__ ("o0") = a;
	register long o1 __asm__ ("o1") = b;
	register long o2 __asm__ ("o2") = c;
	__asm__ __volatile__ (NC__SPARC_TRAP
		: "+r" (g1), "+r" (o0), "+r" (o1)
		: "r" (o2)
		: NC__SPARC_CLOBBERS);
	return o0;
}

static inline long __nc_syscall4(long n, long a, long b, long c, long d)
{
	register long g1 __asm__ ("g1") = n;
	register long o0 __asm__ ("o0") = a;
	register long o1 __asm__ ("o1") = b;
	register long o2 __asm__ ("o2") = c;
	register long o3 __asm__ ("o3") = d;
	__asm__ __volatile__ (NC__SPARC_TRAP
		: "+r" (g1), "+r" (o0), "+r" (o1)
		: "r" (o2), "r" (o3)
		: NC__SPARC_CLOBBERS);
	return o0;
}

static inline long __nc_syscall5(long n, long a, long b, long c, long d,
				 long e)
{
	register long g1 __asm__ ("g1") = n;
	register long o0 __asm__ ("o0") = a;
	register long o1 __asm__ ("o1") = b;
	register long o2 __asm__ ("o2") = c;
	register long o3 __asm__ ("o3") = d;
	register long o4 __asm__ ("o4") = e;
	__asm__ __volatile__ (NC__SPARC_TRAP
		: "+r" (g1), "+r" (o0), "+r" (o1)
		: "r" (o2), "r" (o3), "r" (o4)
		: NC__SPARC_CLOBBERS);
	return o0;
}

static inline long __nc_syscall6(long n, long a, long b, long c, long d,
				 long e, long f)
{
	register long g1 __asm__ ("g1") = n;
	register long o0 __asm__ ("o0") = a;
	register long o1 __asm__ ("o1") = b;
	register long o2 __asm__ ("o2") = c;
	register long o3 __asm__ ("o3") = d;
	register long o4 __asm__ ("o4") = e;
	register long o5 __asm__ ("o5") = f;
	__asm__ __volatile__ (NC__SPARC_TRAP
		: "+r" (g1), "+r" (o0), "+r" (o1)
		: "r" (o2), "r" (o3), "r" (o4), "r" (o5)
		: NC__SPARC_CLOBBERS);
	return o0;
}

#endif
