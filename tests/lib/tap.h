/* tap.h -- the Test Anything Protocol output of the C test drivers, and
   their scratch directories.

   A driver defines TAP_NAME (its name: "sys-io-test") and includes this
   header after <config.h>.  Every check prints "ok N - what" or
   "not ok N - what (detail)"; a skip prints "ok N - # SKIP why".
   tap_done prints the last line, "NAME: N passed, M failed, K skipped"
   (arch/check-arches adds these up), and returns the exit status: 1 if
   a check failed, else 0.  tap_die is the way out for a set-up failure
   that is not a check's: "NAME: WHAT: strerror (errno)" on stderr, exit
   status 99 (a hard error, not a failed check).

   tap_scratch makes a mkdtemp directory under a given parent (/tmp,
   /dev/shm for a tmpfs); the process that made the first one removes
   them all, with what they hold, at exit (children that exit do not).

   The test data and I/O helpers: fill_random, read_at, read_all,
   xwrite, xopenat, fd_pos, and small files of text: read_text,
   write_text.

   Header only: every function is static and may go unused in a driver.  */

#ifndef NC_TESTS_TAP_H
#define NC_TESTS_TAP_H

#ifndef TAP_NAME
# error "define TAP_NAME, the driver's name, before including tap.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TAP_FN static __attribute__ ((unused))

static int tap_n_test, tap_n_pass, tap_n_fail, tap_n_skip;

/* One check: OK, the description made of FMT and AP, and when not OK
   the explanation DETAIL (none if NULL).  */
TAP_FN void tap_vreport (bool ok, const char *detail, const char *fmt,
                         va_list ap) __attribute__ ((format (printf, 3, 0)));

TAP_FN void
tap_vreport (bool ok, const char *detail, const char *fmt, va_list ap)
{
  char desc[512];
  vsnprintf (desc, sizeof desc, fmt, ap);
  tap_n_test++;
  if (ok)
    {
      tap_n_pass++;
      printf ("ok %d - %s\n", tap_n_test, desc);
    }
  else
    {
      tap_n_fail++;
      if (detail)
        printf ("not ok %d - %s (%s)\n", tap_n_test, desc, detail);
      else
        printf ("not ok %d - %s\n", tap_n_test, desc);
    }
  fflush (stdout);
}

/* A check with a free-form explanation DETAIL of the failure (NULL: none).
   Returns OK.  */
TAP_FN bool tap_check (bool ok, const char *detail, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

TAP_FN bool
tap_check (bool ok, const char *detail, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  tap_vreport (ok, detail, fmt, ap);
  va_end (ap);
  return ok;
}

/* A check that explains nothing on failure.  Returns OK.  */
TAP_FN bool tap_ok (bool ok, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

TAP_FN bool
tap_ok (bool ok, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  tap_vreport (ok, NULL, fmt, ap);
  va_end (ap);
  return ok;
}

/* V as "-2 (ENOENT)" when it is an -errno value, else the number.  */
TAP_FN const char *
tap_fmt_val (long long v, char *buf, size_t size)
{
  const char *name = NULL;
  if (v < 0 && v >= -4095)
    name = strerrorname_np ((int) -v);
  if (name)
    snprintf (buf, size, "%lld (%s)", v, name);
  else
    snprintf (buf, size, "%lld", v);
  return buf;
}

/* ACTUAL must equal EXPECTED.  Returns whether it does.  */
TAP_FN bool tap_check_int (long long actual, long long expected,
                           const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

TAP_FN bool
tap_check_int (long long actual, long long expected, const char *fmt, ...)
{
  char detail[200], a[64], e[64];
  va_list ap;
  snprintf (detail, sizeof detail, "got %s, want %s",
            tap_fmt_val (actual, a, sizeof a),
            tap_fmt_val (expected, e, sizeof e));
  va_start (ap, fmt);
  tap_vreport (actual == expected, detail, fmt, ap);
  va_end (ap);
  return actual == expected;
}

/* The string ACTUAL must equal EXPECTED (NULL matches only NULL).  */
TAP_FN bool tap_check_str (const char *actual, const char *expected,
                           const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

TAP_FN bool
tap_check_str (const char *actual, const char *expected, const char *fmt, ...)
{
  char detail[400];
  bool ok = (actual && expected ? strcmp (actual, expected) == 0
             : actual == expected);
  va_list ap;
  snprintf (detail, sizeof detail, "got \"%s\", want \"%s\"",
            actual ? actual : "(null)", expected ? expected : "(null)");
  va_start (ap, fmt);
  tap_vreport (ok, detail, fmt, ap);
  va_end (ap);
  return ok;
}

/* A check that cannot run here, and why.  */
TAP_FN void tap_skip (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

TAP_FN void
tap_skip (const char *fmt, ...)
{
  char why[512];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (why, sizeof why, fmt, ap);
  va_end (ap);
  tap_n_test++;
  tap_n_skip++;
  printf ("ok %d - # SKIP %s\n", tap_n_test, why);
  fflush (stdout);
}

/* The summary line; the exit status of the driver.  */
TAP_FN int
tap_done (void)
{
  printf ("%s: %d passed, %d failed, %d skipped\n", TAP_NAME, tap_n_pass,
          tap_n_fail, tap_n_skip);
  fflush (stdout);
  return tap_n_fail ? 1 : 0;
}

/* A set-up step WHAT failed with errno: no test result can follow.  */
TAP_FN _Noreturn void
tap_die (const char *what)
{
  fprintf (stderr, "%s: %s: %s\n", TAP_NAME, what, strerror (errno));
  exit (99);
}

/* ------------------------------------------------------------------ */
/* Test data and I/O.  */

/* Fill BUF with LEN pseudo-random bytes (xorshift, seeded).  */
TAP_FN void
fill_random (unsigned char *buf, size_t len, uint32_t seed)
{
  uint32_t x = seed ? seed : 1;
  for (size_t i = 0; i < len; i++)
    {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      buf[i] = (unsigned char) x;
    }
}

/* Read LEN bytes at OFF of FD (pread loop); return the count read.  */
TAP_FN size_t
read_at (int fd, void *buf, size_t len, off_t off)
{
  size_t done = 0;
  while (done < len)
    {
      ssize_t n = pread (fd, (char *) buf + done, len - done, off + done);
      if (n <= 0)
        break;
      done += n;
    }
  return done;
}

/* Read up to LEN bytes from FD at its position until EOF or LEN.  */
TAP_FN size_t
read_all (int fd, void *buf, size_t len)
{
  size_t done = 0;
  while (done < len)
    {
      ssize_t n = read (fd, (char *) buf + done, len - done);
      if (n <= 0)
        break;
      done += n;
    }
  return done;
}

/* Setup I/O that must work: write exactly LEN bytes.  */
TAP_FN void
xwrite (int fd, const void *buf, size_t len)
{
  if (write (fd, buf, len) != (ssize_t) len)
    tap_die ("write");
}

/* NAME opened relative to DIRFD with FLAGS and O_CLOEXEC (mode 0644 if
   created), which must work.  */
TAP_FN int
xopenat (int dirfd, const char *name, int flags)
{
  int fd = openat (dirfd, name, flags | O_CLOEXEC, 0644);
  if (fd < 0)
    tap_die (name);
  return fd;
}

/* The file offset of FD.  */
TAP_FN off_t
fd_pos (int fd)
{
  return lseek (fd, 0, SEEK_CUR);
}

/* The content of NAME in DIRFD, at most SIZE - 1 bytes, into BUF; "" if
   it cannot be read.  */
TAP_FN const char *
read_text (int dirfd, const char *name, char *buf, size_t size)
{
  buf[0] = '\0';
  int fd = openat (dirfd, name, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return buf;
  ssize_t n = read (fd, buf, size - 1);
  buf[n > 0 ? n : 0] = '\0';
  close (fd);
  return buf;
}

/* Setup that must work: NAME in DIRFD made (or emptied) holding TEXT.  */
TAP_FN void
write_text (int dirfd, const char *name, const char *text)
{
  int fd = openat (dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                   0644);
  if (fd < 0 || write (fd, text, strlen (text)) != (ssize_t) strlen (text))
    tap_die (name);
  close (fd);
}

/* ------------------------------------------------------------------ */
/* Scratch directories.  */

enum { TAP_MAX_SCRATCH = 4 };
static char tap_scratch_dirs[TAP_MAX_SCRATCH][64];
static pid_t tap_scratch_pid;

/* rm -rf --one-file-system DIR, relative to AT: a tree deeper than
   PATH_MAX goes too, and a file system a failed test left mounted inside
   stays.  */
TAP_FN void
tap_remove_tree (int at, const char *dir)
{
  pid_t pid = fork ();
  if (pid == 0)
    {
      if (at != AT_FDCWD && fchdir (at) < 0)
        _exit (127);
      execlp ("rm", "rm", "-rf", "--one-file-system", "--", dir,
              (char *) NULL);
      _exit (127);
    }
  if (pid > 0)
    waitpid (pid, NULL, 0);
}

TAP_FN void
tap_remove_scratch (void)
{
  if (getpid () != tap_scratch_pid)
    return;
  for (int i = 0; i < TAP_MAX_SCRATCH; i++)
    if (tap_scratch_dirs[i][0])
      {
        tap_remove_tree (AT_FDCWD, tap_scratch_dirs[i]);
        tap_scratch_dirs[i][0] = '\0';
      }
}

/* A new directory PARENT/TAP_NAME.XXXXXX, removed at exit by this
   process: its name (static storage), or NULL with errno set.  */
TAP_FN const char *
tap_scratch (const char *parent)
{
  int i = 0;
  while (i < TAP_MAX_SCRATCH && tap_scratch_dirs[i][0])
    i++;
  if (i == TAP_MAX_SCRATCH)
    {
      errno = EMFILE;
      return NULL;
    }
  char *dir = tap_scratch_dirs[i];
  snprintf (dir, sizeof tap_scratch_dirs[i], "%s/%s.XXXXXX", parent,
            TAP_NAME);
  if (!mkdtemp (dir))
    {
      dir[0] = '\0';
      return NULL;
    }
  if (!tap_scratch_pid)
    {
      tap_scratch_pid = getpid ();
      atexit (tap_remove_scratch);
    }
  return dir;
}

#endif /* NC_TESTS_TAP_H */
