/* ns/idmap.h -- ranges of ids in a new user namespace, as util-linux
   2.40's unshare(1) takes them: --map-users and --map-groups
   INNER:OUTER:COUNT (or the older OUTER,INNER,COUNT), "auto" for the
   caller's first range of subordinate ids in /etc/subuid or /etc/subgid,
   mapped from 0; the map lines they make with the caller's own id; and
   their writing, directly by a process with CAP_SETUID or CAP_SETGID
   over the parent namespace, else by the set-user-ID helpers newuidmap
   and newgidmap (the uidmap package), which check the caller's right to
   the range in those files.  Returns -errno and leaves the words to its
   caller.  */

#ifndef NC_NS_IDMAP_H
#define NC_NS_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* COUNT ids from INNER in a new user namespace are OUTER... in its
   parent: one line of /proc/PID/uid_map or gid_map.  */
struct ns_id_range
{
  uint32_t inner, outer, count;
};

/* The most lines ns_idmap_lines makes.  */
#define NS_IDMAP_LINES 4

/* Parse SPEC, "INNER:OUTER:COUNT" or "OUTER,INNER,COUNT" (decimal),
   into *RANGE: 0, or -EINVAL if it is neither, COUNT is 0, or a range
   would pass 4294967295.  */
int ns_idmap_parse (const char *spec, struct ns_id_range *range);

/* The first line of FILE (/etc/subuid's syntax, NAME:FIRST:COUNT, NAME
   a user name or a number) for the user NAME or ID: FIRST and COUNT,
   mapped from 0, into *RANGE.  0, -ESRCH if no line is the user's,
   -EINVAL if that line is malformed, or -errno of reading FILE.  */
int ns_idmap_subid (const char *file, const char *name, uint32_t id,
                    struct ns_id_range *range);

/* The lines of a map: with SINGLE, the caller's OUTER as INNER first,
   then RANGE without the ids that line takes (ranges may not overlap):
   the inside of RANGE skips INNER and its outside skips OUTER, pairing
   the others in order, and the range loses its top pair when either is
   in it, as unshare(1) makes it; up to three pieces.  Into OUT; return
   how many.  */
size_t ns_idmap_lines (const struct ns_id_range *range, bool single,
                       uint32_t inner, uint32_t outer,
                       struct ns_id_range out[NS_IDMAP_LINES]);

/* Write the N LINES to /proc/PID/FILE ("uid_map" or "gid_map") in one
   write(2).  0 or -errno.  */
int ns_idmap_write (pid_t pid, const char *file,
                    const struct ns_id_range *lines, size_t n);

/* Run HELPER ("newuidmap" or "newgidmap", searched in PATH) for PID with
   the N LINES and wait for it, into *STATUS (a wait status).  0, or
   -errno if it could not be started (ENOENT: not installed).  */
int ns_idmap_run_helper (const char *helper, pid_t pid,
                         const struct ns_id_range *lines, size_t n,
                         int *status);

#endif
