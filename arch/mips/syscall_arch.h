/* arch/mips/syscall_arch.h: raw Linux syscalls for 32-bit MIPS, the o32
 * ABI (Debian's mipsel; big-endian mips too).
 *
 * "syscall" takes the number in $2 (v0; o32 numbers start at 4000) and
 * the first four arguments in $4..$7 (a0..a3).  The fifth and sixth are
 * not in registers: the kernel reads them from the caller's stack, at
 * 16($sp) and 20($sp), above the 16 bytes the o32 ABI reserves there for
 * a0..a3.  The stubs that take them make that room themselves, below the
 * compiler's stack pointer, and give it back after the trap: no operand
 * is addressed through $sp meanwhile (they are all registers).
 *
 * Errors are not a negative result: the kernel sets $7 (a3) to 1 and
 * leaves a POSITIVE errno in $2, or sets $7 to 0 and leaves the result in
 * $2.  Each stub turns the first into -errno, so callers see the same
 * convention as on every other architecture: -4095..-1 is -errno.  (The
 * sign of $2 would be wrong: a successful call may return any value.)
 *
 * The kernel may change, besides $2 and $7, $1 (at), $3 (v1), $8..$15
 * (t0..t7), $24, $25 (t8, t9) and hi/lo: all are outputs or clobbers.  A
 * syscall restarted after a signal is re-executed from the same
 * "syscall" instruction with $2 and $7 as they were (the kernel saves
 * both), and with the stack arguments still in place.  The 32 bytes
 * below $sp have no unwind information: a debugger's backtrace taken
 * in a blocked five- or six-argument call (ppoll, pselect6) is off by
 * them, as with glibc's own o32 stubs.
 */
#ifndef NC_ARCH_SYSCALL_ARCH_H
#define NC_ARCH_SYSCALL_ARCH_H

/* MIPS16 has neither "syscall" nor these stack stores.  */
#ifdef __mips16
#error "arch/mips: build with -mno-mips16 (the stubs are MIPS32 code)"
#endif

#ifndef NC_ARCH_NAME
#define NC_ARCH_NAME "mips"
#endif
/* MIPS has 128 signals: the kernel sigset is 16 bytes.  */
#define NC_KERNEL_NSIG 128

/* A 64-bit argument (off_t, loff_t) takes two registers in the CPU's
   word order, and the pair starts on an even register ($4 or $6: o32's
   aligned pairs): one at an odd position is preceded by a padding
   register.  X is evaluated twice.  */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NC_SYSCALL_LL_E(x) \
	(long) (unsigned long) ((unsigned long long) (x) >> 32), \
	(long) (unsigned long) (unsigned long long) (x)
#else
#define NC_SYSCALL_LL_E(x) \
	(long) (unsigned long) (unsigned long long) (x), \
	(long) (unsigned long) ((unsigned long long) (x) >> 32)
#endif
#define NC_SYSCALL_LL_O(x) 0, NC_SYSCALL_LL_E (x)

/* hi and lo are gone from MIPS release 6.  */
#if !defined __mips_isa_rev || __mips_isa_rev < 6
#define NC__MIPS_HILO , "hi", "lo"
#else
#define NC__MIPS_HILO
#endif
#define NC__MIPS_CLOBBERS \
	"$1", "$3", "$11", "$12", "$13", "$14", "$15", "$24", "$25", \
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
		: "$8", "$9", "$10", NC__MIPS_CLOBBERS);
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
		: "$8", "$9", "$10", NC__MIPS_CLOBBERS);
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
		: "$8", "$9", "$10", NC__MIPS_CLOBBERS);
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
		: "$8", "$9", "$10", NC__MIPS_CLOBBERS);
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
		: "$8", "$9", "$10", NC__MIPS_CLOBBERS);
	return NC__MIPS_RESULT (v0, a3);
}

/* Five or six: 32 bytes of stack (o32 keeps $sp 8-byte aligned), the
   fifth argument at 16($sp), the sixth at 20($sp).  E and F are in $8 and
   $9, which the kernel may change anyway.  */
static inline long __nc_syscall5(long n, long a, long b, long c, long d,
				 long e)
{
	register long v0 __asm__ ("$2") = n;
	register long a0 __asm__ ("$4") = a;
	register long a1 __asm__ ("$5") = b;
	register long a2 __asm__ ("$6") = c;
	register long a3 __asm__ ("$7") = d;
	register long t0 __asm__ ("$8") = e;
	__asm__ __volatile__ (
		"addiu $sp, $sp, -32\n\t"
		"sw %[e], 16($sp)\n\t"
		"syscall\n\t"
		"addiu $sp, $sp, 32"
		: "+r" (v0), "+r" (a3), [e] "+r" (t0)
		: "r" (a0), "r" (a1), "r" (a2)
		: "$9", "$10", NC__MIPS_CLOBBERS);
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
	register long t0 __asm__ ("$8") = e;
	register long t1 __asm__ ("$9") = f;
	__asm__ __volatile__ (
		"addiu $sp, $sp, -32\n\t"
		"sw %[e], 16($sp)\n\t"
		"sw %[f], 20($sp)\n\t"
		"syscall\n\t"
		"addiu $sp, $sp, 32"
		: "+r" (v0), "+r" (a3), [e] "+r" (t0), [f] "+r" (t1)
		: "r" (a0), "r" (a1), "r" (a2)
		: "$10", NC__MIPS_CLOBBERS);
	return NC__MIPS_RESULT (v0, a3);
}

#endif
