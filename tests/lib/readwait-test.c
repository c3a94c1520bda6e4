/* readwait-test.c -- the C test driver of lib/sys/readwait.c, one read
   that waits for input, and of its user lib/ranges/read-all.c: a signal
   that interrupts the read or the wait (SIGALRM, SA_RESTART off) is
   retried, a non-blocking pipe whose writer is slow is waited for, the
   end gives 0 and a read's error its -errno.

   The writers are children that sleep before they write; the directory
   read is the current one, only read.  Output: TAP lines
   (tests/lib/tap.h).  */

#include <config.h>

#define TAP_NAME "readwait-test"
#include "tap.h"

#include <signal.h>
#include <sys/time.h>
#include <time.h>

#include "ranges/read-all.h"
#include "sys/readwait.h"

/* gnulib replaces these; the tests want glibc's own.  */
#undef open
#undef close

/* How long a writer sleeps before it writes: long beside the timer's
   period, so that signals come while the reader waits.  */
enum { WRITER_DELAY_MS = 300, ALARM_PERIOD_MS = 20 };

static volatile sig_atomic_t alarms;

static void
on_alarm (int sig)
{
  (void) sig;
  alarms++;
}

/* SIGALRM every ALARM_PERIOD_MS from now, caught without SA_RESTART:
   a blocking read it interrupts fails with EINTR, and so does a wait.  */
static void
alarms_start (void)
{
  struct sigaction sa = { .sa_handler = on_alarm };
  sigemptyset (&sa.sa_mask);
  sigaction (SIGALRM, &sa, NULL);
  struct timeval period = { 0, ALARM_PERIOD_MS * 1000 };
  alarms = 0;
  setitimer (ITIMER_REAL,
             &(struct itimerval) { .it_interval = period,
                                   .it_value = period }, NULL);
}

static void
alarms_stop (void)
{
  setitimer (ITIMER_REAL, &(struct itimerval) { { 0, 0 }, { 0, 0 } }, NULL);
  signal (SIGALRM, SIG_DFL);
}

/* A pipe whose read end has FLAGS (O_NONBLOCK or 0), and a child that
   writes TEXT to it after WRITER_DELAY_MS and exits; *READ_END is the
   read end, the only end left open here.  The child's pid.  */
static pid_t
slow_pipe (int flags, const char *text, int *read_end)
{
  int p[2];
  if (pipe2 (p, O_CLOEXEC) < 0)
    tap_die ("pipe2");
  pid_t pid = fork ();
  if (pid < 0)
    tap_die ("fork");
  if (pid == 0)
    {
      close (p[0]);
      nanosleep (&(struct timespec) { 0, WRITER_DELAY_MS * 1000000L },
                 NULL);
      _exit (write (p[1], text, strlen (text)) == (ssize_t) strlen (text)
             ? 0 : 1);
    }
  close (p[1]);
  if (flags && fcntl (p[0], F_SETFL, fcntl (p[0], F_GETFL) | flags) < 0)
    tap_die ("fcntl F_SETFL");
  *read_end = p[0];
  return pid;
}

/* The child PID's exit status must be 0 (it wrote all it had).  */
static void
reap (pid_t pid)
{
  int status;
  if (waitpid (pid, &status, 0) != pid)
    tap_die ("waitpid");
  tap_check (WIFEXITED (status) && WEXITSTATUS (status) == 0,
             "the writer failed", "the slow writer wrote");
}

/* A read_wait of a pipe with FLAGS whose writer is slow, interrupted by
   SIGALRMs when WITH_ALARMS: the writer's bytes, then the end.  */
static void
slow_writer_case (const char *what, int flags, bool with_alarms)
{
  static const char text[] = "slow bytes";
  char buf[64];
  int fd;
  pid_t pid = slow_pipe (flags, text, &fd);
  if (with_alarms)
    alarms_start ();
  ssize_t got = read_wait (fd, buf, sizeof buf);
  if (with_alarms)
    {
      alarms_stop ();
      tap_check (alarms > 0, "no signal came while it waited",
                 "%s: signals came while it waited", what);
    }
  tap_check (got == (ssize_t) strlen (text)
             && memcmp (buf, text, strlen (text)) == 0,
             "not the writer's bytes", "%s: the writer's bytes", what);
  reap (pid);
  tap_check_int (read_wait (fd, buf, sizeof buf), 0,
                 "%s: then the end, 0", what);
  close (fd);
}

static void
test_read_wait (void)
{
  slow_writer_case ("a blocking read interrupted by SIGALRM (EINTR)", 0,
                    true);
  slow_writer_case ("a non-blocking pipe (EAGAIN) waited for", O_NONBLOCK,
                    false);
  slow_writer_case ("the wait on a non-blocking pipe interrupted by "
                    "SIGALRM (EINTR)", O_NONBLOCK, true);

  char buf[16];
  tap_check_int (read_wait (-1, buf, sizeof buf), -EBADF,
                 "read_wait of descriptor -1: -EBADF");
  int dir = open (".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0)
    tap_die ("open .");
  tap_check_int (read_wait (dir, buf, sizeof buf), -EISDIR,
                 "read_wait of a directory: -EISDIR");
  close (dir);
}

/* nc_read_all of a non-blocking pipe whose writer is slow: all of it;
   of a directory: -EISDIR and no buffer.  */
static void
test_read_all (void)
{
  static const char text[] = "00000001: 5859\n";
  int fd;
  pid_t pid = slow_pipe (O_NONBLOCK, text, &fd);
  unsigned char *buf;
  size_t len = 0;
  int ret = nc_read_all (fd, &buf, &len);
  tap_check (ret == 0 && len == strlen (text)
             && memcmp (buf, text, len) == 0, "not the writer's bytes",
             "nc_read_all of a non-blocking pipe: all the slow writer "
             "wrote");
  free (buf);
  reap (pid);
  close (fd);

  int dir = open (".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0)
    tap_die ("open .");
  ret = nc_read_all (dir, &buf, &len);
  tap_check_int (ret, -EISDIR, "nc_read_all of a directory: -EISDIR");
  tap_ok (buf == NULL, "nc_read_all of a directory: no buffer");
  close (dir);
}

int
main (void)
{
  test_read_wait ();
  test_read_all ();
  return tap_done ();
}
