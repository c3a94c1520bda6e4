/* copy/samefile.c -- whether a copy from a file onto itself is safe.  */

#include <config.h>

#include "copy/samefile.h"

#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/calls.h"

/* The position FD reads or writes at: *OFF, or its own offset.  */
static off_t
position (int fd, const off_t *off)
{
  return off ? *off : sys_lseek (fd, 0, SEEK_CUR);
}

int
samefile_check (int in_fd, const off_t *in_off, int out_fd,
                const off_t *out_off, off_t truncate_at, uint64_t length)
{
  struct stat in_st, out_st;
  if (sys_fstat (in_fd, &in_st) < 0 || sys_fstat (out_fd, &out_st) < 0
      || !S_ISREG (in_st.st_mode) || !S_ISREG (out_st.st_mode)
      || in_st.st_dev != out_st.st_dev || in_st.st_ino != out_st.st_ino)
    return 0;

  /* The file's size now, and when the copy starts.  */
  off_t size = in_st.st_size;
  off_t start_size = truncate_at == SAMEFILE_NO_TRUNCATE ? size : truncate_at;

  /* Where the reads start, and where the writes do.  */
  off_t rpos = position (in_fd, in_off);
  if (rpos < 0)
    return rpos;
  off_t wpos;
  int flags = sys_fcntl (out_fd, F_GETFL, 0);
  if (flags < 0)
    return flags;
  if (flags & O_APPEND)
    wpos = start_size;
  else if ((wpos = position (out_fd, out_off)) < 0)
    return wpos;

  /* The bytes the copy should move: COUNT from RPOS, as from a file of
     its own; BOUNDED when LENGTH, not the end of the file, ends them.  */
  off_t count = rpos < size ? size - rpos : 0;
  bool bounded = length <= (uint64_t) count;
  if (bounded)
    count = (off_t) length;

  if (count == 0)
    /* Nothing to move: safe if the first read meets the end of the file
       (a truncation past RPOS would let it read its zeros, then what
       the writes append, without end).  */
    return !(bounded || start_size <= rpos);

  /* The bytes read, [RPOS, RPOS + COUNT), are there after the truncation,
     and no write lands on them: the writes, [WPOS, WPOS + COUNT), are
     wholly after them or wholly before them.  */
  off_t rend = rpos + count;
  if (start_size < rend)
    return 1;
  bool after = wpos >= rend;
  bool before = count <= rpos && wpos <= rpos - count;
  if (!after && !before)
    return 1;

  /* LENGTH ends the reads; or the end of the file does, which must not
     move before the reads meet it: the file starts the copy as it was,
     and the writes stay inside it.  */
  if (bounded)
    return 0;
  return !(before && start_size == size);
}
