/* copy/attrs.c -- what a copy is given besides its data.  */

#include <config.h>

#include "copy/attrs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "copy/msg.h"
#include "copy/options.h"
#include "error.h"
#include "sys/calls.h"
#include "xalloc.h"

#define ACL_ACCESS "system.posix_acl_access"
#define ACL_DEFAULT "system.posix_acl_default"
static unsigned int
acl_bit (const char *name)
{
  return strcmp (name, ACL_ACCESS) == 0 ? ACL_ACCESS_BIT
         : strcmp (name, ACL_DEFAULT) == 0 ? ACL_DEFAULT_BIT : 0;
}

/* Whether NAME is an attribute of a file's contents rather than of the
   file, which a file replaced does not pass to new contents: a write in
   place keeps every other one (user.*, trusted.*, the security labels).
   security.capability grants privileges to what the file holds (the
   kernel removes it on a write); security.ima and security.evm are a
   hash and a signature of the old contents.  */
static bool
bound_to_contents (const char *name)
{
  return strcmp (name, "security.capability") == 0
         || strcmp (name, "security.ima") == 0
         || strcmp (name, "security.evm") == 0;
}

static bool
xattr_wanted (const char *name, enum xattr_set set)
{
  switch (set)
    {
    case XATTRS_ALL:
      return true;
    case XATTRS_NO_ACL:
      return !acl_bit (name);
    case XATTRS_ACL:
      return acl_bit (name);
    case XATTRS_KEPT_BY_WRITE:
      return !bound_to_contents (name);
    }
  return false;
}

/* How an attribute the copy cannot be given is told.  */
enum xattr_report
{
  /* Those the destination refuses (EPERM for trusted.* as a user,
     EOPNOTSUPP on a file system without them) left out quietly, as cp
     -a leaves them; another error a failure.  */
  XATTR_REPORT_USUAL,
  XATTR_REPORT_REQUIRED,        /* every error a failure */
  XATTR_REPORT_WARN,            /* all but EOPNOTSUPP, not a failure */
  XATTR_REPORT_NONE,
};

/* Tell, as REPORT says, that the attribute NAME could not be given to
   DST (-ERR).  */
static void
xattr_refused (enum xattr_report report, int err, const char *name,
               const char *dst)
{
  if (report == XATTR_REPORT_REQUIRED
      || (report == XATTR_REPORT_USUAL && err != EPERM && err != EOPNOTSUPP
          && err != EACCES))
    copy_fail2 (err, "setting attribute %s for %s", name, dst);
  else if (report == XATTR_REPORT_WARN && err != EOPNOTSUPP)
    {
      copy_msg_lock ();
      error (0, err, "setting attribute %s for %s", quote_msg (name),
             quote_msg2 (dst));
      copy_msg_unlock ();
    }
}

/* Copy the extended attributes of SET from IN_FD to OUT_FD; return the
   ACL_*_BIT of the ACLs copied.  Those the destination refuses are told
   as REPORT says, the ACLs as XATTR_REPORT_USUAL (cp copies them with the
   mode, where a file system without them is no error).  A file system
   without extended attributes, where an error, is told once: cp's
   "setting attributes".  */
static unsigned int
copy_xattrs_told (int in_fd, int out_fd, enum xattr_set set,
                  const char *dst, enum xattr_report report)
{
  bool unsupported = false;
  char small[1024];
  char *list = small;
  unsigned int acls = 0;
  ssize_t len = sys_flistxattr (in_fd, list, sizeof small);
  if (len == -ERANGE)
    {
      len = sys_flistxattr (in_fd, NULL, 0);
      if (len > 0)
        {
          list = xmalloc (len);
          len = sys_flistxattr (in_fd, list, len);
        }
    }
  if (len <= 0)
    goto out;
  char *value = NULL;
  size_t value_size = 0;
  for (char *name = list; name < list + len; name += strlen (name) + 1)
    {
      if (!xattr_wanted (name, set))
        continue;
      ssize_t n = sys_fgetxattr (in_fd, name, NULL, 0);
      if (n < 0)
        continue;
      if ((size_t) n > value_size)
        {
          free (value);
          value_size = n;
          value = xmalloc (value_size ? value_size : 1);
        }
      n = sys_fgetxattr (in_fd, name, value, value_size);
      if (n < 0)
        continue;
      int ret = sys_fsetxattr (out_fd, name, value, n, 0);
      if (ret == 0)
        acls |= acl_bit (name);
      else if (acl_bit (name))
        xattr_refused (XATTR_REPORT_USUAL, -ret, name, dst);
      else if (ret == -EOPNOTSUPP && report == XATTR_REPORT_REQUIRED)
        unsupported = true;
      else
        xattr_refused (report, -ret, name, dst);
    }
  free (value);
  if (unsupported)
    copy_fail (EOPNOTSUPP, "setting attributes for %s", dst);
out:
  if (list != small)
    free (list);
  return acls;
}

unsigned int
copy_xattrs (int in_fd, int out_fd, enum xattr_set set, const char *dst)
{
  return copy_xattrs_told (in_fd, out_fd, set, dst, XATTR_REPORT_USUAL);
}

/* Remove from FD (a directory if DIR) the ACLs that are not in KEEP: a
   copy made in a directory with a default ACL inherits one, where the
   source it must match has none.  */
void
drop_acls (int fd, bool dir, unsigned int keep_acls, const char *dst)
{
  for (unsigned int bit = ACL_ACCESS_BIT; bit <= ACL_DEFAULT_BIT; bit <<= 1)
    {
      if ((keep_acls & bit) || (bit == ACL_DEFAULT_BIT && !dir))
        continue;
      int ret = sys_fremovexattr (fd, bit == ACL_ACCESS_BIT ? ACL_ACCESS
                                                            : ACL_DEFAULT);
      if (ret < 0 && ret != -ENODATA && ret != -EOPNOTSUPP)
        copy_fail (-ret, "cannot remove the inherited ACL of %s", dst);
    }
}

/* Whether directory FD has a default ACL, which files made in it
   inherit.  Where it cannot be told, yes: that costs a removexattr per
   file, never a wrong ACL.  */
bool
has_default_acl (int fd)
{
  ssize_t n = sys_fgetxattr (fd, ACL_DEFAULT, NULL, 0);
  return n != -ENODATA && n != -EOPNOTSUPP;
}

/* The same for directory DIRFD, which may be an O_PATH descriptor.  */
bool
dir_has_default_acl (int dirfd)
{
  int fd = sys_openat (dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0)
    return true;
  bool yes = has_default_acl (fd);
  sys_close (fd);
  return yes;
}

/* The timestamps of ST, for utimensat.  */
static void
times_of (const struct stat *st, struct timespec ts[2])
{
  ts[0] = st->st_atim;
  ts[1] = st->st_mtim;
}

/* The mode a copy gets without --preserve=mode, as cp gives a new one:
   the source's permissions less the umask, and a directory's sticky
   bit.  */
mode_t
plain_mode (mode_t mode, mode_t umask_bits)
{
  return mode & (S_ISDIR (mode) ? 0777 | S_ISVTX : 0777) & ~umask_bits;
}

/* The mode a new copy of MODE is made from without --preserve=mode:
   the source's, or with --no-preserve=mode (O's default_mode) the
   default permissions of its type, as cp gives them.  */
static mode_t
made_from (const struct copy_options *o, mode_t mode)
{
  if (!o->default_mode)
    return mode;
  return (mode & S_IFMT)
         | (S_ISDIR (mode) || S_ISSOCK (mode) ? 0777 : 0666);
}

/* The mode to give a copy of SRC_MODE with --preserve=mode, now owned by
   UID and GID: set-user-ID and set-group-ID only where the owner is the
   source's, as cp does (they would grant another user's rights).  */
mode_t
kept_mode (const struct stat *src, uid_t uid, gid_t gid)
{
  mode_t want = src->st_mode & 07777;
  if (uid != src->st_uid || gid != src->st_gid)
    want &= ~(mode_t) (S_ISUID | S_ISGID);
  return want;
}

/* The mode of the file of mode MODE once this process wrote into it:
   without CAP_FSETID (not root), the kernel drops set-user-ID, and
   set-group-ID where the group may execute it.  A copy that replaces
   the file gets no more than a write in place would leave it.  */
static mode_t
written_mode (const struct copy_options *o, mode_t mode)
{
  mode &= 07777;
  if (!o->is_root)
    {
      mode &= ~(mode_t) S_ISUID;
      if (mode & S_IXGRP)
        mode &= ~(mode_t) S_ISGID;
    }
  return mode;
}

/* Give the copy OUT_FD the owner O keeps of the source or, when it
   replaces a file, that file's; *UID and *GID become the copy's owner.
   Return false, after reporting it, if the copy cannot be given the
   owner of the file it replaces.  */
static bool
set_file_owner (const struct copy_options *o, int out_fd,
                const struct file_attrs *a, const char *dst, uid_t *uid,
                gid_t *gid)
{
  const struct stat *st = a->st;
  int ret;
  *uid = o->euid;
  *gid = o->egid;
  /* In place, the file's owner; new in a set-group-ID directory, its
     group: what a kept owner is compared with.  */
  if (a->made_mode == (mode_t) -1
      || (o->preserve.owner && a->group_of_dir))
    {
      struct stat now;
      if (sys_fstat (out_fd, &now) == 0)
        {
          *uid = now.st_uid;
          *gid = now.st_gid;
        }
    }
  if (o->preserve.owner && (st->st_uid != *uid || st->st_gid != *gid))
    {
      ret = sys_fchownat (out_fd, "", st->st_uid, st->st_gid, AT_EMPTY_PATH);
      if (ret == 0)
        {
          *uid = st->st_uid;
          *gid = st->st_gid;
        }
      /* Not root: keep the group at least, if we are in it.  */
      else if (ret == -EPERM && !o->is_root)
        {
          if (sys_fchownat (out_fd, "", (uid_t) -1, st->st_gid,
                            AT_EMPTY_PATH) == 0)
            *gid = st->st_gid;
        }
      else
        copy_fail (-ret, "cannot preserve ownership of %s", dst);
    }
  else if (!o->preserve.owner && a->old
           && (a->old->st_uid != *uid || a->old->st_gid != *gid))
    {
      ret = sys_fchownat (out_fd, "", a->old->st_uid, a->old->st_gid,
                          AT_EMPTY_PATH);
      if (ret < 0)
        {
          copy_fail (-ret, "cannot give the copy the owner of %s; it is "
                     "left as it was", dst);
          return false;
        }
      *uid = a->old->st_uid;
      *gid = a->old->st_gid;
    }
  return true;
}

unsigned int
copy_kept_xattrs (const struct copy_options *o, int in_fd, int out_fd,
                  const char *dst)
{
  const struct copy_preserve *keep = &o->preserve;
  if (keep->xattr)
    return copy_xattrs_told (in_fd, out_fd,
                             keep->mode ? XATTRS_ALL : XATTRS_NO_ACL, dst,
                             keep->xattr_required ? XATTR_REPORT_REQUIRED
                             : keep->xattr_quiet ? XATTR_REPORT_NONE
                             : XATTR_REPORT_WARN);
  if (o->preserve.mode)
    return copy_xattrs (in_fd, out_fd, XATTRS_ACL, dst);
  return 0;
}

/* Give the copy OUT_FD the ACLs (and extended attributes) O keeps of the
   source or, when it replaces a file, that file's; return the ACL_*_BIT
   of those it has.  */
static unsigned int
set_file_acls (const struct copy_options *o, int out_fd,
               const struct file_attrs *a, const char *dst)
{
  unsigned int acls = copy_kept_xattrs (o, a->in_fd, out_fd, dst);
  bool acls_exact = false;
  if (o->preserve.mode)
    acls_exact = true;
  else if (a->old_fd >= 0)
    {
      enum xattr_set old_set = o->preserve.xattr ? XATTRS_ACL
                               : XATTRS_KEPT_BY_WRITE;
      acls = copy_xattrs (a->old_fd, out_fd, old_set, dst);
      acls_exact = true;
    }
  if (acls_exact && (a->inherits_acl || a->made_mode == (mode_t) -1))
    drop_acls (out_fd, false, acls, dst);
  return acls;
}

/* Give the copy OUT_FD the attributes --preserve asks to keep of the
   source and, when it replaces a file, the rest of that file's: owner,
   mode, ACL and extended attributes, as cp's write in place leaves
   them.  */
bool
set_file_attrs (const struct copy_options *o, int out_fd,
                const struct file_attrs *a, const char *dst)
{
  const struct stat *st = a->st;
  int ret;
  uid_t uid;
  gid_t gid;
  if (!set_file_owner (o, out_fd, a, dst, &uid, &gid))
    return false;

  /* The ACLs before the mode: setting one sets the permission bits,
     which the chmod below then makes exact.  */
  unsigned int acls = set_file_acls (o, out_fd, a, dst);

  /* A new file was made with the source's permissions less the umask:
     cp's mode without --preserve=mode, unless it replaces one.  */
  mode_t want = 0;
  bool set_mode = false;
  if (o->preserve.mode)
    {
      want = kept_mode (st, uid, gid);
      set_mode = want != a->made_mode || (want & 07000) || acls
                 || a->inherits_acl;
    }
  else if (a->old && a->made_mode != (mode_t) -1)
    {
      want = written_mode (o, a->old->st_mode);
      set_mode = true;
    }
  if (set_mode)
    {
      ret = sys_fchmod (out_fd, want);
      if (ret < 0)
        copy_fail (-ret, "cannot preserve permissions of %s", dst);
    }
  if (o->preserve.times)
    {
      struct timespec ts[2];
      times_of (st, ts);
      ret = sys_utimensat (out_fd, NULL, ts, 0);
      if (ret < 0)
        copy_fail (-ret, "cannot preserve times of %s", dst);
    }
  return true;
}

/* Give the entry NAME of DIRFD (not a regular file), made with
   MADE_MODE, the attributes to keep of ST.  INHERITED: the mode bits it
   got from its parent (a directory's set-group-ID), which a copy without
   --preserve=mode keeps, as mkdir gave them.  */
void
set_entry_attrs (const struct copy_options *o, int dirfd, const char *name,
                 const struct stat *st, const char *dst, mode_t made_mode,
                 mode_t inherited)
{
  int ret;
  bool chowned = false;
  uid_t uid = o->euid;
  gid_t gid = o->egid;
  struct stat now;
  /* A new entry of a set-group-ID directory has its group.  */
  if (o->preserve.owner
      && sys_fstatat (dirfd, name, &now, AT_SYMLINK_NOFOLLOW) == 0)
    {
      uid = now.st_uid;
      gid = now.st_gid;
    }
  if (o->preserve.owner && (st->st_uid != uid || st->st_gid != gid))
    {
      ret = sys_fchownat (dirfd, name, st->st_uid, st->st_gid,
                          AT_SYMLINK_NOFOLLOW);
      if (ret == 0)
        {
          uid = st->st_uid;
          gid = st->st_gid;
        }
      else if (ret == -EPERM && !o->is_root)
        {
          ret = sys_fchownat (dirfd, name, (uid_t) -1, st->st_gid,
                              AT_SYMLINK_NOFOLLOW);
          if (ret == 0)
            gid = st->st_gid;
          else if (ret == -EPERM)
            ret = 0;
        }
      if (ret < 0)
        copy_fail (-ret, "cannot preserve ownership of %s", dst);
      chowned = ret == 0;
    }
  /* MADE_MODE -1: the entry was there before; its mode is changed only
     to keep the source's.  A directory's is always set when kept: it
     may have inherited set-group-ID from its parent.  */
  if (!S_ISLNK (st->st_mode) && (o->preserve.mode || made_mode != (mode_t) -1))
    {
      mode_t want = o->preserve.mode
                    ? kept_mode (st, uid, gid)
                    : plain_mode (made_from (o, st->st_mode), o->umask_bits)
                      | inherited;
      if (want != made_mode || (chowned && (want & 06000))
          || (o->preserve.mode && S_ISDIR (st->st_mode)))
        {
          ret = sys_fchmodat (dirfd, name, want, AT_SYMLINK_NOFOLLOW);
          if (ret < 0)
            copy_fail (-ret, "cannot preserve permissions of %s", dst);
        }
    }
  if (o->preserve.times)
    {
      struct timespec ts[2];
      times_of (st, ts);
      ret = sys_utimensat (dirfd, name, ts, AT_SYMLINK_NOFOLLOW);
      if (ret < 0 && !(ret == -EOPNOTSUPP && S_ISLNK (st->st_mode)))
        copy_fail (-ret, "cannot preserve times of %s", dst);
    }
}

mode_t
dir_made_mode (const struct copy_options *o, mode_t mode)
{
  mode_t closed = o->preserve.owner ? S_IRWXG | S_IRWXO : S_IWGRP | S_IWOTH;
  return (mode | S_IRWXU) & 0777 & ~closed;
}
