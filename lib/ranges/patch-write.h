/* ranges/patch-write.h -- write byte patches into a file, all or nothing: the
   write plan of pwritev-patch, its two engines and its undo.

   CONTRACT.  The caller parses the patches, sorts the non-empty ones by
   offset and checks that none overlap (an empty patch touches nothing
   and is in PATCHES only).  The plan then groups the sorted patches that
   touch (one ending where the next begins) into runs of at most IOV_MAX
   patches: each run is one contiguous stretch of the file, written by
   one vectored transfer, and the bytes between runs are never written.

   Engines.  NC_PATCH_PWRITEV: a run is one preadv to read the bytes it
   replaces and one pwritev (pwritev2 with RWF_DSYNC under SYNC) to
   write it, the runs one after the other; a short transfer is followed
   by another from where it stopped, EINTR retried.  NC_PATCH_URING:
   every run is one IORING_OP_READV, then one IORING_OP_WRITEV, of
   nc_uring_read and nc_uring_write (sys/uring.h), all the runs in flight at
   once: the writes form one linked chain (NC_URING_LINK), so that a
   failed write cancels those behind it as a failed pwritev stops the
   loop of the other engine, and under SYNC the chain ends with one
   linked fdatasync (NC_URING_DATASYNC) instead of RWF_DSYNC on each
   write.  The bytes written, the file they leave, the failures and the
   messages are the same under both engines.

   All or nothing.  The bytes each patch replaces, and the size of the
   file, are read before the first write.  If a write fails (an error of
   its own, or, under io_uring, the ring failing, when every run counts
   as possibly written, unless the layer lost track of the writes in
   flight: then nothing is undone, and the message says the state is
   not known; or the final fdatasync failing), the file is cut
   back to its old size if it grew, then the old bytes of every run
   written, in whole or in part, are written back with pwritev (both
   engines: the undo is sequential, and stops at its first failure).
   The messages say which patch failed and why, and either that the file
   is as it was or which patches stay written (LEFT_WRITTEN then set).
   A crash in the middle leaves some patches written, unless the caller
   keeps a journal of the old bytes on disk (ranges/journal.h).

   Past RLIMIT_FSIZE a write fails with EFBIG, which is undone:
   nc_patch_write ignores SIGXFSZ for the rest of the process.

   Messages go to standard error through error(), as pwritev-patch's
   (FILE is quoted as every tool quotes it, a patch by its operand);
   a failure sets cli_status to EXIT_FAILURE.  */

#ifndef NC_RANGES_PATCH_WRITE_H
#define NC_RANGES_PATCH_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys/uring.h"

/* One patch: LEN bytes at OFFSET.  */
struct nc_patch
{
  const char *arg;              /* the operand, for messages */
  uint64_t offset;
  unsigned char *bytes;         /* malloc'd, freed by nc_patch_plan_free */
  size_t len;
};

/* A run of patches that follow one another in the file, written by one
   transfer (or more, if short): sorted[a] to sorted[b - 1].  */
struct nc_patch_run
{
  size_t a, b;
  uint64_t had;                 /* bytes of it the file had before */
  uint64_t written;             /* bytes of it written */
  uint64_t undone;              /* bytes of it put back */
};

enum nc_patch_engine
{
  NC_PATCH_PWRITEV,
  NC_PATCH_URING
};

/* Calls made by an engine, reads and writes apart (the undo's are not
   counted).  Under NC_PATCH_PWRITEV, CALLS are preadv and pwritev calls;
   under NC_PATCH_URING, SQEs (resubmissions and the fdatasync included)
   and ENTERS the io_uring_enter calls that submitted or waited for
   them.  */
struct nc_patch_counts
{
  uint64_t calls, enters;
  uint64_t iovecs, bytes;
};

struct nc_patch_plan
{
  /* Set by the caller before nc_patch_plan_runs.  */
  const char *file;             /* its name, for messages */
  int fd;                       /* open on it, for reading and writing */
  bool sync;                    /* each write durable before exit 0 */
  struct nc_patch *patches;     /* in the order given (malloc'd) */
  size_t n;
  struct nc_patch **sorted;     /* the non-empty ones, by offset, no two
                                   overlapping (malloc'd) */
  size_t ns;

  /* Set by the plan.  */
  struct nc_patch_run *runs;    /* of sorted */
  size_t nr;
  unsigned char **before;       /* the old bytes of each of sorted */
  uint64_t *got;                /* how many of them the file had */
  enum nc_patch_engine engine;  /* NC_PATCH_PWRITEV unless nc_patch_use_uring */
  struct nc_uring ring;         /* under NC_PATCH_URING */
  int uring_error;              /* -errno of a ring that failed while the
                                   old bytes were read: the plan went
                                   back to NC_PATCH_PWRITEV */
  struct nc_patch_counts read, write;
  bool left_written;            /* a failed write left patches written,
                                   or may have */
};

/* Group PLAN->sorted into PLAN->runs; the engine is NC_PATCH_PWRITEV.  */
void nc_patch_plan_runs (struct nc_patch_plan *plan);

/* Switch PLAN to NC_PATCH_URING, with a ring for its runs: 0, or the
   -errno of nc_uring_open (the plan stays with NC_PATCH_PWRITEV).  */
int nc_patch_use_uring (struct nc_patch_plan *plan);

/* Read the bytes each patch replaces into PLAN->before and PLAN->got (a
   patch past the end of the file has fewer, or none), by the runs and
   with the engine of the plan; if the ring fails (io_uring_enter
   refused), with preadv, the plan going back to NC_PATCH_PWRITEV (unless
   the ring lost track of its reads: then that is an error).
   Return 0, or -errno if a read failed: then nothing has been
   written.  */
int nc_patch_read_old (struct nc_patch_plan *plan);

/* Write the runs of PLAN, after nc_patch_read_old, into a file of
   OLD_SIZE bytes, cut back to that size by an undo if REGULAR (a regular
   file whose size is known).  On a failure, undo and report as said
   above.  */
void nc_patch_write (struct nc_patch_plan *plan, bool regular,
                     uint64_t old_size);

/* Free what PLAN holds (the patches' bytes too), and close its ring.  */
void nc_patch_plan_free (struct nc_patch_plan *plan);

#endif
