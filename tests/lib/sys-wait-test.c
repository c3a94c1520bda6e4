/* sys-wait-test.c -- the C test driver of lib/sys/calls.h's waits with
   an atomically applied signal mask (rt_sigprocmask, rt_sigsuspend,
   ppoll, pselect6) and of what a wait can watch besides files
   (pidfd_open, inotify): each wrapper against the libc function called
   with the same arguments (sys-test.h).  */

#include <config.h>

#define TAP_NAME "sys-wait-test"
#include "sys-test.h"

/* ------------------------------------------------------------------ */
/* Signals: rt_sigprocmask, rt_sigsuspend; waiting: ppoll, pselect6.  */

static volatile sig_atomic_t usr1_count, usr2_count;

static void
on_signal (int sig)
{
  if (sig == SIGUSR1)
    usr1_count++;
  else if (sig == SIGUSR2)
    usr2_count++;
}

/* The first signal (1..64) on which A and B differ, or 0.  */
static int
mask_diff (const sigset_t *a, const sigset_t *b)
{
  for (int sig = 1; sig <= 64; sig++)
    if (!!sigismember (a, sig) != !!sigismember (b, sig))
      return sig;
  return 0;
}

static bool check_mask (const sigset_t *got, const sigset_t *want,
                        const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

static bool
check_mask (const sigset_t *got, const sigset_t *want, const char *fmt, ...)
{
  char detail[120];
  int sig = mask_diff (got, want);
  va_list ap;
  snprintf (detail, sizeof detail, "signal %d: got %s, want %s", sig,
            sig && sigismember (got, sig) ? "member" : "not member",
            sig && sigismember (want, sig) ? "member" : "not member");
  va_start (ap, fmt);
  tap_vreport (sig == 0, detail, fmt, ap);
  va_end (ap);
  return sig == 0;
}

static sigset_t
current_mask (void)
{
  sigset_t m;
  sigprocmask (SIG_SETMASK, NULL, &m);
  return m;
}

static sigset_t
set_of (int sig)
{
  sigset_t m;
  sigemptyset (&m);
  if (sig)
    sigaddset (&m, sig);
  return m;
}

static void
on_segv (int sig)
{
  (void) sig;
  _exit (200);
}

static void
test_sigprocmask (void)
{
  long long s, l;
  int se, le;
  sigset_t empty = set_of (0), usr1 = set_of (SIGUSR1),
    usr2 = set_of (SIGUSR2), old, old2, cur;

  sigprocmask (SIG_SETMASK, &empty, NULL);
  sigfillset (&old);
  SYS (s, se, sys_rt_sigprocmask (SIG_BLOCK, &usr1, &old));
  cmp_sys_libc (s, se, 0, 0, "sys_rt_sigprocmask SIG_BLOCK SIGUSR1");
  cur = current_mask ();
  check (sigismember (&cur, SIGUSR1) == 1, "not blocked",
         "sys_rt_sigprocmask: libc sees SIGUSR1 blocked");
  check_mask (&old, &empty, "sys_rt_sigprocmask: oldset was empty");

  SYS (s, se, sys_rt_sigprocmask (SIG_BLOCK, &usr2, &old));
  check_int (s, 0, "sys_rt_sigprocmask SIG_BLOCK SIGUSR2");
  check_mask (&old, &usr1, "sys_rt_sigprocmask: oldset is {SIGUSR1}");
  sigprocmask (SIG_SETMASK, NULL, &old2);
  SYS (s, se, sys_rt_sigprocmask (SIG_SETMASK, NULL, &old));
  check_int (s, 0, "sys_rt_sigprocmask with a NULL set");
  check_mask (&old, &old2, "sys_rt_sigprocmask NULL set: oldset as libc's");

  SYS (s, se, sys_rt_sigprocmask (SIG_UNBLOCK, &usr1, NULL));
  check_int (s, 0, "sys_rt_sigprocmask SIG_UNBLOCK SIGUSR1");
  cur = current_mask ();
  check_mask (&cur, &usr2, "sys_rt_sigprocmask SIG_UNBLOCK: mask {SIGUSR2}");
  SYS (s, se, sys_rt_sigprocmask (SIG_SETMASK, &usr1, NULL));
  check_int (s, 0, "sys_rt_sigprocmask SIG_SETMASK {SIGUSR1}");
  cur = current_mask ();
  check_mask (&cur, &usr1, "sys_rt_sigprocmask SIG_SETMASK: mask {SIGUSR1}");

  /* SIGKILL and SIGSTOP cannot be blocked: silently, as with libc.  */
  sigset_t ks;
  sigemptyset (&ks);
  sigaddset (&ks, SIGKILL);
  sigaddset (&ks, SIGSTOP);
  SYS (s, se, sys_rt_sigprocmask (SIG_BLOCK, &ks, NULL));
  LIBC (l, le, sigprocmask (SIG_BLOCK, &ks, NULL));
  cmp_sys_libc (s, se, l, le, "sys_rt_sigprocmask SIG_BLOCK SIGKILL|SIGSTOP");
  cur = current_mask ();
  check_mask (&cur, &usr1, "SIGKILL and SIGSTOP stay unblocked");

  /* A real-time signal: the kernel's 64 bits are all passed.  qemu-user
     (arch/check-arches sets NC_QEMU) keeps the host's last signals
     for itself and cannot give the guest its SIGRTMAX.  */
  sigset_t rt = set_of (SIGRTMAX);
  SYS (s, se, sys_rt_sigprocmask (SIG_BLOCK, &rt, NULL));
  check_int (s, 0, "sys_rt_sigprocmask SIG_BLOCK SIGRTMAX");
  cur = current_mask ();
  if (getenv ("NC_QEMU"))
    skip ("sys_rt_sigprocmask SIGRTMAX (%d): under %s, which cannot map "
          "it to a host signal", SIGRTMAX, getenv ("NC_QEMU"));
  else
    check (sigismember (&cur, SIGRTMAX) == 1, "not blocked",
           "sys_rt_sigprocmask: libc sees SIGRTMAX (%d) blocked", SIGRTMAX);
  sigprocmask (SIG_SETMASK, &usr1, NULL);

  /* Errors.  */
  sigfillset (&old);
  sigfillset (&old2);
  SYS (s, se, sys_rt_sigprocmask (99, &usr2, &old));
  LIBC (l, le, sigprocmask (99, &usr2, &old2));
  cmp_sys_libc (s, se, l, le, "sys_rt_sigprocmask with how 99: EINVAL");
  check_mask (&old, &old2,
              "sys_rt_sigprocmask failing: oldset left alone, as libc");
  cur = current_mask ();
  check_mask (&cur, &usr1, "sys_rt_sigprocmask failing: mask unchanged");

  /* An oldset the kernel cannot write: -EFAULT (in a child: a wrapper that
     wrote there itself would crash).  */
  int status[2];
  for (int pass = 0; pass < 2; pass++)
    {
      fflush (stdout);
      pid_t pid = fork ();
      if (pid == 0)
        {
          struct sigaction sa = { .sa_handler = on_segv };
          sigaction (SIGSEGV, &sa, NULL);
          sigaction (SIGBUS, &sa, NULL);
          long r = pass == 0
            ? sys_rt_sigprocmask (SIG_BLOCK, NULL, (sigset_t *) 16)
            : (sigprocmask (SIG_BLOCK, NULL, (sigset_t *) 16) < 0
               ? -errno : 0);
          _exit (r < 0 ? (int) -r : 100);
        }
      status[pass] = -1;
      if (pid > 0)
        waitpid (pid, &status[pass], 0);
    }
  /* The children's exit codes: the errno, 200 for a SIGSEGV.  */
  int code[2];
  for (int pass = 0; pass < 2; pass++)
    code[pass] = WIFEXITED (status[pass]) ? WEXITSTATUS (status[pass]) : -1;
  char detail[160];
  snprintf (detail, sizeof detail, "wrapper: %s %d, libc: errno %d",
            code[0] == 200 ? "SIGSEGV in the wrapper, exit" : "exit",
            code[0], code[1]);
  check (code[0] == code[1] && code[1] == EFAULT, detail,
         "sys_rt_sigprocmask with an unwritable oldset: EFAULT as libc");

  sigprocmask (SIG_SETMASK, &empty, NULL);
}

static void
test_sigsuspend (void)
{
  long long s, l;
  int se, le;
  sigset_t usr1 = set_of (SIGUSR1), empty = set_of (0), cur;

  for (int pass = 0; pass < 2; pass++)
    {
      sigprocmask (SIG_SETMASK, &usr1, NULL);
      usr1_count = 0;
      fflush (stdout);
      pid_t pid = fork ();
      if (pid == 0)
        {
          struct timespec ms10 = { 0, 10 * 1000 * 1000 };
          nanosleep (&ms10, NULL);
          kill (getppid (), SIGUSR1);
          _exit (0);
        }
      if (pid < 0)
        die ("fork");
      if (pass == 0)
        {
          SYS (s, se, sys_rt_sigsuspend (&empty));
          l = -1;
          le = EINTR;
          cmp_sys_libc (s, se, l, le,
                        "sys_rt_sigsuspend woken by SIGUSR1: EINTR");
        }
      else
        {
          LIBC (l, le, sigsuspend (&empty));
          check (l == -1 && le == EINTR, "libc sigsuspend differs",
                 "libc sigsuspend agrees: -1, EINTR");
        }
      waitpid (pid, NULL, 0);
      check_int (usr1_count, 1, "%s: the handler ran once",
                 pass ? "sigsuspend" : "sys_rt_sigsuspend");
      cur = current_mask ();
      check_mask (&cur, &usr1, "%s: the mask is restored",
                  pass ? "sigsuspend" : "sys_rt_sigsuspend");
    }

  /* A signal already pending and blocked: unblocked by the mask at once.  */
  usr1_count = 0;
  raise (SIGUSR1);
  SYS (s, se, sys_rt_sigsuspend (&empty));
  check_int (s, -EINTR, "sys_rt_sigsuspend with SIGUSR1 pending: EINTR");
  check_int (usr1_count, 1, "sys_rt_sigsuspend: the pending signal handled");
  CMP (sys_rt_sigsuspend ((const sigset_t *) 16),
       sigsuspend ((const sigset_t *) 16),
       "sys_rt_sigsuspend with a bad pointer: EFAULT");
  sigprocmask (SIG_SETMASK, &empty, NULL);
}

static double
elapsed_ms (const struct timespec *t0)
{
  struct timespec t1;
  clock_gettime (CLOCK_MONOTONIC, &t1);
  return (t1.tv_sec - t0->tv_sec) * 1e3 + (t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* ppoll and pselect6 wait alike: each case below runs against both, as
   a wait for one descriptor to be readable.  */
struct wait_call
{
  const char *sys, *libc;       /* "sys_ppoll", "ppoll" */
  const char *ready;            /* what a wait for a ready pipe returns */
  /* SEEN (what the call reported of the descriptor) is revents for ppoll:
     sys's must be libc's.  For pselect6 it is whether the descriptor
     stayed in the set: set when ready, cleared on a timeout.  */
  bool seen_is_revents;
  /* Wait by the sys_* call (LIBC false) or libc's for FD to be readable,
     with timeout TS (updated) and MASK; store what the call reported of
     FD in *SEEN.  Returns -errno (sys_*), or -1 with errno set (libc).  */
  long long (*wait) (bool libc, int fd, struct timespec *ts,
                     const sigset_t *mask, int *seen);
  /* The cases of this call alone, with the pipe P, empty.  */
  void (*own_cases) (int p[2]);
};

static long long
ppoll_read (bool libc, int fd, struct timespec *ts, const sigset_t *mask,
            int *seen)
{
  struct pollfd pfd = { .fd = fd, .events = POLLIN };
  long long r = (libc ? ppoll (&pfd, 1, ts, mask)
                 : sys_ppoll (&pfd, 1, ts, mask));
  *seen = pfd.revents;
  return r;
}

static long long
pselect_read (bool libc, int fd, struct timespec *ts, const sigset_t *mask,
              int *seen)
{
  fd_set rs;
  FD_ZERO (&rs);
  FD_SET (fd, &rs);
  long long r = (libc ? pselect (fd + 1, &rs, NULL, NULL, ts, mask)
                 : sys_pselect6 (fd + 1, &rs, NULL, NULL, ts, mask));
  *seen = FD_ISSET (fd, &rs);
  return r;
}

static void
on_alarm (int sig)
{
  (void) sig;
}

/* A timeout beyond 2038 reaches the kernel whole (ppoll_time64 and
   pselect6_time64 on the 32-bit architectures): 2^31 + 5 s, past what a
   32-bit time_t holds, on the empty read end of pipe P, is still running
   when a timer's SIGALRM ends it 50 ms later: EINTR.  Its first 8 bytes
   read as a 32-bit timespec would be invalid in either byte order, a
   negative second (little-endian) or 2^31 + 5 ns (big-endian): EINVAL.
   (2^32 s would read as 1 s on big-endian, which the signal also
   interrupts: it could not tell.)  */
static void
wide_timeout_case (const char *name, int p[2], bool pselect)
{
  if (sizeof (time_t) < 8)
    {
      skip ("%s with a timeout beyond 2038: 32-bit time_t", name);
      return;
    }
  struct sigaction sa = { .sa_handler = on_alarm }, old;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGALRM, &sa, &old);
  struct itimerval it = { .it_value = { 0, 50000 } }, off = { { 0, 0 }, { 0, 0 } };
  struct timespec wide = { (time_t) ((1LL << 31) + 5), 0 };
  struct pollfd pfd = { .fd = p[0], .events = POLLIN };
  fd_set rs;
  FD_ZERO (&rs);
  FD_SET (p[0], &rs);
  setitimer (ITIMER_REAL, &it, NULL);
  long r = pselect ? sys_pselect6 (p[0] + 1, &rs, NULL, NULL, &wide, NULL)
                   : sys_ppoll (&pfd, 1, &wide, NULL);
  setitimer (ITIMER_REAL, &off, NULL);
  sigaction (SIGALRM, &old, NULL);
  check_int (r, -EINTR, "%s with a timeout of 2^31 + 5 s: still waiting "
             "when a signal came (EINTR), not refused", name);
}

static void
ppoll_own_cases (int p[2])
{
  struct pollfd fs = { .fd = p[0], .events = POLLIN };
  struct pollfd fl = fs;
  char c;
  xwrite (p[1], "x", 1);
  CMP (sys_ppoll (&fs, 1, NULL, NULL), ppoll (&fl, 1, NULL, NULL),
       "sys_ppoll with no timeout, data: ready");
  xread (p[0], &c, 1);
  struct timespec zero = { 0, 0 };
  CMP (sys_ppoll (&fs, 1, &zero, NULL), ppoll (&fl, 1, &zero, NULL),
       "sys_ppoll with a zero timeout: 0 at once");

  struct pollfd nv = { .fd = 9999, .events = POLLIN }, nv2 = nv;
  CMP (sys_ppoll (&nv, 1, &zero, NULL), ppoll (&nv2, 1, &zero, NULL),
       "sys_ppoll of a closed fd: 1");
  check_int (nv.revents, nv2.revents, "sys_ppoll: POLLNVAL as libc's");
  struct timespec bad = { -1, 0 };
  CMP (sys_ppoll (&fs, 1, &bad, NULL), ppoll (&fl, 1, &bad, NULL),
       "sys_ppoll with a negative timeout: EINVAL");
  wide_timeout_case ("sys_ppoll", p, false);
  /* volatile: GCC would see through these and refuse to compile.  */
  volatile nfds_t huge = (nfds_t) 1 << 30;
  struct pollfd *volatile badp = (struct pollfd *) 16;
  CMP_BADMEM (sys_ppoll (&fs, huge, &zero, NULL),
              ppoll (&fl, huge, &zero, NULL), EINVAL,
              "sys_ppoll with 2^30 fds: EINVAL");
  CMP_BADMEM (sys_ppoll (badp, 1, &zero, NULL), ppoll (badp, 1, &zero, NULL),
              EFAULT, "sys_ppoll with a bad pointer: EFAULT");
}

static void
pselect_own_cases (int p[2])
{
  /* Write side of the pipe: ready for writing.  */
  fd_set ws, wl;
  FD_ZERO (&ws);
  FD_SET (p[1], &ws);
  wl = ws;
  CMP (sys_pselect6 (p[1] + 1, NULL, &ws, NULL, NULL, NULL),
       pselect (p[1] + 1, NULL, &wl, NULL, NULL, NULL),
       "sys_pselect6 for writing, no timeout: 1");

  struct timespec zero = { 0, 0 };
  fd_set rs, rl;
  FD_ZERO (&rs);
  FD_SET (p[0], &rs);
  rl = rs;
  CMP (sys_pselect6 (-1, &rs, NULL, NULL, &zero, NULL),
       pselect (-1, &rl, NULL, NULL, &zero, NULL),
       "sys_pselect6 with nfds -1: EINVAL");
  wide_timeout_case ("sys_pselect6", p, true);
  int closed = dup (p[0]);
  close (closed);
  FD_ZERO (&rs);
  FD_SET (closed, &rs);
  rl = rs;
  CMP (sys_pselect6 (closed + 1, &rs, NULL, NULL, &zero, NULL),
       pselect (closed + 1, &rl, NULL, NULL, &zero, NULL),
       "sys_pselect6 of a closed fd: EBADF");
}

static const struct wait_call wait_calls[] = {
  { "sys_ppoll", "ppoll", "ready", true, ppoll_read, ppoll_own_cases },
  { "sys_pselect6", "pselect", "1", false, pselect_read,
    pselect_own_cases },
};

/* The cases of both calls: W on the empty pipe P.  */
static void
test_wait_call (const struct wait_call *w, int p[2])
{
  long long s, l;
  int se, le, seen, seen_libc;
  sigset_t usr1 = set_of (SIGUSR1), empty = set_of (0), cur;
  struct timespec t0;

  /* Data in the pipe: ready, and about all the timeout left.  */
  xwrite (p[1], "x", 1);
  struct timespec ts = { 1, 0 }, tl = { 1, 0 };
  SYS (s, se, w->wait (false, p[0], &ts, NULL, &seen));
  LIBC (l, le, w->wait (true, p[0], &tl, NULL, &seen_libc));
  cmp_sys_libc (s, se, l, le, "%s of a pipe with data: %s", w->sys,
                w->ready);
  if (w->seen_is_revents)
    check_int (seen, seen_libc, "%s: revents as libc's (POLLIN)", w->sys);
  else
    check (seen, "not set", "%s: the fd is set", w->sys);
  check (ts.tv_sec == 0 ? ts.tv_nsec > 900000000 : ts.tv_sec == 1
         && ts.tv_nsec == 0, "timeout not ~1 s",
         "%s ready: the timeout left is ~1 s", w->sys);

  /* An empty pipe, 20 ms: 0, and the time left is 0.  */
  char c;
  xread (p[0], &c, 1);
  ts = (struct timespec) { 0, 20 * 1000 * 1000 };
  tl = ts;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  SYS (s, se, w->wait (false, p[0], &ts, NULL, &seen));
  double ms = elapsed_ms (&t0);
  LIBC (l, le, w->wait (true, p[0], &tl, NULL, &seen_libc));
  cmp_sys_libc (s, se, l, le, "%s of an empty pipe, 20 ms: 0", w->sys);
  check (ms >= 19 && ms < 1000, "too short or too long",
         "%s 20 ms: waited %.1f ms", w->sys, ms);
  check (ts.tv_sec == 0 && ts.tv_nsec == 0, "timeout not updated",
         "%s timed out: the timeout left is 0", w->sys);
  if (!w->seen_is_revents)
    check (!seen, "still set", "%s timed out: the set is cleared", w->sys);

  /* The mask: SIGUSR1 pending and blocked, a mask without it: EINTR.  */
  sigprocmask (SIG_SETMASK, &usr1, NULL);
  for (int pass = 0; pass < 2; pass++)
    {
      usr1_count = 0;
      raise (SIGUSR1);
      ts = (struct timespec) { 2, 0 };
      if (pass == 0)
        {
          SYS (s, se, w->wait (false, p[0], &ts, &empty, &seen));
          cmp_sys_libc (s, se, -1, EINTR, "%s with a mask unblocking a "
                        "pending SIGUSR1: EINTR", w->sys);
        }
      else
        {
          LIBC (l, le, w->wait (true, p[0], &ts, &empty, &seen));
          check (l == -1 && le == EINTR, "libc differs",
                 "libc %s agrees: EINTR", w->libc);
        }
      check_int (usr1_count, 1, "%s with the mask: the handler ran",
                 pass ? w->libc : w->sys);
      cur = current_mask ();
      check_mask (&cur, &usr1, "%s: the mask is restored",
                  pass ? w->libc : w->sys);
    }
  /* A mask that keeps it blocked: a plain timeout.  */
  usr1_count = 0;
  raise (SIGUSR1);
  ts = (struct timespec) { 0, 20 * 1000 * 1000 };
  SYS (s, se, w->wait (false, p[0], &ts, &usr1, &seen));
  check_int (s, 0, "%s with a mask blocking SIGUSR1: times out", w->sys);
  check_int (usr1_count, 0, "%s: the blocked signal not handled", w->sys);
  sigprocmask (SIG_SETMASK, &empty, NULL);
  check_int (usr1_count, 1, "the pending SIGUSR1 handled once unblocked");

  struct timespec bad = { 0, 1000000000 }, bad_libc = bad;
  SYS (s, se, w->wait (false, p[0], &bad, NULL, &seen));
  LIBC (l, le, w->wait (true, p[0], &bad_libc, NULL, &seen_libc));
  cmp_sys_libc (s, se, l, le, "%s with tv_nsec 1e9: EINVAL", w->sys);

  w->own_cases (p);
}

static void
test_ppoll (void)
{
  for (size_t i = 0; i < sizeof wait_calls / sizeof wait_calls[0]; i++)
    {
      int p[2];
      if (pipe2 (p, O_CLOEXEC) < 0)
        die ("pipe2");
      test_wait_call (&wait_calls[i], p);
      close (p[0]);
      close (p[1]);
    }
}

static void
test_signals (void)
{
  struct sigaction sa = { .sa_handler = on_signal };
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR1, &sa, NULL);
  sigaction (SIGUSR2, &sa, NULL);
  test_sigprocmask ();
  test_sigsuspend ();
  test_ppoll ();
}

/* ------------------------------------------------------------------ */
/* A process's end and directories' changes, as descriptors.  */

static void
test_pidfd_inotify (void)
{
  long long s, l;
  int se, le;

  /* A pidfd of a child: readable once it has ended, not before.  */
  int pipefd[2];
  if (pipe2 (pipefd, O_CLOEXEC) != 0)
    die ("pipe2");
  pid_t child = fork ();
  if (child < 0)
    die ("fork");
  if (child == 0)
    {
      char c;
      close (pipefd[1]);
      _exit (read (pipefd[0], &c, 1) == 1 ? 0 : 1);
    }
  close (pipefd[0]);
  SYS (s, se, sys_pidfd_open (child, 0));
  LIBC (l, le, syscall (SYS_pidfd_open, child, 0));
  cmp_fd (s, se, l, le, "sys_pidfd_open of a child");
  if (l >= 0)
    close (l);
  if (s >= 0)
    {
      struct pollfd p = { .fd = s, .events = POLLIN };
      check_int (poll (&p, 1, 0), 0, "pidfd: not readable while it runs");
      xwrite (pipefd[1], "x", 1);
      check_int (poll (&p, 1, 10000), 1, "pidfd: readable once it ended");
      close (s);
    }
  close (pipefd[1]);
  waitpid (child, NULL, 0);
  /* The child is reaped: its pid names nothing.  */
  CMP (sys_pidfd_open (child, 0), syscall (SYS_pidfd_open, child, 0),
       "sys_pidfd_open of a reaped pid: ESRCH");
  CMP (sys_pidfd_open (getpid (), 1u << 20),
       syscall (SYS_pidfd_open, getpid (), 1u << 20),
       "sys_pidfd_open with an unknown flag: EINVAL");

  SYS (s, se, sys_inotify_init1 (IN_NONBLOCK | IN_CLOEXEC));
  LIBC (l, le, inotify_init1 (IN_NONBLOCK | IN_CLOEXEC));
  cmp_fd (s, se, l, le, "sys_inotify_init1");
  check_int (s >= 0 ? fcntl (s, F_GETFD) & FD_CLOEXEC : -1, FD_CLOEXEC,
             "sys_inotify_init1: close-on-exec");
  int ifd = s, lfd = l;
  long long swd, lwd;
  SYS (swd, se, sys_inotify_add_watch (ifd, scratch, IN_CREATE));
  LIBC (lwd, le, inotify_add_watch (lfd, scratch, IN_CREATE));
  cmp_sys_libc (swd, se, lwd, le, "sys_inotify_add_watch of a directory");
  CMP (sys_inotify_add_watch (ifd, "/nonexistent/x", IN_CREATE),
       inotify_add_watch (lfd, "/nonexistent/x", IN_CREATE),
       "sys_inotify_add_watch of a missing path: ENOENT");
  int fd = openat (dfd, "inotify-created", O_WRONLY | O_CREAT | O_CLOEXEC,
                   0644);
  close (fd);
  union
  {
    struct inotify_event e;
    char bytes[4096];
  } buf;
  ssize_t n = sys_read (ifd, buf.bytes, sizeof buf.bytes);
  check (n > 0 && (buf.e.mask & IN_CREATE)
         && strcmp (buf.e.name, "inotify-created") == 0, "no IN_CREATE",
         "sys_inotify_add_watch: the creation reported");
  CMP (sys_inotify_rm_watch (ifd, (int) swd), inotify_rm_watch (lfd, lwd),
       "sys_inotify_rm_watch");
  CMP (sys_inotify_rm_watch (ifd, (int) swd), inotify_rm_watch (lfd, lwd),
       "sys_inotify_rm_watch again: EINVAL");
  unlinkat (dfd, "inotify-created", 0);
  close (ifd);
  close (lfd);
}

/* ------------------------------------------------------------------ */

int
main (void)
{
  sys_test_start ();

  test_signals ();
  test_pidfd_inotify ();

  return tap_done ();
}
