/* ns/request.h -- what unshare-run is asked to do: its command line,
   checked, as ns/run.c and ns/keeper.c read it.  */

#ifndef NC_NS_REQUEST_H
#define NC_NS_REQUEST_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "ns/kinds.h"
#include "ns/sandbox.h"

/* --setgroups.  */
enum ns_setgroups { NS_SETGROUPS_UNSET, NS_SETGROUPS_ALLOW,
                    NS_SETGROUPS_DENY };

/* What to do: unshare-run's command line, checked.  */
struct ns_run
{
  int flags;                    /* for unshare(2) */
  char *persist[NS_KINDS];      /* FILE of --NS=FILE, by ns_table index */
  bool map_uid_set, map_gid_set;
  uint32_t map_uid, map_gid;    /* the caller's euid/egid inside */
  enum ns_setgroups setgroups;
  bool setuid_set, setgid_set;
  uid_t setuid;
  gid_t setgid;
  bool keep_caps;               /* ambient capabilities for COMMAND */
  bool fork;
  char *mount_proc;             /* the directory, or NULL */
  unsigned long propagation;    /* mount flags for /, or 0: unchanged */
  const char *propagation_name; /* its keyword, or NULL: "private" */
  char *root, *wd, *hostname;
  bool monotonic_set, boottime_set;
  int64_t monotonic, boottime;  /* clock offsets, in seconds */
  int kill_child;               /* signal, or 0 */
  bool die_with_parent, new_session, as_pid_1, forward_signals;
  int no_new_privs;             /* -1: not decided yet */
  int json_fd;                  /* --json-status-fd, close-on-exec; -1 */
  char *file;                   /* what to execute; NULL: command[0] */
  char **command;
  struct ns_sandbox sandbox;    /* the options in bubblewrap's names */
};

#endif
