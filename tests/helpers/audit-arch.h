/* audit-arch.h -- what the test helpers that write seccomp programs
   share: BUILD_AUDIT_ARCH, the audit architecture of the build
   (seccomp_data.arch of its system calls), and the seccomp return
   values older headers lack.  Include <linux/audit.h> and
   <linux/seccomp.h> first.  */

#ifndef NC_TESTS_AUDIT_ARCH_H
#define NC_TESTS_AUDIT_ARCH_H

#if defined __x86_64__ && defined __ILP32__
# error "x32 is not supported: its calls share AUDIT_ARCH_X86_64"
#elif defined __x86_64__
# define BUILD_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined __i386__
# define BUILD_AUDIT_ARCH AUDIT_ARCH_I386
#elif defined __aarch64__ && !defined __AARCH64EB__
# define BUILD_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined __powerpc64__ && defined __LITTLE_ENDIAN__
# define BUILD_AUDIT_ARCH AUDIT_ARCH_PPC64LE
#elif defined __powerpc64__
# define BUILD_AUDIT_ARCH AUDIT_ARCH_PPC64
#elif defined __powerpc__
# define BUILD_AUDIT_ARCH AUDIT_ARCH_PPC
#elif defined __riscv && __riscv_xlen == 64
# define BUILD_AUDIT_ARCH AUDIT_ARCH_RISCV64
#elif defined __s390x__
# define BUILD_AUDIT_ARCH AUDIT_ARCH_S390X
#elif defined __arm__ && defined __ARMEB__
# define BUILD_AUDIT_ARCH AUDIT_ARCH_ARMEB
#elif defined __arm__
# define BUILD_AUDIT_ARCH AUDIT_ARCH_ARM
#elif defined __mips__ && _MIPS_SIM == _ABI64 && defined __MIPSEL__
# define BUILD_AUDIT_ARCH AUDIT_ARCH_MIPSEL64
#elif defined __mips__ && _MIPS_SIM == _ABI64
# define BUILD_AUDIT_ARCH AUDIT_ARCH_MIPS64
#elif defined __mips__ && _MIPS_SIM == _ABIO32 && defined __MIPSEL__
# define BUILD_AUDIT_ARCH AUDIT_ARCH_MIPSEL
#elif defined __mips__ && _MIPS_SIM == _ABIO32
# define BUILD_AUDIT_ARCH AUDIT_ARCH_MIPS
#elif defined __sparc__ && defined __arch64__
# define BUILD_AUDIT_ARCH AUDIT_ARCH_SPARC64
#else
# error "no audit architecture known for this target"
#endif

#ifndef SECCOMP_RET_KILL_PROCESS
# define SECCOMP_RET_KILL_PROCESS 0x80000000U
#endif

#endif
