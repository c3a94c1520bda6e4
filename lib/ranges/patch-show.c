/* ranges/patch-show.c -- pwritev-patch's --dry-run report
   (ranges/patch-show.h).  */

#include <config.h>

#include "ranges/patch-show.h"

#include <stdio.h>

#include "cli/common.h"

/* xxd-style lines of the N bytes at B, file offset OFFSET, each line
   after PREFIX.  */
static void
show_bytes (const char *prefix, uint64_t offset, const unsigned char *b,
            size_t n)
{
  for (size_t i = 0; i < n; i += 16)
    {
      size_t m = n - i < 16 ? n - i : 16;
      printf ("%s%08llx: ", prefix, (unsigned long long) (offset + i));
      for (size_t j = 0; j < 16; j++)
        {
          if (j < m)
            printf ("%02x", b[i + j]);
          else
            fputs ("  ", stdout);
          if (j % 2 == 1)
            putchar (' ');
        }
      putchar (' ');
      for (size_t j = 0; j < m; j++)
        putchar (b[i + j] >= 0x20 && b[i + j] < 0x7f ? b[i + j] : '.');
      putchar ('\n');
    }
}

void
nc_patch_show_dry_run (const struct nc_patch_plan *plan, bool size_known,
                       uint64_t size)
{
  uint64_t bytes = 0;
  for (size_t i = 0; i < plan->n; i++)
    {
      const struct nc_patch *p = &plan->patches[i];
      size_t k = 0;
      while (k < plan->ns && plan->sorted[k] != p)
        k++;
      printf ("patch %s: %zu %s at %llu (0x%llx)\n",
              quote_file (p->arg), p->len, p->len == 1 ? "byte" : "bytes",
              (unsigned long long) p->offset,
              (unsigned long long) p->offset);
      if (k < plan->ns)
        {
          show_bytes ("- ", p->offset, plan->before[k], plan->got[k]);
          show_bytes ("+ ", p->offset, p->bytes, p->len);
          if (size_known && p->offset + p->len > size)
            printf ("  (the file ends at byte %llu: this patch extends "
                    "it)\n", (unsigned long long) size);
        }
      bytes += p->len;
    }
  bool uring = plan->engine == NC_PATCH_URING;
  printf ("dry run: %zu %s, %llu bytes, %llu %s %s; %s not changed\n",
          plan->n, plan->n == 1 ? "patch" : "patches",
          (unsigned long long) bytes, (unsigned long long) plan->nr,
          uring ? "io_uring" : "pwritev",
          uring ? (plan->nr == 1 ? "write" : "writes")
          : (plan->nr == 1 ? "call" : "calls"), quote_file (plan->file));
}
