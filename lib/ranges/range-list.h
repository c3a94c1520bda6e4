/* ranges/range-list.h -- the RANGE operands of a file (--ranges-from):
   one a line, so that a script can give more ranges than a command line
   holds.  */

#ifndef NC_RANGES_RANGE_LIST_H
#define NC_RANGES_RANGE_LIST_H

#include <stddef.h>

struct range_list
{
  char **words;                 /* each line, blanks around it taken off */
  size_t *line_nos;             /* the number of each one's line, from 1 */
  size_t n;
};

/* Read the lines of FILE ("-": standard input) into *LIST, those with
   nothing but blanks skipped.  A file that cannot be read ends the
   process with a message.  */
void range_list_read (const char *file, struct range_list *list);

void range_list_free (struct range_list *list);

#endif
