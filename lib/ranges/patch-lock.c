/* ranges/patch-lock.c -- one pwritev-patch at a time on a file
   (ranges/patch-lock.h).  */

#include <config.h>

#include "ranges/patch-lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/common.h"
#include "error.h"
#include "sys/calls.h"

/* A lock of TYPE over the whole file; an OFD lock's l_pid must be 0.  */
static struct flock
whole_file (short type)
{
  return (struct flock) { .l_type = type, .l_whence = SEEK_SET,
                          .l_start = 0, .l_len = 0, .l_pid = 0 };
}

/* Exit with status 2: FILE is locked by another process, whose lock,
   as F_OFD_GETLK tells it, is HELD.  */
static void
busy (const char *file, const struct flock *held)
{
  char pid[sizeof " (pid )" + 20] = "";
  /* An OFD lock belongs to no process: its l_pid is -1.  */
  if (held->l_pid > 0)
    snprintf (pid, sizeof pid, " (pid %ld)", (long) held->l_pid);
  error (EXIT_USAGE, 0, "%s is being %s by another process%s; nothing "
         "written", quote_file (file),
         held->l_type == F_WRLCK ? "patched" : "read", pid);
}

/* Try for a lock of TYPE on FD without waiting: 0, -EAGAIN with the
   lock in the way in *HELD, or another -errno.  */
static int
try_lock (int fd, short type, struct flock *held)
{
  for (;;)
    {
      struct flock fl = whole_file (type);
      int ret = sys_fcntl_lock (fd, F_OFD_SETLK, &fl);
      if (ret != -EAGAIN && ret != -EACCES)
        return ret;
      *held = whole_file (type);
      ret = sys_fcntl_lock (fd, F_OFD_GETLK, held);
      if (ret < 0)
        return ret;
      /* F_UNLCK: the lock in the way was released in between.  */
      if (held->l_type != F_UNLCK)
        return -EAGAIN;
    }
}

int
nc_patch_lock (int fd, const char *file, bool write, bool wait)
{
  short type = write ? F_WRLCK : F_RDLCK;
  struct flock fl = whole_file (type), held = fl;
  int ret = (wait ? SYS_RETRY_EINTR (sys_fcntl_lock (fd, F_OFD_SETLKW, &fl))
             : try_lock (fd, type, &held));
  if (ret == -EAGAIN)
    busy (file, &held);
  if (ret == -EINVAL || ret == -ENOLCK)
    return ret;
  if (ret < 0)
    error (EXIT_FAILURE, 0, "cannot lock %s: %s; nothing written",
           quote_file (file), strerror (-ret));
  return 0;
}
