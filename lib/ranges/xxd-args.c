/* ranges/xxd-args.c -- xxd's option arguments; see ranges/xxd-args.h.  */

#include <config.h>

#include "ranges/xxd-args.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/common.h"
#include "cli/number.h"
#include "error.h"
#include "ranges/operands.h"
#include "sys/calls.h"

/* [+][-]ARG of OPTION: its magnitude, at most MAX, *PLUS and *MINUS its
   signs.  */
static uint64_t
parse_signed (const char *option, const char *arg, bool *plus, bool *minus,
              uint64_t max)
{
  *plus = *arg == '+';
  arg += *plus;
  *minus = *arg == '-';
  arg += *minus;
  return cli_parse_number (option, option, arg, max, NC_NUMBER_UNITS);
}

void
xxd_parse_seek (const char *seek, const char *len, struct xxd_seek *s)
{
  s->arg = seek ? seek : "0";
  s->value = parse_signed ("seek", s->arg, &s->plus, &s->minus,
                           NC_OFFSET_MAX);
  s->len = (len
            ? cli_parse_number ("len", "length", len, NC_OFFSET_MAX,
                                NC_NUMBER_UNITS)
            : 0);
}

uint64_t
xxd_seek_offset (const struct xxd_seek *s, int fd, const char *name,
                 bool size_known, uint64_t size, bool piped)
{
  uint64_t base = 0;
  if (s->minus && piped)
    cli_usage_error ("-s %s: %s is a pipe or a terminal, which cannot be "
                     "read back", s->arg, name);
  if (s->minus && !s->plus && !size_known)
    cli_usage_error ("-s %s: %s does not tell its size", s->arg, name);
  if (s->plus && !piped)
    {
      off_t at = sys_lseek (fd, 0, SEEK_CUR);
      base = at > 0 ? at : 0;
    }
  else if (s->minus)
    base = size;
  if (s->minus && s->value > base)
    error (EXIT_FAILURE, 0, "-s %s: before the start of %s", s->arg, name);
  return s->minus ? base - s->value : base + s->value;
}

uint64_t
xxd_display_offset (const char *arg)
{
  bool plus, minus;
  uint64_t value = parse_signed ("offset", arg, &plus, &minus, UINT64_MAX);
  return minus ? -value : value;
}

bool
xxd_want_color (const char *when)
{
  static const char *const whens[] = { "always", "never", "auto", NULL };
  size_t which = when ? cli_keyword ("color", when, whens) : 2;
  if (which < 2)
    return which == 0;
  const char *term = getenv ("TERM");
  const char *no_color = getenv ("NO_COLOR");
  return (isatty (STDOUT_FILENO) && term && *term
          && strcmp (term, "dumb") != 0 && (!no_color || !*no_color));
}
