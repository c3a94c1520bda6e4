/* copy/parents.c -- xcp --parents; see copy/parents.h.  */

#include <config.h>

#include "copy/parents.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/progress.h"
#include "copy/attrs.h"
#include "copy/inodes.h"
#include "copy/msg.h"
#include "copy/names.h"
#include "copy/operand.h"
#include "dirname.h"
#include "sys/calls.h"
#include "xalloc.h"

/* A directory --parents made (or found, with -p), its attributes to
   come once the copy below it is done (they may take away our write
   permission).  */
struct made_parent
{
  int parent;                   /* the directory it is in */
  char *name;
  char *dst;
  struct stat src_st;           /* of the source's directory */
  mode_t made_mode;
  mode_t inherited;             /* set-group-ID from its parent */
};

/* Make, under DIRFD, the directory NAME (DST in messages), the copy of
   the directory SRC of the source's path, unless it is there.  *MADE
   gets it, for its attributes, if it was made, or if it was there and -p
   or -a keeps attributes, unless ALL_THERE (the whole path was there);
   *IS_MADE says whether it did.  Return the directory's descriptor, or -1
   after a reported failure.  */
static int
make_parent (const struct copy_options *x, int dirfd, const char *name,
             const char *src, const char *dst, bool all_there,
             struct made_parent *made, bool *is_made)
{
  struct stat st;
  *is_made = false;
  int ret = sys_fstatat (AT_FDCWD, src, &st, 0);
  /* A file where the path has a directory: nothing is made for it.  */
  if (ret == 0 && !S_ISDIR (st.st_mode))
    ret = -ENOTDIR;
  if (ret < 0)
    {
      copy_fail (-ret, "failed to get attributes of %s", src);
      return -1;
    }
  /* Writable and searchable by us while the copy goes in.  */
  mode_t mode = dir_made_mode (x, st.st_mode);
  ret = sys_mkdirat (dirfd, name, mode);
  if (ret < 0 && ret != -EEXIST)
    {
      copy_fail (-ret, "cannot make directory %s", dst);
      return -1;
    }
  int fd = sys_openat (dirfd, name, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      copy_fail (-fd, "cannot open directory %s", dst);
      return -1;
    }
  /* One there already gets what -p or -a keeps too, as from cp, unless
     the whole path was there.  */
  const struct copy_preserve *keep = &x->preserve;
  if (ret == 0
      || (!all_there && (keep->mode || keep->owner || keep->times)))
    {
      struct stat now;
      *is_made = true;
      *made = (struct made_parent) {
        .parent = sys_fcntl (dirfd, F_DUPFD_CLOEXEC, 0),
        .name = xstrdup (name), .dst = xstrdup (dst), .src_st = st,
        .made_mode = ret == 0 ? mode & ~x->umask_bits : (mode_t) -1,
        .inherited = sys_fstat (fd, &now) == 0 ? now.st_mode & S_ISGID : 0,
      };
    }
  if (ret == 0)
    {
      if (x->verbose)
        {
          /* Unquoted, as cp says these.  */
          progress_clear_shown ();
          fprintf (copy_tell_stream (x), "%s -> %s\n", src, dst);
        }
    }
  return fd;
}

/* Give the directories MADE[0..N-1] their attributes, the deepest
   first, and forget them.  */
static void
finish_parents (const struct copy_options *x, struct made_parent *made,
                size_t n)
{
  while (n-- > 0)
    {
      struct made_parent *m = &made[n];
      if (m->parent >= 0)
        {
          set_entry_attrs (x, m->parent, m->name, &m->src_st, m->dst,
                           m->made_mode, m->inherited);
          sys_close (m->parent);
        }
      free (m->name);
      free (m->dst);
    }
}

void
copy_parents (const struct copy_options *x, const char *src, int dirfd,
              const char *dir)
{
  char *stripped = copy_strip_slashes (x, &src);
  size_t dlen = strlen (dir);
  char *dst = xmalloc (dlen + strlen (src) + 2);
  sprintf (dst, "%s%s%s", dir,
           (dlen && dir[dlen - 1] == '/') || src[0] == '/' ? "" : "/", src);
  size_t dst_off = strlen (dst) - strlen (src);
  char *base = copy_base_name (src);
  /* The path up to its last component, each directory of it in turn.  */
  size_t end = last_component (src) - src;
  char *path = xstrdup (src);
  struct made_parent *made = xnmalloc (end / 2 + 1, sizeof *made);
  size_t n = 0;
  int cur = sys_fcntl (dirfd, F_DUPFD_CLOEXEC, 0);
  size_t i = strspn (src, "/");
  struct stat st;
  char *whole = ximemdup0 (src + i, end > i ? end - i : 0);
  bool all_there = !*whole || (sys_fstatat (dirfd, whole, &st, 0) == 0
                               && S_ISDIR (st.st_mode));
  /* The copies of hard links are found relative to DIR, where those of
     every operand are: SRC's is at WHOLE, then its name.  */
  copy_links_base (dirfd, whole);
  free (whole);
  while (cur >= 0 && i < end)
    {
      while (i < end && src[i] == '/')
        i++;
      size_t j = i;
      while (j < end && src[j] != '/')
        j++;
      if (j == i)
        break;
      path[j] = '\0';
      char *name = ximemdup0 (src + i, j - i);
      char *dpath = ximemdup0 (dst, dst_off + j);
      bool is_made;
      int fd = make_parent (x, cur, name, path, dpath, all_there, &made[n],
                            &is_made);
      n += is_made;
      free (name);
      free (dpath);
      path[j] = src[j];
      sys_close (cur);
      cur = fd;
      i = j;
    }
  if (cur >= 0)
    {
      copy_operand (x, src, cur, base, dst);
      sys_close (cur);
    }
  finish_parents (x, made, n);
  free (made);
  free (path);
  free (base);
  free (dst);
  free (stripped);
}
