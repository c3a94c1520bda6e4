/* remove/summary.c -- rmtree's --json; see remove/summary.h.  */

#include <config.h>

#include "remove/summary.h"

#include <inttypes.h>
#include <stdio.h>

#include "cli/failures.h"

void
remove_start_summary (void)
{
  failures_keep ();
}

void
remove_print_summary (const struct removal *r, int status)
{
  printf ("{\"files\":%" PRIuMAX ",\"directories\":%" PRIuMAX
          ",\"dry_run\":%s,\"errors\":", r->files, r->directories,
          r->o->dry_run ? "true" : "false");
  failures_put_json (stdout);
  printf (",\"status\":%d}\n", status);
}
