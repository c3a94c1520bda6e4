/* confine-test.c -- the C test driver for the process side of the
   sandbox under lib/ns/confine.c: the environment changes (ns/env.c),
   the capability sets (ns/caps.c), the seccomp program (ns/seccomp.c)
   and the ranges of user-namespace ids (ns/idmap.c).

   What changes the process (capabilities, a seccomp filter, the
   environment) is done in a child, which reports by its exit status.
   The capability checks need root, or a user namespace to be root in:
   without either they are skipped with the reason.

   The last line is "confine-test: N passed, M failed, K skipped"; the
   exit status is 1 if any check failed.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ns/caps.h"
#include "ns/env.h"
#include "ns/idmap.h"
#include "ns/seccomp.h"

/* gnulib replaces these; the tests want glibc's own.  */
#undef open
#undef close

#define TAP_NAME "confine-test"
#include "tap.h"

/* Run FN in a child; its exit status, or 128 + the signal that killed
   it.  */
static int
in_child (int (*fn) (void *), void *arg)
{
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    tap_die ("fork");
  if (pid == 0)
    _exit (fn (arg));
  int status;
  if (waitpid (pid, &status, 0) < 0)
    tap_die ("waitpid");
  return WIFEXITED (status) ? WEXITSTATUS (status)
         : 128 + WTERMSIG (status);
}

/* --- ns/idmap.c -------------------------------------------------------- */

static bool
range_is (const struct ns_id_range *r, uint32_t inner, uint32_t outer,
          uint32_t count)
{
  return r->inner == inner && r->outer == outer && r->count == count;
}

static void
test_idmap_parse (void)
{
  struct ns_id_range r = { 9, 9, 9 };
  tap_ok (ns_idmap_parse ("0:100000:65536", &r) == 0
          && range_is (&r, 0, 100000, 65536),
          "parse: INNER:OUTER:COUNT");
  tap_ok (ns_idmap_parse ("100000,0,65536", &r) == 0
          && range_is (&r, 0, 100000, 65536),
          "parse: OUTER,INNER,COUNT, the older order");
  static const char *const bad[] = {
    "", "1:2", "1:2:0", "a:b:c", "1:2:3:", "1,2:3", "-1:2:3", " 1:2:3",
    "4294967295:0:1", "0:4294967290:10", "99999999999:0:1"
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    {
      r = (struct ns_id_range) { 9, 9, 9 };
      tap_ok (ns_idmap_parse (bad[i], &r) == -EINVAL
              && range_is (&r, 9, 9, 9),
              "parse: '%s' refused, nothing stored", bad[i]);
    }
}

static void
test_idmap_lines (void)
{
  struct ns_id_range out[NS_IDMAP_LINES];
  struct ns_id_range range = { 0, 100000, 65536 };
  size_t n = ns_idmap_lines (&range, true, 0, 1000, out);
  tap_ok (n == 2 && range_is (&out[0], 0, 1000, 1)
          && range_is (&out[1], 1, 100000, 65535),
          "lines: -r with auto: 0 1000 1, 1 100000 65535 (unshare(1)'s)");
  n = ns_idmap_lines (&range, false, 0, 0, out);
  tap_ok (n == 1 && range_is (&out[0], 0, 100000, 65536),
          "lines: a range alone is one line");
  struct ns_id_range far = { 100, 200000, 10 };
  n = ns_idmap_lines (&far, true, 5, 1000, out);
  tap_ok (n == 2 && range_is (&out[1], 100, 200000, 10),
          "lines: a single id outside the range leaves it whole");
  struct ns_id_range mid = { 0, 100000, 10 };
  n = ns_idmap_lines (&mid, true, 3, 100005, out);
  tap_ok (n == 4 && range_is (&out[0], 3, 100005, 1)
          && range_is (&out[1], 0, 100000, 3)
          && range_is (&out[2], 4, 100003, 2)
          && range_is (&out[3], 6, 100006, 4),
          "lines: ids taken inside and outside are skipped on each side");
  /* No id appears twice on either side.  */
  bool seen_in[16] = { false }, seen_out[16] = { false }, twice = false;
  for (size_t i = 0; i < n; i++)
    for (uint32_t k = 0; k < out[i].count; k++)
      {
        uint32_t in = out[i].inner + k, o = out[i].outer + k - 100000;
        twice |= in >= 16 || o >= 16 || seen_in[in] || seen_out[o];
        if (in < 16 && o < 16)
          seen_in[in] = seen_out[o] = true;
      }
  tap_ok (!twice, "lines: no id mapped twice, inside or outside");
}

static void
test_idmap_subid (void)
{
  const char *dir = tap_scratch ("/tmp");
  char file[128];
  snprintf (file, sizeof file, "%s/subuid", dir);
  write_text (AT_FDCWD, file,
              "# comment\nalice:100000:65536\n1234:200000:1000\n"
              "carol:x:1\nbad line\n");
  struct ns_id_range r;
  tap_ok (ns_idmap_subid (file, "alice", 99, &r) == 0
          && range_is (&r, 0, 100000, 65536), "subid: by name");
  tap_ok (ns_idmap_subid (file, "bob", 1234, &r) == 0
          && range_is (&r, 0, 200000, 1000), "subid: by number");
  tap_check_int (ns_idmap_subid (file, "dave", 5, &r), -ESRCH,
                 "subid: no line for the user");
  tap_check_int (ns_idmap_subid (file, "carol", 5, &r), -EINVAL,
                 "subid: the user's line malformed");
  tap_check_int (ns_idmap_subid ("/nonexistent/subuid", "alice", 5, &r),
                 -ENOENT, "subid: no file");
}

static void
test_idmap_helper (void)
{
  struct ns_id_range line = { 0, 0, 1 };
  int status;
  tap_check_int (ns_idmap_run_helper ("/nonexistent/newuidmap", getpid (),
                                      &line, 1, &status),
                 -ENOENT, "helper: a missing one is ENOENT");
  /* false(1) stands for a helper that refuses.  */
  int ret = ns_idmap_run_helper ("false", getpid (), &line, 1, &status);
  tap_ok (ret == 0 && WIFEXITED (status) && WEXITSTATUS (status) == 1,
          "helper: its exit status comes back");
}

/* --- ns/env.c ---------------------------------------------------------- */

static int
env_child (void *arg)
{
  (void) arg;
  setenv ("NC_KEEP", "x", 1);
  const struct ns_env_change changes[] = {
    { "NC_A", "1" }, { NULL, NULL }, { "NC_C", "3" }, { "NC_C", NULL },
    { "NC_D", "4" }, { "NC_D", "5" }
  };
  const struct ns_env_change *bad = NULL;
  if (ns_env_apply (changes, 6, &bad) != 0)
    return 2;
  if (getenv ("NC_KEEP") || getenv ("NC_A") || getenv ("NC_C")
      || !getenv ("NC_D") || strcmp (getenv ("NC_D"), "5") != 0
      || getenv ("PATH"))
    return 3;
  const struct ns_env_change wrong[] = { { "NC_E", "1" }, { "X=Y", "2" } };
  if (ns_env_apply (wrong, 2, &bad) != -EINVAL || bad != &wrong[1]
      || !getenv ("NC_E"))
    return 4;
  return 0;
}

static void
test_env (void)
{
  tap_check_int (in_child (env_child, NULL), 0,
                 "env: --setenv, --clearenv, --unsetenv in order; a bad "
                 "name stops with EINVAL at it");
}

/* --- ns/seccomp.c ------------------------------------------------------ */

/* Read LEN bytes written to a pipe in pieces of CHUNK bytes by a child:
   ns_seccomp_read's result, and its size in *SIZE.  */
static int
read_piped (size_t len, size_t chunk, size_t *size)
{
  int fds[2];
  if (pipe (fds) < 0)
    tap_die ("pipe");
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    tap_die ("fork");
  if (pid == 0)
    {
      close (fds[0]);
      char buf[4096] = { 0 };
      for (size_t done = 0; done < len; )
        {
          size_t n = len - done < chunk ? len - done : chunk;
          if (n > sizeof buf)
            n = sizeof buf;
          if (write (fds[1], buf, n) != (ssize_t) n)
            _exit (1);
          done += n;
          if (chunk < 64)
            usleep (20000);
        }
      _exit (0);
    }
  close (fds[1]);
  void *program = NULL;
  *size = 0;
  int ret = ns_seccomp_read (fds[0], &program, size);
  close (fds[0]);
  waitpid (pid, NULL, 0);
  free (program);
  return ret;
}

static void
test_seccomp_read (void)
{
  size_t size;
  tap_ok (read_piped (24, 5, &size) == 0 && size == 24,
          "seccomp: a program read whole through short reads");
  tap_check_int (read_piped (12, 12, &size), -EINVAL,
                 "seccomp: 12 bytes is not whole instructions");
  tap_check_int (read_piped (0, 1, &size), -EINVAL,
                 "seccomp: an empty program refused");
  tap_ok (read_piped (BPF_MAXINSNS * 8, 4096, &size) == 0
          && size == BPF_MAXINSNS * 8,
          "seccomp: BPF_MAXINSNS instructions taken");
  tap_check_int (read_piped (BPF_MAXINSNS * 8 + 8, 4096, &size), -E2BIG,
                 "seccomp: one instruction more refused");
  void *program;
  tap_check_int (ns_seccomp_read (-1, &program, &size), -EBADF,
                 "seccomp: a bad descriptor is EBADF");
}

/* seccomp_child's status where seccomp(2) is missing: qemu-user, which
   does not emulate it, or a kernel built without it.  */
enum { SECCOMP_MISSING = 6 };

/* getppid answers ERRNO 42, everything else is allowed.  */
static int
seccomp_child (void *arg)
{
  bool valid = arg != NULL;
  struct sock_filter prog[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 42),
    BPF_STMT (BPF_RET | BPF_K, valid ? SECCOMP_RET_ALLOW : 0x7fff),
  };
  if (!valid)
    /* A load past struct seccomp_data: the kernel's checker refuses it.  */
    prog[0].k = 4096;
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
    return 2;
  int ret = ns_seccomp_install (prog, sizeof prog);
  if (ret == -ENOSYS)
    return SECCOMP_MISSING;
  if (!valid)
    return ret == -EINVAL ? 0 : 3;
  if (ret != 0)
    return 4;
  errno = 0;
  return syscall (SYS_getppid) == -1 && errno == 42 ? 0 : 5;
}

static void
test_seccomp_install (void)
{
  static const char *const what[] = {
    "seccomp: installed, getppid gets the program's errno",
    "seccomp: a program the kernel refuses is EINVAL",
  };
  for (int i = 0; i < 2; i++)
    {
      int status = in_child (seccomp_child, i == 0 ? (void *) 1 : NULL);
      if (status == SECCOMP_MISSING)
        tap_skip ("%s: seccomp(2) is not here (ENOSYS)", what[i]);
      else
        tap_check_int (status, 0, "%s", what[i]);
    }
}

/* --- ns/caps.c --------------------------------------------------------- */

static void
test_caps_changed (void)
{
  const uint64_t held = 0xff;
  struct ns_cap_change c1[] = { { 3, false }, { 5, false }, { 3, true } };
  tap_ok (ns_caps_changed (held, held, c1, 3) == (held & ~(1u << 5)),
          "caps: drops and adds in order");
  struct ns_cap_change c2[] = { { -1, false }, { 12, true } };
  tap_ok (ns_caps_changed (held, held, c2, 2) == 1u << 12,
          "caps: drop ALL then add one");
  struct ns_cap_change c3[] = { { -1, true }, { 1, false } };
  tap_ok (ns_caps_changed (0, held, c3, 2) == (held & ~2u),
          "caps: add ALL is every one held");
}

/* The value of the line "NAME:\t<hex>" of /proc/self/status.  */
static uint64_t
status_caps (const char *name)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  uint64_t v = UINT64_MAX;
  size_t len = strlen (name);
  while (f && fgets (line, sizeof line, f))
    if (strncmp (line, name, len) == 0 && line[len] == ':')
      v = strtoull (line + len + 1, NULL, 16);
  if (f)
    fclose (f);
  return v;
}

/* In a child that is root, or root in a user namespace of its own.  */
static bool
become_root (void)
{
  if (geteuid () == 0)
    return true;
  return unshare (CLONE_NEWUSER) == 0;
}

static int
caps_limit_child (void *arg)
{
  uint64_t want = *(uint64_t *) arg;
  if (!become_root ())
    return 77;
  int cap;
  if (ns_caps_limit (want, &cap) != 0)
    return 2;
  static const char *const sets[] = {
    "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"
  };
  for (int i = 0; i < 5; i++)
    if (status_caps (sets[i]) != want)
      return 10 + i;
  return 0;
}

static int
caps_keep_child (void *arg)
{
  (void) arg;
  if (!become_root ())
    return 77;
  int cap;
  if (ns_caps_keep (&cap) != 0)
    return 2;
  uint64_t prm = status_caps ("CapPrm");
  return prm && status_caps ("CapAmb") == prm
         && status_caps ("CapInh") == prm ? 0 : 3;
}

static void
test_caps_limit (void)
{
  uint64_t none = 0, raw = (uint64_t) 1 << 13;
  int ret = in_child (caps_limit_child, &none);
  if (ret == 77)
    {
      tap_skip ("neither root nor a user namespace to be root in");
      return;
    }
  tap_check_int (ret, 0, "caps: the empty set leaves every set empty "
                 "(CapInh CapPrm CapEff CapBnd CapAmb 0)");
  tap_check_int (in_child (caps_limit_child, &raw), 0,
                 "caps: CAP_NET_RAW alone in all five sets");
  tap_check_int (in_child (caps_keep_child, NULL), 0,
                 "caps: --keep-caps makes the permitted set ambient");
}

int
main (void)
{
  test_idmap_parse ();
  test_idmap_lines ();
  test_idmap_subid ();
  test_idmap_helper ();
  test_env ();
  test_seccomp_read ();
  test_seccomp_install ();
  test_caps_changed ();
  test_caps_limit ();
  return tap_done ();
}
