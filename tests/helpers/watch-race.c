/* watch-race.c -- the races of ppoll-wait's path and pid: targets, for
   tests/tools/ppoll-watch.bats.

   A wait for a path that does not exist yet has a window that scripts
   get wrong: the path (or a directory on its way) appears between the
   check and the watch, and the wait sleeps on.  A wait for a process
   that is not a child has another: the process ends between the look
   and the wait.  Each mode below runs a tool N times and makes the
   event happen at a random moment after the tool has exec'd: before
   its wait has started in some rounds, during it in others.  The
   moments are drawn from 0 to 1 ms more than the time the tool takes
   to start, measured first (the median of 7 runs; a build with
   sanitizers takes tens of milliseconds, a plain one about one);
   -d MAXUS draws them from 0 to MAXUS microseconds instead.

   watch-race [-r] [-d MAXUS] tree N TOOL [ARG]...
       Each round, in a fresh directory D (under ./watch-race.XXXXXX,
       removed at the end): run TOOL ARG... D/a/b/c/file (the path is the
       last argument: ARG... ends with --exists, --closed or the like),
       and, at a random moment, make a/, a/b/, a/b/c/ and the file (open
       with O_CREAT, write a line, close).  With -r, the file is made
       as an atomic replace does: written as a/b/c/.file.tmp, then
       renamed to a/b/c/file.  TOOL must exit 0 within 10 s; it is
       killed then, and the round is missed.  The summary counts the
       creations that began before the tool was asleep in its wait
       (/proc/PID/syscall: ppoll or pselect6) and those after.

   watch-race [-c] [-d MAXUS] closed N TOOL [ARG]...
       Each round: a writer at work on a file last changed an hour ago
       (open for writing before TOOL starts) writes a line and closes it
       at a random moment from 0 to 30 ms (MAXUS) after TOOL has exec'd;
       with -c, the file is created, written and closed then.  TOOL ARG...
       FILE (ARG... ends with --closed) must exit 0 within 10 s: a file
       written after TOOL started and closed before its watch was in
       place counts as closed all the same.

   watch-race [-d MAXUS] pid N TOOL [ARG]...
       Each round: fork a sibling, a process of this driver that TOOL
       knows only by its number, then run TOOL ARG... pid:SIBLING.  The
       sibling exits at a random moment, with a CLOCK_MONOTONIC stamp
       taken just before its _exit in shared memory; it stays a zombie
       until TOOL is done, so its number cannot be reused meanwhile.
       TOOL must exit 0 within 10 s, else the round is missed.  The
       summary counts the exits before and after the tool was asleep in
       its wait and gives the lateness, from the sibling's stamp to the
       moment this driver reaped TOOL, of the rounds whose exit came
       during the wait: median, p99 and maximum, in ms.  A measure only,
       not a verdict: a loaded machine is late, and that is no failure.

   TOOL's standard output goes to /dev/null,
   its errors are left as they are.

   Exit status: 0 no round missed, 1 one was missed (or an error),
   2 usage.  The last line says how many rounds saw their event.  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RACE_NAME "watch-race"
#include "race.h"

#define WATCHDOG_S 10

static _Noreturn void
usage (void)
{
  fputs ("usage: watch-race [-r] [-d MAXUS] tree N TOOL [ARG]...\n"
         "       watch-race [-c] [-d MAXUS] closed N TOOL [ARG]...\n"
         "       watch-race [-d MAXUS] pid N TOOL [ARG]...\n", stderr);
  exit (2);
}

static uint64_t rng_state;

static uint64_t
rng_next (void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static void
pause_us (unsigned long us)
{
  struct timespec ts = { (time_t) (us / 1000000),
                         (long) (us % 1000000) * 1000 };
  while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
    continue;
}

/* Whether PID is asleep, by /proc/PID/stat: a cheap look, where reading
   /proc/PID/syscall waits for a running process to be switched out, and
   so slows down the start it would measure.  */
static bool
process_sleeping (pid_t pid)
{
  char path[64], buf[512];
  snprintf (path, sizeof path, "/proc/%jd/stat", (intmax_t) pid);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  ssize_t got = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (got <= 0)
    return false;
  buf[got] = '\0';
  const char *end = strrchr (buf, ')');
  return end && end[1] == ' ' && end[2] == 'S';
}

/* The watchdog: SIGALRM only interrupts the blocking waitpid below.  */
static void
on_alarm (int sig)
{
  (void) sig;
}

/* Wait up to WATCHDOG_S seconds for PID to end, then kill it.  Return
   its wait status, set *KILLED if it had to be killed and *ENDED to the
   moment waitpid returned.  */
static int
reap (pid_t pid, bool *killed, double *ended)
{
  *killed = false;
  alarm (WATCHDOG_S);
  int status;
  pid_t ret;
  while ((ret = waitpid (pid, &status, 0)) < 0 && errno == EINTR)
    if (!*killed)
      {
        kill (pid, SIGKILL);
        *killed = true;
      }
  *ended = race_now ();
  alarm (0);
  if (ret < 0)
    race_die ("waitpid: %s", strerror (errno));
  return status;
}

/* Fork and exec COMMAND, then LAST, with standard output on /dev/null;
   return its pid once it has exec'd.  */
static pid_t
spawn (char **command, int count, const char *last)
{
  char **argv = calloc ((size_t) count + 2, sizeof *argv);
  if (!argv)
    race_die ("out of memory");
  memcpy (argv, command, (size_t) count * sizeof *argv);
  argv[count] = (char *) last;

  int exec_pipe[2];
  pid_t pid = race_fork (exec_pipe);
  if (pid == 0)
    {
      int null = open ("/dev/null", O_WRONLY);
      if (null >= 0)
        dup2 (null, STDOUT_FILENO);
      signal (SIGALRM, SIG_DFL);
      race_exec (argv, exec_pipe);
    }
  free (argv);
  race_exec_check (exec_pipe, command[0]);
  return pid;
}

/* Print how round ROUND of N went wrong, by STATUS.  */
static void
report_missed (const char *mode, unsigned round, unsigned n, int status,
               bool killed)
{
  printf ("%s: round %u of %u missed: ", mode, round, n);
  if (killed)
    printf ("still waiting after %d s\n", WATCHDOG_S);
  else if (WIFSIGNALED (status))
    printf ("killed by signal %d\n", WTERMSIG (status));
  else
    printf ("exit status %d%s\n", WEXITSTATUS (status),
            WEXITSTATUS (status) == 124 ? " (timed out)" : "");
}

/* How long TOOL takes from its exec to its sleep in the wait, in
   microseconds: the median of CALIBRATION_ROUNDS runs of COMMAND, then
   LAST, which must not become ready (a first, cold run is slower).  */
#define CALIBRATION_ROUNDS 7

static int compare_doubles (const void *a, const void *b);

static unsigned long
startup_us (char **command, int count, const char *last)
{
  double took[CALIBRATION_ROUNDS];
  for (int i = 0; i < CALIBRATION_ROUNDS; i++)
    {
      /* From the exec, as the moments of the rounds.  */
      pid_t pid = spawn (command, count, last);
      double start = race_now ();
      while (!process_sleeping (pid) || race_in_wait (pid) != 1)
        {
          if (race_now () - start > WATCHDOG_S)
            race_die ("%s is not waiting after %d s", command[0], WATCHDOG_S);
          pause_us (20);
        }
      took[i] = race_now () - start;
      kill (pid, SIGKILL);
      bool killed;
      double ended;
      reap (pid, &killed, &ended);
    }
  qsort (took, CALIBRATION_ROUNDS, sizeof *took, compare_doubles);
  return (unsigned long) (took[CALIBRATION_ROUNDS / 2] * 1e6);
}

/* The span of the random moments, [*LO, *HI] in microseconds: [0,
   MAX_US] if MAX_US is given (non-zero), else from 0 to 1 ms more than
   STARTUP, the tool's start-up time: about half the moments come before
   the tool sleeps, and a round costs little more than the tool's own
   start, tens of ms with sanitizers.  */
static void
moment_span (unsigned long max_us, unsigned long startup, unsigned long *lo,
             unsigned long *hi)
{
  if (max_us)
    {
      *lo = 0;
      *hi = max_us;
      return;
    }
  *lo = 0;
  *hi = startup + 1000;
}

static unsigned long
moment (unsigned long lo, unsigned long hi)
{
  return lo + (unsigned long) (rng_next () % (hi - lo + 1));
}

/* A round's start: TOOL spawned on TARGET, then DELAY microseconds;
   *AFTER counts the rounds where it was asleep in its wait by then,
   *BEFORE the others.  Its pid.  */
static pid_t
spawn_round (char **command, int count, const char *target,
             unsigned long delay, unsigned *before, unsigned *after)
{
  pid_t pid = spawn (command, count, target);
  pause_us (delay);
  if (race_in_wait (pid) == 1)
    (*after)++;
  else
    (*before)++;
  return pid;
}

/* A round's end: 1 if TOOL, PID, missed its event (not exit 0 within
   the watchdog's time), said as round ROUND of N of MODE; else 0.  */
static unsigned
round_missed (pid_t pid, const char *mode, unsigned round, unsigned n)
{
  bool killed;
  double ended;
  int status = reap (pid, &killed, &ended);
  if (!killed && WIFEXITED (status) && WEXITSTATUS (status) == 0)
    return 0;
  report_missed (mode, round, n, status, killed);
  return 1;
}

/* --- tree -------------------------------------------------------------- */

/* DIR followed by NAME in PATH (PATH_MAX bytes).  */
static void
join (char *path, const char *dir, const char *name)
{
  int len = snprintf (path, PATH_MAX, "%s%s", dir, name);
  if (len < 0 || len >= PATH_MAX)
    race_die ("%s%s: name too long", dir, name);
}

static void
must (int ret, const char *what, const char *path)
{
  if (ret != 0)
    race_die ("%s %s: %s", what, path, strerror (errno));
}

/* Make DIR/a/b/c/file, the file written and closed, or written under
   another name and renamed into place if RENAME.  */
static void
create_tree (const char *dir, bool rename_into_place)
{
  char path[PATH_MAX], tmp[PATH_MAX];
  static const char *const steps[] = { "/a", "/a/b", "/a/b/c" };
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
    {
      join (path, dir, steps[i]);
      must (mkdir (path, 0755), "mkdir", path);
    }
  join (path, dir, "/a/b/c/file");
  join (tmp, dir, "/a/b/c/.file.tmp");
  const char *name = rename_into_place ? tmp : path;
  int fd = open (name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    race_die ("open %s: %s", name, strerror (errno));
  static const char line[] = "made by watch-race\n";
  if (write (fd, line, sizeof line - 1) != (ssize_t) (sizeof line - 1))
    race_die ("write %s: %s", name, strerror (errno));
  must (close (fd), "close", name);
  if (rename_into_place)
    must (rename (tmp, path), "rename", tmp);
}

static void
remove_tree (const char *dir)
{
  char path[PATH_MAX];
  static const char *const steps[] = { "/a/b/c/file", "/a/b/c/.file.tmp",
                                       "/a/b/c", "/a/b", "/a", "" };
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
    {
      join (path, dir, steps[i]);
      if (remove (path) != 0 && errno != ENOENT)
        race_die ("remove %s: %s", path, strerror (errno));
    }
}

static int
run_tree (unsigned n, bool rename_into_place, unsigned long max_us,
          char **command, int count)
{
  const char *mode = rename_into_place ? "tree -r" : "tree";
  char base[] = "watch-race.XXXXXX";
  if (!mkdtemp (base))
    race_die ("mkdtemp: %s", strerror (errno));
  char never[PATH_MAX];
  join (never, base, "/never/made");
  unsigned long lo, hi;
  moment_span (max_us, startup_us (command, count, never), &lo, &hi);
  unsigned missed = 0, before = 0, after = 0;
  for (unsigned round = 1; round <= n; round++)
    {
      char dir[64], target[PATH_MAX];
      snprintf (dir, sizeof dir, "%s/%u", base, round);
      must (mkdir (dir, 0755), "mkdir", dir);
      join (target, dir, "/a/b/c/file");
      unsigned long delay = moment (lo, hi);

      pid_t pid = spawn_round (command, count, target, delay, &before,
                               &after);
      create_tree (dir, rename_into_place);
      missed += round_missed (pid, mode, round, n);
      remove_tree (dir);
    }
  if (rmdir (base) != 0)
    race_die ("rmdir %s: %s", base, strerror (errno));
  printf ("%s: %u of %u rounds seen, %u missed (created before the tool "
          "slept in its wait: %u, after: %u; moments %lu-%lu us)\n", mode,
          n - missed, n, missed, before, after, lo, hi);
  return missed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* --- closed ------------------------------------------------------------ */

/* Open PATH for writing, made if CREATE, and written an hour ago if not
   made: a file last changed before the tool started.  */
static int
open_writer (const char *path, bool create)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0),
                 0644);
  if (fd < 0)
    race_die ("open %s: %s", path, strerror (errno));
  return fd;
}

/* Make PATH, an empty file last changed an hour ago.  */
static void
make_old_file (const char *path)
{
  close (open_writer (path, true));
  struct timespec past[2];
  clock_gettime (CLOCK_REALTIME, &past[0]);
  past[0].tv_sec -= 3600;
  past[1] = past[0];
  must (utimensat (AT_FDCWD, path, past, 0), "utimensat", path);
}

static int
run_closed (unsigned n, bool create, unsigned long max_us, char **command,
            int count)
{
  const char *mode = create ? "closed -c" : "closed";
  char base[] = "watch-race.XXXXXX";
  if (!mkdtemp (base))
    race_die ("mkdtemp: %s", strerror (errno));
  unsigned long lo = 0, hi = max_us ? max_us : 30000;
  unsigned missed = 0, before = 0, after = 0;
  for (unsigned round = 1; round <= n; round++)
    {
      char target[PATH_MAX];
      snprintf (target, sizeof target, "%s/file.%u", base, round);
      int fd = -1;
      if (!create)
        {
          make_old_file (target);
          fd = open_writer (target, false);
        }
      unsigned long delay = moment (lo, hi);

      pid_t pid = spawn_round (command, count, target, delay, &before,
                               &after);
      if (create)
        fd = open_writer (target, true);
      static const char line[] = "written by watch-race\n";
      if (write (fd, line, sizeof line - 1) != (ssize_t) (sizeof line - 1))
        race_die ("write %s: %s", target, strerror (errno));
      must (close (fd), "close", target);
      missed += round_missed (pid, mode, round, n);
      must (unlink (target), "unlink", target);
    }
  if (rmdir (base) != 0)
    race_die ("rmdir %s: %s", base, strerror (errno));
  printf ("%s: %u of %u rounds seen, %u missed (closed before the tool "
          "slept in its wait: %u, after: %u; moments %lu-%lu us)\n", mode,
          n - missed, n, missed, before, after, lo, hi);
  return missed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* --- pid --------------------------------------------------------------- */

/* What the sibling shares with this driver.  */
struct shared
{
  double exited;        /* its CLOCK_MONOTONIC stamp, just before _exit */
  int tool_waiting;     /* whether TOOL was asleep in its wait then */
};

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static int
run_pid (unsigned n, unsigned long max_us, char **command, int count)
{
  struct shared *shared = mmap (NULL, sizeof *shared, PROT_READ | PROT_WRITE,
                                MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED)
    race_die ("mmap: %s", strerror (errno));
  double *lateness = calloc (n, sizeof *lateness);
  if (!lateness)
    race_die ("out of memory");
  pid_t sleeper = fork ();
  if (sleeper < 0)
    race_die ("fork: %s", strerror (errno));
  if (sleeper == 0)
    for (;;)
      pause ();
  char operand[32];
  snprintf (operand, sizeof operand, "pid:%jd", (intmax_t) sleeper);
  unsigned long startup = startup_us (command, count, operand);
  kill (sleeper, SIGKILL);
  waitpid (sleeper, NULL, 0);
  unsigned long lo, hi;
  moment_span (max_us, startup, &lo, &hi);

  unsigned missed = 0, before = 0, after = 0;
  for (unsigned round = 1; round <= n; round++)
    {
      unsigned long delay = moment (lo, hi);
      /* The sibling starts its clock when it reads TOOL's pid: the
         moment TOOL has exec'd.  */
      int go[2];
      if (pipe2 (go, O_CLOEXEC) != 0)
        race_die ("pipe2: %s", strerror (errno));
      pid_t sibling = fork ();
      if (sibling < 0)
        race_die ("fork: %s", strerror (errno));
      if (sibling == 0)
        {
          close (go[1]);
          pid_t tool;
          if (read (go[0], &tool, sizeof tool) != (ssize_t) sizeof tool)
            _exit (1);
          pause_us (delay);
          shared->tool_waiting = race_in_wait (tool) == 1;
          shared->exited = race_now ();
          _exit (0);
        }
      close (go[0]);
      snprintf (operand, sizeof operand, "pid:%jd", (intmax_t) sibling);
      pid_t pid = spawn (command, count, operand);
      if (write (go[1], &pid, sizeof pid) != (ssize_t) sizeof pid)
        race_die ("write: %s", strerror (errno));
      close (go[1]);

      bool killed;
      double ended;
      int status = reap (pid, &killed, &ended);
      /* Only now: until TOOL is done, the sibling's number stays its.  */
      int sibling_status;
      if (waitpid (sibling, &sibling_status, 0) != sibling)
        race_die ("waitpid: %s", strerror (errno));
      if (!WIFEXITED (sibling_status) || WEXITSTATUS (sibling_status) != 0)
        race_die ("round %u: the sibling failed", round);
      if (killed || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
        {
          missed++;
          report_missed ("pid", round, n, status, killed);
        }
      else if (shared->tool_waiting)
        lateness[after++] = (ended - shared->exited) * 1000;
      else
        before++;
    }
  qsort (lateness, after, sizeof *lateness, compare_doubles);
  printf ("pid: %u of %u rounds seen, %u missed (the sibling exited before "
          "the tool slept in its wait: %u, after: %u", n - missed, n, missed,
          before, after);
  if (after)
    printf ("; lateness of those after: median %.3f ms, p99 %.3f ms, "
            "max %.3f ms", lateness[after / 2],
            lateness[(size_t) ((after - 1) * 0.99)], lateness[after - 1]);
  printf ("; moments %lu-%lu us)\n", lo, hi);
  free (lateness);
  return missed ? EXIT_FAILURE : EXIT_SUCCESS;
}

int
main (int argc, char **argv)
{
  setvbuf (stdout, NULL, _IOLBF, 0);
  bool rename_into_place = false, create = false;
  unsigned long max_us = 0;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++)
    if (strcmp (argv[i], "-r") == 0)
      rename_into_place = true;
    else if (strcmp (argv[i], "-c") == 0)
      create = true;
    else if (strcmp (argv[i], "-d") == 0 && i + 1 < argc)
      max_us = race_number (argv[++i], usage);
    else
      usage ();
  if (argc - i < 3 || max_us > 10 * 1000 * 1000)
    usage ();
  const char *mode = argv[i];
  unsigned long n = race_number (argv[i + 1], usage);
  if (n == 0 || n > UINT_MAX)
    usage ();

  struct sigaction sa = { .sa_handler = on_alarm };
  if (sigaction (SIGALRM, &sa, NULL) != 0)
    race_die ("sigaction: %s", strerror (errno));
  rng_state = (uint64_t) getpid () << 32 ^ (uint64_t) (race_now () * 1e9);
  if (!rng_state)
    rng_state = 1;
  uint64_t seed = rng_state;

  int status;
  if (create && strcmp (mode, "closed") != 0)
    usage ();
  if (strcmp (mode, "closed") == 0 && !rename_into_place)
    status = run_closed ((unsigned) n, create, max_us, argv + i + 2,
                         argc - i - 2);
  else if (strcmp (mode, "tree") == 0)
    status = run_tree ((unsigned) n, rename_into_place, max_us, argv + i + 2,
                       argc - i - 2);
  else if (strcmp (mode, "pid") == 0 && !rename_into_place)
    status = run_pid ((unsigned) n, max_us, argv + i + 2, argc - i - 2);
  else
    usage ();
  if (status != EXIT_SUCCESS)
    fprintf (stderr, "watch-race: the moments came from seed %#" PRIx64 "\n",
             seed);
  return status;
}
