/* cli/shortpath.c -- long paths shortened for messages; see
   cli/shortpath.h.  */

#include <config.h>

#include "cli/shortpath.h"

#include <langinfo.h>
#include <string.h>

/* NAME_MAX: a last component alone may be that long.  */
enum { LAST_MAX = 255 };

static char buf[SHORT_PATH_SLOTS][SHORT_PATH_MAX + LAST_MAX + 8];

static const char *
mark (void)
{
  const char *cs = nl_langinfo (CODESET);
  return cs && strcmp (cs, "UTF-8") == 0 ? "\xe2\x80\xa6" : "...";
}

const char *
short_path_n (int slot, const char *path)
{
  size_t len = strlen (path);
  if (len <= SHORT_PATH_MAX || slot < 0 || slot >= SHORT_PATH_SLOTS)
    return path;
  const char *m = mark ();
  size_t mlen = strlen (m);
  /* The end of the path that fits beside the mark; then forward to the
     next '/', so that no component is shown in part.  */
  const char *tail = path + len - (SHORT_PATH_MAX - mlen);
  const char *slash = strchr (tail, '/');
  if (slash && slash[1])
    tail = slash;
  else
    {
      /* The last component is longer than the room: show it whole (it is
         at most NAME_MAX bytes), after the '/' before it.  */
      const char *last = path + len;
      while (last > path && last[-1] == '/')
        last--;
      while (last > path && last[-1] != '/')
        last--;
      tail = last > path ? last - 1 : last;
      if ((size_t) (path + len - tail) > LAST_MAX + 1)
        {
          /* Longer than a name can be (trailing slashes?): its end,
             not starting inside a UTF-8 sequence.  */
          tail = path + len - LAST_MAX;
          while ((*tail & 0xc0) == 0x80)
            tail++;
        }
    }
  char *p = buf[slot];
  memcpy (p, m, mlen);
  strcpy (p + mlen, tail);
  return p;
}
