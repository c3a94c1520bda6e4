/* arch/arm/syscall_arch.h: raw Linux syscalls for 32-bit ARM, EABI
 * (Debian's armhf and armel).
 *
 * "svc 0" takes the number in r7 and arguments in r0..r5; the result
 * replaces r0 (-4095..-1 is -errno) and every other register is
 * preserved.  (The old ABI, "swi" with the number in the instruction,
 * is not supported: no EABI kernel of this century needs it.)
 *
 * r7: in Thumb code GCC keeps r7 as the frame pointer whenever the
 * function needs one (-O0, alloca, -fno-omit-frame-pointer), and then
 * refuses it as an asm operand.  So in Thumb mode the stubs never name
 * it: they save it in a scratch register, load the number, trap and
 * restore it, all in one asm statement, so that nothing can see r7
 * changed.  In ARM mode (r11 is the frame pointer there) r7 is an
 * ordinary operand.  "cc": in Thumb-1 (armv5te -mthumb) a move between
 * low registers assembles as "adds", which sets the flags.
 */
#ifndef NC_ARCH_SYSCALL_ARCH_H
#define NC_ARCH_SYSCALL_ARCH_H

#define NC_ARCH_NAME "arm"
#define NC_KERNEL_NSIG 64

/* A 64-bit argument (off_t, loff_t) takes two registers in the CPU's
   word order, and the pair starts on an even register (r0, r2, r4: the
   EABI's aligned pairs): one at an odd position is preceded by a padding
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

/* The trap, with the number N in r7 (see above).  NC__ARM_NR is the
   operand list's part for N: in Thumb mode a scratch register that
   keeps r7 meanwhile, then N in any register; in ARM mode N in r7.  */
#ifdef __thumb__
#define NC__ARM_SVC "mov %1, r7\n\tmov r7, %2\n\tsvc 0\n\tmov r7, %1"
#define NC__ARM_DECLARE_NR(n) long saved_r7
#define NC__ARM_OUT_NR , "=&r" (saved_r7)
#define NC__ARM_IN_NR(n) "r" (n)
#else
#define NC__ARM_SVC "svc 0"
#define NC__ARM_DECLARE_NR(n) register long r7 __asm__ ("r7") = (n)
#define NC__ARM_OUT_NR
#define NC__ARM_IN_NR(n) "r" (r7)
#endif

/* The operand numbers the asm uses: %0 is r0, %1 the saved r7 (Thumb
   only), %2 the number (Thumb only); the ARM-mode string names none.  */

static inline long __nc_syscall0(long n)
{
	NC__ARM_DECLARE_NR (n);
	register long r0 __asm__ ("r0");
	__asm__ __volatile__ (NC__ARM_SVC
		: "=r" (r0) NC__ARM_OUT_NR
		: NC__ARM_IN_NR (n)
		: "cc", "memory");
	return r0;
}

static inline long __nc_syscall1(long n, long a)
{
	NC__ARM_DECLARE_NR (n);
	register long r0 __asm__ ("r0") = a;
	__asm__ __volatile__ (NC__ARM_SVC
		: "+r" (r0) NC__ARM_OUT_NR
		: NC__ARM_IN_NR (n)
		: "cc", "memory");
	return r0;
}

static inline long __nc_syscall2(long n, long a, long b)
{
	NC__ARM_DECLARE_NR (n);
	register long r0 __asm__ ("r0") = a;
	register long r1 __asm__ ("r1") = b;
	__asm__ __volatile__ (NC__ARM_SVC
		: "+r" (r0) NC__ARM_OUT_NR
		: NC__ARM_IN_NR (n), "r" (r1)
		: "cc", "memory");
	return r0;
}

static inline long __nc_syscall3(long n, long a, long b, long c)
{
	NC__ARM_DECLARE_NR (n);
	register long r0 __asm__ ("r0") = a;
	register long r1 __asm__ ("r1") = b;
	register long r2 __asm__ ("r2") = c;
	__asm__ __volatile__ (NC__ARM_SVC
		: "+r" (r0) NC__ARM_OUT_NR
		: NC__ARM_IN_NR (n), "r" (r1), "r" (r2)
		: "cc", "memory");
	return r0;
}

static inline long __nc_syscall4(long n, long a, long b, long c, long d)
{
	NC__ARM_DECLARE_NR (n);
	register long r0 __asm__ ("r0") = a;
	register long r1 __asm__ ("r1") = b;
	register long r2 __asm__ ("r2") = c;
	register long r3 __asm__ ("r3") = d;
	__asm__ __volatile__ (NC__ARM_SVC
		: "+r" (r0) NC__ARM_OUT_NR
		: NC__ARM_IN_NR (n), "r" (r1), "r" (r2), "r" (r3)
		: "cc", "memory");
	return r0;
}

static inline long __nc_syscall5(long n, long a, long b, long c, long d,
				 long e)
{
	NC__ARM_DECLARE_NR (n);
	register long r0 __asm__ ("r0") = a;
	register long r1 __asm__ ("r1") = b;
	register long r2 __asm__ ("r2") = c;
	register long r3 __asm__ ("r3") = d;
	register long r4 __asm__ ("r4") = e;
	__asm__ __volatile__ (NC__ARM_SVC
		: "+r" (r0) NC__ARM_OUT_NR
		: NC__ARM_IN_NR (n), "r" (r1), "r" (r2), "r" (r3), "r" (r4)
		: "cc", "memory");
	return r0;
}

static inline long __nc_syscall6(long n, long a, long b, long c, long d,
				 long e, long f)
{
	NC__ARM_DECLARE_NR (n);
	register long r0 __asm__ ("r0") = a;
	register long r1 __asm__ ("r1") = b;
	register long r2 __asm__ ("r2") = c;
	register long r3 __asm__ ("r3") = d;
	register long r4 __asm__ ("r4") = e;
	register long r5 __asm__ ("r5") = f;
	__asm__ __volatile__ (NC__ARM_SVC
		: "+r" (r0) NC__ARM_OUT_NR
		: NC__ARM_IN_NR (n), "r" (r1), "r" (r2), "r" (r3), "r" (r4),
		  "r" (r5)
		: "cc", "memory");
	return r0;
}

#endif
