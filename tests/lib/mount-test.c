/* mount-test.c -- the C test driver for lib/ns/mount.c, the sandbox's
   mount steps, and the sys_* calls of the new mount API under them.

   Every scenario runs in a child process with a mount namespace of its
   own whose "/" is made private first (and a user namespace when not
   root): no check mounts anything the machine sees.  The source trees
   are plain files and directories in a mkdtemp directory under /tmp;
   their submounts are made in the child.  Where the namespaces cannot be
   had (not root and no user namespaces, a kernel before 5.12), the
   scenarios are skipped with the reason.

   What is proved: a read-only bind of a tree holding a writable tmpfs
   submount and a bind submount is read-only in all of them (EROFS),
   while the source's own mounts stay writable; binds are nosuid and
   nodev; tmpfs size and mode; proc and mqueue; a working minimal /dev;
   files from a descriptor, written or bound; a symlink planted at a
   component of DST (absolute, or relative out of the new root, or
   swapped in by a racer) is followed inside the new root, a /proc magic
   link fails the step, and nothing is mounted or made outside; a new
   root is refused in the mount namespace noted as the start's; after
   ns_mount_enter only the built tree is visible.  And, by strace(1) when it can trace, that
   a bind is open_tree + mount_setattr + move_mount, with no mount(2).

   The last line is "mount-test: N passed, M failed, K skipped"; the exit
   status is 1 if any check failed.  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ns/mount.h"
#include "sys/calls.h"
#include "sys/consts.h"

/* gnulib replaces these; the tests want glibc's own.  */
#undef open
#undef close
#undef fcntl

#define TAP_NAME "mount-test"
#include "tap.h"

#ifndef MQUEUE_MAGIC
# define MQUEUE_MAGIC 0x19800202
#endif

/* The scratch directory, and the source tree in it:
     src/f, src/a/g, src/t/ (a tmpfs in the child), src/b/ (other/ bound
     there in the child), other/h.  */
static const char *scratch;
static char src[256], other[256];

/* A name no test makes on purpose, for the escapes: "/" + it must never
   appear in the old root.  */
static char escape[64];

/* Whether this driver runs as root (not merely root in a user namespace
   of its own).  */
static bool real_root;

/* ------------------------------------------------------------------ */
/* Namespaces.  */

/* Write TEXT to the /proc file PATH: 0 or -errno.  */
static int
write_proc (const char *path, const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  ssize_t n = write (fd, text, strlen (text));
  int ret = n < 0 ? -errno : 0;
  close (fd);
  return ret;
}

/* Enter a mount namespace of its own, with "/" private, and IPC and PID
   namespaces of its own for mqueue and proc (the PID namespace is the
   next child's): NULL, or why not.  */
static const char *
private_namespace (void)
{
  static char why[160];
  int flags = CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWPID;
  uid_t uid = geteuid ();
  gid_t gid = getegid ();
  if (unshare (flags | (real_root ? 0 : CLONE_NEWUSER)) < 0)
    {
      snprintf (why, sizeof why, "%s: %s",
                real_root ? "unshare" : "not root, and no user namespace",
                strerror (errno));
      return why;
    }
  if (!real_root)
    {
      char map[64];
      snprintf (map, sizeof map, "0 %lu 1", (unsigned long) uid);
      if (write_proc ("/proc/self/setgroups", "deny") < 0
          || write_proc ("/proc/self/uid_map", map) < 0)
        return "cannot write the user namespace's maps";
      snprintf (map, sizeof map, "0 %lu 1", (unsigned long) gid);
      if (write_proc ("/proc/self/gid_map", map) < 0)
        return "cannot write the user namespace's maps";
    }
  /* Set-up, not the code tested: mount(2) where mount_setattr is
     missing, so that the steps are seen failing closed there.  */
  struct nc_mount_attr attr = { .propagation = MS_PRIVATE };
  int ret = sys_mount_setattr (AT_FDCWD, "/", AT_RECURSIVE, &attr);
  if (ret == -ENOSYS)
    ret = sys_mount ("none", "/", NULL, MS_REC | MS_PRIVATE, NULL);
  if (ret < 0)
    {
      snprintf (why, sizeof why, "a private \"/\": %s", strerror (-ret));
      return why;
    }
  return NULL;
}

/* Leave a child of in_namespace: the counts of checks written to FD, for
   the parent.  */
static _Noreturn void
send_counts (int fd)
{
  fflush (stdout);
  int counts[4] = { tap_n_test, tap_n_pass, tap_n_fail, tap_n_skip };
  _exit (write (fd, counts, sizeof counts) == sizeof counts ? 0 : 1);
}

/* In a child: the namespaces, then SCENARIO in a child of its own (WHAT
   names it for a skip).  */
static _Noreturn void
namespace_child (const char *what, void (*scenario) (void), int fd)
{
  const char *why = private_namespace ();
  if (why)
    {
      tap_skip ("%s: %s", what, why);
      send_counts (fd);
    }
  /* The first process of the new PID namespace runs SCENARIO.  */
  pid_t pid = fork ();
  if (pid < 0)
    tap_die ("fork");
  if (pid == 0)
    {
      scenario ();
      send_counts (fd);
    }
  int status;
  waitpid (pid, &status, 0);
  _exit (0);
}

/* Run SCENARIO in a child in private namespaces (WHAT names it for a
   skip); its checks count as this process's.  */
static void
in_namespace (const char *what, void (*scenario) (void))
{
  int p[2];
  if (pipe (p) < 0)
    tap_die ("pipe");
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    tap_die ("fork");
  if (pid == 0)
    {
      close (p[0]);
      namespace_child (what, scenario, p[1]);
    }
  close (p[1]);
  int counts[4];
  ssize_t n = read (p[0], counts, sizeof counts);
  close (p[0]);
  int status;
  waitpid (pid, &status, 0);
  if (n != sizeof counts)
    {
      tap_check (false, "the child died", "%s: ran to its end", what);
      return;
    }
  tap_n_test = counts[0];
  tap_n_pass = counts[1];
  tap_n_fail = counts[2];
  tap_n_skip = counts[3];
}

/* ------------------------------------------------------------------ */
/* Helpers of the checks.  */

/* PATH (under the scratch directory) made, which must work.  */
static void
scratch_path (char *buf, size_t size, const char *name)
{
  if (snprintf (buf, size, "%s/%s", scratch, name) >= (int) size)
    tap_die ("scratch path too long");
}

/* The submounts of src/ that the read-only bind must cover, made in the
   child's namespace with mount(2) (set-up, not the code tested).  */
static void
make_submounts (void)
{
  char t[PATH_MAX], b[PATH_MAX];
  snprintf (t, sizeof t, "%s/t", src);
  snprintf (b, sizeof b, "%s/b", src);
  if (sys_mount ("tmpfs", t, "tmpfs", 0, "mode=0755") < 0
      || sys_mount (other, b, NULL, MS_BIND, NULL) < 0)
    tap_die ("mount of the submounts");
}

/* -errno of creating PATH, a file, beneath DIRFD (0 if it could).  */
static int
create_at (int dirfd, const char *path)
{
  int fd = openat (dirfd, path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0)
    return -errno;
  close (fd);
  return 0;
}

/* The type of the file system holding PATH beneath DIRFD, or 0.  */
static long
fs_type_at (int dirfd, const char *path)
{
  int fd = openat (dirfd, path, O_RDONLY | O_CLOEXEC);
  struct statfs sf;
  long type = fd >= 0 && fstatfs (fd, &sf) == 0 ? (long) sf.f_type : 0;
  if (fd >= 0)
    close (fd);
  return type;
}

/* The mode of PATH beneath DIRFD (not following a last symlink), or 0.  */
static mode_t
mode_at (int dirfd, const char *path)
{
  struct stat st;
  return fstatat (dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0
         ? st.st_mode : 0;
}

/* Whether the mount of PATH beneath DIRFD is nosuid and nodev.  */
static bool
nosuid_nodev_at (int dirfd, const char *path)
{
  struct statvfs sv;
  int fd = openat (dirfd, path, O_RDONLY | O_CLOEXEC);
  unsigned long both_flags = ST_NOSUID | ST_NODEV;
  bool both = fd >= 0 && fstatvfs (fd, &sv) == 0
              && (sv.f_flag & both_flags) == both_flags;
  if (fd >= 0)
    close (fd);
  return both;
}

/* Whether "/" + ESCAPE exists in the old root.  */
static bool
escaped (void)
{
  char path[80];
  snprintf (path, sizeof path, "/%s", escape);
  return access (path, F_OK) == 0 || errno != ENOENT;
}

/* The lines of /proc/self/mountinfo.  */
static int
mount_count (void)
{
  FILE *f = fopen ("/proc/self/mountinfo", "re");
  if (!f)
    tap_die ("/proc/self/mountinfo");
  int n = 0, c;
  while ((c = getc (f)) != EOF)
    n += c == '\n';
  fclose (f);
  return n;
}

/* Whether PATH beneath DIRFD is on a read-only mount.  */
static bool
read_only_at (int dirfd, const char *path)
{
  int fd = openat (dirfd, path, O_PATH | O_CLOEXEC);
  struct statvfs sv;
  bool ro = fd >= 0 && fstatvfs (fd, &sv) == 0 && (sv.f_flag & ST_RDONLY);
  if (fd >= 0)
    close (fd);
  return ro;
}

/* The files of proc that ns_mount_proc covers read-only.  */
static const char *const covered[] = { "sys", "sysrq-trigger", "irq",
                                       "bus" };

/* How many of them are read-only in the proc at DIR beneath DIRFD, a
   new proc: the mounts ns_mount_proc added to cover them.  */
static int
proc_covers (int dirfd, const char *dir)
{
  char path[PATH_MAX];
  int n = 0;
  for (size_t i = 0; i < sizeof covered / sizeof *covered; i++)
    {
      snprintf (path, sizeof path, "%s/%s", dir, covered[i]);
      n += read_only_at (dirfd, path);
    }
  return n;
}

/* Whether any of them can be written in the proc at DIR beneath
   DIRFD.  */
static bool
proc_writable (int dirfd, const char *dir)
{
  char path[PATH_MAX];
  bool any = false;
  for (size_t i = 0; i < sizeof covered / sizeof *covered; i++)
    {
      snprintf (path, sizeof path, "%s/%s", dir, covered[i]);
      any |= faccessat (dirfd, path, W_OK, 0) == 0;
    }
  return any;
}

/* Check that a step answered WANT (0 or -errno), with M.FAIL naming CALL
   when it failed.  */
static void
check_step (const struct ns_mount *m, int ret, int want, const char *call,
            const char *what)
{
  char detail[128];
  snprintf (detail, sizeof detail, "got %s from %s", strerror (-ret),
            ret < 0 && m->fail.call ? m->fail.call : "-");
  tap_check (ret == want && (want == 0 || strcmp (m->fail.call, call) == 0),
             detail, "%s", what);
}

/* ns_mount_begin: whether it worked.  A kernel (or qemu-user) without
   the calls fails it closed, with the call and the Linux it needs named:
   checked, and the scenario (WHAT) skipped.  Any other failure is a
   hard error.  */
static bool
begin (struct ns_mount *m, const char *what)
{
  int ret = ns_mount_begin (m);
  if (ret == -ENOSYS)
    {
      tap_ok (m->fail.call && m->fail.since,
              "%s: ns_mount_begin without the mount API: ENOSYS, naming "
              "%s (Linux %s)", what, m->fail.call,
              m->fail.since ? m->fail.since : "?");
      tap_skip ("%s: %s: no such call here", what, m->fail.call);
      return false;
    }
  if (ret < 0)
    {
      fprintf (stderr, "mount-test: ns_mount_begin: %s: %s\n",
               m->fail.call, strerror (-ret));
      exit (99);
    }
  return true;
}

/* A check of a sys_* call's answer GOT against WANT, skipped where the
   call is missing (ENOSYS: an old kernel, or qemu-user).  */
static void
check_call (long got, long want, const char *what)
{
  if (got == -ENOSYS && want != -ENOSYS)
    tap_skip ("%s: ENOSYS here", what);
  else
    tap_check_int (got, want, "%s", what);
}

/* ------------------------------------------------------------------ */
/* The system calls themselves.  */

/* A descriptor GOT opened as WHAT says (skipped on ENOSYS), then closed.  */
static void
check_opened (int got, const char *what)
{
  if (got == -ENOSYS)
    tap_skip ("%s: ENOSYS here", what);
  else
    tap_check (got >= 0, strerror (-got), "%s", what);
  if (got >= 0)
    close (got);
}

/* openat2's RESOLVE rules, open_tree without a clone, pivot_root and
   fchdir refusing.  */
static void
test_open_calls (int dir)
{
  struct nc_open_how how = { .flags = O_PATH | O_CLOEXEC,
                             .resolve = RESOLVE_BENEATH };
  check_opened (sys_openat2 (dir, "src/a/g", &how),
                "sys_openat2 RESOLVE_BENEATH: a path beneath opens");
  check_call (sys_openat2 (dir, "..", &how), -EXDEV,
              "sys_openat2 RESOLVE_BENEATH: \"..\" out of DIRFD");
  check_call (sys_openat2 (dir, "/tmp", &how), -EXDEV,
              "sys_openat2 RESOLVE_BENEATH: an absolute path");
  if (symlinkat ("/proc/self/root", dir, "magic") < 0)
    tap_die ("symlinkat");
  how.resolve = RESOLVE_NO_MAGICLINKS;
  check_call (sys_openat2 (dir, "magic/tmp", &how), -ELOOP,
              "sys_openat2 RESOLVE_NO_MAGICLINKS: a /proc link");
  unlinkat (dir, "magic", 0);
  how.resolve = 0;
  how.flags = (uint64_t) 1 << 40;
  check_call (sys_openat2 (dir, ".", &how), -EINVAL,
              "sys_openat2: an unknown flag, EINVAL");
  check_call (sys_open_tree (dir, "missing", OPEN_TREE_CLOEXEC), -ENOENT,
              "sys_open_tree: a missing path, ENOENT");
  check_opened (sys_open_tree (dir, "src", OPEN_TREE_CLOEXEC),
                "sys_open_tree without OPEN_TREE_CLONE: an O_PATH");
  check_call (sys_pivot_root ("/nonexistent-new", "/nonexistent-old"),
              -ENOENT, "sys_pivot_root: a missing new root");
  check_call (sys_fchdir (-1), -EBADF, "sys_fchdir: no descriptor");
}

/* fsopen, fsconfig, fsmount on a tmpfs that is never attached (no one
   sees it), move_mount and mount_setattr refusing.  */
static void
test_fs_calls (void)
{
  check_call (sys_fsopen ("no-such-fs", FSOPEN_CLOEXEC), -ENODEV,
              "sys_fsopen: an unknown file system, ENODEV");
  check_call (sys_move_mount (-1, "", -1, "", MOVE_MOUNT_F_EMPTY_PATH
                              | MOVE_MOUNT_T_EMPTY_PATH),
              -EBADF, "sys_move_mount: no descriptor, EBADF");
  check_call (sys_fsmount (-1, 0, 0), -EBADF,
              "sys_fsmount: no descriptor, EBADF");
  struct nc_mount_attr attr = { .attr_set = MOUNT_ATTR_RDONLY };
  check_call (sys_mount_setattr (-1, "", AT_EMPTY_PATH, &attr), -EBADF,
              "sys_mount_setattr: no descriptor, EBADF");
  int fs = sys_fsopen ("tmpfs", FSOPEN_CLOEXEC);
  if (fs < 0)
    {
      check_call (fs, 0, "sys_fsopen of a tmpfs");
      return;
    }
  check_call (sys_fsconfig (fs, FSCONFIG_SET_STRING, "no-such-option", "1",
                            0), -EINVAL,
              "sys_fsconfig: an unknown option, EINVAL");
  check_call (sys_fsconfig (fs, FSCONFIG_SET_STRING, "mode", "0700", 0), 0,
              "sys_fsconfig: a tmpfs's mode");
  check_call (sys_fsconfig (fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0), 0,
              "sys_fsconfig FSCONFIG_CMD_CREATE");
  int fd = sys_fsmount (fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NODEV);
  struct stat st;
  check_call (fd >= 0 && fstat (fd, &st) == 0
              ? (long) (st.st_mode & 07777) : fd < 0 ? fd : -1, 0700,
              "sys_fsmount: a detached mount, its root of mode 0700");
  if (fd >= 0)
    close (fd);
  close (fs);
}

/* The system calls themselves: nothing attached.  */
static void
test_calls (void)
{
  int dir = open (scratch, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0)
    tap_die (scratch);
  test_open_calls (dir);
  test_fs_calls ();
  close (dir);
}

/* ------------------------------------------------------------------ */
/* Scenarios, each in a namespace of its own.  */

/* A read-only bind of a tree with submounts, a writable one, files.  */
static void
sc_bind (void)
{
  make_submounts ();
  struct ns_mount m;
  if (!begin (&m, "binds"))
    return;
  check_step (&m, ns_mount_bind (&m, src, "/ro", NS_BIND_RO), 0, NULL,
              "ns_mount_bind NS_BIND_RO of a tree with submounts");
  tap_check_int (create_at (m.fd, "ro/new"), -EROFS,
                 "read-only bind: its root refuses a new file");
  tap_check_int (create_at (m.fd, "ro/t/new"), -EROFS,
                 "read-only bind: its tmpfs submount too");
  tap_check_int (create_at (m.fd, "ro/b/new"), -EROFS,
                 "read-only bind: its bind submount too");
  tap_check_int (mkdirat (m.fd, "ro/a/d", 0755) < 0 ? -errno : 0, -EROFS,
                 "read-only bind: mkdir in a subdirectory");
  tap_check_int (fs_type_at (m.fd, "ro/t"), TMPFS_MAGIC,
                 "read-only bind: the tmpfs submount came with it");
  tap_ok (mode_at (m.fd, "ro/b/h") != 0,
          "read-only bind: the bind submount's file is there");
  char path[PATH_MAX];
  snprintf (path, sizeof path, "%s/t/new", src);
  tap_check_int (create_at (AT_FDCWD, path), 0,
                 "read-only bind: the source's tmpfs stays writable");

  check_step (&m, ns_mount_bind (&m, src, "/rw/deep", 0), 0, NULL,
              "ns_mount_bind: a writable bind, parents made");
  tap_check_int (create_at (m.fd, "rw/deep/t/new2"), 0,
                 "writable bind: its submount is writable");
  tap_check_int (mode_at (m.fd, "rw"), S_IFDIR | 0755,
                 "a missing parent is made as a directory, mode 0755");
  tap_ok (nosuid_nodev_at (m.fd, "rw/deep/b"),
          "a bind is nosuid and nodev in its submounts");

  snprintf (path, sizeof path, "%s/f", src);
  check_step (&m, ns_mount_bind (&m, path, "/etc/f", NS_BIND_RO), 0, NULL,
              "ns_mount_bind of a file: an empty file made to mount on");
  tap_check_int (S_ISREG (mode_at (m.fd, "etc/f")), 1,
                 "the bound file is a regular file");
  check_step (&m, ns_mount_bind (&m, "/nonexistent-src", "/x", NS_BIND_TRY),
              0, NULL, "NS_BIND_TRY: a missing SRC mounts nothing");
  tap_check_int (mode_at (m.fd, "x"), 0, "NS_BIND_TRY: no DST made");
  check_step (&m, ns_mount_bind (&m, "/nonexistent-src", "/x", 0), -ENOENT,
              "open_tree", "a missing SRC: ENOENT from open_tree");
  tap_check_str (m.fail.since, "5.2", "open_tree needs Linux 5.2");

  check_step (&m, ns_mount_remount_ro (&m, "/rw/deep"), 0, NULL,
              "ns_mount_remount_ro of a writable bind");
  tap_check_int (create_at (m.fd, "rw/deep/t/new3"), -EROFS,
                 "ns_mount_remount_ro: its submounts too");
  check_step (&m, ns_mount_remount_ro (&m, "/rw"), -EINVAL, "mount_setattr",
              "ns_mount_remount_ro of a directory that is no mount: "
              "EINVAL");
}

/* tmpfs with a size and a mode, and a tmpfs that covers the new root.  */
static void
sc_tmpfs (void)
{
  struct ns_mount m;
  if (!begin (&m, "tmpfs"))
    return;
  check_step (&m, ns_mount_tmpfs (&m, "/tmp", 1 << 20, 01777), 0, NULL,
              "ns_mount_tmpfs of 1 MiB, mode 1777");
  tap_check_int (mode_at (m.fd, "tmp"), S_IFDIR | 01777,
                 "ns_mount_tmpfs: the mode");
  struct statvfs sv;
  int fd = openat (m.fd, "tmp", O_RDONLY | O_CLOEXEC);
  tap_check_int (fd >= 0 && fstatvfs (fd, &sv) == 0
                 ? (long long) (sv.f_blocks * sv.f_frsize) : -1LL,
                 1 << 20, "ns_mount_tmpfs: the size");
  tap_ok (nosuid_nodev_at (m.fd, "tmp"), "ns_mount_tmpfs: nosuid, nodev");
  if (fd >= 0)
    close (fd);
  fd = openat (m.fd, "tmp/big", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
  static char buf[1 << 16];
  int err = 0;
  for (int i = 0; fd >= 0 && i < 32 && !err; i++)
    if (write (fd, buf, sizeof buf) < 0)
      err = errno;
  tap_check_int (err, ENOSPC, "ns_mount_tmpfs: 2 MiB do not fit");
  if (fd >= 0)
    close (fd);

  check_step (&m, ns_mount_dir (&m, "/etc/private", 0700), 0, NULL,
              "ns_mount_dir with mode 0700");
  tap_check_int (mode_at (m.fd, "etc/private"), S_IFDIR | 0700,
                 "ns_mount_dir: the mode, whatever the umask");
  check_step (&m, ns_mount_chmod (&m, "/etc", 0711), 0, NULL,
              "ns_mount_chmod");
  tap_check_int (mode_at (m.fd, "etc"), S_IFDIR | 0711,
                 "ns_mount_chmod: the mode");

  int before = m.fd;
  check_step (&m, ns_mount_tmpfs (&m, "/", 0, 0750), 0, NULL,
              "ns_mount_tmpfs on the new root itself");
  tap_ok (m.fd != before && mode_at (m.fd, "etc") == 0
          && mode_at (m.fd, ".") == (S_IFDIR | 0750),
          "the new root is now that tmpfs, empty");
  check_step (&m, ns_mount_dir (&m, "/d", 0755), 0, NULL,
              "a step after it builds in it");
  tap_ok (mode_at (m.fd, "d") != 0, "the directory is in the new top");
}

/* proc and mqueue.  */
static void
sc_proc (void)
{
  struct ns_mount m;
  if (!begin (&m, "proc"))
    return;
  int ret = ns_mount_proc (&m, "/proc", true);
  if (ret == -EPERM && !real_root)
    tap_skip ("ns_mount_proc: EPERM in a user namespace without a PID "
              "namespace of its own");
  else
    {
      check_step (&m, ret, 0, NULL, "ns_mount_proc");
      tap_check_int (fs_type_at (m.fd, "proc"), PROC_SUPER_MAGIC,
                     "ns_mount_proc: a proc");
      tap_ok (mode_at (m.fd, "proc/self/status") != 0,
              "ns_mount_proc: /proc/self/status");
    }
  /* Without a PID namespace of its own: the old root's, bound, which a
     user namespace may do.  */
  check_step (&m, ns_mount_proc (&m, "/bound", false), 0, NULL,
              "ns_mount_proc of the old root's /proc");
  tap_check_int (fs_type_at (m.fd, "bound"), PROC_SUPER_MAGIC,
                 "ns_mount_proc: the bound one is a proc");
  tap_ok (!read_only_at (m.fd, "bound") && nosuid_nodev_at (m.fd, "bound"),
          "ns_mount_proc: the bound one writable, nosuid, nodev");
  tap_ok (!proc_writable (m.fd, "bound") && !proc_writable (m.fd, "proc"),
          "ns_mount_proc: sys, sysrq-trigger, irq, bus not writable");
  check_step (&m, ns_mount_mqueue (&m, "/dev/mqueue"), 0, NULL,
              "ns_mount_mqueue");
  tap_check_int (fs_type_at (m.fd, "dev/mqueue"), MQUEUE_MAGIC,
                 "ns_mount_mqueue: an mqueue");
}

/* A minimal /dev.  */
static void
sc_dev (void)
{
  struct ns_mount m;
  if (!begin (&m, "dev"))
    return;
  check_step (&m, ns_mount_dev (&m, "/dev"), 0, NULL, "ns_mount_dev");
  int fd = openat (m.fd, "dev/null", O_WRONLY | O_CLOEXEC);
  tap_check_int (fd >= 0 ? write (fd, "abc", 3) : -errno, 3,
                 "dev/null takes a write");
  if (fd >= 0)
    close (fd);
  char buf[16];
  memset (buf, 1, sizeof buf);
  fd = openat (m.fd, "dev/zero", O_RDONLY | O_CLOEXEC);
  tap_ok (fd >= 0 && read (fd, buf, sizeof buf) == sizeof buf
          && memcmp (buf, (char[16]) { 0 }, sizeof buf) == 0,
          "dev/zero reads zeros");
  if (fd >= 0)
    close (fd);
  fd = openat (m.fd, "dev/full", O_WRONLY | O_CLOEXEC);
  tap_check_int (fd >= 0 && write (fd, "x", 1) < 0 ? errno : 0, ENOSPC,
                 "dev/full refuses a write: ENOSPC");
  if (fd >= 0)
    close (fd);
  struct stat st;
  tap_ok (fstatat (m.fd, "dev/tty", &st, 0) == 0 && S_ISCHR (st.st_mode)
          && st.st_rdev == makedev (5, 0), "dev/tty is the tty device");
  tap_ok (fstatat (m.fd, "dev/urandom", &st, 0) == 0
          && S_ISCHR (st.st_mode), "dev/urandom is a device");
  ssize_t n = readlinkat (m.fd, "dev/fd", buf, sizeof buf - 1);
  tap_check_str (n > 0 ? (buf[n] = '\0', buf) : "", "/proc/self/fd",
                 "dev/fd links to /proc/self/fd");
  n = readlinkat (m.fd, "dev/ptmx", buf, sizeof buf - 1);
  tap_check_str (n > 0 ? (buf[n] = '\0', buf) : "", "pts/ptmx",
                 "dev/ptmx links to pts/ptmx");
  tap_check_int (fs_type_at (m.fd, "dev/pts"), DEVPTS_SUPER_MAGIC,
                 "dev/pts is a devpts");
  int pts = openat (m.fd, "dev/pts", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = pts >= 0 ? fdopendir (pts) : NULL;
  int others = d ? 0 : -1;
  for (struct dirent *e; d && (e = readdir (d));)
    others += strcmp (e->d_name, ".") && strcmp (e->d_name, "..")
              && strcmp (e->d_name, "ptmx");
  if (d)
    closedir (d);
  tap_check_int (others, 0, "dev/pts is a new instance: no terminal yet");
  tap_check_int (mode_at (m.fd, "dev/shm"), S_IFDIR | 01777,
                 "dev/shm: mode 1777");
  tap_check_int (fs_type_at (m.fd, "dev/shm"), TMPFS_MAGIC,
                 "dev/shm is a tmpfs");
}

/* Symlinks planted at a component of DST: resolved with the new root as
   "/", they lead inside it, never out; a /proc magic link fails.  */
static void
sc_escape (void)
{
  char dst[PATH_MAX];
  struct ns_mount m;
  if (!begin (&m, "escapes"))
    return;
  int mounts = mount_count ();
  check_step (&m, ns_mount_symlink (&m, "/", "/up"), 0, NULL,
              "ns_mount_symlink to \"/\"");
  snprintf (dst, sizeof dst, "/up/%s", escape);
  check_step (&m, ns_mount_bind (&m, other, dst, 0), 0, NULL,
              "bind through an absolute symlink to \"/\"");
  tap_ok (S_ISDIR (mode_at (m.fd, escape)),
          "it is on the new root's /%s, inside", escape);
  check_step (&m, ns_mount_tmpfs (&m, "/up/t", 0, 0755), 0, NULL,
              "tmpfs through the symlink to \"/\"");
  tap_check_int (fs_type_at (m.fd, "t"), TMPFS_MAGIC,
                 "it is on the new root's /t");
  check_step (&m, ns_mount_symlink (&m, "../../..", "/a/rel"), 0, NULL,
              "ns_mount_symlink to \"../../..\"");
  check_step (&m, ns_mount_dir (&m, "/a/rel/climbed", 0755), 0, NULL,
              "dir through a symlink climbing out of the root");
  tap_ok (S_ISDIR (mode_at (m.fd, "climbed")),
          "\"..\" stopped at the new root: the directory is its /climbed");
  tap_ok (access ("/climbed", F_OK) < 0 && errno == ENOENT,
          "and not the old root's /climbed");
  check_step (&m, ns_mount_proc (&m, "/proc", true), 0, NULL,
              "ns_mount_proc");
  check_step (&m, ns_mount_symlink (&m, "/proc/self/root", "/magic"), 0,
              NULL, "ns_mount_symlink to a /proc magic link");
  snprintf (dst, sizeof dst, "/magic/%s.2", escape);
  check_step (&m, ns_mount_bind (&m, other, dst, 0), -ELOOP, "openat2",
              "bind through a /proc magic link: ELOOP");
  tap_check_int (mount_count (), mounts + 3 + proc_covers (m.fd, "proc"),
                 "the bind, tmpfs and proc (with what covers its files) "
                 "are the only mounts");
  tap_ok (!escaped (), "nothing was made in the old root");
  check_step (&m, ns_mount_symlink (&m, "inside/dir", "/in"), 0, NULL,
              "ns_mount_symlink to a path inside");
  check_step (&m, ns_mount_dir (&m, "/inside/dir", 0755), 0, NULL,
              "its target made");
  check_step (&m, ns_mount_tmpfs (&m, "/in/t", 0, 0755), 0, NULL,
              "a symlink that stays inside is followed");
  tap_check_int (fs_type_at (m.fd, "inside/dir/t"), TMPFS_MAGIC,
                 "the tmpfs is on its target");
}

/* ns_mount_begin in the mount namespace noted: refused, nothing
   mounted.  (In a namespace of its own, so that a refusal that failed
   would mount nothing the machine sees.)  */
static void
sc_guard (void)
{
  tap_check_int (ns_mount_note_namespace (), 0, "ns_mount_note_namespace");
  int mounts = mount_count ();
  struct ns_mount m;
  check_step (&m, ns_mount_begin (&m), -NS_MOUNT_SAME_NAMESPACE,
              "the mount namespace check",
              "ns_mount_begin in the noted namespace: refused");
  tap_check_int (mount_count (), mounts, "the refusal mounted nothing");
  tap_ok (m.fd == -1, "and left no new root");
}

/* Files from a descriptor: written in the new root, or bound there.  */
static void
sc_file (void)
{
  struct ns_mount m;
  if (!begin (&m, "files"))
    return;
  char path[PATH_MAX];
  scratch_path (path, sizeof path, "data");
  int fd = xopenat (AT_FDCWD, path, O_CREAT | O_RDWR | O_TRUNC);
  static char data[100000];
  for (size_t i = 0; i < sizeof data; i++)
    data[i] = 'a' + i % 26;
  if (write (fd, data, sizeof data) != sizeof data)
    tap_die ("write");
  lseek (fd, 0, SEEK_SET);
  check_step (&m, ns_mount_file (&m, fd, "/etc/f", 0640, 0), 0, NULL,
              "ns_mount_file: written in the new root, parents made");
  tap_check_int (mode_at (m.fd, "etc/f"), S_IFREG | 0640,
                 "ns_mount_file: the mode, whatever the umask");
  struct stat st;
  tap_check_int (fstatat (m.fd, "etc/f", &st, 0) == 0 ? st.st_size : -1,
                 sizeof data, "ns_mount_file: every byte, past a buffer");
  lseek (fd, 0, SEEK_SET);
  int mounts = mount_count ();
  check_step (&m, ns_mount_file (&m, fd, "/etc/ro", 0600,
                                 NS_FILE_BIND | NS_BIND_RO),
              0, NULL, "ns_mount_file bound, read-only");
  tap_check_int (mount_count (), mounts + 1,
                 "one mount more: the file's, its tmpfs attached nowhere");
  tap_check_int (fstatat (m.fd, "etc/ro", &st, 0) == 0 ? st.st_size : -1,
                 sizeof data, "the bound file holds every byte");
  tap_check_int (mode_at (m.fd, "etc/ro"), S_IFREG | 0600,
                 "the bound file's mode");
  int w = openat (m.fd, "etc/ro", O_WRONLY | O_CLOEXEC);
  tap_check_int (w < 0 ? -errno : 0, -EROFS, "the bound file is read-only");
  if (w >= 0)
    close (w);
  close (fd);
}

/* A racer swaps a directory of the new root with a symlink to "/" while
   binds go through it.  */
static void
sc_race (void)
{
  struct ns_mount m;
  if (!begin (&m, "race"))
    return;
  if (mkdirat (m.fd, "d", 0755) < 0 || symlinkat ("/", m.fd, "l") < 0)
    tap_die ("the racer's entries");
  pid_t racer = fork ();
  if (racer < 0)
    tap_die ("fork");
  if (racer == 0)
    for (;;)
      renameat2 (m.fd, "d", m.fd, "l", RENAME_EXCHANGE);
  char dst[PATH_MAX];
  snprintf (dst, sizeof dst, "/d/%s", escape);
  int done = 0, refused = 0, odd = 0;
  for (int i = 0; i < 400; i++)
    {
      int ret = ns_mount_bind (&m, other, dst, 0);
      done += ret == 0;
      refused += ret == -EXDEV || ret == -ENOENT || ret == -ENOTDIR;
      odd += ret < 0 && ret != -EXDEV && ret != -ENOENT && ret != -ENOTDIR;
    }
  kill (racer, SIGKILL);
  waitpid (racer, NULL, 0);
  char detail[64];
  snprintf (detail, sizeof detail, "%d mounted, %d refused, %d odd", done,
            refused, odd);
  tap_check (!escaped () && odd == 0, detail,
             "400 binds raced by a symlink to \"/\": none outside");
}

/* After ns_mount_enter: "/" holds what sc_enter built, nothing else.  */
static void
check_root_entries (void)
{
  static const char *const want[] = { "bin", "dev", "etc", "proc", "ro",
                                      "tmp" };
  char other_name[256] = "";
  int found = 0;
  DIR *d = opendir ("/");
  for (struct dirent *e; d && (e = readdir (d));)
    {
      bool wanted = !strcmp (e->d_name, ".") || !strcmp (e->d_name, "..");
      for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        wanted |= strcmp (e->d_name, want[i]) == 0;
      found += wanted;
      if (!wanted)
        snprintf (other_name, sizeof other_name, "%s", e->d_name);
    }
  if (d)
    closedir (d);
  tap_check (d && found == 8 && !other_name[0], other_name,
             "after ns_mount_enter \"/\" holds the built tree only");
}

/* After ns_mount_enter: every mount is one sc_enter made.  */
static void
check_mount_points (void)
{
  FILE *f = fopen ("/proc/self/mountinfo", "re");
  char line[1024], bad[512] = "";
  int lines = 0;
  while (f && fgets (line, sizeof line, f))
    {
      char point[512];
      lines++;
      if (sscanf (line, "%*s %*s %*s %*s %511s", point) == 1
          && strcmp (point, "/") && strcmp (point, "/tmp")
          && strncmp (point, "/proc", 5) && strncmp (point, "/ro", 3)
          && strncmp (point, "/dev", 4))
        snprintf (bad, sizeof bad, "%s", point);
    }
  if (f)
    fclose (f);
  /* "/", ro with t and b, tmp, proc and what covers its files, dev with
     6 devices, pts, shm.  */
  tap_check (bad[0] == '\0' && lines == 15 + proc_covers (AT_FDCWD, "/proc"),
             bad[0] ? bad : "count",
             "inside: the mount table holds the built mounts only (%d)",
             lines);
}

/* The whole build, then ns_mount_enter.  */
static void
sc_enter (void)
{
  make_submounts ();
  struct ns_mount m;
  if (!begin (&m, "enter"))
    return;
  int ret = ns_mount_bind (&m, src, "/ro", NS_BIND_RO);
  if (ret == 0)
    ret = ns_mount_tmpfs (&m, "/tmp", 0, 01777);
  if (ret == 0)
    ret = ns_mount_proc (&m, "/proc", true);
  if (ret == 0)
    ret = ns_mount_dev (&m, "/dev");
  if (ret == 0)
    ret = ns_mount_symlink (&m, "usr/bin", "/bin");
  if (ret == 0)
    ret = ns_mount_dir (&m, "/etc", 0700);
  check_step (&m, ret, 0, NULL, "the new root built");
  check_step (&m, ns_mount_enter (&m), 0, NULL, "ns_mount_enter");

  check_root_entries ();
  char cwd[PATH_MAX];
  tap_check_str (getcwd (cwd, sizeof cwd) ? cwd : "", "/",
                 "the working directory is \"/\"");
  tap_ok (access (scratch, F_OK) < 0 && errno == ENOENT,
          "the old root's files are out of reach");
  tap_check_int (create_at (AT_FDCWD, "/ro/t/new"), -EROFS,
                 "inside: the read-only bind's submount is read-only");
  tap_check_int (create_at (AT_FDCWD, "/tmp/new"), 0,
                 "inside: /tmp is writable");
  tap_check_int (mode_at (AT_FDCWD, "/etc"), S_IFDIR | 0700,
                 "inside: /etc has its mode");
  int fd = open ("/dev/null", O_WRONLY | O_CLOEXEC);
  tap_check_int (fd >= 0 ? write (fd, "x", 1) : -errno, 1,
                 "inside: /dev/null works");
  if (fd >= 0)
    close (fd);

  check_mount_points ();
  fd = sys_open_tree (AT_FDCWD, "/", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC
                      | AT_RECURSIVE);
  tap_ok (fd >= 0, "inside: \"/\" is bindable again");
  if (fd >= 0)
    close (fd);
}

/* After ns_mount_enter where a step covered the new root: the old root
   and the first tmpfs stacked under that step are gone, not left over
   "/" where no path leads (the mount table tells).  */
static void
sc_enter_covered (void)
{
  struct ns_mount m;
  if (!begin (&m, "enter a covered root"))
    return;
  /* proc's directory is made in other/, a scratch directory.  */
  int ret = ns_mount_bind (&m, other, "/", 0);
  if (ret == 0)
    ret = ns_mount_proc (&m, "/proc", true);
  check_step (&m, ret, 0, NULL, "a bind on \"/\", then proc");
  check_step (&m, ns_mount_enter (&m), 0, NULL, "ns_mount_enter");
  tap_ok (access ("/h", F_OK) == 0, "inside: the bind is \"/\"");
  tap_check_int (mount_count (), 2 + proc_covers (AT_FDCWD, "/proc"),
                 "inside: the bind and proc (with what covers its files), "
                 "nothing under");
}

/* ------------------------------------------------------------------ */
/* strace: the calls a bind makes.  */

/* The child of test_strace, under strace: a read-only bind into a new
   root, entered.  The exit status says whether every step worked.  */
static int
strace_child (void)
{
  struct ns_mount m;
  if (private_namespace () || ns_mount_begin (&m) < 0
      || ns_mount_bind (&m, src, "/ro", NS_BIND_RO) < 0
      || ns_mount_enter (&m) < 0)
    return 1;
  return 0;
}

/* Whether FILE, strace's output, has a line whose call is CALL and that
   holds WITH (NULL: anything).  */
static bool
traced (const char *file, const char *call, const char *with)
{
  FILE *f = fopen (file, "re");
  char line[2048];
  bool found = false;
  size_t len = strlen (call);
  while (f && !found && fgets (line, sizeof line, f))
    {
      /* "PID call(...": the call after the first space.  */
      const char *p = strchr (line, ' ');
      p = p ? p + strspn (p, " ") : line;
      found = strncmp (p, call, len) == 0 && p[len] == '('
              && (!with || strstr (p, with));
    }
  if (f)
    fclose (f);
  return found;
}

static void
test_strace (const char *self)
{
  if (!real_root)
    {
      tap_skip ("strace: not root");
      return;
    }
  char out[PATH_MAX], cmd[3 * PATH_MAX];
  scratch_path (out, sizeof out, "strace.out");
  snprintf (cmd, sizeof cmd,
            "timeout 60 strace -f -qq -o '%s' -e trace=mount,open_tree,"
            "move_mount,mount_setattr,fsopen,fsmount,pivot_root '%s' "
            "--strace-child '%s' >/dev/null 2>&1", out, self, scratch);
  int status = system (cmd);
  if (status != 0 || access (out, F_OK) < 0)
    {
      tap_skip ("strace: cannot trace here (status %d)", status);
      return;
    }
  tap_ok (!traced (out, "mount", NULL), "strace: no mount(2) at all");
  tap_ok (traced (out, "open_tree", "OPEN_TREE_CLONE")
          && traced (out, "open_tree", "AT_RECURSIVE"),
          "strace: the bind is open_tree (OPEN_TREE_CLONE|AT_RECURSIVE)");
  tap_ok (traced (out, "mount_setattr", "MOUNT_ATTR_RDONLY"),
          "strace: read-only by mount_setattr (AT_RECURSIVE)");
  tap_ok (traced (out, "move_mount", "MOVE_MOUNT_T_EMPTY_PATH"),
          "strace: attached by move_mount to a descriptor");
  tap_ok (traced (out, "fsopen", "\"tmpfs\"")
          && traced (out, "fsmount", NULL),
          "strace: the new root by fsopen and fsmount");
  tap_ok (traced (out, "pivot_root", NULL), "strace: entered by pivot_root");
}

/* ------------------------------------------------------------------ */

/* The source tree: see SRC.  */
static void
make_sources (void)
{
  char path[PATH_MAX];
  static const char *const dirs[] = { "src", "src/a", "src/t", "src/b",
                                      "other" };
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
    {
      scratch_path (path, sizeof path, dirs[i]);
      if (mkdir (path, 0755) < 0)
        tap_die (path);
    }
  static const char *const files[] = { "src/f", "src/a/g", "other/h" };
  for (size_t i = 0; i < sizeof files / sizeof *files; i++)
    {
      scratch_path (path, sizeof path, files[i]);
      close (xopenat (AT_FDCWD, path, O_CREAT | O_WRONLY));
    }
  scratch_path (src, sizeof src, "src");
  scratch_path (other, sizeof other, "other");
}

int
main (int argc, char **argv)
{
  real_root = geteuid () == 0;
  if (argc == 3 && strcmp (argv[1], "--strace-child") == 0)
    {
      scratch = argv[2];
      scratch_path (src, sizeof src, "src");
      if (ns_mount_note_namespace () < 0)
        _exit (1);
      /* _exit: no leak check at exit, whose tracer thread cannot attach
         to a process strace traces.  */
      _exit (strace_child ());
    }
  umask (022);
  scratch = tap_scratch ("/tmp");
  if (!scratch)
    tap_die ("mkdtemp");
  snprintf (escape, sizeof escape, "mount-test-escape.%ld", (long) getpid ());
  make_sources ();
  /* The namespace the steps must never run in: this one.  */
  if (ns_mount_note_namespace () < 0)
    tap_die ("ns_mount_note_namespace");

  /* Not root: the calls need the capabilities of a user namespace.  */
  if (real_root)
    test_calls ();
  else
    in_namespace ("calls", test_calls);
  in_namespace ("binds", sc_bind);
  in_namespace ("tmpfs", sc_tmpfs);
  in_namespace ("proc", sc_proc);
  in_namespace ("dev", sc_dev);
  in_namespace ("escapes", sc_escape);
  in_namespace ("race", sc_race);
  in_namespace ("guard", sc_guard);
  in_namespace ("files", sc_file);
  in_namespace ("enter", sc_enter);
  in_namespace ("enter a covered root", sc_enter_covered);
  test_strace (argv[0]);
  return tap_done ();
}
