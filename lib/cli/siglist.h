/* cli/siglist.h -- lists of signals as options take them ("USR1,sigterm,15"),
   and signals' names.  */

#ifndef NC_CLI_SIGLIST_H
#define NC_CLI_SIGLIST_H

#include <signal.h>
#include <stdbool.h>

#include "sig2str.h"

/* What can be wrong with an item of a list.  */
enum siglist_error
{
  SIGLIST_OK,
  SIGLIST_UNKNOWN,      /* neither a signal's name nor its number */
  SIGLIST_UNCATCHABLE   /* KILL or STOP, which cannot be caught or
                           blocked */
};

/* Add to *SET the signals of LIST, items separated by commas: a name in
   either case, with or without SIG ("usr1", "SIGUSR1"), or a number.
   LIST is rewritten in place: each item in upper case and null-
   terminated.  Return SIGLIST_OK, or what is wrong with the first item
   at fault, *BAD then pointing at that item; the signals of the items
   before it are in *SET.  */
enum siglist_error siglist_parse (char *list, sigset_t *set, char **bad);

/* The one signal NAME names, as an item of a list is written (KILL and
   STOP too, which can be sent); 0 if it names none.  */
int siglist_parse_one (const char *name);

/* Whether *SET holds no signal.  */
bool siglist_empty (const sigset_t *set);

/* The name of signal SIG without SIG ("USR1", "RTMIN+2"), or its number
   if it has none, in BUF.  Return BUF.  */
char *siglist_name (int sig, char buf[SIG2STR_MAX]);

#endif
