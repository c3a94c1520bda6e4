/* rmtree -- remove directory trees with openat, getdents64 and unlinkat,
   without following a symbolic link and without a PATH_MAX limit.  A
   drop-in for rm -r: its options, questions, messages and exit statuses
   (rmtree recurses with or without -r).

   SYNOPSIS: rmtree [OPTION]... PATH...  */

#include <config.h>

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/common.h"
#include "progname.h"
#include "remove/removal.h"
#include "remove/remover.h"
#include "remove/summary.h"
#include "sys/calls.h"
#include "yesno.h"

static struct remove_options opts = {
  .ask = REMOVE_ASK_PROTECTED,
  .preserve_root = true,
};
static bool ask_once;           /* -I: one question before anything */

enum { OPT_FORCE = 1, OPT_ASK_ALWAYS, OPT_ASK_ONCE, OPT_INTERACTIVE,
       OPT_PRESERVE_ROOT, OPT_NO_PRESERVE_ROOT };

static struct poptOption tool_options[] = {
  { "force", 'f', POPT_ARG_NONE, NULL, OPT_FORCE,
    "ignore missing operands (and LINK/ left in place), never fail for "
    "them, never ask", NULL },
  { "interactive", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL,
    OPT_INTERACTIVE,
    "WHEN to ask, the answer read from standard input: never, once (as "
    "-I), always (as -i, the default WHEN); without this option, only "
    "for write-protected files, if standard input is the terminal",
    "WHEN" },
  { NULL, 'i', POPT_ARG_NONE, NULL, OPT_ASK_ALWAYS,
    "ask before entering or removing every file and directory", NULL },
  { NULL, 'I', POPT_ARG_NONE, NULL, OPT_ASK_ONCE,
    "ask once, before anything is removed (rmtree always recurses)", NULL },
  { "recursive", 'r', POPT_ARG_NONE, &opts.recursive, 0,
    "accepted for rm's users: rmtree always recurses, unless -d alone", NULL },
  { NULL, 'R', POPT_ARG_NONE, &opts.recursive, 0, "the same as -r", NULL },
  { "dir", 'd', POPT_ARG_NONE, &opts.dir, 0,
    "without -r: remove a directory operand only if it is empty, as rm -d",
    NULL },
  { "verbose", 'v', POPT_ARG_NONE, &opts.verbose, 0,
    "list each file and directory as it is removed", NULL },
  { "one-file-system", 'x', POPT_ARG_NONE, &opts.one_file_system, 0,
    "do not enter other file systems or mount points: report and skip them",
    NULL },
  { "dry-run", 'n', POPT_ARG_NONE, &opts.dry_run, 0,
    "remove nothing; list what would be removed", NULL },
  { "preserve-root", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL,
    OPT_PRESERVE_ROOT,
    "refuse to remove '/' (the default); with =all, also refuse a "
    "directory operand on another device than its parent", "all" },
  { "no-preserve-root", '\0', POPT_ARG_NONE, NULL, OPT_NO_PRESERVE_ROOT,
    "do not treat '/' specially", NULL },
  { "json", '\0', POPT_ARG_NONE, &opts.json, 0,
    "at the end, print on standard output one JSON object: the files and "
    "directories removed, the errors (path, message, errno) and the exit "
    "status; the lines of -v and -n go to standard error", NULL },
  CLI_PROGRESS_OPTIONS,
  POPT_TABLEEND
};

static struct poptOption options[] = {
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, tool_options, 0,
    "Remove each PATH and, if it is a directory, everything below it.  "
    "Symbolic links are removed, never followed; every step is taken "
    "relative to a directory already open, so a tree changed during the "
    "removal cannot lead outside itself.  A PATH written with a trailing "
    "slash is resolved, as by rm: LINK/ empties the directory LINK points "
    "to, and keeps LINK.  As rm -r, with or without -r, it asks before "
    "removing a write-protected file if standard input is a terminal, and "
    "as -i or -I say.  The progress line counts the entries removed, and "
    "their rate.\n\n"
    CLI_EXIT_STATUS_USUAL "\n\nOptions:", NULL },
  CLI_COMMON_OPTIONS
};

/* --interactive=WHEN (a bare --interactive is always).  */
static void
set_interactive (const char *arg)
{
  static const char *const words[] = {
    "never", "no", "none", "once", "always", "yes", NULL
  };
  static const enum remove_asking whens[] = {
    REMOVE_ASK_NEVER, REMOVE_ASK_NEVER, REMOVE_ASK_NEVER, REMOVE_ASK_PROTECTED,
    REMOVE_ASK_ALWAYS, REMOVE_ASK_ALWAYS
  };
  size_t i = arg && *arg ? cli_keyword ("interactive", arg, words) : 4;
  opts.ask = whens[i];
  ask_once = strcmp (words[i], "once") == 0;
  if (opts.ask != REMOVE_ASK_NEVER || ask_once)
    opts.force = false;
}

/* Apply option OPT (ARG its argument, or NULL).  The last of -f, -i, -I
   and --interactive wins, as in rm: one that asks cancels -f entirely,
   missing operands included.  */
static void
apply_option (int opt, const char *arg)
{
  switch (opt)
    {
    case OPT_FORCE:
      opts.force = true;
      opts.ask = REMOVE_ASK_NEVER;
      ask_once = false;
      break;
    case OPT_ASK_ALWAYS:
      opts.force = false;
      opts.ask = REMOVE_ASK_ALWAYS;
      ask_once = false;
      break;
    case OPT_ASK_ONCE:
      opts.force = false;
      opts.ask = REMOVE_ASK_PROTECTED;
      ask_once = true;
      break;
    case OPT_INTERACTIVE:
      set_interactive (arg);
      break;
    case OPT_PRESERVE_ROOT:
      if (arg && *arg && strcmp (arg, "all") != 0)
        cli_usage_error ("unrecognized --preserve-root argument: %s",
                         quote_file (arg));
      opts.preserve_root = true;
      opts.preserve_all_root = arg && *arg;
      break;
    case OPT_NO_PRESERVE_ROOT:
      opts.preserve_root = opts.preserve_all_root = false;
      break;
    }
}

/* -I: one question for all the operands (N of them), asked when they
   are removed recursively (always, but with -d alone) or when there are
   more than three, as rm asks; none for no operand (-f).  */
static bool
confirm_all (size_t n)
{
  bool recursing = opts.recursive || !opts.dir;
  if (!ask_once || opts.dry_run || n == 0 || (!recursing && n <= 3))
    return true;
  fprintf (stderr, "%s: remove %zu argument%s%s? ", program_name, n,
           n == 1 ? "" : "s", recursing ? " recursively" : "");
  fflush (stderr);
  return yesno ();
}

/* The command line, for hint_dash_files.  */
static char **command_line;

/* After an unknown option: the first word beginning with '-' that names
   an existing file may have been meant as that file, as rm hints.  */
static void
hint_dash_files (void)
{
  struct stat st;
  for (char **word = command_line + 1; *word; word++)
    if ((*word)[0] == '-' && (*word)[1]
        && sys_fstatat (AT_FDCWD, *word, &st, AT_SYMLINK_NOFOLLOW) == 0)
      {
        fprintf (stderr, "Try '%s ./%s' to remove the file %s.\n",
                 program_name,
                 quotearg_n_style (1, shell_escape_quoting_style, *word),
                 quote_file (*word));
        return;
      }
}

/* The option context, reachable from here until the exit: a usage error
   ends the process inside the loop below, where LeakSanitizer would
   otherwise count what only main's frame held as leaked.  */
static poptContext ctx;

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  command_line = argv;
  cli_on_bad_option (hint_dash_files);
  /* As rm: --interactive and --preserve-root take their argument only
     after '='.  */
  ctx = cli_context_flags (argc, argv, options, "[OPTION]... PATH...",
                           CLI_OPTIONAL_AFTER_EQUALS);
  int opt;
  while ((opt = cli_next_option (ctx)) >= 0)
    {
      char *arg = poptGetOptArg (ctx);
      apply_option (opt, arg);
      free (arg);
    }
  /* As rm: the override of the failsafe is written out, never reached
     by a slip of the fingers.  */
  if (cli_abbreviated ("no-preserve-root"))
    cli_usage_error ("you may not abbreviate the --no-preserve-root option");
  const char **args = poptGetArgs (ctx);
  if (!args && !opts.force)
    cli_usage_error ("missing operand");
  size_t n_args = 0;
  while (args && args[n_args])
    n_args++;
  opts.stdin_tty = isatty (STDIN_FILENO);
  if (!confirm_all (n_args))
    {
      poptFreeContext (ctx);
      return EXIT_SUCCESS;
    }

  opts.progress = cli_progress;
  if (opts.json)
    remove_start_summary ();
  struct removal run;
  removal_start (&run, &opts);
  for (; args && *args; args++)
    remove_operand (&run, *args);
  removal_finish (&run);
  if (opts.json)
    remove_print_summary (&run, cli_status);
  poptFreeContext (ctx);
  return cli_status;
}
