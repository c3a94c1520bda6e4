/* cli/json.c -- text as a JSON string; see cli/json.h.  */

#include <config.h>

#include "cli/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

int
json_utf8_length (const unsigned char *s)
{
  int len;
  unsigned char lo = 0x80, hi = 0xbf;
  if (s[0] < 0x80)
    return 1;
  else if (0xc2 <= s[0] && s[0] <= 0xdf)
    len = 2;
  else if (0xe0 <= s[0] && s[0] <= 0xef)
    {
      len = 3;
      if (s[0] == 0xe0)
        lo = 0xa0;      /* not overlong */
      if (s[0] == 0xed)
        hi = 0x9f;      /* not a surrogate */
    }
  else if (0xf0 <= s[0] && s[0] <= 0xf4)
    {
      len = 4;
      if (s[0] == 0xf0)
        lo = 0x90;
      if (s[0] == 0xf4)
        hi = 0x8f;      /* not beyond U+10FFFF */
    }
  else
    return 0;
  if (s[1] < lo || hi < s[1])
    return 0;
  /* A null byte is no continuation byte: nothing past it is read.  */
  for (int i = 2; i < len; i++)
    if (s[i] < 0x80 || 0xbf < s[i])
      return 0;
  return len;
}

size_t
json_string (char *buf, const char *s)
{
  char *q = buf;
  *q++ = '"';
  const unsigned char *p = (const unsigned char *) s;
  while (*p)
    {
      int len = json_utf8_length (p);
      if (*p == '"' || *p == '\\')
        {
          *q++ = '\\';
          *q++ = *p;
        }
      else if (*p < 0x20 || *p == 0x7f)
        q += sprintf (q, "\\u%04x", *p);
      else if (len == 0)
        q = mempcpy (q, "\\ufffd", 6);
      else
        q = mempcpy (q, p, len);
      p += len ? len : 1;
    }
  *q++ = '"';
  *q = '\0';
  return q - buf;
}

char *
json_string_alloc (const char *s)
{
  char *buf = xnmalloc (strlen (s) + 1, 6);
  json_string (buf, s);
  return buf;
}

void
json_put_string (FILE *out, const char *s)
{
  char *buf = json_string_alloc (s);
  fputs (buf, out);
  free (buf);
}
