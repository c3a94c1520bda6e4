/* ns/keeper.c -- the keeper of unshare-run; see ns/keeper.h.  */

#include <config.h>

#include "ns/keeper.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/common.h"
#include "ns/idmap.h"
#include "ns/process.h"
#include "sys/calls.h"

static _Noreturn void
map_failed (pid_t target, const char *file, uint32_t inside,
            uint32_t outside, int err, const char *hint)
{
  char line[64];
  snprintf (line, sizeof line, "%" PRIu32 " %" PRIu32 " 1", inside,
            outside);
  ns_run_fail (0, "cannot write %s to /proc/%ld/%s: %s%s%s",
               quote_file (line), (long) target, file, strerror (-err),
               hint ? "; " : "", hint ? hint : "");
}

/* Write the gid map of the user namespace of TARGET.  */
static void
write_gid_map (const struct ns_run *r, pid_t target)
{
  gid_t egid = getegid ();
  int ret = ns_write_id_map (target, "gid_map", r->map_gid, egid, 1);
  if (ret == -EPERM && r->setgroups == NS_SETGROUPS_UNSET)
    {
      /* Since Linux 3.19, a process without CAP_SETGID over the parent
         namespace may write a gid map only once setgroups(2) is denied
         in the new one: a process could otherwise shed a group that
         denies it access.  */
      ret = ns_write_setgroups (target, false);
      if (ret == 0)
        ret = ns_write_id_map (target, "gid_map", r->map_gid, egid, 1);
    }
  if (ret < 0)
    map_failed (target, "gid_map", r->map_gid, egid, ret,
                ret != -EPERM ? NULL
                : r->setgroups == NS_SETGROUPS_ALLOW
                ? "without CAP_SETGID, a gid map needs setgroups(2) "
                  "denied: drop --setgroups=allow"
                : "only a process with CAP_SETGID may map another "
                  "group than its own");
}

/* Write the map FILE ("uid_map" or "gid_map") of the user namespace of
   TARGET with RANGE and, with SINGLE, the caller's OUTER as INNER, as
   unshare(1) does: directly as root, else through HELPER, which checks
   the ranges against /etc/subuid or /etc/subgid.  */
static void
write_ranges (pid_t target, const char *file, const char *helper,
              const struct ns_id_range *range, bool single, uint32_t inner,
              uint32_t outer)
{
  struct ns_id_range lines[NS_IDMAP_LINES];
  size_t n = ns_idmap_lines (range, single, inner, outer, lines);
  int status = 0;
  int ret = geteuid () == 0 ? ns_idmap_write (target, file, lines, n)
            : ns_idmap_run_helper (helper, target, lines, n, &status);
  if (ret == -ENOENT && geteuid () != 0)
    ns_run_fail (0, "cannot run %s to map a range of ids: it is not "
                 "installed (the uidmap package)", helper);
  if (ret < 0 && geteuid () != 0)
    ns_run_fail (-ret, "cannot run %s", helper);
  if (ret < 0)
    ns_run_fail (-ret, "cannot write the map of %" PRIu32 " ids from %"
                 PRIu32 " to /proc/%ld/%s", range->count, range->inner,
                 (long) target, file);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    ns_run_fail (0, "%s failed to map %" PRIu32 " ids from %" PRIu32
                 " to %" PRIu32 " for process %ld (see /etc/sub%cid)",
                 helper, range->count, range->inner, range->outer,
                 (long) target, file[0]);
}

/* Write the id maps of the user namespace of TARGET, and its setgroups.  */
static void
write_maps (const struct ns_run *r, pid_t target)
{
  int ret;
  const struct ns_sandbox *s = &r->sandbox;
  if (s->users.count)
    write_ranges (target, "uid_map", "newuidmap", &s->users,
                  r->map_uid_set, r->map_uid, geteuid ());
  else if (r->map_uid_set)
    {
      uid_t euid = geteuid ();
      ret = ns_write_id_map (target, "uid_map", r->map_uid, euid, 1);
      if (ret < 0)
        map_failed (target, "uid_map", r->map_uid, euid, ret,
                    ret == -EPERM ? "only a process with CAP_SETUID may "
                    "map another user than its own" : NULL);
    }

  if (r->setgroups != NS_SETGROUPS_UNSET)
    {
      bool allow = r->setgroups == NS_SETGROUPS_ALLOW;
      ret = ns_write_setgroups (target, allow);
      if (ret < 0)
        ns_run_fail (0, "cannot write '%s' to /proc/%ld/setgroups: %s%s",
                     allow ? "allow" : "deny", (long) target,
                     strerror (-ret),
                     allow && ret == -EPERM ? "; the parent user namespace "
                     "denies setgroups(2), so this one must too" : "");
    }

  if (s->groups.count)
    write_ranges (target, "gid_map", "newgidmap", &s->groups,
                  r->map_gid_set, r->map_gid, getegid ());
  else if (r->map_gid_set)
    write_gid_map (r, target);
}

void
ns_keeper_unmake_files (struct ns_keeper *k)
{
  for (int i = 0; i < NS_KINDS; i++)
    if (k->persist_made[i])
      {
        sys_unlinkat (AT_FDCWD, k->persist[i], 0);
        k->persist_made[i] = false;
      }
}

void
ns_keeper_open_files (const struct ns_run *r, struct ns_keeper *k)
{
  k->persist = r->persist;
  for (int i = 0; i < NS_KINDS; i++)
    {
      k->persist_fd[i] = -1;
      k->persist_made[i] = false;
    }
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < NS_KINDS; i++)
      {
        if (!r->persist[i] || (pass == 1 && k->persist_fd[i] >= 0))
          continue;
        const char *why;
        int fd = ns_persist_open (r->persist[i], pass == 1, &why);
        if (fd >= 0)
          {
            k->persist_fd[i] = fd;
            k->persist_made[i] = pass == 1;
            continue;
          }
        if (fd == -ENOENT && pass == 0)
          continue;
        ns_keeper_unmake_files (k);
        if (why)
          ns_run_fail (0, "refusing to persist the %s namespace on %s: it "
                       "is %s (it must be an empty regular file, or "
                       "missing)", ns_table[i].what,
                       quote_file (r->persist[i]), why);
        ns_run_fail (-fd, "cannot %s %s to persist the %s namespace",
                     pass == 1 ? "create" : "open",
                     quote_file (r->persist[i]), ns_table[i].what);
      }
}

void
ns_keeper_close_files (struct ns_keeper *k)
{
  for (int i = 0; i < NS_KINDS; i++)
    if (k->persist_fd[i] >= 0)
      {
        sys_close (k->persist_fd[i]);
        k->persist_fd[i] = -1;
      }
}

/* Bind-mount the namespaces of TARGET to persist: the PID one (STAGE2)
   or the others.  */
static void
persist (struct ns_keeper *k, pid_t target, bool stage2)
{
  for (int i = 0; i < NS_KINDS; i++)
    {
      const struct ns_info *ns = &ns_table[i];
      if (!k->persist[i] || (ns->flag == CLONE_NEWPID) != stage2)
        continue;
      int ret = ns_persist (target, ns, k->persist_fd[i]);
      if (ret == 0)
        continue;
      char source[64];
      ns_proc_path (target, ns, true, source, sizeof source);
      ns_run_fail (0, "cannot bind %s onto %s: %s%s", source,
                   quote_file (k->persist[i]), strerror (-ret),
                   ret == -EINVAL && ns->flag == CLONE_NEWNS
                   ? "; a mount namespace can be kept only on a mount that "
                     "is not shared (see mount --make-private)"
                   : ret == -EPERM ? "; this needs CAP_SYS_ADMIN in the "
                     "original mount namespace" : "");
    }
}

static _Noreturn void
keeper_main (const struct ns_run *r, struct ns_keeper *k, int in, int out,
             pid_t target)
{
  ns_run_forked_process ();
  char byte;
  /* No byte: unshare-run failed before, and said so.  */
  if (ns_run_pipe_read (in, &byte, 1) != 1)
    _exit (EXIT_SUCCESS);
  if (r->flags & CLONE_NEWUSER)
    write_maps (r, target);
  persist (k, target, false);
  if (k->stage2)
    {
      if (ns_run_pipe_write (out, "", 1) != 1
          || ns_run_pipe_read (in, &byte, 1) != 1)
        _exit (EXIT_SUCCESS);
      persist (k, target, true);
    }
  _exit (EXIT_SUCCESS);
}

void
ns_keeper_start (const struct ns_run *r, struct ns_keeper *k)
{
  bool maps = (r->flags & CLONE_NEWUSER)
              && (r->map_uid_set || r->map_gid_set
                  || r->sandbox.users.count || r->sandbox.groups.count
                  || r->setgroups != NS_SETGROUPS_UNSET);
  bool any_persist = false;
  for (int i = 0; i < NS_KINDS; i++)
    any_persist |= r->persist[i] != NULL;
  k->pid = 0;
  k->stage2 = r->persist[ns_by_flag (CLONE_NEWPID) - ns_table] != NULL;
  if (!maps && !any_persist)
    return;

  int to[2], from[2];
  int ret = sys_pipe2 (to, O_CLOEXEC);
  if (ret == 0)
    ret = sys_pipe2 (from, O_CLOEXEC);
  if (ret < 0)
    ns_run_fail (-ret, "cannot create a pipe");
  pid_t target = getpid ();
  ns_run_default_sigchld ();
  k->pid = fork ();
  if (k->pid < 0)
    ns_run_fail (errno, "cannot fork");
  if (k->pid == 0)
    {
      sys_close (to[1]);
      sys_close (from[0]);
      keeper_main (r, k, to[0], from[1], target);
    }
  sys_close (to[0]);
  sys_close (from[1]);
  k->to = to[1];
  k->from = from[0];
}

/* Whether the keeper, done, ended well (it said why if not).  */
static bool
keeper_wait (struct ns_keeper *k)
{
  int status;
  pid_t pid = ns_run_wait (k->pid, &status, 0);
  k->pid = 0;
  sys_close (k->to);
  sys_close (k->from);
  return pid > 0 && WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

void
ns_keeper_stage1 (struct ns_keeper *k)
{
  if (!k->pid)
    return;
  char byte;
  if (ns_run_pipe_write (k->to, "", 1) != 1
      || (k->stage2 ? ns_run_pipe_read (k->from, &byte, 1) != 1
          : !keeper_wait (k)))
    {
      if (k->pid)
        keeper_wait (k);
      ns_run_exit (EXIT_FAILURE);
    }
}

void
ns_keeper_stage2 (struct ns_keeper *k, pid_t child)
{
  if (!k->pid)
    return;
  if (ns_run_pipe_write (k->to, "", 1) != 1 || !keeper_wait (k))
    {
      kill (child, SIGKILL);
      ns_run_wait (child, NULL, 0);
      ns_run_exit (EXIT_FAILURE);
    }
}

void
ns_keeper_forget (struct ns_keeper *k)
{
  if (k->pid)
    {
      sys_close (k->to);
      sys_close (k->from);
    }
}
