/* sys/fdroom.h -- how many more descriptors this process may open.

   A tool that caches directory descriptors (the walker's stack of
   ancestors, xcp's stack of the copies) sizes its caches from what is
   left under the soft RLIMIT_NOFILE, less what it needs besides them,
   instead of a fixed count that a low `ulimit -n` turns into EMFILE.  */

#ifndef NC_SYS_FDROOM_H
#define NC_SYS_FDROOM_H

#include <stddef.h>

/* The number of descriptor numbers below the soft RLIMIT_NOFILE that are
   free now, up to WANT: the count stops at WANT, so that a limit of a
   million costs no more than WANT probes and the open descriptors.
   Without a limit (RLIM_INFINITY, or getrlimit failing), WANT.  */
size_t fd_room (size_t want);

/* Raise the soft RLIMIT_NOFILE toward the hard one, up to WANT (a tool
   that never uses select(2), whose sets stop at 1024, may hold more
   descriptors than the 1024 a session is usually given).  Return the
   soft limit now (WANT without a limit, or if getrlimit fails).  */
size_t fd_raise_limit (size_t want);

/* Make the table of descriptors of this process hold N at least, at
   once, as the kernel does when a descriptor as high as N - 1 is opened
   (it is closed again): a process that will hold many can grow it in
   one step while it has one thread (see remove/unlinker.h).  */
void fd_table_reserve (size_t n);

#endif
