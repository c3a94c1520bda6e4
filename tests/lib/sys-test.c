/* sys-test.c -- the C test driver for lib/: each sys_* wrapper against the
   libc function called with the same arguments (the copy engine has its
   own, copy-test.c).

   Every check prints "ok N - what" or "not ok N - what (got X, want Y)";
   a skip prints "ok N - # SKIP why".  The last line is
   "sys-test: N passed, M failed, K skipped"; the exit status is 1 if any
   check failed.  Scratch files live in a mkdtemp directory under /tmp,
   removed at the end.  */

#include <config.h>

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

/* ------------------------------------------------------------------ */
/* Reporting: tap.h, under the names this driver has always used.  */

#define TAP_NAME "sys-test"
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
static bool cmp_result (bool any_fd, long long sys, int sys_errno,
                        long long lib, int lib_errno, const char *fmt, ...)
  __attribute__ ((format (printf, 6, 7)));

static bool
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
static int
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
static bool
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
static void
make_file (const char *name, const void *data, size_t len)
{
  int fd = openat (dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    die (name);
  if (len && write (fd, data, len) != (ssize_t) len)
    die (name);
  close (fd);
}

static int
open_rd (const char *name)
{
  return xopenat (dfd, name, O_RDONLY);
}

static int
open_rw (const char *name)
{
  return xopenat (dfd, name, O_RDWR | O_CREAT);
}

/* Setup I/O that must work: read exactly LEN bytes.  */
static void
xread (int fd, void *buf, size_t len)
{
  if (read (fd, buf, len) != (ssize_t) len)
    die ("read");
}

/* A setup link that must exist: NAME in the scratch directory to TARGET.  */
static void
xsymlinkat (const char *target, const char *name)
{
  if (symlinkat (target, dfd, name) < 0)
    die (name);
}

#define GiB ((off_t) 1 << 30)

/* ------------------------------------------------------------------ */
/* nc_errno.  */

static void
test_nc_errno (void)
{
  errno = SENTINEL;
  long r = nc_errno (-ENOENT);
  int e = errno;
  check_int (r, -1, "nc_errno(-ENOENT) returns -1");
  check_int (e, ENOENT, "nc_errno(-ENOENT) sets errno to ENOENT");
  errno = SENTINEL;
  r = nc_errno (42);
  e = errno;
  check_int (r, 42, "nc_errno(42) returns 42");
  check_int (e, SENTINEL, "nc_errno(42) leaves errno alone");
  errno = SENTINEL;
  r = nc_errno (0);
  check_int (r, 0, "nc_errno(0) returns 0");
}

/* ------------------------------------------------------------------ */
/* Plain I/O: read, write, close, pipe2, lseek, fsync.  */

static void
test_plain_io (void)
{
  long long s, l;
  int se, le;
  char buf[64];
  static const char hello[] = "hello, world\n";

  /* write: a file written by sys_write and one by write, same bytes.  */
  int fs = open_rw ("w-sys"), fl = open_rw ("w-libc");
  SYS (s, se, sys_write (fs, hello, sizeof hello - 1));
  LIBC (l, le, write (fl, hello, sizeof hello - 1));
  cmp_sys_libc (s, se, l, le, "sys_write to a file");
  check_int (fd_pos (fs), fd_pos (fl), "sys_write advances the offset");

  /* read back from the start.  */
  lseek (fs, 0, SEEK_SET);
  lseek (fl, 0, SEEK_SET);
  char b2[64];
  memset (buf, 0, sizeof buf);
  memset (b2, 0, sizeof b2);
  SYS (s, se, sys_read (fs, buf, sizeof buf));
  LIBC (l, le, read (fl, b2, sizeof b2));
  cmp_sys_libc (s, se, l, le, "sys_read of a file");
  check (memcmp (buf, hello, sizeof hello - 1) == 0, "bytes differ",
         "sys_read returns the bytes written");
  CMP (sys_read (fs, buf, sizeof buf), read (fl, b2, sizeof b2),
       "sys_read at EOF");

  /* error cases.  */
  CMP (sys_read (-1, buf, sizeof buf), read (-1, buf, sizeof buf),
       "sys_read on fd -1: EBADF");
  int ro = open_rd ("w-sys");
  CMP (sys_write (ro, "x", 1), write (ro, "x", 1),
       "sys_write on a read-only fd: EBADF");
  int dir = openat (dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  CMP (sys_read (dir, buf, sizeof buf), read (dir, buf, sizeof buf),
       "sys_read on a directory: EISDIR");
  close (dir);
  close (ro);

  /* fsync.  */
  CMP (sys_fsync (fs), fsync (fl), "sys_fsync on a file");
  CMP (sys_fsync (-1), fsync (-1), "sys_fsync on fd -1: EBADF");

  /* close.  */
  SYS (s, se, sys_close (fs));
  LIBC (l, le, close (fl));
  cmp_sys_libc (s, se, l, le, "sys_close of an open fd");
  CMP (sys_close (fs), close (fl), "sys_close of a closed fd: EBADF");

  /* pipe2.  */
  int ps[2] = { -1, -1 }, pl[2] = { -1, -1 };
  SYS (s, se, sys_pipe2 (ps, O_CLOEXEC | O_NONBLOCK));
  LIBC (l, le, pipe2 (pl, O_CLOEXEC | O_NONBLOCK));
  cmp_sys_libc (s, se, l, le, "sys_pipe2 (O_CLOEXEC|O_NONBLOCK)");
  check_int (fcntl (ps[0], F_GETFD), fcntl (pl[0], F_GETFD),
             "sys_pipe2: FD_CLOEXEC as libc's");
  check_int (fcntl (ps[1], F_GETFL), fcntl (pl[1], F_GETFL),
             "sys_pipe2: file status flags as libc's");
  CMP (sys_read (ps[0], buf, 1), read (pl[0], buf, 1),
       "sys_read of an empty non-blocking pipe: EAGAIN");
  CMP (sys_write (ps[1], "abc", 3), write (pl[1], "abc", 3),
       "sys_write into a pipe");
  CMP (sys_read (ps[0], buf, sizeof buf), read (pl[0], b2, sizeof b2),
       "sys_read from a pipe");
  check (memcmp (buf, "abc", 3) == 0, "bytes differ",
         "sys_read from a pipe: the bytes written");
  CMP (sys_lseek (ps[0], 0, SEEK_SET), lseek (pl[0], 0, SEEK_SET),
       "sys_lseek on a pipe: ESPIPE");
  close (ps[0]);
  close (ps[1]);
  close (pl[0]);
  close (pl[1]);
  int bad[2];
  CMP (sys_pipe2 (bad, 0x4), pipe2 (bad, 0x4),
       "sys_pipe2 with an invalid flag: EINVAL");
  CMP (sys_pipe2 (NULL, 0), pipe2 (NULL, 0),
       "sys_pipe2 with a NULL array: EFAULT");

  /* lseek on a sparse file: 6 GiB long, 4 KiB of data at 5 GiB.  */
  int sp = open_rw ("sparse");
  if (ftruncate (sp, 6 * GiB) < 0)
    die ("ftruncate");
  memset (buf, 'S', sizeof buf);
  if (pwrite (sp, buf, sizeof buf, 5 * GiB) != (ssize_t) sizeof buf)
    die ("pwrite sparse");
  int sp2 = open_rd ("sparse");
  CMP (sys_lseek (sp, 5 * GiB + 3, SEEK_SET),
       lseek (sp2, 5 * GiB + 3, SEEK_SET),
       "sys_lseek SEEK_SET to 5 GiB + 3");
  check_int (lseek (sp, 0, SEEK_CUR), 5 * GiB + 3,
             "sys_lseek: the file offset is 5 GiB + 3");
  memset (b2, 0, sizeof b2);
  SYS (s, se, sys_read (sp, b2, 4));
  check (s == 4 && memcmp (b2, "SSSS", 4) == 0, "wrong bytes",
         "sys_read after sys_lseek past 4 GiB reads the data there");
  CMP (sys_lseek (sp, 0, SEEK_END), lseek (sp2, 0, SEEK_END),
       "sys_lseek SEEK_END of a 6 GiB file");
  CMP (sys_lseek (sp, -GiB, SEEK_END), lseek (sp2, -GiB, SEEK_END),
       "sys_lseek SEEK_END - 1 GiB");
  CMP (sys_lseek (sp, 0, SEEK_DATA), lseek (sp2, 0, SEEK_DATA),
       "sys_lseek SEEK_DATA from 0 of a sparse file");
  CMP (sys_lseek (sp, 5 * GiB, SEEK_HOLE), lseek (sp2, 5 * GiB, SEEK_HOLE),
       "sys_lseek SEEK_HOLE from 5 GiB");
  CMP (sys_lseek (sp, 6 * GiB, SEEK_DATA), lseek (sp2, 6 * GiB, SEEK_DATA),
       "sys_lseek SEEK_DATA at EOF: ENXIO");
  CMP (sys_lseek (sp, -1, SEEK_SET), lseek (sp2, -1, SEEK_SET),
       "sys_lseek to a negative offset: EINVAL");
  CMP (sys_lseek (sp, 0, 42), lseek (sp2, 0, 42),
       "sys_lseek with whence 42: EINVAL");
  CMP (sys_lseek (-1, 0, SEEK_SET), lseek (-1, 0, SEEK_SET),
       "sys_lseek on fd -1: EBADF");
  CMP (sys_lseek (sp, 0, SEEK_CUR), lseek (sp2, 0, SEEK_CUR),
       "sys_lseek SEEK_CUR after the failures");
  close (sp);
  close (sp2);
}

/* ------------------------------------------------------------------ */
/* openat.  */

/* The flags and inode of two descriptors agree.  */
static void
cmp_open_fds (int sfd, int lfd, const char *what)
{
  if (sfd < 0 || lfd < 0)
    return;
  check_int (fcntl (sfd, F_GETFL), fcntl (lfd, F_GETFL),
             "%s: F_GETFL as libc's", what);
  check_int (fcntl (sfd, F_GETFD), fcntl (lfd, F_GETFD),
             "%s: F_GETFD as libc's", what);
  struct stat a, b;
  fstat (sfd, &a);
  fstat (lfd, &b);
  check_int (a.st_ino, b.st_ino, "%s: same inode as libc's", what);
}

static void
test_openat (void)
{
  int sfd, lfd;

  make_file ("exists", "data", 4);
  CMP_FD (sys_openat (dfd, "exists", O_RDONLY | O_CLOEXEC, 0),
          openat (dfd, "exists", O_RDONLY | O_CLOEXEC), sfd, lfd,
          "sys_openat of an existing file");
  cmp_open_fds (sfd, lfd, "sys_openat O_RDONLY|O_CLOEXEC");
  close (sfd);
  close (lfd);

  CMP_FD (sys_openat (dfd, "exists", O_RDWR | O_APPEND | O_NONBLOCK, 0),
          openat (dfd, "exists", O_RDWR | O_APPEND | O_NONBLOCK), sfd, lfd,
          "sys_openat O_RDWR|O_APPEND|O_NONBLOCK");
  cmp_open_fds (sfd, lfd, "sys_openat O_RDWR|O_APPEND|O_NONBLOCK");
  close (sfd);
  close (lfd);

  CMP_FD (sys_openat (dfd, "missing", O_RDONLY, 0),
          openat (dfd, "missing", O_RDONLY), sfd, lfd,
          "sys_openat of a missing file: ENOENT");
  CMP_FD (sys_openat (dfd, "exists", O_RDONLY | O_DIRECTORY, 0),
          openat (dfd, "exists", O_RDONLY | O_DIRECTORY), sfd, lfd,
          "sys_openat O_DIRECTORY of a file: ENOTDIR");
  CMP_FD (sys_openat (dfd, "exists", O_WRONLY | O_CREAT | O_EXCL, 0600),
          openat (dfd, "exists", O_WRONLY | O_CREAT | O_EXCL, 0600), sfd,
          lfd, "sys_openat O_CREAT|O_EXCL of an existing file: EEXIST");
  CMP_FD (sys_openat (-1, "exists", O_RDONLY, 0),
          openat (-1, "exists", O_RDONLY), sfd, lfd,
          "sys_openat relative to fd -1: EBADF");
  CMP_FD (sys_openat (dfd, "missing/x", O_WRONLY | O_CREAT, 0600),
          openat (dfd, "missing/x", O_WRONLY | O_CREAT, 0600), sfd, lfd,
          "sys_openat O_CREAT in a missing directory: ENOENT");

  /* O_CREAT with a mode: the same mode after the umask.  */
  CMP_FD (sys_openat (dfd, "new-sys", O_WRONLY | O_CREAT | O_EXCL, 0641),
          openat (dfd, "new-libc", O_WRONLY | O_CREAT | O_EXCL, 0641), sfd,
          lfd, "sys_openat O_CREAT|O_EXCL of a new file");
  if (sfd >= 0 && lfd >= 0)
    {
      struct stat a, b;
      fstat (sfd, &a);
      fstat (lfd, &b);
      check_int (a.st_mode, b.st_mode, "sys_openat O_CREAT: mode as libc's");
      close (sfd);
      close (lfd);
    }

  /* A file larger than 4 GiB: 32-bit needs O_LARGEFILE.  */
  CMP_FD (sys_openat (dfd, "sparse", O_RDONLY, 0),
          openat (dfd, "sparse", O_RDONLY), sfd, lfd,
          "sys_openat of a 6 GiB file");
  cmp_open_fds (sfd, lfd, "sys_openat of a 6 GiB file");
  if (sfd >= 0)
    close (sfd);
  if (lfd >= 0)
    close (lfd);
}

/* ------------------------------------------------------------------ */
/* fstatat, fstat, statx.  */

static void
test_stat (void)
{
  struct stat a, b;
  long long s, l;
  int se, le;

  if (symlinkat ("exists", dfd, "lnk") < 0)
    die ("symlinkat");
  if (mkdirat (dfd, "adir", 0755) < 0)
    die ("mkdirat");

  static const struct
  {
    const char *path;
    int flags;
    const char *what;
  } cases[] = {
    { "exists", 0, "sys_fstatat of a file" },
    { "sparse", 0, "sys_fstatat of a sparse 6 GiB file" },
    { "adir", 0, "sys_fstatat of a directory" },
    { "lnk", 0, "sys_fstatat of a symlink, followed" },
    { "lnk", AT_SYMLINK_NOFOLLOW, "sys_fstatat AT_SYMLINK_NOFOLLOW" },
    { ".", 0, "sys_fstatat of ." },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      memset (&a, 0x55, sizeof a);
      memset (&b, 0xaa, sizeof b);
      SYS (s, se, sys_fstatat (dfd, cases[i].path, &a, cases[i].flags));
      LIBC (l, le, ref_fstatat (dfd, cases[i].path, &b, cases[i].flags));
      if (cmp_sys_libc (s, se, l, le, "%s", cases[i].what) && s == 0)
        cmp_stat (&a, &b, true, cases[i].what);
    }

  /* /dev/null: st_rdev.  */
  SYS (s, se, sys_fstatat (AT_FDCWD, "/dev/null", &a, 0));
  LIBC (l, le, ref_fstatat (AT_FDCWD, "/dev/null", &b, 0));
  if (cmp_sys_libc (s, se, l, le, "sys_fstatat of /dev/null") && s == 0)
    {
      cmp_stat (&a, &b, false, "sys_fstatat of /dev/null");
      check_int (major (a.st_rdev), 1, "sys_fstatat /dev/null: major 1");
      check_int (minor (a.st_rdev), 3, "sys_fstatat /dev/null: minor 3");
    }

  /* AT_EMPTY_PATH on a descriptor.  */
  int fd = open_rd ("exists");
  SYS (s, se, sys_fstatat (fd, "", &a, AT_EMPTY_PATH));
  LIBC (l, le, fstatat (fd, "", &b, AT_EMPTY_PATH));
  if (cmp_sys_libc (s, se, l, le, "sys_fstatat AT_EMPTY_PATH") && s == 0)
    cmp_stat (&a, &b, true, "sys_fstatat AT_EMPTY_PATH");
  SYS (s, se, sys_fstat (fd, &a));
  LIBC (l, le, fstat (fd, &b));
  if (cmp_sys_libc (s, se, l, le, "sys_fstat of a file") && s == 0)
    cmp_stat (&a, &b, true, "sys_fstat of a file");

  int p[2];
  if (pipe (p) < 0)
    die ("pipe");
  SYS (s, se, sys_fstat (p[0], &a));
  LIBC (l, le, fstat (p[0], &b));
  if (cmp_sys_libc (s, se, l, le, "sys_fstat of a pipe") && s == 0)
    {
      cmp_stat (&a, &b, false, "sys_fstat of a pipe");
      check (S_ISFIFO (a.st_mode), "not S_IFIFO", "sys_fstat: a pipe is S_IFIFO");
    }
  close (p[0]);
  close (p[1]);

  /* AT_FDCWD with AT_EMPTY_PATH: the working directory.  */
  SYS (s, se, sys_fstatat (AT_FDCWD, "", &a, AT_EMPTY_PATH));
  LIBC (l, le, fstatat (AT_FDCWD, "", &b, AT_EMPTY_PATH));
  if (cmp_sys_libc (s, se, l, le, "sys_fstatat(AT_FDCWD, \"\", AT_EMPTY_PATH)")
      && s == 0)
    cmp_stat (&a, &b, false, "sys_fstatat(AT_FDCWD, \"\", AT_EMPTY_PATH)");
  /* The statx-only sync flags and AT_NO_AUTOMOUNT are accepted by both.  */
  SYS (s, se, sys_fstatat (dfd, "exists", &a,
                           AT_STATX_DONT_SYNC | AT_NO_AUTOMOUNT));
  LIBC (l, le, fstatat (dfd, "exists", &b,
                        AT_STATX_DONT_SYNC | AT_NO_AUTOMOUNT));
  if (cmp_sys_libc (s, se, l, le,
                    "sys_fstatat AT_STATX_DONT_SYNC|AT_NO_AUTOMOUNT") && s == 0)
    cmp_stat (&a, &b, true, "sys_fstatat AT_STATX_DONT_SYNC|AT_NO_AUTOMOUNT");

  /* Errors.  */
  CMP (sys_fstatat (dfd, "missing", &a, 0), fstatat (dfd, "missing", &b, 0),
       "sys_fstatat of a missing file: ENOENT");
  CMP (sys_fstatat (dfd, "exists/x", &a, 0),
       fstatat (dfd, "exists/x", &b, 0),
       "sys_fstatat under a file: ENOTDIR");
  CMP (sys_fstatat (dfd, "exists", &a, 0x4), fstatat (dfd, "exists", &b, 0x4),
       "sys_fstatat with invalid flags: EINVAL");
  CMP (sys_fstatat (dfd, "", &a, 0), fstatat (dfd, "", &b, 0),
       "sys_fstatat of \"\" without AT_EMPTY_PATH: ENOENT");
  CMP (sys_fstatat (-1, "exists", &a, 0), fstatat (-1, "exists", &b, 0),
       "sys_fstatat relative to fd -1: EBADF");
  CMP (sys_fstat (-1, &a), fstat (-1, &b), "sys_fstat of fd -1: EBADF");
  close (fd);
  CMP (sys_fstat (fd, &a), fstat (fd, &b), "sys_fstat of a closed fd: EBADF");
  /* AT_FDCWD is no descriptor for fstat: glibc says EBADF.  */
  CMP (sys_fstat (AT_FDCWD, &a), fstat (AT_FDCWD, &b),
       "sys_fstat(AT_FDCWD): EBADF");

  /* statx.  */
  static const char *const paths[] = { "exists", "sparse", "adir", "lnk" };
  for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
    {
      struct statx x, y;
      int flags = i == 3 ? AT_SYMLINK_NOFOLLOW : 0;
      memset (&x, 0x55, sizeof x);
      memset (&y, 0xaa, sizeof y);
      SYS (s, se, sys_statx (dfd, paths[i], flags,
                             STATX_BASIC_STATS | STATX_BTIME, &x));
      LIBC (l, le, statx (dfd, paths[i], flags,
                          STATX_BASIC_STATS | STATX_BTIME, &y));
      if (!cmp_sys_libc (s, se, l, le, "sys_statx of %s", paths[i]) || s)
        continue;
      const char *field = NULL;
#define SXF(f) if (!field && x.f != y.f) field = #f
      SXF (stx_mask);
      SXF (stx_ino);
      SXF (stx_mode);
      SXF (stx_nlink);
      SXF (stx_uid);
      SXF (stx_gid);
      SXF (stx_size);
      SXF (stx_blocks);
      SXF (stx_blksize);
      SXF (stx_attributes);
      SXF (stx_dev_major);
      SXF (stx_dev_minor);
      SXF (stx_rdev_major);
      SXF (stx_rdev_minor);
      SXF (stx_mtime.tv_sec);
      SXF (stx_mtime.tv_nsec);
      SXF (stx_btime.tv_sec);
      SXF (stx_btime.tv_nsec);
#undef SXF
      check (!field, field ? field : "", "sys_statx of %s: fields as libc's",
             paths[i]);
    }
  struct statx x;
  CMP (sys_statx (dfd, "missing", 0, STATX_BASIC_STATS, &x),
       statx (dfd, "missing", 0, STATX_BASIC_STATS, &x),
       "sys_statx of a missing file: ENOENT");
  CMP (sys_statx (dfd, "exists", 0, STATX__RESERVED, &x),
       statx (dfd, "exists", 0, STATX__RESERVED, &x),
       "sys_statx with a reserved mask bit: EINVAL");
  CMP (sys_statx (dfd, "exists", 0x4, STATX_BASIC_STATS, &x),
       statx (dfd, "exists", 0x4, STATX_BASIC_STATS, &x),
       "sys_statx with invalid flags: EINVAL");
}

/* ------------------------------------------------------------------ */
/* symlinkat, readlinkat, linkat, renameat2, unlinkat, mkdirat, mknodat.  */

/* The inode number of NAME (not followed), or -1.  */
static long long
ino_of (const char *name)
{
  struct stat st;
  if (fstatat (dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
    return -1;
  return st.st_ino;
}

static bool
exists (const char *name)
{
  struct stat st;
  return fstatat (dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* The first bytes of NAME, as a string.  */
static const char *
contents (const char *name, char *buf, size_t size)
{
  int fd = openat (dfd, name, O_RDONLY | O_CLOEXEC);
  ssize_t n = fd < 0 ? 0 : read (fd, buf, size - 1);
  buf[n > 0 ? n : 0] = 0;
  if (fd >= 0)
    close (fd);
  return buf;
}

static void
test_links (void)
{
  long long s, l;
  int se, le;
  char a[256], b[256];

  /* symlinkat.  */
  SYS (s, se, sys_symlinkat ("target-name", dfd, "sl-sys"));
  LIBC (l, le, symlinkat ("target-name", dfd, "sl-libc"));
  cmp_sys_libc (s, se, l, le, "sys_symlinkat of a new name");
  CMP (sys_symlinkat ("other", dfd, "sl-sys"),
       symlinkat ("other", dfd, "sl-libc"),
       "sys_symlinkat onto an existing name: EEXIST");
  CMP (sys_symlinkat ("t", dfd, "missing/sl"),
       symlinkat ("t", dfd, "missing/sl"),
       "sys_symlinkat in a missing directory: ENOENT");
  CMP (sys_symlinkat ("", dfd, "sl-empty"), symlinkat ("", dfd, "sl-empty"),
       "sys_symlinkat with an empty target: ENOENT");
  CMP (sys_symlinkat ("t", -1, "sl-x"), symlinkat ("t", -1, "sl-x"),
       "sys_symlinkat relative to fd -1: EBADF");

  /* readlinkat.  */
  memset (a, 0, sizeof a);
  memset (b, 0, sizeof b);
  SYS (s, se, sys_readlinkat (dfd, "sl-sys", a, sizeof a));
  LIBC (l, le, readlinkat (dfd, "sl-libc", b, sizeof b));
  cmp_sys_libc (s, se, l, le, "sys_readlinkat of a symlink");
  check (strcmp (a, "target-name") == 0, a,
         "sys_readlinkat returns the target");
  memset (a, 0, sizeof a);
  memset (b, 0, sizeof b);
  CMP (sys_readlinkat (dfd, "sl-sys", a, 4), readlinkat (dfd, "sl-sys", b, 4),
       "sys_readlinkat into a 4-byte buffer: truncated");
  check (memcmp (a, b, sizeof a) == 0, a,
         "sys_readlinkat truncated: same bytes as libc");
  CMP (sys_readlinkat (dfd, "exists", a, sizeof a),
       readlinkat (dfd, "exists", b, sizeof b),
       "sys_readlinkat of a regular file: EINVAL");
  CMP (sys_readlinkat (dfd, "missing", a, sizeof a),
       readlinkat (dfd, "missing", b, sizeof b),
       "sys_readlinkat of a missing file: ENOENT");
  CMP (sys_readlinkat (dfd, "sl-sys", a, 0),
       readlinkat (dfd, "sl-sys", b, 0),
       "sys_readlinkat with a 0 length: EINVAL");
  CMP (sys_readlinkat (AT_FDCWD, "/proc/self/exe", a, sizeof a),
       readlinkat (AT_FDCWD, "/proc/self/exe", b, sizeof b),
       "sys_readlinkat of /proc/self/exe");

  /* linkat.  */
  make_file ("orig", "orig", 4);
  SYS (s, se, sys_linkat (dfd, "orig", dfd, "hl-sys", 0));
  LIBC (l, le, linkat (dfd, "orig", dfd, "hl-libc", 0));
  cmp_sys_libc (s, se, l, le, "sys_linkat of a file");
  check_int (ino_of ("hl-sys"), ino_of ("orig"),
             "sys_linkat: the new name is the same inode");
  struct stat st;
  fstatat (dfd, "orig", &st, 0);
  check_int (st.st_nlink, 3, "sys_linkat: st_nlink is 3 after two links");
  CMP (sys_linkat (dfd, "orig", dfd, "hl-sys", 0),
       linkat (dfd, "orig", dfd, "hl-libc", 0),
       "sys_linkat onto an existing name: EEXIST");
  CMP (sys_linkat (dfd, "missing", dfd, "hl-x", 0),
       linkat (dfd, "missing", dfd, "hl-x", 0),
       "sys_linkat of a missing file: ENOENT");
  CMP (sys_linkat (dfd, "adir", dfd, "hl-dir", 0),
       linkat (dfd, "adir", dfd, "hl-dir", 0),
       "sys_linkat of a directory: EPERM");
  CMP (sys_linkat (dfd, "orig", dfd, "hl-x", 0x1),
       linkat (dfd, "orig", dfd, "hl-x", 0x1),
       "sys_linkat with invalid flags: EINVAL");
  /* A symlink: by default the link is to the symlink itself; with
     AT_SYMLINK_FOLLOW to its target.  */
  SYS (s, se, sys_linkat (dfd, "lnk", dfd, "hl-lnk-sys", 0));
  LIBC (l, le, linkat (dfd, "lnk", dfd, "hl-lnk-libc", 0));
  cmp_sys_libc (s, se, l, le, "sys_linkat of a symlink");
  check_int (ino_of ("hl-lnk-sys"), ino_of ("lnk"),
             "sys_linkat of a symlink links the symlink");
  SYS (s, se, sys_linkat (dfd, "lnk", dfd, "hl-fol-sys", AT_SYMLINK_FOLLOW));
  LIBC (l, le, linkat (dfd, "lnk", dfd, "hl-fol-libc", AT_SYMLINK_FOLLOW));
  cmp_sys_libc (s, se, l, le, "sys_linkat AT_SYMLINK_FOLLOW");
  check_int (ino_of ("hl-fol-sys"), ino_of ("exists"),
             "sys_linkat AT_SYMLINK_FOLLOW links the target");

  /* renameat2.  */
  make_file ("ra-sys", "A", 1);
  make_file ("ra-libc", "A", 1);
  SYS (s, se, sys_renameat2 (dfd, "ra-sys", dfd, "rb-sys", 0));
  LIBC (l, le, renameat2 (dfd, "ra-libc", dfd, "rb-libc", 0));
  cmp_sys_libc (s, se, l, le, "sys_renameat2 flags 0");
  check (!exists ("ra-sys") && exists ("rb-sys"), "names wrong",
         "sys_renameat2: the old name is gone, the new one there");
  make_file ("rc", "C", 1);
  CMP (sys_renameat2 (dfd, "rb-sys", dfd, "rc", RENAME_NOREPLACE),
       renameat2 (dfd, "rb-libc", dfd, "rc", RENAME_NOREPLACE),
       "sys_renameat2 RENAME_NOREPLACE onto an existing name: EEXIST");
  check (strcmp (contents ("rc", a, sizeof a), "C") == 0, a,
         "sys_renameat2 RENAME_NOREPLACE left the target alone");
  SYS (s, se, sys_renameat2 (dfd, "rb-sys", dfd, "rc", RENAME_EXCHANGE));
  check_int (s, 0, "sys_renameat2 RENAME_EXCHANGE");
  check (strcmp (contents ("rc", a, sizeof a), "A") == 0
         && strcmp (contents ("rb-sys", b, sizeof b), "C") == 0,
         "contents not swapped", "sys_renameat2 RENAME_EXCHANGE swaps");
  LIBC (l, le, renameat2 (dfd, "rb-libc", dfd, "rc", RENAME_EXCHANGE));
  cmp_sys_libc (s, SENTINEL, l, le, "libc renameat2 RENAME_EXCHANGE agrees");
  CMP (sys_renameat2 (dfd, "rc", dfd, "nothere", RENAME_EXCHANGE),
       renameat2 (dfd, "rc", dfd, "nothere", RENAME_EXCHANGE),
       "sys_renameat2 RENAME_EXCHANGE with a missing target: ENOENT");
  CMP (sys_renameat2 (dfd, "rc", dfd, "rd",
                      RENAME_NOREPLACE | RENAME_EXCHANGE),
       renameat2 (dfd, "rc", dfd, "rd", RENAME_NOREPLACE | RENAME_EXCHANGE),
       "sys_renameat2 NOREPLACE|EXCHANGE: EINVAL");
  CMP (sys_renameat2 (dfd, "missing", dfd, "rd", 0),
       renameat2 (dfd, "missing", dfd, "rd", 0),
       "sys_renameat2 of a missing file: ENOENT");
  CMP (sys_renameat2 (dfd, "rc", dfd, "rd", 0x80000000u),
       renameat2 (dfd, "rc", dfd, "rd", 0x80000000u),
       "sys_renameat2 with an unknown flag: EINVAL");

  /* mkdirat.  */
  SYS (s, se, sys_mkdirat (dfd, "md-sys", 0751));
  LIBC (l, le, mkdirat (dfd, "md-libc", 0751));
  cmp_sys_libc (s, se, l, le, "sys_mkdirat");
  struct stat x, y;
  fstatat (dfd, "md-sys", &x, 0);
  fstatat (dfd, "md-libc", &y, 0);
  check_int (x.st_mode, y.st_mode, "sys_mkdirat: mode as libc's");
  CMP (sys_mkdirat (dfd, "md-sys", 0755), mkdirat (dfd, "md-libc", 0755),
       "sys_mkdirat of an existing name: EEXIST");
  CMP (sys_mkdirat (dfd, "missing/d", 0755), mkdirat (dfd, "missing/d", 0755),
       "sys_mkdirat in a missing directory: ENOENT");
  make_file ("md-sys/f", "", 0);
  make_file ("md-libc/f", "", 0);

  /* unlinkat.  */
  CMP (sys_unlinkat (dfd, "md-sys", 0), unlinkat (dfd, "md-libc", 0),
       "sys_unlinkat of a directory without AT_REMOVEDIR: EISDIR");
  CMP (sys_unlinkat (dfd, "md-sys", AT_REMOVEDIR),
       unlinkat (dfd, "md-libc", AT_REMOVEDIR),
       "sys_unlinkat AT_REMOVEDIR of a non-empty directory: ENOTEMPTY");
  SYS (s, se, sys_unlinkat (dfd, "md-sys/f", 0));
  LIBC (l, le, unlinkat (dfd, "md-libc/f", 0));
  cmp_sys_libc (s, se, l, le, "sys_unlinkat of a file");
  check (!exists ("md-sys/f"), "still there", "sys_unlinkat removed the file");
  CMP (sys_unlinkat (dfd, "md-sys/f", 0), unlinkat (dfd, "md-libc/f", 0),
       "sys_unlinkat of a missing file: ENOENT");
  CMP (sys_unlinkat (dfd, "exists", AT_REMOVEDIR),
       unlinkat (dfd, "exists", AT_REMOVEDIR),
       "sys_unlinkat AT_REMOVEDIR of a file: ENOTDIR");
  CMP (sys_unlinkat (dfd, "exists", 0x1), unlinkat (dfd, "exists", 0x1),
       "sys_unlinkat with invalid flags: EINVAL");
  SYS (s, se, sys_unlinkat (dfd, "md-sys", AT_REMOVEDIR));
  LIBC (l, le, unlinkat (dfd, "md-libc", AT_REMOVEDIR));
  cmp_sys_libc (s, se, l, le, "sys_unlinkat AT_REMOVEDIR of an empty directory");
  check (!exists ("md-sys"), "still there",
         "sys_unlinkat AT_REMOVEDIR removed the directory");
  SYS (s, se, sys_unlinkat (dfd, "sl-sys", 0));
  LIBC (l, le, unlinkat (dfd, "sl-libc", 0));
  cmp_sys_libc (s, se, l, le, "sys_unlinkat of a symlink");
}

static void
test_mknodat (void)
{
  long long s, l;
  int se, le;
  struct stat x, y;

  SYS (s, se, sys_mknodat (dfd, "fifo-sys", S_IFIFO | 0640, 0));
  LIBC (l, le, mknodat (dfd, "fifo-libc", S_IFIFO | 0640, 0));
  cmp_sys_libc (s, se, l, le, "sys_mknodat of a FIFO");
  fstatat (dfd, "fifo-sys", &x, 0);
  fstatat (dfd, "fifo-libc", &y, 0);
  check_int (x.st_mode, y.st_mode, "sys_mknodat FIFO: mode as libc's");
  CMP (sys_mknodat (dfd, "fifo-sys", S_IFIFO | 0640, 0),
       mknodat (dfd, "fifo-libc", S_IFIFO | 0640, 0),
       "sys_mknodat onto an existing name: EEXIST");
  CMP (sys_mknodat (dfd, "missing/fifo", S_IFIFO | 0640, 0),
       mknodat (dfd, "missing/fifo", S_IFIFO | 0640, 0),
       "sys_mknodat in a missing directory: ENOENT");
  CMP (sys_mknodat (dfd, "bad-type", 0170000 | 0600, 0),
       mknodat (dfd, "bad-type", 0170000 | 0600, 0),
       "sys_mknodat with an invalid file type: EINVAL");
  SYS (s, se, sys_mknodat (dfd, "reg-sys", S_IFREG | 0600, 0));
  LIBC (l, le, mknodat (dfd, "reg-libc", S_IFREG | 0600, 0));
  cmp_sys_libc (s, se, l, le, "sys_mknodat of a regular file");

  /* A dev_t that does not fit the kernel's 32 bits: EINVAL both.  */
  CMP (sys_mknodat (dfd, "big1", S_IFCHR | 0600, makedev (0x1000, 0)),
       mknodat (dfd, "big1", S_IFCHR | 0600, makedev (0x1000, 0)),
       "sys_mknodat with major 4096 (dev_t beyond 32 bits): EINVAL");
  CMP (sys_mknodat (dfd, "big2", S_IFCHR | 0600, makedev (1, 0x100000)),
       mknodat (dfd, "big2", S_IFCHR | 0600, makedev (1, 0x100000)),
       "sys_mknodat with minor 2^20 (dev_t beyond 32 bits): EINVAL");

  if (geteuid () != 0)
    {
      CMP (sys_mknodat (dfd, "null-sys", S_IFCHR | 0600, makedev (1, 3)),
           mknodat (dfd, "null-libc", S_IFCHR | 0600, makedev (1, 3)),
           "sys_mknodat of a char device as non-root: EPERM");
      skip ("sys_mknodat of char devices: not root");
      return;
    }
  static const struct
  {
    unsigned int maj, min;
  } devs[] = { { 1, 3 }, { 259, 70000 }, { 4095, 0xfffff } };
  for (size_t i = 0; i < sizeof devs / sizeof devs[0]; i++)
    {
      char ns[32], nl[32];
      dev_t dev = makedev (devs[i].maj, devs[i].min);
      snprintf (ns, sizeof ns, "chr%zu-sys", i);
      snprintf (nl, sizeof nl, "chr%zu-libc", i);
      SYS (s, se, sys_mknodat (dfd, ns, S_IFCHR | 0600, dev));
      LIBC (l, le, mknodat (dfd, nl, S_IFCHR | 0600, dev));
      if (!cmp_sys_libc (s, se, l, le, "sys_mknodat of char device %u:%u",
                         devs[i].maj, devs[i].min) || s)
        continue;
      ref_fstatat (dfd, ns, &x, 0);
      ref_fstatat (dfd, nl, &y, 0);
      check_int (x.st_rdev, y.st_rdev, "sys_mknodat %u:%u: st_rdev as libc's",
                 devs[i].maj, devs[i].min);
      check (major (x.st_rdev) == devs[i].maj
             && minor (x.st_rdev) == devs[i].min, "wrong major:minor",
             "sys_mknodat %u:%u: major and minor", devs[i].maj, devs[i].min);
      SYS (s, se, sys_fstatat (dfd, ns, &x, 0));
      check_int (x.st_rdev, y.st_rdev,
                 "sys_fstatat of char device %u:%u: st_rdev as libc's",
                 devs[i].maj, devs[i].min);
    }
}

/* ------------------------------------------------------------------ */
/* fchownat, fchmodat, faccessat.  */

static void
test_owner_mode (void)
{
  long long s, l;
  int se, le;
  struct stat x, y;
  bool root = geteuid () == 0;
  uid_t uid = root ? 1234 : getuid ();
  gid_t gid = root ? 5678 : getgid ();

  make_file ("own-sys", "o", 1);
  make_file ("own-libc", "o", 1);
  xsymlinkat ("own-sys", "own-lnk-sys");
  xsymlinkat ("own-libc", "own-lnk-libc");

  /* fchownat.  */
  SYS (s, se, sys_fchownat (dfd, "own-sys", uid, gid, 0));
  LIBC (l, le, fchownat (dfd, "own-libc", uid, gid, 0));
  cmp_sys_libc (s, se, l, le, "sys_fchownat to %u:%u", (unsigned) uid,
                (unsigned) gid);
  fstatat (dfd, "own-sys", &x, 0);
  fstatat (dfd, "own-libc", &y, 0);
  check (x.st_uid == y.st_uid && x.st_gid == y.st_gid && x.st_uid == uid
         && x.st_gid == gid, "owner differs",
         "sys_fchownat: owner as libc's");
  SYS (s, se, sys_fchownat (dfd, "own-sys", (uid_t) -1, (gid_t) -1, 0));
  LIBC (l, le, fchownat (dfd, "own-libc", (uid_t) -1, (gid_t) -1, 0));
  cmp_sys_libc (s, se, l, le, "sys_fchownat to -1:-1");
  fstatat (dfd, "own-sys", &x, 0);
  check (x.st_uid == uid && x.st_gid == gid, "owner changed",
         "sys_fchownat -1:-1 leaves the owner alone");
  if (root)
    {
      SYS (s, se, sys_fchownat (dfd, "own-lnk-sys", 4321, 8765,
                                AT_SYMLINK_NOFOLLOW));
      LIBC (l, le, fchownat (dfd, "own-lnk-libc", 4321, 8765,
                             AT_SYMLINK_NOFOLLOW));
      cmp_sys_libc (s, se, l, le, "sys_fchownat AT_SYMLINK_NOFOLLOW");
      fstatat (dfd, "own-lnk-sys", &x, AT_SYMLINK_NOFOLLOW);
      fstatat (dfd, "own-sys", &y, 0);
      check (x.st_uid == 4321 && x.st_gid == 8765 && y.st_uid == uid,
             "wrong owners",
             "sys_fchownat AT_SYMLINK_NOFOLLOW changes the link only");
    }
  else
    {
      CMP (sys_fchownat (dfd, "own-sys", 0, 0, 0),
           fchownat (dfd, "own-libc", 0, 0, 0),
           "sys_fchownat to root as non-root: EPERM");
      skip ("sys_fchownat AT_SYMLINK_NOFOLLOW to another owner: not root");
    }
  CMP (sys_fchownat (dfd, "missing", uid, gid, 0),
       fchownat (dfd, "missing", uid, gid, 0),
       "sys_fchownat of a missing file: ENOENT");
  CMP (sys_fchownat (dfd, "own-sys", uid, gid, 0x1),
       fchownat (dfd, "own-libc", uid, gid, 0x1),
       "sys_fchownat with invalid flags: EINVAL");
  CMP (sys_fchownat (-1, "own-sys", uid, gid, 0),
       fchownat (-1, "own-libc", uid, gid, 0),
       "sys_fchownat relative to fd -1: EBADF");

  /* fchmodat.  */
  SYS (s, se, sys_fchmodat (dfd, "own-sys", 0604, 0));
  LIBC (l, le, fchmodat (dfd, "own-libc", 0604, 0));
  cmp_sys_libc (s, se, l, le, "sys_fchmodat 0604");
  fstatat (dfd, "own-sys", &x, 0);
  fstatat (dfd, "own-libc", &y, 0);
  check_int (x.st_mode, y.st_mode, "sys_fchmodat: mode as libc's");
  check_int (x.st_mode & 07777, 0604, "sys_fchmodat: mode is 0604");
  SYS (s, se, sys_fchmodat (dfd, "own-lnk-sys", 0640, 0));
  LIBC (l, le, fchmodat (dfd, "own-lnk-libc", 0640, 0));
  cmp_sys_libc (s, se, l, le, "sys_fchmodat through a symlink");
  fstatat (dfd, "own-sys", &x, 0);
  check_int (x.st_mode & 07777, 0640,
             "sys_fchmodat through a symlink changes the target");
  SYS (s, se, sys_fchmodat (dfd, "own-sys", 04750, AT_SYMLINK_NOFOLLOW));
  LIBC (l, le, fchmodat (dfd, "own-libc", 04750, AT_SYMLINK_NOFOLLOW));
  cmp_sys_libc (s, se, l, le,
                "sys_fchmodat AT_SYMLINK_NOFOLLOW of a regular file");
  fstatat (dfd, "own-sys", &x, 0);
  fstatat (dfd, "own-libc", &y, 0);
  check_int (x.st_mode, y.st_mode,
             "sys_fchmodat AT_SYMLINK_NOFOLLOW of a file: mode as libc's");
  SYS (s, se, sys_fchmodat (dfd, "own-lnk-sys", 0600, AT_SYMLINK_NOFOLLOW));
  LIBC (l, le, fchmodat (dfd, "own-lnk-libc", 0600, AT_SYMLINK_NOFOLLOW));
  cmp_sys_libc (s, se, l, le,
                "sys_fchmodat AT_SYMLINK_NOFOLLOW of a symlink");
  fstatat (dfd, "own-sys", &x, 0);
  fstatat (dfd, "own-libc", &y, 0);
  check_int (x.st_mode, y.st_mode,
             "sys_fchmodat AT_SYMLINK_NOFOLLOW of a symlink: target as libc's");
  CMP (sys_fchmodat (dfd, "missing", 0600, 0),
       fchmodat (dfd, "missing", 0600, 0),
       "sys_fchmodat of a missing file: ENOENT");
  CMP (sys_fchmodat (dfd, "missing", 0600, AT_SYMLINK_NOFOLLOW),
       fchmodat (dfd, "missing", 0600, AT_SYMLINK_NOFOLLOW),
       "sys_fchmodat AT_SYMLINK_NOFOLLOW of a missing file: ENOENT");
  CMP (sys_fchmodat (dfd, "own-sys", 0600, 0x1),
       fchmodat (dfd, "own-libc", 0600, 0x1),
       "sys_fchmodat with invalid flags: EINVAL");

  /* faccessat.  */
  if (fchmodat (dfd, "own-sys", 0644, 0) < 0)
    die ("fchmodat");
  static const struct
  {
    const char *path;
    int mode, flags;
    const char *what;
  } acc[] = {
    { "own-sys", R_OK, 0, "R_OK on a 0644 file" },
    { "own-sys", R_OK | W_OK, 0, "R_OK|W_OK on a 0644 file" },
    { "own-sys", X_OK, 0, "X_OK on a 0644 file: EACCES" },
    { "own-sys", F_OK, 0, "F_OK" },
    { "missing", F_OK, 0, "F_OK of a missing file: ENOENT" },
    { "own-sys", R_OK, AT_EACCESS, "R_OK, AT_EACCESS" },
    { "own-sys", X_OK, AT_EACCESS, "X_OK, AT_EACCESS: EACCES" },
    { "adir", X_OK, AT_EACCESS, "X_OK on a directory, AT_EACCESS" },
    { "lnk", F_OK, AT_SYMLINK_NOFOLLOW, "AT_SYMLINK_NOFOLLOW on a symlink" },
    { "dangling", F_OK, 0, "F_OK through a dangling symlink: ENOENT" },
    { "dangling", F_OK, AT_SYMLINK_NOFOLLOW,
      "AT_SYMLINK_NOFOLLOW on a dangling symlink" },
    { "own-sys", 8, 0, "mode 8: EINVAL" },
    { "own-sys", R_OK, 0x1, "invalid flags: EINVAL" },
    { "exists/x", F_OK, 0, "under a file: ENOTDIR" },
  };
  xsymlinkat ("nowhere", "dangling");
  for (size_t i = 0; i < sizeof acc / sizeof acc[0]; i++)
    CMP (sys_faccessat (dfd, acc[i].path, acc[i].mode, acc[i].flags),
         faccessat (dfd, acc[i].path, acc[i].mode, acc[i].flags),
         "sys_faccessat %s", acc[i].what);
  CMP (sys_faccessat (-1, "own-sys", R_OK, 0),
       faccessat (-1, "own-sys", R_OK, 0),
       "sys_faccessat relative to fd -1: EBADF");
}

/* ------------------------------------------------------------------ */
/* ftruncate, fchmod and the xattr calls: the descriptor-based calls
   xcp sets a copy's size and attributes with.  */

static void
test_fd_attrs (void)
{
  long long s, l;
  int se, le;
  struct stat x, y;
  int fs = open_rw ("fd-sys"), fl = open_rw ("fd-libc");

  /* ftruncate: past 4 GiB, where 32-bit architectures split the length
     into two registers (ftruncate64).  */
  SYS (s, se, sys_ftruncate (fs, 5 * GiB + 7));
  LIBC (l, le, ftruncate (fl, 5 * GiB + 7));
  cmp_sys_libc (s, se, l, le, "sys_ftruncate to 5 GiB + 7");
  fstat (fs, &x);
  fstat (fl, &y);
  check_int (x.st_size, y.st_size, "sys_ftruncate: size as libc's");
  check_int (x.st_size, 5 * GiB + 7, "sys_ftruncate: size is 5 GiB + 7");
  check_int (fd_pos (fs), 0, "sys_ftruncate leaves the offset alone");
  CMP (sys_ftruncate (fs, 3), ftruncate (fl, 3), "sys_ftruncate to 3");
  fstat (fs, &x);
  check_int (x.st_size, 3, "sys_ftruncate shrinks to 3");
  CMP (sys_ftruncate (fs, -1), ftruncate (fl, -1),
       "sys_ftruncate to -1: EINVAL");
  CMP (sys_ftruncate (-1, 0), ftruncate (-1, 0),
       "sys_ftruncate on fd -1: EBADF");
  int ro = open_rd ("fd-sys");
  CMP (sys_ftruncate (ro, 0), ftruncate (ro, 0),
       "sys_ftruncate on a read-only fd");
  close (ro);

  /* fchmod.  */
  SYS (s, se, sys_fchmod (fs, 04751));
  LIBC (l, le, fchmod (fl, 04751));
  cmp_sys_libc (s, se, l, le, "sys_fchmod 04751");
  fstat (fs, &x);
  fstat (fl, &y);
  check_int (x.st_mode, y.st_mode, "sys_fchmod: mode as libc's");
  check_int (x.st_mode & 07777, 04751, "sys_fchmod: mode is 04751");
  CMP (sys_fchmod (-1, 0600), fchmod (-1, 0600),
       "sys_fchmod on fd -1: EBADF");
  int pfs = openat (dfd, "fd-sys", O_PATH | O_CLOEXEC);
  CMP (sys_fchmod (pfs, 0600), fchmod (pfs, 0600),
       "sys_fchmod on an O_PATH fd: EBADF");
  close (pfs);

  /* fsetxattr, fgetxattr, flistxattr: user.* attributes, which the
     scratch file system may not have.  */
  static const char val[] = "value of the attribute";
  SYS (s, se, sys_fsetxattr (fs, "user.nc", val, sizeof val, 0));
  LIBC (l, le, fsetxattr (fl, "user.nc", val, sizeof val, 0));
  if (l < 0 && (le == EOPNOTSUPP || le == EPERM))
    {
      cmp_sys_libc (s, se, l, le, "sys_fsetxattr without user xattrs");
      skip ("xattr calls: %s has no user.* attributes", scratch);
    }
  else
    {
      cmp_sys_libc (s, se, l, le, "sys_fsetxattr user.nc");
      CMP (sys_fsetxattr (fs, "user.nc", val, sizeof val, XATTR_CREATE),
           fsetxattr (fl, "user.nc", val, sizeof val, XATTR_CREATE),
           "sys_fsetxattr XATTR_CREATE of an existing one: EEXIST");
      CMP (sys_fsetxattr (fs, "user.none", val, 1, XATTR_REPLACE),
           fsetxattr (fl, "user.none", val, 1, XATTR_REPLACE),
           "sys_fsetxattr XATTR_REPLACE of a missing one: ENODATA");
      CMP (sys_fsetxattr (fs, "bogus.ns", val, 1, 0),
           fsetxattr (fl, "bogus.ns", val, 1, 0),
           "sys_fsetxattr in an unknown namespace: EOPNOTSUPP");
      CMP (sys_fgetxattr (fs, "user.nc", NULL, 0),
           fgetxattr (fl, "user.nc", NULL, 0),
           "sys_fgetxattr size query");
      char b1[64], b2[64];
      memset (b1, 0, sizeof b1);
      CMP (sys_fgetxattr (fs, "user.nc", b1, sizeof b1),
           fgetxattr (fl, "user.nc", b2, sizeof b2), "sys_fgetxattr");
      check (memcmp (b1, val, sizeof val) == 0, "value differs",
             "sys_fgetxattr: the value set");
      CMP (sys_fgetxattr (fs, "user.nc", b1, 3),
           fgetxattr (fl, "user.nc", b2, 3),
           "sys_fgetxattr into too small a buffer: ERANGE");
      CMP (sys_fgetxattr (fs, "user.none", b1, sizeof b1),
           fgetxattr (fl, "user.none", b2, sizeof b2),
           "sys_fgetxattr of a missing one: ENODATA");
      CMP (sys_flistxattr (fs, NULL, 0), flistxattr (fl, NULL, 0),
           "sys_flistxattr size query");
      memset (b1, 0, sizeof b1);
      memset (b2, 0, sizeof b2);
      CMP (sys_flistxattr (fs, b1, sizeof b1), flistxattr (fl, b2, sizeof b2),
           "sys_flistxattr");
      check (memcmp (b1, b2, sizeof b1) == 0, "lists differ",
             "sys_flistxattr: the list as libc's");
      CMP (sys_flistxattr (fs, b1, 2), flistxattr (fl, b2, 2),
           "sys_flistxattr into too small a buffer: ERANGE");
      CMP (sys_fremovexattr (fs, "user.nc"), fremovexattr (fl, "user.nc"),
           "sys_fremovexattr");
      CMP (sys_fgetxattr (fs, "user.nc", NULL, 0),
           fgetxattr (fl, "user.nc", NULL, 0),
           "sys_fremovexattr: the attribute is gone (ENODATA)");
      CMP (sys_fremovexattr (fs, "user.nc"), fremovexattr (fl, "user.nc"),
           "sys_fremovexattr of a missing one: ENODATA");
    }
  CMP (sys_fgetxattr (-1, "user.nc", NULL, 0),
       fgetxattr (-1, "user.nc", NULL, 0), "sys_fgetxattr on fd -1: EBADF");
  CMP (sys_flistxattr (-1, NULL, 0), flistxattr (-1, NULL, 0),
       "sys_flistxattr on fd -1: EBADF");
  CMP (sys_fsetxattr (-1, "user.nc", val, 1, 0),
       fsetxattr (-1, "user.nc", val, 1, 0), "sys_fsetxattr on fd -1: EBADF");
  CMP (sys_fremovexattr (-1, "user.nc"), fremovexattr (-1, "user.nc"),
       "sys_fremovexattr on fd -1: EBADF");
  close (fs);
  close (fl);
}

/* ------------------------------------------------------------------ */
/* utimensat.  */

static void
cmp_times (const char *ns, const char *nl, int flags, const char *what)
{
  struct stat x, y;
  fstatat (dfd, ns, &x, flags);
  fstatat (dfd, nl, &y, flags);
  check (x.st_atim.tv_sec == y.st_atim.tv_sec
         && x.st_atim.tv_nsec == y.st_atim.tv_nsec
         && x.st_mtim.tv_sec == y.st_mtim.tv_sec
         && x.st_mtim.tv_nsec == y.st_mtim.tv_nsec, "times differ",
         "%s: atime and mtime as libc's", what);
}

static void
test_utimensat (void)
{
  long long s, l;
  int se, le;
  struct stat x;

  make_file ("ut-sys", "u", 1);
  make_file ("ut-libc", "u", 1);
  struct timespec ts[2] = { { 1000000000, 123456789 },
                            { 1500000000, 987654321 } };
  SYS (s, se, sys_utimensat (dfd, "ut-sys", ts, 0));
  LIBC (l, le, utimensat (dfd, "ut-libc", ts, 0));
  cmp_sys_libc (s, se, l, le, "sys_utimensat with nanoseconds");
  fstatat (dfd, "ut-sys", &x, 0);
  check (x.st_atim.tv_sec == 1000000000 && x.st_atim.tv_nsec == 123456789
         && x.st_mtim.tv_sec == 1500000000 && x.st_mtim.tv_nsec == 987654321,
         "times not as set", "sys_utimensat: the times set, to the ns");
  cmp_times ("ut-sys", "ut-libc", 0, "sys_utimensat");

  if (sizeof (time_t) < 8)
    skip ("sys_utimensat after 2038: 32-bit time_t");
  else
    {
      struct timespec t2100[2] = { { 0, UTIME_OMIT },
                                   { (time_t) 4102444800LL, 500 } };
      SYS (s, se, sys_utimensat (dfd, "ut-sys", t2100, 0));
      LIBC (l, le, utimensat (dfd, "ut-libc", t2100, 0));
      cmp_sys_libc (s, se, l, le, "sys_utimensat to the year 2100");
      struct stat y;
      fstatat (dfd, "ut-sys", &x, 0);
      fstatat (dfd, "ut-libc", &y, 0);
      if ((long long) y.st_mtim.tv_sec != 4102444800LL)
        skip ("the file system does not keep the year 2100 (libc's file "
              "says %lld)", (long long) y.st_mtim.tv_sec);
      else
        {
          check_int ((long long) x.st_mtim.tv_sec, 4102444800LL,
                     "sys_utimensat: mtime is 4102444800 (2100-01-01)");
          check_int (x.st_mtim.tv_nsec, 500,
                     "sys_utimensat: mtime ns is 500");
          /* And read back through the wrappers: statx's 64-bit seconds
             on every architecture, and struct stat from them.  */
          struct statx sx;
          SYS (s, se, sys_statx (dfd, "ut-sys", 0, STATX_MTIME, &sx));
          check (s == 0 && sx.stx_mtime.tv_sec == 4102444800LL
                 && sx.stx_mtime.tv_nsec == 500, "not 4102444800.000000500",
                 "sys_statx reads the 2100 mtime back");
          struct stat z;
          SYS (s, se, sys_fstatat (dfd, "ut-sys", &z, 0));
          check (s == 0 && (long long) z.st_mtim.tv_sec == 4102444800LL,
                 "not 4102444800", "sys_fstatat reads the 2100 mtime back");
        }
      check_int (x.st_atim.tv_sec, 1000000000,
                 "sys_utimensat: UTIME_OMIT left atime alone");
      cmp_times ("ut-sys", "ut-libc", 0, "sys_utimensat 2100");
      struct timespec neg[2] = { { -1000000, 5 }, { 0, UTIME_OMIT } };
      SYS (s, se, sys_utimensat (dfd, "ut-sys", neg, 0));
      LIBC (l, le, utimensat (dfd, "ut-libc", neg, 0));
      cmp_sys_libc (s, se, l, le, "sys_utimensat to before 1970");
      cmp_times ("ut-sys", "ut-libc", 0, "sys_utimensat before 1970");
    }

  struct timespec now0;
  clock_gettime (CLOCK_REALTIME, &now0);
  struct timespec tn[2] = { { 0, UTIME_NOW }, { 0, UTIME_OMIT } };
  SYS (s, se, sys_utimensat (dfd, "ut-sys", tn, 0));
  check_int (s, 0, "sys_utimensat UTIME_NOW/UTIME_OMIT");
  fstatat (dfd, "ut-sys", &x, 0);
  check (x.st_atim.tv_sec >= now0.tv_sec - 2
         && x.st_atim.tv_sec <= now0.tv_sec + 2, "atime not now",
         "sys_utimensat UTIME_NOW: atime is now");
  check (sizeof (time_t) < 8 || x.st_mtim.tv_sec != now0.tv_sec,
         "mtime changed", "sys_utimensat UTIME_OMIT: mtime left alone");
  SYS (s, se, sys_utimensat (dfd, "ut-sys", NULL, 0));
  LIBC (l, le, utimensat (dfd, "ut-libc", NULL, 0));
  cmp_sys_libc (s, se, l, le, "sys_utimensat with NULL times");
  fstatat (dfd, "ut-sys", &x, 0);
  check (x.st_mtim.tv_sec >= now0.tv_sec - 2
         && x.st_mtim.tv_sec <= now0.tv_sec + 2, "mtime not now",
         "sys_utimensat NULL: mtime is now");

  /* A symlink itself.  */
  xsymlinkat ("ut-sys", "ut-lnk-sys");
  xsymlinkat ("ut-libc", "ut-lnk-libc");
  SYS (s, se, sys_utimensat (dfd, "ut-lnk-sys", ts, AT_SYMLINK_NOFOLLOW));
  LIBC (l, le, utimensat (dfd, "ut-lnk-libc", ts, AT_SYMLINK_NOFOLLOW));
  cmp_sys_libc (s, se, l, le, "sys_utimensat AT_SYMLINK_NOFOLLOW");
  cmp_times ("ut-lnk-sys", "ut-lnk-libc", AT_SYMLINK_NOFOLLOW,
             "sys_utimensat AT_SYMLINK_NOFOLLOW");
  fstatat (dfd, "ut-lnk-sys", &x, AT_SYMLINK_NOFOLLOW);
  check_int (x.st_mtim.tv_nsec, 987654321,
             "sys_utimensat AT_SYMLINK_NOFOLLOW set the link's mtime");

  /* A descriptor (path NULL is the kernel's futimens).  */
  int fd = open_rw ("ut-sys");
  SYS (s, se, sys_utimensat (fd, NULL, ts, 0));
  check_int (s, 0, "sys_utimensat(fd, NULL): futimens");
  fstatat (dfd, "ut-sys", &x, 0);
  check_int (x.st_mtim.tv_nsec, 987654321,
             "sys_utimensat(fd, NULL) set the mtime");
  close (fd);

  /* Errors.  */
  struct timespec bad[2] = { { 0, 1000000000 }, { 0, 0 } };
  CMP (sys_utimensat (dfd, "ut-sys", bad, 0),
       utimensat (dfd, "ut-libc", bad, 0),
       "sys_utimensat with tv_nsec 1e9: EINVAL");
  struct timespec bad2[2] = { { 0, 0 }, { 0, -1 } };
  CMP (sys_utimensat (dfd, "ut-sys", bad2, 0),
       utimensat (dfd, "ut-libc", bad2, 0),
       "sys_utimensat with tv_nsec -1: EINVAL");
  CMP (sys_utimensat (dfd, "missing", ts, 0),
       utimensat (dfd, "missing", ts, 0),
       "sys_utimensat of a missing file: ENOENT");
  CMP (sys_utimensat (dfd, "ut-sys", ts, 0x1),
       utimensat (dfd, "ut-libc", ts, 0x1),
       "sys_utimensat with invalid flags: EINVAL");
}

/* ------------------------------------------------------------------ */
/* getdents64.  */

struct dent
{
  char name[64];
  unsigned long long ino;
  unsigned char type;
};

static int
dent_cmp (const void *a, const void *b)
{
  return strcmp (((const struct dent *) a)->name,
                 ((const struct dent *) b)->name);
}

static void
test_getdents (void)
{
  long long s;
  int se;

  mkdirat (dfd, "gd", 0755);
  make_file ("gd/alpha", "a", 1);
  mkdirat (dfd, "gd/beta", 0755);
  xsymlinkat ("alpha", "gd/gamma");

  struct dent ours[16], theirs[16];
  size_t n_ours = 0, n_theirs = 0;
  bool ok_calls = true;
  int fd = openat (dfd, "gd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  /* A small buffer, so that it takes more than one call.  */
  union
  {
    struct nc_dirent64 d;
    char bytes[80];
  } buf;
  int calls = 0;
  for (;;)
    {
      SYS (s, se, sys_getdents64 (fd, buf.bytes, sizeof buf.bytes));
      calls++;
      if (s <= 0 || se != SENTINEL)
        {
          ok_calls = s == 0 && se == SENTINEL;
          break;
        }
      for (long long off = 0; off < s;)
        {
          struct nc_dirent64 *d = (struct nc_dirent64 *) (buf.bytes + off);
          if (n_ours < 16)
            {
              snprintf (ours[n_ours].name, sizeof ours[n_ours].name, "%.63s",
                        d->d_name);
              ours[n_ours].ino = d->d_ino;
              ours[n_ours].type = d->d_type;
              n_ours++;
            }
          off += d->d_reclen;
        }
    }
  check (ok_calls, "a call failed", "sys_getdents64 reads to the end (0)");
  check (calls > 2, "one call", "sys_getdents64 with an 80-byte buffer: "
         "more than one call");
  close (fd);

  DIR *dir = fdopendir (openat (dfd, "gd", O_RDONLY | O_DIRECTORY));
  struct dirent *e;
  while (dir && (e = readdir (dir)) && n_theirs < 16)
    {
      snprintf (theirs[n_theirs].name, sizeof theirs[n_theirs].name, "%.63s",
                e->d_name);
      theirs[n_theirs].ino = e->d_ino;
      theirs[n_theirs].type = e->d_type;
      n_theirs++;
    }
  if (dir)
    closedir (dir);
  qsort (ours, n_ours, sizeof ours[0], dent_cmp);
  qsort (theirs, n_theirs, sizeof theirs[0], dent_cmp);
  check_int (n_ours, 5, "sys_getdents64: 5 entries (3 and . and ..)");
  check_int (n_ours, n_theirs, "sys_getdents64: as many entries as readdir");
  bool same = n_ours == n_theirs;
  for (size_t i = 0; same && i < n_ours; i++)
    same = strcmp (ours[i].name, theirs[i].name) == 0
      && ours[i].ino == theirs[i].ino && ours[i].type == theirs[i].type;
  check (same, "names, inodes or types differ",
         "sys_getdents64: names, d_ino and d_type as readdir's");
  static const char *const want[] = { ".", "..", "alpha", "beta", "gamma" };
  static const unsigned char types[] = { DT_DIR, DT_DIR, DT_REG, DT_DIR,
                                         DT_LNK };
  same = n_ours == 5;
  for (size_t i = 0; same && i < 5; i++)
    same = strcmp (ours[i].name, want[i]) == 0 && ours[i].type == types[i];
  check (same, "wrong names or types",
         "sys_getdents64: . .. alpha beta gamma with their types");

  /* Errors, against libc's getdents64.  */
  char big[4096];
  fd = open_rd ("exists");
  CMP (sys_getdents64 (fd, big, sizeof big), getdents64 (fd, big, sizeof big),
       "sys_getdents64 of a regular file: ENOTDIR");
  close (fd);
  fd = openat (dfd, "gd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int fd2 = openat (dfd, "gd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  CMP (sys_getdents64 (fd, big, 8), getdents64 (fd2, big, 8),
       "sys_getdents64 with an 8-byte buffer: EINVAL");
  CMP (sys_getdents64 (fd, big, sizeof big),
       getdents64 (fd2, big, sizeof big),
       "sys_getdents64 with a 4 KiB buffer: all in one call");
  CMP (sys_getdents64 (fd, big, sizeof big),
       getdents64 (fd2, big, sizeof big), "sys_getdents64 at the end: 0");
  close (fd);
  close (fd2);
  CMP (sys_getdents64 (-1, big, sizeof big), getdents64 (-1, big, sizeof big),
       "sys_getdents64 of fd -1: EBADF");
}

/* ------------------------------------------------------------------ */
/* splice, tee, vmsplice.  */

static void
test_splice (void)
{
  long long s, l;
  int se, le;
  int a[2], b[2], c[2];
  char buf[256], buf2[256];
  static const char msg[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  const size_t mlen = sizeof msg - 1;

  if (pipe2 (a, O_CLOEXEC) < 0 || pipe2 (b, O_CLOEXEC) < 0
      || pipe2 (c, O_CLOEXEC) < 0)
    die ("pipe2");

  /* vmsplice known bytes in, from two iovecs.  */
  struct iovec iov[2] = { { (void *) msg, 10 },
                          { (void *) (msg + 10), mlen - 10 } };
  SYS (s, se, sys_vmsplice (a[1], iov, 2, 0));
  LIBC (l, le, vmsplice (c[1], iov, 2, 0));
  cmp_sys_libc (s, se, l, le, "sys_vmsplice of 2 iovecs into a pipe");

  /* tee a -> b duplicates without consuming.  */
  SYS (s, se, sys_tee (a[0], b[1], 1000, 0));
  check_int (s, mlen, "sys_tee duplicates all the bytes");
  check_int (se, SENTINEL, "sys_tee leaves errno alone");
  int na = 0, nb = 0;
  ioctl (a[0], FIONREAD, &na);
  ioctl (b[0], FIONREAD, &nb);
  check (na == (int) mlen && nb == (int) mlen, "wrong counts",
         "sys_tee: both pipes hold the bytes");
  /* libc tee of the same data: c -> a second pipe.  */
  int d[2];
  if (pipe2 (d, O_CLOEXEC) < 0)
    die ("pipe2");
  LIBC (l, le, tee (c[0], d[1], 1000, 0));
  cmp_sys_libc (s, SENTINEL, l, le, "libc tee agrees with sys_tee");

  /* splice a -> file at an offset > 4 GiB, b -> file at its position.  */
  int f = open_rw ("spliced");
  off_t off = 5 * GiB + 17;
  SYS (s, se, sys_splice (a[0], NULL, f, &off, 1000, 0));
  check_int (s, mlen, "sys_splice pipe -> file at 5 GiB + 17");
  check_int (se, SENTINEL, "sys_splice leaves errno alone");
  check_int (off, 5 * GiB + 17 + mlen, "sys_splice advanced *off_out");
  check_int (fd_pos (f), 0, "sys_splice with an offset: file offset left at 0");
  memset (buf, 0, sizeof buf);
  check (read_at (f, buf, mlen, 5 * GiB + 17) == mlen
         && memcmp (buf, msg, mlen) == 0, "bytes differ",
         "sys_splice wrote the bytes at 5 GiB + 17");
  SYS (s, se, sys_splice (b[0], NULL, f, NULL, 5, 0));
  check_int (s, 5, "sys_splice pipe -> file at its offset, 5 bytes");
  check_int (fd_pos (f), 5, "sys_splice without an offset advanced the file");

  /* file -> pipe with an input offset; compare with libc splice.  */
  off_t in1 = 5 * GiB + 17 + 3, in2 = in1;
  SYS (s, se, sys_splice (f, &in1, c[1], NULL, 8, 0));
  LIBC (l, le, splice (f, &in2, d[1], NULL, 8, 0));
  cmp_sys_libc (s, se, l, le, "sys_splice file at 5 GiB -> pipe, 8 bytes");
  check_int (in1, in2, "sys_splice: *off_in as libc's");
  /* c holds msg (vmsplice) then the 8 bytes spliced; d, which libc's tee
     filled from c, holds msg then libc's 8 bytes.  */
  memset (buf, 0, sizeof buf);
  memset (buf2, 0, sizeof buf2);
  size_t got = read (c[0], buf, sizeof buf);
  size_t got2 = read (d[0], buf2, sizeof buf2);
  check (got == mlen + 8 && memcmp (buf + mlen, msg + 3, 8) == 0,
         "bytes differ", "sys_splice file -> pipe moved the right bytes");
  check (got == got2 && memcmp (buf, buf2, got) == 0, "bytes differ",
         "sys_splice and libc splice moved the same bytes");

  /* pipe -> pipe.  */
  xwrite (a[1], "pipe2pipe", 9);
  SYS (s, se, sys_splice (a[0], NULL, b[1], NULL, 100, SPLICE_F_NONBLOCK));
  check_int (s, 9, "sys_splice pipe -> pipe");

  /* Errors, against libc.  */
  int g = open_rw ("spliced2");
  off_t o1 = 0, o2 = 0;
  CMP (sys_splice (f, &o1, g, &o2, 10, 0), splice (f, &o1, g, &o2, 10, 0),
       "sys_splice file -> file: EINVAL");
  CMP (sys_splice (a[0], &o1, b[1], NULL, 10, 0),
       splice (a[0], &o1, b[1], NULL, 10, 0),
       "sys_splice with an offset on a pipe: ESPIPE");
  CMP (sys_splice (-1, NULL, b[1], NULL, 10, 0),
       splice (-1, NULL, b[1], NULL, 10, 0), "sys_splice from fd -1: EBADF");
  CMP (sys_splice (a[0], NULL, b[1], NULL, 10, SPLICE_F_NONBLOCK),
       splice (a[0], NULL, b[1], NULL, 10, SPLICE_F_NONBLOCK),
       "sys_splice from an empty pipe, SPLICE_F_NONBLOCK: EAGAIN");
  o1 = -1;
  CMP (sys_splice (f, &o1, b[1], NULL, 10, 0),
       splice (f, &o1, b[1], NULL, 10, 0),
       "sys_splice with a negative offset: EINVAL");
  CMP (sys_tee (f, b[1], 10, 0), tee (f, b[1], 10, 0),
       "sys_tee from a file: EINVAL");
  CMP (sys_tee (a[0], b[1], 10, SPLICE_F_NONBLOCK),
       tee (a[0], b[1], 10, SPLICE_F_NONBLOCK),
       "sys_tee from an empty pipe, SPLICE_F_NONBLOCK: EAGAIN");
  CMP (sys_tee (-1, b[1], 10, 0), tee (-1, b[1], 10, 0),
       "sys_tee from fd -1: EBADF");
  CMP (sys_vmsplice (f, iov, 2, 0), vmsplice (g, iov, 2, 0),
       "sys_vmsplice into a regular file: EBADF");
  CMP (sys_vmsplice (a[1], iov, 2000, 0), vmsplice (a[1], iov, 2000, 0),
       "sys_vmsplice with 2000 iovecs: EINVAL");

  /* vmsplice out of a pipe into user memory.  */
  xwrite (a[1], "gather", 6);
  char out[6];
  struct iovec oiov = { out, sizeof out };
  SYS (s, se, sys_vmsplice (a[0], &oiov, 1, 0));
  check (s == 6 && memcmp (out, "gather", 6) == 0, "wrong bytes",
         "sys_vmsplice from a pipe into memory");

  close (f);
  close (g);
  close (a[0]);
  close (a[1]);
  close (b[0]);
  close (b[1]);
  close (c[0]);
  close (c[1]);
  close (d[0]);
  close (d[1]);
}

/* ------------------------------------------------------------------ */
/* copy_file_range, sendfile.  */

static void
test_cfr_sendfile (void)
{
  long long s, l;
  int se, le;
  enum { N = 65536 };
  static unsigned char data[N], x[N], y[N];

  fill_random (data, N, 42);
  /* The source: sparse, with data at 0 and at 5 GiB.  */
  int src = open_rw ("cfr-src");
  if (pwrite (src, data, N, 0) != N || pwrite (src, data, N, 5 * GiB) != N)
    die ("pwrite cfr-src");

  /* copy_file_range at offsets > 4 GiB, both sides.  */
  int ds = open_rw ("cfr-sys"), dl = open_rw ("cfr-libc");
  off_t is = 5 * GiB + 100, il = is, os = 4 * GiB + 7, ol = os;
  SYS (s, se, sys_copy_file_range (src, &is, ds, &os, 30000, 0));
  LIBC (l, le, copy_file_range (src, &il, dl, &ol, 30000, 0));
  cmp_sys_libc (s, se, l, le,
                "sys_copy_file_range 30000 bytes from 5 GiB to 4 GiB");
  check (is == il && os == ol, "offsets differ",
         "sys_copy_file_range: offsets advanced as libc's");
  check_int (is, 5 * GiB + 100 + 30000,
             "sys_copy_file_range: *off_in advanced by 30000");
  check (fd_pos (src) == 0 && fd_pos (ds) == 0, "moved",
         "sys_copy_file_range with offsets: file offsets left at 0");
  check (read_at (ds, x, 30000, 4 * GiB + 7) == 30000
         && read_at (dl, y, 30000, 4 * GiB + 7) == 30000
         && memcmp (x, data + 100, 30000) == 0 && memcmp (x, y, 30000) == 0,
         "bytes differ", "sys_copy_file_range: bytes as libc's and source");

  /* Without offsets: the file positions.  */
  lseek (src, 1000, SEEK_SET);
  SYS (s, se, sys_copy_file_range (src, NULL, ds, NULL, 5000, 0));
  check_int (s, 5000, "sys_copy_file_range at the file offsets");
  check (fd_pos (src) == 6000 && fd_pos (ds) == 5000, "offsets",
         "sys_copy_file_range advanced both file offsets");
  check (read_at (ds, x, 5000, 0) == 5000
         && memcmp (x, data + 1000, 5000) == 0, "bytes differ",
         "sys_copy_file_range at the file offsets: bytes");

  /* At EOF: 0.  */
  off_t eof1 = 6 * GiB, eof2 = eof1;
  CMP (sys_copy_file_range (src, &eof1, ds, NULL, 100, 0),
       copy_file_range (src, &eof2, dl, NULL, 100, 0),
       "sys_copy_file_range past EOF: 0");

  /* Errors.  */
  int p[2];
  if (pipe2 (p, O_CLOEXEC) < 0)
    die ("pipe2");
  is = il = 0;
  CMP (sys_copy_file_range (src, &is, ds, NULL, 100, 1),
       copy_file_range (src, &il, dl, NULL, 100, 1),
       "sys_copy_file_range with flags 1: EINVAL");
  CMP (sys_copy_file_range (src, &is, p[1], NULL, 100, 0),
       copy_file_range (src, &il, p[1], NULL, 100, 0),
       "sys_copy_file_range into a pipe: EINVAL");
  CMP (sys_copy_file_range (-1, NULL, ds, NULL, 100, 0),
       copy_file_range (-1, NULL, dl, NULL, 100, 0),
       "sys_copy_file_range from fd -1: EBADF");
  int ro = open_rd ("cfr-sys");
  CMP (sys_copy_file_range (src, &is, ro, NULL, 100, 0),
       copy_file_range (src, &il, ro, NULL, 100, 0),
       "sys_copy_file_range into a read-only fd: EBADF");
  close (ro);
  is = il = -5;
  CMP (sys_copy_file_range (src, &is, ds, NULL, 100, 0),
       copy_file_range (src, &il, dl, NULL, 100, 0),
       "sys_copy_file_range from a negative offset: EINVAL");

  /* sendfile from an offset > 4 GiB into files.  */
  int ss = open_rw ("sf-sys"), sl = open_rw ("sf-libc");
  lseek (src, 123, SEEK_SET);
  is = il = 5 * GiB + 200;
  SYS (s, se, sys_sendfile (ss, src, &is, 40000));
  LIBC (l, le, sendfile (sl, src, &il, 40000));
  cmp_sys_libc (s, se, l, le, "sys_sendfile 40000 bytes from 5 GiB + 200");
  check_int (is, il, "sys_sendfile: *offset advanced as libc's");
  check_int (fd_pos (src), 123, "sys_sendfile with an offset: input "
             "file offset left alone");
  check_int (fd_pos (ss), 40000, "sys_sendfile advanced the output offset");
  check (read_at (ss, x, 40000, 0) == 40000
         && read_at (sl, y, 40000, 0) == 40000
         && memcmp (x, data + 200, 40000) == 0 && memcmp (x, y, 40000) == 0,
         "bytes differ", "sys_sendfile: bytes as libc's and source");
  /* Without an offset: the input's file position.  */
  SYS (s, se, sys_sendfile (ss, src, NULL, 1000));
  check_int (s, 1000, "sys_sendfile without an offset");
  check_int (fd_pos (src), 1123, "sys_sendfile without an offset advanced "
             "the input");
  check (read_at (ss, x, 1000, 40000) == 1000
         && memcmp (x, data + 123, 1000) == 0, "bytes differ",
         "sys_sendfile without an offset: bytes");
  /* Into a pipe.  */
  is = 7;
  SYS (s, se, sys_sendfile (p[1], src, &is, 3000));
  check_int (s, 3000, "sys_sendfile into a pipe");
  check (read_all (p[0], x, 3000) == 3000 && memcmp (x, data + 7, 3000) == 0,
         "bytes differ", "sys_sendfile into a pipe: bytes");
  /* Errors.  */
  is = il = 0;
  CMP (sys_sendfile (ss, p[0], NULL, 10), sendfile (sl, p[0], NULL, 10),
       "sys_sendfile from a pipe: EINVAL");
  CMP (sys_sendfile (ss, -1, &is, 10), sendfile (sl, -1, &il, 10),
       "sys_sendfile from fd -1: EBADF");
  ro = open_rd ("sf-sys");
  CMP (sys_sendfile (ro, src, &is, 10), sendfile (ro, src, &il, 10),
       "sys_sendfile into a read-only fd: EBADF");
  close (ro);
  is = il = -1;
  CMP (sys_sendfile (ss, src, &is, 10), sendfile (sl, src, &il, 10),
       "sys_sendfile from a negative offset: EINVAL");
  is = il = 7 * GiB;
  CMP (sys_sendfile (ss, src, &is, 10), sendfile (sl, src, &il, 10),
       "sys_sendfile from past EOF: 0");

  close (p[0]);
  close (p[1]);
  close (src);
  close (ds);
  close (dl);
  close (ss);
  close (sl);
}

/* ------------------------------------------------------------------ */
/* preadv, pwritev, preadv2, pwritev2.  */

static void
test_preadv (void)
{
  long long s, l;
  int se, le;
  static unsigned char data[8192];
  fill_random (data, sizeof data, 7);

  int fs = open_rw ("pv-sys"), fl = open_rw ("pv-libc");
  lseek (fs, 77, SEEK_SET);
  lseek (fl, 77, SEEK_SET);
  const off_t at = 5 * GiB + 3;
  struct iovec w[3] = { { data, 100 }, { data + 100, 1 },
                        { data + 101, 4000 } };

  SYS (s, se, sys_pwritev (fs, w, 3, at));
  LIBC (l, le, pwritev (fl, w, 3, at));
  cmp_sys_libc (s, se, l, le, "sys_pwritev of 3 iovecs at 5 GiB + 3");
  check_int (fd_pos (fs), 77, "sys_pwritev left the file offset alone");
  struct stat x, y;
  fstat (fs, &x);
  fstat (fl, &y);
  check_int (x.st_size, y.st_size, "sys_pwritev: file size as libc's");
  unsigned char r1[4101], r2[4101];
  check (read_at (fs, r1, 4101, at) == 4101
         && memcmp (r1, data, 4101) == 0, "bytes differ",
         "sys_pwritev wrote the bytes at 5 GiB + 3");

  memset (r1, 0, sizeof r1);
  memset (r2, 0, sizeof r2);
  struct iovec rs[3] = { { r1, 1 }, { r1 + 1, 2000 }, { r1 + 2001, 2100 } };
  struct iovec rl[3] = { { r2, 1 }, { r2 + 1, 2000 }, { r2 + 2001, 2100 } };
  SYS (s, se, sys_preadv (fs, rs, 3, at));
  LIBC (l, le, preadv (fl, rl, 3, at));
  cmp_sys_libc (s, se, l, le, "sys_preadv of 3 iovecs at 5 GiB + 3");
  check (memcmp (r1, data, 4101) == 0 && memcmp (r1, r2, 4101) == 0,
         "bytes differ", "sys_preadv: bytes as written and as libc's");
  check_int (fd_pos (fs), 77, "sys_preadv left the file offset alone");
  CMP (sys_preadv (fs, rs, 3, at + 4000), preadv (fl, rl, 3, at + 4000),
       "sys_preadv short at EOF");
  CMP (sys_preadv (fs, rs, 3, 6 * GiB), preadv (fl, rl, 3, 6 * GiB),
       "sys_preadv past EOF: 0");
  /* An offset whose low 32 bits are small and high ones not.  */
  CMP (sys_preadv (fs, rs, 3, 4 * GiB), preadv (fl, rl, 3, 4 * GiB),
       "sys_preadv at exactly 4 GiB (a hole)");

  /* Errors.  */
  CMP (sys_preadv (fs, rs, 3, -1), preadv (fl, rl, 3, -1),
       "sys_preadv at offset -1: EINVAL");
  CMP (sys_pwritev (fs, w, 3, -2), pwritev (fl, w, 3, -2),
       "sys_pwritev at offset -2: EINVAL");
  CMP (sys_preadv (-1, rs, 3, 0), preadv (-1, rl, 3, 0),
       "sys_preadv of fd -1: EBADF");
  /* volatile: GCC rejects a literal negative count.  */
  volatile int minus_one = -1;
  CMP (sys_preadv (fs, rs, minus_one, 0), preadv (fl, rl, minus_one, 0),
       "sys_preadv with iovcnt -1: EINVAL");
  int p[2];
  if (pipe2 (p, O_CLOEXEC) < 0)
    die ("pipe2");
  CMP (sys_pwritev (p[1], w, 3, 0), pwritev (p[1], w, 3, 0),
       "sys_pwritev into a pipe: ESPIPE");

  /* preadv2 / pwritev2 with flags 0 and offset -1 (the file position).
     A kernel before 4.6 has neither (nor has qemu-user 7): libc then
     falls back to preadv, the raw wrappers must not.  */
  SYS (s, se, sys_preadv2 (fs, rs, 1, 0, 0));
  if (s == -ENOSYS)
    {
      skip ("sys_preadv2, sys_pwritev2: the kernel has none (ENOSYS)");
      goto v2_done;
    }
  struct iovec w2[2] = { { (void *) "v2-", 3 }, { (void *) "write", 5 } };
  SYS (s, se, sys_pwritev2 (fs, w2, 2, 6 * GiB - 8, 0));
  LIBC (l, le, pwritev2 (fl, w2, 2, 6 * GiB - 8, 0));
  cmp_sys_libc (s, se, l, le, "sys_pwritev2 at 6 GiB - 8, flags 0");
  check_int (fd_pos (fs), 77, "sys_pwritev2 left the file offset alone");
  char b8[8];
  check (read_at (fs, b8, 8, 6 * GiB - 8) == 8 && memcmp (b8, "v2-write", 8) == 0,
         "bytes differ", "sys_pwritev2 wrote the bytes");
  memset (r1, 0, sizeof r1);
  memset (r2, 0, sizeof r2);
  SYS (s, se, sys_preadv2 (fs, rs, 3, 6 * GiB - 8, 0));
  LIBC (l, le, preadv2 (fl, rl, 3, 6 * GiB - 8, 0));
  cmp_sys_libc (s, se, l, le, "sys_preadv2 at 6 GiB - 8, flags 0");
  check (memcmp (r1, "v2-write", 8) == 0 && memcmp (r1, r2, 8) == 0,
         "bytes differ", "sys_preadv2: bytes");
  check_int (fd_pos (fs), 77, "sys_preadv2 left the file offset alone");

  lseek (fs, at, SEEK_SET);
  lseek (fl, at, SEEK_SET);
  SYS (s, se, sys_preadv2 (fs, rs, 3, -1, 0));
  LIBC (l, le, preadv2 (fl, rl, 3, -1, 0));
  cmp_sys_libc (s, se, l, le, "sys_preadv2 at offset -1 (the file offset)");
  check_int (fd_pos (fs), fd_pos (fl),
             "sys_preadv2 at -1 advanced the file offset as libc's");
  check (memcmp (r1, data, 4101) == 0, "bytes differ",
         "sys_preadv2 at -1 read at the file offset");
  lseek (fs, 10, SEEK_SET);
  lseek (fl, 10, SEEK_SET);
  SYS (s, se, sys_pwritev2 (fs, w2, 2, -1, 0));
  LIBC (l, le, pwritev2 (fl, w2, 2, -1, 0));
  cmp_sys_libc (s, se, l, le, "sys_pwritev2 at offset -1 (the file offset)");
  check_int (fd_pos (fs), 18, "sys_pwritev2 at -1 advanced the file offset");

  /* RWF_NOWAIT: EAGAIN or success, as libc.  */
  memset (r1, 0, sizeof r1);
  SYS (s, se, sys_preadv2 (fs, rs, 3, at, RWF_NOWAIT));
  LIBC (l, le, preadv2 (fl, rl, 3, at, RWF_NOWAIT));
  cmp_sys_libc (s, se, l, le, "sys_preadv2 RWF_NOWAIT of cached data");
  if (s > 0)
    check (memcmp (r1, data, s) == 0, "bytes differ",
           "sys_preadv2 RWF_NOWAIT: bytes");
  SYS (s, se, sys_pwritev2 (fs, w2, 2, 100, RWF_DSYNC));
  LIBC (l, le, pwritev2 (fl, w2, 2, 100, RWF_DSYNC));
  cmp_sys_libc (s, se, l, le, "sys_pwritev2 RWF_DSYNC");
  /* RWF_APPEND: written at the end whatever the offset.  */
  fstat (fs, &x);
  SYS (s, se, sys_pwritev2 (fs, w2, 2, 0, RWF_APPEND));
  LIBC (l, le, pwritev2 (fl, w2, 2, 0, RWF_APPEND));
  cmp_sys_libc (s, se, l, le, "sys_pwritev2 RWF_APPEND");
  check (read_at (fs, b8, 8, x.st_size) == 8 && memcmp (b8, "v2-write", 8) == 0,
         "not at the end", "sys_pwritev2 RWF_APPEND wrote at the end");

  /* Errors.  */
  CMP (sys_preadv2 (fs, rs, 3, 0, 0x40000000), preadv2 (fl, rl, 3, 0, 0x40000000),
       "sys_preadv2 with an unknown flag: EOPNOTSUPP");
  CMP (sys_pwritev2 (fs, w2, 2, 0, 0x40000000),
       pwritev2 (fl, w2, 2, 0, 0x40000000),
       "sys_pwritev2 with an unknown flag: EOPNOTSUPP");
  CMP (sys_preadv2 (fs, rs, 3, -2, 0), preadv2 (fl, rl, 3, -2, 0),
       "sys_preadv2 at offset -2: EINVAL");
  CMP (sys_preadv2 (-1, rs, 3, 0, 0), preadv2 (-1, rl, 3, 0, 0),
       "sys_preadv2 of fd -1: EBADF");
  CMP (sys_preadv2 (p[0], rs, 3, 0, 0), preadv2 (p[0], rl, 3, 0, 0),
       "sys_preadv2 of a pipe at offset 0: ESPIPE");
  CMP (sys_preadv2 (p[0], rs, 3, -1, RWF_NOWAIT),
       preadv2 (p[0], rl, 3, -1, RWF_NOWAIT),
       "sys_preadv2 RWF_NOWAIT of an empty pipe: EAGAIN");

v2_done:
  close (p[0]);
  close (p[1]);
  close (fs);
  close (fl);
}

/* ------------------------------------------------------------------ */
/* Signals: rt_sigprocmask, rt_sigsuspend; waiting: ppoll, pselect6.  */

static volatile sig_atomic_t usr1_count, usr2_count;

static void
on_signal (int sig)
{
  if (sig == SIGUSR1)
    usr1_count++;
  else if (sig == SIGUSR2)
    usr2_count++;
}

/* The first signal (1..64) on which A and B differ, or 0.  */
static int
mask_diff (const sigset_t *a, const sigset_t *b)
{
  for (int sig = 1; sig <= 64; sig++)
    if (!!sigismember (a, sig) != !!sigismember (b, sig))
      return sig;
  return 0;
}

static bool check_mask (const sigset_t *got, const sigset_t *want,
                        const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

static bool
check_mask (const sigset_t *got, const sigset_t *want, const char *fmt, ...)
{
  char detail[120];
  int sig = mask_diff (got, want);
  va_list ap;
  snprintf (detail, sizeof detail, "signal %d: got %s, want %s", sig,
            sig && sigismember (got, sig) ? "member" : "not member",
            sig && sigismember (want, sig) ? "member" : "not member");
  va_start (ap, fmt);
  tap_vreport (sig == 0, detail, fmt, ap);
  va_end (ap);
  return sig == 0;
}

static sigset_t
current_mask (void)
{
  sigset_t m;
  sigprocmask (SIG_SETMASK, NULL, &m);
  return m;
}

static sigset_t
set_of (int sig)
{
  sigset_t m;
  sigemptyset (&m);
  if (sig)
    sigaddset (&m, sig);
  return m;
}

static void
on_segv (int sig)
{
  (void) sig;
  _exit (200);
}

static void
test_sigprocmask (void)
{
  long long s, l;
  int se, le;
  sigset_t empty = set_of (0), usr1 = set_of (SIGUSR1),
    usr2 = set_of (SIGUSR2), old, old2, cur;

  sigprocmask (SIG_SETMASK, &empty, NULL);
  sigfillset (&old);
  SYS (s, se, sys_rt_sigprocmask (SIG_BLOCK, &usr1, &old));
  cmp_sys_libc (s, se, 0, 0, "sys_rt_sigprocmask SIG_BLOCK SIGUSR1");
  cur = current_mask ();
  check (sigismember (&cur, SIGUSR1) == 1, "not blocked",
         "sys_rt_sigprocmask: libc sees SIGUSR1 blocked");
  check_mask (&old, &empty, "sys_rt_sigprocmask: oldset was empty");

  SYS (s, se, sys_rt_sigprocmask (SIG_BLOCK, &usr2, &old));
  check_int (s, 0, "sys_rt_sigprocmask SIG_BLOCK SIGUSR2");
  check_mask (&old, &usr1, "sys_rt_sigprocmask: oldset is {SIGUSR1}");
  sigprocmask (SIG_SETMASK, NULL, &old2);
  SYS (s, se, sys_rt_sigprocmask (SIG_SETMASK, NULL, &old));
  check_int (s, 0, "sys_rt_sigprocmask with a NULL set");
  check_mask (&old, &old2, "sys_rt_sigprocmask NULL set: oldset as libc's");

  SYS (s, se, sys_rt_sigprocmask (SIG_UNBLOCK, &usr1, NULL));
  check_int (s, 0, "sys_rt_sigprocmask SIG_UNBLOCK SIGUSR1");
  cur = current_mask ();
  check_mask (&cur, &usr2, "sys_rt_sigprocmask SIG_UNBLOCK: mask {SIGUSR2}");
  SYS (s, se, sys_rt_sigprocmask (SIG_SETMASK, &usr1, NULL));
  check_int (s, 0, "sys_rt_sigprocmask SIG_SETMASK {SIGUSR1}");
  cur = current_mask ();
  check_mask (&cur, &usr1, "sys_rt_sigprocmask SIG_SETMASK: mask {SIGUSR1}");

  /* SIGKILL and SIGSTOP cannot be blocked: silently, as with libc.  */
  sigset_t ks;
  sigemptyset (&ks);
  sigaddset (&ks, SIGKILL);
  sigaddset (&ks, SIGSTOP);
  SYS (s, se, sys_rt_sigprocmask (SIG_BLOCK, &ks, NULL));
  LIBC (l, le, sigprocmask (SIG_BLOCK, &ks, NULL));
  cmp_sys_libc (s, se, l, le, "sys_rt_sigprocmask SIG_BLOCK SIGKILL|SIGSTOP");
  cur = current_mask ();
  check_mask (&cur, &usr1, "SIGKILL and SIGSTOP stay unblocked");

  /* A real-time signal: the kernel's 64 bits are all passed.  qemu-user
     (arch/check-arches sets NC_QEMU) keeps the host's last signals
     for itself and cannot give the guest its SIGRTMAX.  */
  sigset_t rt = set_of (SIGRTMAX);
  SYS (s, se, sys_rt_sigprocmask (SIG_BLOCK, &rt, NULL));
  check_int (s, 0, "sys_rt_sigprocmask SIG_BLOCK SIGRTMAX");
  cur = current_mask ();
  if (getenv ("NC_QEMU"))
    skip ("sys_rt_sigprocmask SIGRTMAX (%d): under %s, which cannot map "
          "it to a host signal", SIGRTMAX, getenv ("NC_QEMU"));
  else
    check (sigismember (&cur, SIGRTMAX) == 1, "not blocked",
           "sys_rt_sigprocmask: libc sees SIGRTMAX (%d) blocked", SIGRTMAX);
  sigprocmask (SIG_SETMASK, &usr1, NULL);

  /* Errors.  */
  sigfillset (&old);
  sigfillset (&old2);
  SYS (s, se, sys_rt_sigprocmask (99, &usr2, &old));
  LIBC (l, le, sigprocmask (99, &usr2, &old2));
  cmp_sys_libc (s, se, l, le, "sys_rt_sigprocmask with how 99: EINVAL");
  check_mask (&old, &old2,
              "sys_rt_sigprocmask failing: oldset left alone, as libc");
  cur = current_mask ();
  check_mask (&cur, &usr1, "sys_rt_sigprocmask failing: mask unchanged");

  /* An oldset the kernel cannot write: -EFAULT (in a child: a wrapper that
     wrote there itself would crash).  */
  int status[2];
  for (int pass = 0; pass < 2; pass++)
    {
      fflush (stdout);
      pid_t pid = fork ();
      if (pid == 0)
        {
          struct sigaction sa = { .sa_handler = on_segv };
          sigaction (SIGSEGV, &sa, NULL);
          sigaction (SIGBUS, &sa, NULL);
          long r = pass == 0
            ? sys_rt_sigprocmask (SIG_BLOCK, NULL, (sigset_t *) 16)
            : (sigprocmask (SIG_BLOCK, NULL, (sigset_t *) 16) < 0
               ? -errno : 0);
          _exit (r < 0 ? (int) -r : 100);
        }
      status[pass] = -1;
      if (pid > 0)
        waitpid (pid, &status[pass], 0);
    }
  /* The children's exit codes: the errno, 200 for a SIGSEGV.  */
  int code[2];
  for (int pass = 0; pass < 2; pass++)
    code[pass] = WIFEXITED (status[pass]) ? WEXITSTATUS (status[pass]) : -1;
  char detail[160];
  snprintf (detail, sizeof detail, "wrapper: %s %d, libc: errno %d",
            code[0] == 200 ? "SIGSEGV in the wrapper, exit" : "exit",
            code[0], code[1]);
  check (code[0] == code[1] && code[1] == EFAULT, detail,
         "sys_rt_sigprocmask with an unwritable oldset: EFAULT as libc");

  sigprocmask (SIG_SETMASK, &empty, NULL);
}

static void
test_sigsuspend (void)
{
  long long s, l;
  int se, le;
  sigset_t usr1 = set_of (SIGUSR1), empty = set_of (0), cur;

  for (int pass = 0; pass < 2; pass++)
    {
      sigprocmask (SIG_SETMASK, &usr1, NULL);
      usr1_count = 0;
      fflush (stdout);
      pid_t pid = fork ();
      if (pid == 0)
        {
          struct timespec ms10 = { 0, 10 * 1000 * 1000 };
          nanosleep (&ms10, NULL);
          kill (getppid (), SIGUSR1);
          _exit (0);
        }
      if (pid < 0)
        die ("fork");
      if (pass == 0)
        {
          SYS (s, se, sys_rt_sigsuspend (&empty));
          l = -1;
          le = EINTR;
          cmp_sys_libc (s, se, l, le,
                        "sys_rt_sigsuspend woken by SIGUSR1: EINTR");
        }
      else
        {
          LIBC (l, le, sigsuspend (&empty));
          check (l == -1 && le == EINTR, "libc sigsuspend differs",
                 "libc sigsuspend agrees: -1, EINTR");
        }
      waitpid (pid, NULL, 0);
      check_int (usr1_count, 1, "%s: the handler ran once",
                 pass ? "sigsuspend" : "sys_rt_sigsuspend");
      cur = current_mask ();
      check_mask (&cur, &usr1, "%s: the mask is restored",
                  pass ? "sigsuspend" : "sys_rt_sigsuspend");
    }

  /* A signal already pending and blocked: unblocked by the mask at once.  */
  usr1_count = 0;
  raise (SIGUSR1);
  SYS (s, se, sys_rt_sigsuspend (&empty));
  check_int (s, -EINTR, "sys_rt_sigsuspend with SIGUSR1 pending: EINTR");
  check_int (usr1_count, 1, "sys_rt_sigsuspend: the pending signal handled");
  CMP (sys_rt_sigsuspend ((const sigset_t *) 16),
       sigsuspend ((const sigset_t *) 16),
       "sys_rt_sigsuspend with a bad pointer: EFAULT");
  sigprocmask (SIG_SETMASK, &empty, NULL);
}

static double
elapsed_ms (const struct timespec *t0)
{
  struct timespec t1;
  clock_gettime (CLOCK_MONOTONIC, &t1);
  return (t1.tv_sec - t0->tv_sec) * 1e3 + (t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* ppoll and pselect6 wait alike: each case below runs against both, as
   a wait for one descriptor to be readable.  */
struct wait_call
{
  const char *sys, *libc;       /* "sys_ppoll", "ppoll" */
  const char *ready;            /* what a wait for a ready pipe returns */
  /* SEEN (what the call reported of the descriptor) is revents for ppoll:
     sys's must be libc's.  For pselect6 it is whether the descriptor
     stayed in the set: set when ready, cleared on a timeout.  */
  bool seen_is_revents;
  /* Wait by the sys_* call (LIBC false) or libc's for FD to be readable,
     with timeout TS (updated) and MASK; store what the call reported of
     FD in *SEEN.  Returns -errno (sys_*), or -1 with errno set (libc).  */
  long long (*wait) (bool libc, int fd, struct timespec *ts,
                     const sigset_t *mask, int *seen);
  /* The cases of this call alone, with the pipe P, empty.  */
  void (*own_cases) (int p[2]);
};

static long long
ppoll_read (bool libc, int fd, struct timespec *ts, const sigset_t *mask,
            int *seen)
{
  struct pollfd pfd = { .fd = fd, .events = POLLIN };
  long long r = (libc ? ppoll (&pfd, 1, ts, mask)
                 : sys_ppoll (&pfd, 1, ts, mask));
  *seen = pfd.revents;
  return r;
}

static long long
pselect_read (bool libc, int fd, struct timespec *ts, const sigset_t *mask,
              int *seen)
{
  fd_set rs;
  FD_ZERO (&rs);
  FD_SET (fd, &rs);
  long long r = (libc ? pselect (fd + 1, &rs, NULL, NULL, ts, mask)
                 : sys_pselect6 (fd + 1, &rs, NULL, NULL, ts, mask));
  *seen = FD_ISSET (fd, &rs);
  return r;
}

static void
on_alarm (int sig)
{
  (void) sig;
}

/* A timeout beyond 2038 reaches the kernel whole (ppoll_time64 and
   pselect6_time64 on the 32-bit architectures): 2^31 + 5 s, past what a
   32-bit time_t holds, on the empty read end of pipe P, is still running
   when a timer's SIGALRM ends it 50 ms later: EINTR.  Its first 8 bytes
   read as a 32-bit timespec would be invalid in either byte order, a
   negative second (little-endian) or 2^31 + 5 ns (big-endian): EINVAL.
   (2^32 s would read as 1 s on big-endian, which the signal also
   interrupts: it could not tell.)  */
static void
wide_timeout_case (const char *name, int p[2], bool pselect)
{
  if (sizeof (time_t) < 8)
    {
      skip ("%s with a timeout beyond 2038: 32-bit time_t", name);
      return;
    }
  struct sigaction sa = { .sa_handler = on_alarm }, old;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGALRM, &sa, &old);
  struct itimerval it = { .it_value = { 0, 50000 } }, off = { { 0, 0 }, { 0, 0 } };
  struct timespec wide = { (time_t) ((1LL << 31) + 5), 0 };
  struct pollfd pfd = { .fd = p[0], .events = POLLIN };
  fd_set rs;
  FD_ZERO (&rs);
  FD_SET (p[0], &rs);
  setitimer (ITIMER_REAL, &it, NULL);
  long r = pselect ? sys_pselect6 (p[0] + 1, &rs, NULL, NULL, &wide, NULL)
                   : sys_ppoll (&pfd, 1, &wide, NULL);
  setitimer (ITIMER_REAL, &off, NULL);
  sigaction (SIGALRM, &old, NULL);
  check_int (r, -EINTR, "%s with a timeout of 2^31 + 5 s: still waiting "
             "when a signal came (EINTR), not refused", name);
}

static void
ppoll_own_cases (int p[2])
{
  struct pollfd fs = { .fd = p[0], .events = POLLIN };
  struct pollfd fl = fs;
  char c;
  xwrite (p[1], "x", 1);
  CMP (sys_ppoll (&fs, 1, NULL, NULL), ppoll (&fl, 1, NULL, NULL),
       "sys_ppoll with no timeout, data: ready");
  xread (p[0], &c, 1);
  struct timespec zero = { 0, 0 };
  CMP (sys_ppoll (&fs, 1, &zero, NULL), ppoll (&fl, 1, &zero, NULL),
       "sys_ppoll with a zero timeout: 0 at once");

  struct pollfd nv = { .fd = 9999, .events = POLLIN }, nv2 = nv;
  CMP (sys_ppoll (&nv, 1, &zero, NULL), ppoll (&nv2, 1, &zero, NULL),
       "sys_ppoll of a closed fd: 1");
  check_int (nv.revents, nv2.revents, "sys_ppoll: POLLNVAL as libc's");
  struct timespec bad = { -1, 0 };
  CMP (sys_ppoll (&fs, 1, &bad, NULL), ppoll (&fl, 1, &bad, NULL),
       "sys_ppoll with a negative timeout: EINVAL");
  wide_timeout_case ("sys_ppoll", p, false);
  /* volatile: GCC would see through these and refuse to compile.  */
  volatile nfds_t huge = (nfds_t) 1 << 30;
  struct pollfd *volatile badp = (struct pollfd *) 16;
  CMP_BADMEM (sys_ppoll (&fs, huge, &zero, NULL),
              ppoll (&fl, huge, &zero, NULL), EINVAL,
              "sys_ppoll with 2^30 fds: EINVAL");
  CMP_BADMEM (sys_ppoll (badp, 1, &zero, NULL), ppoll (badp, 1, &zero, NULL),
              EFAULT, "sys_ppoll with a bad pointer: EFAULT");
}

static void
pselect_own_cases (int p[2])
{
  /* Write side of the pipe: ready for writing.  */
  fd_set ws, wl;
  FD_ZERO (&ws);
  FD_SET (p[1], &ws);
  wl = ws;
  CMP (sys_pselect6 (p[1] + 1, NULL, &ws, NULL, NULL, NULL),
       pselect (p[1] + 1, NULL, &wl, NULL, NULL, NULL),
       "sys_pselect6 for writing, no timeout: 1");

  struct timespec zero = { 0, 0 };
  fd_set rs, rl;
  FD_ZERO (&rs);
  FD_SET (p[0], &rs);
  rl = rs;
  CMP (sys_pselect6 (-1, &rs, NULL, NULL, &zero, NULL),
       pselect (-1, &rl, NULL, NULL, &zero, NULL),
       "sys_pselect6 with nfds -1: EINVAL");
  wide_timeout_case ("sys_pselect6", p, true);
  int closed = dup (p[0]);
  close (closed);
  FD_ZERO (&rs);
  FD_SET (closed, &rs);
  rl = rs;
  CMP (sys_pselect6 (closed + 1, &rs, NULL, NULL, &zero, NULL),
       pselect (closed + 1, &rl, NULL, NULL, &zero, NULL),
       "sys_pselect6 of a closed fd: EBADF");
}

static const struct wait_call wait_calls[] = {
  { "sys_ppoll", "ppoll", "ready", true, ppoll_read, ppoll_own_cases },
  { "sys_pselect6", "pselect", "1", false, pselect_read,
    pselect_own_cases },
};

/* The cases of both calls: W on the empty pipe P.  */
static void
test_wait_call (const struct wait_call *w, int p[2])
{
  long long s, l;
  int se, le, seen, seen_libc;
  sigset_t usr1 = set_of (SIGUSR1), empty = set_of (0), cur;
  struct timespec t0;

  /* Data in the pipe: ready, and about all the timeout left.  */
  xwrite (p[1], "x", 1);
  struct timespec ts = { 1, 0 }, tl = { 1, 0 };
  SYS (s, se, w->wait (false, p[0], &ts, NULL, &seen));
  LIBC (l, le, w->wait (true, p[0], &tl, NULL, &seen_libc));
  cmp_sys_libc (s, se, l, le, "%s of a pipe with data: %s", w->sys,
                w->ready);
  if (w->seen_is_revents)
    check_int (seen, seen_libc, "%s: revents as libc's (POLLIN)", w->sys);
  else
    check (seen, "not set", "%s: the fd is set", w->sys);
  check (ts.tv_sec == 0 ? ts.tv_nsec > 900000000 : ts.tv_sec == 1
         && ts.tv_nsec == 0, "timeout not ~1 s",
         "%s ready: the timeout left is ~1 s", w->sys);

  /* An empty pipe, 20 ms: 0, and the time left is 0.  */
  char c;
  xread (p[0], &c, 1);
  ts = (struct timespec) { 0, 20 * 1000 * 1000 };
  tl = ts;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  SYS (s, se, w->wait (false, p[0], &ts, NULL, &seen));
  double ms = elapsed_ms (&t0);
  LIBC (l, le, w->wait (true, p[0], &tl, NULL, &seen_libc));
  cmp_sys_libc (s, se, l, le, "%s of an empty pipe, 20 ms: 0", w->sys);
  check (ms >= 19 && ms < 1000, "too short or too long",
         "%s 20 ms: waited %.1f ms", w->sys, ms);
  check (ts.tv_sec == 0 && ts.tv_nsec == 0, "timeout not updated",
         "%s timed out: the timeout left is 0", w->sys);
  if (!w->seen_is_revents)
    check (!seen, "still set", "%s timed out: the set is cleared", w->sys);

  /* The mask: SIGUSR1 pending and blocked, a mask without it: EINTR.  */
  sigprocmask (SIG_SETMASK, &usr1, NULL);
  for (int pass = 0; pass < 2; pass++)
    {
      usr1_count = 0;
      raise (SIGUSR1);
      ts = (struct timespec) { 2, 0 };
      if (pass == 0)
        {
          SYS (s, se, w->wait (false, p[0], &ts, &empty, &seen));
          cmp_sys_libc (s, se, -1, EINTR, "%s with a mask unblocking a "
                        "pending SIGUSR1: EINTR", w->sys);
        }
      else
        {
          LIBC (l, le, w->wait (true, p[0], &ts, &empty, &seen));
          check (l == -1 && le == EINTR, "libc differs",
                 "libc %s agrees: EINTR", w->libc);
        }
      check_int (usr1_count, 1, "%s with the mask: the handler ran",
                 pass ? w->libc : w->sys);
      cur = current_mask ();
      check_mask (&cur, &usr1, "%s: the mask is restored",
                  pass ? w->libc : w->sys);
    }
  /* A mask that keeps it blocked: a plain timeout.  */
  usr1_count = 0;
  raise (SIGUSR1);
  ts = (struct timespec) { 0, 20 * 1000 * 1000 };
  SYS (s, se, w->wait (false, p[0], &ts, &usr1, &seen));
  check_int (s, 0, "%s with a mask blocking SIGUSR1: times out", w->sys);
  check_int (usr1_count, 0, "%s: the blocked signal not handled", w->sys);
  sigprocmask (SIG_SETMASK, &empty, NULL);
  check_int (usr1_count, 1, "the pending SIGUSR1 handled once unblocked");

  struct timespec bad = { 0, 1000000000 }, bad_libc = bad;
  SYS (s, se, w->wait (false, p[0], &bad, NULL, &seen));
  LIBC (l, le, w->wait (true, p[0], &bad_libc, NULL, &seen_libc));
  cmp_sys_libc (s, se, l, le, "%s with tv_nsec 1e9: EINVAL", w->sys);

  w->own_cases (p);
}

static void
test_ppoll (void)
{
  for (size_t i = 0; i < sizeof wait_calls / sizeof wait_calls[0]; i++)
    {
      int p[2];
      if (pipe2 (p, O_CLOEXEC) < 0)
        die ("pipe2");
      test_wait_call (&wait_calls[i], p);
      close (p[0]);
      close (p[1]);
    }
}

static void
test_signals (void)
{
  struct sigaction sa = { .sa_handler = on_signal };
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR1, &sa, NULL);
  sigaction (SIGUSR2, &sa, NULL);
  test_sigprocmask ();
  test_sigsuspend ();
  test_ppoll ();
}

/* ------------------------------------------------------------------ */
/* unshare, setns.  */

/* Run FN (pass 0: the wrapper, 1: libc) in a child; return its result as
   0 or -errno, or -1000 if the child did not exit normally.  */
static long
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

static long
child_unshare_uts (int pass, int arg)
{
  (void) arg;
  long r = pass == 0 ? sys_unshare (CLONE_NEWUTS)
    : (unshare (CLONE_NEWUTS) < 0 ? -errno : 0);
  /* In a namespace of its own, a new host name is this child's only.  */
  if (r == 0 && sethostname ("nc-sys-test", 11) < 0)
    return -errno;
  return r;
}

static long
child_setns (int pass, int fd)
{
  return pass == 0 ? sys_setns (fd, CLONE_NEWUTS)
    : (setns (fd, CLONE_NEWUTS) < 0 ? -errno : 0);
}

static long
child_setns_any (int pass, int fd)
{
  return pass == 0 ? sys_setns (fd, 0) : (setns (fd, 0) < 0 ? -errno : 0);
}

static void
test_namespaces (void)
{
  long long s, l;
  char host0[256], host1[256];

  CMP (sys_unshare (CLONE_FILES), unshare (CLONE_FILES),
       "sys_unshare CLONE_FILES");
  CMP (sys_unshare (CLONE_FS), unshare (CLONE_FS), "sys_unshare CLONE_FS");
  CMP (sys_unshare (0), unshare (0), "sys_unshare 0");
  CMP (sys_unshare (0x1), unshare (0x1),
       "sys_unshare with an invalid flag: EINVAL");
  CMP (sys_unshare (CLONE_SIGHAND | CLONE_VM | 0x1),
       unshare (CLONE_SIGHAND | CLONE_VM | 0x1),
       "sys_unshare with CSIGNAL bits: EINVAL");

  gethostname (host0, sizeof host0);
  s = in_child (child_unshare_uts, 0, 0);
  l = in_child (child_unshare_uts, 1, 0);
  check_int (s, l, "sys_unshare CLONE_NEWUTS in a child: as libc's (%s)",
             l == 0 ? "root: both succeed" : "both fail");
  gethostname (host1, sizeof host1);
  check (strcmp (host0, host1) == 0, host1,
         "sys_unshare CLONE_NEWUTS: the parent's host name unchanged");

  int ns = open ("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);
  if (ns < 0)
    skip ("sys_setns: no /proc/self/ns/uts");
  else
    {
      s = in_child (child_setns, 0, ns);
      l = in_child (child_setns, 1, ns);
      check_int (s, l, "sys_setns CLONE_NEWUTS in a child: as libc's");
      s = in_child (child_setns_any, 0, ns);
      l = in_child (child_setns_any, 1, ns);
      check_int (s, l, "sys_setns nstype 0 in a child: as libc's");
      CMP (sys_setns (ns, CLONE_NEWNET), setns (ns, CLONE_NEWNET),
           "sys_setns of a UTS fd as CLONE_NEWNET: EINVAL");
      close (ns);
    }
  CMP (sys_setns (-1, CLONE_NEWUTS), setns (-1, CLONE_NEWUTS),
       "sys_setns of fd -1: EBADF");
  int f = open_rd ("exists");
  CMP (sys_setns (f, 0), setns (f, 0),
       "sys_setns of a regular file: EINVAL");
  close (f);
}

/* ------------------------------------------------------------------ */
/* An older kernel, simulated: a seccomp filter in a child answers ENOSYS
   for fchmodat2 (Linux 6.6), as Debian 12's 6.1 kernel does.  The wrapper
   must still answer as libc does for the same arguments.  */

static bool
deny_syscall (int nr)
{
  struct sock_filter filter[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, (unsigned int) nr, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = { sizeof filter / sizeof filter[0], filter };
  return prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
    && prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) == 0;
}

/* fchmodat2's number comes from the arch/ table, as everywhere else.  */
#define NR_FCHMODAT2 NC_SYS_fchmodat2

static long
child_fchmodat_old (int pass, int which)
{
  static const char *const names[][2] = {
    { "old-sys", "old-libc" }, { "old-lnk-sys", "old-lnk-libc" },
  };
  if (!deny_syscall (NR_FCHMODAT2))
    return -1000;
  const char *name = names[which][pass];
  return pass == 0 ? sys_fchmodat (dfd, name, 0600, AT_SYMLINK_NOFOLLOW)
    : (fchmodat (dfd, name, 0600, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0);
}

static void
test_old_kernel (void)
{
  make_file ("old-sys", "", 0);
  make_file ("old-libc", "", 0);
  xsymlinkat ("old-sys", "old-lnk-sys");
  xsymlinkat ("old-libc", "old-lnk-libc");
  long s = in_child (child_fchmodat_old, 0, 0);
  long l = in_child (child_fchmodat_old, 1, 0);
  if (s == -1000 || l == -1000)
    {
      skip ("no seccomp to simulate a kernel without fchmodat2");
      return;
    }
  char g[64], w[64], detail[160];
  snprintf (detail, sizeof detail, "got %s, want %s (libc)",
            fmt_val (s, g, sizeof g), fmt_val (l, w, sizeof w));
  check (s == l, detail, "sys_fchmodat AT_SYMLINK_NOFOLLOW of a regular "
         "file without fchmodat2 (before Linux 6.6): as libc");
  s = in_child (child_fchmodat_old, 0, 1);
  l = in_child (child_fchmodat_old, 1, 1);
  snprintf (detail, sizeof detail, "got %s, want %s (libc)",
            fmt_val (s, g, sizeof g), fmt_val (l, w, sizeof w));
  check (s == l, detail, "sys_fchmodat AT_SYMLINK_NOFOLLOW of a symlink "
         "without fchmodat2: as libc");
}

/* ------------------------------------------------------------------ */
/* mount, umount2, sethostname, prctl, capget, capset.  */

/* glibc exports these two without declaring them.  */
extern int capget (void *header, void *data);
extern int capset (void *header, const void *data);

/* In a child's own mount and UTS namespaces: mount a tmpfs on "mnt",
   unmount it, and name the host, by wrapper (pass 0) or libc (pass 1).
   ARG picks the step that must fail: 0 none, 1 mount of a missing target,
   2 umount2 of what is no mount point.  */
static long
child_mount (int pass, int arg)
{
  char target[sizeof tap_scratch_dirs[0] + 8];
  snprintf (target, sizeof target, "%s/%s", scratch,
            arg == 1 ? "no-such" : "mnt");
  if (unshare (CLONE_NEWNS | CLONE_NEWUTS) < 0)
    return -errno;
  if (mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
    return -errno;
  long r = 0;
  if (arg != 2)
    r = pass == 0 ? sys_mount ("nc", target, "tmpfs", 0, "size=64k")
      : (mount ("nc", target, "tmpfs", 0, "size=64k") < 0 ? -errno : 0);
  if (r == 0)
    r = pass == 0 ? sys_umount2 (target, 0)
      : (umount2 (target, 0) < 0 ? -errno : 0);
  if (r == 0)
    r = pass == 0 ? sys_sethostname ("nc-mount", 8)
      : (sethostname ("nc-mount", 8) < 0 ? -errno : 0);
  return r;
}

static void
test_mount_prctl_caps (void)
{
  static const char *const what[] = {
    "sys_mount tmpfs, sys_umount2, sys_sethostname in new namespaces",
    "sys_mount on a missing target",
    "sys_umount2 of a directory that is no mount point",
  };
  mkdirat (dfd, "mnt", 0755);
  for (int arg = 0; arg < 3; arg++)
    {
      long s = in_child (child_mount, 0, arg);
      long l = in_child (child_mount, 1, arg);
      char g[64], w[64], detail[160];
      snprintf (detail, sizeof detail, "got %s, want %s (libc)",
                fmt_val (s, g, sizeof g), fmt_val (l, w, sizeof w));
      check (s == l && s != -1000, detail, "%s: as libc", what[arg]);
    }

  CMP (sys_prctl (PR_GET_DUMPABLE, 0, 0, 0, 0), prctl (PR_GET_DUMPABLE),
       "sys_prctl PR_GET_DUMPABLE");
  CMP (sys_prctl (-1, 0, 0, 0, 0), prctl (-1), "sys_prctl bad option");

  /* _LINUX_CAPABILITY_VERSION_3: two 32-bit words per set.  */
  struct { uint32_t version; int pid; } sh = { 0x20080522, 0 }, lh = sh;
  struct { uint32_t eff, perm, inh; } sd[2], ld[2];
  CMP (sys_capget (&sh, sd), capget (&lh, ld), "sys_capget of this process");
  check (memcmp (sd, ld, sizeof sd) == 0, "sets differ",
         "sys_capget: the same sets as libc");
  CMP (sys_capset (&sh, sd), capset (&lh, ld),
       "sys_capset of the sets it has");
  struct { uint32_t version; int pid; } bad = { 1, 0 }, lbad = bad;
  CMP (sys_capget (&bad, sd), capget (&lbad, ld),
       "sys_capget with a bad version");
}

/* ------------------------------------------------------------------ */
/* fcntl, ioctl.  */

static void
test_fcntl_ioctl (void)
{
  long long s, l;
  int se, le;

  int f = openat (dfd, "exists", O_RDWR | O_APPEND | O_CLOEXEC);
  CMP (sys_fcntl (f, F_GETFL, 0), fcntl (f, F_GETFL),
       "sys_fcntl F_GETFL (O_RDWR|O_APPEND)");
  CMP (sys_fcntl (f, F_GETFD, 0), fcntl (f, F_GETFD),
       "sys_fcntl F_GETFD (FD_CLOEXEC)");
  CMP (sys_fcntl (f, F_SETFL, O_APPEND | O_NONBLOCK),
       fcntl (f, F_SETFL, O_APPEND | O_NONBLOCK),
       "sys_fcntl F_SETFL O_APPEND|O_NONBLOCK");
  SYS (s, se, sys_fcntl (f, F_GETFL, 0));
  check (s >= 0 && (s & O_NONBLOCK) && (s & O_APPEND), "flags not set",
         "sys_fcntl F_GETFL after F_SETFL: O_NONBLOCK and O_APPEND");
  CMP (sys_fcntl (f, F_SETFD, 0), fcntl (f, F_SETFD, 0),
       "sys_fcntl F_SETFD 0");
  check_int (fcntl (f, F_GETFD), 0, "sys_fcntl F_SETFD cleared FD_CLOEXEC");
  int ds, dl;
  CMP_FD (sys_fcntl (f, F_DUPFD_CLOEXEC, 100),
          fcntl (f, F_DUPFD_CLOEXEC, 100), ds, dl,
          "sys_fcntl F_DUPFD_CLOEXEC 100");
  check (ds >= 100, "below 100", "sys_fcntl F_DUPFD_CLOEXEC: fd >= 100");
  check_int (fcntl (ds, F_GETFD), FD_CLOEXEC,
             "sys_fcntl F_DUPFD_CLOEXEC: FD_CLOEXEC set");
  close (ds);
  close (dl);

  /* Record locks at offsets beyond 4 GiB (fcntl64 on 32-bit): an OFD lock
     set through one is seen by the other on another open file.  */
  int f2 = open_rw ("exists");
  struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
                      .l_start = 5 * GiB, .l_len = 100 };
  SYS (s, se, sys_fcntl (f, F_OFD_SETLK, (long) (intptr_t) &lk));
  check_int (s, 0, "sys_fcntl F_OFD_SETLK at 5 GiB");
  struct flock q = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0,
                     .l_len = 0 };
  LIBC (l, le, fcntl (f2, F_OFD_GETLK, &q));
  check (l == 0 && q.l_type == F_WRLCK && q.l_start == 5 * GiB
         && q.l_len == 100, "lock not seen",
         "libc F_OFD_GETLK sees the lock sys_fcntl set at 5 GiB");
  q = (struct flock) { .l_type = F_RDLCK, .l_whence = SEEK_SET };
  struct flock q2 = q;
  SYS (s, se, sys_fcntl (f2, F_OFD_GETLK, (long) (intptr_t) &q));
  LIBC (l, le, fcntl (f2, F_OFD_GETLK, &q2));
  cmp_sys_libc (s, se, l, le, "sys_fcntl F_OFD_GETLK");
  check (q.l_type == q2.l_type && q.l_start == q2.l_start
         && q.l_len == q2.l_len && q.l_pid == q2.l_pid, "lock differs",
         "sys_fcntl F_OFD_GETLK: the struct flock as libc's");
  CMP (sys_fcntl (f2, F_OFD_SETLK, (long) (intptr_t) &lk),
       fcntl (f2, F_OFD_SETLK, &lk),
       "sys_fcntl F_OFD_SETLK on a locked range: EAGAIN");
  close (f2);

  /* Pipe sizes.  */
  int ps[2], pl[2];
  if (pipe2 (ps, O_CLOEXEC) < 0 || pipe2 (pl, O_CLOEXEC) < 0)
    die ("pipe2");
  CMP (sys_fcntl (ps[0], F_GETPIPE_SZ, 0), fcntl (pl[0], F_GETPIPE_SZ),
       "sys_fcntl F_GETPIPE_SZ of a new pipe");
  CMP (sys_fcntl (ps[1], F_SETPIPE_SZ, 1 << 20),
       fcntl (pl[1], F_SETPIPE_SZ, 1 << 20), "sys_fcntl F_SETPIPE_SZ 1 MiB");
  CMP (sys_fcntl (ps[0], F_GETPIPE_SZ, 0), fcntl (pl[0], F_GETPIPE_SZ),
       "sys_fcntl F_GETPIPE_SZ after: 1 MiB");
  CMP (sys_fcntl (ps[1], F_SETPIPE_SZ, 5000),
       fcntl (pl[1], F_SETPIPE_SZ, 5000),
       "sys_fcntl F_SETPIPE_SZ 5000: rounded up");
  CMP (sys_fcntl (f, F_SETPIPE_SZ, 65536), fcntl (f, F_SETPIPE_SZ, 65536),
       "sys_fcntl F_SETPIPE_SZ of a file: EBADF");
  CMP (sys_fcntl (f, 9999, 0), fcntl (f, 9999, 0),
       "sys_fcntl with command 9999: EINVAL");
  CMP (sys_fcntl (-1, F_GETFL, 0), fcntl (-1, F_GETFL),
       "sys_fcntl of fd -1: EBADF");

  /* ioctl.  */
  char tbuf[256];
  xwrite (ps[1], "12345", 5);
  xwrite (pl[1], "12345", 5);
  int ns = -1, nl = -1;
  CMP (sys_ioctl (ps[0], FIONREAD, (unsigned long) (uintptr_t) &ns),
       ioctl (pl[0], FIONREAD, &nl), "sys_ioctl FIONREAD of a pipe");
  check_int (ns, 5, "sys_ioctl FIONREAD: 5 bytes");
  check_int (ns, nl, "sys_ioctl FIONREAD: as libc's");
  int on = 1;
  CMP (sys_ioctl (ps[0], FIONBIO, (unsigned long) (uintptr_t) &on),
       ioctl (pl[0], FIONBIO, &on), "sys_ioctl FIONBIO");
  check (fcntl (ps[0], F_GETFL) & O_NONBLOCK, "not non-blocking",
         "sys_ioctl FIONBIO set O_NONBLOCK");
  CMP (sys_ioctl (-1, FIONREAD, (unsigned long) (uintptr_t) &ns),
       ioctl (-1, FIONREAD, &nl), "sys_ioctl of fd -1: EBADF");
  /* Not TCGETS: glibc's ioctl on powerpc turns that one into another
     request (its struct termios is not the kernel's).  */
  CMP (sys_ioctl (ps[0], TIOCGWINSZ, (unsigned long) (uintptr_t) tbuf),
       ioctl (pl[0], TIOCGWINSZ, tbuf),
       "sys_ioctl TIOCGWINSZ of a pipe: ENOTTY");
  close (ps[0]);
  close (ps[1]);
  close (pl[0]);
  close (pl[1]);
  close (f);
}

/* ------------------------------------------------------------------ */
/* Descriptor room, and paths shortened for messages.  */

static int
count_open_fds (rlim_t below)
{
  int n = 0;
  for (rlim_t fd = 0; fd < below; fd++)
    if (fcntl ((int) fd, F_GETFD) >= 0)
      n++;
  return n;
}

static void
test_fdroom (void)
{
  struct rlimit old, lim;
  if (getrlimit (RLIMIT_NOFILE, &old) < 0)
    die ("getrlimit");
  check_int (fd_room (5), 5, "fd_room: 5 wanted, more free: 5");
  rlim_t cur = old.rlim_cur < 4096 ? old.rlim_cur : 4096;
  int open_now = count_open_fds (cur);
  lim = old;
  lim.rlim_cur = open_now + 3;
  if (setrlimit (RLIMIT_NOFILE, &lim) < 0)
    die ("setrlimit");
  /* The open ones may not be the lowest: what counts is the free
     numbers below the limit.  */
  int below = count_open_fds (lim.rlim_cur);
  check_int (fd_room (100), (long long) lim.rlim_cur - below,
             "fd_room: the free numbers below the limit");
  check_int (fd_room (1), 1, "fd_room: the count stops at WANT");

  /* No room for splice's internal pipe: read/write takes over, and
     splice alone says EMFILE.  */
  static const char room_data[4096];
  make_file ("room-src", room_data, sizeof room_data);
  int in = open_rd ("room-src");
  int out = openat (dfd, "room-out", O_WRONLY | O_CREAT | O_TRUNC
                    | O_CLOEXEC, 0644);
  if (out < 0)
    die ("room-out");
  lim.rlim_cur = (in > out ? in : out) + 1;
  if (setrlimit (RLIMIT_NOFILE, &lim) < 0)
    die ("setrlimit");
  bool full = fd_room (1) == 0;
  struct copy_request req = { .in_fd = in, .out_fd = out,
                              .length = COPY_TO_EOF,
                              .engines = COPY_ENGINE_BIT (COPY_ENGINE_SPLICE) };
  struct copy_result res;
  if (!full)
    skip ("fd_room: descriptors below the copy's are free");
  else
    {
      check_int (copy_range (&req, &res), -EMFILE,
                 "copy_range splice, no descriptor for the pipe: EMFILE");
      req.engines = COPY_ENGINE_BIT (COPY_ENGINE_SPLICE)
                    | COPY_ENGINE_BIT (COPY_ENGINE_RW);
      int ret = copy_range (&req, &res);
      check (ret == 0 && res.engine == COPY_ENGINE_RW && res.bytes > 0
             && !(res.declined & COPY_ENGINE_BIT (COPY_ENGINE_SPLICE)), NULL,
             "copy_range splice|rw, no descriptor for the pipe: read/write "
             "copies, splice not declined for good");
    }
  if (setrlimit (RLIMIT_NOFILE, &old) < 0)
    die ("setrlimit");
  close (in);
  close (out);
}

static void
test_shortpath (void)
{
  const char *shortp = "a/b/c";
  check (short_path (shortp) == shortp, NULL,
         "short_path: a short path is itself");
  char deep[2 * 300 + 8];
  char *p = deep;
  for (int i = 0; i < 300; i++)
    p = stpcpy (p, "d/");
  strcpy (p, "f");
  const char *s = short_path (deep);
  size_t len = strlen (s);
  /* This program does not call setlocale: the C locale's mark.  */
  check (len <= SHORT_PATH_MAX && strncmp (s, ".../d/", 6) == 0
         && strcmp (s + len - 4, "/d/f") == 0
         && strcmp (s + 3, deep + strlen (deep) - (len - 3)) == 0, s,
         "short_path: a 601-byte path: the mark and its end, from a '/'");
  char other[] = "x/y/z";
  const char *s1 = short_path_n (1, other);
  check (strncmp (short_path (deep), "...", 3) == 0 && s1 == other, NULL,
         "short_path_n: slots apart");
  char longname[2 + 250 + 1];
  memset (longname, 'a', sizeof longname - 1);
  longname[0] = 'x';
  longname[1] = '/';
  longname[sizeof longname - 1] = '\0';
  s = short_path (longname);
  check (strncmp (s, ".../", 4) == 0 && strlen (s) == 4 + 250, s,
         "short_path: a last component longer than the room is whole");
}

/* ------------------------------------------------------------------ */
/* A process's end and directories' changes, as descriptors.  */

static void
test_pidfd_inotify (void)
{
  long long s, l;
  int se, le;

  /* A pidfd of a child: readable once it has ended, not before.  */
  int pipefd[2];
  if (pipe2 (pipefd, O_CLOEXEC) != 0)
    die ("pipe2");
  pid_t child = fork ();
  if (child < 0)
    die ("fork");
  if (child == 0)
    {
      char c;
      close (pipefd[1]);
      _exit (read (pipefd[0], &c, 1) == 1 ? 0 : 1);
    }
  close (pipefd[0]);
  SYS (s, se, sys_pidfd_open (child, 0));
  LIBC (l, le, syscall (SYS_pidfd_open, child, 0));
  cmp_fd (s, se, l, le, "sys_pidfd_open of a child");
  if (l >= 0)
    close (l);
  if (s >= 0)
    {
      struct pollfd p = { .fd = s, .events = POLLIN };
      check_int (poll (&p, 1, 0), 0, "pidfd: not readable while it runs");
      xwrite (pipefd[1], "x", 1);
      check_int (poll (&p, 1, 10000), 1, "pidfd: readable once it ended");
      close (s);
    }
  close (pipefd[1]);
  waitpid (child, NULL, 0);
  /* The child is reaped: its pid names nothing.  */
  CMP (sys_pidfd_open (child, 0), syscall (SYS_pidfd_open, child, 0),
       "sys_pidfd_open of a reaped pid: ESRCH");
  CMP (sys_pidfd_open (getpid (), 1u << 20),
       syscall (SYS_pidfd_open, getpid (), 1u << 20),
       "sys_pidfd_open with an unknown flag: EINVAL");

  SYS (s, se, sys_inotify_init1 (IN_NONBLOCK | IN_CLOEXEC));
  LIBC (l, le, inotify_init1 (IN_NONBLOCK | IN_CLOEXEC));
  cmp_fd (s, se, l, le, "sys_inotify_init1");
  check_int (s >= 0 ? fcntl (s, F_GETFD) & FD_CLOEXEC : -1, FD_CLOEXEC,
             "sys_inotify_init1: close-on-exec");
  int ifd = s, lfd = l;
  long long swd, lwd;
  SYS (swd, se, sys_inotify_add_watch (ifd, scratch, IN_CREATE));
  LIBC (lwd, le, inotify_add_watch (lfd, scratch, IN_CREATE));
  cmp_sys_libc (swd, se, lwd, le, "sys_inotify_add_watch of a directory");
  CMP (sys_inotify_add_watch (ifd, "/nonexistent/x", IN_CREATE),
       inotify_add_watch (lfd, "/nonexistent/x", IN_CREATE),
       "sys_inotify_add_watch of a missing path: ENOENT");
  int fd = openat (dfd, "inotify-created", O_WRONLY | O_CREAT | O_CLOEXEC,
                   0644);
  close (fd);
  union
  {
    struct inotify_event e;
    char bytes[4096];
  } buf;
  ssize_t n = sys_read (ifd, buf.bytes, sizeof buf.bytes);
  check (n > 0 && (buf.e.mask & IN_CREATE)
         && strcmp (buf.e.name, "inotify-created") == 0, "no IN_CREATE",
         "sys_inotify_add_watch: the creation reported");
  CMP (sys_inotify_rm_watch (ifd, (int) swd), inotify_rm_watch (lfd, lwd),
       "sys_inotify_rm_watch");
  CMP (sys_inotify_rm_watch (ifd, (int) swd), inotify_rm_watch (lfd, lwd),
       "sys_inotify_rm_watch again: EINVAL");
  unlinkat (dfd, "inotify-created", 0);
  close (ifd);
  close (lfd);
}

/* ------------------------------------------------------------------ */

int
main (void)
{
  scratch = tap_scratch ("/tmp");
  if (!scratch)
    die ("mkdtemp");
  umask (022);
  dfd = open (scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    die (scratch);

  test_nc_errno ();
  test_plain_io ();
  test_openat ();
  test_stat ();
  test_links ();
  test_mknodat ();
  test_owner_mode ();
  test_fd_attrs ();
  test_utimensat ();
  test_getdents ();
  test_splice ();
  test_cfr_sendfile ();
  test_preadv ();
  test_signals ();
  test_pidfd_inotify ();
  test_namespaces ();
  test_mount_prctl_caps ();
  test_fcntl_ioctl ();
  test_old_kernel ();
  test_fdroom ();
  test_shortpath ();

  return tap_done ();
}
