/* pwritev-patch -- write byte patches into a file with pwritev(2).

   SYNOPSIS: pwritev-patch [OPTION]... FILE PATCH...

   Every patch is checked before a byte is written: the syntax, the data
   files, overlaps, the end of the file.  Patches that follow each other
   without a gap go out together, one pwritev whose iovecs gather them;
   bytes between patches are never written.

   All or nothing, also when a write fails: the bytes each patch replaces
   and the size of the file are read first; if a write fails (ENOSPC,
   EIO, EFBIG past RLIMIT_FSIZE, whose SIGXFSZ is ignored), the bytes
   written are put back and the file truncated to its old size.  A crash
   in the middle can still leave some patches written: there is no undo
   record on disk.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "cli.h"
#include "error.h"
#include "progname.h"
#include "ranges.h"
#include "safe-read.h"
#include "sys.h"
#include "xalloc.h"

#ifndef IOV_MAX
# define IOV_MAX 1024
#endif
#ifndef RWF_DSYNC
# define RWF_DSYNC 0x00000002
#endif

static int extend;
static int dry_run;
static int sync_writes;
static int stats;

static struct poptOption tool_options[] = {
  { "extend", 'e', POPT_ARG_NONE, &extend, 0,
    "allow patches past the end of FILE, which then grows", NULL },
  { "dry-run", 'n', POPT_ARG_NONE, &dry_run, 0,
    "show the bytes before and after each patch; write nothing", NULL },
  { "sync", '\0', POPT_ARG_NONE, &sync_writes, 0,
    "write with RWF_DSYNC: each write reaches the disk before it returns",
    NULL },
  { "stats", '\0', POPT_ARG_NONE, &stats, 0,
    "print the number of calls and bytes written to standard error", NULL },
  POPT_TABLEEND
};

static struct poptOption options[] = {
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, tool_options, 0,
    "Write each PATCH into FILE at its offset with pwritev(2), patches "
    "that touch one another by one call.\n\n"
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

struct patch
{
  const char *arg;              /* as given */
  uint64_t offset;
  unsigned char *bytes;
  size_t len;
};

static const char *file;
static int fd;
static struct iovec iov[IOV_MAX];
static uint64_t n_calls, n_iovecs, n_bytes;

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
  const struct patch *x = *(struct patch *const *) a;
  const struct patch *y = *(struct patch *const *) b;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* What transfer_run does: read the bytes the patches replace into
   their OLD buffers, write the patches, or write the OLD bytes back.  */
enum transfer { READ_OLD, WRITE_NEW, WRITE_OLD };

/* Do HOW for the first LIMIT bytes at most of the NP patches at P, which
   follow one another in the file, OLD their buffers of old bytes.  Store
   the number of bytes done in *DONE and return 0, or -errno after a
   failed call; reading stops early, without error, at the end of the
   file.  EINTR and short transfers are retried from where they
   stopped.  */
static int
transfer_run (struct patch *const *p, size_t np, unsigned char *const *old,
              enum transfer how, uint64_t limit, uint64_t *done)
{
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
        {
          ret = sys_preadv (fd, iov, cnt, pos);
          if (ret == 0)
            break;
        }
      else
        {
          ret = (sync_writes
                 ? sys_pwritev2 (fd, iov, cnt, pos, RWF_DSYNC)
                 : sys_pwritev (fd, iov, cnt, pos));
          if (how == WRITE_NEW)
            {
              n_calls++;
              n_iovecs += cnt;
            }
          /* Nothing written, and no reason given: as full-write says.  */
          if (ret == 0)
            ret = -ENOSPC;
        }
      if (ret > 0)
        pos += ret;
      else if (ret != -EINTR)
        {
          err = ret;
          break;
        }
    }
  *done = pos - start;
  if (how == WRITE_NEW)
    n_bytes += pos - start;
  return err;
}

/* A run of patches that follow one another in the file, written by one
   call (or more, if short): sorted[a] to sorted[b - 1].  */
struct run
{
  size_t a, b;
  uint64_t had;                 /* bytes of it the file had before */
  uint64_t written;             /* bytes of it written */
  uint64_t undone;              /* bytes of it put back */
};

/* The patches and how they are written.  Reachable to the end, for leak
   checkers, whichever way the tool exits.  */
static struct
{
  struct patch *patches;        /* in the order given */
  size_t n;
  struct patch **sorted;        /* the non-empty ones, by offset */
  size_t ns;
  struct run *runs;             /* of sorted */
  size_t nr;
  unsigned char **before;       /* the old bytes of each of sorted */
  uint64_t *got;                /* how many of them the file had */
} plan;

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

/* The bytes of the patch P, in the run RUN whose first byte is at
   START, that hold what was written and not what was there before, the
   file cut back to OLD_SIZE if CUT.  */
static uint64_t
bytes_left (const struct patch *p, const struct run *run, uint64_t start,
            bool cut, uint64_t old_size)
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
static const struct patch *
failed_patch (const struct run *run)
{
  uint64_t fail_at = plan.sorted[run->a]->offset + run->written;
  for (size_t i = run->a; i < run->b; i++)
    if (plan.sorted[i]->offset + plan.sorted[i]->len > fail_at)
      return plan.sorted[i];
  return plan.sorted[run->a];
}

/* The number of patches in the first NR runs that the writes touched;
   *WRITTEN_END is the end of the furthest bytes written.  */
static size_t
patches_touched (size_t nr, uint64_t *written_end)
{
  size_t touched = 0;
  *written_end = 0;
  for (size_t r = 0; r < nr; r++)
    {
      const struct run *run = &plan.runs[r];
      uint64_t start = plan.sorted[run->a]->offset;
      for (size_t i = run->a; i < run->b; i++)
        touched += plan.sorted[i]->offset < start + run->written;
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
undo_writes (size_t nr, bool cut, uint64_t old_size, int *cut_err,
             int *undo_err)
{
  *cut_err = *undo_err = 0;
  if (cut)
    do
      *cut_err = sys_ftruncate (fd, old_size);
    while (*cut_err == -EINTR);
  for (size_t r = 0; r < nr; r++)
    {
      struct run *run = &plan.runs[r];
      uint64_t limit = run->written < run->had ? run->written : run->had;
      run->undone = 0;
      if (limit == 0)
        continue;
      int ret = transfer_run (plan.sorted + run->a, run->b - run->a,
                              plan.before + run->a, WRITE_OLD, limit,
                              &run->undone);
      if (ret < 0 && *undo_err == 0)
        *undo_err = ret;
    }
}

/* What stays written after the undo of the first NR runs, by patch in
   the order given (a new array), the file cut back to OLD_SIZE if CUT;
   *TOTAL is the sum.  */
static uint64_t *
bytes_still_written (size_t nr, bool cut, uint64_t old_size,
                     uint64_t *total)
{
  uint64_t *left = xcalloc (plan.n, sizeof *left);
  *total = 0;
  for (size_t r = 0; r < nr; r++)
    for (size_t i = plan.runs[r].a; i < plan.runs[r].b; i++)
      {
        uint64_t l = bytes_left (plan.sorted[i], &plan.runs[r],
                                 plan.sorted[plan.runs[r].a]->offset, cut,
                                 old_size);
        left[plan.sorted[i] - plan.patches] = l;
        *total += l;
      }
  return left;
}

/* Say which patches stay written (LEFT bytes of each) after an undo
   that failed with CUT_ERR or UNDO_ERR (-errno), truncating the file
   back to OLD_SIZE or writing the old bytes back.  */
static void
report_left (const uint64_t *left, int cut_err, int undo_err,
             uint64_t old_size)
{
  if (cut_err < 0)
    error (0, 0, "cannot undo: cannot truncate %s back to %llu bytes: %s",
           quote_file (file), (unsigned long long) old_size,
           strerror (-cut_err));
  if (undo_err < 0)
    error (0, 0, "cannot undo: error writing %s: %s", quote_file (file),
           strerror (-undo_err));
  for (size_t i = 0; i < plan.n; i++)
    if (left[i] == plan.patches[i].len)
      error (0, 0, "%s: patch %s stays written", quote_file (file),
             quote_patch (&plan.patches[i]));
    else if (left[i] > 0)
      error (0, 0, "%s: patch %s stays written in part (%llu of %zu bytes)",
             quote_file (file), quote_patch (&plan.patches[i]),
             (unsigned long long) left[i], plan.patches[i].len);
  error (0, 0, "%s is not as it was", quote_file (file));
}

/* Writing the run plan.runs[NR - 1] failed with ERR, after the runs
   before it were written: put back the bytes written, the file cut back
   to its old size OLD_SIZE first if it is a REGULAR file that grew, and
   say so; say which patches stay written if that fails.  The exit
   status becomes 1.  */
static void
write_failed (size_t nr, int err, bool regular, uint64_t old_size)
{
  const struct patch *at = failed_patch (&plan.runs[nr - 1]);
  bool unsupported = sync_writes && (err == -EOPNOTSUPP || err == -ENOSYS);
  const char *what = unsupported ? "cannot write" : "error writing";
  const char *how = unsupported ? " with pwritev2 flag RWF_DSYNC" : "";
  cli_status = EXIT_FAILURE;

  uint64_t written_end;
  size_t touched = patches_touched (nr, &written_end);
  if (touched == 0)
    {
      error (0, 0, "%s %s%s at patch %s: %s; nothing written",
             what, quote_file (file), how, quote_patch (at), strerror (-err));
      return;
    }

  bool cut = regular && written_end > old_size;
  int cut_err, undo_err;
  undo_writes (nr, cut, old_size, &cut_err, &undo_err);
  uint64_t total;
  uint64_t *left = bytes_still_written (nr, cut && cut_err == 0, old_size,
                                        &total);
  if (total == 0)
    error (0, 0, "%s %s%s at patch %s: %s; the %zu %s written "
           "%s undone: %s is as it was", what, quote_file (file), how,
           quote_patch (at), strerror (-err), touched,
           touched == 1 ? "patch" : "patches",
           touched == 1 ? "was" : "were", quote_file (file));
  else
    {
      error (0, 0, "%s %s%s at patch %s: %s", what, quote_file (file), how,
             quote_patch (at), strerror (-err));
      report_left (left, cut_err, undo_err, old_size);
    }
  free (left);
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
      struct patch *p = &plan.patches[i];
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
      struct patch *p = &plan.patches[i];
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
      struct patch *a = plan.sorted[i - 1], *b = plan.sorted[i];
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

/* Open FILE into fd, its status in *ST; return whether its size is
   known, and store it in *SIZE.  A patch past the end is a failure
   without --extend.  */
static bool
open_file (struct stat *st, uint64_t *size)
{
  fd = sys_openat (AT_FDCWD, file,
                   (dry_run ? O_RDONLY : O_RDWR) | O_CLOEXEC, 0);
  if (fd < 0)
    error (EXIT_FAILURE, -fd, "cannot open %s", quote_file (file));
  int ret = sys_fstat (fd, st);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot stat %s", quote_file (file));
  *size = 0;
  bool size_known = nc_file_size (fd, st, size);
  if (size_known && !extend)
    for (size_t i = 0; i < plan.n; i++)
      {
        const struct patch *p = &plan.patches[i];
        if (p->len > 0 && p->offset + p->len > *size)
          error (EXIT_FAILURE, 0, "%s: patch %s ends past the end of the "
                 "file (%llu bytes); --extend allows it; nothing written",
                 quote_file (file), quote_patch (p),
                 (unsigned long long) *size);
      }
  return size_known;
}

/* plan.runs: the runs of patches that follow one another, each one call,
   or several if it has more than IOV_MAX patches.  */
static void
plan_runs (void)
{
  plan.runs = xnmalloc (plan.ns ? plan.ns : 1, sizeof *plan.runs);
  plan.nr = 0;
  for (size_t a = 0, b; a < plan.ns; a = b)
    {
      for (b = a + 1; b < plan.ns && b - a < IOV_MAX; b++)
        if (plan.sorted[b - 1]->offset + plan.sorted[b - 1]->len
            != plan.sorted[b]->offset)
          break;
      plan.runs[plan.nr++] = (struct run) { .a = a, .b = b };
    }
}

/* The bytes the patches replace, read by the same runs: shown by
   --dry-run, put back if a write fails.  */
static void
read_old_bytes (void)
{
  size_t room = plan.ns ? plan.ns : 1;
  plan.before = xcalloc (room, sizeof *plan.before);
  plan.got = xnmalloc (room, sizeof *plan.got);
  for (size_t r = 0; r < plan.nr; r++)
    {
      struct run *run = &plan.runs[r];
      for (size_t i = run->a; i < run->b; i++)
        plan.before[i] = xmalloc (plan.sorted[i]->len);
      int ret = transfer_run (plan.sorted + run->a, run->b - run->a,
                              plan.before + run->a, READ_OLD, UINT64_MAX,
                              &run->had);
      if (ret < 0 && dry_run)
        error (EXIT_FAILURE, -ret, "error reading %s", quote_file (file));
      if (ret < 0)
        error (EXIT_FAILURE, 0, "error reading %s: %s; nothing written",
               quote_file (file), strerror (-ret));
      for (size_t i = run->a; i < run->b; i++)
        {
          uint64_t from = plan.sorted[i]->offset - plan.sorted[run->a]->offset;
          uint64_t len = plan.sorted[i]->len;
          plan.got[i] = (run->had <= from ? 0
                         : run->had - from < len ? run->had - from : len);
        }
    }
}

/* Write the runs, one after the other; the first that fails is undone
   with those before it (write_failed), for a REGULAR file of OLD_SIZE
   bytes.  */
static void
write_runs (bool regular, uint64_t old_size)
{
  /* Past RLIMIT_FSIZE, a write fails with EFBIG, which is undone,
     instead of killing the process in the middle.  */
  struct sigaction ign = { .sa_handler = SIG_IGN };
  sigemptyset (&ign.sa_mask);
  sigaction (SIGXFSZ, &ign, NULL);
  for (size_t r = 0; r < plan.nr; r++)
    {
      struct run *run = &plan.runs[r];
      int ret = transfer_run (plan.sorted + run->a, run->b - run->a, NULL,
                              WRITE_NEW, UINT64_MAX, &run->written);
      if (ret < 0)
        {
          write_failed (r + 1, ret, regular, old_size);
          break;
        }
    }
}

/* --dry-run: each patch, the bytes before and after; the file's SIZE, if
   SIZE_KNOWN, to tell which ones extend it.  */
static void
show_dry_run (bool size_known, uint64_t size)
{
  uint64_t bytes = 0;
  for (size_t i = 0; i < plan.n; i++)
    {
      struct patch *p = &plan.patches[i];
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
  printf ("dry run: %zu %s, %llu bytes, %llu pwritev %s; %s not "
          "changed\n", plan.n, plan.n == 1 ? "patch" : "patches",
          (unsigned long long) bytes, (unsigned long long) plan.nr,
          plan.nr == 1 ? "call" : "calls", quote_file (file));
}

static void
free_plan (void)
{
  for (size_t i = 0; i < plan.n; i++)
    free (plan.patches[i].bytes);
  for (size_t i = 0; i < plan.ns; i++)
    free (plan.before[i]);
  free (plan.before);
  free (plan.got);
  free (plan.runs);
  free (plan.sorted);
  free (plan.patches);
}

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  poptContext ctx = cli_context (argc, argv, options,
                                 "[OPTION]... FILE PATCH...");
  file = cli_file_operand (ctx, check_patch_operand);
  size_t n = 0;
  const char **args = poptGetArgs (ctx);
  while (args && args[n])
    n++;
  /* Nothing to write is a slip (the patches forgotten, or FILE taken
     for one), not a success.  */
  if (n == 0)
    cli_usage_error ("missing patch operand after %s", quote_file (file));

  parse_patches (args, n);
  sort_patches ();
  struct stat st;
  uint64_t size;
  bool size_known = open_file (&st, &size);
  plan_runs ();
  read_old_bytes ();
  if (!dry_run && plan.nr > 0)
    write_runs (size_known && S_ISREG (st.st_mode), size);
  if (dry_run)
    show_dry_run (size_known, size);
  if (stats && cli_status == EXIT_SUCCESS)
    error (0, 0, "%s: %zu %s, %llu %s %s, %llu iovecs, %llu bytes written",
           quote_file (file), n, n == 1 ? "patch" : "patches",
           (unsigned long long) n_calls,
           sync_writes ? "pwritev2" : "pwritev",
           n_calls == 1 ? "call" : "calls", (unsigned long long) n_iovecs,
           (unsigned long long) n_bytes);
  int ret = sys_close (fd);
  if (ret < 0 && cli_status == EXIT_SUCCESS)
    error (EXIT_FAILURE, -ret, "error writing %s", quote_file (file));
  free_plan ();
  poptFreeContext (ctx);
  return cli_status;
}
