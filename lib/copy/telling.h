/* copy/telling.h -- what xcp tells as it copies: the lines of -v, the
   progress line and the object of --json, from the counts the copy gives
   through the hooks of copy_options (copy/options.h).

   The progress line counts the bytes and files copied, their rate and,
   as soon as the walks have listed files not yet copied, the total: the
   operands are counted at the start, and each file a walk meets before
   it is copied (with -j, the workers copy what the walk listed ahead of
   them).  While a walk still goes on, the total can only grow: the line
   says "at least"; once every walk is over it is the total, and the line
   gives the time left:

     xcp: 1.2GiB of at least 3.1GiB, 120 of at least 310 files, 95MiB/s
     xcp: 1.9GiB of 3.4GiB, 205 of 348 files, 98MiB/s, ETA 16 s

   The object of --json, on standard output at the end, one line:

     {"files":N,"bytes":N,"directories":N,
      "engines":{"clone":N,"copy_file_range":N,"splice":N,"sendfile":N,
                 "rw":N},
      "errors":[{"path":P,"message":M,"errno":E}...],"status":S}

   files counts what was copied that is not a directory (regular files,
   links, special files), bytes the size of the files' data (holes and
   clones count), directories those made, engines the files whose data
   each engine copied, errors the failures (cli/failures.h).  */

#ifndef NC_COPY_TELLING_H
#define NC_COPY_TELLING_H

#include <stdbool.h>
#include <stddef.h>

#include "copy/options.h"

/* Start telling what X copies: the progress line (X->progress, -1 until
   then: drawn if standard error is a terminal), -v's lines, and with
   X->json the counts and failures of the object.  Sets X's hooks.  */
void copy_telling_start (struct copy_options *x);

/* The N operands ARGS that X copies: counted for the progress line's
   total (the files, and the trees to walk).  */
void copy_telling_operands (const struct copy_options *x, const char **args,
                            size_t n);

/* The copy is over, with exit status STATUS: the progress line's last
   draw, if asked for; with X->json, the object.  */
void copy_telling_end (const struct copy_options *x, int status);

#endif
