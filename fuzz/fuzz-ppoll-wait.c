/* fuzz-ppoll-wait.c -- the parsers of ppoll-wait: parse_signals (the
   lists of --signal and --ignore, by lib/cli/siglist: names in either case,
   with or without SIG, or numbers, the messages the tool's),
   target_descriptor_number (lib/wait/target: a TARGET that is a descriptor)
   and split_command (the words after "--", the COMMAND, from those popt
   parses).  parse_signals and split_command are static in
   cmd/ppoll-wait.c: the tool's file is compiled into this target, its
   main renamed.

   The input is an argument vector, its words separated by null bytes,
   for split_command; the other parsers take its first word.  */

#include <config.h>

#include "fuzz.h"

int ppoll_wait_main (int argc, char **argv);
#define main ppoll_wait_main
#include "cmd/ppoll-wait.c"
#undef main

struct signals_call
{
  const char *list;
  sigset_t set;
};

static void
call_parse_signals (void *p)
{
  struct signals_call *c = p;
  sigemptyset (&c->set);
  parse_signals ("signal", c->list, &c->set);
}

/* Check that the signals of LIST are those of its items one by one, that
   each reads back from its name, and that none is KILL or STOP.  */
static void
check_signals (const char *list, const sigset_t *set)
{
  sigset_t items;
  sigemptyset (&items);
  char *copy = xstrdup (list);
  for (char *item = copy, *comma; item; item = comma ? comma + 1 : NULL)
    {
      comma = strchr (item, ',');
      if (comma)
        *comma = '\0';
      struct signals_call one = { .list = item };
      fuzz_assert (fuzz_call (call_parse_signals, &one, NULL),
                   "an item of a list that parsed does not parse alone");
      for (int sig = 1; sig < NSIG; sig++)
        if (sigismember (&one.set, sig) == 1)
          sigaddset (&items, sig);
    }
  free (copy);
  for (int sig = 1; sig < NSIG; sig++)
    {
      bool in = sigismember (set, sig) == 1;
      fuzz_assert (in == (sigismember (&items, sig) == 1),
                   "a list is not the union of its items");
      if (!in)
        continue;
      fuzz_assert (sig != SIGKILL && sig != SIGSTOP,
                   "KILL or STOP taken for a signal to catch");
      char name[SIG2STR_MAX];
      struct signals_call back = { .list = siglist_name (sig, name) };
      fuzz_assert (fuzz_call (call_parse_signals, &back, NULL)
                   && sigismember (&back.set, sig) == 1,
                   "a signal's name does not read back as that signal");
    }
}

/* What descriptor_number should say: digits only, as a number up to
   INT_MAX, else -1.  */
static void
check_descriptor (const char *name)
{
  int got = target_descriptor_number (name);
  size_t digits = strspn (name, "0123456789");
  if (digits == 0 || name[digits] != '\0')
    {
      fuzz_assert (got == -1, "a descriptor from a word not all digits");
      return;
    }
  long long want = 0;
  for (const char *p = name; *p && want <= INT_MAX; p++)
    want = want * 10 + (*p - '0');
  fuzz_assert (got == (want > INT_MAX ? INT_MAX : want),
               "a descriptor number misread");
}

/* What split_command should do with ARGV: no COMMAND without a "--"
   among ARGV[1] on; else the words after the first, the words before it
   to popt, none of them a "--".  */
static void
check_split (int argc, char **argv)
{
  int options_argc = -1;
  char **command = split_command (argc, argv, &options_argc);
  int first = 0;
  for (int i = argc - 1; i >= 1; i--)
    if (strcmp (argv[i], "--") == 0)
      first = i;
  if (!first)
    {
      fuzz_assert (!command && options_argc == argc,
                   "a COMMAND without a \"--\"");
      return;
    }
  fuzz_assert (command == argv + first + 1 && options_argc == first,
               "not the first \"--\" that ends the targets");
  int n = 0;
  while (command[n])
    n++;
  fuzz_assert (options_argc + 1 + n == argc,
               "words lost or added around the \"--\"");
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *argv[FUZZ_MAX_WORDS + 2], *words;
  int argc = fuzz_argv ("ppoll-wait", data, size, argv, &words);
  check_split (argc, argv);
  free (words);

  char *arg = fuzz_string (data, size);
  struct signals_call c = { .list = arg };
  if (fuzz_call (call_parse_signals, &c, NULL))
    check_signals (arg, &c.set);
  check_descriptor (arg);
  free (arg);
  return 0;
}
