/* pwritev-patch -- write byte patches into a file with pwritev(2), or
   all of them in one io_uring submission.

   SYNOPSIS: pwritev-patch [OPTION]... FILE PATCH...
             pwritev-patch --from-xxd [OPTION]... FILE [DUMP]
             pwritev-patch --recover FILE

   Every patch is checked before a byte is written: the syntax, the data
   files, overlaps, the end of the file.  Patches that follow each other
   without a gap go out together, one pwritev (or one WRITEV SQE) whose
   iovecs gather them; bytes between patches are never written.  All or
   nothing, also when a write fails: ranges/patch-write.h, which writes
   them.  Runs on one file take turns, by a lock taken before its
   journal is looked at: ranges/patch-lock.h.  */

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
#include "ranges/journal.h"
#include "ranges/operands.h"
#include "ranges/patch-lock.h"
#include "ranges/patch-show.h"
#include "ranges/patch-write.h"
#include "ranges/read-all.h"
#include "ranges/xxd-parse.h"
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
static int from_xxd;
static int plain_dump;
static int dump_cols = NC_XXD_DEFAULT_COLS;
static int64_t dump_base;
static int journal = -1;        /* -1: as --sync says */
static int recover;
static int wait_lock;

enum { OPT_ENGINE = 1, OPT_COLS, OPT_SEEK };

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
  { "journal", '\0', POPT_ARG_VAL, &journal, 1,
    "keep the bytes the patches replace in a journal beside FILE, synced "
    "before the first write (the default with --sync): a crash leaves "
    "FILE wholly old or wholly new once the next run has recovered it",
    NULL },
  { "no-journal", '\0', POPT_ARG_VAL, &journal, 0,
    "keep no journal, also with --sync", NULL },
  { "recover", '\0', POPT_ARG_NONE, &recover, 0,
    "put back the old bytes of FILE's journal, if an interrupted patch "
    "left one, and write nothing else (every run on FILE does that "
    "first)", NULL },
  { "wait", '\0', POPT_ARG_NONE, &wait_lock, 0,
    "if another pwritev-patch is on FILE, wait for its end instead of "
    "failing", NULL },
  { "from-xxd", '\0', POPT_ARG_NONE, &from_xxd, 0,
    "the patches are an xxd dump, read from DUMP or standard input as "
    "xxd -r reads it (FILE grows where the dump goes past its end)", NULL },
  { "plain", 'p', POPT_ARG_NONE, &plain_dump, 0,
    "--from-xxd: a plain dump (xxd -p): hex digits only, from offset 0",
    NULL },
  { "cols", 'c', POPT_ARG_STRING, NULL, OPT_COLS,
    "--from-xxd: read at most N bytes a line of a normal dump, as xxd -r "
    "-c (1 to 256, default 16)", "N" },
  { "base", 's', POPT_ARG_STRING, NULL, OPT_SEEK,
    "--from-xxd: add OFFSET (negative with -) to the dump's offsets, as "
    "xxd -r -s", "[+][-]OFFSET" },
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
    "and FILE is as it was; with --journal (or --sync), also after a "
    "crash, once the next run on FILE has found the journal.\n"
    "Exit status: 0 success, 1 failure, 2 usage error (overlapping patches "
    "too) or FILE locked by another run.\n\nOptions:", NULL },
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
  unsigned char *buf;
  int err = nc_read_all (dfd, &buf, len);
  if (err < 0)
    error (EXIT_FAILURE, -err, "error reading %s", quote_file (name));
  if (!is_stdin)
    sys_close (dfd);
  return buf;
}

static int
compare_offsets (const void *a, const void *b)
{
  const struct nc_patch *x = *(struct nc_patch *const *) a;
  const struct nc_patch *y = *(struct nc_patch *const *) b;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
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

/* The names of the patches of a dump, "line N", in one block.  */
static char *dump_patch_names;

/* --from-xxd: the dump in NAME (- for standard input) into plan.patches,
   a patch for each run of bytes that follow one another.  */
static void
load_dump (const char *name)
{
  size_t len, line;
  unsigned char *text = read_data_file (name, &len);
  const char *what = (strcmp (name, "-") == 0 ? "standard input"
                      : quote_file (name));
  struct nc_xxd_dump dump = { .plain = plain_dump, .cols = dump_cols,
                              .base = dump_base };
  const char *msg = nc_xxd_parse (text, len, &dump, &line);
  free (text);
  if (msg)
    cli_usage_error ("%s: line %zu: %s; nothing written", what, line, msg);
  const struct nc_xxd_chunk *a, *b;
  if (nc_xxd_overlap (&dump, &a, &b))
    cli_usage_error ("%s: lines %zu and %zu both write the byte at %llu; "
                     "nothing written", what, a->line, b->line,
                     (unsigned long long) (b->offset > a->offset
                                           ? b->offset : a->offset));
  enum { NAME_SIZE = sizeof "line " + 20 };
  plan.n = dump.n;
  plan.patches = xcalloc (dump.n ? dump.n : 1, sizeof *plan.patches);
  dump_patch_names = xnmalloc (dump.n ? dump.n : 1, NAME_SIZE);
  for (size_t i = 0; i < dump.n; i++)
    {
      struct nc_xxd_chunk *c = &dump.chunks[i];
      char *arg = dump_patch_names + i * NAME_SIZE;
      snprintf (arg, NAME_SIZE, "line %zu", c->line);
      plan.patches[i] = (struct nc_patch) { .arg = arg, .offset = c->offset,
                                            .bytes = c->bytes,
                                            .len = c->len };
      c->bytes = NULL;
    }
  nc_xxd_free (&dump);
  /* xxd -r writes past the end of the file as well.  */
  extend = 1;
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

/* FILE's journal; JOURNAL_FILE when it keeps one.  */
static struct nc_journal file_journal = { .dirfd = -1 };

/* The status of plan.fd in *ST.  */
static void
stat_file (struct stat *st)
{
  int ret = sys_fstat (plan.fd, st);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot stat %s", quote_file (plan.file));
}

/* Lock plan.fd against other runs on FILE (ranges/patch-lock.h), for
   reading only under --dry-run.  */
static void
lock_file (void)
{
  int err = nc_patch_lock (plan.fd, plan.file, !dry_run, wait_lock);
  if (err < 0 && debug)
    error (0, -err, "%s: not locked against other runs",
           quote_file (plan.file));
}

/* Open FILE into plan.fd and lock it, its status in *ST, after putting
   back what a journal left there says; return whether its size is
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
  /* Before the journal is looked at, and the status taken: a run waited
     for may have changed both.  */
  lock_file ();
  stat_file (st);
  /* Only a regular file has a journal: --journal refuses others.  */
  if (S_ISREG (st->st_mode))
    {
      nc_journal_init (&file_journal, file);
      if (nc_journal_recover (&file_journal, fd, st, dry_run))
        stat_file (st);
    }
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

/* Whether to keep a journal for a file of mode MODE: --journal
   (refused for a file that is not a regular one), --sync.  */
static bool
keeps_journal (mode_t mode)
{
  if (journal == 1 && !S_ISREG (mode))
    error (EXIT_FAILURE, 0, "%s: --journal needs a regular file; nothing "
           "written", quote_file (plan.file));
  return (journal == 1 || (journal == -1 && sync_writes)) && S_ISREG (mode)
    && plan.nr > 0;
}

/* --engine=ENGINE.  */
static enum engine
parse_engine (const char *arg)
{
  static const char *const words[] = { "auto", "pwritev", "uring", NULL };
  return cli_keyword ("engine", arg, words);
}

/* -s [+][-]OFFSET, as xxd -r -s: the '+' (which xxd's dump side
   reads as "from here") changes nothing.  */
static int64_t
parse_seek (const char *arg)
{
  const char *num = arg + (arg[0] == '+');
  bool negative = num[0] == '-';
  uint64_t v = cli_parse_number ("base", "offset", num + negative,
                                 NC_OFFSET_MAX, NC_NUMBER_UNITS);
  return negative ? -(int64_t) v : (int64_t) v;
}

/* The option context, reachable from here until the exit: every check
   that fails ends the process through error(), where LeakSanitizer
   would otherwise count what only main's frame held as leaked.  */
static poptContext ctx;

/* The option whose val is OPT, and whose argument is in ctx.  */
static void
option_argument (int opt)
{
  char *arg = poptGetOptArg (ctx);
  if (opt == OPT_ENGINE)
    engine = parse_engine (arg);
  else if (opt == OPT_COLS)
    dump_cols = cli_parse_number ("cols", "number of columns", arg,
                                  NC_XXD_MAX_COLS, 0);
  else
    dump_base = parse_seek (arg);
  free (arg);
}

/* The options, and FILE, the first operand, into plan.file.  */
static void
parse_options (void)
{
  int opt;
  while ((opt = cli_next_option_operands (ctx, check_patch_operand)) >= 0)
    if (opt > 0)
      option_argument (opt);
  plan.file = poptGetArg (ctx);
  if (!plan.file)
    cli_usage_error ("missing file operand");
  /* xxd -r takes -c 0 for the default.  */
  if (dump_cols == 0)
    dump_cols = NC_XXD_DEFAULT_COLS;
  if (!from_xxd && (plain_dump || dump_base || dump_cols
                    != NC_XXD_DEFAULT_COLS))
    cli_usage_error ("-p, -c and -s read a dump: --from-xxd is missing");
  if (recover && (from_xxd || dry_run))
    cli_usage_error ("--recover takes no --from-xxd or --dry-run");
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

/* The patches: the operands ARGS, or the dump of --from-xxd.  */
static void
read_patches (const char **args)
{
  size_t n = 0;
  while (args && args[n])
    n++;
  if (from_xxd && n > 1)
    cli_usage_error ("extra operand %s", quote_file (args[1]));
  if (from_xxd)
    load_dump (n ? args[0] : "-");
  /* Nothing to write is a slip (the patches forgotten, or FILE taken
     for one), not a success.  */
  else if (n == 0 && !recover)
    cli_usage_error ("missing patch operand after %s",
                     quote_file (plan.file));
  else if (recover && n > 0)
    cli_usage_error ("--recover takes no patch: extra operand %s",
                     quote_file (args[0]));
  else
    parse_patches (args, n);
}

/* Write the patches (after reading the old bytes), the journal of a
   file of status ST and SIZE bytes around them if there is one.  */
static void
write_patches (const struct stat *st, bool size_known, uint64_t size)
{
  bool with_journal = keeps_journal (st->st_mode);
  if (with_journal)
    nc_journal_begin (&file_journal, &plan, st, size);
  nc_patch_write (&plan, size_known && S_ISREG (st->st_mode), size);
  if (with_journal)
    nc_journal_end (&file_journal, &plan);
}

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  ctx = cli_context (argc, argv, options,
                     "[OPTION]... FILE PATCH...\n"
                     "  or:  pwritev-patch --from-xxd [OPTION]... "
                     "FILE [DUMP]");
  parse_options ();
  read_patches (poptGetArgs (ctx));
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
    nc_patch_show_dry_run (&plan, size_known, size);
  else if (!recover)
    write_patches (&st, size_known, size);
  if (stats && cli_status == EXIT_SUCCESS)
    print_stats (plan.n);
  if (debug)
    print_debug (plan.n);
  ret = sys_close (plan.fd);
  if (ret < 0 && cli_status == EXIT_SUCCESS)
    error (EXIT_FAILURE, -ret, "error writing %s", quote_file (plan.file));
  nc_patch_plan_free (&plan);
  nc_journal_free (&file_journal);
  free (dump_patch_names);
  poptFreeContext (ctx);
  return cli_status;
}
