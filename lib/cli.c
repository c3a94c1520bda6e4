/* cli.c -- the command-line conventions every tool shares; see cli.h.  */

#include <config.h>

#include "cli.h"

#include <fcntl.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "c-ctype.h"
#include "closeout.h"
#include "error.h"
#include "number.h"
#include "progname.h"
#include "sys.h"
#include "version-etc.h"

/* The copyright line of --version, for gnulib's version-etc.  */
/* glibc positional arguments let the year be ours rather than gnulib's
   COPYRIGHT_YEAR, which version_etc passes second.  */
const char version_etc_copyright[] =
  "Copyright %1$s 2026 the newcalls developers.";

static void
version_callback (poptContext ctx, enum poptCallbackReason reason,
                  const struct poptOption *opt, const char *arg,
                  const void *data)
{
  (void) ctx, (void) reason, (void) opt, (void) arg, (void) data;
  version_etc (stdout, program_name, PACKAGE_NAME, PACKAGE_VERSION,
               "the newcalls developers", (char *) NULL);
  exit (EXIT_SUCCESS);
}

struct poptOption cli_common_options[] = {
  { NULL, '\0', POPT_ARG_CALLBACK, (void *) version_callback, 0, NULL, NULL },
  { "version", 'V', POPT_ARG_NONE, NULL, 0,
    "Output version information and exit", NULL },
  POPT_TABLEEND
};

/* A closed standard descriptor would be taken by the first file the tool
   opens, which would then be written as "standard output".  Hold each
   closed one with /dev/null opened the wrong way round, so that using it
   still fails with EBADF, as using a closed descriptor does.  */
static void
hold_closed_std_fds (void)
{
  for (int fd = 0; fd <= 2; fd++)
    if (sys_fcntl (fd, F_GETFD, 0) == -EBADF)
      {
        int held = sys_openat (AT_FDCWD, "/dev/null",
                               (fd == 0 ? O_WRONLY : O_RDONLY), 0);
        if (held != fd)
          {
            /* No /dev/null (or some other fd was free): do without.  */
            if (held >= 0)
              sys_close (held);
            return;
          }
      }
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
  hold_closed_std_fds ();
  setlocale (LC_ALL, "");
  atexit (close_stdout);
}

poptContext
cli_context (int argc, char **argv, const struct poptOption *options,
             const char *synopsis)
{
  poptContext ctx = poptGetContext (program_name, argc,
                                    (const char **) argv, options, 0);
  poptSetOtherOptionHelp (ctx, synopsis);
  return ctx;
}

_Noreturn void
cli_usage_error (const char *format, ...)
{
  va_list ap;
  fprintf (stderr, "%s: ", program_name);
  va_start (ap, format);
  vfprintf (stderr, format, ap);
  va_end (ap);
  fprintf (stderr, "\nTry '%s --help' for more information.\n",
           program_name);
  exit (EXIT_USAGE);
}

/* Whether WORD, which popt took for an option, is rather a negative
   number: '-' then a digit (no tool has a digit for a short option).  */
static bool
negative_number (const char *word)
{
  return word[0] == '-' && c_isdigit (word[1]);
}

int
cli_next_option_operands (poptContext ctx,
                          void (*check_operand) (const char *word))
{
  int rc = poptGetNextOpt (ctx);
  if (rc < -1)
    {
      const char *word = poptBadOption (ctx, POPT_BADOPTION_NOALIAS);
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

uint64_t
cli_parse_number (const char *option, const char *what, const char *arg,
                  uint64_t max, unsigned int flags)
{
  struct nc_number n;
  if (nc_parse_number (arg, strlen (arg), max, flags, &n) == NC_NUMBER_OK)
    return n.value;
  char msg[NC_NUMBER_MESSAGE_SIZE];
  cli_usage_error ("invalid --%s %s: %s", option, quote_file (arg),
                   nc_number_message (&n, arg, what, msg));
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
