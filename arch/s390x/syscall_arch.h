/* arch/s390x/syscall_arch.h: raw Linux syscalls for s390x (z/Architecture).
 *
 * "svc 0" takes the number in r1 and arguments in r2..r7; the result
 * replaces r2 (-4095..-1 is -errno).  The kernel preserves every other
 * register (r6 and r7 are call-saved in the C ABI; the compiler saves
 * them around their use as operands).
 */
#ifndef NC_ARCH_SYSCALL_ARCH_H
#define NC_ARCH_SYSCALL_ARCH_H

#define NC_ARCH_NAME "s390x"
#define NC_KERNEL_NSIG 64

/* A 64-bit argument (off_t, loff_t) fits one register, wherever it falls
   in the argument list: see lib/sys/arch.h.  */
#define NC_SYSCALL_LL_E(x) (x)
#define NC_SYSCALL_LL_O(x) (x)

static inline long __nc_syscall0(long n)
{
	register long r1 __asm__ ("r1") = n;
	register long r2 __asm__ ("r2");
	__asm__ __volatile__ ("svc 0"
		: "=r" (r2)
		: "r" (r1)
		: "cc", "memory");
	return r2;
}

static inline long __nc_syscall1(long n, long a)
{
	register long r1 __asm__ ("r1") = n;
	register long r2 __asm__ ("r2") = a;
	__asm__ __volatile__ ("svc 0"
		: "+r" (r2)
		: "r" (r1)
		: "cc", "memory");
	return r2;
}

static inline long __nc_syscall2(long n, long a, long b)
{
	register long r1 __asm__ ("r1") = n;
	register long r2 __asm__ ("r2") = a;
	register long r3 __asm__ ("r3") = b;
	__asm__ __volatile__ ("svc 0"
		: "+r" (r2)
		: "r" (r1), "r" (r3)
		: "cc", "memory");
	return r2;
}

static inline long __nc_syscall3(long n, long a, long b, long c)
{
	register long r1 __asm__ ("r1") = n;
	register long r2 __asm__ ("r2") = a;
	register long r3 __asm__ ("r3") = b;
	register long r4 __asm__ ("r4") = c;
	__asm__ __volatile__ ("svc 0"
		: "+r" (r2)
		: "r" (r1), "r" (r3), "r" (r4)
		: "cc", "memory");
	return r2;
}

static inline long __nc_syscall4(long n, long a, long b, long c, long d)
{
	register long r1 __asm__ ("r1") = n;
	register long r2 __asm__ ("r2") = a;
	register long r3 __asm__ ("r3") = b;
	register long r4 __asm__ ("r4") = c;
	register long r5 __asm__ ("r5") = d;
	__asm__ __volatile__ ("svc 0"
		: "+r" (r2)
		: "r" (r1), "r" (r3), "r" (r4), "r" (r5)
		: "cc", "memory");
	return r2;
}

static inline long __nc_syscall5(long n, long a, long b, long c, long d,
				 long e)
{
	register long r1 __asm__ ("r1") = n;
	register long r2 __asm__ ("r2") = a;
	register long r3 __asm__ ("r3") = b;
	register long r4 __asm__ ("r4") = c;
	register long r5 __asm__ ("r5") = d;
	register long r6 __asm__ ("r6") = e;
	__asm__ __volatile__ ("svc 0"
		: "+r" (r2)
		: "r" (r1), "r" (r3), "r" (r4), "r" (r5), "r" (r6)
		: "cc", "memory");
	return r2;
}

static inline long __nc_syscall6(long n, long a, long b, long c, long d,
				 long e, long f)
{
	register long r1 __asm__ ("r1") = n;
	register long r2 __asm__ ("r2") = a;
	register long r3 __asm__ ("r3") = b;
	register long r4 __asm__ ("r4") = c;
	register long r5 __asm__ ("r5") = d;
	register long r6 __asm__ ("r6") = e;
	register long r7 __asm__ ("r7") = f;
	__asm__ __volatile__ ("svc 0"
		: "+r" (r2)
		: "r" (r1), "r" (r3), "r" (r4), "r" (r5), "r" (r6), "r" (r7)
		: "cc", "memory");
	return r2;
}

#endif
