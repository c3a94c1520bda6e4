/* ranges/range-list.c -- RANGE operands read from a file; see
   ranges/range-list.h.  */

#include <config.h>

#include "ranges/range-list.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c-ctype.h"
#include "cli/common.h"
#include "error.h"
#include "xalloc.h"

/* LINE without the blanks around it, in place.  */
static char *
trim (char *line)
{
  while (c_isspace (*line))
    line++;
  size_t len = strlen (line);
  while (len > 0 && c_isspace (line[len - 1]))
    line[--len] = '\0';
  return line;
}

void
range_list_read (const char *file, struct range_list *list)
{
  bool is_stdin = strcmp (file, "-") == 0;
  const char *name = is_stdin ? "standard input" : quote_file (file);
  FILE *in = is_stdin ? stdin : fopen (file, "r");
  if (!in)
    error (EXIT_FAILURE, errno, "cannot open %s", name);
  size_t room = 0;
  *list = (struct range_list) { NULL, NULL, 0 };
  char *line = NULL;
  size_t size = 0;
  for (size_t line_no = 1; getline (&line, &size, in) >= 0; line_no++)
    {
      char *word = trim (line);
      if (!*word)
        continue;
      if (list->n == room)
        {
          list->words = x2nrealloc (list->words, &room, sizeof *list->words);
          list->line_nos = xnrealloc (list->line_nos, room,
                                      sizeof *list->line_nos);
        }
      list->line_nos[list->n] = line_no;
      list->words[list->n++] = xstrdup (word);
    }
  free (line);
  if (ferror (in))
    error (EXIT_FAILURE, errno, "error reading %s", name);
  if (!is_stdin)
    fclose (in);
}

void
range_list_free (struct range_list *list)
{
  for (size_t i = 0; i < list->n; i++)
    free (list->words[i]);
  free (list->words);
  free (list->line_nos);
}
