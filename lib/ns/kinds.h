/* ns/kinds.h -- Linux namespaces: the table of their kinds, lists of their
   names, their /proc files, user namespace id maps, and explanations of
   unshare(2) failures that say what to change.

   Functions return 0 (or a count) on success and -errno on failure, as
   the sys_* wrappers do; errno is left alone.  A PID of 0 means the
   calling process ("/proc/self").  */

#ifndef NC_NS_KINDS_H
#define NC_NS_KINDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>
#include <sys/types.h>

#include "sys/consts.h"

/* One kind of namespace.  */
struct ns_info
{
  int flag;               /* CLONE_NEW* */
  const char *name;       /* its file in /proc/PID/ns: "mnt", "net"...  */
  const char *option;     /* its long option and list name: "mount"...  */
  char short_option;      /* unshare(1)'s letter: 'm', 'n'...  */
  const char *children;   /* the file for the namespace the process's next
                             children go to, when that differs from its
                             own ("pid_for_children"), else NULL */
  const char *what;       /* for messages: "mount", "network"...  */
  const char *help;       /* its option's line in unshare-run --help */
};

/* Every kind, in unshare(1)'s order, ended by an entry whose name is
   NULL.  */
extern const struct ns_info ns_table[];

/* The number of kinds in ns_table.  */
#define NS_KINDS 8

/* The flags of every kind this program knows.  */
int ns_flags_known (void);

/* The kind with this CLONE_NEW* flag, or NULL.  */
const struct ns_info *ns_by_flag (int flag);

/* The kind named NAME (LEN bytes): its /proc name ("mnt"), its option
   name ("mount") or its letter ("m"); NULL if none.  */
const struct ns_info *ns_by_name (const char *name, size_t len);

/* Parse LIST, kinds separated by commas ("net,uts", "mount,m,ipc", "all"
   for every kind known), into *FLAGS.  On success return 0; on error
   return -EINVAL, leave *FLAGS alone and, if BAD is not NULL, point *BAD
   at the first item not understood (up to the next comma).  An empty
   list or an empty item is an error.  */
int ns_flags_parse (const char *list, int *flags, const char **bad);

/* Write the names ("network", "mount"...) of the kinds in FLAGS into BUF
   as English: "a network namespace", "network and mount namespaces".
   Return BUF.  */
char *ns_flags_describe (int flags, char *buf, size_t size);

/* The kinds among FLAGS that this kernel offers, by whether
   /proc/self/ns has their file.  */
int ns_flags_available (int flags);

/* "/proc/PID/ns/NAME" (or ".../CHILDREN" when FOR_CHILDREN and the kind
   has such a file) into BUF.  Return BUF.  */
char *ns_proc_path (pid_t pid, const struct ns_info *ns, bool for_children,
                    char *buf, size_t size);

/* The inode number that identifies the namespace of kind NS of process
   PID (of its next children if FOR_CHILDREN): 0 or -errno.  */
int ns_inode (pid_t pid, const struct ns_info *ns, bool for_children,
              uint64_t *ino);

/* Write TEXT to /proc/PID/FILE in one write(2), as the kernel wants for
   uid_map, gid_map, setgroups and timens_offsets.  */
int ns_proc_write (pid_t pid, const char *file, const char *text);

/* Map COUNT ids from INSIDE in the user namespace of PID to OUTSIDE in
   its parent: FILE is "uid_map" or "gid_map".  A map can be written only
   once per namespace.  */
int ns_write_id_map (pid_t pid, const char *file, uint32_t inside,
                     uint32_t outside, uint32_t count);

/* Write "allow" or "deny" to /proc/PID/setgroups.  */
int ns_write_setgroups (pid_t pid, bool allow);

/* Set the offset of CLOCK (CLOCK_MONOTONIC or CLOCK_BOOTTIME) to SECONDS
   in the time namespace that PID's next children enter; allowed only
   until a process has entered it.  */
int ns_set_time_offset (pid_t pid, int clock, int64_t seconds);

/* Open FILE, to keep a namespace on, before anything is unshared; it is
   never followed if a symbolic link.  An existing FILE must be an empty
   regular file (a namespace kept there already shows as one); a missing
   one is created, empty, with O_EXCL when CREATE, else -ENOENT.  Return
   a descriptor for ns_persist, or -errno; when FILE is refused, *WHY
   says why ("a symbolic link", "not a regular file", "not empty"), else
   *WHY is NULL.  */
int ns_persist_open (const char *file, bool create, const char **why);

/* Keep the namespace of kind NS of process PID (its children's, for the
   kinds that have such a file) alive after its last process: bind mount
   its /proc file onto the file open on FD (from ns_persist_open),
   through /proc/self/fd, so that no path is looked up again.  */
int ns_persist (pid_t pid, const struct ns_info *ns, int fd);

/* Explain, for a message that ends "unshare failed: <strerror(-ERR)>",
   what to change after unshare(FLAGS) failed with -ERR: which namespace
   needs what, which kernel setting refused it, and where an option would
   do, which ("; drop -T", "; run as root or add -U/-r").  Writes an
   empty string when there is nothing better to say than the error.
   Return BUF.  */
char *ns_explain_unshare (int flags, int err, char *buf, size_t size);

#endif
