/* copy/backup.h -- backups of the files a copy replaces, named as cp names
   them (--backup=CONTROL, -S SUFFIX), made so that no name goes missing.

   - Names: simple (NAME then the suffix, "~" by default), numbered
     (NAME.~N~, N one more than the highest of the directory's), existing
     (numbered where NAME has numbered backups already, else simple).  A
     name longer than the directory takes is cut, ending in "~", as
     gnulib's backupfile cuts it.
   - A backup is a second hard link to the old file, made without ever
     removing a name: a numbered one is linked to its new name directly
     (linkat fails on a name taken meanwhile: the directory is read
     again); a simple one is linked to a temporary name (copy/install.h) that
     is renamed over the name, so that an older backup of that name is
     replaced in one step.  The destination itself is left as it is: the
     caller replaces it afterwards, whole (install_tmp).  A process
     killed at any point leaves the old file under its own name, at worst
     with a temporary second name that copy/install.h's reaper may remove:
     that name is never the only one.
   - Where the file system makes no hard link (EPERM: no links, or
     protected_hardlinks; EMLINK: too many), a regular file is copied to
     a new file, with its mode, owner and times, installed as the backup
     the same way; anything else is not backed up (the failure is
     returned, the destination left).

   The functions are thread-safe; each returns 0 or -errno.  */

#ifndef NC_COPY_BACKUP_H
#define NC_COPY_BACKUP_H

#include <stdbool.h>

/* What --backup=CONTROL asks for.  */
enum backup_type
{
  BACKUP_NONE,                  /* none, off: no backup */
  BACKUP_SIMPLE,                /* simple, never */
  BACKUP_EXISTING,              /* existing, nil */
  BACKUP_NUMBERED,              /* numbered, t */
};

/* CONTROL's words, NULL-terminated, and the type each means: the order
   of cp's list of them.  */
extern const char *const backup_words[];
extern const enum backup_type backup_types[];

/* The suffix of simple backups: SUFFIX (-S), or where that is NULL the
   environment's SIMPLE_BACKUP_SUFFIX; "~" where that is unset, empty or
   holds a '/'.  */
const char *backup_suffix (const char *suffix);

/* The name the next backup of FILE (relative to DIRFD; it may hold
   directories, kept in the name returned) gets, of type TYPE (not
   BACKUP_NONE) with SUFFIX, in *NAME (to free).  */
int backup_name (int dirfd, const char *file, enum backup_type type,
                 const char *suffix, char **name);

/* Make the backup of NAME, an entry of DIRFD that is not a directory, of
   type TYPE with SUFFIX; its name in DIRFD into *MADE (to free).  NAME
   is left as it is.  */
int backup_make (int dirfd, const char *name, enum backup_type type,
                 const char *suffix, char **made);

#endif
