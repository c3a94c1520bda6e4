/* ranges/dumpfmt.c -- byte ranges in hex dump formats; see
   ranges/dumpfmt.h.  */

#include <config.h>

#include "ranges/dumpfmt.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base64.h"
#include "c-ctype.h"
#include "error.h"
#include "full-write.h"
#include "xalloc.h"

const char *const dump_format_names[] = { "xxd", "raw", "c", "json", NULL };

static enum dump_format format;
static int cols;
static int group;

enum { OUT_SIZE = 256 * 1024 };
static char *out_buf;
static size_t out_len;

static _Noreturn void
write_error (void)
{
  /* The reader went away: stop quietly, as cat does.  */
  if (errno == EPIPE)
    exit (EXIT_FAILURE);
  error (EXIT_FAILURE, errno, "write error");
  abort ();
}

static void
out_write (const void *p, size_t n)
{
  if (full_write (STDOUT_FILENO, p, n) != n)
    write_error ();
}

void
dump_flush (void)
{
  if (out_len)
    out_write (out_buf, out_len);
  out_len = 0;
}

/* Room for N bytes (at most OUT_SIZE) at the returned pointer; out_commit
   says where the bytes written there end.  */
static char *
out_reserve (size_t n)
{
  if (OUT_SIZE - out_len < n)
    dump_flush ();
  return out_buf + out_len;
}

static void
out_commit (char *end)
{
  out_len = end - out_buf;
}

static void
out_bytes (const void *p, size_t n)
{
  if (n >= OUT_SIZE / 2)
    {
      dump_flush ();
      out_write (p, n);
    }
  else
    {
      char *q = out_reserve (n);
      memcpy (q, p, n);
      out_commit (q + n);
    }
}

static void
out_str (const char *s)
{
  out_bytes (s, strlen (s));
}

static char *
put_decimal (char *p, uint64_t v)
{
  char tmp[24];
  int n = 0;
  do
    tmp[n++] = '0' + v % 10;
  while ((v /= 10) != 0);
  while (n > 0)
    *p++ = tmp[--n];
  return p;
}

static void
out_decimal (uint64_t v)
{
  char *p = out_reserve (24);
  out_commit (put_decimal (p, v));
}

/* "00" to "ff", and the character xxd shows for each byte.  */
static char hex2[256][2];
static char shown[256];

static void
init_tables (void)
{
  static const char digits[] = "0123456789abcdef";
  for (int i = 0; i < 256; i++)
    {
      hex2[i][0] = digits[i >> 4];
      hex2[i][1] = digits[i & 15];
      shown[i] = i >= 0x20 && i < 0x7f ? i : '.';
    }
}

/* The address of an xxd line: at least 8 hex digits, as %08lx.  */
static char *
put_address (char *p, uint64_t a)
{
  if (a <= UINT32_MAX)
    {
      for (int shift = 24; shift >= 0; shift -= 8)
        {
          memcpy (p, hex2[(a >> shift) & 0xff], 2);
          p += 2;
        }
      return p;
    }
  int digits = 9;
  while (digits < 16 && a >> (4 * digits))
    digits++;
  for (int i = digits - 1; i >= 0; i--)
    *p++ = hex2[(a >> (4 * i)) & 15][1];
  return p;
}

/* The output of the range being printed.  */
static uint64_t em_address;     /* xxd: of the next line */
static uint64_t em_count;       /* bytes printed so far */
static bool em_any;             /* json: an object printed already */
static char *c_name;            /* c: the identifier made from FILE */

/* xxd: the hex area of a full line is HEX_WIDTH wide, byte J of a line
   at HEX_POS[J] in it; spaces fill it, and two more end it.  */
static int hex_width;
static int hex_pos[256];
static char blanks[2 * 256 + 256 + 2];

static void
init_xxd (void)
{
  hex_width = 2 * cols + (cols - 1) / group;
  for (int j = 0; j < cols; j++)
    hex_pos[j] = 2 * j + j / group;
  memset (blanks, ' ', sizeof blanks);
}

/* Lines of COLS bytes from B, the last one maybe shorter.  */
static void
xxd_data (const unsigned char *b, size_t n)
{
  size_t line_max = 16 + 2 + hex_width + 2 + cols + 1;
  while (n > 0)
    {
      int m = n < (size_t) cols ? (int) n : cols;
      char *p = out_reserve (line_max);
      p = put_address (p, em_address);
      *p++ = ':';
      *p++ = ' ';
      memcpy (p, blanks, hex_width + 2);
      for (int j = 0; j < m; j++)
        memcpy (p + hex_pos[j], hex2[b[j]], 2);
      p += hex_width + 2;
      for (int j = 0; j < m; j++)
        p[j] = shown[b[j]];
      p += m;
      *p++ = '\n';
      out_commit (p);
      b += m;
      n -= m;
      em_address += m;
    }
}

static void
c_data (const unsigned char *b, size_t n)
{
  for (size_t i = 0; i < n; i++, em_count++)
    {
      char *p = out_reserve (9);
      if (em_count == 0)
        p = memcpy (p, "  ", 2) + 2;
      else if (em_count % cols == 0)
        p = memcpy (p, ",\n  ", 4) + 4;
      else
        p = memcpy (p, ", ", 2) + 2;
      *p++ = '0';
      *p++ = 'x';
      memcpy (p, hex2[b[i]], 2);
      out_commit (p + 2);
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

void
dump_begin (uint64_t offset, size_t index)
{
  em_address = offset;
  em_count = 0;
  switch (format)
    {
    case DUMP_C:
      out_str ("/* offset ");
      out_decimal (offset);
      out_str (" */\nunsigned char ");
      out_str (c_name);
      out_str ("_");
      out_decimal (index);
      out_str ("[] = {\n");
      break;
    case DUMP_JSON:
      out_str (em_any ? ",\n{\"offset\": " : "\n{\"offset\": ");
      em_any = true;
      out_decimal (offset);
      out_str (", \"data\": \"");
      break;
    default:
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
  };
  emit[format] (b, n);
}

void
dump_end (size_t index, uint64_t total)
{
  switch (format)
    {
    case DUMP_C:
      out_str (total ? "\n};\nunsigned int " : "};\nunsigned int ");
      out_str (c_name);
      out_str ("_");
      out_decimal (index);
      out_str ("_len = ");
      out_decimal (total);
      out_str (";\n");
      break;
    case DUMP_JSON:
      out_str ("\", \"length\": ");
      out_decimal (total);
      out_str ("}");
      break;
    default:
      break;
    }
}

/* A C identifier from NAME, as xxd -i makes one.  */
static char *
make_c_name (const char *name)
{
  if (strcmp (name, "-") == 0)
    name = "stdin";
  char *id = xcharalloc (strlen (name) + 2);
  char *p = id;
  if (c_isdigit (*name) || !*name)
    *p++ = '_';
  for (; *name; name++)
    *p++ = c_isalnum (*name) ? *name : '_';
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

int
dump_start (enum dump_format f, int cols_opt, int group_opt,
            const char *file)
{
  format = f;
  cols = cols_opt ? cols_opt : format == DUMP_C ? 12 : 16;
  group = group_opt < 0 ? 2 : group_opt;
  if (group == 0 || group > cols)
    group = cols;
  init_tables ();
  if (format == DUMP_XXD)
    init_xxd ();
  if (format == DUMP_C)
    c_name = make_c_name (file);
  out_buf = xmalloc (OUT_SIZE);
  if (format == DUMP_JSON)
    out_str ("[");
  return cols;
}

void
dump_finish (void)
{
  if (format == DUMP_JSON)
    out_str (em_any ? "\n]\n" : "]\n");
  dump_flush ();
  free (out_buf);
  out_buf = NULL;
  free (c_name);
  c_name = NULL;
}
