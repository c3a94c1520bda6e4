/* copy/link.c -- xcp -l and -s; see copy/link.h.  */

#include <config.h>

#include "copy/link.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/progress.h"
#include "copy/attrs.h"
#include "copy/dest.h"
#include "copy/inodes.h"
#include "copy/install.h"
#include "copy/msg.h"
#include "copy/options.h"
#include "progname.h"
#include "quotearg.h"
#include "same-inode.h"
#include "sys/calls.h"
#include "xalloc.h"

/* One link to make: the source NAME of SRC_DIRFD (SRC in messages, the
   target of a symbolic link), ST as followed or not (FOLLOW), and where
   it goes.  */
struct one_link
{
  const struct copy_options *x;
  int src_dirfd;
  const char *name;
  const char *src;
  bool follow;
  struct stat st;
  const struct dest *d;
};

/* Whether symbolic links are left as they are: -P, or -r without -H
   or -L (which -l does not leave: see cmd/xcp.c).  */
static bool
never_follows (const struct copy_options *x)
{
  return x->deref == COPY_DEREF_NEVER
         || (x->deref == COPY_DEREF_DEFAULT && x->recursive);
}

/* Whether L's source and the existing destination DST (not followed)
   are the same file for its link, as cp judges it: 1 if not (go on), 0
   if nothing is to be done (it is already a link of the source), -1 if
   making the link would lose the source (reported by the caller).  */
static int
same_file (const struct one_link *l, const struct stat *dst)
{
  const struct dest *d = l->d;
  bool hard = l->x->link == COPY_LINK_HARD;
  bool same = SAME_INODE (l->st, *dst);
  if (same && hard)
    return 0;
  struct stat src_l = l->st;
  if (never_follows (l->x))
    {
      /* Two symbolic links, other names of one link or distinct links:
         only one entry is its own source.  */
      if (S_ISLNK (l->st.st_mode) && S_ISLNK (dst->st_mode))
        {
          if (same_entry (l->src_dirfd, l->name, d->dirfd, d->name))
            return -1;
          return same ? 0 : 1;
        }
    }
  else if (!same
           || sys_fstatat (l->src_dirfd, l->name, &src_l,
                           AT_SYMLINK_NOFOLLOW) < 0)
    return 1;
  if (!S_ISLNK (src_l.st_mode) && !S_ISLNK (dst->st_mode))
    {
      if (!SAME_INODE (src_l, *dst))
        return 1;
      return hard ? 0 : -1;
    }
  /* A symbolic link replaced by a symbolic link loses nothing.  */
  if (!hard && S_ISLNK (dst->st_mode))
    return 1;
  if (never_follows (l->x))
    {
      struct stat a, b;
      if (sys_fstatat (l->src_dirfd, l->name, &a, 0) < 0
          || sys_fstatat (d->dirfd, d->name, &b, 0) < 0
          || !SAME_INODE (a, b))
        return 1;
      /* A link to the file the source names: left, unless it is a
         symbolic link, which the hard link replaces.  */
      if (hard)
        return S_ISLNK (dst->st_mode) ? 1 : 0;
    }
  return -1;
}

/* Look at the existing destination DST (not followed) of L: 1 to make
   the link, *REPLACE saying whether in place of DST, 0 to leave it, -1
   after a reported error.  */
static int
judge_dest (const struct one_link *l, const struct stat *dst, bool *replace)
{
  const struct copy_options *x = l->x;
  const struct dest *d = l->d;
  /* --update=none (-n) and none-fail come before anything, the same
     file too, as for a copy (may_replace).  */
  if (copy_leaves_existing (x))
    return may_replace (x, &l->st, dst, l->src, d->display);
  int go = same_file (l, dst);
  if (go < 0)
    copy_fail2 (0, "%s and %s are the same file", l->src, d->display);
  if (go <= 0)
    return go;
  go = may_replace (x, &l->st, dst, l->src, d->display);
  if (go <= 0)
    return go;
  if (!S_ISDIR (dst->st_mode) && d->made_here && d->made_here (x, dst))
    {
      copy_fail2 (0, "will not overwrite just-created %s with %s",
                  d->display, l->src);
      return -1;
    }
  /* Where cp removes what is there before it makes the link: -f; -i
     answered yes (-l only); under -P, a source that is not a regular
     file.  */
  *replace = x->force
             || (x->clobber == COPY_CLOBBER_ASK && x->link == COPY_LINK_HARD)
             || (never_follows (x) && !S_ISREG (l->st.st_mode)
                 && !S_ISDIR (dst->st_mode));
  return 1;
}

/* Whether directory DIRFD is the current directory, where a relative
   symbolic link names what the source's name names; so judged too if
   either cannot be looked at (what follows then fails).  */
static bool
in_current_dir (int dirfd)
{
  struct stat dot, dir;
  return sys_fstatat (AT_FDCWD, ".", &dot, 0) < 0
         || sys_fstatat (dirfd, "", &dir, AT_EMPTY_PATH) < 0
         || SAME_INODE (dot, dir);
}

/* Make L's link, in place of what is there if REPLACE.  Return 0 or
   -errno.  */
static int
make_link (const struct one_link *l, bool replace)
{
  const struct dest *d = l->d;
  if (l->x->link == COPY_LINK_SYMBOLIC)
    return replace ? install_symlink (l->src, d->dirfd, d->name)
                   : sys_symlinkat (l->src, d->dirfd, d->name);
  int flags = l->follow ? AT_SYMLINK_FOLLOW : 0;
  if (replace)
    return install_link_flags (l->src_dirfd, l->name, flags, d->dirfd,
                               d->name);
  return SYS_RETRY_EINTR (sys_linkat (l->src_dirfd, l->name, d->dirfd,
                                      d->name, flags));
}

/* After L's link is made: what --debug says, what the run made, and
   the attributes of a symbolic link.  */
static void
link_made (const struct one_link *l)
{
  const struct copy_options *x = l->x;
  const struct dest *d = l->d;
  bool symbolic = x->link == COPY_LINK_SYMBOLIC;
  if (x->debug)
    {
      copy_msg_lock ();
      progress_clear_shown ();
      fprintf (stderr, "%s: %s -> %s: engine %s\n", program_name,
               quote_msg (l->src), quote_msg2 (d->display),
               symbolic ? "symlink" : "link");
      copy_msg_unlock ();
    }
  copy_made_name (x, d->dirfd, d->name);
  if (symbolic)
    {
      /* The owner and times of the source, as kept of a link.  */
      struct stat as_link = l->st;
      as_link.st_mode = S_IFLNK | 0777;
      set_entry_attrs (x, d->dirfd, d->name, &as_link, d->display,
                       (mode_t) -1, 0);
    }
}

void
copy_file_link (const struct copy_options *x, int src_dirfd,
                const char *name, const char *src, bool follow,
                const struct dest *d)
{
  struct one_link l = { .x = x, .src_dirfd = src_dirfd, .name = name,
                        .src = src, .follow = follow, .d = d };
  int ret = sys_fstatat (src_dirfd, name, &l.st,
                         follow ? 0 : AT_SYMLINK_NOFOLLOW);
  if (ret < 0)
    {
      copy_fail (-ret, "cannot stat %s", src);
      return;
    }
  if (S_ISDIR (l.st.st_mode))
    {
      copy_fail (0, "-r not specified; omitting directory %s", src);
      return;
    }
  bool replace = false;
  struct stat dst;
  ret = d->fresh ? -ENOENT
                 : sys_fstatat (d->dirfd, d->name, &dst, AT_SYMLINK_NOFOLLOW);
  if (ret == 0 && judge_dest (&l, &dst, &replace) <= 0)
    return;
  if (ret < 0 && ret != -ENOENT)
    {
      copy_fail (-ret, "cannot stat %s", d->display);
      return;
    }
  copy_tell_copied (x, src, d->display, true);
  bool symbolic = x->link == COPY_LINK_SYMBOLIC;
  if (symbolic && src[0] != '/' && !in_current_dir (d->dirfd))
    {
      copy_msg_lock ();
      cli_fail (0, "%s: can make relative symbolic links only in current "
                "directory", quotearg_style (shell_escape_quoting_style,
                                             short_path (d->display)));
      copy_msg_unlock ();
      return;
    }
  ret = make_link (&l, replace);
  if (ret < 0)
    copy_fail_renaming (d->display, -ret, "cannot create %s link %s to %s",
                        symbolic ? "symbolic" : "hard",
                        quote_msg (d->display), quote_msg2 (src));
  else
    link_made (&l);
}
