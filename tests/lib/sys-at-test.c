/* sys-at-test.c -- the C test driver of lib/sys/calls.h's *at family
   that makes, finds and reads entries (openat, fstatat, fstat, statx,
   symlinkat, readlinkat, linkat, renameat2, unlinkat, mkdirat, mknodat,
   getdents64): each wrapper against the libc function called with the
   same arguments (sys-test.h).  */

#include <config.h>

#define TAP_NAME "sys-at-test"
#include "sys-test.h"

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

/* NAME: a file larger than 32 bits can say, 6 GiB, with 4 KiB of data at
   5 GiB (as sys-io-test's lseek cases make it).  */
static void
make_sparse (const char *name)
{
  char buf[4096];
  int fd = open_rw (name);
  memset (buf, 'S', sizeof buf);
  if (ftruncate (fd, 6 * GiB) < 0
      || pwrite (fd, buf, sizeof buf, 5 * GiB) != (ssize_t) sizeof buf)
    die (name);
  close (fd);
}

int
main (void)
{
  sys_test_start ();
  make_sparse ("sparse");

  test_openat ();
  test_stat ();
  test_links ();
  test_mknodat ();
  test_getdents ();

  return tap_done ();
}
