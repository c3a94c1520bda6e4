/* cli/progress.c -- the one-line progress report on standard error.  */

#include <config.h>

#include "cli/progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "progname.h"

enum { NSEC_PER_SEC = 1000000000 };

/* The report whose line is on the terminal now, if any: a message from
   anywhere in the tool erases it first (progress_clear_shown).  */
static struct progress *shown_line;

/* The next line is due an interval after NOW: a terminal is redrawn
   often enough to look alive, a log gets no more than a line a second.  */
static void
schedule (struct progress *p, const struct timespec *now)
{
  p->next = *now;
  if (p->tty)
    p->next.tv_nsec += NSEC_PER_SEC / 4;
  else
    p->next.tv_sec++;
  if (p->next.tv_nsec >= NSEC_PER_SEC)
    {
      p->next.tv_sec++;
      p->next.tv_nsec -= NSEC_PER_SEC;
    }
}

void
progress_start (struct progress *p, bool asked)
{
  p->tty = isatty (STDERR_FILENO);
  p->asked = asked;
  p->shown = false;
  clock_gettime (CLOCK_MONOTONIC, &p->start);
  /* Nothing is drawn for a job done within a second: a line that would
     flash and vanish, or a log line for a job that had barely begun.  */
  p->next = p->start;
  p->next.tv_sec++;
}

bool
progress_due (struct progress *p)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  if (now.tv_sec < p->next.tv_sec
      || (now.tv_sec == p->next.tv_sec && now.tv_nsec < p->next.tv_nsec))
    return false;
  schedule (p, &now);
  return true;
}

double
progress_seconds (const struct progress *p)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  return (double) (now.tv_sec - p->start.tv_sec)
         + (double) (now.tv_nsec - p->start.tv_nsec) / 1e9;
}

const char *
progress_bytes (uintmax_t n, char buf[PROGRESS_WORD_SIZE])
{
  return human_readable (n, buf, human_autoscale | human_SI | human_base_1024
                         | human_suppress_point_zero | human_B, 1, 1);
}

const char *
progress_duration (double secs, char buf[PROGRESS_WORD_SIZE])
{
  uintmax_t s = secs > 0 && secs < 1e12 ? (uintmax_t) (secs + 0.5) : 0;
  if (s < 60)
    snprintf (buf, PROGRESS_WORD_SIZE, "%ju s", s);
  else if (s < 3600)
    snprintf (buf, PROGRESS_WORD_SIZE, "%ju:%02ju", s / 60, s % 60);
  else
    snprintf (buf, PROGRESS_WORD_SIZE, "%ju:%02ju:%02ju", s / 3600,
              s / 60 % 60, s % 60);
  return buf;
}

uintmax_t
progress_rate (uintmax_t n, double secs)
{
  return secs > 0 ? (uintmax_t) ((double) n / secs) : 0;
}

void
progress_draw (struct progress *p, bool last, const char *format, ...)
{
  va_list ap;
  /* On a terminal the line is rewritten from its start, and erased to
     its end in case the last one was longer.  */
  fprintf (stderr, "%s%s: ", p->tty ? "\r" : "", program_name);
  va_start (ap, format);
  vfprintf (stderr, format, ap);
  va_end (ap);
  fputs (p->tty ? "\33[K" : "", stderr);
  if (!p->tty || last)
    fputc ('\n', stderr);
  fflush (stderr);
  p->shown = p->tty && !last;
  shown_line = p->shown ? p : NULL;
}

void
progress_clear (struct progress *p)
{
  if (p->shown)
    {
      fputs ("\r\33[K", stderr);
      p->shown = false;
    }
  if (shown_line == p)
    shown_line = NULL;
}

void
progress_clear_shown (void)
{
  if (shown_line)
    progress_clear (shown_line);
}

bool
progress_finish (struct progress *p)
{
  /* The last line, drawn from the start of this one, replaces it.  */
  if (!p->asked)
    progress_clear (p);
  return p->asked;
}
