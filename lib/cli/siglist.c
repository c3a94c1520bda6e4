/* cli/siglist.c -- lists of signals; see cli/siglist.h.  */

#include <config.h>

#include "cli/siglist.h"

#include <stdio.h>
#include <string.h>

#include "c-ctype.h"

/* The signal that ITEM, in upper case, names, or 0.  */
static int
item_signal (const char *item)
{
  const char *name = item + (strncmp (item, "SIG", 3) == 0 ? 3 : 0);
  int sig;
  if (str2sig (name, &sig) != 0 || sig <= 0 || sig >= NSIG)
    return 0;
  return sig;
}

int
siglist_parse_one (const char *name)
{
  char item[SIG2STR_MAX + 3];
  size_t len = strlen (name);
  if (len >= sizeof item)
    return 0;
  for (size_t i = 0; i <= len; i++)
    item[i] = c_toupper (name[i]);
  return item_signal (item);
}

enum siglist_error
siglist_parse (char *list, sigset_t *set, char **bad)
{
  for (char *item = list, *comma; item; item = comma ? comma + 1 : NULL)
    {
      comma = strchr (item, ',');
      if (comma)
        *comma = '\0';
      for (char *p = item; *p; p++)
        *p = c_toupper (*p);
      int sig = item_signal (item);
      enum siglist_error err = SIGLIST_OK;
      if (!sig || sigaddset (set, sig) != 0)
        err = SIGLIST_UNKNOWN;
      else if (sig == SIGKILL || sig == SIGSTOP)
        err = SIGLIST_UNCATCHABLE;
      if (err != SIGLIST_OK)
        {
          *bad = item;
          return err;
        }
    }
  return SIGLIST_OK;
}

bool
siglist_empty (const sigset_t *set)
{
  for (int sig = 1; sig < NSIG; sig++)
    if (sigismember (set, sig) == 1)
      return false;
  return true;
}

char *
siglist_name (int sig, char buf[SIG2STR_MAX])
{
  if (sig2str (sig, buf) != 0)
    snprintf (buf, SIG2STR_MAX, "%d", sig);
  return buf;
}
