/* copy/backup.c -- backups of the files a copy replaces (see
   copy/backup.h).  */

#include <config.h>

#include "copy/backup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "copy/data.h"
#include "copy/install.h"
#include "dirname.h"
#include "same-inode.h"
#include "sys/calls.h"
#include "xalloc.h"

const char *const backup_words[] = {
  "none", "off", "simple", "never", "existing", "nil", "numbered", "t", NULL
};
const enum backup_type backup_types[] = {
  BACKUP_NONE, BACKUP_NONE, BACKUP_SIMPLE, BACKUP_SIMPLE,
  BACKUP_EXISTING, BACKUP_EXISTING, BACKUP_NUMBERED, BACKUP_NUMBERED,
};

const char *
backup_suffix (const char *suffix)
{
  if (!suffix)
    suffix = getenv ("SIMPLE_BACKUP_SUFFIX");
  return suffix && *suffix && !strchr (suffix, '/') ? suffix : "~";
}

/* --- names --------------------------------------------------------- */

/* If ENTRY is BASE.~N~ with N a number (no leading zero) greater than
   *MAX (digits, *MAX_LEN of them; 0 of them: none yet), make it *MAX.  */
static void
note_version (const char *entry, const char *base, size_t base_len,
              const char **max, size_t *max_len)
{
  if (strncmp (entry, base, base_len) != 0
      || entry[base_len] != '.' || entry[base_len + 1] != '~')
    return;
  const char *n = entry + base_len + 2;
  if (*n < '1' || *n > '9')
    return;
  size_t len = 1;
  while (n[len] >= '0' && n[len] <= '9')
    len++;
  if (strcmp (n + len, "~") != 0)
    return;
  if (len > *max_len || (len == *max_len && memcmp (n, *max, len) > 0))
    *max = n, *max_len = len;
}

/* The number after the highest numbered backup of BASE in directory DIR
   (any descriptor of it), in decimal, into *NEXT (to free); "" where
   BASE has none.  */
static int
next_version (int dir, const char *base, char **next)
{
  int fd = sys_openat (dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0)
    return fd;
  enum { BUF_SIZE = 32768 };
  char *buf = xmalloc (BUF_SIZE);
  size_t base_len = strlen (base);
  char *max = xstrdup ("");
  size_t max_len = 0;
  ssize_t n;
  while ((n = sys_getdents64 (fd, buf, BUF_SIZE)) > 0)
    for (ssize_t off = 0; off < n;)
      {
        struct nc_dirent64 *d = (struct nc_dirent64 *) (buf + off);
        const char *found = max;
        size_t found_len = max_len;
        off += d->d_reclen;
        note_version (d->d_name, base, base_len, &found, &found_len);
        if (found != max)
          {
            free (max);
            max = ximemdup0 (found, found_len);
            max_len = found_len;
          }
      }
  free (buf);
  sys_close (fd);
  if (n < 0)
    {
      free (max);
      return (int) n;
    }
  if (max_len > 0)
    {
      /* One more, in decimal: 99 becomes 100.  */
      char *up = xmalloc (max_len + 2);
      up[0] = '0';
      memcpy (up + 1, max, max_len + 1);
      size_t i = max_len;
      while (up[i] == '9')
        up[i--] = '0';
      up[i]++;
      *next = xstrdup (up[0] == '0' ? up + 1 : up);
      free (up);
    }
  else
    *next = xstrdup ("");
  free (max);
  return 0;
}

/* BASE with the ending END (".~N~" or the suffix), cut to what the
   directory DIR takes: where BASE and END are longer, BASE (itself cut
   to one byte less than the longest name) then "~".  */
static char *
cut_name (int dir, const char *base, const char *end)
{
  size_t len = strlen (base), end_len = strlen (end);
  /* Names of up to 14 bytes every file system takes (POSIX): the
     directory is asked about longer ones only.  */
  size_t name_max = 255;
  struct statfs sf;
  if (len + end_len > 14 && fstatfs (dir, &sf) == 0 && sf.f_namelen > 1)
    name_max = (size_t) sf.f_namelen;
  char *name = xmalloc (len + end_len + 1);
  if (len + end_len <= name_max)
    {
      memcpy (name, base, len);
      memcpy (name + len, end, end_len + 1);
      return name;
    }
  if (len >= name_max)
    len = name_max - 1;
  memcpy (name, base, len);
  strcpy (name + len, "~");
  return name;
}

/* The next backup name of BASE in directory DIR, into *NAME; NUMBERED
   (if not NULL) set if it is a numbered one, not cut.  */
static int
backup_base (int dir, const char *base, enum backup_type type,
             const char *suffix, char **name, bool *numbered)
{
  bool dummy;
  if (!numbered)
    numbered = &dummy;
  *numbered = false;
  if (type != BACKUP_SIMPLE)
    {
      char *next = NULL;
      int ret = next_version (dir, base, &next);
      if (ret < 0)
        return ret;
      if (*next || type == BACKUP_NUMBERED)
        {
          char *end = xmalloc (strlen (next) + 5);
          strcpy (end, ".~");
          strcat (end, *next ? next : "1");
          strcat (end, "~");
          *name = cut_name (dir, base, end);
          *numbered = strlen (*name) == strlen (base) + strlen (end);
          free (end);
          free (next);
          return 0;
        }
      free (next);
    }
  *name = cut_name (dir, base, backup_suffix (suffix));
  return 0;
}

int
backup_name (int dirfd, const char *file, enum backup_type type,
             const char *suffix, char **name)
{
  const char *base = last_component (file);
  size_t dir_len = base - file;
  int dir = dirfd;
  if (dir_len > 0)
    {
      char *path = ximemdup0 (file, dir_len);
      dir = sys_openat (dirfd, path, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
      free (path);
      if (dir < 0)
        return dir;
    }
  char *b = ximemdup0 (base, base_len (base));
  char *made;
  int ret = backup_base (dir, b, type, suffix, &made, NULL);
  free (b);
  if (dir != dirfd)
    sys_close (dir);
  if (ret < 0)
    return ret;
  *name = xmalloc (dir_len + strlen (made) + 1);
  memcpy (*name, file, dir_len);
  strcpy (*name + dir_len, made);
  free (made);
  return 0;
}

/* --- backups ------------------------------------------------------- */

/* The regular file NAME of DIRFD copied to a new file, with its mode,
   owner and times, put in the place of BACKUP (replacing what is there)
   in one step: the backup where no hard link can be made.  */
static int
copy_to_backup (int dirfd, const char *name, const char *backup)
{
  int in = sys_openat (dirfd, name, O_RDONLY | O_NOFOLLOW | O_NOCTTY
                       | O_NONBLOCK | O_CLOEXEC, 0);
  if (in < 0)
    return in;
  struct stat st;
  int ret = sys_fstat (in, &st);
  if (ret == 0 && !S_ISREG (st.st_mode))
    ret = -EPERM;
  bool named = false;
  int out = ret < 0 ? ret : install_create_tmp (dirfd, S_IRUSR | S_IWUSR,
                                                &named);
  if (out < 0)
    {
      sys_close (in);
      return out;
    }
  struct copy_data_request req = {
    .range = { .in_fd = in, .out_fd = out }, .in_st = &st,
    .out_regular = true, .out_dev = st.st_dev,
  };
  struct copy_data_result res;
  ret = copy_file_data (&req, &res);
  if (ret >= 0)
    {
      /* The owner first: a change of owner drops the set-ID bits.  */
      sys_fchownat (out, "", st.st_uid, st.st_gid, AT_EMPTY_PATH);
      ret = sys_fchmod (out, st.st_mode & 07777);
    }
  const struct timespec times[2] = { st.st_atim, st.st_mtim };
  if (ret >= 0)
    ret = sys_utimensat (out, NULL, times, 0);
  if (ret >= 0)
    {
      ret = install_tmp (out, named, dirfd, backup, true);
      named = false;
    }
  install_discard_tmp (out, dirfd, named);
  sys_close (in);
  return ret < 0 ? ret : 0;
}

/* Whether a failure ERR of linkat means that this file system, or this
   file, takes no more hard links, rather than that the name or the
   directory is at fault.  */
static bool
no_link (int err)
{
  return err == -EPERM || err == -EMLINK || err == -EOPNOTSUPP;
}

/* Make BACKUP, in DIRFD, a name of NAME's file: where NUMBERED, a new
   name (-EEXIST if taken), else in place of what is there.  */
static int
link_backup (int dirfd, const char *name, const char *backup, bool numbered)
{
  int ret;
  if (numbered)
    ret = SYS_RETRY_EINTR (sys_linkat (dirfd, name, dirfd, backup, 0));
  else
    {
      /* A name of the file already: renaming one of its names over
         another would do nothing, and leave the temporary one.  */
      struct stat a, b;
      if (sys_fstatat (dirfd, name, &a, AT_SYMLINK_NOFOLLOW) == 0
          && sys_fstatat (dirfd, backup, &b, AT_SYMLINK_NOFOLLOW) == 0
          && SAME_INODE (a, b))
        return 0;
      ret = install_link (dirfd, name, dirfd, backup);
    }
  if (no_link (ret))
    {
      int copied = copy_to_backup (dirfd, name, backup);
      if (copied != -EPERM)
        ret = copied;
    }
  return ret;
}

int
backup_make (int dirfd, const char *name, enum backup_type type,
             const char *suffix, char **made)
{
  int ret = -EEXIST;
  for (int tries = 0; tries < 100 && ret == -EEXIST; tries++)
    {
      char *backup;
      bool numbered;
      ret = backup_base (dirfd, name, type, suffix, &backup, &numbered);
      if (ret < 0)
        break;
      /* A numbered one is linked only as a new name, never over another
         backup: one taken meanwhile is looked past.  */
      ret = link_backup (dirfd, name, backup, numbered);
      if (ret == 0)
        *made = backup;
      else
        free (backup);
    }
  return ret;
}
