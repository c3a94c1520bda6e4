/* cli.h -- the command-line conventions every newcalls tool shares.

   - options parsed by popt, with -h/--help, --usage and -V/--version
     (gnulib version-etc) in every table: CLI_COMMON_OPTIONS, so no tool
     takes -h, -V or -? for an option of its own;
   - --help and --usage wrapped to 79 columns, whatever the terminal:
     a tool's description is one string per paragraph in its table;
   - errors through gnulib error() with quote()d names;
   - exit status 0 success, 1 failure, 2 usage error;
   - standard output closed and checked at exit (gnulib closeout).  */

#ifndef NC_CLI_H
#define NC_CLI_H

#include <popt.h>
#include <stdint.h>
#include <stdlib.h>

#include "quotearg.h"

/* A file name for a message: 'name' in plain ASCII quotes, with shell
   escapes for anything a terminal would not show as is (coreutils'
   quoteaf style).  */
#define quote_file(name) \
  quotearg_style (shell_escape_always_quoting_style, name)

/* Exit status of a usage error; EXIT_FAILURE (1) is every other failure.  */
#define EXIT_USAGE 2

extern struct poptOption cli_common_options[];

/* End of every tool's option table.  */
#define CLI_COMMON_OPTIONS \
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, cli_common_options, 0, \
    "Common options:", NULL }, \
  POPT_TABLEEND

/* Set the program name and locale, and arrange for stdout to be checked
   at exit.  The first call of every main.  */
void cli_init (int argc, char **argv);

/* A popt context over ARGV for OPTIONS; SYNOPSIS is the part of the usage
   line after the program name ("[OPTION]... FILE").  A tool frees it
   before returning from main, and ends early only by exit() (error() does),
   so that the context is never lost while it is in use.  */
poptContext cli_context (int argc, char **argv,
                         const struct poptOption *options,
                         const char *synopsis);

/* Return the next option's val from poptGetNextOpt, or -1 at the end; a
   bad option is a usage error.  */
int cli_next_option (poptContext ctx);

/* As cli_next_option, for a tool whose operands are numbers: a word that
   popt takes for an unknown option but that starts with '-' and a digit
   is passed to CHECK_OPERAND, to report what is wrong with that operand
   (a negative number); when it returns, a usage error says so.  */
int cli_next_option_operands (poptContext ctx,
                              void (*check_operand) (const char *word));

/* Report a usage error in printf style, point at --help, exit 2.  */
_Noreturn void cli_usage_error (const char *format, ...)
  __attribute__ ((format (printf, 1, 2)));

/* Parse ARG, the argument of option --OPTION, a number in the syntax of
   number.h (FLAGS are its NC_NUMBER_* flags) of at most MAX, which
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
