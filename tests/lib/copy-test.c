/* copy-test.c -- the C test driver of lib/copy/engine.c and
   lib/copy/data.c.  The engine is tried against short transfers that the
   kernel really makes:

   - into a non-blocking socket with a small send buffer, which a reader
     drains a few bytes at a time: every write, splice or sendfile takes
     what fits, and EAGAIN comes between;
   - out of a socket that a writer fills a few bytes at a time: every read
     or splice returns what arrived;
   - into a regular file under RLIMIT_FSIZE: the write that reaches the
     limit is cut short, the next one fails with EFBIG.

   Each copy must be byte-exact, its count and the offsets it advances
   exact.  Every check prints "ok N - what" or "not ok N - what (detail)";
   the last line is "copy-test: N passed, M failed, K skipped"; the exit
   status is 1 if a check failed.  Scratch files live in a mkdtemp directory under
   /tmp, removed at the end.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "copy/data.h"
#include "copy/engine.h"

/* gnulib replaces these; the tests want glibc's own.  */
#undef fcntl
#undef open
#undef close

#define DATA_LEN (256 * 1024 + 4321)

#define TAP_NAME "copy-test"
#include "tap.h"

#define check tap_check
#define check_int tap_check_int
#define skip tap_skip
#define die tap_die

static unsigned char data[DATA_LEN];
static unsigned char got[DATA_LEN];

/* A fixed sequence, so that a failure is the same on every run.  */
static uint32_t rng_state = 20240613;

static uint32_t
rng (void)
{
  rng_state = rng_state * 1103515245u + 12345u;
  return rng_state >> 8;
}

static void
nap_us (long us)
{
  struct timespec ts = { 0, us * 1000 };
  nanosleep (&ts, NULL);
}

static int
make_file (const char *name, const void *buf, size_t len)
{
  int fd = open (name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    die (name);
  for (size_t done = 0; done < len;)
    {
      ssize_t n = write (fd, (const char *) buf + done, len - done);
      if (n <= 0)
        die ("write");
      done += n;
    }
  if (lseek (fd, 0, SEEK_SET) < 0)
    die ("lseek");
  return fd;
}

/* The LEN bytes of FD at 0 into got[]; how many there were.  */
static size_t
read_back (int fd, size_t len)
{
  size_t done = 0;
  while (done < len)
    {
      ssize_t n = pread (fd, got + done, len - done, done);
      if (n < 0)
        die ("pread");
      if (n == 0)
        break;
      done += n;
    }
  return done;
}

/* A stream socket pair; the end SLOW_END of it with a send buffer as
   small as the kernel allows, non-blocking if NONBLOCK.  */
static void
small_socketpair (int sv[2], int slow_end, bool nonblock)
{
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
    die ("socketpair");
  int size = 1;                 /* rounded up to the kernel's minimum */
  setsockopt (sv[slow_end], SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
  setsockopt (sv[1 - slow_end], SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
  if (nonblock && fcntl (sv[slow_end], F_SETFL, O_NONBLOCK) < 0)
    die ("O_NONBLOCK");
}

/* Child: read FD to its end a few bytes at a time (1 to 700), pausing now
   and then; exit 0 if the bytes are those of data[] from FROM on, all of
   them.  */
static _Noreturn void
dribbling_reader (int fd, size_t from)
{
  static unsigned char buf[700];
  size_t at = from;
  for (;;)
    {
      size_t want = 1 + rng () % sizeof buf;
      ssize_t n = read (fd, buf, want);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        _exit (3);
      if (n == 0)
        break;
      if (at + n > DATA_LEN || memcmp (buf, data + at, n) != 0)
        _exit (1);
      at += n;
      if (rng () % 16 == 0)
        nap_us (200);
    }
  _exit (at == DATA_LEN ? 0 : 2);
}

/* Child: write data[] to FD a few bytes at a time (1 to 900), pausing
   now and then, then end.  A reader that stops early (EPIPE) is fine.  */
static _Noreturn void
dribbling_writer (int fd)
{
  signal (SIGPIPE, SIG_IGN);
  for (size_t at = 0; at < DATA_LEN;)
    {
      size_t want = 1 + rng () % 900;
      if (want > DATA_LEN - at)
        want = DATA_LEN - at;
      ssize_t n = write (fd, data + at, want);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        /* The reader stopped early and closed its end with bytes unread:
           EPIPE, or ECONNRESET when the close found them waiting (as
           under qemu-user on riscv64, once in CI).  */
        _exit (errno == EPIPE || errno == ECONNRESET ? 0 : 3);
      at += n;
      if (rng () % 16 == 0)
        nap_us (200);
    }
  _exit (0);
}

static int
wait_child (pid_t pid)
{
  int status;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      die ("waitpid");
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

static const enum copy_engine out_engines[] = {
  COPY_ENGINE_SPLICE, COPY_ENGINE_SENDFILE, COPY_ENGINE_RW,
};
#define N_OUT_ENGINES (sizeof out_engines / sizeof out_engines[0])

/* A file into a socket that takes a few bytes at a time.  */
static void
test_short_writes (void)
{
  int in = make_file ("src", data, DATA_LEN);
  for (size_t i = 0; i < N_OUT_ENGINES; i++)
    for (int nonblock = 0; nonblock < 2; nonblock++)
      for (int with_off = 0; with_off < 2; with_off++)
        {
          const char *name = copy_engine_name (out_engines[i]);
          /* With an offset: from byte 777 on, the descriptor's own
             offset left alone.  */
          off_t start = with_off ? 777 : 0;
          off_t in_off = start;
          int sv[2];
          small_socketpair (sv, 0, nonblock);
          if (lseek (in, 0, SEEK_SET) < 0)
            die ("lseek");
          fflush (stdout);
          pid_t pid = fork ();
          if (pid < 0)
            die ("fork");
          if (pid == 0)
            {
              close (sv[0]);
              dribbling_reader (sv[1], start);
            }
          close (sv[1]);
          struct copy_request req = {
            .in_fd = in, .out_fd = sv[0], .length = COPY_TO_EOF,
            .in_off = with_off ? &in_off : NULL,
            .engines = COPY_ENGINE_BIT (out_engines[i]),
          };
          struct copy_result res;
          int ret = copy_range (&req, &res);
          close (sv[0]);
          int reader = wait_child (pid);
          char detail[160];
          snprintf (detail, sizeof detail,
                    "ret %d, %" PRIu64 " bytes, %lu calls, engine %s, "
                    "reader status %d", ret, res.bytes, res.calls,
                    copy_engine_name (res.engine), reader);
          const char *how = nonblock ? "non-blocking" : "blocking";
          check (ret == 0 && res.bytes == (uint64_t) (DATA_LEN - start)
                 && res.engine == out_engines[i] && reader == 0, detail,
                 "[%s] file%s -> %s socket taking a few bytes at a time: "
                 "every byte, in order", name, with_off ? " at 777" : "",
                 how);
          /* One call would do without short counts, and one more to see
             the end: more calls is the proof that the kernel cut them
             short.  (A blocking sendfile loops in the kernel until all
             is sent; the read/write engine counts its writes whole.)  */
          if (nonblock && out_engines[i] != COPY_ENGINE_RW)
            check (res.calls > 2, detail,
                   "[%s] into a %s socket: the transfers were short", name,
                   how);
          if (with_off)
            {
              off_t own = lseek (in, 0, SEEK_CUR);
              snprintf (detail, sizeof detail, "in_off %jd, own offset %jd",
                        (intmax_t) in_off, (intmax_t) own);
              check (in_off == DATA_LEN && own == 0, detail,
                     "[%s] %s socket: in_off advanced by the short counts, "
                     "exactly", name, how);
            }
        }
  close (in);
}

/* A socket that a writer fills a few bytes at a time, into a file.  */
static void
test_short_reads (void)
{
  static const enum copy_engine engines[] = {
    COPY_ENGINE_SPLICE, COPY_ENGINE_RW,
  };
  for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
    for (int nonblock = 0; nonblock < 2; nonblock++)
      for (int limit = 0; limit < 2; limit++)
        {
          const char *name = copy_engine_name (engines[i]);
          /* A length that ends inside one of the writer's pieces must
             stop there.  */
          uint64_t want = limit ? DATA_LEN - 1001 : DATA_LEN;
          int sv[2];
          small_socketpair (sv, 1, false);
          if (nonblock && fcntl (sv[0], F_SETFL, O_NONBLOCK) < 0)
            die ("O_NONBLOCK");
          fflush (stdout);
          pid_t pid = fork ();
          if (pid < 0)
            die ("fork");
          if (pid == 0)
            {
              close (sv[0]);
              dribbling_writer (sv[1]);
            }
          close (sv[1]);
          int out = make_file ("dst", "", 0);
          /* With a length, the output at an offset: out_off must end
             exactly there.  */
          off_t out_off = 0;
          struct copy_request req = {
            .in_fd = sv[0], .out_fd = out,
            .length = limit ? want : COPY_TO_EOF,
            .out_off = limit ? &out_off : NULL,
            .engines = COPY_ENGINE_BIT (engines[i]),
          };
          struct copy_result res;
          int ret = copy_range (&req, &res);
          close (sv[0]);
          int writer = wait_child (pid);
          size_t len = read_back (out, DATA_LEN);
          char detail[160];
          snprintf (detail, sizeof detail,
                    "ret %d, %" PRIu64 " bytes, %zu in the file, out_off %jd, "
                    "writer status %d", ret, res.bytes, len,
                    (intmax_t) out_off, writer);
          check (ret == 0 && res.bytes == want && len == want
                 && memcmp (got, data, want) == 0 && writer == 0
                 && (!limit || out_off == (off_t) want), detail,
                 "[%s] %s socket filled a few bytes at a time -> file%s: "
                 "byte-exact", name, nonblock ? "non-blocking" : "blocking",
                 limit ? ", a length ending mid-piece" : "");
          close (out);
        }
}

/* Under RLIMIT_FSIZE, the write that reaches the limit is short and the
   next fails with EFBIG: the count must be the limit, exactly, and the
   file hold those bytes.  */
static void
test_fsize_limit (void)
{
  static const enum copy_engine engines[] = {
    COPY_ENGINE_COPY_FILE_RANGE, COPY_ENGINE_SPLICE, COPY_ENGINE_SENDFILE,
    COPY_ENGINE_RW,
  };
  const off_t limit = 100003;     /* inside a page */
  struct rlimit old;
  if (getrlimit (RLIMIT_FSIZE, &old) < 0)
    die ("getrlimit");
  signal (SIGXFSZ, SIG_IGN);
  int in = make_file ("src", data, DATA_LEN);
  for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
    for (int with_off = 0; with_off < 2; with_off++)
      {
        const char *name = copy_engine_name (engines[i]);
        /* sendfile writes at the output's own offset only.  */
        if (with_off && engines[i] == COPY_ENGINE_SENDFILE)
          continue;
        int out = make_file ("dst", "", 0);
        if (lseek (in, 0, SEEK_SET) < 0)
          die ("lseek");
        off_t out_off = 0;
        struct copy_request req = {
          .in_fd = in, .out_fd = out, .length = COPY_TO_EOF,
          .out_off = with_off ? &out_off : NULL,
          .engines = COPY_ENGINE_BIT (engines[i]),
        };
        struct copy_result res;
        struct rlimit lim = { limit, old.rlim_max };
        if (old.rlim_max != RLIM_INFINITY && old.rlim_max < (rlim_t) limit)
          {
            tap_skip ("RLIMIT_FSIZE hard limit below %jd", (intmax_t) limit);
            close (out);
            continue;
          }
        if (setrlimit (RLIMIT_FSIZE, &lim) < 0)
          die ("setrlimit");
        int ret = copy_range (&req, &res);
        if (setrlimit (RLIMIT_FSIZE, &old) < 0)
          die ("setrlimit");
        size_t len = read_back (out, DATA_LEN);
        char detail[200];
        snprintf (detail, sizeof detail,
                  "ret %d, side %d, %" PRIu64 " bytes, %zu in the file, "
                  "out_off %jd", ret, (int) res.side, res.bytes, len,
                  (intmax_t) out_off);
        check (ret == -EFBIG && res.side == COPY_SIDE_WRITE
               && res.bytes == (uint64_t) limit && len == (size_t) limit
               && memcmp (got, data, limit) == 0
               && (!with_off || out_off == limit), detail,
               "[%s] file -> file%s under a size limit: -EFBIG after a "
               "short write, the count and the bytes exact", name,
               with_off ? " at out_off" : "");
        close (out);
      }
  signal (SIGXFSZ, SIG_DFL);
  close (in);
}

/* ------------------------------------------------------------------ */
/* The copy engine on files, pipes and sockets: each engine, non-blocking
   ends, whole files, the automatic choice.  They work in the scratch
   directory, DFD.  */

static int dfd = -1;

static int
open_rd (const char *name)
{
  return xopenat (dfd, name, O_RDONLY);
}

#define CP_LEN (300 * 1024)
static unsigned char cp_data[CP_LEN];
static unsigned char cp_buf[CP_LEN + 4096];

static const enum copy_engine engines[] = {
  COPY_ENGINE_COPY_FILE_RANGE, COPY_ENGINE_SPLICE, COPY_ENGINE_SENDFILE,
  COPY_ENGINE_RW,
};

static int
open_out (const char *name, int extra)
{
  int fd = openat (dfd, name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | extra,
                   0644);
  if (fd < 0)
    die (name);
  return fd;
}

/* A pipe of 1 MiB, so that 300 KiB fit without a reader.  */
static void
big_pipe (int p[2])
{
  if (pipe2 (p, O_CLOEXEC) < 0)
    die ("pipe2");
  if (fcntl (p[1], F_SETPIPE_SZ, 1 << 20) < (1 << 20))
    die ("F_SETPIPE_SZ");
}

/* Check a copy's return value, byte count and engine.  */
static void
check_copy (int ret, const struct copy_result *res, int want_ret,
            uint64_t want_bytes, enum copy_engine want_engine,
            const char *what)
{
  check_int (ret, want_ret, "copy_range %s: return value", what);
  check_int ((long long) res->bytes, (long long) want_bytes,
             "copy_range %s: res.bytes", what);
  check (res->engine == want_engine, copy_engine_name (res->engine),
         "copy_range %s: res.engine is %s", what,
         copy_engine_name (want_engine));
}

static void
test_copy_engine (enum copy_engine e)
{
  const char *name = copy_engine_name (e);
  char what[160], fname[64];
  struct copy_result res;
  int ret;

  /* file -> file, at the descriptors' offsets.  */
  int in = open_rd ("cp-src");
  snprintf (fname, sizeof fname, "cp-ff-%d", (int) e);
  int out = open_out (fname, 0);
  struct copy_request req = { .in_fd = in, .out_fd = out,
                              .length = COPY_TO_EOF,
                              .engines = COPY_ENGINE_BIT (e) };
  snprintf (what, sizeof what, "[%s] file -> file, 300 KiB", name);
  ret = copy_range (&req, &res);
  check_copy (ret, &res, 0, CP_LEN, e, what);
  check (read_at (out, cp_buf, sizeof cp_buf, 0) == CP_LEN
         && memcmp (cp_buf, cp_data, CP_LEN) == 0, "bytes differ",
         "copy_range %s: the bytes", what);
  check (fd_pos (in) == CP_LEN && fd_pos (out) == CP_LEN, "offsets",
         "copy_range %s: both file offsets advanced", what);
  check (res.side == COPY_SIDE_NONE && res.calls > 0, "side or calls",
         "copy_range %s: res.side none, res.calls > 0", what);
  close (out);

  /* file -> pipe.  */
  int p[2];
  big_pipe (p);
  lseek (in, 0, SEEK_SET);
  req.out_fd = p[1];
  snprintf (what, sizeof what, "[%s] file -> pipe, 300 KiB", name);
  ret = copy_range (&req, &res);
  if (e == COPY_ENGINE_COPY_FILE_RANGE)
    {
      /* copy_file_range needs two regular files: nothing else allowed.  */
      check_copy (ret, &res, -EINVAL, 0, COPY_ENGINE_NONE, what);
    }
  else
    {
      check_copy (ret, &res, 0, CP_LEN, e, what);
      size_t n = read_all (p[0], cp_buf, CP_LEN);
      check (n == CP_LEN && memcmp (cp_buf, cp_data, CP_LEN) == 0,
             "bytes differ", "copy_range %s: the bytes", what);
      if (e == COPY_ENGINE_SPLICE)
        check (!res.via_pipe, "via_pipe set",
               "copy_range %s: straight into the pipe (no internal pipe)",
               what);
    }
  close (p[0]);
  close (p[1]);

  /* With in_off, out_off and a length: the descriptors' offsets stay.  */
  snprintf (fname, sizeof fname, "cp-off-%d", (int) e);
  out = open_out (fname, 0);
  lseek (in, 0, SEEK_SET);
  off_t in_off = 1000, out_off = 7;
  req = (struct copy_request) { .in_fd = in, .out_fd = out,
                                .in_off = &in_off, .out_off = &out_off,
                                .length = 100000,
                                .engines = COPY_ENGINE_BIT (e) };
  snprintf (what, sizeof what, "[%s] in_off 1000, out_off 7, 100000 bytes",
            name);
  ret = copy_range (&req, &res);
  struct stat st;
  if (e == COPY_ENGINE_SENDFILE)
    {
      /* sendfile writes at the output's own position only: it declines
         an out_off, and nothing else is allowed.  */
      check_copy (ret, &res, -EINVAL, 0, COPY_ENGINE_NONE, what);
      fstat (out, &st);
      check (in_off == 1000 && out_off == 7 && st.st_size == 0,
             "something moved", "copy_range %s: nothing moved", what);
    }
  else
    {
      check_copy (ret, &res, 0, 100000, e, what);
      check (in_off == 101000 && out_off == 100007, "offsets not advanced",
             "copy_range %s: *in_off and *out_off advanced", what);
      check (fd_pos (in) == 0 && fd_pos (out) == 0, "a file offset moved",
             "copy_range %s: the file offsets unchanged", what);
      memset (cp_buf, 0xee, 100007);
      fstat (out, &st);
      check (st.st_size == 100007
             && read_at (out, cp_buf, 100007, 0) == 100007
             && memcmp (cp_buf, "\0\0\0\0\0\0\0", 7) == 0
             && memcmp (cp_buf + 7, cp_data + 1000, 100000) == 0,
             "bytes differ or misplaced",
             "copy_range %s: the bytes land at 7, the file is 100007 long",
             what);
    }

  /* in_off alone: the output's own position.  */
  if (ftruncate (out, 0) < 0)
    die ("ftruncate");
  in_off = 2000;
  req.out_off = NULL;
  req.length = 50000;
  snprintf (what, sizeof what, "[%s] in_off 2000 only, 50000 bytes", name);
  ret = copy_range (&req, &res);
  check_copy (ret, &res, 0, 50000, e, what);
  check (in_off == 52000 && fd_pos (in) == 0 && fd_pos (out) == 50000,
         "offsets", "copy_range %s: *in_off and the output offset advanced, "
         "the input offset not", what);
  check (read_at (out, cp_buf, 50000, 0) == 50000
         && memcmp (cp_buf, cp_data + 2000, 50000) == 0, "bytes differ",
         "copy_range %s: the bytes", what);
  req.out_off = &out_off;
  if (e == COPY_ENGINE_SENDFILE)
    req.out_off = NULL;

  /* COPY_TO_EOF from an offset near the end.  */
  in_off = CP_LEN - 7200;
  out_off = 0;
  lseek (out, 0, SEEK_SET);
  req.length = COPY_TO_EOF;
  snprintf (what, sizeof what, "[%s] COPY_TO_EOF from 7200 before the end",
            name);
  ret = copy_range (&req, &res);
  check_copy (ret, &res, 0, 7200, e, what);
  check (in_off == CP_LEN && read_at (out, cp_buf, 7200, 0) == 7200
         && memcmp (cp_buf, cp_data + CP_LEN - 7200, 7200) == 0,
         "bytes differ", "copy_range %s: the bytes", what);
  close (out);

  /* A length limit at the descriptors' offsets.  */
  snprintf (fname, sizeof fname, "cp-len-%d", (int) e);
  out = open_out (fname, 0);
  lseek (in, 5, SEEK_SET);
  req = (struct copy_request) { .in_fd = in, .out_fd = out, .length = 12345,
                                .engines = COPY_ENGINE_BIT (e) };
  snprintf (what, sizeof what, "[%s] length 12345 from offset 5", name);
  ret = copy_range (&req, &res);
  check_copy (ret, &res, 0, 12345, e, what);
  fstat (out, &st);
  check (st.st_size == 12345 && fd_pos (in) == 12350
         && read_at (out, cp_buf, 12345, 0) == 12345
         && memcmp (cp_buf, cp_data + 5, 12345) == 0, "bytes or sizes",
         "copy_range %s: the bytes, and no more", what);
  close (out);
  close (in);

  /* An empty input: 0 bytes, return 0.  */
  in = open_rd ("cp-empty");
  snprintf (fname, sizeof fname, "cp-e-%d", (int) e);
  out = open_out (fname, 0);
  req = (struct copy_request) { .in_fd = in, .out_fd = out,
                                .length = COPY_TO_EOF,
                                .engines = COPY_ENGINE_BIT (e) };
  ret = copy_range (&req, &res);
  check_int (ret, 0, "copy_range [%s] of an empty file: returns 0", name);
  check_int ((long long) res.bytes, 0,
             "copy_range [%s] of an empty file: 0 bytes", name);
  close (out);
  close (in);

  /* /dev/full.  */
  in = open_rd ("cp-src");
  out = open ("/dev/full", O_WRONLY | O_CLOEXEC);
  req = (struct copy_request) { .in_fd = in, .out_fd = out,
                                .length = COPY_TO_EOF,
                                .engines = COPY_ENGINE_BIT (e) };
  ret = copy_range (&req, &res);
  if (e == COPY_ENGINE_COPY_FILE_RANGE)
    check_int (ret, -EINVAL, "copy_range [%s] to /dev/full: not applicable",
               name);
  else
    {
      /* sendfile may decline (EINVAL: /dev/full cannot be spliced to on
         recent kernels), the others hit ENOSPC.  */
      char d[80];
      snprintf (d, sizeof d, "ret %d, side %d", ret, (int) res.side);
      check ((e == COPY_ENGINE_SENDFILE ? ret < 0 : ret == -ENOSPC)
             && res.side == COPY_SIDE_WRITE, d,
             "copy_range [%s] to /dev/full: %s, COPY_SIDE_WRITE", name,
             e == COPY_ENGINE_SENDFILE ? "fails" : "-ENOSPC");
    }
  close (out);
  close (in);
}

/* Non-blocking pipes: EAGAIN waited out, for each engine that can write
   to a pipe; a child at the other end, slow on purpose.  */

static void
nap_ms (int ms)
{
  struct timespec t = { 0, ms * 1000L * 1000L };
  nanosleep (&t, NULL);
}

/* Child: read the pipe FD to EOF, exit 0 if it held exactly cp_data.  */
static void
reader_child (int fd)
{
  static unsigned char piped[CP_LEN + 1];
  size_t n = 0;
  nap_ms (5);
  for (;;)
    {
      ssize_t r = read (fd, piped + n, sizeof piped - n);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      n += r;
      if (n >= sizeof piped)
        break;
    }
  _exit (n == CP_LEN && memcmp (piped, cp_data, CP_LEN) == 0 ? 0 : 1);
}

static void
test_copy_nonblocking (void)
{
  static const enum copy_engine to_pipe[] = {
    0, COPY_ENGINE_SPLICE, COPY_ENGINE_SENDFILE, COPY_ENGINE_RW,
  };
  struct copy_result res;
  int ret;

  for (size_t i = 0; i < sizeof to_pipe / sizeof to_pipe[0]; i++)
    {
      const char *name = to_pipe[i] ? copy_engine_name (to_pipe[i]) : "auto";
      int p[2];
      /* A 64 KiB pipe, non-blocking at the writing end: full at once.  */
      if (pipe2 (p, O_CLOEXEC) < 0)
        die ("pipe2");
      fcntl (p[1], F_SETPIPE_SZ, 65536);
      fcntl (p[1], F_SETFL, O_NONBLOCK);
      fflush (stdout);
      pid_t pid = fork ();
      if (pid == 0)
        {
          close (p[1]);
          reader_child (p[0]);
        }
      close (p[0]);
      int in = open_rd ("cp-src");
      struct copy_request req = {
        .in_fd = in, .out_fd = p[1], .length = COPY_TO_EOF,
        .engines = to_pipe[i] ? COPY_ENGINE_BIT (to_pipe[i]) : 0,
      };
      ret = copy_range (&req, &res);
      close (p[1]);
      close (in);
      int status = -1;
      waitpid (pid, &status, 0);
      check (ret == 0 && res.bytes == CP_LEN, "copy failed",
             "copy_range [%s] into a full non-blocking pipe: all 300 KiB",
             name);
      check (WIFEXITED (status) && WEXITSTATUS (status) == 0,
             "the reader got other bytes",
             "copy_range [%s] into a non-blocking pipe: the reader got "
             "the bytes", name);
    }

  /* A non-blocking input pipe that a slow writer fills.  */
  static const enum copy_engine from_pipe[] = {
    0, COPY_ENGINE_SPLICE, COPY_ENGINE_RW,
  };
  for (size_t i = 0; i < sizeof from_pipe / sizeof from_pipe[0]; i++)
    {
      const char *name = from_pipe[i] ? copy_engine_name (from_pipe[i])
        : "auto";
      int p[2];
      if (pipe2 (p, O_CLOEXEC) < 0)
        die ("pipe2");
      fcntl (p[0], F_SETFL, O_NONBLOCK);
      fflush (stdout);
      pid_t pid = fork ();
      if (pid == 0)
        {
          close (p[0]);
          for (size_t off = 0; off < CP_LEN; off += 100 * 1024)
            {
              nap_ms (3);
              size_t len = CP_LEN - off < 100 * 1024 ? CP_LEN - off
                : 100 * 1024;
              for (size_t done = 0; done < len;)
                {
                  ssize_t w = write (p[1], cp_data + off + done, len - done);
                  if (w <= 0)
                    _exit (1);
                  done += w;
                }
            }
          _exit (0);
        }
      close (p[1]);
      char fname[64];
      snprintf (fname, sizeof fname, "cp-nbin-%zu", i);
      int out = open_out (fname, 0);
      struct copy_request req = {
        .in_fd = p[0], .out_fd = out, .length = COPY_TO_EOF,
        .engines = from_pipe[i] ? COPY_ENGINE_BIT (from_pipe[i]) : 0,
      };
      ret = copy_range (&req, &res);
      waitpid (pid, NULL, 0);
      check (ret == 0 && res.bytes == CP_LEN, "copy failed",
             "copy_range [%s] from an empty non-blocking pipe: all 300 KiB",
             name);
      check (read_at (out, cp_buf, sizeof cp_buf, 0) == CP_LEN
             && memcmp (cp_buf, cp_data, CP_LEN) == 0, "bytes differ",
             "copy_range [%s] from a non-blocking pipe: the bytes", name);
      close (out);
      close (p[0]);
    }

  /* A length limit on a pipe: exactly that much is taken.  */
  int p[2];
  big_pipe (p);
  xwrite (p[1], cp_data, 5000);
  int out = open_out ("cp-pipelen", 0);
  struct copy_request req = { .in_fd = p[0], .out_fd = out, .length = 1000 };
  ret = copy_range (&req, &res);
  int left = 0;
  ioctl (p[0], FIONREAD, &left);
  check (ret == 0 && res.bytes == 1000 && left == 4000, "wrong amount",
         "copy_range of 1000 bytes from a pipe holding 5000 leaves 4000");
  /* Length 0: nothing, 0.  */
  req.length = 0;
  ret = copy_range (&req, &res);
  check (ret == 0 && res.bytes == 0, "not 0", "copy_range of length 0: 0");
  close (out);

  /* A pipe whose reader is gone: -EPIPE on the write side (SIGPIPE
     ignored, as the tools do not, but a library must not care).  */
  close (p[0]);
  struct sigaction ign = { .sa_handler = SIG_IGN }, old;
  sigaction (SIGPIPE, &ign, &old);
  int in = open_rd ("cp-src");
  for (size_t i = 0; i < sizeof to_pipe / sizeof to_pipe[0]; i++)
    {
      const char *name = to_pipe[i] ? copy_engine_name (to_pipe[i]) : "auto";
      lseek (in, 0, SEEK_SET);
      req = (struct copy_request) {
        .in_fd = in, .out_fd = p[1], .length = COPY_TO_EOF,
        .engines = to_pipe[i] ? COPY_ENGINE_BIT (to_pipe[i]) : 0,
      };
      ret = copy_range (&req, &res);
      char d[80];
      snprintf (d, sizeof d, "ret %d, side %d", ret, (int) res.side);
      check (ret == -EPIPE && res.side == COPY_SIDE_WRITE, d,
             "copy_range [%s] into a pipe without reader: -EPIPE, "
             "COPY_SIDE_WRITE", name);
    }
  sigaction (SIGPIPE, &old, NULL);
  close (in);
  close (p[1]);
}

/* copy_extents, copy_clone, COPY_REGULAR_FILES and res.declined: what
   xcp adds to the engine.  */
static void
test_copy_whole_files (void)
{
  struct copy_result res;
  struct copy_request req;
  struct stat st;
  bool holes;
  int ret;

  /* A sparse file: 8 MiB, data at 1 MiB and in the last 300 KiB.  */
  int sp = open_out ("cx-sparse", 0);
  if (ftruncate (sp, 8 << 20) < 0
      || pwrite (sp, cp_data, 4096, 1 << 20) != 4096
      || pwrite (sp, cp_data, CP_LEN, (8 << 20) - CP_LEN) != CP_LEN)
    die ("cx-sparse");
  fstat (sp, &st);
  lseek (sp, 0, SEEK_SET);
  int out = open_out ("cx-sparse-copy", 0);
  req = (struct copy_request) { .in_fd = sp, .out_fd = out,
                                .flags = COPY_REGULAR_FILES };
  ret = copy_extents (&req, st.st_size, &res, &holes);
  check_int (ret, 0, "copy_extents of a sparse file: 0");
  struct stat cst;
  fstat (out, &cst);
  check_int (cst.st_size, 8 << 20, "copy_extents: the size is kept");
  if (lseek (sp, 0, SEEK_DATA) == (off_t) 0)
    skip ("copy_extents holes: the scratch file system reports none");
  else
    {
      check (holes, "holes false", "copy_extents: holes reported kept");
      check ((long long) res.bytes < 8 << 20, "all bytes copied",
             "copy_extents copied the data only (%llu bytes)",
             (unsigned long long) res.bytes);
      check (cst.st_blocks < st.st_size / 512, "no holes in the copy",
             "copy_extents: the copy has holes (%lld blocks)",
             (long long) cst.st_blocks);
    }
  bool same = true;
  static unsigned char a[1 << 16], b[1 << 16];
  for (off_t o = 0; o < (8 << 20) && same; o += sizeof a)
    same = read_at (sp, a, sizeof a, o) == sizeof a
           && read_at (out, b, sizeof b, o) == sizeof b
           && memcmp (a, b, sizeof a) == 0;
  check (same, "bytes differ", "copy_extents: the copy reads the same");
  close (out);

  /* The same with a single engine, which must be the one used.  */
  lseek (sp, 0, SEEK_SET);
  out = open_out ("cx-sparse-rw", 0);
  req.out_fd = out;
  req.engines = COPY_ENGINE_BIT (COPY_ENGINE_RW);
  ret = copy_extents (&req, st.st_size, &res, &holes);
  check (ret == 0 && res.engine == COPY_ENGINE_RW, "wrong",
         "copy_extents [read/write]: 0, engine read/write");
  fstat (out, &cst);
  check_int (cst.st_size, 8 << 20, "copy_extents [read/write]: the size");
  check (read_at (out, b, 4096, 1 << 20) == 4096
         && memcmp (b, cp_data, 4096) == 0, "bytes differ",
         "copy_extents [read/write]: the data at 1 MiB");
  close (out);

  /* A file with no hole: one extent, and no hole reported.  */
  int in = open_rd ("cp-src");
  out = open_out ("cx-full", 0);
  req = (struct copy_request) { .in_fd = in, .out_fd = out,
                                .flags = COPY_REGULAR_FILES };
  ret = copy_extents (&req, CP_LEN, &res, &holes);
  check (ret == 0 && res.bytes == CP_LEN && !holes, "wrong",
         "copy_extents of a file without holes: all of it, no holes");
  check (read_at (out, cp_buf, sizeof cp_buf, 0) == CP_LEN
         && memcmp (cp_buf, cp_data, CP_LEN) == 0, "bytes differ",
         "copy_extents of a file without holes: the bytes");
  close (out);

  /* Only holes: nothing copied, the size set.  */
  int hole = open_out ("cx-hole", 0);
  if (ftruncate (hole, 1 << 20) < 0)
    die ("cx-hole");
  out = open_out ("cx-hole-copy", 0);
  req = (struct copy_request) { .in_fd = hole, .out_fd = out,
                                .flags = COPY_REGULAR_FILES };
  ret = copy_extents (&req, 1 << 20, &res, &holes);
  fstat (out, &cst);
  check (ret == 0 && cst.st_size == 1 << 20 && cst.st_blocks == 0, "wrong",
         "copy_extents of holes only: size 1 MiB, no block");
  close (out);
  close (hole);
  close (sp);

  /* COPY_ZEROS_AS_HOLES: a full file of 1 MiB of zeros between two
     blocks of data, and zeros at the end; the zeros become holes.  */
  int full = open_out ("cx-zeros", 0);
  static unsigned char zeros[1 << 20];
  if (write (full, cp_data, 8192) != 8192
      || write (full, zeros, sizeof zeros) != (ssize_t) sizeof zeros
      || write (full, cp_data, 4096) != 4096
      || write (full, zeros, 10000) != 10000)
    die ("cx-zeros");
  off_t full_size = 8192 + (1 << 20) + 4096 + 10000;
  lseek (full, 0, SEEK_SET);
  out = open_out ("cx-zeros-copy", 0);
  req = (struct copy_request) { .in_fd = full, .out_fd = out,
                                .flags = COPY_REGULAR_FILES
                                         | COPY_ZEROS_AS_HOLES };
  ret = copy_extents (&req, full_size, &res, &holes);
  fstat (out, &cst);
  check (ret == 0 && holes && res.engine == COPY_ENGINE_RW
         && res.bytes == 8192 + 4096 && cst.st_size == full_size, "wrong",
         "copy_extents COPY_ZEROS_AS_HOLES: the data written, the size "
         "set (%llu bytes, size %lld)", (unsigned long long) res.bytes,
         (long long) cst.st_size);
  same = true;
  for (off_t o = 0; o < full_size && same; o += sizeof a)
    {
      size_t n = full_size - o < (off_t) sizeof a ? (size_t) (full_size - o)
                                                   : sizeof a;
      same = read_at (full, a, n, o) == n && read_at (out, b, n, o) == n
             && memcmp (a, b, n) == 0;
    }
  check (same, "bytes differ",
         "copy_extents COPY_ZEROS_AS_HOLES: the copy reads the same");
  check (cst.st_blocks * 512 < 1 << 20, "zeros written",
         "copy_extents COPY_ZEROS_AS_HOLES: the zeros are holes (%lld "
         "blocks)", (long long) cst.st_blocks);
  close (out);
  close (full);

  /* COPY_REGULAR_FILES: no fstat or fcntl, the same bytes.  */
  lseek (in, 0, SEEK_SET);
  out = open_out ("cx-regular", 0);
  req = (struct copy_request) { .in_fd = in, .out_fd = out,
                                .length = CP_LEN,
                                .flags = COPY_REGULAR_FILES };
  ret = copy_range (&req, &res);
  check_copy (ret, &res, 0, CP_LEN, COPY_ENGINE_COPY_FILE_RANGE,
              "COPY_REGULAR_FILES");
  check_int ((long long) res.calls, 1,
             "copy_range of a known length: one copy_file_range call");
  close (out);

  /* declined: nothing for a copy the first engine made; across file
     systems (scratch -> /dev/shm), copy_file_range if it said EXDEV.  */
  lseek (in, 0, SEEK_SET);
  out = open_out ("cx-declined", 0);
  req = (struct copy_request) { .in_fd = in, .out_fd = out,
                                .length = COPY_TO_EOF };
  ret = copy_range (&req, &res);
  check_int (res.declined, 0, "copy_range that worked: nothing declined");
  close (out);
  char shm[64];
  snprintf (shm, sizeof shm, "/dev/shm/sys-test-cx.%ld", (long) getpid ());
  out = open (shm, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (out < 0)
    skip ("res.declined across file systems: cannot create %s", shm);
  else
    {
      unlink (shm);
      lseek (in, 0, SEEK_SET);
      req.out_fd = out;
      ret = copy_range (&req, &res);
      check (ret == 0 && res.bytes == CP_LEN
             && (res.engine == COPY_ENGINE_COPY_FILE_RANGE
                 ? res.declined == 0
                 : res.declined == COPY_ENGINE_BIT
                                     (COPY_ENGINE_COPY_FILE_RANGE)),
             "wrong", "copy_range across file systems (engine %s): "
             "res.declined names copy_file_range if it refused",
             copy_engine_name (res.engine));
      close (out);
    }

  /* copy_clone: a reflink where the file system has it, else one of the
     "cannot" errors, and the output left empty.  */
  out = open_out ("cx-clone", 0);
  ret = copy_clone (in, out);
  fstat (out, &cst);
  if (ret == 0)
    check (cst.st_size == CP_LEN && read_at (out, cp_buf, CP_LEN, 0) == CP_LEN
           && memcmp (cp_buf, cp_data, CP_LEN) == 0, "bytes differ",
           "copy_clone: the bytes");
  else
    check ((ret == -EOPNOTSUPP || ret == -EXDEV || ret == -EINVAL
            || ret == -ENOTTY) && cst.st_size == 0, "wrong",
           "copy_clone without reflinks: %d, output empty", ret);
  check_int (copy_clone (in, -1), -EBADF, "copy_clone to fd -1: -EBADF");
  close (out);
  close (in);
  check (strcmp (copy_engine_name (COPY_ENGINE_CLONE), "clone") == 0,
         "wrong name", "copy_engine_name (COPY_ENGINE_CLONE)");
}

/* copy_read_some and copy_write_all, the read/write engine's steps that
   copy/data.c uses: at an offset, which they advance and the
   descriptor's own does not; at the descriptor's own.  */
static void
test_read_write_steps (void)
{
  int in = open_rd ("cp-src");
  int out = open_out ("cx-steps", 0);
  off_t off = 1000;
  size_t written;
  ssize_t n = copy_read_some (in, &off, (char *) cp_buf, 5000);
  check (n == 5000 && off == 6000 && lseek (in, 0, SEEK_CUR) == 0
         && memcmp (cp_buf, cp_data + 1000, 5000) == 0, "wrong",
         "copy_read_some at an offset: the bytes, the offset advanced, "
         "the file's own left");
  off = 4096;
  int ret = copy_write_all (out, &off, (const char *) cp_data, 3000,
                            &written);
  check (ret == 0 && written == 3000 && off == 4096 + 3000
         && lseek (out, 0, SEEK_CUR) == 0
         && read_at (out, cp_buf, 3000, 4096) == 3000
         && memcmp (cp_buf, cp_data, 3000) == 0, "wrong",
         "copy_write_all at an offset: all written there, the offset "
         "advanced, the file's own left");
  n = copy_read_some (in, NULL, (char *) cp_buf, 700);
  ret = copy_write_all (out, NULL, (const char *) cp_buf, (size_t) n,
                        &written);
  check (n == 700 && ret == 0 && written == 700
         && lseek (in, 0, SEEK_CUR) == 700 && lseek (out, 0, SEEK_CUR) == 700
         && read_at (out, cp_buf, 700, 0) == 700
         && memcmp (cp_buf, cp_data, 700) == 0, "wrong",
         "copy_read_some, copy_write_all at the files' own offsets");
  check_int (copy_read_some (in, &(off_t) { CP_LEN }, (char *) cp_buf, 10),
             0, "copy_read_some at the end: 0");
  close (out);
  close (in);

  int p[2];
  if (pipe2 (p, O_CLOEXEC) < 0)
    die ("pipe2");
  close (p[0]);
  ret = copy_write_all (p[1], NULL, "x", 1, &written);
  check (ret == -EPIPE && written == 0, "wrong",
         "copy_write_all into a pipe without reader: -EPIPE, none written");
  close (p[1]);
}

static void
test_copy (void)
{
  struct copy_result res;
  int ret;

  fill_random (cp_data, CP_LEN, 2005);
  close (make_file ("cp-src", cp_data, CP_LEN));
  close (make_file ("cp-empty", "", 0));

  check (strcmp (copy_engine_name (COPY_ENGINE_COPY_FILE_RANGE),
                 "copy_file_range") == 0
         && strcmp (copy_engine_name (COPY_ENGINE_SPLICE), "splice") == 0
         && strcmp (copy_engine_name (COPY_ENGINE_SENDFILE), "sendfile") == 0
         && strcmp (copy_engine_name (COPY_ENGINE_RW), "read/write") == 0,
         "wrong names", "copy_engine_name");

  for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
    test_copy_engine (engines[i]);

  /* Auto mode, file -> file: copy_file_range.  */
  int in = open_rd ("cp-src"), out = open_out ("cp-auto", 0);
  struct copy_request req = { .in_fd = in, .out_fd = out,
                              .length = COPY_TO_EOF };
  ret = copy_range (&req, &res);
  check_copy (ret, &res, 0, CP_LEN, COPY_ENGINE_COPY_FILE_RANGE,
              "auto, file -> file");
  check (read_at (out, cp_buf, sizeof cp_buf, 0) == CP_LEN
         && memcmp (cp_buf, cp_data, CP_LEN) == 0, "bytes differ",
         "copy_range auto, file -> file: the bytes");
  close (out);

  /* Auto mode, file -> pipe: splice.  */
  int p[2];
  big_pipe (p);
  lseek (in, 0, SEEK_SET);
  req.out_fd = p[1];
  ret = copy_range (&req, &res);
  check_copy (ret, &res, 0, CP_LEN, COPY_ENGINE_SPLICE, "auto, file -> pipe");
  check (read_all (p[0], cp_buf, CP_LEN) == CP_LEN
         && memcmp (cp_buf, cp_data, CP_LEN) == 0, "bytes differ",
         "copy_range auto, file -> pipe: the bytes");

  /* Auto mode, pipe -> file: splice.  */
  if (write (p[1], cp_data, CP_LEN) != CP_LEN)
    die ("write pipe");
  close (p[1]);
  out = open_out ("cp-frompipe", 0);
  req = (struct copy_request) { .in_fd = p[0], .out_fd = out,
                                .length = COPY_TO_EOF };
  ret = copy_range (&req, &res);
  check_copy (ret, &res, 0, CP_LEN, COPY_ENGINE_SPLICE, "auto, pipe -> file");
  check (read_at (out, cp_buf, sizeof cp_buf, 0) == CP_LEN
         && memcmp (cp_buf, cp_data, CP_LEN) == 0, "bytes differ",
         "copy_range auto, pipe -> file: the bytes");
  /* A pipe has no offset to read at.  */
  off_t off = 0;
  req.in_off = &off;
  ret = copy_range (&req, &res);
  check_int (ret, -ESPIPE, "copy_range with in_off on a pipe: -ESPIPE");
  check_int (res.side, COPY_SIDE_READ, "copy_range in_off on a pipe: "
             "res.side is COPY_SIDE_READ");
  close (p[0]);
  close (out);

  /* /proc/version, whose size stat does not know: a plain read agrees.  */
  char want[4096];
  int pv = open ("/proc/version", O_RDONLY | O_CLOEXEC);
  size_t wlen = pv < 0 ? 0 : read_all (pv, want, sizeof want);
  if (pv >= 0)
    close (pv);
  pv = open ("/proc/version", O_RDONLY | O_CLOEXEC);
  if (pv < 0 || wlen == 0)
    skip ("copy_range of /proc/version: cannot read it");
  else
    {
      out = open_out ("cp-proc", 0);
      req = (struct copy_request) { .in_fd = pv, .out_fd = out,
                                    .length = COPY_TO_EOF };
      ret = copy_range (&req, &res);
      check_int (ret, 0, "copy_range auto of /proc/version: returns 0");
      check_int ((long long) res.bytes, wlen,
                 "copy_range of /proc/version: res.bytes as a read's");
      check (res.engine != COPY_ENGINE_NONE, "none",
             "copy_range of /proc/version: an engine named (%s)",
             copy_engine_name (res.engine));
      check (read_at (out, cp_buf, sizeof want, 0) == wlen
             && memcmp (cp_buf, want, wlen) == 0, "bytes differ",
             "copy_range of /proc/version: the bytes of a plain read");
      close (out);
      close (pv);
    }

  /* Across file systems (scratch -> /dev/shm): copy_file_range may say
     EXDEV, and the next engine must take over with nothing lost.  */
  struct stat sd, ss;
  char shm[64];
  snprintf (shm, sizeof shm, "/dev/shm/" TAP_NAME ".%ld", (long) getpid ());
  if (stat ("/dev/shm", &sd) < 0 || fstat (dfd, &ss) < 0
      || sd.st_dev == ss.st_dev)
    skip ("copy_range across file systems: no /dev/shm of its own");
  else
    {
      out = open (shm, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      if (out < 0)
        skip ("copy_range across file systems: cannot create %s", shm);
      else
        {
          lseek (in, 0, SEEK_SET);
          req = (struct copy_request) { .in_fd = in, .out_fd = out,
                                        .length = COPY_TO_EOF };
          ret = copy_range (&req, &res);
          check_int (ret, 0, "copy_range auto across file systems: 0");
          check_int ((long long) res.bytes, CP_LEN,
                     "copy_range across file systems: res.bytes (engine %s)",
                     copy_engine_name (res.engine));
          check (read_at (out, cp_buf, sizeof cp_buf, 0) == CP_LEN
                 && memcmp (cp_buf, cp_data, CP_LEN) == 0, "bytes differ",
                 "copy_range across file systems: the bytes");
          close (out);
          unlink (shm);
        }
    }

  /* O_APPEND: read/write, appended.  */
  close (make_file ("cp-append", "HEAD", 4));
  lseek (in, 0, SEEK_SET);
  out = openat (dfd, "cp-append", O_WRONLY | O_APPEND | O_CLOEXEC);
  req = (struct copy_request) { .in_fd = in, .out_fd = out,
                                .length = COPY_TO_EOF };
  ret = copy_range (&req, &res);
  check_copy (ret, &res, 0, CP_LEN, COPY_ENGINE_RW, "auto, O_APPEND output");
  int chk = open_rd ("cp-append");
  check (read_at (chk, cp_buf, sizeof cp_buf, 0) == CP_LEN + 4
         && memcmp (cp_buf, "HEAD", 4) == 0
         && memcmp (cp_buf + 4, cp_data, CP_LEN) == 0, "bytes differ",
         "copy_range O_APPEND: the bytes appended after HEAD");
  close (chk);
  close (out);

  /* /dev/full: ENOSPC on the write side.  */
  lseek (in, 0, SEEK_SET);
  out = open ("/dev/full", O_WRONLY | O_CLOEXEC);
  req = (struct copy_request) { .in_fd = in, .out_fd = out,
                                .length = COPY_TO_EOF };
  ret = copy_range (&req, &res);
  check_int (ret, -ENOSPC, "copy_range auto to /dev/full: -ENOSPC");
  check_int (res.side, COPY_SIDE_WRITE,
             "copy_range to /dev/full: res.side is COPY_SIDE_WRITE");
  lseek (in, 0, SEEK_SET);
  req.engines = COPY_ENGINE_BIT (COPY_ENGINE_RW);
  ret = copy_range (&req, &res);
  check_int (ret, -ENOSPC, "copy_range [read/write] to /dev/full: -ENOSPC");
  check_int (res.side, COPY_SIDE_WRITE,
             "copy_range [read/write] to /dev/full: COPY_SIDE_WRITE");
  close (out);

  /* Bad descriptors: the side that is bad.  */
  req = (struct copy_request) { .in_fd = -1, .out_fd = in,
                                .length = COPY_TO_EOF };
  ret = copy_range (&req, &res);
  check (ret == -EBADF && res.side == COPY_SIDE_READ, "wrong",
         "copy_range from fd -1: -EBADF, COPY_SIDE_READ");
  req = (struct copy_request) { .in_fd = in, .out_fd = -1,
                                .length = COPY_TO_EOF };
  ret = copy_range (&req, &res);
  check (ret == -EBADF && res.side == COPY_SIDE_WRITE, "wrong",
         "copy_range to fd -1: -EBADF, COPY_SIDE_WRITE");
  close (in);

  /* copy_size_pipe.  */
  big_pipe (p);
  check_int (copy_size_pipe (p[0], 0), 1 << 20,
             "copy_size_pipe 0 never shrinks a pipe");
  check_int (copy_size_pipe (p[0], 65536), 65536,
             "copy_size_pipe 65536 sets the size exactly");
  check_int (fcntl (p[0], F_GETPIPE_SZ), 65536,
             "copy_size_pipe: F_GETPIPE_SZ agrees");
  close (p[0]);
  close (p[1]);
  if (pipe2 (p, O_CLOEXEC) < 0)
    die ("pipe2");
  check_int (copy_size_pipe (p[1], 0), COPY_DEFAULT_PIPE_SIZE,
             "copy_size_pipe 0 grows to the default size");
  check_int (fcntl (p[0], F_GETPIPE_SZ), COPY_DEFAULT_PIPE_SIZE,
             "copy_size_pipe: F_GETPIPE_SZ agrees");
  close (p[0]);
  close (p[1]);
  int f = open_rd ("cp-src");
  check_int (copy_size_pipe (f, 0), 0, "copy_size_pipe of a file: 0");
  close (f);

  test_copy_nonblocking ();
  test_copy_whole_files ();
  test_read_write_steps ();
}

/* ------------------------------------------------------------------ */
/* New sections go above main, below this line.  */

/* --- copy_file_data: the per-file policy ----------------------------- */

/* copy_file_data of regular file IN (fstat'ed as ST) to a new "dst",
   with REQ's policy fields; the result in RES, the copy's fd returned.  */
static int
file_data (const struct copy_data_request *policy, int in,
           const struct stat *st, struct copy_data_result *res, int *ret)
{
  int out = open ("dst", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  struct stat out_st;
  if (out < 0 || fstat (out, &out_st) < 0 || lseek (in, 0, SEEK_SET) < 0)
    die ("dst");
  struct copy_data_request req = *policy;
  req.range.in_fd = in;
  req.range.out_fd = out;
  req.in_st = st;
  req.out_regular = true;
  req.out_dev = out_st.st_dev;
  *ret = copy_file_data (&req, res);
  return out;
}

static void
sum_bytes (void *arg, uint64_t n)
{
  *(uint64_t *) arg += n;
}

static void
test_file_data_engines (int in, const struct stat *st)
{
  struct copy_data_result res;
  char detail[200];
  int ret;

  /* The engine asked for is the engine used, and named so.  */
  struct copy_data_request rw = { .engine = COPY_ENGINE_RW };
  int out = file_data (&rw, in, st, &res, &ret);
  size_t len = read_back (out, DATA_LEN + 1);
  snprintf (detail, sizeof detail, "ret %d, engine %s, size %" PRIu64
            ", %zu in the file", ret, copy_engine_keyword (res.engine),
            res.size, len);
  check (ret == 0 && res.engine == COPY_ENGINE_RW && res.size == DATA_LEN
         && len == DATA_LEN && memcmp (got, data, DATA_LEN) == 0
         && !res.short_read && strcmp (copy_engine_keyword (res.engine),
                                       "rw") == 0, detail,
         "copy_file_data --engine=rw: engine rw, the bytes exact");
  close (out);

  /* The refusal cache: FICLONE is tried once per pair of file systems;
     where it cannot, the cache remembers, and says nothing of another
     pair.  */
  struct copy_fs_cache cache = { .valid = false };
  struct copy_data_request choose = { .cache = &cache };
  out = file_data (&choose, in, st, &res, &ret);
  len = read_back (out, DATA_LEN + 1);
  snprintf (detail, sizeof detail, "ret %d, engine %s, no_clone %d, valid "
            "%d, %zu in the file", ret, copy_engine_keyword (res.engine),
            (int) cache.no_clone, (int) cache.valid, len);
  check (ret == 0 && cache.valid && cache.src == st->st_dev
         && (res.engine == COPY_ENGINE_CLONE) != cache.no_clone
         && len == DATA_LEN && memcmp (got, data, DATA_LEN) == 0, detail,
         "copy_file_data, engine chosen: clone, or the pair's refusal of "
         "it remembered; the bytes exact");
  close (out);

  /* Engines the pair declined are not asked again: read/write is left.  */
  cache.declined = COPY_ENGINE_BIT (COPY_ENGINE_COPY_FILE_RANGE)
                   | COPY_ENGINE_BIT (COPY_ENGINE_SPLICE);
  cache.no_clone = true;
  out = file_data (&choose, in, st, &res, &ret);
  len = read_back (out, DATA_LEN + 1);
  snprintf (detail, sizeof detail, "ret %d, engine %s, %zu in the file",
            ret, copy_engine_keyword (res.engine), len);
  check (ret == 0 && res.engine == COPY_ENGINE_RW && len == DATA_LEN
         && memcmp (got, data, DATA_LEN) == 0, detail,
         "copy_file_data: the engines the pair refused before are skipped");
  close (out);

  /* Another pair of file systems starts afresh.  */
  cache.dst = st->st_dev + 1;
  out = file_data (&choose, in, st, &res, &ret);
  snprintf (detail, sizeof detail, "ret %d, engine %s, declined %#x",
            ret, copy_engine_keyword (res.engine), cache.declined);
  check (ret == 0 && !cache.no_clone == (res.engine == COPY_ENGINE_CLONE)
         && !(cache.declined & COPY_ENGINE_BIT (COPY_ENGINE_SPLICE))
         && cache.dst == st->st_dev, detail,
         "copy_file_data: another pair of file systems forgets the "
         "refusals of the last");
  close (out);
}

static void
test_file_data_pieces (int in, const struct stat *st)
{
  struct copy_data_result res;
  char detail[200];
  int ret;

  /* In pieces, each told: the counts add up to the file.  */
  uint64_t told = 0;
  struct copy_data_request pieces = {
    .engine = COPY_ENGINE_RW, .piece = 4096, .progress = sum_bytes,
    .progress_arg = &told,
  };
  int out = file_data (&pieces, in, st, &res, &ret);
  size_t len = read_back (out, DATA_LEN + 1);
  snprintf (detail, sizeof detail, "ret %d, told %" PRIu64 ", %lu calls, "
            "%zu in the file", ret, told, res.moved.calls, len);
  check (ret == 0 && told == DATA_LEN && res.size == DATA_LEN
         && res.moved.calls >= DATA_LEN / 4096 && len == DATA_LEN
         && memcmp (got, data, DATA_LEN) == 0, detail,
         "copy_file_data in 4 KiB pieces: every piece told, the bytes "
         "exact");
  close (out);

  /* A file that ends before its size (it shrank) is a short read.  */
  struct stat bigger = *st;
  bigger.st_size += 1000;
  struct copy_data_request plain = { .engine = COPY_ENGINE_NONE };
  out = file_data (&plain, in, &bigger, &res, &ret);
  len = read_back (out, DATA_LEN + 1);
  snprintf (detail, sizeof detail, "ret %d, short_read %d, %zu in the "
            "file", ret, (int) res.short_read, len);
  check (ret == 0 && res.short_read && len == DATA_LEN, detail,
         "copy_file_data: a file shorter than its status said is told");
  close (out);
}

static void
test_file_data_holes (void)
{
  /* DATA, a hole of a megabyte, DATA again.  */
  enum { GAP = 1 << 20 };
  int in = make_file ("sparse", data, DATA_LEN);
  if (pwrite (in, data, DATA_LEN, DATA_LEN + GAP) != DATA_LEN)
    die ("pwrite");
  struct stat st;
  if (fstat (in, &st) < 0)
    die ("fstat");
  if ((uintmax_t) st.st_blocks * 512 >= (uintmax_t) st.st_size)
    {
      skip ("copy_file_data holes: the scratch file system keeps none");
      close (in);
      return;
    }
  struct copy_data_result res;
  int ret;
  struct copy_data_request no_clone = { .reflink = COPY_WHEN_NEVER };
  int out = file_data (&no_clone, in, &st, &res, &ret);
  struct stat out_st;
  if (fstat (out, &out_st) < 0)
    die ("fstat");
  size_t len = read_back (out, DATA_LEN);
  unsigned char tail[DATA_LEN];
  bool tail_ok = pread (out, tail, DATA_LEN, DATA_LEN + GAP) == DATA_LEN
                 && memcmp (tail, data, DATA_LEN) == 0;
  char detail[200];
  snprintf (detail, sizeof detail, "ret %d, holes %d, size %" PRIu64
            ", moved %" PRIu64 ", blocks %jd", ret, (int) res.holes,
            res.size, res.moved.bytes, (intmax_t) out_st.st_blocks);
  check (ret == 0 && res.holes && res.size == (uint64_t) st.st_size
         /* Extents are whole blocks.  */
         && res.moved.bytes >= 2 * DATA_LEN
         && res.moved.bytes < (uint64_t) st.st_size
         && out_st.st_size == st.st_size
         && (uintmax_t) out_st.st_blocks * 512 < (uintmax_t) st.st_size
         && len == DATA_LEN && memcmp (got, data, DATA_LEN) == 0 && tail_ok,
         detail, "copy_file_data of a sparse file: the hole kept, the "
         "size counts it, the bytes exact");
  close (out);
  close (in);
  unlink ("sparse");
}

static void
test_file_data_range (int in)
{
  /* No status: a range as asked, as splice-in copies.  */
  off_t in_off = 500;
  int out = open ("dst", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (out < 0)
    die ("dst");
  struct copy_data_request req = {
    .range = { .in_fd = in, .out_fd = out, .in_off = &in_off,
               .length = 1000 },
  };
  struct copy_data_result res;
  int ret = copy_file_data (&req, &res);
  size_t len = read_back (out, DATA_LEN);
  char detail[200];
  snprintf (detail, sizeof detail, "ret %d, size %" PRIu64 ", in_off %jd, "
            "%zu in the file", ret, res.size, (intmax_t) in_off, len);
  check (ret == 0 && res.size == 1000 && res.moved.bytes == 1000
         && in_off == 1500 && len == 1000
         && memcmp (got, data + 500, 1000) == 0, detail,
         "copy_file_data of a range: the bytes asked for, the offset "
         "advanced");
  close (out);

  /* A /proc file says it is empty: it is read to its end.  */
  int proc = open ("/proc/self/status", O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (proc < 0 || fstat (proc, &st) < 0)
    die ("/proc/self/status");
  struct copy_data_request plain = { .engine = COPY_ENGINE_NONE };
  out = file_data (&plain, proc, &st, &res, &ret);
  len = read_back (out, DATA_LEN);
  snprintf (detail, sizeof detail, "ret %d, st_size %jd, size %" PRIu64
            ", %zu in the file", ret, (intmax_t) st.st_size, res.size, len);
  check (ret == 0 && st.st_size == 0 && res.size > 0 && len == res.size
         && memcmp (got, "Name:", 5) == 0, detail,
         "copy_file_data of /proc/self/status (size 0): all its data");
  close (out);
  close (proc);
}

static void
test_file_data (void)
{
  int in = make_file ("src", data, DATA_LEN);
  struct stat st;
  if (fstat (in, &st) < 0)
    die ("fstat");
  test_file_data_engines (in, &st);
  test_file_data_pieces (in, &st);
  test_file_data_range (in);
  test_file_data_holes ();
  close (in);
}

int
main (void)
{
  for (size_t i = 0; i < DATA_LEN; i++)
    data[i] = (unsigned char) (rng () >> 4);
  const char *scratch = tap_scratch ("/tmp");
  if (!scratch || chdir (scratch) < 0)
    die ("mkdtemp");
  signal (SIGPIPE, SIG_IGN);

  test_short_writes ();
  test_short_reads ();
  test_fsize_limit ();
  dfd = open (".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    die ("open .");
  test_copy ();
  test_file_data ();

  if (chdir ("/") < 0)
    die ("chdir /");
  return tap_done ();
}
