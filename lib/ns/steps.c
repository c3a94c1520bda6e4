/* ns/steps.c -- the sandbox in unshare-run's run; see ns/steps.h.  */

#include <config.h>

#include "ns/steps.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/common.h"
#include "cli/features.h"
#include "ns/kinds.h"
#include "ns/mount.h"
#include "ns/process.h"
#include "sys/calls.h"

/* Whether the calling process has CAP_SYS_ADMIN in its effective set,
   which the mount steps need in the namespaces it is in now.  */
static bool
has_sys_admin (void)
{
  struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
  return (sys_capget (&hdr, data) == 0
          && (data[CAP_TO_INDEX (CAP_SYS_ADMIN)].effective
              & CAP_TO_MASK (CAP_SYS_ADMIN)));
}

/* The combinations of mount steps with unshare-run's own options that
   cannot work: usage errors.  */
static void
check_root_options (const struct ns_run *r)
{
  if (r->root)
    cli_usage_error ("--root cannot be used with the mount steps (--bind, "
                     "--tmpfs...): they build the new root");
  if (r->wd)
    cli_usage_error ("--wd cannot be used with the mount steps: use "
                     "--chdir, a directory of the new root");
  /* The new root is mounted over "/": a shared "/" would pass it on.  */
  if (!(r->propagation & (MS_PRIVATE | MS_SLAVE)))
    cli_usage_error ("--propagation=%s cannot be used with the mount "
                     "steps: use private or slave", r->propagation_name);
}

/* The descriptors of --file, --bind-data, --bind-fd and their
   read-only forms must be the caller's, open now: one that is not would
   be read, or bound, at its step under a number that unshare-run's own
   descriptors may have taken since.  --bind-fd's must be a directory's,
   which its step checks again.  */
static void
check_step_fds (const struct ns_sandbox *s)
{
  for (size_t i = 0; i < s->n_steps; i++)
    {
      const struct ns_step *st = &s->steps[i];
      if (st->fd < 0)
        continue;
      struct stat fs;
      int ret = sys_fstat (st->fd, &fs);
      if (ret == 0 && st->kind == NS_STEP_BIND_FD && !S_ISDIR (fs.st_mode))
        ret = -ENOTDIR;
      if (ret < 0)
        ns_run_fail (-ret, "%s %d", st->option, st->fd);
    }
}

void
ns_steps_check (struct ns_run *r)
{
  const struct ns_sandbox *s = &r->sandbox;
  int had = r->flags;
  r->flags |= ((s->unshare_flags | ns_flags_available (s->unshare_try_flags))
               & ~s->share_flags);
  if (s->map_users || s->map_groups || s->map_auto)
    r->flags |= CLONE_NEWUSER;
  if (ns_sandbox_has_root (s))
    {
      check_root_options (r);
      check_step_fds (s);
      r->flags |= CLONE_NEWNS;
      /* As bubblewrap does for a user without the capability.  */
      if (!(r->flags & CLONE_NEWUSER) && !has_sys_admin ())
        r->flags |= CLONE_NEWUSER;
      int ret = ns_mount_note_namespace ();
      if (ret < 0)
        ns_run_fail (-ret, "cannot read /proc/self/ns/mnt, which the mount "
                     "steps need");
    }
  /* A user namespace that bubblewrap's options made maps the caller to
     itself, unless ids are mapped otherwise; its capabilities are
     bubblewrap's too, unless --keep-caps asks for unshare(1)'s.  So are
     they in any user namespace that holds a new root, -U's as well: the
     read-only mounts of the root are that namespace's own, not locked,
     and a COMMAND with its capabilities could make them writable.  */
  bool bwrap_user = ((r->flags & ~had & CLONE_NEWUSER) && !s->map_users
                     && !s->map_groups && !s->map_auto);
  if (bwrap_user && !r->map_uid_set && !r->map_gid_set)
    {
      r->map_uid_set = r->map_gid_set = true;
      r->map_uid = geteuid ();
      r->map_gid = getegid ();
    }
  bool root_in_userns = (ns_sandbox_has_root (s)
                         && (r->flags & CLONE_NEWUSER));
  r->sandbox.bwrap_caps = (bwrap_user || root_in_userns) && !r->keep_caps;
}

/* The mode of the missing parents of step ST's DST, as bubblewrap
   makes them: 0755, less the group's bits when the mode of a step that
   has one (its --perms, or the option's own default) gives the group
   none, and less the others' likewise.  */
static mode_t
parent_mode (const struct ns_step *st)
{
  mode_t mode = 0755;
  bool has_mode = (st->kind == NS_STEP_TMPFS || st->kind == NS_STEP_DIR
                   || st->kind == NS_STEP_FILE
                   || st->kind == NS_STEP_BIND_DATA);
  if (has_mode && !(st->mode & 0070))
    mode &= ~0050;
  if (has_mode && !(st->mode & 0007))
    mode &= ~0005;
  return mode;
}

/* Run step ST on M in the namespaces of R: 0 or -errno.  */
static int
run_step (const struct ns_run *r, struct ns_mount *m,
          const struct ns_step *st)
{
  m->parent_mode = parent_mode (st);
  switch (st->kind)
    {
    case NS_STEP_BIND:
      return ns_mount_bind (m, st->src, st->dst, st->flags);
    case NS_STEP_REMOUNT_RO:
      return ns_mount_remount_ro (m, st->dst);
    case NS_STEP_TMPFS:
      return ns_mount_tmpfs (m, st->dst, st->size, st->mode);
    case NS_STEP_PROC:
      return ns_mount_proc (m, st->dst, r->flags & CLONE_NEWPID);
    case NS_STEP_DEV:
      return ns_mount_dev (m, st->dst);
    case NS_STEP_MQUEUE:
      return ns_mount_mqueue (m, st->dst);
    case NS_STEP_DIR:
      return ns_mount_dir (m, st->dst, st->mode);
    case NS_STEP_SYMLINK:
      return ns_mount_symlink (m, st->src, st->dst);
    case NS_STEP_FILE:
      return ns_mount_file (m, st->fd, st->dst, st->mode, 0);
    case NS_STEP_BIND_DATA:
      return ns_mount_file (m, st->fd, st->dst, st->mode,
                            NS_FILE_BIND | st->flags);
    case NS_STEP_BIND_FD:
      return ns_mount_bind_fd (m, st->fd, st->dst, st->flags);
    case NS_STEP_CHMOD:
      return ns_mount_chmod (m, st->dst, st->mode);
    default:
      return -EINVAL;
    }
}

/* End with the message of M's failed call, ERR its -errno, after WHAT:
   "WHAT: CALL: why (needs Linux SINCE)", then HINT.  */
static _Noreturn void
step_failed (const struct ns_mount *m, int err, const char *what,
             const char *hint)
{
  const char *call = m->fail.call ? m->fail.call : "mount";
  if (err == -NS_MOUNT_SAME_NAMESPACE)
    ns_run_fail (0, "%s: %s: refusing to mount over \"/\" in the mount "
                 "namespace unshare-run started in", what, call);
  const char *trouble = cli_call_trouble (call, err);
  if (trouble)
    ns_run_fail (0, "%s: %s%s", what, trouble, hint);
  if (m->fail.since && err == -ENOSYS)
    ns_run_fail (0, "%s: %s: %s (needs Linux %s)%s", what, call,
                 strerror (-err), m->fail.since, hint);
  ns_run_fail (0, "%s: %s: %s%s", what, call, strerror (-err), hint);
}

/* What to add when step ST fails with ERR in the namespaces of R: "",
   or "; ..." for a file system that only its namespace's owner may
   mount.  */
static const char *
step_hint (const struct ns_run *r, const struct ns_step *st, int err)
{
  if (err != -EPERM || !(r->flags & CLONE_NEWUSER))
    return "";
  if (st->kind == NS_STEP_MQUEUE && !(r->flags & CLONE_NEWIPC))
    return ("; in a new user namespace, only a new IPC namespace's mqueue "
            "can be mounted: add -i");
  return "";
}

/* The words of step ST's option as given, for a message, in BUF of SIZE
   bytes: "--ro-bind 'SRC' 'DST'".  */
static const char *
step_words (const struct ns_step *st, char *buf, size_t size)
{
  char first[32];
  const char *one = NULL;
  if (st->fd >= 0)
    snprintf (first, sizeof first, "%d", st->fd), one = first;
  else if (st->kind == NS_STEP_CHMOD)
    snprintf (first, sizeof first, "%04o", (unsigned int) st->mode),
      one = first;
  else if (st->src)
    one = quote_file_n (1, st->src);
  snprintf (buf, size, "%s%s%s %s", st->option, one ? " " : "",
            one ? one : "", quote_file_n (2, st->dst));
  return buf;
}

void
ns_steps_mount (const struct ns_run *r)
{
  const struct ns_sandbox *s = &r->sandbox;
  if (!ns_sandbox_has_root (s))
    return;
  /* Every mode as given, none filtered, as with bubblewrap: the umask
     is COMMAND's again once the new root is entered.  */
  mode_t umask_was = umask (0);
  struct ns_mount m;
  int ret = ns_mount_begin (&m);
  if (ret < 0)
    step_failed (&m, ret, "cannot build the new root", "");
  for (size_t i = 0; i < s->n_steps; i++)
    {
      const struct ns_step *st = &s->steps[i];
      if ((ret = run_step (r, &m, st)) < 0)
        {
          char words[2 * PATH_MAX];
          step_failed (&m, ret, step_words (st, words, sizeof words),
                       step_hint (r, st, ret));
        }
    }
  /* Read or bound, the descriptors are not COMMAND's, as with
     bubblewrap; a standard one stays, at its end.  Closed only now: one
     closed after its step would leave its number to a descriptor of the
     steps that follow, for a later step that names it too (a second
     --bind-fd of it would bind what the number then refers to).  */
  for (size_t i = 0; i < s->n_steps; i++)
    if (s->steps[i].fd > STDERR_FILENO)
      sys_close (s->steps[i].fd);
  ret = ns_mount_enter (&m);
  if (ret < 0)
    step_failed (&m, ret, "cannot enter the new root", "");
  umask (umask_was);
}
