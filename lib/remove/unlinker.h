/* remove/unlinker.h -- files of a tree removed by a second thread while
   the walk goes on.

   The walk's thread queues each file with its directory's descriptor
   (unlinker_add) and goes on listing and entering directories; a thread
   of the unlinker removes the queued files in order, in batches of 32
   (fewer files, waited for, the walk's thread removes itself: waking the
   other thread would cost more).  Before
   the walk removes a directory, or closes the descriptor of one, it
   waits for the files it queued (unlinker_wait), removing queued files
   itself meanwhile: both processors remove files, whatever the shape of
   the tree.  Two threads unlinking take about 0.6 of one thread's time
   on tmpfs, even in one directory: much of unlinkat's work (the last
   reference to the inode) is done outside the directory's lock.

   A file that cannot be removed is kept, with its name and its
   directory's key, until the walk asks for the failures of that directory
   (unlinker_failures), in its post-order visit, where its path is known.
   A file gone already (ENOENT) is no failure, and not counted.  */

#ifndef NC_REMOVE_UNLINKER_H
#define NC_REMOVE_UNLINKER_H

#include <stddef.h>
#include <stdint.h>

struct unlinker;

/* A started unlinker, or NULL if its thread could not be created: the
   caller then removes its files itself.  */
struct unlinker *unlinker_start (void);

/* Queue NAME of the directory DIRFD, whose key is DIR (the caller's
   name for the directory, for unlinker_failures), for removal.  DIRFD
   must stay open until unlinker_wait has returned for the ticket
   returned.  */
uint64_t unlinker_add (struct unlinker *u, int dirfd, const char *name,
                       uint64_t dir);

/* Return once every file queued up to TICKET (every one queued so far:
   UINT64_MAX) has been tried.  */
void unlinker_wait (struct unlinker *u, uint64_t ticket);

/* Call FAILED (NAME, ERR, ARG) for each file tried of the directory DIR
   (of every directory: UINT64_MAX) that could not be removed (ERR a
   positive errno value), and forget them.  Return how many there
   were.  */
size_t unlinker_failures (struct unlinker *u, uint64_t dir,
                          void (*failed) (const char *name, int err,
                                          void *arg),
                          void *arg);

/* Wait for every file queued and end U's thread, keeping the failures:
   a process of one thread grows its table of descriptors at once, where
   one of two waits for every processor to pass a grace period (RCU) at
   each growth.  Until unlinker_resume, the walk's thread removes the
   files it queues itself, when it waits for them.  */
void unlinker_pause (struct unlinker *u);

/* Start U's thread again after unlinker_pause (if it cannot be, the
   walk's thread goes on removing the files itself).  */
void unlinker_resume (struct unlinker *u);

/* The files removed so far.  */
uintmax_t unlinker_removed (struct unlinker *u);

/* Wait for every file queued, end the thread, free U.  */
void unlinker_stop (struct unlinker *u);

#endif
