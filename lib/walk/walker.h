/* walk/walker.h -- walk a directory tree with the *at calls, without
   recursion.

   walk_at (DIRFD, NAME, FLAGS, DISPLAY, VISIT, ARG) visits NAME (relative
   to DIRFD, or absolute) and, if it is a directory, everything below it.
   VISIT is called once per entry, and twice per directory: WALK_DIR before
   its entries (pre-order: where a copier makes the directory) and
   WALK_DIR_POST after them (post-order: where a remover removes it, a
   copier sets its mode and times).  Every entry is given as its parent's
   descriptor, held by the walker, and its name in that directory, so
   that the caller acts on it with the *at calls:

     unlinkat (e->dirfd, e->name, e->type == WALK_DIR_POST ? AT_REMOVEDIR : 0)

   Guarantees:
   - Symbolic links are not followed (see WALK_FOLLOW): every directory
     below NAME is opened with openat (parent, name, O_RDONLY
     | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), then checked with fstat
     against what getdents64 listed (d_ino, on the parent's device; where
     the file system lists "." with another inode number than fstat
     gives, as overlayfs may, against an fstatat of the name made before
     the open).  An entry replaced by a symbolic link or a file meanwhile
     is visited as what it now is (ELOOP or ENOTDIR on the open tells),
     one replaced by another directory is reported (WALK_ECHANGED) and not
     entered.  Nothing outside the tree is reached through the tree,
     unless WALK_FOLLOW asks.
   - Iterative; memory O(depth), whatever the width: directories are read
     with getdents64 in batches of a fixed buffer, one buffer in all; the
     entries of a batch still to handle when a subdirectory is entered
     are kept (4 MiB at most for all the levels) and handled after it,
     so that a directory is listed once, not once per subdirectory.
     (A removing walk also remembers the entries it leaves in place, see
     WALK_REMOVING.)
   - No PATH_MAX limit, and a bounded number of descriptors: the deepest
     WALK_MAX_FDS directories are kept open (or as many as the caller of
     walk_at_fds says, and fewer if open fails with EMFILE); the parent of a directory whose descriptor was closed is
     opened again as ".." of its child and must have the device and inode
     recorded on the way down.  If it does not (the child was moved away
     during the walk), the child is reported (WALK_EMOVED), the path is
     opened again from NAME down, each step checked the same way, and the
     walk goes on there.  A directory entered through a symbolic link
     (WALK_FOLLOW), whose ".." is not its parent in the walk, has its
     parent opened again from NAME down instead, by the names of the
     levels, each checked the same way (one descriptor more than the
     bound, for the time of that climb).
   - d_type spares a stat of every entry: fstatat (AT_SYMLINK_NOFOLLOW) is
     called only for DT_UNKNOWN, or with WALK_STAT.

   Every failure is a visit of type WALK_ERR and the walk goes on.  An
   entry that disappears during the walk (ENOENT) is not visited, except
   NAME itself.  A subtree removed while the walk is inside it (rm -rf,
   a move to another file system) is reported once, as a WALK_ERR
   (ENOENT) of its top-most directory: the walk climbs back to it
   through the removed levels below, each visited in post-order and
   none reported.  */

#ifndef NC_WALK_WALKER_H
#define NC_WALK_WALKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/* The most directory descriptors walk_at holds at once, besides the one
   it is given.  */
enum { WALK_MAX_FDS = 16 };

enum walk_type
{
  WALK_DIR,         /* a directory, before its entries */
  WALK_DIR_POST,    /* the same directory, after its entries */
  WALK_REG,         /* the other types, as d_type or the mode says */
  WALK_LNK,
  WALK_FIFO,
  WALK_SOCK,
  WALK_CHR,
  WALK_BLK,
  WALK_OTHER,
  WALK_MOUNT,       /* with WALK_ONE_FS: a directory on another file
                       system, or any other mount point; not entered
                       (fd is the directory, as for WALK_DIR) */
  WALK_ERR          /* an entry that could not be visited: see err */
};

/* FLAGS of walk_at.  */
enum
{
  /* The caller removes entries (returning WALK_REMOVED).  The walker then
     counts, for each directory, the entries left in place (kept, in
     WALK_DIR_POST), remembers their names while the directory is walked
     (a 64-bit hash each), and allows WALK_RESCAN.  It also visits the
     files of each batch of entries before its subdirectories, in the
     order of their inode numbers (faster to remove on ext4).  */
  WALK_REMOVING = 1 << 0,
  /* Do not enter a directory on another device than NAME, nor any other
     mount point: visit it as WALK_MOUNT.  */
  WALK_ONE_FS = 1 << 1,
  /* Fill st for every entry, at the cost of one fstatat each.  */
  WALK_STAT = 1 << 2,
  /* With WALK_ONE_FS, a mount point on NAME's device (a bind mount) is
     entered too: only another device is a WALK_MOUNT, as cp -x has it.  */
  WALK_ONE_DEV = 1 << 3,
  /* Symbolic links below NAME are followed (cp -L): each is visited as
     what it names, with followed set and st what stat gives; one to a
     directory is entered as a directory, unless that directory is being
     walked (NAME or a directory between it and the link: a cycle), which
     is a WALK_ERR of err WALK_ECYCLE, not entered.  A dangling link is a
     WALK_ERR (ENOENT).  */
  WALK_FOLLOW = 1 << 4,
  /* NAME itself is followed if it is a symbolic link (cp -H, -L): it is
     visited as what it names, with followed set (a file) or walked (a
     directory).  */
  WALK_FOLLOW_TOP = 1 << 5,
  /* With WALK_REMOVING: a directory whose last batch of entries was well
     short of the buffer, and that has no entry left in place, is visited
     in post-order without the read that would find its end (unread set),
     the call that read would cost on every directory.  A remover whose
     removal of it fails (ENOTEMPTY: there is more) returns WALK_RESCAN:
     the walker then reads on from where it stopped, as if that visit had
     not been, and visits it again at its real end.  */
  WALK_EARLY_END = 1 << 6
};

/* What VISIT returns.  */
enum walk_action
{
  WALK_CONTINUE = 0,  /* go on; a WALK_DIR is entered */
  WALK_SKIP,          /* WALK_DIR: do not enter it (no WALK_DIR_POST) */
  WALK_REMOVED,       /* the entry is gone: the caller removed it */
  WALK_RESCAN,        /* WALK_DIR_POST: read the directory again */
  WALK_STOP           /* end the walk: walk_at returns WALK_STOP */
};

/* Errors of the walk itself, in err beside the errno values.  */
enum
{
  WALK_ECHANGED = 4096 + 1,  /* the entry was replaced by another
                                directory: not entered */
  WALK_EMOVED,               /* the directory was moved out of its parent
                                during the walk: left alone */
  WALK_ECYCLE                /* WALK_FOLLOW: a symbolic link to a directory
                                being walked: not entered */
};

struct walk_entry
{
  enum walk_type type;
  /* The parent directory (the DIRFD given for NAME) and the name in it.
     For WALK_EMOVED, dirfd is -1: the parent is not known any more.  */
  int dirfd;
  const char *name;
  /* WALK_DIR, WALK_DIR_POST, WALK_MOUNT, and WALK_ERR while reading a
     directory: the directory itself, open read-only; otherwise -1.  Valid
     during the visit only.  */
  int fd;
  /* Directories always (as fstat said on the way in); other entries with
     WALK_STAT, or when d_type did not tell; otherwise NULL.  */
  const struct stat *st;
  /* The inode number getdents64 listed the entry with, where the file
     system's listing can be trusted to give the numbers stat gives (see
     above); else 0.  A caller that opens the entry compares it with
     fstat's, to know it opened what was listed.  */
  uint64_t ino;
  /* 0 for NAME, 1 for its entries...  */
  size_t depth;
  /* WALK_ERR: the positive errno value or WALK_E*; is_dir says whether
     the entry is (or was listed as) a directory.  */
  int err;
  bool is_dir;
  /* WALK_FOLLOW: the entry is a symbolic link, visited as what it names
     (open it following the link).  */
  bool followed;
  /* WALK_DIR_POST with WALK_REMOVING: how many entries of the directory
     were left in place (visits that did not return WALK_REMOVED); and
     whether its listing can be trusted to be complete.  It is not when
     entries were removed during the pass that read it: some file systems
     then skip entries.  A remover that finds the directory not empty
     returns WALK_RESCAN: the walker reads it again from the start,
     skipping the entries already left in place.  RESCANS counts those
     readings again, so that a remover can bound them: a process that
     keeps creating entries would otherwise keep every pass incomplete.  */
  unsigned long kept;
  bool complete;
  unsigned int rescans;
  /* WALK_DIR_POST with WALK_EARLY_END: the end of the directory was not
     read (see WALK_EARLY_END).  */
  bool unread;
};

struct walk;

/* VISIT's return value is a walk_action.  W is for walk_path.  */
typedef int (*walk_fn) (struct walk *w, const struct walk_entry *e,
                        void *arg);

/* Walk NAME, relative to DIRFD (AT_FDCWD or a directory; not closed),
   calling VISIT (W, ENTRY, ARG) for each entry.  DISPLAY is NAME in
   messages (walk_path); NULL means NAME.  Return 0, or WALK_STOP if VISIT
   stopped the walk.  */
int walk_at (int dirfd, const char *name, int flags, const char *display,
             walk_fn visit, void *arg);

/* walk_at holding at most MAX_FDS directory descriptors at once (2 if
   MAX_FDS is less: the one being read and the one being opened), for a
   caller that needs the others under a low RLIMIT_NOFILE (see sys/fdroom.h).
   walk_at is walk_at_fds with WALK_MAX_FDS.  */
int walk_at_fds (int dirfd, const char *name, int flags, size_t max_fds,
                 const char *display, walk_fn visit, void *arg);

/* Have W call CLOSING (FD, ARG) before it closes the descriptor FD of a
   directory still being walked, to hold fewer descriptors (see struct
   walk_stack's closing); a visit that hands e->dirfd to another thread
   sets it.  */
void walk_on_closing (struct walk *w, void (*closing) (int fd, void *arg),
                      void *arg);

/* The path of the entry being visited: DISPLAY, then the names down to
   the entry, joined by '/'.  Built on the call; valid until the next
   call or the end of the visit.  No length limit.  */
const char *walk_path (struct walk *w);

/* strerror for an err of a WALK_ERR entry.  */
const char *walk_strerror (int err);

/* --- the bounded stack of directory descriptors ---------------------

   What walk_at holds the directories from NAME down with, for a caller
   that keeps a second tree in step with a walk (a copier's destination):
   dir[0] is the top directory, dir[I] one of dir[I - 1]'s, each with the
   stat it had when pushed.  At most max_fds of them are open, the
   deepest ones and always the last pushed: the shallowest open one is
   closed to make room for the next, and a closed one is opened again
   when asked for, as ".." of the level below it, which must then have
   the device and inode recorded (a directory moved during the walk is
   not mistaken for another).  */

struct walk_dir
{
  int fd;               /* -1: closed, to be opened again through ".." */
  struct stat st;       /* as it was when pushed */
};

struct walk_stack
{
  struct walk_dir *dir;
  size_t n;             /* levels: dir[n - 1] is the deepest */
  size_t low;           /* dir[low] to dir[n - 1] are open, the others
                           closed; low == n: none is */
  size_t max_fds;       /* at most this many open (2 at least) */
  size_t nalloc;
  /* Called with a level's descriptor before it is closed other than
     after the level's post-order visit (to make room, or the level is
     lost): a caller that handed the descriptor to work still running
     finishes that work first.  NULL: none.  */
  void (*closing) (int fd, void *arg);
  void *closing_arg;
};

/* Make S an empty stack holding at most MAX_FDS descriptors (2 if
   MAX_FDS is less).  */
void walk_stack_init (struct walk_stack *s, size_t max_fds);

/* Open directory NAME of DIRFD (the deepest level's descriptor, or the
   top directory's parent while S is empty) read-only, O_NOFOLLOW, EINTR
   retried, after closing levels to leave room for it (never the deepest:
   DIRFD stays valid).  Out of descriptors (EMFILE, ENFILE), close one
   more level, hold fewer from then on, and retry.  Return the descriptor
   or -errno; the caller checks what it opened, then pushes it.  */
int walk_stack_open (struct walk_stack *s, int dirfd, const char *name);

/* Push the directory FD (open; the stack owns it from now on), whose
   stat is ST.  */
void walk_stack_push (struct walk_stack *s, int fd, const struct stat *st);

/* The descriptor of dir[LEVEL] (LEVEL < n).  If it was closed, it is
   opened again through ".." of the level below it (in turn from the
   deepest open level) and checked: -WALK_EMOVED if it is not the
   directory pushed there (moved during the walk) or if no level below
   is open, the open's -errno, or the fstat's.  */
int walk_stack_fd (struct walk_stack *s, size_t level);

/* Close the deepest level (if open) and forget it.  */
void walk_stack_pop (struct walk_stack *s);

/* Close the levels still open and free S.  */
void walk_stack_free (struct walk_stack *s);

#endif
