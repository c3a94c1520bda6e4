/* sys-ns-test.c -- the C test driver of lib/sys/calls.h's namespaces
   and what a process in new ones sets up (unshare, setns, mount, umount2,
   sethostname, prctl, capget, capset): each wrapper against the libc
   function called with the same arguments (sys-test.h).  */

#include <config.h>

#define TAP_NAME "sys-ns-test"
#include "sys-test.h"

/* ------------------------------------------------------------------ */
/* unshare, setns.  */

static long
child_unshare_uts (int pass, int arg)
{
  (void) arg;
  long r = pass == 0 ? sys_unshare (CLONE_NEWUTS)
    : (unshare (CLONE_NEWUTS) < 0 ? -errno : 0);
  /* In a namespace of its own, a new host name is this child's only.  */
  if (r == 0 && sethostname ("nc-sys-test", 11) < 0)
    return -errno;
  return r;
}

static long
child_setns (int pass, int fd)
{
  return pass == 0 ? sys_setns (fd, CLONE_NEWUTS)
    : (setns (fd, CLONE_NEWUTS) < 0 ? -errno : 0);
}

static long
child_setns_any (int pass, int fd)
{
  return pass == 0 ? sys_setns (fd, 0) : (setns (fd, 0) < 0 ? -errno : 0);
}

static void
test_namespaces (void)
{
  long long s, l;
  char host0[256], host1[256];

  CMP (sys_unshare (CLONE_FILES), unshare (CLONE_FILES),
       "sys_unshare CLONE_FILES");
  CMP (sys_unshare (CLONE_FS), unshare (CLONE_FS), "sys_unshare CLONE_FS");
  CMP (sys_unshare (0), unshare (0), "sys_unshare 0");
  CMP (sys_unshare (0x1), unshare (0x1),
       "sys_unshare with an invalid flag: EINVAL");
  CMP (sys_unshare (CLONE_SIGHAND | CLONE_VM | 0x1),
       unshare (CLONE_SIGHAND | CLONE_VM | 0x1),
       "sys_unshare with CSIGNAL bits: EINVAL");

  gethostname (host0, sizeof host0);
  s = in_child (child_unshare_uts, 0, 0);
  l = in_child (child_unshare_uts, 1, 0);
  check_int (s, l, "sys_unshare CLONE_NEWUTS in a child: as libc's (%s)",
             l == 0 ? "root: both succeed" : "both fail");
  gethostname (host1, sizeof host1);
  check (strcmp (host0, host1) == 0, host1,
         "sys_unshare CLONE_NEWUTS: the parent's host name unchanged");

  int ns = open ("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);
  if (ns < 0)
    skip ("sys_setns: no /proc/self/ns/uts");
  else
    {
      s = in_child (child_setns, 0, ns);
      l = in_child (child_setns, 1, ns);
      check_int (s, l, "sys_setns CLONE_NEWUTS in a child: as libc's");
      s = in_child (child_setns_any, 0, ns);
      l = in_child (child_setns_any, 1, ns);
      check_int (s, l, "sys_setns nstype 0 in a child: as libc's");
      CMP (sys_setns (ns, CLONE_NEWNET), setns (ns, CLONE_NEWNET),
           "sys_setns of a UTS fd as CLONE_NEWNET: EINVAL");
      close (ns);
    }
  CMP (sys_setns (-1, CLONE_NEWUTS), setns (-1, CLONE_NEWUTS),
       "sys_setns of fd -1: EBADF");
  int f = open_rd ("exists");
  CMP (sys_setns (f, 0), setns (f, 0),
       "sys_setns of a regular file: EINVAL");
  close (f);
}

/* ------------------------------------------------------------------ */
/* mount, umount2, sethostname, prctl, capget, capset.  */

/* glibc exports these two without declaring them.  */
extern int capget (void *header, void *data);
extern int capset (void *header, const void *data);

/* In a child's own mount and UTS namespaces: mount a tmpfs on "mnt",
   unmount it, and name the host, by wrapper (pass 0) or libc (pass 1).
   ARG picks the step that must fail: 0 none, 1 mount of a missing target,
   2 umount2 of what is no mount point.  */
static long
child_mount (int pass, int arg)
{
  char target[sizeof tap_scratch_dirs[0] + 8];
  snprintf (target, sizeof target, "%s/%s", scratch,
            arg == 1 ? "no-such" : "mnt");
  if (unshare (CLONE_NEWNS | CLONE_NEWUTS) < 0)
    return -errno;
  if (mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
    return -errno;
  long r = 0;
  if (arg != 2)
    r = pass == 0 ? sys_mount ("nc", target, "tmpfs", 0, "size=64k")
      : (mount ("nc", target, "tmpfs", 0, "size=64k") < 0 ? -errno : 0);
  if (r == 0)
    r = pass == 0 ? sys_umount2 (target, 0)
      : (umount2 (target, 0) < 0 ? -errno : 0);
  if (r == 0)
    r = pass == 0 ? sys_sethostname ("nc-mount", 8)
      : (sethostname ("nc-mount", 8) < 0 ? -errno : 0);
  return r;
}

static void
test_mount_prctl_caps (void)
{
  static const char *const what[] = {
    "sys_mount tmpfs, sys_umount2, sys_sethostname in new namespaces",
    "sys_mount on a missing target",
    "sys_umount2 of a directory that is no mount point",
  };
  mkdirat (dfd, "mnt", 0755);
  for (int arg = 0; arg < 3; arg++)
    {
      long s = in_child (child_mount, 0, arg);
      long l = in_child (child_mount, 1, arg);
      char g[64], w[64], detail[160];
      snprintf (detail, sizeof detail, "got %s, want %s (libc)",
                fmt_val (s, g, sizeof g), fmt_val (l, w, sizeof w));
      check (s == l && s != -1000, detail, "%s: as libc", what[arg]);
    }

  CMP (sys_prctl (PR_GET_DUMPABLE, 0, 0, 0, 0), prctl (PR_GET_DUMPABLE),
       "sys_prctl PR_GET_DUMPABLE");
  CMP (sys_prctl (-1, 0, 0, 0, 0), prctl (-1), "sys_prctl bad option");

  /* _LINUX_CAPABILITY_VERSION_3: two 32-bit words per set.  */
  struct { uint32_t version; int pid; } sh = { 0x20080522, 0 }, lh = sh;
  struct { uint32_t eff, perm, inh; } sd[2], ld[2];
  CMP (sys_capget (&sh, sd), capget (&lh, ld), "sys_capget of this process");
  check (memcmp (sd, ld, sizeof sd) == 0, "sets differ",
         "sys_capget: the same sets as libc");
  CMP (sys_capset (&sh, sd), capset (&lh, ld),
       "sys_capset of the sets it has");
  struct { uint32_t version; int pid; } bad = { 1, 0 }, lbad = bad;
  CMP (sys_capget (&bad, sd), capget (&lbad, ld),
       "sys_capget with a bad version");
}

/* ------------------------------------------------------------------ */

int
main (void)
{
  sys_test_start ();
  /* The regular file the cases open.  */
  make_file ("exists", "data", 4);

  test_namespaces ();
  test_mount_prctl_caps ();

  return tap_done ();
}
