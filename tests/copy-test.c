/* copy-test.c -- the C test driver of lib/copy.c against short transfers
   that the kernel really makes:

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
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "copy.h"

/* gnulib replaces these; the tests want glibc's own.  */
#undef fcntl
#undef open
#undef close

#define DATA_LEN (256 * 1024 + 4321)

#define TAP_NAME "copy-test"
#include "tap.h"

#define check tap_check
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
        _exit (errno == EPIPE ? 0 : 3);
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
      printf ("ok %d - # SKIP the file system of %s keeps no holes\n",
              ++n_test, tmpdir);
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
  test_file_data ();

  if (chdir ("/") < 0)
    die ("chdir /");
  return tap_done ();
}
