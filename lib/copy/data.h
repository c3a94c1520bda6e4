/* copy/data.h -- one file's data, as a tool copying files wants it.

   copy_file_data copies a whole file's data with the engines of
   copy/engine.h: FICLONE first where the file systems share blocks, then
   copy_range, holes kept (copy_extents), files whose size says nothing
   (/proc, sysfs) read to their end, and the engines the file systems
   refused remembered for the next file between the same two.  With no
   source status it copies a range as copy_range does.  Around it:
   whether the source changed while it was copied (copy_source_changed),
   and the engines' names as --engine spells them (copy_engine_keyword).  */

#ifndef NC_COPY_DATA_H
#define NC_COPY_DATA_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "copy/engine.h"

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

/* copy_request.flags, for copy_extents (copy_range ignores it): read the
   data extents with read/write and leave their blocks of zeros as holes
   too, as a copy meant to be sparse wants; the engines are then
   read/write only.  */
#define COPY_ZEROS_AS_HOLES 2u

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
