/* wait/target.c -- open what a tool waits on; see wait/target.h.  */

#include <config.h>

#include "wait/target.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "c-ctype.h"
#include "sys/calls.h"

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
