/* ns/sandbox.c -- unshare-run's sandbox options; see ns/sandbox.h.  */

#include <config.h>

#include "ns/sandbox.h"

#include <errno.h>
#include <limits.h>
#include <linux/capability.h>
#include <popt.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/common.h"
#include "cli/number.h"
#include "error.h"
#include "ns/argsfd.h"
#include "ns/idmap.h"
#include "ns/mount.h"
#include "sys/calls.h"
#include "xalloc.h"

/* --- the options ------------------------------------------------------- */

/* What an option does with its arguments.  */
enum action
{
  A_STEP,                       /* a mount step of KIND, FLAGS */
  A_PERMS, A_SIZE,              /* --perms, --size: for the next step */
  A_SETENV, A_UNSETENV, A_CLEARENV, A_CHDIR,
  A_CAP_ADD, A_CAP_DROP, A_SECCOMP, A_UID, A_GID,
  A_MAP_USERS, A_MAP_GROUPS, A_MAP_AUTO,
  A_INFO_FD, A_SYNC_FD, A_BLOCK_FD, A_LOCK_FILE,
  A_ARGS,                       /* read more options from a descriptor */
  A_UNSHARE, A_UNSHARE_TRY, A_SHARE,   /* FLAGS: CLONE_NEW* */
  A_UNSHARE_ALL
};

/* A sandbox option: NAME as written, dashes included, and how many
   words follow it, which WORDS names ("SRC DST").  A one-argument
   option may also be written NAME=ARG.  */
struct option
{
  const char *name;
  const char *words;
  int n_args;
  enum action action;
  enum ns_step_kind kind;
  int flags;
};

#define STEP(name, words, n, kind, flags) \
  { name, words, n, A_STEP, kind, flags }
#define OPT(name, words, n, action) { name, words, n, action, 0, 0 }

static const struct option options[] = {
  STEP ("--bind", "SRC DST", 2, NS_STEP_BIND, 0),
  STEP ("--bind-try", "SRC DST", 2, NS_STEP_BIND, NS_BIND_TRY),
  STEP ("--ro-bind", "SRC DST", 2, NS_STEP_BIND, NS_BIND_RO),
  STEP ("--ro-bind-try", "SRC DST", 2, NS_STEP_BIND,
        NS_BIND_RO | NS_BIND_TRY),
  STEP ("--dev-bind", "SRC DST", 2, NS_STEP_BIND, NS_BIND_DEV),
  STEP ("--dev-bind-try", "SRC DST", 2, NS_STEP_BIND,
        NS_BIND_DEV | NS_BIND_TRY),
  STEP ("--remount-ro", "DST", 1, NS_STEP_REMOUNT_RO, 0),
  STEP ("--tmpfs", "DST", 1, NS_STEP_TMPFS, 0),
  STEP ("--proc", "DST", 1, NS_STEP_PROC, 0),
  STEP ("--dev", "DST", 1, NS_STEP_DEV, 0),
  STEP ("--mqueue", "DST", 1, NS_STEP_MQUEUE, 0),
  STEP ("--dir", "DST", 1, NS_STEP_DIR, 0),
  STEP ("--symlink", "TARGET DST", 2, NS_STEP_SYMLINK, 0),
  STEP ("--file", "FD DST", 2, NS_STEP_FILE, 0),
  STEP ("--bind-data", "FD DST", 2, NS_STEP_BIND_DATA, 0),
  STEP ("--ro-bind-data", "FD DST", 2, NS_STEP_BIND_DATA, NS_BIND_RO),
  STEP ("--bind-fd", "FD DST", 2, NS_STEP_BIND_FD, 0),
  STEP ("--ro-bind-fd", "FD DST", 2, NS_STEP_BIND_FD, NS_BIND_RO),
  STEP ("--chmod", "MODE PATH", 2, NS_STEP_CHMOD, 0),
  OPT ("--perms", "MODE", 1, A_PERMS),
  OPT ("--size", "BYTES", 1, A_SIZE),
  OPT ("--setenv", "VAR VALUE", 2, A_SETENV),
  OPT ("--unsetenv", "VAR", 1, A_UNSETENV),
  OPT ("--clearenv", "", 0, A_CLEARENV),
  OPT ("--chdir", "DIR", 1, A_CHDIR),
  OPT ("--cap-add", "CAP", 1, A_CAP_ADD),
  OPT ("--cap-drop", "CAP", 1, A_CAP_DROP),
  OPT ("--seccomp", "FD", 1, A_SECCOMP),
  OPT ("--uid", "UID", 1, A_UID),
  OPT ("--gid", "GID", 1, A_GID),
  OPT ("--map-users", "INNER:OUTER:COUNT|auto", 1, A_MAP_USERS),
  OPT ("--map-groups", "INNER:OUTER:COUNT|auto", 1, A_MAP_GROUPS),
  OPT ("--map-auto", "", 0, A_MAP_AUTO),
  OPT ("--info-fd", "FD", 1, A_INFO_FD),
  OPT ("--sync-fd", "FD", 1, A_SYNC_FD),
  OPT ("--block-fd", "FD", 1, A_BLOCK_FD),
  OPT ("--lock-file", "DEST", 1, A_LOCK_FILE),
  OPT ("--args", "FD", 1, A_ARGS),
  { "--unshare-user", "", 0, A_UNSHARE, 0, CLONE_NEWUSER },
  { "--unshare-user-try", "", 0, A_UNSHARE_TRY, 0, CLONE_NEWUSER },
  { "--unshare-ipc", "", 0, A_UNSHARE, 0, CLONE_NEWIPC },
  { "--unshare-pid", "", 0, A_UNSHARE, 0, CLONE_NEWPID },
  { "--unshare-net", "", 0, A_UNSHARE, 0, CLONE_NEWNET },
  { "--unshare-uts", "", 0, A_UNSHARE, 0, CLONE_NEWUTS },
  { "--unshare-cgroup", "", 0, A_UNSHARE, 0, CLONE_NEWCGROUP },
  { "--unshare-cgroup-try", "", 0, A_UNSHARE_TRY, 0, CLONE_NEWCGROUP },
  OPT ("--unshare-all", "", 0, A_UNSHARE_ALL),
  { "--share-net", "", 0, A_SHARE, 0, CLONE_NEWNET },
};

/* The option WORD is, with *ARG set to what follows its '=' (NULL
   without one), or NULL if it is none.  */
static const struct option *
find_option (const char *word, const char **arg)
{
  const char *eq = strchr (word, '=');
  size_t len = eq ? (size_t) (eq - word) : strlen (word);
  for (size_t i = 0; i < sizeof options / sizeof *options; i++)
    if (strncmp (options[i].name, word, len) == 0
        && options[i].name[len] == '\0'
        && (!eq || options[i].n_args == 1))
      {
        *arg = eq ? eq + 1 : NULL;
        return &options[i];
      }
  return NULL;
}

/* --- the arguments ----------------------------------------------------- */

/* A descriptor, the argument ARG of OPTION ("--file").  */
static int
parse_fd (const char *option, const char *arg)
{
  return cli_parse_number (option + 2, "descriptor", arg, INT_MAX, 0);
}

/* A mode in octal, at most 07777, the argument ARG of OPTION.  */
static mode_t
parse_mode (const char *option, const char *arg)
{
  unsigned long mode = 0;
  const char *p = arg;
  for (; *p >= '0' && *p <= '7' && mode <= 07777; p++)
    mode = mode * 8 + (*p - '0');
  if (p == arg || *p || mode > 07777)
    cli_usage_error ("invalid %s %s: an octal mode is expected, at most "
                     "07777", option, quote_file (arg));
  return mode;
}

/* The name of an environment variable, the argument ARG of OPTION:
   not empty, and no '=' in it.  */
static const char *
env_name (const char *option, const char *arg)
{
  if (!*arg || strchr (arg, '='))
    cli_usage_error ("invalid %s %s: not a variable name", option,
                     quote_file (arg));
  return arg;
}

/* The capabilities by name, as <linux/capability.h> numbers them.  */
static const char *const cap_names[CAP_LAST_CAP + 1] = {
  [CAP_CHOWN] = "CAP_CHOWN", [CAP_DAC_OVERRIDE] = "CAP_DAC_OVERRIDE",
  [CAP_DAC_READ_SEARCH] = "CAP_DAC_READ_SEARCH",
  [CAP_FOWNER] = "CAP_FOWNER", [CAP_FSETID] = "CAP_FSETID",
  [CAP_KILL] = "CAP_KILL", [CAP_SETGID] = "CAP_SETGID",
  [CAP_SETUID] = "CAP_SETUID", [CAP_SETPCAP] = "CAP_SETPCAP",
  [CAP_LINUX_IMMUTABLE] = "CAP_LINUX_IMMUTABLE",
  [CAP_NET_BIND_SERVICE] = "CAP_NET_BIND_SERVICE",
  [CAP_NET_BROADCAST] = "CAP_NET_BROADCAST",
  [CAP_NET_ADMIN] = "CAP_NET_ADMIN",
  [CAP_NET_RAW] = "CAP_NET_RAW", [CAP_IPC_LOCK] = "CAP_IPC_LOCK",
  [CAP_IPC_OWNER] = "CAP_IPC_OWNER", [CAP_SYS_MODULE] = "CAP_SYS_MODULE",
  [CAP_SYS_RAWIO] = "CAP_SYS_RAWIO", [CAP_SYS_CHROOT] = "CAP_SYS_CHROOT",
  [CAP_SYS_PTRACE] = "CAP_SYS_PTRACE", [CAP_SYS_PACCT] = "CAP_SYS_PACCT",
  [CAP_SYS_ADMIN] = "CAP_SYS_ADMIN", [CAP_SYS_BOOT] = "CAP_SYS_BOOT",
  [CAP_SYS_NICE] = "CAP_SYS_NICE", [CAP_SYS_RESOURCE] = "CAP_SYS_RESOURCE",
  [CAP_SYS_TIME] = "CAP_SYS_TIME",
  [CAP_SYS_TTY_CONFIG] = "CAP_SYS_TTY_CONFIG",
  [CAP_MKNOD] = "CAP_MKNOD", [CAP_LEASE] = "CAP_LEASE",
  [CAP_AUDIT_WRITE] = "CAP_AUDIT_WRITE",
  [CAP_AUDIT_CONTROL] = "CAP_AUDIT_CONTROL",
  [CAP_SETFCAP] = "CAP_SETFCAP", [CAP_MAC_OVERRIDE] = "CAP_MAC_OVERRIDE",
  [CAP_MAC_ADMIN] = "CAP_MAC_ADMIN", [CAP_SYSLOG] = "CAP_SYSLOG",
  [CAP_WAKE_ALARM] = "CAP_WAKE_ALARM",
  [CAP_BLOCK_SUSPEND] = "CAP_BLOCK_SUSPEND",
#ifdef CAP_AUDIT_READ
  [CAP_AUDIT_READ] = "CAP_AUDIT_READ",
#endif
#ifdef CAP_PERFMON
  [CAP_PERFMON] = "CAP_PERFMON",
#endif
#ifdef CAP_BPF
  [CAP_BPF] = "CAP_BPF",
#endif
#ifdef CAP_CHECKPOINT_RESTORE
  [CAP_CHECKPOINT_RESTORE] = "CAP_CHECKPOINT_RESTORE",
#endif
};

const char *
ns_sandbox_cap_name (int cap)
{
  return cap >= 0 && cap <= CAP_LAST_CAP ? cap_names[cap] : NULL;
}

/* A capability, the argument ARG of OPTION, as bubblewrap takes it: its
   name with "CAP_" in any case, or ALL (-1).  */
static int
parse_cap (const char *option, const char *arg)
{
  if (strcasecmp (arg, "ALL") == 0)
    return -1;
  for (int cap = 0; cap <= CAP_LAST_CAP; cap++)
    if (cap_names[cap] && strcasecmp (arg, cap_names[cap]) == 0)
      return cap;
  cli_usage_error ("invalid %s %s: unknown capability", option,
                   quote_file (arg));
}

/* An id map, the argument ARG of OPTION, as util-linux's unshare takes
   it: INNER:OUTER:COUNT, or the older OUTER,INNER,COUNT, into *RANGE;
   or "auto" (*RANGE left for ns_sandbox_check_process to read).  ARG
   is kept as it is.  */
static const char *
parse_map (const char *option, const char *arg, struct ns_id_range *range)
{
  if (strcmp (arg, "auto") != 0 && ns_idmap_parse (arg, range) < 0)
    cli_usage_error ("invalid %s %s: INNER:OUTER:COUNT, OUTER,INNER,COUNT "
                     "or auto, with COUNT ids from 1 to the last, "
                     "4294967294", option, quote_file (arg));
  return arg;
}

/* --- reading the options ----------------------------------------------- */

/* --perms and --size given, for the next step that takes them.  */
struct pending
{
  bool perms_set;
  mode_t perms;
  uint64_t size;
};

/* The largest --size: a tmpfs's size is counted in a size_t.  */
#define MAX_TMPFS_BYTES ((uint64_t) (SIZE_MAX >> 1))

/* Append to the array *ITEMS of *N items of SIZE bytes one more, and
   return it.  */
static void *
grow (void *items, size_t *n, size_t size)
{
  char *p = xnrealloc (*(void **) items, *n + 1, size);
  *(void **) items = p;
  return p + (*n)++ * size;
}

/* A new step of S for option O, its words ARGS; P's --perms and --size
   are its own.  */
static void
add_step (struct ns_sandbox *s, const struct option *o, char **args,
          struct pending *p)
{
  struct ns_step *st = grow (&s->steps, &s->n_steps, sizeof *st);
  *st = (struct ns_step) { .kind = o->kind, .option = o->name,
                           .flags = o->flags, .fd = -1 };
  st->dst = args[o->n_args - 1];
  switch (o->kind)
    {
    case NS_STEP_BIND:
    case NS_STEP_SYMLINK:
      st->src = args[0];
      break;
    case NS_STEP_FILE:
    case NS_STEP_BIND_DATA:
      st->fd = parse_fd (o->name, args[0]);
      st->mode = o->kind == NS_STEP_FILE ? 0666 : 0600;
      break;
    case NS_STEP_BIND_FD:
      st->fd = parse_fd (o->name, args[0]);
      break;
    case NS_STEP_CHMOD:
      st->mode = parse_mode (o->name, args[0]);
      st->mode_set = true;
      break;
    case NS_STEP_TMPFS:
    case NS_STEP_DIR:
      st->mode = 0755;
      break;
    default:
      break;
    }
  if (p->perms_set)
    {
      st->mode = p->perms;
      st->mode_set = true;
    }
  st->size = p->size;
  *p = (struct pending) { false, 0, 0 };
}

/* Whether the steps of KIND take --perms.  */
static bool
takes_perms (enum ns_step_kind kind)
{
  return (kind == NS_STEP_TMPFS || kind == NS_STEP_DIR
          || kind == NS_STEP_FILE || kind == NS_STEP_BIND_DATA);
}

/* Refuse a --perms or --size of P that O (NULL: anything not a sandbox
   option, or the end of the options) does not take.  */
static void
check_pending (const struct pending *p, const struct option *o)
{
  if (o && (o->action == A_PERMS || o->action == A_SIZE
            || o->action == A_ARGS))
    return;
  bool step = o && o->action == A_STEP;
  if (p->perms_set && !(step && takes_perms (o->kind)))
    cli_usage_error ("--perms must be followed by an option that creates "
                     "a file (--tmpfs, --dir, --file, --bind-data, "
                     "--ro-bind-data)");
  if (p->size && !(step && o->kind == NS_STEP_TMPFS))
    cli_usage_error ("--size must be followed by --tmpfs");
}

/* An option of the process's side (environment, capabilities, ids,
   descriptors), its words ARGS.  */
static void
process_option (struct ns_sandbox *s, const struct option *o, char **args)
{
  struct ns_env_change *env;
  struct ns_cap_change *cap;
  switch (o->action)
    {
    case A_SETENV:
    case A_UNSETENV:
    case A_CLEARENV:
      env = grow (&s->env, &s->n_env, sizeof *env);
      env->name = o->action == A_CLEARENV ? NULL : env_name (o->name,
                                                             args[0]);
      env->value = o->action == A_SETENV ? args[1] : NULL;
      break;
    case A_CHDIR:
      s->chdir = args[0];
      break;
    case A_CAP_ADD:
    case A_CAP_DROP:
      cap = grow (&s->caps, &s->n_caps, sizeof *cap);
      cap->cap = parse_cap (o->name, args[0]);
      cap->add = o->action == A_CAP_ADD;
      break;
    case A_SECCOMP:
      s->seccomp_fd = parse_fd (o->name, args[0]);
      break;
    case A_UID:
    case A_GID:
      {
        bool uid = o->action == A_UID;
        uint32_t id = cli_parse_number (o->name + 2, uid ? "user ID"
                                        : "group ID", args[0],
                                        UINT32_MAX - 1, 0);
        *(uid ? &s->uid : &s->gid) = id;
        *(uid ? &s->uid_set : &s->gid_set) = true;
      }
      break;
    default:
      break;
    }
}

/* Any other option of S but the steps, its words ARGS; P: --perms and
   --size given.  */
static void
other_option (struct ns_sandbox *s, const struct option *o, char **args,
              struct pending *p)
{
  switch (o->action)
    {
    case A_PERMS:
      if (p->perms_set)
        cli_usage_error ("--perms given twice for the same action");
      p->perms = parse_mode (o->name, args[0]);
      p->perms_set = true;
      break;
    case A_SIZE:
      if (p->size)
        cli_usage_error ("--size given twice for the same action");
      p->size = cli_parse_number ("size", "size", args[0], MAX_TMPFS_BYTES,
                                  NC_NUMBER_UNITS | NC_NUMBER_NONZERO);
      break;
    case A_MAP_USERS:
      s->map_users = parse_map (o->name, args[0], &s->users);
      break;
    case A_MAP_GROUPS:
      s->map_groups = parse_map (o->name, args[0], &s->groups);
      break;
    case A_MAP_AUTO:
      s->map_auto = true;
      break;
    case A_INFO_FD:
      s->info_fd = parse_fd (o->name, args[0]);
      break;
    case A_SYNC_FD:
      s->sync_fd = parse_fd (o->name, args[0]);
      break;
    case A_BLOCK_FD:
      s->block_fd = parse_fd (o->name, args[0]);
      break;
    case A_LOCK_FILE:
      *(const char **) grow (&s->lock_files, &s->n_lock_files,
                             sizeof *s->lock_files) = args[0];
      break;
    case A_UNSHARE:
      s->unshare_flags |= o->flags;
      break;
    case A_UNSHARE_ALL:
      /* As bubblewrap: the user and cgroup namespaces where the kernel
         has them.  */
      s->unshare_flags |= (CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWNET
                           | CLONE_NEWUTS);
      s->unshare_try_flags |= CLONE_NEWUSER | CLONE_NEWCGROUP;
      break;
    case A_UNSHARE_TRY:
      s->unshare_try_flags |= o->flags;
      break;
    case A_SHARE:
      s->share_flags |= o->flags;
      break;
    default:
      process_option (s, o, args);
      break;
    }
}

/* Whether WORD, an option of the tool's own as written, takes the next
   word as its argument, as IS_ARG_OPTION tells.  */
static bool
tool_option_takes_next (const char *word,
                        bool (*is_arg_option) (const char *name, bool lng))
{
  if (word[1] == '-')
    /* "--NAME=ARG" holds its argument.  */
    return !strchr (word, '=') && is_arg_option (word + 2, true);
  /* A cluster of letters: the first that takes an argument takes the
     rest of the word, or the next word if it is the last.  */
  for (const char *p = word + 1; *p; p++)
    {
      char letter[2] = { *p, '\0' };
      if (is_arg_option (letter, false))
        return !p[1];
    }
  return false;
}

/* The command line as ns_sandbox_take reads it: the words of ARGV from
   I on are still to read, those before OUT are kept for popt.  The
   words read from --args DATA_FD stand in [I, DATA_END), DATA_END -1
   when I is past them.  */
struct line
{
  char **argv;
  int argc;
  int i, out;
  int data_end;
  int data_fd;
  size_t words_read;            /* from every --args */
};

/* The most words every --args together may give: bubblewrap's bound.  */
#define MAX_ARGS_WORDS 9000

/* The end of the words that may follow the option at L->I: those of
   its --args if it is one of them, else the command line's.  An option
   read from --args takes its arguments there too, as bubblewrap's.  */
static int
option_end (const struct line *l)
{
  return l->data_end >= 0 ? l->data_end : l->argc;
}

/* --args FD at L->I, its words ADVANCE: read FD's words into S, and put
   them in its place in L's command line, for what follows to read.  */
static void
take_args (struct ns_sandbox *s, struct line *l, int advance, int fd)
{
  struct ns_args_words w;
  int ret = ns_args_read (fd, MAX_ARGS_WORDS - l->words_read, &w);
  if (ret == -EFBIG)
    cli_usage_error ("--args %d: more than %zu bytes", fd,
                     NS_ARGS_MAX_BYTES);
  if (ret == -E2BIG)
    cli_usage_error ("--args %d: more than %d words from --args in all",
                     fd, MAX_ARGS_WORDS);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "--args %d: cannot read", fd);
  /* A standard descriptor stays COMMAND's: closed, its number would go
     to the next file opened.  */
  if (fd > STDERR_FILENO)
    sys_close (fd);
  *(struct ns_args_words *) grow (&s->args, &s->n_args, sizeof w) = w;
  l->words_read += w.n;

  int rest = l->argc - l->i - advance;
  char **argv = xnmalloc (l->out + w.n + rest + 1, sizeof *argv);
  memcpy (argv, l->argv, l->out * sizeof *argv);
  memcpy (argv + l->out, w.words, w.n * sizeof *argv);
  memcpy (argv + l->out + w.n, l->argv + l->i + advance,
          rest * sizeof *argv);
  free (s->argv);
  s->argv = l->argv = argv;
  l->i = l->out;
  l->argc = l->out + w.n + rest;
  l->data_end = l->i + w.n;
  l->data_fd = fd;
}

/* Keep for popt the option of the tool's own at L->I, and its
   argument.  */
static void
keep_tool_option (struct line *l,
                  bool (*is_arg_option) (const char *name, bool lng))
{
  const char *word = l->argv[l->i];
  int n = tool_option_takes_next (word, is_arg_option) ? 2 : 1;
  if (l->i + n > option_end (l))
    {
      if (l->data_end >= 0)
        cli_usage_error ("%s needs its argument in the words of --args %d",
                         word, l->data_fd);
      n = 1;
    }
  for (; n > 0; n--)
    l->argv[l->out++] = l->argv[l->i++];
}

/* Whether WORD is an option, not COMMAND or "--".  */
static bool
is_option (const char *word)
{
  return word[0] == '-' && word[1] != '\0' && strcmp (word, "--") != 0;
}

/* The sandbox option O at L->I, its argument after '=' EQ_ARG (NULL
   without one), into S; P: --perms and --size given.  */
static void
take_option (struct ns_sandbox *s, struct line *l, const struct option *o,
             const char *eq_arg, struct pending *p)
{
  if (o->action == A_ARGS && l->data_end >= 0)
    cli_usage_error ("--args %d: --args cannot be read from the words of "
                     "another one", l->data_fd);
  char *args[2];
  if (eq_arg)
    args[0] = (char *) eq_arg;
  else if (option_end (l) - l->i - 1 < o->n_args)
    {
      char where[48] = "";
      if (l->data_end >= 0)
        snprintf (where, sizeof where, " in the words of --args %d",
                  l->data_fd);
      cli_usage_error ("%s needs %d argument%s%s: %s %s", o->name,
                       o->n_args, o->n_args > 1 ? "s" : "", where, o->name,
                       o->words);
    }
  else
    for (int k = 0; k < o->n_args; k++)
      args[k] = l->argv[l->i + 1 + k];
  int advance = eq_arg ? 1 : 1 + o->n_args;
  if (o->action == A_ARGS)
    {
      take_args (s, l, advance, parse_fd (o->name, args[0]));
      return;
    }
  l->i += advance;
  if (o->action == A_STEP)
    add_step (s, o, args, p);
  else
    other_option (s, o, args, p);
}

void
ns_sandbox_take (struct ns_sandbox *s, int *argc, char ***argv,
                 bool (*is_arg_option) (const char *name, bool lng))
{
  s->seccomp_fd = s->info_fd = s->sync_fd = s->block_fd = -1;
  struct pending p = { false, 0, 0 };
  struct line l = { *argv, *argc, 1, 1, -1, -1, 0 };
  while (l.i < l.argc)
    {
      if (l.i == l.data_end)
        {
          /* --perms or --size of --args apply to its own options.  */
          check_pending (&p, NULL);
          l.data_end = -1;
        }
      const char *word = l.argv[l.i];
      if (!is_option (word))
        {
          if (l.data_end >= 0)
            cli_usage_error ("--args %d: %s is not an option: COMMAND, and "
                             "'--' before it, go on the command line",
                             l.data_fd, quote_file (word));
          break;
        }
      const char *eq_arg;
      const struct option *o = find_option (word, &eq_arg);
      check_pending (&p, o);
      if (o)
        take_option (s, &l, o, eq_arg, &p);
      else
        keep_tool_option (&l, is_arg_option);
    }
  check_pending (&p, NULL);
  while (l.i < l.argc)
    l.argv[l.out++] = l.argv[l.i++];
  l.argv[l.out] = NULL;
  *argc = l.out;
  *argv = l.argv;
}

bool
ns_sandbox_has_root (const struct ns_sandbox *s)
{
  return s->n_steps > 0;
}

/* --- popt -------------------------------------------------------------- */

/* How many options of TABLE, and of the tables it includes, NAME (LEN
   bytes) names: by a whole long name (*EXACT set), an abbreviation, or a
   letter (LEN 0, NAME[0] the letter).  *FOUND is set to one of them.  */
static int
popt_matches (const struct poptOption *table, const char *name, size_t len,
              const struct poptOption **found, bool *exact)
{
  int n = 0;
  for (const struct poptOption *o = table;
       o->longName || o->shortName || o->arg; o++)
    {
      if ((o->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE)
        {
          n += popt_matches (o->arg, name, len, found, exact);
          continue;
        }
      bool match = len ? o->longName && strncmp (o->longName, name, len) == 0
                   : o->shortName == name[0];
      if (!match || *exact)
        continue;
      *found = o;
      n++;
      *exact = len && o->longName[len] == '\0';
    }
  return n;
}

bool
ns_sandbox_popt_arg (const struct poptOption *table, const char *name,
                     bool lng)
{
  const struct poptOption *o = NULL;
  bool exact = false;
  int n = popt_matches (table, name, lng ? strlen (name) : 0, &o, &exact);
  if (!o || (n > 1 && !exact))
    return false;
  unsigned int type = o->argInfo & POPT_ARG_MASK;
  return (type != POPT_ARG_NONE && type != POPT_ARG_VAL
          && !(o->argInfo & POPT_ARGFLAG_OPTIONAL));
}

/* The table of ns_sandbox_take_popt, for its IS_ARG_OPTION.  */
static const struct poptOption *tool_table;

static bool
tool_arg_option (const char *name, bool lng)
{
  return ns_sandbox_popt_arg (tool_table, name, lng);
}

void
ns_sandbox_take_popt (struct ns_sandbox *s, int *argc, char ***argv,
                      const struct poptOption *table)
{
  tool_table = table;
  ns_sandbox_take (s, argc, argv, tool_arg_option);
}

struct poptOption ns_sandbox_no_options[] = { POPT_TABLEEND };

const char ns_sandbox_help[] =
  "Sandbox (bubblewrap's options, each written in full, its arguments"
  " in the words\n"
  "after it, or a single one after '='; the mount steps build a new"
  " root in a\n"
  "tmpfs, in the order given, then enter it):\n"
  "      --args FD                  read more options from FD, each word"
  " ended\n"
  "                                 by a NUL, as if they stood in its"
  " place\n"
  "      --bind SRC DST             bind SRC, and every mount under it,"
  " on DST\n"
  "      --ro-bind SRC DST          the same, read-only in every"
  " submount\n"
  "      --dev-bind SRC DST         the same, its device files usable\n"
  "      --bind-try, --ro-bind-try, --dev-bind-try SRC DST\n"
  "                                 the same, nothing if SRC is missing\n"
  "      --remount-ro DST           make the mount at DST read-only\n"
  "      --tmpfs DST                a new tmpfs on DST\n"
  "      --size BYTES               the size of the next --tmpfs\n"
  "      --perms MODE               the octal mode of the next --tmpfs,"
  " --dir,\n"
  "                                 --file, --bind-data or"
  " --ro-bind-data\n"
  "      --proc DST                 a new proc on DST\n"
  "      --dev DST                  a minimal /dev on DST\n"
  "      --mqueue DST               a new mqueue on DST\n"
  "      --dir DST                  make the directory DST\n"
  "      --symlink TARGET DST       make DST a symbolic link to TARGET\n"
  "      --file FD DST              write what descriptor FD holds to"
  " DST\n"
  "      --bind-data FD DST         the same, in a file of its own bound"
  " on DST\n"
  "      --ro-bind-data FD DST      the same, read-only\n"
  "      --bind-fd FD DST           bind the directory open on FD, and"
  " every mount\n"
  "                                 under it, on DST\n"
  "      --ro-bind-fd FD DST        the same, read-only in every"
  " submount\n"
  "      --chmod MODE PATH          set the octal mode of PATH\n"
  "      --setenv VAR VALUE         set VAR for COMMAND\n"
  "      --unsetenv VAR             remove VAR from COMMAND's"
  " environment\n"
  "      --clearenv                 remove every variable\n"
  "      --chdir DIR                COMMAND's working directory, in the"
  " new root\n"
  "      --cap-add CAP, --cap-drop CAP\n"
  "                                 give or take capability CAP"
  " (CAP_NAME, or ALL)\n"
  "      --seccomp FD               install the seccomp program read"
  " from FD\n"
  "      --uid UID, --gid GID       COMMAND's ids in the new user"
  " namespace\n"
  "      --map-users INNER:OUTER:COUNT|auto, --map-groups"
  " INNER:OUTER:COUNT|auto\n"
  "                                 map a range of ids (newuidmap,"
  " newgidmap)\n"
  "      --map-auto                 map the ranges of /etc/subuid and"
  " /etc/subgid\n"
  "      --info-fd FD               write COMMAND's pid and namespaces"
  " to FD\n"
  "      --sync-fd FD               keep FD open while COMMAND runs\n"
  "      --block-fd FD              wait until FD is readable to run"
  " COMMAND\n"
  "      --lock-file DEST           read-lock DEST while the sandbox"
  " runs\n"
  "                                 (fcntl), DEST a path of the sandbox\n"
  "      --unshare-user, --unshare-ipc, --unshare-pid\n"
  "                                 new user, IPC, PID namespaces (-U, -i,"
  " -p)\n"
  "      --unshare-net, --unshare-uts, --unshare-cgroup\n"
  "                                 new net, UTS, cgroup namespaces"
  " (-n, -u, -C)\n"
  "      --unshare-user-try, --unshare-cgroup-try\n"
  "                                 the same, where the kernel has them\n"
  "      --unshare-all              all of them, -try for user and"
  " cgroup\n"
  "      --share-net                no new network namespace, even with\n"
  "                                 --unshare-all";
