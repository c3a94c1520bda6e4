/* copy/names.c -- the names a copy takes from its operands' paths; see
   copy/names.h.  */

#include <config.h>

#include "copy/names.h"

#include "dirname.h"
#include "xalloc.h"

char *
copy_base_name (const char *path)
{
  const char *base = last_component (path);
  return ximemdup0 (base, base_len (base));
}
