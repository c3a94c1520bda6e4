/* remove/remover.h -- remove an operand of rmtree and everything below
   it, as rm -r does: the walker's visitor that removes (walk/walker.h,
   WALK_REMOVING), each directory after its entries, with rm's questions
   (remove/ask.h), refusals (remove/guard.h), messages and exit status.

   Symbolic links are removed, never followed; every step is taken
   relative to a directory already open.  A directory still not empty
   after its entries were removed is read once more, not more: another
   process that keeps creating entries cannot hold the removal.  An
   entry that fails, or that the user keeps, leaves its ancestors in
   place.  */

#ifndef NC_REMOVE_REMOVER_H
#define NC_REMOVE_REMOVER_H

#include "remove/removal.h"

/* Remove ARG (an operand as written: a relative or absolute path, with
   or without trailing slashes) and everything below it, in the run R.
   Failures are reported (cli_fail); R's options say what to ask, list
   and spare.  */
void remove_operand (struct removal *r, const char *arg);

#endif
