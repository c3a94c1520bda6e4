/* ranges/stream.h -- an input that can be read only once, in order (a
   pipe, a socket, a terminal), read by read(2): the ranges of a dump
   taken from it as it goes by, forward only.

   EINTR is retried; EAGAIN (a descriptor left non-blocking by whoever
   shares it) waits for input by ppoll(2).  A read error ends the process
   with a message naming the input.  */

#ifndef NC_RANGES_STREAM_H
#define NC_RANGES_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct stream_reader
{
  int fd;
  const char *name;             /* for messages */
  uint64_t pos;                 /* bytes read so far */
  bool at_eof;                  /* a read returned nothing */
};

void stream_init (struct stream_reader *s, int fd, const char *name);

/* Read N bytes into BUF, or fewer at the end of the input; return how
   many.  */
size_t stream_read (struct stream_reader *s, void *buf, size_t n);

/* Read and throw away the bytes up to POS, at least S->pos, through
   SCRATCH of SIZE bytes; return whether the input reaches POS.  */
bool stream_skip_to (struct stream_reader *s, uint64_t pos, void *scratch,
                     size_t size);

/* Dump, as range INDEX at OFFSET (dump_begin, dump_data, dump_end of
   ranges/dumpfmt.h), the next LEN bytes of the input (UINT64_MAX: to its
   end) if it stands at OFFSET, none if it ended before; read through
   CHUNK of SIZE bytes, a multiple of what dump_start returned.  Return
   the bytes dumped.  */
uint64_t stream_dump (struct stream_reader *s, uint64_t offset, size_t index,
                      uint64_t len, unsigned char *chunk, size_t size);

#endif
