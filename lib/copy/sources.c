/* copy/sources.c -- xcp's operands taken together; see copy/sources.h.  */

#include <config.h>

#include "copy/sources.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "copy/msg.h"
#include "copy/names.h"
#include "copy/operand.h"
#include "copy/parents.h"
#include "dirname.h"
#include "error.h"
#include "same-inode.h"
#include "sys/calls.h"
#include "xalloc.h"

/* Whether PATH is a directory, or a symbolic link to one.  */
static bool
is_dir (const char *path)
{
  struct stat st;
  return sys_fstatat (AT_FDCWD, path, &st, 0) == 0 && S_ISDIR (st.st_mode);
}

/* Open directory DIR for copies into it.  */
static int
open_target_dir (const char *dir)
{
  int fd = sys_openat (AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0)
    error (EXIT_FAILURE, -fd, "target directory %s", quote_msg (dir));
  return fd;
}

/* An operand of several copied into a directory, for cp's warning about
   one given twice: the file it names and its name, the last component
   in a directory.  */
struct operand_id
{
  struct stat st, dir;
  char *base;
  size_t i;                     /* its place among the operands */
};

/* By file, then place.  */
static int
compare_ids (const void *a, const void *b)
{
  const struct operand_id *p = a, *q = b;
  if (p->st.st_dev != q->st.st_dev)
    return p->st.st_dev < q->st.st_dev ? -1 : 1;
  if (p->st.st_ino != q->st.st_ino)
    return p->st.st_ino < q->st.st_ino ? -1 : 1;
  return p->i < q->i ? -1 : p->i > q->i;
}

/* The status of operand SRC, as X looks at it.  */
static int
stat_operand (const struct copy_options *x, const char *src,
              struct stat *st)
{
  return sys_fstatat (AT_FDCWD, src, st, copy_follows_operand (x)
                                         ? 0 : AT_SYMLINK_NOFOLLOW);
}

/* Which of the N operands ARGS name the file an earlier one named, by
   the same last component, as cp tells them: a new array of N, true for
   those to be warned of and left.  A directory is copied to the same
   name again whatever the path to it; a file only if the name is the
   same entry (same directory), and not where backups are made (each
   copy makes one).  A directory without -r is refused each time, as by
   cp.  */
static bool *
given_twice (const struct copy_options *x, const char **args, size_t n)
{
  bool *twice = xcalloc (n, sizeof *twice);
  struct operand_id *ids = xnmalloc (n, sizeof *ids);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    {
      struct operand_id *id = &ids[m];
      char *dir = mdir_name (args[i]);
      if (dir && stat_operand (x, args[i], &id->st) == 0
          && (x->recursive || !S_ISDIR (id->st.st_mode))
          && sys_fstatat (AT_FDCWD, dir, &id->dir, 0) == 0)
        {
          id->base = copy_base_name (args[i]);
          id->i = i;
          m++;
        }
      free (dir);
    }
  qsort (ids, m, sizeof *ids, compare_ids);
  /* Within each file's run, by place: a name met before in it.  */
  for (size_t k = 0; k < m; k++)
    for (size_t j = k; j-- > 0 && SAME_INODE (ids[j].st, ids[k].st); )
      if (strcmp (ids[j].base, ids[k].base) == 0
          && (S_ISDIR (ids[k].st.st_mode)
              || (SAME_INODE (ids[j].dir, ids[k].dir)
                  && x->backup == BACKUP_NONE)))
        {
          twice[ids[k].i] = true;
          break;
        }
  for (size_t k = 0; k < m; k++)
    free (ids[k].base);
  free (ids);
  return twice;
}

/* Warn, as cp, of operand SRC given twice.  */
static void
warn_twice (const struct copy_options *x, const char *src)
{
  struct stat st;
  bool dir = stat_operand (x, src, &st) == 0 && S_ISDIR (st.st_mode);
  error (0, 0, "warning: source %s %s specified more than once",
         dir ? "directory" : "file", quote_msg (src));
}

const char *
copy_target_dir (const struct copy_options *x, const char **args, size_t *n)
{
  const char *dir = x->target_dir;
  if (!dir && !x->no_target_dir && (*n > 2 || is_dir (args[*n - 1])))
    {
      dir = args[*n - 1];
      --*n;
      if (!is_dir (dir))
        {
          struct stat st;
          int ret = sys_fstatat (AT_FDCWD, dir, &st, 0);
          error (EXIT_FAILURE, ret < 0 ? -ret : ENOTDIR, "target %s",
                 quote_msg (dir));
        }
    }
  return dir;
}

void
copy_sources_into (const struct copy_options *x, const char **args,
                   size_t n, const char *dir)
{
  int dirfd = open_target_dir (dir);
  bool *twice = given_twice (x, args, n);
  for (size_t i = 0; i < n; i++)
    if (twice[i])
      warn_twice (x, args[i]);
    else if (x->parents)
      copy_parents (x, args[i], dirfd, dir);
    else
      copy_into (x, args[i], dirfd, dir);
  free (twice);
  sys_close (dirfd);
}
