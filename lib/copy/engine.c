/* copy/engine.c -- the copy engine; see copy/engine.h.  */

#include <config.h>

#include "copy/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "stat-size.h"
#include "sys/calls.h"

/* An engine's answer meaning "not this way; try the next engine".  It is
   only given before the engine moved a byte.  */
#define COPY_FALLBACK 1

/* Largest request per call for the engines the kernel loops in itself.  */
#define COPY_CHUNK_MAX ((size_t) 1 << 30)

/* Buffer of the read/write engine: as large as the kernel's default
   readahead window is useful, no larger.  */
#define COPY_RW_BUFSIZE (128 * 1024)

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

/* Wait out an EAGAIN: the input has no data or the output no room; wait
   for both, each alone, so that a ready one does not make us spin.  */
static int
wait_both (const struct copy_state *s)
{
  int ret = wait_fd (s->req->in_fd, POLLIN);
  return ret < 0 ? ret : wait_fd (s->req->out_fd, POLLOUT);
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
}

/* One call of an engine that moves bytes in a single system call: up to
   LEN bytes, the call's result.  */
typedef ssize_t engine_call (const struct copy_state *s, size_t len);

/* The loop of such an engine: EINTR retried, EAGAIN waited out, short
   transfers continued.  An end of input before any byte moved falls back
   if ZERO_FALLS_BACK: copy_file_range and sendfile answer so for files
   whose size the kernel does not know (/proc), which the next engine then
   reads for real.  Errors that are not clearly the writer's are blamed on
   OTHER_SIDE.  */
static int
run_single_call (struct copy_state *s, engine_call *call,
                 bool zero_falls_back, enum copy_side other_side)
{
  uint64_t moved = 0;
  while (remaining (s) > 0)
    {
      ssize_t n = call (s, chunk (s, COPY_CHUNK_MAX));
      s->res->calls++;
      if (n == -EINTR)
        continue;
      if (n == -EAGAIN)
        {
          int ret = wait_both (s);
          if (ret < 0)
            return engine_failed (s, -ret, 1, COPY_SIDE_READ);
          continue;
        }
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

/* Write all of BUF to the output, at *out_off if set; *WRITTEN is the
   count written, also when a write after a short one fails: those bytes
   are in the output, and the copy's count must say so.  */
static int
write_all (const struct copy_state *s, const char *buf, size_t len,
           size_t *written)
{
  *written = 0;
  while (len > 0)
    {
      ssize_t n;
      if (s->req->out_off)
        {
          struct iovec iov = { .iov_base = (void *) buf, .iov_len = len };
          n = sys_pwritev (s->req->out_fd, &iov, 1, *s->req->out_off);
        }
      else
        n = sys_write (s->req->out_fd, buf, len);
      if (n == -EINTR)
        continue;
      if (n == -EAGAIN)
        {
          int ret = wait_fd (s->req->out_fd, POLLOUT);
          if (ret < 0)
            return ret;
          continue;
        }
      if (n < 0)
        return (int) n;
      if (n == 0)
        return -EIO;
      if (s->req->out_off)
        *s->req->out_off += n;
      *written += n;
      buf += n;
      len -= n;
    }
  return 0;
}

/* Read up to LEN bytes of FD into BUF, at *OFF if OFF is set.  */
static ssize_t
read_some (int fd, off_t *off, char *buf, size_t len)
{
  for (;;)
    {
      ssize_t n;
      if (off)
        {
          struct iovec iov = { .iov_base = buf, .iov_len = len };
          n = sys_preadv (fd, &iov, 1, *off);
          if (n > 0)
            *off += n;
        }
      else
        n = sys_read (fd, buf, len);
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
      ssize_t n = read_some (s->req->in_fd, s->req->in_off, buf,
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
      ret = write_all (s, buf, n, &written);
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

/* Move LEN bytes already spliced into the pipe PIPE_RD to the output with
   read/write, when the output refused splice: they must not be lost.  */
static int
drain_pipe (struct copy_state *s, int pipe_rd, size_t len)
{
  char buf[4096];
  while (len > 0)
    {
      ssize_t n = read_some (pipe_rd, NULL, buf,
                             len < sizeof buf ? len : sizeof buf);
      if (n <= 0)
        return n < 0 ? (int) n : -EIO;
      size_t written;
      int ret = write_all (s, buf, n, &written);
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

/* splice between two non-pipes: into an internal pipe, out of it.  */
static int
engine_splice_via_pipe (struct copy_state *s)
{
  int p[2];
  size_t psize;
  uint64_t moved = 0;
  int ret = open_pipe (p, s->req->pipe_size, &psize);
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

  while (remaining (s) > 0)
    {
      ssize_t n = sys_splice (s->req->in_fd, s->req->in_off, p[1], NULL,
                              chunk (s, psize), SPLICE_F_MOVE);
      s->res->calls++;
      if (n == -EINTR)
        continue;
      if (n == -EAGAIN)
        {
          ret = wait_fd (s->req->in_fd, POLLIN);
          if (ret < 0)
            break;
          continue;
        }
      if (n < 0)
        {
          ret = engine_failed (s, (int) -n, moved, COPY_SIDE_READ);
          break;
        }
      if (n == 0)
        break;

      size_t pending = n;
      while (pending > 0)
        {
          ssize_t m = sys_splice (p[0], NULL, s->req->out_fd, s->req->out_off,
                                  pending, SPLICE_F_MOVE);
          s->res->calls++;
          if (m == -EINTR)
            continue;
          if (m == -EAGAIN)
            {
              ret = wait_fd (s->req->out_fd, POLLOUT);
              if (ret < 0)
                break;
              continue;
            }
          if (m < 0 && moved == 0 && is_fallback_errno ((int) -m))
            {
              /* The output refuses splice (a terminal, say): hand the
                 bytes already in the pipe over by read/write, then let the
                 next engine go on from there.  */
              s->last_fallback = (int) -m;
              s->res->declined |= COPY_ENGINE_BIT (COPY_ENGINE_SPLICE);
              ret = drain_pipe (s, p[0], pending);
              if (ret == 0)
                ret = COPY_FALLBACK;
              else
                s->res->side = COPY_SIDE_WRITE;
              goto out;
            }
          if (m <= 0)
            {
              s->res->side = COPY_SIDE_WRITE;
              ret = m < 0 ? (int) m : -EIO;
              goto out;
            }
          pending -= m;
          moved += m;
          advance (s, m);
          s->res->via_pipe = true;
        }
      if (ret < 0)
        break;
    }
  if (ret < 0 && s->res->side == COPY_SIDE_NONE)
    s->res->side = COPY_SIDE_READ;
out:
  sys_close (p[0]);
  sys_close (p[1]);
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

/* Add the counts of one extent's copy, PART, to the whole file's, RES.  */
static void
add_result (struct copy_result *res, const struct copy_result *part)
{
  res->bytes += part->bytes;
  res->calls += part->calls;
  res->declined |= part->declined;
  res->via_pipe |= part->via_pipe;
  res->side = part->side;
  /* The engine that moved data; an extent of nothing names none.  */
  if (part->bytes || res->engine == COPY_ENGINE_NONE)
    res->engine = part->engine;
}

/* Set the offsets of IN_FD and OUT_FD to POS.  */
static int
seek_both (int in_fd, int out_fd, off_t pos, struct copy_result *res)
{
  off_t r = sys_lseek (in_fd, pos, SEEK_SET);
  if (r < 0)
    {
      res->side = COPY_SIDE_READ;
      return (int) r;
    }
  r = sys_lseek (out_fd, pos, SEEK_SET);
  if (r < 0)
    {
      res->side = COPY_SIDE_WRITE;
      return (int) r;
    }
  return 0;
}

/* The block size below which zeros are written, not skipped: that of
   most file systems.  */
#define COPY_HOLE_BLOCK 4096

static bool
all_zero (const char *p, size_t n)
{
  return n == 0 || (p[0] == 0 && memcmp (p, p + 1, n - 1) == 0);
}

/* Copy LENGTH bytes (COPY_TO_EOF: to the end) at POS of IN_FD to the same
   position of OUT_FD by read/write, skipping the blocks of zeros: what
   copy_extents does with COPY_ZEROS_AS_HOLES.  Set *END to the position
   reached.  */
static int
copy_skipping_zeros (int in_fd, int out_fd, off_t pos, uint64_t length,
                     struct copy_result *res, off_t *end)
{
  char *buf = malloc (COPY_RW_BUFSIZE);
  int ret = 0;
  *res = (struct copy_result) { .engine = COPY_ENGINE_RW };
  if (!buf)
    {
      res->side = COPY_SIDE_READ;
      return -ENOMEM;
    }
  while (length > 0)
    {
      size_t want = length < COPY_RW_BUFSIZE ? length : COPY_RW_BUFSIZE;
      off_t at = pos;
      ssize_t n = read_some (in_fd, &at, buf, want);
      res->calls++;
      if (n < 0)
        {
          res->side = COPY_SIDE_READ;
          ret = (int) n;
          break;
        }
      if (n == 0)
        break;
      /* Write each run of blocks that are not all zeros at its offset.  */
      for (size_t i = 0; i < (size_t) n; )
        {
          size_t blk = (size_t) n - i < COPY_HOLE_BLOCK ? (size_t) n - i
                                                        : COPY_HOLE_BLOCK;
          if (all_zero (buf + i, blk))
            {
              i += blk;
              continue;
            }
          size_t j = i + blk;
          while (j < (size_t) n)
            {
              size_t b = (size_t) n - j < COPY_HOLE_BLOCK ? (size_t) n - j
                                                          : COPY_HOLE_BLOCK;
              if (all_zero (buf + j, b))
                break;
              j += b;
            }
          off_t wpos = pos + (off_t) i;
          struct copy_request wreq = { .out_fd = out_fd, .out_off = &wpos };
          struct copy_state ws = { .req = &wreq, .res = res };
          size_t written;
          ret = write_all (&ws, buf + i, j - i, &written);
          res->calls++;
          res->bytes += written;
          if (ret < 0)
            {
              res->side = COPY_SIDE_WRITE;
              goto out;
            }
          i = j;
        }
      pos += n;
      if (length != COPY_TO_EOF)
        length -= n;
    }
out:
  *end = pos;
  free (buf);
  return ret;
}

int
copy_extents (const struct copy_request *req, off_t size,
              struct copy_result *res, bool *holes)
{
  struct copy_request part_req = *req;
  struct copy_result part;
  off_t pos = 0, copied_to = 0;
  int ret = 0;

  part_req.in_off = part_req.out_off = NULL;
  *res = (struct copy_result) { .engine = COPY_ENGINE_NONE };
  *holes = false;
  while (pos < size)
    {
      off_t data = sys_lseek (req->in_fd, pos, SEEK_DATA);
      if (data == -ENXIO)
        break;                  /* a hole up to the end */
      if (data == -EINVAL && pos == 0)
        {
          /* No SEEK_DATA here: one extent, all data.  */
          data = 0;
          part_req.length = COPY_TO_EOF;
        }
      else if (data < 0)
        {
          res->side = COPY_SIDE_READ;
          return (int) data;
        }
      else
        {
          off_t hole = sys_lseek (req->in_fd, data, SEEK_HOLE);
          if (hole < 0)
            {
              res->side = COPY_SIDE_READ;
              return (int) hole;
            }
          /* The file may have grown since SIZE was taken: its end is a
             hole then too.  */
          part_req.length = hole > data ? (uint64_t) (hole - data)
                                        : COPY_TO_EOF;
        }
      if (req->flags & COPY_ZEROS_AS_HOLES)
        {
          off_t end;
          ret = copy_skipping_zeros (req->in_fd, req->out_fd, data,
                                     part_req.length, &part, &end);
          add_result (res, &part);
          if (ret < 0)
            return ret;
          copied_to = end;
          if (part_req.length == COPY_TO_EOF || end == data)
            break;
          pos = end;
          continue;
        }
      /* SEEK_HOLE moved the input's offset too.  */
      if ((ret = seek_both (req->in_fd, req->out_fd, data, res)) < 0)
        return ret;
      ret = copy_range (&part_req, &part);
      add_result (res, &part);
      if (ret < 0)
        return ret;
      if (part_req.length == COPY_TO_EOF || part.bytes == 0)
        {
          copied_to = data + (off_t) part.bytes;
          break;
        }
      pos = copied_to = data + (off_t) part.bytes;
    }
  off_t final = copied_to > size ? copied_to : size;
  *holes = res->bytes < (uint64_t) final;
  /* The end of the file is a hole, or zeros left out: only the size
     makes it.  */
  if (*holes)
    {
      ret = sys_ftruncate (req->out_fd, final);
      if (ret < 0)
        {
          res->side = COPY_SIDE_WRITE;
          return ret;
        }
    }
  return 0;
}
/* --- one file's data ---------------------------------------------- */

const char *
copy_engine_keyword (enum copy_engine engine)
{
  /* The one engine whose name is no word for a command line.  */
  return engine == COPY_ENGINE_RW ? "rw" : copy_engine_name (engine);
}

/* Whether ERR from FICLONE means "these file systems cannot", not "this
   copy failed".  */
static bool
clone_unsupported (int err)
{
  return err == -EOPNOTSUPP || err == -EXDEV || err == -EINVAL
         || err == -ENOTTY || err == -ENOSYS || err == -EPERM
         || err == -EBADF;
}

/* Whether the sizes of the files of FD's file system say nothing of
   their data: those of sysfs are a page, whatever they hold (and no
   block), those of /proc 0.  */
static bool
nominal_sizes (int fd)
{
  struct statfs sf;
  if (fstatfs (fd, &sf) != 0)
    return false;
  switch ((unsigned long) sf.f_type)
    {
    case PROC_SUPER_MAGIC:
    case SYSFS_MAGIC:
    case DEBUGFS_MAGIC:
    case TRACEFS_MAGIC:
    case SECURITYFS_MAGIC:
    case CGROUP_SUPER_MAGIC:
    case CGROUP2_SUPER_MAGIC:
    case 0x62656570:            /* configfs */
      return true;
    default:
      return false;
    }
}

/* What copy_file_data works out of its request before moving a byte.  */
struct file_copy
{
  const struct copy_data_request *req;
  struct copy_data_result *res;
  struct copy_fs_cache *cache;  /* the request's, or a scratch one */
  bool regular;                 /* the source is a regular file */
  bool both;                    /* ... and so is the copy */
  bool has_holes;               /* fewer blocks than the size needs */
  bool size_unknown;            /* the size is no end: read to the end */
  unsigned int engines;         /* those copy_range may use */
};

/* Fill F from its request.  */
static void
file_copy_start (struct file_copy *f)
{
  const struct copy_data_request *req = f->req;
  const struct stat *st = req->in_st;
  struct copy_fs_cache *c = f->cache;
  if (!c->valid || c->src != st->st_dev || c->dst != req->out_dev)
    *c = (struct copy_fs_cache) { .valid = true, .src = st->st_dev,
                                  .dst = req->out_dev };
  f->regular = S_ISREG (st->st_mode);
  /* What needs a regular file on both sides: FICLONE, copy_file_range,
     holes, and the refusals remembered for the pair of file systems.  */
  f->both = f->regular && req->out_regular;
  f->has_holes = f->regular
                 && (uintmax_t) ST_NBLOCKS (*st) * ST_NBLOCKSIZE
                    < (uintmax_t) st->st_size;
  /* A size of 0 may mean "unknown" (/proc): such a file is read to its
     end, whatever engine was asked for, rather than copied as empty.  So
     is one of sysfs, whose size is a page without a block, rather than
     taken for a hole after its data and padded with zeros.  */
  f->size_unknown = f->regular
                    && (st->st_size == 0
                        || (f->has_holes && nominal_sizes (req->range.in_fd)));
  if (f->size_unknown)
    f->has_holes = false;
}

/* FICLONE, where the request allows it: 1 if it made the copy, 0 to go
   on with the other engines, -errno if the copy failed.  */
static int
file_copy_clone (struct file_copy *f)
{
  const struct copy_data_request *req = f->req;
  bool must = req->engine == COPY_ENGINE_CLONE
              || req->reflink == COPY_WHEN_ALWAYS;
  if (!f->both
      || !(req->engine == COPY_ENGINE_CLONE
           || (req->engine == COPY_ENGINE_NONE
               && req->reflink != COPY_WHEN_NEVER
               && (!f->cache->no_clone || must))))
    return 0;
  int ret = copy_clone (req->range.in_fd, req->range.out_fd);
  if (ret == 0)
    {
      f->res->moved.engine = COPY_ENGINE_CLONE;
      f->res->moved.bytes = req->in_st->st_size;
      f->res->holes = f->has_holes;
      return 1;
    }
  if (!clone_unsupported (ret) || (must && !f->size_unknown))
    {
      f->res->failure = COPY_FAILED_CLONE;
      return ret;
    }
  f->cache->no_clone = true;
  return 0;
}

/* The engines copy_range may use for F.  */
static unsigned int
file_copy_engines (const struct file_copy *f)
{
  const struct copy_data_request *req = f->req;
  /* sendfile adds nothing to splice between two files: only when
     asked for.  */
  unsigned int engines
    = req->engine != COPY_ENGINE_NONE
      ? COPY_ENGINE_BIT (req->engine)
      : (COPY_ENGINES_ALL & ~COPY_ENGINE_BIT (COPY_ENGINE_SENDFILE)
         & ~f->cache->declined);
  /* copy_file_range may share the blocks as FICLONE does (btrfs, XFS,
     NFS): never is never.  */
  if (req->engine == COPY_ENGINE_NONE && req->reflink == COPY_WHEN_NEVER)
    engines &= ~COPY_ENGINE_BIT (COPY_ENGINE_COPY_FILE_RANGE);
  return engines ? engines : COPY_ENGINE_BIT (COPY_ENGINE_RW);
}

/* The first engine of F's allowed, less SKIP, that applies to its pair of
   files; COPY_ENGINE_NONE if none.  */
static enum copy_engine
file_copy_first (const struct file_copy *f, unsigned int skip)
{
  for (enum copy_engine e = COPY_ENGINE_COPY_FILE_RANGE;
       e <= COPY_ENGINE_RW; e++)
    if (f->engines & COPY_ENGINE_BIT (e) & ~skip
        && (f->both || e != COPY_ENGINE_COPY_FILE_RANGE))
      return e;
  return COPY_ENGINE_NONE;
}

static void
report_progress (const struct copy_data_request *req, uint64_t bytes)
{
  if (req->progress)
    req->progress (req->progress_arg, bytes);
}

/* Copy the regular file of F in pieces of the request's size, each
   reported, for a progress line to move.  */
static int
file_copy_pieces (struct file_copy *f, struct copy_request *creq)
{
  const struct copy_data_request *req = f->req;
  struct copy_result *res = &f->res->moved;
  uint64_t left = req->in_st->st_size;
  int ret = 0;
  while (left > 0 && ret == 0)
    {
      struct copy_result part;
      creq->length = left < req->piece ? left : req->piece;
      ret = copy_range (creq, &part);
      add_result (res, &part);
      report_progress (req, part.bytes);
      if (part.bytes < creq->length)
        break;
      left -= part.bytes;
    }
  return ret;
}

/* Copy F's data with the engines of copy_range: its extents, in pieces,
   or in one call.  */
static int
file_copy_range (struct file_copy *f)
{
  const struct copy_data_request *req = f->req;
  struct copy_result *res = &f->res->moved;
  struct copy_request creq = req->range;
  creq.engines = f->engines;
  creq.flags = f->both ? COPY_REGULAR_FILES : 0;
  int ret;
  if (f->both && req->sparse != COPY_WHEN_NEVER && !f->size_unknown
      && (f->has_holes || req->sparse == COPY_WHEN_ALWAYS))
    {
      /* --sparse=always: zeros in the data become holes too, as the
         data is read.  */
      if (req->sparse == COPY_WHEN_ALWAYS
          && (req->engine == COPY_ENGINE_NONE
              || req->engine == COPY_ENGINE_RW))
        creq.flags |= COPY_ZEROS_AS_HOLES;
      ret = copy_extents (&creq, req->in_st->st_size, res, &f->res->holes);
      report_progress (req, res->bytes);
    }
  else if (f->regular && !f->size_unknown && req->piece)
    ret = file_copy_pieces (f, &creq);
  else
    {
      /* Up to the size fstat gave, in one call where the engine allows;
         to the end where the size says nothing (/proc, FIFOs).  */
      creq.length = f->regular && !f->size_unknown
                    ? (uint64_t) req->in_st->st_size : COPY_TO_EOF;
      ret = copy_range (&creq, res);
      report_progress (req, res->bytes);
    }
  /* A refusal for a file of unknown size (/proc) is about that file,
     not about the file systems.  */
  if (req->engine == COPY_ENGINE_NONE && f->both && !f->size_unknown)
    f->cache->declined |= res->declined & ~COPY_ENGINE_BIT (COPY_ENGINE_RW);

  /* Nothing came: the file may be empty, or one whose size the kernel
     does not know and which the engine took as empty (copy_file_range
     and sendfile on /proc).  Reading it settles it; a forced engine
     never costs the copy its data.  */
  if (res->bytes == 0 && res->engine != COPY_ENGINE_RW
      && (!f->regular || f->size_unknown)
      && (ret == 0
          || (f->size_unknown && (ret == -EINVAL || ret == -ENOSYS
                                  || ret == -EXDEV || ret == -EOPNOTSUPP))))
    {
      struct copy_result probe;
      creq.engines = COPY_ENGINE_BIT (COPY_ENGINE_RW);
      creq.length = COPY_TO_EOF;
      ret = copy_range (&creq, &probe);
      if (probe.bytes > 0 || ret < 0)
        *res = probe;
      report_progress (req, probe.bytes);
    }
  return ret;
}

/* What F's failure RET is: the forced engine that cannot, or a read or a
   write that failed.  */
static enum copy_data_failure
file_copy_failure (const struct file_copy *f, int ret)
{
  if (f->req->engine != COPY_ENGINE_NONE && f->res->moved.bytes == 0
      && (ret == -EINVAL || ret == -ENOSYS || ret == -EXDEV
          || ret == -EOPNOTSUPP))
    return COPY_FAILED_ENGINE;
  return f->res->moved.side == COPY_SIDE_READ ? COPY_FAILED_READ
                                               : COPY_FAILED_WRITE;
}

int
copy_file_data (const struct copy_data_request *req,
                struct copy_data_result *res)
{
  struct copy_fs_cache scratch = { .valid = false };
  struct file_copy f = { .req = req, .res = res,
                         .cache = req->cache ? req->cache : &scratch };
  *res = (struct copy_data_result) {
    .moved = { .engine = COPY_ENGINE_NONE },
  };
  if (!req->in_st)
    {
      /* A range, as asked.  */
      int ret = copy_range (&req->range, &res->moved);
      res->engine = res->moved.engine;
      res->size = res->moved.bytes;
      if (ret < 0)
        res->failure = res->moved.side == COPY_SIDE_READ ? COPY_FAILED_READ
                                                         : COPY_FAILED_WRITE;
      return ret;
    }
  file_copy_start (&f);
  int ret = file_copy_clone (&f);
  if (ret < 0)
    return ret;
  if (ret > 0)
    {
      res->engine = COPY_ENGINE_CLONE;
      res->size = req->in_st->st_size;
      return 0;
    }
  f.engines = file_copy_engines (&f);
  ret = file_copy_range (&f);
  if (ret < 0)
    {
      res->failure = file_copy_failure (&f, ret);
      return ret;
    }
  const struct stat *st = req->in_st;
  /* The extents' copy ends at the size, whatever the end of the data:
     only the fstat after the copy can tell a change there.  */
  res->short_read = f.regular && !f.size_unknown && !res->holes
                    && res->moved.bytes < (uint64_t) st->st_size;
  /* Nothing moved (an empty file, or holes only): the engine that would
     have moved data, the first that did not refuse.  */
  res->engine = res->moved.engine;
  if (res->moved.bytes == 0)
    {
      enum copy_engine e = file_copy_first (&f, res->moved.declined);
      res->engine = e != COPY_ENGINE_NONE ? e : file_copy_first (&f, 0);
    }
  /* The copy's size: holes count.  */
  res->size = res->holes ? (uint64_t) st->st_size : res->moved.bytes;
  return 0;
}

bool
copy_source_changed (int in_fd, const struct stat *before, bool short_read)
{
  struct stat now;
  if (sys_fstat (in_fd, &now) == 0
      && (now.st_size != before->st_size
          || now.st_mtim.tv_sec != before->st_mtim.tv_sec
          || now.st_mtim.tv_nsec != before->st_mtim.tv_nsec
          || now.st_ctim.tv_sec != before->st_ctim.tv_sec
          || now.st_ctim.tv_nsec != before->st_ctim.tv_nsec))
    return true;
  return short_read;
}
