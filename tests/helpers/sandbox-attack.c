/* sandbox-attack.c -- helper of tests/tools/sandbox-attack.bats: a jail
   that keeps a broken sandbox off the machine, a racer on the paths a
   sandbox mounts on, and probes run inside the sandbox.

   sandbox-attack jail WORK COMMAND [ARG]...
       Run COMMAND as root where it cannot change the machine even with
       every capability of its user namespace.  First a mount namespace
       of its own, where every mount is made read-only, nosuid and nodev
       but for /proc, which stays writable (a sandbox mounts a proc only
       where one with no fewer rights is visible), and /dev, replaced by
       a tmpfs holding the machine's null, zero, full, random, urandom
       and tty, a devpts of its own and a fake sda (null's numbers);
       WORK gets a new tmpfs.  Then a new user namespace and mount
       namespace, with the ids 0 to 65535 mapped to JAIL_BASE and up:
       the machine's files are owned by ids that do not exist there, so
       no capability overrides their modes, and the kernel locks the
       read-only and nodev flags of every mount copied into it.  WORK is
       owned by the jail's root, and COMMAND starts there.  Needs real
       root.  Exit status: COMMAND's.
   sandbox-attack race ROUNDS DIR TARGET COMMAND [ARG]...
       ROUNDS times: make DIR/d, a directory, and DIR/d.lnk, a symbolic
       link to TARGET, run COMMAND, and while it runs keep exchanging
       them (renameat2 RENAME_EXCHANGE); then empty DIR.  COMMAND says
       how the round went by its status: 0 the sandbox ran and all was
       where it should be, 1 the sandbox refused, failing closed; any
       other status ends the race at once (exit 1).  Prints the counts.
   sandbox-attack mount-api
       Try the mount calls on the sandbox's "/": mount_setattr clearing
       read-only, open_tree (OPEN_TREE_CLONE) and move_mount of "/" onto
       /tmp, fsopen of a tmpfs, mount(2) remounting "/" read-write
       (MS_REMOUNT | MS_BIND), and umount2 of /proc; print "CALL: ok" or
       "CALL: ERRNO-NAME" for each.
   sandbox-attack fds
       Print each open descriptor above 2 as "N -> TARGET".
   sandbox-attack tiocsti
       Push a space into the input of the terminal on standard input
       (ioctl TIOCSTI), as a program would type into the shell it came
       from; print "TIOCSTI: ok" or "TIOCSTI: ERRNO-NAME".  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/calls.h"
#include "sys/consts.h"

#undef open
#undef fcntl

/* The jail's ids 0 to JAIL_IDS - 1 are JAIL_BASE and up outside: far
   above any id the machine gives a user.  */
enum { JAIL_BASE = 1000000, JAIL_IDS = 65536 };

static _Noreturn void
die (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

static _Noreturn void
die (const char *fmt, ...)
{
  int err = errno;
  va_list ap;
  fputs ("sandbox-attack: ", stderr);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fprintf (stderr, ": %s\n", strerror (err));
  exit (125);
}

/* A -errno RET as the C library's -1 and errno.  */
static int
sys (int ret)
{
  if (ret >= 0)
    return ret;
  errno = -ret;
  return -1;
}

/* --- the jail ---------------------------------------------------------- */

static const char *const dev_nodes[] = { "null", "zero", "full", "random",
                                         "urandom", "tty" };
enum { N_DEV_NODES = sizeof dev_nodes / sizeof *dev_nodes };

/* /dev replaced by a tmpfs holding clones of the machine's nodes of
   dev_nodes, opened before they are covered, a devpts of its own on pts
   (ptmx a symbolic link into it) and a fake sda.  */
static void
jail_dev (void)
{
  int tree[N_DEV_NODES];
  char path[64];
  for (int i = 0; i < N_DEV_NODES; i++)
    {
      snprintf (path, sizeof path, "/dev/%s", dev_nodes[i]);
      tree[i] = sys (sys_open_tree (AT_FDCWD, path, OPEN_TREE_CLONE
                                    | OPEN_TREE_CLOEXEC | AT_RECURSIVE));
      if (tree[i] < 0)
        die ("open_tree %s", path);
    }
  if (mount ("jail-dev", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC,
             "mode=0755") < 0)
    die ("mount tmpfs on /dev");
  for (int i = 0; i < N_DEV_NODES; i++)
    {
      snprintf (path, sizeof path, "/dev/%s", dev_nodes[i]);
      if (mknod (path, S_IFREG | 0644, 0) < 0)
        die ("make %s", path);
      if (sys (sys_move_mount (tree[i], "", AT_FDCWD, path,
                               MOVE_MOUNT_F_EMPTY_PATH)) < 0)
        die ("move_mount %s", path);
      close (tree[i]);
    }
  /* A disk's name on null's numbers: what a sandbox's /dev must not
     show, and harmless if it did.  */
  if (mknod ("/dev/sda", S_IFCHR | 0600, makedev (1, 3)) < 0)
    die ("mknod /dev/sda");
  if (mkdir ("/dev/pts", 0755) < 0
      || mount ("jail-pts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
                "newinstance,ptmxmode=0666,mode=0620") < 0
      || symlink ("pts/ptmx", "/dev/ptmx") < 0)
    die ("devpts on /dev/pts");
}

/* Set ATTR_SET and clear ATTR_CLR on the mount at PATH, and every one
   under it if RECURSIVE.  */
static void
set_attr (const char *path, bool recursive, uint64_t attr_set,
          uint64_t attr_clr)
{
  struct nc_mount_attr attr = { .attr_set = attr_set,
                                .attr_clr = attr_clr };
  if (sys (sys_mount_setattr (AT_FDCWD, path,
                              recursive ? AT_RECURSIVE : 0, &attr)) < 0)
    die ("mount_setattr %s", path);
}

static void
write_file (const char *path, const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write (fd, text, strlen (text)) != (ssize_t) strlen (text)
      || close (fd) < 0)
    die ("write %s", path);
}

/* Map CHILD's ids 0..JAIL_IDS-1 to JAIL_BASE and up.  */
static void
map_ids (pid_t child)
{
  char path[64], map[64];
  snprintf (map, sizeof map, "0 %d %d\n", JAIL_BASE, JAIL_IDS);
  snprintf (path, sizeof path, "/proc/%d/uid_map", (int) child);
  write_file (path, map);
  snprintf (path, sizeof path, "/proc/%d/gid_map", (int) child);
  write_file (path, map);
}

/* The jail's mount namespace: the machine's mounts read-only, nosuid
   and nodev, a /dev of its own, WORK a new tmpfs, the working
   directory.  */
static void
jail_mounts (const char *work)
{
  if (unshare (CLONE_NEWNS) < 0)
    die ("unshare");
  if (mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
    die ("make / private");
  jail_dev ();
  set_attr ("/", true, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID
            | MOUNT_ATTR_NODEV, 0);
  set_attr ("/dev", true, 0, MOUNT_ATTR_NODEV);
  set_attr ("/proc", false, MOUNT_ATTR_NOEXEC, MOUNT_ATTR_RDONLY);
  char opts[64];
  snprintf (opts, sizeof opts, "mode=0755,uid=%d,gid=%d", JAIL_BASE,
            JAIL_BASE);
  if (mount ("jail-work", work, "tmpfs", MS_NODEV, opts) < 0)
    die ("mount tmpfs on %s", work);
  if (chdir (work) < 0)
    die ("chdir %s", work);
}

static int
jail (const char *work, char **cmd)
{
  jail_mounts (work);
  fflush (NULL);
  pid_t child = fork ();
  if (child < 0)
    die ("fork");
  if (child == 0)
    {
      /* The mount namespace copied into the user namespace: the kernel
         locks the flags of what it copies.  */
      if (unshare (CLONE_NEWUSER | CLONE_NEWNS) < 0)
        die ("unshare");
      /* Stopped until the parent has mapped the ids.  */
      raise (SIGSTOP);
      if (setgroups (0, NULL) < 0 || setresgid (0, 0, 0) < 0
          || setresuid (0, 0, 0) < 0)
        die ("become the jail's root");
      execvp (cmd[0], cmd);
      die ("exec %s", cmd[0]);
    }
  int wstatus;
  if (waitpid (child, &wstatus, WUNTRACED) < 0 || !WIFSTOPPED (wstatus))
    die ("wait for the jail");
  map_ids (child);
  kill (child, SIGCONT);
  if (waitpid (child, &wstatus, 0) < 0)
    die ("waitpid");
  return WIFEXITED (wstatus) ? WEXITSTATUS (wstatus)
                             : 128 + WTERMSIG (wstatus);
}

/* --- the race ---------------------------------------------------------- */

static int
remove_one (const char *path, const struct stat *st, int flag,
            struct FTW *ftw)
{
  (void) st, (void) ftw;
  if (flag == FTW_DP)
    rmdir (path);
  else
    unlink (path);
  return 0;
}

/* Empty DIR, never following a symbolic link.  */
static void
empty_dir (const char *dir)
{
  nftw (dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  if (mkdir (dir, 0755) < 0)
    die ("mkdir %s", dir);
}

static unsigned long
number (const char *s)
{
  char *end;
  errno = 0;
  unsigned long n = strtoul (s, &end, 10);
  if (errno || end == s || *end || s[0] == '-')
    {
      fprintf (stderr, "sandbox-attack: bad number '%s'\n", s);
      exit (125);
    }
  return n;
}

static int
race (unsigned long rounds, const char *dir, const char *target,
      char **cmd)
{
  char d[4096], lnk[4096];
  snprintf (d, sizeof d, "%s/d", dir);
  snprintf (lnk, sizeof lnk, "%s/d.lnk", dir);
  unsigned long ran = 0, refused = 0, exchanges = 0;
  for (unsigned long r = 1; r <= rounds; r++)
    {
      empty_dir (dir);
      if (mkdir (d, 0755) < 0 || symlink (target, lnk) < 0)
        die ("make %s", d);
      fflush (NULL);
      pid_t pid = fork ();
      if (pid < 0)
        die ("fork");
      if (pid == 0)
        {
          execvp (cmd[0], cmd);
          die ("exec %s", cmd[0]);
        }
      int wstatus;
      pid_t done;
      while ((done = waitpid (pid, &wstatus, WNOHANG)) == 0)
        if (renameat2 (AT_FDCWD, d, AT_FDCWD, lnk, RENAME_EXCHANGE) == 0)
          exchanges++;
      if (done < 0)
        die ("waitpid");
      int status = WIFEXITED (wstatus) ? WEXITSTATUS (wstatus) : -1;
      if (status == 0)
        ran++;
      else if (status == 1)
        refused++;
      else
        {
          printf ("round %lu: the command ended with status %d\n", r,
                  status);
          return 1;
        }
    }
  printf ("%lu rounds: %lu ran, %lu refused; %lu exchanges\n", rounds, ran,
          refused, exchanges);
  return 0;
}

/* --- probes ------------------------------------------------------------ */

static const char *
errno_name (int err)
{
  switch (err)
    {
    case EPERM: return "EPERM";
    case EACCES: return "EACCES";
    case EROFS: return "EROFS";
    case EINVAL: return "EINVAL";
    case ENOSYS: return "ENOSYS";
    case EBUSY: return "EBUSY";
    case ENOENT: return "ENOENT";
    case EIO: return "EIO";
    case ENOTTY: return "ENOTTY";
    default: return strerror (err);
    }
}

static void
report (const char *call, int ret)
{
  printf ("%s: %s\n", call, ret >= 0 ? "ok" : errno_name (-ret));
}

static int
mount_api (void)
{
  struct nc_mount_attr rw = { .attr_clr = MOUNT_ATTR_RDONLY };
  report ("mount_setattr", sys_mount_setattr (AT_FDCWD, "/", AT_RECURSIVE,
                                              &rw));
  int tree = sys_open_tree (AT_FDCWD, "/", OPEN_TREE_CLONE
                            | OPEN_TREE_CLOEXEC);
  report ("open_tree", tree);
  if (tree >= 0)
    {
      report ("move_mount", sys_move_mount (tree, "", AT_FDCWD, "/tmp",
                                            MOVE_MOUNT_F_EMPTY_PATH));
      close (tree);
    }
  int fs = sys_fsopen ("tmpfs", FSOPEN_CLOEXEC);
  report ("fsopen", fs);
  if (fs >= 0)
    close (fs);
  report ("mount", sys_mount (NULL, "/", NULL, MS_REMOUNT | MS_BIND, NULL));
  report ("umount2", sys_umount2 ("/proc", MNT_DETACH));
  return 0;
}

static int
list_fds (void)
{
  DIR *d = opendir ("/proc/self/fd");
  if (!d)
    die ("opendir /proc/self/fd");
  struct dirent *de;
  char path[64], target[4096];
  while ((de = readdir (d)))
    {
      int fd = atoi (de->d_name);
      if (de->d_name[0] == '.' || fd <= 2 || fd == dirfd (d))
        continue;
      snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
      ssize_t n = readlink (path, target, sizeof target - 1);
      target[n < 0 ? 0 : n] = '\0';
      printf ("%d -> %s\n", fd, target);
    }
  closedir (d);
  return 0;
}

static int
tiocsti (void)
{
  char c = ' ';
  report ("TIOCSTI", ioctl (STDIN_FILENO, TIOCSTI, &c) < 0 ? -errno : 0);
  return 0;
}

int
main (int argc, char **argv)
{
  const char *what = argc > 1 ? argv[1] : "";
  if (strcmp (what, "jail") == 0 && argc >= 4)
    return jail (argv[2], argv + 3);
  if (strcmp (what, "race") == 0 && argc >= 6)
    return race (number (argv[2]), argv[3], argv[4], argv + 5);
  if (strcmp (what, "mount-api") == 0 && argc == 2)
    return mount_api ();
  if (strcmp (what, "fds") == 0 && argc == 2)
    return list_fds ();
  if (strcmp (what, "tiocsti") == 0 && argc == 2)
    return tiocsti ();
  fputs ("usage: sandbox-attack jail WORK COMMAND [ARG]...\n"
         "     | race ROUNDS DIR TARGET COMMAND [ARG]...\n"
         "     | mount-api | fds | tiocsti\n", stderr);
  return 125;
}
