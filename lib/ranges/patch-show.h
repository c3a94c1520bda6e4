/* ranges/patch-show.h -- pwritev-patch's --dry-run report: each patch
   of a plan, the bytes it replaces and its own, as lines of xxd's
   layout after "- " and "+ ", then a line of totals, on standard
   output.  */

#ifndef NC_RANGES_PATCH_SHOW_H
#define NC_RANGES_PATCH_SHOW_H

#include <stdbool.h>
#include <stdint.h>

#include "ranges/patch-write.h"

/* The report of PLAN, whose old bytes are read (nc_patch_read_old), on
   a file of SIZE bytes if SIZE_KNOWN (to tell which patches extend
   it).  */
void nc_patch_show_dry_run (const struct nc_patch_plan *plan,
                            bool size_known, uint64_t size);

#endif
