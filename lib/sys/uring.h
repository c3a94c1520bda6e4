/* sys/uring.h -- many reads or writes at many offsets, one system call:
   a small io_uring layer on the raw stubs of arch/.

   This is what the December 2005 "niovec" proposal asked for (one call,
   each segment at its own offset): a batch of transfers, each a preadv
   or pwritev of its own, submitted together and completed in any order.

   Why our own layer and not liburing:
   - what the tools need is narrow: read, write and fsync SQEs on one
     file, links, and the ring kept full; that is under 800 lines in
     uring.c with their comments, against a library with ABI versions of
     its own to follow;
   - liburing would be a build dependency to find and cross-build for
     each of the eleven architectures of arch/ (check-arches builds them
     all, and runs them under qemu-user), and a run-time one (liburing2)
     for the packages;
   - liburing makes its system calls with its own per-architecture
     stubs, or with libc's syscall() where it has none; the toolset
     makes every call through arch/ (lib/sys/calls.h), the tools never
     through syscall(), and one home per mechanism means the numbers
     and the calling convention stay in arch/gen-syscall-nr's tables;
   - the fallback policy (ENOSYS under qemu-user or seccomp, EPERM under
     kernel.io_uring_disabled) and the counters of --debug and --stats
     are ours to define either way, and the valgrind marking of what
     the kernel wrote must sit where completions are reaped.
   What we give up: liburing's tracking of new kernel features.

   Kernels: Linux 5.4 at least.  READV, WRITEV and FSYNC (with
   IORING_FSYNC_DATASYNC) and rw_flags are 5.1's, IOSQE_IO_LINK 5.3's,
   and IORING_FEAT_SINGLE_MMAP, reported from 5.4 on, is what
   nc_uring_open checks: on 5.1 to 5.3 it answers -ENOSYS, as where
   there is no io_uring at all.  The set-up flags are tried from the
   newest down, each kernel answering EINVAL for a flag it does not
   know: IORING_SETUP_CQSIZE is 5.5's (before, the CQ is twice the SQ
   anyway), COOP_TASKRUN 5.19's, SINGLE_ISSUER 6.0's and DEFER_TASKRUN
   6.1's.  Two savings per SQE are taken where the kernel has them, each
   measured in sys/uring.c: a file table of one slot that each batch puts its
   file in (IORING_REGISTER_FILES with an empty slot, 5.5), and
   IORING_OP_READ and _WRITE for a transfer of one buffer (5.6, found
   with IORING_REGISTER_PROBE).

   The ring: set up with IORING_SETUP_SINGLE_ISSUER|DEFER_TASKRUN where
   the kernel takes them (completions are then run in io_uring_enter of
   the one task that uses the ring, with no interrupting task work), else
   COOP_TASKRUN, else neither; the CQ is twice the SQ, and at most
   ENTRIES transfers are in flight, so the CQ can never overflow.  A ring
   is used by the thread that opened it only, and not across fork.

   The rings are mapped with the C library's mmap, once (the SQ and CQ
   rings together: IORING_FEAT_SINGLE_MMAP), and the SQEs.  Ordering:
   the kernel reads the SQ tail with acquire semantics, so the SQEs are
   written before the tail is stored with release; the CQ tail is loaded
   with acquire before the CQEs are read, and the CQ head is stored with
   release after.  sys/uring.c says at each such place which is done and
   why.

   Errors are -errno, never errno.  */

#ifndef NC_SYS_URING_H
#define NC_SYS_URING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

/* Counters, for --debug and --stats.  */
struct nc_uring_stats
{
  uint64_t enters;              /* io_uring_enter calls */
  uint64_t sqes;                /* SQEs submitted (resubmissions included) */
};

struct io_uring_sqe;
struct io_uring_cqe;

/* One ring.  The fields are the layer's own; callers read only STATS,
   ENTRIES and LOST.  */
struct nc_uring
{
  int fd;
  unsigned int entries;         /* SQ entries the kernel gave */
  struct nc_uring_stats stats;
  bool lost;                    /* the last batch failed with SQEs it could
                                   not wait for: its DONE and ERROR are
                                   not known */

  /* The mappings: the SQ and CQ rings, and the SQE array.  */
  void *rings;
  size_t rings_len;
  struct io_uring_sqe *sqes;
  size_t sqes_len;

  /* Shared with the kernel: the SQ tail is ours (the SQ head, the
     kernel's, is never needed: see queue_sqe in sys/uring.c); the CQ tail
     is the kernel's, the CQ head ours.  */
  unsigned int *sq_tail, sq_mask;
  unsigned int *cq_head, *cq_tail, cq_mask;
  struct io_uring_cqe *cqes;

  bool op_read_write;           /* the kernel has IORING_OP_READ, _WRITE */
  bool fixed_file;              /* a one-slot file table is registered */
  unsigned int sq_local_tail;   /* tail of the SQEs written, not stored */
  unsigned int unsubmitted;     /* SQEs queued that no enter took yet */
  unsigned int in_flight;       /* SQEs queued whose CQE is not reaped */
  bool split;                   /* an enter took fewer SQEs than queued */
};

/* Set up RING with room for at least ENTRIES submissions at once
   (rounded up to a power of two, at most NC_URING_MAX_ENTRIES).
   Returns 0, or -errno: -ENOSYS (no io_uring: a kernel before 5.4,
   qemu-user, seccomp), -EPERM (kernel.io_uring_disabled, or a seccomp
   filter that says so), -ENOMEM, -EMFILE...  A caller treats any of them
   as "use the other engine".  */
#define NC_URING_MAX_ENTRIES 4096
int nc_uring_open (struct nc_uring *ring, unsigned int entries);

/* Unmap and close RING.  Nothing of a batch is in flight any more when
   nc_uring_read or nc_uring_write returns, unless RING->lost says so
   (closing the ring does not wait for what it has started).  */
void nc_uring_close (struct nc_uring *ring);

/* One transfer of a batch: the bytes of the IOVCNT buffers at IOV, at
   OFFSET of the file (an IORING_OP_READV or _WRITEV SQE, or _READ or
   _WRITE for one buffer: each transfer is a preadv of its own, at its
   own offset).  */
struct nc_uring_xfer
{
  /* In.  IOV is the caller's and is advanced in place (iov_base,
     iov_len, and IOV/IOVCNT themselves) when a short transfer is
     resubmitted for the rest; OFFSET stays.  A transfer of no bytes
     ends at once, without an SQE.  */
  uint64_t offset;
  struct iovec *iov;
  int iovcnt;
  /* Out.  */
  uint64_t done;                /* bytes transferred */
  int error;                    /* 0, or -errno of the SQE that failed
                                   (-EAGAIN under RWF_NOWAIT: not in the
                                   page cache; -ECANCELED: a transfer
                                   before it in a linked chain failed;
                                   -ENOSPC: a write took no byte and
                                   gave no reason, as full-write says) */
  bool eof;                     /* a read found the end of the file
                                   before the buffers were full */
};

/* Read the N transfers at X from FD, each at its own offset, RW_FLAGS
   (RWF_NOWAIT, ...) in every SQE.  Up to RING->entries are in flight at
   once, the ring refilled as completions arrive; completions are matched
   to transfers by user_data.  A short read is resubmitted for the rest
   (a read of 0 bytes ends that transfer with EOF set); an error ends
   that transfer only.  io_uring_enter's -EINTR is retried, -EAGAIN and
   -EBUSY wait for completions first.

   FD must be a file that preadv accepts: on a pipe, a socket or a
   terminal io_uring would ignore OFFSET, so every transfer ends there
   with -ESPIPE, without an SQE.  IOVCNT is at most IOV_MAX, as for
   preadv (more is -EINVAL for that transfer).

   Returns 0 when every transfer has ended (each with its own DONE,
   ERROR, EOF), or -errno if the ring itself failed (io_uring_enter
   answered another error).  The layer then first waits for what the
   kernel had taken: DONE and ERROR are exact, the transfers that did
   not end keep ERROR 0, and nothing is in flight any more.  Only if that
   wait fails too is RING->lost set: then what was transferred is not
   known, and buffers may still be written into until nc_uring_close's
   teardown ends.  After a failure the ring is fit only for
   nc_uring_close; a reader may redo the batch with preadv.  */
int nc_uring_read (struct nc_uring *ring, int fd, struct nc_uring_xfer *x,
                   size_t n, int rw_flags);

/* Flags of nc_uring_write.  */
enum
{
  /* The writes form one chain (IOSQE_IO_LINK): after the first that
     fails, the rest are not done (ERROR -ECANCELED, DONE 0).  A short
     write is not a failure: the layer resubmits its rest and the
     transfers the kernel cancelled behind it, as a new chain.  A chain
     longer than the ring goes out in pieces of RING->entries, each
     submitted once the one before it has completed in full (the kernel
     ends a chain at the end of each submission).  Order is kept per
     submission: if the kernel takes a piece in two (short of memory),
     the two parts run unordered, and a write after one that failed may
     have been done: DONE and ERROR say so, per transfer; the fdatasync
     is then done again after both.  */
  NC_URING_LINK = 0x1,
  /* End with an fdatasync of FD (IORING_OP_FSYNC, IORING_FSYNC_DATASYNC),
     linked after the writes (without NC_URING_LINK, submitted once they
     have all completed): done only if every write was.  Its result is
     *SYNC_ERROR.  */
  NC_URING_DATASYNC = 0x2
};

/* Write the N transfers at X to FD, as nc_uring_read reads them, with
   FLAGS; *SYNC_ERROR (if SYNC_ERROR is not NULL) gets 0 or -errno of the
   final fdatasync (-ECANCELED if a write failed before it; 0 without
   NC_URING_DATASYNC).  Returns 0, or -errno if the ring itself failed,
   as nc_uring_read says: DONE of each transfer is then exact unless
   RING->lost, when which writes were done is not known (a caller must
   not undo then, but say that the file's state is not known).  */
int nc_uring_write (struct nc_uring *ring, int fd, struct nc_uring_xfer *x,
                    size_t n, int rw_flags, unsigned int flags,
                    int *sync_error);

#endif
