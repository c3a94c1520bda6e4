/* cli/features.c -- the kernel's calls a tool needs; see
   cli/features.h.  */

#include <config.h>

#include "cli/features.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "sys/kernel.h"

/* A call a tool makes: NAME as in sys/kernel.h's table; WITHOUT, what the
   tool does where the call is missing or refused, or NULL if it cannot do
   without it.  Every tool opens files with openat, which is not listed.  */
struct cli_call
{
  const char *name;
  const char *without;
};

/* xcp.  */
static const struct cli_call xcp_calls[] = {
  { "statx", "the C library's fstatat, which tells no mount's root" },
  { "renameat2", "renameat, where the architecture has it" },
  { "copy_file_range", "splice, sendfile, or read and write" },
  { "pipe2", NULL },
  { "splice", "sendfile, or read and write" },
  { "sendfile", "read and write" },
  { "preadv", "pread" },
  { "pwritev", "pwrite" },
  { "ppoll", NULL },
  { "faccessat2", "faccessat, with the real ids for the effective ones" },
  { "fchmodat2", "chmod through /proc/self/fd" },
  { "pidfd_open", "keeps the temporary files of processes it cannot tell "
    "ended" },
  { NULL, NULL }
};

/* rmtree.  */
static const struct cli_call rmtree_calls[] = {
  { "statx", "the C library's fstatat, which tells no mount's root" },
  { "faccessat2", "faccessat, with the real ids for the effective ones" },
  { NULL, NULL }
};

/* splice-in and splice-out.  */
static const struct cli_call splice_in_calls[] = {
  { "statx", "the C library's fstatat" },
  { "pipe2", NULL },
  { "splice", "sendfile, or read and write" },
  { "copy_file_range", "splice, sendfile, or read and write" },
  { "sendfile", "read and write" },
  { "preadv", "pread" },
  { "pwritev", "pwrite" },
  { "ppoll", NULL },
  { NULL, NULL }
};

/* unshare-run.  */
static const struct cli_call unshare_run_calls[] = {
  { "statx", NULL },
  { "openat2", NULL },
  { "unshare", NULL },
  { "setns", NULL },
  { "open_tree", NULL },
  { "move_mount", NULL },
  { "fsopen", NULL },
  { "fsconfig", NULL },
  { "fsmount", NULL },
  { "mount_setattr", NULL },
  { "seccomp", NULL },
  { "ppoll", NULL },
  { "faccessat2", "faccessat, with the real ids for the effective ones" },
  { "fchmodat2", "chmod through /proc/self/fd" },
  { NULL, NULL }
};

/* ppoll-wait.  */
static const struct cli_call ppoll_wait_calls[] = {
  { "statx", NULL },
  { "ppoll", NULL },
  { "pselect6", NULL },
  { "inotify_init1", NULL },
  { "pidfd_open", NULL },
  { "pidfd_send_signal", NULL },
  { "faccessat2", "faccessat, with the real ids for the effective ones" },
  { NULL, NULL }
};

/* preadv-dump.  */
static const struct cli_call preadv_dump_calls[] = {
  { "statx", "the C library's fstatat" },
  { "preadv", NULL },
  { "preadv2", "preadv, where no flag is asked for" },
  { "io_uring", "preadv" },
  { NULL, NULL }
};

/* pwritev-patch.  */
static const struct cli_call pwritev_patch_calls[] = {
  { "statx", "the C library's fstatat" },
  { "preadv", NULL },
  { "pwritev", NULL },
  { "pwritev2", "pwritev, where no flag is asked for" },
  { "io_uring", "pwritev" },
  { NULL, NULL }
};

static const struct
{
  const char *program;
  const struct cli_call *calls;
} tools[] = {
  { "xcp", xcp_calls },
  { "rmtree", rmtree_calls },
  { "splice-in", splice_in_calls },
  { "splice-out", splice_in_calls },
  { "unshare-run", unshare_run_calls },
  { "ppoll-wait", ppoll_wait_calls },
  { "preadv-dump", preadv_dump_calls },
  { "pwritev-patch", pwritev_patch_calls },
};

/* The calls of PROGRAM, or NULL for a name no tool has.  */
static const struct cli_call *
calls_of (const char *program)
{
  for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++)
    if (strcmp (tools[i].program, program) == 0)
      return tools[i].calls;
  return NULL;
}

/* The words of state S of call C, for --features.  */
static const char *
state_words (const struct sys_kernel_call *c, enum sys_call_state s,
             char *buf, size_t size)
{
  if (s == SYS_CALL_MISSING)
    {
      snprintf (buf, size, "missing: needs Linux %s", c->since);
      return buf;
    }
  return s == SYS_CALL_REFUSED ? "refused (seccomp?)" : "works";
}

void
cli_print_features (const char *program)
{
  struct utsname u;
  if (!program)                 /* a caller that never named itself */
    program = PACKAGE_NAME;
  if (uname (&u) == 0)
    printf ("This kernel: %s %s\n", u.sysname, u.release);
  const struct cli_call *t = calls_of (program);
  if (!t)
    printf ("%s is no tool of newcalls: no list of calls\n", program);
  for (; t && t->name; t++)
    {
      const struct sys_kernel_call *c = sys_kernel_call (t->name);
      if (!c)
        continue;
      char buf[64];
      printf ("%-18s Linux %-7s %s\n", c->name, c->since,
              state_words (c, sys_kernel_probe (c), buf, sizeof buf));
      if (t->without)
        printf ("%-18s without it: %s\n", "", t->without);
    }
}

const char *
cli_call_trouble (const char *call, int err)
{
  static char msg[128];
  const struct sys_kernel_call *c = sys_kernel_call (call);
  if (!c)
    return NULL;
  switch (sys_kernel_state_of (c, err))
    {
    case SYS_CALL_MISSING:
      snprintf (msg, sizeof msg, "%s is not in this kernel (Linux %s or "
                "later)", c->name, c->since);
      return msg;
    case SYS_CALL_REFUSED:
      snprintf (msg, sizeof msg, "%s: refused (seccomp?)", c->name);
      return msg;
    default:
      return NULL;
    }
}

const char *
cli_call_strerror (const char *call, int err)
{
  const char *why = cli_call_trouble (call, err);
  return why ? why : strerror (-err);
}
