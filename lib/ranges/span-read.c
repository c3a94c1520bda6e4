/* ranges/span-read.c -- read many byte ranges of a file in few system
   calls.  */

#include <config.h>

#include "ranges/span-read.h"

#include <errno.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "cli/features.h"
#include "error.h"
#include "sys/calls.h"
#include "sys/consts.h"
#include "xalloc.h"

/* A run of the file read into one buffer: ranges merged.  */
struct span
{
  uint64_t start, end;
  unsigned char *buf;
};

const char *const span_engine_names[] = { "auto", "preadv", "uring", NULL };

enum
{
  /* The scratch buffer for the bytes between spans, at most.  */
  SCRATCH_MAX = 1024 * 1024,
  /* The reads that look for the end of a file, each at most.  */
  SEEK_BUF = 64 * 1024,
  /* The most reads in flight in a ring: 1024 reads a cold file as fast
     as 4096 (the uring helper's measure: 10000 random 4-byte reads of
     ext4 on virtio, 213 ms against 227), and a smaller ring costs less
     to set up for a warm one.  */
  RING_ENTRIES = 1024
};

/* The file systems whose files the auto engine reads by preadv whatever
   the number of calls: their files do not take reads that must not
   block (no FMODE_NOWAIT), so io_uring cannot do a read inline and
   hands each to a worker thread (io-wq), which costs more than the
   preadv it replaces: 1.08 to 1.15 times the time of preadv on tmpfs,
   from 16 to 4096 ranges (preadv-dump(1), NOTES).  They are all in
   memory, with no disk whose queue io_uring could fill.  */
static const struct
{
  unsigned long magic;
  char name[12];
} worker_only_fs[] = {
  { TMPFS_MAGIC, "tmpfs" },
  { RAMFS_MAGIC, "ramfs" },
  { PROC_SUPER_MAGIC, "proc" },
  { SYSFS_MAGIC, "sysfs" },
  { DEBUGFS_MAGIC, "debugfs" },
  { TRACEFS_MAGIC, "tracefs" },
  { SECURITYFS_MAGIC, "securityfs" },
  { CGROUP_SUPER_MAGIC, "cgroup" },
  { CGROUP2_SUPER_MAGIC, "cgroup2" },
  { 0x62656570, "configfs" }
};

/* The name of the file system of FD, a regular file, if it is one of
   WORKER_ONLY_FS, or NULL.  (A device node lives on devtmpfs, but its
   reads are the device's.)  */
static const char *
worker_only_fs_name (int fd)
{
  struct statfs sf;
  if (fstatfs (fd, &sf) != 0)
    return NULL;
  for (size_t i = 0; i < sizeof worker_only_fs / sizeof *worker_only_fs; i++)
    if ((unsigned long) sf.f_type == worker_only_fs[i].magic)
      return worker_only_fs[i].name;
  return NULL;
}

void
span_reader_init (struct span_reader *rd, int fd, mode_t mode,
                  const char *name, int rw_flags, uint64_t max_gap,
                  enum span_engine engine)
{
  memset (rd, 0, sizeof *rd);
  rd->fd = fd;
  rd->name = name;
  rd->rw_flags = rw_flags;
  rd->max_gap = max_gap;
  rd->engine = engine;
  /* io_uring reads a pipe or a terminal where it is, ignoring the
     offset, where preadv fails with ESPIPE: only files that have
     offsets are read by io_uring.  */
  rd->positional = S_ISREG (mode) || S_ISBLK (mode);
  if (engine == SPAN_ENGINE_AUTO && S_ISREG (mode))
    rd->worker_only_fs = worker_only_fs_name (fd);
  rd->eof = UINT64_MAX;
  rd->scratch_size = (max_gap < SCRATCH_MAX ? (max_gap ? max_gap : 1)
                      : SCRATCH_MAX);
  rd->scratch = xmalloc (rd->scratch_size);
}

void
span_reader_free (struct span_reader *rd)
{
  if (rd->ring_open)
    nc_uring_close (&rd->ring);
  free (rd->scratch);
  free (rd->arena);
  free (rd->seek_buf);
  free (rd->holes);
}

/* ------------------------------------------------------------- preadv */

/* One positioned call reading the CNT buffers at V from POS, counted.  */
static ssize_t
read_at (struct span_reader *rd, const struct iovec *v, int cnt,
         uint64_t pos)
{
  ssize_t ret = (rd->rw_flags
                 ? sys_preadv2 (rd->fd, v, cnt, pos, rd->rw_flags)
                 : sys_preadv (rd->fd, v, cnt, pos));
  rd->stats.calls++;
  rd->stats.iovecs += cnt;
  if (ret > 0)
    {
      rd->stats.bytes += ret;
      if (pos + ret > rd->data_end)
        rd->data_end = pos + ret;
    }
  return ret;
}

static _Noreturn void
read_error (const struct span_reader *rd, ssize_t ret)
{
  if (rd->rw_flags && (ret == -EOPNOTSUPP || ret == -ENOSYS))
    error (EXIT_FAILURE, -ret, "cannot read %s with preadv2 flags%s%s",
           rd->name, rd->rw_flags & RWF_NOWAIT ? " RWF_NOWAIT" : "",
           rd->rw_flags & RWF_HIPRI ? " RWF_HIPRI" : "");
  error (EXIT_FAILURE, 0, "error reading %s: %s", rd->name,
         cli_call_strerror ("preadv", ret));
  abort ();
}

static bool
nowait (const struct span_reader *rd)
{
  return rd->rw_flags & RWF_NOWAIT;
}

/* A read at POS found nothing: the file ends there or before, where a
   size from fstat, if any, said otherwise.  Find the real end by reading
   on from DATA_END, the bytes read thrown away, and set EOF to it.  */
static void
find_end (struct span_reader *rd, uint64_t pos)
{
  uint64_t at = rd->data_end < pos ? rd->data_end : pos;
  while (at < pos)
    {
      if (!rd->seek_buf)
        rd->seek_buf = xmalloc (SEEK_BUF);
      struct iovec v = { rd->seek_buf,
                         pos - at < SEEK_BUF ? pos - at : SEEK_BUF };
      ssize_t ret = read_at (rd, &v, 1, at);
      if (ret > 0)
        {
          rd->stats.gap_bytes += ret;
          at += ret;
        }
      else if (ret == 0)
        break;
      else if (ret == -EAGAIN && nowait (rd))
        {
          /* Not in the page cache: the end cannot be known without
             waiting; the file ends at POS for all this reader knows.  */
          at = pos;
          break;
        }
      else if (ret != -EINTR)
        read_error (rd, ret);
    }
  rd->eof = at;
}

bool
span_reaches (struct span_reader *rd, uint64_t pos)
{
  if (pos <= rd->data_end)
    return true;
  if (rd->eof != UINT64_MAX)
    return pos <= rd->eof;
  unsigned char byte;
  struct iovec v = { &byte, 1 };
  ssize_t ret;
  while ((ret = read_at (rd, &v, 1, pos - 1)) == -EINTR)
    continue;
  if (ret == 0)
    find_end (rd, pos - 1);
  else if (ret < 0 && !(ret == -EAGAIN && nowait (rd)))
    read_error (rd, ret);
  return ret != 0;
}

/* Fill V, room for MAX iovecs, for reading the file from POS up to the
   end of the last of the NS spans at SP, the first of which ends after
   POS; return the number of iovecs.  Bytes between spans go to the
   scratch buffer.  */
static int
build_iov (const struct span_reader *rd, struct iovec *v, int max,
           const struct span *sp, size_t ns, uint64_t pos)
{
  int cnt = 0;
  for (size_t k = 0; k < ns && cnt < max; k++)
    {
      while (pos < sp[k].start && cnt < max)
        {
          uint64_t gap = sp[k].start - pos;
          size_t piece = gap < rd->scratch_size ? gap : rd->scratch_size;
          v[cnt].iov_base = rd->scratch;
          v[cnt++].iov_len = piece;
          pos += piece;
        }
      if (cnt == max)
        break;
      v[cnt].iov_base = sp[k].buf + (pos - sp[k].start);
      v[cnt++].iov_len = sp[k].end - pos;
      pos = sp[k].end;
    }
  return cnt;
}

/* The bytes of [FROM, TO) outside the NS spans at SP, in order.  */
static uint64_t
gap_bytes (const struct span *sp, size_t ns, uint64_t from, uint64_t to)
{
  uint64_t in = 0;
  for (size_t k = 0; k < ns && sp[k].start < to; k++)
    {
      uint64_t s = sp[k].start > from ? sp[k].start : from;
      uint64_t e = sp[k].end < to ? sp[k].end : to;
      if (s < e)
        in += e - s;
    }
  return to - from - in;
}

/* The first of the N ranges at SORTED, in order of offset, that starts
   after POS, or UINT64_MAX.  */
static uint64_t
next_start (struct span_range *const *sorted, size_t n, uint64_t pos)
{
  size_t lo = 0, hi = n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (sorted[mid]->offset <= pos)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < n ? sorted[lo]->offset : UINT64_MAX;
}

static void
add_hole (struct span_reader *rd, uint64_t start, uint64_t end)
{
  if (rd->nholes == rd->holes_alloc)
    rd->holes = xpalloc (rd->holes, &rd->holes_alloc, 1, -1,
                         sizeof *rd->holes);
  rd->holes[rd->nholes].start = start;
  rd->holes[rd->nholes++].end = end;
}

/* --nowait found the bytes at POS out of the page cache: record a hole
   up to the next start of one of the N ranges at SORTED, at most END,
   and return where reading goes on.  */
static uint64_t
skip_hole (struct span_reader *rd, uint64_t pos, uint64_t end,
           struct span_range *const *sorted, size_t n)
{
  uint64_t resume = next_start (sorted, n, pos);
  if (resume > end)
    resume = end;
  add_hole (rd, pos, resume);
  return resume;
}

/* Read the NS spans at SP, in order of offset, from POS (within them) by
   as few preadv calls as possible: one, unless the kernel returns less
   than asked.  Holes up to the next start of one of the N ranges at
   SORTED.  */
static void
read_spans (struct span_reader *rd, const struct span *sp, size_t ns,
            uint64_t pos, struct span_range *const *sorted, size_t n)
{
  uint64_t end = sp[ns - 1].end;
  size_t k = 0;
  while (pos < end && pos < rd->eof)
    {
      while (sp[k].end <= pos)
        k++;
      int cnt = build_iov (rd, rd->iov, IOV_MAX, sp + k, ns - k, pos);
      ssize_t ret = read_at (rd, rd->iov, cnt, pos);
      if (ret > 0)
        {
          rd->stats.gap_bytes += gap_bytes (sp + k, ns - k, pos, pos + ret);
          pos += ret;
        }
      else if (ret == 0)
        find_end (rd, pos);
      else if (ret == -EINTR)
        continue;
      else if (ret == -EAGAIN && nowait (rd))
        pos = skip_hole (rd, pos, end, sorted, n);
      else
        read_error (rd, ret);
    }
}

uint64_t
span_read_chunk (struct span_reader *rd, unsigned char *buf, uint64_t pos,
                 uint64_t n, uint64_t *miss_at)
{
  struct span s = { pos, pos + n, buf };
  rd->nholes = 0;
  read_spans (rd, &s, 1, pos, NULL, 0);
  uint64_t got_end = s.end < rd->eof ? s.end : rd->eof;
  *miss_at = UINT64_MAX;
  if (rd->nholes && rd->holes[0].start < got_end)
    got_end = *miss_at = rd->holes[0].start;
  return got_end > pos ? got_end - pos : 0;
}

uint64_t
span_first_missing (const struct span_reader *rd, uint64_t start,
                    uint64_t end)
{
  /* The first hole that ends after START.  */
  idx_t lo = 0, hi = rd->nholes;
  while (lo < hi)
    {
      idx_t mid = lo + (hi - lo) / 2;
      if (rd->holes[mid].end <= start)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < rd->nholes && rd->holes[lo].start < end)
    return rd->holes[lo].start > start ? rd->holes[lo].start : start;
  return UINT64_MAX;
}

/* -------------------------------------------------------------- batches */

/* Merge the N ranges at SORTED, in order of offset, into spans, laid out
   one after the other in the arena, and point each range at its bytes
   there.  Return the spans, *NSP of them.  */
static struct span *
make_spans (struct span_reader *rd, struct span_range *const *sorted,
            size_t n, size_t *nsp)
{
  struct span *sp = xnmalloc (n ? n : 1, sizeof *sp);
  size_t ns = 0;
  size_t total = 0;
  for (size_t i = 0; i < n; i++)
    {
      uint64_t start = sorted[i]->offset, end = start + sorted[i]->len;
      if (ns > 0 && start <= sp[ns - 1].end)
        {
          if (end > sp[ns - 1].end)
            {
              total += end - sp[ns - 1].end;
              sp[ns - 1].end = end;
            }
        }
      else
        {
          sp[ns].start = start;
          sp[ns++].end = end;
          total += end - start;
        }
    }
  if (total > rd->arena_size)
    {
      free (rd->arena);
      rd->arena = xmalloc (total);
      rd->arena_size = total;
    }
  unsigned char *p = rd->arena;
  for (size_t k = 0; k < ns; k++)
    {
      sp[k].buf = p;
      p += sp[k].end - sp[k].start;
    }
  for (size_t i = 0, k = 0; i < n; i++)
    {
      while (sp[k].end <= sorted[i]->offset)
        k++;
      sorted[i]->data = sp[k].buf + (sorted[i]->offset - sp[k].start);
    }
  *nsp = ns;
  return sp;
}

/* A group of spans read by one transfer: SP[A] to SP[B - 1], CNT
   iovecs.  */
struct group
{
  size_t a, b;
  int cnt;
};

/* The end of the group of spans that starts at SP[A], of the NS at SP:
   the spans at most MAX_GAP apart whose iovecs fit in IOV_MAX; its
   iovecs into *CNT.  */
static size_t
group_end (const struct span_reader *rd, const struct span *sp, size_t ns,
           size_t a, int *cnt)
{
  size_t b;
  size_t iovecs = 1;
  for (b = a + 1; b < ns; b++)
    {
      uint64_t gap = sp[b].start - sp[b - 1].end;
      if (gap > rd->max_gap)
        break;
      uint64_t need = (gap + rd->scratch_size - 1) / rd->scratch_size + 1;
      if (need > IOV_MAX - iovecs)
        break;
      iovecs += need;
    }
  *cnt = iovecs;
  return b;
}

/* The groups of the NS spans at SP, *NG of them.  */
static struct group *
make_groups (const struct span_reader *rd, const struct span *sp,
             size_t ns, size_t *ng)
{
  struct group *g = xnmalloc (ns ? ns : 1, sizeof *g);
  size_t n = 0;
  for (size_t a = 0; a < ns; n++)
    {
      g[n].a = a;
      a = g[n].b = group_end (rd, sp, ns, a, &g[n].cnt);
    }
  *ng = n;
  return g;
}

/* ------------------------------------------------------------- io_uring */

/* Whether to read a batch of NG groups with io_uring, the ring opened
   the first time; if it cannot be, the reason is kept and the answer is
   no, for this batch and the next.  */
static bool
use_uring (struct span_reader *rd, size_t ng)
{
  if (ng == 0 || rd->uring_error || rd->engine == SPAN_ENGINE_PREADV
      || !rd->positional)
    return false;
  if (rd->engine == SPAN_ENGINE_AUTO
      && (ng < SPAN_URING_THRESHOLD || (rd->rw_flags & RWF_HIPRI)
          || rd->worker_only_fs))
    return false;
  /* A ring as large as the batch, up to RING_ENTRIES: opened again
     larger for a batch of more groups than the first.  */
  unsigned int entries = ng < RING_ENTRIES ? ng : RING_ENTRIES;
  if (rd->ring_open && rd->ring.entries < entries)
    {
      nc_uring_close (&rd->ring);
      rd->ring_open = false;
    }
  if (!rd->ring_open)
    {
      int ret = nc_uring_open (&rd->ring, entries);
      if (ret < 0)
        {
          rd->uring_error = ret;
          return false;
        }
      rd->ring_open = true;
      rd->ring_stats_seen = rd->ring.stats;
    }
  return true;
}

/* After transfer X read the NS spans at SP (a group) by io_uring: count
   it, and do what the preadv engine does after a call that read as much:
   find the end of the file, skip a hole, report an error; the rest of
   the group, if any, is read by preadv.  */
static void
finish_group (struct span_reader *rd, const struct span *sp, size_t ns,
              const struct nc_uring_xfer *x, struct span_range *const *sorted,
              size_t n)
{
  uint64_t pos = sp[0].start;
  uint64_t end = sp[ns - 1].end;
  if (x->done > 0)
    {
      rd->stats.bytes += x->done;
      rd->stats.gap_bytes += gap_bytes (sp, ns, pos, pos + x->done);
      pos += x->done;
      if (pos > rd->data_end)
        rd->data_end = pos;
    }
  if (pos >= end)
    return;
  if (x->eof)
    {
      find_end (rd, pos);
      return;
    }
  if (x->error == -EAGAIN && nowait (rd))
    pos = skip_hole (rd, pos, end, sorted, n);
  else if (x->error && x->error != -EINTR)
    read_error (rd, x->error);
  read_spans (rd, sp, ns, pos, sorted, n);
}

/* Read the NG groups G of the spans at SP, every group one READV of a
   single submission.  Return false if the ring failed (the reason kept,
   the ring closed): then nothing is known of what was read, and the
   caller reads the batch by preadv.  */
static bool
read_groups_uring (struct span_reader *rd, const struct span *sp,
                   const struct group *g, size_t ng,
                   struct span_range *const *sorted, size_t n)
{
  size_t iovecs = 0;
  for (size_t i = 0; i < ng; i++)
    iovecs += g[i].cnt;
  struct iovec *v = xnmalloc (iovecs, sizeof *v);
  struct nc_uring_xfer *x = xcalloc (ng, sizeof *x);
  struct iovec *p = v;
  for (size_t i = 0; i < ng; i++)
    {
      const struct span *s = sp + g[i].a;
      x[i].offset = s->start;
      x[i].iov = p;
      x[i].iovcnt = build_iov (rd, p, g[i].cnt, s, g[i].b - g[i].a,
                               s->start);
      p += x[i].iovcnt;
    }
  int ret = nc_uring_read (&rd->ring, rd->fd, x, ng, rd->rw_flags);
  rd->stats.uring.sqes += rd->ring.stats.sqes - rd->ring_stats_seen.sqes;
  rd->stats.uring.enters += (rd->ring.stats.enters
                             - rd->ring_stats_seen.enters);
  rd->ring_stats_seen = rd->ring.stats;
  if (ret < 0)
    {
      /* Whatever was read, the batch is read again by preadv, into the
         same buffers.  */
      rd->uring_error = ret;
      rd->ring_lost = rd->ring.lost;
      nc_uring_close (&rd->ring);
      rd->ring_open = false;
    }
  else
    {
      rd->stats.uring_batches++;
      rd->stats.iovecs += iovecs;
      /* In order, as the preadv engine reads them: a group that starts
         past an end found before it is not there.  */
      for (size_t i = 0; i < ng; i++)
        if (sp[g[i].a].start < rd->eof)
          finish_group (rd, sp + g[i].a, g[i].b - g[i].a, &x[i], sorted, n);
    }
  free (x);
  free (v);
  return ret == 0;
}

void
span_read_ranges (struct span_reader *rd, struct span_range *const *sorted,
                  size_t n)
{
  size_t ns, ng;
  struct span *sp = make_spans (rd, sorted, n, &ns);
  struct group *g = make_groups (rd, sp, ns, &ng);
  if (ng > rd->stats.max_groups)
    rd->stats.max_groups = ng;
  rd->nholes = 0;
  bool done = use_uring (rd, ng) && read_groups_uring (rd, sp, g, ng,
                                                       sorted, n);
  if (!done && rd->ring_lost)
    {
      /* The ring failed with reads the kernel may still complete: the
         arena and the scratch buffer are left to them, never freed, and
         the batch is read again into new ones.  */
      rd->arena = NULL;
      rd->arena_size = 0;
      rd->scratch = xmalloc (rd->scratch_size);
      free (g);
      free (sp);
      sp = make_spans (rd, sorted, n, &ns);
      g = make_groups (rd, sp, ns, &ng);
      /* Left once: later batches have their buffers to themselves.  */
      rd->ring_lost = false;
    }
  if (!done)
    for (size_t i = 0; i < ng; i++)
      if (sp[g[i].a].start < rd->eof)
        read_spans (rd, sp + g[i].a, g[i].b - g[i].a, sp[g[i].a].start,
                    sorted, n);
  free (g);
  free (sp);
}
