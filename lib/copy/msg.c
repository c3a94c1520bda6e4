/* copy/msg.c -- the lock of the copy modules' reports, the words of a
   refused rename; see copy/msg.h.  */

#include <config.h>

#include "copy/msg.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>

#include "copy/install.h"

static pthread_mutex_t msg_mutex = PTHREAD_MUTEX_INITIALIZER;
/* Set while workers run; read by the walk's thread, which starts and
   ends them, and by the workers, which it started after setting it.  */
static bool threads_on;

void
copy_msg_threads (bool on)
{
  threads_on = on;
}

void
copy_msg_lock (void)
{
  if (threads_on)
    pthread_mutex_lock (&msg_mutex);
}

void
copy_msg_unlock (void)
{
  if (threads_on)
    pthread_mutex_unlock (&msg_mutex);
}

const char *
copy_rename_trouble (int err)
{
  bool refused = install_rename_refused ();
  return refused && (err == ENOSYS || err == EPERM)
         ? cli_call_trouble ("renameat2", -err) : NULL;
}
