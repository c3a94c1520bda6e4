/* copy/operand.c -- one operand of xcp, the top of a copy; see
   copy/operand.h.  */

#include <config.h>

#include "copy/operand.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/progress.h"
#include "copy/attrs.h"
#include "copy/backup.h"
#include "copy/dest.h"
#include "copy/file.h"
#include "copy/inodes.h"
#include "copy/msg.h"
#include "copy/names.h"
#include "copy/tree.h"
#include "progname.h"
#include "same-inode.h"
#include "sys/calls.h"
#include "xalloc.h"

/* Whether the directory SRC_ST is DIRFD or one of its ancestors: a copy
   of it into DIRFD would never end.  */
static bool
inside (const struct stat *src_st, int dirfd)
{
  struct stat st, prev = { 0 };
  int fd = sys_openat (dirfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
  bool found = false;
  for (int depth = 0; fd >= 0 && depth < 4096; depth++)
    {
      if (sys_fstat (fd, &st) < 0)
        break;
      if (SAME_INODE (st, *src_st))
        {
          found = true;
          break;
        }
      if (depth > 0 && SAME_INODE (st, prev))
        break;                  /* "/" is its own parent */
      prev = st;
      int up = sys_openat (fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
      sys_close (fd);
      fd = up;
    }
  if (fd >= 0)
    sys_close (fd);
  return found;
}

/* The limits of the walk of SRC, told with --debug: the descriptors
   left under RLIMIT_NOFILE, shared between the workers, the walker's
   stack of source directories and ours of the copies.  */
static void
tree_limits (const struct copy_options *x, const char *src,
             struct copy_tree_limits *limits)
{
  /* -i asks one question at a time: no workers.  Nor with -u and hard
     links: the first name of a file in the walk's order must be the one
     whose up-to-date copy the others become links to, and workers would
     race for it.  */
  bool serial = (x->clobber == COPY_CLOBBER_ASK && !copy_leaves_existing (x))
                || (x->update == COPY_UPDATE_OLDER && x->preserve.links);
  *limits = (struct copy_tree_limits) { .jobs = serial ? 1 : x->jobs };
  size_t room = copy_tree_fds (&limits->jobs, &limits->walk_fds,
                               &limits->dst_fds, &limits->dirs);
  if (x->debug)
    {
      progress_clear_shown ();
      fprintf (stderr, "%s: %s: %zu descriptors free: %zu for the source "
               "directories, %zu for the copies\n", program_name,
               quote_msg (src), room, limits->walk_fds, limits->dst_fds);
      fprintf (stderr, "%s: %s: %u jobs\n", program_name, quote_msg (src),
               limits->jobs);
    }
}

/* Copy operand SRC to D, whose directory's stat is DIR_ST.  */
static void
copy_operand_to (const struct copy_options *x, const char *src,
                 const struct stat *dir_st, const struct dest *d)
{
  bool follow = copy_follows_operand (x);
  if (!x->recursive && follow)
    {
      copy_file (x, AT_FDCWD, src, src, 0, false, d);
      return;
    }

  struct stat st;
  int ret = sys_fstatat (AT_FDCWD, src, &st, AT_SYMLINK_NOFOLLOW);
  if (ret < 0)
    {
      copy_fail (-ret, "cannot stat %s", src);
      return;
    }
  /* -P without -r: a link is copied as a link, anything else as
     without it.  */
  if (!x->recursive && !S_ISLNK (st.st_mode))
    {
      copy_file (x, AT_FDCWD, src, src, 0, false, d);
      return;
    }
  /* -H, -L: the walk follows SRC (copy_follows_operand), a link to a
     directory entered as that directory, one to anything else copied as
     what it names: a regular file's data, a FIFO made a FIFO unless
     --copy-contents reads it.  */
  if (x->recursive && follow && S_ISLNK (st.st_mode))
    {
      ret = sys_fstatat (AT_FDCWD, src, &st, 0);
      if (ret < 0)
        {
          copy_fail (-ret, "cannot stat %s", src);
          return;
        }
    }
  if (S_ISDIR (st.st_mode) && inside (&st, d->dirfd))
    {
      copy_fail2 (0, "cannot copy a directory, %s, into itself, %s", src,
                  d->display);
      return;
    }
  struct copy_tree_limits limits;
  tree_limits (x, src, &limits);
  copy_tree (x, src, src, d->dirfd, dir_st, d->inherits_acl, d->name,
             d->display, &limits);
}

void
copy_operand (const struct copy_options *x, const char *src, int dirfd,
              const char *name, const char *dst)
{
  struct stat dir_st;
  int ret = sys_fstat (dirfd, &dir_st);
  if (ret < 0)
    {
      copy_fail (-ret, "cannot create %s", dst);
      return;
    }
  bool parent_acl = dir_has_default_acl (dirfd);
  /* Without -r, --preserve=links: the operands that are names of one
     file become links to its first copy, as in a tree.  */
  int link_base;
  char *link_path = copy_link_place (dirfd, name, &link_base);
  struct dest d = { .dirfd = dirfd, .dev = dir_st.st_dev, .name = name,
                    .display = dst, .inherits_acl = parent_acl,
                    .group_of_dir = dir_st.st_mode & S_ISGID,
                    .made_here = copy_made_here, .link_base = link_base,
                    .link_path = x->preserve.links ? link_path : NULL };
  copy_operand_to (x, src, &dir_st, &d);
  free (link_path);
}

char *
copy_strip_slashes (const struct copy_options *x, const char **src)
{
  if (!x->strip_slashes)
    return NULL;
  size_t len = strlen (*src);
  while (len > 1 && (*src)[len - 1] == '/')
    len--;
  char *stripped = ximemdup0 (*src, len);
  *src = stripped;
  return stripped;
}

void
copy_into (const struct copy_options *x, const char *src, int dirfd,
           const char *dir)
{
  char *stripped = copy_strip_slashes (x, &src);
  char *base = copy_base_name (src);
  size_t dlen = strlen (dir);
  char *dst = xmalloc (dlen + strlen (base) + 2);
  sprintf (dst, "%s%s%s", dir, dlen && dir[dlen - 1] == '/' ? "" : "/",
           base);
  copy_operand (x, src, dirfd, base, dst);
  free (dst);
  free (base);
  free (stripped);
}

/* SRC cannot be copied to DST, whose directory cannot be opened (ERR),
   or which ends in '/' while SRC is no directory (ENOTDIR): report it
   as cp, which looks at SRC first, then at DST, and fails to create DST
   only where nothing is there.  */
static void
report_unreachable (const struct copy_options *x, const char *src,
                    const char *dst, int err)
{
  struct stat st, dst_st;
  int ret = sys_fstatat (AT_FDCWD, src, &st, copy_follows_operand (x)
                                             ? 0 : AT_SYMLINK_NOFOLLOW);
  if (ret < 0)
    copy_fail (-ret, "cannot stat %s", src);
  else if (S_ISDIR (st.st_mode) && !x->recursive)
    copy_fail (0, "-r not specified; omitting directory %s", src);
  else if ((ret = sys_fstatat (AT_FDCWD, dst, &dst_st, 0)) < 0
           && ret != -ENOENT)
    copy_fail (-ret, "cannot stat %s", dst);
  else
    copy_fail_create (err, st.st_mode, dst);
}

/* xcp --force --backup F F, F a regular file: copy F to the name its
   backup would get, as cp makes it.  Whether SRC and DST were such.  */
static bool
copied_to_backup (const struct copy_options *x, const char *src,
                  const char *dst)
{
  struct stat reg;
  char *to_backup = NULL;
  if (!(x->force && x->backup != BACKUP_NONE && strcmp (src, dst) == 0
        && sys_fstatat (AT_FDCWD, dst, &reg, 0) == 0
        && S_ISREG (reg.st_mode)
        && backup_name (AT_FDCWD, dst, x->backup, x->backup_suffix,
                        &to_backup) == 0))
    return false;
  struct copy_options plain = *x;
  plain.backup = BACKUP_NONE;
  copy_to (&plain, src, to_backup);
  free (to_backup);
  return true;
}

/* The directory of DST, the first PLEN bytes of it (none: the current
   directory), opened; or -errno.  */
static int
open_dir_of (const char *dst, size_t plen)
{
  if (plen == 0)
    return sys_openat (AT_FDCWD, ".", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
  char *parent = ximemdup0 (dst, plen);
  int fd = sys_openat (AT_FDCWD, parent, O_PATH | O_DIRECTORY | O_CLOEXEC,
                       0);
  free (parent);
  return fd;
}

void
copy_to (const struct copy_options *x, const char *src, const char *dst)
{
  if (copied_to_backup (x, src, dst))
    return;
  size_t len = strlen (dst);
  /* "dst/" names a directory: only a directory can be copied there.  */
  if (len > 1 && dst[len - 1] == '/')
    {
      struct stat st;
      int ret = sys_fstatat (AT_FDCWD, src, &st,
                             x->recursive ? AT_SYMLINK_NOFOLLOW : 0);
      if (ret == 0 && !S_ISDIR (st.st_mode))
        {
          report_unreachable (x, src, dst, ENOTDIR);
          return;
        }
    }
  char *base = copy_base_name (dst);
  while (len > 1 && dst[len - 1] == '/')
    len--;
  size_t plen = len - strlen (base);
  int dirfd = open_dir_of (dst, plen);
  if (dirfd < 0 && plen > 0)
    report_unreachable (x, src, dst, -dirfd);
  else
    copy_operand (x, src, dirfd, base, dst);
  if (dirfd >= 0)
    sys_close (dirfd);
  free (base);
}
