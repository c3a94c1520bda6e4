/* remove-test.c -- the C test driver for lib/remove/: remove_operand's
   contract, rm -r's removal of an operand.  A tree goes, its symbolic
   links removed, never followed; LINK/ empties the directory LINK points
   to and keeps LINK; -n removes nothing and says what it would; '.' and
   '..' are refused; -d without -r removes only an empty directory; -f
   spares a missing operand; -i asks before entering and removing, and
   what the user keeps stays, with its ancestors.  The unlinker removes
   what is queued, in two threads, and keeps each failure for the
   directory it was queued with.

   Output: TAP lines (tests/lib/tap.h).  What the removal writes on standard
   output and error, and the answers it reads, go through files of the
   scratch directory (under /tmp, removed at the end).  */

#include <config.h>

#define TAP_NAME "remove-test"
#include "tap.h"

#include <stdio_ext.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/common.h"
#include "progname.h"
#include "remove/removal.h"
#include "remove/remover.h"
#include "remove/unlinker.h"

/* gnulib replaces these; the tests want glibc's own.  */
#undef open
#undef close

static void
make_dir (const char *path)
{
  if (mkdir (path, 0755) < 0)
    tap_die (path);
}

static void
make_file (const char *path)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    tap_die (path);
  close (fd);
}

static bool
exists (const char *path)
{
  struct stat st;
  return lstat (path, &st) == 0;
}

/* What one removal wrote on standard output and error, together.  */
static char said[4096];

/* Remove ARG with the options O, the answers to the questions read from
   ANSWERS: its output into SAID, the exit status it set returned (and
   cli_status reset).  */
static int
run (const struct remove_options *o, const char *arg, const char *answers)
{
  int in = open ("answers", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  int out = open ("said", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (in < 0 || out < 0)
    tap_die ("answers, said");
  xwrite (in, answers, strlen (answers));
  lseek (in, 0, SEEK_SET);
  fflush (stdout);
  fflush (stderr);
  int saved[3] = { dup (0), dup (1), dup (2) };
  if (saved[0] < 0 || saved[1] < 0 || saved[2] < 0
      || dup2 (in, 0) < 0 || dup2 (out, 1) < 0 || dup2 (out, 2) < 0)
    tap_die ("dup2");
  __fpurge (stdin);
  clearerr (stdin);

  struct removal r;
  removal_start (&r, o);
  remove_operand (&r, arg);
  removal_finish (&r);

  fflush (stdout);
  fflush (stderr);
  for (int fd = 0; fd < 3; fd++)
    if (dup2 (saved[fd], fd) < 0 || close (saved[fd]) < 0)
      tap_die ("dup2");
  __fpurge (stdin);
  clearerr (stdin);
  size_t n = read_at (out, said, sizeof said - 1, 0);
  said[n] = '\0';
  close (in);
  close (out);
  int status = cli_status;
  cli_status = EXIT_SUCCESS;
  return status;
}

/* The options of a plain rmtree: rm -r's.  */
static struct remove_options
plain (void)
{
  return (struct remove_options) { .ask = REMOVE_ASK_PROTECTED,
                                   .recursive = 1, .preserve_root = true,
                                   .progress = 0 };
}

static void
test_tree (void)
{
  make_dir ("t");
  make_dir ("t/a");
  make_dir ("t/a/b");
  make_dir ("outside");
  make_file ("t/f");
  make_file ("t/a/b/g");
  make_file ("outside/kept");
  if (symlink ("../../outside", "t/a/l") < 0 || mkfifo ("t/p", 0644) < 0)
    tap_die ("symlink, mkfifo");
  struct remove_options o = plain ();
  o.verbose = 1;
  tap_check_int (run (&o, "t", ""), EXIT_SUCCESS, "a tree: success");
  tap_ok (!exists ("t"), "a tree: removed");
  tap_ok (exists ("outside/kept"),
          "a tree: the directory its symbolic link names is untouched");
  tap_ok (strstr (said, "removed 't/a/b/g'\n")
          && strstr (said, "removed directory 't/a/b'\n")
          && strstr (said, "removed 't/a/l'\n")
          && strstr (said, "removed directory 't'\n"),
          "a tree: -v lists each entry as it goes");
}

static void
test_link_slash (void)
{
  make_dir ("target");
  make_file ("target/f");
  if (symlink ("target", "link") < 0)
    tap_die ("symlink");
  struct remove_options o = plain ();
  tap_check_int (run (&o, "link/", ""), EXIT_FAILURE,
                 "LINK/: the link cannot be removed as a directory");
  tap_ok (strstr (said, "cannot remove 'link/': Not a directory") != NULL,
          "LINK/: ENOTDIR reported, as rm");
  tap_ok (exists ("link") && exists ("target") && !exists ("target/f"),
          "LINK/: the directory it names emptied, the link kept");
  make_file ("target/f");
  o.force = true;
  o.ask = REMOVE_ASK_NEVER;
  tap_check_int (run (&o, "link/", ""), EXIT_SUCCESS,
                 "LINK/ with -f: no failure");
  tap_ok (exists ("link") && !exists ("target/f"),
          "LINK/ with -f: emptied, the link kept");
  unlink ("link");
  rmdir ("target");
}

static void
test_dry_run (void)
{
  make_dir ("n");
  make_file ("n/f");
  struct remove_options o = plain ();
  o.dry_run = 1;
  tap_check_int (run (&o, "n", ""), EXIT_SUCCESS, "-n: success");
  tap_ok (exists ("n/f"), "-n: nothing removed");
  tap_check (strcmp (said, "would remove 'n/f'\n"
                           "would remove directory 'n'\n") == 0, said,
             "-n: what would be removed, in order");
  o.dry_run = 0;
  run (&o, "n", "");
}

static void
test_refusals (void)
{
  make_dir ("r");
  struct remove_options o = plain ();
  tap_check_int (run (&o, "r/.", ""), EXIT_FAILURE, "r/.: refused");
  tap_ok (strstr (said, "refusing to remove '.' or '..' directory: "
                        "skipping 'r/.'") != NULL,
          "r/.: rm's words");
  tap_check_int (run (&o, "r/..//", ""), EXIT_FAILURE, "r/..//: refused");
  tap_ok (strstr (said, "skipping 'r/../'") != NULL,
          "r/..//: named with one trailing slash, as rm shows it");
  tap_ok (exists ("r"), "r/., r/..: nothing removed");
  tap_check_int (run (&o, "missing", ""), EXIT_FAILURE,
                 "a missing operand: a failure");
  o.force = true;
  o.ask = REMOVE_ASK_NEVER;
  tap_check_int (run (&o, "missing", ""), EXIT_SUCCESS,
                 "a missing operand with -f: no failure");
  tap_check_int (run (&o, "missing/x", ""), EXIT_SUCCESS,
                 "missing/x with -f: no failure");
  tap_check (said[0] == '\0', said,
             "-f: nothing said about a missing operand");
  rmdir ("r");
}

static void
test_dir_only (void)
{
  make_dir ("e");
  make_dir ("full");
  make_file ("full/f");
  struct remove_options o = plain ();
  o.recursive = 0;
  o.dir = 1;
  tap_check_int (run (&o, "e", ""), EXIT_SUCCESS, "-d: an empty directory");
  tap_ok (!exists ("e"), "-d: the empty directory removed");
  tap_check_int (run (&o, "full", ""), EXIT_FAILURE,
                 "-d: a directory not empty is a failure");
  tap_ok (strstr (said, "cannot remove 'full': Directory not empty")
          && exists ("full/f"),
          "-d: a directory not empty is reported, never entered");
  o.recursive = 1;
  run (&o, "full", "");
}

static void
test_interactive (void)
{
  make_dir ("i");
  make_file ("i/f");
  make_file ("i/g");
  struct remove_options o = plain ();
  o.ask = REMOVE_ASK_ALWAYS;
  /* The entries are asked about in the walk's order, not known here:
     keep the first file, remove the second.  */
  tap_check_int (run (&o, "i", "y\nn\ny\ny\n"), EXIT_FAILURE,
                 "-i: a directory whose file was kept cannot be removed");
  tap_ok (strstr (said, "remove-test: descend into directory 'i'? ")
          && strstr (said, "remove-test: remove regular empty file 'i/")
          && strstr (said, "remove-test: remove directory 'i'? ")
          && strstr (said, "cannot remove 'i': Directory not empty"),
          "-i: asked before entering and removing each, as rm");
  tap_ok (exists ("i") && exists ("i/f") != exists ("i/g"),
          "-i: the file answered no stays, the other goes");
  tap_check_int (run (&o, "i", "n\n"), EXIT_SUCCESS,
                 "-i: a directory not entered is no failure");
  tap_ok (exists ("i"), "-i: the directory not entered stays");
  o.ask = REMOVE_ASK_NEVER;
  run (&o, "i", "");
}

/* The failures unlinker_failures gives: their names, joined.  */
static void
failed_name (const char *name, int err, void *arg)
{
  char *names = arg;
  char one[64];
  snprintf (one, sizeof one, "%s:%d ", name, err);
  strcat (names, one);
}

static void
test_unlinker (void)
{
  make_dir ("ul");
  make_dir ("ul/a");
  make_dir ("ul/b");
  make_dir ("ul/b/sub");
  char path[64];
  for (int i = 0; i < 100; i++)
    {
      snprintf (path, sizeof path, "ul/%s/f%d", i % 2 ? "a" : "b", i);
      make_file (path);
    }
  int a = open ("ul/a", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int b = open ("ul/b", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct unlinker *u = unlinker_start ();
  if (!u || a < 0 || b < 0)
    tap_die ("unlinker_start");
  uint64_t last_a = 0;
  for (int i = 0; i < 100; i++)
    {
      snprintf (path, sizeof path, "f%d", i);
      uint64_t t = unlinker_add (u, i % 2 ? a : b, path, i % 2 ? 1 : 2);
      if (i % 2)
        last_a = t;
    }
  /* Gone already (no failure, not counted); a directory (EISDIR).  */
  unlinker_add (u, b, "missing", 2);
  unlinker_add (u, b, "sub", 2);
  unlinker_wait (u, last_a);
  tap_ok (rmdir ("ul/a") == 0, "unlinker_wait: every file queued up to "
          "the ticket is removed");
  unlinker_wait (u, UINT64_MAX);
  char names[256] = "";
  size_t n1 = unlinker_failures (u, 1, failed_name, names);
  size_t n2 = unlinker_failures (u, 2, failed_name, names);
  size_t again = unlinker_failures (u, UINT64_MAX, failed_name, names);
  char want[64];
  snprintf (want, sizeof want, "sub:%d ", EISDIR);
  tap_ok (n1 == 0 && n2 == 1 && again == 0 && strcmp (names, want) == 0,
          "unlinker_failures: the one failure, of its directory, once "
          "(%s)", names);
  tap_check_int ((long) unlinker_removed (u), 100,
                 "unlinker_removed: the files removed, not the missing");
  /* Paused, its failures are kept; what is queued then is removed by
     the thread that waits; resumed, its thread removes again.  */
  make_file ("ul/b/late");
  make_file ("ul/b/later");
  unlinker_add (u, b, "sub", 3);
  unlinker_pause (u);
  uint64_t t = unlinker_add (u, b, "late", 3);
  unlinker_wait (u, t);
  bool late_gone = access ("ul/b/late", F_OK) != 0;
  unlinker_resume (u);
  unlinker_wait (u, unlinker_add (u, b, "later", 3));
  names[0] = '\0';
  tap_ok (late_gone && access ("ul/b/later", F_OK) != 0
          && unlinker_failures (u, 3, failed_name, names) == 1
          && strcmp (names, want) == 0,
          "unlinker_pause, unlinker_resume: files removed while paused "
          "and after, the failure from before kept");
  unlinker_stop (u);
  close (a);
  close (b);
  tap_ok (rmdir ("ul/b/sub") == 0 && rmdir ("ul/b") == 0
          && rmdir ("ul") == 0, "unlinker: nothing else removed");
}

int
main (void)
{
  set_program_name ("remove-test");
  umask (022);
  const char *dir = tap_scratch ("/tmp");
  if (!dir)
    tap_die ("mkdtemp");
  if (chdir (dir) < 0)
    tap_die (dir);
  test_tree ();
  test_link_slash ();
  test_dry_run ();
  test_refusals ();
  test_dir_only ();
  test_interactive ();
  test_unlinker ();
  return tap_done ();
}
