/* ns/sandbox.h -- what unshare-run's sandbox options ask for, in
   bubblewrap's names: the mount steps of a new root, in the order
   given, and the environment, capabilities, seccomp program, ids and
   descriptors COMMAND gets.

   The options that take two arguments (--bind SRC DST, --setenv VAR
   VALUE...) cannot be read by popt, which takes one: ns_sandbox_take
   reads every sandbox option out of the command line first, in order,
   and leaves the others to the tool's popt table.  */

#ifndef NC_NS_SANDBOX_H
#define NC_NS_SANDBOX_H

#include <popt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ns/argsfd.h"
#include "ns/idmap.h"

/* The kind of a mount step (see ns/mount.h for each).  */
enum ns_step_kind
{
  NS_STEP_BIND,                 /* --bind, --ro-bind, --dev-bind, -try */
  NS_STEP_REMOUNT_RO,           /* --remount-ro DST */
  NS_STEP_TMPFS,                /* --tmpfs DST (--size, --perms) */
  NS_STEP_PROC,                 /* --proc DST */
  NS_STEP_DEV,                  /* --dev DST */
  NS_STEP_MQUEUE,               /* --mqueue DST */
  NS_STEP_DIR,                  /* --dir DST (--perms) */
  NS_STEP_SYMLINK,              /* --symlink TARGET DST */
  NS_STEP_FILE,                 /* --file FD DST (--perms) */
  NS_STEP_BIND_DATA,            /* --bind-data, --ro-bind-data FD DST */
  NS_STEP_BIND_FD,              /* --bind-fd, --ro-bind-fd FD DST */
  NS_STEP_CHMOD                 /* --chmod MODE PATH */
};

/* One mount step.  OPTION is its name as given ("--ro-bind-try"), for
   messages.  */
struct ns_step
{
  enum ns_step_kind kind;
  const char *option;
  const char *src;              /* SRC, TARGET; NULL for the others */
  const char *dst;              /* DST, PATH */
  unsigned int flags;           /* NS_BIND_* of ns/mount.h */
  uint64_t size;                /* --tmpfs: bytes, 0 for the default */
  mode_t mode;                  /* --tmpfs, --dir, --file, --chmod */
  bool mode_set;                /* --perms given (else the default) */
  int fd;                       /* --file, --bind-data: read from;
                                   --bind-fd: the directory bound */
};

/* One change of COMMAND's environment, in the order given: NAME set to
   VALUE (--setenv), NAME removed (VALUE NULL, --unsetenv), or every
   variable removed (NAME NULL, --clearenv).  */
struct ns_env_change
{
  const char *name;
  const char *value;
};

/* One --cap-add (ADD) or --cap-drop of capability CAP, a number of
   <linux/capability.h>, or of every capability (CAP -1, "ALL").  */
struct ns_cap_change
{
  int cap;
  bool add;
};

/* The sandbox asked for.  Descriptors are -1 when not given.  */
struct ns_sandbox
{
  struct ns_step *steps;
  size_t n_steps;
  struct ns_env_change *env;
  size_t n_env;
  const char *chdir;            /* --chdir, in the new root */
  struct ns_cap_change *caps;   /* --cap-add, --cap-drop, in order */
  size_t n_caps;
  int seccomp_fd;               /* --seccomp: a cBPF program */
  bool uid_set, gid_set;        /* --uid, --gid: ids inside */
  uint32_t uid, gid;
  const char *map_users, *map_groups;   /* as given, or "auto" */
  bool map_auto;
  int info_fd, sync_fd, block_fd;
  const char **lock_files;      /* --lock-file DEST, in the order given */
  size_t n_lock_files;
  int unshare_flags;            /* --unshare-*, as CLONE_NEW* */
  int unshare_try_flags;        /* --unshare-*-try: where the kernel has
                                   them */
  int share_flags;              /* --share-net: kept though --unshare-all */

  /* --args: the words read, which the fields above point into, and the
     command line they were put in (NULL without --args).  */
  struct ns_args_words *args;
  size_t n_args;
  char **argv;

  /* --map-users, --map-groups: parsed by ns_sandbox_take, or read for
     "auto" (--map-auto) by ns_sandbox_check_process; COUNT 0 when
     none.  */
  struct ns_id_range users, groups;

  /* Worked out by ns_sandbox_check_process (ns/confine.h).  */
  void *seccomp_program;        /* read from seccomp_fd, SIZE bytes */
  size_t seccomp_size;
  char *old_wd;                 /* the caller's, for a new root */

  /* Worked out by ns_steps_check (ns/steps.h) and
     ns_sandbox_check_process: whether the new user namespace comes of
     bubblewrap's options alone (--unshare-user, --unshare-all, or the
     mount steps of a caller without CAP_SYS_ADMIN), so that COMMAND
     gets bubblewrap's capabilities in it: those of CALLER_CAPS, the
     caller's effective set if its real user is root (CALLER_ROOT), else
     none, changed by --cap-add and --cap-drop.  */
  bool bwrap_caps;
  bool caller_root;
  uint64_t caller_caps;
};

/* Read every sandbox option of *ARGV, from (*ARGV)[1] up to the first
   operand or "--", into *S, in order, and remove them from *ARGV (*ARGC
   becomes the count of what is left).  IS_ARG_OPTION tells whether
   one of the tool's own options, as written (NAME without its dashes,
   LONG true for a long one), takes the next argument; ns_sandbox_take
   skips that argument with it.  A malformed sandbox option is a usage
   error (cli_usage_error).

   --args FD reads the words of FD (ns/argsfd.h), closes FD unless it
   is a standard descriptor, and reads them as if they stood in its
   place, the tool's own options among them left in *ARGV, which then
   becomes S->ARGV.  Each option read there has its arguments there
   too, and what it holds is options only (no COMMAND, no "--", no
   --args): else a usage error; a failed read exits with status 1.  */
void ns_sandbox_take (struct ns_sandbox *s, int *argc, char ***argv,
                      bool (*is_arg_option) (const char *name, bool lng));

/* The name of capability CAP ("CAP_SYS_ADMIN"), or NULL for a number
   this build does not know.  */
const char *ns_sandbox_cap_name (int cap);

/* Whether S asks for a new root (any mount step).  */
bool ns_sandbox_has_root (const struct ns_sandbox *s);

/* An IS_ARG_OPTION for a tool parsing with popt and cli/common.h's
   CLI_OPTIONAL_AFTER_EQUALS: whether NAME, as written (a long option
   by its whole name or an abbreviation that only it starts with, LONG
   true; else a letter), is an option of TABLE, or of a table it
   includes, that takes the next word as its argument: one whose
   argument is required (an optional one is given only after '=').  */
bool ns_sandbox_popt_arg (const struct poptOption *table, const char *name,
                          bool lng);

/* ns_sandbox_take with ns_sandbox_popt_arg on the tool's TABLE.  */
void ns_sandbox_take_popt (struct ns_sandbox *s, int *argc, char ***argv,
                           const struct poptOption *table);

/* The section of --help on the sandbox options: lines of at most 79
   columns laid out as popt lays out its rows, for a row of the tool's
   table that includes an empty table (ns_sandbox_no_options).  */
extern const char ns_sandbox_help[];
extern struct poptOption ns_sandbox_no_options[];

#endif
