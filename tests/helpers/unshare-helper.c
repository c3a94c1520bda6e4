/* unshare-helper -- small probes for tests/tools/unshare.bats.

   unshare-helper zombie
       Make an orphan: fork a child that forks a grandchild and ends at
       once.  The grandchild ends too and goes to the reaper of the PID
       namespace.  Print "reaped" once it has been waited for (its /proc
       entry is gone), or "zombie" (exit 1) if it stays unreaped: at once
       when its parent is this process, which never waits, else after 10
       seconds.  Needs a /proc of the current PID namespace.
   unshare-helper share-fs COMMAND...
       Run COMMAND in a child made with clone(CLONE_FS): it shares this
       process's working directory until one of them unshares it.  When it
       is done, print this process's working directory.
   unshare-helper share-sysvsem COMMAND...
       Create a System V semaphore (value 0), export its id as NC_SEMID,
       run COMMAND in a child made with clone(CLONE_SYSVSEM), and print the
       semaphore's value when COMMAND is done.
   unshare-helper semup
       Add 1 to semaphore $NC_SEMID with SEM_UNDO: the kernel takes it back
       when the last process sharing the undo list ends.
   unshare-helper clock monotonic|boottime
       Print the clock, in nanoseconds.
   unshare-helper status COMMAND...
       Run COMMAND and print how it ended: "exit N" or "signal N".
   unshare-helper catch
       Print "ready", wait for SIGTERM, SIGINT or SIGHUP, print
       "got SIGNUMBER N" and exit 7.
   unshare-helper ns-parse LIST
       Print the flags ns_flags_parse finds in LIST, described by
       ns_flags_describe, or "bad: ITEM" (exit 1).
   unshare-helper ns-inode NAME [PID]
       Print the inode of namespace NAME of PID (default: this process).  */

#include <config.h>

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ns/kinds.h"

static void
fail (const char *what)
{
  fprintf (stderr, "unshare-helper: %s: %s\n", what, strerror (errno));
  exit (2);
}

/* A child made by clone(FLAGS | SIGCHLD), as fork() makes one (same
   stack, copied), that runs ARGV; wait for it.  */
static void
run_cloned (unsigned long flags, char **argv)
{
  /* The raw call: on every architecture the stack and the ids come after
     the flags, and all are 0 here.  */
  long pid = syscall (SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
  if (pid < 0)
    fail ("clone");
  if (pid == 0)
    {
      execvp (argv[0], argv);
      fprintf (stderr, "unshare-helper: cannot run %s: %s\n", argv[0],
               strerror (errno));
      _exit (127);
    }
  int status;
  if (waitpid (pid, &status, 0) < 0)
    fail ("waitpid");
}

/* State and parent of process PID from /proc/PID/stat: 0, or -1 if it
   does not exist.  */
static int
proc_state (pid_t pid, char *state, pid_t *ppid)
{
  char path[64], buf[512];
  snprintf (path, sizeof path, "/proc/%ld/stat", (long) pid);
  FILE *f = fopen (path, "r");
  if (!f)
    return -1;
  size_t n = fread (buf, 1, sizeof buf - 1, f);
  fclose (f);
  buf[n] = '\0';
  /* The command name, in parentheses, may hold anything.  */
  char *p = strrchr (buf, ')');
  long parent;
  if (!p || sscanf (p + 1, " %c %ld", state, &parent) != 2)
    return -1;
  *ppid = parent;
  return 0;
}

static int
zombie (void)
{
  int fds[2];
  if (pipe (fds) < 0)
    fail ("pipe");
  pid_t mid = fork ();
  if (mid < 0)
    fail ("fork");
  if (mid == 0)
    {
      pid_t orphan = fork ();
      if (orphan == 0)
        _exit (0);
      if (write (fds[1], &orphan, sizeof orphan) != sizeof orphan)
        _exit (1);
      _exit (0);
    }
  pid_t orphan;
  if (read (fds[0], &orphan, sizeof orphan) != sizeof orphan || orphan < 0)
    fail ("read");
  waitpid (mid, NULL, 0);

  for (int i = 0; i < 1000; i++)
    {
      char state;
      pid_t ppid;
      if (proc_state (orphan, &state, &ppid) < 0)
        {
          puts ("reaped");
          return 0;
        }
      if (state == 'Z' && ppid == getpid ())
        break;
      struct timespec ts = { 0, 10 * 1000 * 1000 };
      nanosleep (&ts, NULL);
    }
  puts ("zombie");
  return 1;
}

static int
share_fs (char **argv)
{
  run_cloned (CLONE_FS, argv);
  char cwd[4096];
  if (!getcwd (cwd, sizeof cwd))
    fail ("getcwd");
  puts (cwd);
  return 0;
}

static int
share_sysvsem (char **argv)
{
  int id = semget (IPC_PRIVATE, 1, IPC_CREAT | 0600);
  if (id < 0)
    fail ("semget");
  char text[32];
  snprintf (text, sizeof text, "%d", id);
  setenv ("NC_SEMID", text, 1);
  run_cloned (CLONE_SYSVSEM, argv);
  int value = semctl (id, 0, GETVAL);
  semctl (id, 0, IPC_RMID);
  if (value < 0)
    fail ("semctl");
  printf ("%d\n", value);
  return 0;
}

static int
semup (void)
{
  const char *id = getenv ("NC_SEMID");
  struct sembuf op = { .sem_num = 0, .sem_op = 1, .sem_flg = SEM_UNDO };
  if (!id || semop (atoi (id), &op, 1) < 0)
    fail ("semop");
  return 0;
}

static int
print_clock (const char *name)
{
  clockid_t clock = strcmp (name, "boottime") == 0 ? CLOCK_BOOTTIME
                    : CLOCK_MONOTONIC;
  struct timespec ts;
  if (clock_gettime (clock, &ts) < 0)
    fail ("clock_gettime");
  printf ("%lld\n", (long long) ts.tv_sec * 1000000000LL + ts.tv_nsec);
  return 0;
}

static int
status (char **argv)
{
  pid_t pid = fork ();
  if (pid < 0)
    fail ("fork");
  if (pid == 0)
    {
      execvp (argv[0], argv);
      _exit (127);
    }
  int st;
  if (waitpid (pid, &st, 0) < 0)
    fail ("waitpid");
  if (WIFSIGNALED (st))
    printf ("signal %d\n", WTERMSIG (st));
  else
    printf ("exit %d\n", WEXITSTATUS (st));
  return 0;
}

static int
catch (void)
{
  sigset_t set;
  sigemptyset (&set);
  sigaddset (&set, SIGTERM);
  sigaddset (&set, SIGINT);
  sigaddset (&set, SIGHUP);
  sigprocmask (SIG_BLOCK, &set, NULL);
  puts ("ready");
  fflush (stdout);
  int sig;
  if (sigwait (&set, &sig) != 0)
    fail ("sigwait");
  printf ("got SIGNUMBER %d\n", sig);
  return 7;
}

static int
ns_parse (const char *list)
{
  int flags;
  const char *bad;
  if (ns_flags_parse (list, &flags, &bad) < 0)
    {
      printf ("bad: %.*s\n", (int) strcspn (bad, ","), bad);
      return 1;
    }
  char text[256];
  puts (ns_flags_describe (flags, text, sizeof text));
  return 0;
}

static int
ns_inode_print (const char *name, const char *pid)
{
  const struct ns_info *ns = ns_by_name (name, strlen (name));
  uint64_t ino;
  if (!ns)
    {
      fprintf (stderr, "unshare-helper: no namespace %s\n", name);
      return 2;
    }
  int ret = ns_inode (pid ? atoi (pid) : 0, ns, false, &ino);
  if (ret < 0)
    {
      errno = -ret;
      fail (name);
    }
  printf ("%llu\n", (unsigned long long) ino);
  return 0;
}

int
main (int argc, char **argv)
{
  const char *cmd = argc > 1 ? argv[1] : "";
  if (strcmp (cmd, "zombie") == 0)
    return zombie ();
  if (strcmp (cmd, "share-fs") == 0 && argc > 2)
    return share_fs (argv + 2);
  if (strcmp (cmd, "share-sysvsem") == 0 && argc > 2)
    return share_sysvsem (argv + 2);
  if (strcmp (cmd, "semup") == 0)
    return semup ();
  if (strcmp (cmd, "clock") == 0 && argc > 2)
    return print_clock (argv[2]);
  if (strcmp (cmd, "status") == 0 && argc > 2)
    return status (argv + 2);
  if (strcmp (cmd, "catch") == 0)
    return catch ();
  if (strcmp (cmd, "ns-parse") == 0 && argc > 2)
    return ns_parse (argv[2]);
  if (strcmp (cmd, "ns-inode") == 0 && argc > 2)
    return ns_inode_print (argv[2], argc > 3 ? argv[3] : NULL);
  fprintf (stderr, "usage: unshare-helper zombie | share-fs CMD... | "
           "share-sysvsem CMD... | semup | clock monotonic|boottime | "
           "status CMD... | catch | ns-parse LIST | ns-inode NAME [PID]\n");
  return 2;
}
