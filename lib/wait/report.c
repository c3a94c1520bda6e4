/* wait/report.c -- what a wait found, in words; see wait/report.h.  */

#include <config.h>

#include "wait/report.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "cli/common.h"
#include "cli/features.h"
#include "cli/duration.h"
#include "cli/json.h"
#include "cli/shortpath.h"
#include "cli/siglist.h"
#include "error.h"
#include "quotearg.h"
#include "sys/calls.h"
#include "sys/kernel.h"
#include "xalloc.h"
#include "wait/loop.h"
#include "wait/pidfd.h"

static const struct
{
  short bit;
  const char *name;
} event_names[] = {
  { POLLIN, "in" },
  { POLLPRI, "pri" },
  { POLLOUT, "out" },
  { POLLRDHUP, "rdhup" },
  { POLLERR, "err" },
  { POLLHUP, "hup" },
  { POLLNVAL, "nval" },
};
#define N_EVENT_NAMES (sizeof event_names / sizeof event_names[0])

/* The words for what made the ready target T ready, into WORDS; return
   how many: a process's end, a path's event, or a descriptor's poll
   events.  */
static size_t
ready_words (const struct target *t, const char *words[N_EVENT_NAMES])
{
  static const char *const path_words[] = {
    [PATHWATCH_EXISTS] = "exists",
    [PATHWATCH_GONE] = "gone",
    [PATHWATCH_CLOSED] = "closed",
  };
  if (t->kind == TARGET_PROCESS)
    {
      words[0] = "exit";
      return 1;
    }
  if (t->kind == TARGET_PATH)
    {
      words[0] = path_words[t->path_event];
      return 1;
    }
  size_t n = 0;
  for (size_t e = 0; e < N_EVENT_NAMES; e++)
    if (t->revents & event_names[e].bit)
      words[n++] = event_names[e].name;
  return n;
}

/* ,"status":... of the process target T, if its status was asked for.  */
static void
print_process_status (const struct target *t)
{
  if (t->kind != TARGET_PROCESS || t->status < 0)
    return;
  char buf[SIG2STR_MAX];
  if (t->status == PROCESS_STATUS_PENDING)
    fputs (",\"status\":\"pending\"", stdout);
  else if (t->status != PROCESS_STATUS_KNOWN)
    fputs (",\"status\":\"unknown\"", stdout);
  else if (WIFEXITED (t->wstatus))
    printf (",\"status\":\"exited\",\"exit\":%d", WEXITSTATUS (t->wstatus));
  else
    printf (",\"status\":\"killed\",\"signal\":\"%s\"",
            siglist_name (WTERMSIG (t->wstatus), buf));
}

/* The "ready" array of R's JSON object.  */
static void
print_json_ready (const struct wait_report *r)
{
  bool first = true;
  for (size_t i = 0; i < r->n_targets; i++)
    {
      const struct target *t = &r->targets[i];
      if (!t->revents)
        continue;
      printf ("%s{\"target\":", first ? "" : ",");
      first = false;
      char *name = json_string_alloc (t->name);
      fputs (name, stdout);
      free (name);
      fputs (",\"events\":[", stdout);
      const char *words[N_EVENT_NAMES];
      size_t n_words = ready_words (t, words);
      for (size_t w = 0; w < n_words; w++)
        printf ("%s\"%s\"", w ? "," : "", words[w]);
      putchar (']');
      print_process_status (t);
      putchar ('}');
    }
}

void
wait_print_json (const struct wait_report *r)
{
  static const char *const results[] = {
    [WAIT_READY] = "ready",
    [WAIT_TIMEOUT] = "timeout",
    [WAIT_SIGNAL] = "signal",
  };
  char buf[SIG2STR_MAX];
  printf ("{\"result\":\"%s\",", results[r->outcome]);
  if (r->killed_with)
    printf ("\"kill\":\"%s\",", siglist_name (r->killed_with, buf));
  printf ("\"status\":%d,\"ready\":[", r->exit_status);
  print_json_ready (r);
  fputs ("],\"signal\":", stdout);
  if (r->signal)
    printf ("{\"number\":%d,\"name\":\"%s\"}", r->signal,
            siglist_name (r->signal, buf));
  else
    fputs ("null", stdout);
  fputs (",\"remaining\":", stdout);
  if (r->remaining)
    {
      char left[DURATION_BUFSIZE];
      fputs (duration_format (r->remaining, left), stdout);
    }
  else
    fputs ("null", stdout);
  fputs ("}\n", stdout);
}

void
wait_print_lines (const struct wait_report *r, bool remaining)
{
  for (size_t i = 0; i < r->n_targets; i++)
    {
      const struct target *t = &r->targets[i];
      if (!t->revents)
        continue;
      /* Quoted only when the shell would need it: 'a b'.  */
      fputs (quotearg_style (shell_escape_quoting_style, t->name), stdout);
      const char *words[N_EVENT_NAMES];
      size_t n_words = ready_words (t, words);
      for (size_t w = 0; w < n_words; w++)
        printf (" %s", words[w]);
      putchar ('\n');
    }
  if (r->signal)
    {
      char buf[SIG2STR_MAX];
      printf ("signal %s\n", siglist_name (r->signal, buf));
    }
  if (remaining && r->remaining)
    {
      char buf[DURATION_BUFSIZE];
      printf ("remaining %s\n", duration_format (r->remaining, buf));
    }
  else if (remaining && r->infinite)
    puts ("remaining inf");
}

/* Exit with a message if PATH, whose watch or look-up was refused,
   could not be looked up for want of search permission on its
   directory: a directory that can be read but not searched.  */
static void
search_failed (const char *path)
{
  char *dir = xstrdup (path);
  char *slash = strrchr (dir, '/');
  if (slash == dir)
    slash[1] = '\0';
  else if (slash)
    *slash = '\0';
  if (slash && sys_faccessat_effective (AT_FDCWD, dir, X_OK) == -EACCES)
    error (EXIT_FAILURE, EACCES, "cannot watch %s (no search permission "
           "on the directory %s)", quote_file_n (0, short_path_n (0, path)),
           quote_file_n (1, short_path_n (1, dir)));
  free (dir);
}

/* Exit with a message naming the call if ERR says that one of the calls
   a watch makes is missing or refused (seccomp?) on this kernel.  */
static void
watch_call_failed (const char *path, int err)
{
  static const char *const calls[] = { "statx", "inotify_init1", "openat" };
  if (err != -ENOSYS && err != -EPERM)
    return;
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
    {
      /* ERR does not say which call it came from: the one whose probe
         fails here is the one.  */
      const struct sys_kernel_call *c = sys_kernel_call (calls[i]);
      if (!c || sys_kernel_probe (c) == SYS_CALL_WORKS)
        continue;
      const char *trouble = cli_call_trouble (calls[i], err);
      if (trouble)
        error (EXIT_FAILURE, 0, "cannot watch %s: %s",
               quote_file (short_path (path)), trouble);
    }
}

_Noreturn void
wait_watch_failed (const struct pathwatch *watch, int err)
{
  const char *path = pathwatch_failed (watch);
  const char *why = "";
  watch_call_failed (path, err);
  if (err == -EACCES)
    search_failed (path);
  if (err == -EACCES)
    why = " (a watch needs read permission on each directory on the way)";
  else if (err == -ENOSPC)
    why = " (the inotify watch limit: fs.inotify.max_user_watches)";
  else if (err == -EMFILE)
    why = " (the open file limit, or the inotify instance limit: "
          "fs.inotify.max_user_instances, one per path)";
  error (EXIT_FAILURE, -err, "cannot watch %s%s",
         quote_file (short_path (path)), why);
  abort ();
}

_Noreturn void
wait_target_failed (const struct target *t, int err)
{
  if (t->kind == TARGET_PATH)
    wait_watch_failed (t->watch, err);
  if (t->kind == TARGET_PROCESS && cli_call_trouble ("pidfd_open", err))
    error (EXIT_FAILURE, 0, "cannot wait for %s: %s", t->name,
           cli_call_trouble ("pidfd_open", err));
  /* A thread that does not lead its process: EINVAL, and ENOENT since
     Linux 6.9, where pidfd_open can take a thread with PIDFD_THREAD.  */
  if (t->kind == TARGET_PROCESS && (err == -EINVAL || err == -ENOENT))
    error (EXIT_FAILURE, 0, "cannot wait for %s: not a process (a thread "
           "of one?)", t->name);
  if (t->kind == TARGET_PROCESS)
    error (EXIT_FAILURE, -err, "cannot wait for %s", t->name);
  if (!t->opened)
    error (EXIT_FAILURE, -err, "cannot wait for descriptor %s", t->name);
  if (t->fd < 0)
    error (EXIT_FAILURE, -err, "cannot open %s",
           quote_file (short_path (t->name)));
  error (EXIT_FAILURE, -err, "cannot wait for %s",
         quote_file (short_path (t->name)));
  abort ();
}

int
wait_print_ready (int fd)
{
  static const char line[] = "ready\n";
  size_t done = 0;
  while (done < sizeof line - 1)
    {
      ssize_t ret = sys_write (fd, line + done, sizeof line - 1 - done);
      if (ret == -EINTR)
        continue;
      if (ret < 0)
        return ret;
      done += ret;
    }
  return sys_close (fd);
}
