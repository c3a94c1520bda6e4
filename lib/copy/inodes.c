/* copy/inodes.c -- the maps by inode a copy keeps; see copy/inodes.h.  */

#include <config.h>

#include "copy/inodes.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "copy/options.h"
#include "sys/calls.h"
#include "xalloc.h"

/* --- the table ----------------------------------------------------- */

static size_t
ino_home (const struct ino_map *m, dev_t dev, ino_t ino)
{
  uint64_t h = ((uint64_t) ino * 0x9e3779b97f4a7c15u) ^ (uint64_t) dev;
  return (h ^ (h >> 29)) & (m->cap - 1);
}

static size_t
ino_slot (const struct ino_map *m, dev_t dev, ino_t ino)
{
  size_t mask = m->cap - 1, i = ino_home (m, dev, ino);
  while (m->v[i].used && !(m->v[i].dev == dev && m->v[i].ino == ino))
    i = (i + 1) & mask;
  return i;
}

struct ino_rec *
ino_rec (const struct ino_map *m, dev_t dev, ino_t ino)
{
  if (!m->cap)
    return NULL;
  struct ino_rec *r = &m->v[ino_slot (m, dev, ino)];
  return r->used ? r : NULL;
}

void
ino_add (struct ino_map *m, dev_t dev, ino_t ino, const char *path)
{
  if (2 * (m->used + 1) > m->cap)
    {
      struct ino_rec *old = m->v;
      size_t old_cap = m->cap;
      m->cap = m->cap ? 2 * m->cap : 256;
      m->v = xcalloc (m->cap, sizeof *m->v);
      for (size_t i = 0; i < old_cap; i++)
        if (old[i].used)
          m->v[ino_slot (m, old[i].dev, old[i].ino)] = old[i];
      free (old);
    }
  size_t i = ino_slot (m, dev, ino);
  if (!m->v[i].used)
    {
      m->v[i] = (struct ino_rec) { .used = true, .dev = dev, .ino = ino,
                                   .path = path ? xstrdup (path) : NULL,
                                   .claimer = pthread_self () };
      m->used++;
    }
}

/* Remove R (no path) from M: the records after it in its run move back
   where a lookup finds them.  */
static void
ino_del (struct ino_map *m, struct ino_rec *r)
{
  size_t mask = m->cap - 1, hole = (size_t) (r - m->v);
  m->v[hole].used = false;
  m->used--;
  for (size_t i = (hole + 1) & mask; m->v[i].used; i = (i + 1) & mask)
    {
      size_t home = ino_home (m, m->v[i].dev, m->v[i].ino);
      /* Movable if its home is not in (hole, i], cyclically.  */
      bool stays = hole <= i ? hole < home && home <= i
                             : hole < home || home <= i;
      if (!stays)
        {
          m->v[hole] = m->v[i];
          m->v[i].used = false;
          hole = i;
        }
    }
}

/* --- hard links ---------------------------------------------------- */

/* Files with more than one link copied so far, with the copy's path
   relative to the destination's parent directory (or links_dirfd); a
   file being copied by a thread (xcp -j) has its record with no path
   yet, and the thread's id: its other names wait for the copy
   (links_done).  */
static struct ino_map links;
static pthread_mutex_t links_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t links_done = PTHREAD_COND_INITIALIZER;

int
copy_link_claim (dev_t dev, ino_t ino, const char **first)
{
  pthread_mutex_lock (&links_mutex);
  struct ino_rec *r;
  while ((r = ino_rec (&links, dev, ino)) && !r->path
         && !pthread_equal (r->claimer, pthread_self ()))
    pthread_cond_wait (&links_done, &links_mutex);
  int ret = LINK_FOUND;
  if (r && r->path)
    *first = r->path;
  else
    {
      ino_add (&links, dev, ino, NULL);
      ret = LINK_MINE;
    }
  pthread_mutex_unlock (&links_mutex);
  return ret;
}

void
copy_link_add (dev_t dev, ino_t ino, const char *path)
{
  pthread_mutex_lock (&links_mutex);
  struct ino_rec *r = ino_rec (&links, dev, ino);
  if (!r)
    ino_add (&links, dev, ino, path);
  else if (!r->path && pthread_equal (r->claimer, pthread_self ()))
    {
      r->path = xstrdup (path);
      pthread_cond_broadcast (&links_done);
    }
  pthread_mutex_unlock (&links_mutex);
}

void
copy_link_drop (dev_t dev, ino_t ino)
{
  pthread_mutex_lock (&links_mutex);
  struct ino_rec *r = ino_rec (&links, dev, ino);
  if (r && !r->path && pthread_equal (r->claimer, pthread_self ()))
    {
      ino_del (&links, r);
      pthread_cond_broadcast (&links_done);
    }
  pthread_mutex_unlock (&links_mutex);
}

/* What the paths of the table are relative to (copy_links_base): -1,
   each operand's copy's directory; else this directory, with
   links_prefix (or nothing) before each copy's name.  */
static int links_dirfd = -1;
static char *links_prefix;

void
copy_links_base (int dirfd, const char *prefix)
{
  links_dirfd = dirfd;
  free (links_prefix);
  links_prefix = dirfd >= 0 && prefix && *prefix ? xstrdup (prefix) : NULL;
}

int
copy_links_where (int dirfd, const char **prefix)
{
  *prefix = links_dirfd >= 0 && links_prefix ? links_prefix : "";
  return links_dirfd >= 0 ? links_dirfd : dirfd;
}

char *
copy_link_place (int dirfd, const char *name, int *base)
{
  const char *prefix;
  *base = copy_links_where (dirfd, &prefix);
  char *path = xmalloc (strlen (prefix) + strlen (name) + 1);
  strcpy (stpcpy (path, prefix), name);
  return path;
}

/* --- what this run made -------------------------------------------- */

/* With more than one operand, what this run made (not directories, which
   several operands may fill): a second operand of the same name must not
   replace, or write through, the copy of the first, as cp refuses.  */
static struct ino_map made;
static pthread_mutex_t made_mutex = PTHREAD_MUTEX_INITIALIZER;

void
copy_made_add (const struct copy_options *x, dev_t dev, ino_t ino)
{
  if (!x->record_made)
    return;
  pthread_mutex_lock (&made_mutex);
  ino_add (&made, dev, ino, "");
  pthread_mutex_unlock (&made_mutex);
}

void
copy_made_name (const struct copy_options *o, int dirfd, const char *name)
{
  struct stat st;
  if (o->record_made
      && sys_fstatat (dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
    copy_made_add (o, st.st_dev, st.st_ino);
}

bool
copy_made_here (const struct copy_options *x, const struct stat *st)
{
  if (!x->record_made)
    return false;
  pthread_mutex_lock (&made_mutex);
  bool found = ino_rec (&made, st->st_dev, st->st_ino) != NULL;
  pthread_mutex_unlock (&made_mutex);
  return found;
}
