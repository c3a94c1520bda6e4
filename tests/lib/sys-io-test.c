/* sys-io-test.c -- the C test driver of lib/sys/calls.h's plain I/O
   (read, write, close, pipe2, lseek, fsync), its calls that move data
   between descriptors (splice, tee, vmsplice, copy_file_range, sendfile)
   and its positioned, vectored I/O (preadv, pwritev, preadv2, pwritev2),
   with nc_errno: each wrapper against the libc function called with the
   same arguments (sys-test.h).  */

#include <config.h>

#define TAP_NAME "sys-io-test"
#include "sys-test.h"

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

int
main (void)
{
  sys_test_start ();

  test_nc_errno ();
  test_plain_io ();
  test_splice ();
  test_cfr_sendfile ();
  test_preadv ();

  return tap_done ();
}
