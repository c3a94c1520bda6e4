/* dest-test.c -- the C test driver for the destination side of a copy:
   lib/install.c (a copy put into place in one step, the temporary name
   removed on a fatal signal).

   Output: TAP lines (tests/tap.h).  Scratch directories live under /tmp,
   removed at the end.  */

#include <config.h>

#define TAP_NAME "dest-test"
#include "tap.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>

#include "install.h"

/* gnulib replaces these; the tests want glibc's own.  */
#undef open
#undef close

/* How many entries directory DIR has besides "." and "..".  */
static int
count_entries (const char *dir)
{
  DIR *d = opendir (dir);
  if (!d)
    tap_die (dir);
  int n = 0;
  struct dirent *e;
  while ((e = readdir (d)))
    if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0)
      n++;
  closedir (d);
  return n;
}

/* The content of NAME in DIRFD, at most SIZE - 1 bytes, into BUF; "" if
   it cannot be read.  */
static const char *
content (int dirfd, const char *name, char *buf, size_t size)
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

static void
write_file (int dirfd, const char *name, const char *text)
{
  int fd = openat (dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                   0644);
  if (fd < 0 || write (fd, text, strlen (text)) != (ssize_t) strlen (text))
    tap_die (name);
  close (fd);
}

/* A copy made with install_create_tmp holding TEXT, on DIRFD.  */
static int
made_copy (int dirfd, const char *text, bool *named)
{
  int fd = install_create_tmp (dirfd, 0600, named);
  if (fd < 0)
    {
      errno = -fd;
      tap_die ("install_create_tmp");
    }
  if (write (fd, text, strlen (text)) != (ssize_t) strlen (text))
    tap_die ("write");
  return fd;
}

static void
test_install (const char *dir, int dirfd)
{
  char buf[64];
  bool named;
  int fd = made_copy (dirfd, "new", &named);
  tap_check_int (count_entries (dir), named,
                 "install: the copy has no name until installed "
                 "(or its temporary name)");
  tap_check_int (install_tmp (fd, named, dirfd, "a", false), 0,
                 "install_tmp: a new name");
  install_discard_tmp (fd, dirfd, false);
  tap_check_str (content (dirfd, "a", buf, sizeof buf), "new",
                 "install_tmp: the new name holds the copy");

  /* Over an existing file, which another name keeps whole.  */
  write_file (dirfd, "b", "old");
  if (linkat (dirfd, "b", dirfd, "b-other", 0) < 0)
    tap_die ("linkat");
  struct stat before, after;
  fstatat (dirfd, "b", &before, 0);
  fd = made_copy (dirfd, "replacement", &named);
  tap_check_int (install_tmp (fd, named, dirfd, "b", true), 0,
                 "install_tmp over an existing file");
  install_discard_tmp (fd, dirfd, false);
  fstatat (dirfd, "b", &after, 0);
  tap_check_str (content (dirfd, "b", buf, sizeof buf), "replacement",
                 "install_tmp: the name holds the new copy");
  tap_check_str (content (dirfd, "b-other", buf, sizeof buf), "old",
                 "install_tmp: the old file is replaced, not written over");
  tap_ok (before.st_ino != after.st_ino,
          "install_tmp: the name is a new inode");

  /* EXISTS false, but the name was taken meanwhile: renamed over it.  */
  write_file (dirfd, "c", "taken");
  fd = made_copy (dirfd, "mine", &named);
  tap_check_int (install_tmp (fd, named, dirfd, "c", false), 0,
                 "install_tmp: a name taken meanwhile is replaced");
  install_discard_tmp (fd, dirfd, false);
  tap_check_str (content (dirfd, "c", buf, sizeof buf), "mine",
                 "install_tmp: ... by the copy");

  /* Discarded: nothing stays.  */
  int n = count_entries (dir);
  fd = made_copy (dirfd, "dropped", &named);
  install_discard_tmp (fd, dirfd, named);
  tap_check_int (count_entries (dir), n,
                 "install_discard_tmp: no name left behind");

  /* A failure leaves the name as it was and no temporary name.  */
  if (mkdirat (dirfd, "d", 0755) < 0)
    tap_die ("mkdirat");
  write_file (dirfd, "d/inside", "x");
  n = count_entries (dir);
  fd = made_copy (dirfd, "not a directory", &named);
  int ret = install_tmp (fd, named, dirfd, "d", true);
  install_discard_tmp (fd, dirfd, false);
  tap_ok (ret == -EISDIR || ret == -ENOTEMPTY || ret == -EEXIST,
          "install_tmp over a non-empty directory fails (%d)", ret);
  tap_check_int (count_entries (dir), n,
                 "install_tmp: a failure leaves no temporary name");

  /* install_link: a hard link in place of a file.  */
  tap_check_int (install_link (dirfd, "a", dirfd, "c"), 0,
                 "install_link over an existing file");
  struct stat a_st, c_st;
  fstatat (dirfd, "a", &a_st, 0);
  fstatat (dirfd, "c", &c_st, 0);
  tap_ok (a_st.st_ino == c_st.st_ino && c_st.st_nlink == 2,
          "install_link: the name is a link to the first");
  tap_check_int (count_entries (dir), n,
                 "install_link: no temporary name left");
  tap_check_int (install_link (dirfd, "missing", dirfd, "c"), -ENOENT,
                 "install_link from a missing file fails");
  tap_check_str (content (dirfd, "c", buf, sizeof buf), "new",
                 "install_link: the name is kept on failure");

  tap_check_int (install_fsync_dir (dirfd), 0, "install_fsync_dir");
}

/* A fatal signal while a temporary name exists removes it; the process
   still ends by the signal.  An ignored signal stays ignored.  */
static void
test_signal (const char *dir, int dirfd)
{
  static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    {
      int n = count_entries (dir);
      pid_t pid = fork ();
      if (pid < 0)
        tap_die ("fork");
      if (pid == 0)
        {
          install_catch_signals ();
          const char *tmp = install_tmp_name (dirfd);
          int fd = openat (dirfd, tmp, O_CREAT | O_EXCL | O_WRONLY, 0600);
          if (fd < 0)
            _exit (3);
          raise (sigs[i]);
          _exit (4);
        }
      int status;
      waitpid (pid, &status, 0);
      tap_ok (WIFSIGNALED (status) && WTERMSIG (status) == sigs[i],
              "%s ends the process (status %#x)", strsignal (sigs[i]),
              status);
      tap_check_int (count_entries (dir), n,
                     "%s removes the temporary name first",
                     strsignal (sigs[i]));
    }

  int n = count_entries (dir);
  pid_t pid = fork ();
  if (pid < 0)
    tap_die ("fork");
  if (pid == 0)
    {
      signal (SIGTERM, SIG_IGN);
      install_catch_signals ();
      const char *tmp = install_tmp_name (dirfd);
      int fd = openat (dirfd, tmp, O_CREAT | O_EXCL | O_WRONLY, 0600);
      if (fd < 0)
        _exit (3);
      raise (SIGTERM);
      unlinkat (dirfd, tmp, 0);
      install_tmp_forget ();
      _exit (0);
    }
  int status;
  waitpid (pid, &status, 0);
  tap_ok (WIFEXITED (status) && WEXITSTATUS (status) == 0,
          "an ignored SIGTERM stays ignored (status %#x)", status);
  tap_check_int (count_entries (dir), n, "... and the child cleaned up");
}

int
main (void)
{
  const char *dir = tap_scratch ("/tmp");
  if (!dir)
    tap_die ("mkdtemp");
  int dirfd = open (dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dirfd < 0)
    tap_die (dir);
  test_install (dir, dirfd);
  test_signal (dir, dirfd);
  close (dirfd);
  return tap_done ();
}
