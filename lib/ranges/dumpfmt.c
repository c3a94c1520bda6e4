/* ranges/dumpfmt.c -- byte ranges in hex dump formats; see
   ranges/dumpfmt.h.  */

#include <config.h>

#include "ranges/dumpfmt.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base64.h"
#include "c-ctype.h"
#include "ranges/hexdump-xxd.h"
#include "xalloc.h"

const char *const dump_format_names[] = {
  "xxd", "raw", "c", "json", "plain", "bits", NULL
};

static struct dump_options opt;

/* The bytes of a line, xxd's limit on it.  */
enum { XXD_COLS_MAX = 256 };
static int cols;

/* c: "0x00" to "0xff" (or "0X00" to "0XFF" in upper case).  */
static char hex4[256][4];

/* The output of the range being printed.  */
static uint64_t em_count;       /* c: bytes printed so far */
static bool em_any;             /* json: an object printed already */
static char *c_name;            /* c: the identifier of the arrays */

static bool
xxd_lines (enum dump_format f)
{
  return f == DUMP_XXD || f == DUMP_PLAIN || f == DUMP_BITS;
}

int
dump_max_cols (enum dump_format f)
{
  return f == DUMP_XXD || f == DUMP_BITS ? XXD_COLS_MAX : INT_MAX;
}

/* The bytes a line, the GROUP of OPT as xxd takes them.  */
static int
default_cols (const struct dump_options *o)
{
  if (o->cols > 0 || (o->cols == 0 && o->format == DUMP_PLAIN))
    return o->cols;
  return (o->format == DUMP_C ? 12 : o->format == DUMP_PLAIN ? 30
          : o->format == DUMP_BITS ? 6 : 16);
}

const char *
dump_check (const struct dump_options *o)
{
  int g = o->group;
  if (o->format == DUMP_XXD && o->little && g >= 1 && g <= default_cols (o)
      && (g & (g - 1)) != 0)
    return "the number of bytes a group must be a power of 2 with -e";
  return NULL;
}

static void
c_data (const unsigned char *b, size_t n)
{
  for (size_t i = 0; i < n; i++, em_count++)
    {
      char *p = out_reserve (8);
      if (em_count == 0)
        p = memcpy (p, "  ", 2) + 2;
      else if (em_count % cols == 0)
        p = memcpy (p, ",\n  ", 4) + 4;
      else
        p = memcpy (p, ", ", 2) + 2;
      memcpy (p, hex4[b[i]], 4);
      out_commit (p + 4);
    }
}

/* The bytes as base64, which a JSON string holds as is, a line's worth
   of whole groups of 3 bytes at a time.  */
static void
json_data (const unsigned char *b, size_t n)
{
  while (n > 0)
    {
      size_t m = n < 3 * 1024 ? n : 3 * 1024;
      char *p = out_reserve (BASE64_LENGTH (m));
      base64_encode ((const char *) b, m, p, BASE64_LENGTH (m));
      out_commit (p + BASE64_LENGTH (m));
      b += m;
      n -= m;
    }
}

/* c: the name of the range of index INDEX, SUFFIX after it.  */
static void
out_c_name (size_t index, const char *suffix)
{
  out_str (c_name);
  if (!opt.xxd_c || opt.ranges != 1)
    {
      out_str ("_");
      out_decimal (index);
    }
  out_str (suffix);
}

void
dump_begin (uint64_t offset, size_t index)
{
  em_count = 0;
  switch (opt.format)
    {
    case DUMP_C:
      if (!opt.xxd_c)
        {
          out_str ("/* offset ");
          out_decimal (offset);
          out_str (" */\n");
        }
      if (c_name)
        {
          out_str ("unsigned char ");
          out_c_name (index, "[] = {\n");
        }
      break;
    case DUMP_JSON:
      out_str (em_any ? ",\n{\"offset\": " : "\n{\"offset\": ");
      em_any = true;
      out_decimal (offset);
      out_str (", \"data\": \"");
      break;
    case DUMP_RAW:
      break;
    default:
      xxd_begin (offset);
      break;
    }
}

static void
raw_data (const unsigned char *b, size_t n)
{
  out_bytes (b, n);
}

void
dump_data (const unsigned char *b, size_t n)
{
  static void (*const emit[]) (const unsigned char *, size_t) = {
    [DUMP_XXD] = xxd_data,
    [DUMP_RAW] = raw_data,
    [DUMP_C] = c_data,
    [DUMP_JSON] = json_data,
    [DUMP_PLAIN] = xxd_data,
    [DUMP_BITS] = xxd_data,
  };
  emit[opt.format] (b, n);
}

void
dump_end (size_t index, uint64_t total)
{
  switch (opt.format)
    {
    case DUMP_C:
      if (total)
        out_str ("\n");
      if (!c_name)
        break;
      out_str ("};\nunsigned int ");
      out_c_name (index, opt.capitalize ? "_LEN = " : "_len = ");
      out_decimal (total);
      out_str (";\n");
      break;
    case DUMP_JSON:
      out_str ("\", \"length\": ");
      out_decimal (total);
      out_str ("}");
      break;
    case DUMP_RAW:
      break;
    default:
      xxd_end ();
      break;
    }
}

/* A C identifier from NAME: as xxd -i makes one with XXD_C (a leading
   digit after "__"), else after "_" (and "_" for nothing).  NULL for
   xxd -i of standard input without -n, which prints the bytes alone.  */
static char *
make_c_name (void)
{
  const char *name = opt.name ? opt.name : opt.file;
  if (!opt.name && strcmp (name, "-") == 0)
    {
      if (opt.xxd_c)
        return NULL;
      name = "stdin";
    }
  char *id = xcharalloc (strlen (name) + 3);
  char *p = id;
  if (c_isdigit (*name) || (!*name && !opt.xxd_c))
    p = stpcpy (p, opt.xxd_c && *name ? "__" : "_");
  for (; *name; name++)
    *p++ = (!c_isalnum (*name) ? '_'
            : opt.capitalize ? c_toupper (*name) : *name);
  *p = '\0';
  return id;
}

void
dump_range (uint64_t offset, size_t index, const unsigned char *b, size_t n)
{
  dump_begin (offset, index);
  if (n > 0)
    dump_data (b, n);
  dump_end (index, n);
}

/* xxd's layout of OPT.  */
static void
start_xxd (void)
{
  int group = opt.group;
  if (group < 0)
    group = opt.format == DUMP_BITS ? 1 : opt.little ? 4 : 2;
  if (group < 1 || group > cols)
    group = cols;
  struct xxd_layout layout = {
    .style = (opt.format == DUMP_PLAIN ? XXD_PLAIN
              : opt.format == DUMP_BITS ? XXD_BITS : XXD_HEX),
    .cols = cols, .group = group,
    .little = opt.little && opt.format == DUMP_XXD, .upper = opt.upper,
    .autoskip = opt.autoskip, .decimal = opt.decimal, .color = opt.color,
    .display = opt.display
  };
  xxd_start (&layout);
}

size_t
dump_start (const struct dump_options *o)
{
  opt = *o;
  cols = default_cols (o);
  if (xxd_lines (opt.format))
    start_xxd ();
  const char *digits = opt.upper ? "0123456789ABCDEF" : "0123456789abcdef";
  for (int i = 0; i < 256; i++)
    memcpy (hex4[i], (char[4]) { '0', opt.upper ? 'X' : 'x',
                                 digits[i >> 4], digits[i & 15] }, 4);
  if (opt.format == DUMP_C)
    c_name = make_c_name ();
  out_open ();
  if (opt.format == DUMP_JSON)
    out_str ("[");
  return opt.format == DUMP_XXD || opt.format == DUMP_BITS ? 3 * cols : 3;
}

void
dump_finish (void)
{
  if (opt.format == DUMP_JSON)
    out_str (em_any ? "\n]\n" : "]\n");
  out_close ();
  free (c_name);
  c_name = NULL;
}
