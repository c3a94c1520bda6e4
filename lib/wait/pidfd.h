/* wait/pidfd.h -- a process waited for through its pidfd: how it
   ended, and signals that only it can receive.

   A pidfd names one process for its whole life: once it has ended and
   its pid is given to another, the pidfd still names the old one, so a
   signal sent through it never reaches a newcomer, and its status is
   never another's.  */

#ifndef NC_WAIT_PIDFD_H
#define NC_WAIT_PIDFD_H

#include <stdbool.h>
#include <stddef.h>

#include "wait/target.h"

/* What is known of how an ended process ended.  */
enum process_status
{
  PROCESS_STATUS_KNOWN,      /* its wait status */
  PROCESS_STATUS_PENDING,    /* ended, but its parent has not reaped it
                                yet: the kernel keeps its status for that
                                parent alone until then */
  PROCESS_STATUS_UNKNOWN,    /* reaped, and this kernel does not keep its
                                status for others (before Linux 6.15) */
};

/* How the ended process of PIDFD ended: a child of the caller, by waitid
   (P_PIDFD, WNOWAIT), which leaves it to be reaped; any other, by
   PIDFD_GET_INFO once it has been reaped.  Return one of enum
   process_status, with *WSTATUS the wait status (as waitpid(2) gives
   it) when known; or -errno.  */
int process_status (int pidfd, int *wstatus);

/* For each process target of the N of T that is ready, its status as
   process_status gives it now (an error counts as unknown).  */
void process_read_statuses (struct target *t, size_t n);

/* Whether this kernel keeps the status of a reaped process for others
   (PIDFD_INFO_EXIT, Linux 6.15): 1 or 0; or -errno if it could not be
   found out (fork's or pidfd_open's error).  */
int process_status_kept (void);

/* Send SIG to the process of PIDFD (pidfd_send_signal, Linux 5.1): 0,
   also for a process that has ended (nothing is sent then), or
   -errno.  */
int process_signal (int pidfd, int sig);

#endif
