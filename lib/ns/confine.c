/* ns/confine.c -- the process side of the sandbox; see ns/confine.h.  */

#include <config.h>

#include "ns/confine.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/common.h"
#include "full-write.h"
#include "ns/caps.h"
#include "ns/env.h"
#include "ns/idmap.h"
#include "ns/kinds.h"
#include "ns/mount.h"
#include "ns/process.h"
#include "ns/seccomp.h"
#include "sys/calls.h"

/* --- checks ------------------------------------------------------------ */

/* The descriptor FD of OPTION, made close-on-exec; a standard one stays
   COMMAND's, and unshare-run takes a copy.  Return the one to use.  */
static int
own_fd (const char *option, int fd)
{
  int ret = fd <= STDERR_FILENO ? sys_fcntl (fd, F_DUPFD_CLOEXEC, 3)
            : sys_fcntl (fd, F_GETFD, 0);
  if (ret >= 0 && fd > STDERR_FILENO)
    ret = sys_fcntl (fd, F_SETFD, ret | FD_CLOEXEC);
  if (ret < 0)
    ns_run_fail (-ret, "%s %d", option, fd);
  return fd <= STDERR_FILENO ? ret : fd;
}

/* --uid N and --gid N, bubblewrap's: the caller is N inside a new user
   namespace, the other id staying the caller's own.  */
static void
check_ids (struct ns_run *r)
{
  const struct ns_sandbox *s = &r->sandbox;
  bool user_ns = r->flags & CLONE_NEWUSER;
  /* As bubblewrap, an id the caller has already needs nothing.  */
  if ((s->uid_set && s->uid != geteuid () && !user_ns)
      || (s->gid_set && s->gid != getegid () && !user_ns))
    cli_usage_error ("--%s needs a new user namespace: add -U",
                     s->uid_set && s->uid != geteuid () ? "uid" : "gid");
  if (!user_ns || !(s->uid_set || s->gid_set))
    return;
  if (s->uid_set || !r->map_uid_set)
    r->map_uid = s->uid_set ? s->uid : geteuid ();
  if (s->gid_set || !r->map_gid_set)
    r->map_gid = s->gid_set ? s->gid : getegid ();
  r->map_uid_set = r->map_gid_set = true;
}

/* The range of --map-users (USERS) or --map-groups, SPEC, into *RANGE
   when it is "auto" (ns_sandbox_take parsed the others); OPTION: the
   option that asked for it, for messages.  */
static void
check_range (const char *option, const char *spec, bool users,
             struct ns_id_range *range)
{
  if (strcmp (spec, "auto") != 0)
    return;
  const char *file = users ? "/etc/subuid" : "/etc/subgid";
  uid_t uid = geteuid ();
  struct passwd *pw = getpwuid (uid);
  const char *name = pw ? pw->pw_name : NULL;
  int ret = ns_idmap_subid (file, name, uid, range);
  if (ret == -ESRCH)
    ns_run_fail (0, "%s: %s has no range of subordinate %s IDs for "
                 "user %s (uid %lu): an administrator adds one with "
                 "usermod --add-sub%cids", option, file,
                 users ? "user" : "group", name ? name : "?",
                 (unsigned long) uid, users ? 'u' : 'g');
  if (ret == -EINVAL)
    ns_run_fail (0, "%s: the line of %s for user %s (uid %lu) is "
                 "malformed", option, file, name ? name : "?",
                 (unsigned long) uid);
  if (ret < 0)
    ns_run_fail (-ret, "%s: cannot read %s", option, file);
}

static void
check_maps (struct ns_run *r)
{
  struct ns_sandbox *s = &r->sandbox;
  const char *users = s->map_users ? s->map_users
                      : s->map_auto ? "auto" : NULL;
  const char *groups = s->map_groups ? s->map_groups
                       : s->map_auto ? "auto" : NULL;
  if (users)
    check_range (s->map_users ? "--map-users" : "--map-auto", users, true,
                 &s->users);
  if (groups)
    check_range (s->map_groups ? "--map-groups" : "--map-auto", groups,
                 false, &s->groups);
  if (users || groups)
    r->flags |= CLONE_NEWUSER;
}

/* Capability CAP's name, or its number in BUF of SIZE bytes for one
   this build does not name.  */
static const char *
cap_word (int cap, char *buf, size_t size)
{
  const char *name = ns_sandbox_cap_name (cap);
  if (name)
    return name;
  snprintf (buf, size, "capability %d", cap);
  return buf;
}

/* --cap-add of a capability not held, without root or a new user
   namespace to have it in, would fail only once set up: say it now.
   Note the caller's capabilities, the start of bubblewrap's.  */
static void
check_caps (struct ns_run *r)
{
  struct ns_sandbox *s = &r->sandbox;
  s->caller_root = getuid () == 0;
  int ret = 0;
  if (s->bwrap_caps && s->caller_root)
    ret = ns_caps_effective (&s->caller_caps);
  if (ret < 0)
    ns_run_fail (-ret, "cannot read the capabilities");
  uint64_t held = 0;
  if (geteuid () == 0 || (r->flags & CLONE_NEWUSER)
      || ns_caps_permitted (&held) < 0)
    return;
  char buf[32];
  for (size_t i = 0; i < s->n_caps; i++)
    if (s->caps[i].add && s->caps[i].cap >= 0
        && !((held >> s->caps[i].cap) & 1))
      cli_usage_error ("--cap-add %s needs root or a new user namespace: "
                       "add -U (with -r or --uid 0 to be root in it)",
                       cap_word (s->caps[i].cap, buf, sizeof buf));
}

/* --seccomp FD: the program, read whole and checked now, before
   anything runs.  */
static void
read_seccomp (struct ns_sandbox *s)
{
  int ret = ns_seccomp_read (s->seccomp_fd, &s->seccomp_program,
                             &s->seccomp_size);
  if (ret == -EINVAL)
    ns_run_fail (0, "--seccomp %d: not a seccomp program: its size is not "
                 "a positive multiple of 8 bytes (struct sock_filter)",
                 s->seccomp_fd);
  if (ret == -E2BIG)
    ns_run_fail (0, "--seccomp %d: the program is longer than the "
                 "kernel's 4096 instructions (BPF_MAXINSNS)",
                 s->seccomp_fd);
  if (ret < 0)
    ns_run_fail (-ret, "--seccomp %d: cannot read the program",
                 s->seccomp_fd);
  sys_close (s->seccomp_fd);
  s->seccomp_fd = -1;
}

void
ns_sandbox_check_process (struct ns_run *r)
{
  struct ns_sandbox *s = &r->sandbox;
  check_maps (r);
  check_ids (r);
  check_caps (r);
  if (s->chdir && r->wd)
    cli_usage_error ("--chdir and --wd both say where COMMAND starts: "
                     "give one");

  if (s->seccomp_fd >= 0)
    read_seccomp (s);
  if (s->info_fd >= 0)
    s->info_fd = own_fd ("--info-fd", s->info_fd);
  if (s->block_fd >= 0)
    s->block_fd = own_fd ("--block-fd", s->block_fd);
  /* Held by unshare-run, and the init of a new PID namespace, as long as
     the sandbox lives: its reader sees the end when COMMAND ends.  */
  if (s->sync_fd >= 0)
    {
      s->sync_fd = own_fd ("--sync-fd", s->sync_fd);
      r->fork = true;
    }
  /* Held by the init, COMMAND's parent in the sandbox, as long as it
     runs: COMMAND itself must not hold them, nor be alone there.  */
  if (s->n_lock_files > 0)
    {
      if (r->as_pid_1)
        cli_usage_error ("--lock-file cannot be used with --as-pid-1: the "
                         "lock would be COMMAND's, which could drop it");
      r->fork = true;
    }
  /* A new root hides the caller's directory, which COMMAND gets again
     if the new root has it.  */
  if (ns_sandbox_has_root (s) && !s->chdir && !r->wd)
    s->old_wd = getcwd (NULL, 0);
}

/* --- COMMAND's process ------------------------------------------------- */

void
ns_confine_fds (const struct ns_run *r)
{
  const struct ns_sandbox *s = &r->sandbox;
  if (s->block_fd >= 0)
    {
      char byte;
      ssize_t n = ns_run_pipe_read (s->block_fd, &byte, 1);
      if (n < 0)
        ns_run_fail (-n, "cannot read --block-fd %d", s->block_fd);
      sys_close (s->block_fd);
    }
  int ret;
  if (s->sync_fd >= 0 && r->as_pid_1 && (r->flags & CLONE_NEWPID)
      && (ret = sys_fcntl (s->sync_fd, F_SETFD, 0)) < 0)
    ns_run_fail (-ret, "cannot pass --sync-fd %d on", s->sync_fd);
}

void
ns_confine_forked (const struct ns_run *r)
{
  if (r->sandbox.info_fd >= 0)
    sys_close (r->sandbox.info_fd);
}

bool
ns_confine_keeps (const struct ns_run *r)
{
  return r->keep_caps || r->sandbox.n_caps > 0 || r->sandbox.bwrap_caps;
}

static _Noreturn void
caps_failed (int err, int cap)
{
  char buf[32];
  if (cap < 0)
    ns_run_fail (-err, "cannot set the capabilities");
  ns_run_fail (0, "cannot set %s in the bounding or ambient set: %s%s",
               cap_word (cap, buf, sizeof buf), strerror (-err),
               err == -EINVAL ? "; ambient capabilities need Linux 4.3" : "");
}

/* The set that START, changed by --cap-add and --cap-drop, leaves: every
   capability in it must be held (HELD).  */
static uint64_t
caps_wanted (const struct ns_sandbox *s, uint64_t start, uint64_t held)
{
  uint64_t set = ns_caps_changed (start, held, s->caps, s->n_caps);
  char buf[32];
  for (int cap = 0; cap < 64; cap++)
    if ((set & ~held) >> cap & 1)
      ns_run_fail (0, "--cap-add: %s is not held here, so it cannot be "
                   "given: run as root, or add -U",
                   cap_word (cap, buf, sizeof buf));
  return set;
}

/* In a user namespace of bubblewrap's options, its capabilities: the
   caller's if its user is root, else none, changed by --cap-add and
   --cap-drop, are the bounding set; without those options a root
   caller's COMMAND keeps the others as the new namespace gave them
   (execve(2) then gives root the bounding set), else they are every
   set.  */
static void
bwrap_caps (const struct ns_sandbox *s, uint64_t held)
{
  int cap, ret;
  uint64_t set = caps_wanted (s, s->caller_caps, held);
  if (!s->n_caps && s->caller_root)
    ret = ns_caps_bound (set, &cap);
  else
    ret = ns_caps_limit (set, &cap);
  if (ret < 0)
    caps_failed (ret, cap);
}

void
ns_confine_caps (const struct ns_run *r)
{
  const struct ns_sandbox *s = &r->sandbox;
  int cap, ret;
  if (!s->n_caps && !s->bwrap_caps)
    {
      if (r->keep_caps && (ret = ns_caps_keep (&cap)) < 0)
        caps_failed (ret, cap);
      return;
    }
  uint64_t held;
  ret = ns_caps_permitted (&held);
  if (ret < 0)
    ns_run_fail (-ret, "cannot read the capabilities");
  if (s->bwrap_caps)
    {
      bwrap_caps (s, held);
      return;
    }
  uint64_t start = geteuid () == 0 || r->keep_caps ? held : 0;
  ret = ns_caps_limit (caps_wanted (s, start, held), &cap);
  if (ret < 0)
    caps_failed (ret, cap);
}

/* A new root without --chdir: the caller's directory if the new root
   has it, else $HOME, else /.  Return where COMMAND is.  */
static const char *
enter_old_wd (const struct ns_sandbox *s)
{
  if (s->old_wd && chdir (s->old_wd) == 0)
    return s->old_wd;
  const char *home = getenv ("HOME");
  if (home && chdir (home) == 0)
    return home;
  if (chdir ("/") < 0)
    ns_run_fail (errno, "cannot change the working directory to /");
  return "/";
}

void
ns_confine_env (const struct ns_run *r)
{
  const struct ns_sandbox *s = &r->sandbox;
  const struct ns_env_change *bad;
  int ret = ns_env_apply (s->env, s->n_env, &bad);
  if (ret < 0 && !bad->name)
    ns_run_fail (-ret, "--clearenv");
  if (ret < 0)
    ns_run_fail (-ret, "%s %s", bad->value ? "--setenv" : "--unsetenv",
                 quote_file (bad->name));

  const char *wd = NULL;
  if (s->chdir)
    {
      if (chdir (s->chdir) < 0)
        ns_run_fail (errno, "cannot change the working directory to %s "
                     "(--chdir)", quote_file (s->chdir));
      wd = s->chdir;
    }
  else if (ns_sandbox_has_root (s) && !r->wd)
    wd = enter_old_wd (s);
  /* The shell trusts PWD when it names the working directory.  */
  if (wd && setenv ("PWD", wd, 1) < 0)
    ns_run_fail (errno, "cannot set PWD");
}

void
ns_confine_seccomp (const struct ns_run *r)
{
  const struct ns_sandbox *s = &r->sandbox;
  if (!s->seccomp_program)
    return;
  int ret = ns_seccomp_install (s->seccomp_program, s->seccomp_size);
  if (ret < 0)
    ns_run_fail (0, "cannot install the program of --seccomp: seccomp: "
                 "%s%s", strerror (-ret),
                 ret == -ENOSYS ? "; seccomp(2) needs Linux 3.17"
                 : ret == -EINVAL ? "; the kernel refused the program: "
                   "it is not a valid filter, or the kernel was built "
                   "without CONFIG_SECCOMP_FILTER (Linux 3.5)"
                 : ret == -EACCES ? "; a filter needs no_new_privs "
                   "(drop --new-privs) or CAP_SYS_ADMIN" : "");
}

/* --- the init ---------------------------------------------------------- */

/* DEST opened for reading as the sandbox sees it, as a mount step's DST
   is walked (ns/mount.h), from the root the process is in.
   Close-on-exec, so that COMMAND never gets it; never waiting for a
   FIFO's writer, never taking a terminal.  The descriptor, or
   -errno.  */
static int
open_lock_file (const char *dest)
{
  int root = sys_openat (AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC,
                         0);
  if (root < 0)
    return root;
  int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
  int fd = ns_mount_open_inside (root, dest, flags);
  /* Before Linux 5.6 there is no new root (its steps need 5.12): the
     process's root is the sandbox's, and no walk can leave it.  */
  if (fd == -ENOSYS)
    fd = SYS_RETRY_EINTR (sys_openat (root, dest, flags, 0));
  sys_close (root);
  return fd;
}

void
ns_confine_lock_files (const struct ns_run *r)
{
  const struct ns_sandbox *s = &r->sandbox;
  for (size_t i = 0; i < s->n_lock_files; i++)
    {
      const char *dest = s->lock_files[i];
      int fd = open_lock_file (dest);
      if (fd < 0)
        ns_run_fail (-fd, "--lock-file %s: cannot open", quote_file (dest));
      /* A lock of the process, as bubblewrap's: a fork does not pass it
         on, and it goes when the process ends, however it ends.  */
      struct flock lock = { .l_type = F_RDLCK, .l_whence = SEEK_SET };
      int ret = SYS_RETRY_EINTR (sys_fcntl_lock (fd, F_SETLK, &lock));
      if (ret < 0)
        ns_run_fail (0, "--lock-file %s: cannot take a read lock: %s%s",
                     quote_file (dest), strerror (-ret),
                     ret == -EAGAIN || ret == -EACCES
                     ? "; another process holds a write lock on it" : "");
    }
}

/* --- unshare-run ------------------------------------------------------- */

/* The namespaces --info-fd tells, as bubblewrap names and orders them.  */
static const char *const info_kinds[] = {
  "cgroup", "ipc", "mnt", "net", "pid", "uts"
};

void
ns_confine_info (const struct ns_run *r, pid_t child, int ns_dir)
{
  int fd = r->sandbox.info_fd;
  if (fd < 0)
    return;
  char text[512];
  size_t len = snprintf (text, sizeof text, "{\n    \"child-pid\": %ld",
                         (long) child);
  for (size_t i = 0; i < sizeof info_kinds / sizeof *info_kinds; i++)
    {
      const struct ns_info *ns = ns_by_name (info_kinds[i],
                                             strlen (info_kinds[i]));
      struct stat st;
      if (ns && (r->flags & ns->flag) && ns_dir >= 0
          && sys_fstatat (ns_dir, ns->children ? ns->children : ns->name,
                          &st, 0) == 0)
        len += snprintf (text + len, sizeof text - len,
                         ",\n    \"%s-namespace\": %" PRIu64, ns->name,
                         (uint64_t) st.st_ino);
    }
  len += snprintf (text + len, sizeof text - len, "\n}\n");
  /* A reader gone must not kill unshare-run with SIGPIPE.  */
  struct sigaction ign = { .sa_handler = SIG_IGN }, old;
  sigemptyset (&ign.sa_mask);
  sigaction (SIGPIPE, &ign, &old);
  if (full_write (fd, text, len) < len)
    error (0, errno, "cannot write to --info-fd %d", fd);
  sigaction (SIGPIPE, &old, NULL);
  sys_close (fd);
}
