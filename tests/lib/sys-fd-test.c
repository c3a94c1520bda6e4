/* sys-fd-test.c -- the C test driver of lib/sys/calls.h's descriptor
   control (fcntl, its record locks, ioctl), of the descriptor room
   (sys/fdroom.h) and of paths shortened for messages (cli/shortpath.h):
   each wrapper against the libc function called with the same arguments
   (sys-test.h).  */

#include <config.h>

#define TAP_NAME "sys-fd-test"
#include "sys-test.h"

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
/* The record locks of sys_fcntl_lock, as pwritev-patch takes them: an
   OFD lock beyond 4 GiB (struct flock is flock64), the conflict of a
   second open file, the lock reported, released and bad descriptors,
   each as libc's fcntl answers.  */

static void
test_fcntl_lock (void)
{
  long long s, l;
  int se, le;
  int a = open_rw ("exists"), b = open_rw ("exists");
  struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
                      .l_start = 6 * GiB, .l_len = 0 };
  SYS (s, se, sys_fcntl_lock (a, F_OFD_SETLK, &lk));
  check_int (s, 0, "sys_fcntl_lock F_OFD_SETLK from 6 GiB to the end");
  struct flock mine = lk, libcs = lk;
  CMP (sys_fcntl_lock (b, F_OFD_SETLK, &mine), fcntl (b, F_OFD_SETLK, &libcs),
       "sys_fcntl_lock F_OFD_SETLK of another open file: EAGAIN");
  mine = (struct flock) { .l_type = F_RDLCK, .l_whence = SEEK_SET,
                          .l_start = 7 * GiB, .l_len = 1 };
  libcs = mine;
  SYS (s, se, sys_fcntl_lock (b, F_OFD_GETLK, &mine));
  LIBC (l, le, fcntl (b, F_OFD_GETLK, &libcs));
  cmp_sys_libc (s, se, l, le, "sys_fcntl_lock F_OFD_GETLK");
  check (mine.l_type == F_WRLCK && mine.l_start == 6 * GiB
         && mine.l_len == 0 && mine.l_pid == -1, "not the lock",
         "sys_fcntl_lock F_OFD_GETLK: the write lock, pid -1 (OFD)");
  check (mine.l_type == libcs.l_type && mine.l_start == libcs.l_start
         && mine.l_len == libcs.l_len && mine.l_pid == libcs.l_pid,
         "differs", "sys_fcntl_lock F_OFD_GETLK: the struct as libc's");
  mine = (struct flock) { .l_type = F_RDLCK, .l_whence = SEEK_SET,
                          .l_start = 0, .l_len = 6 * GiB };
  SYS (s, se, sys_fcntl_lock (b, F_OFD_SETLKW, &mine));
  check_int (s, 0, "sys_fcntl_lock F_OFD_SETLKW below the lock: no wait");
  lk.l_type = F_UNLCK;
  SYS (s, se, sys_fcntl_lock (a, F_OFD_SETLK, &lk));
  check_int (s, 0, "sys_fcntl_lock F_UNLCK");
  mine = (struct flock) { .l_type = F_WRLCK, .l_whence = SEEK_SET,
                          .l_start = 6 * GiB, .l_len = 0 };
  SYS (s, se, sys_fcntl_lock (b, F_OFD_SETLK, &mine));
  check_int (s, 0, "sys_fcntl_lock F_OFD_SETLK once released");
  mine.l_pid = 1;
  libcs = mine;
  CMP (sys_fcntl_lock (a, F_OFD_SETLK, &mine), fcntl (a, F_OFD_SETLK, &libcs),
       "sys_fcntl_lock F_OFD_SETLK with l_pid set: EINVAL");
  mine.l_pid = 0;
  libcs = mine;
  CMP (sys_fcntl_lock (-1, F_OFD_SETLK, &mine),
       fcntl (-1, F_OFD_SETLK, &libcs), "sys_fcntl_lock of fd -1: EBADF");
  close (a);
  close (b);
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

int
main (void)
{
  sys_test_start ();
  /* The regular file the cases open.  */
  make_file ("exists", "data", 4);

  test_fcntl_ioctl ();
  test_fcntl_lock ();
  test_fdroom ();
  test_shortpath ();

  return tap_done ();
}
