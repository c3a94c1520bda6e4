/* remove/guard.h -- what rm refuses to remove, and says so: an operand
   whose last component is '.' or '..', '/' itself (--preserve-root, the
   default) and, with --preserve-root=all, a directory operand on another
   device than its parent.  */

#ifndef NC_REMOVE_GUARD_H
#define NC_REMOVE_GUARD_H

#include <stdbool.h>

#include "remove/removal.h"
#include "walk/walker.h"

/* Whether NAME is "." or "..".  */
bool remove_dot_or_dotdot (const char *name);

/* Whether the operand E, a directory the walk is about to enter, may be
   walked: not '/' (the same directory as R's root), nor, with
   --preserve-root=all, on another device than E/.., as rm has it.  A
   refusal is reported, and the exit status made failure.  */
bool remove_operand_allowed (const struct removal *r, struct walk *w,
                             const struct walk_entry *e);

#endif
