/* preadv-dump -- dump byte ranges of a file, read with preadv(2).

   SYNOPSIS: preadv-dump [OPTION]... [FILE [RANGE]...]

   The ranges are read in as few positioned, vectored calls as possible,
   then printed one by one in the order given.  Within a batch of ranges:
   overlapping and adjacent ranges merge into spans, each read once into
   memory; spans whose gaps are small (--gap) are read together, by one
   preadv whose iovecs point the spans at their buffers and the gaps at a
   scratch buffer (lib/ranges/span-read.h does the reading).  Ranges too long
   to hold in memory are streamed on their own, in chunks.  A pipe or a
   terminal is read once, in order, by read(2) (lib/ranges/stream.h).

   The options of xxd(1) that a dump can take are taken with the same
   letters and meanings: -p, -b, -e, -i, -u, -a, -d, -o, -s, -l, -R, -n,
   -C; lib/ranges/hexdump-xxd.h prints its formats.  */

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
#include "ranges/range-list.h"
#include "ranges/span-read.h"
#include "ranges/span-report.h"
#include "ranges/stream.h"
#include "ranges/xxd-args.h"
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
static char *seek_arg;
static char *len_arg;
static char *display_arg;
static char *color_arg;
static char *name_arg;
static char *ranges_from;
static struct xxd_seek seek;    /* -s and -l */
static int upper;
static int autoskip;
static int decimal;
static int capitalize;

/* The format, as the last of -f, -p, -b, -e and -i says.  */
static enum dump_format format = DUMP_XXD;
static bool little;
static bool xxd_c;

static struct poptOption tool_options[] = {
  { "format", 'f', POPT_ARG_STRING, &format_arg, 'f',
    "output format: xxd (the default), raw, c, json, plain, bits",
    "FORMAT" },
  { "cols", 'c', POPT_ARG_STRING, &cols_arg, 0,
    "N bytes per line (xxd: 16, at most 256; bits: 6, at most 256; c: 12; "
    "plain: 30, 0 for one line)", "N" },
  { "groupsize", 'g', POPT_ARG_STRING, &group_arg, 0,
    "N bytes per group of hex digits (xxd: 2, with -e 4; bits: 1; 0: one "
    "group)", "N" },
  { "plain", 'p', POPT_ARG_NONE, NULL, 'p',
    "the format plain, hex digits alone (xxd -p, -ps)", NULL },
  { "ps", '\0', POPT_ARG_NONE | POPT_ARGFLAG_ONEDASH | POPT_ARGFLAG_DOC_HIDDEN,
    NULL, 'p', NULL, NULL },
  { "bits", 'b', POPT_ARG_NONE, NULL, 'b',
    "the format bits, binary digits (xxd -b)", NULL },
  { "little-endian", 'e', POPT_ARG_NONE, NULL, 'e',
    "the format xxd, each group's bytes in reverse order (xxd -e)", NULL },
  { "include", 'i', POPT_ARG_NONE, NULL, 'i',
    "the format c as xxd -i writes it: no offset comment, no range number "
    "in the names of a single range", NULL },
  { "name", 'n', POPT_ARG_STRING, &name_arg, 0,
    "c: name the arrays after NAME, not FILE", "NAME" },
  { "capitalize", 'C', POPT_ARG_NONE, &capitalize, 0,
    "c: names in capitals, _LEN for _len", NULL },
  { "uppercase", 'u', POPT_ARG_NONE, &upper, 0,
    "hex digits A-F in upper case", NULL },
  { "autoskip", 'a', POPT_ARG_VAL | POPT_ARGFLAG_XOR, &autoskip, 1,
    "one line '*' for a run of lines of zeros (given twice: not)", NULL },
  { "decimal", 'd', POPT_ARG_NONE, &decimal, 0, "addresses in decimal", NULL },
  { "offset", 'o', POPT_ARG_STRING, &display_arg, 0,
    "add OFFSET to the addresses printed (-OFFSET: subtract it)",
    "OFFSET" },
  { "seek", 's', POPT_ARG_STRING, &seek_arg, 0,
    "dump from byte SEEK to the end (or -l LEN bytes) as xxd -s: +SEEK "
    "from where standard input stands, -SEEK back from the end", "SEEK" },
  { "len", 'l', POPT_ARG_STRING, &len_arg, 0,
    "dump LEN bytes (from SEEK, else from 0)", "LEN" },
  { "color", 'R', POPT_ARG_STRING, &color_arg, 0,
    "colour the formats xxd and bits by byte class: always, never or auto "
    "(the default: on a terminal, unless $NO_COLOR is set)", "WHEN" },
  { "ranges-from", '\0', POPT_ARG_STRING, &ranges_from, 0,
    "read more RANGEs from FILE, one a line (- for standard input)",
    "FILE" },
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
    "order given; with no RANGE, the whole file.  With no FILE, or -, "
    "standard input: a file is read at offsets, its own offset left "
    "alone; a pipe or a terminal is read once, in order.\n\n"
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
  bool as_xxd;                  /* -s and -l: the end is no failure */
};

/* The file, and its reader: where it ends (EOF) is the reader's.  */
static const char *file;
static int fd;
static bool size_known;
static struct span_reader rd;
/* Or, for a pipe or a terminal, read once, in order (PIPED).  */
static bool piped;
static struct stream_reader input;

/* Said at the end: the ranges cut short by the end.  */
static size_t n_short;

/* Output: a call of dump_data gives a multiple of this, but the last of
   a range.  */
static size_t unit;

/* FILE in a message.  */
static const char *
file_name (void)
{
  return strcmp (file, "-") == 0 ? "standard input" : quote_file (file);
}

/* ------------------------------------------------------------- reporting */

/* Whether the file has a byte before POS.  */
static bool
reaches (uint64_t pos)
{
  return piped ? input.pos >= pos : span_reaches (&rd, pos);
}

/* After range R was printed with GOT bytes; MISS_AT is where --nowait
   found the page cache missing, or UINT64_MAX.  */
static void
account (const struct range *r, uint64_t got, uint64_t miss_at)
{
  if (r->as_xxd)
    return;
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
  else if (got == 0 && (!reaches (r->at.offset)
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

/* A buffer of about CHUNK_BYTES for a range printed in pieces, its size
   in *SIZE, a multiple of UNIT.  */
static unsigned char *
chunk_buffer (size_t *size)
{
  static unsigned char *chunk;
  *size = unit < CHUNK_BYTES ? CHUNK_BYTES / unit * unit : unit;
  if (!chunk)
    chunk = xmalloc (*size);
  return chunk;
}

/* Dump a range too long to hold in memory, chunk by chunk.  */
static void
dump_stream (struct range *r)
{
  size_t chunk_size;
  unsigned char *chunk = chunk_buffer (&chunk_size);
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

/* Dump range R of the input read in order: the bytes before it thrown
   away, its own read and printed a chunk at a time.  */
static void
dump_piped_range (const struct range *r)
{
  size_t chunk_size;
  unsigned char *chunk = chunk_buffer (&chunk_size);
  static uint64_t dumped;
  bool reached = stream_skip_to (&input, r->at.offset, chunk, chunk_size);
  /* As xxd, which cannot seek there.  */
  if (!reached && r->as_xxd)
    error (EXIT_FAILURE, 0, "-s %s: %s ends before it (%llu bytes)",
           seek_arg, file_name (), (unsigned long long) input.pos);
  uint64_t got = stream_dump (&input, r->at.offset, r->index,
                              r->to_eof ? UINT64_MAX : r->want, chunk,
                              chunk_size);
  if (input.at_eof)
    rd.eof = input.pos;
  dumped += got;
  rd.stats.bytes = input.pos;
  rd.stats.gap_bytes = input.pos - dumped;
  account (r, got, UINT64_MAX);
}

/* Dump the N ranges at R from the pipe or terminal, which is read once:
   each must start at the end of the one before it or further.  */
static void
dump_piped (const struct range *r, size_t n)
{
  for (size_t i = 1; i < n; i++)
    if (r[i - 1].to_eof
        || r[i].at.offset < r[i - 1].at.offset + r[i - 1].want)
      cli_usage_error ("range %s starts before the end of range %s: %s "
                       "is a pipe or a terminal, read once, in order",
                       quote_file (r[i].arg), quote_file_n (1, r[i - 1].arg),
                       file_name ());
  stream_init (&input, fd, file_name ());
  for (size_t i = 0; i < n; i++)
    dump_piped_range (&r[i]);
}

/* ------------------------------------------------------------------ main */

/* The RANGE ARG into *NR, or a usage error naming it, and LINE_NO, its
   line of --ranges-from, if not 0.  */
static void
parse_range (const char *arg, struct nc_range *nr, size_t line_no)
{
  char buf[NC_NUMBER_MESSAGE_SIZE];
  const char *msg = nc_parse_range (arg, nr, buf);
  if (msg && line_no)
    cli_usage_error ("invalid range %s on line %zu of %s: %s",
                     quote_file (arg), line_no,
                     (strcmp (ranges_from, "-") == 0 ? "standard input"
                      : quote_file_n (1, ranges_from)), msg);
  if (msg)
    cli_usage_error ("invalid range %s: %s", quote_file (arg), msg);
}

/* A range popt took for an option: "-1:2".  */
static void
check_range_operand (const char *arg)
{
  struct nc_range nr;
  parse_range (arg, &nr, 0);
}

/* The option context, reachable from here until the exit: a usage
   error, or a FILE that cannot be opened or read, ends the process
   inside a function main calls, where LeakSanitizer would otherwise
   count what only main's frame held as leaked.  */
static poptContext ctx;

/* The options of ctx: the last of -f, -p, -b, -e and -i says the format,
   as the last of xxd's does.  */
static void
parse_options (void)
{
  int rc;
  while ((rc = cli_next_option_operands (ctx, check_range_operand)) >= 0)
    {
      if (rc == 'f')
        format = cli_keyword ("format", format_arg, dump_format_names);
      else
        format = (rc == 'p' ? DUMP_PLAIN : rc == 'b' ? DUMP_BITS
                  : rc == 'i' ? DUMP_C : DUMP_XXD);
      little = rc == 'e';
      xxd_c = rc == 'i';
    }
}

/* The output options, the dump started for N ranges: UNIT set.  */
static void
start_output (size_t n)
{
  struct dump_options opt = {
    .format = format, .file = file, .cols = -1, .group = -1,
    .little = little, .upper = upper, .autoskip = autoskip,
    .decimal = decimal, .color = xxd_want_color (color_arg), .xxd_c = xxd_c,
    .name = name_arg, .capitalize = capitalize, .ranges = n
  };
  if (cols_arg)
    opt.cols = cli_parse_number ("cols", "number of columns", cols_arg,
                                 dump_max_cols (format), NC_NUMBER_UNITS);
  if (group_arg)
    opt.group = cli_parse_number ("groupsize", "group size", group_arg,
                                  INT_MAX, NC_NUMBER_UNITS);
  if (display_arg)
    opt.display = xxd_display_offset (display_arg);
  const char *why = dump_check (&opt);
  if (why)
    cli_usage_error ("%s", why);
  unit = dump_start (&opt);
}

/* The ranges of the operands of ctx and of --ranges-from (in LIST), all
   checked before anything is read, *N of them; with none, the whole
   file.  */
static struct range *
get_ranges (struct range_list *list, size_t *n)
{
  const char **args = poptGetArgs (ctx);
  size_t nargs = 0;
  while (args && args[nargs])
    nargs++;
  *list = (struct range_list) { NULL, NULL, 0 };
  if (ranges_from)
    range_list_read (ranges_from, list);
  if ((seek_arg || len_arg) && nargs + list->n)
    cli_usage_error ("-s and -l give the one range to dump: they cannot be "
                     "used with RANGE operands or --ranges-from");
  *n = nargs + list->n;
  struct range *r = xnmalloc (*n ? *n : 1, sizeof *r);
  for (size_t i = 0; i < *n; i++)
    {
      struct nc_range nr;
      const char *arg = i < nargs ? args[i] : list->words[i - nargs];
      parse_range (arg, &nr, i < nargs ? 0 : list->line_nos[i - nargs]);
      r[i] = (struct range) { .at.offset = nr.offset, .arg = arg,
                              .index = i, .want = nr.length,
                              .to_eof = nr.to_eof };
    }
  if (*n == 0 && !seek_arg && !len_arg)
    r[(*n)++] = (struct range) { .arg = "0", .to_eof = true };
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

/* The warning about ranges cut short, --stats and --debug, for N
   ranges.  */
static void
report (size_t n)
{
  if (n_short)
    error (0, 0, "warning: %s: %zu %s cut short by the end of the file "
           "(%llu bytes)", file_name (), n_short,
           n_short == 1 ? "range" : "ranges", (unsigned long long) rd.eof);
  span_report (&rd, n, stats, debug, hipri);
}

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  ctx = cli_context (argc, argv, options, "[OPTION]... [FILE [RANGE]...]");
  parse_options ();
  file = poptGetArg (ctx);
  if (!file)
    file = "-";
  if (ranges_from && !strcmp (ranges_from, "-") && !strcmp (file, "-"))
    cli_usage_error ("standard input cannot be both FILE and the file of "
                     "--ranges-from");
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
  struct range_list list;
  struct range *r = get_ranges (&list, &n);
  xxd_parse_seek (seek_arg, len_arg, &seek);
  start_output (seek_arg || len_arg ? 1 : n);
  mode_t mode;
  uint64_t size = open_file (&mode);
  piped = (S_ISFIFO (mode) || S_ISSOCK (mode)
           || (S_ISCHR (mode) && isatty (fd)));
  if (seek_arg || len_arg)
    r[0] = (struct range) { .at.offset = xxd_seek_offset (&seek, fd,
                                                          file_name (),
                                                          size_known, size,
                                                          piped),
                            .arg = "-s", .want = seek.len,
                            .to_eof = !len_arg,
                            .as_xxd = true };
  n += seek_arg || len_arg;
  char *name = xstrdup (file_name ());
  span_reader_init (&rd, fd, mode, name, rw_flags, max_gap, engine);
  rd.eof = size;
  if (piped)
    dump_piped (r, n);
  else
    {
      bound_ranges (r, n);
      dump (r, n);
    }
  dump_finish ();
  report (n);
  span_reader_free (&rd);
  free (name);
  if (fd != STDIN_FILENO)
    sys_close (fd);
  free (r);
  range_list_free (&list);
  poptFreeContext (ctx);
  return cli_status;
}
