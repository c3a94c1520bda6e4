/* ns/seccomp.c -- the seccomp program of --seccomp; see ns/seccomp.h.  */

#include <config.h>

#include "ns/seccomp.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdlib.h>

#include "sys/calls.h"

/* The most bytes a program may have.  */
#define PROGRAM_MAX (BPF_MAXINSNS * sizeof (struct sock_filter))

int
ns_seccomp_read (int fd, void **program, size_t *size)
{
  /* One byte more than a program may have tells a longer one.  */
  char *buf = malloc (PROGRAM_MAX + 1);
  if (!buf)
    return -ENOMEM;
  size_t len = 0;
  for (;;)
    {
      ssize_t n = SYS_RETRY_EINTR (sys_read (fd, buf + len,
                                             PROGRAM_MAX + 1 - len));
      if (n < 0)
        {
          free (buf);
          return n;
        }
      if (n == 0 || (len += n) > PROGRAM_MAX)
        break;
    }
  int ret = len > PROGRAM_MAX ? -E2BIG
            : len == 0 || len % sizeof (struct sock_filter) ? -EINVAL : 0;
  if (ret < 0)
    {
      free (buf);
      return ret;
    }
  *program = buf;
  *size = len;
  return 0;
}

int
ns_seccomp_install (void *program, size_t size)
{
  struct sock_fprog prog = {
    .len = size / sizeof (struct sock_filter),
    .filter = program,
  };
  return sys_seccomp (SECCOMP_SET_MODE_FILTER, 0, &prog);
}
