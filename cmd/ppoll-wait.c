/* ppoll-wait -- wait until descriptors are ready, a process has ended
   (pidfd_open), a path exists, is gone or is closed after writing
   (inotify), or a signal arrives, the signal mask applied by the kernel
   for the wait alone (ppoll, pselect6, rt_sigsuspend); then, given a
   COMMAND, become it with the operands open on descriptors 3, 4...

   SYNOPSIS: ppoll-wait [OPTION]... TARGET... [-- COMMAND [ARG]...]  */

#include <config.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/common.h"
#include "cli/duration.h"
#include "cli/json.h"
#include "cli/siglist.h"
#include "error.h"
#include "exec/inherit.h"
#include "exec/status.h"
#include "progname.h"
#include "sys/calls.h"
#include "wait/pathwatch.h"
#include "wait/selectpoll.h"
#include "wait/target.h"
#include "xalloc.h"

/* timeout(1)'s status for a timeout; a signal N gives 128 + N, as the
   shell reports a command killed by N.  */
#define EXIT_TIMEDOUT 124
#define EXIT_SIGNAL_BASE 128

enum { OPT_SIGNAL = 1, OPT_IGNORE, OPT_EXISTS, OPT_GONE, OPT_CLOSED };

static int want_read;
static int want_write;
static int want_pri;
static int want_hup;
static int all;
static char *timeout_arg;
static bool timeout_infinite;   /* --timeout=inf */
static int remaining;
static int use_select;
static int quiet;
static int json;
static int follow;

static struct poptOption tool_options[] = {
  { "read", 'r', POPT_ARG_NONE, &want_read, 0,
    "wait until a target is readable (the default)", NULL },
  { "write", 'w', POPT_ARG_NONE, &want_write, 0,
    "wait until a target is writable", NULL },
  { "pri", '\0', POPT_ARG_NONE, &want_pri, 0,
    "wait for priority data (POLLPRI)", NULL },
  { "hup", '\0', POPT_ARG_NONE, &want_hup, 0,
    "wait for a hang-up: the other end closed", NULL },
  { "all", 'a', POPT_ARG_NONE, &all, 0,
    "wait until every target is ready (default: any)", NULL },
  { "timeout", 't', POPT_ARG_STRING, &timeout_arg, 0,
    "give up DURATION (250ms, 1.5, 1m30s, inf...) after the wait starts, "
    "time stopped included: exit 124", "DURATION" },
  { "remaining", '\0', POPT_ARG_NONE, &remaining, 0,
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
  { "follow", '\0', POPT_ARG_NONE, &follow, 0,
    "follow a symbolic link at the end of those PATHs", NULL },
  { "select", '\0', POPT_ARG_NONE, &use_select, 0,
    "wait with pselect6 instead of ppoll", NULL },
  { "quiet", 'q', POPT_ARG_NONE, &quiet, 0,
    "print nothing, only exit with the status", NULL },
  { "json", '\0', POPT_ARG_NONE, &json, 0,
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
    "Exit status: 0 ready, or COMMAND's; 124 timed out, 128+N woken by "
    "signal N, 126 COMMAND cannot run, 127 COMMAND not found; 1 failure, "
    "2 usage error.\n\nOptions:", NULL },
  CLI_COMMON_OPTIONS
};

/* A path option, in command-line order.  */
struct path_arg
{
  char *path;
  enum pathwatch_event event;
};

/* How the wait ended.  */
enum outcome
{
  OUTCOME_READY,
  OUTCOME_TIMEOUT,
  OUTCOME_SIGNAL,
};

/* The first of the --signal signals that arrived.  The handler runs only
   inside the wait, where the signals are unblocked.  */
static volatile sig_atomic_t caught_signal;

static void
catch_signal (int sig)
{
  if (!caught_signal)
    caught_signal = sig;
}

/* The end of the --timeout, on CLOCK_MONOTONIC: the clock of the kernel's
   own timeouts, which goes on while the process is stopped but not while
   the machine is suspended, like timeout(1)'s (see the man page).  */
static struct timespec deadline;

static void
start_deadline (const struct timespec *timeout)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  duration_deadline (&now, timeout, &deadline);
}

/* The time left until the deadline, into *TIMEOUT.  */
static void
time_left (struct timespec *timeout)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  duration_left (&deadline, &now, timeout);
}

/* The handler of SIGCONT where the personality is refused: it does
   nothing, but its mere presence makes the kernel end a wait that a stop
   interrupted with EINTR instead of restarting it.  */
static void
on_continue (int sig)
{
  (void) sig;
}

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

/* Block the WAKE and IGNORE signals from now on, and return the mask of
   the wait: the one inherited, which goes into *INHERITED, plus IGNORE,
   less WAKE.  */
static sigset_t
block_signals (const sigset_t *wake, const sigset_t *ignore,
               sigset_t *inherited)
{
  sigset_t block;
  sigemptyset (&block);
  for (int sig = 1; sig < NSIG; sig++)
    if (sigismember (wake, sig) == 1 || sigismember (ignore, sig) == 1)
      sigaddset (&block, sig);
  int ret = sys_rt_sigprocmask (SIG_BLOCK, &block, inherited);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot block signals");
  sigset_t mask = *inherited;
  for (int sig = 1; sig < NSIG; sig++)
    {
      if (sigismember (ignore, sig) == 1)
        sigaddset (&mask, sig);
      if (sigismember (wake, sig) == 1)
        sigdelset (&mask, sig);
    }
  return mask;
}

/* Handle the WAKE signals.  While a handler runs, the other WAKE signals
   stay blocked, and the mask restored when it returns blocks them all
   again: a wait is ended by one signal, the first.  */
static void
catch_signals (const sigset_t *wake)
{
  struct sigaction sa = { .sa_handler = catch_signal };
  sa.sa_mask = *wake;
  int ret;
  for (int sig = 1; sig < NSIG; sig++)
    if (sigismember (wake, sig) == 1 && (ret = inherit_sigaction (sig, &sa)))
      {
        char buf[SIG2STR_MAX];
        error (EXIT_FAILURE, -ret, "cannot catch signal %s",
               siglist_name (sig, buf));
      }
}

/* Make a stop end a wait with EINTR, so that the wait that follows is
   given the time left until the deadline: by the personality, else by a
   handler of SIGCONT, unblocked in the wait's *MASK, unless SIGCONT is a
   WAKE signal (a continue then ends the wait) or an IGNORE one (the time
   stopped is then not counted).  */
static void
count_stops (const sigset_t *wake, const sigset_t *ignore, sigset_t *mask)
{
  if (inherit_sticky_timeouts () == 0
      || sigismember (wake, SIGCONT) == 1 || sigismember (ignore, SIGCONT) == 1)
    return;
  struct sigaction sa = { .sa_handler = on_continue };
  int ret = inherit_sigaction (SIGCONT, &sa);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot catch signal CONT");
  sigdelset (mask, SIGCONT);
}

/* Exit on the failure ERR (-errno) of WATCH.  */
static _Noreturn void
watch_failed (const struct pathwatch *watch, int err)
{
  const char *why = "";
  if (err == -EACCES)
    why = " (a watch needs read permission on each directory on the way)";
  else if (err == -ENOSPC)
    why = " (the inotify watch limit: fs.inotify.max_user_watches)";
  else if (err == -EMFILE)
    why = " (the open file limit, or the inotify instance limit: "
          "fs.inotify.max_user_instances, one per path)";
  error (EXIT_FAILURE, -err, "cannot watch %s%s",
         quote_file (pathwatch_failed (watch)), why);
  abort ();
}

/* Exit on the failure ERR (-errno) of T, as targets_open reports it.  */
static _Noreturn void
target_failed (const struct target *t, int err)
{
  if (t->kind == TARGET_PATH)
    watch_failed (t->watch, err);
  if (t->kind == TARGET_PROCESS && err == -ENOSYS)
    error (EXIT_FAILURE, 0, "cannot wait for %s: pidfd_open is not in this "
           "kernel (Linux 5.3 or later)", t->name);
  /* A thread that does not lead its process: EINVAL, and ENOENT since
     Linux 6.9, where pidfd_open can take a thread with PIDFD_THREAD.  */
  if (t->kind == TARGET_PROCESS && (err == -EINVAL || err == -ENOENT))
    error (EXIT_FAILURE, 0, "cannot wait for %s: not a process (a thread "
           "of one?)", t->name);
  if (t->kind == TARGET_PROCESS)
    error (EXIT_FAILURE, -err, "cannot wait for %s", t->name);
  if (!t->opened)
    error (EXIT_FAILURE, -err, "cannot wait for descriptor %s", t->name);
  if (t->fd < 0)
    error (EXIT_FAILURE, -err, "cannot open %s", quote_file (t->name));
  error (EXIT_FAILURE, -err, "cannot wait for %s", quote_file (t->name));
  abort ();
}

/* The targets of the N OPERANDS, then of the N_PATHS PATHS, opened for
   EVENTS.  */
static struct target *
get_targets (const char **operands, size_t n,
             const struct path_arg *path_args, size_t n_paths, short events)
{
  struct target *t = xcalloc (n + n_paths, sizeof *t);
  for (size_t i = 0; i < n; i++)
    t[i].name = operands[i];
  for (size_t i = 0; i < n_paths; i++)
    t[n + i] = (struct target) { .name = path_args[i].path,
                                 .kind = TARGET_PATH,
                                 .path_event = path_args[i].event };
  struct target *failed;
  int ret = targets_open (t, n + n_paths, events, follow, &failed);
  if (ret < 0)
    target_failed (failed, ret);
  n += n_paths;
  if (use_select)
    for (size_t i = 0; i < n; i++)
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

/* Record the targets found ready by the last wait; return how many.  A
   path target's descriptor says only that something changed on its way:
   it is ready once its watch says the event happened.  */
static size_t
mark_ready (struct target *t, size_t n, struct pollfd *pfd)
{
  size_t ready = 0;
  for (size_t i = 0; i < n; i++)
    if (pfd[i].fd >= 0 && pfd[i].revents)
      {
        if (t[i].kind == TARGET_PATH)
          {
            int ret = pathwatch_update (t[i].watch);
            if (ret < 0)
              watch_failed (t[i].watch, ret);
            if (ret == 0)
              continue;
          }
        t[i].revents = pfd[i].revents;
        /* A negative descriptor is skipped by the next ppoll.  */
        pfd[i].fd = -1;
        ready++;
      }
  return ready;
}

/* Record the path targets ready from the start, as ready; return how
   many.  */
static size_t
mark_ready_paths (struct target *t, size_t n, struct pollfd *pfd)
{
  size_t ready = 0;
  for (size_t i = 0; i < n; i++)
    if (t[i].kind == TARGET_PATH && pathwatch_ready (t[i].watch))
      {
        t[i].revents = POLLIN;
        pfd[i].fd = -1;
        ready++;
      }
  return ready;
}

/* Wait with ppoll, or pselect6 for --select, until one target is ready,
   or all of them with --all.  A ready target is not watched again: under
   --all each counts once it has been seen ready.  A path target ready
   from the start ends the wait as well; one wait that does not sleep
   then finds the other targets ready with it.  */
static enum outcome
wait_targets (struct target *t, size_t n, short events,
              struct timespec *timeout, const sigset_t *mask)
{
  struct pollfd *pfd = xnmalloc (n, sizeof *pfd);
  for (size_t i = 0; i < n; i++)
    pfd[i] = (struct pollfd) { .fd = t[i].fd,
                               .events = (t[i].kind == TARGET_DESCRIPTOR
                                          ? events : POLLIN) };
  size_t found = mark_ready_paths (t, n, pfd);
  size_t waiting = n - found;
  bool looked = false;
  enum outcome outcome;
  for (bool again = false;; again = true)
    {
      struct timespec no_time = { 0, 0 };
      struct timespec *wait_time = timeout;
      if (found > 0 && (!all || waiting == 0))
        {
          if (waiting == 0 || looked)
            {
              outcome = OUTCOME_READY;
              break;
            }
          wait_time = &no_time;
          looked = true;
        }
      /* Every wait but the first: the time left now.  */
      else if (timeout && again)
        time_left (timeout);
      int ret;
      if (use_select)
        ret = select_poll (pfd, n, wait_time, mask);
      else
        ret = sys_ppoll (pfd, n, wait_time, mask);

      if (ret == -EINTR && !caught_signal)
        continue;
      if (ret < 0 && ret != -EINTR)
        error (EXIT_FAILURE, -ret, "cannot wait (%s)",
               use_select ? "pselect6" : "ppoll");
      if (ret > 0)
        {
          size_t now = mark_ready (t, n, pfd);
          found += now;
          waiting -= now;
          /* This wait saw every target ready at its end.  */
          looked = true;
          continue;
        }
      /* Targets found ready before a signal or the end of the time
         still end the wait as ready.  */
      if (found > 0 && (!all || waiting == 0))
        continue;
      outcome = ret == 0 ? OUTCOME_TIMEOUT : OUTCOME_SIGNAL;
      break;
    }
  free (pfd);
  return outcome;
}

/* Wait for a signal alone: rt_sigsuspend, or with a timeout ppoll (or
   pselect6) on no descriptor.  */
static enum outcome
wait_signals (struct timespec *timeout, const sigset_t *mask)
{
  for (bool again = false;; again = true)
    {
      if (timeout && again)
        time_left (timeout);
      int ret;
      if (!timeout)
        ret = sys_rt_sigsuspend (mask);
      else if (use_select)
        ret = sys_pselect6 (0, NULL, NULL, NULL, timeout, mask);
      else
        ret = sys_ppoll (NULL, 0, timeout, mask);
      if (ret == -EINTR && caught_signal)
        return OUTCOME_SIGNAL;
      if (ret == 0)
        return OUTCOME_TIMEOUT;
      if (ret != -EINTR)
        error (EXIT_FAILURE, -ret, "cannot wait for signals");
    }
}

static const struct
{
  short bit;
  const char *name;
} event_names[] = {
  { POLLIN, "in" },
  { POLLPRI, "pri" },
  { POLLOUT, "out" },
  { POLLRDHUP, "rdhup" },
  { POLLERR, "err" },
  { POLLHUP, "hup" },
  { POLLNVAL, "nval" },
};
#define N_EVENT_NAMES (sizeof event_names / sizeof event_names[0])

/* The words for what made the ready target T ready, into WORDS; return
   how many: a process's end, a path's event, or a descriptor's poll
   events.  */
static size_t
ready_words (const struct target *t, const char *words[N_EVENT_NAMES])
{
  static const char *const path_words[] = {
    [PATHWATCH_EXISTS] = "exists",
    [PATHWATCH_GONE] = "gone",
    [PATHWATCH_CLOSED] = "closed",
  };
  if (t->kind == TARGET_PROCESS)
    {
      words[0] = "exit";
      return 1;
    }
  if (t->kind == TARGET_PATH)
    {
      words[0] = path_words[t->path_event];
      return 1;
    }
  size_t n = 0;
  for (size_t e = 0; e < N_EVENT_NAMES; e++)
    if (t->revents & event_names[e].bit)
      words[n++] = event_names[e].name;
  return n;
}

static void
print_json (const struct target *t, size_t n, enum outcome outcome,
            int status, const struct timespec *timeout)
{
  static const char *const results[] = {
    [OUTCOME_READY] = "ready",
    [OUTCOME_TIMEOUT] = "timeout",
    [OUTCOME_SIGNAL] = "signal",
  };
  printf ("{\"result\":\"%s\",\"status\":%d,\"ready\":[",
          results[outcome], status);
  bool first = true;
  for (size_t i = 0; i < n; i++)
    {
      if (!t[i].revents)
        continue;
      printf ("%s{\"target\":", first ? "" : ",");
      first = false;
      char *name = json_string_alloc (t[i].name);
      fputs (name, stdout);
      free (name);
      fputs (",\"events\":[", stdout);
      const char *words[N_EVENT_NAMES];
      size_t n_words = ready_words (&t[i], words);
      for (size_t w = 0; w < n_words; w++)
        printf ("%s\"%s\"", w ? "," : "", words[w]);
      fputs ("]}", stdout);
    }
  fputs ("],\"signal\":", stdout);
  if (outcome == OUTCOME_SIGNAL)
    {
      char buf[SIG2STR_MAX];
      printf ("{\"number\":%d,\"name\":\"%s\"}", (int) caught_signal,
              siglist_name (caught_signal, buf));
    }
  else
    fputs ("null", stdout);
  fputs (",\"remaining\":", stdout);
  if (timeout)
    {
      char buf[DURATION_BUFSIZE];
      fputs (duration_format (timeout, buf), stdout);
    }
  else
    fputs ("null", stdout);
  fputs ("}\n", stdout);
}

/* A line per ready target, "fifo in hup"; then "signal USR1" if a signal
   ended the wait, and with --remaining "remaining 1.250000000".  */
static void
print_lines (const struct target *t, size_t n, enum outcome outcome,
             const struct timespec *timeout)
{
  for (size_t i = 0; i < n; i++)
    {
      if (!t[i].revents)
        continue;
      /* Quoted only when the shell would need it: 'a b'.  */
      fputs (quotearg_style (shell_escape_quoting_style, t[i].name), stdout);
      const char *words[N_EVENT_NAMES];
      size_t n_words = ready_words (&t[i], words);
      for (size_t w = 0; w < n_words; w++)
        printf (" %s", words[w]);
      putchar ('\n');
    }
  if (outcome == OUTCOME_SIGNAL)
    {
      char buf[SIG2STR_MAX];
      printf ("signal %s\n", siglist_name (caught_signal, buf));
    }
  if (remaining && timeout)
    {
      char buf[DURATION_BUFSIZE];
      printf ("remaining %s\n", duration_format (timeout, buf));
    }
  else if (remaining && timeout_infinite)
    puts ("remaining inf");
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

/* Put back what ppoll-wait changed of what COMMAND inherits, but the
   descriptors: the personality, the signals' actions and the mask.  An
   IGNORE signal that ppoll-wait blocked and that arrived meanwhile is
   discarded, as ppoll-wait's exit would discard it; a --signal signal
   that arrived after the wait had ended, and any other, stays pending,
   to take its inherited action as the mask is restored, or, blocked by
   the caller, to be COMMAND's.  */
static void
restore_inherited (const sigset_t *ignore, const sigset_t *inherited_mask)
{
  const char *what;
  int ret = inherit_restore (&what);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot restore %s", what);
  sigset_t discard;
  sigemptyset (&discard);
  for (int sig = 1; sig < NSIG; sig++)
    if (sigismember (ignore, sig) == 1
        && sigismember (inherited_mask, sig) != 1)
      sigaddset (&discard, sig);
  ret = inherit_discard_pending (&discard);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot discard a signal");
  ret = sys_rt_sigprocmask (SIG_SETMASK, inherited_mask, NULL);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot restore the signal mask");
}

/* Become COMMAND, the N operands' targets of T open on descriptors 3 to
   2 + N by targets_pass (a path target is not a descriptor to pass on),
   the ready ones listed in $PPOLL_WAIT_READY ("3 5").  */
static _Noreturn void
run_command (char **command, const struct target *t, size_t n,
             const sigset_t *ignore, const sigset_t *inherited_mask)
{
  char *ready;
  const struct target *failed;
  int fd;
  int ret = targets_pass (t, n, &ready, &failed, &fd);
  if (ret < 0 && fd < 0)
    error (EXIT_FAILURE, -ret, "cannot pass %s to the command",
           quote_file (failed->name));
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot pass %s on descriptor %d",
           quote_file (failed->name), fd);
  if (setenv ("PPOLL_WAIT_READY", ready, 1) != 0)
    error (EXIT_FAILURE, errno, "cannot set PPOLL_WAIT_READY");
  free (ready);
  restore_inherited (ignore, inherited_mask);
  execvp (command[0], command);
  int err = errno;
  int status = exec_failure_status (command[0], &err);
  error (0, err, "cannot run %s", quote_file (command[0]));
  exit (status);
}

/* The options that do not go together, no target without a signal to
   wait for, or before a COMMAND, and no "--" without a COMMAND.  */
static void
check_usage (const char **operands, size_t n, size_t n_paths,
             const sigset_t *wake, const sigset_t *ignore, char **command)
{
  if (command && !command[0])
    cli_usage_error ("missing command after '--'");
  if (command && n + n_paths == 0)
    cli_usage_error ("missing target operand before '--'");
  if (n + n_paths == 0 && siglist_empty (wake))
    cli_usage_error ("missing target operand");
  for (size_t i = 0; i < n; i++)
    if (target_pid_number (operands[i]) < 0)
      cli_usage_error ("invalid process %s: pid:N wants N from 1 to %d "
                       "(a file of that name: ./ before it)",
                       quote_file (operands[i]), INT_MAX);
  if (follow && n_paths == 0)
    cli_usage_error ("--follow needs --exists, --gone or --closed");
  for (int sig = 1; sig < NSIG; sig++)
    if (sigismember (wake, sig) == 1 && sigismember (ignore, sig) == 1)
      {
        char buf[SIG2STR_MAX];
        cli_usage_error ("signal %s is given to both --signal and --ignore",
                         siglist_name (sig, buf));
      }
  if (quiet && json)
    cli_usage_error ("--quiet and --json are mutually exclusive");
  if (use_select && want_hup)
    cli_usage_error ("--hup cannot be used with --select: select(2) has no "
                     "hang-up set");
  if (remaining && !timeout_arg)
    cli_usage_error ("--remaining needs --timeout");
  /* COMMAND's standard output is its own.  */
  if (command && json)
    cli_usage_error ("--json cannot be used with a COMMAND");
  if (command && remaining)
    cli_usage_error ("--remaining cannot be used with a COMMAND");
}

/* The --timeout duration in *BUF, and BUF; NULL without the option or
   with an infinite duration (then TIMEOUT_INFINITE is set), which waits
   as long as no option.  */
static struct timespec *
parse_timeout (struct timespec *buf)
{
  if (!timeout_arg)
    return NULL;
  struct duration d;
  char why[DURATION_MESSAGE_SIZE];
  if (duration_parse (timeout_arg, &d) != DURATION_OK)
    cli_usage_error ("invalid duration %s for --timeout: %s",
                     quote_file (timeout_arg),
                     duration_message (&d, timeout_arg, why));
  timeout_infinite = d.infinite;
  if (d.infinite)
    return NULL;
  *buf = d.ts;
  return buf;
}

/* What main allocates, reachable from here until the exit: a COMMAND that
   cannot run ends the process inside run_command, where LeakSanitizer
   would otherwise count what only main's frame held as leaked.  */
static poptContext ctx;
static struct target *targets;
static struct path_arg *paths;

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  int options_argc;
  char **command = split_command (argc, argv, &options_argc);
  ctx = cli_context (options_argc, argv, options,
                     "[OPTION]... TARGET... [-- COMMAND [ARG]...]");
  sigset_t wake, ignore;
  sigemptyset (&wake);
  sigemptyset (&ignore);
  size_t n_paths = 0, paths_alloc = 0;
  int opt;
  while ((opt = cli_next_option (ctx)) >= 0)
    {
      char *arg = poptGetOptArg (ctx);
      if (opt == OPT_SIGNAL)
        parse_signals ("signal", arg, &wake);
      else if (opt == OPT_IGNORE)
        parse_signals ("ignore", arg, &ignore);
      else if (opt == OPT_EXISTS || opt == OPT_GONE || opt == OPT_CLOSED)
        {
          if (n_paths == paths_alloc)
            paths = x2nrealloc (paths, &paths_alloc, sizeof *paths);
          paths[n_paths++] = (struct path_arg) {
            arg, (opt == OPT_EXISTS ? PATHWATCH_EXISTS
                  : opt == OPT_GONE ? PATHWATCH_GONE : PATHWATCH_CLOSED) };
          continue;     /* the target's name: freed at the end */
        }
      free (arg);
    }
  const char **operands = poptGetArgs (ctx);
  size_t n = 0;
  while (operands && operands[n])
    n++;
  check_usage (operands, n, n_paths, &wake, &ignore, command);
  struct timespec timeout_buf;
  struct timespec *timeout = parse_timeout (&timeout_buf);
  short events = ((want_read ? POLLIN : 0) | (want_write ? POLLOUT : 0)
                  | (want_pri ? POLLPRI : 0) | (want_hup ? POLLRDHUP : 0));
  if (!events)
    events = POLLIN;

  /* From here on, a --signal signal can only be delivered inside the
     wait: one sent while the targets are opened waits, pending, for the
     wait to unblock it.  */
  sigset_t inherited_mask;
  sigset_t mask = block_signals (&wake, &ignore, &inherited_mask);
  catch_signals (&wake);

  targets = get_targets (operands, n, paths, n_paths, events);
  if (timeout)
    {
      count_stops (&wake, &ignore, &mask);
      start_deadline (timeout);
    }
  size_t n_targets = n + n_paths;
  enum outcome outcome = (n_targets > 0
                          ? wait_targets (targets, n_targets, events, timeout,
                                          &mask)
                          : wait_signals (timeout, &mask));

  /* The time left, from the deadline: the kernel does not write it back
     under STICKY_TIMEOUTS.  */
  if (timeout && outcome == OUTCOME_TIMEOUT)
    *timeout = (struct timespec) { 0, 0 };
  else if (timeout)
    time_left (timeout);
  if (command && outcome == OUTCOME_READY)
    run_command (command, targets, n, &ignore, &inherited_mask);
  int status = (outcome == OUTCOME_READY ? EXIT_SUCCESS
                : outcome == OUTCOME_TIMEOUT ? EXIT_TIMEDOUT
                : EXIT_SIGNAL_BASE + caught_signal);
  if (json)
    print_json (targets, n_targets, outcome, status, timeout);
  else if (!quiet && !command)
    print_lines (targets, n_targets, outcome, timeout);
  for (size_t i = 0; i < n_paths; i++)
    {
      pathwatch_free (targets[n + i].watch);
      free (paths[i].path);
    }
  free (paths);
  free (targets);
  poptFreeContext (ctx);
  return status;
}
