/* copy/options.c -- what a copy of files is asked to do.  */

#include <config.h>

#include "copy/options.h"

#include <sys/stat.h>
#include <unistd.h>

void
copy_options_init (struct copy_options *x)
{
  /* umask can only be read by setting it: put it back at once.  */
  mode_t m = umask (0);
  umask (m);
  x->umask_bits = m;
  x->euid = geteuid ();
  x->egid = getegid ();
  x->is_root = x->euid == 0;
}
