/* copy/install.h -- put a complete copy into place in one step.

   A copy is written to a file that has no name yet (O_TMPFILE) or, where
   the file system has no O_TMPFILE, a temporary name of its directory
   (".xcp-PID-N.tmp"), and given its real name only once it is complete:
   by linkat where the name is free, else through a temporary name renamed
   over the old file (renameat2, or renameat where renameat2 is missing or
   refused).  Whoever opens the name therefore finds
   the old file or the new one, never a half-written file, and a failure
   or a caught signal leaves no temporary name behind.

   SIGKILL can: between the linkat to a temporary name and the rename
   (no call links an unnamed file over a name), or during the copy
   without O_TMPFILE.  Such names are removed later: the first time a run
   makes a temporary name in a directory, it removes there every
   ".xcp-PID-N.tmp" whose PID names no process (pidfd_open: ESRCH), that
   this user owns, that has not changed for TMP_MIN_AGE seconds (a
   replacement's temporary name lives for two calls) and, for a regular
   file, that it can lock (a copy written under a temporary name is
   locked, F_OFD_SETLK, for the whole copy; a file system without locks
   keeps its names).  The age and the lock protect a live
   name of another PID namespace or NFS client, whose pid means nothing
   here.

   Each thread has one temporary name at a time (the module keeps it, for
   the signal handler): threads may copy concurrently, each into its own
   files (xcp -j).  The handler may run on any thread while the others
   go on; threads that make temporary names should leave the fatal
   signals to one thread (blocked in the others), which then never waits
   for itself.  */

#ifndef NC_COPY_INSTALL_H
#define NC_COPY_INSTALL_H

#include <stdbool.h>
#include <sys/types.h>

/* Remove the temporary name, if one exists, when a fatal signal (SIGINT,
   SIGTERM, SIGHUP, SIGPIPE...; gnulib's fatal-signal list) ends the
   process; the signal then ends it as before.  A signal ignored when this
   is called stays ignored, as for nohup.  Call it once, before the first
   copy.  */
void install_catch_signals (void);

/* The next temporary name for directory DIRFD, registered for removal on
   a fatal signal until install_tmp_forget.  It is only a name until the
   caller creates it with a call that fails with EEXIST if it is taken
   (O_EXCL, linkat, mknodat, symlinkat): then the caller asks for the next
   one; once made, the caller says so (install_tmp_made) at once: a fatal
   signal on another thread waits until it has.  The string is the
   calling thread's, overwritten by its next call.  */
const char *install_tmp_name (int dirfd);

/* The temporary name now exists (created by the calling thread).  */
void install_tmp_made (void);

/* The calling thread makes no more temporary names (it ends): its slot
   is free for another thread's.  */
void install_thread_end (void);

/* The temporary name is gone (renamed or removed): unregister it.  */
void install_tmp_forget (void);

/* Rename TMP, the calling thread's temporary name in DIRFD (made), over
   NAME in DIRFD in one step: by renameat2, else, where that is missing
   or refused, by the C library's renameat.  TMP is then forgotten, and
   removed after a failure, which leaves NAME as it was.  Return 0 or
   -errno; -ENOSYS or -EPERM where neither call answered: renameat2's
   (copy/msg.h's copy_fail_install words it), nothing else replacing a
   name in one step.  */
int install_rename (int dirfd, const char *tmp, const char *name);

/* Whether the calling thread's last install_rename, install_tmp,
   install_link, install_link_flags or install_symlink failed in its
   rename, -ENOSYS or -EPERM from both calls: its failure is then
   renameat2's (copy/msg.h words it), where a -EPERM of the call that
   made the temporary name (linkat, symlinkat...) is that call's own.
   Asked once: false after, until such a failure again.  */
bool install_rename_refused (void);

/* A new file of mode MODE (less the umask) in directory DIRFD (which may
   be an O_PATH descriptor), open for writing: an O_TMPFILE file, or a
   temporary name (*NAMED set true) where the file system has none.
   Return the descriptor or -errno (-EEXIST if no free temporary name was
   found).  */
int install_create_tmp (int dirfd, mode_t mode, bool *named);

/* Drop the file FD from install_create_tmp that is not to be installed:
   close it and remove its temporary name if NAMED.  */
void install_discard_tmp (int fd, int dirfd, bool named);

/* Put the complete file FD from install_create_tmp (NAMED as it set it)
   into place as NAME in DIRFD: a new name if EXISTS is false and NAME is
   still free, else renamed over what NAME is.  FD stays open; after a
   failure NAME is as it was and no temporary name remains, but FD must
   still be dropped with install_discard_tmp (FD, DIRFD, false).  Return 0
   or -errno.  */
int install_tmp (int fd, bool named, int dirfd, const char *name,
                 bool exists);

/* Make NAME in DIRFD a hard link to FIRST (relative to BASE, as for
   linkat) in place of what NAME is, through a temporary name renamed over
   it, so that NAME never goes missing.  Return 0 or -errno.  */
int install_link (int base, const char *first, int dirfd, const char *name);

/* The same, FLAGS as linkat's (AT_SYMLINK_FOLLOW: a symbolic link FIRST
   is followed, the file it names linked).  */
int install_link_flags (int base, const char *first, int flags, int dirfd,
                        const char *name);

/* Make NAME in DIRFD a new symbolic link to TARGET in place of what NAME
   is, the same way.  Return 0 or -errno.  */
int install_symlink (const char *target, int dirfd, const char *name);

/* Flush directory DIRFD (which may be an O_PATH descriptor), where a new
   name was made.  Return 0, or -errno (-EINVAL from a file system that
   cannot flush a directory is 0).  */
int install_fsync_dir (int dirfd);

#endif
