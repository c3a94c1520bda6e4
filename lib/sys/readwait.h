/* sys/readwait.h -- one read(2) that waits for input.

   A descriptor inherited from a shell or a pipeline (standard input, most
   often) may have been left O_NONBLOCK by whoever shares its open file
   description: its reads then answer EAGAIN whenever the writer is
   slower than the reader.  A tool that reads such an input to its end
   waits for it instead of failing.  */

#ifndef NC_SYS_READWAIT_H
#define NC_SYS_READWAIT_H

#include <stddef.h>
#include <sys/types.h>

/* One read of at most N bytes of FD into BUF: the count read, 0 at the
   end, or -errno.  EINTR is retried; on EAGAIN, ppoll(2) waits until FD
   is readable (its own EINTR retried) and the read is made again.  A
   failed wait gives ppoll's -errno: with one descriptor on the stack,
   its only failure left is -ENOMEM, which a read of a pipe, a socket or
   a terminal does not give, so a caller can name the call that failed.  */
ssize_t read_wait (int fd, void *buf, size_t n);

#endif
