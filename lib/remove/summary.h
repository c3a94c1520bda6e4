/* remove/summary.h -- rmtree's --json: what a removal did, as one JSON
   object on standard output, for scripts that would otherwise read its
   messages:

     {"files":N,"directories":N,"dry_run":false,"errors":[...],"status":S}

   files and directories count the entries removed (with -n, those that
   would be), errors the failures as cli/failures.h keeps them, status
   the exit status.  */

#ifndef NC_REMOVE_SUMMARY_H
#define NC_REMOVE_SUMMARY_H

#include "remove/removal.h"

/* Keep the failures from now on, for remove_print_summary.  */
void remove_start_summary (void);

/* Print R's object, of exit status STATUS, on standard output.  */
void remove_print_summary (const struct removal *r, int status);

#endif
