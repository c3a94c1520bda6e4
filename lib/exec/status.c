/* exec/status.c -- the exit status of a tool that could not run its
   COMMAND.  */

#include <config.h>

#include "exec/status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/calls.h"
#include "xalloc.h"

/* Whether FILE, as execvp(3) looks for it, is there: a name with a slash
   as it is, any other in a directory of $PATH.  */
static bool
in_path (const char *file)
{
  if (strchr (file, '/'))
    return true;
  const char *path = getenv ("PATH");
  if (!path)
    path = "/bin:/usr/bin";
  size_t file_len = strlen (file);
  for (;;)
    {
      size_t len = strcspn (path, ":");
      char *name = xmalloc (len + file_len + 2);
      snprintf (name, len + file_len + 2, "%.*s%s%s", (int) len, path,
                len ? "/" : "", file);
      bool found = sys_faccessat (AT_FDCWD, name, F_OK, 0) == 0;
      free (name);
      if (found)
        return true;
      if (!path[len])
        return false;
      path += len + 1;
    }
}

int
exec_failure_status (const char *file, int *err)
{
  if (*err == EACCES && !in_path (file))
    *err = ENOENT;
  return *err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}
