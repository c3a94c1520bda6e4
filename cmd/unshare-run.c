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
   - with mount steps (--bind, --tmpfs..., bubblewrap's options), the
     process that becomes COMMAND, or its init, builds a new root from
     them after --mount-proc and enters it;
   - a "keeper", forked before unshare(2) so that it stays in the original
     namespaces, writes the new user namespace's id maps (a process of the
     parent user namespace may do what the new one cannot) and bind-mounts
     the namespaces to persist.  It exists only when there is such work.

   The mechanisms are in lib/ns/: run.c (setting up, the processes),
   process.c (what they share), keeper.c, sandbox.c and steps.c (the
   options in bubblewrap's names, their mount steps); this file is the
   command line, its checks, and the order of the steps.  */

#include <config.h>

#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mount.h>
#include <unistd.h>

#include "cli/common.h"
#include "cli/features.h"
#include "cli/number.h"
#include "error.h"
#include "ns/confine.h"
#include "ns/keeper.h"
#include "ns/kinds.h"
#include "ns/process.h"
#include "ns/run.h"
#include "ns/steps.h"
#include "progname.h"
#include "sig2str.h"
#include "sys/calls.h"
#include "xalloc.h"

/* --- options ----------------------------------------------------------- */

enum
{
  /* OPT_NS + i: the namespace ns_table[i].  */
  OPT_NS = 1,
  OPT_ALL = OPT_NS + NS_KINDS,
  OPT_FS, OPT_FILES, OPT_SYSVSEM,
  OPT_MAP_ROOT, OPT_MAP_CURRENT, OPT_MAP_USER, OPT_MAP_GROUP, OPT_SETGROUPS,
  OPT_SETUID, OPT_SETGID, OPT_KEEP_CAPS,
  OPT_FORK, OPT_MOUNT_PROC, OPT_PROPAGATION, OPT_ROOT, OPT_WD, OPT_HOSTNAME,
  OPT_MONOTONIC, OPT_BOOTTIME,
  OPT_KILL_CHILD, OPT_DIE_WITH_PARENT, OPT_NEW_SESSION, OPT_NO_NEW_PRIVS,
  OPT_NEW_PRIVS, OPT_AS_PID_1, OPT_FORWARD_SIGNALS, OPT_JSON_STATUS_FD
};

/* An argument that may be given only as --NAME=ARG.  */
#define OPTIONAL_ARG (POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL)

/* The namespace options: first one for each kind of ns_table, in its
   order (OPT_NS + index), which fill_ns_options writes; then the others.  */
static struct poptOption ns_options[] = {
  [NS_KINDS] = { "all", '\0', POPT_ARG_NONE, NULL, OPT_ALL,
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
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, ns_sandbox_no_options, 0,
    ns_sandbox_help, NULL },
  CLI_COMMON_OPTIONS
};

/* What the command line asks for.  */
static struct ns_run cfg = {
  .propagation = MS_REC | MS_PRIVATE,
  .no_new_privs = -1,
  .json_fd = -1,
};
/* --all: every kind the kernel offers, found in check_options.  */
static bool all_kinds;

/* The context of the command line: it lives as long as the program,
   since COMMAND's words stay in it.  */
static poptContext ctx;

/* --- option parsing ---------------------------------------------------- */

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

/* An option of user_options, with its argument ARG.  */
static void
user_option (int opt, const char *arg)
{
  switch (opt)
    {
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
      {
        static const char *const keywords[] = { "allow", "deny", NULL };
        cfg.setgroups = cli_keyword ("setgroups", arg, keywords) == 0
                        ? NS_SETGROUPS_ALLOW : NS_SETGROUPS_DENY;
      }
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
    default:
      break;
    }
}

/* --propagation=ARG: a keyword, and the mount flags it stands for.  */
static const char *const propagation_names[] = {
  "private", "slave", "shared", "unchanged", NULL
};
static const unsigned long propagation_flags[] = {
  MS_REC | MS_PRIVATE, MS_REC | MS_SLAVE, MS_REC | MS_SHARED, 0
};

/* An option of process_options that keeps its argument *ARG, which is
   then its own (*ARG becomes NULL).  Return false for any other.  */
static bool
process_string_option (int opt, char **arg)
{
  switch (opt)
    {
    case OPT_MOUNT_PROC:
      cfg.flags |= CLONE_NEWNS;
      take (&cfg.mount_proc, *arg ? *arg : xstrdup ("/proc"));
      break;
    case OPT_ROOT:
      take (&cfg.root, *arg);
      break;
    case OPT_WD:
      take (&cfg.wd, *arg);
      break;
    case OPT_HOSTNAME:
      /* sethostname(2) would take it, leaving a host with no name.  */
      if (!**arg)
        cli_usage_error ("invalid --hostname '': empty host name");
      take (&cfg.hostname, *arg);
      break;
    default:
      return false;
    }
  *arg = NULL;
  return true;
}

/* Any other option of process_options, with its argument ARG.  */
static void
process_option (int opt, const char *arg)
{
  switch (opt)
    {
    case OPT_FORK:
      cfg.fork = true;
      break;
    case OPT_PROPAGATION:
      {
        size_t i = cli_keyword ("propagation", arg, propagation_names);
        cfg.propagation = propagation_flags[i];
        cfg.propagation_name = propagation_names[i];
      }
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
    case OPT_NEW_PRIVS:
      cfg.no_new_privs = opt == OPT_NO_NEW_PRIVS;
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
      user_option (opt, arg);
      break;
    }
}

/* An option of ns_options; ARG, that of --NS=FILE, becomes its own.  */
static void
ns_option (int opt, char *arg)
{
  if (opt >= OPT_NS && opt < OPT_NS + NS_KINDS)
    {
      cfg.flags |= ns_table[opt - OPT_NS].flag;
      if (arg)
        take (&cfg.persist[opt - OPT_NS], arg);
      return;
    }
  free (arg);
  if (opt == OPT_ALL)
    all_kinds = true;
  else if (opt == OPT_FS)
    cfg.flags |= CLONE_FS;
  else if (opt == OPT_FILES)
    cfg.flags |= CLONE_FILES;
  else if (opt == OPT_SYSVSEM)
    cfg.flags |= CLONE_SYSVSEM;
}

/* The rows of ns_options for the kinds of ns_table, made from the table:
   its option names and help.  */
static void
fill_ns_options (void)
{
  for (int i = 0; i < NS_KINDS; i++)
    ns_options[i] = (struct poptOption) {
      ns_table[i].option, ns_table[i].short_option, OPTIONAL_ARG, NULL,
      OPT_NS + i, ns_table[i].help, "FILE"
    };
}

/* Without COMMAND, a login shell, as unshare(1) and login(1) start it:
   its name with a '-' in front, and no search of $PATH.  */
static void
default_command (void)
{
  static char *shell[2];
  const char *sh = getenv ("SHELL");
  cfg.file = (char *) (sh && *sh ? sh : "/bin/sh");
  const char *slash = strrchr (cfg.file, '/');
  const char *name = slash ? slash + 1 : cfg.file;
  shell[0] = xcharalloc (strlen (name) + 2);
  shell[0][0] = '-';
  strcpy (shell[0] + 1, name);
  cfg.command = shell;
}

static void
parse_options (int argc, char **argv)
{
  fill_ns_options ();
  /* First, those popt cannot read: two words after one option.  */
  ns_sandbox_take_popt (&cfg.sandbox, &argc, &argv, options);
  /* As unshare(1): -n, --net and -nf take no FILE, only --net=FILE does;
     options end at COMMAND.  */
  ctx = cli_context_flags (argc, argv, options,
                           "[OPTION]... [--] [COMMAND [ARG]...]",
                           CLI_OPTIONAL_AFTER_EQUALS | CLI_STOP_AT_OPERAND);

  int opt;
  while ((opt = cli_next_option (ctx)) >= 0)
    {
      char *arg = poptGetOptArg (ctx);
      /* An empty argument: the option written without '=', no argument.  */
      if (arg && !*arg
          && (opt < OPT_NS + NS_KINDS || opt == OPT_MOUNT_PROC
              || opt == OPT_KILL_CHILD))
        take (&arg, NULL);
      if (opt <= OPT_SYSVSEM)
        ns_option (opt, arg);
      else if (!process_string_option (opt, &arg))
        {
          process_option (opt, arg);
          free (arg);
        }
    }

  const char **rest = poptGetArgs (ctx);
  if (rest)
    cfg.command = (char **) rest;
  else
    default_command ();
}

/* Options that only make sense with others: usage errors that say what
   to add.  Then the implications.  */
static void
check_options (void)
{
  if (all_kinds)
    {
      int offered = ns_flags_available (ns_flags_known ());
      cfg.flags |= offered;
      /* --all's user namespace maps you to yourself, as -c does.  */
      if ((offered & CLONE_NEWUSER) && !cfg.map_uid_set && !cfg.map_gid_set)
        user_option (OPT_MAP_CURRENT, NULL);
    }
  if (cfg.map_uid_set || cfg.map_gid_set)
    cfg.flags |= CLONE_NEWUSER;
  ns_steps_check (&cfg);

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
  if (cfg.setgroups != NS_SETGROUPS_UNSET && !(cfg.flags & CLONE_NEWUSER))
    cli_usage_error ("--setgroups needs a new user namespace: add -U");
  if (cfg.as_pid_1 && !(cfg.flags & CLONE_NEWPID))
    cli_usage_error ("--as-pid-1 needs a new PID namespace: add -p");

  /* A new PID namespace takes its first process from fork(); the others
     need a child to signal or forward to, or to be other than a process
     group leader (setsid fails in one, and shells make every job one).  */
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
  ns_sandbox_check_process (&cfg);
}

/* --- setting up -------------------------------------------------------- */

static _Noreturn void
unshare_failed (int err)
{
  const char *trouble = cli_call_trouble ("unshare", err);
  if (trouble)
    ns_run_fail (0, "%s", trouble);
  char why[256];
  ns_explain_unshare (cfg.flags, err, why, sizeof why);
  if (!why[0])
    ns_run_fail (-err, "unshare failed");
  ns_run_fail (0, "%s", why);
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

  ns_run_save_signals ();
  pid_t parent = getppid ();

  struct ns_keeper keeper;
  ns_keeper_open_files (&cfg, &keeper);
  ns_keeper_start (&cfg, &keeper);
  ns_keeper_close_files (&keeper);

  int ret = ns_run_unshare (cfg.flags);
  if (ret < 0)
    {
      ns_keeper_unmake_files (&keeper);
      unshare_failed (ret);
    }
  ns_keeper_stage1 (&keeper);

  int ns_dir = -1;
  ns_run_set_up (&cfg, &ns_dir);

  if (cfg.fork)
    ns_run_forked (&cfg, &keeper, parent, ns_dir);

  ns_run_json_start (&cfg, getpid (), ns_dir);
  if (cfg.mount_proc)
    ns_run_mount_proc (&cfg);
  ns_steps_mount (&cfg);
  ns_run_exec (&cfg, cfg.die_with_parent ? SIGKILL : 0, -1, parent);
}
