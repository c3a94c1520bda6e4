/* copy/samefile.h -- whether a copy from a file onto itself is safe.

   splice-in and splice-out copy between a file they open and one the
   shell gave them; both may be the same regular file (`splice-out f < f`,
   `splice-in f >> f`, through a hard link or a symbolic link too).  Such a
   copy either reads back what it writes, and then fills the disk, or
   reads what its own truncation destroyed.  cat refuses it ("input file
   is output file"); so do these tools, except where the bytes read and
   the bytes written provably cannot meet.  */

#ifndef NC_COPY_SAMEFILE_H
#define NC_COPY_SAMEFILE_H

#include <stdint.h>
#include <sys/types.h>

/* samefile_check's TRUNCATE_AT when the output is not truncated.  */
#define SAMEFILE_NO_TRUNCATE ((off_t) -1)

/* A copy of at most LENGTH bytes (COPY_TO_EOF: to the end of the input)
   from IN_FD at *IN_OFF (or at IN_FD's own offset when IN_OFF is NULL) to
   OUT_FD at *OUT_OFF (or at OUT_FD's own offset, or at its end when it is
   O_APPEND), after the output file is cut or extended to TRUNCATE_AT
   bytes (not negative; SAMEFILE_NO_TRUNCATE: left as it is).

   Return 0 when the copy may go ahead: the descriptors are not the same
   regular file (or one cannot be fstat'ed: the copy will report that), or
   they are and the copy reads nothing and then meets the end of the file,
   or it reads bytes of the file as it was, all of them intact after the
   truncation, from a range the writes never touch, and stops either after
   LENGTH bytes or at an end of file that the writes did not move.
   Return 1 when it may not, -errno when a position cannot be told.
   Nothing is changed either way.  */
int samefile_check (int in_fd, const off_t *in_off, int out_fd,
                    const off_t *out_off, off_t truncate_at, uint64_t length);

#endif
