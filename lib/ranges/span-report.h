/* ranges/span-report.h -- what a span reader did, told on standard
   error in preadv-dump's words: --stats (the calls, iovecs and bytes;
   with io_uring, its SQEs and io_uring_enter calls first) and --debug
   (the engine that read, and why when it is not the one asked for).  */

#ifndef NC_RANGES_SPAN_REPORT_H
#define NC_RANGES_SPAN_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "ranges/span-read.h"

/* The lines of STATS and DEBUG about RD, which read N ranges; HIPRI as
   --hipri, which made the auto engine choose preadv.  */
void span_report (const struct span_reader *rd, size_t n, bool stats,
                  bool debug, bool hipri);

#endif
