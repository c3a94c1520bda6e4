/* ranges/span-report.c -- a span reader's calls told; see
   ranges/span-report.h.  */

#include <config.h>

#include "ranges/span-report.h"

#include <stdio.h>
#include <string.h>

#include "error.h"

/* " (WHY)", why the preadv engine read, into BUF of SIZE bytes: not
   chosen, io_uring failed; HIPRI as --hipri.  */
static void
preadv_why (const struct span_reader *rd, bool hipri, char *buf,
            size_t size)
{
  if (rd->uring_error)
    snprintf (buf, size, " (io_uring: %s)", strerror (-rd->uring_error));
  else if (rd->engine == SPAN_ENGINE_URING)
    snprintf (buf, size, " (no batch for io_uring: streamed or empty "
              "ranges)");
  else if (rd->engine == SPAN_ENGINE_PREADV)
    *buf = '\0';
  else if (hipri)
    snprintf (buf, size, " (auto: --hipri)");
  else if (rd->worker_only_fs && rd->stats.max_groups >= SPAN_URING_THRESHOLD)
    snprintf (buf, size, " (auto: %s)", rd->worker_only_fs);
  else
    snprintf (buf, size, " (auto: %llu %s, uring from %d)",
              (unsigned long long) rd->stats.max_groups,
              rd->stats.max_groups == 1 ? "call" : "calls",
              SPAN_URING_THRESHOLD);
}

/* The --debug line, for N ranges.  */
static void
report_engine (const struct span_reader *rd, size_t n, bool hipri)
{
  const struct span_read_stats *st = &rd->stats;
  const char *ranges = n == 1 ? "range" : "ranges";
  const char *preadv = rd->rw_flags ? "preadv2" : "preadv";
  const char *calls = st->calls == 1 ? "call" : "calls";
  unsigned long long ncalls = st->calls;
  if (span_used_uring (rd))
    {
      char then[256] = "";
      if (rd->uring_error)
        snprintf (then, sizeof then, " (then preadv: io_uring: %s)",
                  strerror (-rd->uring_error));
      char more[64] = "";
      if (ncalls)
        snprintf (more, sizeof more, ", %llu %s %s", ncalls, preadv, calls);
      error (0, 0, "engine uring%s: %zu %s, %llu %s, %llu io_uring_enter "
             "%s%s", then, n, ranges, (unsigned long long) st->uring.sqes,
             st->uring.sqes == 1 ? "SQE" : "SQEs",
             (unsigned long long) st->uring.enters,
             st->uring.enters == 1 ? "call" : "calls", more);
    }
  else
    {
      char why[256];
      preadv_why (rd, hipri, why, sizeof why);
      error (0, 0, "engine preadv%s: %zu %s, %llu %s %s", why, n, ranges,
             ncalls, preadv, calls);
    }
}

void
span_report (const struct span_reader *rd, size_t n, bool stats, bool debug,
             bool hipri)
{
  const struct span_read_stats *st = &rd->stats;
  if (stats && span_used_uring (rd))
    error (0, 0, "%s: %zu %s, %llu %s, %llu io_uring_enter %s, %llu %s "
           "%s, %llu iovecs, %llu bytes read (%llu of them in gaps)",
           rd->name, n, n == 1 ? "range" : "ranges",
           (unsigned long long) st->uring.sqes,
           st->uring.sqes == 1 ? "SQE" : "SQEs",
           (unsigned long long) st->uring.enters,
           st->uring.enters == 1 ? "call" : "calls",
           (unsigned long long) st->calls,
           rd->rw_flags ? "preadv2" : "preadv",
           st->calls == 1 ? "call" : "calls",
           (unsigned long long) st->iovecs, (unsigned long long) st->bytes,
           (unsigned long long) st->gap_bytes);
  else if (stats)
    error (0, 0, "%s: %zu %s, %llu %s %s, %llu iovecs, %llu bytes read "
           "(%llu of them in gaps)", rd->name, n,
           n == 1 ? "range" : "ranges", (unsigned long long) st->calls,
           rd->rw_flags ? "preadv2" : "preadv",
           st->calls == 1 ? "call" : "calls",
           (unsigned long long) st->iovecs, (unsigned long long) st->bytes,
           (unsigned long long) st->gap_bytes);
  if (debug)
    report_engine (rd, n, hipri);
}
