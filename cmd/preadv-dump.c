/* preadv-dump -- dump byte ranges of a file, read with preadv(2).

   SYNOPSIS: preadv-dump [OPTION]... FILE [RANGE]...

   The ranges are read in as few positioned, vectored calls as possible,
   then printed one by one in the order given.  Within a batch of ranges:
   overlapping and adjacent ranges merge into spans, each read once into
   memory; spans whose gaps are small (--gap) are read together, by one
   preadv whose iovecs point the spans at their buffers and the gaps at a
   scratch buffer.  Ranges too long to hold in memory are streamed on
   their own, in chunks.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "cli.h"
#include "dumpfmt.h"
#include "error.h"
#include "linux-consts.h"
#include "progname.h"
#include "ranges.h"
#include "sys.h"
#include "xalloc.h"

static char *format_arg;
static char *cols_arg;
static char *group_arg;
static char *gap_arg;
static int nowait;
static int hipri;
static int stats;

static struct poptOption tool_options[] = {
  { "format", 'f', POPT_ARG_STRING, &format_arg, 0,
    "output format: xxd (the default), raw, c, json", "FORMAT" },
  { "cols", 'c', POPT_ARG_STRING, &cols_arg, 0,
    "N bytes per line, at most 256 (xxd: 16, c: 12)", "N" },
  { "groupsize", 'g', POPT_ARG_STRING, &group_arg, 0,
    "N bytes per group of hex digits (xxd: 2; 0: one group)", "N" },
  { "gap", '\0', POPT_ARG_STRING, &gap_arg, 0,
    "read spans at most N bytes apart by one call, the bytes between them "
    "discarded (default 4K; 0 reads each span by a call of its own)", "N" },
  { "nowait", '\0', POPT_ARG_NONE, &nowait, 0,
    "read only what is in the page cache (RWF_NOWAIT) and report the "
    "ranges that are not", NULL },
  { "hipri", '\0', POPT_ARG_NONE, &hipri, 0,
    "ask for high-priority, polled reads (RWF_HIPRI)", NULL },
  { "stats", '\0', POPT_ARG_NONE, &stats, 0,
    "print the number of calls and bytes read to standard error", NULL },
  POPT_TABLEEND
};

static struct poptOption options[] = {
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, tool_options, 0,
    "Dump byte ranges of FILE, read at their offsets by preadv(2), in the "
    "order given; with no RANGE, the whole file.  FILE - is standard "
    "input, which must be a file: its offset does not move.\n\n"
    "RANGE is OFFSET:LENGTH, OFFSET-END (END excluded) or OFFSET (to the "
    "end of FILE).  Numbers take a K, M, G, T suffix (KiB...; KB for 1000) "
    "or 0x for hex.\n"
    "Exit status: 0 success, 1 failure (a range past the end of FILE too), "
    "2 usage error.\n\nOptions:", NULL },
  CLI_COMMON_OPTIONS
};

/* Ranges at most this long are read in batches, each batch holding at
   most BATCH_BYTES; longer ones are streamed in chunks of about
   CHUNK_BYTES.  */
enum
{
  STREAM_MIN = 8 * 1024 * 1024,
  BATCH_BYTES = 64 * 1024 * 1024,
  CHUNK_BYTES = 1024 * 1024,
  SCRATCH_MAX = 1024 * 1024,
  DEFAULT_GAP = 4 * 1024,
  SEEK_BUF = 64 * 1024
};

/* One RANGE operand.  */
struct range
{
  const char *arg;              /* as given */
  size_t index;                 /* among the ranges, from 0 */
  uint64_t offset;
  uint64_t want;                /* bytes asked for; to EOF: up to the size */
  uint64_t len;                 /* bytes to read: WANT within the size */
  bool to_eof;
  bool unbounded;               /* to EOF, the size unknown */
  unsigned char *data;          /* its bytes, once its batch is read */
};

/* A run of the file read into one buffer: ranges merged.  */
struct span
{
  uint64_t start, end;
  unsigned char *buf;
};

/* The file.  */
static const char *file;
static int fd;
static bool size_known;
/* Where the file ends: its size, or what reads found; UINT64_MAX while
   unknown.  */
static uint64_t eof = UINT64_MAX;
/* The end of the bytes reads returned so far: the file ends no sooner.  */
static uint64_t data_end;
static int read_flags;

/* Reading.  */
static struct iovec iov[IOV_MAX];
static unsigned char *scratch;
static size_t scratch_size;
static uint64_t max_gap = DEFAULT_GAP;
/* Bytes --nowait found out of the page cache, not read: no buffer.  */
static struct span *holes;
static idx_t nholes, holes_alloc;

/* Said at the end: --stats, and the ranges cut short by the end.  */
static uint64_t n_calls, n_iovecs, n_read, n_gap;
static size_t n_short;

/* Output: bytes a line.  */
static int cols;

/* FILE in a message.  */
static const char *
file_name (void)
{
  return strcmp (file, "-") == 0 ? "standard input" : quote_file (file);
}

/* --------------------------------------------------------------- reading */

/* One positioned call reading the CNT buffers at V from POS, counted.  */
static ssize_t
read_at (const struct iovec *v, int cnt, uint64_t pos)
{
  ssize_t ret = (read_flags
                 ? sys_preadv2 (fd, v, cnt, pos, read_flags)
                 : sys_preadv (fd, v, cnt, pos));
  n_calls++;
  n_iovecs += cnt;
  if (ret > 0)
    {
      n_read += ret;
      if (pos + ret > data_end)
        data_end = pos + ret;
    }
  return ret;
}

static _Noreturn void
read_error (ssize_t ret)
{
  if (read_flags && (ret == -EOPNOTSUPP || ret == -ENOSYS))
    error (EXIT_FAILURE, -ret, "cannot read %s with preadv2 flags%s%s",
           file_name (), nowait ? " RWF_NOWAIT" : "",
           hipri ? " RWF_HIPRI" : "");
  error (EXIT_FAILURE, -ret, "error reading %s", file_name ());
  abort ();
}

/* A read at POS found nothing: the file ends there or before, where a
   size from fstat, if any, said otherwise (a /proc file shows 0 bytes, a
   sysfs file 4096).  Find the real end by reading on from DATA_END, the
   bytes read thrown away, and set EOF to it.  */
static void
find_end (uint64_t pos)
{
  static unsigned char *buf;
  uint64_t at = data_end < pos ? data_end : pos;
  while (at < pos)
    {
      if (!buf)
        buf = xmalloc (SEEK_BUF);
      struct iovec v = { buf, pos - at < SEEK_BUF ? pos - at : SEEK_BUF };
      ssize_t ret = read_at (&v, 1, at);
      if (ret > 0)
        {
          n_gap += ret;
          at += ret;
        }
      else if (ret == 0)
        break;
      else if (ret == -EAGAIN && nowait)
        {
          /* Not in the page cache: the end cannot be known without
             waiting; the file ends at POS for all this dump knows.  */
          at = pos;
          break;
        }
      else if (ret != -EINTR)
        read_error (ret);
    }
  eof = at;
}

/* Whether the file reaches POS.  With its end unknown, the byte before
   POS is read; if there is none, the real end is found.  */
static bool
reaches (uint64_t pos)
{
  if (pos <= data_end)
    return true;
  if (eof != UINT64_MAX)
    return pos <= eof;
  unsigned char byte;
  struct iovec v = { &byte, 1 };
  ssize_t ret;
  while ((ret = read_at (&v, 1, pos - 1)) == -EINTR)
    continue;
  if (ret == 0)
    find_end (pos - 1);
  else if (ret < 0 && !(ret == -EAGAIN && nowait))
    read_error (ret);
  return ret != 0;
}

/* Fill IOV for reading the file from POS up to the end of the last of the
   NS spans at SP, the first of which ends after POS; return the number
   of iovecs, at most IOV_MAX.  Bytes between spans go to SCRATCH.  */
static int
build_iov (const struct span *sp, size_t ns, uint64_t pos)
{
  int cnt = 0;
  for (size_t k = 0; k < ns && cnt < IOV_MAX; k++)
    {
      while (pos < sp[k].start && cnt < IOV_MAX)
        {
          uint64_t gap = sp[k].start - pos;
          size_t piece = gap < scratch_size ? gap : scratch_size;
          iov[cnt].iov_base = scratch;
          iov[cnt++].iov_len = piece;
          pos += piece;
        }
      if (cnt == IOV_MAX)
        break;
      iov[cnt].iov_base = sp[k].buf + (pos - sp[k].start);
      iov[cnt++].iov_len = sp[k].end - pos;
      pos = sp[k].end;
    }
  return cnt;
}

static int
compare_offsets (const void *a, const void *b)
{
  const struct range *x = *(struct range *const *) a;
  const struct range *y = *(struct range *const *) b;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The first of the N ranges at SORTED, in order of offset, that starts
   after POS, or UINT64_MAX.  */
static uint64_t
next_start (struct range *const *sorted, size_t n, uint64_t pos)
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
add_hole (uint64_t start, uint64_t end)
{
  if (nholes == holes_alloc)
    holes = xpalloc (holes, &holes_alloc, 1, -1, sizeof *holes);
  holes[nholes].start = start;
  holes[nholes++].end = end;
}

/* Read the NS spans at SP, in order of offset, by as few calls as
   possible: one, unless the kernel returns less than asked.  With
   --nowait, bytes not in the page cache are skipped up to the next start
   of one of the N ranges at SORTED, and recorded as a hole.  */
static void
read_spans (const struct span *sp, size_t ns, struct range *const *sorted,
            size_t n)
{
  uint64_t pos = sp[0].start;
  uint64_t end = sp[ns - 1].end;
  size_t k = 0;
  while (pos < end && pos < eof)
    {
      while (sp[k].end <= pos)
        k++;
      int cnt = build_iov (sp + k, ns - k, pos);
      ssize_t ret = read_at (iov, cnt, pos);
      if (ret > 0)
        {
          size_t left = ret;
          for (int i = 0; i < cnt && left > 0; i++)
            {
              size_t got = left < iov[i].iov_len ? left : iov[i].iov_len;
              if (iov[i].iov_base == scratch)
                n_gap += got;
              left -= got;
            }
          pos += ret;
        }
      else if (ret == 0)
        find_end (pos);
      else if (ret == -EINTR)
        continue;
      else if (ret == -EAGAIN && nowait)
        {
          uint64_t resume = next_start (sorted, n, pos);
          if (resume > end)
            resume = end;
          add_hole (pos, resume);
          pos = resume;
        }
      else
        read_error (ret);
    }
}

/* ------------------------------------------------------------- reporting */

/* After range R was printed with GOT bytes; MISS_AT is where --nowait
   found the page cache missing, or UINT64_MAX.  */
static void
account (const struct range *r, uint64_t got, uint64_t miss_at)
{
  if (miss_at != UINT64_MAX)
    {
      dump_flush ();
      if (got == 0)
        cli_fail (0, "%s: range %s is not in the page cache",
                  file_name (), quote_file_n (1, r->arg));
      else
        cli_fail (0, "%s: range %s is in the page cache only up to "
                  "byte %llu", file_name (), quote_file_n (1, r->arg),
                  (unsigned long long) miss_at);
    }
  else if (got == 0 && (!reaches (r->offset) || (!r->to_eof && r->want > 0)))
    {
      dump_flush ();
      cli_fail (0, "%s: range %s is past the end of the file (%llu bytes)",
                file_name (), quote_file_n (1, r->arg),
                (unsigned long long) eof);
    }
  else if (got < r->want && !r->to_eof)
    n_short++;
}

/* --------------------------------------------------------------- dumping */

/* Dump a range too long to hold in memory, chunk by chunk.  */
static void
dump_stream (struct range *r)
{
  static unsigned char *chunk;
  size_t chunk_size = CHUNK_BYTES / (3 * cols) * (3 * cols);
  if (!chunk)
    chunk = xmalloc (chunk_size);
  dump_begin (r->offset, r->index);
  uint64_t pos = r->offset;
  uint64_t left = r->unbounded ? UINT64_MAX : r->len;
  uint64_t miss_at = UINT64_MAX;
  while (left > 0 && pos < eof && pos < NC_OFFSET_MAX)
    {
      uint64_t n = left < chunk_size ? left : chunk_size;
      if (n > NC_OFFSET_MAX - pos)
        n = NC_OFFSET_MAX - pos;
      struct span s = { pos, pos + n, chunk };
      nholes = 0;
      read_spans (&s, 1, NULL, 0);
      uint64_t got_end = s.end < eof ? s.end : eof;
      if (nholes && holes[0].start < got_end)
        got_end = miss_at = holes[0].start;
      uint64_t got = got_end > pos ? got_end - pos : 0;
      if (got)
        dump_data (chunk, got);
      pos += got;
      left -= got;
      if (got < n)
        break;
    }
  dump_end (r->index, pos - r->offset);
  account (r, pos - r->offset, miss_at);
}

/* Merge the NS ranges at SORTED, in order of offset, into spans, laid
   out one after the other in an arena kept from batch to batch, and point
   each range at its bytes there.  Return the spans, *NSP of them.  */
static struct span *
make_spans (struct range *const *sorted, size_t ns, size_t *nsp)
{
  static unsigned char *arena;
  static size_t arena_size;
  struct span *sp = xnmalloc (ns ? ns : 1, sizeof *sp);
  size_t n = 0;
  size_t total = 0;
  for (size_t i = 0; i < ns; i++)
    {
      uint64_t start = sorted[i]->offset, end = start + sorted[i]->len;
      if (n > 0 && start <= sp[n - 1].end)
        {
          if (end > sp[n - 1].end)
            {
              total += end - sp[n - 1].end;
              sp[n - 1].end = end;
            }
        }
      else
        {
          sp[n].start = start;
          sp[n++].end = end;
          total += end - start;
        }
    }
  if (total > arena_size)
    {
      free (arena);
      arena = xmalloc (total);
      arena_size = total;
    }
  unsigned char *p = arena;
  for (size_t k = 0; k < n; k++)
    {
      sp[k].buf = p;
      p += sp[k].end - sp[k].start;
    }
  for (size_t i = 0, k = 0; i < ns; i++)
    {
      while (sp[k].end <= sorted[i]->offset)
        k++;
      sorted[i]->data = sp[k].buf + (sorted[i]->offset - sp[k].start);
    }
  *nsp = n;
  return sp;
}

/* Print range R of a batch that was read: its bytes up to the end of the
   file or the first hole --nowait left in it.  */
static void
print_read_range (const struct range *r)
{
  uint64_t start = r->offset;
  uint64_t end = start + r->len;
  uint64_t miss_at = UINT64_MAX;
  if (end > eof)
    end = eof > start ? eof : start;
  /* The first hole that ends after the start.  */
  idx_t lo = 0, hi = nholes;
  while (lo < hi)
    {
      idx_t mid = lo + (hi - lo) / 2;
      if (holes[mid].end <= start)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < nholes && holes[lo].start < end)
    end = miss_at = holes[lo].start > start ? holes[lo].start : start;
  dump_range (r->offset, r->index, r->data, end - start);
  account (r, end - start, miss_at);
}

/* Read the N ranges at R, none of them streamed, then dump them.  */
static void
dump_batch (struct range *r, size_t n)
{
  struct range **sorted = xnmalloc (n, sizeof *sorted);
  size_t ns = 0;
  for (size_t i = 0; i < n; i++)
    if (r[i].len > 0)
      sorted[ns++] = &r[i];
  qsort (sorted, ns, sizeof *sorted, compare_offsets);
  size_t nsp;
  struct span *sp = make_spans (sorted, ns, &nsp);

  /* Read: spans close enough, one call for as many as fit in IOV_MAX.  */
  nholes = 0;
  for (size_t a = 0, b; a < nsp; a = b)
    {
      size_t cnt = 1;
      for (b = a + 1; b < nsp; b++)
        {
          uint64_t gap = sp[b].start - sp[b - 1].end;
          if (gap > max_gap)
            break;
          uint64_t need = (gap + scratch_size - 1) / scratch_size + 1;
          if (need > IOV_MAX - cnt)
            break;
          cnt += need;
        }
      if (sp[a].start < eof)
        read_spans (sp + a, b - a, sorted, ns);
    }

  /* Print, in the order given.  */
  for (size_t i = 0; i < n; i++)
    print_read_range (&r[i]);
  free (sp);
  free (sorted);
}

static void
dump (struct range *r, size_t n)
{
  for (size_t i = 0; i < n;)
    {
      if (r[i].unbounded || r[i].len > STREAM_MIN)
        {
          dump_stream (&r[i++]);
          continue;
        }
      size_t j = i;
      uint64_t bytes = 0;
      while (j < n && !r[j].unbounded && r[j].len <= STREAM_MIN
             && r[j].len <= BATCH_BYTES - bytes)
        bytes += r[j++].len;
      dump_batch (r + i, j - i);
      i = j;
    }
}

/* ------------------------------------------------------------------ main */

/* The RANGE operand ARG into *NR; a bad one is a usage error.  */
static void
parse_range (const char *arg, struct nc_range *nr)
{
  char buf[NC_NUMBER_MESSAGE_SIZE];
  const char *msg = nc_parse_range (arg, nr, buf);
  if (msg)
    cli_usage_error ("invalid range %s: %s", quote_file (arg), msg);
}

/* A range popt took for an option: "-1:2".  */
static void
check_range_operand (const char *arg)
{
  struct nc_range nr;
  parse_range (arg, &nr);
}

/* The output options, the dump started: COLS set.  */
static void
start_output (void)
{
  enum dump_format format = (format_arg
                             ? cli_keyword ("format", format_arg,
                                            dump_format_names)
                             : DUMP_XXD);
  int cols_opt = (cols_arg
                  ? cli_parse_number ("cols", "number of columns", cols_arg,
                                      256, NC_NUMBER_UNITS)
                  : 0);
  int group_opt = (group_arg
                   ? (int) cli_parse_number ("groupsize", "group size",
                                             group_arg, INT_MAX,
                                             NC_NUMBER_UNITS)
                   : -1);
  cols = dump_start (format, cols_opt, group_opt, file);
}

/* The ranges of the operands of CTX, all checked before anything is read,
   *N of them; with no operand, the whole file.  */
static struct range *
get_ranges (poptContext ctx, size_t *n)
{
  static const char *const whole[] = { "0", NULL };
  const char **args = poptGetArgs (ctx);
  if (!args || !args[0])
    args = (const char **) whole;
  size_t nargs = 0;
  while (args[nargs])
    nargs++;
  struct range *r = xnmalloc (nargs, sizeof *r);
  for (size_t i = 0; i < nargs; i++)
    {
      struct nc_range nr;
      parse_range (args[i], &nr);
      r[i] = (struct range) { .arg = args[i], .index = i,
                              .offset = nr.offset, .want = nr.length,
                              .to_eof = nr.to_eof };
    }
  *n = nargs;
  return r;
}

/* Open FILE, and learn its size if it tells it: SIZE_KNOWN and EOF.  */
static void
open_file (void)
{
  /* Standard input is read where it is, its offset left alone.  */
  fd = (strcmp (file, "-") == 0 ? STDIN_FILENO
        : sys_openat (AT_FDCWD, file, O_RDONLY | O_CLOEXEC, 0));
  if (fd < 0)
    error (EXIT_FAILURE, -fd, "cannot open %s", file_name ());
  struct stat st;
  int ret = sys_fstat (fd, &st);
  if (ret == 0 && S_ISDIR (st.st_mode))
    ret = -EISDIR;
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "error reading %s", file_name ());
  uint64_t size;
  /* A regular file showing 0 bytes may be a /proc file: read to see.  */
  size_known = nc_file_size (fd, &st, &size)
               && !(S_ISREG (st.st_mode) && size == 0);
  if (size_known)
    eof = size;
}

/* What the N ranges at R are to read, within the size if it is known.  */
static void
bound_ranges (struct range *r, size_t n)
{
  uint64_t size = eof;
  for (size_t i = 0; i < n; i++)
    {
      if (r[i].to_eof)
        {
          r[i].unbounded = !size_known;
          r[i].want = size_known && r[i].offset < size ? size - r[i].offset : 0;
        }
      r[i].len = r[i].want;
      if (size_known)
        r[i].len = r[i].offset >= size ? 0
                   : r[i].want < size - r[i].offset ? r[i].want
                   : size - r[i].offset;
    }
}

/* The warning about ranges cut short, and --stats, for N ranges.  */
static void
report (size_t n)
{
  if (n_short)
    error (0, 0, "warning: %s: %zu %s cut short by the end of the file "
           "(%llu bytes)", file_name (), n_short,
           n_short == 1 ? "range" : "ranges", (unsigned long long) eof);
  if (stats)
    error (0, 0, "%s: %zu %s, %llu %s %s, %llu iovecs, %llu bytes read "
           "(%llu of them in gaps)", file_name (), n,
           n == 1 ? "range" : "ranges", (unsigned long long) n_calls,
           read_flags ? "preadv2" : "preadv", n_calls == 1 ? "call" : "calls",
           (unsigned long long) n_iovecs, (unsigned long long) n_read,
           (unsigned long long) n_gap);
}

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  poptContext ctx = cli_context (argc, argv, options,
                                 "[OPTION]... FILE [RANGE]...");
  file = cli_file_operand (ctx, check_range_operand);
  start_output ();
  if (gap_arg)
    max_gap = cli_parse_size ("gap", gap_arg);
  read_flags = (nowait ? RWF_NOWAIT : 0) | (hipri ? RWF_HIPRI : 0);
  size_t n;
  struct range *r = get_ranges (ctx, &n);
  open_file ();
  bound_ranges (r, n);

  scratch_size = max_gap < SCRATCH_MAX ? (max_gap ? max_gap : 1)
                 : SCRATCH_MAX;
  scratch = xmalloc (scratch_size);
  dump (r, n);
  dump_finish ();
  report (n);
  if (fd != STDIN_FILENO)
    sys_close (fd);
  free (r);
  poptFreeContext (ctx);
  return cli_status;
}
