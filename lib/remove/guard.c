/* remove/guard.c -- rm's refusals; see remove/guard.h.  */

#include <config.h>

#include "remove/guard.h"

#include <string.h>
#include <sys/stat.h>

#include "cli/common.h"
#include "error.h"
#include "sys/calls.h"

bool
remove_dot_or_dotdot (const char *name)
{
  return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

static bool
is_root (const struct removal *r, const struct stat *st)
{
  return r->root_ok && st->st_dev == r->root.st_dev
         && st->st_ino == r->root.st_ino;
}

bool
remove_operand_allowed (const struct removal *r, struct walk *w,
                        const struct walk_entry *e)
{
  if (!r->o->preserve_root)
    return true;
  const char *path = walk_path (w);
  if (is_root (r, e->st))
    {
      error (0, 0, "it is dangerous to operate recursively on %s%s",
             quote_file (path),
             strcmp (path, "/") == 0 ? "" : " (same as '/')");
      cli_fail (0, "use --no-preserve-root to override this failsafe");
      return false;
    }
  if (!r->o->preserve_all_root)
    return true;
  struct stat parent;
  int ret = sys_fstatat (e->fd, "..", &parent, 0);
  if (ret < 0)
    {
      cli_fail (0, "failed to stat %s/..: %s", quote_file (path),
                strerror (-ret));
      return false;
    }
  if (parent.st_dev != e->st->st_dev)
    {
      error (0, 0, "skipping %s, since it's on a different device",
             quote_file (path));
      cli_fail (0, "and --preserve-root=all is in effect");
      return false;
    }
  return true;
}
