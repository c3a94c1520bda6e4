/* copy/attrs.h -- what a copy is given besides its data: owner, mode,
   ACLs, extended attributes and times, as cp gives them.

   With --preserve, a copy gets the source's attributes that were asked
   for; without, a new file gets the source's permissions less the umask
   and a file that replaces another (written in place, or replaced whole)
   keeps that file's owner, mode, ACL and extended attributes, as cp's
   write in place leaves them: not its set-user-ID bit, nor set-group-ID
   with group execution, unless root (the kernel drops them on a write),
   nor the attributes of its contents (security.capability, security.ima,
   security.evm: see bound_to_contents).  With --preserve=xattr it keeps
   only its ACLs, the source's attributes taking the place of the others.
   The POSIX ACLs go with the mode: --preserve=xattr
   alone leaves them out.  set-user-ID and set-group-ID are kept only where
   the owner is the source's (they would grant another user's rights).

   Failures are reported (copy_fail) and the copy goes on, as cp does,
   except where set_file_attrs says otherwise.  Extended attributes the
   destination refuses are told as by cp: with --preserve=xattr named,
   each is a failure (a file system without any, once: "setting
   attributes for DST"); with -a, none is told; else (--preserve=all, and
   the ACLs and a replaced file's own attributes always) those refused
   for lack of support or permission (trusted.* as a user) are left out
   quietly, and the others told (a failure, except --preserve=all's).  */

#ifndef NC_COPY_ATTRS_H
#define NC_COPY_ATTRS_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

struct copy_options;

/* What the copy of a regular file is given besides its data.  */
struct file_attrs
{
  int in_fd;
  const struct stat *st;        /* the source */
  int old_fd;                   /* the file replaced, or -1 */
  const struct stat *old;       /* its status (replaced), or NULL */
  mode_t made_mode;             /* created with; (mode_t) -1: in place */
  bool inherits_acl;            /* made in a directory with a default ACL */
  bool group_of_dir;            /* made new in a set-group-ID directory */
};

/* Give the copy OUT_FD (displayed as DST) the attributes O's --preserve
   asks to keep of the source and, when it replaces a file, the rest of
   that file's: owner, mode, ACL and extended attributes.  Return false,
   after reporting it, if the copy cannot be given the owner of the file
   it replaces: the caller then leaves that file as it is.  */
bool set_file_attrs (const struct copy_options *o, int out_fd,
                     const struct file_attrs *a, const char *dst);

/* Give the entry NAME of DIRFD (not a regular file; displayed as DST),
   made with MADE_MODE ((mode_t) -1: it was there before), the attributes
   O keeps of ST, without following a symbolic link.  INHERITED: the mode
   bits it got from its parent (a directory's set-group-ID), which a copy
   without --preserve=mode keeps, as mkdir gave them.  */
void set_entry_attrs (const struct copy_options *o, int dirfd,
                      const char *name, const struct stat *st,
                      const char *dst, mode_t made_mode, mode_t inherited);

/* Whether directory DIRFD (which may be an O_PATH descriptor) has a
   default ACL, which files made in it inherit.  Where it cannot be told,
   true: that costs a removexattr per file, never a wrong ACL.  */
bool dir_has_default_acl (int dirfd);

/* The same for the directory open as FD (not O_PATH).  */
bool has_default_acl (int fd);

/* Remove from FD (a directory if DIR) the POSIX ACLs that are not in
   KEEP_ACLS (ACL_ACCESS_BIT, ACL_DEFAULT_BIT): a copy made in a directory
   with a default ACL inherits one, where the source it must match has
   none.  Failures are reported about DST.  */
enum { ACL_ACCESS_BIT = 1, ACL_DEFAULT_BIT = 2 };
void drop_acls (int fd, bool dir, unsigned int keep_acls, const char *dst);

/* Which extended attributes copy_xattrs copies.  */
enum xattr_set
{
  XATTRS_ALL,
  XATTRS_NO_ACL,
  XATTRS_ACL,
  XATTRS_KEPT_BY_WRITE,         /* what a replaced file keeps of itself:
                                   all but those of its contents */
};

/* Copy the extended attributes of SET from IN_FD to OUT_FD (displayed as
   DST); return the ACL_*_BIT of the ACLs copied.  */
unsigned int copy_xattrs (int in_fd, int out_fd, enum xattr_set set,
                          const char *dst);

/* Copy from IN_FD to OUT_FD (displayed as DST) the extended attributes O
   keeps: all with --preserve=xattr (the ACLs only with mode too), the
   ACLs alone with --preserve=mode; return the ACL_*_BIT of the ACLs
   copied.  */
unsigned int copy_kept_xattrs (const struct copy_options *o, int in_fd,
                               int out_fd, const char *dst);

/* The mode a copy of MODE gets without --preserve=mode, as cp gives a new
   one: the permissions less UMASK_BITS, and a directory's sticky bit.  */
mode_t plain_mode (mode_t mode, mode_t umask_bits);

/* The mode to give a copy of SRC with --preserve=mode, now owned by UID
   and GID: set-user-ID and set-group-ID only where the owner is the
   source's.  */
mode_t kept_mode (const struct stat *src, uid_t uid, gid_t gid);

/* The permissions a directory's copy is made with, for MODE, until its
   attributes come once its entries are in: writable and searchable by
   us; not writable by group and others meanwhile, nor open to them at
   all where its owner is to change (cp's, as a race with them would
   otherwise reach the files going in).  */
mode_t dir_made_mode (const struct copy_options *o, mode_t mode);

#endif
