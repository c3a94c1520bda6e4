/* uring-test.c -- test driver of lib/sys/uring: batches of reads and writes
   at many offsets through io_uring, checked against pread.

   Where the kernel has no io_uring for us (qemu-user answers ENOSYS,
   kernel.io_uring_disabled or seccomp EPERM), the cases skip saying so;
   the fallback itself is checked by running this driver again under
   tests/helpers/enosys-exec ("uring-test --open-only" reports nc_uring_open's
   answer, or nc_uring_read's, as its exit status).  */

#include <config.h>

#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "sys/uring.h"

#define TAP_NAME "uring-test"
#include "tap.h"

static const char *scratch;
static int dfd = -1;

enum { FILE_SIZE = 1 << 20 };
static unsigned char *content;  /* what the test file holds */
static int file_fd = -1;

static void
make_file (void)
{
  content = malloc (FILE_SIZE);
  if (!content)
    tap_die ("malloc");
  fill_random (content, FILE_SIZE, 16);
  file_fd = xopenat (dfd, "data", O_RDWR | O_CREAT | O_TRUNC);
  xwrite (file_fd, content, FILE_SIZE);
}

/* A transfer of the IOVCNT buffers at IOV, at OFFSET.  */
static struct nc_uring_xfer
xfer (uint64_t offset, struct iovec *iov, int iovcnt)
{
  return (struct nc_uring_xfer) { .offset = offset, .iov = iov,
                                  .iovcnt = iovcnt };
}

/* A pseudo-random number below LIMIT.  */
static uint32_t
rnd (uint32_t limit)
{
  static uint32_t x = 2005;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x % limit;
}

/* Opening: the entries the kernel gave, and closing.  */
static void
test_open_close (void)
{
  struct nc_uring ring;
  int ret = nc_uring_open (&ring, 100);
  tap_check_int (ret, 0, "nc_uring_open 100 entries");
  tap_ok (ring.entries >= 100 && (ring.entries & (ring.entries - 1)) == 0,
          "entries rounded up to a power of two (%u)", ring.entries);
  tap_ok (ring.stats.enters == 0 && ring.stats.sqes == 0,
          "a new ring has counted nothing");
  nc_uring_close (&ring);
  tap_ok (ring.fd == -1, "closed");
  ret = nc_uring_open (&ring, 1u << 30);
  tap_ok (ret == 0 && ring.entries == NC_URING_MAX_ENTRIES,
          "entries capped at NC_URING_MAX_ENTRIES (%d, %u)", ret,
          ring.entries);
  if (ret == 0)
    nc_uring_close (&ring);
}

/* Make RING go the way of kernels before 5.6 and 5.5: READV and WRITEV
   SQEs for one buffer too, the file named by its descriptor.  */
static void
plain_sqes (struct nc_uring *ring)
{
  ring->op_read_write = false;
  ring->fixed_file = false;
}

/* N reads of LEN bytes at random offsets through a ring of ENTRIES
   (PLAIN: plain_sqes): bytes compared with the file, and the counters.  */
static void
test_many_reads (unsigned int entries, size_t n, size_t len, bool plain)
{
  struct nc_uring ring;
  if (nc_uring_open (&ring, entries) != 0)
    tap_die ("nc_uring_open");
  if (plain)
    plain_sqes (&ring);
  struct nc_uring_xfer *x = calloc (n, sizeof *x);
  struct iovec *iov = calloc (n, sizeof *iov);
  unsigned char *buf = calloc (n, len);
  if (!x || !iov || !buf)
    tap_die ("calloc");
  for (size_t i = 0; i < n; i++)
    {
      iov[i] = (struct iovec) { buf + i * len, len };
      x[i] = xfer (rnd (FILE_SIZE - len), &iov[i], 1);
    }
  int ret = nc_uring_read (&ring, file_fd, x, n, 0);
  size_t good = 0;
  for (size_t i = 0; i < n; i++)
    good += (x[i].done == len && x[i].error == 0 && !x[i].eof
             && memcmp (buf + i * len, content + x[i].offset, len) == 0
             && x[i].iovcnt == 0);
  tap_check_int (ret, 0, "%zu reads of %zu bytes, ring of %u%s", n, len,
                 ring.entries, plain ? ", READV SQEs" : "");
  tap_check_int (good, n, "%zu reads: every one whole and as pread reads",
                 n);
  tap_check_int (ring.stats.sqes, n, "%zu reads: one SQE each", n);
  printf ("# %zu reads, ring of %u: %llu io_uring_enter calls\n", n,
          ring.entries, (unsigned long long) ring.stats.enters);
  /* Page cache warm: a ring-full an enter; even with no read completing
     inline, an enter per eighth of the ring.  */
  tap_ok (ring.stats.enters <= (n * 8) / ring.entries + 2,
          "%zu reads: %llu enters, at most one per eighth of the ring", n,
          (unsigned long long) ring.stats.enters);
  nc_uring_close (&ring);
  free (x);
  free (iov);
  free (buf);
}

/* Transfers of several iovecs each, one of them empty.  */
static void
test_multi_iovec (void)
{
  struct nc_uring ring;
  if (nc_uring_open (&ring, 4) != 0)
    tap_die ("nc_uring_open");
  enum { N = 10 };
  static unsigned char a[N][7], b[N][1], c[N][300];
  struct iovec iov[N][4];
  struct nc_uring_xfer x[N];
  for (int i = 0; i < N; i++)
    {
      iov[i][0] = (struct iovec) { a[i], sizeof a[i] };
      iov[i][1] = (struct iovec) { b[i], 0 };
      iov[i][2] = (struct iovec) { b[i], sizeof b[i] };
      iov[i][3] = (struct iovec) { c[i], sizeof c[i] };
      x[i] = xfer (rnd (FILE_SIZE - 400), iov[i], 4);
    }
  int ret = nc_uring_read (&ring, file_fd, x, N, 0);
  int good = 0;
  for (int i = 0; i < N; i++)
    {
      const unsigned char *at = content + x[i].offset;
      good += (x[i].done == 308 && x[i].error == 0
               && memcmp (a[i], at, 7) == 0 && b[i][0] == at[7]
               && memcmp (c[i], at + 8, 300) == 0);
    }
  tap_check_int (ret, 0, "multi-iovec reads");
  tap_check_int (good, N, "multi-iovec reads: 4 iovecs (one empty) each, "
                 "bytes as pread reads");
  nc_uring_close (&ring);
}

/* A read spanning EOF is short; its resubmission for the rest reads 0:
   done is what was there, EOF set, after two SQEs.  This is the real
   short read of a regular file this driver can make happen: a page
   cache read is otherwise whole below 2 GiB.  One past EOF reads 0 at
   once.  An empty transfer ends without an SQE.  */
static void
test_eof (void)
{
  struct nc_uring ring;
  if (nc_uring_open (&ring, 4) != 0)
    tap_die ("nc_uring_open");
  unsigned char span[100], past[10];
  struct iovec iov[3] = { { span, 60 }, { span + 60, 40 }, { past, 10 } };
  struct iovec empty = { past, 0 };
  struct nc_uring_xfer x[3] = {
    xfer (FILE_SIZE - 30, &iov[0], 2),
    xfer (FILE_SIZE + 100, &iov[2], 1),
    xfer (0, &empty, 1),
  };
  int ret = nc_uring_read (&ring, file_fd, x, 3, 0);
  tap_check_int (ret, 0, "reads at EOF");
  tap_ok (x[0].done == 30 && x[0].eof && x[0].error == 0
          && memcmp (span, content + FILE_SIZE - 30, 30) == 0,
          "a read spanning EOF: done %llu, the 30 bytes there, eof",
          (unsigned long long) x[0].done);
  tap_ok (x[0].iov == &iov[0] && iov[0].iov_base == span + 30
          && iov[0].iov_len == 30 && x[0].iovcnt == 2,
          "its iovecs advanced in place past the 30 bytes");
  tap_ok (x[1].done == 0 && x[1].eof && x[1].error == 0,
          "a read past EOF: done 0, eof");
  tap_ok (x[2].done == 0 && !x[2].eof && x[2].error == 0,
          "an empty transfer: done 0, no eof");
  tap_check_int (ring.stats.sqes, 3, "the short read resubmitted for its "
                 "rest: 2 SQEs, 1 for the read past EOF, none for the "
                 "empty one");
  nc_uring_close (&ring);
}

/* Errors are per transfer, and leave the ring fit for the next batch.  */
static void
test_errors (void)
{
  struct nc_uring ring;
  if (nc_uring_open (&ring, 8) != 0)
    tap_die ("nc_uring_open");
  unsigned char buf[3][16];
  struct iovec iov[3] = { { buf[0], 16 }, { buf[1], 16 }, { buf[2], 16 } };
  struct nc_uring_xfer x[3] = {
    xfer (1000, &iov[0], 1), xfer (UINT64_MAX - 4096, &iov[1], 1),
    xfer (5000, &iov[2], 1),
  };
  int ret = nc_uring_read (&ring, file_fd, x, 3, 0);
  tap_check_int (ret, 0, "a batch with a negative offset in it");
  tap_check_int (x[1].error, -EINVAL, "the transfer at a negative offset: "
                 "its own error");
  tap_ok (x[0].done == 16 && x[0].error == 0 && x[2].done == 16
          && x[2].error == 0 && memcmp (buf[0], content + 1000, 16) == 0
          && memcmp (buf[2], content + 5000, 16) == 0,
          "the transfers around it whole");

  int bad = xopenat (dfd, "data", O_RDONLY);
  close (bad);
  for (int i = 0; i < 3; i++)
    iov[i] = (struct iovec) { buf[i], 16 };
  x[1].offset = 2000;
  x[1].iov = &iov[1];
  x[0].iov = &iov[0];
  x[2].iov = &iov[2];
  x[0].iovcnt = x[1].iovcnt = x[2].iovcnt = 1;
  ret = nc_uring_read (&ring, bad, x, 3, 0);
  tap_ok (ret == 0 && x[0].error == -EBADF && x[1].error == -EBADF
          && x[2].error == -EBADF && x[0].done + x[1].done + x[2].done == 0,
          "a closed descriptor: -EBADF for each transfer, done 0");
  for (int i = 0; i < 3; i++)
    iov[i] = (struct iovec) { buf[i], 16 };
  x[0].iov = &iov[0];
  x[1].iov = &iov[1];
  x[2].iov = &iov[2];
  ret = nc_uring_read (&ring, file_fd, x, 3, RWF_NOWAIT);
  /* A file system whose reads all may block (tmpfs: no FMODE_NOWAIT)
     refuses the flag, each read with -EOPNOTSUPP.  */
  int good = 0;
  for (int i = 0; i < 3; i++)
    good += (x[i].error == 0 && x[i].done == 16
             && memcmp (buf[i], content + x[i].offset, 16) == 0)
            || ((x[i].error == -EAGAIN || x[i].error == -EOPNOTSUPP)
                && x[i].done == 0);
  tap_ok (ret == 0 && good == 3, "the same ring afterwards, RWF_NOWAIT "
          "accepted: whole reads of the page cache (or -EAGAIN, "
          "or -EOPNOTSUPP on tmpfs)");
  nc_uring_close (&ring);
}

/* The bytes of FD at OFF compared with WANT.  */
static bool
file_has (int fd, off_t off, const void *want, size_t len)
{
  unsigned char got[256];
  if (len > sizeof got)
    abort ();
  return read_at (fd, got, len, off) == len && memcmp (got, want, len) == 0;
}

/* Many distant writes, each with its own 4 bytes, LINK or not and with
   DATASYNC or not; read back with pread.  */
static void
test_many_writes (unsigned int flags, const char *how)
{
  struct nc_uring ring;
  if (nc_uring_open (&ring, 16) != 0)
    tap_die ("nc_uring_open");
  int fd = xopenat (dfd, "written", O_RDWR | O_CREAT | O_TRUNC);
  size_t n = 3 * ring.entries + 1;
  struct nc_uring_xfer *x = calloc (n, sizeof *x);
  struct iovec *iov = calloc (n, sizeof *iov);
  unsigned char *bytes = malloc (4 * n);
  if (!x || !iov || !bytes)
    tap_die ("calloc");
  fill_random (bytes, 4 * n, (uint32_t) n + flags);
  for (size_t i = 0; i < n; i++)
    {
      iov[i] = (struct iovec) { bytes + 4 * i, 4 };
      x[i] = xfer (((n - i) * 7919) % 4096 * 4096 + i, &iov[i], 1);
    }
  int sync_error = 1;
  int ret = nc_uring_write (&ring, fd, x, n, 0, flags, &sync_error);
  size_t good = 0;
  for (size_t i = 0; i < n; i++)
    good += (x[i].done == 4 && x[i].error == 0
             && file_has (fd, (off_t) x[i].offset, bytes + 4 * i, 4));
  tap_check_int (ret, 0, "%zu distant writes, %s", n, how);
  tap_check_int (good, n, "%zu distant writes, %s: every one in the file",
                 n, how);
  tap_check_int (sync_error, 0, "%zu distant writes, %s: sync_error", n,
                 how);
  tap_check_int (ring.stats.sqes, n + !!(flags & NC_URING_DATASYNC),
                 "%zu distant writes, %s: SQEs", n, how);
  close (fd);
  nc_uring_close (&ring);
  free (x);
  free (iov);
  free (bytes);
}

/* A chain broken by a real error (PLAIN: plain_sqes).  Under
   RLIMIT_FSIZE (SIGXFSZ ignored) the write crossing the limit is short;
   the layer resubmits its rest,
   with the two writes the kernel cancelled behind it and the fdatasync,
   as a new chain; the rest, at the limit, fails with EFBIG, and the
   kernel cancels the two writes and the fdatasync for good.  */
static void
test_chain_broken (bool plain)
{
  enum { LIMIT = 65536 };
  struct nc_uring ring;
  if (nc_uring_open (&ring, 8) != 0)
    tap_die ("nc_uring_open");
  if (plain)
    plain_sqes (&ring);
  int fd = xopenat (dfd, "limited", O_RDWR | O_CREAT | O_TRUNC);
  unsigned char bytes[220];
  fill_random (bytes, sizeof bytes, 7);
  struct iovec iov[4] = { { bytes, 100 }, { bytes + 100, 100 },
                          { bytes + 200, 10 }, { bytes + 210, 10 } };
  struct nc_uring_xfer x[4] = {
    xfer (0, &iov[0], 1), xfer (LIMIT - 50, &iov[1], 1),
    xfer (200, &iov[2], 1), xfer (300, &iov[3], 1),
  };
  struct rlimit old, lim;
  if (getrlimit (RLIMIT_FSIZE, &old) != 0)
    tap_die ("getrlimit");
  lim = old;
  lim.rlim_cur = LIMIT;
  struct sigaction ign = { .sa_handler = SIG_IGN }, old_sa;
  if (sigaction (SIGXFSZ, &ign, &old_sa) != 0
      || setrlimit (RLIMIT_FSIZE, &lim) != 0)
    tap_die ("RLIMIT_FSIZE");
  int sync_error = 1;
  int ret = nc_uring_write (&ring, fd, x, 4, 0,
                            NC_URING_LINK | NC_URING_DATASYNC, &sync_error);
  if (setrlimit (RLIMIT_FSIZE, &old) != 0
      || sigaction (SIGXFSZ, &old_sa, NULL) != 0)
    tap_die ("RLIMIT_FSIZE");
  tap_check_int (ret, 0, "a chain across RLIMIT_FSIZE%s",
                 plain ? ", WRITEV SQEs" : "");
  tap_ok (x[0].done == 100 && x[0].error == 0, "the write before the limit "
          "whole (%llu, %d)", (unsigned long long) x[0].done, x[0].error);
  tap_ok (x[1].done == 50 && x[1].error == -EFBIG, "the write crossing it: "
          "50 bytes, then -EFBIG for its rest (%llu, %d)",
          (unsigned long long) x[1].done, x[1].error);
  tap_ok (x[2].done == 0 && x[2].error == -ECANCELED && x[3].done == 0
          && x[3].error == -ECANCELED, "the writes after it -ECANCELED, "
          "done 0 (%d, %d)", x[2].error, x[3].error);
  tap_check_int (sync_error, -ECANCELED, "the fdatasync not done");
  tap_check_int (ring.stats.sqes, 9, "SQEs: 4 writes and the fdatasync, "
                 "then the rest of the short one, the 2 cancelled writes "
                 "and the fdatasync as a new chain");
  static const unsigned char zero[10];
  tap_ok (file_has (fd, 0, bytes, 100) && file_has (fd, LIMIT - 50,
                                                    bytes + 100, 50)
          && file_has (fd, 200, zero, 10) && file_has (fd, 300, zero, 10),
          "the file has the bytes written and not the cancelled ones");
  close (fd);
  nc_uring_close (&ring);
}

/* A chain with a transfer the kernel refuses at submission (more
   iovecs than IOV_MAX): the kernel fails the whole chain, the writes
   before it with -ECANCELED (or, where it imports iovecs only when the
   write runs, done); none after it is done.  */
static void
test_chain_refused (void)
{
  struct nc_uring ring;
  if (nc_uring_open (&ring, 8) != 0)
    tap_die ("nc_uring_open");
  int fd = xopenat (dfd, "refused", O_RDWR | O_CREAT | O_TRUNC);
  enum { TOO_MANY = 2000 };
  static struct iovec many[TOO_MANY];
  unsigned char bytes[20];
  fill_random (bytes, sizeof bytes, 9);
  for (int i = 0; i < TOO_MANY; i++)
    many[i] = (struct iovec) { bytes, 1 };
  struct iovec iov[2] = { { bytes, 10 }, { bytes + 10, 10 } };
  struct nc_uring_xfer x[3] = {
    xfer (0, &iov[0], 1), xfer (100, many, TOO_MANY), xfer (200, &iov[1], 1),
  };
  int sync_error = 1;
  int ret = nc_uring_write (&ring, fd, x, 3, 0,
                            NC_URING_LINK | NC_URING_DATASYNC, &sync_error);
  bool first_cancelled = x[0].error == -ECANCELED && x[0].done == 0;
  bool first_done = x[0].error == 0 && x[0].done == 10;
  tap_check_int (ret, 0, "a chain with a write of %d iovecs", TOO_MANY);
  tap_check_int (x[1].error, -EINVAL, "the write of %d iovecs: -EINVAL",
                 TOO_MANY);
  tap_ok ((first_cancelled || first_done) && x[2].error == -ECANCELED
          && x[2].done == 0 && sync_error == -ECANCELED,
          "the write before it %s, the one after it -ECANCELED",
          first_done ? "done" : "-ECANCELED");
  struct stat st;
  if (fstat (fd, &st) != 0)
    tap_die ("fstat");
  tap_ok (st.st_size == (first_done ? 10 : 0),
          "the file as DONE says (%lld bytes)", (long long) st.st_size);
  close (fd);
  nc_uring_close (&ring);
}

/* A pipe (which io_uring would read and write at no offset): every
   transfer -ESPIPE, the pipe untouched.  */
static void
test_pipe (void)
{
  struct nc_uring ring;
  if (nc_uring_open (&ring, 8) != 0)
    tap_die ("nc_uring_open");
  int p[2];
  if (pipe (p) != 0)
    tap_die ("pipe");
  xwrite (p[1], "abc", 3);
  char buf[2][3];
  struct iovec iov[2] = { { buf[0], 3 }, { buf[1], 3 } };
  struct nc_uring_xfer x[2] = { xfer (0, &iov[0], 1), xfer (3, &iov[1], 1) };
  int ret = nc_uring_read (&ring, p[0], x, 2, 0);
  tap_ok (ret == 0 && x[0].error == -ESPIPE && x[1].error == -ESPIPE
          && x[0].done + x[1].done == 0, "reads of a pipe: -ESPIPE each");
  int sync_error = 1;
  ret = nc_uring_write (&ring, p[1], x, 2, 0, NC_URING_LINK, &sync_error);
  tap_ok (ret == 0 && x[0].error == -ESPIPE && x[1].error == -ESPIPE,
          "writes to a pipe: -ESPIPE each");
  char left[4];
  tap_ok (read (p[0], left, sizeof left) == 3
          && memcmp (left, "abc", 3) == 0, "the pipe untouched");
  close (p[1]);
  close (p[0]);
  nc_uring_close (&ring);
}

/* The savings of Linux 5.5 and 5.6 are taken where the kernel has them;
   a batch leaves the file table empty (a descriptor number reused for
   another file reads that file).  */
static void
test_fast_paths (void)
{
  struct nc_uring ring;
  if (nc_uring_open (&ring, 8) != 0)
    tap_die ("nc_uring_open");
  struct utsname u;
  int major = 0, minor = 0;
  if (uname (&u) == 0)
    sscanf (u.release, "%d.%d", &major, &minor);
  if (major > 5 || (major == 5 && minor >= 6))
    tap_ok (ring.op_read_write && ring.fixed_file, "Linux %d.%d: READ and "
            "WRITE SQEs, and the file table, in use", major, minor);
  else
    tap_skip ("READ and WRITE SQEs, the file table: Linux %d.%d is "
              "older than 5.6", major, minor);

  unsigned char other[16], got[16];
  fill_random (other, sizeof other, 77);
  int fd = xopenat (dfd, "other", O_RDWR | O_CREAT | O_TRUNC);
  xwrite (fd, other, sizeof other);
  struct iovec iov = { got, sizeof got };
  struct nc_uring_xfer x = xfer (0, &iov, 1);
  int ret = nc_uring_read (&ring, file_fd, &x, 1, 0);
  int data_fd = file_fd;
  if (ret != 0 || dup2 (fd, data_fd) != data_fd)
    tap_die ("dup2");
  iov = (struct iovec) { got, sizeof got };
  x = xfer (0, &iov, 1);
  ret = nc_uring_read (&ring, data_fd, &x, 1, 0);
  tap_ok (ret == 0 && x.done == sizeof got
          && memcmp (got, other, sizeof got) == 0,
          "the same descriptor number, now another file: that file read");
  /* The kernel's own view: /proc/self/fdinfo of a ring lists its file
     table after "UserFiles:", a line "    0: NAME" for slot 0 when
     it holds a file ("<none>" or nothing when it is empty).  */
  char path[64], info[8192];
  snprintf (path, sizeof path, "/proc/self/fdinfo/%d", ring.fd);
  int info_fd = open (path, O_RDONLY | O_CLOEXEC);
  size_t len = info_fd < 0 ? 0 : read_all (info_fd, info, sizeof info - 1);
  info[len] = '\0';
  if (info_fd >= 0)
    close (info_fd);
  char *files = strstr (info, "UserFiles:");
  char *bufs = files ? strstr (files, "UserBufs:") : NULL;
  if (bufs)
    {
      *bufs = '\0';
      char *slot = strstr (files, " 0: ");
      tap_ok (!slot || strncmp (slot, " 0: <none>", 10) == 0,
              "after a batch the file table is empty (%s)", path);
    }
  else
    tap_skip ("the file table after a batch: %s does not list it", path);
  /* Put the test file back under its number.  */
  int back = xopenat (dfd, "data", O_RDWR);
  if (dup2 (back, data_fd) != data_fd)
    tap_die ("dup2");
  close (back);
  close (fd);
  nc_uring_close (&ring);
}

/* "uring-test --open-only": nc_uring_open's answer as the exit status
   (0, or the errno), or when it opened, nc_uring_read's of one read of
   this file.  */
static int
open_only (void)
{
  struct nc_uring ring;
  int ret = nc_uring_open (&ring, 8);
  if (ret != 0)
    return -ret;
  int fd = open ("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 125;
  char buf[4];
  struct iovec iov = { buf, sizeof buf };
  struct nc_uring_xfer x = xfer (0, &iov, 1);
  ret = nc_uring_read (&ring, fd, &x, 1, 0);
  if (ret == 0 && (x.done != sizeof buf || memcmp (buf, "\177ELF", 4) != 0))
    ret = -EIO;
  nc_uring_close (&ring);
  close (fd);
  return -ret;
}

/* The status of this driver run with --open-only under enosys-exec with
   the filter SPEC; -1 if it did not exit.  */
static int
run_filtered (const char *enosys_exec, const char *spec)
{
  /* The driver's own file: /proc/self/exe would name enosys-exec by the
     time enosys-exec runs it.  */
  char self[4096];
  ssize_t len = readlink ("/proc/self/exe", self, sizeof self - 1);
  if (len < 0)
    tap_die ("/proc/self/exe");
  self[len] = '\0';
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    tap_die ("fork");
  if (pid == 0)
    {
      execl (enosys_exec, enosys_exec, spec, self, "--open-only",
             (char *) NULL);
      _exit (126);
    }
  int status;
  if (waitpid (pid, &status, 0) != pid)
    tap_die ("waitpid");
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* nc_uring_open where io_uring_setup answers ENOSYS (an old kernel,
   qemu-user) and EPERM (kernel.io_uring_disabled, a seccomp policy).  */
static void
test_unavailable (const char *argv0)
{
  if (getenv ("NC_QEMU"))
    {
      tap_skip ("nc_uring_open under seccomp: under qemu-user (%s) the host "
                "filter would see qemu's calls, and io_uring_setup answers "
                "ENOSYS anyway", getenv ("NC_QEMU"));
      return;
    }
  char helper[4096];
  const char *env = getenv ("NC_ENOSYS_EXEC");
  const char *slash = strrchr (argv0, '/');
  if (env)
    snprintf (helper, sizeof helper, "%s", env);
  else
    /* The helpers are built in tests/helpers, beside tests/lib.  */
    snprintf (helper, sizeof helper, "%.*s../helpers/enosys-exec",
              slash ? (int) (slash - argv0 + 1) : 0, argv0);
  if (access (helper, X_OK) != 0)
    {
      tap_skip ("nc_uring_open under seccomp: no %s", helper);
      return;
    }
  tap_check_int (run_filtered (helper, "io_uring_setup"), ENOSYS,
                 "nc_uring_open where io_uring_setup answers ENOSYS");
  tap_check_int (run_filtered (helper, "io_uring_setup:EPERM"), EPERM,
                 "nc_uring_open where io_uring_setup answers EPERM");
  tap_check_int (run_filtered (helper, "io_uring_enter"), ENOSYS,
                 "nc_uring_read where io_uring_enter answers ENOSYS: the "
                 "ring's own error");
  tap_check_int (run_filtered (helper, "splice"), 0,
                 "the same driver with io_uring allowed: open and read");
}

int
main (int argc, char **argv)
{
  if (argc == 2 && strcmp (argv[1], "--open-only") == 0)
    return open_only ();

  test_unavailable (argv[0]);

  struct nc_uring probe;
  int ret = nc_uring_open (&probe, 8);
  if (ret == -ENOSYS || ret == -EPERM)
    {
      tap_skip ("lib/sys/uring: nc_uring_open: %s (%s): the tools use preadv "
                "and pwritev here", strerror (-ret),
                getenv ("NC_QEMU") ? "qemu-user"
                : ret == -EPERM ? "kernel.io_uring_disabled or seccomp"
                : "no io_uring in this kernel");
      return tap_done ();
    }
  if (ret == 0)
    nc_uring_close (&probe);

  scratch = tap_scratch ("/tmp");
  if (!scratch)
    tap_die ("mkdtemp");
  dfd = open (scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    tap_die (scratch);
  make_file ();

  test_open_close ();
  test_fast_paths ();
  test_many_reads (64, 3 * 64, 4, false);
  test_many_reads (64, 3 * 64, 4, true);
  test_many_reads (1024, 10000, 4, false);
  test_many_reads (4096, 10000, 4, false);
  test_multi_iovec ();
  test_eof ();
  test_errors ();
  test_many_writes (0, "each on its own");
  test_many_writes (NC_URING_DATASYNC, "then fdatasync");
  test_many_writes (NC_URING_LINK, "linked");
  test_many_writes (NC_URING_LINK | NC_URING_DATASYNC, "linked, fdatasync");
  test_chain_broken (false);
  test_chain_broken (true);
  test_chain_refused ();
  test_pipe ();

  close (file_fd);
  free (content);
  return tap_done ();
}
