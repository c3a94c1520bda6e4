/* fuzz-unshare-run.c -- the command line of unshare-run: its option table
   through cli_context_flags (optional arguments only after '=', options
   ending at COMMAND), and its parsers, static in cmd/unshare-run.c:
   parse_id (--map-user, --map-group, --setuid, --setgid), parse_seconds
   (the time offsets --monotonic, --boottime) and parse_signal
   (--kill-child).  The tool's file is compiled into this target, its main
   renamed.

   The input is an argument vector, its words separated by null bytes;
   the single-value parsers take its first word.  */

#include <config.h>

#include "fuzz.h"

int unshare_run_main (int argc, char **argv);
#define main unshare_run_main
#include "cmd/unshare-run.c"
#undef main

#include <inttypes.h>

#include "c-ctype.h"

struct command_line
{
  int argc;
  char **argv;
};

/* Parse C->argv with unshare-run's table and flags; check that COMMAND
   and its words, the operands, are the last words of C->argv, unchanged
   and in their order, whatever options stand before them.  */
static void
call_command_line (void *p)
{
  struct command_line *c = p;
  fill_ns_options ();
  poptContext con = cli_context_flags (c->argc, c->argv, options, "",
                                       CLI_OPTIONAL_AFTER_EQUALS
                                       | CLI_STOP_AT_OPERAND);
  while (cli_next_option (con) >= 0)
    free (poptGetOptArg (con));
  const char **rest = poptGetArgs (con);
  int n = 0;
  while (rest && rest[n])
    n++;
  fuzz_assert (n < c->argc, "more operands than words");
  for (int k = 0; k < n; k++)
    fuzz_assert (strcmp (rest[k], c->argv[c->argc - n + k]) == 0,
                 "an operand that is not a last word, as it was");
  poptFreeContext (con);
}

struct value_call
{
  const char *arg;
  int64_t value;
  bool group;
};

static void
call_parse_id (void *p)
{
  struct value_call *c = p;
  c->value = parse_id ("map-user", c->arg, c->group);
}

static void
call_parse_seconds (void *p)
{
  struct value_call *c = p;
  c->value = parse_seconds ("monotonic", c->arg);
}

static void
call_parse_signal (void *p)
{
  struct value_call *c = p;
  c->value = parse_signal ("kill-child", c->arg);
}

/* The value of ARG in the number syntax of newcalls(7) without a unit
   (decimal digits, or 0x and hexadecimal digits), after a '-' if SIGN;
   false if ARG is not written so or does not fit.  Written apart from
   lib/cli/number.c, as a reference.  */
static bool
reference_number (const char *arg, bool sign, intmax_t *value)
{
  bool negative = sign && *arg == '-';
  arg += negative;
  bool hex = arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X');
  const char *digits = arg + 2 * hex;
  const char *set = hex ? "0123456789abcdefABCDEF" : "0123456789";
  if (!*digits || digits[strspn (digits, set)] != '\0')
    return false;
  errno = 0;
  uintmax_t magnitude = strtoumax (digits, NULL, hex ? 16 : 10);
  if (errno || magnitude > INTMAX_MAX)
    return false;
  *value = negative ? -(intmax_t) magnitude : (intmax_t) magnitude;
  return true;
}

static void
check_values (const char *arg)
{
  struct value_call c = { .arg = arg };
  intmax_t written;
  if (c_isdigit (arg[0]) && fuzz_call (call_parse_id, &c, NULL))
    fuzz_assert (reference_number (arg, false, &written) && c.value >= 0
                 && c.value < UINT32_MAX && c.value == written,
                 "an id not the number written, or (uid_t) -1");
  c.group = true;
  if (c_isdigit (arg[0]) && fuzz_call (call_parse_id, &c, NULL))
    fuzz_assert (reference_number (arg, false, &written),
                 "a group id not a number");

  if (fuzz_call (call_parse_seconds, &c, NULL))
    fuzz_assert (reference_number (arg, true, &written)
                 && c.value >= INT64_MIN / 2 && c.value <= INT64_MAX / 2
                 && c.value == written,
                 "a time offset not the number of seconds written");

  if (fuzz_call (call_parse_signal, &c, NULL))
    {
      fuzz_assert (c.value > 0 && c.value < NSIG, "no such signal");
      char name[SIG2STR_MAX];
      struct value_call back = { .arg = name };
      if (sig2str ((int) c.value, name) != 0)
        snprintf (name, sizeof name, "%d", (int) c.value);
      fuzz_assert (fuzz_call (call_parse_signal, &back, NULL)
                   && back.value == c.value,
                   "a signal's name does not read back as that signal");
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *argv[FUZZ_MAX_WORDS + 2], *words;
  int argc = fuzz_argv ("unshare-run", data, size, argv, &words);

  struct command_line s = { argc, argv };
  fuzz_call (call_command_line, &s, NULL);
  check_values (argv[1]);
  free (words);
  return 0;
}
