/* ns/confine.h -- the process side of unshare-run's sandbox: what
   COMMAND gets of the options in bubblewrap's names (ns/sandbox.h).
   ns_sandbox_check_process checks them with the tool's others and works
   out what they imply; the others are steps of ns/run.c's exec path, in
   this order in the process that becomes COMMAND:

     ns_confine_fds         wait on --block-fd
     (its ids, ns/run.c)    keeping the capabilities if ns_confine_keeps
     ns_confine_caps        --cap-add, --cap-drop, or --keep-caps's
     ns_confine_env         --setenv..., then --chdir (or, in a new root,
                            the caller's directory, $HOME or /) and PWD
     (no_new_privs, the parent death signal, the signal mask)
     ns_confine_seccomp     --seccomp's program, the last step

   and ns_confine_info in unshare-run once the sandbox's first process
   exists, ns_confine_forked in the child of --fork, and
   ns_confine_lock_files in the init, COMMAND's parent in the sandbox,
   before it forks COMMAND.  With no sandbox option each step does what
   unshare-run did without them.  Failures are ns/process.h's: reported,
   then status 1; a usage error is cli_usage_error's.  */

#ifndef NC_NS_CONFINE_H
#define NC_NS_CONFINE_H

#include <stdbool.h>
#include <sys/types.h>

#include "ns/request.h"

/* At the end of the command line's checks, before anything is
   unshared: the usage errors of the process options (--uid and --gid
   need a new user namespace, --cap-add root or one, --chdir excludes
   --wd), their implications (--uid and --gid are --map-user and
   --map-group; --map-users, --map-groups and --map-auto imply -U;
   --sync-fd and --lock-file imply --fork, --lock-file excludes
   --as-pid-1), and what must be read now: the ranges of --map-users,
   --map-groups and --map-auto (/etc/subuid, /etc/subgid), the program
   of --seccomp, refused before anything runs if malformed, and the
   caller's working directory.  The descriptors of --info-fd,
   --sync-fd and --block-fd become close-on-exec: COMMAND gets none.  */
void ns_sandbox_check_process (struct ns_run *r);

/* --block-fd: wait for a byte or the end of file, then close it.  When
   COMMAND is pid 1 of a new PID namespace (--as-pid-1), it keeps
   --sync-fd open, as the sandbox's only process.  */
void ns_confine_fds (const struct ns_run *r);

/* In the child of --fork, which may outlive COMMAND as the init of a
   new PID namespace: close --info-fd, unshare-run's to write, so that
   its reader sees the end of the text.  */
void ns_confine_forked (const struct ns_run *r);

/* --lock-file: each DEST, a path of the sandbox, walked from its root
   (ns/mount.h's rule for DST), opened for reading, and read-locked
   whole (fcntl F_SETLK, a lock of the process: not inherited by
   COMMAND, gone when the process ends), or a failure naming the option
   and DEST.  The descriptors, close-on-exec, hold the locks until the
   calling process ends: it must close none of them, nor any other
   descriptor of those files.  */
void ns_confine_lock_files (const struct ns_run *r);

/* Whether COMMAND's capabilities must survive its change of user.  */
bool ns_confine_keeps (const struct ns_run *r);

/* COMMAND's capabilities.  In a user namespace of bubblewrap's options
   (ns_sandbox's BWRAP_CAPS), bubblewrap's: the caller's effective set
   if its real user is root, else none, changed by --cap-add and
   --cap-drop in the order given, is the bounding set, and every set
   unless a root caller gave neither option (the others then stay as
   the new namespace gave them).  Otherwise, without --cap-add or
   --cap-drop, those of --keep-caps (the permitted set made ambient) or
   the process's own; with them, the set COMMAND would get without them
   (every one held when its user is root or with --keep-caps, else
   none), changed in the order given, becomes every set: bounding,
   permitted, effective, inheritable and ambient.  */
void ns_confine_caps (const struct ns_run *r);

/* COMMAND's environment and working directory.  */
void ns_confine_env (const struct ns_run *r);

/* --seccomp's program, installed: the last step before execve(2).  */
void ns_confine_seccomp (const struct ns_run *r);

/* --info-fd: {"child-pid": CHILD, and the namespaces that CHILD got new
   of bubblewrap's cgroup, ipc, mnt, net, pid and uts, "NAME-namespace":
   INODE, read from NS_DIR (/proc/self/ns of unshare-run after
   unshare(2))}, on lines as bubblewrap writes it; then close it.  */
void ns_confine_info (const struct ns_run *r, pid_t child, int ns_dir);

#endif
