/* ns/steps.h -- the sandbox (ns/sandbox.h) in unshare-run's run: what
   its options imply of the others, the combinations refused, and its
   mount steps (ns/mount.h) run in order, their failures told with the
   option that asked for them.  */

#ifndef NC_NS_STEPS_H
#define NC_NS_STEPS_H

#include "ns/request.h"

/* Before unshare(2): add to R->flags the namespaces of --unshare-*
   (those of the -try forms the kernel has) less those of --share-*;
   with mount steps, a new mount namespace, and a user namespace mapping
   the caller to itself if it lacks CAP_SYS_ADMIN and asked for none (as
   a new user namespace of --unshare-* does unless ids are mapped).  A
   usage error for --root, --wd or a propagation other than private or
   slave with mount steps.  Notes the mount namespace the steps must not
   run in (ns_mount_note_namespace), or fails.  */
void ns_steps_check (struct ns_run *r);

/* In the process that becomes COMMAND, or its init, after --mount-proc:
   the new root built by R's mount steps in order, then entered.  A step
   that fails ends the process (status 1) with a message naming the
   option, its arguments, the call, why, and the Linux it needs.  */
void ns_steps_mount (const struct ns_run *r);

#endif
