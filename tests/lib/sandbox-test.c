/* sandbox-test.c -- the C test driver for lib/ns/sandbox.c: the sandbox
   options read out of a command line before popt.

   What is proved: each option's words land in struct ns_sandbox, the
   steps in the order given, and the rest of the command line is left
   for popt as it was, in order; the words a tool option takes as its
   argument (by ns_sandbox_popt_arg on a popt table: long, abbreviated,
   after '=', a letter in a cluster or not) are never read as sandbox
   options; nothing is read from the first operand or "--" on; --perms
   and --size go to the next step that takes them, bubblewrap's
   defaults otherwise; the words of --args FD (ns/argsfd.c) are read in
   its place, FD closed, and hold options only, each with its
   arguments, at most 9000 words in all; and every malformed option is
   a usage error (status 2) whose message names it.

   The last line is "sandbox-test: N passed, M failed, K skipped"; the
   exit status is 1 if any check failed.  */

#include <config.h>

#include <linux/capability.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli/common.h"
#include "ns/mount.h"
#include "ns/sandbox.h"

#define TAP_NAME "sandbox-test"
#include "tap.h"

/* A tool's table, as unshare-run's: a required argument, a letter that
   takes one, a letter that takes none, an argument only after '=', and
   two names an abbreviation cannot tell apart.  */
static struct poptOption tool_rows[] = {
  { "hostname", '\0', POPT_ARG_STRING, NULL, 1, NULL, NULL },
  { "setuid", 'S', POPT_ARG_STRING, NULL, 2, NULL, NULL },
  { "map-root-user", 'r', POPT_ARG_NONE, NULL, 3, NULL, NULL },
  { "net", 'n', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, 4, NULL,
    NULL },
  { "wd", 'w', POPT_ARG_STRING, NULL, 5, NULL, NULL },
  { "files", '\0', POPT_ARG_NONE, NULL, 6, NULL, NULL },
  { "fsname", '\0', POPT_ARG_STRING, NULL, 7, NULL, NULL },
  POPT_TABLEEND
};
static struct poptOption tool_table[] = {
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, tool_rows, 0, NULL, NULL },
  POPT_TABLEEND
};

/* The words of a command line, "prog" first, in WORDS (NULL-ended):
   copied into ARGV (room for 64), *ARGC set.  */
static void
make_argv (const char *const *words, int *argc, char **argv)
{
  int n = 0;
  argv[n++] = (char *) "prog";
  for (; *words && n < 63; words++)
    argv[n++] = (char *) *words;
  argv[n] = NULL;
  *argc = n;
}

/* Free what the options read into S allocated.  */
static void
forget (struct ns_sandbox *s)
{
  free (s->steps);
  free (s->env);
  free (s->caps);
  free (s->lock_files);
  for (size_t i = 0; i < s->n_args; i++)
    {
      free (s->args[i].data);
      free (s->args[i].words);
    }
  free (s->args);
  free (s->argv);
  *s = (struct ns_sandbox) { 0 };
}

/* Take the sandbox options of WORDS into *S (emptied first); the rest
   of the command line, its words joined by spaces, in REST.  */
static void
take (const char *const *words, struct ns_sandbox *s, char *rest,
      size_t size)
{
  static char *line[64];
  char **argv = line;
  int argc;
  make_argv (words, &argc, argv);
  forget (s);
  ns_sandbox_take_popt (s, &argc, &argv, tool_table);
  rest[0] = '\0';
  for (int i = 1; i < argc; i++)
    {
      size_t len = strlen (rest);
      snprintf (rest + len, size - len, "%s%s", i > 1 ? " " : "", argv[i]);
    }
  tap_check_int (argv[argc] == NULL, 1, "the rest ends with NULL");
}

/* Taking WORDS is a usage error (status 2) whose message holds WANT.  */
static void
check_error (const char *const *words, const char *want)
{
  int p[2];
  if (pipe (p) < 0)
    tap_die ("pipe");
  fflush (NULL);
  pid_t pid = fork ();
  if (pid < 0)
    tap_die ("fork");
  if (pid == 0)
    {
      close (p[0]);
      dup2 (p[1], STDERR_FILENO);
      /* Static: what it holds is no leak when the usage error exits.  */
      static struct ns_sandbox s;
      char rest[256];
      take (words, &s, rest, sizeof rest);
      _exit (0);
    }
  close (p[1]);
  char msg[1024];
  size_t len = read_all (p[0], msg, sizeof msg - 1);
  msg[len] = '\0';
  close (p[0]);
  int status;
  waitpid (pid, &status, 0);
  char *nl = strchr (msg, '\n');
  if (nl)
    *nl = '\0';
  tap_check (WIFEXITED (status) && WEXITSTATUS (status) == 2
             && strstr (msg, want), msg, "usage error: %s", want);
}

#define W(...) ((const char *const[]) { __VA_ARGS__, NULL })

static void
test_steps (void)
{
  struct ns_sandbox s = { 0 };
  char rest[512];
  take (W ("--ro-bind", "/usr", "/usr", "-n", "--bind-try", "/a", "/b",
           "--dev-bind", "/dev", "/dev", "--tmpfs", "/tmp", "--proc", "/proc",
           "--dev", "/dev", "--mqueue", "/dev/mqueue", "--dir", "/d",
           "--symlink", "usr/lib", "/lib", "--remount-ro", "/usr",
           "--file", "3", "/etc/f", "--bind-data", "4", "/etc/g",
           "--ro-bind-data", "5", "/etc/h", "--chmod", "0700", "/d",
           "--ro-bind-try", "/x", "/y", "--dev-bind-try", "/p", "/q",
           "--bind", "/r", "/s", "true", "--bind", "/a", "/b"),
        &s, rest, sizeof rest);
  tap_check_str (rest, "-n true --bind /a /b",
                 "the rest: the tool's option, COMMAND and its words");
  tap_check_int (s.n_steps, 17, "17 steps");
  if (s.n_steps != 17)
    {
      forget (&s);
      return;
    }
  static const struct { enum ns_step_kind kind; const char *option;
                        unsigned int flags; } want[] = {
    { NS_STEP_BIND, "--ro-bind", NS_BIND_RO },
    { NS_STEP_BIND, "--bind-try", NS_BIND_TRY },
    { NS_STEP_BIND, "--dev-bind", NS_BIND_DEV },
    { NS_STEP_TMPFS, "--tmpfs", 0 }, { NS_STEP_PROC, "--proc", 0 },
    { NS_STEP_DEV, "--dev", 0 }, { NS_STEP_MQUEUE, "--mqueue", 0 },
    { NS_STEP_DIR, "--dir", 0 }, { NS_STEP_SYMLINK, "--symlink", 0 },
    { NS_STEP_REMOUNT_RO, "--remount-ro", 0 },
    { NS_STEP_FILE, "--file", 0 }, { NS_STEP_BIND_DATA, "--bind-data", 0 },
    { NS_STEP_BIND_DATA, "--ro-bind-data", NS_BIND_RO },
    { NS_STEP_CHMOD, "--chmod", 0 },
    { NS_STEP_BIND, "--ro-bind-try", NS_BIND_RO | NS_BIND_TRY },
    { NS_STEP_BIND, "--dev-bind-try", NS_BIND_DEV | NS_BIND_TRY },
    { NS_STEP_BIND, "--bind", 0 },
  };
  for (size_t i = 0; i < 17; i++)
    tap_ok (s.steps[i].kind == want[i].kind
            && strcmp (s.steps[i].option, want[i].option) == 0
            && s.steps[i].flags == want[i].flags,
            "step %zu is %s, in the order given", i + 1, want[i].option);
  tap_check_str (s.steps[0].src, "/usr", "--ro-bind's SRC");
  tap_check_str (s.steps[1].dst, "/b", "--bind-try's DST");
  tap_check_str (s.steps[8].src, "usr/lib", "--symlink's TARGET");
  tap_check_str (s.steps[8].dst, "/lib", "--symlink's DST");
  tap_check_int (s.steps[10].fd, 3, "--file's FD");
  tap_check_str (s.steps[10].dst, "/etc/f", "--file's DST");
  tap_check_int (s.steps[12].fd, 5, "--ro-bind-data's FD");
  tap_check_int (s.steps[13].mode, 0700, "--chmod's MODE, octal");
  tap_check_str (s.steps[13].dst, "/d", "--chmod's PATH");
  tap_check_int (s.steps[0].fd, -1, "a step without FD: -1");
  tap_ok (ns_sandbox_has_root (&s), "ns_sandbox_has_root");
  take (W ("--bind-fd", "7", "/a", "--ro-bind-fd", "9", "/c",
           "--ro-bind-fd=8", "/b"), &s, rest, sizeof rest);
  tap_ok (s.n_steps == 2 && s.steps[0].kind == NS_STEP_BIND_FD
          && s.steps[0].fd == 7 && s.steps[0].flags == 0
          && strcmp (s.steps[0].dst, "/a") == 0
          && s.steps[1].kind == NS_STEP_BIND_FD && s.steps[1].fd == 9
          && s.steps[1].flags == NS_BIND_RO && !s.steps[1].src
          && strcmp (rest, "--ro-bind-fd=8 /b") == 0,
          "--bind-fd, --ro-bind-fd: FD and DST; not written with '='");
  take (W ("-n", "true"), &s, rest, sizeof rest);
  tap_ok (!ns_sandbox_has_root (&s), "no step: no new root");
  tap_ok (s.seccomp_fd == -1 && s.info_fd == -1 && s.sync_fd == -1
          && s.block_fd == -1, "descriptors not given: -1");
  forget (&s);
}

/* --perms and --size: the next step's, else bubblewrap's defaults.  */
static void
test_modifiers (void)
{
  struct ns_sandbox s = { 0 };
  char rest[256];
  take (W ("--tmpfs", "/a", "--dir", "/b", "--file", "3", "/c",
           "--bind-data", "3", "/d", "--ro-bind-data", "3", "/e"),
        &s, rest, sizeof rest);
  tap_ok (s.steps[0].mode == 0755 && s.steps[1].mode == 0755
          && s.steps[2].mode == 0666 && s.steps[3].mode == 0600
          && s.steps[4].mode == 0600 && !s.steps[0].mode_set
          && s.steps[0].size == 0,
          "defaults: tmpfs, dir 0755, file 0666, bind-data 0600");
  take (W ("--size", "1M", "--perms", "1777", "--tmpfs", "/tmp",
           "--perms", "0700", "--dir", "/d", "--perms", "640", "--file",
           "3", "/f", "--perms", "0444", "--size", "0x1000", "--tmpfs",
           "/t", "--tmpfs", "/u", "--perms", "0", "--ro-bind-data", "3",
           "/r"),
        &s, rest, sizeof rest);
  tap_ok (s.steps[0].size == 1 << 20 && s.steps[0].mode == 01777
          && s.steps[0].mode_set, "--size 1M --perms 1777 --tmpfs");
  tap_ok (s.steps[1].mode == 0700 && s.steps[1].size == 0,
          "--perms 0700 --dir");
  tap_check_int (s.steps[2].mode, 0640, "--perms 640 --file");
  tap_ok (s.steps[3].size == 4096 && s.steps[3].mode == 0444,
          "--perms then --size, either order");
  tap_ok (s.steps[4].size == 0 && s.steps[4].mode == 0755
          && !s.steps[4].mode_set, "they apply to the next step only");
  tap_ok (s.steps[5].mode == 0 && s.steps[5].mode_set,
          "--perms 0 --ro-bind-data");

  check_error (W ("--perms", "700", "--bind", "/a", "/b"),
               "--perms must be followed by an option that creates a file");
  check_error (W ("--perms", "700", "--chmod", "700", "/a"),
               "--perms must be followed by an option that creates a file");
  check_error (W ("--perms", "700", "-n", "--dir", "/a"),
               "--perms must be followed by an option that creates a file");
  check_error (W ("--perms", "700", "true"),
               "--perms must be followed by an option that creates a file");
  check_error (W ("--size", "1M", "--dir", "/a"),
               "--size must be followed by --tmpfs");
  check_error (W ("--size", "1M"), "--size must be followed by --tmpfs");
  check_error (W ("--perms", "1", "--perms", "2", "--dir", "/a"),
               "--perms given twice for the same action");
  check_error (W ("--size", "1", "--size", "2", "--tmpfs", "/a"),
               "--size given twice for the same action");
  check_error (W ("--size", "0", "--tmpfs", "/a"), "invalid --size '0'");
  check_error (W ("--size", "-1", "--tmpfs", "/a"), "invalid --size '-1'");
  check_error (W ("--perms", "8", "--dir", "/a"),
               "invalid --perms '8': an octal mode is expected");
  check_error (W ("--perms", "10000", "--dir", "/a"),
               "invalid --perms '10000'");
  check_error (W ("--perms", "", "--dir", "/a"), "invalid --perms ''");
  check_error (W ("--chmod", "u+x", "/a"), "invalid --chmod 'u+x'");
  forget (&s);
}

/* Each option's arguments, and their errors.  */
static void
test_process_options (void)
{
  struct ns_sandbox s = { 0 };
  char rest[256];
  take (W ("--setenv", "A", "1", "--unsetenv", "B", "--clearenv",
           "--setenv", "C", "x=y", "--chdir", "/w", "--cap-drop", "ALL",
           "--cap-add", "cap_sys_admin", "--cap-drop", "CAP_NET_RAW",
           "--seccomp", "7", "--uid", "5", "--gid=6", "--map-users",
           "0:100000:65536", "--map-groups=auto", "--map-auto",
           "--info-fd", "8", "--sync-fd=9", "--block-fd", "10"),
        &s, rest, sizeof rest);
  tap_check_str (rest, "", "all taken");
  tap_ok (s.n_env == 4 && strcmp (s.env[0].name, "A") == 0
          && strcmp (s.env[0].value, "1") == 0
          && strcmp (s.env[1].name, "B") == 0 && !s.env[1].value
          && !s.env[2].name && strcmp (s.env[3].value, "x=y") == 0,
          "--setenv, --unsetenv, --clearenv, in order");
  tap_check_str (s.chdir, "/w", "--chdir");
  tap_ok (s.n_caps == 3 && s.caps[0].cap == -1 && !s.caps[0].add
          && s.caps[1].cap == CAP_SYS_ADMIN && s.caps[1].add
          && s.caps[2].cap == CAP_NET_RAW && !s.caps[2].add,
          "--cap-drop ALL, --cap-add in any case, in order");
  tap_ok (s.seccomp_fd == 7 && s.info_fd == 8 && s.sync_fd == 9
          && s.block_fd == 10, "the descriptors");
  tap_ok (s.uid_set && s.uid == 5 && s.gid_set && s.gid == 6,
          "--uid 5, --gid=6");
  tap_check_str (s.map_users, "0:100000:65536", "--map-users kept");
  tap_ok (s.users.inner == 0 && s.users.outer == 100000
          && s.users.count == 65536, "--map-users parsed");
  tap_check_str (s.map_groups, "auto", "--map-groups=auto");
  tap_ok (s.map_auto, "--map-auto");
  take (W ("--lock-file", "/a", "--lock-file=b", "--lock-file", "/a"), &s,
        rest, sizeof rest);
  tap_ok (s.n_lock_files == 3 && strcmp (s.lock_files[0], "/a") == 0
          && strcmp (s.lock_files[1], "b") == 0
          && strcmp (s.lock_files[2], "/a") == 0,
          "--lock-file: each DEST kept, in order, twice the same too");
#ifdef CAP_CHECKPOINT_RESTORE
  take (W ("--cap-add", "CAP_CHECKPOINT_RESTORE"), &s, rest, sizeof rest);
  tap_check_int (s.caps[0].cap, CAP_CHECKPOINT_RESTORE,
                 "the newest capability this build knows");
#endif

  check_error (W ("--cap-add", "SYS_ADMIN"),
               "invalid --cap-add 'SYS_ADMIN': unknown capability");
  check_error (W ("--cap-drop", "CAP_NOPE"), "unknown capability");
  check_error (W ("--setenv", "A=B", "1"), "invalid --setenv 'A=B'");
  check_error (W ("--unsetenv", ""), "invalid --unsetenv ''");
  check_error (W ("--uid", "x"), "invalid --uid 'x'");
  check_error (W ("--uid", "4294967295"), "invalid --uid '4294967295'");
  check_error (W ("--file", "-1", "/a"), "invalid --file '-1'");
  check_error (W ("--bind-data", "3x", "/a"), "invalid --bind-data '3x'");
  check_error (W ("--bind-fd", "", "/a"), "invalid --bind-fd ''");
  check_error (W ("--ro-bind-fd", "/a"),
               "--ro-bind-fd needs 2 arguments: --ro-bind-fd FD DST");
  check_error (W ("--seccomp", "2147483648"), "invalid --seccomp");
  check_error (W ("--map-users", "0:1"), "invalid --map-users '0:1'");
  check_error (W ("--map-users", "0:1:0"), "invalid --map-users '0:1:0'");
  check_error (W ("--map-groups=a:1:1"), "invalid --map-groups 'a:1:1'");
  check_error (W ("--map-users", "0:1:2:3"), "invalid --map-users");
  check_error (W ("--map-users", "1,2"), "invalid --map-users '1,2'");
  take (W ("--map-users", "100000,0,65536", "--map-groups", "7,8,9"), &s,
        rest, sizeof rest);
  tap_ok (s.users.inner == 0 && s.users.outer == 100000
          && s.users.count == 65536 && s.groups.inner == 8
          && s.groups.outer == 7 && s.groups.count == 9,
          "--map-users, --map-groups: the older OUTER,INNER,COUNT too");
  check_error (W ("--bind", "/a"), "--bind needs 2 arguments: --bind SRC DST");
  check_error (W ("--tmpfs"), "--tmpfs needs 1 argument: --tmpfs DST");
  check_error (W ("--lock-file"),
               "--lock-file needs 1 argument: --lock-file DEST");
  check_error (W ("--setenv", "A"),
               "--setenv needs 2 arguments: --setenv VAR VALUE");
  forget (&s);
}

/* --unshare-*, --share-net.  */
static void
test_namespaces (void)
{
  struct ns_sandbox s = { 0 };
  char rest[256];
  take (W ("--unshare-user", "--unshare-ipc", "--unshare-pid",
           "--unshare-net", "--unshare-uts", "--unshare-cgroup"),
        &s, rest, sizeof rest);
  tap_check_int (s.unshare_flags, CLONE_NEWUSER | CLONE_NEWIPC
                 | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWUTS
                 | CLONE_NEWCGROUP, "each --unshare-*");
  take (W ("--unshare-all", "--share-net"), &s, rest, sizeof rest);
  tap_ok (s.unshare_flags == (CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWNET
                              | CLONE_NEWUTS)
          && s.unshare_try_flags == (CLONE_NEWUSER | CLONE_NEWCGROUP)
          && s.share_flags == CLONE_NEWNET,
          "--unshare-all: user and cgroup where the kernel has them; "
          "--share-net");
  take (W ("--unshare-user-try", "--unshare-cgroup-try"), &s, rest,
        sizeof rest);
  tap_ok (s.unshare_flags == 0
          && s.unshare_try_flags == (CLONE_NEWUSER | CLONE_NEWCGROUP),
          "the -try forms");
  forget (&s);
}

/* The tool's own options and their arguments are left as they are.  */
static void
test_tool_words (void)
{
  struct ns_sandbox s = { 0 };
  char rest[256];
  take (W ("--hostname", "--bind", "--tmpfs", "/t"), &s, rest, sizeof rest);
  tap_ok (strcmp (rest, "--hostname --bind") == 0 && s.n_steps == 1,
          "--hostname --bind: the tool's argument");
  take (W ("--host", "--dir", "--tmpfs", "/t"), &s, rest, sizeof rest);
  tap_ok (strcmp (rest, "--host --dir") == 0 && s.n_steps == 1,
          "--host --dir: an abbreviation's argument");
  take (W ("-rS", "--dev", "--tmpfs", "/t"), &s, rest, sizeof rest);
  tap_ok (strcmp (rest, "-rS --dev") == 0 && s.n_steps == 1,
          "-rS --dev: the cluster's last letter takes the next word");
  take (W ("-S0", "--dev", "/dev"), &s, rest, sizeof rest);
  tap_ok (strcmp (rest, "-S0") == 0 && s.n_steps == 1,
          "-S0 --dev /dev: the rest of the cluster is the argument");
  take (W ("-Sr", "--dev", "/dev"), &s, rest, sizeof rest);
  tap_ok (strcmp (rest, "-Sr") == 0 && s.n_steps == 1,
          "-Sr: 'r' is -S's argument, not an option");
  take (W ("--hostname=h", "--dev", "/dev"), &s, rest, sizeof rest);
  tap_ok (strcmp (rest, "--hostname=h") == 0 && s.n_steps == 1,
          "--hostname=h: its argument after '='");
  take (W ("-n", "--proc", "/proc", "--net", "--dev", "/dev"), &s, rest,
        sizeof rest);
  tap_ok (strcmp (rest, "-n --net") == 0 && s.n_steps == 2,
          "-n, --net: an argument only after '=', none taken");
  take (W ("--f", "--dev", "/dev"), &s, rest, sizeof rest);
  tap_ok (strcmp (rest, "--f") == 0 && s.n_steps == 1,
          "--f, an abbreviation of two options: no argument taken");
  take (W ("--files", "--file", "3", "/f"), &s, rest, sizeof rest);
  tap_ok (strcmp (rest, "--files") == 0 && s.n_steps == 1
          && s.steps[0].kind == NS_STEP_FILE,
          "--files is the tool's, --file the sandbox's");
  take (W ("--bi", "/a", "/b"), &s, rest, sizeof rest);
  tap_ok (strcmp (rest, "--bi /a /b") == 0 && s.n_steps == 0,
          "a sandbox option is written in full: --bi is left to popt");
  take (W ("--", "--bind", "/a", "/b"), &s, rest, sizeof rest);
  tap_ok (strcmp (rest, "-- --bind /a /b") == 0 && s.n_steps == 0,
          "nothing is read after --");
  take (W ("-", "--bind", "/a", "/b"), &s, rest, sizeof rest);
  tap_ok (strcmp (rest, "- --bind /a /b") == 0 && s.n_steps == 0,
          "nothing is read from an operand '-' on");
  take (W ("--bind", "--", "-x", "--", "cmd"), &s, rest, sizeof rest);
  tap_ok (strcmp (rest, "-- cmd") == 0 && s.n_steps == 1
          && strcmp (s.steps[0].src, "--") == 0,
          "an option's words are taken whatever they are, as bubblewrap");
  take (W ("--tmpfs=/t", "--uid=0"), &s, rest, sizeof rest);
  tap_ok (s.n_steps == 1 && strcmp (s.steps[0].dst, "/t") == 0
          && s.uid_set, "a one-word option written OPTION=ARG");
  take (W ("--bind=/a", "/b"), &s, rest, sizeof rest);
  tap_ok (strcmp (rest, "--bind=/a /b") == 0 && s.n_steps == 0,
          "--bind=SRC is no sandbox option: left to popt");
  forget (&s);
}

/* Descriptor FD open on a pipe that holds LEN bytes of DATA (at most
   a pipe's 64 KiB), its writer closed; FD's number as a word, which
   stays valid until the next call for FD.  */
static const char *
data_fd (int fd, const char *data, size_t len)
{
  static char words[64][16];
  char *word = words[fd % 64];
  int p[2];
  if (pipe (p) < 0 || (size_t) write (p[1], data, len) != len
      || close (p[1]) < 0 || dup2 (p[0], fd) < 0 || close (p[0]) < 0)
    tap_die ("pipe");
  snprintf (word, sizeof *words, "%d", fd);
  return word;
}

#define DATA(fd, s) data_fd (fd, s, sizeof s - 1)

/* --args FD: its words read in its place, as if typed there.  */
static void
test_args (void)
{
  struct ns_sandbox s = { 0 };
  char rest[256];
  const char *fd = DATA (40, "--bind\0/s\0/b\0--hostname\0h\0-S\0"
                         "0\0--dir\0/c\0");
  int fd_number = atoi (fd);
  take (W ("--tmpfs", "/a", "-r", "--args", fd, "--symlink", "t", "/d",
           "-n", "cmd", "--args", "9"), &s, rest, sizeof rest);
  tap_check_str (rest, "-r --hostname h -S 0 -n cmd --args 9",
                 "the tool's options of --args in its place, in order");
  tap_ok (s.n_steps == 4 && strcmp (s.steps[0].dst, "/a") == 0
          && strcmp (s.steps[1].src, "/s") == 0
          && strcmp (s.steps[1].dst, "/b") == 0
          && strcmp (s.steps[2].dst, "/c") == 0
          && strcmp (s.steps[3].dst, "/d") == 0,
          "the steps of --args between those around it");
  tap_ok (fcntl (fd_number, F_GETFD) < 0 && errno == EBADF,
          "FD is closed once read");
  char eq[32];
  snprintf (eq, sizeof eq, "--args=%s",
            DATA (40, "--setenv\0A\0\0--chdir\0/x"));
  take (W (eq, "true"), &s, rest, sizeof rest);
  tap_ok (s.n_env == 1 && strcmp (s.env[0].value, "") == 0
          && s.chdir && strcmp (s.chdir, "/x") == 0
          && strcmp (rest, "true") == 0,
          "--args=FD; an empty word; the last word without its NUL");
  take (W ("--args", DATA (40, ""), "--args", DATA (41, "--dir\0/e\0"),
           "true"), &s, rest, sizeof rest);
  tap_ok (s.n_steps == 1 && strcmp (rest, "true") == 0,
          "empty data: no word; two --args one after the other");
  take (W ("--perms", "0700", "--args", DATA (40, "--dir\0/p\0")), &s, rest,
        sizeof rest);
  tap_ok (s.n_steps == 1 && s.steps[0].mode == 0700,
          "--perms before --args: for its first option, as bubblewrap");
  take (W ("--", "--args", "9"), &s, rest, sizeof rest);
  tap_check_str (rest, "-- --args 9", "nothing is read after --");
  take (W ("--setenv", "--args", "9"), &s, rest, sizeof rest);
  tap_ok (s.n_env == 1 && strcmp (s.env[0].value, "9") == 0,
          "--args as an option's argument is that argument");
  forget (&s);

  check_error (W ("--args", DATA (40, "--dir\0/x\0cmd\0")),
               "--args 40: 'cmd' is not an option: COMMAND");
  check_error (W ("--args", DATA (40, "--\0true\0")),
               "--args 40: '--' is not an option");
  check_error (W ("--args", DATA (40, "--dir\0/x\0\0")),
               "--args 40: '' is not an option");
  check_error (W ("--args", DATA (40, "--args\0" "4\0")),
               "--args 40: --args cannot be read from the words of another");
  check_error (W ("--args", DATA (40, "--bind\0/a\0"), "/b"),
               "--bind needs 2 arguments in the words of --args 40");
  check_error (W ("--args", DATA (40, "--tmpfs"), "/t"),
               "--tmpfs needs 1 argument in the words of --args 40");
  check_error (W ("--args", DATA (40, "--hostname\0"), "h"),
               "--hostname needs its argument in the words of --args 40");
  check_error (W ("--args", DATA (40, "-rS"), "0"),
               "-rS needs its argument in the words of --args 40");
  check_error (W ("--args", DATA (40, "--perms\0" "0700\0"), "--dir", "/d"),
               "--perms must be followed by an option that creates");
  check_error (W ("--args", DATA (40, "--size\0" "1M")),
               "--size must be followed by --tmpfs");
  check_error (W ("--args", "x"), "invalid --args 'x'");
  check_error (W ("--args="), "invalid --args '': missing descriptor");
  check_error (W ("--args"), "--args needs 1 argument: --args FD");
  static char many[9001];
  check_error (W ("--args", data_fd (40, many, sizeof many)),
               "--args 40: more than 9000 words from --args in all");
  static char options[4500 * 3];
  for (size_t i = 0; i < sizeof options; i += 3)
    memcpy (options + i, "-r", 3);
  check_error (W ("--args", data_fd (40, options, sizeof options), "--args",
                  data_fd (41, many, 4501)),
               "more than 9000 words from --args in all");
}

/* ns_sandbox_popt_arg on its own.  */
static void
test_popt_arg (void)
{
  tap_ok (ns_sandbox_popt_arg (tool_table, "hostname", true),
          "a required argument");
  tap_ok (ns_sandbox_popt_arg (tool_table, "ho", true), "by abbreviation");
  tap_ok (!ns_sandbox_popt_arg (tool_table, "net", true),
          "an optional one: only after '='");
  tap_ok (!ns_sandbox_popt_arg (tool_table, "map-root-user", true),
          "none");
  tap_ok (ns_sandbox_popt_arg (tool_table, "S", false), "a letter");
  tap_ok (!ns_sandbox_popt_arg (tool_table, "r", false),
          "a letter without one");
  tap_ok (!ns_sandbox_popt_arg (tool_table, "nope", true), "no such option");
  tap_ok (!ns_sandbox_popt_arg (tool_table, "f", true),
          "an ambiguous abbreviation");
  tap_ok (ns_sandbox_popt_arg (tool_table, "fsname", true),
          "a whole name that another one does not start");
}

int
main (int argc, char **argv)
{
  (void) argc;
  cli_init (1, argv);
  test_steps ();
  test_modifiers ();
  test_process_options ();
  test_namespaces ();
  test_tool_words ();
  test_args ();
  test_popt_arg ();
  return tap_done ();
}
