/* remove/unlinker.c -- files removed by a second thread; see
   remove/unlinker.h.

   The queue is a list of batches in the order of their tickets.  The
   walk's thread fills one batch at a time without the lock and queues it
   when it is full (a batch waited for before that, it removes itself);
   the unlinker's thread, and the walk's while it waits, claim the oldest
   batch not claimed yet.  Batches end in any order, and leave the list
   from its head only when done, so that every ticket below the head's
   first one is done.  */

#include <config.h>

#include "remove/unlinker.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sys/calls.h"
#include "xalloc.h"

/* A batch: enough files that the lock and a wake-up are rare beside
   their unlinkat calls, few enough that both threads get some of a
   directory of a hundred files.  */
enum { BATCH_FILES = 32, BATCH_NAMES = 32 * 64 };

struct queued_file
{
  int dirfd;
  unsigned int name;     /* offset in the batch's names */
  uint64_t dir;
};

struct batch
{
  struct batch *next;
  uint64_t first;        /* the ticket of file[0] */
  unsigned int n;
  unsigned int names_len;
  bool done;
  struct queued_file file[BATCH_FILES];
  char names[BATCH_NAMES];
};

struct failure
{
  uint64_t dir;
  int err;
  char *name;
};

struct unlinker
{
  pthread_mutex_t lock;
  pthread_cond_t work;     /* a batch to claim, or the end */
  pthread_cond_t done;     /* a batch done */
  pthread_t thread;
  bool running;            /* the thread is there (see unlinker_pause) */
  /* Under the lock: the batches queued and not done yet, oldest first;
     the oldest one not claimed (NULL: none); the end asked for.  */
  struct batch *head, *tail, *unclaimed;
  bool stopping;
  uintmax_t removed;
  struct failure *failures;
  size_t nfailures, failures_alloc;
  /* The walk's thread's alone: the batch it fills, the next ticket.  */
  struct batch *filling;
  uint64_t next_ticket;
};

/* Keep the failure of file I of B (U locked).  */
static void
keep_failure (struct unlinker *u, const struct batch *b, unsigned int i,
              int err)
{
  if (u->nfailures == u->failures_alloc)
    u->failures = x2nrealloc (u->failures, &u->failures_alloc,
                              sizeof *u->failures);
  u->failures[u->nfailures++] = (struct failure) {
    .dir = b->file[i].dir, .err = err,
    .name = xstrdup (b->names + b->file[i].name) };
}

/* Remove the files of B, claimed by this thread or never queued; called
   and returning with U locked.  */
static void
unlink_batch (struct unlinker *u, struct batch *b)
{
  pthread_mutex_unlock (&u->lock);
  int err[BATCH_FILES];
  unsigned int removed = 0;
  for (unsigned int i = 0; i < b->n; i++)
    {
      /* A network or FUSE file system's unlinkat can be interrupted
         before it removed anything.  */
      int ret = SYS_RETRY_EINTR (sys_unlinkat (b->file[i].dirfd,
                                               b->names + b->file[i].name,
                                               0));
      err[i] = ret == -ENOENT ? 0 : -ret;
      removed += ret == 0;
    }
  pthread_mutex_lock (&u->lock);
  u->removed += removed;
  for (unsigned int i = 0; i < b->n; i++)
    if (err[i])
      keep_failure (u, b, i, err[i]);
}

/* Remove the files of B, claimed from the queue by this thread, and let
   the batches done leave it (U locked).  */
static void
run_batch (struct unlinker *u, struct batch *b)
{
  unlink_batch (u, b);
  b->done = true;
  while (u->head && u->head->done)
    {
      struct batch *old = u->head;
      u->head = old->next;
      free (old);
    }
  if (!u->head)
    u->tail = NULL;
  pthread_cond_broadcast (&u->done);
}

/* The oldest batch not claimed, now claimed (U locked).  */
static struct batch *
claim (struct unlinker *u)
{
  struct batch *b = u->unclaimed;
  u->unclaimed = b->next;
  return b;
}

static void *
unlinker_thread (void *arg)
{
  struct unlinker *u = arg;
  pthread_mutex_lock (&u->lock);
  for (;;)
    {
      while (!u->unclaimed && !u->stopping)
        pthread_cond_wait (&u->work, &u->lock);
      if (!u->unclaimed)
        break;
      run_batch (u, claim (u));
    }
  pthread_mutex_unlock (&u->lock);
  return NULL;
}

/* Start U's thread; false if it cannot be created.  */
static bool
start_thread (struct unlinker *u)
{
  /* Signals stay the walk's thread's: its handlers run there, as they
     did before the unlinker.  */
  sigset_t all, old;
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  u->stopping = false;
  u->running = pthread_create (&u->thread, NULL, unlinker_thread, u) == 0;
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  return u->running;
}

/* End U's thread, once every file queued was tried.  */
static void
stop_thread (struct unlinker *u)
{
  unlinker_wait (u, UINT64_MAX);
  if (!u->running)
    return;
  pthread_mutex_lock (&u->lock);
  u->stopping = true;
  pthread_cond_signal (&u->work);
  pthread_mutex_unlock (&u->lock);
  pthread_join (u->thread, NULL);
  u->running = false;
}

struct unlinker *
unlinker_start (void)
{
  struct unlinker *u = xzalloc (sizeof *u);
  pthread_mutex_init (&u->lock, NULL);
  pthread_cond_init (&u->work, NULL);
  pthread_cond_init (&u->done, NULL);
  if (start_thread (u))
    return u;
  pthread_cond_destroy (&u->done);
  pthread_cond_destroy (&u->work);
  pthread_mutex_destroy (&u->lock);
  free (u);
  return NULL;
}

void
unlinker_pause (struct unlinker *u)
{
  stop_thread (u);
}

void
unlinker_resume (struct unlinker *u)
{
  if (!u->running)
    start_thread (u);
}

/* Queue the batch being filled.  */
static void
queue_filling (struct unlinker *u)
{
  struct batch *b = u->filling;
  u->filling = NULL;
  pthread_mutex_lock (&u->lock);
  if (u->tail)
    u->tail->next = b;
  else
    u->head = b;
  u->tail = b;
  if (!u->unclaimed)
    u->unclaimed = b;
  pthread_cond_signal (&u->work);
  pthread_mutex_unlock (&u->lock);
}

uint64_t
unlinker_add (struct unlinker *u, int dirfd, const char *name, uint64_t dir)
{
  size_t len = strlen (name) + 1;
  struct batch *b = u->filling;
  if (b && (b->n == BATCH_FILES || BATCH_NAMES - b->names_len < len))
    {
      queue_filling (u);
      b = NULL;
    }
  if (!b)
    {
      b = u->filling = xmalloc (sizeof *b);
      b->next = NULL;
      b->first = u->next_ticket;
      b->n = b->names_len = 0;
      b->done = false;
    }
  memcpy (b->names + b->names_len, name, len);
  b->file[b->n++] = (struct queued_file) { .dirfd = dirfd,
                                           .name = b->names_len,
                                           .dir = dir };
  b->names_len += len;
  return u->next_ticket++;
}

void
unlinker_wait (struct unlinker *u, uint64_t ticket)
{
  /* The batch being filled, not full, is removed here: the files of a
     small directory are not worth waking the other thread and waiting
     for it.  Newer than every batch queued, it is done first.  */
  struct batch *mine = NULL;
  if (u->filling && u->filling->first <= ticket)
    {
      mine = u->filling;
      u->filling = NULL;
    }
  pthread_mutex_lock (&u->lock);
  if (mine)
    {
      unlink_batch (u, mine);
      free (mine);
    }
  /* Every ticket below the head's first is done.  */
  while (u->head && u->head->first <= ticket)
    {
      if (u->unclaimed && u->unclaimed->first <= ticket)
        run_batch (u, claim (u));
      else
        pthread_cond_wait (&u->done, &u->lock);
    }
  pthread_mutex_unlock (&u->lock);
}

size_t
unlinker_failures (struct unlinker *u, uint64_t dir,
                   void (*failed) (const char *name, int err, void *arg),
                   void *arg)
{
  struct failure *mine = NULL;
  size_t n = 0, alloc = 0;
  pthread_mutex_lock (&u->lock);
  size_t kept = 0;
  for (size_t i = 0; i < u->nfailures; i++)
    if (dir == UINT64_MAX || u->failures[i].dir == dir)
      {
        if (n == alloc)
          mine = x2nrealloc (mine, &alloc, sizeof *mine);
        mine[n++] = u->failures[i];
      }
    else
      u->failures[kept++] = u->failures[i];
  u->nfailures = kept;
  pthread_mutex_unlock (&u->lock);
  for (size_t i = 0; i < n; i++)
    {
      failed (mine[i].name, mine[i].err, arg);
      free (mine[i].name);
    }
  free (mine);
  return n;
}

uintmax_t
unlinker_removed (struct unlinker *u)
{
  pthread_mutex_lock (&u->lock);
  uintmax_t removed = u->removed;
  pthread_mutex_unlock (&u->lock);
  return removed;
}

void
unlinker_stop (struct unlinker *u)
{
  stop_thread (u);
  for (size_t i = 0; i < u->nfailures; i++)
    free (u->failures[i].name);
  free (u->failures);
  pthread_cond_destroy (&u->done);
  pthread_cond_destroy (&u->work);
  pthread_mutex_destroy (&u->lock);
  free (u);
}
