/* common.c -- see fuzz.h.  Compiled without -Dexit=fuzz_exit: the
   exit here is the real one.  */

#include <config.h>

#include "fuzz.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sanitizer/lsan_interface.h>

static jmp_buf exit_jmp;
static bool armed;
static int exit_status;

_Noreturn void
fuzz_exit (int status)
{
  /* An exit outside fuzz_call is a real one: libFuzzer's own, or a
     target's bug, which libFuzzer then reports.  */
  if (!armed)
    exit (status);
  armed = false;
  exit_status = status;
  longjmp (exit_jmp, 1);
}

/* One run of FN (ARG): true if it returned.  */
static bool
run_once (void (*fn) (void *), void *arg)
{
  if (setjmp (exit_jmp) != 0)
    return false;
  armed = true;
  fn (arg);
  armed = false;
  return true;
}

bool
fuzz_call (void (*fn) (void *), void *arg, int *status)
{
  __lsan_disable ();
  bool returned = run_once (fn, arg);
  __lsan_enable ();
  if (!returned)
    {
      if (status)
        *status = exit_status;
      return false;
    }
  if (!run_once (fn, arg))
    fuzz_fail (__FILE__, __LINE__, "a parser returned once and exited "
               "the second time on the same input");
  return true;
}

char *
fuzz_string (const uint8_t *data, size_t size)
{
  const uint8_t *nul = memchr (data, '\0', size);
  size_t len = nul ? (size_t) (nul - data) : size;
  char *s = malloc (len + 1);
  if (!s)
    abort ();
  memcpy (s, data, len);
  s[len] = '\0';
  return s;
}

int
fuzz_argv (const char *name, const uint8_t *data, size_t size, char **argv,
           char **words)
{
  /* A copy, null-terminated, so that the last word ends too.  */
  char *copy = malloc (size + 1);
  if (!copy)
    abort ();
  memcpy (copy, data, size);
  copy[size] = '\0';
  int argc = 0;
  argv[argc++] = (char *) name;
  for (char *w = copy; w <= copy + size && argc <= FUZZ_MAX_WORDS;
       w += strlen (w) + 1)
    argv[argc++] = w;
  argv[argc] = NULL;
  *words = copy;
  return argc;
}

_Noreturn void
fuzz_fail (const char *file, int line, const char *message)
{
  fprintf (stderr, "%s:%d: %s\n", file, line, message);
  abort ();
}
