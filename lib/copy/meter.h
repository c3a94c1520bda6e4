/* copy/meter.h -- the pace of splice-in's and splice-out's copy: the
   progress line of --progress and the rate limit of --rate-limit, told
   by the copy engine of every call (copy/engine.h's copy_meter), so that
   the bytes still move by splice.

   The line is drawn on standard error when it is a terminal, and only
   then (as pv draws its own): after a second, four times a second, the
   bytes, the rate and, where the size is known, the share done and the
   time left; at the end, the totals stay on it.

   The rate limit is a token bucket: a call moves at most an eighth of a
   second's worth of bytes (one bucket), and after each call the copy
   sleeps until the bucket holds again what was taken, so that no second
   of the copy moves more than the rate and one bucket.  */

#ifndef NC_COPY_METER_H
#define NC_COPY_METER_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "cli/progress.h"
#include "copy/engine.h"

struct pipe_meter
{
  struct copy_meter hook;       /* first: the engine's view of it */
  struct progress bar;
  bool draw;                    /* --progress, on a terminal */
  uint64_t rate;                /* --rate-limit: bytes a second; 0: none */
  uint64_t size;                /* the bytes expected; 0: unknown */
  uint64_t bytes;               /* moved so far */
  double tokens;                /* in the bucket: may go below 0 */
  double bucket;                /* its size */
  struct timespec filled;       /* when tokens was last brought up */
};

/* Start M for a copy of SIZE bytes (0: unknown): PROGRESS draws the line
   (on a terminal only), RATE (bytes a second; 0: none) limits the pace.
   Return the hook for copy_request.meter, or NULL where M has nothing to
   do.  */
struct copy_meter *pipe_meter_start (struct pipe_meter *m, bool progress,
                                     uint64_t rate, uint64_t size);

/* The copy is over: the line with the totals stays if it SUCCEEDED, else
   it is erased for the message to come.  */
void pipe_meter_end (struct pipe_meter *m, bool succeeded);

#endif
