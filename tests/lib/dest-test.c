/* dest-test.c -- the C test driver for the destination side of a copy:
   lib/copy/install.c (a copy put into place in one step, the temporary name
   removed on a fatal signal), lib/copy/attrs.c (modes, owner-less
   attributes, extended attributes) and lib/copy/dest.c (what check_dest does
   about each kind of destination, link_over).

   Output: TAP lines (tests/lib/tap.h).  Scratch directories live under /tmp,
   removed at the end.  */

#include <config.h>

#define TAP_NAME "dest-test"
#include "tap.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "copy/attrs.h"
#include "copy/dest.h"
#include "copy/install.h"
#include "copy/options.h"

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
  tap_check_str (read_text (dirfd, "a", buf, sizeof buf), "new",
                 "install_tmp: the new name holds the copy");

  /* Over an existing file, which another name keeps whole.  */
  write_text (dirfd, "b", "old");
  if (linkat (dirfd, "b", dirfd, "b-other", 0) < 0)
    tap_die ("linkat");
  struct stat before, after;
  fstatat (dirfd, "b", &before, 0);
  fd = made_copy (dirfd, "replacement", &named);
  tap_check_int (install_tmp (fd, named, dirfd, "b", true), 0,
                 "install_tmp over an existing file");
  install_discard_tmp (fd, dirfd, false);
  fstatat (dirfd, "b", &after, 0);
  tap_check_str (read_text (dirfd, "b", buf, sizeof buf), "replacement",
                 "install_tmp: the name holds the new copy");
  tap_check_str (read_text (dirfd, "b-other", buf, sizeof buf), "old",
                 "install_tmp: the old file is replaced, not written over");
  tap_ok (before.st_ino != after.st_ino,
          "install_tmp: the name is a new inode");

  /* EXISTS false, but the name was taken meanwhile: renamed over it.  */
  write_text (dirfd, "c", "taken");
  fd = made_copy (dirfd, "mine", &named);
  tap_check_int (install_tmp (fd, named, dirfd, "c", false), 0,
                 "install_tmp: a name taken meanwhile is replaced");
  install_discard_tmp (fd, dirfd, false);
  tap_check_str (read_text (dirfd, "c", buf, sizeof buf), "mine",
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
  write_text (dirfd, "d/inside", "x");
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
  tap_check_str (read_text (dirfd, "c", buf, sizeof buf), "new",
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
          /* The signal's default action, whatever this driver inherited:
             a shell starts a background job with SIGINT ignored, and an
             ignored signal is the other case, tested below.  */
          signal (sigs[i], SIG_DFL);
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

/* ------------------------------------------------------------------ */
/* lib/copy/attrs.c  */

static void
test_modes (void)
{
  tap_check_int (plain_mode (S_IFREG | 04777, 022), 0755,
                 "plain_mode: permissions less the umask, no set-ID");
  tap_check_int (plain_mode (S_IFDIR | 01777, 027), 01750,
                 "plain_mode: a directory keeps its sticky bit");
  tap_check_int (plain_mode (S_IFREG | 01644, 0), 0644,
                 "plain_mode: a file does not");
  struct stat src = { .st_mode = S_IFREG | 06755, .st_uid = 1, .st_gid = 2 };
  tap_check_int (kept_mode (&src, 1, 2), 06755,
                 "kept_mode: set-ID bits kept under the source's owner");
  tap_check_int (kept_mode (&src, 0, 2), 0755,
                 "kept_mode: dropped under another owner");
  tap_check_int (kept_mode (&src, 1, 3), 0755,
                 "kept_mode: dropped under another group");
}

static void
test_attrs (int dirfd, struct copy_options *o)
{
  struct timespec then[2] = { { 1000000000, 5 }, { 1200000000, 7 } };
  write_text (dirfd, "src", "data");
  if (fchmodat (dirfd, "src", 0640, 0) != 0)
    tap_die ("fchmodat");
  utimensat (dirfd, "src", then, 0);
  struct stat src;
  fstatat (dirfd, "src", &src, 0);
  int in_fd = openat (dirfd, "src", O_RDONLY | O_CLOEXEC);

  /* A new file, --preserve=mode,timestamps.  */
  o->preserve = (struct copy_preserve) { .mode = true, .times = true };
  int out_fd = openat (dirfd, "new", O_WRONLY | O_CREAT | O_EXCL
                       | O_CLOEXEC, 0600);
  struct file_attrs a = { .in_fd = in_fd, .st = &src, .old_fd = -1,
                          .made_mode = 0600 };
  tap_ok (set_file_attrs (o, out_fd, &a, "new"),
          "set_file_attrs: a new file");
  struct stat st;
  fstat (out_fd, &st);
  tap_check_int (st.st_mode & 07777, 0640, "set_file_attrs: mode kept");
  tap_ok (st.st_mtim.tv_sec == then[1].tv_sec
          && st.st_mtim.tv_nsec == then[1].tv_nsec
          && st.st_atim.tv_sec == then[0].tv_sec,
          "set_file_attrs: times kept");
  close (out_fd);

  /* Replacing a file, nothing preserved: the replaced file's mode.  */
  o->preserve = (struct copy_preserve) { 0 };
  write_text (dirfd, "old", "old");
  if (fchmodat (dirfd, "old", 0604, 0) != 0)
    tap_die ("fchmodat");
  struct stat old;
  fstatat (dirfd, "old", &old, 0);
  int old_fd = openat (dirfd, "old", O_RDONLY | O_CLOEXEC);
  out_fd = openat (dirfd, "repl", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                   0600);
  a = (struct file_attrs) { .in_fd = in_fd, .st = &src, .old_fd = old_fd,
                            .old = &old, .made_mode = 0600 };
  tap_ok (set_file_attrs (o, out_fd, &a, "repl"),
          "set_file_attrs: a replacement");
  fstat (out_fd, &st);
  tap_check_int (st.st_mode & 07777, 0604,
                 "set_file_attrs: a replacement keeps the old file's mode");
  tap_ok (st.st_mtim.tv_sec != then[1].tv_sec,
          "set_file_attrs: times not kept unless asked");

  /* Extended attributes: user.* only with --preserve=xattr.  */
  if (fsetxattr (in_fd, "user.dest-test", "v", 1, 0) < 0)
    tap_skip ("user extended attributes: %s", strerror (errno));
  else
    {
      char v[8];
      tap_check_int (copy_xattrs (in_fd, out_fd, XATTRS_ACL, "repl"), 0,
                     "copy_xattrs ACLs only: no ACL to copy");
      tap_check_int (fgetxattr (out_fd, "user.dest-test", v, sizeof v),
                     -1, "copy_xattrs ACLs only leaves user.*");
      o->preserve = (struct copy_preserve) { .xattr = true };
      tap_check_int (copy_kept_xattrs (o, in_fd, out_fd, "repl"), 0,
                     "copy_kept_xattrs --preserve=xattr");
      tap_check_int (fgetxattr (out_fd, "user.dest-test", v, sizeof v), 1,
                     "copy_kept_xattrs copies user.*");
    }
  close (out_fd);
  close (old_fd);
  close (in_fd);

  /* A FIFO made 0600, --preserve=mode: the source's mode and times.  */
  if (mkfifoat (dirfd, "fifo", 0600) < 0)
    tap_die ("mkfifoat");
  struct stat fifo_src = src;
  fifo_src.st_mode = S_IFIFO | 0640;
  o->preserve = (struct copy_preserve) { .mode = true, .times = true };
  set_entry_attrs (o, dirfd, "fifo", &fifo_src, "fifo", 0600, 0);
  fstatat (dirfd, "fifo", &st, AT_SYMLINK_NOFOLLOW);
  tap_check_int (st.st_mode & 07777, 0640, "set_entry_attrs: mode");
  tap_ok (st.st_mtim.tv_sec == then[1].tv_sec,
          "set_entry_attrs: times");
  /* Without --preserve=mode: the plain mode, with what it inherited.  */
  o->preserve = (struct copy_preserve) { 0 };
  fifo_src.st_mode = S_IFIFO | 0666;
  set_entry_attrs (o, dirfd, "fifo", &fifo_src, "fifo", 0600, 0);
  fstatat (dirfd, "fifo", &st, AT_SYMLINK_NOFOLLOW);
  tap_check_int (st.st_mode & 07777, 0666 & ~o->umask_bits,
                 "set_entry_attrs: the plain mode without --preserve");
}

/* ------------------------------------------------------------------ */
/* lib/copy/dest.c  */

/* check_dest of NAME in DIRFD for a source SRC: its return, P filled.  */
static int
check (const struct copy_options *o, int dirfd, const char *name,
       const struct stat *src, struct put *p)
{
  struct dest d = { .dirfd = dirfd, .name = name, .display = name };
  return check_dest (o, src, "src", &d, p);
}

/* check_dest of NAME refused, as it should be, with a message on
   standard error containing WANT: captured there, checked, not shown.  */
static void
check_refused (const struct copy_options *o, int dirfd, const char *name,
               const struct stat *src, const char *want, const char *title)
{
  FILE *said = tmpfile ();
  int saved = dup (STDERR_FILENO);
  fflush (stderr);
  if (!said || saved < 0 || dup2 (fileno (said), STDERR_FILENO) < 0)
    tap_die ("stderr to a file");
  struct put p;
  int ret = check (o, dirfd, name, src, &p);
  put_release (&p);
  fflush (stderr);
  if (dup2 (saved, STDERR_FILENO) < 0 || close (saved) < 0)
    tap_die ("dup2");
  char msg[256] = "";
  rewind (said);
  size_t n = fread (msg, 1, sizeof msg - 1, said);
  msg[n] = '\0';
  fclose (said);
  msg[strcspn (msg, "\n")] = '\0';
  tap_ok (ret == -1 && strstr (msg, want), "%s (%d, \"%s\")", title, ret,
          msg);
}

static void
test_dest (const char *dir, int dirfd, struct copy_options *o)
{
  struct put p;
  struct stat src;
  write_text (dirfd, "dsrc", "source");
  fstatat (dirfd, "dsrc", &src, 0);

  tap_check_int (check (o, dirfd, "none", &src, &p), 1, "nothing there");
  tap_check_int (p.how, PUT_NEW, "nothing there: a new name");
  put_release (&p);

  write_text (dirfd, "file", "x");
  tap_check_int (check (o, dirfd, "file", &src, &p), 1, "a regular file");
  tap_check_int (p.how, PUT_REPLACE, "a regular file: replaced whole");
  put_release (&p);

  o->inplace = true;
  check (o, dirfd, "file", &src, &p);
  tap_check_int (p.how, PUT_INPLACE, "--inplace: written in place");
  put_release (&p);
  o->inplace = false;

  if (linkat (dirfd, "file", dirfd, "file2", 0) != 0)
    tap_die ("linkat");
  check (o, dirfd, "file", &src, &p);
  tap_ok (p.how == PUT_INPLACE && p.why && strstr (p.why, "hard links"),
          "a file with other links: written in place (%s)",
          p.why ? p.why : "no reason");
  put_release (&p);

  mkfifoat (dirfd, "dfifo", 0600);
  check (o, dirfd, "dfifo", &src, &p);
  tap_check_int (p.how, PUT_INTO, "a FIFO: written into");
  put_release (&p);

  /* A symbolic link to a file in another directory: written through.  */
  mkdirat (dirfd, "sub", 0755);
  write_text (dirfd, "sub/target", "t");
  if (symlinkat ("sub/target", dirfd, "link") != 0)
    tap_die ("symlinkat");
  tap_check_int (check (o, dirfd, "link", &src, &p), 1,
                 "a symbolic link: written through");
  struct stat sub;
  fstatat (dirfd, "sub", &sub, 0);
  struct stat pdir;
  fstat (p.dirfd, &pdir);
  tap_ok (p.name && strcmp (p.name, "target") == 0
          && pdir.st_ino == sub.st_ino && p.how == PUT_REPLACE,
          "a symbolic link: its target replaced in its directory");
  put_release (&p);

  if (symlinkat ("sub/missing", dirfd, "dangling") != 0)
    tap_die ("symlinkat");
  check_refused (o, dirfd, "dangling", &src,
                 "not writing through dangling symlink 'dangling'",
                 "a dangling symbolic link is refused");

  check_refused (o, dirfd, "dsrc", &src,
                 "'src' and 'dsrc' are the same file",
                 "the source itself is refused");

  mkdirat (dirfd, "ddir", 0755);
  check_refused (o, dirfd, "ddir", &src,
                 "cannot overwrite directory 'ddir' with non-directory 'src'",
                 "a directory is not replaced by a file");

  o->update = COPY_UPDATE_NONE;
  tap_check_int (check (o, dirfd, "file", &src, &p), 0,
                 "--update=none (-n) leaves it");
  put_release (&p);
  o->update = COPY_UPDATE_ALL;

  /* -u: a destination not older than the source is left.  */
  struct timespec newer[2] = { src.st_atim, src.st_mtim };
  newer[1].tv_sec++;
  utimensat (dirfd, "file", newer, 0);
  o->update = COPY_UPDATE_OLDER;
  tap_check_int (check (o, dirfd, "file", &src, &p), 0,
                 "-u leaves a newer file");
  put_release (&p);
  newer[1].tv_sec -= 2;
  utimensat (dirfd, "file", newer, 0);
  tap_check_int (check (o, dirfd, "file", &src, &p), 1,
                 "-u replaces an older file");
  put_release (&p);
  o->update = COPY_UPDATE_ALL;

  struct dest fresh = { .dirfd = dirfd, .name = "file", .display = "file",
                        .fresh = true };
  tap_check_int (check_dest (o, &src, "src", &fresh, &p), 1,
                 "a fresh directory: no look");
  tap_check_int (p.how, PUT_NEW, "a fresh directory: a new name");
  put_release (&p);

  /* link_over: a second name of a copy.  */
  check (o, dirfd, "file2", &src, &p);
  tap_check_int (link_over (dirfd, "dsrc", &p), 0, "link_over a file");
  struct stat l;
  fstatat (dirfd, "file2", &l, 0);
  tap_ok (l.st_ino == src.st_ino, "link_over: the name is the link");
  put_release (&p);
  p = (struct put) { .how = PUT_REPLACE, .dirfd = dirfd, .name = "file2",
                     .own_dirfd = -1 };
  fstatat (dirfd, "file2", &p.st, AT_SYMLINK_NOFOLLOW);
  int n = count_entries (dir);
  tap_check_int (link_over (dirfd, "dsrc", &p), 0,
                 "link_over: already the link");
  tap_check_int (count_entries (dir), n,
                 "link_over: already the link, no temporary name left");
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
  struct copy_options o = { 0 };
  copy_options_init (&o);
  test_modes ();
  test_attrs (dirfd, &o);
  test_dest (dir, dirfd, &o);
  close (dirfd);
  return tap_done ();
}
