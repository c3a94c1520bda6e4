/* wait/target.c -- take what a tool waits on, and pass it on to a command;
   see wait/target.h.  */

#include <config.h>

#include "wait/target.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "c-ctype.h"
#include "intprops.h"
#include "sys/calls.h"
#include "xalloc.h"

/* The value of DIGITS, decimal digits only and at least one, at most
   INT_MAX; -1 for anything else.  */
static int
decimal (const char *digits)
{
  if (!*digits)
    return -1;
  long n = 0;
  for (const char *p = digits; *p; p++)
    {
      if (!c_isdigit (*p))
        return -1;
      n = n * 10 + (*p - '0');
      if (n > INT_MAX)
        return -1;
    }
  return (int) n;
}

int
target_descriptor_number (const char *name)
{
  if (!*name)
    return -1;
  /* Too large to be open, but still a number: not a file name.  */
  if (strspn (name, "0123456789") == strlen (name))
    {
      int n = decimal (name);
      return n < 0 ? INT_MAX : n;
    }
  return -1;
}

int
target_pid_number (const char *name)
{
  static const char prefix[] = "pid:";
  if (strncmp (name, prefix, sizeof prefix - 1) != 0)
    return 0;
  int n = decimal (name + sizeof prefix - 1);
  return n > 0 ? n : -1;
}

int
target_connect_unix (const char *path)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  if (strlen (path) >= sizeof addr.sun_path)
    return -ENAMETOOLONG;
  strcpy (addr.sun_path, path);
  static const int types[] = { SOCK_STREAM, SOCK_SEQPACKET, SOCK_DGRAM };
  int err = EPROTOTYPE;
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    {
      int fd = socket (AF_UNIX, types[i] | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
      if (fd < 0)
        return -errno;
      if (connect (fd, (struct sockaddr *) &addr, sizeof addr) == 0)
        return fd;
      err = errno;
      sys_close (fd);
      if (err != EPROTOTYPE)
        break;
    }
  return -err;
}

int
target_open (const char *name, short events)
{
  int access = O_RDONLY;
  if (events & POLLOUT)
    access = events & (POLLIN | POLLPRI) ? O_RDWR : O_WRONLY;
  int fd = sys_openat (AT_FDCWD, name,
                       access | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  struct stat st;
  /* A socket cannot be opened, only connected to.  */
  if (fd == -ENXIO && sys_fstatat (AT_FDCWD, name, &st, 0) == 0
      && S_ISSOCK (st.st_mode))
    fd = target_connect_unix (name);
  return fd;
}

/* Open T, a file or pid:N, for EVENTS: its descriptor into T->fd, left -1
   where none could be opened.  Return 0 or -errno.  */
static int
open_operand (struct target *t, short events)
{
  t->opened = true;
  int pid = target_pid_number (t->name);
  if (pid > 0)
    {
      t->kind = TARGET_PROCESS;
      int fd = sys_pidfd_open (pid, 0);
      if (fd < 0)
        return fd;
      t->fd = fd;
      return 0;
    }
  int fd = target_open (t->name, events);
  if (fd < 0)
    return fd;
  t->fd = fd;
  /* A directory would always look ready.  */
  struct stat st;
  int ret = sys_fstat (fd, &st);
  if (ret == 0 && S_ISDIR (st.st_mode))
    ret = -EISDIR;
  return ret;
}

/* Take the descriptor that T's name numbers, if it does: 0 if it is
   open, or if T's name is not a number, else -errno.  */
static int
take_descriptor (struct target *t)
{
  int fd = target_descriptor_number (t->name);
  if (fd < 0)
    return 0;
  int ret = sys_fcntl (fd, F_GETFD, 0);
  if (ret < 0)
    return ret;
  t->fd = fd;
  return 0;
}

/* Start watching the path of the target T.  Return 0 or -errno.  */
static int
watch_path (struct target *t, bool follow, const struct timespec *since)
{
  t->opened = true;
  int ret = pathwatch_start (t->name, t->path_event, follow, since,
                             &t->watch);
  if (ret == 0)
    t->fd = pathwatch_fd (t->watch);
  return ret;
}

int
targets_open (struct target *t, size_t n, short events, bool follow,
              const struct timespec *since, struct target **failed)
{
  for (size_t i = 0; i < n; i++)
    {
      t[i].fd = -1;
      t[i].opened = false;
      t[i].revents = 0;
      t[i].watch = NULL;
      t[i].status = -1;
    }
  int ret = 0;
  *failed = NULL;
  for (size_t i = 0; i < n && !*failed; i++)
    if (t[i].kind != TARGET_PATH && (ret = take_descriptor (&t[i])) < 0)
      *failed = &t[i];
  for (size_t i = 0; i < n && !*failed; i++)
    if (t[i].kind != TARGET_PATH && t[i].fd < 0
        && (ret = open_operand (&t[i], events)) < 0)
      *failed = &t[i];
  for (size_t i = 0; i < n && !*failed; i++)
    if (t[i].kind == TARGET_PATH && (ret = watch_path (&t[i], follow, since)) < 0)
      *failed = &t[i];
  return ret;
}

int
targets_pass (const struct target *t, size_t n, char **ready,
              const struct target **failed, int *to)
{
  *ready = NULL;
  *to = -1;
  /* Out of the way first, above 2 + N, then into place: a target may be
     on the number that another one is to take.  */
  int *moved = xnmalloc (n, sizeof *moved);
  for (size_t i = 0; i < n; i++)
    {
      int ret = 0;
      if (t[i].opened)
        {
          ret = sys_fcntl (t[i].fd, F_GETFL, 0);
          if (ret >= 0)
            ret = sys_fcntl (t[i].fd, F_SETFL, ret & ~O_NONBLOCK);
        }
      if (ret >= 0)
        ret = moved[i] = sys_fcntl (t[i].fd, F_DUPFD_CLOEXEC,
                                    (long) (3 + n));
      if (ret < 0)
        {
          *failed = &t[i];
          free (moved);
          return ret;
        }
    }
  char *list = xnmalloc (n + 1, INT_STRLEN_BOUND (int) + 1);
  char *end = list;
  *end = '\0';
  for (size_t i = 0; i < n; i++)
    {
      int fd = 3 + (int) i;
      if (dup3 (moved[i], fd, 0) < 0)
        {
          int err = errno;
          *failed = &t[i];
          *to = fd;
          free (moved);
          free (list);
          return -err;
        }
      sys_close (moved[i]);
      if (t[i].revents)
        end += sprintf (end, "%s%d", end == list ? "" : " ", fd);
    }
  free (moved);
  *ready = list;
  return 0;
}
