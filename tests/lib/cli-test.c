/* cli-test.c -- the C test driver for lib/cli/common.c: what popt makes of a
   command line under the cli_context_flags flags, long options
   abbreviated or not, the shared progress rows, cli_keyword, cli_fail
   and the erasing of a progress line before a message, and the usage
   errors, each run in a child whose standard error and exit status are
   checked.

   Every check prints "ok N - what" or "not ok N - what (detail)"; the
   last line is "cli-test: N passed, M failed"; the exit status is 1 if
   any check failed.  */

#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/common.h"
#include "cli/progress.h"
#include "error.h"
#include "progname.h"

static int n_checks, n_fail;

static void
check (bool ok, const char *what, const char *detail)
{
  n_checks++;
  if (ok)
    printf ("ok %d - %s\n", n_checks, what);
  else
    {
      n_fail++;
      printf ("not ok %d - %s (%s)\n", n_checks, what, detail);
    }
}

static void
check_str (const char *got, const char *want, const char *what)
{
  char detail[2200];
  snprintf (detail, sizeof detail, "got \"%s\", want \"%s\"", got, want);
  check (strcmp (got, want) == 0, what, detail);
}

/* --- what popt makes of a command line ------------------------------ */

enum { OPT_NET = 1, OPT_FILE, OPT_ALL, OPT_FILES_FROM, OPT_HIDDEN };

static struct poptOption test_options[] = {
  { "net", 'n', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_NET,
    "a namespace, persisted at FILE", "FILE" },
  { "file", 'f', POPT_ARG_STRING, NULL, OPT_FILE, "a file", "FILE" },
  { "all", 'a', POPT_ARG_NONE, NULL, OPT_ALL, "all", NULL },
  /* "file" is a whole name, and the beginning of this one.  */
  { "files-from", '\0', POPT_ARG_STRING, NULL, OPT_FILES_FROM,
    "the names in FILE", "FILE" },
  /* A candidate for an abbreviation, as the shown ones.  */
  { "hidden", '\0', POPT_ARG_NONE | POPT_ARGFLAG_DOC_HIDDEN, NULL,
    OPT_HIDDEN, NULL, NULL },
  CLI_PROGRESS_OPTIONS,
  POPT_TABLEEND
};

static struct poptOption options[] = {
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, test_options, 0, "Options:",
    NULL },
  CLI_COMMON_OPTIONS
};

/* Split LINE at blanks into ARGV (at most MAX - 1 words after "prog").  */
static int
split_words (char *line, char **argv, int max)
{
  int argc = 0;
  argv[argc++] = (char *) "prog";
  for (char *w = strtok (line, " "); w && argc < max - 1;
       w = strtok (NULL, " "))
    argv[argc++] = w;
  argv[argc] = NULL;
  return argc;
}

/* Parse LINE with FLAGS; write into OUT the options seen, "net(ARG)",
   "file(ARG)", "all", "progress=N", then " |" and the operands.  */
static void
parse_line (const char *line, unsigned int flags, char *out, size_t size)
{
  char buf[256];
  char *argv[32];
  snprintf (buf, sizeof buf, "%s", line);
  int argc = split_words (buf, argv, 32);
  cli_progress = -1;
  poptContext ctx = cli_context_flags (argc, argv, options, "[OPTION]...",
                                       flags);
  size_t len = 0;
  out[0] = '\0';
  int opt;
  while ((opt = cli_next_option (ctx)) >= 0)
    {
      char *arg = poptGetOptArg (ctx);
      const char *name = (opt == OPT_NET ? "net" : opt == OPT_FILE ? "file"
                          : opt == OPT_ALL ? "all"
                          : opt == OPT_FILES_FROM ? "files-from"
                          : opt == OPT_HIDDEN ? "hidden" : "?");
      if (arg)
        len += snprintf (out + len, size - len, "%s%s(%s)", len ? " " : "",
                         name, arg);
      else
        len += snprintf (out + len, size - len, "%s%s", len ? " " : "",
                         name);
      free (arg);
    }
  if (cli_progress >= 0)
    len += snprintf (out + len, size - len, "%sprogress=%d", len ? " " : "",
                     cli_progress);
  len += snprintf (out + len, size - len, " |");
  const char **args = poptGetArgs (ctx);
  for (size_t i = 0; args && args[i]; i++)
    len += snprintf (out + len, size - len, " %s", args[i]);
  poptFreeContext (ctx);
}

#define AE CLI_OPTIONAL_AFTER_EQUALS
#define STOP CLI_STOP_AT_OPERAND

static const struct
{
  unsigned int flags;
  const char *line;
  const char *want;
} parse_cases[] = {
  /* popt alone takes the next word, or the rest of a cluster.  */
  { 0, "--net x", "net(x) |" },
  { 0, "-nf x", "net(f) | x" },
  { 0, "x -a y", "all | x y" },
  /* Only after '='.  */
  { AE, "--net x", "net() | x" },
  { AE, "--net=/p x", "net(/p) | x" },
  { AE, "-n x", "net() | x" },
  { AE, "-na x", "net() all | x" },
  { AE, "-an x", "all net() | x" },
  { AE, "--net", "net() |" },
  /* Options that need an argument take it as popt does.  */
  { AE, "-fFILE x", "file(FILE) | x" },
  { AE, "-f FILE x", "file(FILE) | x" },
  { AE, "-af FILE x", "all file(FILE) | x" },
  { AE, "--file FILE x", "file(FILE) | x" },
  { AE, "--file --net x", "file(--net) | x" },
  { AE, "--file=--net x", "file(--net) | x" },
  /* Options after operands, until "--".  */
  { AE, "x --net y", "net() | x y" },
  { AE, "x -n -- --net y", "net() | x --net y" },
  { AE, "- --net", "net() | -" },
  /* Stop at the first operand.  */
  { STOP, "-a cmd -a", "all | cmd -a" },
  { STOP, "-f a cmd -f b", "file(a) | cmd -f b" },
  { AE | STOP, "-n cmd --net y", "net() | cmd --net y" },
  { AE | STOP, "--net=p -a cmd -n", "net(p) all | cmd -n" },
  { AE | STOP, "-- -a cmd", " | -a cmd" },
  /* The shared progress rows: the last one wins, no val returned.  */
  { 0, "--progress x", "progress=1 | x" },
  { 0, "--progress --no-progress", "progress=0 |" },
  { AE, "--no-progress --progress -a", "all progress=1 |" },
  /* A long option abbreviated, with or without the flags.  */
  { 0, "--al x", "all | x" },
  { 0, "--files x y", "files-from(x) | y" },
  { 0, "--files-f=x y", "files-from(x) | y" },
  { 0, "--hid", "hidden |" },
  { 0, "--pro --no", "progress=0 |" },
  { AE, "--ne x", "net() | x" },
  { AE, "--ne=/p x", "net(/p) | x" },
  { AE | STOP, "--ne=/p --a cmd", "net(/p) all | cmd" },
  /* Without the flags, popt takes the next word for an optional argument
     unless it is an option.  */
  { 0, "--ne x --al", "net(x) all |" },
  { 0, "--ne --al x", "net all | x" },
  /* A whole name wins over the longer names it begins.  */
  { 0, "--file x", "file(x) |" },
  { AE, "--file=x", "file(x) |" },
  /* An option's argument in a word of its own is left as it is, and so
     is every word after "--", or from the first operand with STOP.  */
  { 0, "--files --al", "files-from(--al) |" },
  { 0, "-f --al", "file(--al) |" },
  { 0, "-af --al x", "all file(--al) | x" },
  { AE, "-af --al x", "all file(--al) | x" },
  { AE, "--files-fr --al x", "files-from(--al) | x" },
  { 0, "x -- --al", " | x --al" },
  { AE, "-- --al", " | --al" },
  { STOP, "-a cmd --al", "all | cmd --al" },
  { AE | STOP, "--al cmd --al --ne", "all | cmd --al --ne" },
  /* A short option's argument in its cluster ends the cluster.  */
  { 0, "-fa --al", "file(a) all |" },
};

static void
check_parsing (void)
{
  for (size_t i = 0; i < sizeof parse_cases / sizeof *parse_cases; i++)
    {
      char got[512], what[300];
      parse_line (parse_cases[i].line, parse_cases[i].flags, got,
                  sizeof got);
      snprintf (what, sizeof what, "flags %u: %s", parse_cases[i].flags,
                parse_cases[i].line);
      check_str (got, parse_cases[i].want, what);
    }
}

/* Whether, after LINE is parsed with FLAGS, cli_abbreviated (NAME) is
   WANT.  */
static void
check_abbreviated_case (unsigned int flags, const char *line,
                        const char *name, bool want)
{
  char got[512], what[300];
  parse_line (line, flags, got, sizeof got);
  snprintf (what, sizeof what, "flags %u: %s: --%s %s", flags, line, name,
            want ? "abbreviated" : "not abbreviated");
  check (cli_abbreviated (name) == want, what, "the other way");
}

static void
check_abbreviated (void)
{
  check_abbreviated_case (0, "--no-p", "no-progress", true);
  check_abbreviated_case (0, "--no-progress", "no-progress", false);
  check_abbreviated_case (AE, "--ne=x", "net", true);
  check_abbreviated_case (AE, "--net", "net", false);
  check_abbreviated_case (0, "--files x", "file", false);
  check_abbreviated_case (0, "--file --no-p", "no-progress", false);
  check_abbreviated_case (0, "x -- --no-p", "no-progress", false);
  check_abbreviated_case (0, "--no-p", "progress", false);
}

/* POSIXLY_CORRECT in the environment ends the options at the first
   operand, for popt as for the abbreviations.  */
static void
check_posixly_correct (void)
{
  char got[512];
  setenv ("POSIXLY_CORRECT", "1", 1);
  parse_line ("--al x --al", 0, got, sizeof got);
  check_str (got, "all | x --al", "POSIXLY_CORRECT: --al x --al");
  parse_line ("--ne x --net", AE, got, sizeof got);
  check_str (got, "net() | x --net", "POSIXLY_CORRECT: --ne x --net");
  unsetenv ("POSIXLY_CORRECT");
}

/* --- what a child writes on standard error, and its status ---------- */

/* Run FN (ARG) in a child with standard error into a pipe; OUT gets what
   it wrote, and the result is its exit status (-1 if it did not exit).  */
static int
run_child (void (*fn) (const void *), const void *arg, char *out,
           size_t size)
{
  int fds[2];
  fflush (NULL);
  if (pipe (fds) != 0)
    abort ();
  pid_t pid = fork ();
  if (pid < 0)
    abort ();
  if (pid == 0)
    {
      close (fds[0]);
      dup2 (fds[1], STDERR_FILENO);
      close (fds[1]);
      /* Standard output would be checked at exit: keep it out of the way
         of the parent's.  */
      fn (arg);
      fflush (NULL);
      _exit (cli_status);
    }
  close (fds[1]);
  size_t len = 0;
  ssize_t n;
  while (len < size - 1 && (n = read (fds[0], out + len, size - 1 - len)) > 0)
    len += n;
  out[len] = '\0';
  close (fds[0]);
  int status;
  if (waitpid (pid, &status, 0) != pid)
    abort ();
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static void
child_parse (const void *line)
{
  char out[512];
  parse_line (line, AE, out, sizeof out);
}

static const struct
{
  const char *line;
  const char *message;
} usage_cases[] = {
  { "--net= x", "prog-child: empty argument after '--net='\n" },
  { "-n=p x", "prog-child: option -n takes no '=': use --net=p\n" },
  { "-an=p x", "prog-child: option -n takes no '=': use --net=p\n" },
  { "-a=p x", "prog-child: option -a takes no argument\n" },
  { "-z x", "prog-child: -z: unknown option\n" },
  /* Not "--" (the end of the options) made of the cluster's '-'.  */
  { "-a- -n x", "prog-child: -a-: unknown option\n" },
  /* An ambiguous abbreviation: the candidates, hidden ones too, in the
     order of the tables; getopt_long's words.  */
  { "--fil x", "prog-child: option '--fil' is ambiguous; possibilities: "
    "'--file' '--files-from'\n" },
  { "--h", "prog-child: option '--h' is ambiguous; possibilities: "
    "'--hidden' '--help'\n" },
  { "-a --n=x", "prog-child: option '--n=x' is ambiguous; possibilities: "
    "'--net' '--no-progress'\n" },
  /* Reported where popt gets to it: never after an unknown option.  */
  { "--zz --fil", "prog-child: --zz: unknown option\n" },
  /* The checks of the whole name.  */
  { "--ne= x", "prog-child: empty argument after '--net='\n" },
};

static void
check_usage_errors (void)
{
  for (size_t i = 0; i < sizeof usage_cases / sizeof *usage_cases; i++)
    {
      char got[1024], want[1024], what[300];
      int status = run_child (child_parse, usage_cases[i].line, got,
                              sizeof got);
      snprintf (want, sizeof want, "%sTry 'prog-child --help' for more "
                "information.\n", usage_cases[i].message);
      snprintf (what, sizeof what, "usage error: %s", usage_cases[i].line);
      check_str (got, want, what);
      check (status == EXIT_USAGE, "  exits 2", "another status");
    }
}

/* --- keywords ------------------------------------------------------- */

static const char *const when_words[] = { "never", "auto", "always", NULL };

static void
child_keyword (const void *arg)
{
  cli_keyword ("reflink", arg, when_words);
}

static void
check_keywords (void)
{
  check (cli_keyword ("reflink", "never", when_words) == 0,
         "keyword: exact", "another index");
  check (cli_keyword ("reflink", "always", when_words) == 2,
         "keyword: exact, last", "another index");
  check (cli_keyword ("reflink", "au", when_words) == 1,
         "keyword: unambiguous abbreviation", "another index");

  static const char valid[] =
    "Valid arguments are:\n  - 'never'\n  - 'auto'\n  - 'always'\n"
    "Try 'prog-child --help' for more information.\n";
  char got[1024], want[1024];
  int status = run_child (child_keyword, "sometimes", got, sizeof got);
  snprintf (want, sizeof want, "prog-child: invalid argument 'sometimes' "
            "for '--reflink'\n%s", valid);
  check_str (got, want, "keyword: unknown");
  check (status == EXIT_USAGE, "  exits 2", "another status");
  status = run_child (child_keyword, "a", got, sizeof got);
  snprintf (want, sizeof want, "prog-child: ambiguous argument 'a' "
            "for '--reflink'\n%s", valid);
  check_str (got, want, "keyword: ambiguous");
  check (status == EXIT_USAGE, "  exits 2", "another status");
  status = run_child (child_keyword, "", got, sizeof got);
  snprintf (want, sizeof want, "prog-child: ambiguous argument '' "
            "for '--reflink'\n%s", valid);
  check_str (got, want, "keyword: empty");
}

/* --- failures and the progress line --------------------------------- */

static void
child_fail (const void *arg)
{
  (void) arg;
  cli_fail (0, "first %s", "failure");
  cli_fail (2, "cannot open %s", quote_file ("a b"));
}

/* A progress line on a "terminal" (the pipe, taken for one), then a
   message from error() and one from cli_fail: each erases the line.  */
static void
child_progress (const void *arg)
{
  (void) arg;
  struct progress bar;
  progress_start (&bar, false);
  bar.tty = true;
  progress_draw (&bar, false, "%d removed", 64);
  error (0, 0, "plain error");
  progress_draw (&bar, false, "%d removed", 128);
  cli_fail (0, "a failure");
  /* Nothing shown: nothing to erase.  */
  error (0, 0, "again");
}

static void
check_failures (void)
{
  char got[1024];
  int status = run_child (child_fail, NULL, got, sizeof got);
  check_str (got, "prog-child: first failure\n"
             "prog-child: cannot open 'a b': No such file or directory\n",
             "cli_fail: messages");
  check (status == EXIT_FAILURE, "  status 1", "another status");

  status = run_child (child_progress, NULL, got, sizeof got);
  check_str (got, "\rprog-child: 64 removed\33[K\r\33[K"
             "prog-child: plain error\n"
             "\rprog-child: 128 removed\33[K\r\33[K"
             "prog-child: a failure\n"
             "prog-child: again\n",
             "progress line erased before each message");
  check (status == EXIT_FAILURE, "  status 1", "another status");

  check (cli_status == EXIT_SUCCESS, "cli_status starts at success",
         "not 0");
}

/* --- the rest ------------------------------------------------------- */

static void
check_quoting (void)
{
  const char *a = quote_file_n (0, "a b");
  const char *b = quote_file_n (1, "c'd");
  check_str (a, "'a b'", "quote_file_n: slot 0");
  check_str (b, "\"c'd\"", "quote_file_n: slot 1, slot 0 kept");
  check_str (quote_file ("x\ny"), "'x'$'\\n''y'", "quote_file: escapes");
  check_str (CLI_EXIT_STATUS_USUAL,
             "Exit status: 0 success, 1 failure, 2 usage error.",
             "CLI_EXIT_STATUS_USUAL");
}

int
main (int argc, char **argv)
{
  (void) argc, (void) argv;
  char *name[] = { (char *) "prog-child", NULL };
  cli_init (1, name);
  check_parsing ();
  check_abbreviated ();
  check_posixly_correct ();
  check_usage_errors ();
  check_keywords ();
  check_failures ();
  check_quoting ();
  printf ("cli-test: %d passed, %d failed\n", n_checks - n_fail, n_fail);
  return n_fail ? 1 : 0;
}
