/* sys/uring.c -- many reads or writes at many offsets, one system call; see
   sys/uring.h.  */

#include <config.h>

#include "sys/uring.h"

#include <errno.h>
#include <linux/io_uring.h>
#include <string.h>
#include <sys/mman.h>

#include "sys/calls.h"

/* memcheck cannot see the kernel write a read's buffers through the
   ring: each completed read marks the bytes it brought in.  The header
   is found by the compiler itself (__has_include, GCC 5 and Clang), not
   by configure: a cross compiler does not see the build machine's
   /usr/include, so each build decides for its own target.  */
#if defined __has_include
# if __has_include (<valgrind/memcheck.h>)
#  include <valgrind/memcheck.h>
#  define NC_HAVE_MEMCHECK 1
# endif
#endif
#ifndef NC_HAVE_MEMCHECK
# define VALGRIND_MAKE_MEM_DEFINED(addr, len) ((void) (addr), (void) (len))
#endif

/* Set-up flags newer than some kernel headers (Linux 5.19 and 6.0, 6.1);
   a kernel without them answers EINVAL, and nc_uring_open falls back.  */
#ifndef IORING_SETUP_COOP_TASKRUN
# define IORING_SETUP_COOP_TASKRUN (1U << 8)
#endif
#ifndef IORING_SETUP_SINGLE_ISSUER
# define IORING_SETUP_SINGLE_ISSUER (1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
# define IORING_SETUP_DEFER_TASKRUN (1U << 13)
#endif

/* The most an IORING_OP_READ or _WRITE SQE asks for.  */
#define MAX_ONE_GO 0x7ffff000U

/* The user_data of the final fdatasync; a transfer's is its index.  */
#define SYNC_TAG UINT64_MAX

/* --- Setting up -------------------------------------------------------- */

/* io_uring_setup with the first set of flags the kernel takes, from the
   most to the least useful; EINVAL is how a kernel says it does not know
   a flag.  The CQ is always twice the SQ (IORING_SETUP_CQSIZE: Linux
   5.5; before, twice is what the kernel gives anyway).  */
static int
setup (unsigned int entries, struct io_uring_params *p)
{
  static const unsigned int tries[] = {
    IORING_SETUP_CQSIZE | IORING_SETUP_SINGLE_ISSUER
    | IORING_SETUP_DEFER_TASKRUN,
    IORING_SETUP_CQSIZE | IORING_SETUP_COOP_TASKRUN,
    IORING_SETUP_CQSIZE,
    0
  };
  int fd = -EINVAL;
  for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++)
    {
      memset (p, 0, sizeof *p);
      p->flags = tries[i];
      p->cq_entries = 2 * entries;
      fd = sys_io_uring_setup (entries, p);
      if (fd != -EINVAL)
        break;
    }
  return fd;
}

static void *
map (int fd, size_t len, uint64_t what)
{
  void *m = mmap (NULL, len, PROT_READ | PROT_WRITE,
                  MAP_SHARED | MAP_POPULATE, fd, (off_t) what);
  return m == MAP_FAILED ? NULL : m;
}

/* Map the rings of RING->fd as P describes them, the SQ and CQ rings in
   one mapping (IORING_FEAT_SINGLE_MMAP, which nc_uring_open requires);
   RING is zeroed but for FD.  */
static int
map_rings (struct nc_uring *ring, const struct io_uring_params *p)
{
  size_t sq_len = p->sq_off.array + p->sq_entries * sizeof (uint32_t);
  size_t cq_len = (p->cq_off.cqes
                   + p->cq_entries * sizeof (struct io_uring_cqe));
  ring->rings_len = sq_len > cq_len ? sq_len : cq_len;
  ring->rings = map (ring->fd, ring->rings_len, IORING_OFF_SQ_RING);
  if (!ring->rings)
    return -errno;
  ring->sqes_len = p->sq_entries * sizeof (struct io_uring_sqe);
  ring->sqes = map (ring->fd, ring->sqes_len, IORING_OFF_SQES);
  if (!ring->sqes)
    return -errno;

  char *rings = ring->rings;
  ring->sq_tail = (unsigned int *) (rings + p->sq_off.tail);
  ring->sq_mask = *(unsigned int *) (rings + p->sq_off.ring_mask);
  ring->cq_head = (unsigned int *) (rings + p->cq_off.head);
  ring->cq_tail = (unsigned int *) (rings + p->cq_off.tail);
  ring->cq_mask = *(unsigned int *) (rings + p->cq_off.ring_mask);
  ring->cqes = (struct io_uring_cqe *) (rings + p->cq_off.cqes);

  /* Slot I of the SQ array names SQE I, once for all: SQEs are filled
     in ring order, so the indirection is never needed.  The kernel reads
     the array only after the tail that covers a slot is stored (with
     release), so these plain stores are seen in time.  */
  unsigned int *array = (unsigned int *) (rings + p->sq_off.array);
  for (unsigned int i = 0; i < p->sq_entries; i++)
    array[i] = i;
  ring->sq_local_tail = *ring->sq_tail;
  return 0;
}

/* Whether the kernel of ring FD has IORING_OP_READ and IORING_OP_WRITE
   (Linux 5.6, as IORING_REGISTER_PROBE).  A transfer of one buffer goes
   by them rather than by READV and WRITEV: the kernel then has no iovec
   to import (10 000 warm 4-byte reads of ext4: 1 to 17% faster, medians
   of 31 alternating runs, four times).  */
static bool
probe_read_write (int fd)
{
  enum { OPS = 64 };
  union
  {
    struct io_uring_probe probe;
    unsigned char room[sizeof (struct io_uring_probe)
                       + OPS * sizeof (struct io_uring_probe_op)];
  } u;
  memset (&u, 0, sizeof u);
  if (sys_io_uring_register ((unsigned int) fd, IORING_REGISTER_PROBE,
                             &u.probe, OPS) < 0)
    return false;
  return (u.probe.ops_len > IORING_OP_WRITE
          && u.probe.ops[IORING_OP_READ].flags & IO_URING_OP_SUPPORTED
          && u.probe.ops[IORING_OP_WRITE].flags & IO_URING_OP_SUPPORTED);
}

int
nc_uring_open (struct nc_uring *ring, unsigned int entries)
{
  /* At least 2: a chain of writes needs room for its fdatasync.  */
  unsigned int want = 2;
  while (want < entries && want < NC_URING_MAX_ENTRIES)
    want *= 2;

  memset (ring, 0, sizeof *ring);
  struct io_uring_params p;
  int fd = setup (want, &p);
  if (fd < 0)
    {
      ring->fd = -1;
      return fd;
    }
  ring->fd = fd;
  ring->entries = p.sq_entries;
  /* The minimum kernel, Linux 5.4: the first with a feature flag, and
     with this one.  Links (IOSQE_IO_LINK) came in 5.3; 5.1 and 5.2 would
     fail a chain SQE by SQE with EINVAL, where "no io_uring" makes the
     caller use preadv and pwritev from the start.  */
  int err = -ENOSYS;
  if (p.features & IORING_FEAT_SINGLE_MMAP)
    err = map_rings (ring, &p);
  if (err == 0)
    ring->op_read_write = probe_read_write (fd);
  /* A file table of one empty slot (Linux 5.5), for batch_init.  */
  int none = -1;
  if (err == 0)
    ring->fixed_file = sys_io_uring_register ((unsigned int) fd,
                                              IORING_REGISTER_FILES,
                                              &none, 1) == 0;
  if (err < 0)
    nc_uring_close (ring);
  return err;
}

void
nc_uring_close (struct nc_uring *ring)
{
  if (ring->sqes)
    munmap (ring->sqes, ring->sqes_len);
  if (ring->rings)
    munmap (ring->rings, ring->rings_len);
  if (ring->fd >= 0)
    sys_close (ring->fd);
  memset (ring, 0, sizeof *ring);
  ring->fd = -1;
}

/* --- Submitting and reaping -------------------------------------------- */

/* A zeroed SQE at the tail, for an operation on FD tagged USER_DATA.
   The caller keeps RING->in_flight at most RING->entries, and that is
   why the kernel's SQ head is never loaded here: the SQE this one
   reuses the slot of is ENTRIES older; the kernel takes SQEs in order,
   the unsubmitted ones are the newest, so had it not taken that one
   yet, ENTRIES SQEs would be in flight besides this one.  Taken, it was
   read within the io_uring_enter that took it (the head, which the
   kernel stores before returning, says no more than that).  */
static struct io_uring_sqe *
queue_sqe (struct nc_uring *ring, uint8_t opcode, int fd,
           uint64_t user_data)
{
  struct io_uring_sqe *sqe = &ring->sqes[ring->sq_local_tail & ring->sq_mask];
  memset (sqe, 0, sizeof *sqe);
  sqe->opcode = opcode;
  sqe->fd = fd;
  sqe->user_data = user_data;
  ring->sq_local_tail++;
  ring->unsubmitted++;
  ring->in_flight++;
  return sqe;
}

/* Submit what is queued and wait until MIN_COMPLETE completions are
   there to reap (0: none; IORING_ENTER_GETEVENTS anyway, which under
   DEFER_TASKRUN is what posts the completions).  -EINTR is retried;
   -EAGAIN and -EBUSY (the kernel out of request memory, or completions
   still to reap) go back to the caller, which reaps before trying
   again.  */
static int
enter (struct nc_uring *ring, unsigned int min_complete)
{
  /* Release: the SQEs written since the last store (and the SQ array)
     are visible before the tail that hands them over; the kernel loads
     the tail with acquire.  */
  __atomic_store_n (ring->sq_tail, ring->sq_local_tail, __ATOMIC_RELEASE);
  if (min_complete > ring->in_flight)
    min_complete = ring->in_flight;
  for (;;)
    {
      int ret = sys_io_uring_enter ((unsigned int) ring->fd,
                                    ring->unsubmitted, min_complete,
                                    IORING_ENTER_GETEVENTS);
      ring->stats.enters++;
      if (ret >= 0)
        {
          /* Fewer than asked: the kernel did not wait, and the rest
             goes with the next enter (a chain is cut there).  */
          if ((unsigned int) ret < ring->unsubmitted)
            ring->split = true;
          ring->unsubmitted -= (unsigned int) ret;
          ring->stats.sqes += (unsigned int) ret;
          return 0;
        }
      if (ret != -EINTR)
        return ret;
    }
}

/* What a batch is, for the reaping: the transfers and how a completion
   of a transfer, or the fdatasync's, is taken.  */
struct batch
{
  struct nc_uring *ring;
  int file;                     /* the caller's descriptor */
  int fd;                       /* what the SQEs name: FILE, or slot 0 */
  struct nc_uring_xfer *x;
  size_t n;
  int rw_flags;
  uint8_t opcode;               /* IORING_OP_READV or IORING_OP_WRITEV */
  bool fixed;                   /* FD is slot 0 of the file table */
  size_t next;                  /* first transfer never queued */
  size_t ended;                 /* transfers with their final outcome */
  int sync_res;                 /* the fdatasync's result, once reaped */
  bool unsettled;               /* the ring failed with SQEs in the kernel */
  /* The chain of NC_URING_LINK: the lowest index cut short, and the
     lowest index failed (N when none).  */
  size_t short_at, failed_at;
  void (*complete) (struct batch *, size_t i, int res);
};

/* Reap every completion there is, passing each to B->complete.  Returns
   how many.  */
static unsigned int
reap (struct batch *b)
{
  struct nc_uring *ring = b->ring;
  unsigned int head = *ring->cq_head;
  /* Acquire: the CQEs up to the tail are read after the kernel's
     writes to them, which it made before storing the tail (release).  */
  unsigned int tail = __atomic_load_n (ring->cq_tail, __ATOMIC_ACQUIRE);
  unsigned int count = tail - head;
  for (; head != tail; head++)
    {
      const struct io_uring_cqe *cqe = &ring->cqes[head & ring->cq_mask];
      ring->in_flight--;
      if (cqe->user_data == SYNC_TAG)
        b->sync_res = cqe->res;
      else if (cqe->user_data < b->n)
        b->complete (b, (size_t) cqe->user_data, cqe->res);
      /* Any other tag is none of this batch's: every SQE is queued with
         a transfer's index or SYNC_TAG, and a failed batch waits for all
         it queued, so none is left for the next.  Ignored, not indexed.  */
    }
  /* Release: the CQEs are read (above) before their slots are handed
     back to the kernel, which loads the head with acquire.  Once for
     all: the SQEs B->complete queued complete after the next enter, and
     the CQ has room for twice what can be in flight.  */
  __atomic_store_n (ring->cq_head, head, __ATOMIC_RELEASE);
  return count;
}

/* After enter answered ERR: -EAGAIN and -EBUSY are waited out by reaping
   (and, when nothing was there to reap, by waiting for one completion of
   what the kernel has).  Returns 0 to go on, or the ring's error.  */
static int
recover (struct batch *b, int err)
{
  struct nc_uring *ring = b->ring;
  if (err != -EAGAIN && err != -EBUSY)
    return err;
  if (reap (b) > 0)
    return 0;
  /* Nothing of ours in the kernel's hands: the shortage is not ours to
     wait out.  */
  if (ring->in_flight == ring->unsubmitted)
    return err;
  unsigned int queued = ring->unsubmitted;
  ring->unsubmitted = 0;
  int ret = enter (ring, 1);
  ring->unsubmitted += queued;
  if (ret < 0 && ret != -EAGAIN && ret != -EBUSY)
    return ret;
  return 0;
}

/* After the ring failed with ERR: wait for every SQE the kernel has
   taken, reaping, so that nothing of the batch is still being done when
   the caller looks at DONE and ERROR (and undoes, or reuses the buffers):
   closing a ring only starts its teardown, and a transfer already with
   a worker or the block layer goes on after close returns.  The SQEs
   queued but never taken stay so.  Returns ERR; sets B->unsettled if
   the wait failed too.  */
static int
settle (struct batch *b, int err)
{
  struct nc_uring *ring = b->ring;
  while (ring->in_flight > ring->unsubmitted)
    {
      int ret = sys_io_uring_enter ((unsigned int) ring->fd, 0,
                                    ring->in_flight - ring->unsubmitted,
                                    IORING_ENTER_GETEVENTS);
      ring->stats.enters++;
      if (ret < 0 && ret != -EINTR)
        {
          b->unsettled = true;
          break;
        }
      reap (b);
    }
  return err;
}

/* One io_uring_enter of B, waiting for MIN_COMPLETE completions, and
   the reaping of what has completed.  Returns 0, or the ring's error
   (settled).  */
static int
step (struct batch *b, unsigned int min_complete)
{
  int ret = enter (b->ring, min_complete);
  if (ret < 0)
    ret = recover (b, ret);
  else
    reap (b);
  return ret < 0 ? settle (b, ret) : 0;
}

/* --- Transfers ---------------------------------------------------------- */

static uint64_t
xfer_left (const struct nc_uring_xfer *t)
{
  uint64_t left = 0;
  for (int i = 0; i < t->iovcnt; i++)
    left += t->iov[i].iov_len;
  return left;
}

/* Count BYTES of T as done, and advance its buffers past them (in place,
   as sys/uring.h says).  A read's bytes are marked defined for memcheck.  */
static void
xfer_advance (struct nc_uring_xfer *t, size_t bytes, bool read)
{
  t->done += bytes;
  while (t->iovcnt > 0 && (bytes > 0 || t->iov->iov_len == 0))
    {
      size_t step = bytes < t->iov->iov_len ? bytes : t->iov->iov_len;
      if (read)
        VALGRIND_MAKE_MEM_DEFINED (t->iov->iov_base, step);
      bytes -= step;
      if (step < t->iov->iov_len)
        {
          t->iov->iov_base = (char *) t->iov->iov_base + step;
          t->iov->iov_len -= step;
          break;
        }
      t->iov++;
      t->iovcnt--;
    }
}

/* Queue the (rest of the) transfer I of B; LINK sets IOSQE_IO_LINK.  */
static struct io_uring_sqe *
queue_xfer (struct batch *b, size_t i, bool link)
{
  struct nc_uring_xfer *t = &b->x[i];
  bool read = b->opcode == IORING_OP_READV;
  struct io_uring_sqe *sqe;
  if (t->iovcnt == 1 && b->ring->op_read_write)
    {
      sqe = queue_sqe (b->ring, read ? IORING_OP_READ : IORING_OP_WRITE,
                       b->fd, i);
      sqe->addr = (uint64_t) (uintptr_t) t->iov->iov_base;
      /* The kernel does no more than MAX_RW_COUNT (2 GiB less a page)
         in one go either; the rest is a short transfer's.  */
      sqe->len = (t->iov->iov_len < MAX_ONE_GO
                  ? (unsigned int) t->iov->iov_len : MAX_ONE_GO);
    }
  else
    {
      sqe = queue_sqe (b->ring, b->opcode, b->fd, i);
      sqe->addr = (uint64_t) (uintptr_t) t->iov;
      sqe->len = (unsigned int) t->iovcnt;
    }
  sqe->off = t->offset + t->done;
  if (b->fixed)
    sqe->flags |= IOSQE_FIXED_FILE;
  sqe->rw_flags = (__typeof__ (sqe->rw_flags)) b->rw_flags;
  if (link)
    sqe->flags |= IOSQE_IO_LINK;
  return sqe;
}

static void
queue_sync (struct batch *b)
{
  struct io_uring_sqe *sqe = queue_sqe (b->ring, IORING_OP_FSYNC, b->fd,
                                        SYNC_TAG);
  if (b->fixed)
    sqe->flags |= IOSQE_FIXED_FILE;
  sqe->fsync_flags = IORING_FSYNC_DATASYNC;
}

/* Take the result RES of transfer I's SQE: bytes, or -errno.  Returns
   true if the transfer is over, false if it has more to do.  */
static bool
xfer_result (struct batch *b, size_t i, int res)
{
  struct nc_uring_xfer *t = &b->x[i];
  bool read = b->opcode == IORING_OP_READV;
  if (res > 0)
    xfer_advance (t, (size_t) res, read);
  else if (res == 0 && read)
    t->eof = true;
  else if (res == 0)
    t->error = -ENOSPC;
  else if (res != -EINTR)
    t->error = res;
  return t->eof || t->error != 0 || xfer_left (t) == 0;
}

/* B->complete of independent transfers: a short one is queued again for
   the rest, in the slot its completion freed.  */
static void
complete_independent (struct batch *b, size_t i, int res)
{
  if (xfer_result (b, i, res))
    b->ended++;
  else
    queue_xfer (b, i, false);
}

/* How many completions to wait for in the next enter, with IN_FLIGHT
   SQEs out once it has submitted, out of a ring of ENTRIES, and MORE
   transfers still to queue.

   The rule: while transfers remain to be queued, wait for an eighth of
   the ring (at least 1), then refill what came back; at the end of the
   batch, wait for all.  Reads from the page cache complete inline,
   within the enter that submits them, so the wait costs nothing and a
   warm batch takes one enter per ring-full (10 000 reads: 10 enters with
   1024 entries, 3 with 4096).  Reads from the disk complete later, and
   the queue is refilled each time an eighth of it has drained: it stays
   at least 7/8 deep, without an enter per completion.  */
static unsigned int
wait_target (unsigned int in_flight, unsigned int entries, bool more)
{
  if (!more)
    return in_flight;
  unsigned int eighth = entries / 8 ? entries / 8 : 1;
  return eighth < in_flight ? eighth : in_flight;
}

/* Run the transfers of B, each on its own: the ring kept full, short ones
   resubmitted, until every transfer has ended.  */
static int
run_independent (struct batch *b)
{
  struct nc_uring *ring = b->ring;
  while (b->ended < b->n)
    {
      while (b->next < b->n && ring->in_flight < ring->entries)
        {
          size_t i = b->next++;
          if (xfer_left (&b->x[i]) == 0)
            b->ended++;
          else
            queue_xfer (b, i, false);
        }
      if (ring->in_flight == 0)
        continue;
      int ret = step (b, wait_target (ring->in_flight, ring->entries,
                                      b->next < b->n));
      if (ret < 0)
        return ret;
    }
  return 0;
}

/* Put FD in slot 0 of RING's file table (-1: empty it).  Returns true
   if done.  */
static bool
set_fixed_file (struct nc_uring *ring, int fd)
{
  struct io_uring_files_update update = {
    .offset = 0, .fds = (uint64_t) (uintptr_t) &fd
  };
  return sys_io_uring_register ((unsigned int) ring->fd,
                                IORING_REGISTER_FILES_UPDATE, &update, 1)
         == 1;
}

/* B for the N transfers at X on FD, their outcomes reset.  The file is
   put in the ring's file table for the batch, if the ring has one: its
   SQEs then name slot 0 (IOSQE_FIXED_FILE), and the kernel takes no
   reference to the file per SQE (10 000 warm 4-byte reads of ext4: 7 to
   14% faster, measured as above).  */
static void
batch_init (struct batch *b, struct nc_uring *ring, int fd,
            struct nc_uring_xfer *x, size_t n, int rw_flags,
            uint8_t opcode)
{
  *b = (struct batch) { .ring = ring, .file = fd, .fd = fd, .x = x, .n = n,
                        .rw_flags = rw_flags, .opcode = opcode,
                        .short_at = n, .failed_at = n,
                        .complete = complete_independent };
  for (size_t i = 0; i < n; i++)
    {
      x[i].done = 0;
      x[i].error = 0;
      x[i].eof = false;
    }
  if (n > 0 && ring->fixed_file && set_fixed_file (ring, fd))
    {
      b->fixed = true;
      b->fd = 0;
    }
}

/* The end of batch B: the file out of the table again, so that the ring
   keeps no reference to it (its descriptor may be closed, and its number
   reused, before the next batch); RING->lost said.  */
static void
batch_end (struct batch *b)
{
  if (b->fixed)
    set_fixed_file (b->ring, -1);
  b->ring->lost = b->unsettled;
}

/* Whether B's file cannot be read or written at an offset (a pipe, a
   socket, a terminal: lseek answers ESPIPE, and preadv would), where
   io_uring would read or write it in the order it pleases: then every
   transfer with bytes to move ends with -ESPIPE.  */
static bool
not_positional (struct batch *b)
{
  if (b->n == 0 || sys_lseek (b->file, 0, SEEK_CUR) != -ESPIPE)
    return false;
  for (size_t i = 0; i < b->n; i++)
    if (xfer_left (&b->x[i]) > 0)
      b->x[i].error = -ESPIPE;
  b->sync_res = -ECANCELED;
  return true;
}

int
nc_uring_read (struct nc_uring *ring, int fd, struct nc_uring_xfer *x,
               size_t n, int rw_flags)
{
  struct batch b;
  batch_init (&b, ring, fd, x, n, rw_flags, IORING_OP_READV);
  int ret = not_positional (&b) ? 0 : run_independent (&b);
  batch_end (&b);
  return ret;
}

/* Wait until everything queued has completed, reaping.  */
static int
drain (struct batch *b)
{
  while (b->ring->in_flight > 0)
    {
      int ret = step (b, b->ring->in_flight);
      if (ret < 0)
        return ret;
    }
  return 0;
}

/* B->complete of a chain.  The kernel breaks a chain after a failure and
   after a short transfer alike, cancelling the rest; which of the two it
   was is noted here, and run_chain acts on it once the piece is over.  */
static void
complete_linked (struct batch *b, size_t i, int res)
{
  /* Cancelled behind the break: queued again, or reported, by
     run_chain.  */
  if (res == -ECANCELED)
    return;
  if (!xfer_result (b, i, res))
    {
      if (i < b->short_at)
        b->short_at = i;
    }
  else if (b->x[i].error != 0 && i < b->failed_at)
    b->failed_at = i;
}

/* Queue, as one chain, the transfers from POS on that have bytes to
   write, at most LIMIT of them; the fdatasync after them if SYNC and
   they are the last.  Returns the index after the last one queued.  */
static size_t
queue_chain (struct batch *b, size_t pos, unsigned int limit, bool sync)
{
  struct io_uring_sqe *last = NULL;
  unsigned int queued = 0;
  size_t end = pos;
  for (; end < b->n && queued < limit; end++)
    if (xfer_left (&b->x[end]) > 0)
      {
        last = queue_xfer (b, end, true);
        queued++;
      }
  if (sync && end == b->n)
    queue_sync (b);
  else if (last)
    last->flags &= (unsigned char) ~IOSQE_IO_LINK;
  return end;
}

/* After a piece of a chain from POS to END: the transfers of the piece
   left with bytes to write and no error of their own, but not behind a
   short one, were cancelled for good: by a failure (at B->failed_at, or
   at submission, when the kernel fails the whole chain and reports the
   one SQE it refused, wherever it is), or with no reason given.  They
   and every later transfer end with -ECANCELED.  Returns true if the
   chain is over so.  */
static bool
chain_failed (struct batch *b, size_t pos, size_t end)
{
  size_t stop = b->short_at < end ? b->short_at : end;
  for (size_t i = pos; i < stop && b->failed_at == b->n; i++)
    if (b->x[i].error == 0 && xfer_left (&b->x[i]) > 0)
      b->failed_at = i;
  if (b->failed_at == b->n)
    return false;
  for (size_t i = pos; i < b->n; i++)
    if (b->x[i].error == 0 && xfer_left (&b->x[i]) > 0)
      b->x[i].error = -ECANCELED;
  b->sync_res = -ECANCELED;
  return true;
}

/* Run the transfers of B as one chain (NC_URING_LINK), with the
   fdatasync at its end if SYNC: a piece of at most a ring's worth at a
   time, since a chain ends with its submission; the next piece starts
   at a short transfer's rest, or after the piece.  */
static int
run_chain (struct batch *b, bool sync)
{
  unsigned int limit = b->ring->entries - (sync ? 1 : 0);
  size_t pos = 0;
  for (;;)
    {
      size_t end = queue_chain (b, pos, limit, sync);
      if (b->ring->unsubmitted == 0)
        return 0;
      b->short_at = b->failed_at = b->n;
      b->ring->split = false;
      int ret = drain (b);
      if (ret < 0)
        return ret;
      if (chain_failed (b, pos, end))
        return 0;
      if (b->short_at < b->n)
        pos = b->short_at;
      else if (end < b->n)
        pos = end;
      else if (sync && b->ring->split)
        {
          /* The kernel took the piece in two enters, and so as two
             chains: the fdatasync may have run before the writes of the
             first were done.  Once more, now that they all are.  */
          queue_sync (b);
          return drain (b);
        }
      else
        return 0;
    }
}

int
nc_uring_write (struct nc_uring *ring, int fd, struct nc_uring_xfer *x,
                size_t n, int rw_flags, unsigned int flags,
                int *sync_error)
{
  struct batch b;
  batch_init (&b, ring, fd, x, n, rw_flags, IORING_OP_WRITEV);
  bool sync = flags & NC_URING_DATASYNC;
  int ret = 0;
  if (not_positional (&b))
    ;
  else if (flags & NC_URING_LINK)
    {
      b.complete = complete_linked;
      ret = run_chain (&b, sync);
    }
  else
    {
      ret = run_independent (&b);
      if (ret == 0 && sync)
        {
          /* Without a chain to link it to, the fdatasync follows the
             writes once they have all completed, if they all were.  */
          b.sync_res = 0;
          for (size_t i = 0; i < n && b.sync_res == 0; i++)
            if (x[i].error != 0)
              b.sync_res = -ECANCELED;
          if (b.sync_res == 0)
            {
              queue_sync (&b);
              ret = drain (&b);
            }
        }
    }
  batch_end (&b);
  if (sync_error)
    *sync_error = ret == 0 ? b.sync_res : ret;
  return ret;
}
