/* ns/kinds.c -- Linux namespaces; see ns/kinds.h.  */

#include <config.h>

#include "ns/kinds.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sys/calls.h"


const struct ns_info ns_table[] = {
  { CLONE_NEWNS, "mnt", "mount", 'm', NULL, "mount",
    "new mount namespace; =FILE: persist it there" },
  { CLONE_NEWUTS, "uts", "uts", 'u', NULL, "UTS",
    "new UTS namespace (host and domain name)" },
  { CLONE_NEWIPC, "ipc", "ipc", 'i', NULL, "IPC",
    "new IPC namespace (System V IPC, POSIX message queues)" },
  { CLONE_NEWNET, "net", "net", 'n', NULL, "network",
    "new network namespace" },
  { CLONE_NEWPID, "pid", "pid", 'p', "pid_for_children", "PID",
    "new PID namespace (implies --fork)" },
  { CLONE_NEWUSER, "user", "user", 'U', NULL, "user",
    "new user namespace" },
  { CLONE_NEWCGROUP, "cgroup", "cgroup", 'C', NULL, "cgroup",
    "new cgroup namespace" },
  { CLONE_NEWTIME, "time", "time", 'T', "time_for_children", "time",
    "new time namespace" },
  { 0, NULL, NULL, '\0', NULL, NULL, NULL }
};

_Static_assert (sizeof ns_table / sizeof ns_table[0] == NS_KINDS + 1,
                "NS_KINDS must count ns_table");

int
ns_flags_known (void)
{
  int flags = 0;
  for (const struct ns_info *ns = ns_table; ns->name; ns++)
    flags |= ns->flag;
  return flags;
}

const struct ns_info *
ns_by_flag (int flag)
{
  for (const struct ns_info *ns = ns_table; ns->name; ns++)
    if (ns->flag == flag)
      return ns;
  return NULL;
}

static bool
name_is (const char *name, size_t len, const char *word)
{
  return strlen (word) == len && memcmp (name, word, len) == 0;
}

const struct ns_info *
ns_by_name (const char *name, size_t len)
{
  for (const struct ns_info *ns = ns_table; ns->name; ns++)
    if (name_is (name, len, ns->name) || name_is (name, len, ns->option)
        || (len == 1 && name[0] == ns->short_option))
      return ns;
  return NULL;
}

int
ns_flags_parse (const char *list, int *flags, const char **bad)
{
  int result = 0;
  const char *item = list;
  for (;;)
    {
      size_t len = strcspn (item, ",");
      if (name_is (item, len, "all"))
        result |= ns_flags_known ();
      else
        {
          const struct ns_info *ns = len ? ns_by_name (item, len) : NULL;
          if (!ns)
            {
              if (bad)
                *bad = item;
              return -EINVAL;
            }
          result |= ns->flag;
        }
      if (item[len] == '\0')
        break;
      item += len + 1;
    }
  *flags = result;
  return 0;
}

char *
ns_flags_describe (int flags, char *buf, size_t size)
{
  const char *names[NS_KINDS];
  size_t n = 0;
  for (const struct ns_info *ns = ns_table; ns->name; ns++)
    if (flags & ns->flag)
      names[n++] = ns->what;

  size_t used = 0;
  if (size)
    buf[0] = '\0';
#define ADD(...) \
  do \
    { \
      if (used < size) \
        { \
          int len_ = snprintf (buf + used, size - used, __VA_ARGS__); \
          if (len_ > 0) \
            used += (size_t) len_; \
        } \
    } \
  while (0)
  if (n == 1)
    ADD ("%s %s namespace", strcmp (names[0], "IPC") == 0 ? "an" : "a",
         names[0]);
  else
    for (size_t i = 0; i < n; i++)
      ADD ("%s%s%s", names[i],
           i + 2 < n ? ", " : i + 2 == n ? " and " : "",
           i + 1 == n ? " namespaces" : "");
#undef ADD
  return buf;
}

char *
ns_proc_path (pid_t pid, const struct ns_info *ns, bool for_children,
              char *buf, size_t size)
{
  const char *file = for_children && ns->children ? ns->children : ns->name;
  if (pid > 0)
    snprintf (buf, size, "/proc/%ld/ns/%s", (long) pid, file);
  else
    snprintf (buf, size, "/proc/self/ns/%s", file);
  return buf;
}

int
ns_flags_available (int flags)
{
  int available = 0;
  char path[64];
  for (const struct ns_info *ns = ns_table; ns->name; ns++)
    if ((flags & ns->flag)
        && sys_faccessat (AT_FDCWD, ns_proc_path (0, ns, false, path,
                                                  sizeof path),
                          F_OK, 0) == 0)
      available |= ns->flag;
  return available;
}

int
ns_inode (pid_t pid, const struct ns_info *ns, bool for_children,
          uint64_t *ino)
{
  char path[64];
  struct stat st;
  int ret = sys_fstatat (AT_FDCWD,
                         ns_proc_path (pid, ns, for_children, path,
                                       sizeof path), &st, 0);
  if (ret < 0)
    return ret;
  *ino = st.st_ino;
  return 0;
}

int
ns_proc_write (pid_t pid, const char *file, const char *text)
{
  char path[64];
  if (pid > 0)
    snprintf (path, sizeof path, "/proc/%ld/%s", (long) pid, file);
  else
    snprintf (path, sizeof path, "/proc/self/%s", file);
  int fd = sys_openat (AT_FDCWD, path, O_WRONLY | O_CLOEXEC | O_NOCTTY, 0);
  if (fd < 0)
    return fd;
  size_t len = strlen (text);
  ssize_t n = sys_write (fd, text, len);
  sys_close (fd);
  if (n < 0)
    return (int) n;
  /* These files take everything in one write or nothing.  */
  return (size_t) n == len ? 0 : -EIO;
}

int
ns_write_id_map (pid_t pid, const char *file, uint32_t inside,
                 uint32_t outside, uint32_t count)
{
  char line[64];
  snprintf (line, sizeof line, "%" PRIu32 " %" PRIu32 " %" PRIu32 "\n",
            inside, outside, count);
  return ns_proc_write (pid, file, line);
}

int
ns_write_setgroups (pid_t pid, bool allow)
{
  return ns_proc_write (pid, "setgroups", allow ? "allow" : "deny");
}

int
ns_set_time_offset (pid_t pid, int clock, int64_t seconds)
{
  /* The kernel takes the clock by name or number; the number works on
     every kernel that has time namespaces.  */
  char line[64];
  snprintf (line, sizeof line, "%d %" PRId64 " 0\n", clock, seconds);
  return ns_proc_write (pid, "timens_offsets", line);
}

int
ns_persist_open (const char *file, bool create, const char **why)
{
  *why = NULL;
  for (;;)
    {
      /* O_PATH: a FIFO or a device is not opened for real; with
         O_NOFOLLOW, a symbolic link is opened itself.  */
      int fd = sys_openat (AT_FDCWD, file, O_PATH | O_NOFOLLOW | O_CLOEXEC,
                           0);
      if (fd == -ENOENT && create)
        {
          /* O_EXCL: nor is a dangling symbolic link followed.  */
          fd = sys_openat (AT_FDCWD, file,
                           O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW
                           | O_CLOEXEC | O_NOCTTY, 0444);
          if (fd == -EEXIST)
            continue;           /* made meanwhile: check it */
          return fd;
        }
      if (fd < 0)
        return fd;
      struct stat st;
      int ret = sys_fstat (fd, &st);
      if (ret == 0)
        {
          if (S_ISLNK (st.st_mode))
            *why = "a symbolic link", ret = -ELOOP;
          else if (!S_ISREG (st.st_mode))
            *why = "not a regular file", ret = -EINVAL;
          else if (st.st_size != 0)
            *why = "not empty", ret = -ENOTEMPTY;
        }
      if (ret < 0)
        {
          sys_close (fd);
          return ret;
        }
      return fd;
    }
}

int
ns_persist (pid_t pid, const struct ns_info *ns, int fd)
{
  char source[64], target[64];
  ns_proc_path (pid, ns, true, source, sizeof source);
  snprintf (target, sizeof target, "/proc/self/fd/%d", fd);
  return sys_mount (source, target, NULL, MS_BIND, NULL);
}

/* The first line of a small /proc/sys file as a number: -1 if missing.  */
static long long
read_sysctl (const char *path)
{
  int fd = sys_openat (AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    return -1;
  char buf[32];
  ssize_t n = sys_read (fd, buf, sizeof buf - 1);
  sys_close (fd);
  if (n <= 0)
    return -1;
  buf[n] = '\0';
  long long value;
  return sscanf (buf, "%lld", &value) == 1 ? value : -1;
}

/* Why creating a user namespace failed with EPERM, into BUF: the kernel
   setting that refused it, where one can be read.  */
static void
explain_userns_refused (char *buf, size_t size)
{
  if (geteuid () != 0
      && read_sysctl ("/proc/sys/kernel/unprivileged_userns_clone") == 0)
    snprintf (buf, size, "creating a user namespace was refused: "
              "unprivileged user namespaces are disabled "
              "(sysctl kernel.unprivileged_userns_clone = 0)");
  else if (geteuid () != 0
           && read_sysctl ("/proc/sys/kernel/"
                           "apparmor_restrict_unprivileged_userns") == 1)
    snprintf (buf, size, "creating a user namespace was refused by "
              "AppArmor (sysctl "
              "kernel.apparmor_restrict_unprivileged_userns = 1)");
  else
    snprintf (buf, size, "creating a user namespace was refused "
              "(inside a chroot, or by a seccomp filter or a "
              "security module)");
}

char *
ns_explain_unshare (int flags, int err, char *buf, size_t size)
{
  char what[128];
  int kinds = flags & ns_flags_known ();
  buf[0] = '\0';

  switch (err)
    {
    case -EPERM:
      /* The other kinds are created by the new user namespace's owner,
         who holds every capability there: the user namespace is what was
         refused.  */
      if (flags & CLONE_NEWUSER)
        explain_userns_refused (buf, size);
      else if (kinds)
        snprintf (buf, size, "creating %s needs CAP_SYS_ADMIN%s",
                  ns_flags_describe (kinds, what, sizeof what),
                  geteuid () == 0
                  ? "; this process lacks it (in a container?): try "
                    "adding -U/-r"
                  : "; run as root or add -U/-r");
      break;

    case -EINVAL:
      {
        int missing = kinds & ~ns_flags_available (kinds);
        if (missing)
          {
            const struct ns_info *ns = NULL;
            for (ns = ns_table; !(missing & ns->flag); ns++)
              continue;
            snprintf (buf, size, "this kernel has no %s namespaces "
                      "(no /proc/self/ns/%s); drop -%c", ns->what, ns->name,
                      ns->short_option);
          }
      }
      break;

    case -ENOSPC:
    case -EUSERS:
      for (const struct ns_info *ns = ns_table; ns->name; ns++)
        {
          if (!(kinds & ns->flag))
            continue;
          char path[64];
          snprintf (path, sizeof path, "/proc/sys/user/max_%s_namespaces",
                    ns->name);
          if (read_sysctl (path) == 0)
            {
              snprintf (buf, size, "%s namespaces are disabled "
                        "(sysctl user.max_%s_namespaces = 0)",
                        ns->what, ns->name);
              return buf;
            }
        }
      if (kinds)
        snprintf (buf, size, "cannot create %s: a limit was reached "
                  "(sysctl user.max_*_namespaces), or namespaces are "
                  "nested too deep (32 levels)",
                  ns_flags_describe (kinds, what, sizeof what));
      break;

    default:
      break;
    }
  return buf;
}
