/* remove/ask.h -- rm's questions before an entry is entered or removed:
   whether one is due (-f never asks, -i always, and by default only for
   a write-protected entry while the answer would come from a terminal),
   and the question itself, "PROGRAM: remove write-protected regular file
   'PATH'? ", on standard error, the answer read from standard input
   (gnulib yesno: the locale's yes, the whole line read).  */

#ifndef NC_REMOVE_ASK_H
#define NC_REMOVE_ASK_H

#include <stdbool.h>

#include "remove/removal.h"
#include "walk/walker.h"

/* Whether E must be asked about before it is entered or removed; if so,
   whether it is write-protected (the effective ids may not write it), in
   *PROTECTED.  LINK: E is a symbolic link, never write-protected (its
   mode means nothing).  Never with -n.  */
bool remove_must_ask (const struct remove_options *o,
                      const struct walk_entry *e, bool link,
                      bool *protected);

/* Ask "VERB [write-protected ]WHAT 'PATH'?" about the entry W visits,
   the progress line erased first; whether the answer is yes.  */
bool remove_ask (struct removal *r, struct walk *w, const char *verb,
                 bool protected, const char *what);

/* Ask whether to remove E, named by the kind of file its stat says, in
   rm's words: 1 to remove it, 0 to keep it, -1 if it cannot be stat'ed
   (reported).  */
int remove_ask_entry (struct removal *r, struct walk *w,
                      const struct walk_entry *e, bool protected);

#endif
