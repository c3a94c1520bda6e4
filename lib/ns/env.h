/* ns/env.h -- COMMAND's environment as the sandbox options change it:
   --setenv, --unsetenv and --clearenv, applied to this process's
   environment in the order given, so that execvp(3) searches the PATH
   COMMAND gets, as bubblewrap does.  Returns -errno and leaves the words
   to its caller.  */

#ifndef NC_NS_ENV_H
#define NC_NS_ENV_H

#include <stddef.h>

#include "ns/sandbox.h"

/* Apply the N changes of ENV to environ, in order.  0, or -errno with
   *FAILED the change that failed (ENOMEM; EINVAL for a NAME that is
   empty or holds '=').  */
int ns_env_apply (const struct ns_env_change *env, size_t n,
                  const struct ns_env_change **failed);

#endif
