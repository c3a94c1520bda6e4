/* copy/pipe.h -- what splice-in and splice-out share: the option rows
   of --pipe-size, --debug, --progress, --rate-limit and --size, the copy
   request their --offset, --length and --pipe-size describe, and the one
   copy they make with it (paced by copy/meter.h).  */

#ifndef NC_COPY_PIPE_H
#define NC_COPY_PIPE_H

#include <popt.h>
#include <stdbool.h>
#include <sys/types.h>

#include "copy/engine.h"

/* The rows of --pipe-size, --debug, --progress, --rate-limit and --size,
   whose values splice_request and splice_copy read: a tool puts SPLICE_PIPE_OPTIONS last in its own
   table, so that --help lists them after its own rows.  */
extern struct poptOption splice_pipe_options[];
#define SPLICE_PIPE_OPTIONS \
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, splice_pipe_options, 0, NULL, NULL }

/* The request of --offset OFFSET_ARG (stored in *OFFSET, given as the
   request's position on the file's side: IN_OFF for splice-in, OUT_OFF
   for splice-out, by FILE_IS_INPUT), --length LENGTH_ARG (each NULL
   when not given) and --pipe-size; --rate-limit and --size are parsed
   too, for splice_copy.  A bad argument is a usage error.
   The descriptors are the caller's to fill in.  */
struct copy_request splice_request (const char *offset_arg, off_t *offset,
                                    bool file_is_input,
                                    const char *length_arg);

/* Copy as REQ says, the pipe on PIPE_FD (the standard stream) sized as
   asked or grown to the default, at the pace of --rate-limit and with
   the line of --progress, and with --debug print the engine and the byte
   count.  Return 0 or -errno; RES->side says which side
   failed.  */
int splice_copy (const struct copy_request *req, int pipe_fd,
                 struct copy_result *res);

#endif
