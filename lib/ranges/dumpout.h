/* ranges/dumpout.h -- the output of a dump: standard output through a
   buffer of its own, which the dump formats fill in place.

   A write error ends the process: quietly with status 1 for EPIPE (the
   reader went away, as cat does), else with a message.  */

#ifndef NC_RANGES_DUMPOUT_H
#define NC_RANGES_DUMPOUT_H

#include <stddef.h>
#include <stdint.h>

/* The most out_reserve gives at once.  */
enum { OUT_SIZE = 256 * 1024 };

/* Make the buffer; free it, the rest written out.  */
void out_open (void);
void out_close (void);

/* Room for N bytes (at most OUT_SIZE) at the returned pointer; out_commit
   says where the bytes written there end.  */
char *out_reserve (size_t n);
void out_commit (char *end);

/* N bytes from P; the string S; V in decimal.  */
void out_bytes (const void *p, size_t n);
void out_str (const char *s);
void out_decimal (uint64_t v);

/* V in decimal at P, without a sign; return the end.  */
char *put_decimal (char *p, uint64_t v);

/* Write out what is buffered, before a message on standard error.  */
void dump_flush (void);

#endif
