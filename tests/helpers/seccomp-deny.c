/* seccomp-deny.c -- helper of tests/tools/sandbox-process.bats: write
   to standard output a compiled seccomp program, as unshare-run's and
   bwrap's --seccomp FD read it (an array of struct sock_filter).

   seccomp-deny ERRNO
       A program that makes mkdir and mkdirat fail with ERRNO (a number,
       1 to 4095) and allows every other system call.  It checks the
       audit architecture first: a call of another architecture (a
       32-bit program run by a 64-bit build) kills the process, as a
       filter must, or the numbers it compares would be another table's.
   seccomp-deny --refused
       A program of whole instructions that the kernel's checker refuses
       (a load past struct seccomp_data): installing it fails with
       EINVAL.

   Exit status: 0, or 2 for wrong arguments, 1 if writing fails.  */

#include <config.h>

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "audit-arch.h"

/* The calls of the x32 ABI on x86_64: the same audit architecture, with
   this bit in the number.  */
#define X32_SYSCALL_BIT 0x40000000U

/* Write the LEN bytes of BUF to standard output, whatever the pieces.  */
static int
write_all (const void *buf, size_t len)
{
  const char *p = buf;
  while (len > 0)
    {
      ssize_t n = write (STDOUT_FILENO, p, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return -1;
      p += n;
      len -= n;
    }
  return 0;
}

int
main (int argc, char **argv)
{
  char *end;
  long err = argc == 2 ? strtol (argv[1], &end, 10) : 0;
  bool refused = argc == 2 && strcmp (argv[1], "--refused") == 0;
  if (!refused && (argc != 2 || *end || err < 1 || err > 4095))
    {
      fprintf (stderr, "usage: seccomp-deny ERRNO | --refused\n");
      return 2;
    }

  struct sock_filter prog[16];
  size_t n = 0;
  prog[n++] = (struct sock_filter)
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
              refused ? 4096 : offsetof (struct seccomp_data, arch));
  prog[n++] = (struct sock_filter)
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, BUILD_AUDIT_ARCH, 1, 0);
  prog[n++] = (struct sock_filter)
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  prog[n++] = (struct sock_filter)
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr));
#ifdef __x86_64__
  prog[n++] = (struct sock_filter)
    BPF_JUMP (BPF_JMP | BPF_JGE | BPF_K, X32_SYSCALL_BIT, 0, 1);
  prog[n++] = (struct sock_filter)
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
#endif
#ifdef SYS_mkdir
  prog[n++] = (struct sock_filter)
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_mkdir, 2, 0);
#endif
  prog[n++] = (struct sock_filter)
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_mkdirat, 1, 0);
  prog[n++] = (struct sock_filter)
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  prog[n++] = (struct sock_filter)
    BPF_STMT (BPF_RET | BPF_K,
              SECCOMP_RET_ERRNO | ((unsigned int) err & SECCOMP_RET_DATA));
  return write_all (prog, n * sizeof *prog) < 0 ? 1 : 0;
}
