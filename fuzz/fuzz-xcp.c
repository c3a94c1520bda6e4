/* fuzz-xcp.c -- the parsers of xcp's option values, which are static in
   cmd/xcp.c: parse_preserve (--preserve=LIST), parse_when (--sparse,
   --reflink), parse_engine (--engine) and bare_optional_args (a bare
   --preserve or --reflink given its default).  They belong in lib/;
   until then the tool's file is compiled into this target, its main
   renamed.

   The input is an argument vector, its words separated by null bytes;
   the value parsers take its first word.  */

#include <config.h>

#include "fuzz.h"

int xcp_main (int argc, char **argv);
#define main xcp_main
#include "cmd/xcp.c"
#undef main

enum { MAX_WORDS = 64 };

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
  memset (&c->keep, 0, sizeof c->keep);
  parse_preserve (c->arg, &c->keep);
}

static void
call_parse_when (void *p)
{
  struct value_call *c = p;
  c->value = parse_when ("sparse", c->arg);
}

static void
call_parse_engine (void *p)
{
  struct value_call *c = p;
  c->value = parse_engine (c->arg);
}

/* The attributes --preserve=ITEM keeps, as bits, by their names: the
   reference parse_preserve must agree with.  */
static unsigned int
preserve_item (const char *item, size_t len)
{
  static const char *const names[] = {
    "mode", "ownership", "timestamps", "links", "xattr",
  };
  if (len == 3 && memcmp (item, "all", 3) == 0)
    return 0x1f;
  for (unsigned int i = 0; i < 5; i++)
    if (strlen (names[i]) == len && memcmp (item, names[i], len) == 0)
      return 1u << i;
  return 0;
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
  /* Every item known, empty ones skipped (strtok), at least one.  */
  unsigned int want = 0;
  bool valid = true;
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

static void
check_bare (int argc, char **argv)
{
  char **v = bare_optional_args (argc, argv);
  bool options_end = false;
  for (int i = 0; i < argc; i++)
    {
      options_end |= strcmp (argv[i], "--") == 0;
      bool bare = i > 0 && !options_end
                  && (strcmp (argv[i], "--preserve") == 0
                      || strcmp (argv[i], "--reflink") == 0);
      fuzz_assert (bare ? strncmp (v[i], argv[i], strlen (argv[i])) == 0
                          && v[i][strlen (argv[i])] == '='
                        : v[i] == argv[i],
                   "a word other than a bare --preserve or --reflink "
                   "changed");
    }
  fuzz_assert (v[argc] == NULL, "the vector does not end");
  free (v);
  argv_copy = NULL;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *words = xmalloc (size + 1);
  memcpy (words, data, size);
  words[size] = '\0';
  char *argv[MAX_WORDS + 2];
  int argc = 0;
  argv[argc++] = (char *) "xcp";
  for (char *w = words; w <= words + size && argc <= MAX_WORDS;
       w += strlen (w) + 1)
    argv[argc++] = w;
  argv[argc] = NULL;

  check_preserve (argv[1]);
  struct value_call c = { .arg = argv[1] };
  if (fuzz_call (call_parse_when, &c, NULL))
    fuzz_assert (strcmp (argv[1], "auto") == 0
                 || strcmp (argv[1], "always") == 0
                 || strcmp (argv[1], "never") == 0,
                 "--sparse takes a word other than auto, always, never");
  if (fuzz_call (call_parse_engine, &c, NULL))
    fuzz_assert (strcmp (argv[1], "clone") == 0
                 || strcmp (argv[1], "copy_file_range") == 0
                 || strcmp (argv[1], "sendfile") == 0
                 || strcmp (argv[1], "splice") == 0
                 || strcmp (argv[1], "rw") == 0,
                 "--engine takes a word that names no engine");
  check_bare (argc, argv);
  free (words);
  return 0;
}
