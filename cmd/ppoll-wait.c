/* ppoll-wait -- wait until descriptors are ready, a process has ended
   (pidfd_open), a path exists, is gone or is closed after writing
   (inotify), or a signal arrives, the signal mask applied by the kernel
   for the wait alone (ppoll, pselect6, rt_sigsuspend); then, given a
   COMMAND, become it with the operands open on descriptors 3, 4...

   SYNOPSIS: ppoll-wait [OPTION]... TARGET... [-- COMMAND [ARG]...]  */

#include <config.h>

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>

#include "cli/common.h"
#include "cli/duration.h"
#include "cli/shortpath.h"
#include "cli/siglist.h"
#include "error.h"
#include "exec/status.h"
#include "progname.h"
#include "sys/calls.h"
#include "wait/kill.h"
#include "wait/loop.h"
#include "wait/pathwatch.h"
#include "wait/pidfd.h"
#include "wait/report.h"
#include "wait/signals.h"
#include "wait/target.h"
#include "xalloc.h"

/* timeout(1)'s status for a timeout; a signal N gives 128 + N, as the
   shell reports a command killed by N.  */
#define EXIT_TIMEDOUT 124
#define EXIT_SIGNAL_BASE 128

enum { OPT_SIGNAL = 1, OPT_IGNORE, OPT_EXISTS, OPT_GONE, OPT_CLOSED,
       OPT_KILL };

/* A path option, in command-line order.  */
struct path_arg
{
  char *path;
  enum pathwatch_event event;
};

/* The command line.  */
static struct
{
  int read, write, pri, hup;   /* the poll events to wait for */
  int all;
  char *timeout_arg;           /* --timeout's DURATION */
  struct timespec *timeout;    /* it, NULL if none or infinite */
  struct timespec timeout_buf;
  bool timeout_infinite;       /* --timeout=inf */
  int remaining, select, quiet, json, follow;
  short events;                /* what --read... say, for poll */
  sigset_t wake;               /* --signal */
  sigset_t ignore;             /* --ignore */
  struct path_arg *paths;      /* --exists, --gone, --closed */
  size_t n_paths;
  const char **operands;       /* the TARGETs */
  size_t n_operands;
  char **command;              /* after "--"; NULL without */
  int status;                  /* --status */
  int kill_signal;             /* --kill, or 0 */
  char *kill_after_arg;        /* --kill-after's DURATION */
  struct timespec kill_after;
  char *count_arg;             /* --count */
  size_t count;
  char *ready_fd_arg;          /* --ready-fd */
  int ready_fd;                /* it, or -1 */
  struct timespec start;       /* wait_start_time, with --closed */
  bool start_set;
} opts = { .ready_fd = -1 };

static struct poptOption tool_options[] = {
  { "read", 'r', POPT_ARG_NONE, &opts.read, 0,
    "wait until a target is readable (the default)", NULL },
  { "write", 'w', POPT_ARG_NONE, &opts.write, 0,
    "wait until a target is writable", NULL },
  { "pri", '\0', POPT_ARG_NONE, &opts.pri, 0,
    "wait for priority data (POLLPRI)", NULL },
  { "hup", '\0', POPT_ARG_NONE, &opts.hup, 0,
    "wait for a hang-up: the other end closed", NULL },
  { "all", 'a', POPT_ARG_NONE, &opts.all, 0,
    "wait until every target is ready (default: any)", NULL },
  { "timeout", 't', POPT_ARG_STRING, &opts.timeout_arg, 0,
    "give up DURATION (250ms, 1.5, 1m30s, inf...) after the wait starts, "
    "time stopped included: exit 124", "DURATION" },
  { "remaining", '\0', POPT_ARG_NONE, &opts.remaining, 0,
    "print the time left of the timeout", NULL },
  { "signal", 's', POPT_ARG_STRING, NULL, OPT_SIGNAL,
    "wake up on these signals, blocked outside the wait: exit 128+N",
    "SIG[,SIG]..." },
  { "ignore", '\0', POPT_ARG_STRING, NULL, OPT_IGNORE,
    "keep these signals blocked during the wait too", "SIG[,SIG]..." },
  { "exists", '\0', POPT_ARG_STRING, NULL, OPT_EXISTS,
    "wait until PATH exists, even below directories made later (a "
    "dangling link exists without --follow)", "PATH" },
  { "gone", '\0', POPT_ARG_STRING, NULL, OPT_GONE,
    "wait until PATH does not exist", "PATH" },
  { "closed", '\0', POPT_ARG_STRING, NULL, OPT_CLOSED,
    "wait until the file at PATH is closed after writing, or a complete "
    "one is renamed into place", "PATH" },
  { "count", 'c', POPT_ARG_STRING, &opts.count_arg, 0,
    "wait until N targets are ready", "N" },
  { "status", '\0', POPT_ARG_NONE, &opts.status, 0,
    "exit with the status of the pid: target that ended the wait "
    "(128+N for signal N)", NULL },
  { "kill", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_KILL,
    "at the timeout, send SIG (TERM) to the pid: targets not ended, "
    "then wait for their end", "SIG" },
  { "kill-after", '\0', POPT_ARG_STRING, &opts.kill_after_arg, 0,
    "with --kill, send KILL to those still there DURATION later: exit "
    "137", "DURATION" },
  { "ready-fd", '\0', POPT_ARG_STRING, &opts.ready_fd_arg, 0,
    "write a line to descriptor FD once every watch is set", "FD" },
  { "follow", '\0', POPT_ARG_NONE, &opts.follow, 0,
    "follow a symbolic link at the end of those PATHs", NULL },
  { "select", '\0', POPT_ARG_NONE, &opts.select, 0,
    "wait with pselect6 instead of ppoll", NULL },
  { "quiet", 'q', POPT_ARG_NONE, &opts.quiet, 0,
    "print nothing, only exit with the status", NULL },
  { "json", '\0', POPT_ARG_NONE, &opts.json, 0,
    "print the outcome as one JSON object", NULL },
  POPT_TABLEEND
};

static struct poptOption options[] = {
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, tool_options, 0,
    "Wait until a TARGET is ready or one of the --signal signals arrives; "
    "the signals are unblocked only inside the wait, by the kernel, so none "
    "is lost.  A TARGET is a descriptor number (3) or a file, opened "
    "non-blocking: a FIFO, a device, a regular file, a Unix socket; or "
    "pid:N, any process, ready once it has ended.  --exists, --gone and "
    "--closed add PATHs as targets, which need not exist yet.  Print "
    "a line per ready target: its name and events (3 in, pid:42 exit, "
    "PATH exists).  With -- "
    "COMMAND, print nothing but run COMMAND once ready, the targets open "
    "on descriptors 3, 4... (blocking), the ready ones listed in "
    "$PPOLL_WAIT_READY: no data is lost.\n\n"
    "Exit status: 0 ready, or COMMAND's, or with --status the process's "
    "(128+N if killed by signal N); 124 timed out (--kill's signal sent); "
    "137 timed out and KILL sent; 128+N woken by signal N; 126 COMMAND "
    "cannot run, 127 COMMAND not found; 1 failure, 2 usage error."
    "\n\nOptions:", NULL },
  CLI_COMMON_OPTIONS
};

/* The signals of a --signal or --ignore list, added to *SET.  Names are
   taken in either case, with or without SIG, and numbers too.  */
static void
parse_signals (const char *option, const char *list, sigset_t *set)
{
  char *copy = xstrdup (list);
  char *item;
  switch (siglist_parse (copy, set, &item))
    {
    case SIGLIST_OK:
      break;
    case SIGLIST_UNKNOWN:
      cli_usage_error ("invalid signal for --%s: %s", option,
                       quote_file (item));
    case SIGLIST_UNCATCHABLE:
      cli_usage_error ("--%s: %s cannot be caught or blocked", option,
                       quote_file (item));
    }
  free (copy);
}

/* The signal of --kill[=SIG]: TERM without SIG.  */
static int
parse_kill_signal (const char *arg)
{
  if (!arg || !*arg)
    return SIGTERM;
  int sig = siglist_parse_one (arg);
  if (!sig)
    cli_usage_error ("invalid signal for --kill: %s", quote_file (arg));
  return sig;
}

/* The targets of the operands, then of the path options, opened.  */
static struct target *
get_targets (void)
{
  size_t n = opts.n_operands, n_targets = n + opts.n_paths;
  struct target *t = xcalloc (n_targets, sizeof *t);
  for (size_t i = 0; i < n; i++)
    t[i].name = opts.operands[i];
  for (size_t i = 0; i < opts.n_paths; i++)
    t[n + i] = (struct target) { .name = opts.paths[i].path,
                                 .kind = TARGET_PATH,
                                 .path_event = opts.paths[i].event };
  struct target *failed;
  int ret = targets_open (t, n_targets, opts.events, opts.follow,
                         opts.start_set ? &opts.start : NULL, &failed);
  if (ret < 0)
    wait_target_failed (failed, ret);
  if (opts.select)
    for (size_t i = 0; i < n_targets; i++)
      if (t[i].fd >= FD_SETSIZE)
        {
          char what[128] = "";
          if (target_descriptor_number (t[i].name) < 0)
            snprintf (what, sizeof what, "%s is ", quote_file (t[i].name));
          error (EXIT_FAILURE, 0, "--select: %sdescriptor %d is not below "
                 "FD_SETSIZE (%d); wait for it without --select", what,
                 t[i].fd, FD_SETSIZE);
        }
  return t;
}

/* The COMMAND of ARGV: the words after its first "--", which ends the
   targets; NULL without one.  *OPTIONS_ARGC is the number of the words
   before it, the only ones popt parses.  No option takes "--" for its
   argument: in "-t -- ...", popt finds -t without one.  */
static char **
split_command (int argc, char **argv, int *options_argc)
{
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--") == 0)
      {
        *options_argc = i;
        return argv + i + 1;
      }
  *options_argc = argc;
  return NULL;
}

/* Become COMMAND, the N operands' targets of T open on descriptors 3 to
   2 + N by targets_pass (a path target is not a descriptor to pass on),
   the ready ones listed in $PPOLL_WAIT_READY ("3 5").  */
static _Noreturn void
run_command (const struct target *t, size_t n, const sigset_t *inherited_mask)
{
  char *ready;
  const struct target *failed;
  int fd;
  int ret = targets_pass (t, n, &ready, &failed, &fd);
  if (ret < 0 && fd < 0)
    error (EXIT_FAILURE, -ret, "cannot pass %s to the command",
           quote_file (short_path (failed->name)));
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot pass %s on descriptor %d",
           quote_file (short_path (failed->name)), fd);
  if (setenv ("PPOLL_WAIT_READY", ready, 1) != 0)
    error (EXIT_FAILURE, errno, "cannot set PPOLL_WAIT_READY");
  free (ready);
  const char *what;
  ret = wait_restore_signals (&opts.ignore, inherited_mask, &what);
  if (ret < 0 && !what)
    error (EXIT_FAILURE, -ret, "cannot discard a signal");
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot restore %s", what);
  char **command = opts.command;
  execvp (command[0], command);
  int err = errno;
  int status = exec_failure_status (command[0], &err);
  error (0, err, "cannot run %s", quote_file (command[0]));
  exit (status);
}

/* Whether a TARGET operand is pid:N.  */
static bool
has_process_operand (void)
{
  for (size_t i = 0; i < opts.n_operands; i++)
    if (target_pid_number (opts.operands[i]) > 0)
      return true;
  return false;
}

/* The options about processes and counts, parsed and checked.  */
static void
check_process_usage (void)
{
  size_t n_targets = opts.n_operands + opts.n_paths;
  if (opts.count_arg)
    {
      opts.count = cli_parse_number ("count", "count", opts.count_arg,
                                     SIZE_MAX, 0);
      if (opts.all)
        cli_usage_error ("--count and --all are mutually exclusive");
      if (opts.count == 0 || opts.count > n_targets)
        cli_usage_error ("--count=%s: there are %zu targets",
                         opts.count_arg, n_targets);
    }
  if (opts.status && !has_process_operand ())
    cli_usage_error ("--status needs a pid:N target");
  if (opts.status && opts.command)
    cli_usage_error ("--status cannot be used with a COMMAND");
  if (opts.kill_signal && !has_process_operand ())
    cli_usage_error ("--kill needs a pid:N target");
  if (opts.kill_signal && !opts.timeout_arg)
    cli_usage_error ("--kill needs --timeout");
  if (opts.kill_after_arg && !opts.kill_signal)
    cli_usage_error ("--kill-after needs --kill");
  if (opts.ready_fd_arg)
    opts.ready_fd = cli_parse_number ("ready-fd", "descriptor",
                                      opts.ready_fd_arg, INT_MAX, 0);
}

/* The options that do not go together, no target without a signal to
   wait for, or before a COMMAND, and no "--" without a COMMAND.  */
static void
check_usage (void)
{
  size_t n = opts.n_operands;
  char **command = opts.command;
  if (command && !command[0])
    cli_usage_error ("missing command after '--'");
  if (command && n + opts.n_paths == 0)
    cli_usage_error ("missing target operand before '--'");
  if (n + opts.n_paths == 0 && siglist_empty (&opts.wake))
    cli_usage_error ("missing target operand");
  for (size_t i = 0; i < n; i++)
    if (target_pid_number (opts.operands[i]) < 0)
      cli_usage_error ("invalid process %s: pid:N wants N from 1 to %d "
                       "(a file of that name: ./ before it)",
                       quote_file (opts.operands[i]), INT_MAX);
  if (opts.follow && opts.n_paths == 0)
    cli_usage_error ("--follow needs --exists, --gone or --closed");
  for (int sig = 1; sig < NSIG; sig++)
    if (sigismember (&opts.wake, sig) == 1
        && sigismember (&opts.ignore, sig) == 1)
      {
        char buf[SIG2STR_MAX];
        cli_usage_error ("signal %s is given to both --signal and --ignore",
                         siglist_name (sig, buf));
      }
  if (opts.quiet && opts.json)
    cli_usage_error ("--quiet and --json are mutually exclusive");
  if (opts.select && opts.hup)
    cli_usage_error ("--hup cannot be used with --select: select(2) has no "
                     "hang-up set");
  if (opts.remaining && !opts.timeout_arg)
    cli_usage_error ("--remaining needs --timeout");
  check_process_usage ();
  /* COMMAND's standard output is its own.  */
  if (command && opts.json)
    cli_usage_error ("--json cannot be used with a COMMAND");
  if (command && opts.remaining)
    cli_usage_error ("--remaining cannot be used with a COMMAND");
}

/* The DURATION ARG of --OPTION into *TS; return whether it is
   infinite (*TS then unset).  */
static bool
parse_duration_arg (const char *option, const char *arg, struct timespec *ts)
{
  struct duration d;
  char why[DURATION_MESSAGE_SIZE];
  if (duration_parse (arg, &d) != DURATION_OK)
    cli_usage_error ("invalid duration %s for --%s: %s", quote_file (arg),
                     option, duration_message (&d, arg, why));
  if (!d.infinite)
    *ts = d.ts;
  return d.infinite;
}

/* The --timeout duration into opts.timeout; NULL without the option or
   with an infinite duration (then timeout_infinite is set), which waits
   as long as no option.  The same for --kill-after, whose infinite
   duration sends no KILL.  */
static void
parse_timeout (void)
{
  if (opts.kill_after_arg
      && parse_duration_arg ("kill-after", opts.kill_after_arg,
                             &opts.kill_after))
    opts.kill_after_arg = NULL;
  if (!opts.timeout_arg)
    return;
  opts.timeout_infinite = parse_duration_arg ("timeout", opts.timeout_arg,
                                              &opts.timeout_buf);
  if (!opts.timeout_infinite)
    opts.timeout = &opts.timeout_buf;
}

/* What main allocates, reachable from here until the exit: a COMMAND that
   cannot run ends the process inside run_command, where LeakSanitizer
   would otherwise count what only main's frame held as leaked.  */
static poptContext ctx;
static struct target *targets;

/* The command line, into opts.  */
static void
parse_command_line (int argc, char **argv)
{
  int options_argc;
  opts.command = split_command (argc, argv, &options_argc);
  /* --kill takes its SIG only as --kill=SIG: "--kill pid:1" waits for
     pid 1.  */
  ctx = cli_context_flags (options_argc, argv, options,
                           "[OPTION]... TARGET... [-- COMMAND [ARG]...]",
                           CLI_OPTIONAL_AFTER_EQUALS);
  sigemptyset (&opts.wake);
  sigemptyset (&opts.ignore);
  size_t paths_alloc = 0;
  int opt;
  while ((opt = cli_next_option (ctx)) >= 0)
    {
      char *arg = poptGetOptArg (ctx);
      if (opt == OPT_SIGNAL)
        parse_signals ("signal", arg, &opts.wake);
      else if (opt == OPT_IGNORE)
        parse_signals ("ignore", arg, &opts.ignore);
      else if (opt == OPT_KILL)
        opts.kill_signal = parse_kill_signal (arg);
      else if (opt == OPT_EXISTS || opt == OPT_GONE || opt == OPT_CLOSED)
        {
          if (opts.n_paths == paths_alloc)
            opts.paths = x2nrealloc (opts.paths, &paths_alloc,
                                     sizeof *opts.paths);
          opts.paths[opts.n_paths++] = (struct path_arg) {
            arg, (opt == OPT_EXISTS ? PATHWATCH_EXISTS
                  : opt == OPT_GONE ? PATHWATCH_GONE : PATHWATCH_CLOSED) };
          continue;     /* the target's name: freed at the end */
        }
      free (arg);
    }
  opts.operands = poptGetArgs (ctx);
  while (opts.operands && opts.operands[opts.n_operands])
    opts.n_operands++;
  check_usage ();
  parse_timeout ();
  opts.events = ((opts.read ? POLLIN : 0) | (opts.write ? POLLOUT : 0)
                 | (opts.pri ? POLLPRI : 0) | (opts.hup ? POLLRDHUP : 0));
  if (!opts.events)
    opts.events = POLLIN;
}

/* Block the --signal and --ignore signals from now on, and catch the
   --signal ones; *INHERITED the mask before, *MASK the wait's.  */
static void
setup_signals (sigset_t *inherited, sigset_t *mask)
{
  int sig;
  int ret = wait_block_signals (&opts.wake, &opts.ignore, inherited, mask);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot block signals");
  ret = wait_catch_signals (&opts.wake, &sig);
  if (ret < 0)
    {
      char buf[SIG2STR_MAX];
      error (EXIT_FAILURE, -ret, "cannot catch signal %s",
             siglist_name (sig, buf));
    }
}

/* Exit on the failure ERR of the wait, as wait_run reports it: of the
   target FAILED, else of the wait itself.  */
static _Noreturn void
wait_failed (const struct target *failed, int err)
{
  if (failed)
    wait_watch_failed (failed->watch, err);
  if (opts.n_operands + opts.n_paths == 0)
    error (EXIT_FAILURE, -err, "cannot wait for signals");
  error (EXIT_FAILURE, -err, "cannot wait (%s)",
         opts.select ? "pselect6" : "ppoll");
  abort ();
}

/* --status: exit now if this kernel cannot give a process's status.  */
static void
check_status_kept (void)
{
  int kept = process_status_kept ();
  if (kept < 0)
    error (EXIT_FAILURE, -kept, "--status: cannot tell whether this kernel "
           "keeps exit statuses for others");
  if (!kept)
    error (EXIT_FAILURE, 0, "--status: this kernel does not give the exit "
           "status of a process to others than its parent "
           "(PIDFD_INFO_EXIT: Linux 6.15 or later)");
}

/* At the deadline, the --kill signal to the processes not ended; return
   the last signal sent, or 0.  */
static int
kill_processes (struct target *t, size_t n, const sigset_t *mask)
{
  struct wait_kill k = {
    .signal = opts.kill_signal, .mask = mask,
    .grace = opts.kill_after_arg ? &opts.kill_after : NULL,
    .status = opts.status };
  struct target *failed;
  int ret = wait_kill (t, n, &k, &failed);
  char buf[SIG2STR_MAX];
  if (ret == -EPERM)
    error (EXIT_FAILURE, -ret, "cannot send %s to %s",
           siglist_name (opts.kill_signal, buf), failed->name);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot kill %s", failed->name);
  return ret;
}

/* The exit status of a wait that ended with OUTCOME: with --status and
   a process ready, the first such process's.  */
static int
exit_status (int outcome, int killed)
{
  if (killed == SIGKILL)
    return EXIT_SIGNAL_BASE + SIGKILL;
  if (outcome == WAIT_TIMEOUT)
    return EXIT_TIMEDOUT;
  if (outcome == WAIT_SIGNAL)
    return EXIT_SIGNAL_BASE + wait_caught_signal ();
  for (size_t i = 0; opts.status && i < opts.n_operands; i++)
    {
      const struct target *t = &targets[i];
      if (t->kind != TARGET_PROCESS || !t->revents)
        continue;
      if (t->status != PROCESS_STATUS_KNOWN)
        error (EXIT_FAILURE, 0, "the status of %s is unknown", t->name);
      return (WIFEXITED (t->wstatus) ? WEXITSTATUS (t->wstatus)
              : EXIT_SIGNAL_BASE + WTERMSIG (t->wstatus));
    }
  return EXIT_SUCCESS;
}

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  parse_command_line (argc, argv);
  /* A file changed since then is no older than the wait: read for
     --closed alone.  */
  for (size_t i = 0; i < opts.n_paths && !opts.start_set; i++)
    if (opts.paths[i].event == PATHWATCH_CLOSED)
      {
        wait_start_time (&opts.start);
        opts.start_set = true;
      }
  if (opts.status)
    check_status_kept ();

  /* From here on, a --signal signal can only be delivered inside the
     wait: one sent while the targets are opened waits, pending, for the
     wait to unblock it.  */
  sigset_t inherited_mask, mask;
  setup_signals (&inherited_mask, &mask);
  targets = get_targets ();
  int ret;
  if (opts.ready_fd >= 0 && (ret = wait_print_ready (opts.ready_fd)) < 0)
    error (EXIT_FAILURE, -ret, "--ready-fd=%d", opts.ready_fd);
  ret = (opts.timeout
         ? wait_count_stops (&opts.wake, &opts.ignore, &mask) : 0);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot catch signal CONT");
  size_t n = opts.n_operands, n_targets = n + opts.n_paths;
  struct wait_request w = {
    .targets = targets, .n_targets = n_targets, .events = opts.events,
    .all = opts.all, .count = opts.count, .select = opts.select,
    .mask = &mask, .timeout = opts.timeout, .status = opts.status };
  struct target *failed;
  int outcome = wait_run (&w, &failed);
  if (outcome < 0)
    wait_failed (failed, outcome);
  int killed = (outcome == WAIT_TIMEOUT && opts.kill_signal
                ? kill_processes (targets, n, &mask) : 0);

  if (opts.command && outcome == WAIT_READY)
    run_command (targets, n, &inherited_mask);
  struct wait_report r = {
    .targets = targets, .n_targets = n_targets, .outcome = outcome,
    .exit_status = exit_status (outcome, killed), .killed_with = killed,
    .signal = outcome == WAIT_SIGNAL ? wait_caught_signal () : 0,
    .remaining = opts.timeout, .infinite = opts.timeout_infinite };
  if (opts.json)
    {
      if (!opts.status)
        process_read_statuses (targets, n);
      wait_print_json (&r);
    }
  else if (!opts.quiet && !opts.command)
    wait_print_lines (&r, opts.remaining);
  for (size_t i = 0; i < opts.n_paths; i++)
    {
      pathwatch_free (targets[n + i].watch);
      free (opts.paths[i].path);
    }
  free (opts.paths);
  free (targets);
  poptFreeContext (ctx);
  return r.exit_status;
}
