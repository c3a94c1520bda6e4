/* copy/engine.h -- the copy engine: move bytes between two descriptors with
   the cheapest system call the pair allows.

   Engines are tried in order: copy_file_range (both regular files), splice
   (straight through when either end is a pipe, else through an internal
   pipe), sendfile, and read/write.  An engine falls back to the next one
   only before it moved a byte, and only for errors that mean "not this
   way" (EINVAL, ENOSYS, EXDEV, EOPNOTSUPP); errors such as EIO, ENOSPC or
   EDQUOT end the copy.

   Two whole-file helpers sit beside it: copy_clone shares the blocks of
   one regular file with another (FICLONE, a reflink), and copy_extents
   copies only the data extents of a sparse file (SEEK_DATA, SEEK_HOLE),
   each through copy_range.  */

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
};

/* copy_request.flags: both descriptors are regular files, opened by the
   caller without O_APPEND; spares copy_range the fstat and fcntl calls
   that would find it out, three per file copied.  */
#define COPY_REGULAR_FILES 1u

/* copy_request.flags, for copy_extents: read the data extents with
   read/write and leave their blocks of zeros as holes too, as a copy
   meant to be sparse wants; the engines are then read/write only.  */
#define COPY_ZEROS_AS_HOLES 2u

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

/* Copy the regular file IN_FD of SIZE bytes to the empty regular file
   OUT_FD per REQ (whose in_off, out_off and length are ignored: the
   descriptors' own offsets are used), leaving holes as holes: the data
   extents are found with lseek SEEK_DATA and SEEK_HOLE, each copied with
   copy_range at its offset, and the output's size set with ftruncate at
   the end.  Where the file system cannot tell (EINVAL), the whole file is
   one extent.  With COPY_ZEROS_AS_HOLES in REQ->flags, blocks of zeros
   in the data become holes as well.  *HOLES is set when the output has
   holes.  Return 0 or -errno, RES as copy_range's, summed.  */
int copy_extents (const struct copy_request *req, off_t size,
                  struct copy_result *res, bool *holes);

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

/* --- one file's data: the policy of a copy of files -------------------

   copy_file_data copies a whole file's data as a tool copying files
   wants it: FICLONE first where the file systems share blocks, then the
   engines above, holes kept, files whose size says nothing (/proc,
   sysfs) read to their end, and the engines the file systems refused
   remembered for the next file between the same two.  With no source
   status it copies a range as copy_range does (splice-in, splice-out).  */

/* --reflink=WHEN, --sparse=WHEN.  */
enum copy_when
{
  COPY_WHEN_AUTO,               /* where the file systems or the file allow */
  COPY_WHEN_ALWAYS,
  COPY_WHEN_NEVER,
};

/* What the engines declined between the last pair of file systems (by
   device): a tree of small files between two file systems asks each
   only once.  Zero before the first file; a new pair starts afresh.  */
struct copy_fs_cache
{
  bool valid;
  dev_t src, dst;
  bool no_clone;                /* FICLONE said the pair cannot */
  unsigned int declined;        /* engines that said "not this way" */
};

struct stat;

struct copy_data_request
{
  /* The descriptors (in_fd, out_fd), and for a range (IN_ST NULL) the
     offsets, length and pipe size; for a whole file its offsets must be
     NULL: the descriptors' own are used, from 0.  */
  struct copy_request range;
  /* The source's fstat when its copy began; NULL: copy RANGE as asked,
     nothing more.  */
  const struct stat *in_st;
  /* OUT_FD is an empty regular file (else a device, FIFO or socket
     opened for writing, which takes the bytes in order, holes as zeros)
     on device OUT_DEV.  */
  bool out_regular;
  dev_t out_dev;
  enum copy_engine engine;      /* the only one to use; NONE: choose */
  enum copy_when reflink;       /* FICLONE, and copy_file_range if NEVER */
  enum copy_when sparse;        /* holes; ALWAYS: zeros become holes */
  struct copy_fs_cache *cache;  /* kept by the caller across files; or NULL */
  /* A regular file of known size is copied in pieces of at most PIECE
     bytes (0: in one call), and PROGRESS (if not NULL) told of each
     piece's bytes as they move.  */
  uint64_t piece;
  void (*progress) (void *arg, uint64_t bytes);
  void *progress_arg;
};

/* Which failure copy_file_data reports, for the caller's message.  */
enum copy_data_failure
{
  COPY_FAILED_NONE,
  COPY_FAILED_CLONE,            /* FICLONE failed where it was required */
  COPY_FAILED_ENGINE,           /* the one engine asked for cannot */
  COPY_FAILED_READ,
  COPY_FAILED_WRITE,
};

struct copy_data_result
{
  struct copy_result moved;     /* copy_range's counts, summed */
  /* The engine that moved the data; where none moved (an empty file,
     holes only), the one that would have, the first that did not
     refuse.  */
  enum copy_engine engine;
  uint64_t size;                /* the copy's size: holes and clones count */
  bool holes;                   /* the copy has holes */
  /* A regular file of known size ended before it (the file changed
     while copied).  */
  bool short_read;
  enum copy_data_failure failure;
};

/* Copy the data per REQ; fill RES.  Return 0, or -errno with
   RES->failure saying what failed.  Reports nothing itself.  */
int copy_file_data (const struct copy_data_request *req,
                    struct copy_data_result *res);

/* Whether the regular file IN_FD, which fstat gave as BEFORE when its
   copy began, changed while it was copied: its size, modification or
   change time is not what it was (a truncation, an append, a write in
   place), or its data ended before its size (SHORT_READ, from
   copy_data_result).  Then the copy holds a file that never was: part of
   the old data and part of the new, or the file cut short.  */
bool copy_source_changed (int in_fd, const struct stat *before,
                          bool short_read);

/* The engine's name as a user asks for it (--engine): "clone",
   "copy_file_range", "splice", "sendfile", "rw".  */
const char *copy_engine_keyword (enum copy_engine engine);

#endif
