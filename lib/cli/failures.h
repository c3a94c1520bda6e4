/* cli/failures.h -- the failures of a run, kept for the report a tool
   prints at its end (xcp's and rmtree's --json): each one's file, errno
   and message, as cli_fail printed them on standard error, which it still
   does.  Nothing is kept until failures_keep is called.  */

#ifndef NC_CLI_FAILURES_H
#define NC_CLI_FAILURES_H

#include <stddef.h>
#include <stdio.h>

/* Keep the failures from now on.  */
void failures_keep (void);

/* A failure of errno ERRNUM (0: none), about the file FILE (NULL: none),
   whose message is MSG (without the program's name and the errno's
   words): kept if failures_keep was called.  cli_fail calls it; the
   caller serializes the calls, as it does its messages.  */
void failures_add (const char *file, int errnum, const char *msg);

/* The number of failures kept.  */
size_t failures_count (void);

/* Write the failures kept to OUT as a JSON array of objects, in their
   order: {"path": FILE or null, "message": the whole message, "errno":
   ERRNUM or null}.  */
void failures_put_json (FILE *out);

#endif
