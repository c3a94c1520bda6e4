/* copy.h -- the copy engine: move bytes between two descriptors with the
   cheapest system call the pair allows.

   Engines are tried in order: copy_file_range (both regular files), splice
   (straight through when either end is a pipe, else through an internal
   pipe), sendfile, and read/write.  An engine falls back to the next one
   only before it moved a byte, and only for errors that mean "not this
   way" (EINVAL, ENOSYS, EXDEV, EOPNOTSUPP); errors such as EIO, ENOSPC or
   EDQUOT end the copy.  */

#ifndef NC_COPY_H
#define NC_COPY_H

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
};

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
};

/* Copy per REQ; fill RES.  Return 0, or -errno with RES->side saying
   whether reading or writing failed.  EINTR is retried and EAGAIN on a
   non-blocking descriptor waited out with ppoll.  */
int copy_range (const struct copy_request *req, struct copy_result *res);

/* Set the pipe FD to SIZE bytes, as a user asked; with SIZE 0, grow it to
   COPY_DEFAULT_PIPE_SIZE if it is smaller, never shrink it.  Fewer, larger
   splices are the point: a 64 KiB default pipe between two processes costs
   a context switch per 16 pages.  A refusal (EPERM past
   /proc/sys/fs/pipe-max-size for unprivileged users) only costs calls.
   Return the size the pipe has, or 0 if FD is not a pipe.  */
size_t copy_size_pipe (int fd, size_t size);

/* For --debug: "PROG: engine splice (internal pipe), N bytes, K calls".  */
void copy_print_debug (const char *prog, const struct copy_result *res);

/* "copy_file_range", "splice", "sendfile", "read/write".  */
const char *copy_engine_name (enum copy_engine engine);

#endif
