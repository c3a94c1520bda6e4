/* ns/seccomp.h -- the seccomp program of --seccomp FD: a compiled
   classic BPF program, an array of struct sock_filter (<linux/filter.h>,
   8 bytes each) as bubblewrap takes it, read whole from FD, checked, and
   installed on this process with seccomp(2) (Linux 3.17), the last step
   before execve(2) so that the program has nothing of unshare-run's own
   to allow.  Returns -errno and leaves the words to its caller.  */

#ifndef NC_NS_SECCOMP_H
#define NC_NS_SECCOMP_H

#include <stddef.h>

/* Read FD to its end into a new buffer, *PROGRAM (free it), of *SIZE
   bytes, and check that it is a program: 0; -EINVAL when SIZE is not a
   multiple of 8 or is 0, -E2BIG when the program is longer than the
   kernel's BPF_MAXINSNS instructions; -errno when reading fails.
   Reads interrupted or short are continued.  */
int ns_seccomp_read (int fd, void **program, size_t *size);

/* Install PROGRAM, SIZE bytes, as a seccomp filter of this process:
   SECCOMP_SET_MODE_FILTER.  It needs no_new_privs or CAP_SYS_ADMIN
   (EACCES without); ENOSYS before Linux 3.17; EINVAL from a kernel
   without CONFIG_SECCOMP_FILTER, or for a program the kernel's checker
   refuses.  0 or -errno.  */
int ns_seccomp_install (void *program, size_t size);

#endif
