/* change-on-read -- run a command and change a file as it reads it,
   at a point known in advance: no race with the timing of the command.

   change-on-read FILE N ACTION BYTES CMD [ARG]...

   FILE is watched with a fanotify permission event (FAN_ACCESS_PERM),
   which the kernel raises before each read of it (read, pread, splice,
   sendfile, copy_file_range, FICLONE) and which holds the reader until
   the watcher answers.  At the Nth read, before letting it go on, the
   file is changed by ACTION:

     truncate   cut to BYTES bytes
     append     BYTES bytes ('+') added at the end
     write      its first BYTES bytes overwritten ('#'), size unchanged

   Every other read is let through at once.  Exit with the command's
   status, 125 if the Nth read never came (the test is then wrong, not
   the command), 77 where fanotify permission events cannot be had (not
   root, a kernel without CONFIG_FANOTIFY_ACCESS_PERMISSIONS, qemu-user,
   which does not emulate fanotify), 126 for other failures of its own.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *file;
static const char *action;
static long long bytes;

static void
die (const char *what)
{
  fprintf (stderr, "change-on-read: %s: %s\n", what, strerror (errno));
  exit (126);
}

static void
fill (int fd, char c, long long n)
{
  char buf[65536];
  memset (buf, c, sizeof buf);
  while (n > 0)
    {
      ssize_t w = write (fd, buf, n < (long long) sizeof buf ? (size_t) n
                                                             : sizeof buf);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        die ("write");
      n -= w;
    }
}

static void
change (void)
{
  int fd = open (file, O_WRONLY | O_CLOEXEC
                       | (strcmp (action, "append") == 0 ? O_APPEND : 0));
  if (fd < 0)
    die (file);
  if (strcmp (action, "truncate") == 0)
    {
      if (ftruncate (fd, bytes) < 0)
        die ("ftruncate");
    }
  else if (strcmp (action, "append") == 0)
    fill (fd, '+', bytes);
  else
    fill (fd, '#', bytes);
  if (close (fd) < 0)
    die ("close");
}

int
main (int argc, char **argv)
{
  if (argc < 6)
    {
      fputs ("usage: change-on-read FILE N truncate|append|write BYTES "
             "CMD [ARG]...\n", stderr);
      return 126;
    }
  file = argv[1];
  long n = strtol (argv[2], NULL, 10);
  action = argv[3];
  bytes = strtoll (argv[4], NULL, 10);
  if (n < 1 || bytes < 0
      || (strcmp (action, "truncate") != 0 && strcmp (action, "append") != 0
          && strcmp (action, "write") != 0))
    {
      fputs ("change-on-read: bad N, ACTION or BYTES\n", stderr);
      return 126;
    }

  int fan = fanotify_init (FAN_CLASS_CONTENT | FAN_CLOEXEC,
                           O_RDONLY | O_LARGEFILE | O_CLOEXEC);
  if (fan < 0)
    {
      fprintf (stderr, "change-on-read: fanotify_init: %s\n",
               strerror (errno));
      return 77;
    }
  if (fanotify_mark (fan, FAN_MARK_ADD, FAN_ACCESS_PERM, AT_FDCWD, file) < 0)
    {
      if (errno == EINVAL || errno == EPERM || errno == ENOSYS)
        {
          fprintf (stderr, "change-on-read: FAN_ACCESS_PERM: %s\n",
                   strerror (errno));
          return 77;
        }
      die ("fanotify_mark");
    }

  pid_t pid = fork ();
  if (pid < 0)
    die ("fork");
  if (pid == 0)
    {
      execvp (argv[5], argv + 5);
      fprintf (stderr, "change-on-read: %s: %s\n", argv[5], strerror (errno));
      _exit (127);
    }

  long reads = 0;
  int status;
  for (;;)
    {
      /* The reader is held until answered: answer at once, and look for
         its end between events.  */
      struct pollfd pfd = { .fd = fan, .events = POLLIN };
      int r = poll (&pfd, 1, 20);
      if (r < 0 && errno != EINTR)
        die ("poll");
      if (r > 0)
        {
          char buf[4096] __attribute__ ((aligned (8)));
          ssize_t len = read (fan, buf, sizeof buf);
          if (len < 0 && errno != EINTR && errno != EAGAIN)
            die ("read fanotify");
          struct fanotify_event_metadata *m = (void *) buf;
          for (; len > 0 && FAN_EVENT_OK (m, len); m = FAN_EVENT_NEXT (m, len))
            {
              if (m->mask & FAN_ACCESS_PERM)
                {
                  if (++reads == n)
                    change ();
                  struct fanotify_response resp = { .fd = m->fd,
                                                    .response = FAN_ALLOW };
                  if (write (fan, &resp, sizeof resp) != sizeof resp)
                    die ("answer fanotify");
                }
              if (m->fd >= 0)
                close (m->fd);
            }
        }
      pid_t w = waitpid (pid, &status, WNOHANG);
      if (w < 0)
        die ("waitpid");
      if (w == pid)
        break;
    }
  close (fan);
  if (reads < n)
    {
      fprintf (stderr, "change-on-read: %ld reads of %s, not %ld\n", reads,
               file, n);
      return 125;
    }
  if (WIFSIGNALED (status))
    {
      signal (WTERMSIG (status), SIG_DFL);
      raise (WTERMSIG (status));
    }
  return WIFEXITED (status) ? WEXITSTATUS (status) : 126;
}
