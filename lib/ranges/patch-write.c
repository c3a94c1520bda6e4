/* ranges/patch-write.c -- write byte patches into a file, all or nothing
   (ranges/patch-write.h).  */

#include <config.h>

#include "ranges/patch-write.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "cli/common.h"
#include "cli/features.h"
#include "error.h"
#include "sys/calls.h"
#include "sys/consts.h"
#include "xalloc.h"

/* The second file name of a message, beside the file's.  */
#define quote_patch(p) quote_file_n (1, (p)->arg)

/* --- the pwritev engine ------------------------------------------------ */

/* What transfer_run does: read the bytes the patches replace into
   their OLD buffers, write the patches, or write the OLD bytes back.  */
enum transfer { READ_OLD, WRITE_NEW, WRITE_OLD };

/* Do HOW for the first LIMIT bytes at most of the NP patches at P, which
   follow one another in the file, OLD their buffers of old bytes, on
   PLAN's file.  Store the number of bytes done in *DONE and return 0, or
   -errno after a failed call; reading stops early, without error, at
   the end of the file.  EINTR and short transfers are retried from where
   they stopped.  */
static int
transfer_run (struct nc_patch_plan *plan, struct nc_patch *const *p,
              size_t np, unsigned char *const *old, enum transfer how,
              uint64_t limit, uint64_t *done)
{
  static struct iovec iov[IOV_MAX];
  struct nc_patch_counts *count = (how == READ_OLD ? &plan->read
                                   : how == WRITE_NEW ? &plan->write : NULL);
  uint64_t start = p[0]->offset;
  uint64_t end = p[np - 1]->offset + p[np - 1]->len;
  if (end - start > limit)
    end = start + limit;
  uint64_t pos = start;
  size_t k = 0;
  int err = 0;
  while (pos < end)
    {
      while (p[k]->offset + p[k]->len <= pos)
        k++;
      int cnt = 0;
      for (size_t i = k; i < np && p[i]->offset < end; i++)
        {
          size_t skip = pos > p[i]->offset ? pos - p[i]->offset : 0;
          size_t stop = (end - p[i]->offset < p[i]->len
                         ? end - p[i]->offset : p[i]->len);
          iov[cnt].iov_base = (how == WRITE_NEW ? p[i]->bytes : old[i]) + skip;
          iov[cnt++].iov_len = stop - skip;
        }
      ssize_t ret;
      if (how == READ_OLD)
        ret = sys_preadv (plan->fd, iov, cnt, pos);
      else
        ret = (plan->sync
               ? sys_pwritev2 (plan->fd, iov, cnt, pos, RWF_DSYNC)
               : sys_pwritev (plan->fd, iov, cnt, pos));
      if (count)
        {
          count->calls++;
          count->iovecs += cnt;
        }
      if (ret == 0 && how == READ_OLD)
        break;
      /* Nothing written, and no reason given: as full-write says.  */
      if (ret == 0)
        ret = -ENOSPC;
      if (ret > 0)
        pos += ret;
      else if (ret != -EINTR)
        {
          err = ret;
          break;
        }
    }
  *done = pos - start;
  if (count)
    count->bytes += pos - start;
  return err;
}

/* --- the io_uring engine ------------------------------------------------ */

/* The transfers of PLAN's runs, one a run, whose buffers are the
   patches' bytes if NEW, else their old bytes: a new array, whose
   iovecs (one a patch) are in *IOV, another.  */
static struct nc_uring_xfer *
run_transfers (const struct nc_patch_plan *plan, bool new,
               struct iovec **iov)
{
  struct nc_uring_xfer *x = xcalloc (plan->nr, sizeof *x);
  *iov = xnmalloc (plan->ns, sizeof **iov);
  for (size_t r = 0; r < plan->nr; r++)
    {
      const struct nc_patch_run *run = &plan->runs[r];
      for (size_t i = run->a; i < run->b; i++)
        (*iov)[i] = (struct iovec) {
          .iov_base = new ? plan->sorted[i]->bytes : plan->before[i],
          .iov_len = plan->sorted[i]->len
        };
      x[r].offset = plan->sorted[run->a]->offset;
      x[r].iov = *iov + run->a;
      x[r].iovcnt = run->b - run->a;
    }
  return x;
}

/* Add what the ring of PLAN did since BEFORE, and the transfers X, to
   COUNT.  */
static void
count_ring (const struct nc_patch_plan *plan, struct nc_uring_stats before,
            const struct nc_uring_xfer *x, struct nc_patch_counts *count)
{
  count->calls += plan->ring.stats.sqes - before.sqes;
  count->enters += plan->ring.stats.enters - before.enters;
  for (size_t r = 0; r < plan->nr; r++)
    {
      count->iovecs += plan->runs[r].b - plan->runs[r].a;
      count->bytes += x[r].done;
    }
}

/* nc_patch_read_old under io_uring: every run at once.  Return 0 or the
   -errno of the first read that failed; if the ring itself failed,
   close it and leave the plan with NC_PATCH_PWRITEV, that -errno in
   PLAN->uring_error.  */
static int
uring_read_old (struct nc_patch_plan *plan)
{
  struct iovec *iov;
  struct nc_uring_xfer *x = run_transfers (plan, false, &iov);
  struct nc_uring_stats before = plan->ring.stats;
  int err = nc_uring_read (&plan->ring, plan->fd, x, plan->nr, 0);
  count_ring (plan, before, x, &plan->read);
  /* Reads the kernel may still do into the buffers: no second try.  */
  if (err < 0 && plan->ring.lost)
    ;
  else if (err < 0)
    {
      /* The layer waited for what the kernel took (a ring that fails at
         its first enter, under a seccomp filter that allows
         io_uring_setup only, took nothing): close it, and let preadv
         read all again, into the same buffers.  */
      nc_uring_close (&plan->ring);
      plan->engine = NC_PATCH_PWRITEV;
      plan->uring_error = err;
      plan->read = (struct nc_patch_counts) { 0 };
      err = 0;
    }
  else
    for (size_t r = 0; r < plan->nr && err == 0; r++)
      {
        plan->runs[r].had = x[r].done;
        err = x[r].error;
      }
  free (x);
  free (iov);
  return err;
}

/* --- undo ---------------------------------------------------------------- */

/* The bytes of the patch P, in the run RUN whose first byte is at
   START, that hold what was written and not what was there before, the
   file cut back to OLD_SIZE if CUT.  */
static uint64_t
bytes_left (const struct nc_patch *p, const struct nc_patch_run *run,
            uint64_t start, bool cut, uint64_t old_size)
{
  uint64_t lo = start + run->undone, hi = start + run->written;
  if (cut && hi > old_size)
    hi = old_size;
  if (lo < p->offset)
    lo = p->offset;
  if (hi > p->offset + p->len)
    hi = p->offset + p->len;
  return lo < hi ? hi - lo : 0;
}

/* The patch at which the write of RUN failed, after RUN->written bytes:
   the first one it did not complete.  */
static const struct nc_patch *
failed_patch (const struct nc_patch_plan *plan, const struct nc_patch_run *run)
{
  uint64_t fail_at = plan->sorted[run->a]->offset + run->written;
  for (size_t i = run->a; i < run->b; i++)
    if (plan->sorted[i]->offset + plan->sorted[i]->len > fail_at)
      return plan->sorted[i];
  return plan->sorted[run->a];
}

/* The number of patches in the first NR runs that the writes touched;
   *WRITTEN_END is the end of the furthest bytes written.  */
static size_t
patches_touched (const struct nc_patch_plan *plan, size_t nr,
                 uint64_t *written_end)
{
  size_t touched = 0;
  *written_end = 0;
  for (size_t r = 0; r < nr; r++)
    {
      const struct nc_patch_run *run = &plan->runs[r];
      uint64_t start = plan->sorted[run->a]->offset;
      for (size_t i = run->a; i < run->b; i++)
        touched += plan->sorted[i]->offset < start + run->written;
      if (run->written > 0 && start + run->written > *written_end)
        *written_end = start + run->written;
    }
  return touched;
}

/* The undo of the first NR runs: the file cut back to OLD_SIZE first if
   CUT, which frees the room that a full file system needs for the rest,
   then the old bytes written back.  Store the errors of each step (0 or
   -errno) in *CUT_ERR and *UNDO_ERR.  */
static void
undo_writes (struct nc_patch_plan *plan, size_t nr, bool cut,
             uint64_t old_size, int *cut_err, int *undo_err)
{
  *cut_err = *undo_err = 0;
  if (cut)
    do
      *cut_err = sys_ftruncate (plan->fd, old_size);
    while (*cut_err == -EINTR);
  for (size_t r = 0; r < nr; r++)
    {
      struct nc_patch_run *run = &plan->runs[r];
      uint64_t limit = run->written < run->had ? run->written : run->had;
      run->undone = 0;
      if (limit == 0)
        continue;
      int ret = transfer_run (plan, plan->sorted + run->a, run->b - run->a,
                              plan->before + run->a, WRITE_OLD, limit,
                              &run->undone);
      if (ret < 0 && *undo_err == 0)
        *undo_err = ret;
    }
}

/* What stays written after the undo of the first NR runs, by patch in
   the order given (a new array), the file cut back to OLD_SIZE if CUT;
   *TOTAL is the sum.  */
static uint64_t *
bytes_still_written (const struct nc_patch_plan *plan, size_t nr, bool cut,
                     uint64_t old_size, uint64_t *total)
{
  uint64_t *left = xcalloc (plan->n, sizeof *left);
  *total = 0;
  for (size_t r = 0; r < nr; r++)
    for (size_t i = plan->runs[r].a; i < plan->runs[r].b; i++)
      {
        uint64_t l = bytes_left (plan->sorted[i], &plan->runs[r],
                                 plan->sorted[plan->runs[r].a]->offset, cut,
                                 old_size);
        left[plan->sorted[i] - plan->patches] = l;
        *total += l;
      }
  return left;
}

/* Say which patches stay written (LEFT bytes of each) after an undo
   that failed with CUT_ERR or UNDO_ERR (-errno), truncating the file
   back to OLD_SIZE or writing the old bytes back.  */
static void
report_left (struct nc_patch_plan *plan, const uint64_t *left,
             int cut_err, int undo_err, uint64_t old_size)
{
  const char *file = plan->file;
  plan->left_written = true;
  if (cut_err < 0)
    error (0, 0, "cannot undo: cannot truncate %s back to %llu bytes: %s",
           quote_file (file), (unsigned long long) old_size,
           strerror (-cut_err));
  if (undo_err < 0)
    error (0, 0, "cannot undo: error writing %s: %s", quote_file (file),
           strerror (-undo_err));
  for (size_t i = 0; i < plan->n; i++)
    if (left[i] == plan->patches[i].len)
      error (0, 0, "%s: patch %s stays written", quote_file (file),
             quote_patch (&plan->patches[i]));
    else if (left[i] > 0)
      error (0, 0, "%s: patch %s stays written in part (%llu of %zu bytes)",
             quote_file (file), quote_patch (&plan->patches[i]),
             (unsigned long long) left[i], plan->patches[i].len);
  error (0, 0, "%s is not as it was", quote_file (file));
}

/* Writing failed with ERR at the patch AT (NULL: the final fdatasync
   failed), after the first NR runs were written as their WRITTEN says:
   put back the bytes written, the file cut back to its old size
   OLD_SIZE first if it is a REGULAR file that grew, and say so; say
   which patches stay written if that fails.  The exit status becomes
   1.  */
static void
write_failed (struct nc_patch_plan *plan, size_t nr,
              const struct nc_patch *at, int err, bool regular,
              uint64_t old_size)
{
  const char *file = plan->file;
  bool unsupported = (plan->sync && at
                      && (err == -EOPNOTSUPP || err == -ENOSYS));
  const char *what = (!at ? "error syncing"
                      : unsupported ? "cannot write" : "error writing");
  const char *how = unsupported ? " with pwritev2 flag RWF_DSYNC" : "";
  const char *at_patch = at ? " at patch " : "";
  const char *at_arg;
  const char *why = (unsupported || !at ? strerror (-err)
                     : cli_call_strerror ("pwritev", err));
  cli_status = EXIT_FAILURE;

  uint64_t written_end;
  size_t touched = patches_touched (plan, nr, &written_end);
  if (touched == 0)
    {
      at_arg = at ? quote_patch (at) : "";
      error (0, 0, "%s %s%s%s%s: %s; nothing written", what,
             quote_file (file), how, at_patch, at_arg, why);
      return;
    }

  bool cut = regular && written_end > old_size;
  int cut_err, undo_err;
  undo_writes (plan, nr, cut, old_size, &cut_err, &undo_err);
  uint64_t total;
  uint64_t *left = bytes_still_written (plan, nr, cut && cut_err == 0,
                                        old_size, &total);
  at_arg = at ? quote_patch (at) : "";
  if (total == 0)
    error (0, 0, "%s %s%s%s%s: %s; the %zu %s written %s undone: "
           "%s is as it was", what, quote_file (file), how, at_patch,
           at_arg, why, touched,
           touched == 1 ? "patch" : "patches",
           touched == 1 ? "was" : "were", quote_file (file));
  else
    {
      error (0, 0, "%s %s%s%s%s: %s", what, quote_file (file), how,
             at_patch, at_arg, why);
      report_left (plan, left, cut_err, undo_err, old_size);
    }
  free (left);
}

/* --- writing ------------------------------------------------------------- */

/* Write the runs with pwritev, one after the other; the first that
   fails is undone with those before it.  */
static void
pwritev_runs (struct nc_patch_plan *plan, bool regular, uint64_t old_size)
{
  for (size_t r = 0; r < plan->nr; r++)
    {
      struct nc_patch_run *run = &plan->runs[r];
      int ret = transfer_run (plan, plan->sorted + run->a, run->b - run->a,
                              NULL, WRITE_NEW, UINT64_MAX, &run->written);
      if (ret < 0)
        {
          write_failed (plan, r + 1, failed_patch (plan, run), ret, regular,
                        old_size);
          break;
        }
    }
}

/* The length of the stretch of the file that RUN writes.  */
static uint64_t
run_length (const struct nc_patch_plan *plan, const struct nc_patch_run *run)
{
  const struct nc_patch *last = plan->sorted[run->b - 1];
  return last->offset + last->len - plan->sorted[run->a]->offset;
}

/* The first of the N transfers at X that failed: one with an error of
   its own, else (the layer cancelled them for a reason of its own) one
   cancelled; N if none did.  */
static size_t
first_failed (const struct nc_uring_xfer *x, size_t n)
{
  for (size_t r = 0; r < n; r++)
    if (x[r].error < 0 && x[r].error != -ECANCELED)
      return r;
  for (size_t r = 0; r < n; r++)
    if (x[r].error < 0)
      return r;
  return n;
}

/* The ring failed with RING_ERR while writing the transfers X, and the
   layer could not wait for those it had given the kernel: some may still
   be written.  An undo now could be overwritten behind it: none is
   tried, and the message says so.  */
static void
ring_lost (struct nc_patch_plan *plan, const struct nc_uring_xfer *x,
           int ring_err)
{
  size_t r = 0;
  while (r + 1 < plan->nr && x[r].done == run_length (plan, &plan->runs[r]))
    r++;
  cli_status = EXIT_FAILURE;
  plan->left_written = true;
  error (0, 0, "error writing %s at patch %s: %s; which writes were done "
         "is not known: nothing undone, %s may not be as it was",
         quote_file (plan->file), quote_patch (failed_patch (plan,
                                                             &plan->runs[r])),
         strerror (-ring_err), quote_file (plan->file));
}

/* The runs that nc_uring_write answered with X (RING_ERR, SYNC_ERR its
   return and its fdatasync's result): each run's WRITTEN, and the undo
   if something failed.  */
static void
uring_written (struct nc_patch_plan *plan, const struct nc_uring_xfer *x,
               int ring_err, int sync_err, bool regular, uint64_t old_size)
{
  size_t failed = first_failed (x, plan->nr), last = 0;
  for (size_t r = 0; r < plan->nr; r++)
    {
      plan->runs[r].written = x[r].done;
      if (x[r].done > 0)
        last = r + 1;
    }
  if (ring_err < 0 && plan->ring.lost)
    ring_lost (plan, x, ring_err);
  else if (ring_err < 0)
    {
      /* Which writes were done is unknown: undo every run whole, once
         closing the ring has cancelled what it still held.  The patch
         named is the first one not known to be written.  */
      nc_uring_close (&plan->ring);
      if (failed == plan->nr)
        for (failed = 0; failed + 1 < plan->nr; failed++)
          if (x[failed].done < run_length (plan, &plan->runs[failed]))
            break;
      const struct nc_patch *at = failed_patch (plan, &plan->runs[failed]);
      for (size_t r = 0; r < plan->nr; r++)
        plan->runs[r].written = run_length (plan, &plan->runs[r]);
      write_failed (plan, plan->nr, at, ring_err, regular, old_size);
    }
  else if (failed < plan->nr)
    /* Behind the failed write, the chain was cancelled: the runs to undo
       end there, unless the layer wrote some beyond it.  */
    write_failed (plan, last > failed + 1 ? last : failed + 1,
                  failed_patch (plan, &plan->runs[failed]),
                  x[failed].error, regular, old_size);
  /* EINVAL: a file that cannot be synced (a character device), whose
     writes are as durable as they can be, as dd conv=fsync takes it.  */
  else if (sync_err < 0 && sync_err != -EINVAL)
    write_failed (plan, plan->nr, NULL, sync_err, regular, old_size);
}

/* Write the runs through the ring, one linked chain ending with an
   fdatasync under --sync.  */
static void
uring_write_runs (struct nc_patch_plan *plan, bool regular,
                  uint64_t old_size)
{
  struct iovec *iov;
  struct nc_uring_xfer *x = run_transfers (plan, true, &iov);
  struct nc_uring_stats before = plan->ring.stats;
  int sync_err = 0;
  unsigned int flags = NC_URING_LINK | (plan->sync ? NC_URING_DATASYNC : 0);
  int ret = nc_uring_write (&plan->ring, plan->fd, x, plan->nr, 0, flags,
                            &sync_err);
  count_ring (plan, before, x, &plan->write);
  uring_written (plan, x, ret, sync_err, regular, old_size);
  free (x);
  free (iov);
}

/* --- the plan -------------------------------------------------------------- */

void
nc_patch_plan_runs (struct nc_patch_plan *plan)
{
  plan->runs = xnmalloc (plan->ns ? plan->ns : 1, sizeof *plan->runs);
  plan->nr = 0;
  for (size_t a = 0, b; a < plan->ns; a = b)
    {
      for (b = a + 1; b < plan->ns && b - a < IOV_MAX; b++)
        if (plan->sorted[b - 1]->offset + plan->sorted[b - 1]->len
            != plan->sorted[b]->offset)
          break;
      plan->runs[plan->nr++] = (struct nc_patch_run) { .a = a, .b = b };
    }
  plan->engine = NC_PATCH_PWRITEV;
}

int
nc_patch_use_uring (struct nc_patch_plan *plan)
{
  /* The writes and the fdatasync at once, as far as the ring allows; the
     layer refills it for more.  */
  size_t want = plan->nr + 1;
  int err = nc_uring_open (&plan->ring, (want < NC_URING_MAX_ENTRIES
                                         ? want : NC_URING_MAX_ENTRIES));
  if (err == 0)
    plan->engine = NC_PATCH_URING;
  return err;
}

int
nc_patch_read_old (struct nc_patch_plan *plan)
{
  size_t room = plan->ns ? plan->ns : 1;
  plan->before = xcalloc (room, sizeof *plan->before);
  plan->got = xnmalloc (room, sizeof *plan->got);
  for (size_t i = 0; i < plan->ns; i++)
    plan->before[i] = xmalloc (plan->sorted[i]->len);
  int err = 0;
  if (plan->engine == NC_PATCH_URING && plan->nr > 0)
    err = uring_read_old (plan);
  if (plan->engine == NC_PATCH_PWRITEV)
    for (size_t r = 0; r < plan->nr && err == 0; r++)
      {
        struct nc_patch_run *run = &plan->runs[r];
        err = transfer_run (plan, plan->sorted + run->a, run->b - run->a,
                            plan->before + run->a, READ_OLD, UINT64_MAX,
                            &run->had);
      }
  for (size_t r = 0; r < plan->nr; r++)
    {
      const struct nc_patch_run *run = &plan->runs[r];
      for (size_t i = run->a; i < run->b; i++)
        {
          uint64_t from = plan->sorted[i]->offset - plan->sorted[run->a]->offset;
          uint64_t len = plan->sorted[i]->len;
          plan->got[i] = (run->had <= from ? 0
                          : run->had - from < len ? run->had - from : len);
        }
    }
  return err;
}

void
nc_patch_write (struct nc_patch_plan *plan, bool regular, uint64_t old_size)
{
  /* Past RLIMIT_FSIZE, a write fails with EFBIG, which is undone,
     instead of killing the process in the middle.  */
  struct sigaction ign = { .sa_handler = SIG_IGN };
  sigemptyset (&ign.sa_mask);
  sigaction (SIGXFSZ, &ign, NULL);
  if (plan->nr == 0)
    return;
  if (plan->engine == NC_PATCH_URING)
    uring_write_runs (plan, regular, old_size);
  else
    pwritev_runs (plan, regular, old_size);
}

void
nc_patch_plan_free (struct nc_patch_plan *plan)
{
  if (plan->engine == NC_PATCH_URING)
    nc_uring_close (&plan->ring);
  plan->engine = NC_PATCH_PWRITEV;
  for (size_t i = 0; i < plan->n; i++)
    free (plan->patches[i].bytes);
  if (plan->before)
    for (size_t i = 0; i < plan->ns; i++)
      free (plan->before[i]);
  free (plan->before);
  free (plan->got);
  free (plan->runs);
  free (plan->sorted);
  free (plan->patches);
}
