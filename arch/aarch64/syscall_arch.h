/* arch/aarch64/syscall_arch.h: raw Linux syscalls for AArch64.
 *
 * "svc #0" takes the number in x8 and arguments in x0..x5; the result
 * replaces x0 (-4095..-1 is -errno).  The kernel preserves every other
 * register.
 */
#ifndef NC_ARCH_SYSCALL_ARCH_H
#define NC_ARCH_SYSCALL_ARCH_H

#define NC_ARCH_NAME "aarch64"
#define NC_KERNEL_NSIG 64

/* A 64-bit argument (off_t, loff_t) fits one register, wherever it falls
   in the argument list: see lib/sys/arch.h.  */
#define NC_SYSCALL_LL_E(x) (x)
#define NC_SYSCALL_LL_O(x) (x)

static inline long __nc_syscall0(long n)
{
	register long x8 __asm__ ("x8") = n;
	register long x0 __asm__ ("x0");
	__asm__ __volatile__ ("svc #0"
		: "=r" (x0)
		: "r" (x8)
		: "cc", "memory");
	return x0;
}

static inline long __nc_syscall1(long n, long a)
{
	register long x8 __asm__ ("x8") = n;
	register long x0 __asm__ ("x0") = a;
	__asm__ __volatile__ ("svc #0"
		: "+r" (x0)
		: "r" (x8)
		: "cc", "memory");
	return x0;
}

static inline long __nc_syscall2(long n, long a, long b)
{
	register long x8 __asm__ ("x8") = n;
	register long x0 __asm__ ("x0") = a;
	register long x1 __asm__ ("x1") = b;
	__asm__ __volatile__ ("svc #0"
		: "+r" (x0)
		: "r" (x8), "r" (x1)
		: "cc", "memory");
	return x0;
}

static inline long __nc_syscall3(long n, long a, long b, long c)
{
	register long x8 __asm__ ("x8") = n;
	register long x0 __asm__ ("x0") = a;
	register long x1 __asm__ ("x1") = b;
	register long x2 __asm__ ("x2") = c;
	__asm__ __volatile__ ("svc #0"
		: "+r" (x0)
		: "r" (x8), "r" (x1), "r" (x2)
		: "cc", "memory");
	return x0;
}

static inline long __nc_syscall4(long n, long a, long b, long c, long d)
{
	register long x8 __asm__ ("x8") = n;
	register long x0 __asm__ ("x0") = a;
	register long x1 __asm__ ("x1") = b;
	register long x2 __asm__ ("x2") = c;
	register long x3 __asm__ ("x3") = d;
	__asm__ __volatile__ ("svc #0"
		: "+r" (x0)
		: "r" (x8), "r" (x1), "r" (x2), "r" (x3)
		: "cc", "memory");
	return x0;
}

static inline long __nc_syscall5(long n, long a, long b, long c, long d,
				 long e)
{
	register long x8 __asm__ ("x8") = n;
	register long x0 __asm__ ("x0") = a;
	register long x1 __asm__ ("x1") = b;
	register long x2 __asm__ ("x2") = c;
	register long x3 __asm__ ("x3") = d;
	register long x4 __asm__ ("x4") = e;
	__asm__ __volatile__ ("svc #0"
		: "+r" (x0)
		: "r" (x8), "r" (x1), "r" (x2), "r" (x3), "r" (x4)
		: "cc", "memory");
	return x0;
}

static inline long __nc_syscall6(long n, long a, long b, long c, long d,
				 long e, long f)
{
	register long x8 __asm__ ("x8") = n;
	register long x0 __asm__ ("x0") = a;
	register long x1 __asm__ ("x1") = b;
	register long x2 __asm__ ("x2") = c;
	register long x3 __asm__ ("x3") = d;
	register long x4 __asm__ ("x4") = e;
	register long x5 __asm__ ("x5") = f;
	__asm__ __volatile__ ("svc #0"
		: "+r" (x0)
		: "r" (x8), "r" (x1), "r" (x2), "r" (x3), "r" (x4), "r" (x5)
		: "cc", "memory");
	return x0;
}

#endif
