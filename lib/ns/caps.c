/* ns/caps.c -- the capabilities COMMAND runs with; see ns/caps.h.  */

#include <config.h>

#include "ns/caps.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <sys/prctl.h>

#include "sys/calls.h"

/* capget(2)'s three sets, as 64-bit masks.  */
struct cap_sets
{
  uint64_t effective, permitted, inheritable;
};

static int
caps_get (struct cap_sets *s)
{
  struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
  int ret = sys_capget (&hdr, data);
  if (ret < 0)
    return ret;
  *s = (struct cap_sets) { 0, 0, 0 };
  for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
    {
      s->effective |= (uint64_t) data[i].effective << (32 * i);
      s->permitted |= (uint64_t) data[i].permitted << (32 * i);
      s->inheritable |= (uint64_t) data[i].inheritable << (32 * i);
    }
  return 0;
}

static int
caps_set (const struct cap_sets *s)
{
  struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
  for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
    {
      data[i].effective = s->effective >> (32 * i);
      data[i].permitted = s->permitted >> (32 * i);
      data[i].inheritable = s->inheritable >> (32 * i);
    }
  return sys_capset (&hdr, data);
}

int
ns_caps_permitted (uint64_t *set)
{
  struct cap_sets s;
  int ret = caps_get (&s);
  if (ret == 0)
    *set = s.permitted;
  return ret;
}

int
ns_caps_effective (uint64_t *set)
{
  struct cap_sets s;
  int ret = caps_get (&s);
  if (ret == 0)
    *set = s.effective;
  return ret;
}

uint64_t
ns_caps_changed (uint64_t start, uint64_t held,
                 const struct ns_cap_change *changes, size_t n)
{
  uint64_t set = start;
  for (size_t i = 0; i < n; i++)
    {
      const struct ns_cap_change *c = &changes[i];
      uint64_t bits = c->cap < 0 ? (c->add ? held : UINT64_MAX)
                      : c->cap < 64 ? (uint64_t) 1 << c->cap : 0;
      set = c->add ? set | bits : set & ~bits;
    }
  return set;
}

/* Raise the capabilities of SET in the ambient set, which has none.  */
static int
raise_ambient (uint64_t set, int *cap)
{
  for (int i = 0; i < 64; i++)
    {
      if (!((set >> i) & 1))
        continue;
      int ret = sys_prctl (PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, i, 0, 0);
      if (ret < 0)
        {
          *cap = i;
          return ret;
        }
    }
  return 0;
}

/* Drop every capability but those of SET from the bounding set, the
   permitted set being PERMITTED: 0, or -errno with *CAP the one whose
   drop failed.  */
static int
drop_bounding (uint64_t set, uint64_t permitted, int *cap)
{
  /* Without CAP_SETPCAP, an empty SET leaves it (see ns/caps.h).  */
  bool bound = ((permitted >> CAP_SETPCAP) & 1) || set != 0;
  for (int i = 0; i < 64 && bound; i++)
    {
      if ((set >> i) & 1)
        continue;
      int ret = sys_prctl (PR_CAPBSET_DROP, i, 0, 0, 0);
      /* EINVAL: past the kernel's last capability, the end.  */
      if (ret == -EINVAL)
        break;
      if (ret < 0)
        {
          *cap = i;
          return ret;
        }
    }
  return 0;
}

/* The sets of this process into *NOW, the permitted one made effective
   if a change of user cleared the effective set: CAP_SETPCAP, which the
   bounding set needs, is taken back.  0 or -errno.  */
static int
caps_regained (struct cap_sets *now)
{
  int ret = caps_get (now);
  if (ret == 0 && now->effective != now->permitted)
    {
      now->effective = now->permitted;
      ret = caps_set (now);
    }
  return ret;
}

int
ns_caps_bound (uint64_t set, int *cap)
{
  struct cap_sets now;
  int ret = caps_regained (&now);
  *cap = -1;
  return ret < 0 ? ret : drop_bounding (set, now.permitted, cap);
}

int
ns_caps_limit (uint64_t set, int *cap)
{
  struct cap_sets now;
  int ret = caps_regained (&now);
  *cap = -1;
  if (ret < 0)
    return ret;
  /* The bounding set first, while CAP_SETPCAP is still held.  */
  ret = drop_bounding (set, now.permitted, cap);
  if (ret < 0)
    return ret;
  struct cap_sets want = { set, set, set };
  ret = caps_set (&want);
  if (ret < 0)
    return ret;
  /* Lowering the inheritable set cleared the ambient capabilities that
     left it; the others are raised again, each once.  */
  ret = sys_prctl (PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  if (ret < 0)
    return ret;
  return raise_ambient (set, cap);
}

int
ns_caps_keep (int *cap)
{
  struct cap_sets s;
  int ret = caps_get (&s);
  *cap = -1;
  if (ret < 0)
    return ret;
  s.effective = s.inheritable = s.permitted;
  ret = caps_set (&s);
  if (ret < 0)
    return ret;
  return raise_ambient (s.permitted, cap);
}
