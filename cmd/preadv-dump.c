/* preadv-dump -- dump byte ranges of a file, read with preadv(2).

   SYNOPSIS: preadv-dump [OPTION]... FILE [RANGE]...

   The ranges are read in as few positioned, vectored calls as possible,
   then printed one by one in the order given.  Within a batch of ranges:
   overlapping and adjacent ranges merge into spans, each read once into
   memory; spans whose gaps are small (--gap) are read together, by one
   preadv whose iovecs point the spans at their buffers and the gaps at a
   scratch buffer (lib/ranges/span-read.h does the reading).  Ranges too long
   to hold in memory are streamed on their own, in chunks.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/common.h"
#include "error.h"
#include "progname.h"
#include "ranges/dumpfmt.h"
#include "ranges/operands.h"
#include "ranges/span-read.h"
#include "sys/calls.h"
#include "sys/consts.h"
#include "xalloc.h"

static char *format_arg;
static char *cols_arg;
static char *group_arg;
static char *gap_arg;
static int nowait;
static int hipri;
static int stats;
static char *engine_arg;
static int debug;

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
  { "engine", '\0', POPT_ARG_STRING, &engine_arg, 0,
    "read by auto (the default: io_uring where the ranges need many "
    "preadv calls), preadv or uring (io_uring; preadv where the kernel "
    "refuses it)", "ENGINE" },
  { "debug", '\0', POPT_ARG_NONE, &debug, 0,
    "say on standard error which engine read, and why", NULL },
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
  DEFAULT_GAP = 4 * 1024
};

/* One RANGE operand.  */
struct range
{
  /* Its OFFSET, LEN the bytes to read: WANT within the size; DATA its
     bytes once its batch is read.  First, for the sort.  */
  struct span_range at;
  const char *arg;              /* as given */
  size_t index;                 /* among the ranges, from 0 */
  uint64_t want;                /* bytes asked for; to EOF: up to the size */
  bool to_eof;
  bool unbounded;               /* to EOF, the size unknown */
};

/* The file, and its reader: where it ends (EOF) is the reader's.  */
static const char *file;
static int fd;
static bool size_known;
static struct span_reader rd;

/* Said at the end: the ranges cut short by the end.  */
static size_t n_short;

/* Output: bytes a line.  */
static int cols;

/* FILE in a message.  */
static const char *
file_name (void)
{
  return strcmp (file, "-") == 0 ? "standard input" : quote_file (file);
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
  else if (got == 0 && (!span_reaches (&rd, r->at.offset)
                        || (!r->to_eof && r->want > 0)))
    {
      dump_flush ();
      cli_fail (0, "%s: range %s is past the end of the file (%llu bytes)",
                file_name (), quote_file_n (1, r->arg),
                (unsigned long long) rd.eof);
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
  dump_begin (r->at.offset, r->index);
  uint64_t pos = r->at.offset;
  uint64_t left = r->unbounded ? UINT64_MAX : r->at.len;
  uint64_t miss_at = UINT64_MAX;
  while (left > 0 && pos < rd.eof && pos < NC_OFFSET_MAX)
    {
      uint64_t n = left < chunk_size ? left : chunk_size;
      if (n > NC_OFFSET_MAX - pos)
        n = NC_OFFSET_MAX - pos;
      uint64_t got = span_read_chunk (&rd, chunk, pos, n, &miss_at);
      if (got)
        dump_data (chunk, got);
      pos += got;
      left -= got;
      if (got < n)
        break;
    }
  dump_end (r->index, pos - r->at.offset);
  account (r, pos - r->at.offset, miss_at);
}

/* Print range R of a batch that was read: its bytes up to the end of the
   file or the first hole --nowait left in it.  */
static void
print_read_range (const struct range *r)
{
  uint64_t start = r->at.offset;
  uint64_t end = start + r->at.len;
  if (end > rd.eof)
    end = rd.eof > start ? rd.eof : start;
  uint64_t miss_at = span_first_missing (&rd, start, end);
  if (miss_at != UINT64_MAX)
    end = miss_at;
  dump_range (start, r->index, r->at.data, end - start);
  account (r, end - start, miss_at);
}

static int
compare_offsets (const void *a, const void *b)
{
  const struct span_range *x = *(struct span_range *const *) a;
  const struct span_range *y = *(struct span_range *const *) b;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Read the N ranges at R, none of them streamed, then dump them.  */
static void
dump_batch (struct range *r, size_t n)
{
  struct span_range **sorted = xnmalloc (n, sizeof *sorted);
  size_t ns = 0;
  for (size_t i = 0; i < n; i++)
    if (r[i].at.len > 0)
      sorted[ns++] = &r[i].at;
  qsort (sorted, ns, sizeof *sorted, compare_offsets);
  span_read_ranges (&rd, sorted, ns);
  /* Print, in the order given.  */
  for (size_t i = 0; i < n; i++)
    print_read_range (&r[i]);
  free (sorted);
}

static void
dump (struct range *r, size_t n)
{
  for (size_t i = 0; i < n;)
    {
      if (r[i].unbounded || r[i].at.len > STREAM_MIN)
        {
          dump_stream (&r[i++]);
          continue;
        }
      size_t j = i;
      uint64_t bytes = 0;
      while (j < n && !r[j].unbounded && r[j].at.len <= STREAM_MIN
             && r[j].at.len <= BATCH_BYTES - bytes)
        bytes += r[j++].at.len;
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
      r[i] = (struct range) { .at.offset = nr.offset, .arg = args[i],
                              .index = i, .want = nr.length,
                              .to_eof = nr.to_eof };
    }
  *n = nargs;
  return r;
}

/* Open FILE, and learn its size if it tells it: SIZE_KNOWN, and the size
   returned (UINT64_MAX if unknown); *MODE gets its type and mode.  */
static uint64_t
open_file (mode_t *mode)
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
  *mode = st.st_mode;
  uint64_t size;
  /* A regular file showing 0 bytes may be a /proc file: read to see.  */
  size_known = nc_file_size (fd, &st, &size)
               && !(S_ISREG (st.st_mode) && size == 0);
  return size_known ? size : UINT64_MAX;
}

/* What the N ranges at R are to read, within the size if it is known.  */
static void
bound_ranges (struct range *r, size_t n)
{
  uint64_t size = rd.eof;
  for (size_t i = 0; i < n; i++)
    {
      uint64_t offset = r[i].at.offset;
      if (r[i].to_eof)
        {
          r[i].unbounded = !size_known;
          r[i].want = size_known && offset < size ? size - offset : 0;
        }
      r[i].at.len = r[i].want;
      if (size_known)
        r[i].at.len = offset >= size ? 0
                      : r[i].want < size - offset ? r[i].want
                      : size - offset;
    }
}

/* " (WHY)", why the preadv engine read, into BUF of SIZE bytes: not
   chosen, io_uring failed.  */
static void
preadv_why (char *buf, size_t size)
{
  if (rd.uring_error)
    snprintf (buf, size, " (io_uring: %s)", strerror (-rd.uring_error));
  else if (rd.engine == SPAN_ENGINE_URING)
    snprintf (buf, size, " (no batch for io_uring: streamed or empty "
              "ranges)");
  else if (rd.engine == SPAN_ENGINE_PREADV)
    *buf = '\0';
  else if (hipri)
    snprintf (buf, size, " (auto: --hipri)");
  else if (rd.worker_only_fs && rd.stats.max_groups >= SPAN_URING_THRESHOLD)
    snprintf (buf, size, " (auto: %s)", rd.worker_only_fs);
  else
    snprintf (buf, size, " (auto: %llu %s, uring from %d)",
              (unsigned long long) rd.stats.max_groups,
              rd.stats.max_groups == 1 ? "call" : "calls",
              SPAN_URING_THRESHOLD);
}

/* The --debug line, for N ranges.  */
static void
report_engine (size_t n)
{
  const struct span_read_stats *st = &rd.stats;
  const char *ranges = n == 1 ? "range" : "ranges";
  const char *preadv = rd.rw_flags ? "preadv2" : "preadv";
  const char *calls = st->calls == 1 ? "call" : "calls";
  unsigned long long ncalls = st->calls;
  if (span_used_uring (&rd))
    {
      char then[256] = "";
      if (rd.uring_error)
        snprintf (then, sizeof then, " (then preadv: io_uring: %s)",
                  strerror (-rd.uring_error));
      char more[64] = "";
      if (ncalls)
        snprintf (more, sizeof more, ", %llu %s %s", ncalls, preadv, calls);
      error (0, 0, "engine uring%s: %zu %s, %llu %s, %llu io_uring_enter "
             "%s%s", then, n, ranges, (unsigned long long) st->uring.sqes,
             st->uring.sqes == 1 ? "SQE" : "SQEs",
             (unsigned long long) st->uring.enters,
             st->uring.enters == 1 ? "call" : "calls", more);
    }
  else
    {
      char why[256];
      preadv_why (why, sizeof why);
      error (0, 0, "engine preadv%s: %zu %s, %llu %s %s", why, n, ranges,
             ncalls, preadv, calls);
    }
}

/* The warning about ranges cut short, --stats and --debug, for N
   ranges.  */
static void
report (size_t n)
{
  if (n_short)
    error (0, 0, "warning: %s: %zu %s cut short by the end of the file "
           "(%llu bytes)", file_name (), n_short,
           n_short == 1 ? "range" : "ranges", (unsigned long long) rd.eof);
  const struct span_read_stats *st = &rd.stats;
  if (stats && span_used_uring (&rd))
    error (0, 0, "%s: %zu %s, %llu %s, %llu io_uring_enter %s, %llu %s "
           "%s, %llu iovecs, %llu bytes read (%llu of them in gaps)",
           file_name (), n, n == 1 ? "range" : "ranges",
           (unsigned long long) st->uring.sqes,
           st->uring.sqes == 1 ? "SQE" : "SQEs",
           (unsigned long long) st->uring.enters,
           st->uring.enters == 1 ? "call" : "calls",
           (unsigned long long) st->calls,
           rd.rw_flags ? "preadv2" : "preadv",
           st->calls == 1 ? "call" : "calls",
           (unsigned long long) st->iovecs, (unsigned long long) st->bytes,
           (unsigned long long) st->gap_bytes);
  else if (stats)
    error (0, 0, "%s: %zu %s, %llu %s %s, %llu iovecs, %llu bytes read "
           "(%llu of them in gaps)", file_name (), n,
           n == 1 ? "range" : "ranges", (unsigned long long) st->calls,
           rd.rw_flags ? "preadv2" : "preadv",
           st->calls == 1 ? "call" : "calls",
           (unsigned long long) st->iovecs, (unsigned long long) st->bytes,
           (unsigned long long) st->gap_bytes);
  if (debug)
    report_engine (n);
}

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  poptContext ctx = cli_context (argc, argv, options,
                                 "[OPTION]... FILE [RANGE]...");
  file = cli_file_operand (ctx, check_range_operand);
  start_output ();
  uint64_t max_gap = gap_arg ? cli_parse_size ("gap", gap_arg) : DEFAULT_GAP;
  enum span_engine engine = (engine_arg
                             ? cli_keyword ("engine", engine_arg,
                                            span_engine_names)
                             : SPAN_ENGINE_AUTO);
  if (engine == SPAN_ENGINE_URING && hipri)
    cli_usage_error ("--engine=uring cannot be used with --hipri: io_uring "
                     "polls only on an IOPOLL ring, for O_DIRECT files");
  int rw_flags = (nowait ? RWF_NOWAIT : 0) | (hipri ? RWF_HIPRI : 0);
  size_t n;
  struct range *r = get_ranges (ctx, &n);
  mode_t mode;
  uint64_t size = open_file (&mode);
  char *name = xstrdup (file_name ());
  span_reader_init (&rd, fd, mode, name, rw_flags, max_gap, engine);
  rd.eof = size;
  bound_ranges (r, n);
  dump (r, n);
  dump_finish ();
  report (n);
  span_reader_free (&rd);
  free (name);
  if (fd != STDIN_FILENO)
    sys_close (fd);
  free (r);
  poptFreeContext (ctx);
  return cli_status;
}
