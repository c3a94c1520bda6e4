/* copy/jobs.c -- the workers of a parallel tree copy; see copy/jobs.h.  */

#include <config.h>

#include "copy/jobs.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "copy/dest.h"
#include "copy/file.h"
#include "copy/inodes.h"
#include "copy/install.h"
#include "copy/msg.h"
#include "sys/calls.h"
#include "xalloc.h"

/* --- the pool ------------------------------------------------------ */

struct copy_dirs
{
  int src_fd;
  int dst_fd;
  dev_t dst_dev;
  unsigned int pending;         /* files published and not done */
  unsigned int refs;            /* the walk's hold, and one per file */
};

/* An entry of the ring: a file to copy, or only a report of the walk's.
   Its report (-v, the file count) waits until every entry before it has
   made its own.  */
struct entry
{
  bool is_job;
  bool done;
  struct copy_dirs *dirs;
  char *name, *src, *dst, *link_path;
  uint64_t ino;
  bool fresh, inherits_acl, group_of_dir;
  /* The report, if there is one.  */
  bool told;
  char *told_src, *told_dst, *told_backup;
  bool told_removed, told_file;
};

/* The walk fills entries past the published tail without the lock, and
   publishes them (makes them the workers') by PUBLISH_BATCH, or as soon
   as every worker waits: one lock and one wake-up for several files,
   where one each costs more than a small file's copy.  Workers take up
   to TAKE_MAX at once for the same reason.  */
enum { PUBLISH_BATCH = 16, TAKE_MAX = 8 };

struct copy_pool
{
  const struct copy_options *x;       /* the caller's: copied is its own */
  struct copy_options walk_x;         /* the walk's: reports ordered */
  struct copy_options worker_x;       /* the workers' */
  int link_base;
  pthread_mutex_t mutex;
  pthread_cond_t work;                /* jobs published, or the end */
  pthread_cond_t changed;             /* jobs done, room in the ring */
  struct entry ring[COPY_JOBS_RING];
  /* Under the mutex: entries head..tail-1 are published; head..next-1
     were taken by a worker or are the walk's reports, next..tail-1 wait
     for one.  The walk's only: filled, tail..filled-1 its entries not
     yet published.  */
  size_t next, tail;
  /* Also read by the walk without the mutex, to know whether the ring
     has room: released once the entry's strings are freed.  */
  atomic_size_t head;
  size_t filled;
  atomic_uint idle;                   /* workers waiting for work */
  /* The walk waits (on changed) for WAITED's files to be done, or, if
     NULL, for room in the ring: a worker wakes it when it may go on,
     not at every file.  Under the mutex.  */
  bool walk_waits;
  struct copy_dirs *waited;
  bool ending;
  unsigned int workers;
  pthread_t *threads;
};

/* The entry a worker is copying, for its report.  */
static _Thread_local struct entry *current;
/* The pool running (one tree is copied at a time).  */
static struct copy_pool *running;

static struct entry *
at (struct copy_pool *p, size_t i)
{
  return &p->ring[i % COPY_JOBS_RING];
}

static void
dirs_unref (struct copy_dirs *d)
{
  if (--d->refs == 0)
    {
      sys_close (d->src_fd);
      sys_close (d->dst_fd);
      free (d);
    }
}

/* Pass on the reports of the done entries at the head, in order, and
   free them.  P's mutex held.  */
static void
flush (struct copy_pool *p)
{
  while (p->head < p->tail && at (p, p->head)->done)
    {
      struct entry *e = at (p, p->head);
      if (e->told)
        {
          copy_msg_lock ();
          copy_tell_replaced (p->x, e->told_src, e->told_dst,
                              e->told_backup, e->told_removed,
                              e->told_file);
          copy_msg_unlock ();
        }
      free (e->name);
      free (e->src);
      free (e->dst);
      free (e->link_path);
      free (e->told_src);
      free (e->told_dst);
      free (e->told_backup);
      atomic_store_explicit (&p->head, p->head + 1, memory_order_release);
    }
  /* The walk's reports before the first job not taken are passed.  */
  if (p->next < p->head)
    p->next = p->head;
}

/* Room enough in the ring for the walk to go on filling it: a quarter,
   so that it does not wake for every entry freed.  */
static bool
ring_has_room (const struct copy_pool *p)
{
  return p->filled - p->head <= COPY_JOBS_RING - COPY_JOBS_RING / 4;
}

/* Wake the walk if what it waits for came.  P's mutex held.  */
static void
wake_walk (struct copy_pool *p)
{
  if (p->walk_waits
      && (p->waited ? p->waited->pending == 0 : ring_has_room (p)))
    pthread_cond_signal (&p->changed);
}

/* Wait, as the walk, for D's files (D NULL: for room in the ring).  P's
   mutex held.  */
static void
walk_wait (struct copy_pool *p, struct copy_dirs *d)
{
  p->walk_waits = true;
  p->waited = d;
  while (d ? d->pending > 0 : !ring_has_room (p))
    pthread_cond_wait (&p->changed, &p->mutex);
  p->walk_waits = false;
  p->waited = NULL;
}

/* Make the walk's filled entries the workers'.  P's mutex held.  */
static void
publish_locked (struct copy_pool *p)
{
  if (p->tail == p->filled)
    return;
  size_t jobs = 0;
  for (; p->tail < p->filled; p->tail++)
    {
      struct entry *e = at (p, p->tail);
      if (e->is_job)
        {
          e->dirs->pending++;
          e->dirs->refs++;
          jobs++;
        }
    }
  if (jobs > 1)
    pthread_cond_broadcast (&p->work);
  else if (jobs)
    pthread_cond_signal (&p->work);
  flush (p);
}

static void
publish (struct copy_pool *p)
{
  pthread_mutex_lock (&p->mutex);
  publish_locked (p);
  pthread_mutex_unlock (&p->mutex);
}

/* An entry for the walk to fill, zeroed; waits for room in the ring.  */
static struct entry *
new_entry (struct copy_pool *p)
{
  /* head only grows: a stale one only makes the walk look sooner.  */
  if (p->filled - atomic_load_explicit (&p->head, memory_order_acquire)
      >= COPY_JOBS_RING)
    {
      pthread_mutex_lock (&p->mutex);
      publish_locked (p);
      walk_wait (p, NULL);
      pthread_mutex_unlock (&p->mutex);
    }
  struct entry *e = at (p, p->filled);
  memset (e, 0, sizeof *e);
  return e;
}

/* The entry at filled is complete: publish the batch when it is full,
   or at once if every worker waits.  */
static void
add_entry (struct copy_pool *p)
{
  p->filled++;
  if (p->filled - p->tail >= PUBLISH_BATCH
      || atomic_load_explicit (&p->idle, memory_order_relaxed) == p->workers)
    publish (p);
}

/* The copied of the workers' options: kept in the job for its turn.  */
static void
worker_tells (const struct copy_options *x, const char *src, const char *dst,
              const char *backup, bool removed, bool file)
{
  (void) x;
  struct entry *e = current;
  if (!e || e->told)
    {
      /* Not expected: one report per file.  Said at once.  */
      copy_msg_lock ();
      copy_tell_replaced (running->x, src, dst, backup, removed, file);
      copy_msg_unlock ();
      return;
    }
  e->told_src = xstrdup (src);
  e->told_dst = xstrdup (dst);
  e->told_backup = backup ? xstrdup (backup) : NULL;
  e->told_removed = removed;
  e->told_file = file;
  e->told = true;
}

/* The copied of the walk's options: an entry of its own, done already
   (the workers step over it), passed on after the files before it.  */
static void
walk_tells (const struct copy_options *x, const char *src, const char *dst,
            const char *backup, bool removed, bool file)
{
  (void) x;
  struct copy_pool *p = running;
  struct entry *e = new_entry (p);
  e->done = e->told = true;
  e->told_src = xstrdup (src);
  e->told_dst = xstrdup (dst);
  e->told_backup = backup ? xstrdup (backup) : NULL;
  e->told_removed = removed;
  e->told_file = file;
  add_entry (p);
}

static void
run_job (struct copy_pool *p, struct entry *e)
{
  struct copy_dirs *dirs = e->dirs;
  struct dest d = {
    .dirfd = dirs->dst_fd, .dev = dirs->dst_dev, .name = e->name,
    .display = e->dst, .fresh = e->fresh, .inherits_acl = e->inherits_acl,
    .group_of_dir = e->group_of_dir,
    .made_here = copy_made_here, .link_base = p->link_base,
    .link_path = e->link_path,
  };
  current = e;
  copy_file (&p->worker_x, dirs->src_fd, e->name, e->src, e->ino, true, &d);
  current = NULL;
}

static void *
worker (void *arg)
{
  struct copy_pool *p = arg;
  struct entry *taken[TAKE_MAX];
  pthread_mutex_lock (&p->mutex);
  for (;;)
    {
      /* A share of the jobs waiting, so that the others get some.  */
      size_t n = 0, want = (p->tail - p->next) / (2 * p->workers);
      want = want < 1 ? 1 : want > TAKE_MAX ? TAKE_MAX : want;
      for (; p->next < p->tail && n < want; p->next++)
        if (at (p, p->next)->is_job)
          taken[n++] = at (p, p->next);
      if (n == 0)
        {
          if (p->ending)
            break;
          atomic_fetch_add (&p->idle, 1);
          pthread_cond_wait (&p->work, &p->mutex);
          atomic_fetch_sub (&p->idle, 1);
          continue;
        }
      pthread_mutex_unlock (&p->mutex);
      for (size_t i = 0; i < n; i++)
        run_job (p, taken[i]);
      pthread_mutex_lock (&p->mutex);
      for (size_t i = 0; i < n; i++)
        {
          taken[i]->done = true;
          taken[i]->dirs->pending--;
          dirs_unref (taken[i]->dirs);
        }
      flush (p);
      wake_walk (p);
    }
  pthread_mutex_unlock (&p->mutex);
  install_thread_end ();
  return NULL;
}

struct copy_pool *
copy_pool_start (const struct copy_options *x, unsigned int workers,
                 int link_base)
{
  struct copy_pool *p = xzalloc (sizeof *p);
  p->x = x;
  p->walk_x = *x;
  p->walk_x.copied = walk_tells;
  p->worker_x = *x;
  p->worker_x.copied = worker_tells;
  p->link_base = link_base;
  pthread_mutex_init (&p->mutex, NULL);
  pthread_cond_init (&p->work, NULL);
  pthread_cond_init (&p->changed, NULL);
  p->threads = xnmalloc (workers, sizeof *p->threads);
  running = p;
  copy_msg_threads (true);

  /* The workers block every signal: a fatal one is the walk's thread's
     to handle (copy/install.h), and they inherit the mask they start with.
     But SIGPIPE and SIGXFSZ, which a worker's own write raises, as
     they would the serial copy's.  */
  sigset_t all, old;
  sigfillset (&all);
  sigdelset (&all, SIGPIPE);
  sigdelset (&all, SIGXFSZ);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  /* The workers read the count: it is set first, and lowered under the
     mutex if fewer start.  */
  p->workers = workers;
  unsigned int started = 0;
  while (started < workers
         && pthread_create (&p->threads[started], NULL, worker, p) == 0)
    started++;
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  pthread_mutex_lock (&p->mutex);
  p->workers = started;
  pthread_mutex_unlock (&p->mutex);
  if (started == 0)
    {
      copy_pool_end (p);
      return NULL;
    }
  return p;
}

const struct copy_options *
copy_pool_options (struct copy_pool *p)
{
  return &p->walk_x;
}

void
copy_pool_end (struct copy_pool *p)
{
  pthread_mutex_lock (&p->mutex);
  publish_locked (p);
  p->ending = true;
  pthread_cond_broadcast (&p->work);
  pthread_mutex_unlock (&p->mutex);
  for (unsigned int i = 0; i < p->workers; i++)
    pthread_join (p->threads[i], NULL);
  /* Without workers (none could start), the walk's own reports.  */
  p->next = p->tail;
  flush (p);
  copy_msg_threads (false);
  running = NULL;
  pthread_cond_destroy (&p->changed);
  pthread_cond_destroy (&p->work);
  pthread_mutex_destroy (&p->mutex);
  free (p->threads);
  free (p);
}

struct copy_dirs *
copy_dirs_new (struct copy_pool *p, int src_dirfd, int dst_dirfd,
               dev_t dst_dev)
{
  (void) p;
  int src_fd = sys_fcntl (src_dirfd, F_DUPFD_CLOEXEC, 0);
  if (src_fd < 0)
    return NULL;
  int dst_fd = sys_fcntl (dst_dirfd, F_DUPFD_CLOEXEC, 0);
  if (dst_fd < 0)
    {
      sys_close (src_fd);
      return NULL;
    }
  struct copy_dirs *d = xmalloc (sizeof *d);
  *d = (struct copy_dirs) { .src_fd = src_fd, .dst_fd = dst_fd,
                            .dst_dev = dst_dev, .refs = 1 };
  return d;
}

void
copy_dirs_wait (struct copy_pool *p, struct copy_dirs *d)
{
  pthread_mutex_lock (&p->mutex);
  publish_locked (p);
  walk_wait (p, d);
  pthread_mutex_unlock (&p->mutex);
}

void
copy_pool_handoff (struct copy_pool *p)
{
  if (p->filled > p->tail
      && atomic_load_explicit (&p->idle, memory_order_relaxed) > 0)
    publish (p);
}

bool
copy_dirs_idle (struct copy_pool *p, struct copy_dirs *d)
{
  pthread_mutex_lock (&p->mutex);
  publish_locked (p);
  bool idle = d->pending == 0;
  pthread_mutex_unlock (&p->mutex);
  return idle;
}

void
copy_dirs_put (struct copy_pool *p, struct copy_dirs *d)
{
  pthread_mutex_lock (&p->mutex);
  /* Its files not yet published hold it too.  */
  publish_locked (p);
  dirs_unref (d);
  pthread_mutex_unlock (&p->mutex);
}

void
copy_pool_file (struct copy_pool *p, struct copy_dirs *d,
                const struct copy_job_file *f)
{
  struct entry *e = new_entry (p);
  *e = (struct entry) {
    .is_job = true, .dirs = d, .name = xstrdup (f->name),
    .src = xstrdup (f->src), .dst = xstrdup (f->dst),
    .link_path = f->link_path ? xstrdup (f->link_path) : NULL,
    .ino = f->ino, .fresh = f->fresh, .inherits_acl = f->inherits_acl,
    .group_of_dir = f->group_of_dir,
  };
  add_entry (p);
}
