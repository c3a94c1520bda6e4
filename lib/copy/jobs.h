/* copy/jobs.h -- the workers of a parallel tree copy (xcp -j N).

   copy_tree's walk stays on the calling thread: it lists the source,
   makes the directories and the special files, and hands each regular
   file to a pool of worker threads, which copy it with copy_file as the
   walk would have.  Threads, not processes: the hard-link map and the
   report of -v are shared without copying (the engines' refusal cache
   is each thread's), and a worker costs no more than its stack.

   A job carries what the walk knew of its file: its name in its source
   directory, the paths in messages, its listed inode, where its copy
   goes.  The two directories are a copy_dirs, shared by the files of one
   directory: duplicates of the walk's descriptors (the walk's own move
   on), closed when the last of its files is done and the walk let go of
   it.

   Order: the jobs and the walk's own reports (a directory made, a link
   copied) go into one ring, in the walk's order; a report (the
   copy_options.copied of -v and the progress count) is passed on once
   everything before it has been, so -v prints what the serial walk
   prints, in its order.  Error messages are printed as they happen.

   Bounds: at most COPY_JOBS_RING entries wait or run (the walk waits for
   room); each worker copies one file at a time, with at most the
   descriptors a serial copy of one file needs.  Signals: the workers
   block them all, so that a fatal one is handled on the walk's thread
   (see copy/install.h), but SIGPIPE and SIGXFSZ, raised by their own
   writes.  */

#ifndef NC_COPY_JOBS_H
#define NC_COPY_JOBS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "copy/options.h"

/* The most workers: -j's limit.  */
enum { COPY_JOBS_MAX = 256 };

/* Entries of the ring: waiting, running or done but not yet reported.  */
enum { COPY_JOBS_RING = 4096 };

struct copy_pool;
struct copy_dirs;

/* One regular file for a worker.  The strings are copied.  */
struct copy_job_file
{
  const char *name;             /* in the source directory */
  const char *src;              /* the paths in messages */
  const char *dst;
  const char *link_path;        /* for hard links (see copy/dest.h); or NULL */
  uint64_t ino;                 /* as listed; 0: unknown */
  bool fresh;                   /* the directory of the copy is new */
  bool inherits_acl;            /* it has a default ACL */
  bool group_of_dir;            /* it is set-group-ID */
};

/* Start WORKERS threads (2 at least) copying for X, with LINK_BASE the
   directory the hard links' paths start from.  The walk then uses
   copy_pool_options instead of X, whose copied it orders with the
   workers'.  NULL if no thread could be started (the caller copies
   serially; nothing is reported).  */
struct copy_pool *copy_pool_start (const struct copy_options *x,
                                   unsigned int workers, int link_base);

/* The options the walk copies with while P runs: X's, reports ordered.  */
const struct copy_options *copy_pool_options (struct copy_pool *p);

/* Wait for every job, report what is left, end the workers, free P.  */
void copy_pool_end (struct copy_pool *p);

/* The directories of the files of one source directory: SRC_DIRFD and
   DST_DIRFD (on DST_DEV) duplicated.  NULL if they cannot be (EMFILE:
   the caller copies those files itself).  */
struct copy_dirs *copy_dirs_new (struct copy_pool *p, int src_dirfd,
                                 int dst_dirfd, dev_t dst_dev);

/* Wait until every file queued with D is done.  */
void copy_dirs_wait (struct copy_pool *p, struct copy_dirs *d);

/* Whether every file queued with D is done.  */
bool copy_dirs_idle (struct copy_pool *p, struct copy_dirs *d);

/* The walk lets go of D: its descriptors are closed once its last file
   is done.  */
void copy_dirs_put (struct copy_pool *p, struct copy_dirs *d);

/* Hand the files queued so far to the workers if one waits: the walk
   calls it where it may go on for long without queuing one (making
   the directories of a subtree).  */
void copy_pool_handoff (struct copy_pool *p);

/* Queue the file F of D for a worker (waiting for room in the ring).  */
void copy_pool_file (struct copy_pool *p, struct copy_dirs *d,
                     const struct copy_job_file *f);

#endif
