/* ppoll-race.c -- the lost wake-up that ppoll, pselect6 and rt_sigsuspend
   exist to prevent, for tests/ppoll.bats.

   A program that waits for a signal with the signal blocked must unblock
   it and start waiting; if it does that in two steps, a signal that comes
   between them runs its handler before the wait starts, and the wait then
   sleeps on (until its timeout, if it has one): the wake-up is lost.  The
   three calls take the mask as an argument and apply it inside the kernel,
   so the signal is either still pending when the wait starts, and ends it
   at once, or arrives during the wait.

   ppoll-race [-t MS] ppoll|pselect6|sigsuspend|naive N
       In this process: a waiting thread and a sending thread, N rounds.
       Each round the waiter says it is about to wait and waits, up to MS
       milliseconds (default 2000), for SIGUSR1; the sender sends it
       (pthread_kill) as soon as it sees that.  Even rounds race freely;
       odd rounds, the first among them, take the worst order on purpose:
       the waiter enters its wait only once the signal has been sent
       (naive: once its handler has run).  ppoll, pselect6 and sigsuspend
       use the sys_* wrappers with the mask argument; naive unblocks with
       rt_sigprocmask, checks the handler's flag, then calls ppoll without
       a mask.  A round that ends without the signal is a lost wake-up.

   ppoll-race tool N COMMAND [ARG]...
       Run COMMAND N times; each time send it SIGUSR1 the moment
       /proc/PID/status shows that it blocks the signal or has a handler
       for it, which is when the command gets ready to wait (during the
       wait itself the signal is unblocked: the kernel has applied the
       wait's mask, so SigBlk alone would miss it).  COMMAND must then
       exit with status 128 + SIGUSR1; a timeout (124), a death by the
       signal or a command still running after 10 s is a lost wake-up.
       The summary counts the rounds whose signal went while SigBlk still
       showed it: before the command had started its wait.

   ppoll-race [-b] early N SIG COMMAND [ARG]...
       Run COMMAND N times and send it signal number SIG the moment it has
       exec'd, with no regard to whether it is ready: inside the window
       that a program has at its start, before it can block or catch any
       signal.  With -b, the child blocks SIG before it execs, as a caller
       should; without, it unblocks every signal.  COMMAND must exit with
       status 128 + SIG; every round runs, and the last line counts the
       signals seen and how the others were lost.

   ppoll-race wait PID
       Return once process PID is asleep in ppoll, pselect6 or
       rt_sigsuspend (by /proc/PID/syscall, or where that cannot be read
       or is qemu's, by its state), so that a test knows it is waiting;
       fail after 10 s.

   ppoll-race signum NAME...
       Print the number of each signal NAME (USR1, RTMIN+1...) as this
       build's C library numbers it, one a line: the numbers differ
       between architectures (SIGUSR1 is 10, 16 on mips, 30 on sparc64),
       and under qemu-user the shell running the tests has the host's.
       Exit 1 for a name it does not know.

   Exit status: 0 no wake-up lost, 1 one was lost (or an error), 2 usage.
   The last line says how many rounds saw their signal.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sys/arch.h"
#include "sys/calls.h"

#define RACE_NAME "ppoll-race"
#include "race.h"

#define WAKE_SIGNAL SIGUSR1
#define WATCHDOG_S 10

enum variant
{
  VARIANT_PPOLL,
  VARIANT_PSELECT6,
  VARIANT_SIGSUSPEND,
  VARIANT_NAIVE,
};

static const char *const variant_names[] = {
  [VARIANT_PPOLL] = "ppoll",
  [VARIANT_PSELECT6] = "pselect6",
  [VARIANT_SIGSUSPEND] = "sigsuspend",
  [VARIANT_NAIVE] = "naive",
};

static _Noreturn void
usage (void)
{
  fputs ("usage: ppoll-race [-t MS] ppoll|pselect6|sigsuspend|naive N\n"
         "       ppoll-race tool N COMMAND [ARG]...\n"
         "       ppoll-race [-b] early N SIG COMMAND [ARG]...\n"
         "       ppoll-race wait PID\n"
         "       ppoll-race signum NAME...\n", stderr);
  exit (2);
}

/* --- signal numbers -------------------------------------------------- */

/* The number of signal NAME (no SIG), or 0.  */
static int
signal_number (const char *name)
{
  const char *rt = NULL;
  int base = 0;
  if (strncmp (name, "RTMIN", 5) == 0)
    rt = name + 5, base = SIGRTMIN;
  else if (strncmp (name, "RTMAX", 5) == 0)
    rt = name + 5, base = SIGRTMAX;
  if (rt)
    {
      if (*rt == '\0')
        return base;
      char *end;
      errno = 0;
      long k = strtol (rt, &end, 10);
      if (errno || *end || (*rt != '+' && *rt != '-') || base + k < SIGRTMIN
          || base + k > SIGRTMAX)
        return 0;
      return base + (int) k;
    }
  for (int sig = 1; sig < SIGRTMIN; sig++)
    {
      const char *abbrev = sigabbrev_np (sig);
      if (abbrev && strcmp (abbrev, name) == 0)
        return sig;
    }
  return 0;
}

static int
run_signum (char **names)
{
  for (; *names; names++)
    {
      int sig = signal_number (*names);
      if (!sig)
        race_die ("no signal named %s", *names);
      printf ("%d\n", sig);
    }
  return EXIT_SUCCESS;
}

/* --- in this process ------------------------------------------------ */

/* The round the waiter is about to wait in, and the last one the sender
   sent the signal for.  */
static atomic_uint armed;
static atomic_uint sent;
static unsigned rounds;
static pthread_t waiter;

/* The signal whose handler ran last in the waiter: WAKE_SIGNAL, or
   SIGALRM, the watchdog of the sigsuspend variant, which has no
   timeout.  */
static volatile sig_atomic_t caught;

static void
on_signal (int sig)
{
  if (!caught)
    caught = sig;
}

static void *
sender_main (void *arg)
{
  (void) arg;
  for (unsigned round = 1; round <= rounds; round++)
    {
      while (atomic_load (&armed) != round)
        sched_yield ();
      int err = pthread_kill (waiter, WAKE_SIGNAL);
      if (err)
        race_die ("pthread_kill: %s", strerror (err));
      atomic_store (&sent, round);
    }
  return NULL;
}

/* One round of VARIANT; WORST takes the worst order.  Return true if the
   signal ended the wait.  */
static bool
wait_round (enum variant variant, unsigned round, bool worst,
            const sigset_t *wait_mask, const sigset_t *wake, long timeout_ms)
{
  struct timespec timeout = { timeout_ms / 1000, timeout_ms % 1000 * 1000000 };
  caught = 0;
  if (variant == VARIANT_NAIVE)
    {
      /* Unblock, look at the flag, wait: three steps.  */
      sys_rt_sigprocmask (SIG_UNBLOCK, wake, NULL);
      bool seen = caught;
      atomic_store (&armed, round);
      if (worst)
        while (!caught)
          sched_yield ();
      int ret = seen ? -EINTR : sys_ppoll (NULL, 0, &timeout, NULL);
      sys_rt_sigprocmask (SIG_BLOCK, wake, NULL);
      return ret == -EINTR && caught == WAKE_SIGNAL;
    }

  atomic_store (&armed, round);
  if (worst)
    while (atomic_load (&sent) != round)
      sched_yield ();
  /* Sent or not, the signal is blocked: its handler cannot have run.  */
  if (caught)
    race_die ("%s round %u: the handler ran outside the wait",
              variant_names[variant], round);
  int ret;
  switch (variant)
    {
    case VARIANT_PPOLL:
      ret = sys_ppoll (NULL, 0, &timeout, wait_mask);
      break;
    case VARIANT_PSELECT6:
      ret = sys_pselect6 (0, NULL, NULL, NULL, &timeout, wait_mask);
      break;
    default:
      alarm ((unsigned) (timeout_ms + 999) / 1000);
      ret = sys_rt_sigsuspend (wait_mask);
      alarm (0);
      break;
    }
  return ret == -EINTR && caught == WAKE_SIGNAL;
}

static int
run_in_process (enum variant variant, unsigned n, long timeout_ms)
{
  struct sigaction sa = { .sa_handler = on_signal };
  sigaddset (&sa.sa_mask, WAKE_SIGNAL);
  sigaddset (&sa.sa_mask, SIGALRM);
  if (sigaction (WAKE_SIGNAL, &sa, NULL) || sigaction (SIGALRM, &sa, NULL))
    race_die ("sigaction: %s", strerror (errno));

  /* The waiter keeps the signals blocked outside its waits; the sender,
     which inherits this mask, never unblocks them, so a signal can only
     be handled by the waiter.  */
  sigset_t wake, wait_mask;
  sigemptyset (&wake);
  sigaddset (&wake, WAKE_SIGNAL);
  sigaddset (&wake, SIGALRM);
  sys_rt_sigprocmask (SIG_BLOCK, &wake, &wait_mask);
  sigdelset (&wait_mask, WAKE_SIGNAL);
  sigdelset (&wait_mask, SIGALRM);
  if (variant == VARIANT_NAIVE)
    sigdelset (&wake, SIGALRM);

  rounds = n;
  waiter = pthread_self ();
  pthread_t sender;
  int err = pthread_create (&sender, NULL, sender_main, NULL);
  if (err)
    race_die ("pthread_create: %s", strerror (err));

  const char *name = variant_names[variant];
  for (unsigned round = 1; round <= n; round++)
    {
      bool worst = round % 2 == 1;
      double start = race_now ();
      if (!wait_round (variant, round, worst, &wait_mask, &wake, timeout_ms))
        {
          printf ("%s: wake-up lost in round %u of %u (%s order): %s after "
                  "%.0f ms\n", name, round, n, worst ? "worst" : "racing",
                  caught == SIGALRM ? "the watchdog ended the wait"
                  : caught ? "the handler ran before the wait, which slept"
                  : "the wait timed out", (race_now () - start) * 1000);
          return EXIT_FAILURE;
        }
    }
  pthread_join (sender, NULL);
  printf ("%s: %u of %u wake-ups seen (%u racing, %u in the worst order)\n",
          name, n, n, n / 2, n - n / 2);
  return EXIT_SUCCESS;
}

/* --- another process ------------------------------------------------ */

/* Whether process PID is ready for SIG, by the SigBlk and SigCgt lines of
   its status: 2 if it blocks SIG (it has not started to wait), 1 if it
   only catches it, 0 if neither, -1 if the process is gone.  */
static int
process_handles (pid_t pid, int sig)
{
  char path[64], line[256];
  snprintf (path, sizeof path, "/proc/%jd/status", (intmax_t) pid);
  FILE *f = fopen (path, "re");
  if (!f)
    return -1;
  int handles = 0;
  while (fgets (line, sizeof line, f))
    {
      bool blk = strncmp (line, "SigBlk:", 7) == 0;
      if (blk || strncmp (line, "SigCgt:", 7) == 0)
        {
          uint64_t mask = strtoull (line + 7, NULL, 16);
          if ((mask >> (sig - 1)) & 1 && handles < 2)
            handles = blk ? 2 : 1;
        }
    }
  fclose (f);
  return handles;
}

/* Wait up to WATCHDOG_S seconds for PID to end, then kill it.  Return
   its wait status, and set *KILLED if it had to be killed.  */
static int
reap (pid_t pid, bool *killed)
{
  double deadline = race_now () + WATCHDOG_S;
  *killed = false;
  for (;;)
    {
      int status;
      pid_t ret = waitpid (pid, &status, WNOHANG);
      if (ret == pid)
        return status;
      if (ret < 0)
        race_die ("waitpid: %s", strerror (errno));
      if (!*killed && race_now () > deadline)
        {
          kill (pid, SIGKILL);
          *killed = true;
        }
      struct timespec pause = { 0, 50 * 1000 };
      nanosleep (&pause, NULL);
    }
}

/* Fork and exec COMMAND with SIG blocked if BLOCK, else with no signal
   blocked; return its pid once it has exec'd.  */
static pid_t
spawn (char **command, bool block, int sig)
{
  int exec_pipe[2];
  pid_t pid = race_fork (exec_pipe);
  if (pid == 0)
    {
      sigset_t set;
      sigemptyset (&set);
      if (block)
        sigaddset (&set, sig);
      sigprocmask (SIG_SETMASK, &set, NULL);
      race_exec (command, exec_pipe);
    }
  race_exec_check (exec_pipe, command[0]);
  return pid;
}

static int
run_tool (unsigned n, char **command)
{
  int want = 128 + WAKE_SIGNAL;
  unsigned early = 0;
  for (unsigned round = 1; round <= n; round++)
    {
      /* Before it has exec'd, its mask is a copy of ours.  */
      pid_t pid = spawn (command, false, WAKE_SIGNAL);

      int handles;
      while ((handles = process_handles (pid, WAKE_SIGNAL)) == 0)
        continue;
      if (handles > 0)
        kill (pid, WAKE_SIGNAL);
      early += handles == 2;
      bool killed;
      int status = reap (pid, &killed);
      if (!killed && WIFEXITED (status) && WEXITSTATUS (status) == want)
        continue;
      printf ("tool: wake-up lost in round %u of %u: ", round, n);
      if (killed)
        printf ("still waiting after %d s\n", WATCHDOG_S);
      else if (WIFSIGNALED (status))
        printf ("killed by signal %d\n", WTERMSIG (status));
      else
        printf ("exit status %d%s, not %d\n", WEXITSTATUS (status),
                WEXITSTATUS (status) == 124 ? " (timed out)" : "", want);
      return EXIT_FAILURE;
    }
  printf ("tool: %u of %u wake-ups seen (%u sent before the wait had "
          "started)\n", n, n, early);
  return EXIT_SUCCESS;
}

static int
run_early (unsigned n, bool block, int sig, char **command)
{
  int want = 128 + sig;
  unsigned seen = 0, timed_out = 0, killed_by = 0, other = 0;
  for (unsigned round = 1; round <= n; round++)
    {
      pid_t pid = spawn (command, block, sig);
      kill (pid, sig);
      bool killed;
      int status = reap (pid, &killed);
      if (!killed && WIFEXITED (status) && WEXITSTATUS (status) == want)
        seen++;
      else if (!killed && WIFEXITED (status) && WEXITSTATUS (status) == 124)
        timed_out++;
      else if (!killed && WIFSIGNALED (status) && WTERMSIG (status) == sig)
        killed_by++;
      else
        other++;
    }
  printf ("early: %u of %u signals seen (%s; lost: %u timed out, %u killed "
          "by it, %u otherwise)\n", seen, n,
          block ? "blocked before exec" : "not blocked", timed_out,
          killed_by, other);
  return seen == n ? EXIT_SUCCESS : EXIT_FAILURE;
}

static int
run_wait (pid_t pid)
{
  double deadline = race_now () + WATCHDOG_S;
  int waiting;
  while ((waiting = race_in_wait (pid)) != 1)
    {
      if (waiting < 0)
        race_die ("no process %jd", (intmax_t) pid);
      if (race_now () > deadline)
        race_die ("process %jd is not waiting after %d s", (intmax_t) pid,
                  WATCHDOG_S);
      struct timespec pause = { 0, 100 * 1000 };
      nanosleep (&pause, NULL);
    }
  return EXIT_SUCCESS;
}

int
main (int argc, char **argv)
{
  setvbuf (stdout, NULL, _IOLBF, 0);
  long timeout_ms = 2000;
  bool block = false;
  int i = 1;
  if (i + 1 < argc && strcmp (argv[i], "-t") == 0)
    {
      timeout_ms = (long) race_number (argv[i + 1], usage);
      i += 2;
    }
  else if (i < argc && strcmp (argv[i], "-b") == 0)
    {
      block = true;
      i++;
    }
  if (argc - i < 2)
    usage ();
  if (!block && i == 1 && strcmp (argv[i], "signum") == 0)
    return run_signum (argv + i + 1);
  const char *mode = argv[i];
  unsigned long n = race_number (argv[i + 1], usage);
  if (strcmp (mode, "early") == 0 && argc - i >= 4 && n > 0 && n <= UINT_MAX)
    {
      unsigned long sig = race_number (argv[i + 2], usage);
      if (sig == 0 || sig >= NSIG || sig == SIGKILL || sig == SIGSTOP)
        usage ();
      return run_early ((unsigned) n, block, (int) sig, argv + i + 3);
    }
  if (block)
    usage ();
  if (strcmp (mode, "wait") == 0 && argc - i == 2)
    return run_wait ((pid_t) n);
  if (n == 0 || n > UINT_MAX)
    usage ();
  if (strcmp (mode, "tool") == 0 && argc - i >= 3)
    return run_tool ((unsigned) n, argv + i + 2);
  for (int v = 0; v < (int) (sizeof variant_names / sizeof variant_names[0]);
       v++)
    if (strcmp (mode, variant_names[v]) == 0 && argc - i == 2)
      return run_in_process ((enum variant) v, (unsigned) n, timeout_ms);
  usage ();
}
