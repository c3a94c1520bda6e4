/* arch/i386/syscall_arch.h: raw Linux syscalls for 32-bit x86.
 *
 * "int $0x80" takes the number in eax and arguments in ebx, ecx, edx,
 * esi, edi, ebp; the result replaces eax (-4095..-1 is -errno) and every
 * other register is preserved.
 *
 * ebx: passed with the "b" constraint.  GCC 5 and later (and clang) treat
 * the PIC register as an ordinary register, so this is fine under
 * -fPIC/-fPIE; an older GCC rejects it at compile time rather than
 * miscompiling.
 *
 * ebp: cannot be named as an operand (it is the frame pointer at -O0 and
 * whenever the caller needs one), so the 6th argument goes through the
 * stack: it is pushed while %esp is still what the compiler expects (the
 * operand may be %esp-relative; push computes its address before moving
 * %esp), ebp is saved above it, loaded from that pushed copy, and both are
 * popped after the trap.  No compiler operand is referenced once %esp has
 * moved.  The unwind info is not adjusted for the 2 pushed words, which
 * only matters to a debugger stopped on one of those 6 instructions.
 */
#ifndef NC_ARCH_SYSCALL_ARCH_H
#define NC_ARCH_SYSCALL_ARCH_H

#define NC_ARCH_NAME "i386"
#define NC_KERNEL_NSIG 64

/* A 64-bit argument (off_t, loff_t) takes two registers, low word first
   (little-endian), wherever it falls in the argument list: the i386
   syscall ABI has no register pairs to align.  X is evaluated twice.  */
#define NC_SYSCALL_LL_E(x) \
	(long) (unsigned long) (unsigned long long) (x), \
	(long) (unsigned long) ((unsigned long long) (x) >> 32)
#define NC_SYSCALL_LL_O(x) NC_SYSCALL_LL_E (x)

static inline long __nc_syscall0(long n)
{
	long ret;
	__asm__ __volatile__ ("int $0x80"
		: "=a" (ret)
		: "a" (n)
		: "cc", "memory");
	return ret;
}

static inline long __nc_syscall1(long n, long a)
{
	long ret;
	__asm__ __volatile__ ("int $0x80"
		: "=a" (ret)
		: "a" (n), "b" (a)
		: "cc", "memory");
	return ret;
}

static inline long __nc_syscall2(long n, long a, long b)
{
	long ret;
	__asm__ __volatile__ ("int $0x80"
		: "=a" (ret)
		: "a" (n), "b" (a), "c" (b)
		: "cc", "memory");
	return ret;
}

static inline long __nc_syscall3(long n, long a, long b, long c)
{
	long ret;
	__asm__ __volatile__ ("int $0x80"
		: "=a" (ret)
		: "a" (n), "b" (a), "c" (b), "d" (c)
		: "cc", "memory");
	return ret;
}

static inline long __nc_syscall4(long n, long a, long b, long c, long d)
{
	long ret;
	__asm__ __volatile__ ("int $0x80"
		: "=a" (ret)
		: "a" (n), "b" (a), "c" (b), "d" (c), "S" (d)
		: "cc", "memory");
	return ret;
}

static inline long __nc_syscall5(long n, long a, long b, long c, long d,
				 long e)
{
	long ret;
	__asm__ __volatile__ ("int $0x80"
		: "=a" (ret)
		: "a" (n), "b" (a), "c" (b), "d" (c), "S" (d), "D" (e)
		: "cc", "memory");
	return ret;
}

static inline long __nc_syscall6(long n, long a, long b, long c, long d,
				 long e, long f)
{
	long ret;
	/* "g": f may be an immediate, a memory operand (%esp- or %ebp-based:
	 * no other register is free) or an input register holding the same
	 * value; all are read by the first push, before anything changes. */
	__asm__ __volatile__ (
		"pushl %[f]\n\t"
		"pushl %%ebp\n\t"
		"movl 4(%%esp), %%ebp\n\t"
		"int $0x80\n\t"
		"popl %%ebp\n\t"
		"addl $4, %%esp"
		: "=a" (ret)
		: "a" (n), "b" (a), "c" (b), "d" (c), "S" (d), "D" (e),
		  [f] "g" (f)
		: "cc", "memory");
	return ret;
}

#endif
