/* remove/removal.c -- the state of a removal, its messages and its
   count; see remove/removal.h.  */

#include <config.h>

#include "remove/removal.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/common.h"
#include "human.h"
#include "remove/unlinker.h"
#include "sys/calls.h"
#include "sys/fdroom.h"
#include "xalloc.h"

/* The most directory descriptors a walk of rmtree holds, and those left
   for everything else.  A tree deeper than that is climbed by ".." and
   checked, two more calls a level; the kernel's memory for each open
   directory is a few hundred bytes.  */
enum { REMOVE_MAX_FDS = 65536, REMOVE_SPARE_FDS = 32 };

/* Whether each entry is removed without a word or a question: then the
   unlinker can remove the files while the walk goes on, and a directory
   can be removed before the read that would find its end.  */
static bool
removes_silently (const struct remove_options *o)
{
  return !o->dry_run && !o->verbose
         && (o->ask == REMOVE_ASK_NEVER
             || (o->ask == REMOVE_ASK_PROTECTED
                 && (o->force || !o->stdin_tty)));
}

void
removal_start (struct removal *r, const struct remove_options *o)
{
  *r = (struct removal) { .o = o };
  if (o->preserve_root)
    r->root_ok = sys_fstatat (AT_FDCWD, "/", &r->root, 0) == 0;
  progress_start (&r->bar, o->progress > 0);
  r->progress = o->progress < 0 ? r->bar.tty && !o->verbose && !o->dry_run
                                : o->progress > 0;
  size_t limit = fd_raise_limit (REMOVE_MAX_FDS + REMOVE_SPARE_FDS);
  r->max_fds = limit > WALK_MAX_FDS + REMOVE_SPARE_FDS
               ? limit - REMOVE_SPARE_FDS : WALK_MAX_FDS;
  r->silent = removes_silently (o);
  r->fds_reserved = 64;
}

void
removal_reserve_fds (struct removal *r, size_t depth)
{
  size_t most = r->max_fds + REMOVE_SPARE_FDS;
  if (!r->unlinker || depth < r->fds_reserved / 2 || r->fds_reserved >= most)
    return;
  r->fds_reserved = r->fds_reserved * 8 < most ? r->fds_reserved * 8 : most;
  unlinker_pause (r->unlinker);
  fd_table_reserve (r->fds_reserved);
  unlinker_resume (r->unlinker);
}

struct unlinker *
removal_unlinker (struct removal *r)
{
  if (!r->unlinker && r->silent && !r->unlinker_tried)
    {
      r->unlinker_tried = true;
      r->unlinker = unlinker_start ();
    }
  return r->unlinker;
}

/* The progress line: the entries removed and their rate.  */
static void
progress_line (struct removal *r, bool last)
{
  double secs = progress_seconds (&r->bar);
  char buf[LONGEST_HUMAN_READABLE + 1];
  uintmax_t per_sec = secs > 0 ? (uintmax_t) ((double) r->removed / secs)
                               : 0;
  const char *rate = human_readable (per_sec, buf, human_autoscale | human_SI
                                     | human_suppress_point_zero
                                     | human_round_to_nearest, 1, 1);
  progress_draw (&r->bar, last, "%" PRIuMAX " removed, %.1f s, %s/s",
                 r->removed, secs, rate);
}

static void
report_lost (const char *name, int err, void *arg _GL_UNUSED)
{
  cli_fail_file (name, err, "cannot remove %s", quote_file (name));
}

void
removal_finish (struct removal *r)
{
  if (r->unlinker)
    {
      /* Every directory's visit took its failures, unless the walk lost
         the directory: those are said by name.  */
      unlinker_wait (r->unlinker, UINT64_MAX);
      removal_count_unlinked (r);
      unlinker_failures (r->unlinker, UINT64_MAX, report_lost, NULL);
      unlinker_stop (r->unlinker);
      r->unlinker = NULL;
    }
  if (progress_finish (&r->bar))
    progress_line (r, true);
  free (r->dirs);
  r->dirs = NULL;
  r->dirs_alloc = 0;
}

void
remove_report (struct walk *w, int err)
{
  const char *path = walk_path (w);
  /* An errno value is the failure's errno, for --json.  */
  if (err < WALK_ECHANGED)
    cli_fail_file (path, err, "cannot remove %s", quote_file (path));
  else
    cli_fail_file (path, 0, "cannot remove %s: %s", quote_file (path),
                   walk_strerror (err));
}

void
removal_say (struct removal *r, struct walk *w, bool dir)
{
  if (dir)
    r->directories++;
  else
    r->files++;
  if (!r->o->verbose && !r->o->dry_run)
    return;
  progress_clear (&r->bar);
  fprintf (r->o->json ? stderr : stdout, "%s%s %s\n",
           r->o->dry_run ? "would remove" : "removed",
           dir ? " directory" : "", quote_file (walk_path (w)));
}

/* N more entries removed, for the progress line.  */
static void
count_removed (struct removal *r, uintmax_t n)
{
  uintmax_t before = r->removed;
  r->removed += n;
  /* The clock is read every 64 entries only.  */
  if (r->progress && (r->removed >> 6) != (before >> 6)
      && progress_due (&r->bar))
    progress_line (r, false);
}

void
removal_count (struct removal *r)
{
  count_removed (r, 1);
}

void
removal_count_unlinked (struct removal *r)
{
  uintmax_t n = unlinker_removed (r->unlinker) - r->unlinked;
  r->unlinked += n;
  r->files += n;
  count_removed (r, n);
}

void
remove_report_name (struct walk *w, const char *name, int err)
{
  const char *dir = walk_path (w);
  size_t len = strlen (dir);
  char *path = xmalloc (len + 1 + strlen (name) + 1);
  stpcpy (stpcpy (stpcpy (path, dir), len && dir[len - 1] != '/' ? "/"
                                                                  : ""),
          name);
  cli_fail_file (path, err, "cannot remove %s", quote_file (path));
  free (path);
}

struct remove_dir *
removal_dir (struct removal *r, size_t depth)
{
  if (depth >= r->dirs_alloc)
    {
      size_t old = r->dirs_alloc;
      r->dirs_alloc = 2 * depth + 16;
      r->dirs = xnrealloc (r->dirs, r->dirs_alloc, sizeof *r->dirs);
      memset (r->dirs + old, 0, (r->dirs_alloc - old) * sizeof *r->dirs);
    }
  return &r->dirs[depth];
}

int
removal_keep (struct removal *r, const struct walk_entry *e)
{
  if (e->depth > 0)
    removal_dir (r, e->depth - 1)->declined++;
  return WALK_CONTINUE;
}
