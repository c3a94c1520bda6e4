/* pwritev-patch -- write byte patches into a file with pwritev(2).

   SYNOPSIS: pwritev-patch [OPTION]... FILE [PATCH]...

   Every patch is checked before a byte is written: the syntax, the data
   files, overlaps, the end of the file.  Patches that follow each other
   without a gap go out together, one pwritev whose iovecs gather them;
   bytes between patches are never written.  */

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
    "for standard input).  OFFSET takes a K, M, G, T suffix (KiB...; KB "
    "for 1000) or 0x for hex.\n"
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

#define quote_patch(p) \
  quotearg_n_style (1, shell_escape_always_quoting_style, (p)->arg)

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

/* Fill IOV for the bytes from POS to the end of the NP patches at P,
   which follow one another in the file, the first one ending after POS;
   return the number of iovecs.  */
static int
build_iov (struct patch *const *p, size_t np, uint64_t pos)
{
  int cnt = 0;
  for (size_t k = 0; k < np; k++)
    {
      size_t skip = pos > p[k]->offset ? pos - p[k]->offset : 0;
      iov[cnt].iov_base = p[k]->bytes + skip;
      iov[cnt++].iov_len = p[k]->len - skip;
    }
  return cnt;
}

/* Write, or with --dry-run read into BEFORE, the NP patches at P, which
   follow one another in the file; return the number of bytes done,
   fewer than asked only when reading reached the end of the file.  */
static uint64_t
transfer_run (struct patch *const *p, size_t np, unsigned char *const *before)
{
  uint64_t start = p[0]->offset;
  uint64_t end = p[np - 1]->offset + p[np - 1]->len;
  uint64_t pos = start;
  size_t k = 0;
  while (pos < end)
    {
      while (p[k]->offset + p[k]->len <= pos)
        k++;
      int cnt;
      ssize_t ret;
      if (dry_run)
        {
          cnt = 0;
          for (size_t i = k; i < np; i++)
            {
              size_t skip = pos > p[i]->offset ? pos - p[i]->offset : 0;
              iov[cnt].iov_base = before[i] + skip;
              iov[cnt++].iov_len = p[i]->len - skip;
            }
          ret = sys_preadv (fd, iov, cnt, pos);
          if (ret == 0)
            break;
        }
      else
        {
          cnt = build_iov (p + k, np - k, pos);
          ret = (sync_writes
                 ? sys_pwritev2 (fd, iov, cnt, pos, RWF_DSYNC)
                 : sys_pwritev (fd, iov, cnt, pos));
          n_calls++;
          n_iovecs += cnt;
          /* Nothing written, and no reason given: as full-write says.  */
          if (ret == 0)
            ret = -ENOSPC;
        }
      if (ret > 0)
        pos += ret;
      else if (ret == -EINTR)
        continue;
      else if (dry_run)
        error (EXIT_FAILURE, -ret, "error reading %s", quote_file (file));
      else if (sync_writes && (ret == -EOPNOTSUPP || ret == -ENOSYS))
        error (EXIT_FAILURE, -ret, "cannot write %s with pwritev2 flag "
               "RWF_DSYNC", quote_file (file));
      else
        error (EXIT_FAILURE, -ret, "error writing %s", quote_file (file));
    }
  if (!dry_run)
    n_bytes += pos - start;
  return pos - start;
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

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  poptContext ctx = cli_context (argc, argv, options,
                                 "[OPTION]... FILE [PATCH]...");
  while (cli_next_option (ctx) >= 0)
    continue;
  file = poptGetArg (ctx);
  if (!file)
    cli_usage_error ("missing file operand");
  size_t n = 0;
  const char **args = poptGetArgs (ctx);
  while (args && args[n])
    n++;

  /* The operands' syntax first, then the data files.  */
  struct patch *patches = xcalloc (n ? n : 1, sizeof *patches);
  bool stdin_used = false;
  for (size_t i = 0; i < n; i++)
    {
      struct patch *p = &patches[i];
      const char *arg = args[i];
      size_t oplen = strcspn (arg, "=@");
      const char *msg;
      p->arg = arg;
      if (arg[oplen] == '\0')
        cli_usage_error ("invalid patch %s: OFFSET=HEXBYTES or "
                         "OFFSET@DATAFILE expected", quote_file (arg));
      msg = nc_parse_offset (arg, oplen, &p->offset);
      if (!msg && arg[oplen] == '=')
        msg = nc_parse_hex (arg + oplen + 1, &p->bytes, &p->len);
      else if (!msg && arg[oplen + 1] == '\0')
        msg = "missing data file";
      else if (!msg && strcmp (arg + oplen + 1, "-") == 0)
        {
          if (stdin_used)
            msg = "standard input can be read only once";
          stdin_used = true;
        }
      if (msg)
        cli_usage_error ("invalid patch %s: %s", quote_file (arg), msg);
    }
  for (size_t i = 0; i < n; i++)
    {
      struct patch *p = &patches[i];
      const char *sep = p->arg + strcspn (p->arg, "=@");
      if (*sep == '@')
        p->bytes = read_data_file (sep + 1, &p->len);
      if (p->len > NC_OFFSET_MAX - p->offset)
        cli_usage_error ("invalid patch %s: it ends past the largest file "
                         "offset", quote_file (p->arg));
    }

  /* Overlaps, found in order of offset; empty patches touch nothing.  */
  struct patch **sorted = xnmalloc (n ? n : 1, sizeof *sorted);
  size_t ns = 0;
  for (size_t i = 0; i < n; i++)
    if (patches[i].len > 0)
      sorted[ns++] = &patches[i];
  qsort (sorted, ns, sizeof *sorted, compare_offsets);
  for (size_t i = 1; i < ns; i++)
    {
      struct patch *a = sorted[i - 1], *b = sorted[i];
      if (a->offset + a->len > b->offset)
        {
          /* Name them in the order given.  */
          if (a > b)
            a = sorted[i], b = sorted[i - 1];
          error (EXIT_USAGE, 0, "patches %s and %s overlap; nothing written",
                 quote_file (a->arg), quote_patch (b));
        }
    }

  fd = sys_openat (AT_FDCWD, file,
                   (dry_run ? O_RDONLY : O_WRONLY) | O_CLOEXEC, 0);
  if (fd < 0)
    error (EXIT_FAILURE, -fd, "cannot open %s", quote_file (file));
  struct stat st;
  int ret = sys_fstat (fd, &st);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot stat %s", quote_file (file));
  uint64_t size = 0;
  bool size_known = nc_file_size (fd, &st, &size);
  if (size_known && !extend)
    for (size_t i = 0; i < n; i++)
      if (patches[i].len > 0 && patches[i].offset + patches[i].len > size)
        error (EXIT_FAILURE, 0, "%s: patch %s ends past the end of the file "
               "(%llu bytes); --extend allows it; nothing written",
               quote_file (file), quote_patch (&patches[i]),
               (unsigned long long) size);

  /* Runs of patches that follow one another, each one call, or several
     if it has more than IOV_MAX patches.  */
  unsigned char **before = dry_run ? xnmalloc (ns ? ns : 1, sizeof *before)
                                   : NULL;
  uint64_t *got = dry_run ? xnmalloc (ns ? ns : 1, sizeof *got) : NULL;
  uint64_t runs = 0;
  for (size_t a = 0, b; a < ns; a = b)
    {
      for (b = a + 1; b < ns && b - a < IOV_MAX; b++)
        if (sorted[b - 1]->offset + sorted[b - 1]->len != sorted[b]->offset)
          break;
      runs++;
      if (dry_run)
        {
          for (size_t i = a; i < b; i++)
            before[i] = xmalloc (sorted[i]->len);
          uint64_t done = transfer_run (sorted + a, b - a, before + a);
          for (size_t i = a; i < b; i++)
            {
              uint64_t from = sorted[i]->offset - sorted[a]->offset;
              got[i] = done <= from ? 0
                       : done - from < sorted[i]->len ? done - from
                       : sorted[i]->len;
            }
        }
      else
        transfer_run (sorted + a, b - a, NULL);
    }

  if (dry_run)
    {
      uint64_t bytes = 0;
      for (size_t i = 0; i < n; i++)
        {
          struct patch *p = &patches[i];
          size_t k = 0;
          while (k < ns && sorted[k] != p)
            k++;
          printf ("patch %s: %zu %s at %llu (0x%llx)\n",
                  quote_file (p->arg), p->len, p->len == 1 ? "byte" : "bytes",
                  (unsigned long long) p->offset,
                  (unsigned long long) p->offset);
          if (k < ns)
            {
              show_bytes ("- ", p->offset, before[k], got[k]);
              show_bytes ("+ ", p->offset, p->bytes, p->len);
              if (size_known && p->offset + p->len > size)
                printf ("  (the file ends at byte %llu: this patch extends "
                        "it)\n", (unsigned long long) size);
            }
          bytes += p->len;
        }
      printf ("dry run: %zu %s, %llu bytes, %llu pwritev %s; %s not "
              "changed\n", n, n == 1 ? "patch" : "patches",
              (unsigned long long) bytes, (unsigned long long) runs,
              runs == 1 ? "call" : "calls", quote_file (file));
    }
  if (stats)
    error (0, 0, "%s: %zu %s, %llu %s %s, %llu iovecs, %llu bytes written",
           quote_file (file), n, n == 1 ? "patch" : "patches",
           (unsigned long long) n_calls,
           sync_writes ? "pwritev2" : "pwritev",
           n_calls == 1 ? "call" : "calls", (unsigned long long) n_iovecs,
           (unsigned long long) n_bytes);
  ret = sys_close (fd);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "error writing %s", quote_file (file));
  for (size_t i = 0; i < n; i++)
    free (patches[i].bytes);
  for (size_t i = 0; dry_run && i < ns; i++)
    free (before[i]);
  free (before);
  free (got);
  free (sorted);
  free (patches);
  poptFreeContext (ctx);
  return EXIT_SUCCESS;
}
