/* ns/caps.h -- the capabilities COMMAND runs with: the set the sandbox's
   --cap-add and --cap-drop leave, made the bounding, permitted,
   effective, inheritable and ambient sets at once, so that execve(2)
   gives COMMAND that set whatever its user, and no more, with
   no_new_privs or without; and --keep-caps's ambient copy of the
   permitted set.  A set is a mask of <linux/capability.h>'s numbers,
   bit N for capability N.  Returns -errno and leaves the words to its
   caller.  */

#ifndef NC_NS_CAPS_H
#define NC_NS_CAPS_H

#include <stddef.h>
#include <stdint.h>

#include "ns/sandbox.h"

/* The permitted set of this process, into *SET: 0 or -errno.  */
int ns_caps_permitted (uint64_t *set);

/* The effective set of this process, into *SET: 0 or -errno.  */
int ns_caps_effective (uint64_t *set);

/* The set the N changes of CHANGES, in order, leave of START: an add
   puts the capability in (ALL: every one of HELD), a drop takes it out
   (ALL: every one).  */
uint64_t ns_caps_changed (uint64_t start, uint64_t held,
                          const struct ns_cap_change *changes, size_t n);

/* Make SET every set of this process: drop the others from the bounding
   set, make SET permitted, effective and inheritable, and ambient (Linux
   4.3).  The bounding set needs CAP_SETPCAP: without it, and with an
   empty SET, it stays as it is (no_new_privs then keeps execve(2) from
   giving anything back).  0, or -errno with *CAP the capability whose
   change failed (-1 for capset(2), which fails with EPERM if SET holds
   a capability not permitted).  */
int ns_caps_limit (uint64_t set, int *cap);

/* Drop every capability but those of SET from the bounding set,
   leaving the other sets as they are (CAP_SETPCAP is taken back into
   the effective set from the permitted one if a change of user cleared
   it).  0, or -errno with *CAP as ns_caps_limit's.  */
int ns_caps_bound (uint64_t set, int *cap);

/* Make the permitted set effective, inheritable and ambient, so that it
   survives execve(2) whatever COMMAND's user (--keep-caps).  0, or
   -errno with *CAP as ns_caps_limit's.  */
int ns_caps_keep (int *cap);

#endif
