/* rmtree-race.c -- helper of tests/rmtree.bats and bench/rmtree.sh: trees
   built fast, a path-based remover to compare with, and the races.

   rmtree-race deep DIR LEVELS FILES
       DIR (created) and LEVELS directories below it, DIR/d/d/..., each
       holding FILES empty files f0, f1...; no PATH_MAX limit.
   rmtree-race wide DIR N
       N empty files in DIR (created).
   rmtree-race bushy DIR DIRS FILES
       DIRS directories below DIR (created), 8 to a parent, each holding
       FILES empty files.
   rmtree-race pathrm PATH
       Remove PATH the way it was done before the *at calls: every step
       by the full path from the working directory, growing with the
       depth: lstat, opendir, unlink, rmdir.  Fails past PATH_MAX.
   rmtree-race procrm PATH
       Remove PATH the way glibc emulated the *at calls before the kernel
       had them: each call on a name in a directory held open (descriptor
       N) is made on the path /proc/self/fd/N/name.  Holds one descriptor
       per level.
   rmtree-race symlink ROUNDS TREE OUTSIDE CMD [ARG]...
       ROUNDS times: build TREE, whose directories v0..v3 each have a
       symbolic link beside them, vN.lnk -> OUTSIDE, run CMD, and while it
       runs, keep exchanging each vN with its link (renameat2
       RENAME_EXCHANGE).  The files of OUTSIDE have the names of those of
       vN.
   rmtree-race move ROUNDS TREE OUTSIDE CMD [ARG]...
       The same with TREE/v the top of a 40-level chain, which the racer
       keeps moving to OUTSIDE/v and back.
   rmtree-race create DIR SECONDS
       Keep creating empty files c0, c1... in DIR (which must exist),
       as fast as it can, for SECONDS, or until DIR is removed.  Another
       process that keeps a directory from ever being empty.
   Both races fail (exit 1) as soon as a file of OUTSIDE is missing after
   a round, and print the number of rounds and of changes made while CMD
   was running.  Scratch files live in DIR, TREE, OUTSIDE only.  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#undef open
#undef fcntl

static _Noreturn void
die (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

static _Noreturn void
die (const char *fmt, ...)
{
  int err = errno;
  va_list ap;
  fputs ("rmtree-race: ", stderr);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fprintf (stderr, ": %s\n", strerror (err));
  exit (2);
}

static long
number (const char *s)
{
  char *end;
  errno = 0;
  long n = strtol (s, &end, 10);
  if (errno || *end || n < 0)
    {
      fprintf (stderr, "rmtree-race: bad number '%s'\n", s);
      exit (2);
    }
  return n;
}

/* DIR, created if missing, open.  */
static int
open_new_dir (int at, const char *dir)
{
  if (mkdirat (at, dir, 0755) < 0 && errno != EEXIST)
    die ("mkdir %s", dir);
  int fd = openat (at, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    die ("open %s", dir);
  return fd;
}

static void
make_files (int dirfd, const char *prefix, long n)
{
  char name[64];
  for (long i = 0; i < n; i++)
    {
      snprintf (name, sizeof name, "%s%ld", prefix, i);
      if (mknodat (dirfd, name, S_IFREG | 0644, 0) < 0)
        die ("create %s", name);
    }
}

static void
make_deep (int at, const char *dir, long levels, long files)
{
  int fd = open_new_dir (at, dir);
  for (long i = 0; i <= levels; i++)
    {
      make_files (fd, "f", files);
      if (i < levels)
        {
          int sub = open_new_dir (fd, "d");
          close (fd);
          fd = sub;
        }
    }
  close (fd);
}

static void
make_bushy (const char *dir, long dirs, long files)
{
  int top = open_new_dir (AT_FDCWD, dir);
  /* Directory i (from 1) is in directory (i - 1) / 8 (0 is DIR).  */
  char **path = calloc (dirs + 1, sizeof *path);
  if (!path)
    die ("calloc");
  path[0] = strdup (".");
  make_files (top, "f", files);
  for (long i = 1; i <= dirs; i++)
    {
      const char *parent = path[(i - 1) / 8];
      size_t len = strlen (parent) + 32;
      path[i] = malloc (len);
      if (!path[i])
        die ("malloc");
      snprintf (path[i], len, "%s/d%ld", parent, i);
      int fd = open_new_dir (top, path[i]);
      make_files (fd, "f", files);
      close (fd);
    }
  for (long i = 0; i <= dirs; i++)
    free (path[i]);
  free (path);
  close (top);
}

/* --- the path-based remover ----------------------------------------- */

static char *pbuf;
static size_t pcap;
static int pstatus;

static void
path_remove (size_t len)
{
  struct stat st;
  if (lstat (pbuf, &st) < 0)
    {
      if (errno != ENOENT)
        {
          fprintf (stderr, "rmtree-race: lstat %s: %s\n", pbuf,
                   strerror (errno));
          pstatus = 1;
        }
      return;
    }
  if (!S_ISDIR (st.st_mode))
    {
      if (unlink (pbuf) < 0 && errno != ENOENT)
        {
          fprintf (stderr, "rmtree-race: unlink %s: %s\n", pbuf,
                   strerror (errno));
          pstatus = 1;
        }
      return;
    }
  DIR *d = opendir (pbuf);
  if (!d)
    {
      fprintf (stderr, "rmtree-race: opendir %s: %s\n", pbuf,
               strerror (errno));
      pstatus = 1;
      return;
    }
  struct dirent *de;
  while ((de = readdir (d)))
    {
      if (strcmp (de->d_name, ".") == 0 || strcmp (de->d_name, "..") == 0)
        continue;
      size_t n = strlen (de->d_name);
      if (len + n + 2 > pcap)
        {
          pcap = 2 * (len + n + 2);
          pbuf = realloc (pbuf, pcap);
          if (!pbuf)
            die ("realloc");
        }
      pbuf[len] = '/';
      memcpy (pbuf + len + 1, de->d_name, n + 1);
      path_remove (len + 1 + n);
      pbuf[len] = '\0';
    }
  closedir (d);
  if (rmdir (pbuf) < 0 && errno != ENOENT)
    {
      fprintf (stderr, "rmtree-race: rmdir %s: %s\n", pbuf, strerror (errno));
      pstatus = 1;
    }
}

static int
path_rm (const char *path)
{
  pcap = strlen (path) + 256;
  pbuf = malloc (pcap);
  if (!pbuf)
    die ("malloc");
  strcpy (pbuf, path);
  path_remove (strlen (path));
  free (pbuf);
  return pstatus;
}

/* --- the /proc/self/fd emulation ---------------------------------------- */

/* NAME in the directory open as DIRFD (-1: the working directory), as
   glibc's emulation named it.  */
static void
proc_path (char *buf, size_t size, int dirfd, const char *name)
{
  if (dirfd < 0)
    snprintf (buf, size, "%s", name);
  else
    snprintf (buf, size, "/proc/self/fd/%d/%s", dirfd, name);
}

static void
proc_remove (int dirfd, const char *name)
{
  char path[PATH_MAX];
  struct stat st;
  proc_path (path, sizeof path, dirfd, name);
  if (lstat (path, &st) < 0)
    {
      if (errno != ENOENT)
        {
          fprintf (stderr, "rmtree-race: lstat %s: %s\n", path,
                   strerror (errno));
          pstatus = 1;
        }
      return;
    }
  if (!S_ISDIR (st.st_mode))
    {
      if (unlink (path) < 0 && errno != ENOENT)
        pstatus = 1;
      return;
    }
  int fd = open (path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  DIR *d = fd < 0 ? NULL : fdopendir (fd);
  if (!d)
    {
      fprintf (stderr, "rmtree-race: open %s: %s\n", path, strerror (errno));
      pstatus = 1;
      return;
    }
  struct dirent *de;
  while ((de = readdir (d)))
    if (strcmp (de->d_name, ".") != 0 && strcmp (de->d_name, "..") != 0)
      proc_remove (fd, de->d_name);
  closedir (d);
  if (rmdir (path) < 0 && errno != ENOENT)
    {
      fprintf (stderr, "rmtree-race: rmdir %s: %s\n", path, strerror (errno));
      pstatus = 1;
    }
}

/* --- races ------------------------------------------------------------ */

enum { OUTSIDE_FILES = 50, VICTIMS = 4, CHAIN = 40 };

static int
cleanup_one (const char *path, const struct stat *st, int flag,
             struct FTW *ftw)
{
  (void) st, (void) ftw;
  if (flag == FTW_DP)
    rmdir (path);
  else
    unlink (path);
  return 0;
}

/* Remove what is left of DIR, never following a symbolic link.  */
static void
cleanup (const char *dir)
{
  nftw (dir, cleanup_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* How many of OUTSIDE's files f0..f(OUTSIDE_FILES - 1) are missing.  */
static int
outside_missing (const char *outside)
{
  int fd = open (outside, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return OUTSIDE_FILES;
  int missing = 0;
  char name[32];
  struct stat st;
  for (int i = 0; i < OUTSIDE_FILES; i++)
    {
      snprintf (name, sizeof name, "f%d", i);
      if (fstatat (fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        missing++;
    }
  close (fd);
  return missing;
}

static void
build_symlink_tree (const char *tree, const char *outside)
{
  int top = open_new_dir (AT_FDCWD, tree);
  /* Files listed around the victims keep the walk busy between the
     listing and the opening.  */
  make_files (top, "a", 200);
  for (int v = 0; v < VICTIMS; v++)
    {
      char name[32];
      snprintf (name, sizeof name, "v%d", v);
      int fd = open_new_dir (top, name);
      make_files (fd, "f", OUTSIDE_FILES);
      int sub = open_new_dir (fd, "sub");
      make_files (sub, "f", OUTSIDE_FILES);
      close (sub);
      close (fd);
      snprintf (name, sizeof name, "v%d.lnk", v);
      if (symlinkat (outside, top, name) < 0)
        die ("symlink %s", name);
    }
  close (top);
}

static void
build_move_tree (const char *tree)
{
  int top = open_new_dir (AT_FDCWD, tree);
  make_files (top, "a", 100);
  close (top);
  char path[PATH_MAX];
  snprintf (path, sizeof path, "%s/v", tree);
  make_deep (AT_FDCWD, path, CHAIN, 5);
}

static int
race (char **argv, bool move)
{
  long rounds = number (argv[0]);
  const char *tree = argv[1], *outside = argv[2];
  char **cmd = argv + 3;
  char moved[PATH_MAX], inside[PATH_MAX];
  snprintf (moved, sizeof moved, "%s/v", outside);
  snprintf (inside, sizeof inside, "%s/v", tree);

  int ofd = open_new_dir (AT_FDCWD, outside);
  make_files (ofd, "f", OUTSIDE_FILES);
  int osub = open_new_dir (ofd, "sub");
  make_files (osub, "f", OUTSIDE_FILES);
  close (osub);
  close (ofd);

  long changes = 0, failed_cmds = 0;
  for (long r = 1; r <= rounds; r++)
    {
      if (move)
        build_move_tree (tree);
      else
        build_symlink_tree (tree, outside);
      fflush (NULL);
      pid_t pid = fork ();
      if (pid < 0)
        die ("fork");
      if (pid == 0)
        {
          int null = open ("/dev/null", O_WRONLY);
          dup2 (null, STDOUT_FILENO);
          dup2 (null, STDERR_FILENO);
          execvp (cmd[0], cmd);
          _exit (127);
        }
      int wstatus;
      char a[PATH_MAX], b[PATH_MAX];
      for (int i = 0;; i++)
        {
          pid_t done = waitpid (pid, &wstatus, WNOHANG);
          if (done < 0)
            die ("waitpid");
          if (done == pid)
            break;
          if (move)
            {
              if (i & 1 ? rename (moved, inside) == 0
                        : rename (inside, moved) == 0)
                changes++;
            }
          else
            {
              int v = i % VICTIMS;
              snprintf (a, sizeof a, "%s/v%d", tree, v);
              snprintf (b, sizeof b, "%s/v%d.lnk", tree, v);
              if (renameat2 (AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0)
                changes++;
            }
        }
      if (!WIFEXITED (wstatus) || WEXITSTATUS (wstatus) > 1)
        failed_cmds++;
      int missing = outside_missing (outside);
      cleanup (tree);
      if (move)
        cleanup (moved);
      if (missing)
        {
          printf ("round %ld: %d files of %s missing\n", r, missing, outside);
          return 1;
        }
    }
  printf ("%ld rounds, %ld changes while the command ran, "
          "%ld abnormal exits\n", rounds, changes, failed_cmds);
  return failed_cmds ? 1 : 0;
}

/* Create files in DIR for SECONDS; DIR removed meanwhile ends it.  */
static int
create_files (const char *dir, long seconds)
{
  int fd = openat (AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    die ("open %s", dir);
  struct timespec start, now;
  clock_gettime (CLOCK_MONOTONIC, &start);
  char name[64];
  for (unsigned long i = 0; ; i++)
    {
      /* The clock read every 256 files only.  */
      if ((i & 255) == 0)
        {
          clock_gettime (CLOCK_MONOTONIC, &now);
          if (now.tv_sec - start.tv_sec >= seconds)
            break;
        }
      snprintf (name, sizeof name, "c%lu", i);
      if (mknodat (fd, name, S_IFREG | 0644, 0) < 0)
        {
          if (errno == ENOENT)
            break;
          if (errno != EEXIST)
            die ("create %s", name);
        }
    }
  close (fd);
  return 0;
}

int
main (int argc, char **argv)
{
  const char *what = argc > 1 ? argv[1] : "";
  if (strcmp (what, "deep") == 0 && argc == 5)
    make_deep (AT_FDCWD, argv[2], number (argv[3]), number (argv[4]));
  else if (strcmp (what, "wide") == 0 && argc == 4)
    {
      int fd = open_new_dir (AT_FDCWD, argv[2]);
      make_files (fd, "f", number (argv[3]));
      close (fd);
    }
  else if (strcmp (what, "bushy") == 0 && argc == 5)
    make_bushy (argv[2], number (argv[3]), number (argv[4]));
  else if (strcmp (what, "pathrm") == 0 && argc == 3)
    return path_rm (argv[2]);
  else if (strcmp (what, "procrm") == 0 && argc == 3)
    {
      proc_remove (-1, argv[2]);
      return pstatus;
    }
  else if (strcmp (what, "create") == 0 && argc == 4)
    return create_files (argv[2], number (argv[3]));
  else if (strcmp (what, "symlink") == 0 && argc >= 6)
    return race (argv + 2, false);
  else if (strcmp (what, "move") == 0 && argc >= 6)
    return race (argv + 2, true);
  else
    {
      fputs ("usage: rmtree-race deep DIR LEVELS FILES | wide DIR N"
             " | bushy DIR DIRS FILES | pathrm PATH | procrm PATH\n"
             "     | create DIR SECONDS\n"
             "     | symlink|move ROUNDS TREE OUTSIDE CMD [ARG]...\n",
             stderr);
      return 2;
    }
  return 0;
}
