/* pwritev-patch -- write byte patches into a file with pwritev(2), or
   all of them in one io_uring submission.

   SYNOPSIS: pwritev-patch [OPTION]... FILE PATCH...

   Every patch is checked before a byte is written: the syntax, the data
   files, overlaps, the end of the file.  Patches that follow each other
   without a gap go out together, one pwritev (or one WRITEV SQE) whose
   iovecs gather them; bytes between patches are never written.  All or
   nothing, also when a write fails: ranges/patch-write.h, which writes
   them.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/common.h"
#include "cli/features.h"
#include "error.h"
#include "progname.h"
#include "ranges/operands.h"
#include "ranges/patch-write.h"
#include "safe-read.h"
#include "sys/calls.h"
#include "xalloc.h"

/* --engine=auto takes io_uring from this many runs (one pwritev call
   each, otherwise) up: below it, setting up a ring costs more than the
   calls it saves (measured: man/pwritev-patch.1, NOTES).  */
#define URING_MIN_RUNS 16
#define STRINGIFY(x) #x
#define NUMBER_TEXT(x) STRINGIFY (x)

enum engine { ENGINE_AUTO, ENGINE_PWRITEV, ENGINE_URING };

static int extend;
static int dry_run;
static int sync_writes;
static int stats;
static int debug;
static enum engine engine = ENGINE_AUTO;

enum { OPT_ENGINE = 1 };

static struct poptOption tool_options[] = {
  { "extend", 'e', POPT_ARG_NONE, &extend, 0,
    "allow patches past the end of FILE, which then grows", NULL },
  { "dry-run", 'n', POPT_ARG_NONE, &dry_run, 0,
    "show the bytes before and after each patch; write nothing", NULL },
  { "sync", '\0', POPT_ARG_NONE, &sync_writes, 0,
    "write with RWF_DSYNC (io_uring: one fdatasync linked after the "
    "writes): every patch is on the disk before the exit", NULL },
  { "engine", '\0', POPT_ARG_STRING, NULL, OPT_ENGINE,
    "pwritev (one call per run of touching patches), uring (io_uring: "
    "every run in one submission, or pwritev where the kernel refuses "
    "it) or auto (the default: uring from "
    NUMBER_TEXT (URING_MIN_RUNS) " runs on)", "ENGINE" },
  { "stats", '\0', POPT_ARG_NONE, &stats, 0,
    "print the number of calls and bytes written to standard error", NULL },
  { "debug", '\0', POPT_ARG_NONE, &debug, 0,
    "tell on standard error which engine wrote, why, and its calls", NULL },
  POPT_TABLEEND
};

static struct poptOption options[] = {
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, tool_options, 0,
    "Write each PATCH into FILE at its offset with pwritev(2), patches "
    "that touch one another by one call, or with io_uring, every call in "
    "one submission.\n\n"
    "PATCH is OFFSET=HEXBYTES (pairs of hex digits, which ':', '_' or a "
    "space may separate) or OFFSET@DATAFILE (the contents of DATAFILE; - "
    "for standard input).  " CLI_SIZE_SYNTAX ("OFFSET") "\n"
    "Every patch is checked before the first write.  The bytes the patches "
    "replace are read first: if a write fails, those written are put back "
    "and FILE is as it was (a crash in the middle can leave some patches "
    "written).\n"
    "Exit status: 0 success, 1 failure, 2 usage error (overlapping patches "
    "too).\n\nOptions:", NULL },
  CLI_COMMON_OPTIONS
};

/* The patches and how they are written.  Reachable to the end, for leak
   checkers, whichever way the tool exits.  */
static struct nc_patch_plan plan;

/* Why the engine is pwritev, for --debug ("" if it was asked for).  */
static char pwritev_why[128];

/* The second file name of a message, beside FILE's.  */
#define quote_patch(p) quote_file_n (1, (p)->arg)

/* The whole contents of NAME, - for standard input, in *LEN bytes.  */
static unsigned char *
read_data_file (const char *name, size_t *len)
{
  bool is_stdin = strcmp (name, "-") == 0;
  int dfd = is_stdin ? STDIN_FILENO
            : sys_openat (AT_FDCWD, name, O_RDONLY | O_CLOEXEC, 0);
  if (dfd < 0)
    error (EXIT_FAILURE, -dfd, "cannot open %s", quote_file (name));
  idx_t alloc = 0;
  unsigned char *buf = NULL;
  size_t n = 0;
  for (;;)
    {
      if (alloc - n < 4096)
        buf = xpalloc (buf, &alloc, 65536, -1, 1);
      size_t got = safe_read (dfd, buf + n, alloc - n);
      if (got == SAFE_READ_ERROR)
        error (EXIT_FAILURE, errno, "error reading %s", quote_file (name));
      if (got == 0)
        break;
      n += got;
    }
  if (!is_stdin)
    sys_close (dfd);
  *len = n;
  return buf;
}

static int
compare_offsets (const void *a, const void *b)
{
  const struct nc_patch *x = *(struct nc_patch *const *) a;
  const struct nc_patch *y = *(struct nc_patch *const *) b;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* xxd-style lines of the N bytes at B, file offset OFFSET, each line
   after PREFIX.  */
static void
show_bytes (const char *prefix, uint64_t offset, const unsigned char *b,
            size_t n)
{
  for (size_t i = 0; i < n; i += 16)
    {
      size_t m = n - i < 16 ? n - i : 16;
      printf ("%s%08llx: ", prefix, (unsigned long long) (offset + i));
      for (size_t j = 0; j < 16; j++)
        {
          if (j < m)
            printf ("%02x", b[i + j]);
          else
            fputs ("  ", stdout);
          if (j % 2 == 1)
            putchar (' ');
        }
      putchar (' ');
      for (size_t j = 0; j < m; j++)
        putchar (b[i + j] >= 0x20 && b[i + j] < 0x7f ? b[i + j] : '.');
      putchar ('\n');
    }
}

/* Report the usage error MSG about the patch ARG.  */
static _Noreturn void
patch_error (const char *arg, const char *msg)
{
  cli_usage_error ("invalid patch %s: %s", quote_file (arg), msg);
}

/* A patch popt took for an option: "-1=aa".  */
static void
check_patch_operand (const char *arg)
{
  uint64_t offset;
  char buf[NC_NUMBER_MESSAGE_SIZE];
  const char *msg = nc_parse_offset (arg, strcspn (arg, "=@"), &offset, buf);
  if (msg)
    patch_error (arg, msg);
}

/* The N patch operands ARGS into plan.patches: their syntax first, then
   the data files.  */
static void
parse_patches (const char **args, size_t n)
{
  plan.patches = xcalloc (n, sizeof *plan.patches);
  plan.n = n;
  bool stdin_used = false;
  for (size_t i = 0; i < n; i++)
    {
      struct nc_patch *p = &plan.patches[i];
      const char *arg = args[i];
      size_t oplen = strcspn (arg, "=@");
      const char *msg;
      char buf[NC_NUMBER_MESSAGE_SIZE];
      p->arg = arg;
      if (arg[oplen] == '\0')
        patch_error (arg, "OFFSET=HEXBYTES or OFFSET@DATAFILE expected");
      msg = nc_parse_offset (arg, oplen, &p->offset, buf);
      if (!msg && arg[oplen] == '=')
        msg = nc_parse_hex (arg, oplen + 1, &p->bytes, &p->len, buf);
      else if (!msg && arg[oplen + 1] == '\0')
        msg = "missing data file";
      else if (!msg && strcmp (arg + oplen + 1, "-") == 0)
        {
          if (stdin_used)
            msg = "standard input can be read only once";
          stdin_used = true;
        }
      if (msg)
        patch_error (arg, msg);
    }
  for (size_t i = 0; i < n; i++)
    {
      struct nc_patch *p = &plan.patches[i];
      const char *sep = p->arg + strcspn (p->arg, "=@");
      if (*sep == '@')
        p->bytes = read_data_file (sep + 1, &p->len);
      if (p->len > NC_OFFSET_MAX - p->offset)
        patch_error (p->arg, "it ends past the largest file offset");
    }
}

/* plan.sorted, and a usage error if two patches overlap (found in order
   of offset; empty patches touch nothing).  */
static void
sort_patches (void)
{
  plan.sorted = xnmalloc (plan.n, sizeof *plan.sorted);
  plan.ns = 0;
  for (size_t i = 0; i < plan.n; i++)
    if (plan.patches[i].len > 0)
      plan.sorted[plan.ns++] = &plan.patches[i];
  qsort (plan.sorted, plan.ns, sizeof *plan.sorted, compare_offsets);
  for (size_t i = 1; i < plan.ns; i++)
    {
      struct nc_patch *a = plan.sorted[i - 1], *b = plan.sorted[i];
      if (a->offset + a->len > b->offset)
        {
          /* Name them in the order given.  */
          if (a > b)
            a = plan.sorted[i], b = plan.sorted[i - 1];
          error (EXIT_USAGE, 0, "patches %s and %s overlap; nothing written",
                 quote_file (a->arg), quote_patch (b));
        }
    }
}

/* Open FILE into plan.fd, its status in *ST; return whether its size is
   known, and store it in *SIZE.  A patch past the end is a failure
   without --extend.  */
static bool
open_file (struct stat *st, uint64_t *size)
{
  const char *file = plan.file;
  int fd = sys_openat (AT_FDCWD, file,
                       (dry_run ? O_RDONLY : O_RDWR) | O_CLOEXEC, 0);
  if (fd < 0)
    error (EXIT_FAILURE, -fd, "cannot open %s", quote_file (file));
  plan.fd = fd;
  int ret = sys_fstat (fd, st);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot stat %s", quote_file (file));
  *size = 0;
  bool size_known = nc_file_size (fd, st, size);
  if (size_known && !extend)
    for (size_t i = 0; i < plan.n; i++)
      {
        const struct nc_patch *p = &plan.patches[i];
        if (p->len > 0 && p->offset + p->len > *size)
          error (EXIT_FAILURE, 0, "%s: patch %s ends past the end of the "
                 "file (%llu bytes); --extend allows it; nothing written",
                 quote_file (file), quote_patch (p),
                 (unsigned long long) *size);
      }
  return size_known;
}

/* --dry-run: each patch, the bytes before and after; the file's SIZE, if
   SIZE_KNOWN, to tell which ones extend it.  */
static void
show_dry_run (bool size_known, uint64_t size)
{
  uint64_t bytes = 0;
  for (size_t i = 0; i < plan.n; i++)
    {
      struct nc_patch *p = &plan.patches[i];
      size_t k = 0;
      while (k < plan.ns && plan.sorted[k] != p)
        k++;
      printf ("patch %s: %zu %s at %llu (0x%llx)\n",
              quote_file (p->arg), p->len, p->len == 1 ? "byte" : "bytes",
              (unsigned long long) p->offset,
              (unsigned long long) p->offset);
      if (k < plan.ns)
        {
          show_bytes ("- ", p->offset, plan.before[k], plan.got[k]);
          show_bytes ("+ ", p->offset, p->bytes, p->len);
          if (size_known && p->offset + p->len > size)
            printf ("  (the file ends at byte %llu: this patch extends "
                    "it)\n", (unsigned long long) size);
        }
      bytes += p->len;
    }
  bool uring = plan.engine == NC_PATCH_URING;
  printf ("dry run: %zu %s, %llu bytes, %llu %s %s; %s not changed\n",
          plan.n, plan.n == 1 ? "patch" : "patches",
          (unsigned long long) bytes, (unsigned long long) plan.nr,
          uring ? "io_uring" : "pwritev",
          uring ? (plan.nr == 1 ? "write" : "writes")
          : (plan.nr == 1 ? "call" : "calls"), quote_file (plan.file));
}

/* --engine=ENGINE.  */
static enum engine
parse_engine (const char *arg)
{
  static const char *const words[] = { "auto", "pwritev", "uring", NULL };
  return cli_keyword ("engine", arg, words);
}

/* The options, and FILE, the first operand, into plan.file.  */
static void
parse_options (poptContext ctx)
{
  int opt;
  while ((opt = cli_next_option_operands (ctx, check_patch_operand)) >= 0)
    if (opt == OPT_ENGINE)
      {
        char *arg = poptGetOptArg (ctx);
        engine = parse_engine (arg);
        free (arg);
      }
  plan.file = poptGetArg (ctx);
  if (!plan.file)
    cli_usage_error ("missing file operand");
}

/* The engine, as --engine says, for a file of MODE: auto takes io_uring
   for URING_MIN_RUNS runs or more; a file that is not a regular file or
   a block device, or a ring that cannot be set up, leaves pwritev, and
   why in pwritev_why.  */
static void
choose_engine (mode_t mode)
{
  if (engine == ENGINE_PWRITEV)
    return;
  /* io_uring takes the offset of a pipe's or a terminal's request as
     meaningless, where preadv and pwritev refuse it (ESPIPE).  */
  if (!S_ISREG (mode) && !S_ISBLK (mode))
    {
      snprintf (pwritev_why, sizeof pwritev_why,
                "io_uring: not a regular file or block device");
      return;
    }
  if (engine == ENGINE_AUTO && plan.nr < URING_MIN_RUNS)
    {
      snprintf (pwritev_why, sizeof pwritev_why, "auto: %zu %s, uring from %d",
                plan.nr, plan.nr == 1 ? "run" : "runs", URING_MIN_RUNS);
      return;
    }
  int err = nc_patch_use_uring (&plan);
  if (err < 0)
    snprintf (pwritev_why, sizeof pwritev_why, "io_uring: %s",
              strerror (-err));
}

/* --stats, after a success: the writes of the N patches.  */
static void
print_stats (size_t n)
{
  const struct nc_patch_counts *w = &plan.write;
  const char *file = quote_file (plan.file);
  const char *patches = n == 1 ? "patch" : "patches";
  if (plan.engine == NC_PATCH_URING)
    error (0, 0, "%s: %zu %s, %llu %s, %llu io_uring_enter %s, %llu iovecs, "
           "%llu bytes written", file, n, patches,
           (unsigned long long) w->calls, w->calls == 1 ? "SQE" : "SQEs",
           (unsigned long long) w->enters, w->enters == 1 ? "call" : "calls",
           (unsigned long long) w->iovecs, (unsigned long long) w->bytes);
  else
    error (0, 0, "%s: %zu %s, %llu %s %s, %llu iovecs, %llu bytes written",
           file, n, patches, (unsigned long long) w->calls,
           sync_writes ? "pwritev2" : "pwritev",
           w->calls == 1 ? "call" : "calls", (unsigned long long) w->iovecs,
           (unsigned long long) w->bytes);
}

/* --debug: the engine, why, and the calls of the N patches (reads and
   writes; an undo's are not counted).  */
static void
print_debug (size_t n)
{
  const struct nc_patch_counts *r = &plan.read, *w = &plan.write;
  uint64_t calls = r->calls + w->calls;
  const char *patches = n == 1 ? "patch" : "patches";
  const char *runs = plan.nr == 1 ? "run" : "runs";
  if (plan.engine == NC_PATCH_URING)
    error (0, 0, "engine uring: %zu %s, %zu %s, %llu %s, %llu io_uring_enter "
           "%s", n, patches, plan.nr, runs, (unsigned long long) calls,
           calls == 1 ? "SQE" : "SQEs",
           (unsigned long long) (r->enters + w->enters),
           r->enters + w->enters == 1 ? "call" : "calls");
  else
    error (0, 0, "engine pwritev%s%s%s: %zu %s, %zu %s, %llu preadv %s, "
           "%llu %s %s", *pwritev_why ? " (" : "", pwritev_why,
           *pwritev_why ? ")" : "", n, patches, plan.nr, runs,
           (unsigned long long) r->calls, r->calls == 1 ? "call" : "calls",
           (unsigned long long) w->calls,
           sync_writes ? "pwritev2" : "pwritev",
           w->calls == 1 ? "call" : "calls");
}

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  poptContext ctx = cli_context (argc, argv, options,
                                 "[OPTION]... FILE PATCH...");
  parse_options (ctx);
  size_t n = 0;
  const char **args = poptGetArgs (ctx);
  while (args && args[n])
    n++;
  /* Nothing to write is a slip (the patches forgotten, or FILE taken
     for one), not a success.  */
  if (n == 0)
    cli_usage_error ("missing patch operand after %s",
                     quote_file (plan.file));

  parse_patches (args, n);
  sort_patches ();
  struct stat st;
  uint64_t size;
  bool size_known = open_file (&st, &size);
  plan.sync = sync_writes;
  nc_patch_plan_runs (&plan);
  choose_engine (st.st_mode);
  int ret = nc_patch_read_old (&plan);
  if (plan.uring_error < 0)
    snprintf (pwritev_why, sizeof pwritev_why, "io_uring: %s",
              strerror (-plan.uring_error));
  if (ret < 0 && dry_run)
    error (EXIT_FAILURE, -ret, "error reading %s", quote_file (plan.file));
  if (ret < 0)
    error (EXIT_FAILURE, 0, "error reading %s: %s; nothing written",
           quote_file (plan.file), cli_call_strerror ("preadv", ret));
  if (dry_run)
    show_dry_run (size_known, size);
  else
    nc_patch_write (&plan, size_known && S_ISREG (st.st_mode), size);
  if (stats && cli_status == EXIT_SUCCESS)
    print_stats (n);
  if (debug)
    print_debug (n);
  ret = sys_close (plan.fd);
  if (ret < 0 && cli_status == EXIT_SUCCESS)
    error (EXIT_FAILURE, -ret, "error writing %s", quote_file (plan.file));
  nc_patch_plan_free (&plan);
  poptFreeContext (ctx);
  return cli_status;
}
