/* copy/file.c -- copy one regular file to its destination, as cp does
   (see copy/file.h): the data through copy_file_data (copy/data.h), what is
   there through copy/dest.h, the new file through copy/install.h, its
   attributes through copy/attrs.h.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/progress.h"
#include "copy/attrs.h"
#include "copy/data.h"
#include "copy/dest.h"
#include "copy/file.h"
#include "copy/inodes.h"
#include "copy/install.h"
#include "copy/link.h"
#include "copy/msg.h"
#include "copy/options.h"
#include "progname.h"
#include "same-inode.h"
#include "sys/calls.h"
#include "walk/walker.h"
#include "xalloc.h"


/* Copy the data of IN_FD (described by ST) to OUT_FD on device DST_DEV:
   an empty regular file if OUT_REGULAR, else a device, FIFO or socket
   opened for writing, which takes the bytes in order (holes become
   zeros).  Report a failure and return false.  Set *SHORT if the end of
   the regular file IN_FD came before the size ST gave.  */
static bool
copy_data (const struct copy_options *x, int in_fd, const struct stat *st,
           int out_fd, bool out_regular, dev_t dst_dev, const char *src,
           const char *dst, bool *short_read)
{
  /* What the engines declined between the last pair of file systems.  */
  static _Thread_local struct copy_fs_cache fs_pair;
  struct copy_data_request req = {
    .range = { .in_fd = in_fd, .out_fd = out_fd },
    .in_st = st, .out_regular = out_regular, .out_dev = dst_dev,
    .engine = x->engine, .reflink = x->reflink, .sparse = x->sparse,
    .cache = &fs_pair,
    /* In pieces, for the progress line to move.  */
    .piece = x->progress ? 64u << 20 : 0,
    .progress = x->bytes_done, .progress_arg = x->bytes_arg,
  };
  struct copy_data_result res;
  int ret = copy_file_data (&req, &res);
  switch (ret < 0 ? res.failure : COPY_FAILED_NONE)
    {
    case COPY_FAILED_NONE:
      break;
    case COPY_FAILED_CLONE:
      copy_fail2 (-ret, "cannot clone %s to %s", src, dst);
      return false;
    case COPY_FAILED_ENGINE:
      copy_msg_lock ();
      cli_fail_file (src, -ret, "cannot copy %s to %s with engine %s",
                     quote_msg (src), quote_msg2 (dst),
                     copy_engine_keyword (x->engine));
      copy_msg_unlock ();
      return false;
    case COPY_FAILED_READ:
      copy_fail (-ret, "error reading %s", src);
      return false;
    case COPY_FAILED_WRITE:
      copy_fail (-ret, "error writing %s", dst);
      return false;
    }
  *short_read = res.short_read;
  copy_tell_data (x, res.engine, res.size, res.moved.bytes);
  if (x->debug)
    {
      copy_msg_lock ();
      progress_clear_shown ();
      fprintf (stderr, "%s: %s -> %s: engine %s, holes %s, %" PRIu64
               " bytes\n", program_name, quote_msg (src), quote_msg2 (dst),
               copy_engine_keyword (res.engine),
               res.holes ? "kept" : "none", res.size);
      copy_msg_unlock ();
    }
  return true;
}

/* --- one file ------------------------------------------------------ */

/* One file's copy, between the steps of copy_file.  */
struct one_copy
{
  const struct copy_options *x;
  const struct dest *d;
  const char *src;
  int in_fd;
  struct stat st;
  struct put p;
  int out_fd;
  int old_fd;           /* the file replaced, read for its ACL, or -1 */
  bool named;           /* out_fd has a temporary name (copy/install.h) */
  mode_t made_mode;
  bool claimed;         /* the file's other names wait for this copy */
};

/* Open the source NAME of SRC_DIRFD (see copy_file) into C's in_fd and
   st; false after a reported failure.  */
static bool
open_source (struct one_copy *c, int src_dirfd, const char *name,
             uint64_t listed_ino, bool in_tree)
{
  const char *src = c->src;
  /* In a tree, what was listed as a regular file is not followed if it
     became a link, nor waited for if it became a FIFO; with
     --copy-contents, a FIFO is waited for, as cp waits.  */
  bool contents = in_tree && c->x->copy_contents;
  c->in_fd = sys_openat (src_dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY
                         | (in_tree ? O_NOFOLLOW : 0)
                         | (in_tree && !contents ? O_NONBLOCK : 0), 0);
  if (c->in_fd < 0)
    {
      /* cp looks at the source before it opens it: a name that leads
         nowhere is "cannot stat", a file it may not read "cannot open
         for reading" (EACCES is either: a directory of the path, or the
         file).  */
      int err = -c->in_fd;
      struct stat st;
      int ret = err == ENOENT || err == ENOTDIR || err == ELOOP
                || err == ENAMETOOLONG
                ? c->in_fd : sys_fstatat (src_dirfd, name, &st,
                                          in_tree ? AT_SYMLINK_NOFOLLOW : 0);
      if (ret < 0)
        copy_fail (-ret, "cannot stat %s", src);
      else
        copy_fail (-c->in_fd, "cannot open %s for reading", src);
      return false;
    }
  int ret = sys_fstat (c->in_fd, &c->st);
  if (ret < 0)
    {
      copy_fail (-ret, "cannot stat %s", src);
      return false;
    }
  if (in_tree && ((!S_ISREG (c->st.st_mode)
                   && !(contents && !S_ISDIR (c->st.st_mode)))
                  || (listed_ino && (uint64_t) c->st.st_ino != listed_ino)))
    {
      copy_fail (0, "%s changed while being copied; skipped", src);
      return false;
    }
  if (S_ISDIR (c->st.st_mode))
    {
      copy_fail (0, "-r not specified; omitting directory %s", src);
      return false;
    }
  return true;
}

/* FIRST, the copy of another name of the file as the link table keeps
   it (relative to D's link_base), as the user would name it: D's display
   up to where D's own link path starts, then FIRST.  cp names the
   earlier copy so in a failed link's message.  */
static char *
first_display (const struct dest *d, const char *first)
{
  size_t n = strlen (d->display), k = strlen (d->link_path);
  if (k > n || strcmp (d->display + n - k, d->link_path) != 0)
    return xstrdup (first);
  char *name = xmalloc (n - k + strlen (first) + 1);
  strcpy (mempcpy (name, d->display, n - k), first);
  return name;
}

/* Report that D could not be made a link to FIRST (ERR).  */
static void
fail_link (int err, const struct dest *d, const char *first)
{
  char *to = first_display (d, first);
  copy_fail_rename2 (err, "cannot create hard link %s to %s", d->display,
                     to);
  free (to);
}

/* After check_dest said CHECK: whether nothing is left to copy, the
   destination being left as it is, or made a link to the copy of
   another name of the source.  TRACK: such names are tracked; a file
   to copy whose other names wait for it is claimed (C's claimed).  */
static bool
done_by_link (struct one_copy *c, int check, bool track)
{
  const struct copy_options *x = c->x;
  const struct dest *d = c->d;
  struct put *p = &c->p;
  const char *first;
  int ret;
  /* A second link to a file already copied: link to the copy.  -u keeps
     an up-to-date destination's links too, as cp -u does.  */
  if (track && check == 0 && x->update == COPY_UPDATE_OLDER
      && S_ISREG (p->st.st_mode))
    {
      if (copy_link_claim (c->st.st_dev, c->st.st_ino, &first) == LINK_MINE)
        copy_link_add (c->st.st_dev, c->st.st_ino, d->link_path);
      else if ((ret = link_over (d->link_base, first, p)) < 0)
        fail_link (-ret, d, first);
    }
  if (check <= 0)
    return true;
  if (track && p->how != PUT_INTO)
    {
      if (copy_link_claim (c->st.st_dev, c->st.st_ino, &first) == LINK_MINE)
        c->claimed = true;
      else if ((ret = link_over (d->link_base, first, p)) == 0)
        {
          copy_tell_backed_up (x, c->src, d->display, p->backup, true);
          return true;
        }
      else if (ret == -EACCES || ret == -EPERM)
        {
          /* Not allowed there: cp then copies nothing either.  */
          fail_link (-ret, d, first);
          return true;
        }
      /* Too long a path, another file system...: copy it.  */
    }
  return false;
}

/* Open C's out_fd as a new file to install in place of P's name (or
   as P's new name); false after a reported failure.  A replacement that
   cannot make its file (EACCES: the directory is not writable) and may
   keep the old file writes that in place instead, as cp does.  */
static bool
open_new (struct one_copy *c)
{
  struct put *p = &c->p;
  c->out_fd = install_create_tmp (p->dirfd, c->made_mode, &c->named);
  if (c->out_fd == -EACCES && p->how == PUT_REPLACE && !p->anew)
    p->how = PUT_INPLACE, p->why = "its directory is not writable";
  else if (c->out_fd < 0)
    {
      copy_fail (-c->out_fd, "cannot create regular file %s",
                 c->d->display);
      return false;
    }
  return true;
}

/* Open C's out_fd, the file the data goes to: a new one to install, or
   the destination to write in place or into; false after a reported
   failure.  */
static bool
open_copy (struct one_copy *c)
{
  const struct dest *d = c->d;
  struct put *p = &c->p;
  /* The source's permissions, a FIFO's or a device's too, as cp.  */
  c->made_mode = c->x->default_mode ? 0666 : c->st.st_mode & 0777;
  if (p->how == PUT_REPLACE && !p->anew)
    {
      /* The ACL and extended attributes it keeps are read from it.  */
      c->old_fd = sys_openat (p->dirfd, p->name, O_RDONLY | O_NOFOLLOW
                              | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
      if (c->old_fd < 0)
        p->how = PUT_INPLACE, p->why = "it cannot be read for its ACL";
    }
  if ((p->how == PUT_NEW || p->how == PUT_REPLACE) && !open_new (c))
    return false;
  if (p->how == PUT_INPLACE || p->how == PUT_INTO)
    {
      c->out_fd = sys_openat (p->dirfd, p->name, O_WRONLY
                              | (c->x->attributes_only ? 0 : O_TRUNC)
                              | O_NOCTTY | O_CLOEXEC
                              | (p->follow ? 0 : O_NOFOLLOW), 0);
      if (c->out_fd < 0 && p->how == PUT_INPLACE && c->x->force
          && !p->follow)
        {
          /* -f: as cp removes the file it cannot open and makes a new
             one; here the new one is renamed over it.  */
          if (c->old_fd >= 0)
            sys_close (c->old_fd);
          c->old_fd = -1;
          put_anew (d, p);
          return open_new (c);
        }
      if (c->out_fd < 0)
        {
          copy_fail (-c->out_fd, "cannot create regular file %s",
                     d->display);
          return false;
        }
      if (c->x->debug && p->how == PUT_INPLACE)
        {
          copy_msg_lock ();
          progress_clear_shown ();
          fprintf (stderr, "%s: %s: written in place: %s\n", program_name,
                   quote_msg (d->display), p->why);
          copy_msg_unlock ();
        }
    }
  return true;
}

/* Give the complete copy its attributes and put it into place; false
   after a reported failure, the copy then to be discarded.  */
static bool
finish_copy (struct one_copy *c)
{
  const struct copy_options *x = c->x;
  const struct dest *d = c->d;
  struct put *p = &c->p;
  int ret;
  /* A FIFO's or device's data too gets its attributes, as cp gives.  */
  if (p->how != PUT_INTO)
    {
      struct file_attrs a = {
        .in_fd = c->in_fd, .st = &c->st, .old_fd = c->old_fd,
        .old = p->how == PUT_REPLACE && !p->anew ? &p->st : NULL,
        .made_mode = p->how == PUT_INPLACE ? (mode_t) -1
                                           : c->made_mode & ~x->umask_bits,
        /* Through a link into another directory: not known.  */
        .inherits_acl = p->how != PUT_INPLACE
                        && (p->dirfd != d->dirfd || d->inherits_acl),
        .group_of_dir = p->how != PUT_INPLACE
                        && (p->dirfd != d->dirfd || d->group_of_dir),
      };
      if (!set_file_attrs (x, c->out_fd, &a, d->display))
        return false;
    }
  if (x->fsync && (ret = SYS_RETRY_EINTR (sys_fsync (c->out_fd))) < 0
      && !(p->how == PUT_INTO && ret == -EINVAL))
    {
      copy_fail (-ret, "cannot flush %s", d->display);
      return false;
    }
  if (p->how == PUT_NEW || p->how == PUT_REPLACE)
    {
      ret = install_tmp (c->out_fd, c->named, p->dirfd, p->name,
                         p->how == PUT_REPLACE);
      c->named = false;
      if (ret < 0)
        {
          copy_fail_install (-ret, S_IFREG, d->display);
          return false;
        }
      if (x->fsync && (ret = install_fsync_dir (p->dirfd)) < 0)
        copy_fail (-ret, "cannot flush the directory of %s", d->display);
    }
  return true;
}

/* check_dest for C, whose source is open: as it returns, with C's put
   as the copy makes it.  */
static int
look_at_dest (struct one_copy *c)
{
  int check = check_dest (c->x, &c->st, c->src, c->d, &c->p);
  /* A backup of another name of the source links it once more: its
     change time moves, which is no change of its data.  */
  if (c->p.backup && SAME_INODE (c->st, c->p.st))
    sys_fstat (c->in_fd, &c->st);
  /* No data: an existing file keeps its own, as cp leaves it (one cp
     removes first, or renames away for a backup, is made anew, empty).  */
  if (c->x->attributes_only && c->p.how == PUT_REPLACE && !c->p.backup
      && !c->p.removes)
    c->p.how = PUT_INPLACE, c->p.why = "--attributes-only";
  return check;
}

/* Let go of what C holds; KEPT: the destination is the copy, or left
   as it is meant to be.  */
static void
end_copy (struct one_copy *c, bool kept)
{
  const struct dest *d = c->d;
  /* Failed: the destination stays without a backup, as cp renames its
     backup back.  */
  if (!kept && c->p.backup)
    dest_unbackup (d->dirfd, d->name, d->display, c->p.backup);
  /* Failed: the next name of the file copies it.  */
  if (c->claimed)
    copy_link_drop (c->st.st_dev, c->st.st_ino);
  if (c->old_fd >= 0)
    sys_close (c->old_fd);
  put_release (&c->p);
  if (c->in_fd >= 0)
    sys_close (c->in_fd);
}

/* Copy the regular file (or, at the top without -r, anything readable)
   NAME of SRC_DIRFD, displayed as SRC, to D.  IN_TREE: found by the walk,
   listed with inode LISTED_INO (0: unknown), never followed.  */
void
copy_file (const struct copy_options *x, int src_dirfd, const char *name,
           const char *src, uint64_t listed_ino, bool in_tree,
           const struct dest *d)
{
  /* -l, -s: nothing is opened, not even the source.  */
  if (x->link != COPY_LINK_NONE)
    {
      copy_file_link (x, src_dirfd, name, src, !in_tree, d);
      return;
    }
  struct one_copy c = { .x = x, .d = d, .src = src, .in_fd = -1,
                        .p = { .own_dirfd = -1 }, .out_fd = -1,
                        .old_fd = -1 };
  /* The destination is the copy, or left as it is meant to be.  */
  bool kept = false;
  if (!open_source (&c, src_dirfd, name, listed_ino, in_tree))
    goto out;
  int check = look_at_dest (&c);
  /* -L makes one file of every name a tree has for it, links too, as
     cp -L does: each is looked up whatever its link count; -H (and no
     -r) as much of the operands, the names it follows.  */
  bool track = x->preserve.links && d->link_path
               && (c.st.st_nlink > 1 || x->deref == COPY_DEREF_ALWAYS
                   || (!in_tree && copy_follows_operand (x)));
  if (done_by_link (&c, check, track))
    {
      kept = true;
      goto out;
    }
  if (!open_copy (&c))
    goto out;
  bool short_read = false;
  if (!x->attributes_only
      && !copy_data (x, c.in_fd, &c.st, c.out_fd, c.p.how != PUT_INTO,
                     c.p.dev, src, d->display, &short_read))
    goto discard;
  /* A copy of a file that changed meanwhile is not put in place, as the
     failures above are not: DST stays as it was.  One written in place
     or into a device holds what was read.  */
  if (S_ISREG (c.st.st_mode)
      && copy_source_changed (c.in_fd, &c.st, short_read))
    {
      copy_fail (0, "%s: file changed as we read it", src);
      goto discard;
    }
  if (!finish_copy (&c))
    goto discard;
  if (x->record_made && c.p.how != PUT_INTO)
    {
      struct stat now;
      if (sys_fstat (c.out_fd, &now) == 0)
        copy_made_add (x, now.st_dev, now.st_ino);
    }
  if (track)
    {
      copy_link_add (c.st.st_dev, c.st.st_ino, d->link_path);
      c.claimed = false;
    }
  copy_tell_replaced (x, src, d->display, c.p.backup, c.p.removes, true);
  kept = true;
discard:
  if (c.p.how == PUT_NEW || c.p.how == PUT_REPLACE)
    install_discard_tmp (c.out_fd, c.p.dirfd, c.named);
  else
    sys_close (c.out_fd);
out:
  end_copy (&c, kept);
}
