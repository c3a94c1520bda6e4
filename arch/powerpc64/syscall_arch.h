/* arch/powerpc64/syscall_arch.h: raw Linux syscalls for 64-bit PowerPC,
 * big-endian (ELFv1) and little-endian (ELFv2) alike.
 *
 * The "sc" calling sequence, the CR0.SO error convention and the clobbers
 * are those of 32-bit PowerPC: the stubs are shared with arch/powerpc/.
 * One directory serves both endiannesses: the syscall numbers are the same
 * too (arch/gen-syscall-nr checks).
 */
#ifndef NC_ARCH_NAME
#define NC_ARCH_NAME "powerpc64"
#endif

/* A 64-bit argument (off_t, loff_t) fits one register, wherever it falls
   in the argument list: see lib/sys/arch.h.  */
#define NC_SYSCALL_LL_E(x) (x)
#define NC_SYSCALL_LL_O(x) (x)

#include "../powerpc/syscall_arch.h"
