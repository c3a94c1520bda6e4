/* wait-test.c -- the C test driver of lib/wait/loop, lib/wait/signals and
   the targets of lib/wait/target, as ppoll-wait uses them: targets taken
   (and the step a failure names), a wait for one target or all of them,
   by ppoll and by pselect6, a path ready from the start, the time left,
   a signal of the wait that arrived before it, and the targets passed
   on to a command on descriptors 3, 4...  Output: TAP; "wait-test: N
   passed, M failed, K skipped".  */

#include <config.h>

#define TAP_NAME "wait-test"
#include "tap.h"

#include <poll.h>
#include <signal.h>
#include <sys/stat.h>

#include "wait/loop.h"
#include "wait/signals.h"
#include "wait/target.h"

/* A pipe, its read end's number as a target name in NAME.  */
static void
make_pipe (int p[2], char name[16])
{
  if (pipe (p) != 0)
    tap_die ("pipe");
  snprintf (name, 16, "%d", p[0]);
}

static void
close_pipes (int a[2], int b[2])
{
  close (a[0]);
  close (a[1]);
  if (b)
    {
      close (b[0]);
      close (b[1]);
    }
}

/* Wait for the N targets of T as ppoll-wait does, ALL or not, by
   pselect6 if SELECT, TIMEOUT (or none if NULL); return the outcome.  */
static int
run (struct target *t, size_t n, bool all, bool select,
     struct timespec *timeout)
{
  sigset_t mask;
  sigemptyset (&mask);
  struct wait_request w = { .targets = t, .n_targets = n, .events = POLLIN,
                            .all = all, .select = select, .mask = &mask,
                            .timeout = timeout };
  struct target *failed;
  int ret = wait_run (&w, &failed);
  if (ret < 0)
    tap_die ("wait_run");
  return ret;
}

static void
test_open_failures (void)
{
  struct target t = { .name = "999" };
  struct target *failed;
  int ret = targets_open (&t, 1, POLLIN, false, NULL, &failed);
  tap_check (ret == -EBADF && failed == &t && !t.opened, NULL,
             "targets_open: a descriptor number not open: EBADF, not opened");
  t = (struct target) { .name = "no such file" };
  ret = targets_open (&t, 1, POLLIN, false, NULL, &failed);
  tap_check (ret == -ENOENT && failed == &t && t.opened && t.fd < 0, NULL,
             "targets_open: a missing file: ENOENT, opened, no descriptor");
  t = (struct target) { .name = "." };
  ret = targets_open (&t, 1, POLLIN, false, NULL, &failed);
  tap_check (ret == -EISDIR && failed == &t && t.opened && t.fd >= 0, NULL,
             "targets_open: a directory: EISDIR, with its descriptor");
  if (t.fd >= 0)
    close (t.fd);
}

static void
test_one_or_all (bool select)
{
  const char *by = select ? "pselect6" : "ppoll";
  int a[2], b[2];
  char na[16], nb[16];
  make_pipe (a, na);
  make_pipe (b, nb);
  struct target t[2] = { { .name = na }, { .name = nb } };
  struct target *failed;
  if (targets_open (t, 2, POLLIN, false, NULL, &failed) != 0)
    tap_die ("targets_open");
  xwrite (b[1], "x", 1);
  struct timespec timeout = { 10, 0 };
  int outcome = run (t, 2, false, select, &timeout);
  tap_check (outcome == WAIT_READY && !t[0].revents
             && t[1].revents == POLLIN, NULL,
             "%s: one of two ready: ready, its revents POLLIN", by);
  tap_check (timeout.tv_sec <= 10 && (timeout.tv_sec > 0
                                      || timeout.tv_nsec > 0), NULL,
             "%s: the time left written back", by);
  t[1].revents = 0;
  timeout = (struct timespec) { 0, 50 * 1000 * 1000 };
  outcome = run (t, 2, true, select, &timeout);
  tap_check (outcome == WAIT_TIMEOUT && !t[0].revents && t[1].revents
             && timeout.tv_sec == 0 && timeout.tv_nsec == 0, NULL,
             "%s: --all, one of two ready: timeout, no time left", by);
  t[1].revents = 0;
  xwrite (a[1], "x", 1);
  outcome = run (t, 2, true, select, NULL);
  tap_check (outcome == WAIT_READY && t[0].revents && t[1].revents, NULL,
             "%s: --all, both ready: ready", by);
  close_pipes (a, b);
}

static void
test_path_ready_at_start (void)
{
  int p[2];
  char name[16];
  make_pipe (p, name);
  xwrite (p[1], "x", 1);
  struct target t[2] = { { .name = name },
                         { .name = ".", .kind = TARGET_PATH,
                           .path_event = PATHWATCH_EXISTS } };
  struct target *failed;
  if (targets_open (t, 2, POLLIN, false, NULL, &failed) != 0)
    tap_die ("targets_open");
  int outcome = run (t, 2, false, false, NULL);
  tap_check (outcome == WAIT_READY && t[1].revents == POLLIN
             && t[0].revents == POLLIN, NULL,
             "a path that exists from the start: ready, and the "
             "descriptor ready with it");
  pathwatch_free (t[1].watch);
  close_pipes (p, NULL);
}

/* A WAKE signal sent before the wait, while blocked, ends it.  Last: the
   first signal caught is the one a process records.  */
static void
test_signal (void)
{
  sigset_t wake, ignore, inherited, mask;
  sigemptyset (&wake);
  sigemptyset (&ignore);
  sigaddset (&wake, SIGUSR1);
  sigaddset (&ignore, SIGUSR2);
  int failed_sig = 0;
  if (wait_block_signals (&wake, &ignore, &inherited, &mask) != 0
      || wait_catch_signals (&wake, &failed_sig) != 0)
    tap_die ("signals");
  tap_check (sigismember (&mask, SIGUSR2) == 1
             && sigismember (&mask, SIGUSR1) == 0, NULL,
             "the wait's mask: IGNORE blocked, WAKE not");
  raise (SIGUSR1);
  tap_check (wait_caught_signal () == 0, NULL,
             "a WAKE signal sent outside the wait stays pending");
  struct timespec timeout = { 10, 0 };
  struct wait_request w = { .mask = &mask, .timeout = &timeout };
  struct target *failed;
  int outcome = wait_run (&w, &failed);
  tap_check (outcome == WAIT_SIGNAL && wait_caught_signal () == SIGUSR1,
             NULL, "no target: the pending signal ends the wait");
  const char *what;
  tap_check (wait_restore_signals (&ignore, &inherited, &what) == 0, NULL,
             "the signals put back");
}

/* targets_pass, in a child, whose descriptors 3 and 4 it takes.  */
static void
test_pass (void)
{
  int a[2], b[2];
  char na[16], nb[16];
  make_pipe (a, na);
  make_pipe (b, nb);
  struct stat sa, sb;
  if (fstat (a[0], &sa) != 0 || fstat (b[0], &sb) != 0)
    tap_die ("fstat");
  pid_t pid = fork ();
  if (pid < 0)
    tap_die ("fork");
  if (pid == 0)
    {
      struct target t[2] = { { .name = na }, { .name = nb } };
      struct target *failed;
      if (targets_open (t, 2, POLLIN, false, NULL, &failed) != 0)
        _exit (2);
      t[1].revents = POLLIN;
      char *ready;
      const struct target *bad;
      int to;
      struct stat s3, s4;
      if (targets_pass (t, 2, &ready, &bad, &to) != 0
          || fstat (3, &s3) != 0 || fstat (4, &s4) != 0)
        _exit (3);
      _exit (s3.st_ino == sa.st_ino && s4.st_ino == sb.st_ino
             && strcmp (ready, "4") == 0 ? 0 : 4);
    }
  int status;
  if (waitpid (pid, &status, 0) != pid)
    tap_die ("waitpid");
  tap_check_int (WIFEXITED (status) ? WEXITSTATUS (status) : -1, 0,
                 "targets_pass: the targets on 3 and 4, the ready one "
                 "listed");
  close_pipes (a, b);
}

int
main (void)
{
  if (chdir (tap_scratch ("/tmp")) != 0)
    tap_die ("chdir");
  test_open_failures ();
  test_one_or_all (false);
  test_one_or_all (true);
  test_path_ready_at_start ();
  test_pass ();
  test_signal ();
  return tap_done ();
}
