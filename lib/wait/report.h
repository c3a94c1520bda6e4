/* wait/report.h -- a wait in ppoll-wait's words: what it found, a line
   per ready target or one JSON object; why it could not be made.  */

#ifndef NC_WAIT_REPORT_H
#define NC_WAIT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "wait/target.h"

/* The end of a wait, as wait_run and what followed it left it.  */
struct wait_report
{
  const struct target *targets;
  size_t n_targets;
  int outcome;                   /* enum wait_outcome */
  int exit_status;               /* the tool's */
  int signal;                    /* the signal that ended it, or 0 */
  int killed_with;               /* the signal sent at the deadline, or 0 */
  const struct timespec *remaining;  /* the time left, NULL if no
                                        deadline */
  bool infinite;                 /* a deadline that never comes */
};

/* A line per ready target: its name, quoted where the shell would need
   it, and what made it ready ("fifo in hup", "pid:42 exit", "f closed");
   then "signal USR1" if a signal ended the wait; with REMAINING,
   "remaining 1.250000000" (or "remaining inf").  */
void wait_print_lines (const struct wait_report *r, bool remaining);

/* The object {"result":"ready","status":0,"ready":[{"target":"pid:42",
   "events":["exit"],"status":"exited","exit":3}],"signal":null,
   "remaining":null}: a process whose status was read says
   "status":"exited" with "exit":N, "killed" with "signal":"NAME",
   "pending" (its parent has not reaped it yet) or "unknown"; "kill":"NAME" follows "result" when the deadline sent a
   signal.  */
void wait_print_json (const struct wait_report *r);

/* Exit with a message on the failure ERR (-errno) of the path watch
   WATCH: the path at fault, and the limit or permission a watch needs
   where that is the cause.  */
_Noreturn void wait_watch_failed (const struct pathwatch *watch, int err);

/* Exit with a message on the failure ERR (-errno) of target T, as
   targets_open reports it.  */
_Noreturn void wait_target_failed (const struct target *t, int err);

/* The line "ready" on FD, then FD closed: the sign that every watch is
   set (--ready-fd).  0 or -errno.  */
int wait_print_ready (int fd);

#endif
