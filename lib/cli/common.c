/* cli/common.c -- the command-line conventions every tool shares; see
   cli/common.h.  */

#include <config.h>

#include "cli/common.h"

#include <fcntl.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "argmatch.h"
#include "c-ctype.h"
#include "cli/failures.h"
#include "cli/features.h"
#include "cli/number.h"
#include "cli/progress.h"
#include "closeout.h"
#include "error.h"
#include "progname.h"
#include "stdopen.h"
#include "sys/calls.h"
#include "version-etc.h"
#include "xalloc.h"

/* The copyright line of --version, for gnulib's version-etc.  */
/* glibc positional arguments let the year be ours rather than gnulib's
   COPYRIGHT_YEAR, which version_etc passes second.  */
const char version_etc_copyright[] =
  "Copyright %1$s 2026 the newcalls developers.";

/* Help text lines are at most this many columns wide: popt lays out the
   option rows for 79 columns when it writes to something that is not a
   terminal (and wider on a wider terminal), and the tools' paragraphs are
   wrapped to match.  A fixed width keeps the output the same for every
   reader, scripts included.  */
enum { HELP_COLUMNS = 79 };

/* The display width of the LEN bytes at S: a byte that continues a UTF-8
   sequence takes no column of its own.  */
static size_t
columns_of (const char *s, size_t len)
{
  size_t n = 0;
  for (size_t i = 0; i < len; i++)
    n += ((unsigned char) s[i] & 0xc0) != 0x80;
  return n;
}

/* Write the LEN bytes of LINE (no newline) to OUT, broken at blanks into
   lines of at most HELP_COLUMNS columns, each continuation indented as
   LINE is (unless that is more than half a line).  A word longer than a
   line is written whole.  */
static void
put_wrapped_line (const char *line, size_t len, FILE *out)
{
  size_t indent = 0;
  while (indent < len && line[indent] == ' ')
    indent++;
  /* Continuations deep in the line would leave no room for words.  */
  size_t hang = indent <= HELP_COLUMNS / 2 ? indent : 0;
  const char *end = line + len;
  const char *p = line;
  bool first = true;
  while (p < end)
    {
      if (!first)
        {
          while (p < end && *p == ' ')
            p++;
          if (p == end)
            break;
          fprintf (out, "%*s", (int) hang, "");
        }
      size_t room = HELP_COLUMNS - (first ? 0 : hang);
      const char *stop = end;
      if (columns_of (p, end - p) > room)
        {
          /* The last blank that leaves at most ROOM columns before it;
             else the first one after the overlong word.  */
          const char *text = first ? p + indent : p;
          const char *fit = NULL, *over = NULL;
          for (const char *q = text; q < end && !over; q++)
            if (*q == ' ')
              {
                if (columns_of (p, q - p) <= room)
                  fit = q;
                else
                  over = q;
              }
          stop = fit ? fit : over ? over : end;
        }
      /* No blanks at the end of a line.  */
      const char *last = stop;
      while (last > p && last[-1] == ' ')
        last--;
      fwrite (p, 1, last - p, out);
      putc ('\n', out);
      p = stop;
      first = false;
    }
}

/* Write TEXT to OUT, each line wrapped by put_wrapped_line.  */
static void
put_wrapped (const char *text, size_t len, FILE *out)
{
  const char *end = text + len;
  while (text < end)
    {
      const char *nl = memchr (text, '\n', end - text);
      const char *line_end = nl ? nl : end;
      if (columns_of (text, line_end - text) <= HELP_COLUMNS)
        {
          fwrite (text, 1, line_end - text, out);
          if (nl)
            putc ('\n', out);
        }
      else
        put_wrapped_line (text, line_end - text, out);
      text = nl ? nl + 1 : end;
    }
}

/* Where to report bugs and the home page, closing --help and
   --version (configure.ac's AC_INIT).  */
static void
print_bug_report (void)
{
  printf ("\nReport bugs to: <%s>\n%s home page: <%s>\n",
          PACKAGE_BUGREPORT, PACKAGE_NAME, PACKAGE_URL);
}

/* What popt prints for --help (HELP) or --usage, wrapped, on standard
   output.  popt writes into memory first: it gets no terminal to measure,
   so it lays its rows out for 79 columns, and the tools' paragraphs,
   single lines in their option tables, are wrapped here in one place.  */
static void
print_help (poptContext ctx, bool help)
{
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream (&text, &len);
  if (!mem)
    xalloc_die ();
  if (help)
    poptPrintHelp (ctx, mem, 0);
  else
    poptPrintUsage (ctx, mem, 0);
  if (fclose (mem) != 0)
    xalloc_die ();
  put_wrapped (text, len, stdout);
  free (text);
  if (!help)
    return;
  print_bug_report ();
  printf ("\nManual: man %s; what all the tools share: man 7 newcalls.\n",
          program_name ? program_name : PACKAGE_NAME);
}

enum { COMMON_HELP = 1, COMMON_USAGE, COMMON_VERSION, COMMON_FEATURES };

static void
common_callback (poptContext ctx, enum poptCallbackReason reason,
                 const struct poptOption *opt, const char *arg,
                 const void *data)
{
  (void) reason, (void) arg, (void) data;
  switch (opt->val)
    {
    case COMMON_HELP:
    case COMMON_USAGE:
      print_help (ctx, opt->val == COMMON_HELP);
      break;
    case COMMON_FEATURES:
      cli_print_features (program_name);
      break;
    default:
      version_etc (stdout, program_name, PACKAGE_NAME, PACKAGE_VERSION,
                   "the newcalls developers", (char *) NULL);
      print_bug_report ();
      break;
    }
  exit (EXIT_SUCCESS);
}

/* In place of popt's POPT_AUTOHELP, whose rows are worded and capitalised
   unlike the tools' ones and which has no -h.  */
struct poptOption cli_common_options[] = {
  { NULL, '\0', POPT_ARG_CALLBACK, (void *) common_callback, 0, NULL, NULL },
  { "help", 'h', POPT_ARG_NONE, NULL, COMMON_HELP,
    "show this help and exit", NULL },
  /* popt's spelling, kept working but not shown.  */
  { NULL, '?', POPT_ARG_NONE | POPT_ARGFLAG_DOC_HIDDEN, NULL, COMMON_HELP,
    NULL, NULL },
  { "usage", '\0', POPT_ARG_NONE, NULL, COMMON_USAGE,
    "show a short usage message and exit", NULL },
  { "version", 'V', POPT_ARG_NONE, NULL, COMMON_VERSION,
    "show version information and exit", NULL },
  { "features", '\0', POPT_ARG_NONE, NULL, COMMON_FEATURES,
    "show the kernel's system calls this tool makes, whether each works "
    "here, and what the tool does without it; then exit", NULL },
  POPT_TABLEEND
};

int cli_progress = -1;

struct poptOption cli_progress_options[] = {
  { "progress", '\0', POPT_ARG_VAL, &cli_progress, 1,
    "show the progress line on standard error, and the totals at the end "
    "(by default on a terminal: after a second, erased at the end)",
    NULL },
  { "no-progress", '\0', POPT_ARG_VAL, &cli_progress, 0,
    "do not show the progress line", NULL },
  POPT_TABLEEND
};

int cli_status = EXIT_SUCCESS;

/* cli_fail and cli_fail_file, about FILE (NULL: none).  */
static void vfail (const char *file, int errnum, const char *format,
                   va_list ap)
  __attribute__ ((format (printf, 3, 0)));

static void
vfail (const char *file, int errnum, const char *format, va_list ap)
{
  char *msg;
  if (vasprintf (&msg, format, ap) < 0)
    xalloc_die ();
  error (0, errnum, "%s", msg);
  failures_add (file, errnum, msg);
  free (msg);
  cli_status = EXIT_FAILURE;
}

void
cli_fail (int errnum, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  vfail (NULL, errnum, format, ap);
  va_end (ap);
}

void
cli_fail_file (const char *file, int errnum, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  vfail (file, errnum, format, ap);
  va_end (ap);
}

/* What error() prints before a message, in place of "PROGRAM: ": the
   progress line is erased first, so that no message lands in it.  */
static void
print_progname (void)
{
  progress_clear_shown ();
  fprintf (stderr, "%s: ", program_name);
}

void
cli_init (int argc, char **argv)
{
  (void) argc;
  /* Messages say "splice-in: ...", however the tool was invoked, as
     util-linux tools do; set_program_name also sets glibc's
     program_invocation_name, which error() prints.  */
  const char *slash = strrchr (argv[0], '/');
  set_program_name (slash ? slash + 1 : argv[0]);
  /* A closed standard descriptor would be taken by the first file the
     tool opens, which would then be written as "standard output":
     stdopen holds each closed one with /dev/null (or /dev/full) opened
     the wrong way round, so that using it still fails with EBADF.  */
  stdopen ();
  setlocale (LC_ALL, "");
  atexit (close_stdout);
  error_print_progname = print_progname;
}

/* The entry for long option NAME (LEN bytes) or, with NAME NULL, for the
   short option LETTER, in TABLE and the tables it includes.  */
static const struct poptOption *
find_option (const struct poptOption *table, const char *name, size_t len,
             char letter)
{
  for (const struct poptOption *o = table;
       o->longName || o->shortName || o->argInfo || o->arg; o++)
    {
      if ((o->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE)
        {
          const struct poptOption *found = find_option (o->arg, name, len,
                                                        letter);
          if (found)
            return found;
        }
      else if (name ? (o->longName && strlen (o->longName) == len
                       && memcmp (o->longName, name, len) == 0)
               : (letter && o->shortName == letter))
        return o;
    }
  return NULL;
}

/* The number of entries in TABLE and the tables it includes, hidden ones
   too, whose long name begins with the LEN bytes of NAME; *FIRST gets the
   first of them if it is NULL.  With OUT, each is written there as
   " '--NAME'", in the order of the table (that of --help).  */
static size_t
prefix_matches (const struct poptOption *table, const char *name, size_t len,
                const struct poptOption **first, FILE *out)
{
  size_t n = 0;
  for (const struct poptOption *o = table;
       o->longName || o->shortName || o->argInfo || o->arg; o++)
    if ((o->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE)
      n += prefix_matches (o->arg, name, len, first, out);
    else if (o->longName && strncmp (o->longName, name, len) == 0)
      {
        n++;
        if (!*first)
          *first = o;
        if (out)
          fprintf (out, " '--%s'", o->longName);
      }
  return n;
}

/* The entry that long option NAME (LEN bytes) stands for in OPTIONS, as
   getopt_long reads it: the one of that name, else the only one whose
   name begins with NAME; NULL if none, or several, do.  */
static const struct poptOption *
match_long (const struct poptOption *options, const char *name, size_t len)
{
  const struct poptOption *o = find_option (options, name, len, 0);
  if (o)
    return o;
  return prefix_matches (options, name, len, &o, NULL) == 1 ? o : NULL;
}

static bool
takes_arg (const struct poptOption *o)
{
  unsigned int type = o->argInfo & POPT_ARG_MASK;
  return type != POPT_ARG_NONE && type != POPT_ARG_VAL;
}

static bool
optional_arg (const struct poptOption *o)
{
  return takes_arg (o) && (o->argInfo & POPT_ARGFLAG_OPTIONAL);
}

/* Whether popt takes NEXT, the word after option O when O's own word has
   no argument, for O's argument: any word, for an option that needs one;
   one that does not start with '-', for an optional one.  */
static bool
takes_next_word (const struct poptOption *o, const char *next)
{
  return takes_arg (o) && !(optional_arg (o) && next[0] == '-');
}

/* The vector that cli_context_flags gives popt, which of its words were
   allocated for it, and which of them are long options that were
   abbreviated: popt refers to the words until the context is freed, so
   they stay until the next call (and reachable, for leak checkers,
   whichever way the tool exits).  */
static struct
{
  char **argv;
  bool *owned;
  bool *abbreviated;
  int argc;
} rewritten;

/* The options of the last context, for the message on an ambiguous
   one.  */
static const struct poptOption *context_options;

static void
free_rewritten (void)
{
  for (int i = 0; i < rewritten.argc; i++)
    if (rewritten.owned[i])
      free (rewritten.argv[i]);
  free (rewritten.argv);
  free (rewritten.owned);
  free (rewritten.abbreviated);
  rewritten.argv = NULL;
  rewritten.owned = NULL;
  rewritten.abbreviated = NULL;
  rewritten.argc = 0;
}

/* Append WORD to the rewritten vector; OWNED: it was allocated for it.  */
static void
put_word (char *word, bool owned)
{
  rewritten.owned[rewritten.argc] = owned;
  rewritten.abbreviated[rewritten.argc] = false;
  rewritten.argv[rewritten.argc++] = word;
}

/* A new string, A then B then C.  */
static char *
concat3 (const char *a, const char *b, const char *c)
{
  size_t la = strlen (a), lb = strlen (b), lc = strlen (c);
  char *s = xmalloc (la + lb + lc + 1);
  memcpy (s, a, la);
  memcpy (s + la, b, lb);
  memcpy (s + la + lb, c, lc + 1);
  return s;
}

/* Append the concatenation of A and B.  */
static void
put_concat (const char *a, const char *b)
{
  put_word (concat3 (a, b, ""), true);
}

/* Append long option O, which WORD names in its first LEN bytes after
   the dashes, as "--" O's whole name, then SUFFIX ("", "=" or "=ARG"):
   WORD itself if it is that already.  */
static void
put_long (const struct poptOption *o, char *word, size_t len,
          const char *suffix)
{
  bool whole = o->longName[len] == '\0';
  if (whole && strcmp (word + 2 + len, suffix) == 0)
    put_word (word, false);
  else
    put_word (concat3 ("--", o->longName, suffix), true);
  rewritten.abbreviated[rewritten.argc - 1] = !whole;
}

/* Rewrite the long option WORD ("--NAME" or "--NAME=ARG") with the whole
   name of the option NAME stands for; with AFTER_EQUALS, as
   CLI_OPTIONAL_AFTER_EQUALS says.  *NEXT is the next word of ARGV, taken
   as the option's argument if popt takes it.  False if WORD is no option
   (unknown, or ambiguous): popt stops there with an error, and the words
   after it are not to be read.  */
static bool
rewrite_long (char *word, const struct poptOption *options, bool after_equals,
              int argc, char **argv, int *next)
{
  const char *name = word + 2;
  const char *eq = strchr (name, '=');
  size_t len = eq ? (size_t) (eq - name) : strlen (name);
  const struct poptOption *o = match_long (options, name, len);
  if (!o)
    {
      put_word (word, false);
      return false;
    }
  if (after_equals && optional_arg (o))
    {
      if (eq && eq[1] == '\0')
        cli_usage_error ("empty argument after '--%s='", o->longName);
      put_long (o, word, len, eq ? eq : "=");
      return true;
    }
  put_long (o, word, len, eq ? eq : "");
  if (!eq && *next < argc && takes_next_word (o, argv[*next]))
    put_word (argv[(*next)++], false);
  return true;
}

/* Rewrite the cluster of short options WORD ("-abc") as one word per
   option, for CLI_OPTIONAL_AFTER_EQUALS; *NEXT and the result as for
   rewrite_long.  */
static bool
split_short (char *word, const struct poptOption *options, int argc,
             char **argv, int *next)
{
  for (char *p = word + 1; *p; p++)
    {
      const struct poptOption *o = find_option (options, NULL, 0, *p);
      char letter[3] = { '-', *p, '\0' };
      if (!o)
        {
          /* A '-' inside a cluster would make "--" of what follows, and
             popt would end the options there: report the cluster.  */
          if (*p == '-')
            cli_usage_error ("%s: unknown option", word);
          /* Unknown: popt reports it, from here.  */
          put_concat ("-", p);
          return false;
        }
      /* "-n=FILE" would be -n, then an unknown option '='.  */
      if (p[1] == '=' && !(takes_arg (o) && !optional_arg (o)))
        {
          if (o->longName && takes_arg (o))
            cli_usage_error ("option -%c takes no '=': use --%s%s",
                             *p, o->longName, p + 1);
          cli_usage_error ("option -%c takes no argument", *p);
        }
      if (optional_arg (o))
        put_word (concat3 ("--", o->longName, "="), true);
      else if (takes_arg (o))
        {
          put_concat (letter, p + 1);
          if (p[1] == '\0' && *next < argc)
            put_word (argv[(*next)++], false);
          return true;
        }
      else
        put_concat (letter, "");
    }
  return true;
}

/* Pass the cluster of short options WORD ("-abc") on as it is, with the
   next word of ARGV if popt takes it for the argument of the cluster's
   last option; *NEXT and the result as for rewrite_long.  */
static bool
pass_short (char *word, const struct poptOption *options, int argc,
            char **argv, int *next)
{
  put_word (word, false);
  for (const char *p = word + 1; *p; p++)
    {
      const struct poptOption *o = find_option (options, NULL, 0, *p);
      if (!o)
        return false;
      /* The rest of the cluster, if any, is its argument.  */
      if (takes_arg (o))
        {
          if (p[1] == '\0' && *next < argc
              && takes_next_word (o, argv[*next]))
            put_word (argv[(*next)++], false);
          return true;
        }
    }
  return true;
}

/* Whether popt ends the options at the first operand whatever the flags:
   it does when either of these is in the environment.  */
static bool
posix_order (void)
{
  return getenv ("POSIXLY_CORRECT") || getenv ("POSIX_ME_HARDER");
}

/* The words of ARGV as popt is to read them against OPTIONS: each long
   option with its whole name, and as the CLI_* FLAGS say.  Operands,
   option arguments in words of their own and every word from "--" on
   (or from the first operand, with CLI_STOP_AT_OPERAND) are left as
   they are.  *ARGC becomes the new length.  */
static char **
rewrite_argv (int *argc, char **argv, const struct poptOption *options,
              unsigned int flags)
{
  free_rewritten ();
  /* A word becomes at most one word per letter.  */
  size_t room = 1;
  for (int i = 0; i < *argc; i++)
    room += strlen (argv[i]) + 1;
  rewritten.argv = xnmalloc (room, sizeof *rewritten.argv);
  rewritten.owned = xnmalloc (room, sizeof *rewritten.owned);
  rewritten.abbreviated = xnmalloc (room, sizeof *rewritten.abbreviated);
  put_word (argv[0], false);

  bool after_equals = flags & CLI_OPTIONAL_AFTER_EQUALS;
  bool stop_at_operand = (flags & CLI_STOP_AT_OPERAND) || posix_order ();
  int i = 1;
  while (i < *argc)
    {
      char *word = argv[i];
      if (strcmp (word, "--") == 0)
        break;
      if (word[0] != '-' || word[1] == '\0')
        {
          if (stop_at_operand)
            break;
          put_word (word, false);
          i++;
          continue;
        }
      i++;
      bool known = (word[1] == '-'
                    ? rewrite_long (word, options, after_equals, *argc, argv,
                                    &i)
                    : after_equals
                    ? split_short (word, options, *argc, argv, &i)
                    : pass_short (word, options, *argc, argv, &i));
      if (!known)
        break;
    }
  while (i < *argc)
    put_word (argv[i++], false);
  rewritten.argv[rewritten.argc] = NULL;
  *argc = rewritten.argc;
  return rewritten.argv;
}

poptContext
cli_context_flags (int argc, char **argv, const struct poptOption *options,
                   const char *synopsis, unsigned int flags)
{
  argv = rewrite_argv (&argc, argv, options, flags);
  context_options = options;
  poptContext ctx = poptGetContext (program_name, argc,
                                    (const char **) argv, options,
                                    (flags & CLI_STOP_AT_OPERAND
                                     ? POPT_CONTEXT_POSIXMEHARDER : 0));
  poptSetOtherOptionHelp (ctx, synopsis);
  return ctx;
}

bool
cli_abbreviated (const char *long_name)
{
  size_t len = strlen (long_name);
  for (int i = 0; i < rewritten.argc; i++)
    {
      if (!rewritten.abbreviated[i])
        continue;
      /* "--NAME" or "--NAME=ARG".  */
      const char *name = rewritten.argv[i] + 2;
      if (strncmp (name, long_name, len) == 0
          && (name[len] == '\0' || name[len] == '='))
        return true;
    }
  return false;
}

poptContext
cli_context (int argc, char **argv, const struct poptOption *options,
             const char *synopsis)
{
  return cli_context_flags (argc, argv, options, synopsis, 0);
}

/* The tool's hint for an unknown option (cli_on_bad_option), and
   whether the usage error being reported is one.  */
static void (*bad_option_hint) (void);
static bool bad_option_seen;

void
cli_on_bad_option (void (*hint) (void))
{
  bad_option_hint = hint;
}

/* The end of every usage error: the tool's hint after an unknown option,
   the line pointing at --help, and the exit.  */
static _Noreturn void
end_usage_error (void)
{
  fputc ('\n', stderr);
  if (bad_option_seen && bad_option_hint)
    bad_option_hint ();
  fprintf (stderr, "Try '%s --help' for more information.\n",
           program_name);
  exit (EXIT_USAGE);
}

size_t
cli_keyword (const char *option, const char *arg,
             const char *const *keywords)
{
  ptrdiff_t i = argmatch (arg, keywords, NULL, 0);
  if (i >= 0)
    return i;
  /* argmatch_invalid and argmatch_valid's words, with the quotes of
     every other message (theirs follow the locale).  */
  print_progname ();
  fprintf (stderr, "%s argument %s for '--%s'\nValid arguments are:",
           i == -1 ? "invalid" : "ambiguous", quote_file (arg), option);
  for (size_t k = 0; keywords[k]; k++)
    fprintf (stderr, "\n  - %s", quote_file (keywords[k]));
  end_usage_error ();
}

size_t
cli_keyword_of (const char *what, const char *arg,
                const char *const *keywords, const void *values,
                size_t value_size)
{
  ptrdiff_t i = argmatch (arg, keywords, values, value_size);
  if (i >= 0)
    return i;
  print_progname ();
  fprintf (stderr, "%s argument %s for '%s'\nValid arguments are:",
           i == -1 ? "invalid" : "ambiguous", quote_file (arg), what);
  const char *value = values;
  for (size_t k = 0; keywords[k]; k++)
    fprintf (stderr, k > 0 && memcmp (value + k * value_size,
                                      value + (k - 1) * value_size,
                                      value_size) == 0
                     ? ", %s" : "\n  - %s", quote_file (keywords[k]));
  end_usage_error ();
}

_Noreturn void
cli_usage_error (const char *format, ...)
{
  va_list ap;
  print_progname ();
  va_start (ap, format);
  vfprintf (stderr, format, ap);
  va_end (ap);
  end_usage_error ();
}

/* Whether WORD, which popt took for an option, is rather a negative
   number: '-' then a digit (no tool has a digit for a short option).  */
static bool
negative_number (const char *word)
{
  return word[0] == '-' && c_isdigit (word[1]);
}

/* If WORD, which popt found no option for, is a long option whose name
   begins those of several options of the last context, the usage error
   getopt_long gives, which names them all.  It is reported here rather
   than as the words are rewritten, for the options before it to be taken
   first, as getopt_long does: --help among them wins.  */
static void
check_ambiguous (const char *word)
{
  if (word[0] != '-' || word[1] != '-' || !context_options)
    return;
  const char *name = word + 2;
  size_t len = strcspn (name, "=");
  const struct poptOption *first = NULL;
  if (prefix_matches (context_options, name, len, &first, NULL) < 2)
    return;
  print_progname ();
  fprintf (stderr, "option '%s' is ambiguous; possibilities:", word);
  prefix_matches (context_options, name, len, &first, stderr);
  end_usage_error ();
}

int
cli_next_option_operands (poptContext ctx,
                          void (*check_operand) (const char *word))
{
  int rc = poptGetNextOpt (ctx);
  if (rc < -1)
    {
      const char *word = poptBadOption (ctx, POPT_BADOPTION_NOALIAS);
      bad_option_seen = rc == POPT_ERROR_BADOPT;
      if (rc == POPT_ERROR_BADOPT)
        check_ambiguous (word);
      if (rc == POPT_ERROR_BADOPT && negative_number (word))
        {
          if (check_operand)
            check_operand (word);
          cli_usage_error ("%s: unknown option (numbers take no sign)",
                           word);
        }
      cli_usage_error ("%s: %s", word, poptStrerror (rc));
    }
  return rc;
}

int
cli_next_option (poptContext ctx)
{
  return cli_next_option_operands (ctx, NULL);
}

const char *
cli_file_operand (poptContext ctx, void (*check_operand) (const char *word))
{
  while (cli_next_option_operands (ctx, check_operand) >= 0)
    continue;
  const char *file = poptGetArg (ctx);
  if (!file)
    cli_usage_error ("missing file operand");
  return file;
}

void
cli_no_more_operands (poptContext ctx)
{
  const char *extra = poptPeekArg (ctx);
  if (extra)
    cli_usage_error ("extra operand %s", quote_file (extra));
}

uint64_t
cli_parse_number (const char *option, const char *what, const char *arg,
                  uint64_t max, unsigned int flags)
{
  uint64_t value;
  char msg[NC_NUMBER_MESSAGE_SIZE];
  if (nc_parse_number_at (arg, 0, strlen (arg), max, flags, what, &value,
                          msg))
    cli_usage_error ("invalid --%s %s: %s", option, quote_file (arg), msg);
  return value;
}

uint64_t
cli_parse_size (const char *option, const char *arg)
{
  /* "pipe-size" is a "pipe size" in messages.  */
  char what[NC_NUMBER_WHAT_MAX + 1];
  size_t i;
  for (i = 0; option[i] && i < NC_NUMBER_WHAT_MAX; i++)
    what[i] = option[i] == '-' ? ' ' : option[i];
  what[i] = '\0';
  return cli_parse_number (option, what, arg, INT64_MAX, NC_NUMBER_UNITS);
}
