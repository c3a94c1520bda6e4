/* copy/telling.c -- what xcp tells as it copies; see copy/telling.h.  */

#include <config.h>

#include "copy/telling.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>

#include "cli/common.h"
#include "cli/failures.h"
#include "cli/progress.h"
#include "copy/data.h"
#include "copy/msg.h"
#include "sys/calls.h"

/* The counts, under copy_msg_lock while workers run.  */
static struct
{
  uintmax_t bytes, files;       /* copied */
  uintmax_t listed_bytes, listed_files;   /* known to be copied */
  uintmax_t directories;
  uintmax_t engines[COPY_ENGINE_CLONE + 1];
  size_t walks_left;            /* operands whose walk has not ended */
} count;

static struct progress bar;

/* --- the progress line --------------------------------------------- */

/* "BYTES of [at least ]TOTAL": the files too.  */
static void
progress_line (bool last)
{
  char b1[PROGRESS_WORD_SIZE], b2[PROGRESS_WORD_SIZE];
  char b3[PROGRESS_WORD_SIZE], b4[PROGRESS_WORD_SIZE];
  double secs = progress_seconds (&bar);
  uintmax_t rate = progress_rate (count.bytes, secs);
  const char *done = progress_bytes (count.bytes, b1);
  const char *per_sec = progress_bytes (rate, b2);
  const char *s = count.files == 1 ? "" : "s";
  bool known = count.walks_left == 0;
  if (last || (known ? count.listed_files == 0
               : count.listed_files <= count.files))
    progress_draw (&bar, last, "%s, %" PRIuMAX " file%s, %s/s", done,
                   count.files, s, per_sec);
  else if (!known)
    progress_draw (&bar, false, "%s of at least %s, %" PRIuMAX
                   " of at least %" PRIuMAX " files, %s/s", done,
                   progress_bytes (count.listed_bytes, b3), count.files,
                   count.listed_files, per_sec);
  else
    progress_draw (&bar, false, "%s of %s, %" PRIuMAX " of %" PRIuMAX
                   " files, %s/s, ETA %s", done,
                   progress_bytes (count.listed_bytes, b3), count.files,
                   count.listed_files, per_sec,
                   rate && count.listed_bytes > count.bytes
                   ? progress_duration ((double) (count.listed_bytes
                                                  - count.bytes)
                                        / (double) rate, b4)
                   : "?");
}

/* A count changed: draw the line when it is due.  */
static void
progress_maybe (const struct copy_options *x)
{
  if (x->progress && progress_due (&bar))
    progress_line (false);
}

/* --- the hooks ----------------------------------------------------- */

static const struct copy_options *told;

/* x->copied: "'SRC' -> 'DST'" for -v, then " (backup: 'BACKUP')",
   after cp's "removed 'DST'" where cp removes it first; a file for the
   counts.  */
static void
say_copied (const struct copy_options *x, const char *src, const char *dst,
            const char *backup, bool removed, bool file)
{
  if (x->verbose)
    {
      FILE *out = copy_tell_stream (x);
      progress_clear (&bar);
      /* Whole, the names being data there.  */
      if (removed)
        fprintf (out, "removed %s\n", quote_file_n (1, dst));
      fprintf (out, "%s -> %s", quote_file (src), quote_file_n (1, dst));
      if (backup)
        fprintf (out, " (backup: %s)", quote_file (backup));
      putc ('\n', out);
    }
  if (file)
    {
      count.files++;
      progress_maybe (x);
    }
}

/* x->bytes_done, while the progress line is drawn: from the workers
   too.  */
static void
count_bytes (void *arg, uint64_t n)
{
  (void) arg;
  copy_msg_lock ();
  count.bytes += n;
  progress_maybe (told);
  copy_msg_unlock ();
}

static void
count_listed (int dirfd, const char *name, const struct stat *st,
              bool regular)
{
  struct stat buf;
  uintmax_t size = 0;
  /* The walk stats no regular file: the size costs a call here, made
     only while the line is drawn.  */
  if (regular && !st && sys_fstatat (dirfd, name, &buf,
                                     AT_SYMLINK_NOFOLLOW) == 0)
    st = &buf;
  if (regular && st && S_ISREG (st->st_mode))
    size = st->st_size;
  copy_msg_lock ();
  count.listed_files++;
  count.listed_bytes += size;
  copy_msg_unlock ();
}

static void
count_walked (void)
{
  copy_msg_lock ();
  if (count.walks_left > 0)
    count.walks_left--;
  copy_msg_unlock ();
}

static void
count_dir (void)
{
  copy_msg_lock ();
  count.directories++;
  copy_msg_unlock ();
}

/* A file's data: its engine, and what the line did not see move (a
   clone, holes) counted as copied.  */
static void
count_data (enum copy_engine engine, uint64_t size, uint64_t moved)
{
  copy_msg_lock ();
  count.engines[engine]++;
  if (told->progress)
    count.bytes += size > moved ? size - moved : 0;
  else
    count.bytes += size;
  copy_msg_unlock ();
}

/* --- the entries ---------------------------------------------------- */

void
copy_telling_start (struct copy_options *x)
{
  progress_start (&bar, x->progress > 0);
  if (x->progress < 0)
    x->progress = bar.tty;
  x->copied = say_copied;
  if (x->progress)
    {
      x->bytes_done = count_bytes;
      x->listed = count_listed;
      x->walked = count_walked;
    }
  if (x->progress || x->json)
    x->data_copied = count_data;
  if (x->json)
    {
      x->dir_made = count_dir;
      failures_keep ();
    }
  told = x;
}

void
copy_telling_operands (const struct copy_options *x, const char **args,
                       size_t n)
{
  if (!x->progress)
    return;
  int follow = copy_follows_operand (x) ? 0 : AT_SYMLINK_NOFOLLOW;
  for (size_t i = 0; i < n; i++)
    {
      struct stat st;
      if (sys_fstatat (AT_FDCWD, args[i], &st, follow) < 0)
        continue;
      /* With -r, every operand is walked; its files are listed by the
         walk, but the operand itself.  */
      if (x->recursive)
        count.walks_left++;
      if (S_ISDIR (st.st_mode))
        continue;
      count.listed_files++;
      if (S_ISREG (st.st_mode))
        count.listed_bytes += st.st_size;
    }
}

/* The object of --json.  */
static void
print_json (int status)
{
  printf ("{\"files\":%" PRIuMAX ",\"bytes\":%" PRIuMAX
          ",\"directories\":%" PRIuMAX ",\"engines\":{", count.files,
          count.bytes, count.directories);
  static const enum copy_engine shown[] = {
    COPY_ENGINE_CLONE, COPY_ENGINE_COPY_FILE_RANGE, COPY_ENGINE_SPLICE,
    COPY_ENGINE_SENDFILE, COPY_ENGINE_RW,
  };
  for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++)
    printf ("%s\"%s\":%" PRIuMAX, i ? "," : "",
            copy_engine_keyword (shown[i]), count.engines[shown[i]]);
  fputs ("},\"errors\":", stdout);
  failures_put_json (stdout);
  printf (",\"status\":%d}\n", status);
}

void
copy_telling_end (const struct copy_options *x, int status)
{
  if (progress_finish (&bar))
    progress_line (true);
  if (x->json)
    print_json (status);
}
