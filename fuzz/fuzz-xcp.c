/* fuzz-xcp.c -- the parsers of xcp's option values in lib/copy/options.c:
   copy_parse_preserve (--preserve=LIST, from no attribute kept),
   copy_parse_when (--sparse, --reflink) and copy_parse_engine (--engine),
   keywords through lib/cli/common's cli_keyword (argmatch: a word or an
   unambiguous abbreviation of one).

   The input is an argument vector, its words separated by null bytes;
   the value parsers take its first word.  */

#include <config.h>

#include <string.h>

#include "copy/options.h"
#include "fuzz.h"

struct value_call
{
  const char *arg;
  int value;
  struct copy_preserve keep;
};

static void
call_parse_preserve (void *p)
{
  struct value_call *c = p;
  struct copy_options x = { 0 };
  copy_parse_preserve ("preserve", c->arg, true, &x);
  c->keep = x.preserve;
}

static void
call_parse_when (void *p)
{
  struct value_call *c = p;
  c->value = copy_parse_when ("sparse", c->arg);
}

static void
call_parse_engine (void *p)
{
  struct value_call *c = p;
  c->value = copy_parse_engine (c->arg);
}

/* The index in WORDS of the keyword ITEM (LEN bytes) names, as argmatch
   takes it: the word itself, or the one word it abbreviates; -1 if none
   or several.  */
static int
keyword_index (const char *item, size_t len, const char *const *words)
{
  int found = -1;
  for (int i = 0; words[i]; i++)
    if (strlen (words[i]) >= len && memcmp (item, words[i], len) == 0)
      {
        if (strlen (words[i]) == len)
          return i;
        if (found >= 0)
          return -1;
        found = i;
      }
  return found;
}

/* The attributes --preserve=ITEM keeps, as bits, by their names: the
   reference copy_parse_preserve must agree with.  */
static unsigned int
preserve_item (const char *item, size_t len)
{
  static const char *const names[] = {
    "mode", "ownership", "timestamps", "links", "xattr", "all", NULL
  };
  int i = len ? keyword_index (item, len, names) : -1;
  return i < 0 ? 0 : i == 5 ? 0x1f : 1u << i;
}
static unsigned int
kept (const struct copy_preserve *keep)
{
  return keep->mode | keep->owner << 1 | keep->times << 2
         | keep->links << 3 | keep->xattr << 4;
}

static void
check_preserve (const char *arg)
{
  /* Every item known, empty ones skipped (strtok); an empty list is the
     default one.  */
  unsigned int want = 0;
  bool valid = true;
  if (!*arg)
    want = 0x7;                 /* mode, ownership, timestamps */
  for (const char *p = arg; *p; )
    {
      size_t len = strcspn (p, ",");
      if (len)
        {
          unsigned int bits = preserve_item (p, len);
          valid &= bits != 0;
          want |= bits;
        }
      p += len + (p[len] == ',');
    }
  struct value_call c = { .arg = arg };
  bool ok = fuzz_call (call_parse_preserve, &c, NULL);
  fuzz_assert (ok == valid, "--preserve takes an unknown attribute or "
               "refuses a known one");
  if (ok)
    fuzz_assert (kept (&c.keep) == want, "--preserve keeps other "
                 "attributes than the list names");
}

static bool
is_keyword (const char *arg, const char *const *words)
{
  return keyword_index (arg, strlen (arg), words) >= 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *argv[FUZZ_MAX_WORDS + 2], *words;
  fuzz_argv ("xcp", data, size, argv, &words);

  check_preserve (argv[1]);
  struct value_call c = { .arg = argv[1] };
  static const char *const whens[] = { "auto", "always", "never", NULL };
  static const char *const engines[] = {
    "clone", "copy_file_range", "sendfile", "splice", "rw", NULL
  };
  fuzz_assert (fuzz_call (call_parse_when, &c, NULL)
               == is_keyword (argv[1], whens),
               "--sparse takes a word other than auto, always, never, or "
               "refuses one");
  fuzz_assert (fuzz_call (call_parse_engine, &c, NULL)
               == is_keyword (argv[1], engines),
               "--engine takes a word that names no engine, or refuses "
               "one");
  free (words);
  return 0;
}
