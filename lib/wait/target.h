/* wait/target.h -- the things a tool waits on, named on its command line: a
   descriptor number ("3"), or a file to open without blocking, a Unix
   socket being connected to instead.  */

#ifndef NC_WAIT_TARGET_H
#define NC_WAIT_TARGET_H

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

#endif
