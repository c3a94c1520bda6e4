/* copy/pipe.c -- the shared rows, the request and the copy of splice-in
   and splice-out (see copy/pipe.h).  */

#include <config.h>

#include "copy/pipe.h"

#include "cli/common.h"
#include "cli/number.h"
#include "progname.h"

static char *pipe_size_arg;
static int debug;

struct poptOption splice_pipe_options[] = {
  { "pipe-size", 'p', POPT_ARG_STRING, &pipe_size_arg, 0,
    "size of the pipe used for splicing (default 1M)", "N" },
  { "debug", 'd', POPT_ARG_NONE, &debug, 0,
    "print the engine used and the byte count to standard error", NULL },
  POPT_TABLEEND
};

struct copy_request
splice_request (const char *offset_arg, off_t *offset, bool file_is_input,
                const char *length_arg)
{
  *offset = offset_arg ? (off_t) cli_parse_size ("offset", offset_arg) : 0;
  off_t *at = offset_arg ? offset : NULL;
  return (struct copy_request) {
    .in_off = file_is_input ? at : NULL,
    .out_off = file_is_input ? NULL : at,
    .length = length_arg ? cli_parse_size ("length", length_arg) : COPY_TO_EOF,
    .pipe_size = (pipe_size_arg
                  ? cli_parse_number ("pipe-size", "pipe size", pipe_size_arg,
                                      COPY_MAX_PIPE_SIZE,
                                      NC_NUMBER_UNITS | NC_NUMBER_NONZERO)
                  : 0),
  };
}

int
splice_copy (const struct copy_request *req, int pipe_fd,
             struct copy_result *res)
{
  /* A pipe on the other end gets the pipe size asked for, or is grown
     (never shrunk) to the default.  */
  copy_size_pipe (pipe_fd, req->pipe_size);
  int ret = copy_range (req, res);
  if (debug)
    copy_print_debug (program_name, res);
  return ret;
}
