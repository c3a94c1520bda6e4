/* cli/common.h -- the command-line conventions every newcalls tool shares.

   - options parsed by popt, with -h/--help, --usage and -V/--version
     (gnulib version-etc) in every table: CLI_COMMON_OPTIONS, so no tool
     takes -h, -V or -? for an option of its own;
   - a long option written as any unambiguous beginning of its name
     (--vers), as getopt_long takes it, a whole name winning over the
     longer names it begins; an ambiguous one is a usage error naming the
     options it may stand for, in getopt_long's words;
   - --help and --usage wrapped to 79 columns, whatever the terminal:
     a tool's description is one string per paragraph in its table;
   - errors through gnulib error() with quote()d names; any error()
     message first erases a progress line of lib/cli/progress;
   - exit status 0 success, 1 failure, 2 usage error;
   - standard output closed and checked at exit (gnulib closeout).  */

#ifndef NC_CLI_COMMON_H
#define NC_CLI_COMMON_H

#include <popt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "quotearg.h"

/* A file name for a message: 'name' in plain ASCII quotes, with shell
   escapes for anything a terminal would not show as is (coreutils'
   quoteaf style).  */
#define quote_file(name) \
  quotearg_style (shell_escape_always_quoting_style, name)

/* The same, in slot N of quotearg's buffers, for the N-th file name of
   one message (quote_file is slot 0): each stays valid until that slot
   is used again.  */
#define quote_file_n(n, name) \
  quotearg_n_style (n, shell_escape_always_quoting_style, name)

/* Exit status of a usage error; EXIT_FAILURE (1) is every other failure.  */
#define EXIT_USAGE 2

/* The exit-status paragraph of a tool with just those three, for the end
   of its description.  */
#define CLI_EXIT_STATUS_USUAL \
  "Exit status: 0 success, 1 failure, 2 usage error."

/* The sentence of a tool's description on the size syntax of
   cli_parse_size, for the operand or argument called NAME ("N").  */
#define CLI_SIZE_SYNTAX(name) \
  name " takes a K, M, G, T suffix (KiB...; KB for 1000) or 0x for hex."

/* The exit status of a tool that goes on after a failure: EXIT_SUCCESS
   until cli_fail is called, then EXIT_FAILURE.  main returns it.  */
extern int cli_status;

/* Report a failure as error (0, ERRNUM, FORMAT, ...) does, and set
   cli_status to EXIT_FAILURE.  */
void cli_fail (int errnum, const char *format, ...)
  __attribute__ ((format (printf, 2, 3)));

/* The same, for a failure about the file FILE, which the report of
   cli/failures.h names as its path (the message quotes it as it
   will).  */
void cli_fail_file (const char *file, int errnum, const char *format, ...)
  __attribute__ ((format (printf, 3, 4)));

extern struct poptOption cli_common_options[];

/* End of every tool's option table.  */
#define CLI_COMMON_OPTIONS \
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, cli_common_options, 0, \
    "Common options:", NULL }, \
  POPT_TABLEEND

/* The shared --progress and --no-progress rows: a tool that draws a
   lib/cli/progress line puts CLI_PROGRESS_OPTIONS in its table and reads
   cli_progress after parsing: 1 --progress, 0 --no-progress, -1 neither
   (the line is drawn only if standard error is a terminal).  The last of
   the two options given wins.  */
extern int cli_progress;
extern struct poptOption cli_progress_options[];
#define CLI_PROGRESS_OPTIONS \
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, cli_progress_options, 0, NULL, \
    NULL }

/* Set the program name and locale, and arrange for stdout to be checked
   at exit; from now on, every error() message first erases a progress
   line drawn by lib/cli/progress (gnulib's error_print_progname hook).  The
   first call of every main.  */
void cli_init (int argc, char **argv);

/* A popt context over ARGV for OPTIONS; SYNOPSIS is the part of the usage
   line after the program name ("[OPTION]... FILE").  A tool frees it
   before returning from main, and ends early only by exit() (error() does),
   so that the context is never lost while it is in use.

   popt reads a vector built from ARGV, which stays allocated until the
   next call: each long option abbreviated there ("--vers", "--tar=DIR")
   is written with its whole name ("--version", "--target-directory=DIR"),
   in OPTIONS and the tables it includes, hidden options as well.  The
   words popt does not read as options are left as they are: operands,
   an option's argument in a word of its own ("-t --vers"), the words
   from "--" on, and from the first operand on where options end there
   (CLI_STOP_AT_OPERAND, or POSIXLY_CORRECT in the environment).  */
poptContext cli_context (int argc, char **argv,
                         const struct poptOption *options,
                         const char *synopsis);

/* Flags of cli_context_flags.  */

/* An option with POPT_ARGFLAG_OPTIONAL takes its argument only written
   with its long name and '=' (--opt=ARG), as cp and unshare(1) do; popt
   alone would take the next word ("--opt FILE") or the rest of a short
   cluster.  Such an option needs a long name.  Written without '=', long
   or short (-o, in a cluster or not), the tool gets an empty argument
   (""), which means none; an empty one written out (--opt=) is a usage
   error, and so is '=' after a short option (-o=ARG, -f=X).  The words
   after "--", and from the first operand with CLI_STOP_AT_OPERAND, are
   left as they are.  */
#define CLI_OPTIONAL_AFTER_EQUALS 0x1

/* Options end at the first operand: it and every word after it, options
   or not, are operands (a COMMAND [ARG]... to run).  */
#define CLI_STOP_AT_OPERAND 0x2

/* cli_context with FLAGS, a set of CLI_* flags above (0 is cli_context).  */
poptContext cli_context_flags (int argc, char **argv,
                               const struct poptOption *options,
                               const char *synopsis, unsigned int flags);

/* Whether long option --LONG_NAME was abbreviated on the command line of
   the last context: for one that is to be written in full (rm's
   --no-preserve-root).  */
bool cli_abbreviated (const char *long_name);

/* Call HINT after the message of an unknown option, before the line
   pointing at --help: for a tool to say more of the words that may have
   been meant otherwise (rm's "Try 'rm ./-foo'").  HINT writes whole
   lines to standard error.  */
void cli_on_bad_option (void (*hint) (void));

/* Return the next option's val from poptGetNextOpt, or -1 at the end; a
   bad option is a usage error ("option '--ver' is ambiguous;
   possibilities: '--verbose' '--version'" for an ambiguous one).  */
int cli_next_option (poptContext ctx);

/* As cli_next_option, for a tool whose operands are numbers: a word that
   popt takes for an unknown option but that starts with '-' and a digit
   is passed to CHECK_OPERAND, to report what is wrong with that operand
   (a negative number); when it returns, a usage error says so.  */
int cli_next_option_operands (poptContext ctx,
                              void (*check_operand) (const char *word));

/* The keyword ARG of option --OPTION (OPTION without the dashes), looked
   up by gnulib argmatch in KEYWORDS (NULL-terminated): its index.  An
   unambiguous abbreviation matches.  An unknown or ambiguous one is a
   usage error: argmatch's message ("invalid argument 'x' for '--opt'"),
   the valid keywords, the line pointing at --help, exit 2.  */
size_t cli_keyword (const char *option, const char *arg,
                    const char *const *keywords);

/* As cli_keyword, for an argument that is not an option's, or whose
   keywords have synonyms: WHAT names it in the message ("backup type",
   "$VERSION_CONTROL"); VALUES (of VALUE_SIZE bytes each) the meaning
   of each keyword: an abbreviation matching several of one meaning is
   no ambiguity, and synonyms are listed on one line, as argmatch does.  */
size_t cli_keyword_of (const char *what, const char *arg,
                       const char *const *keywords, const void *values,
                       size_t value_size);

/* Read the options of CTX to their end, for a tool whose options all
   store into variables (cli_next_option_operands with CHECK_OPERAND,
   which may be NULL), and return the first operand, FILE: none is the
   usage error "missing file operand".  */
const char *cli_file_operand (poptContext ctx,
                              void (*check_operand) (const char *word));

/* A usage error "extra operand 'WORD'" if CTX has an operand left.  */
void cli_no_more_operands (poptContext ctx);

/* Report a usage error in printf style, point at --help, exit 2.  */
_Noreturn void cli_usage_error (const char *format, ...)
  __attribute__ ((format (printf, 1, 2)));

/* Parse ARG, the argument of option --OPTION, a number in the syntax of
   cli/number.h (FLAGS are its NC_NUMBER_* flags) of at most MAX, which
   messages call WHAT ("offset").  A bad one is a usage error such as
   "invalid --offset '-1': negative offset".  */
uint64_t cli_parse_number (const char *option, const char *what,
                           const char *arg, uint64_t max,
                           unsigned int flags);

/* Parse the size ARG of option --OPTION: a number with an optional unit,
   at most INT64_MAX (cli_parse_number, WHAT being OPTION with spaces for
   its dashes).  */
uint64_t cli_parse_size (const char *option, const char *arg);

#endif
