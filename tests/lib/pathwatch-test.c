/* pathwatch-test.c -- the C test driver of lib/wait/pathwatch: a path watched
   while its directories are made, renamed and removed under it, in this
   process, step by step.

   Besides the readiness pathwatch_update reports, each step checks which
   directories are watched, by the inotify descriptor's entry in
   /proc/self/fdinfo (a line "inotify wd:N ino:I ..." per watch): the
   directories on the way, no more (a watch left behind would wake the
   waiter for nothing, and pile up).  Output: TAP; "pathwatch-test: N
   passed, M failed, K skipped".  */

#include <config.h>

#define TAP_NAME "pathwatch-test"
#include "tap.h"

#include <inttypes.h>
#include <poll.h>
#include <sys/stat.h>

#include "wait/pathwatch.h"

/* The scratch directory is the current one: the paths are relative, and
   the first directory of every way is ".", so that the directories above
   it are not watched.  */
static const char *scratch = ".";

static const char *
at (const char *name)
{
  return name;
}

static void
make_dir (const char *name)
{
  if (mkdir (at (name), 0755) != 0)
    tap_die ("mkdir");
}

static void
make_file (const char *name, const char *data)
{
  int fd = open (at (name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    tap_die ("open");
  xwrite (fd, data, strlen (data));
  close (fd);
}

static int
compare_ino (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return (x > y) - (x < y);
}

/* The inode numbers of the directories and files WATCH watches, sorted,
   into INOS; return how many.  */
static size_t
watched (const struct pathwatch *watch, uint64_t *inos, size_t max)
{
  char name[64];
  snprintf (name, sizeof name, "/proc/self/fdinfo/%d", pathwatch_fd (watch));
  FILE *f = fopen (name, "r");
  if (!f)
    tap_die ("fdinfo");
  size_t n = 0;
  char line[512];
  while (fgets (line, sizeof line, f))
    {
      uint64_t ino;
      if (sscanf (line, "inotify wd:%*d ino:%" SCNx64, &ino) == 1 && n < max)
        inos[n++] = ino;
    }
  fclose (f);
  qsort (inos, n, sizeof *inos, compare_ino);
  return n;
}

/* Check that WATCH watches exactly the N paths of the NULL-terminated
   list, relative to the scratch directory ("" is the scratch itself).  */
static void
check_watched (const struct pathwatch *watch, const char *what, ...)
{
  uint64_t want[16], got[16];
  size_t n_want = 0;
  va_list ap;
  va_start (ap, what);
  for (const char *p; (p = va_arg (ap, const char *));)
    {
      struct stat st;
      if (stat (*p ? p : ".", &st) != 0)
        tap_die ("stat");
      want[n_want++] = st.st_ino;
    }
  va_end (ap);
  qsort (want, n_want, sizeof *want, compare_ino);
  size_t n_got = watched (watch, got, 16);
  char detail[128];
  snprintf (detail, sizeof detail, "%zu watches, %zu wanted", n_got, n_want);
  tap_check (n_got == n_want
             && memcmp (got, want, n_got * sizeof *got) == 0,
             detail, "%s", what);
}

/* Whether the watch's descriptor is readable now.  */
static bool
readable (const struct pathwatch *watch)
{
  struct pollfd p = { .fd = pathwatch_fd (watch), .events = POLLIN };
  return poll (&p, 1, 0) == 1;
}

static void
check_update (struct pathwatch *watch, int want, const char *what)
{
  int got = pathwatch_update (watch);
  char detail[64];
  snprintf (detail, sizeof detail, "update gave %d, want %d", got, want);
  tap_check (got == want, detail, "%s", what);
}

static void
test_exists_deep (void)
{
  struct pathwatch *w;
  char path[4096];
  snprintf (path, sizeof path, "%s/a/b/c/f", scratch);
  int ret = pathwatch_start (path, PATHWATCH_EXISTS, false, NULL, &w);
  tap_check (ret == 0 && !pathwatch_ready (w), NULL,
             "exists: a/b/c/f missing: started, not ready");
  check_watched (w, "exists: only the scratch directory watched", "", NULL);
  tap_check (!readable (w), NULL, "exists: nothing to read yet");
  make_dir ("a");
  tap_check (readable (w), NULL, "exists: mkdir a wakes the watch");
  check_update (w, 0, "exists: a made: not ready");
  check_watched (w, "exists: the scratch and a watched", "", "a", NULL);
  /* Made while the watch was not on them: the walk finds them.  */
  make_dir ("a/b");
  make_dir ("a/b/c");
  check_update (w, 0, "exists: a/b/c made at once: not ready");
  check_watched (w, "exists: down to a/b/c", "", "a", "a/b", "a/b/c",
                 NULL);
  make_dir ("x");
  check_update (w, 0, "exists: an entry of another name: not ready");
  check_watched (w, "exists: the same watches", "", "a", "a/b", "a/b/c",
                 NULL);
  make_file ("a/b/c/f", "");
  check_update (w, 1, "exists: f made: ready");
  check_update (w, 1, "exists: ready stays ready");
  pathwatch_free (w);
}

static void
test_gone_moved_ancestor (void)
{
  struct pathwatch *w;
  char path[4096];
  snprintf (path, sizeof path, "%s/g/h/f", scratch);
  make_dir ("g");
  make_dir ("g/h");
  make_file ("g/h/f", "x");
  int ret = pathwatch_start (path, PATHWATCH_GONE, false, NULL, &w);
  tap_check (ret == 0 && !pathwatch_ready (w), NULL,
             "gone: g/h/f there: not ready");
  check_watched (w, "gone: the scratch, g, g/h watched", "", "g", "g/h",
                 NULL);
  if (rename (at ("g"), at ("g2")) != 0)
    tap_die ("rename");
  check_update (w, 1, "gone: g renamed away: ready");
  pathwatch_free (w);

  /* The watches of the directories that left the way are removed.  */
  ret = pathwatch_start (path, PATHWATCH_EXISTS, false, NULL, &w);
  tap_check (ret == 0 && !pathwatch_ready (w), NULL,
             "exists: g/h/f after g left: not ready");
  if (rename (at ("g2"), at ("g")) != 0)
    tap_die ("rename");
  check_update (w, 1, "exists: g renamed back, f inside: ready");
  check_watched (w, "exists: the new way watched", "", "g", "g/h", NULL);
  if (rename (at ("g"), at ("g3")) != 0)
    tap_die ("rename");
  pathwatch_free (w);
  snprintf (path, sizeof path, "%s/g/h/f", scratch);
  ret = pathwatch_start (path, PATHWATCH_GONE, false, NULL, &w);
  tap_check (ret == 0 && pathwatch_ready (w), NULL,
             "gone: already gone at the start: ready");
  pathwatch_free (w);
}

static void
test_symlinked_dir (void)
{
  struct pathwatch *w;
  char path[4096];
  make_dir ("real");
  if (symlink ("real", at ("link")) != 0)
    tap_die ("symlink");
  snprintf (path, sizeof path, "%s/link/sub/f", scratch);
  int ret = pathwatch_start (path, PATHWATCH_EXISTS, false, NULL, &w);
  tap_check (ret == 0 && !pathwatch_ready (w), NULL,
             "link: link/sub/f missing: not ready");
  check_watched (w, "link: the link's directory and its target watched",
                 "", "real", NULL);
  make_dir ("real/sub");
  check_update (w, 0, "link: real/sub made: not ready");
  make_file ("real/sub/f", "");
  check_update (w, 1, "link: real/sub/f made: ready through the link");
  pathwatch_free (w);

  /* A dangling link at the end exists; followed, it does not yet.  */
  if (symlink ("target", at ("dangling")) != 0)
    tap_die ("symlink");
  snprintf (path, sizeof path, "%s/dangling", scratch);
  ret = pathwatch_start (path, PATHWATCH_EXISTS, false, NULL, &w);
  tap_check (ret == 0 && pathwatch_ready (w), NULL,
             "link: a dangling link exists");
  pathwatch_free (w);
  ret = pathwatch_start (path, PATHWATCH_EXISTS, true, NULL, &w);
  tap_check (ret == 0 && !pathwatch_ready (w), NULL,
             "link: followed, a dangling link does not exist");
  make_file ("target", "");
  check_update (w, 1, "link: followed, its target made: ready");
  pathwatch_free (w);
}

static void
test_closed (void)
{
  struct pathwatch *w;
  char path[4096];
  make_dir ("cl");
  make_file ("cl/f", "old");
  snprintf (path, sizeof path, "%s/cl/f", scratch);
  int ret = pathwatch_start (path, PATHWATCH_CLOSED, false, NULL, &w);
  tap_check (ret == 0 && !pathwatch_ready (w), NULL,
             "closed: a file there at the start: not ready");
  check_watched (w, "closed: the way and the file watched", "", "cl",
                 "cl/f", NULL);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  close (fd);
  check_update (w, 0, "closed: a read-only open and close: not ready");
  /* Moved away, then written: not the file at the path any more.  */
  if (rename (path, at ("cl/moved")) != 0)
    tap_die ("rename");
  make_file ("cl/moved", "new");
  check_update (w, 0, "closed: the file moved away, then written: not ready");
  check_watched (w, "closed: the moved file no longer watched", "", "cl",
                 NULL);
  /* A new file, still open for writing: not yet.  */
  fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    tap_die ("open");
  xwrite (fd, "partial", 7);
  check_update (w, 0, "closed: a new file still open for writing: not ready");
  close (fd);
  check_update (w, 1, "closed: closed: ready");
  pathwatch_free (w);

  /* A file renamed into place, complete: ready.  */
  ret = pathwatch_start (path, PATHWATCH_CLOSED, false, NULL, &w);
  make_file ("cl/tmp", "whole");
  check_update (w, 0, "closed: a temporary file written: not ready");
  if (rename (at ("cl/tmp"), path) != 0)
    tap_die ("rename");
  check_update (w, 1, "closed: the complete file renamed into place: ready");
  pathwatch_free (w);

  /* Created, written and closed before any walk saw it: the directory
     reports the close by name.  */
  snprintf (path, sizeof path, "%s/cl/quick", scratch);
  ret = pathwatch_start (path, PATHWATCH_CLOSED, false, NULL, &w);
  make_file ("cl/quick", "all at once");
  check_update (w, 1, "closed: created, written and closed at once: ready");
  pathwatch_free (w);

  /* The same file written through a hard link elsewhere: its own watch
     sees the close.  */
  ret = pathwatch_start (path, PATHWATCH_CLOSED, false, NULL, &w);
  make_dir ("cl2");
  if (link (path, "cl2/other") != 0)
    tap_die ("link");
  check_update (w, 0, "closed: a link made elsewhere: not ready");
  make_file ("cl2/other", "through the other name");
  check_update (w, 1, "closed: written through another name: ready");
  pathwatch_free (w);

  /* Removed while open for writing, closed later: that close is not one
     at the path.  */
  make_file ("cl/removed", "x");
  snprintf (path, sizeof path, "%s/cl/removed", scratch);
  ret = pathwatch_start (path, PATHWATCH_CLOSED, false, NULL, &w);
  int held = open (path, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (held < 0)
    tap_die ("open");
  if (unlink (path) != 0)
    tap_die ("unlink");
  check_update (w, 0, "closed: removed while open for writing: not ready");
  close (held);
  check_update (w, 0, "closed: its descriptor closed afterwards: not ready");
  pathwatch_free (w);

  /* A directory never counts.  */
  snprintf (path, sizeof path, "%s/cl/d", scratch);
  ret = pathwatch_start (path, PATHWATCH_CLOSED, false, NULL, &w);
  make_dir ("cl/d");
  check_update (w, 0, "closed: a directory made there: not ready");
  pathwatch_free (w);
}

static void
test_errors (void)
{
  struct pathwatch *w;
  int ret = pathwatch_start ("", PATHWATCH_EXISTS, false, NULL, &w);
  tap_check (ret == -ENOENT, NULL, "an empty path: -ENOENT");
  pathwatch_free (w);
  char path[4096];
  make_file ("plain", "");
  snprintf (path, sizeof path, "%s/plain/", scratch);
  ret = pathwatch_start (path, PATHWATCH_EXISTS, false, NULL, &w);
  tap_check (ret == 0 && !pathwatch_ready (w), NULL,
             "plain/ with plain a file: does not exist");
  pathwatch_free (w);
  ret = pathwatch_start (path, PATHWATCH_GONE, false, NULL, &w);
  tap_check (ret == 0 && pathwatch_ready (w), NULL,
             "plain/ with plain a file: gone");
  pathwatch_free (w);
}

int
main (void)
{
  if (chdir (tap_scratch ("/tmp")) != 0)
    tap_die ("chdir");
  test_exists_deep ();
  test_gone_moved_ancestor ();
  test_symlinked_dir ();
  test_closed ();
  test_errors ();
  return tap_done ();
}
