/* arch/x86_64/syscall_arch.h: raw Linux syscalls for x86-64.
 *
 * "syscall" takes the number in rax and arguments in rdi, rsi, rdx, r10,
 * r8, r9 (r10, not rcx: the instruction itself overwrites rcx with the
 * return address and r11 with rflags).  The result comes back in rax;
 * -4095..-1 is -errno.
 */
#ifndef NC_ARCH_SYSCALL_ARCH_H
#define NC_ARCH_SYSCALL_ARCH_H

#define NC_ARCH_NAME "x86_64"
#define NC_KERNEL_NSIG 64

/* A 64-bit argument (off_t, loff_t) fits one register, wherever it falls
   in the argument list: see lib/sys/arch.h.  */
#define NC_SYSCALL_LL_E(x) (x)
#define NC_SYSCALL_LL_O(x) (x)

#define NC__X86_64_CLOBBERS "rcx", "r11", "cc", "memory"

static inline long __nc_syscall0(long n)
{
	long ret;
	__asm__ __volatile__ ("syscall"
		: "=a" (ret)
		: "a" (n)
		: NC__X86_64_CLOBBERS);
	return ret;
}

static inline long __nc_syscall1(long n, long a)
{
	long ret;
	__asm__ __volatile__ ("syscall"
		: "=a" (ret)
		: "a" (n), "D" (a)
		: NC__X86_64_CLOBBERS);
	return ret;
}

static inline long __nc_syscall2(long n, long a, long b)
{
	long ret;
	__asm__ __volatile__ ("syscall"
		: "=a" (ret)
		: "a" (n), "D" (a), "S" (b)
		: NC__X86_64_CLOBBERS);
	return ret;
}

static inline long __nc_syscall3(long n, long a, long b, long c)
{
	long ret;
	__asm__ __volatile__ ("syscall"
		: "=a" (ret)
		: "a" (n), "D" (a), "S" (b), "d" (c)
		: NC__X86_64_CLOBBERS);
	return ret;
}

static inline long __nc_syscall4(long n, long a, long b, long c, long d)
{
	long ret;
	register long r10 __asm__ ("r10") = d;
	__asm__ __volatile__ ("syscall"
		: "=a" (ret)
		: "a" (n), "D" (a), "S" (b), "d" (c), "r" (r10)
		: NC__X86_64_CLOBBERS);
	return ret;
}

static inline long __nc_syscall5(long n, long a, long b, long c, long d,
				 long e)
{
	long ret;
	register long r10 __asm__ ("r10") = d;
	register long r8 __asm__ ("r8") = e;
	__asm__ __volatile__ ("syscall"
		: "=a" (ret)
		: "a" (n), "D" (a), "S" (b), "d" (c), "r" (r10), "r" (r8)
		: NC__X86_64_CLOBBERS);
	return ret;
}

static inline long __nc_syscall6(long n, long a, long b, long c, long d,
				 long e, long f)
{
	long ret;
	register long r10 __asm__ ("r10") = d;
	register long r8 __asm__ ("r8") = e;
	register long r9 __asm__ ("r9") = f;
	__asm__ __volatile__ ("syscall"
		: "=a" (ret)
		: "a" (n), "D" (a), "S" (b), "d" (c), "r" (r10), "r" (r8),
		  "r" (r9)
		: NC__X86_64_CLOBBERS);
	return ret;
}

#endif
