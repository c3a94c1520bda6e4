/* wait/pathwatch.h -- wait for a path to exist, to be gone, or for the file at
   it to be closed after writing, whether or not the directories on its
   way exist yet.

   A path watch is an inotify descriptor, to be waited for with ppoll like
   any other: readable when something on the way to the path changed.
   Every directory on the way is watched, and the entry looked up in it is
   looked up only once the watch is in place, so a change is either seen
   by that look-up or reported by the watch: nothing happens between a
   check and a watch unseen.  Symbolic links on the way are resolved here,
   component by component, each link's directory watched too, rather than
   by the kernel, whose resolution a watch could not follow.  */

#ifndef NC_WAIT_PATHWATCH_H
#define NC_WAIT_PATHWATCH_H

#include <stdbool.h>
#include <time.h>

enum pathwatch_event
{
  PATHWATCH_EXISTS,     /* the path names something */
  PATHWATCH_GONE,       /* the path names nothing (ENOENT, ENOTDIR) */
  PATHWATCH_CLOSED,     /* the file at the path was closed after writing */
};

struct pathwatch;

/* Start watching PATH for EVENT in *PW; FOLLOW: a symbolic link at the
   end of PATH is followed (one on the way always is).  SINCE, for
   PATHWATCH_CLOSED: when the waiter started, as CLOCK_REALTIME_COARSE
   gave it (the clock of file times), or NULL; a file at PATH from the
   start whose data or status changed at or after SINCE, and that no one
   has open for writing (a read lease tells), counts as closed at once:
   it was written and closed before its watch was in place.  Return 0,
   or -errno, pathwatch_failed() then naming the path concerned.  *PW is
   set in either case; give it to pathwatch_free.  */
int pathwatch_start (const char *path, enum pathwatch_event event,
                     bool follow, const struct timespec *since,
                     struct pathwatch **pw);

/* The descriptor to wait on for reading.  */
int pathwatch_fd (const struct pathwatch *pw);

/* Read the events queued on the descriptor and look again where they
   say something changed.  Return 1 once the event happened (and from
   then on), 0 while it has not, or -errno.  */
int pathwatch_update (struct pathwatch *pw);

/* Whether the event happened: at the start, or by an update.  */
bool pathwatch_ready (const struct pathwatch *pw);

/* The path or directory the last failure concerns.  */
const char *pathwatch_failed (const struct pathwatch *pw);

void pathwatch_free (struct pathwatch *pw);

#endif
