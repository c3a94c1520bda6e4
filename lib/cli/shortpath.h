/* cli/shortpath.h -- long paths shortened for messages.

   A path through a tree thousands of levels deep is tens of kilobytes: a
   message that quotes it whole is unreadable, and so is a screen of them.
   Messages show such a path by its end, where the file is named, after a
   mark that says something was cut: "…/d/d/f" ("..." where the locale's
   character set is not UTF-8, so that the mark is not escaped as bytes it
   cannot show).  */

#ifndef NC_CLI_SHORTPATH_H
#define NC_CLI_SHORTPATH_H

#include <stddef.h>

/* Paths of at most this many bytes are shown whole; longer ones are cut
   to at most this many bytes, mark included, or to their last component
   and the mark if that alone is longer.  */
enum { SHORT_PATH_MAX = 160 };

/* How many results can be in use at once (slots 0 to SHORT_PATH_SLOTS - 1):
   one per path a message shows.  */
enum { SHORT_PATH_SLOTS = 4 };

/* PATH for a message: PATH itself if it is short enough, else the mark
   and PATH's end, cut just before a '/' where one is near enough, in
   buffer SLOT, valid until the next call with SLOT.  */
const char *short_path_n (int slot, const char *path);

/* The same in slot 0.  */
#define short_path(path) short_path_n (0, path)

#endif
