/* copy/engine.h -- the copy engine: move bytes between two descriptors with
   the cheapest system call the pair allows.

   Engines are tried in order: copy_file_range (both regular files), splice
   (straight through when either end is a pipe, else through an internal
   pipe), sendfile, and read/write.  An engine falls back to the next one
   only before it moved a byte, and only for errors that mean "not this
   way" (EINVAL, ENOSYS, EXDEV, EOPNOTSUPP); errors such as EIO, ENOSPC or
   EDQUOT end the copy.

   Beside it: copy_clone shares the blocks of one regular file with another
   (FICLONE, a reflink), and the read/write engine's two steps,
   copy_read_some and copy_write_all, serve a caller that looks at the
   bytes between them.  What a tool copying whole files adds (holes,
   /proc, the engines a pair of file systems refused) is copy/data.h's.  */

#ifndef NC_COPY_ENGINE_H
#define NC_COPY_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum copy_engine
{
  COPY_ENGINE_NONE,
  COPY_ENGINE_COPY_FILE_RANGE,
  COPY_ENGINE_SPLICE,
  COPY_ENGINE_SENDFILE,
  COPY_ENGINE_RW,
  COPY_ENGINE_CLONE,            /* copy_clone only; never in copy_range */
};

/* A bit per engine, for copy_request.engines.  */
#define COPY_ENGINE_BIT(e) (1u << (e))
#define COPY_ENGINES_ALL \
  (COPY_ENGINE_BIT (COPY_ENGINE_COPY_FILE_RANGE) \
   | COPY_ENGINE_BIT (COPY_ENGINE_SPLICE) \
   | COPY_ENGINE_BIT (COPY_ENGINE_SENDFILE) \
   | COPY_ENGINE_BIT (COPY_ENGINE_RW))

/* copy_request.length for "until end of input".  */
#define COPY_TO_EOF UINT64_MAX

/* The internal pipe's default size: large enough that one splice moves a
   megabyte, and the default pipe-max-size, so unprivileged users get it.  */
#define COPY_DEFAULT_PIPE_SIZE (1024 * 1024)

/* The largest pipe size a user may ask for.  The kernel rounds a size up
   to a power-of-two number of pages, to at most 2 GiB, a size that
   F_GETPIPE_SZ and F_SETPIPE_SZ, returning an int, cannot report: any
   request above 1 GiB would be rounded up to it.  (Unprivileged users are
   held to /proc/sys/fs/pipe-max-size, 1 MiB by default, by the kernel.)  */
#define COPY_MAX_PIPE_SIZE (1024 * 1024 * 1024)

/* What copy_range tells of a copy as it goes, and how much one call may
   move (copy_request.meter): a progress line and a rate limit hang there
   without an engine of their own, so that the bytes still move by the
   cheapest call.  MOVED is called after every call that moved bytes,
   with their count, on the copying thread; it may sleep.  */
struct copy_meter
{
  size_t max_call;              /* the most one call moves; 0: no bound */
  void (*moved) (struct copy_meter *m, uint64_t bytes);
};

struct copy_request
{
  int in_fd;
  int out_fd;
  /* Positions to read from / write at, advanced as bytes move; NULL means
     the descriptor's own file offset (the only choice for a pipe).  */
  off_t *in_off;
  off_t *out_off;
  uint64_t length;              /* at most this many bytes, or COPY_TO_EOF */
  size_t pipe_size;             /* internal pipe size; 0 for the default */
  unsigned int engines;         /* allowed engines; 0 for all */
  unsigned int flags;           /* COPY_* below */
  struct copy_meter *meter;     /* NULL: none */
};

/* copy_request.flags: both descriptors are regular files, opened by the
   caller without O_APPEND; spares copy_range the fstat and fcntl calls
   that would find it out, three per file copied.  */
#define COPY_REGULAR_FILES 1u

enum copy_side
{
  COPY_SIDE_NONE,
  COPY_SIDE_READ,
  COPY_SIDE_WRITE,
};

struct copy_result
{
  uint64_t bytes;               /* bytes moved */
  unsigned long calls;          /* data-moving system calls made */
  enum copy_engine engine;      /* the engine that moved them (or failed) */
  bool via_pipe;                /* splice went through an internal pipe */
  enum copy_side side;          /* on failure: which end failed */
  /* Engines that answered "not this way" with an errno (not an end of
     input), before moving a byte: a caller copying many files between
     the same two file systems need not ask them again.  */
  unsigned int declined;
};

/* Copy per REQ; fill RES.  Return 0, or -errno with RES->side saying
   whether reading or writing failed.  EINTR is retried and EAGAIN on a
   non-blocking descriptor waited out with ppoll.  */
int copy_range (const struct copy_request *req, struct copy_result *res);

/* Share all of IN_FD's blocks with OUT_FD, both regular files, OUT_FD
   empty: the FICLONE ioctl.  Return 0, or -errno (EOPNOTSUPP, EXDEV,
   EINVAL, ENOTTY: the file systems cannot; anything else: a failure).
   Neither offset moves.  */
int copy_clone (int in_fd, int out_fd);

/* The read/write engine's buffer: as large as the kernel's default
   readahead window is useful, no larger.  */
#define COPY_RW_BUFSIZE (128 * 1024)

/* Read up to LEN bytes of FD into BUF, at *OFF (then advanced) if OFF is
   set, else at FD's own offset: EINTR retried, EAGAIN waited out.  At an
   offset by preadv, or by pread where preadv is missing or refused.
   Return the count read, 0 at the end, or -errno.  */
ssize_t copy_read_some (int fd, off_t *off, char *buf, size_t len);

/* Write all LEN bytes of BUF to FD, at *OFF (then advanced) if OFF is
   set (by pwritev, or by pwrite where pwritev is missing or refused):
   short writes continued, EINTR retried, EAGAIN waited out.  Return
   0 or -errno (-EIO for a write of nothing); *WRITTEN is the count
   written, also when a write after a short one fails: those bytes are in
   FD, and a copy's count must say so.  */
int copy_write_all (int fd, off_t *off, const char *buf, size_t len,
                    size_t *written);

/* Set the pipe FD to SIZE bytes, as a user asked; with SIZE 0, grow it to
   COPY_DEFAULT_PIPE_SIZE if it is smaller, never shrink it.  Fewer, larger
   splices are the point: a 64 KiB default pipe between two processes costs
   a context switch per 16 pages.  A refusal (EPERM past
   /proc/sys/fs/pipe-max-size for unprivileged users) only costs calls.
   Return the size the pipe has, or 0 if FD is not a pipe.  */
size_t copy_size_pipe (int fd, size_t size);

/* For --debug: "PROG: engine splice (internal pipe), N bytes, K calls".  */
void copy_print_debug (const char *prog, const struct copy_result *res);

/* "copy_file_range", "splice", "sendfile", "read/write", "clone".  */
const char *copy_engine_name (enum copy_engine engine);

#endif
