/* wait/target.h -- the things a tool waits on, named on its command line: a
   descriptor number ("3"), a file to open without blocking (a Unix socket
   being connected to instead), a process ("pid:N"), or a path watched
   until an event; taken all at once, and passed on to a command once the
   wait is over.  */

#ifndef NC_WAIT_TARGET_H
#define NC_WAIT_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "wait/pathwatch.h"

/* What a target is.  */
enum target_kind
{
  TARGET_DESCRIPTOR,   /* a descriptor or a file: ready by its poll events */
  TARGET_PROCESS,      /* pid:N, a pidfd: readable once the process ended */
  TARGET_PATH,         /* a path watch: an inotify descriptor */
};

/* A target: what to wait for, and what the wait found.  */
struct target
{
  const char *name;    /* as given on the command line */
  enum target_kind kind;
  int fd;
  bool opened;         /* by targets_open, non-blocking; else inherited */
  short revents;       /* the events that made it ready; 0 while not */
  enum pathwatch_event path_event;     /* TARGET_PATH */
  struct pathwatch *watch;             /* TARGET_PATH */
  /* TARGET_PROCESS, once ready with its status asked for: an enum
     process_status of wait/pidfd.h, and the wait status if known; -1
     while not.  */
  int status;
  int wstatus;
};

/* The number of the descriptor that NAME names: digits only, no sign, no
   blank.  Return it, INT_MAX for one too large to be open, or -1 if NAME
   is not a descriptor number (the empty string is not).  */
int target_descriptor_number (const char *name);

/* The process that NAME names as "pid:N": N, decimal digits only, from 1
   to INT_MAX.  Return N, 0 if NAME does not start with "pid:", or -1 if
   what follows is not such a number.  */
int target_pid_number (const char *name);

/* Connect a socket, non-blocking and close-on-exec, to the Unix socket
   PATH, whichever of the three types (stream, seqpacket, datagram) it is.
   Return the descriptor, or -errno: -ENAMETOOLONG for a PATH longer than
   a socket address holds, else connect(2)'s error for the last type
   tried (a type other than the socket's gives EPROTOTYPE).  */
int target_connect_unix (const char *path);

/* Open NAME, non-blocking, close-on-exec, without becoming its
   controlling terminal, for EVENTS (poll(2) bits): read-only, write-only
   for POLLOUT alone, read-write for POLLOUT with POLLIN or POLLPRI.  A
   Unix socket, which cannot be opened (ENXIO), is connected to.  Return
   the descriptor or -errno.  */
int target_open (const char *name, short events);

/* Take the N targets of T, each named, of kind TARGET_DESCRIPTOR (one
   that names a process becomes TARGET_PROCESS), or TARGET_PATH with its
   path_event; the other fields are set here.  The descriptor numbers
   are checked to be open first, before opening any file could hand out
   their numbers.  Then pid:N is taken as a pidfd, once, here, so that a
   pid reused after the process has ended is never mistaken for it; any
   other name is opened by target_open for EVENTS, and refused if a
   directory (EISDIR), which would always look ready; a path is watched
   by pathwatch_start, FOLLOW a link at its end, SINCE the start of the
   waiter (see pathwatch_start).  Return 0, or -errno
   with *FAILED the target that failed, where its fields say at which
   step: a descriptor number not open (opened false); a file that could
   not be opened (opened, fd -1) or cannot be waited for (opened, fd
   open); a process (pidfd_open's error: ENOSYS before Linux 5.3, EINVAL
   or ENOENT for a thread that does not lead its process); a path
   (pathwatch_failed names what).  */
int targets_open (struct target *t, size_t n, short events, bool follow,
                  const struct timespec *since, struct target **failed);

/* Put the N targets of T on descriptors 3 to 2 + N, in order, each that
   targets_open opened made blocking (what a reader of it expects of a
   read); an inherited descriptor keeps its flags, and stays open on its
   own number as well.  *READY is then set to the list of the ready
   ones' new numbers ("3 5"), to free.  Return 0, or -errno with *FAILED
   the target that failed, and *TO the descriptor it could not be put on
   (dup3's error), or -1 if it could not be moved out of the way first
   (fcntl's).  */
int targets_pass (const struct target *t, size_t n, char **ready,
                  const struct target **failed, int *to);

#endif
