/* cli/failures.c -- the failures of a run; see cli/failures.h.  */

#include <config.h>

#include "cli/failures.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/json.h"
#include "xalloc.h"

struct failure
{
  char *path;                   /* NULL: none */
  char *message;
  int errnum;
};

static bool keeping;
static struct failure *kept;
static size_t n_kept, n_alloc;

void
failures_keep (void)
{
  keeping = true;
}

void
failures_add (const char *file, int errnum, const char *msg)
{
  if (!keeping)
    return;
  if (n_kept == n_alloc)
    kept = x2nrealloc (kept, &n_alloc, sizeof *kept);
  struct failure *f = &kept[n_kept++];
  f->path = file ? xstrdup (file) : NULL;
  f->errnum = errnum;
  /* The message as error() wrote it, the errno's words after it.  */
  if (errnum)
    {
      const char *why = strerror (errnum);
      f->message = xmalloc (strlen (msg) + strlen (why) + 3);
      strcpy (stpcpy (stpcpy (f->message, msg), ": "), why);
    }
  else
    f->message = xstrdup (msg);
}

size_t
failures_count (void)
{
  return n_kept;
}

void
failures_put_json (FILE *out)
{
  putc ('[', out);
  for (size_t i = 0; i < n_kept; i++)
    {
      const struct failure *f = &kept[i];
      fputs (i ? ",{\"path\":" : "{\"path\":", out);
      if (f->path)
        json_put_string (out, f->path);
      else
        fputs ("null", out);
      fputs (",\"message\":", out);
      json_put_string (out, f->message);
      if (f->errnum)
        fprintf (out, ",\"errno\":%d}", f->errnum);
      else
        fputs (",\"errno\":null}", out);
    }
  putc (']', out);
}
