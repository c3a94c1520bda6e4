/* copy/dest.c -- what a copy does about what is at its destination.  */

#include <config.h>

#include "copy/dest.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/progress.h"
#include "copy/backup.h"
#include "copy/install.h"
#include "copy/msg.h"
#include "copy/options.h"
#include "dirname.h"
#include "progname.h"
#include "same-inode.h"
#include "sys/calls.h"
#include "xalloc.h"
#include "yesno.h"

/* MODE's permission bits as ls shows them, set-ID and sticky bits with
   them, in BUF.  */
static void
mode_letters (mode_t mode, char buf[10])
{
  static const char rwx[] = "rwxrwxrwx";
  for (int i = 0; i < 9; i++)
    buf[i] = mode & (0400 >> i) ? rwx[i] : '-';
  static const struct { mode_t bit; int at; char set, unset; } special[] = {
    { S_ISUID, 2, 's', 'S' }, { S_ISGID, 5, 's', 'S' },
    { S_ISVTX, 8, 't', 'T' },
  };
  for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
    if (mode & special[i].bit)
      buf[special[i].at] = buf[special[i].at] == '-' ? special[i].unset
                                                     : special[i].set;
  buf[9] = '\0';
}

/* Whether this user may write NAME of DIRFD, by the effective IDs as cp
   asks.  */
static bool
may_write (int dirfd, const char *name)
{
  return sys_faccessat_effective (dirfd, name, W_OK) == 0;
}

/* -i: ask on standard error about DST (ST; NAME in DIRFD), answer from
   standard input (gnulib yesno reads the whole line).  A file this user
   may not write is said to be so, as cp says it: with -f or
   --remove-destination it is replaced all the same, else "tried".  */
static bool
ask_overwrite (const struct copy_options *o, const char *dst,
               const struct stat *st, int dirfd, const char *name)
{
  progress_clear_shown ();
  if (o->is_root || S_ISLNK (st->st_mode) || may_write (dirfd, name))
    fprintf (stderr, "%s: overwrite %s? ", program_name, quote_msg (dst));
  else
    {
      char letters[10];
      mode_letters (st->st_mode, letters);
      unsigned long bits = st->st_mode & 07777;
      if (o->force || o->remove_dest)
        fprintf (stderr, "%s: replace %s, overriding mode %04lo (%s)? ",
                 program_name, quote_msg (dst), bits, letters);
      else
        fprintf (stderr, "%s: unwritable %s (mode %04lo, %s); try anyway? ",
                 program_name, quote_msg (dst), bits, letters);
    }
  fflush (stderr);
  return yesno ();
}

/* A destination DST left as it is: --debug says so on standard output,
   as cp does.  FAILED (-i answered no): the exit status is failure,
   without a message.  */
static void
leave_existing (const struct copy_options *o, const char *dst, bool failed)
{
  copy_msg_lock ();
  if (o->debug)
    {
      progress_clear_shown ();
      fprintf (copy_tell_stream (o), "skipped %s\n", quote_file (dst));
    }
  if (failed)
    cli_status = EXIT_FAILURE;
  copy_msg_unlock ();
}

/* may_replace, DST being NAME in DIRFD (for -i's question); SAME_OK:
   DST may be the source (see removable_source).  */
static int
decide (const struct copy_options *o, const struct stat *src_st,
        const struct stat *dst_st, const char *src, const char *dst,
        int dirfd, const char *name, bool same_ok)
{
  bool dir = S_ISDIR (src_st->st_mode);
  /* Left before anything is looked at, even the same file, as cp.  */
  if (!dir && o->update == COPY_UPDATE_NONE_FAIL)
    {
      copy_fail (0, "not replacing %s", dst);
      return -1;
    }
  if (!dir && o->update == COPY_UPDATE_NONE)
    {
      leave_existing (o, dst, false);
      return 0;
    }
  if (!same_ok && o->backup == BACKUP_NONE
      && SAME_INODE (*src_st, *dst_st))
    {
      copy_fail2 (0, "%s and %s are the same file", src, dst);
      return -1;
    }
  if (!dir && o->update == COPY_UPDATE_OLDER
      && (dst_st->st_mtim.tv_sec > src_st->st_mtim.tv_sec
          || (dst_st->st_mtim.tv_sec == src_st->st_mtim.tv_sec
              && dst_st->st_mtim.tv_nsec >= src_st->st_mtim.tv_nsec)))
    {
      leave_existing (o, dst, false);
      return 0;
    }
  if (!dir && o->clobber == COPY_CLOBBER_ASK
      && !ask_overwrite (o, dst, dst_st, dirfd, name))
    {
      leave_existing (o, dst, true);
      return 0;
    }
  if (S_ISDIR (dst_st->st_mode) && !dir)
    {
      copy_fail2 (0, "cannot overwrite directory %s with non-directory %s",
                  dst, src);
      return -1;
    }
  return 1;
}

/* What to do about the existing DST (DST_ST, followed through a
   symbolic link) before copying SRC (SRC_ST) over it: 1 to go on, 0 to
   leave it, -1 after a reported error.  --update=none and none-fail
   leave it before anything; the same file is refused before -i asks, a
   directory after, as cp does.  */
int
may_replace (const struct copy_options *o, const struct stat *src_st,
             const struct stat *dst_st, const char *src, const char *dst)
{
  return decide (o, src_st, dst_st, src, dst, AT_FDCWD, dst, false);
}

void
put_release (struct put *p)
{
  if (p->own_dirfd >= 0)
    sys_close (p->own_dirfd);
  free (p->own_name);
  free (p->backup);
}

static bool have_proc;
static dev_t proc_dev;

static void
find_proc (void)
{
  struct stat proc;
  have_proc = sys_fstatat (AT_FDCWD, "/proc/self", &proc,
                           AT_SYMLINK_NOFOLLOW) == 0;
  proc_dev = proc.st_dev;
}

/* Whether the symbolic link ST is one of /proc's (/proc/self/fd/1, which
   /dev/stdout names): such a link leads to an open file, not to the
   path its text shows.  */
static bool
proc_link (const struct stat *st)
{
  /* Asked once, by whichever thread comes first (xcp -j).  */
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once (&once, find_proc);
  return have_proc && st->st_dev == proc_dev;
}

/* Follow the symbolic link NAME of DIRFD, and the links it leads to, to
   the entry named at last, as open would: P's dirfd becomes the
   directory that holds it, P's name its name there, P's st its status.
   Return 0; 1 if a link of /proc is met on the way (see proc_link);
   -ENOENT if that entry does not exist (a dangling link; P is set for
   creating it, unless P's name is NULL: the link ends in "/", ".", or
   ".."); or another -errno.  */
static int
follow_dest_link (int dirfd, const char *name, struct put *p)
{
  char *target = NULL;
  size_t size = 256;
  int ret = -ELOOP;
  for (int hops = 0; hops < 40; hops++)
    {
      ssize_t n;
      for (;;)
        {
          target = xrealloc (target, size);
          n = sys_readlinkat (dirfd, name, target, size);
          if (n < 0 || (size_t) n < size)
            break;
          size *= 2;
        }
      if (n < 0)
        {
          ret = n;
          break;
        }
      target[n] = '\0';
      char *slash = strrchr (target, '/');
      const char *base = slash ? slash + 1 : target;
      if (!*base || strcmp (base, ".") == 0 || strcmp (base, "..") == 0)
        {
          /* It names a directory, if anything: no file to make.  */
          ret = sys_fstatat (dirfd, name, &p->st, 0);
          p->name = NULL;
          break;
        }
      int up;
      if (!slash)
        up = sys_openat (dirfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
      else
        {
          *slash = '\0';
          up = sys_openat (dirfd, slash == target ? "/" : target,
                           O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
        }
      if (up < 0)
        {
          ret = up;
          break;
        }
      char *next = xstrdup (base);
      if (p->own_dirfd >= 0)
        sys_close (p->own_dirfd);
      free (p->own_name);
      p->own_dirfd = up;
      p->own_name = next;
      p->dirfd = dirfd = up;
      p->name = name = next;
      ret = sys_fstatat (dirfd, name, &p->st, AT_SYMLINK_NOFOLLOW);
      if (ret < 0 || !S_ISLNK (p->st.st_mode))
        break;
      if (proc_link (&p->st))
        {
          ret = 1;
          break;
        }
      ret = -ELOOP;
    }
  free (target);
  return ret;
}

/* Follow the symbolic link D's name (P's st) to what P's name becomes,
   as open(2) in cp would: the file it names is written, the link kept;
   a link of /proc is written through, in place.  Return 1 to go on with
   P's st set to what is there, 2 to go on with nothing there (a new file
   where a dangling link points, under POSIXLY_CORRECT), 3 to replace the
   link itself (FORCE, -f, and a loop of links: cp's open fails, it
   removes the link and tries again), or -1 after a reported error.  */
static int
through_link (const struct dest *d, bool force, struct put *p)
{
  int ret;
  if (!proc_link (&p->st))
    {
      ret = follow_dest_link (d->dirfd, d->name, p);
      if (ret == -ENOENT && p->name && getenv ("POSIXLY_CORRECT"))
        {
          /* POSIX: a new file where the link points.  */
          struct stat dir;
          p->dev = sys_fstat (p->dirfd, &dir) == 0 ? dir.st_dev : d->dev;
          return 2;
        }
      if (ret == -ENOENT)
        {
          copy_fail (0, "not writing through dangling symlink %s",
                     d->display);
          return -1;
        }
      if (ret == -ELOOP && force)
        {
          put_release (p);
          *p = (struct put) { .dirfd = d->dirfd, .name = d->name,
                              .dev = d->dev, .own_dirfd = -1 };
          ret = sys_fstatat (d->dirfd, d->name, &p->st, AT_SYMLINK_NOFOLLOW);
          if (ret == 0)
            return 3;
        }
      if (ret < 0)
        {
          copy_fail (-ret, "cannot stat %s", d->display);
          return -1;
        }
      if (ret == 1)
        {
          put_release (p);
          *p = (struct put) { .dirfd = d->dirfd, .name = d->name,
                              .own_dirfd = -1, .st = p->st };
        }
    }
  if (S_ISLNK (p->st.st_mode))
    {
      /* /dev/stdout and the like: a link of /proc names an open file,
         which may have no name (a pipe, a deleted file) or be held open
         by whoever gave it: written through the link, in place.  */
      ret = sys_fstatat (d->dirfd, d->name, &p->st, 0);
      if (ret < 0)
        {
          copy_fail (-ret, "cannot open %s for writing", d->display);
          return -1;
        }
      p->follow = true;
    }
  return 1;
}

/* How the copy takes the place of the existing P.  Replaced whole, a
   file keeps its owner, mode and ACL (set_file_attrs) but would lose the
   names that are not this one, and an owner this user cannot give: those
   are written in place, as cp writes.  Where cp removes the file first
   (--preserve=links and other names; -f and no permission to write it),
   the copy is a new file, still put in place atomically.  */
static void
choose_how (const struct copy_options *o, struct put *p)
{
  if (!S_ISREG (p->st.st_mode))
    p->how = PUT_INTO;
  else if (p->follow)
    p->how = PUT_INPLACE, p->why = "it is reached through /proc";
  else if (p->st.st_nlink > 1 && o->preserve.links)
    p->how = PUT_REPLACE, p->anew = true;
  else if (o->inplace)
    p->how = PUT_INPLACE, p->why = "--inplace";
  else if (p->st.st_nlink > 1)
    p->how = PUT_INPLACE, p->why = "it has other hard links";
  else if (!o->is_root && p->st.st_uid != o->euid)
    p->how = PUT_INPLACE, p->why = "it belongs to another user";
  else if (!o->is_root && p->st.st_gid != o->egid
           && !group_member (p->st.st_gid))
    p->how = PUT_INPLACE, p->why = "its group is not one of this user's";
  else
    {
      p->how = PUT_REPLACE;
      /* Our own file: its owner's bits alone say whether cp could open
         it for writing (an ACL does not apply to the owner).  */
      p->anew = o->force && !o->is_root && !(p->st.st_mode & S_IWUSR);
    }
}

/* Whether the source SRC (ST), the same file as D's name, may still be
   copied there by --remove-destination, as cp finds: where it is another
   name of that file (the copy is read from SRC, then takes D's name),
   not where SRC is a symbolic link to it or that very name.  */
static bool
removable_source (const char *src, const struct stat *st,
                  const struct dest *d)
{
  struct stat link;
  return sys_fstatat (AT_FDCWD, src, &link, AT_SYMLINK_NOFOLLOW) == 0
         && SAME_INODE (link, *st) && st->st_nlink >= 2
         && !same_entry (AT_FDCWD, src, d->dirfd, d->name);
}

/* check_dest with --remove-destination, P's st D's entry unfollowed: as
   cp removes it before it makes its copy, the copy is a new file that
   takes the name, in place of a symbolic link itself (never written
   through), of a FIFO or device (never written into).  */
static int
remove_dest (const struct copy_options *o, const struct stat *st,
             const char *src, const struct dest *d, struct put *p)
{
  bool same_ok = SAME_INODE (*st, p->st) && removable_source (src, st, d);
  int go = decide (o, st, &p->st, src, d->display, p->dirfd, p->name,
                   same_ok);
  if (go <= 0)
    return go;
  p->dev = d->dev;
  put_anew (d, p);
  p->removes = true;
  return 1;
}

bool
same_entry (int dirfd, const char *name, int dirfd2, const char *name2)
{
  const char *base = last_component (name);
  const char *base2 = last_component (name2);
  size_t len = base_len (base);
  if (base_len (base2) != len || strncmp (base, base2, len) != 0)
    return false;
  char *dir = ximemdup0 (name, base - name);
  char *dir2 = ximemdup0 (name2, base2 - name2);
  struct stat a, b;
  bool same = sys_fstatat (dirfd, *dir ? dir : ".", &a, 0) == 0
              && sys_fstatat (dirfd2, *dir2 ? dir2 : ".", &b, 0) == 0
              && SAME_INODE (a, b);
  free (dir);
  free (dir2);
  return same;
}

int
dest_backup (const struct copy_options *o, int dirfd, const char *name,
             const char *display, char **backup)
{
  char *made;
  int ret = backup_make (dirfd, name, o->backup, o->backup_suffix, &made);
  if (ret < 0)
    {
      copy_fail_rename (-ret, "cannot backup %s", display);
      return -1;
    }
  size_t dir_len = last_component (display) - display;
  *backup = xmalloc (dir_len + strlen (made) + 1);
  memcpy (*backup, display, dir_len);
  strcpy (*backup + dir_len, made);
  free (made);
  return 0;
}

void
dest_unbackup (int dirfd, const char *name, const char *display,
               const char *backup)
{
  const char *made = backup + (last_component (display) - display);
  struct stat now, kept;
  if (sys_fstatat (dirfd, name, &now, AT_SYMLINK_NOFOLLOW) == 0
      && sys_fstatat (dirfd, made, &kept, AT_SYMLINK_NOFOLLOW) == 0
      && SAME_INODE (now, kept))
    sys_unlinkat (dirfd, made, 0);
}

/* With --backup: whether SRC (ST, followed or not) may be copied over
   D's DST_ST (not followed), as cp's backups allow: where it is the same
   entry, not; where SRC is a symbolic link followed to the file that is
   there, not either (the backup would leave it dangling in cp).  */
static bool
backup_same_ok (const struct stat *st, const char *src, const struct dest *d,
                const struct stat *dst_st)
{
  struct stat l;
  if (!SAME_INODE (*st, *dst_st)
      || sys_fstatat (AT_FDCWD, src, &l, AT_SYMLINK_NOFOLLOW) < 0)
    return true;
  if (!SAME_INODE (l, *dst_st))
    return !S_ISLNK (l.st_mode) || S_ISLNK (dst_st->st_mode);
  return !same_entry (AT_FDCWD, src, d->dirfd, d->name);
}

/* The copy of SRC to D with --backup, what is there (P's st) not being a
   directory: it gets a backup, and P replaces it by a new file.  As
   check_dest returns.  */
static int
backup_dest (const struct copy_options *o, const struct stat *st,
             const char *src, const struct dest *d, struct put *p)
{
  if (!backup_same_ok (st, src, d, &p->st))
    {
      copy_fail2 (0, "%s and %s are the same file", src, d->display);
      return -1;
    }
  int go = decide (o, st, &p->st, src, d->display, p->dirfd, p->name,
                   true);
  if (go <= 0)
    return go;
  /* The backup's name would be the source's: cp refuses, its backup
     (a rename) being the source's end.  */
  const char *base = last_component (src);
  const char *suffix = backup_suffix (o->backup_suffix);
  size_t len = strlen (d->name);
  struct stat was;
  if (o->backup != BACKUP_NUMBERED && strncmp (base, d->name, len) == 0
      && strcmp (base + len, suffix) == 0)
    {
      char *name = xmalloc (len + strlen (suffix) + 1);
      strcpy (stpcpy (name, d->name), suffix);
      bool is_src = sys_fstatat (d->dirfd, name, &was, 0) == 0
                    && SAME_INODE (was, *st);
      free (name);
      if (is_src)
        {
          copy_fail2 (0, "backing up %s might destroy source;  %s not copied",
                      d->display, src);
          return -1;
        }
    }
  if (dest_backup (o, d->dirfd, d->name, d->display, &p->backup) < 0)
    return -1;
  p->dev = p->st.st_dev;
  put_anew (d, p);
  return 1;
}

int
check_dest (const struct copy_options *o, const struct stat *st,
            const char *src, const struct dest *d, struct put *p)
{
  *p = (struct put) { .how = PUT_NEW, .dirfd = d->dirfd, .name = d->name,
                      .dev = d->dev, .own_dirfd = -1 };
  if (d->fresh)
    return 1;
  int ret = sys_fstatat (d->dirfd, d->name, &p->st, AT_SYMLINK_NOFOLLOW);
  if (ret == -ENOENT)
    return 1;
  if (ret < 0)
    {
      copy_fail (-ret, "cannot stat %s", d->display);
      return -1;
    }
  /* A numbered backup keeps it: cp lets it be replaced then.  */
  if (d->made_here && o->backup != BACKUP_NUMBERED
      && d->made_here (o, &p->st))
    {
      if (S_ISLNK (p->st.st_mode))
        copy_fail2 (0, "will not copy %s through just-created symlink %s",
                    src, d->display);
      else
        copy_fail2 (0, "will not overwrite just-created %s with %s",
                    d->display, src);
      return -1;
    }
  if (o->backup != BACKUP_NONE && !S_ISDIR (p->st.st_mode))
    return backup_dest (o, st, src, d, p);
  if (o->remove_dest)
    return remove_dest (o, st, src, d, p);
  bool loop = false;
  if (S_ISLNK (p->st.st_mode))
    {
      ret = through_link (d, o->force, p);
      loop = ret == 3;
      if (ret != 1 && !loop)
        return ret < 0 ? -1 : 1;
    }
  int go = decide (o, st, &p->st, src, d->display, p->dirfd, p->name,
                   false);
  if (go <= 0)
    return go;
  if (loop)
    {
      put_anew (d, p);
      return 1;
    }
  p->dev = p->st.st_dev;
  choose_how (o, p);
  if (p->anew)
    put_anew (d, p);
  return 1;
}

void
put_anew (const struct dest *d, struct put *p)
{
  p->how = PUT_REPLACE;
  p->anew = true;
  /* cp removes the name it was given: reached through a symbolic link,
     the link; the file it names, and that file's other names, stay.  */
  if (p->own_dirfd >= 0)
    {
      p->dirfd = d->dirfd;
      p->name = d->name;
      p->dev = d->dev;
    }
}

/* Make P's name a hard link to FIRST (relative to BASE): a new name, or
   in place of what is there through a temporary name renamed over it, so
   that the name never goes missing.  */
int
link_over (int base, const char *first, const struct put *p)
{
  if (p->how == PUT_NEW)
    {
      int ret = SYS_RETRY_EINTR (sys_linkat (base, first, p->dirfd, p->name,
                                             0));
      if (ret != -EEXIST)
        return ret;
    }
  /* Already a link of it: renaming one name of an inode over another
     would do nothing and leave the temporary name.  What is there is
     looked at now: P's status is not filled in where check_dest said to
     leave it (-u, up to date), nor where a name was taken meanwhile.  */
  struct stat fst, nst;
  if (sys_fstatat (base, first, &fst, AT_SYMLINK_NOFOLLOW) == 0
      && sys_fstatat (p->dirfd, p->name, &nst, AT_SYMLINK_NOFOLLOW) == 0
      && SAME_INODE (fst, nst))
    return 0;
  return install_link (base, first, p->dirfd, p->name);
}

