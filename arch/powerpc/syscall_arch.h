/* arch/powerpc/syscall_arch.h: raw Linux syscalls for 32-bit PowerPC
 * (big-endian), and for powerpc64 (both endiannesses), whose
 * syscall_arch.h names itself and includes this file: the calling sequence
 * is the same, only the width of a register differs, and "long" follows it.
 *
 * "sc" takes the number in r0 and arguments in r3..r8.  The kernel reports
 * failure by setting CR0.SO and leaving a POSITIVE errno in r3, so each
 * stub negates r3 in that case ("bns+ 1f; neg 3,3; 1:") and callers see
 * the same convention as on every other architecture: -4095..-1 is
 * -errno.  (Testing the sign of r3 instead would be wrong: a successful
 * call may return any value.)
 *
 * The kernel may change r0, r4..r12, cr0, ctr and xer; all are outputs or
 * clobbers here, as are the other volatile CR fields cr1 and cr5..cr7.
 * r2 and r13 (thread pointer, or TOC on 64-bit) and the non-volatile
 * registers are preserved.
 */
#ifndef NC_ARCH_SYSCALL_ARCH_H
#define NC_ARCH_SYSCALL_ARCH_H

#ifndef NC_ARCH_NAME
#define NC_ARCH_NAME "powerpc"
#endif
#define NC_KERNEL_NSIG 64

/* 32-bit PowerPC: a 64-bit argument (off_t, loff_t) takes two registers,
   high word first (big-endian), and the pair starts on an even argument
   (r3, r5, r7: the SVR4 ABI's aligned pairs): one at an odd position is
   preceded by a padding register.  X is evaluated twice.  powerpc64
   defines its own one-register form before including this file.  */
#ifndef NC_SYSCALL_LL_E
#define NC_SYSCALL_LL_E(x) \
	(long) (unsigned long) ((unsigned long long) (x) >> 32), \
	(long) (unsigned long) (unsigned long long) (x)
#define NC_SYSCALL_LL_O(x) 0, NC_SYSCALL_LL_E (x)
#endif

#define NC__PPC_SC "sc\n\tbns+ 1f\n\tneg %1, %1\n1:"
#define NC__PPC_CLOBBERS \
	"cr0", "cr1", "cr5", "cr6", "cr7", "ctr", "xer", "memory"

static inline long __nc_syscall0(long n)
{
	register long r0 __asm__ ("r0") = n;
	register long r3 __asm__ ("r3");
	__asm__ __volatile__ (NC__PPC_SC
		: "+r" (r0), "=r" (r3)
		:
		: "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12",
		  NC__PPC_CLOBBERS);
	return r3;
}

static inline long __nc_syscall1(long n, long a)
{
	register long r0 __asm__ ("r0") = n;
	register long r3 __asm__ ("r3") = a;
	__asm__ __volatile__ (NC__PPC_SC
		: "+r" (r0), "+r" (r3)
		:
		: "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12",
		  NC__PPC_CLOBBERS);
	return r3;
}

static inline long __nc_syscall2(long n, long a, long b)
{
	register long r0 __asm__ ("r0") = n;
	register long r3 __asm__ ("r3") = a;
	register long r4 __asm__ ("r4") = b;
	__asm__ __volatile__ (NC__PPC_SC
		: "+r" (r0), "+r" (r3), "+r" (r4)
		:
		: "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12",
		  NC__PPC_CLOBBERS);
	return r3;
}

static inline long __nc_syscall3(long n, long a, long b, long c)
{
	register long r0 __asm__ ("r0") = n;
	register long r3 __asm__ ("r3") = a;
	register long r4 __asm__ ("r4") = b;
	register long r5 __asm__ ("r5") = c;
	__asm__ __volatile__ (NC__PPC_SC
		: "+r" (r0), "+r" (r3), "+r" (r4), "+r" (r5)
		:
		: "r6", "r7", "r8", "r9", "r10", "r11", "r12",
		  NC__PPC_CLOBBERS);
	return r3;
}

static inline long __nc_syscall4(long n, long a, long b, long c, long d)
{
	register long r0 __asm__ ("r0") = n;
	register long r3 __asm__ ("r3") = a;
	register long r4 __asm__ ("r4") = b;
	register long r5 __asm__ ("r5") = c;
	register long r6 __asm__ ("r6") = d;
	__asm__ __volatile__ (NC__PPC_SC
		: "+r" (r0), "+r" (r3), "+r" (r4), "+r" (r5), "+r" (r6)
		:
		: "r7", "r8", "r9", "r10", "r11", "r12",
		  NC__PPC_CLOBBERS);
	return r3;
}

static inline long __nc_syscall5(long n, long a, long b, long c, long d,
				 long e)
{
	register long r0 __asm__ ("r0") = n;
	register long r3 __asm__ ("r3") = a;
	register long r4 __asm__ ("r4") = b;
	register long r5 __asm__ ("r5") = c;
	register long r6 __asm__ ("r6") = d;
	register long r7 __asm__ ("r7") = e;
	__asm__ __volatile__ (NC__PPC_SC
		: "+r" (r0), "+r" (r3), "+r" (r4), "+r" (r5), "+r" (r6),
		  "+r" (r7)
		:
		: "r8", "r9", "r10", "r11", "r12",
		  NC__PPC_CLOBBERS);
	return r3;
}

static inline long __nc_syscall6(long n, long a, long b, long c, long d,
				 long e, long f)
{
	register long r0 __asm__ ("r0") = n;
	register long r3 __asm__ ("r3") = a;
	register long r4 __asm__ ("r4") = b;
	register long r5 __asm__ ("r5") = c;
	register long r6 __asm__ ("r6") = d;
	register long r7 __asm__ ("r7") = e;
	register long r8 __asm__ ("r8") = f;
	__asm__ __volatile__ (NC__PPC_SC
		: "+r" (r0), "+r" (r3), "+r" (r4), "+r" (r5), "+r" (r6),
		  "+r" (r7), "+r" (r8)
		:
		: "r9", "r10", "r11", "r12",
		  NC__PPC_CLOBBERS);
	return r3;
}

#endif
