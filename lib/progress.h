/* progress.h -- the one-line progress report that rmtree and xcp draw on
   standard error.

   On a terminal the line is redrawn in place four times a second and
   erased before any other message, so that messages never land in the
   middle of it; elsewhere (--progress into a file or a pipe) a complete
   line is appended once a second, which a log can keep.  */

#ifndef NC_PROGRESS_H
#define NC_PROGRESS_H

#include <stdbool.h>
#include <time.h>

struct progress
{
  bool tty;                /* standard error is a terminal */
  bool shown;              /* a line is on the terminal, to be erased */
  struct timespec start;   /* when progress_start was called */
  struct timespec next;    /* when the next line is due */
};

/* Start the clock; tell whether standard error is a terminal.  */
void progress_start (struct progress *p);

/* Whether a line is due now; if it is, the one after is scheduled.  */
bool progress_due (struct progress *p);

/* Seconds since progress_start.  */
double progress_seconds (const struct progress *p);

/* Draw "PROGRAM: " and FORMAT as the progress line; LAST ends it for good
   (a newline even on a terminal).  */
void progress_draw (struct progress *p, bool last, const char *format, ...)
  __attribute__ ((format (printf, 3, 4)));

/* Erase the line from the terminal, if one is shown.  */
void progress_clear (struct progress *p);

#endif
