/* backup-test.c -- the C test driver for lib/copy/backup.c: the names of
   simple, numbered and existing backups (the directory read through its
   descriptor), names cut to the directory's longest, and backups made as
   hard links, a simple one replacing an older one in one step.

   Output: TAP lines (tests/lib/tap.h).  The scratch directory lives under
   /tmp, removed at the end.  */

#include <config.h>

#define TAP_NAME "backup-test"
#include "tap.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "copy/backup.h"

/* gnulib replaces these; the tests want glibc's own.  */
#undef open
#undef close

/* Whether backup_name gives WANT for FILE.  */
static void
check_name (int dirfd, const char *file, enum backup_type type,
            const char *suffix, const char *want)
{
  char *name = NULL;
  int ret = backup_name (dirfd, file, type, suffix, &name);
  tap_check (ret == 0 && strcmp (name, want) == 0, name ? name : "(none)",
             "backup_name %s (type %d) is %s", file, (int) type, want);
  free (name);
}

static void
test_names (int dirfd)
{
  write_text (dirfd, "f", "f");
  check_name (dirfd, "f", BACKUP_SIMPLE, NULL, "f~");
  check_name (dirfd, "f", BACKUP_SIMPLE, ".b", "f.b");
  check_name (dirfd, "f", BACKUP_SIMPLE, "a/b", "f~");
  check_name (dirfd, "f", BACKUP_SIMPLE, "", "f~");
  check_name (dirfd, "f", BACKUP_EXISTING, NULL, "f~");
  check_name (dirfd, "f", BACKUP_NUMBERED, NULL, "f.~1~");
  write_text (dirfd, "f.~9~", "9");
  write_text (dirfd, "f.~07~", "leading zero: not a number");
  write_text (dirfd, "f.~12x~", "not a number");
  write_text (dirfd, "fg.~50~", "another file's");
  check_name (dirfd, "f", BACKUP_EXISTING, NULL, "f.~10~");
  check_name (dirfd, "f", BACKUP_NUMBERED, NULL, "f.~10~");
  write_text (dirfd, "f.~99~", "99");
  check_name (dirfd, "f", BACKUP_NUMBERED, NULL, "f.~100~");
  write_text (dirfd, "f.~100~", "100");
  check_name (dirfd, "f", BACKUP_NUMBERED, NULL, "f.~101~");
  check_name (dirfd, "./f", BACKUP_NUMBERED, NULL, "./f.~101~");
  setenv ("SIMPLE_BACKUP_SUFFIX", ".env", 1);
  check_name (dirfd, "f", BACKUP_SIMPLE, NULL, "f.env");
  check_name (dirfd, "f", BACKUP_SIMPLE, ".opt", "f.opt");
  unsetenv ("SIMPLE_BACKUP_SUFFIX");

  /* Too long for the directory: cut, ending in '~'.  */
  char longname[256];
  memset (longname, 'l', 255);
  longname[255] = '\0';
  char want[256];
  memset (want, 'l', 254);
  strcpy (want + 254, "~");
  check_name (dirfd, longname, BACKUP_SIMPLE, ".long", want);
  longname[250] = '\0';
  memcpy (want, longname, 250);
  strcpy (want + 250, "~");
  check_name (dirfd, longname, BACKUP_SIMPLE, ".longer", want);
}

static bool
same_file (int dirfd, const char *a, const char *b)
{
  struct stat sa, sb;
  return fstatat (dirfd, a, &sa, AT_SYMLINK_NOFOLLOW) == 0
         && fstatat (dirfd, b, &sb, AT_SYMLINK_NOFOLLOW) == 0
         && sa.st_ino == sb.st_ino && sa.st_dev == sb.st_dev;
}

static void
test_make (int dirfd)
{
  char buf[64], *made = NULL;
  write_text (dirfd, "g", "g1");
  write_text (dirfd, "g~", "older");
  struct stat old;
  fstatat (dirfd, "g~", &old, 0);
  tap_check_int (backup_make (dirfd, "g", BACKUP_SIMPLE, NULL, &made), 0,
                 "backup_make simple over an older backup");
  tap_ok (made && strcmp (made, "g~") == 0, "its name is g~");
  tap_ok (same_file (dirfd, "g", "g~"), "g~ is a hard link of g");
  tap_ok (strcmp (read_text (dirfd, "g", buf, sizeof buf), "g1") == 0,
          "g is left as it was");
  free (made);
  made = NULL;
  tap_check_int (backup_make (dirfd, "g", BACKUP_SIMPLE, NULL, &made), 0,
                 "backup_make simple where it is a link of g already");
  free (made);
  made = NULL;
  tap_check_int (backup_make (dirfd, "g", BACKUP_NUMBERED, NULL, &made), 0,
                 "backup_make numbered");
  tap_ok (made && strcmp (made, "g.~1~") == 0, "its name is g.~1~");
  tap_ok (same_file (dirfd, "g", "g.~1~"), "g.~1~ is a hard link of g");
  free (made);
  made = NULL;
  if (symlinkat ("g", dirfd, "sl") != 0)
    tap_die ("symlinkat");
  tap_check_int (backup_make (dirfd, "sl", BACKUP_EXISTING, NULL, &made), 0,
                 "backup_make of a symbolic link");
  tap_ok (same_file (dirfd, "sl", "sl~"), "sl~ is the link, not followed");
  free (made);
  made = NULL;
  tap_check_int (backup_make (dirfd, "none", BACKUP_SIMPLE, NULL, &made),
                 -ENOENT, "backup_make of nothing");
  tap_ok (made == NULL, "no name given back");
}

int
main (void)
{
  const char *dir = tap_scratch ("/tmp");
  if (!dir)
    tap_die ("mkdtemp");
  int dirfd = open (dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dirfd < 0)
    tap_die (dir);
  test_names (dirfd);
  test_make (dirfd);
  close (dirfd);
  return tap_done ();
}
