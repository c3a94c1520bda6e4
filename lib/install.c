/* install.c -- put a complete copy into place in one step.  */

#include <config.h>

#include "install.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdio.h>
#include <unistd.h>

#include "fatal-signal.h"
#include "sys.h"

/* --- temporary names ----------------------------------------------- */

/* A named temporary file exists in two cases: where the file system has
   no O_TMPFILE, and between the linkat and the renameat that replace an
   existing file.  A signal that ends the process then removes it first.

   Each thread that makes such names (xcp's walk, and its workers) has a
   slot of its own, which the handler reads from whichever thread the
   signal lands on.  A slot goes FREE -> CREATING (the name written, the
   file being made) -> MADE (it exists) -> FREE.  The handler first sets
   DYING, so that no thread starts a new name; then it waits for the
   other threads' slots to leave CREATING (a name whose creation is under
   way would otherwise be made after it looked), and removes every MADE
   name, and the name of its own thread's slot in CREATING (interrupted
   in the middle of the creating call: the name is ours either way, made
   with O_EXCL or its kin).  */
enum { SLOT_FREE, SLOT_CREATING, SLOT_MADE };

struct tmp_slot
{
  /* A thread's, until install_thread_end: an int, whose compare and
     exchange every architecture does inline (riscv64 has none for a
     byte without libatomic).  */
  atomic_int owned;
  atomic_int state;
  int dirfd;
  char name[64];
};

/* The most threads with a slot at once: xcp's 256 workers and its walk.
   SLOTS_USED is past the highest ever owned, for the handler.  */
enum { MAX_SLOTS = 257 };
static struct tmp_slot slots[MAX_SLOTS];
static atomic_uint slots_used;
static _Thread_local struct tmp_slot *my_slot;
static atomic_int dying;

/* The fatal signals, read before any arrives (computing the set in the
   handler would not be async-signal-safe).  */
static const sigset_t *fatal_set;

static void
on_fatal_signal (int sig)
{
  (void) sig;
  /* gnulib runs this with the signals unblocked and its actions already
     dropped: a second signal now would end the process before the
     unlink.  Blocked, it waits; so does gnulib's re-raise, which ends
     the process when the handler returns, by the first signal.  */
  if (fatal_set)
    sys_rt_sigprocmask (SIG_BLOCK, fatal_set, NULL);
  atomic_store (&dying, 1);
  unsigned int n = atomic_load (&slots_used);
  for (unsigned int i = 0; i < n && i < MAX_SLOTS; i++)
    {
      struct tmp_slot *s = &slots[i];
      int state;
      /* One system call away from MADE or FREE.  */
      while ((state = atomic_load (&s->state)) == SLOT_CREATING
             && s != my_slot)
        sched_yield ();
      if (state != SLOT_FREE)
        sys_unlinkat (s->dirfd, s->name, 0);
    }
}

void
install_catch_signals (void)
{
  /* gnulib re-raises the signal once the action has run, and leaves an
     ignored signal ignored.  */
  fatal_set = get_fatal_signal_set ();
  at_fatal_signal (on_fatal_signal);
}

/* A free slot for the calling thread.  */
static struct tmp_slot *
take_slot (void)
{
  for (unsigned int i = 0; i < MAX_SLOTS; i++)
    {
      int free_slot = 0;
      if (atomic_compare_exchange_strong (&slots[i].owned, &free_slot, 1))
        {
          unsigned int used = atomic_load (&slots_used);
          while (used <= i
                 && !atomic_compare_exchange_weak (&slots_used, &used, i + 1))
            ;
          return &slots[i];
        }
    }
  abort ();                     /* more threads at once than xcp starts */
}

void
install_thread_end (void)
{
  if (!my_slot)
    return;
  atomic_store (&my_slot->state, SLOT_FREE);
  atomic_store (&my_slot->owned, 0);
  my_slot = NULL;
}

const char *
install_tmp_name (int dirfd)
{
  static atomic_ulong counter;
  if (!my_slot)
    my_slot = take_slot ();
  struct tmp_slot *s = my_slot;
  atomic_store (&s->state, SLOT_FREE);
  /* Made after the handler looked, the name would stay: wait for the
     end, which the handler's return brings.  */
  if (atomic_load (&dying))
    for (;;)
      pause ();
  snprintf (s->name, sizeof s->name, ".xcp-%ld-%lu.tmp", (long) getpid (),
            atomic_fetch_add (&counter, 1));
  s->dirfd = dirfd;
  atomic_store (&s->state, SLOT_CREATING);
  if (atomic_load (&dying))
    {
      /* Not made: the handler, which may be waiting for this slot, is
         to skip it.  */
      atomic_store (&s->state, SLOT_FREE);
      for (;;)
        pause ();
    }
  return s->name;
}

void
install_tmp_made (void)
{
  atomic_store (&my_slot->state, SLOT_MADE);
}

void
install_tmp_forget (void)
{
  if (my_slot)
    atomic_store (&my_slot->state, SLOT_FREE);
}

/* --- links --------------------------------------------------------- */

/* Whether linkat takes AT_EMPTY_PATH from us (CAP_DAC_READ_SEARCH), which
   spares the /proc lookup: -1 not known yet.  Workers of one tree may
   race to set it: they set it alike.  */
static atomic_int empty_path_link = -1;

/* Give the unnamed file FD the name NAME in DIRFD; -EEXIST if taken.  */
static int
link_tmpfile (int fd, int dirfd, const char *name)
{
  int ret = -EPERM;
  if (empty_path_link != 0)
    {
      ret = SYS_RETRY_EINTR (sys_linkat (fd, "", dirfd, name, AT_EMPTY_PATH));
      if (empty_path_link < 0 && (ret == -ENOENT || ret == -EPERM))
        empty_path_link = 0;
      else
        {
          empty_path_link = 1;
          return ret;
        }
    }
  char proc[sizeof "/proc/self/fd/" + 3 * sizeof (int)];
  snprintf (proc, sizeof proc, "/proc/self/fd/%d", fd);
  return SYS_RETRY_EINTR (sys_linkat (AT_FDCWD, proc, dirfd, name,
                                      AT_SYMLINK_FOLLOW));
}

/* What a new name is made for: the unnamed file FD, or (FD -1) FIRST
   relative to BASE.  */
struct link_source
{
  int fd;
  int base;
  const char *first;
};

static int
link_source (const struct link_source *s, int dirfd, const char *name)
{
  if (s->fd >= 0)
    return link_tmpfile (s->fd, dirfd, name);
  return SYS_RETRY_EINTR (sys_linkat (s->base, s->first, dirfd, name, 0));
}

/* Make S's file NAME in DIRFD through a temporary name renamed over it.  */
static int
link_renamed_over (const struct link_source *s, int dirfd, const char *name)
{
  int ret = -EEXIST;
  for (int tries = 0; tries < 100; tries++)
    {
      const char *tmp = install_tmp_name (dirfd);
      ret = link_source (s, dirfd, tmp);
      if (ret == -EEXIST)
        continue;
      if (ret < 0)
        break;
      install_tmp_made ();
      ret = SYS_RETRY_EINTR (sys_renameat2 (dirfd, tmp, dirfd, name, 0));
      if (ret < 0)
        sys_unlinkat (dirfd, tmp, 0);
      break;
    }
  install_tmp_forget ();
  return ret;
}

/* --- the copy's file ----------------------------------------------- */

int
install_create_tmp (int dirfd, mode_t mode, bool *named)
{
  /* Workers of one tree may race to set it: they set it alike.  */
  static atomic_bool no_tmpfile;
  *named = false;
  if (!atomic_load_explicit (&no_tmpfile, memory_order_relaxed))
    {
      int fd = sys_openat (dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC,
                           mode);
      if (fd != -EOPNOTSUPP && fd != -EISDIR && fd != -EINVAL)
        return fd;
      atomic_store_explicit (&no_tmpfile, true, memory_order_relaxed);
    }
  for (int tries = 0; tries < 100; tries++)
    {
      const char *name = install_tmp_name (dirfd);
      int fd = sys_openat (dirfd, name, O_CREAT | O_EXCL | O_WRONLY
                           | O_CLOEXEC | O_NOFOLLOW, mode);
      if (fd != -EEXIST)
        {
          if (fd < 0)
            install_tmp_forget ();
          else
            {
              install_tmp_made ();
              *named = true;
            }
          return fd;
        }
    }
  install_tmp_forget ();
  return -EEXIST;
}

void
install_discard_tmp (int fd, int dirfd, bool named)
{
  sys_close (fd);
  if (named)
    {
      sys_unlinkat (dirfd, my_slot->name, 0);
      install_tmp_forget ();
    }
}

int
install_tmp (int fd, bool named, int dirfd, const char *name, bool exists)
{
  int ret;
  if (named)
    {
      ret = SYS_RETRY_EINTR (sys_renameat2 (dirfd, my_slot->name, dirfd, name, 0));
      if (ret < 0)
        sys_unlinkat (dirfd, my_slot->name, 0);
      install_tmp_forget ();
      return ret;
    }
  struct link_source s = { .fd = fd, .base = -1 };
  if (!exists)
    {
      ret = link_source (&s, dirfd, name);
      if (ret != -EEXIST)
        return ret;
    }
  return link_renamed_over (&s, dirfd, name);
}

int
install_link (int base, const char *first, int dirfd, const char *name)
{
  struct link_source s = { .fd = -1, .base = base, .first = first };
  return link_renamed_over (&s, dirfd, name);
}

int
install_fsync_dir (int dirfd)
{
  int fd = sys_openat (dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  int ret = fd < 0 ? fd : SYS_RETRY_EINTR (sys_fsync (fd));
  if (fd >= 0)
    sys_close (fd);
  return ret == -EINVAL ? 0 : ret;
}
