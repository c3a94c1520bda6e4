/* sys-test.h -- what the sys_* test drivers (sys-*-test.c, one for each
   group of lib/sys/calls.h) share: each wrapper against the libc function
   called with the same arguments (the copy engine has its own driver,
   copy-test.c).

   A driver defines TAP_NAME (its name: "sys-io-test") and includes this
   header after <config.h>.  Every check prints "ok N - what" or
   "not ok N - what (got X, want Y)"; a skip prints "ok N - # SKIP why".
   The last line is "NAME: N passed, M failed, K skipped"; the exit
   status is 1 if any check failed.  sys_test_start makes the scratch
   directory, a mkdtemp directory under /tmp removed at the end.

   Header only: every function is static and may go unused in a driver.  */

#ifndef NC_TESTS_SYS_TEST_H
#define NC_TESTS_SYS_TEST_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "cli/shortpath.h"
#include "copy/engine.h"
#include "sys/calls.h"
#include "sys/fdroom.h"
#include "syscall_nr.h"

/* gnulib replaces fcntl (rpl_fcntl); the reference here is glibc's own.  */
#undef fcntl

/* A function of this header, which a driver may leave unused.  */
#define SYS_TEST_FN static __attribute__ ((unused))

/* ------------------------------------------------------------------ */
/* Reporting: tap.h, under the names the drivers have always used.  */

#include "tap.h"

#define check tap_check
#define check_int tap_check_int
#define skip tap_skip
#define die tap_die
#define fmt_val tap_fmt_val

/* errno is set to this before every sys_* call: the wrappers must leave
   it alone.  */
#define SENTINEL 31337

/* A sys_* result SYS (errno afterwards SYS_ERRNO, which must still be
   SENTINEL) against the libc result LIB with errno LIB_ERRNO: equal values,
   or -SYS == LIB_ERRNO when libc failed.  With ANY_FD, for calls that
   return a new descriptor, any two descriptors match too.  */
SYS_TEST_FN bool cmp_result (bool any_fd, long long sys, int sys_errno,
                        long long lib, int lib_errno, const char *fmt, ...)
  __attribute__ ((format (printf, 6, 7)));

SYS_TEST_FN bool
cmp_result (bool any_fd, long long sys, int sys_errno, long long lib,
            int lib_errno, const char *fmt, ...)
{
  char detail[240], g[64], w[64];
  long long want = lib == -1 ? -(long long) lib_errno : lib;
  bool ok = sys == want || (any_fd && sys >= 0 && want >= 0);
  va_list ap;
  if (sys_errno != SENTINEL)
    {
      ok = false;
      snprintf (detail, sizeof detail, "errno changed from %d to %d",
                SENTINEL, sys_errno);
    }
  else
    snprintf (detail, sizeof detail, "got %s, want %s (libc)",
              fmt_val (sys, g, sizeof g), fmt_val (want, w, sizeof w));
  va_start (ap, fmt);
  tap_vreport (ok, detail, fmt, ap);
  va_end (ap);
  return ok;
}

#define cmp_sys_libc(...) cmp_result (false, __VA_ARGS__)
#define cmp_fd(...) cmp_result (true, __VA_ARGS__)

/* Run a sys_* expression with errno set to SENTINEL; store the result in
   RES and errno afterwards in ERR.  */
#define SYS(res, err, expr) \
  do { errno = SENTINEL; (res) = (long long) (expr); (err) = errno; } \
  while (0)

/* Run a libc expression with errno cleared.  */
#define LIBC(res, err, expr) \
  do { errno = 0; (res) = (long long) (expr); (err) = errno; } while (0)

/* Both, one after the other, and compare: for calls with no side effect
   that would make the second answer differently.  */
#define CMP(sysexpr, libexpr, ...) \
  do \
    { \
      long long s_, l_; \
      int se_, le_; \
      SYS (s_, se_, sysexpr); \
      LIBC (l_, le_, libexpr); \
      cmp_sys_libc (s_, se_, l_, le_, __VA_ARGS__); \
    } \
  while (0)


/* libc's fstatat, the reference of the stat tests, with st_rdev from
   libc's statx where libc's stat misplaces it.  qemu-user 7.2 does for
   sparc64: its translation of struct stat gives /dev/null's st_rdev as
   0x10300000000, not 0x103, where statx's fields, the same on every
   architecture, pass through as they are.  Found once, on /dev/null,
   and said in a note.  */
SYS_TEST_FN int
ref_fstatat (int fd, const char *path, struct stat *st, int flags)
{
  static int rdev_from_statx = -1;
  if (rdev_from_statx < 0)
    {
      struct stat probe;
      struct statx sx;
      rdev_from_statx = 0;
      if (fstatat (AT_FDCWD, "/dev/null", &probe, 0) == 0
          && statx (AT_FDCWD, "/dev/null", 0, STATX_TYPE, &sx) == 0
          && probe.st_rdev != makedev (sx.stx_rdev_major, sx.stx_rdev_minor))
        {
          rdev_from_statx = 1;
          printf ("# libc's stat gives /dev/null st_rdev %#llx, its statx "
                  "%u:%u: the reference st_rdev is statx's\n",
                  (unsigned long long) probe.st_rdev, sx.stx_rdev_major,
                  sx.stx_rdev_minor);
        }
    }
  int ret = fstatat (fd, path, st, flags);
  struct statx sx;
  if (ret == 0 && rdev_from_statx
      && statx (fd, path, flags, STATX_TYPE, &sx) == 0)
    st->st_rdev = makedev (sx.stx_rdev_major, sx.stx_rdev_minor);
  return ret;
}

/* Compare the fields of two struct stat; report the first difference.  */
SYS_TEST_FN bool
cmp_stat (const struct stat *a, const struct stat *b, bool times,
          const char *what)
{
  char detail[200] = "";
  const char *field = NULL;
  long long x = 0, y = 0;
#define FIELD(f) \
  if (!field && (long long) a->f != (long long) b->f) \
    { field = #f; x = (long long) a->f; y = (long long) b->f; }
  FIELD (st_dev);
  FIELD (st_ino);
  FIELD (st_mode);
  FIELD (st_nlink);
  FIELD (st_uid);
  FIELD (st_gid);
  FIELD (st_rdev);
  FIELD (st_size);
  FIELD (st_blocks);
  FIELD (st_blksize);
  if (times)
    {
      FIELD (st_mtim.tv_sec);
      FIELD (st_mtim.tv_nsec);
      FIELD (st_atim.tv_sec);
      FIELD (st_atim.tv_nsec);
      FIELD (st_ctim.tv_sec);
      FIELD (st_ctim.tv_nsec);
    }
#undef FIELD
  if (field)
    snprintf (detail, sizeof detail, "%s: got %lld, want %lld", field, x, y);
  return check (!field, detail, "%s: stat fields as libc's", what);
}

#define CMP_FD(sysexpr, libexpr, sysfd, libfd, ...) \
  do \
    { \
      long long s_, l_; \
      int se_, le_; \
      SYS (s_, se_, sysexpr); \
      LIBC (l_, le_, libexpr); \
      cmp_fd (s_, se_, l_, le_, __VA_ARGS__); \
      (sysfd) = (int) s_; \
      (libfd) = (int) l_; \
    } \
  while (0)

/* For arguments that libc's function would not survive under ASan, whose
   interceptors read the caller's memory first (ppoll's pollfd array, say),
   or with _FORTIFY_SOURCE (Debian's package build), whose checks abort on
   a size larger than the object (ppoll's nfds): there the sys_* result is
   compared with the errno plain libc gives, WANT.  */
#if defined __SANITIZE_ADDRESS__ || __USE_FORTIFY_LEVEL > 0
# define CMP_BADMEM(sysexpr, libexpr, want, ...) \
  do \
    { \
      long long s_; \
      int se_; \
      SYS (s_, se_, sysexpr); \
      cmp_sys_libc (s_, se_, -1, (want), __VA_ARGS__); \
    } \
  while (0)
#else
# define CMP_BADMEM(sysexpr, libexpr, want, ...) \
  CMP (sysexpr, libexpr, __VA_ARGS__)
#endif

/* ------------------------------------------------------------------ */
/* Scratch directory and helpers.  */

static const char *scratch;
static int dfd = -1;            /* the scratch directory */

/* Create NAME in the scratch directory with LEN bytes of DATA.  */
SYS_TEST_FN void
make_file (const char *name, const void *data, size_t len)
{
  int fd = openat (dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    die (name);
  if (len && write (fd, data, len) != (ssize_t) len)
    die (name);
  close (fd);
}

SYS_TEST_FN int
open_rd (const char *name)
{
  return xopenat (dfd, name, O_RDONLY);
}

SYS_TEST_FN int
open_rw (const char *name)
{
  return xopenat (dfd, name, O_RDWR | O_CREAT);
}

/* Setup I/O that must work: read exactly LEN bytes.  */
SYS_TEST_FN void
xread (int fd, void *buf, size_t len)
{
  if (read (fd, buf, len) != (ssize_t) len)
    die ("read");
}

/* A setup link that must exist: NAME in the scratch directory to TARGET.  */
SYS_TEST_FN void
xsymlinkat (const char *target, const char *name)
{
  if (symlinkat (target, dfd, name) < 0)
    die (name);
}

#define GiB ((off_t) 1 << 30)

/* Run FN (pass 0: the wrapper, 1: libc) in a child; return its result as
   0 or -errno, or -1000 if the child did not exit normally.  */
SYS_TEST_FN long
in_child (long (*fn) (int pass, int arg), int pass, int arg)
{
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    die ("fork");
  if (pid == 0)
    {
      long r = fn (pass, arg);
      _exit (r < 0 ? (int) (r < -254 ? 255 : -r) : r > 0 ? 254 : 0);
    }
  int status;
  if (waitpid (pid, &status, 0) < 0 || !WIFEXITED (status))
    return -1000;
  int code = WEXITSTATUS (status);
  return code == 254 ? 1 : -code;
}

/* Every driver's first step: the scratch directory, opened as dfd.  */
SYS_TEST_FN void
sys_test_start (void)
{
  scratch = tap_scratch ("/tmp");
  if (!scratch)
    die ("mkdtemp");
  umask (022);
  dfd = open (scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    die (scratch);
}

#endif
