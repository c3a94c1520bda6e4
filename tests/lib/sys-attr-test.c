/* sys-attr-test.c -- the C test driver of lib/sys/calls.h's calls that
   change attributes: of the *at family fchownat, fchmodat (also on a
   kernel without fchmodat2), faccessat, utimensat; the descriptor-based
   ftruncate, fchmod and xattr calls.  Each wrapper against the libc
   function called with the same arguments (sys-test.h).  */

#include <config.h>

#define TAP_NAME "sys-attr-test"
#include "sys-test.h"

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

  /* sys_faccessat_effective: the effective ids' answer, as cp and rm
     ask it.  */
  CMP (sys_faccessat_effective (dfd, "own-sys", W_OK),
       faccessat (dfd, "own-sys", W_OK, AT_EACCESS),
       "sys_faccessat_effective W_OK on a 0644 file");
  CMP (sys_faccessat_effective (dfd, "own-sys", X_OK),
       faccessat (dfd, "own-sys", X_OK, AT_EACCESS),
       "sys_faccessat_effective X_OK on a 0644 file: EACCES");
  CMP (sys_faccessat_effective (dfd, "missing", W_OK),
       faccessat (dfd, "missing", W_OK, AT_EACCESS),
       "sys_faccessat_effective of a missing file: ENOENT");
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

int
main (void)
{
  sys_test_start ();

  test_owner_mode ();
  test_fd_attrs ();
  test_utimensat ();
  test_old_kernel ();

  return tap_done ();
}
