/* unshare-run -- run a command in new namespaces.

   SYNOPSIS: unshare-run [OPTION]... [--] [COMMAND [ARG]...]

   The processes:
   - unshare-run calls unshare(2) once with every flag asked for, sets the
     new namespaces up (time offsets, host name, mount propagation, root
     and working directory) and, without --fork, becomes COMMAND;
   - with --fork (implied by -p), it forks a child that becomes COMMAND
     and ends as it ended: same exit status, or killed by the same
     signal.  As unshare(1), it keeps SIGINT and SIGTERM blocked while
     it waits, or forwards them with --forward-signals; killed, it leaves
     the child running unless --kill-child;
   - in a new PID namespace that child is pid 1 there: unless --as-pid-1,
     a minimal init that forks COMMAND, reaps the orphans the namespace
     gives it and forwards the signals it gets to COMMAND.  It outlives
     unshare-run (unless --kill-child) and ends when COMMAND ends;
   - a "keeper", forked before unshare(2) so that it stays in the original
     namespaces, writes the new user namespace's id maps (a process of the
     parent user namespace may do what the new one cannot) and bind-mounts
     the namespaces to persist.  It exists only when there is such work.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/capability.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "closeout.h"
#include "error.h"
#include "exec.h"
#include "full-write.h"
#include "intprops.h"
#include "linux-consts.h"
#include "ns.h"
#include "number.h"
#include "progname.h"
#include "sig2str.h"
#include "sys.h"
#include "xalloc.h"

/* --- options ----------------------------------------------------------- */

enum
{
  /* OPT_NS + i: the namespace ns_table[i].  */
  OPT_NS = 1,
  OPT_ALL = OPT_NS + NS_KINDS,
  OPT_FS,
  OPT_FILES,
  OPT_SYSVSEM,
  OPT_MAP_ROOT,
  OPT_MAP_CURRENT,
  OPT_MAP_USER,
  OPT_MAP_GROUP,
  OPT_SETGROUPS,
  OPT_SETUID,
  OPT_SETGID,
  OPT_KEEP_CAPS,
  OPT_FORK,
  OPT_MOUNT_PROC,
  OPT_PROPAGATION,
  OPT_ROOT,
  OPT_WD,
  OPT_HOSTNAME,
  OPT_MONOTONIC,
  OPT_BOOTTIME,
  OPT_KILL_CHILD,
  OPT_DIE_WITH_PARENT,
  OPT_NEW_SESSION,
  OPT_NO_NEW_PRIVS,
  OPT_NEW_PRIVS,
  OPT_AS_PID_1,
  OPT_FORWARD_SIGNALS,
  OPT_JSON_STATUS_FD,
};

/* An argument that may be given only as --NAME=ARG.  */
#define OPTIONAL_ARG (POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL)

/* The namespace options, in ns_table's order (OPT_NS + index).  */
static struct poptOption ns_options[] = {
  { "mount", 'm', OPTIONAL_ARG, NULL, OPT_NS + 0,
    "new mount namespace; =FILE: persist it there", "FILE" },
  { "uts", 'u', OPTIONAL_ARG, NULL, OPT_NS + 1,
    "new UTS namespace (host and domain name)", "FILE" },
  { "ipc", 'i', OPTIONAL_ARG, NULL, OPT_NS + 2,
    "new IPC namespace (System V IPC, POSIX message queues)", "FILE" },
  { "net", 'n', OPTIONAL_ARG, NULL, OPT_NS + 3,
    "new network namespace", "FILE" },
  { "pid", 'p', OPTIONAL_ARG, NULL, OPT_NS + 4,
    "new PID namespace (implies --fork)", "FILE" },
  { "user", 'U', OPTIONAL_ARG, NULL, OPT_NS + 5,
    "new user namespace", "FILE" },
  { "cgroup", 'C', OPTIONAL_ARG, NULL, OPT_NS + 6,
    "new cgroup namespace", "FILE" },
  { "time", 'T', OPTIONAL_ARG, NULL, OPT_NS + 7,
    "new time namespace", "FILE" },
  { "all", '\0', POPT_ARG_NONE, NULL, OPT_ALL,
    "every namespace this kernel offers (the user namespace maps you to "
    "yourself unless -r or --map-*)", NULL },
  { "fs", '\0', POPT_ARG_NONE, NULL, OPT_FS,
    "stop sharing root, working directory and umask (CLONE_FS)", NULL },
  { "files", '\0', POPT_ARG_NONE, NULL, OPT_FILES,
    "stop sharing the descriptor table (CLONE_FILES)", NULL },
  { "sysvsem", '\0', POPT_ARG_NONE, NULL, OPT_SYSVSEM,
    "stop sharing System V semaphore undo values (CLONE_SYSVSEM)", NULL },
  POPT_TABLEEND
};

static struct poptOption user_options[] = {
  { "map-root-user", 'r', POPT_ARG_NONE, NULL, OPT_MAP_ROOT,
    "map your user and group to root (implies -U)", NULL },
  { "map-current-user", 'c', POPT_ARG_NONE, NULL, OPT_MAP_CURRENT,
    "map your user and group to themselves (implies -U)", NULL },
  { "map-user", '\0', POPT_ARG_STRING, NULL, OPT_MAP_USER,
    "map your user to UID inside (implies -U)", "UID" },
  { "map-group", '\0', POPT_ARG_STRING, NULL, OPT_MAP_GROUP,
    "map your group to GID inside (implies -U)", "GID" },
  { "setgroups", '\0', POPT_ARG_STRING, NULL, OPT_SETGROUPS,
    "allow or deny setgroups(2) in the user namespace (default: deny "
    "only where the kernel requires it)", "allow|deny" },
  { "setuid", 'S', POPT_ARG_STRING, NULL, OPT_SETUID,
    "run COMMAND with user ID UID", "UID" },
  { "setgid", 'G', POPT_ARG_STRING, NULL, OPT_SETGID,
    "run COMMAND with group ID GID and no supplementary groups", "GID" },
  { "keep-caps", '\0', POPT_ARG_NONE, NULL, OPT_KEEP_CAPS,
    "pass the capabilities held to COMMAND (ambient), whatever its user",
    NULL },
  POPT_TABLEEND
};

static struct poptOption process_options[] = {
  { "fork", 'f', POPT_ARG_NONE, NULL, OPT_FORK,
    "run COMMAND as a child and wait for it", NULL },
  { "mount-proc", '\0', OPTIONAL_ARG, NULL, OPT_MOUNT_PROC,
    "mount a new proc on DIR (default /proc; implies -m)", "DIR" },
  { "propagation", '\0', POPT_ARG_STRING, NULL, OPT_PROPAGATION,
    "mount propagation of / in the new mount namespace: private "
    "(default), slave, shared or unchanged", "MODE" },
  { "root", 'R', POPT_ARG_STRING, NULL, OPT_ROOT,
    "change the root directory to DIR", "DIR" },
  { "wd", 'w', POPT_ARG_STRING, NULL, OPT_WD,
    "change the working directory to DIR", "DIR" },
  { "hostname", '\0', POPT_ARG_STRING, NULL, OPT_HOSTNAME,
    "set the host name in the new UTS namespace", "NAME" },
  { "monotonic", '\0', POPT_ARG_STRING, NULL, OPT_MONOTONIC,
    "offset CLOCK_MONOTONIC by SECS in the new time namespace", "SECS" },
  { "boottime", '\0', POPT_ARG_STRING, NULL, OPT_BOOTTIME,
    "offset CLOCK_BOOTTIME by SECS in the new time namespace", "SECS" },
  { "kill-child", '\0', OPTIONAL_ARG, NULL, OPT_KILL_CHILD,
    "send SIG (default KILL) to the child when unshare-run dies "
    "(implies --fork)", "SIG" },
  { "die-with-parent", '\0', POPT_ARG_NONE, NULL, OPT_DIE_WITH_PARENT,
    "kill COMMAND (SIGKILL) when the process that started unshare-run "
    "ends", NULL },
  { "new-session", '\0', POPT_ARG_NONE, NULL, OPT_NEW_SESSION,
    "run COMMAND in a new session, without controlling terminal "
    "(implies --fork)", NULL },
  { "no-new-privs", '\0', POPT_ARG_NONE, NULL, OPT_NO_NEW_PRIVS,
    "set no_new_privs, which set-user-ID programs and file capabilities "
    "cannot override (the default, unless --keep-caps)", NULL },
  { "new-privs", '\0', POPT_ARG_NONE, NULL, OPT_NEW_PRIVS,
    "do not set no_new_privs", NULL },
  { "as-pid-1", '\0', POPT_ARG_NONE, NULL, OPT_AS_PID_1,
    "with -p, make COMMAND pid 1 itself instead of a child of a "
    "minimal init", NULL },
  { "forward-signals", '\0', POPT_ARG_NONE, NULL, OPT_FORWARD_SIGNALS,
    "pass SIGINT and SIGTERM sent to unshare-run on to the child "
    "(implies --fork)", NULL },
  { "json-status-fd", '\0', POPT_ARG_STRING, NULL, OPT_JSON_STATUS_FD,
    "write the child's pid, its namespaces and its exit as JSON lines "
    "to descriptor FD", "FD" },
  POPT_TABLEEND
};

static struct poptOption options[] = {
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, ns_options, 0,
    "Run COMMAND (default: $SHELL, else /bin/sh, as a login shell) in new "
    "namespaces, made with one unshare(2).  Killed, unshare-run leaves "
    "them running, unless --kill-child.\n\n"
    "An argument in [] may be given only after '=': -n and --net take "
    "none, --net=FILE persists the namespace at FILE, for nsenter(1): "
    "FILE is created, or must be an empty regular file, not a symbolic "
    "link.\n"
    "Exit status: COMMAND's; killed by a signal, unshare-run kills itself "
    "with it; 126 COMMAND cannot run, 127 COMMAND not found; 1 failure, "
    "2 usage error.\n\nNamespaces:", NULL },
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, user_options, 0,
    "Users (in a new user namespace):", NULL },
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, process_options, 0,
    "Process:", NULL },
  CLI_COMMON_OPTIONS
};

/* What the command line asks for.  */
enum setgroups_mode { SETGROUPS_UNSET, SETGROUPS_ALLOW, SETGROUPS_DENY };

static struct
{
  int flags;                    /* for unshare(2) */
  bool all;
  char *persist[NS_KINDS];      /* FILE of --NS=FILE, by ns_table index */
  int persist_fd[NS_KINDS];     /* open on it, from ns_persist_open */
  bool persist_made[NS_KINDS];  /* created by unshare-run */
  bool map_uid_set, map_gid_set;
  uint32_t map_uid, map_gid;
  enum setgroups_mode setgroups;
  bool setuid_set, setgid_set;
  uid_t setuid;
  gid_t setgid;
  bool keep_caps;
  bool fork;
  char *mount_proc;
  unsigned long propagation;
  char *propagation_name;
  char *root, *wd, *hostname;
  bool monotonic_set, boottime_set;
  int64_t monotonic, boottime;
  int kill_child;               /* signal, or 0 */
  bool die_with_parent, new_session, as_pid_1, forward_signals;
  int no_new_privs;             /* -1: the default */
  int json_fd;                  /* -1: none */
  char *file;                   /* what to execute; NULL: command[0] */
  char **command;
} cfg = {
  .propagation = MS_REC | MS_PRIVATE,
  .no_new_privs = -1,
  .json_fd = -1,
};

/* The argument vector popt parses, and its context: both live as long as
   the program, since COMMAND's words stay in them.  */
/* The vector popt parses, for the life of the process: volatile, so that
   the compiler keeps the store and a leak checker finds it reachable.  */
static char **volatile popt_argv;
static poptContext ctx;

/* --- leaving ----------------------------------------------------------- */

/* True in every process unshare-run forks: they leave by _exit, so that
   neither standard output nor the sanitizers' exit checks run twice.  */
static bool in_child;

#if defined __SANITIZE_ADDRESS__
# define LEAK_CHECK_AT_EXIT 1
#elif defined __has_feature
# if __has_feature (address_sanitizer)
#  define LEAK_CHECK_AT_EXIT 1
# endif
#endif

#ifdef LEAK_CHECK_AT_EXIT
/* LeakSanitizer checks at exit from a tracer process that it clones, which
   reads /proc/PID/task.  After unshare(CLONE_NEWPID) that process would be
   born in the new PID namespace, which the kernel closes to new processes
   once its pid 1 has ended (clone fails, ENOMEM), and from where
   unshare-run could not be traced anyway; with --mount-proc, /proc is the
   new namespace's, without unshare-run in it.  The check would end
   unshare-run with status 1 whatever COMMAND's.  So, in a sanitizer build
   only, leave makes unshare-run's own PID namespace the one for its
   children again (setns, as root in the namespace's user namespace), and
   where that is refused (a new user namespace too) or /proc is not its
   own, skips the check, as _exit does.  */
static int own_pid_ns = -1;
static bool pid_ns_unshared;

static bool
leak_check_can_run (void)
{
  if (!pid_ns_unshared)
    return true;
  if (own_pid_ns < 0 || sys_setns (own_pid_ns, CLONE_NEWPID) != 0)
    return false;
  char self[INT_STRLEN_BOUND (pid_t) + 1];
  ssize_t len = sys_readlinkat (AT_FDCWD, "/proc/self", self,
                                sizeof self - 1);
  if (len < 0)
    return false;
  self[len] = '\0';
  return strtol (self, NULL, 10) == getpid ();
}
#endif

static _Noreturn void
leave (int status)
{
  if (in_child)
    _exit (status);
#ifdef LEAK_CHECK_AT_EXIT
  if (!leak_check_can_run ())
    {
      close_stdout ();
      _exit (status);
    }
#endif
  exit (status);
}

/* Report a failure as error() does, then leave with status 1.  */
#define die(err, ...) (error (0, err, __VA_ARGS__), leave (EXIT_FAILURE))

/* --- option parsing ---------------------------------------------------- */

/* The entry for long option NAME (LEN bytes) or, with NAME NULL, for the
   short option LETTER, in TABLE and the tables it includes.  */
static const struct poptOption *
find_option (const struct poptOption *table, const char *name, size_t len,
             char letter)
{
  for (const struct poptOption *o = table;
       o->longName || o->shortName || o->argInfo || o->arg; o++)
    {
      if ((o->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE)
        {
          const struct poptOption *found = find_option (o->arg, name, len,
                                                        letter);
          if (found)
            return found;
        }
      else if (name ? (o->longName && strlen (o->longName) == len
                       && memcmp (o->longName, name, len) == 0)
               : (letter && o->shortName == letter))
        return o;
    }
  return NULL;
}

static bool
takes_arg (const struct poptOption *o)
{
  unsigned int type = o->argInfo & POPT_ARG_MASK;
  return type != POPT_ARG_NONE && type != POPT_ARG_VAL;
}

static char *
concat (const char *a, const char *b)
{
  size_t la = strlen (a), lb = strlen (b);
  char *s = xmalloc (la + lb + 1);
  memcpy (s, a, la);
  memcpy (s + la, b, lb + 1);
  return s;
}

/* popt takes the next word as the argument of an option whose argument is
   optional ("--mount-proc ps" would mount proc on 'ps'), and a short
   option's argument from the rest of its cluster ("-nf" would persist the
   namespace at 'f').  Like unshare(1), unshare-run takes such an argument
   only after the '=' of the long form.  So, before popt sees ARGV, each
   use of such an option without '=' becomes "--NAME=" (an empty argument,
   which means none) and clusters are split around their letters.  From
   the first word that is not an option, the COMMAND, nothing changes.
   Return the new vector; *NEW_ARGC is its length.

   This belongs in lib/cli.c, with a flags argument for cli_context.  */
static char **
split_optional_args (int argc, char **argv, int *new_argc)
{
  size_t room = 2;
  for (int i = 0; i < argc; i++)
    room += strlen (argv[i]) + 1;
  char **out = xnmalloc (room, sizeof *out);
  /* Reachable from now on, through a usage error's exit too.  */
  popt_argv = out;
  int n = 0;
  out[n++] = argv[0];

  int i = 1;
  while (i < argc)
    {
      char *word = argv[i++];
      if (strcmp (word, "--") == 0 || word[0] != '-' || word[1] == '\0')
        {
          i--;
          break;
        }
      if (word[1] == '-')
        {
          const char *name = word + 2;
          const char *eq = strchr (name, '=');
          size_t len = eq ? (size_t) (eq - name) : strlen (name);
          const struct poptOption *o = find_option (options, name, len, 0);
          if (o && (o->argInfo & POPT_ARGFLAG_OPTIONAL))
            {
              if (eq && eq[1] == '\0')
                cli_usage_error ("empty argument after '--%s='",
                                 o->longName);
              out[n++] = eq ? word : concat (word, "=");
            }
          else
            {
              out[n++] = word;
              if (o && takes_arg (o) && !eq && i < argc)
                out[n++] = argv[i++];
            }
          continue;
        }
      /* A cluster of short options.  */
      for (char *p = word + 1; *p; p++)
        {
          const struct poptOption *o = find_option (options, NULL, 0, *p);
          char letter[3] = { '-', *p, '\0' };
          if (!o)
            {
              /* Unknown: popt reports it, from here.  */
              out[n++] = concat ("-", p);
              break;
            }
          /* "-n=FILE" would be -n, then an unknown option '='.  */
          if (p[1] == '=' && !(takes_arg (o)
                               && !(o->argInfo & POPT_ARGFLAG_OPTIONAL)))
            {
              if (o->longName && takes_arg (o))
                cli_usage_error ("option -%c takes no '=': use --%s%s",
                                 *p, o->longName, p + 1);
              cli_usage_error ("option -%c takes no argument", *p);
            }
          if (o->argInfo & POPT_ARGFLAG_OPTIONAL)
            {
              char *dashes = concat ("--", o->longName);
              out[n++] = concat (dashes, "=");
              free (dashes);
            }
          else if (takes_arg (o))
            {
              out[n++] = concat (letter, p + 1);
              if (p[1] == '\0' && i < argc)
                out[n++] = argv[i++];
              break;
            }
          else
            out[n++] = concat (letter, "");
        }
    }
  while (i < argc)
    out[n++] = argv[i++];
  out[n] = NULL;
  *new_argc = n;
  return out;
}

/* Replace the string in *SLOT by ARG, freeing the old one.  */
static void
take (char **slot, char *arg)
{
  free (*slot);
  *slot = arg;
}

/* A user (GROUP false) or group ID: a number or a name.  */
static uint32_t
parse_id (const char *option, const char *arg, bool group)
{
  /* A name may not start with a digit: such a word is a number.  */
  if (arg[0] >= '0' && arg[0] <= '9')
    /* (uid_t) -1 is no ID, but "leave unchanged" to setresuid(2).  */
    return cli_parse_number (option, group ? "group ID" : "user ID", arg,
                             UINT32_MAX - 1, 0);
  if (group)
    {
      struct group *gr = getgrnam (arg);
      if (gr)
        return gr->gr_gid;
    }
  else
    {
      struct passwd *pw = getpwnam (arg);
      if (pw)
        return pw->pw_uid;
    }
  cli_usage_error ("invalid %s for --%s: %s", group ? "group" : "user",
                   option, quote_file (arg));
}

/* The signed offset of a clock, in seconds.  */
static int64_t
parse_seconds (const char *option, const char *arg)
{
  struct nc_number n;
  int64_t value;
  /* Half the range, so that the kernel's sum with the clock stays in it
     and a wrap-around is never asked for.  */
  if (nc_parse_signed (arg, strlen (arg), INT64_MAX / 2, 0, &n, &value)
      == NC_NUMBER_OK)
    return value;
  char msg[NC_NUMBER_MESSAGE_SIZE];
  cli_usage_error ("invalid --%s %s: %s", option, quote_file (arg),
                   nc_number_message (&n, arg, "number of seconds", msg));
}

/* A signal by name (TERM, SIGTERM, RTMIN+1) or number.  */
static int
parse_signal (const char *option, const char *arg)
{
  int sig;
  const char *name = strncmp (arg, "SIG", 3) == 0 ? arg + 3 : arg;
  if (str2sig (name, &sig) == 0 && sig > 0 && sig < NSIG)
    return sig;
  cli_usage_error ("invalid signal for --%s: %s", option, quote_file (arg));
}

static void
parse_options (int argc, char **argv)
{
  int n;
  popt_argv = split_optional_args (argc, argv, &n);
  /* As cli_context, but options end at the first operand: the rest is
     COMMAND's.  cli_context passes no flags to poptGetContext.  */
  ctx = poptGetContext (program_name, n, (const char **) popt_argv, options,
                        POPT_CONTEXT_POSIXMEHARDER);
  poptSetOtherOptionHelp (ctx, "[OPTION]... [--] [COMMAND [ARG]...]");

  int opt;
  while ((opt = cli_next_option (ctx)) >= 0)
    {
      char *arg = poptGetOptArg (ctx);
      /* "--NAME=" from split_optional_args: no argument.  */
      if (arg && !*arg
          && (opt < OPT_NS + NS_KINDS || opt == OPT_MOUNT_PROC
              || opt == OPT_KILL_CHILD))
        take (&arg, NULL);
      if (opt >= OPT_NS && opt < OPT_NS + NS_KINDS)
        {
          cfg.flags |= ns_table[opt - OPT_NS].flag;
          if (arg)
            take (&cfg.persist[opt - OPT_NS], arg);
          continue;
        }
      switch (opt)
        {
        case OPT_ALL:
          cfg.all = true;
          break;
        case OPT_FS:
          cfg.flags |= CLONE_FS;
          break;
        case OPT_FILES:
          cfg.flags |= CLONE_FILES;
          break;
        case OPT_SYSVSEM:
          cfg.flags |= CLONE_SYSVSEM;
          break;
        case OPT_MAP_ROOT:
          cfg.map_uid_set = cfg.map_gid_set = true;
          cfg.map_uid = cfg.map_gid = 0;
          break;
        case OPT_MAP_CURRENT:
          cfg.map_uid_set = cfg.map_gid_set = true;
          cfg.map_uid = geteuid ();
          cfg.map_gid = getegid ();
          break;
        case OPT_MAP_USER:
          cfg.map_uid_set = true;
          cfg.map_uid = parse_id ("map-user", arg, false);
          break;
        case OPT_MAP_GROUP:
          cfg.map_gid_set = true;
          cfg.map_gid = parse_id ("map-group", arg, true);
          break;
        case OPT_SETGROUPS:
          if (strcmp (arg, "allow") == 0)
            cfg.setgroups = SETGROUPS_ALLOW;
          else if (strcmp (arg, "deny") == 0)
            cfg.setgroups = SETGROUPS_DENY;
          else
            cli_usage_error ("invalid argument for --setgroups: %s "
                             "(allow or deny)", quote_file (arg));
          break;
        case OPT_SETUID:
          cfg.setuid_set = true;
          cfg.setuid = parse_id ("setuid", arg, false);
          break;
        case OPT_SETGID:
          cfg.setgid_set = true;
          cfg.setgid = parse_id ("setgid", arg, true);
          break;
        case OPT_KEEP_CAPS:
          cfg.keep_caps = true;
          break;
        case OPT_FORK:
          cfg.fork = true;
          break;
        case OPT_MOUNT_PROC:
          cfg.flags |= CLONE_NEWNS;
          take (&cfg.mount_proc, arg ? arg : xstrdup ("/proc"));
          arg = NULL;
          break;
        case OPT_PROPAGATION:
          if (strcmp (arg, "private") == 0)
            cfg.propagation = MS_REC | MS_PRIVATE;
          else if (strcmp (arg, "slave") == 0)
            cfg.propagation = MS_REC | MS_SLAVE;
          else if (strcmp (arg, "shared") == 0)
            cfg.propagation = MS_REC | MS_SHARED;
          else if (strcmp (arg, "unchanged") == 0)
            cfg.propagation = 0;
          else
            cli_usage_error ("invalid argument for --propagation: %s "
                             "(private, slave, shared or unchanged)",
                             quote_file (arg));
          take (&cfg.propagation_name, arg);
          arg = NULL;
          break;
        case OPT_ROOT:
          take (&cfg.root, arg);
          arg = NULL;
          break;
        case OPT_WD:
          take (&cfg.wd, arg);
          arg = NULL;
          break;
        case OPT_HOSTNAME:
          /* sethostname(2) would take it, leaving a host with no name.  */
          if (!*arg)
            cli_usage_error ("invalid --hostname '': empty host name");
          take (&cfg.hostname, arg);
          arg = NULL;
          break;
        case OPT_MONOTONIC:
          cfg.monotonic_set = true;
          cfg.monotonic = parse_seconds ("monotonic", arg);
          break;
        case OPT_BOOTTIME:
          cfg.boottime_set = true;
          cfg.boottime = parse_seconds ("boottime", arg);
          break;
        case OPT_KILL_CHILD:
          cfg.kill_child = arg ? parse_signal ("kill-child", arg) : SIGKILL;
          break;
        case OPT_DIE_WITH_PARENT:
          cfg.die_with_parent = true;
          break;
        case OPT_NEW_SESSION:
          cfg.new_session = true;
          break;
        case OPT_NO_NEW_PRIVS:
          cfg.no_new_privs = 1;
          break;
        case OPT_NEW_PRIVS:
          cfg.no_new_privs = 0;
          break;
        case OPT_AS_PID_1:
          cfg.as_pid_1 = true;
          break;
        case OPT_FORWARD_SIGNALS:
          cfg.forward_signals = true;
          break;
        case OPT_JSON_STATUS_FD:
          cfg.json_fd = cli_parse_number ("json-status-fd", "descriptor", arg,
                                          INT_MAX, 0);
          break;
        default:
          break;
        }
      free (arg);
    }

  static char *shell[2];
  const char **rest = poptGetArgs (ctx);
  if (rest)
    cfg.command = (char **) rest;
  else
    {
      /* A login shell, as unshare(1) and login(1) start it: its name
         with a '-' in front, and no search of $PATH.  */
      const char *sh = getenv ("SHELL");
      cfg.file = (char *) (sh && *sh ? sh : "/bin/sh");
      const char *slash = strrchr (cfg.file, '/');
      shell[0] = concat ("-", slash ? slash + 1 : cfg.file);
      cfg.command = shell;
    }
}

/* Options that only make sense with others: usage errors that say what
   to add.  Then the implications.  */
static void
check_options (void)
{
  if (cfg.all)
    {
      int offered = ns_flags_available (ns_flags_known ());
      cfg.flags |= offered;
      if ((offered & CLONE_NEWUSER) && !cfg.map_uid_set && !cfg.map_gid_set)
        {
          cfg.map_uid_set = cfg.map_gid_set = true;
          cfg.map_uid = geteuid ();
          cfg.map_gid = getegid ();
        }
    }
  if (cfg.map_uid_set || cfg.map_gid_set)
    cfg.flags |= CLONE_NEWUSER;

  if (cfg.hostname && !(cfg.flags & CLONE_NEWUTS))
    cli_usage_error ("--hostname needs a new UTS namespace: add -u");
  if (cfg.hostname && strlen (cfg.hostname) > 64)
    cli_usage_error ("--hostname: %s is longer than 64 bytes",
                     quote_file (cfg.hostname));
  if ((cfg.monotonic_set || cfg.boottime_set) && !(cfg.flags & CLONE_NEWTIME))
    cli_usage_error ("--%s needs a new time namespace: add -T",
                     cfg.monotonic_set ? "monotonic" : "boottime");
  if (cfg.propagation_name && !(cfg.flags & CLONE_NEWNS))
    cli_usage_error ("--propagation needs a new mount namespace: add -m");
  if (cfg.setgroups != SETGROUPS_UNSET && !(cfg.flags & CLONE_NEWUSER))
    cli_usage_error ("--setgroups needs a new user namespace: add -U");
  if (cfg.as_pid_1 && !(cfg.flags & CLONE_NEWPID))
    cli_usage_error ("--as-pid-1 needs a new PID namespace: add -p");

  /* A new PID namespace takes its first process from fork(); the others
     need a child to signal or forward to, or to be other than a process
     group leader
     (setsid fails in one, and shells make every job one).  */
  if ((cfg.flags & CLONE_NEWPID) || cfg.kill_child || cfg.new_session
      || cfg.forward_signals)
    cfg.fork = true;
  if (cfg.no_new_privs < 0)
    cfg.no_new_privs = !cfg.keep_caps;

  if (cfg.json_fd >= 0)
    {
      /* COMMAND must not hold it, so that the reader sees its end when
         unshare-run ends; a standard descriptor stays COMMAND's, through
         a copy.  */
      int fd = cfg.json_fd;
      int ret = fd <= STDERR_FILENO ? sys_fcntl (fd, F_DUPFD_CLOEXEC, 3)
                : sys_fcntl (fd, F_GETFD, 0);
      if (ret >= 0 && fd > STDERR_FILENO)
        ret = sys_fcntl (fd, F_SETFD, ret | FD_CLOEXEC);
      if (ret < 0)
        error (EXIT_FAILURE, -ret, "--json-status-fd=%d", fd);
      if (fd <= STDERR_FILENO)
        cfg.json_fd = ret;
    }
}

/* --- signals ----------------------------------------------------------- */

/* The signals the init passes on to COMMAND, of those not ignored at the
   start.  */
static const int forwarded[] = {
  SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2
};

/* The forwarded signals and SIGCHLD: blocked before the first fork and
   taken with sigwaitinfo(2) by the init.  */
static sigset_t wait_set;
/* The mask and SIGCHLD action to give back to COMMAND.  */
static sigset_t orig_mask;
static struct sigaction orig_chld;
static bool chld_changed;

/* Make SIGCHLD usable for waiting: an inherited SIG_IGN would have the
   kernel reap the children itself.  */
static void
default_sigchld (void)
{
  struct sigaction dfl = { .sa_handler = SIG_DFL };
  sigemptyset (&dfl.sa_mask);
  if (!chld_changed && sigaction (SIGCHLD, &dfl, &orig_chld) == 0)
    chld_changed = true;
}

/* Block wait_set, and SIGINT and SIGTERM whatever their action.  */
static void
block_signals (void)
{
  sigemptyset (&wait_set);
  sigaddset (&wait_set, SIGCHLD);
  for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
    {
      struct sigaction old;
      if (sigaction (forwarded[i], NULL, &old) == 0
          && old.sa_handler != SIG_IGN)
        sigaddset (&wait_set, forwarded[i]);
    }
  sigset_t set = wait_set;
  sigaddset (&set, SIGINT);
  sigaddset (&set, SIGTERM);
  int ret = sys_rt_sigprocmask (SIG_BLOCK, &set, NULL);
  if (ret < 0)
    die (-ret, "cannot block signals");
}

/* In unshare-run, once the child exists, the signals to wait for in SET:
   SIGCHLD, and SIGINT and SIGTERM with --forward-signals.  Without it,
   as in unshare(1), those two stay blocked, never taken: a SIGTERM meant
   to kill unshare-run leaves it waiting and the child untouched.  The
   other signals of wait_set, blocked for the init's sake, get their
   usual effect back: they end unshare-run alone.  */
static void
parent_signals (sigset_t *set)
{
  sigset_t unblock = wait_set;
  sigemptyset (set);
  sigaddset (set, SIGCHLD);
  sigdelset (&unblock, SIGCHLD);
  sigdelset (&unblock, SIGINT);
  sigdelset (&unblock, SIGTERM);
  if (cfg.forward_signals)
    {
      if (sigismember (&wait_set, SIGINT))
        sigaddset (set, SIGINT);
      if (sigismember (&wait_set, SIGTERM))
        sigaddset (set, SIGTERM);
    }
  int ret = sys_rt_sigprocmask (SIG_UNBLOCK, &unblock, NULL);
  if (ret < 0)
    die (-ret, "cannot unblock signals");
}

static void
restore_signals (void)
{
  if (chld_changed)
    sigaction (SIGCHLD, &orig_chld, NULL);
  sys_rt_sigprocmask (SIG_SETMASK, &orig_mask, NULL);
}

/* Pass the signal SI describes on to PID.  The terminal sends ^C, ^\ and
   hangups to a whole process group (si_code SI_KERNEL); when PID is in
   ours it has its own copy already.  */
static void
forward (pid_t pid, const siginfo_t *si, bool same_group)
{
  if (si->si_code == SI_KERNEL && same_group)
    return;
  kill (pid, si->si_signo);
}

/* Wait for the next signal of SET.  */
static int
next_signal (const sigset_t *set, siginfo_t *si)
{
  for (;;)
    {
      /* libc's sigwaitinfo until sys.h has rt_sigtimedwait.  */
      int sig = sigwaitinfo (set, si);
      if (sig > 0)
        return sig;
      if (errno != EINTR)
        die (errno, "cannot wait for signals");
    }
}

/* End as a process killed by SIG does, for the shell's sake ("Terminated",
   status 128+SIG).  */
static _Noreturn void
die_by_signal (int sig)
{
  /* COMMAND dumped its own core, if any; a second one would be ours.  */
  struct rlimit no_core = { 0, 0 };
  setrlimit (RLIMIT_CORE, &no_core);
  struct sigaction dfl = { .sa_handler = SIG_DFL };
  sigemptyset (&dfl.sa_mask);
  sigaction (sig, &dfl, NULL);
  sigset_t set;
  sigemptyset (&set);
  sigaddset (&set, sig);
  sys_rt_sigprocmask (SIG_UNBLOCK, &set, NULL);
  raise (sig);
  /* A signal whose default is to be ignored cannot kill: say it.  */
  leave (128 + sig);
}

/* Arm the parent death signal SIG.  If the parent died before, the signal
   will never come: leave now.  LIFELINE is the read end of a pipe whose
   write end only the parent holds, or -1 to compare getppid() with
   PARENT instead.  */
static void
set_death_signal (int sig, int lifeline, pid_t parent)
{
  if (nc_errno (sys_prctl (PR_SET_PDEATHSIG, sig, 0, 0, 0)) < 0)
    die (errno, "cannot set the parent death signal");
  bool orphan;
  if (lifeline >= 0)
    {
      struct pollfd pfd = { .fd = lifeline, .events = POLLIN };
      struct timespec now = { 0, 0 };
      orphan = sys_ppoll (&pfd, 1, &now, NULL) > 0;
      sys_close (lifeline);
    }
  else
    orphan = getppid () != parent;
  if (orphan)
    leave (EXIT_FAILURE);
}

/* --- the keeper -------------------------------------------------------- */

/* The index in ns_table of the kind FLAG.  */
static int
ns_index (int flag)
{
  return ns_by_flag (flag) - ns_table;
}

struct keeper
{
  pid_t pid;                    /* 0: none */
  int to, from;                 /* pipes to and from it */
  bool stage2;                  /* a PID namespace to persist */
};

static _Noreturn void
map_failed (pid_t target, const char *file, uint32_t inside,
            uint32_t outside, int err, const char *hint)
{
  char line[64];
  snprintf (line, sizeof line, "%" PRIu32 " %" PRIu32 " 1", inside,
            outside);
  die (0, "cannot write %s to /proc/%ld/%s: %s%s%s", quote_file (line),
       (long) target, file, strerror (-err), hint ? "; " : "",
       hint ? hint : "");
}

/* Write the id maps of the user namespace of TARGET, and its setgroups.  */
static void
write_maps (pid_t target)
{
  uid_t euid = geteuid ();
  gid_t egid = getegid ();
  int ret;

  if (cfg.map_uid_set)
    {
      ret = ns_write_id_map (target, "uid_map", cfg.map_uid, euid, 1);
      if (ret < 0)
        map_failed (target, "uid_map", cfg.map_uid, euid, ret,
                    ret == -EPERM ? "only a process with CAP_SETUID may "
                    "map another user than its own" : NULL);
    }

  if (cfg.setgroups != SETGROUPS_UNSET)
    {
      bool allow = cfg.setgroups == SETGROUPS_ALLOW;
      ret = ns_write_setgroups (target, allow);
      if (ret < 0)
        die (0, "cannot write '%s' to /proc/%ld/setgroups: %s%s",
             allow ? "allow" : "deny", (long) target, strerror (-ret),
             allow && ret == -EPERM ? "; the parent user namespace denies "
             "setgroups(2), so this one must too" : "");
    }

  if (cfg.map_gid_set)
    {
      ret = ns_write_id_map (target, "gid_map", cfg.map_gid, egid, 1);
      if (ret == -EPERM && cfg.setgroups == SETGROUPS_UNSET)
        {
          /* Since Linux 3.19, a process without CAP_SETGID over the
             parent namespace may write a gid map only once setgroups(2)
             is denied in the new one: a process could otherwise shed a
             group that denies it access.  */
          ret = ns_write_setgroups (target, false);
          if (ret == 0)
            ret = ns_write_id_map (target, "gid_map", cfg.map_gid, egid, 1);
        }
      if (ret < 0)
        map_failed (target, "gid_map", cfg.map_gid, egid, ret,
                    ret != -EPERM ? NULL
                    : cfg.setgroups == SETGROUPS_ALLOW
                    ? "without CAP_SETGID, a gid map needs setgroups(2) "
                      "denied: drop --setgroups=allow"
                    : "only a process with CAP_SETGID may map another "
                      "group than its own");
    }
}

/* Remove the files made to persist namespaces on: nothing was unshared
   after all.  */
static void
persist_unmake (void)
{
  for (int i = 0; i < NS_KINDS; i++)
    if (cfg.persist_made[i])
      {
        sys_unlinkat (AT_FDCWD, cfg.persist[i], 0);
        cfg.persist_made[i] = false;
      }
}

/* Open the files to persist namespaces on, before anything is unshared:
   first the existing ones, all checked, then the missing ones, made.  */
static void
persist_open (void)
{
  for (int i = 0; i < NS_KINDS; i++)
    cfg.persist_fd[i] = -1;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < NS_KINDS; i++)
      {
        if (!cfg.persist[i] || (pass == 1 && cfg.persist_fd[i] >= 0))
          continue;
        const char *why;
        int fd = ns_persist_open (cfg.persist[i], pass == 1, &why);
        if (fd >= 0)
          {
            cfg.persist_fd[i] = fd;
            cfg.persist_made[i] = pass == 1;
            continue;
          }
        if (fd == -ENOENT && pass == 0)
          continue;
        persist_unmake ();
        if (why)
          die (0, "refusing to persist the %s namespace on %s: it is %s "
               "(it must be an empty regular file, or missing)",
               ns_table[i].what, quote_file (cfg.persist[i]), why);
        die (-fd, "cannot %s %s to persist the %s namespace",
             pass == 1 ? "create" : "open", quote_file (cfg.persist[i]),
             ns_table[i].what);
      }
}

/* Close them, in a process that does not bind them.  */
static void
persist_close (void)
{
  for (int i = 0; i < NS_KINDS; i++)
    if (cfg.persist_fd[i] >= 0)
      {
        sys_close (cfg.persist_fd[i]);
        cfg.persist_fd[i] = -1;
      }
}

/* Bind-mount the namespaces to persist: the PID one (STAGE2) or the
   others.  */
static void
persist (pid_t target, bool stage2)
{
  for (int i = 0; i < NS_KINDS; i++)
    {
      const struct ns_info *ns = &ns_table[i];
      if (!cfg.persist[i] || (ns->flag == CLONE_NEWPID) != stage2)
        continue;
      int ret = ns_persist (target, ns, cfg.persist_fd[i]);
      if (ret == 0)
        continue;
      char source[64];
      ns_proc_path (target, ns, true, source, sizeof source);
      die (0, "cannot bind %s onto %s: %s%s", source,
           quote_file (cfg.persist[i]), strerror (-ret),
           ret == -EINVAL && ns->flag == CLONE_NEWNS
           ? "; a mount namespace can be kept only on a mount that is "
             "not shared (see mount --make-private)"
           : ret == -EPERM ? "; this needs CAP_SYS_ADMIN in the original "
             "mount namespace" : "");
    }
}

/* The pipes between unshare-run, its child and the keeper carry a byte
   or a wait status that must not be lost to an interrupted call: these
   retry EINTR.  Each message is at most PIPE_BUF bytes, written whole or
   not at all, so there is no short count to continue.  */
static ssize_t
pipe_write (int fd, const void *buf, size_t len)
{
  ssize_t n;
  while ((n = sys_write (fd, buf, len)) == -EINTR)
    continue;
  return n;
}

static ssize_t
pipe_read (int fd, void *buf, size_t len)
{
  ssize_t n;
  while ((n = sys_read (fd, buf, len)) == -EINTR)
    continue;
  return n;
}

/* waitpid, EINTR retried: an interrupted wait must not make the caller
   wait for a SIGCHLD that was already taken.  */
static pid_t
wait_retry (pid_t pid, int *status, int flags)
{
  pid_t ret;
  while ((ret = waitpid (pid, status, flags)) < 0 && errno == EINTR)
    continue;
  return ret;
}

static _Noreturn void
keeper_main (int in, int out, pid_t target, bool stage2)
{
  in_child = true;
  char byte;
  /* No byte: unshare-run failed before, and said so.  */
  if (pipe_read (in, &byte, 1) != 1)
    _exit (EXIT_SUCCESS);
  if (cfg.flags & CLONE_NEWUSER)
    write_maps (target);
  persist (target, false);
  if (stage2)
    {
      if (pipe_write (out, "", 1) != 1 || pipe_read (in, &byte, 1) != 1)
        _exit (EXIT_SUCCESS);
      persist (target, true);
    }
  _exit (EXIT_SUCCESS);
}

static void
keeper_start (struct keeper *k)
{
  bool maps = (cfg.flags & CLONE_NEWUSER)
              && (cfg.map_uid_set || cfg.map_gid_set
                  || cfg.setgroups != SETGROUPS_UNSET);
  bool any_persist = false;
  for (int i = 0; i < NS_KINDS; i++)
    any_persist |= cfg.persist[i] != NULL;
  k->pid = 0;
  k->stage2 = cfg.persist[ns_index (CLONE_NEWPID)] != NULL;
  if (!maps && !any_persist)
    return;

  int to[2], from[2];
  int ret = sys_pipe2 (to, O_CLOEXEC);
  if (ret == 0)
    ret = sys_pipe2 (from, O_CLOEXEC);
  if (ret < 0)
    die (-ret, "cannot create a pipe");
  pid_t target = getpid ();
  default_sigchld ();
  k->pid = fork ();
  if (k->pid < 0)
    die (errno, "cannot fork");
  if (k->pid == 0)
    {
      sys_close (to[1]);
      sys_close (from[0]);
      keeper_main (to[0], from[1], target, k->stage2);
    }
  sys_close (to[0]);
  sys_close (from[1]);
  k->to = to[1];
  k->from = from[0];
}

/* Whether the keeper, done, ended well (it said why if not).  */
static bool
keeper_wait (struct keeper *k)
{
  int status;
  pid_t pid;
  pid = wait_retry (k->pid, &status, 0);
  k->pid = 0;
  sys_close (k->to);
  sys_close (k->from);
  return pid > 0 && WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

/* Have the keeper do its first stage, now that the namespaces exist.  */
static void
keeper_stage1 (struct keeper *k)
{
  if (!k->pid)
    return;
  char byte;
  if (pipe_write (k->to, "", 1) != 1
      || (k->stage2 ? pipe_read (k->from, &byte, 1) != 1 : !keeper_wait (k)))
    {
      if (k->pid)
        keeper_wait (k);
      leave (EXIT_FAILURE);
    }
}

/* --- setting up -------------------------------------------------------- */

static _Noreturn void
unshare_failed (int err)
{
  char why[256];
  ns_explain_unshare (cfg.flags, err, why, sizeof why);
  if (!why[0])
    die (-err, "unshare failed");
  char advice[64] = "";
  int kinds = cfg.flags & ns_flags_known ();
  int missing = kinds & ~ns_flags_available (kinds);
  if (err == -EPERM && !(cfg.flags & CLONE_NEWUSER))
    snprintf (advice, sizeof advice, "%s",
              geteuid () == 0
              ? "; this process lacks it (in a container?): try adding -U/-r"
              : "; run as root or add -U/-r");
  else if (err == -EINVAL && missing)
    {
      /* The kind the explanation names: the first one missing.  */
      const struct ns_info *ns = ns_table;
      while (!(missing & ns->flag))
        ns++;
      snprintf (advice, sizeof advice, "; drop -%c", ns->short_option);
    }
  die (0, "%s%s", why, advice);
}

/* What happens in unshare-run itself once the namespaces exist: what must
   precede any process entering them (time offsets), then what COMMAND and
   its children share with it.  */
static void
set_up (int *ns_dir)
{
  int ret;
  if (cfg.boottime_set
      && (ret = ns_set_time_offset (0, CLOCK_BOOTTIME, cfg.boottime)) < 0)
    die (0, "cannot set the boot time offset in /proc/self/timens_offsets: "
         "%s%s", strerror (-ret),
         ret == -ERANGE ? "; the clock must stay between 0 and "
         "4611686018 s (146 years)" : "");
  if (cfg.monotonic_set
      && (ret = ns_set_time_offset (0, CLOCK_MONOTONIC, cfg.monotonic)) < 0)
    die (0, "cannot set the monotonic clock offset in "
         "/proc/self/timens_offsets: %s%s", strerror (-ret),
         ret == -ERANGE ? "; the clock must stay between 0 and "
         "4611686018 s (146 years)" : "");

  /* unshare(CLONE_NEWTIME) puts the children in the new namespace, not
     the caller: enter it to take COMMAND there without a fork.  */
  if ((cfg.flags & CLONE_NEWTIME) && !cfg.fork)
    {
      int fd = sys_openat (AT_FDCWD, "/proc/self/ns/time_for_children",
                           O_RDONLY | O_CLOEXEC, 0);
      ret = fd < 0 ? fd : sys_setns (fd, CLONE_NEWTIME);
      if (fd >= 0)
        sys_close (fd);
      if (ret < 0)
        die (-ret, "cannot enter the new time namespace");
    }

  /* For --json-status-fd, the namespaces as they are now, before a new
     root hides /proc.  */
  if (cfg.json_fd >= 0)
    *ns_dir = sys_openat (AT_FDCWD, "/proc/self/ns",
                          O_PATH | O_DIRECTORY | O_CLOEXEC, 0);

  if (cfg.hostname && nc_errno (sys_sethostname (cfg.hostname, strlen (cfg.hostname))) < 0)
    die (errno, "cannot set the host name to %s", quote_file (cfg.hostname));

  /* A new mount namespace starts with copies of the old mounts, in the
     same peer groups: a shared mount would still pass mounts both ways.  */
  if ((cfg.flags & CLONE_NEWNS) && cfg.propagation
      && nc_errno (sys_mount ("none", "/", NULL, cfg.propagation, NULL)) < 0)
    die (errno, "cannot make / %s in the new mount namespace",
         cfg.propagation_name ? cfg.propagation_name : "private");

  if (cfg.root && chroot (cfg.root) < 0)
    die (errno, "cannot change the root directory to %s",
         quote_file (cfg.root));
  const char *wd = cfg.wd ? cfg.wd : cfg.root ? "/" : NULL;
  if (wd && chdir (wd) < 0)
    die (errno, "cannot change the working directory to %s",
         quote_file (wd));
}

static void
mount_proc (void)
{
  const char *dir = cfg.mount_proc;
  /* Under / made private or slave, the new mount stays in this namespace.
     Under a shared /, it would appear in the peers, outside, unless DIR
     is a mount of its own that can be made private first.  */
  if (!(cfg.propagation & (MS_PRIVATE | MS_SLAVE))
      && nc_errno (sys_mount ("none", dir, NULL, MS_REC | MS_PRIVATE, NULL)) < 0)
    die (0, "cannot make %s private: %s%s", quote_file (dir),
         strerror (errno), errno == EINVAL ? "; it is not a mount point, "
         "and a proc mounted there would appear outside: use "
         "--propagation=private or slave" : "");
  if (nc_errno (sys_mount ("proc", dir, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                           NULL)) < 0)
    die (0, "cannot mount proc on %s: %s%s", quote_file (dir),
         strerror (errno),
         errno == EPERM && (cfg.flags & CLONE_NEWUSER)
         && !(cfg.flags & CLONE_NEWPID)
         ? "; in a new user namespace, only a new PID namespace's proc "
           "can be mounted: add -p" : "");
}

/* --- running COMMAND --------------------------------------------------- */

static void
set_ids (void)
{
  if (cfg.setgid_set)
    {
      /* In a user namespace where setgroups(2) is denied the
         supplementary groups cannot change, and stay as they were.  */
      if (setgroups (0, NULL) < 0
          && !(errno == EPERM && (cfg.flags & CLONE_NEWUSER)))
        die (errno, "cannot drop the supplementary groups");
      if (setgid (cfg.setgid) < 0)
        die (0, "cannot set the group ID to %lu: %s%s",
             (unsigned long) cfg.setgid, strerror (errno),
             errno == EINVAL ? "; it has no mapping in this user "
             "namespace (see --map-group)" : "");
    }
  if (cfg.setuid_set)
    {
      if (cfg.keep_caps && nc_errno (sys_prctl (PR_SET_KEEPCAPS, 1, 0, 0, 0)) < 0)
        die (errno, "cannot keep the capabilities");
      if (setuid (cfg.setuid) < 0)
        die (0, "cannot set the user ID to %lu: %s%s",
             (unsigned long) cfg.setuid, strerror (errno),
             errno == EINVAL ? "; it has no mapping in this user "
             "namespace (see --map-user)" : "");
    }
}

/* Make the permitted capabilities effective, inheritable and ambient, so
   that they survive execve(2) whatever COMMAND's user (Linux 4.3).  */
static void
keep_caps (void)
{
  struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
  int ret = sys_capget (&hdr, data);
  if (ret < 0)
    die (-ret, "cannot read the capabilities");
  uint64_t permitted = 0;
  for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
    {
      data[i].effective = data[i].inheritable = data[i].permitted;
      permitted |= (uint64_t) data[i].permitted << (32 * i);
    }
  ret = sys_capset (&hdr, data);
  if (ret < 0)
    die (-ret, "cannot make the capabilities inheritable");
  for (int cap = 0; cap < 64; cap++)
    if (((permitted >> cap) & 1)
        && (ret = sys_prctl (PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0,
                             0)) < 0)
      die (-ret, "cannot make capability %d ambient", cap);
}

/* Become COMMAND.  DEATH_SIG, LIFELINE and PARENT: set_death_signal's,
   armed last, after the changes of user that would disarm it.  */
static _Noreturn void
exec_command (int death_sig, int lifeline, pid_t parent)
{
  if (cfg.new_session && setsid () < 0)
    die (errno, "cannot start a new session");
  set_ids ();
  if (cfg.keep_caps)
    keep_caps ();
  if (cfg.no_new_privs && nc_errno (sys_prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) < 0)
    die (errno, "cannot set no_new_privs");
  if (death_sig)
    set_death_signal (death_sig, lifeline, parent);
  restore_signals ();
  const char *file = cfg.file ? cfg.file : cfg.command[0];
  if (cfg.file)
    execv (file, cfg.command);
  else
    execvp (file, cfg.command);
  int err = errno;
  int status = exec_failure_status (file, &err);
  error (0, err, "cannot run %s", quote_file (file));
  leave (status);
}

/* --json-status-fd.  */
static void
json_write (const char *line)
{
  /* A reader that went away must not kill unshare-run with SIGPIPE while
     COMMAND runs.  */
  struct sigaction ign = { .sa_handler = SIG_IGN }, old;
  sigemptyset (&ign.sa_mask);
  sigaction (SIGPIPE, &ign, &old);
  if (full_write (cfg.json_fd, line, strlen (line)) < strlen (line))
    error (0, errno, "cannot write to --json-status-fd=%d", cfg.json_fd);
  sigaction (SIGPIPE, &old, NULL);
}

static void
json_start (pid_t child, int ns_dir)
{
  if (cfg.json_fd < 0)
    return;
  char line[1024];
  size_t len = snprintf (line, sizeof line, "{\"child-pid\": %ld",
                         (long) child);
  for (const struct ns_info *ns = ns_table; ns->name && ns_dir >= 0; ns++)
    {
      struct stat st;
      const char *file = ns->children ? ns->children : ns->name;
      if (sys_fstatat (ns_dir, file, &st, 0) == 0 && len < sizeof line)
        len += snprintf (line + len, sizeof line - len,
                         ", \"%s-namespace\": %" PRIu64, ns->name,
                         (uint64_t) st.st_ino);
    }
  if (len < sizeof line)
    snprintf (line + len, sizeof line - len, "}\n");
  json_write (line);
}

static void
json_exit (int status)
{
  if (cfg.json_fd < 0)
    return;
  char line[64];
  if (WIFEXITED (status))
    snprintf (line, sizeof line, "{\"exit-code\": %d}\n",
              WEXITSTATUS (status));
  else
    snprintf (line, sizeof line, "{\"exit-signal\": %d}\n",
              WTERMSIG (status));
  json_write (line);
}

/* pid 1 of a new PID namespace, COMMAND being CMD: reap every process
   that ends there, pass signals on to CMD, and when CMD ends, report its
   status on STATUS_FD and end, which ends the namespace.  */
static _Noreturn void
init_loop (pid_t cmd, int status_fd)
{
  /* unshare-run may be gone (killed without --kill-child): the status
     then has no reader, and the write fails with EPIPE, not a SIGPIPE
     (which qemu-user, for one, does not deliver to a blocked write).  */
  struct sigaction ign = { .sa_handler = SIG_IGN };
  sigemptyset (&ign.sa_mask);
  sigaction (SIGPIPE, &ign, NULL);
  for (;;)
    {
      siginfo_t si;
      if (next_signal (&wait_set, &si) != SIGCHLD)
        {
          forward (cmd, &si, !cfg.new_session);
          continue;
        }
      int status;
      pid_t pid;
      while ((pid = wait_retry (-1, &status, WNOHANG)) > 0)
        if (pid == cmd)
          {
            if (pipe_write (status_fd, &status, sizeof status) < 0)
              _exit (EXIT_FAILURE);
            _exit (EXIT_SUCCESS);
          }
    }
}

/* The child of --fork.  */
static _Noreturn void
child_main (int lifeline, int status_fd, int go)
{
  in_child = true;
  bool init = (cfg.flags & CLONE_NEWPID) && !cfg.as_pid_1;
  int death_sig = cfg.kill_child ? cfg.kill_child
                  : cfg.die_with_parent ? SIGKILL : 0;
  if (init && death_sig)
    {
      if (death_sig != SIGKILL && !sigismember (&wait_set, death_sig))
        {
          sigset_t set;
          sigemptyset (&set);
          sigaddset (&set, death_sig);
          sigaddset (&wait_set, death_sig);
          sys_rt_sigprocmask (SIG_BLOCK, &set, NULL);
        }
      /* As pid 1 of its namespace, the init takes only the signals it
         waits for: KILL, or a forwarded one that it passes on.  */
      set_death_signal (death_sig, lifeline, 0);
      lifeline = -1;
    }
  char byte;
  if (go >= 0 && pipe_read (go, &byte, 1) != 1)
    _exit (EXIT_FAILURE);
  if (cfg.mount_proc)
    mount_proc ();
  if (!init)
    exec_command (death_sig, lifeline, 0);

  pid_t cmd = fork ();
  if (cmd < 0)
    die (errno, "cannot fork");
  if (cmd == 0)
    {
      sys_close (status_fd);
      exec_command (0, -1, 0);
    }
  init_loop (cmd, status_fd);
}

static void
make_pipe (int fds[2], bool wanted)
{
  fds[0] = fds[1] = -1;
  int ret = wanted ? sys_pipe2 (fds, O_CLOEXEC) : 0;
  if (ret < 0)
    die (-ret, "cannot create a pipe");
}

static void
close_fd (int fd)
{
  if (fd >= 0)
    sys_close (fd);
}

/* --fork: run COMMAND in a child, pass signals on, end as it ended.  */
static _Noreturn void
run_forked (struct keeper *k, pid_t parent, int ns_dir)
{
  bool init = (cfg.flags & CLONE_NEWPID) && !cfg.as_pid_1;
  if (cfg.die_with_parent)
    set_death_signal (SIGKILL, -1, parent);

  /* Blocked before the child exists, no signal can be lost between its
     birth and the wait; the child gives COMMAND the original mask.  */
  default_sigchld ();
  block_signals ();

  int lifeline[2], status_pipe[2], go[2];
  make_pipe (lifeline, cfg.kill_child || cfg.die_with_parent);
  make_pipe (status_pipe, init);
  make_pipe (go, k->stage2);
  pid_t child = fork ();
  if (child < 0)
    die (errno, "cannot fork");
  if (child == 0)
    {
      close_fd (lifeline[1]);
      close_fd (status_pipe[0]);
      close_fd (go[1]);
      if (k->pid)
        {
          sys_close (k->to);
          sys_close (k->from);
        }
      child_main (lifeline[0], status_pipe[1], go[0]);
    }
  sigset_t parent_set;
  parent_signals (&parent_set);
  /* lifeline[1] stays open as long as unshare-run lives.  */
  close_fd (lifeline[0]);
  close_fd (status_pipe[1]);
  close_fd (go[0]);

  /* A PID namespace can be persisted once its first process exists.  */
  if (k->pid)
    {
      if (pipe_write (k->to, "", 1) != 1 || !keeper_wait (k))
        {
          kill (child, SIGKILL);
          wait_retry (child, NULL, 0);
          leave (EXIT_FAILURE);
        }
      pipe_write (go[1], "", 1);
      close_fd (go[1]);
    }
  json_start (child, ns_dir);

  int status;
  for (;;)
    {
      siginfo_t si;
      if (next_signal (&parent_set, &si) != SIGCHLD)
        {
          /* The init stays in our process group; COMMAND itself leaves
             it with --new-session.  */
          forward (child, &si, init || !cfg.new_session);
          continue;
        }
      pid_t pid = wait_retry (child, &status, WNOHANG);
      if (pid == child)
        break;
      if (pid < 0)
        die (errno, "cannot wait for the child");
    }
  if (init)
    {
      int cmd_status;
      if (pipe_read (status_pipe[0], &cmd_status, sizeof cmd_status)
          == sizeof cmd_status)
        status = cmd_status;
    }
  json_exit (status);
  if (WIFSIGNALED (status))
    die_by_signal (WTERMSIG (status));
  leave (WEXITSTATUS (status));
}

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  /* Set-user-ID, unshare-run would create namespaces, and map ids, for
     anyone: refuse.  AT_SECURE covers file capabilities too.  */
  if (getauxval (AT_SECURE) || getuid () != geteuid ()
      || getgid () != getegid ())
    error (EXIT_FAILURE, 0, "refusing to run set-user-ID, set-group-ID or "
           "with file capabilities: install it as a plain program");

  parse_options (argc, argv);
  check_options ();

  int ret = sys_rt_sigprocmask (SIG_SETMASK, NULL, &orig_mask);
  if (ret < 0)
    die (-ret, "cannot read the signal mask");
  pid_t parent = getppid ();

  persist_open ();
  struct keeper keeper;
  keeper_start (&keeper);
  persist_close ();

#ifdef LEAK_CHECK_AT_EXIT
  if (cfg.flags & CLONE_NEWPID)
    own_pid_ns = sys_openat (AT_FDCWD, "/proc/self/ns/pid",
                             O_RDONLY | O_CLOEXEC, 0);
#endif
  ret = sys_unshare (cfg.flags);
  if (ret < 0)
    {
      persist_unmake ();
      unshare_failed (ret);
    }
#ifdef LEAK_CHECK_AT_EXIT
  pid_ns_unshared = cfg.flags & CLONE_NEWPID;
#endif
  keeper_stage1 (&keeper);

  int ns_dir = -1;
  set_up (&ns_dir);

  if (cfg.fork)
    run_forked (&keeper, parent, ns_dir);

  json_start (getpid (), ns_dir);
  if (cfg.mount_proc)
    mount_proc ();
  exec_command (cfg.die_with_parent ? SIGKILL : 0, -1, parent);
}
