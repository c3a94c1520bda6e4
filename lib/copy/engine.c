/* copy/engine.c -- the copy engine; see copy/engine.h.  */

#include <config.h>

#include "copy/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/stat.h>

#include "sys/calls.h"
#include "sys/readwait.h"

/* An engine's answer meaning "not this way; try the next engine".  It is
   only given before the engine moved a byte.  */
#define COPY_FALLBACK 1

/* Largest request per call for the engines the kernel loops in itself.  */
#define COPY_CHUNK_MAX ((size_t) 1 << 30)

struct copy_state
{
  const struct copy_request *req;
  struct copy_result *res;
  bool in_pipe;
  bool out_pipe;
  bool in_reg;
  bool out_reg;
  bool out_append;
  int last_fallback;            /* errno of the last fallback, for the end */
  int pipe[2];                  /* splice's internal pipe, while open */
};

static const char *const engine_names[] = {
  [COPY_ENGINE_NONE] = "none",
  [COPY_ENGINE_COPY_FILE_RANGE] = "copy_file_range",
  [COPY_ENGINE_SPLICE] = "splice",
  [COPY_ENGINE_SENDFILE] = "sendfile",
  [COPY_ENGINE_RW] = "read/write",
  [COPY_ENGINE_CLONE] = "clone",
};

const char *
copy_engine_name (enum copy_engine engine)
{
  return engine_names[engine];
}

void
copy_print_debug (const char *prog, const struct copy_result *res)
{
  fprintf (stderr, "%s: engine %s%s, %" PRIu64 " bytes, %lu call%s\n", prog,
           copy_engine_name (res->engine),
           res->via_pipe ? " (internal pipe)" : "", res->bytes, res->calls,
           res->calls == 1 ? "" : "s");
}

/* Errors that say "this call cannot do this copy", as opposed to "this copy
   failed".  EPERM is here because seccomp filters (containers) answer with
   it for calls they do not know; a real permission problem shows up again,
   and is reported, in the next engine.  */
static bool
is_fallback_errno (int err)
{
  switch (err)
    {
    case EINVAL:
    case ENOSYS:
    case EXDEV:
    case EOPNOTSUPP:
    case EPERM:
      return true;
    default:
      return false;
    }
}

/* Errors that can only come from the writing end.  */
static bool
is_write_errno (int err)
{
  switch (err)
    {
    case EPIPE:
    case ENOSPC:
    case EDQUOT:
    case EFBIG:
      return true;
    default:
      return false;
    }
}

static uint64_t
remaining (const struct copy_state *s)
{
  return s->req->length - s->res->bytes;
}

static size_t
chunk (const struct copy_state *s, size_t max)
{
  const struct copy_meter *m = s->req->meter;
  if (m && m->max_call && m->max_call < max)
    max = m->max_call;
  uint64_t left = remaining (s);
  return left < max ? (size_t) left : max;
}

/* Block until FD is ready for EVENTS; for descriptors opened O_NONBLOCK,
   which answer EAGAIN instead of waiting.  */
static int
wait_fd (int fd, short events)
{
  struct pollfd pfd = { .fd = fd, .events = events };
  int ret;
  do
    ret = sys_ppoll (&pfd, 1, NULL, NULL);
  while (ret == -EINTR);
  return ret < 0 ? ret : 0;
}

/* The ends an EAGAIN waits for: the input to have data, the output
   room.  */
#define WAIT_INPUT 1u
#define WAIT_OUTPUT 2u

/* Wait out an EAGAIN until the ends in WAIT are ready; for both, each
   alone, so that a ready one does not make us spin.  */
static int
wait_ends (const struct copy_state *s, unsigned int wait)
{
  int ret = 0;
  if (wait & WAIT_INPUT)
    ret = wait_fd (s->req->in_fd, POLLIN);
  if (ret == 0 && (wait & WAIT_OUTPUT))
    ret = wait_fd (s->req->out_fd, POLLOUT);
  return ret;
}

/* Record a failure of the engine running in S and return -ERR, or return
   COPY_FALLBACK when ERR allows the next engine and MOVED is 0.  */
static int
engine_failed (struct copy_state *s, int err, uint64_t moved,
               enum copy_side side)
{
  if (moved == 0 && is_fallback_errno (err))
    {
      s->last_fallback = err;
      s->res->declined |= COPY_ENGINE_BIT (s->res->engine);
      return COPY_FALLBACK;
    }
  s->res->side = side;
  return -err;
}

static void
advance (struct copy_state *s, uint64_t n)
{
  s->res->bytes += n;
  if (s->req->meter)
    s->req->meter->moved (s->req->meter, n);
}

/* One system call that moves up to LEN bytes; its result.  */
typedef ssize_t engine_call (const struct copy_state *s, size_t len);

/* Make CALL for up to LEN bytes, again while it answers EINTR, and again
   on EAGAIN once the ends in WAIT are ready; each call counts.  Return 0
   with CALL's last answer in *N (bytes moved, 0 at the end of input, or
   -errno), or the -errno of a wait that failed, blamed on the reading
   side.  */
static int
call_retried (struct copy_state *s, engine_call *call, size_t len,
              unsigned int wait, ssize_t *n)
{
  for (;;)
    {
      *n = call (s, len);
      s->res->calls++;
      if (*n == -EINTR)
        continue;
      if (*n != -EAGAIN)
        return 0;
      int ret = wait_ends (s, wait);
      if (ret < 0)
        {
          s->res->side = COPY_SIDE_READ;
          return ret;
        }
    }
}

/* The loop of an engine that moves bytes in a single system call, CALL:
   EINTR retried, EAGAIN waited out, short transfers continued.  An end of
   input before any byte moved falls back if ZERO_FALLS_BACK:
   copy_file_range and sendfile answer so for files whose size the kernel
   does not know (/proc), which the next engine then reads for real.
   Errors that are not clearly the writer's are blamed on OTHER_SIDE.  */
static int
run_single_call (struct copy_state *s, engine_call *call,
                 bool zero_falls_back, enum copy_side other_side)
{
  uint64_t moved = 0;
  while (remaining (s) > 0)
    {
      ssize_t n;
      int ret = call_retried (s, call, chunk (s, COPY_CHUNK_MAX),
                              WAIT_INPUT | WAIT_OUTPUT, &n);
      if (ret < 0)
        return ret;
      if (n < 0)
        {
          int err = (int) -n;
          return engine_failed (s, err, moved,
                                is_write_errno (err) ? COPY_SIDE_WRITE
                                : other_side);
        }
      if (n == 0)
        return moved == 0 && zero_falls_back ? COPY_FALLBACK : 0;
      moved += n;
      advance (s, n);
    }
  return 0;
}

/* copy_file_range: both ends regular files; the kernel may share or
   reflink the blocks.  */
static ssize_t
call_copy_file_range (const struct copy_state *s, size_t len)
{
  return sys_copy_file_range (s->req->in_fd, s->req->in_off, s->req->out_fd,
                              s->req->out_off, len, 0);
}

/* sendfile: any input the page cache holds, written at the output's own
   position.  */
static ssize_t
call_sendfile (const struct copy_state *s, size_t len)
{
  return sys_sendfile (s->req->out_fd, s->req->in_fd, s->req->in_off, len);
}

/* splice with a pipe at one end: pages move, bytes are not copied.  A
   pipe has no position, so only the other end's offset is passed.  */
static ssize_t
call_splice_direct (const struct copy_state *s, size_t len)
{
  return sys_splice (s->req->in_fd, s->in_pipe ? NULL : s->req->in_off,
                     s->req->out_fd, s->out_pipe ? NULL : s->req->out_off,
                     len, SPLICE_F_MOVE);
}

/* splice from the input into the internal pipe.  */
static ssize_t
call_splice_into_pipe (const struct copy_state *s, size_t len)
{
  return sys_splice (s->req->in_fd, s->req->in_off, s->pipe[1], NULL, len,
                     SPLICE_F_MOVE);
}

/* splice from the internal pipe to the output.  */
static ssize_t
call_splice_out_of_pipe (const struct copy_state *s, size_t len)
{
  return sys_splice (s->pipe[0], NULL, s->req->out_fd, s->req->out_off, len,
                     SPLICE_F_MOVE);
}

/* Whether preadv, or pwritev, answered ENOSYS or EPERM once: missing
   (before Linux 2.6.30) or refused by a seccomp filter.  The C library's
   pread and pwrite then read and write at the offset, by the pread64 and
   pwrite64 calls, which every kernel has.  Workers of one tree may race
   to set them: they set them alike.  A real EPERM (a file sealed against
   writing) is pwrite's answer too.  */
static atomic_bool no_preadv, no_pwritev;

/* Whether ERR says a call is missing or refused.  */
static bool
is_call_trouble (ssize_t err)
{
  return err == -ENOSYS || err == -EPERM;
}

/* The C library's answer N as -errno, errno left as it was.  */
static ssize_t
libc_result (ssize_t n, int saved)
{
  if (n < 0)
    n = -errno;
  errno = saved;
  return n;
}

/* Read up to LEN bytes of FD at OFF into BUF: preadv, or pread.  */
static ssize_t
read_at (int fd, char *buf, size_t len, off_t off)
{
  if (!atomic_load_explicit (&no_preadv, memory_order_relaxed))
    {
      struct iovec iov = { .iov_base = buf, .iov_len = len };
      ssize_t n = sys_preadv (fd, &iov, 1, off);
      if (!is_call_trouble (n))
        return n;
      atomic_store_explicit (&no_preadv, true, memory_order_relaxed);
    }
  int saved = errno;
  return libc_result (pread (fd, buf, len, off), saved);
}

/* Write up to LEN bytes of BUF to FD at OFF: pwritev, or pwrite.  */
static ssize_t
write_at (int fd, const char *buf, size_t len, off_t off)
{
  if (!atomic_load_explicit (&no_pwritev, memory_order_relaxed))
    {
      struct iovec iov = { .iov_base = (void *) buf, .iov_len = len };
      ssize_t n = sys_pwritev (fd, &iov, 1, off);
      if (!is_call_trouble (n))
        return n;
      atomic_store_explicit (&no_pwritev, true, memory_order_relaxed);
    }
  int saved = errno;
  return libc_result (pwrite (fd, buf, len, off), saved);
}

int
copy_write_all (int fd, off_t *off, const char *buf, size_t len,
                size_t *written)
{
  *written = 0;
  while (len > 0)
    {
      ssize_t n;
      if (off)
        n = write_at (fd, buf, len, *off);
      else
        n = sys_write (fd, buf, len);
      if (n == -EINTR)
        continue;
      if (n == -EAGAIN)
        {
          int ret = wait_fd (fd, POLLOUT);
          if (ret < 0)
            return ret;
          continue;
        }
      if (n < 0)
        return (int) n;
      if (n == 0)
        return -EIO;
      if (off)
        *off += n;
      *written += n;
      buf += n;
      len -= n;
    }
  return 0;
}

ssize_t
copy_read_some (int fd, off_t *off, char *buf, size_t len)
{
  if (!off)
    return read_wait (fd, buf, len);
  for (;;)
    {
      ssize_t n = read_at (fd, buf, len, *off);
      if (n > 0)
        *off += n;
      if (n == -EINTR)
        continue;
      if (n == -EAGAIN)
        {
          int ret = wait_fd (fd, POLLIN);
          if (ret < 0)
            return ret;
          continue;
        }
      return n;
    }
}

/* read/write: the last resort, which every pair of descriptors allows.  */
static int
engine_rw (struct copy_state *s)
{
  char *buf = malloc (COPY_RW_BUFSIZE);
  int ret = 0;
  if (!buf)
    {
      s->res->side = COPY_SIDE_READ;
      return -ENOMEM;
    }
  while (remaining (s) > 0)
    {
      ssize_t n = copy_read_some (s->req->in_fd, s->req->in_off, buf,
                                  chunk (s, COPY_RW_BUFSIZE));
      s->res->calls++;
      if (n < 0)
        {
          s->res->side = COPY_SIDE_READ;
          ret = (int) n;
          break;
        }
      if (n == 0)
        break;
      size_t written;
      ret = copy_write_all (s->req->out_fd, s->req->out_off, buf, n,
                            &written);
      s->res->calls++;
      advance (s, written);
      if (ret < 0)
        {
          s->res->side = COPY_SIDE_WRITE;
          break;
        }
    }
  free (buf);
  return ret;
}

/* Move LEN bytes already spliced into the internal pipe to the output
   with read/write, when the output refused splice: they must not be
   lost.  */
static int
drain_pipe (struct copy_state *s, size_t len)
{
  char buf[4096];
  while (len > 0)
    {
      ssize_t n = copy_read_some (s->pipe[0], NULL, buf,
                                  len < sizeof buf ? len : sizeof buf);
      if (n <= 0)
        return n < 0 ? (int) n : -EIO;
      size_t written;
      int ret = copy_write_all (s->req->out_fd, s->req->out_off, buf, n,
                                &written);
      advance (s, written);
      if (ret < 0)
        return ret;
      s->res->calls += 2;
      len -= n;
    }
  return 0;
}

size_t
copy_size_pipe (int fd, size_t size)
{
  int now = sys_fcntl (fd, F_GETPIPE_SZ, 0);
  if (now < 0)
    return 0;
  bool grow_only = size == 0;
  if (grow_only)
    size = COPY_DEFAULT_PIPE_SIZE;
  if ((grow_only ? (size_t) now < size : (size_t) now != size)
      && size <= INT_MAX)
    {
      int ret = sys_fcntl (fd, F_SETPIPE_SZ, (long) size);
      if (ret > 0)
        now = ret;
    }
  return now;
}

/* Open the internal pipe and size it.  */
static int
open_pipe (int fds[2], size_t want, size_t *size)
{
  int ret = sys_pipe2 (fds, O_CLOEXEC);
  if (ret < 0)
    return ret;
  *size = copy_size_pipe (fds[1], want);
  if (*size == 0)
    *size = 65536;
  return 0;
}

/* Move the LEN bytes just spliced into the internal pipe on to the
   output; *MOVED counts the bytes of this engine that left the pipe.
   Return 0 or -errno; or COPY_FALLBACK when the output refuses splice
   before any did, the LEN bytes then written by read/write.  */
static int
splice_out_of_pipe (struct copy_state *s, size_t len, uint64_t *moved)
{
  while (len > 0)
    {
      ssize_t m;
      int ret = call_retried (s, call_splice_out_of_pipe, len, WAIT_OUTPUT,
                              &m);
      if (ret < 0)
        return ret;
      if (m < 0 && *moved == 0 && is_fallback_errno ((int) -m))
        {
          /* The output refuses splice (a terminal, say): hand the bytes
             already in the pipe over by read/write, then let the next
             engine go on from there.  */
          s->last_fallback = (int) -m;
          s->res->declined |= COPY_ENGINE_BIT (COPY_ENGINE_SPLICE);
          ret = drain_pipe (s, len);
          if (ret == 0)
            return COPY_FALLBACK;
          s->res->side = COPY_SIDE_WRITE;
          return ret;
        }
      if (m <= 0)
        {
          s->res->side = COPY_SIDE_WRITE;
          return m < 0 ? (int) m : -EIO;
        }
      len -= m;
      *moved += m;
      advance (s, m);
      s->res->via_pipe = true;
    }
  return 0;
}

/* The copy through the internal pipe, of PSIZE bytes: into it from the
   input, a pipeful at most, then all of that out of it.  */
static int
splice_through_pipe (struct copy_state *s, size_t psize)
{
  uint64_t moved = 0;
  while (remaining (s) > 0)
    {
      ssize_t n;
      int ret = call_retried (s, call_splice_into_pipe, chunk (s, psize),
                              WAIT_INPUT, &n);
      if (ret < 0)
        return ret;
      if (n < 0)
        return engine_failed (s, (int) -n, moved, COPY_SIDE_READ);
      if (n == 0)
        break;
      ret = splice_out_of_pipe (s, n, &moved);
      if (ret != 0)
        return ret;
    }
  return 0;
}

/* splice between two non-pipes: into an internal pipe, out of it.  */
static int
engine_splice_via_pipe (struct copy_state *s)
{
  size_t psize;
  int ret = open_pipe (s->pipe, s->req->pipe_size, &psize);
  if (ret == -EMFILE || ret == -ENFILE)
    {
      /* No descriptors left for the pipe (a low RLIMIT_NOFILE):
         read/write needs none.  Not a refusal of the file systems, so
         not in declined.  */
      s->last_fallback = -ret;
      return COPY_FALLBACK;
    }
  if (ret < 0)
    {
      s->res->side = COPY_SIDE_READ;
      return ret;
    }
  ret = splice_through_pipe (s, psize);
  sys_close (s->pipe[0]);
  sys_close (s->pipe[1]);
  return ret;
}

static int
engine_splice (struct copy_state *s)
{
  if (s->in_pipe || s->out_pipe)
    /* The file end is the one to blame for errors not clearly the
       writer's.  */
    return run_single_call (s, call_splice_direct, false,
                            s->in_pipe ? COPY_SIDE_WRITE : COPY_SIDE_READ);
  return engine_splice_via_pipe (s);
}

/* Whether ENGINE can be tried at all for the descriptors in S.  O_APPEND
   outputs refuse splice, sendfile and copy_file_range alike.  */
static bool
engine_applies (const struct copy_state *s, enum copy_engine engine)
{
  switch (engine)
    {
    case COPY_ENGINE_COPY_FILE_RANGE:
      return s->in_reg && s->out_reg && !s->out_append;
    case COPY_ENGINE_SPLICE:
      return !s->out_append;
    case COPY_ENGINE_SENDFILE:
      /* sendfile writes at the output's own position only.  */
      return !s->in_pipe && !s->out_append && !s->req->out_off;
    case COPY_ENGINE_RW:
      return true;
    default:
      return false;
    }
}

static int
engine_run (struct copy_state *s, enum copy_engine engine)
{
  switch (engine)
    {
    case COPY_ENGINE_COPY_FILE_RANGE:
      return run_single_call (s, call_copy_file_range, true, COPY_SIDE_READ);
    case COPY_ENGINE_SPLICE:
      return engine_splice (s);
    case COPY_ENGINE_SENDFILE:
      return run_single_call (s, call_sendfile, true, COPY_SIDE_READ);
    default:
      return engine_rw (s);
    }
}

int
copy_range (const struct copy_request *req, struct copy_result *res)
{
  static const enum copy_engine order[] = {
    COPY_ENGINE_COPY_FILE_RANGE, COPY_ENGINE_SPLICE, COPY_ENGINE_SENDFILE,
    COPY_ENGINE_RW,
  };
  struct copy_state s = { .req = req, .res = res };
  struct stat in_st, out_st;
  unsigned int allowed = req->engines ? req->engines : COPY_ENGINES_ALL;
  bool ran = false;
  int ret;

  *res = (struct copy_result) { .engine = COPY_ENGINE_NONE };
  if (req->flags & COPY_REGULAR_FILES)
    s.in_reg = s.out_reg = true;
  else
    {
      if ((ret = sys_fstat (req->in_fd, &in_st)) < 0)
        {
          res->side = COPY_SIDE_READ;
          return ret;
        }
      if ((ret = sys_fstat (req->out_fd, &out_st)) < 0)
        {
          res->side = COPY_SIDE_WRITE;
          return ret;
        }
      s.in_pipe = S_ISFIFO (in_st.st_mode);
      s.out_pipe = S_ISFIFO (out_st.st_mode);
      s.in_reg = S_ISREG (in_st.st_mode);
      s.out_reg = S_ISREG (out_st.st_mode);
      ret = sys_fcntl (req->out_fd, F_GETFL, 0);
      s.out_append = ret >= 0 && (ret & O_APPEND);
    }
  /* A pipe has no position to read from or write at.  */
  if ((s.in_pipe && req->in_off) || (s.out_pipe && req->out_off))
    {
      res->side = s.in_pipe && req->in_off ? COPY_SIDE_READ : COPY_SIDE_WRITE;
      return -ESPIPE;
    }

  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
    {
      if (!(allowed & COPY_ENGINE_BIT (order[i]))
          || !engine_applies (&s, order[i]))
        continue;
      res->engine = order[i];
      ran = true;
      ret = engine_run (&s, order[i]);
      if (ret != COPY_FALLBACK)
        return ret;
    }
  /* Every allowed engine declined.  If the last word was an end of input
     at the start, there was nothing to copy; else report why.  */
  if (ran && !s.last_fallback)
    return 0;
  res->side = COPY_SIDE_WRITE;
  return s.last_fallback ? -s.last_fallback : -EINVAL;
}

int
copy_clone (int in_fd, int out_fd)
{
  int ret;
  do
    ret = sys_ioctl (out_fd, FICLONE, (unsigned long) in_fd);
  while (ret == -EINTR);
  return ret;
}
