/* copy/pipe.c -- the shared rows, the request and the copy of splice-in
   and splice-out (see copy/pipe.h).  */

#include <config.h>

#include "copy/pipe.h"

#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/common.h"
#include "cli/number.h"
#include "copy/meter.h"
#include "progname.h"
#include "sys/calls.h"

static char *pipe_size_arg;
static int debug;
static int progress;
static char *rate_arg;
static char *size_arg;
/* Their values, parsed with the others by splice_request.  */
static uint64_t rate, size;

/* -p is --progress, as in pv, whose -L and -s are taken too: --pipe-size
   has no short option.  */
struct poptOption splice_pipe_options[] = {
  { "pipe-size", '\0', POPT_ARG_STRING, &pipe_size_arg, 0,
    "size of the pipe used for splicing (default 1M)", "N" },
  { "debug", 'd', POPT_ARG_NONE, &debug, 0,
    "print the engine used and the byte count to standard error", NULL },
  { "progress", 'p', POPT_ARG_NONE, &progress, 0,
    "show the bytes copied, the rate and, where the size is known, the "
    "time left, on standard error if it is a terminal (after a second; "
    "the totals at the end)", NULL },
  { "rate-limit", 'L', POPT_ARG_STRING, &rate_arg, 0,
    "copy at most RATE bytes a second", "RATE" },
  { "size", 's', POPT_ARG_STRING, &size_arg, 0,
    "expect SIZE bytes, for the time left of --progress (default: what "
    "is left of the input, if it is a regular file, up to --length)",
    "SIZE" },
  POPT_TABLEEND
};

struct copy_request
splice_request (const char *offset_arg, off_t *offset, bool file_is_input,
                const char *length_arg)
{
  *offset = offset_arg ? (off_t) cli_parse_size ("offset", offset_arg) : 0;
  if (rate_arg)
    rate = cli_parse_number ("rate-limit", "rate", rate_arg, INT64_MAX,
                             NC_NUMBER_UNITS | NC_NUMBER_NONZERO);
  if (size_arg)
    size = cli_parse_size ("size", size_arg);
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

/* The bytes REQ is expected to copy, for the time left: --size, else
   what is left of a regular input, up to the length asked; 0 for
   unknown.  */
static uint64_t
expected_size (const struct copy_request *req)
{
  if (size_arg)
    return size;
  struct stat st;
  if (sys_fstat (req->in_fd, &st) < 0 || !S_ISREG (st.st_mode))
    return 0;
  off_t at = req->in_off ? *req->in_off : sys_lseek (req->in_fd, 0, SEEK_CUR);
  uint64_t left = at >= 0 && at < st.st_size ? st.st_size - at : 0;
  return left < req->length ? left : req->length;
}

int
splice_copy (const struct copy_request *req, int pipe_fd,
             struct copy_result *res)
{
  struct copy_request metered = *req;
  struct pipe_meter meter;
  /* A pipe on the other end gets the pipe size asked for, or is grown
     (never shrunk) to the default.  */
  copy_size_pipe (pipe_fd, req->pipe_size);
  metered.meter = pipe_meter_start (&meter, progress, rate,
                                    progress ? expected_size (req) : 0);
  int ret = copy_range (&metered, res);
  pipe_meter_end (&meter, ret == 0);
  if (debug)
    copy_print_debug (program_name, res);
  return ret;
}
