/* race.h -- what the race drivers (ppoll-race.c, watch-race.c)
   share: their fatal message, their numbers, their clock, and the look at
   whether the tool under test sleeps in its wait.

   A driver defines RACE_NAME (its name: "watch-race") and includes this
   header after <config.h>.  Header only: every function is static and
   may go unused in a driver.  */

#ifndef NC_TESTS_RACE_H
#define NC_TESTS_RACE_H

#ifndef RACE_NAME
# error "define RACE_NAME, the driver's name, before including race.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "syscall_nr.h"

#define RACE_FN static __attribute__ ((unused))

/* "RACE_NAME: MESSAGE" on stderr, exit 1.  */
RACE_FN _Noreturn void race_die (const char *format, ...)
  __attribute__ ((format (printf, 1, 2)));

RACE_FN _Noreturn void
race_die (const char *format, ...)
{
  va_list ap;
  fputs (RACE_NAME ": ", stderr);
  va_start (ap, format);
  vfprintf (stderr, format, ap);
  va_end (ap);
  fputc ('\n', stderr);
  exit (EXIT_FAILURE);
}

/* The decimal number ARG; anything else (a sign, a suffix, too large)
   calls USAGE, which does not return.  */
RACE_FN unsigned long
race_number (const char *arg, void (*usage) (void))
{
  char *end;
  errno = 0;
  unsigned long n = strtoul (arg, &end, 10);
  if (errno || end == arg || *end || arg[0] == '-')
    usage ();
  return n;
}

/* CLOCK_MONOTONIC in seconds.  */
RACE_FN double
race_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Fork, with PIPE[2] a close-on-exec pipe made first: the child writes
   into it only if its exec fails (race_exec), the parent reads it once
   the exec is done (race_exec_check).  Return fork's result.  */
RACE_FN pid_t
race_fork (int pipe_fds[2])
{
  if (pipe2 (pipe_fds, O_CLOEXEC) != 0)
    race_die ("pipe2: %s", strerror (errno));
  pid_t pid = fork ();
  if (pid < 0)
    race_die ("fork: %s", strerror (errno));
  return pid;
}

/* In the child of race_fork: become ARGV; if that fails, tell the parent
   why through the pipe and exit 127.  */
RACE_FN _Noreturn void
race_exec (char **argv, int pipe_fds[2])
{
  execvp (argv[0], argv);
  int err = errno;
  if (write (pipe_fds[1], &err, sizeof err) < 0)
    _exit (127);
  _exit (127);
}

/* In the parent of race_fork: return once the child has exec'd NAME (the
   pipe closes, empty), die if it could not.  */
RACE_FN void
race_exec_check (int pipe_fds[2], const char *name)
{
  close (pipe_fds[1]);
  int err;
  ssize_t got;
  while ((got = read (pipe_fds[0], &err, sizeof err)) < 0 && errno == EINTR)
    continue;
  close (pipe_fds[0]);
  if (got > 0)
    race_die ("cannot run %s: %s", name, strerror (err));
}

/* Whether process PID sleeps in one of the waits of ppoll-wait (ppoll,
   pselect6, rt_sigsuspend), by /proc/PID/syscall; where that file cannot
   be read, or under qemu-user (NC_QEMU set), where it shows the call qemu
   makes by the host's numbers, the next best thing: PID has exec'd
   ppoll-wait and sleeps.  Return 1 or 0, or -1 if there is no process
   PID.  */
RACE_FN int
race_in_wait (pid_t pid)
{
  char path[64], buf[256];
  snprintf (path, sizeof path, "/proc/%jd/syscall", (intmax_t) pid);
  FILE *f = getenv ("NC_QEMU") ? NULL : fopen (path, "re");
  if (f)
    {
      bool waiting = false;
      long nr;
      if (fgets (buf, sizeof buf, f) && sscanf (buf, "%ld", &nr) == 1)
        waiting = (nr == NC_SYS_ppoll || nr == NC_SYS_pselect6
                   || nr == NC_SYS_rt_sigsuspend);
      bool readable = !ferror (f);
      fclose (f);
      if (readable)
        return waiting;
    }
  snprintf (path, sizeof path, "/proc/%jd/status", (intmax_t) pid);
  f = fopen (path, "re");
  if (!f)
    return -1;
  bool named = false, sleeping = false;
  while (fgets (buf, sizeof buf, f))
    {
      if (strcmp (buf, "Name:\tppoll-wait\n") == 0)
        named = true;
      if (strncmp (buf, "State:\tS", 8) == 0)
        sleeping = true;
    }
  fclose (f);
  return named && sleeping;
}

#endif
