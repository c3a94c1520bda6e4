/* ns/env.c -- COMMAND's environment; see ns/env.h.  */

#include <config.h>

#include "ns/env.h"

#include <errno.h>
#include <stdlib.h>

int
ns_env_apply (const struct ns_env_change *env, size_t n,
              const struct ns_env_change **failed)
{
  for (size_t i = 0; i < n; i++)
    {
      const struct ns_env_change *c = &env[i];
      int ret = !c->name ? clearenv ()
                : c->value ? setenv (c->name, c->value, 1)
                : unsetenv (c->name);
      if (ret != 0)
        {
          *failed = c;
          /* clearenv sets no errno: it can only fail to free.  */
          return c->name ? -errno : -ENOMEM;
        }
    }
  return 0;
}
