/* copy/install.c -- put a complete copy into place in one step.  */

#include <config.h>

#include "copy/install.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fatal-signal.h"
#include "sys/calls.h"
#include "xalloc.h"

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

/* --- the temporary names of processes that were killed ------------- */

/* Whether NAME is a temporary name as install_tmp_name makes them,
   ".xcp-PID-N.tmp" exactly; *PID the process that made it.  */
static bool
tmp_name_pid (const char *name, pid_t *pid)
{
  if (strncmp (name, ".xcp-", 5) != 0)
    return false;
  const char *p = name + 5;
  uint64_t n = 0;
  if (*p < '1' || *p > '9')
    return false;
  for (; *p >= '0' && *p <= '9'; p++)
    if ((n = n * 10 + (uint64_t) (*p - '0')) > INT32_MAX)
      return false;
  if (*p++ != '-' || *p < '0' || *p > '9')
    return false;
  while (*p >= '0' && *p <= '9')
    p++;
  if (strcmp (p, ".tmp") != 0)
    return false;
  *pid = (pid_t) n;
  return true;
}

/* Whether no process PID exists (as this PID namespace numbers them).
   Where it cannot be told (no pidfd_open before Linux 5.3, a thread's
   id), it may: the name is left.  */
static bool
pid_gone (pid_t pid)
{
  int fd = sys_pidfd_open (pid, 0);
  if (fd >= 0)
    sys_close (fd);
  return fd == -ESRCH;
}

/* Lock the file FD (open for writing), written under a temporary name
   (no O_TMPFILE), as one of ours in use: the lock goes with the last
   descriptor, so with the process, whatever kills it; reap_one leaves a
   file so locked, seen from any PID namespace (and from other NFS
   clients, where the locks are the server's).  The temporary name of a
   replacement lives for two calls only: TMP_MIN_AGE covers it, where a
   lock would cost a tenth of a small file's replacement.  */
static void
lock_tmp (int fd)
{
  struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
  sys_fcntl (fd, F_OFD_SETLK, (long) (intptr_t) &fl);
}

/* A temporary name younger than this many seconds may be another PID
   namespace's or another host's, whose pid means nothing here, between
   its two calls: it is left.  */
enum { TMP_MIN_AGE = 5 };

/* Whether the temporary name of status ST may be left
   by this user's dead process: this user's, unchanged for TMP_MIN_AGE
   seconds (else it may be another PID namespace's, or another host's,
   in use).  */
static bool
reapable (const struct stat *st)
{
  return st->st_uid == geteuid ()
         && st->st_ctim.tv_sec <= time (NULL) - TMP_MIN_AGE;
}

/* Remove the temporary name NAME of DIRFD (open, not O_PATH), made by a
   process that no longer exists, if reapable.  A regular file is removed
   only if it can be opened, is still the file looked at, and can be
   locked (lock_tmp's lock means in use; where locks are refused or
   missing, ENOLCK, nothing tells: it is left).  */
static void
reap_one (int dirfd, const char *name)
{
  struct stat st, now;
  if (sys_fstatat (dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0
      || !reapable (&st))
    return;
  int fd = -1;
  if (S_ISREG (st.st_mode))
    {
      fd = sys_openat (dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK
                       | O_NOCTTY | O_CLOEXEC, 0);
      if (fd < 0)
        return;
      /* Held until the name is gone.  */
      struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET };
      if (sys_fstat (fd, &now) < 0 || now.st_dev != st.st_dev
          || now.st_ino != st.st_ino
          || sys_fcntl (fd, F_OFD_SETLK, (long) (intptr_t) &fl) < 0)
        {
          sys_close (fd);
          return;
        }
    }
  sys_unlinkat (dirfd, name, 0);
  if (fd >= 0)
    sys_close (fd);
}

/* Remove from directory DIRFD (which may be an O_PATH descriptor) the
   temporary names of processes that were killed between making and
   renaming them (SIGKILL, a crash).  */
static void
reap_dir (int dirfd)
{
  int fd = sys_openat (dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0)
    return;
  pid_t self = getpid ();
  enum { BUF_SIZE = 32768 };
  char *buf = xmalloc (BUF_SIZE);
  ssize_t n;
  while ((n = sys_getdents64 (fd, buf, BUF_SIZE)) > 0)
    for (ssize_t off = 0; off < n;)
      {
        struct nc_dirent64 *d = (struct nc_dirent64 *) (buf + off);
        pid_t pid;
        off += d->d_reclen;
        if (tmp_name_pid (d->d_name, &pid) && pid != self && pid_gone (pid))
          reap_one (fd, d->d_name);
      }
  free (buf);
  sys_close (fd);
}

/* The directories looked at for dead temporary names, by device and
   inode: each once a run.  An open-addressing set, shared by the
   threads.  */
struct dir_id
{
  dev_t dev;
  ino_t ino;
};
static struct dir_id *reaped;
static size_t reaped_used, reaped_cap;
static pthread_mutex_t reaped_mutex = PTHREAD_MUTEX_INITIALIZER;

static size_t
reaped_slot (const struct dir_id *v, size_t cap, dev_t dev, ino_t ino)
{
  uint64_t h = ((uint64_t) ino * 0x9e3779b97f4a7c15u) ^ (uint64_t) dev;
  size_t i = (h ^ (h >> 29)) & (cap - 1);
  while ((v[i].dev || v[i].ino) && !(v[i].dev == dev && v[i].ino == ino))
    i = (i + 1) & (cap - 1);
  return i;
}

/* Add DEV/INO to the set; false if it was there.  */
static bool
reaped_add (dev_t dev, ino_t ino)
{
  pthread_mutex_lock (&reaped_mutex);
  if (2 * (reaped_used + 1) > reaped_cap)
    {
      size_t cap = reaped_cap ? 2 * reaped_cap : 64;
      struct dir_id *v = xcalloc (cap, sizeof *v);
      for (size_t i = 0; i < reaped_cap; i++)
        if (reaped[i].dev || reaped[i].ino)
          v[reaped_slot (v, cap, reaped[i].dev, reaped[i].ino)] = reaped[i];
      free (reaped);
      reaped = v;
      reaped_cap = cap;
    }
  size_t i = reaped_slot (reaped, reaped_cap, dev, ino);
  bool added = !(reaped[i].dev == dev && reaped[i].ino == ino);
  if (added)
    {
      reaped[i] = (struct dir_id) { .dev = dev, .ino = ino };
      reaped_used++;
    }
  pthread_mutex_unlock (&reaped_mutex);
  return added;
}

/* The first time this run makes a temporary name in DIRFD: remove the
   dead ones there (reap_dir).  */
static void
reap_once (int dirfd)
{
  struct stat st;
  if (sys_fstat (dirfd, &st) == 0 && reaped_add (st.st_dev, st.st_ino))
    reap_dir (dirfd);
}

/* --- this process's temporary names ------------------------------- */

const char *
install_tmp_name (int dirfd)
{
  static atomic_ulong counter;
  reap_once (dirfd);
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

/* --- renames ------------------------------------------------------- */

/* Rename OLD of DIRFD over NEW of DIRFD, in one step: renameat2, or
   where it is missing or refused renameat (without flags, both replace
   NEW in one step).  A kernel that answers neither call keeps NEW as it
   is: nothing else replaces a name in one step, and the failure is
   renameat2's own.  */
static int
rename_over (int dirfd, const char *old, const char *new)
{
  int ret = SYS_RETRY_EINTR (sys_renameat2 (dirfd, old, dirfd, new, 0));
  if (ret != -ENOSYS && ret != -EPERM)
    return ret;
  int again = SYS_RETRY_EINTR (sys_renameat (dirfd, old, dirfd, new));
  return again == -ENOSYS || again == -EPERM ? ret : again;
}

/* Set by install_rename, reset by each call that may rename: see
   install_rename_refused.  */
static _Thread_local bool rename_refused;

int
install_rename (int dirfd, const char *tmp, const char *name)
{
  int ret = rename_over (dirfd, tmp, name);
  rename_refused = ret == -ENOSYS || ret == -EPERM;
  if (ret < 0)
    sys_unlinkat (dirfd, tmp, 0);
  install_tmp_forget ();
  return ret;
}

bool
install_rename_refused (void)
{
  bool refused = rename_refused;
  rename_refused = false;
  return refused;
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

/* What a new name is made for: the unnamed file FD; or (FD -1) FIRST
   relative to BASE, a symbolic link followed if FLAGS has
   AT_SYMLINK_FOLLOW; or (TARGET not NULL) a new symbolic link to
   TARGET.  */
struct link_source
{
  int fd;
  int base;
  const char *first;
  int flags;
  const char *target;
};

static int
link_source (const struct link_source *s, int dirfd, const char *name)
{
  if (s->fd >= 0)
    return link_tmpfile (s->fd, dirfd, name);
  if (s->target)
    return sys_symlinkat (s->target, dirfd, name);
  return SYS_RETRY_EINTR (sys_linkat (s->base, s->first, dirfd, name,
                                      s->flags));
}

/* Make S's file NAME in DIRFD through a temporary name renamed over it.  */
static int
link_renamed_over (const struct link_source *s, int dirfd, const char *name)
{
  int ret = -EEXIST;
  rename_refused = false;
  for (int tries = 0; tries < 100; tries++)
    {
      const char *tmp = install_tmp_name (dirfd);
      ret = link_source (s, dirfd, tmp);
      if (ret == -EEXIST)
        continue;
      if (ret < 0)
        break;
      install_tmp_made ();
      return install_rename (dirfd, tmp, name);
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
              lock_tmp (fd);
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
  rename_refused = false;
  if (named)
    return install_rename (dirfd, my_slot->name, name);
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
  return install_link_flags (base, first, 0, dirfd, name);
}

int
install_link_flags (int base, const char *first, int flags, int dirfd,
                    const char *name)
{
  struct link_source s = { .fd = -1, .base = base, .first = first,
                           .flags = flags };
  return link_renamed_over (&s, dirfd, name);
}

int
install_symlink (const char *target, int dirfd, const char *name)
{
  struct link_source s = { .fd = -1, .base = -1, .target = target };
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
