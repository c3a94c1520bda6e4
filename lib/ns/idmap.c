/* ns/idmap.c -- ranges of ids in a new user namespace; see ns/idmap.h.  */

#include <config.h>

#include "ns/idmap.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ns/kinds.h"
#include "ns/process.h"
#include "sys/calls.h"

/* A decimal number of 32 bits at *P, which moves past it; false if
   there is none or it is too large.  */
static bool
parse_u32 (const char **p, uint32_t *value)
{
  uint64_t v = 0;
  const char *s = *p;
  if (*s < '0' || *s > '9')
    return false;
  for (; *s >= '0' && *s <= '9'; s++)
    if ((v = v * 10 + (*s - '0')) > UINT32_MAX)
      return false;
  *value = v;
  *p = s;
  return true;
}

/* Three numbers of SPEC separated by SEP, into V; false if not.  */
static bool
parse_triple (const char *spec, char sep, uint32_t v[3])
{
  const char *p = spec;
  for (int i = 0; i < 3; i++)
    if (!parse_u32 (&p, &v[i]) || *p++ != (i < 2 ? sep : '\0'))
      return false;
  return true;
}

/* Whether RANGE stays below 4294967295, which is no id, inside and out.  */
static bool
range_fits (const struct ns_id_range *range)
{
  return range->count > 0
         && (uint64_t) range->inner + range->count <= UINT32_MAX
         && (uint64_t) range->outer + range->count <= UINT32_MAX;
}

int
ns_idmap_parse (const char *spec, struct ns_id_range *range)
{
  uint32_t v[3];
  struct ns_id_range r;
  if (parse_triple (spec, ':', v))
    r = (struct ns_id_range) { v[0], v[1], v[2] };
  else if (parse_triple (spec, ',', v))
    r = (struct ns_id_range) { v[1], v[0], v[2] };
  else
    return -EINVAL;
  if (!range_fits (&r))
    return -EINVAL;
  *range = r;
  return 0;
}

/* Whether the first field of LINE, LEN bytes, names the user NAME or
   ID.  */
static bool
subid_owner (const char *line, size_t len, const char *name, uint32_t id)
{
  if (name && strlen (name) == len && memcmp (line, name, len) == 0)
    return true;
  const char *p = line;
  uint32_t v;
  return parse_u32 (&p, &v) && p == line + len && v == id;
}

int
ns_idmap_subid (const char *file, const char *name, uint32_t id,
                struct ns_id_range *range)
{
  FILE *f = fopen (file, "re");
  if (!f)
    return -errno;
  char *line = NULL;
  size_t size = 0;
  int ret = -ESRCH;
  while (ret == -ESRCH && getline (&line, &size, f) >= 0)
    {
      char *colon = strchr (line, ':');
      if (!colon || !subid_owner (line, colon - line, name, id))
        continue;
      line[strcspn (line, "\n")] = '\0';
      uint32_t v[2];
      const char *p = colon + 1;
      bool ok = parse_u32 (&p, &v[0]) && *p++ == ':'
                && parse_u32 (&p, &v[1]) && *p == '\0';
      struct ns_id_range r = { 0, ok ? v[0] : 0, ok ? v[1] : 0 };
      ret = ok && range_fits (&r) ? 0 : -EINVAL;
      if (ret == 0)
        *range = r;
    }
  if (ret == -ESRCH && ferror (f))
    ret = -EIO;
  free (line);
  fclose (f);
  return ret;
}

/* The offset in [FIRST, FIRST + COUNT) of ID, or COUNT if it is not
   there.  */
static uint64_t
offset_in (uint32_t first, uint32_t count, uint32_t id)
{
  return id >= first && id - first < count ? id - first : count;
}

size_t
ns_idmap_lines (const struct ns_id_range *range, bool single,
                uint32_t inner, uint32_t outer,
                struct ns_id_range out[NS_IDMAP_LINES])
{
  size_t n = 0;
  uint64_t count = range->count;
  /* Where the inside and the outside skip the single line's ids: pair
     P of the range is inner + P + (P >= SKIP_IN) with outer + P + (P >=
     SKIP_OUT), for one pair less when either side skips.  */
  uint64_t skip_in = count, skip_out = count;
  if (single)
    {
      out[n++] = (struct ns_id_range) { inner, outer, 1 };
      skip_in = offset_in (range->inner, range->count, inner);
      skip_out = offset_in (range->outer, range->count, outer);
      if (skip_in < count || skip_out < count)
        count--;
    }
  uint64_t lo = skip_in < skip_out ? skip_in : skip_out;
  uint64_t hi = skip_in < skip_out ? skip_out : skip_in;
  const uint64_t bounds[4] = { 0, lo < count ? lo : count,
                               hi < count ? hi : count, count };
  for (int i = 0; i < 3; i++)
    {
      uint64_t p = bounds[i];
      if (bounds[i + 1] > p)
        out[n++] = (struct ns_id_range) {
          range->inner + p + (p >= skip_in),
          range->outer + p + (p >= skip_out),
          bounds[i + 1] - p
        };
    }
  return n;
}

int
ns_idmap_write (pid_t pid, const char *file,
                const struct ns_id_range *lines, size_t n)
{
  char text[NS_IDMAP_LINES * 36];
  size_t len = 0;
  for (size_t i = 0; i < n && i < NS_IDMAP_LINES; i++)
    len += snprintf (text + len, sizeof text - len,
                     "%" PRIu32 " %" PRIu32 " %" PRIu32 "\n",
                     lines[i].inner, lines[i].outer, lines[i].count);
  return ns_proc_write (pid, file, text);
}

int
ns_idmap_run_helper (const char *helper, pid_t pid,
                     const struct ns_id_range *lines, size_t n,
                     int *status)
{
  char words[2 + 3 * NS_IDMAP_LINES][16];
  char *argv[2 + 3 * NS_IDMAP_LINES + 1];
  size_t argc = 0;
  snprintf (words[argc], sizeof words[argc], "%s", helper);
  argv[argc] = words[argc];
  argc++;
  snprintf (words[argc], sizeof words[argc], "%ld", (long) pid);
  argv[argc] = words[argc];
  argc++;
  for (size_t i = 0; i < n && i < NS_IDMAP_LINES; i++)
    {
      const uint32_t v[3] = { lines[i].inner, lines[i].outer,
                              lines[i].count };
      for (int j = 0; j < 3; j++, argc++)
        {
          snprintf (words[argc], sizeof words[argc], "%" PRIu32, v[j]);
          argv[argc] = words[argc];
        }
    }
  argv[argc] = NULL;

  /* The child tells why execvp failed on a pipe that the exec closes.  */
  int fds[2];
  int ret = sys_pipe2 (fds, O_CLOEXEC);
  if (ret < 0)
    return ret;
  pid_t child = fork ();
  if (child < 0)
    {
      ret = -errno;
      sys_close (fds[0]);
      sys_close (fds[1]);
      return ret;
    }
  if (child == 0)
    {
      sys_close (fds[0]);
      execvp (helper, argv);
      int err = errno;
      ns_run_pipe_write (fds[1], &err, sizeof err);
      _exit (127);
    }
  sys_close (fds[1]);
  int err;
  ssize_t got = ns_run_pipe_read (fds[0], &err, sizeof err);
  sys_close (fds[0]);
  if (ns_run_wait (child, status, 0) < 0)
    return -errno;
  return got == sizeof err ? -err : 0;
}
