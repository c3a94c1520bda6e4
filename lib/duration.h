/* duration.h -- durations such as "250ms", "1.5s" or "2m" as a struct
   timespec, to the nanosecond, without floating point.

   Syntax: a decimal number, with an optional fraction ("1.5", ".5", "2."),
   then an optional unit: ns, us, ms, s (the default), m, h or d.  No sign,
   no exponent, no blanks.  A fraction finer than a nanosecond is rounded
   up to the next nanosecond, so that a parsed timeout is never shorter than
   the one written.  */

#ifndef NC_DURATION_H
#define NC_DURATION_H

#include <time.h>

#include "intprops.h"

/* Parse ARG into *TS.  Return 0, -EINVAL for a malformed duration, or
   -ERANGE for one whose seconds do not fit in a time_t.  *TS is left alone
   on failure.  */
int duration_parse (const char *arg, struct timespec *ts);

/* Room for duration_format's result: the seconds, a point, 9 digits and
   the terminating null byte.  */
#define DURATION_BUFSIZE (INT_STRLEN_BOUND (time_t) + 1 + 9 + 1)

/* Write the non-negative, normalized duration TS into BUF as seconds with
   nine decimals ("1.500000000"), a valid JSON number too.  Return BUF.  */
char *duration_format (const struct timespec *ts,
                       char buf[DURATION_BUFSIZE]);

/* *DEADLINE = *NOW + *TS, two normalized, non-negative times; a sum
   beyond the largest time_t is that time_t, with the nanoseconds of the
   last second.  */
void duration_deadline (const struct timespec *now, const struct timespec *ts,
                        struct timespec *deadline);

/* *LEFT = *DEADLINE - *NOW, or zero once the deadline has passed.  */
void duration_left (const struct timespec *deadline,
                    const struct timespec *now, struct timespec *left);

#endif
