/* ranges/span-read.h -- read many byte ranges of a file in few system calls:
   the reading machinery of preadv-dump.

   The ranges of a batch merge into spans (overlapping and adjacent
   ranges are one span, read once into an arena); spans at most MAX_GAP
   bytes apart form a group, read as one vectored transfer whose iovecs
   point the spans at their buffers and the gaps between them at a
   scratch buffer, up to IOV_MAX iovecs a group.  A group is read by one
   of two engines:

     preadv  one preadv(2) (preadv2 with RW_FLAGS) a group, in order;
     uring   one IORING_OP_READV a group, every group of the batch
             submitted together (sys/uring.h): one io_uring_enter for many
             groups at many offsets.

   Both engines give the same bytes, the same holes and the same end of
   the file: after a transfer stops early, the rest of its group is
   read as the preadv engine reads it.  Whatever fails with the uring
   engine (no io_uring: ENOSYS, EPERM, EINVAL, ENOMEM; the ring itself)
   falls back to preadv, the reason kept for --debug.

   The end of the file: EOF is the size when the caller knows it, else
   UINT64_MAX until a read finds it; a read of 0 bytes where the file
   was thought to go on is followed by reads that find the real end (a
   /proc file shows 0 bytes, a sysfs file 4096).

   With RWF_NOWAIT, bytes not in the page cache are not read: a read
   answering EAGAIN leaves a hole up to the next start of a range, and
   reading goes on from there.

   A read error other than those ends the process with a message naming
   the file (as preadv-dump says it).  */

#ifndef NC_RANGES_SPAN_READ_H
#define NC_RANGES_SPAN_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "idx.h"
#include "sys/consts.h"
#include "sys/uring.h"

/* The engines, in the order of span_engine_names.  */
enum span_engine { SPAN_ENGINE_AUTO, SPAN_ENGINE_PREADV, SPAN_ENGINE_URING };

/* "auto", "preadv", "uring", NULL: cli_keyword's list.  */
extern const char *const span_engine_names[];

/* The auto engine reads a batch with io_uring when it needs at least
   this many preadv calls (groups), except with RWF_HIPRI and on a file
   system whose reads io_uring cannot do inline (tmpfs, proc, sysfs...);
   measured, see preadv-dump(1) NOTES.  */
#define SPAN_URING_THRESHOLD 16

/* A range to read: OFFSET and LEN given (LEN > 0), DATA set to its bytes
   in the arena once its batch is read.  */
struct span_range
{
  uint64_t offset;
  uint64_t len;
  unsigned char *data;
};

/* What was done, for --stats and --debug.  */
struct span_read_stats
{
  uint64_t calls;               /* preadv or preadv2 calls */
  uint64_t iovecs;              /* iovecs, of both engines */
  uint64_t bytes;               /* bytes read, of both engines */
  uint64_t gap_bytes;           /* of them, bytes between spans, discarded */
  uint64_t uring_batches;       /* batches read by io_uring */
  uint64_t max_groups;          /* the groups of the largest batch */
  struct nc_uring_stats uring;  /* SQEs and io_uring_enter calls */
};

struct span_hole
{
  uint64_t start, end;
};

struct span_reader
{
  /* Set by span_reader_init; EOF may be set by the caller to the size.  */
  int fd;
  const char *name;             /* the file in messages, quoted */
  int rw_flags;                 /* RWF_NOWAIT, RWF_HIPRI or 0 */
  uint64_t max_gap;
  enum span_engine engine;      /* as asked */
  uint64_t eof;                 /* where the file ends; UINT64_MAX unknown */
  uint64_t data_end;            /* end of the bytes read so far */
  struct span_read_stats stats;
  /* Why io_uring is not used: 0, or -errno of nc_uring_open or of the
     ring, once it failed (then every batch is read by preadv).  */
  int uring_error;
  /* With the auto engine, the name of the file system ("tmpfs") whose
     reads io_uring would hand to a worker thread, slower than preadv:
     then every batch is read by preadv.  NULL otherwise.  */
  const char *worker_only_fs;

  /* The layer's own.  */
  unsigned char *scratch;
  size_t scratch_size;
  unsigned char *arena;
  size_t arena_size;
  unsigned char *seek_buf;
  struct span_hole *holes;      /* of the last batch, in order */
  idx_t nholes, holes_alloc;
  struct iovec iov[IOV_MAX];
  bool positional;              /* a regular file or a block device */
  bool ring_open;
  bool ring_lost;               /* it failed with reads in flight */
  struct nc_uring ring;
  struct nc_uring_stats ring_stats_seen;  /* of RING, counted in STATS */
};

/* Start reading FD, whose file type is that of MODE (the caller's
   fstat), called NAME in messages (already quoted), with RW_FLAGS, spans
   up to MAX_GAP bytes apart read together, by ENGINE.  */
void span_reader_init (struct span_reader *rd, int fd, mode_t mode,
                       const char *name, int rw_flags, uint64_t max_gap,
                       enum span_engine engine);

/* Free what RD holds (the ring closed; the file left open).  */
void span_reader_free (struct span_reader *rd);

/* Read the N ranges at SORTED, in order of offset, each LEN > 0, as one
   batch: merged into spans, grouped, read by the engine, each range's
   DATA pointed at its bytes.  The holes of the previous batch are
   forgotten.  */
void span_read_ranges (struct span_reader *rd,
                       struct span_range *const *sorted, size_t n);

/* Read N bytes at POS into BUF by preadv (a chunk of a streamed range);
   return how many there are before the end of the file or the first
   hole, *MISS_AT set to that hole's start, or UINT64_MAX.  */
uint64_t span_read_chunk (struct span_reader *rd, unsigned char *buf,
                          uint64_t pos, uint64_t n, uint64_t *miss_at);

/* The first byte of [START, END) in a hole of the last batch, or
   UINT64_MAX.  */
uint64_t span_first_missing (const struct span_reader *rd, uint64_t start,
                             uint64_t end);

/* Whether the file reaches POS (has a byte before POS), reading the byte
   before it, and finding the real end, if that is not known yet.  A byte
   --nowait could not read counts as there.  */
bool span_reaches (struct span_reader *rd, uint64_t pos);

/* Whether the uring engine read a batch.  */
static inline bool
span_used_uring (const struct span_reader *rd)
{
  return rd->stats.uring_batches > 0;
}

#endif
