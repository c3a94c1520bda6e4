/* ns/keeper.h -- the keeper of unshare-run: a process forked before
   unshare(2), so that it stays in the original namespaces, that writes
   the new user namespace's id maps (a process of the parent user
   namespace may do what the new one cannot; ranges of ids, as root
   directly, else by running the set-user-ID newuidmap and newgidmap,
   ns/idmap.h) and bind-mounts the namespaces to persist on their files.
   It exists only when there is such work.

   The order, in the process that unshares (the "target"):

     ns_keeper_open_files (r, &k);  files of --NS=FILE, checked or made
     ns_keeper_start (r, &k);       the keeper, forked
     ns_keeper_close_files (&k);    the keeper holds them now
     unshare (...)                  on failure: ns_keeper_unmake_files
     ns_keeper_stage1 (&k);         maps, and every persist but PID's
     fork ()                        the first process of a PID namespace
     ns_keeper_stage2 (&k);         persist the PID namespace

   Failures are ns/process.h's: reported as error() does, and the process
   ends with status 1.  The keeper reports its own, ends with status 1,
   and the stage that waited for it then ends the target (the stage 2
   after killing CHILD).  */

#ifndef NC_NS_KEEPER_H
#define NC_NS_KEEPER_H

#include <stdbool.h>
#include <sys/types.h>

#include "ns/request.h"

struct ns_keeper
{
  pid_t pid;                    /* 0: none */
  int to, from;                 /* pipes to and from it */
  bool stage2;                  /* a PID namespace to persist */
  int persist_fd[NS_KINDS];     /* open on R->persist[i], or -1 */
  bool persist_made[NS_KINDS];  /* created here */
  char *const *persist;         /* R->persist */
};

/* Open the files to persist namespaces on (R->persist), before anything
   is unshared: first the existing ones, all checked (ns_persist_open),
   then the missing ones, made.  On failure, remove those made.  */
void ns_keeper_open_files (const struct ns_run *r, struct ns_keeper *k);

/* Close them, in a process that does not bind them.  */
void ns_keeper_close_files (struct ns_keeper *k);

/* Remove the files made to persist namespaces on: nothing was unshared
   after all.  */
void ns_keeper_unmake_files (struct ns_keeper *k);

/* Fork the keeper if there are maps to write or namespaces to persist;
   K->pid stays 0 if not.  */
void ns_keeper_start (const struct ns_run *r, struct ns_keeper *k);

/* Have the keeper write the maps and persist the namespaces but PID's,
   now that they exist; wait for it unless it has a stage 2.  */
void ns_keeper_stage1 (struct ns_keeper *k);

/* With a PID namespace to persist (K->stage2), once its first process,
   CHILD, exists: have the keeper persist it, and wait for it.  On
   failure, kill CHILD, and end.  */
void ns_keeper_stage2 (struct ns_keeper *k, pid_t child);

/* Close the keeper's pipes, in a child of the target.  */
void ns_keeper_forget (struct ns_keeper *k);

#endif
