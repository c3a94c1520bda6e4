/* ranges/read-all.h -- the whole contents of a file descriptor: a patch's
   data file, an xxd dump, a journal.  */

#ifndef NC_RANGES_READ_ALL_H
#define NC_RANGES_READ_ALL_H

#include <stddef.h>

/* Read FD to its end into *BUF (xmalloc'd, never NULL), its length in
   *LEN, by sys/readwait.h's reads (EINTR retried, EAGAIN waited out):
   0, or the -errno of the read or the wait that failed (*BUF then freed
   and NULL).  */
int nc_read_all (int fd, unsigned char **buf, size_t *len);

#endif
