/* sys/kernel.c -- the tools' system calls, their Linux versions and
   their probes; see sys/kernel.h.  */

#include <config.h>

#include "sys/kernel.h"

#include <stdint.h>
#include <string.h>

#include "sys/arch.h"
#include "sys/calls.h"

/* Flags no kernel defines, for calls that check their flags first.  */
#define UNKNOWN_FLAGS 0x80000000U

/* A timeout of zero, in the 64-bit layout that NC_SYS_ppoll and
   NC_SYS_pselect6 read on every architecture: the probe returns at
   once.  */
static const int64_t no_wait[2];

static int
probe_statx (void)
{
  struct statx stx;
  return nc_syscall5 (NC_SYS_statx, -1, "", AT_EMPTY_PATH, 0, &stx);
}

static int
probe_openat (void)
{
  return nc_syscall4 (NC_SYS_openat, -1, NULL, O_RDONLY, 0);
}

static int
probe_openat2 (void)
{
  /* A size below the first struct open_how: EINVAL before the rest.  */
  return nc_syscall4 (NC_SYS_openat2, -1, NULL, NULL, 0);
}

static int
probe_renameat2 (void)
{
  return nc_syscall5 (NC_SYS_renameat2, -1, NULL, -1, NULL, UNKNOWN_FLAGS);
}

static int
probe_faccessat2 (void)
{
  return nc_syscall4 (NC_SYS_faccessat2, -1, NULL, 0, UNKNOWN_FLAGS);
}

static int
probe_fchmodat2 (void)
{
  return nc_syscall4 (NC_SYS_fchmodat2, -1, NULL, 0, UNKNOWN_FLAGS);
}

static int
probe_pipe2 (void)
{
  return nc_syscall2 (NC_SYS_pipe2, NULL, UNKNOWN_FLAGS);
}

static int
probe_splice (void)
{
  return nc_syscall6 (NC_SYS_splice, -1, NULL, -1, NULL, 1, 0);
}

static int
probe_sendfile (void)
{
  return nc_syscall4 (NC_SYS_sendfile, -1, -1, NULL, 1);
}

static int
probe_copy_file_range (void)
{
  return nc_syscall6 (NC_SYS_copy_file_range, -1, NULL, -1, NULL, 1, 0);
}

/* preadv and pwritev take their offset in two registers on 32-bit
   architectures, in one on 64-bit ones: zeros fill either way.  */
static int
probe_preadv (void)
{
  return nc_syscall5 (NC_SYS_preadv, -1, NULL, 0, 0, 0);
}

static int
probe_pwritev (void)
{
  return nc_syscall5 (NC_SYS_pwritev, -1, NULL, 0, 0, 0);
}

static int
probe_preadv2 (void)
{
  return nc_syscall6 (NC_SYS_preadv2, -1, NULL, 0, 0, 0, 0);
}

static int
probe_pwritev2 (void)
{
  return nc_syscall6 (NC_SYS_pwritev2, -1, NULL, 0, 0, 0, 0);
}

static int
probe_io_uring (void)
{
  /* NULL parameters: EFAULT.  */
  return nc_syscall2 (NC_SYS_io_uring_setup, 1, NULL);
}

static int
probe_ppoll (void)
{
  return nc_syscall5 (NC_SYS_ppoll, NULL, 0, no_wait, NULL, 0);
}

static int
probe_pselect6 (void)
{
  return nc_syscall6 (NC_SYS_pselect6, 0, NULL, NULL, NULL, no_wait, NULL);
}

static int
probe_inotify (void)
{
  /* O_WRONLY is no flag of inotify_init1 on any architecture.  */
  return nc_syscall1 (NC_SYS_inotify_init1, O_WRONLY);
}

static int
probe_pidfd_open (void)
{
  return nc_syscall2 (NC_SYS_pidfd_open, -1, 0);
}

static int
probe_pidfd_send_signal (void)
{
  return nc_syscall4 (NC_SYS_pidfd_send_signal, -1, 0, NULL, 0);
}

static int
probe_unshare (void)
{
  /* No flag: nothing to unshare, and success.  */
  return nc_syscall1 (NC_SYS_unshare, 0);
}

static int
probe_setns (void)
{
  return nc_syscall2 (NC_SYS_setns, -1, 0);
}

static int
probe_open_tree (void)
{
  return nc_syscall3 (NC_SYS_open_tree, -1, NULL, UNKNOWN_FLAGS);
}

static int
probe_move_mount (void)
{
  return nc_syscall5 (NC_SYS_move_mount, -1, NULL, -1, NULL, UNKNOWN_FLAGS);
}

static int
probe_fsopen (void)
{
  return nc_syscall2 (NC_SYS_fsopen, NULL, UNKNOWN_FLAGS);
}

static int
probe_fsconfig (void)
{
  /* FSCONFIG_SET_FLAG (0) without its key: EINVAL.  */
  return nc_syscall5 (NC_SYS_fsconfig, -1, 0, NULL, NULL, 0);
}

static int
probe_fsmount (void)
{
  return nc_syscall3 (NC_SYS_fsmount, -1, UNKNOWN_FLAGS, 0);
}

static int
probe_mount_setattr (void)
{
  return nc_syscall5 (NC_SYS_mount_setattr, -1, NULL, UNKNOWN_FLAGS, NULL, 0);
}

static int
probe_seccomp (void)
{
  /* An operation no kernel defines: EINVAL, and no filter installed.  */
  return nc_syscall3 (NC_SYS_seccomp, UNKNOWN_FLAGS, 0, NULL);
}

/* The 32-bit architectures call the *_time64 variants (Linux 5.1).  */
#define TIME64_SINCE(native) (sizeof (long) == 4 ? "5.1" : native)

/* Each call's version is that of its man(2) page, HISTORY or VERSIONS;
   io_uring's is that of IORING_FEAT_SINGLE_MMAP, which sys/uring.c
   requires of io_uring_setup (5.1).  */
static const struct sys_kernel_call calls[] = {
  { "openat", "2.6.16", probe_openat, false },
  { "statx", "4.11", probe_statx, false },
  { "openat2", "5.6", probe_openat2, false },
  { "renameat2", "3.15", probe_renameat2, false },
  { "faccessat2", "5.8", probe_faccessat2, false },
  { "fchmodat2", "6.6", probe_fchmodat2, false },
  { "pipe2", "2.6.27", probe_pipe2, false },
  { "splice", "2.6.17", probe_splice, false },
  { "sendfile", "2.6.33", probe_sendfile, false },
  { "copy_file_range", "4.5", probe_copy_file_range, false },
  { "preadv", "2.6.30", probe_preadv, false },
  { "pwritev", "2.6.30", probe_pwritev, false },
  { "preadv2", "4.6", probe_preadv2, false },
  { "pwritev2", "4.6", probe_pwritev2, false },
  { "io_uring", "5.4", probe_io_uring, false },
  { "ppoll", TIME64_SINCE ("2.6.16"), probe_ppoll, false },
  { "pselect6", TIME64_SINCE ("2.6.16"), probe_pselect6, false },
  { "inotify_init1", "2.6.27", probe_inotify, false },
  { "pidfd_open", "5.3", probe_pidfd_open, false },
  { "pidfd_send_signal", "5.1", probe_pidfd_send_signal, false },
  { "unshare", "2.6.16", probe_unshare, false },
  { "setns", "3.0", probe_setns, false },
  { "open_tree", "5.2", probe_open_tree, false },
  { "move_mount", "5.2", probe_move_mount, true },
  { "fsopen", "5.2", probe_fsopen, true },
  { "fsconfig", "5.2", probe_fsconfig, false },
  { "fsmount", "5.2", probe_fsmount, true },
  { "mount_setattr", "5.12", probe_mount_setattr, false },
  { "seccomp", "3.17", probe_seccomp, false },
};

const struct sys_kernel_call *
sys_kernel_call (const char *name)
{
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
    if (strcmp (calls[i].name, name) == 0)
      return &calls[i];
  return NULL;
}

/* Whether a seccomp filter is installed on this process (the Seccomp
   line of /proc/self/status is 2): false where that cannot be read.  */
static bool
seccomp_filtered (void)
{
  int fd = sys_openat (AT_FDCWD, "/proc/self/status",
                       O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    return false;
  char buf[4096];
  ssize_t n = sys_read (fd, buf, sizeof buf - 1);
  sys_close (fd);
  if (n <= 0)
    return false;
  buf[n] = '\0';
  const char *line = strstr (buf, "\nSeccomp:");
  if (!line)
    return false;
  line += strlen ("\nSeccomp:");
  line += strspn (line, " \t");
  return *line == '2';
}

enum sys_call_state
sys_kernel_probe (const struct sys_kernel_call *c)
{
  int ret = c->probe ();
  if (ret == -ENOSYS)
    return SYS_CALL_MISSING;
  if (ret != -EPERM && ret != -EACCES)
    return SYS_CALL_WORKS;
  /* Only a filter's EPERM says the call is refused whatever the
     arguments; the kernel's own is for want of privilege.  */
  if (c->privileged && !seccomp_filtered ())
    return SYS_CALL_WORKS;
  return SYS_CALL_REFUSED;
}

enum sys_call_state
sys_kernel_state_of (const struct sys_kernel_call *c, int err)
{
  if (err == -ENOSYS)
    return SYS_CALL_MISSING;
  if (err == -EPERM || err == -EACCES)
    return sys_kernel_probe (c);
  return SYS_CALL_WORKS;
}
