/* splice-out -- copy standard input into a file with splice(2).

   SYNOPSIS: splice-out [OPTION]... FILE  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/common.h"
#include "cli/number.h"
#include "copy/engine.h"
#include "copy/pipe.h"
#include "copy/samefile.h"
#include "error.h"
#include "progname.h"
#include "sys/calls.h"

static int append;
static char *offset_arg;
static char *length_arg;

static struct poptOption tool_options[] = {
  { "append", 'a', POPT_ARG_NONE, &append, 0,
    "append to FILE instead of truncating it", NULL },
  { "offset", 'o', POPT_ARG_STRING, &offset_arg, 0,
    "start writing at byte N of FILE, truncated there first (as dd seek=N)",
    "N" },
  { "length", 'l', POPT_ARG_STRING, &length_arg, 0,
    "copy at most N bytes of standard input", "N" },
  SPLICE_PIPE_OPTIONS,
  POPT_TABLEEND
};

static struct poptOption options[] = {
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, tool_options, 0,
    "Copy standard input into FILE, created if missing (mode 0666 less the "
    "umask); when standard input is a pipe, the pages move by splice(2).  "
    "FILE - is standard output, written at its offset (or at --offset) "
    "and not truncated.  "
    "Standard input that is FILE itself is refused before FILE is touched, "
    "unless nothing is left to read or --length keeps the reads clear of "
    "the writes.\n\n"
    CLI_SIZE_SYNTAX ("N") "\n" CLI_EXIT_STATUS_USUAL "\n\nOptions:", NULL },
  CLI_COMMON_OPTIONS
};

/* The option context, reachable from here until the exit: a FILE that
   cannot be created or written ends the process through error(), where
   LeakSanitizer would otherwise count what only main's frame held as
   leaked.  */
static poptContext ctx;

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  ctx = cli_context (argc, argv, options, "[OPTION]... FILE");
  const char *file = cli_file_operand (ctx, NULL);
  cli_no_more_operands (ctx);
  if (append && offset_arg)
    cli_usage_error ("--append and --offset cannot be combined");
  /* FILE - is standard output, as the shell opened it: written at its
     own offset (or at --offset), never truncated nor made O_APPEND here,
     which would change the shell's open file too.  */
  bool is_stdout = strcmp (file, "-") == 0;
  if (is_stdout && append)
    cli_usage_error ("--append cannot be used with - "
                     "(open standard output with >> instead)");
  const char *name = is_stdout ? "standard output" : quote_file (file);

  off_t offset;
  struct copy_request req = splice_request (offset_arg, &offset, false,
                                            length_arg);
  req.in_fd = STDIN_FILENO;

  /* No O_TRUNC: standard input may be FILE itself, and must be looked at
     before FILE is cut.  */
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : 0);
  req.out_fd = (is_stdout ? STDOUT_FILENO
                : sys_openat (AT_FDCWD, file, flags, 0666));
  if (req.out_fd < 0)
    error (EXIT_FAILURE, -req.out_fd, "cannot open %s", name);
  bool truncating = !append && !is_stdout;
  int ret = samefile_check (STDIN_FILENO, NULL, req.out_fd, req.out_off,
                            truncating ? offset : SAMEFILE_NO_TRUNCATE,
                            req.length);
  if (ret > 0)
    error (EXIT_FAILURE, 0, "%s: input file is output file", name);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "error reading standard input");

  /* Truncate as O_TRUNC would have: regular files only (a FIFO, a device
     or a terminal ignore O_TRUNC); --offset insists.  */
  struct stat st;
  ret = sys_fstat (req.out_fd, &st);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "cannot open %s", name);
  if (truncating && (offset_arg || S_ISREG (st.st_mode)))
    {
      ret = sys_ftruncate (req.out_fd, offset);
      if (ret < 0)
        error (EXIT_FAILURE, -ret, "cannot truncate %s", name);
    }

  struct copy_result res;
  ret = splice_copy (&req, STDIN_FILENO, &res);
  if (ret < 0)
    {
      if (res.side == COPY_SIDE_READ)
        error (EXIT_FAILURE, -ret, "error reading standard input");
      error (EXIT_FAILURE, -ret, "error writing %s", name);
    }
  /* Some filesystems report a failed write only at close (standard
     output's close is close_stdout's, at exit).  */
  ret = is_stdout ? 0 : sys_close (req.out_fd);
  if (ret < 0 && ret != -EINTR)
    error (EXIT_FAILURE, -ret, "error writing %s", name);
  poptFreeContext (ctx);
  return EXIT_SUCCESS;
}
