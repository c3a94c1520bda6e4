/* ranges/xxd-parse.c -- an xxd dump read back into byte patches
   (ranges/xxd-parse.h).  */

#include <config.h>

#include "ranges/xxd-parse.h"

#include <stdlib.h>

#include "ranges/operands.h"
#include "xalloc.h"

/* Where the reading of a dump stands: xxd -r's state, and the line's
   bookkeeping for the errors.  */
struct reader
{
  struct nc_xxd_dump *dump;
  int n1, n2, n3;               /* the last three characters' hex values,
                                   -1 for a character that is no digit
                                   (n1 also after a byte is taken) */
  int p;                        /* bytes taken on this line; COLS (normal
                                   dumps) while the offset is read */
  bool garbage_first;           /* no hex digit yet on this line */
  bool skipping;                /* the rest of the line is skipped */
  int64_t want;                 /* the next byte's offset, before BASE */
  bool offset_too_large;        /* this line's offset is */
  size_t line;
  bool wrote;                   /* this line wrote a byte */
  bool lone;                    /* this line dropped a lone digit */
  bool after_text;              /* plain: the last character was not a
                                   digit or a blank */
  bool pending_after_text;      /* plain: so was the one before the digit
                                   waiting for its pair */
  size_t digit_line;            /* the line of the last digit */
  idx_t alloc;                  /* bytes allocated to the last chunk */
};

static int
hex_value (int c)
{
  return (c >= '0' && c <= '9' ? c - '0'
          : c >= 'a' && c <= 'f' ? c - 'a' + 10
          : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1);
}

static const char lone_digit[] = "a lone hex digit among the bytes";

/* The state at the start of a line, after a '\n' that xxd -r reads
   (not one a plain dump skips).  */
static void
start_line (struct reader *r)
{
  if (!r->dump->plain)
    {
      r->want = 0;
      r->offset_too_large = false;
    }
  r->p = r->dump->cols;
  r->garbage_first = true;
}

/* One more digit D of a normal dump's offset.  */
static void
offset_digit (struct reader *r, int d)
{
  if (r->want > (NC_OFFSET_MAX >> 4))
    r->offset_too_large = true;
  else
    r->want = (r->want << 4) | d;
}

/* Whether the offset the reader is at is one xxd -r can seek to: a
   message if not.  xxd -r seeks there at every character after a
   line's offset, whether it writes a byte or not.  */
static const char *
check_offset (const struct reader *r)
{
  const struct nc_xxd_dump *d = r->dump;
  if (r->offset_too_large
      || r->want >= NC_OFFSET_MAX - (d->base > 0 ? d->base : 0))
    return "the offset is past the largest file offset";
  if (d->base + r->want < 0)
    return "the offset is negative after -s (xxd -r: cannot seek "
      "backwards)";
  return NULL;
}

/* Take the byte B at the offset the reader is at.  */
static const char *
put_byte (struct reader *r, unsigned char b)
{
  struct nc_xxd_dump *d = r->dump;
  if (r->lone)
    return lone_digit;
  uint64_t at = d->base + r->want;
  struct nc_xxd_chunk *c = d->n ? &d->chunks[d->n - 1] : NULL;
  if (!c || c->offset + c->len != at)
    {
      d->chunks = xreallocarray (d->chunks, d->n + 1, sizeof *d->chunks);
      c = &d->chunks[d->n++];
      *c = (struct nc_xxd_chunk) { .offset = at, .line = r->line };
      r->alloc = 0;
    }
  if (c->len == (size_t) r->alloc)
    c->bytes = xpalloc (c->bytes, &r->alloc, 1, -1, 1);
  c->bytes[c->len++] = b;
  r->want++;
  r->wrote = true;
  return NULL;
}

/* Read the character C, as xxd -r's loop does.  */
static const char *
step (struct reader *r, int c)
{
  bool plain = r->dump->plain;
  if (c == '\r' || (plain && (c == ' ' || c == '\n' || c == '\t')))
    return NULL;
  r->n3 = r->n2;
  r->n2 = r->n1;
  r->n1 = hex_value (c);
  if (plain)
    {
      if (r->n1 >= 0 && r->n2 < 0)
        r->pending_after_text = r->after_text;
      r->after_text = r->n1 < 0;
    }
  if (r->n1 >= 0)
    r->digit_line = r->line;
  if (r->n1 < 0 && r->garbage_first)
    return NULL;
  r->garbage_first = false;
  if (!plain && r->p >= r->dump->cols)
    {
      if (r->n1 < 0)
        r->p = 0;
      else
        offset_digit (r, r->n1);
      return NULL;
    }
  const char *err = check_offset (r);
  if (err)
    return err;
  bool skip = false;
  if (r->n2 >= 0 && r->n1 >= 0)
    {
      err = put_byte (r, (r->n2 << 4) | r->n1);
      if (err)
        return err;
      r->n1 = -1;
      skip = !plain && ++r->p >= r->dump->cols;
    }
  else
    {
      /* A plain dump's digit beside text is text, as xxd -r -p has it
         (a column of characters pasted after the hex).  */
      if (r->n2 >= 0 && !plain)
        {
          if (r->wrote)
            return lone_digit;
          r->lone = true;
        }
      skip = r->n1 < 0 && r->n2 < 0 && r->n3 < 0;
    }
  if (skip && c != '\n')
    r->skipping = true;
  else if (c == '\n')
    start_line (r);
  return NULL;
}

/* The end of the dump: a digit left over.  */
static const char *
end_of_dump (struct reader *r, size_t *line)
{
  if (r->skipping || r->n1 < 0)
    return NULL;
  if (r->dump->plain && r->dump->n > 0 && !r->pending_after_text)
    {
      *line = r->digit_line;
      return "an odd number of hex digits: the last one is alone";
    }
  if (!r->dump->plain && r->p < r->dump->cols && r->wrote)
    {
      *line = r->line;
      return lone_digit;
    }
  return NULL;
}

const char *
nc_xxd_parse (const unsigned char *text, size_t len,
              struct nc_xxd_dump *dump, size_t *line)
{
  /* n2 starts at 0, as in xxd.  */
  struct reader r = { .dump = dump, .n1 = -1, .n2 = 0, .line = 1 };
  dump->chunks = NULL;
  dump->n = 0;
  start_line (&r);
  for (size_t i = 0; i < len; i++)
    {
      int c = text[i];
      if (!r.skipping)
        {
          const char *err = step (&r, c);
          if (err)
            {
              *line = r.line;
              return err;
            }
        }
      else if (c == '\n')
        {
          r.skipping = false;
          start_line (&r);
        }
      if (c == '\n')
        {
          r.line++;
          r.wrote = r.lone = false;
        }
    }
  return end_of_dump (&r, line);
}

static int
compare_chunks (const void *a, const void *b)
{
  const struct nc_xxd_chunk *x = *(const struct nc_xxd_chunk *const *) a;
  const struct nc_xxd_chunk *y = *(const struct nc_xxd_chunk *const *) b;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

bool
nc_xxd_overlap (const struct nc_xxd_dump *dump,
                const struct nc_xxd_chunk **a, const struct nc_xxd_chunk **b)
{
  const struct nc_xxd_chunk **s = xnmalloc (dump->n ? dump->n : 1,
                                            sizeof *s);
  for (size_t i = 0; i < dump->n; i++)
    s[i] = &dump->chunks[i];
  qsort (s, dump->n, sizeof *s, compare_chunks);
  bool found = false;
  for (size_t i = 1; i < dump->n && !found; i++)
    if (s[i - 1]->offset + s[i - 1]->len > s[i]->offset)
      {
        found = true;
        bool in_order = s[i - 1]->line <= s[i]->line;
        *a = in_order ? s[i - 1] : s[i];
        *b = in_order ? s[i] : s[i - 1];
      }
  free (s);
  return found;
}

void
nc_xxd_free (struct nc_xxd_dump *dump)
{
  for (size_t i = 0; i < dump->n; i++)
    free (dump->chunks[i].bytes);
  free (dump->chunks);
  dump->chunks = NULL;
  dump->n = 0;
}
