/* splice-in -- copy a file to standard output with splice(2).

   SYNOPSIS: splice-in [OPTION]... FILE  */

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

static char *offset_arg;
static char *length_arg;

static struct poptOption tool_options[] = {
  { "offset", 'o', POPT_ARG_STRING, &offset_arg, 0,
    "start reading at byte N of FILE", "N" },
  { "length", 'l', POPT_ARG_STRING, &length_arg, 0,
    "copy at most N bytes", "N" },
  SPLICE_PIPE_OPTIONS,
  POPT_TABLEEND
};

static struct poptOption options[] = {
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, tool_options, 0,
    "Copy FILE to standard output; when standard output is a pipe, the pages "
    "move by splice(2) without being copied.  FILE - is standard input, "
    "read from its offset (or at --offset).  Standard output that is FILE "
    "itself (FILE >> FILE) is refused, unless nothing is left to read or the "
    "reads and the writes cannot meet.\n\n"
    CLI_SIZE_SYNTAX ("N") "\n" CLI_EXIT_STATUS_USUAL "\n\nOptions:", NULL },
  CLI_COMMON_OPTIONS
};

/* The option context, reachable from here until the exit: a FILE that
   cannot be read ends the process through error(), where LeakSanitizer
   would otherwise count what only main's frame held as leaked.  */
static poptContext ctx;

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  ctx = cli_context (argc, argv, options, "[OPTION]... FILE");
  const char *file = cli_file_operand (ctx, NULL);
  cli_no_more_operands (ctx);

  /* FILE - is standard input, read from its own offset (which the copy
     moves, as cat does) or at --offset (which leaves it alone).  */
  bool is_stdin = strcmp (file, "-") == 0;
  const char *name = is_stdin ? "standard input" : quote_file (file);
  off_t offset;
  struct copy_request req = splice_request (offset_arg, &offset, true,
                                            length_arg);
  req.out_fd = STDOUT_FILENO;

  req.in_fd = (is_stdin ? STDIN_FILENO
               : sys_openat (AT_FDCWD, file, O_RDONLY | O_CLOEXEC, 0));
  if (req.in_fd < 0)
    error (EXIT_FAILURE, -req.in_fd, "cannot open %s", name);
  struct stat st;
  int ret = sys_fstat (req.in_fd, &st);
  if (ret == 0 && S_ISDIR (st.st_mode))
    ret = -EISDIR;
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "error reading %s", name);
  ret = samefile_check (req.in_fd, req.in_off, STDOUT_FILENO, NULL,
                        SAMEFILE_NO_TRUNCATE, req.length);
  if (ret > 0)
    error (EXIT_FAILURE, 0, "%s: input file is output file", name);
  if (ret < 0)
    error (EXIT_FAILURE, -ret, "write error");

  struct copy_result res;
  ret = splice_copy (&req, STDOUT_FILENO, &res);
  if (ret < 0)
    {
      if (res.side == COPY_SIDE_READ)
        error (EXIT_FAILURE, -ret, "error reading %s", name);
      /* The reader went away: stop quietly, as cat does.  */
      if (ret == -EPIPE)
        exit (EXIT_FAILURE);
      error (EXIT_FAILURE, -ret, "write error");
    }
  if (!is_stdin)
    sys_close (req.in_fd);
  poptFreeContext (ctx);
  return EXIT_SUCCESS;
}
