/* ranges/hexdump-xxd.c -- xxd's line formats; see ranges/hexdump-xxd.h.

   A line is laid out as xxd lays it out: the address, ": ", then each
   byte's digits at its place in the hex area (WIDTH characters a byte, a
   space after each group), then two spaces and the bytes as characters.
   With LITTLE, byte J of a line takes the place of byte J ^ (GROUP - 1),
   and the line is built byte by byte, digits then character, as xxd
   builds it, so that even a group that is not a power of 2 prints what
   xxd prints.  */

#include <config.h>

#include "ranges/hexdump-xxd.h"

#include <string.h>

#include "ranges/dumpout.h"

static struct xxd_layout lay;

/* Each byte's hex digits, its 8 binary digits, its character, its
   colour (the digit of an SGR 3x colour).  */
static char hex2[256][2];
static char bits8[256][8];
static char shown[256];
static char colour[256];

/* The place of byte J of a line in its hex area, the characters' column,
   the width of the area all places and characters of a line span.  */
static int width;
static int place[256];
static int ascii_at;
static int span;

static const unsigned char zeros[256];

/* The range being printed: the address of its next line, the bytes left
   to the end of a plain line, the run of lines of zeros held back.  */
static uint64_t line_address;
static int plain_left;
static uint64_t zero_run;
static uint64_t zero_address;

/* A line built aside, for the colours and for LITTLE.  */
enum { ADDRESS_MAX = 24, LINE_MAX = ADDRESS_MAX + 2 * 8 * 256 + 2 * 256 + 8 };
static char line[LINE_MAX];
static char line_colour[LINE_MAX];

static char
colour_of (int c)
{
  return (c > 31 && c < 127 ? '2'                       /* green */
          : c == '\t' || c == '\n' || c == '\r' ? '3'   /* yellow */
          : c == 0 ? '7'                                /* white */
          : c == 255 ? '4'                              /* blue */
          : '1');                                       /* red */
}

static void
init_tables (void)
{
  const char *digits = lay.upper ? "0123456789ABCDEF" : "0123456789abcdef";
  for (int i = 0; i < 256; i++)
    {
      hex2[i][0] = digits[i >> 4];
      hex2[i][1] = digits[i & 15];
      for (int bit = 0; bit < 8; bit++)
        bits8[i][bit] = i >> (7 - bit) & 1 ? '1' : '0';
      shown[i] = i > 31 && i < 127 ? i : '.';
      colour[i] = colour_of (i);
    }
}

void
xxd_start (const struct xxd_layout *layout)
{
  lay = *layout;
  init_tables ();
  if (lay.style == XXD_PLAIN)
    return;
  width = lay.style == XXD_BITS ? 8 : 2;
  int g = lay.group;
  int group_len = width * g + 1;
  int groups = (lay.cols + g - 1) / g;
  ascii_at = 2 + (lay.little ? group_len * groups - 1
                  : (group_len * lay.cols - 1) / g);
  span = ascii_at + lay.cols;
  for (int j = 0; j < lay.cols; j++)
    {
      int x = lay.little ? j ^ (g - 1) : j;
      place[j] = (group_len * x) / g;
      if (place[j] + width > span)
        span = place[j] + width;
    }
}

/* The address A as xxd prints it, at P; return the end.  */
static char *
put_address (char *p, uint64_t a)
{
  char tmp[24];
  int n = 0;
  if (lay.decimal)
    {
      n = put_decimal (tmp, a) - tmp;
      for (int pad = 8 - n; pad > 0; pad--)
        *p++ = '0';
      memcpy (p, tmp, n);
      return p + n;
    }
  do
    tmp[n++] = "0123456789abcdef"[a & 15];
  while ((a >>= 4) != 0 || n < 8);
  while (n > 0)
    *p++ = tmp[--n];
  return p;
}

/* The line of the M bytes at B, its address A, at P, neither LITTLE nor
   coloured; return its end.  */
static char *
put_line (char *p, uint64_t a, const unsigned char *b, int m)
{
  p = put_address (p, a);
  *p++ = ':';
  *p++ = ' ';
  memset (p, ' ', ascii_at);
  if (width == 2)
    for (int j = 0; j < m; j++)
      memcpy (p + place[j], hex2[b[j]], 2);
  else
    for (int j = 0; j < m; j++)
      memcpy (p + place[j], bits8[b[j]], 8);
  char *chars = p + ascii_at;
  for (int j = 0; j < m; j++)
    chars[j] = shown[b[j]];
  chars[m] = '\n';
  return chars + m + 1;
}

/* The same line in LINE and its colours in LINE_COLOUR, byte by byte;
   return its length.  */
static int
build_line (uint64_t a, const unsigned char *b, int m)
{
  int hex_at = put_address (line, a) - line + 2;
  line[hex_at - 2] = ':';
  memset (line + hex_at - 1, ' ', span + 1);
  memset (line_colour, 0, hex_at + span);
  const char *glyphs = width == 2 ? hex2[0] : bits8[0];
  for (int j = 0; j < m; j++)
    {
      int at = hex_at + place[j];
      memcpy (line + at, glyphs + width * b[j], width);
      memset (line_colour + at, colour[b[j]], width);
      at = hex_at + ascii_at + j;
      line[at] = shown[b[j]];
      line_colour[at] = colour[b[j]];
    }
  int end = hex_at + ascii_at + m;
  line[end] = '\n';
  line_colour[end] = 0;
  return end + 1;
}

/* LINE, LEN bytes, coloured: a colour starts where it changes.  */
static void
out_coloured (int len)
{
  char *p = out_reserve (12 * (size_t) len);
  char prev = 0;
  for (int i = 0; i < len; i++)
    {
      if (line_colour[i] != prev)
        {
          if (prev)
            p = memcpy (p, "\033[0m", 4) + 4;
          if (line_colour[i])
            {
              p = memcpy (p, "\033[1;3", 5) + 5;
              *p++ = line_colour[i];
              *p++ = 'm';
            }
          prev = line_colour[i];
        }
      *p++ = line[i];
    }
  out_commit (p);
}

/* Print the line of the M bytes at B, its address A.  */
static void
emit_line (uint64_t a, const unsigned char *b, int m)
{
  if (!lay.color && !lay.little)
    {
      char *p = out_reserve (ADDRESS_MAX + 2 + span + 1);
      out_commit (put_line (p, a, b, m));
      return;
    }
  int len = build_line (a, b, m);
  if (lay.color)
    out_coloured (len);
  else
    out_bytes (line, len);
}

/* The lines of zeros held back by autoskip, before a line that is not
   one: the second of the run itself if it was the only one, else "*".  */
static void
release_zeros (void)
{
  if (zero_run == 2)
    emit_line (zero_address + lay.cols, zeros, lay.cols);
  else if (zero_run > 2)
    out_str ("*\n");
  zero_run = 0;
}

static void
plain_data (const unsigned char *b, size_t n)
{
  while (n > 0)
    {
      size_t m = lay.cols == 0 ? (n < 4096 ? n : 4096)
                 : n < (size_t) plain_left ? n : (size_t) plain_left;
      char *p = out_reserve (2 * m + 1);
      for (size_t j = 0; j < m; j++, p += 2)
        memcpy (p, hex2[b[j]], 2);
      if (lay.cols && (plain_left -= m) == 0)
        {
          *p++ = '\n';
          plain_left = lay.cols;
        }
      out_commit (p);
      b += m;
      n -= m;
    }
}

void
xxd_begin (uint64_t offset)
{
  line_address = offset + lay.display;
  plain_left = lay.cols;
  zero_run = 0;
}

void
xxd_data (const unsigned char *b, size_t n)
{
  if (lay.style == XXD_PLAIN)
    {
      plain_data (b, n);
      return;
    }
  size_t cols = lay.cols;
  for (; n > 0; b += cols, n -= cols < n ? cols : n)
    {
      int m = n < cols ? (int) n : (int) cols;
      if (lay.autoskip && (size_t) m == cols && memcmp (b, zeros, m) == 0)
        {
          if (zero_run++ == 0)
            {
              zero_address = line_address;
              emit_line (line_address, b, m);
            }
        }
      else
        {
          release_zeros ();
          emit_line (line_address, b, m);
        }
      line_address += m;
    }
}

void
xxd_end (void)
{
  if (lay.style == XXD_PLAIN)
    {
      if (lay.cols == 0 || plain_left < lay.cols)
        out_str ("\n");
      return;
    }
  /* A run of zeros at the end shows its last line.  */
  if (zero_run >= 2)
    {
      uint64_t last = zero_address + (zero_run - 1) * lay.cols;
      zero_run--;
      release_zeros ();
      emit_line (last, zeros, lay.cols);
    }
}
