/* enosys-exec.c -- helper of tests/xcp.bats, tests/ppoll.bats and
   tests/uring-test: run a command on what looks like a kernel, or a file
   system, without some of the copy calls (or io_uring, pidfd_open,
   inotify).

   enosys-exec CALL[:ERRNO][,CALL[:ERRNO]...] COMMAND [ARG]...
       Install a seccomp filter that makes each CALL fail with ENOSYS (or
       the ERRNO named after it), then exec COMMAND.  The filter is kept
       across the exec, by COMMAND and its children.  CALL is one of
           copy_file_range, splice, sendfile, tee, vmsplice, fchmodat2,
           io_uring_setup, io_uring_enter, pidfd_open, inotify_init1,
           inotify_add_watch
               the system call of that name (sendfile is sendfile64 on
               the 32-bit architectures, as the arch/ tables say);
           ficlone, ficlonerange
               ioctl with the request FICLONE, FICLONERANGE only;
           o_tmpfile
               openat with O_TMPFILE in its flags only (give it
               EOPNOTSUPP: a file system without O_TMPFILE).
       ERRNO is ENOSYS, EINVAL, EXDEV, EOPNOTSUPP, EPERM, EIO, ENOSPC,
       EACCES or EMFILE.
       Any other system call is allowed.  The numbers are those of the
       arch/ table of the build and the filter checks the audit
       architecture: a COMMAND of another architecture (a 32-bit program
       run by a 64-bit build) is killed at its first system call rather
       than let through unfiltered.

   Exit status: COMMAND's; 125 if the filter cannot be installed or the
   arguments are wrong, 126 if COMMAND cannot be run, 127 if it is not
   found (as env(1)).  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "audit-arch.h"
#include "syscall_nr.h"

/* The 32 low bits of argument N: ioctl's request and openat's flags are
   ints, and the kernel ignores the upper half of the register.  */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
# define ARG_LOW(n) (offsetof (struct seccomp_data, args[n]) + 4)
#else
# define ARG_LOW(n) offsetof (struct seccomp_data, args[n])
#endif

/* O_TMPFILE without the O_DIRECTORY it includes: the bit that tells.  */
#define TMPFILE_BIT ((unsigned int) (O_TMPFILE & ~O_DIRECTORY))

/* A call, and for some only when an argument matches: equal to VALUE
   (ARG_EQ), or with a bit of VALUE set (ARG_SET).  */
enum match { ANY, ARG_EQ, ARG_SET };

struct call
{
  const char *name;
  unsigned int nr;
  enum match match;
  unsigned int arg;             /* the argument tested, from 0 */
  unsigned int value;
};

static const struct call calls[] = {
  { "copy_file_range", NC_SYS_copy_file_range, ANY, 0, 0 },
  { "splice", NC_SYS_splice, ANY, 0, 0 },
  { "sendfile", NC_SYS_sendfile, ANY, 0, 0 },
  { "tee", NC_SYS_tee, ANY, 0, 0 },
  { "vmsplice", NC_SYS_vmsplice, ANY, 0, 0 },
  { "fchmodat2", NC_SYS_fchmodat2, ANY, 0, 0 },
  { "io_uring_setup", NC_SYS_io_uring_setup, ANY, 0, 0 },
  { "io_uring_enter", NC_SYS_io_uring_enter, ANY, 0, 0 },
  { "pidfd_open", NC_SYS_pidfd_open, ANY, 0, 0 },
  { "inotify_init1", NC_SYS_inotify_init1, ANY, 0, 0 },
  { "inotify_add_watch", NC_SYS_inotify_add_watch, ANY, 0, 0 },
  { "ficlone", NC_SYS_ioctl, ARG_EQ, 1, FICLONE },
  { "ficlonerange", NC_SYS_ioctl, ARG_EQ, 1, FICLONERANGE },
  { "o_tmpfile", NC_SYS_openat, ARG_SET, 2, TMPFILE_BIT },
};

static const struct
{
  const char *name;
  int value;
} errnos[] = {
  { "ENOSYS", ENOSYS }, { "EINVAL", EINVAL }, { "EXDEV", EXDEV },
  { "EOPNOTSUPP", EOPNOTSUPP }, { "EPERM", EPERM }, { "EIO", EIO },
  { "ENOSPC", ENOSPC }, { "EACCES", EACCES }, { "EMFILE", EMFILE },
};

enum
{
  MAX_RULES = 16,
  /* Two instructions for the architecture check, 5 at most per rule, and
     the final allow.  */
  MAX_INSNS = 3 + 5 * MAX_RULES + 1
};

/* "enosys-exec: WHAT 'ARG'" (or WHAT alone), the usage, exit 125.  */
static _Noreturn void
usage_error (const char *what, const char *arg)
{
  if (arg)
    fprintf (stderr, "enosys-exec: %s '%s'\n", what, arg);
  else
    fprintf (stderr, "enosys-exec: %s\n", what);
  fputs ("usage: enosys-exec CALL[:ERRNO][,CALL[:ERRNO]...] COMMAND"
         " [ARG]...\n  CALL: copy_file_range splice sendfile tee vmsplice"
         " ficlone ficlonerange\n        fchmodat2 o_tmpfile"
         " io_uring_setup io_uring_enter\n        pidfd_open inotify_init1"
         " inotify_add_watch\n", stderr);
  exit (125);
}

static const struct call *
find_call (const char *name)
{
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
    if (strcmp (calls[i].name, name) == 0)
      return &calls[i];
  usage_error ("unknown call", name);
}

static int
find_errno (const char *name)
{
  for (size_t i = 0; i < sizeof errnos / sizeof errnos[0]; i++)
    if (strcmp (errnos[i].name, name) == 0)
      return errnos[i].value;
  usage_error ("unknown errno", name);
}

/* Append the rule making CALL fail with ERR to PROG.  Each rule loads
   what it tests, so that the rules do not depend on one another.  */
static void
add_rule (struct sock_filter *prog, unsigned short *len,
          const struct call *call, int err)
{
  unsigned short n = *len;
  prog[n++] = (struct sock_filter)
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr));
  if (call->match != ANY)
    {
      prog[n++] = (struct sock_filter)
        BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, call->nr, 0, 3);
      prog[n++] = (struct sock_filter)
        BPF_STMT (BPF_LD | BPF_W | BPF_ABS, ARG_LOW (call->arg));
      prog[n++] = (struct sock_filter)
        BPF_JUMP (BPF_JMP | (call->match == ARG_EQ ? BPF_JEQ : BPF_JSET)
                  | BPF_K, call->value, 0, 1);
    }
  else
    prog[n++] = (struct sock_filter)
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, call->nr, 0, 1);
  prog[n++] = (struct sock_filter)
    BPF_STMT (BPF_RET | BPF_K,
              SECCOMP_RET_ERRNO | ((unsigned int) err & SECCOMP_RET_DATA));
  *len = n;
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    usage_error (argc < 2 ? "missing CALL list" : "missing COMMAND", NULL);

  struct sock_filter prog[MAX_INSNS];
  unsigned short len = 0;
  prog[len++] = (struct sock_filter)
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, arch));
  prog[len++] = (struct sock_filter)
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, BUILD_AUDIT_ARCH, 1, 0);
  prog[len++] = (struct sock_filter)
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);

  char *list = strdup (argv[1]);
  if (!list)
    {
      perror ("enosys-exec");
      return 125;
    }
  int rules = 0;
  for (char *save = NULL, *item = strtok_r (list, ",", &save); item;
       item = strtok_r (NULL, ",", &save))
    {
      if (++rules > MAX_RULES)
        usage_error ("more than 16 calls in", argv[1]);
      char *colon = strchr (item, ':');
      int err = ENOSYS;
      if (colon)
        {
          *colon = '\0';
          err = find_errno (colon + 1);
        }
      add_rule (prog, &len, find_call (item), err);
    }
  if (rules == 0)
    usage_error ("no call in", argv[1]);
  free (list);
  prog[len++] = (struct sock_filter)
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

  struct sock_fprog fprog = { len, prog };
  /* Without no_new_privs only a process with CAP_SYS_ADMIN may install a
     filter; with it, anyone may, and the filter cannot be escaped through
     a set-user-ID program.  */
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
    {
      perror ("enosys-exec: prctl PR_SET_NO_NEW_PRIVS");
      return 125;
    }
  if (syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) < 0)
    {
      perror ("enosys-exec: seccomp SECCOMP_SET_MODE_FILTER");
      return 125;
    }

  execvp (argv[2], argv + 2);
  int err = errno;
  fprintf (stderr, "enosys-exec: cannot run '%s': %s\n", argv[2],
           strerror (err));
  return err == ENOENT ? 127 : 126;
}
