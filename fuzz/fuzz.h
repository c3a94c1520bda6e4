/* fuzz.h -- what the libFuzzer targets of fuzz/ share.

   The parsers report a bad operand as the tools do: a usage error, which
   exits.  libFuzzer takes an exit for a crash, so the fuzz build compiles
   lib/ and the tools with -Dexit=fuzz_exit: fuzz_call turns that exit
   back into a return.  */

#ifndef NC_FUZZ_H
#define NC_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The entry point libFuzzer calls; declared for -Wmissing-prototypes.  */
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Stands for exit() in the fuzz build (see above).  */
_Noreturn void fuzz_exit (int status);

/* Run FN (ARG) and return true if it returned, false if it exited; the
   status it exited with is then in *STATUS (if not NULL).

   FN runs twice.  The first run has leak checking off: a parser that
   exits leaves what it allocated to the exit, as the tools may, and that
   is no leak.  Only if it returns is it run again with leak checking on,
   so FN must do the same each time and free what it allocates.
   libFuzzer still counts the first run's allocations, and would check for
   leaks after every input that exits: fuzz/run tells it not to for the
   targets of tools, whose leaks LeakSanitizer then checks at the end.  */
bool fuzz_call (void (*fn) (void *), void *arg, int *status);

/* A null-terminated copy of the SIZE bytes at DATA, without the bytes
   after the first null byte: the parsers take C strings.  Free it.  */
char *fuzz_string (const uint8_t *data, size_t size);

/* Words of an argument vector fuzz_argv makes at most: enough to reach
   every branch of the option parsers.  */
enum { FUZZ_MAX_WORDS = 64 };

/* An argument vector as a tool's main gets it, into ARGV (room for
   FUZZ_MAX_WORDS + 2 pointers): NAME, then the SIZE bytes at DATA split
   at their null bytes into at most FUZZ_MAX_WORDS words (the last ends
   where DATA ends), then NULL.  Returns argc.  The words are in a copy
   of DATA, *WORDS, which the caller frees after the last use of ARGV.  */
int fuzz_argv (const char *name, const uint8_t *data, size_t size,
               char **argv, char **words);

/* Abort with MESSAGE (a crash for libFuzzer) unless COND holds: the
   targets check what the parsers promise, not only that they survive.  */
#define fuzz_assert(cond, message) \
  ((cond) ? (void) 0 : fuzz_fail (__FILE__, __LINE__, message))
_Noreturn void fuzz_fail (const char *file, int line, const char *message);

#endif
