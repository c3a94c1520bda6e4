/* cli/progress.h -- the one-line progress report that rmtree, xcp,
   splice-in and splice-out draw on standard error, and its words for
   bytes, rates and times left.

   Nothing is drawn during the first second: a job done by then says
   nothing, as rm and cp do.  After it, on a terminal the line is redrawn
   in place four times a second and erased before any other message, so
   that messages never land in the middle of it; elsewhere (--progress
   into a file or a pipe) a complete line is appended once a second, which
   a log can keep.

   At the end, a line that was asked for (--progress) is drawn a last
   time, with the totals, and stays; one that only shows the work going
   on (the default on a terminal) is erased, so that a job that succeeds
   leaves nothing on the screen.  */

#ifndef NC_CLI_PROGRESS_H
#define NC_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "human.h"

struct progress
{
  bool tty;                /* standard error is a terminal */
  bool asked;              /* --progress: the last line stays */
  bool shown;              /* a line is on the terminal, to be erased */
  struct timespec start;   /* when progress_start was called */
  struct timespec next;    /* when the next line is due */
};

/* Start the clock; tell whether standard error is a terminal.  ASKED:
   the user asked for the report (--progress), rather than have it by
   default.  */
void progress_start (struct progress *p, bool asked);

/* Whether a line is due now; if it is, the one after is scheduled.  */
bool progress_due (struct progress *p);

/* Seconds since progress_start.  */
double progress_seconds (const struct progress *p);

/* Draw "PROGRAM: " and FORMAT as the progress line; LAST ends it for good
   (a newline even on a terminal).  */
void progress_draw (struct progress *p, bool last, const char *format, ...)
  __attribute__ ((format (printf, 3, 4)));

/* Room for progress_bytes's and progress_duration's words.  */
enum { PROGRESS_WORD_SIZE = LONGEST_HUMAN_READABLE + 1 };

/* N bytes as the lines say them, written into BUF: "512 B", "1.5 GiB".
   Return where the words start in BUF.  */
const char *progress_bytes (uintmax_t n, char buf[PROGRESS_WORD_SIZE]);

/* SECS, a time left, as the lines say it, in BUF: "42 s", "3:05",
   "1:02:05".  Return BUF.  */
const char *progress_duration (double secs, char buf[PROGRESS_WORD_SIZE]);

/* The bytes a second of N bytes in SECS seconds (0 before any time
   passed).  */
uintmax_t progress_rate (uintmax_t n, double secs);

/* Erase the line from the terminal, if one is shown.  */
void progress_clear (struct progress *p);

/* Erase whichever progress line is on the terminal, if one is: what
   lib/cli/common does before every error() message, so that a message never
   lands in the middle of a line.  */
void progress_clear_shown (void);

/* The job is over: tell whether to draw the last line, with the totals
   (progress_draw with LAST true), which is only if the report was asked
   for; if not, erase the line.  */
bool progress_finish (struct progress *p);

#endif
