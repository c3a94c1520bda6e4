/* ranges/patch-lock.h -- one pwritev-patch at a time on a file.

   CONTRACT.  nc_patch_lock takes an open file description lock (fcntl
   F_OFD_SETLK, Linux 3.15) over the whole of FILE, on the descriptor
   the run reads and writes it through: a write lock for a run that may
   write (patches, a journal's recovery), a read lock for one that only
   reads (--dry-run), which other reading runs share but which no
   writing run does, so that it never shows a file half patched.  The
   caller takes it before FILE's journal is looked at, so that no run
   takes the journal of a run still under way for one that a crash
   left, and holds it to the end: closing the descriptor releases it, as
   the kernel does when the process ends, however it ends.

   The lock is advisory: it keeps off the other runs of pwritev-patch,
   and the programs that take fcntl record locks over FILE (OFD and
   POSIX locks conflict with each other), and no other reader or
   writer.  */

#ifndef NC_RANGES_PATCH_LOCK_H
#define NC_RANGES_PATCH_LOCK_H

#include <stdbool.h>

/* Lock FILE, open on FD (for writing too if WRITE), for writing if
   WRITE, else for reading.  Where another process holds a lock that
   conflicts: with WAIT, wait until it is released; without, exit with
   status 2 and a message that names the holder's process where the
   kernel tells it (never for an OFD lock).  Return 0 once FILE is
   locked, or -EINVAL or -ENOLCK where it cannot be (a kernel before
   Linux 3.15, a file system without record locks), and the run goes on
   unlocked.  Any other failure exits with status 1.  */
int nc_patch_lock (int fd, const char *file, bool write, bool wait);

#endif
