/* copy/dest.h -- what a copy does about what is at its destination, as cp.

   - --update=none (-n) leaves an existing destination, none-fail too,
     failing, before anything else (the same file included); then the
     same file as the source is refused; --update=older (-u) leaves one
     that is not older than the source; -i asks (a "no" is a failure); a
     directory is refused last.  Never for a directory source.
   - --remove-destination: what is there, but a directory, is replaced
     by a new file (PUT_REPLACE with anew), as cp removes it first: a
     symbolic link itself, a device, FIFO or socket too, never written
     through or into; the source may be another name of that file.
   - A symbolic link at the destination is written through, as open(2) in
     cp would: the file it names is written, the link kept.  A dangling
     one is refused (made, where POSIXLY_CORRECT is set); one that loops
     is refused, and with -f replaced by the copy.  A link of /proc
     (/dev/stdout) names an open file: written in place through it.
   - A device, FIFO or socket is written into, never replaced.
   - A regular file is replaced whole once the copy is complete (see
     copy/install.h), keeping its owner, mode and ACL (copy/attrs.h), except
     where a replacement could not keep what it is: other hard links, an
     owner or group this user cannot give, a directory this user cannot
     write, --inplace.  Those are written in place, as cp writes.
   - Where cp removes the file and makes a new one, the copy takes its
     name as a new file, keeping nothing of it (PUT_REPLACE with anew):
     one of other hard links with --preserve=links (the other names keep
     the old file), and with -f one this user cannot write or a
     symbolic link that loops (cp's open fails; it removes it and tries
     again).
   - An entry this run made (another operand copied to the same name) is
     never overwritten.
   - With --backup, what is at the destination, unless a directory, is
     not followed: it gets a backup (copy/backup.h; a symbolic link, a device
     too) and is replaced by a new file, as cp renames it away and makes
     a new one.  The same file is refused only under the same name, or
     where the source is a symbolic link to what is there, as cp does.
     A copy that fails then removes the backup (dest_unbackup), as cp
     renames it back.

   Failures are reported (copy/msg.h) before the functions return -1.  */

#ifndef NC_COPY_DEST_H
#define NC_COPY_DEST_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

struct copy_options;
struct copy_tree;
struct walk;

/* Where a copy goes: NAME in DIRFD (device DEV), DISPLAY in messages.
   FRESH: DIRFD was made by this run, so NAME cannot exist yet.  */
struct dest
{
  int dirfd;
  dev_t dev;
  const char *name;
  const char *display;
  bool fresh;
  bool inherits_acl;    /* DIRFD has a default ACL */
  bool group_of_dir;    /* DIRFD is set-group-ID: new files get its group */
  /* Whether this run made ST (another operand copied to the same name):
     such an entry is never overwritten.  NULL: none is.  */
  bool (*made_here) (const struct copy_options *o, const struct stat *st);
  /* In a tree with --preserve=links: the copy's path relative to the
     directory LINK_BASE, recorded for the file's other names (see
     copy_link_claim); NULL elsewhere.  */
  int link_base;
  const char *link_path;
};

/* How a copy takes the place of what is at its destination.  */
enum put_how
{
  PUT_NEW,              /* nothing there: a new name */
  PUT_REPLACE,          /* a regular file, replaced whole once complete */
  PUT_INPLACE,          /* a regular file, truncated and written over */
  PUT_INTO,             /* a device, FIFO or socket, written into */
};

/* Where a copy goes once a symbolic link at the destination is followed:
   NAME in DIRFD, on device DEV; ST is what is there (not PUT_NEW).  */
struct put
{
  enum put_how how;
  int dirfd;
  const char *name;
  dev_t dev;
  struct stat st;
  const char *why;      /* PUT_INPLACE: the reason, for --debug */
  /* PUT_REPLACE: the copy is a new file (cp removes the old one first),
     given nothing of the file it replaces.  */
  bool anew;
  bool follow;          /* NAME is a link of /proc, opened through */
  /* --backup: the name of the backup made of what was there, as
     messages show it; NULL where none was.  */
  char *backup;
  bool removes;         /* --remove-destination replaces what is there */
  int own_dirfd;        /* a directory a link led to, or -1 */
  char *own_name;
};

/* Look at the destination D before copying SRC (ST) there: return 1 to
   copy (P says how and where), 0 to leave it, -1 after a reported
   error.  P is released by the caller with put_release in every case.  */
int check_dest (const struct copy_options *o, const struct stat *st,
                const char *src, const struct dest *d, struct put *p);

/* Make P, which check_dest filled for D, a replacement by a new file, as
   where cp removes the destination before it makes its copy: the name D
   gives, which is a symbolic link's where P was reached through one.  */
void put_anew (const struct dest *d, struct put *p);

/* Free what check_dest kept in P.  */
void put_release (struct put *p);

/* What to do about the existing DST (DST_ST, followed through a
   symbolic link) before copying SRC (SRC_ST) over it: 1 to go on, 0 to
   leave it (--update, -n, or -i answered no: then a failure without a
   message), -1 after a reported error (--update=none-fail, the same
   file, a directory for a non-directory).  */
int may_replace (const struct copy_options *o, const struct stat *src_st,
                 const struct stat *dst_st, const char *src,
                 const char *dst);

/* Whether NAME of DIRFD and NAME2 of DIRFD2 (each a path from any
   descriptor of a directory, or AT_FDCWD) are one entry: the same last
   component, trailing slashes aside, in the same directory.  */
bool same_entry (int dirfd, const char *name, int dirfd2,
                 const char *name2);

/* Make the backup (O's --backup) of NAME of DIRFD, shown as DISPLAY,
   which is not a directory; *BACKUP its name as messages show it (to
   free).  Return 0, or -1 after a reported failure.  */
int dest_backup (const struct copy_options *o, int dirfd, const char *name,
                 const char *display, char **backup);

/* After a copy failed: remove the backup BACKUP that dest_backup made
   of NAME of DIRFD (DISPLAY), which is left as it was, as cp renames its
   backup back; unless it is no longer a name of that file (a copy made
   where no link could be, a name changed meanwhile), which is left.  */
void dest_unbackup (int dirfd, const char *name, const char *display,
                    const char *backup);

/* Make P's name (as check_dest set it, or PUT_NEW/PUT_REPLACE with its
   dirfd, name and st) a hard link to FIRST (relative to BASE): a new
   name, or in place of what is there (install_link), so that the name
   never goes missing.  0 if it already is one.  Return 0 or -errno.  */
int link_over (int base, const char *first, const struct put *p);

#endif
