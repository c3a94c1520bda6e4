/* remove/ask.c -- rm's questions; see remove/ask.h.  */

#include <config.h>

#include "remove/ask.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/common.h"
#include "progname.h"
#include "sys/calls.h"
#include "yesno.h"

/* The kind of file ST is, in rm's words.  */
static const char *
type_name (const struct stat *st)
{
  switch (st->st_mode & S_IFMT)
    {
    case S_IFREG:
      return st->st_size == 0 ? "regular empty file" : "regular file";
    case S_IFDIR: return "directory";
    case S_IFLNK: return "symbolic link";
    case S_IFIFO: return "fifo";
    case S_IFSOCK: return "socket";
    case S_IFCHR: return "character special file";
    case S_IFBLK: return "block special file";
    default: return "weird file";
    }
}

/* Whether E is write-protected: the effective ids may not write it.  A
   symbolic link is never (its mode means nothing).  */
static bool
write_protected (const struct walk_entry *e, bool link)
{
  if (link)
    return false;
  return sys_faccessat_effective (e->dirfd, e->name, W_OK) == -EACCES;
}

bool
remove_must_ask (const struct remove_options *o, const struct walk_entry *e,
                 bool link, bool *protected)
{
  *protected = false;
  if (o->dry_run || o->ask == REMOVE_ASK_NEVER)
    return false;
  if (!o->force && (o->ask == REMOVE_ASK_ALWAYS || o->stdin_tty))
    *protected = write_protected (e, link);
  return *protected || o->ask == REMOVE_ASK_ALWAYS;
}

bool
remove_ask (struct removal *r, struct walk *w, const char *verb,
            bool protected, const char *what)
{
  progress_clear (&r->bar);
  fprintf (stderr, "%s: %s %s%s %s? ", program_name, verb,
           protected ? "write-protected " : "", what,
           quote_file (walk_path (w)));
  fflush (stderr);
  return yesno ();
}

int
remove_ask_entry (struct removal *r, struct walk *w,
                  const struct walk_entry *e, bool protected)
{
  struct stat st;
  const struct stat *stp = e->st;
  if (!stp)
    {
      int ret = sys_fstatat (e->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW);
      if (ret < 0)
        {
          remove_report (w, -ret);
          return -1;
        }
      stp = &st;
    }
  return remove_ask (r, w, "remove", protected, type_name (stp));
}
