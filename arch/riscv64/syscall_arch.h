/* arch/riscv64/syscall_arch.h: raw Linux syscalls for RISC-V 64.
 *
 * "ecall" takes the number in a7 and arguments in a0..a5; the result
 * replaces a0 (-4095..-1 is -errno).  The kernel preserves every other
 * register.
 */
#ifndef NC_ARCH_SYSCALL_ARCH_H
#define NC_ARCH_SYSCALL_ARCH_H

#define NC_ARCH_NAME "riscv64"
#define NC_KERNEL_NSIG 64

/* A 64-bit argument (off_t, loff_t) fits one register, wherever it falls
   in the argument list: see lib/sys/arch.h.  */
#define NC_SYSCALL_LL_E(x) (x)
#define NC_SYSCALL_LL_O(x) (x)

static inline long __nc_syscall0(long n)
{
	register long a7 __asm__ ("a7") = n;
	register long a0 __asm__ ("a0");
	__asm__ __volatile__ ("ecall"
		: "=r" (a0)
		: "r" (a7)
		: "memory");
	return a0;
}

static inline long __nc_syscall1(long n, long a)
{
	register long a7 __asm__ ("a7") = n;
	register long a0 __asm__ ("a0") = a;
	__asm__ __volatile__ ("ecall"
		: "+r" (a0)
		: "r" (a7)
		: "memory");
	return a0;
}

static inline long __nc_syscall2(long n, long a, long b)
{
	register long a7 __asm__ ("a7") = n;
	register long a0 __asm__ ("a0") = a;
	register long a1 __asm__ ("a1") = b;
	__asm__ __volatile__ ("ecall"
		: "+r" (a0)
		: "r" (a7), "r" (a1)
		: "memory");
	return a0;
}

static inline long __nc_syscall3(long n, long a, long b, long c)
{
	register long a7 __asm__ ("a7") = n;
	register long a0 __asm__ ("a0") = a;
	register long a1 __asm__ ("a1") = b;
	register long a2 __asm__ ("a2") = c;
	__asm__ __volatile__ ("ecall"
		: "+r" (a0)
		: "r" (a7), "r" (a1), "r" (a2)
		: "memory");
	return a0;
}

static inline long __nc_syscall4(long n, long a, long b, long c, long d)
{
	register long a7 __asm__ ("a7") = n;
	register long a0 __asm__ ("a0") = a;
	register long a1 __asm__ ("a1") = b;
	register long a2 __asm__ ("a2") = c;
	register long a3 __asm__ ("a3") = d;
	__asm__ __volatile__ ("ecall"
		: "+r" (a0)
		: "r" (a7), "r" (a1), "r" (a2), "r" (a3)
		: "memory");
	return a0;
}

static inline long __nc_syscall5(long n, long a, long b, long c, long d,
				 long e)
{
	register long a7 __asm__ ("a7") = n;
	register long a0 __asm__ ("a0") = a;
	register long a1 __asm__ ("a1") = b;
	register long a2 __asm__ ("a2") = c;
	register long a3 __asm__ ("a3") = d;
	register long a4 __asm__ ("a4") = e;
	__asm__ __volatile__ ("ecall"
		: "+r" (a0)
		: "r" (a7), "r" (a1), "r" (a2), "r" (a3), "r" (a4)
		: "memory");
	return a0;
}

static inline long __nc_syscall6(long n, long a, long b, long c, long d,
				 long e, long f)
{
	register long a7 __asm__ ("a7") = n;
	register long a0 __asm__ ("a0") = a;
	register long a1 __asm__ ("a1") = b;
	register long a2 __asm__ ("a2") = c;
	register long a3 __asm__ ("a3") = d;
	register long a4 __asm__ ("a4") = e;
	register long a5 __asm__ ("a5") = f;
	__asm__ __volatile__ ("ecall"
		: "+r" (a0)
		: "r" (a7), "r" (a1), "r" (a2), "r" (a3), "r" (a4), "r" (a5)
		: "memory");
	return a0;
}

#endif
