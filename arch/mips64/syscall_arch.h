/* arch/mips64/syscall_arch.h: raw Linux syscalls for 64-bit MIPS, the n64
 * ABI (Debian's mips64el; big-endian mips64 too).  n32 is another ABI,
 * with other numbers, and is not supported: configure refuses it.
 *
 * "syscall" takes the number in $2 (v0; n64 numbers start at 5000) and
 * the arguments in $4..$9 (a0..a5), all six in registers.  As on o32
 * (arch/mips/), errors are not a negative result: the kernel sets $7
 * (a3) to 1 and leaves a POSITIVE errno in $2, or sets $7 to 0 and
 * leaves the result in $2; each stub turns the first into -errno.
 *
 * The kernel may change, besides $2 and $7, $1 (at), $3 (v1), $8..$15
 * ($8, $9 are a4, a5 here; $10..$15 t2..t7), $24, $25 and hi/lo: all are
 * outputs or clobbers.
 */
#ifndef NC_ARCH_SYSCALL_ARCH_H
#define NC_ARCH_SYSCALL_ARCH_H

#if !defined _MIPS_SIM || _MIPS_SIM != _ABI64
#error "arch/mips64 is the n64 ABI; n32 is not supported"
#endif

#ifdef __mips16
#error "arch/mips64: build with -mno-mips16 (the stubs are MIPS64 code)"
#endif

#define NC_ARCH_NAME "mips64"
/* MIPS has 128 signals: the kernel sigset is 16 bytes.  */
#define NC_KERNEL_NSIG 128

/* A 64-bit argument is one register.  */
#define NC_SYSCALL_LL_E(x) (long) (x)
#define NC_SYSCALL_LL_O(x) (long) (x)

/* hi and lo are gone from MIPS release 6.  */
#if !defined __mips_isa_rev || __mips_isa_rev < 6
#define NC__MIPS_HILO , "hi", "lo"
#else
#define NC__MIPS_HILO
#endif
#define NC__MIPS_CLOBBERS \
	"$1", "$3", "$10", "$11", "$12", "$13", "$14", "$15", "$24", "$25", \
	"memory" NC__MIPS_HILO

/* The result: $2, or -$2 where $7 says the call failed.  */
#define NC__MIPS_RESULT(v0, a3) ((a3) ? -(v0) : (v0))

static inline long __nc_syscall0(long n)
{
	register long v0 __asm__ ("$2") = n;
	register long a3 __asm__ ("$7");
	__asm__ __volatile__ ("syscall"
		: "+r" (v0), "=r" (a3)
		:
		: "$8", "$9", NC__MIPS_CLOBBERS);
	return NC__MIPS_RESULT (v0, a3);
}

static inline long __nc_syscall1(long n, long a)
{
	register long v0 __asm__ ("$2") = n;
	register long a0 __asm__ ("$4") = a;
	register long a3 __asm__ ("$7");
	__asm__ __volatile__ ("syscall"
		: "+r" (v0), "=r" (a3)
		: "r" (a0)
		: "$8", "$9", NC__MIPS_CLOBBERS);
	return NC__MIPS_RESULT (v0, a3);
}

static inline long __nc_syscall2(long n, long a, long b)
{
	register long v0 __asm__ ("$2") = n;
	register long a0 __asm__ ("$4") = a;
	register long a1 __asm__ ("$5") = b;
	register long a3 __asm__ ("$7");
	__asm__ __volatile__ ("syscall"
		: "+r" (v0), "=r" (a3)
		: "r" (a0), "r" (a1)
		: "$8", "$9", NC__MIPS_CLOBBERS);
	return NC__MIPS_RESULT (v0, a3);
}

static inline long __nc_syscall3(long n, long a, long b, long c)
{
	register long v0 __asm__ ("$2") = n;
	register long a0 __asm__ ("$4") = a;
	register long a1 __asm__ ("$5") = b;
	register long a2 __asm__ ("$6") = c;
	register long a3 __asm__ ("$7");
	__asm__ __volatile__ ("syscall"
		: "+r" (v0), "=r" (a3)
		: "r" (a0), "r" (a1), "r" (a2)
		: "$8", "$9", NC__MIPS_CLOBBERS);
	return NC__MIPS_RESULT (v0, a3);
}

static inline long __nc_syscall4(long n, long a, long b, long c, long d)
{
	register long v0 __asm__ ("$2") = n;
	register long a0 __asm__ ("$4") = a;
	register long a1 __asm__ ("$5") = b;
	register long a2 __asm__ ("$6") = c;
	register long a3 __asm__ ("$7") = d;
	__asm__ __volatile__ ("syscall"
		: "+r" (v0), "+r" (a3)
		: "r" (a0), "r" (a1), "r" (a2)
		: "$8", "$9", NC__MIPS_CLOBBERS);
	return NC__MIPS_RESULT (v0, a3);
}

static inline long __nc_syscall5(long n, long a, long b, long c, long d,
				 long e)
{
	register long v0 __asm__ ("$2") = n;
	register long a0 __asm__ ("$4") = a;
	register long a1 __asm__ ("$5") = b;
	register long a2 __asm__ ("$6") = c;
	register long a3 __asm__ ("$7") = d;
	register long a4 __asm__ ("$8") = e;
	__asm__ __volatile__ ("syscall"
		: "+r" (v0), "+r" (a3), "+r" (a4)
		: "r" (a0), "r" (a1), "r" (a2)
		: "$9", NC__MIPS_CLOBBERS);
	return NC__MIPS_RESULT (v0, a3);
}

static inline long __nc_syscall6(long n, long a, long b, long c, long d,
				 long e, long f)
{
	register long v0 __asm__ ("$2") = n;
	register long a0 __asm__ ("$4") = a;
	register long a1 __asm__ ("$5") = b;
	register long a2 __asm__ ("$6") = c;
	register long a3 __asm__ ("$7") = d;
	register long a4 __asm__ ("$8") = e;
	register long a5 __asm__ ("$9") = f;
	__asm__ __volatile__ ("syscall"
		: "+r" (v0), "+r" (a3), "+r" (a4), "+r" (a5)
		: "r" (a0), "r" (a1), "r" (a2)
		: NC__MIPS_CLOBBERS);
	return NC__MIPS_RESULT (v0, a3);
}

#endif
