/* options-test.c -- the C test driver for lib/copy/options.c: what the
   words of xcp's options mean (--preserve and --no-preserve lists in
   command-line order, --reflink, --sparse, --update, --engine, backup
   controls and $VERSION_CONTROL), and the rules between the options
   once all are given (copy_options_settle); the usage errors, each in a
   child whose exit status must be 2.

   Output: TAP lines (tests/lib/tap.h).  */

#include <config.h>

#define TAP_NAME "options-test"
#include "tap.h"

#include "cli/common.h"
#include "copy/options.h"

/* The attributes of X's --preserve as a string: m, t, o, l, x for those
   kept, then D if new copies get the default mode, R if xattr is
   required.  */
static const char *
kept (const struct copy_options *x, char *buf)
{
  const struct copy_preserve *k = &x->preserve;
  snprintf (buf, 16, "%s%s%s%s%s%s%s", k->mode ? "m" : "",
            k->times ? "t" : "", k->owner ? "o" : "", k->links ? "l" : "",
            k->xattr ? "x" : "", x->default_mode ? "D" : "",
            k->xattr_required ? "R" : "");
  return buf;
}

/* Options given in order: "+LIST" for --preserve=LIST ("+" alone: the
   default list), "-LIST" for --no-preserve=LIST.  */
static void
check_preserve (const char *const *args, const char *want)
{
  struct copy_options x = { 0 };
  char what[200] = "", buf[16];
  for (; *args; args++)
    {
      bool on = **args == '+';
      copy_parse_preserve (on ? "preserve" : "no-preserve", *args + 1, on,
                           &x);
      strcat (what, *what ? " " : "");
      strcat (what, *args);
    }
  tap_check_str (kept (&x, buf), want, "preserve %s", what);
}

static void
test_preserve (void)
{
  check_preserve ((const char *[]) { "+", NULL }, "mto");
  check_preserve ((const char *[]) { "+all", NULL }, "mtolx");
  check_preserve ((const char *[]) { "+xattr", NULL }, "xR");
  check_preserve ((const char *[]) { "+links", "+mode", NULL }, "ml");
  check_preserve ((const char *[]) { "+all", "-links,xattr", NULL },
                  "mto");
  check_preserve ((const char *[]) { "+all", "-mode", NULL }, "tolxD");
  check_preserve ((const char *[]) { "-mode", "+mode", NULL }, "m");
  check_preserve ((const char *[]) { "+all", "-context", NULL }, "mtolx");
  check_preserve ((const char *[]) { "+xattr", "-all", NULL }, "DR");
}

static void
test_words (void)
{
  tap_check_int (copy_parse_when ("sparse", "never"), COPY_WHEN_NEVER,
                 "--sparse=never");
  tap_check_int (copy_parse_when ("reflink", "al"), COPY_WHEN_ALWAYS,
                 "--reflink=al, abbreviated");
  tap_check_int (copy_parse_update ("none-fail"), COPY_UPDATE_NONE_FAIL,
                 "--update=none-fail");
  tap_check_int (copy_parse_update ("older"), COPY_UPDATE_OLDER,
                 "--update=older");
  tap_check_int (copy_parse_engine ("copy_file_range"),
                 COPY_ENGINE_COPY_FILE_RANGE, "--engine=copy_file_range");
  tap_check_int (copy_parse_engine ("rw"), COPY_ENGINE_RW, "--engine=rw");
  tap_check_int (copy_parse_backup ("backup type", "t"), BACKUP_NUMBERED,
                 "--backup=t is numbered");
  tap_check_int (copy_parse_backup ("backup type", "never"), BACKUP_SIMPLE,
                 "--backup=never is simple");
  unsetenv ("VERSION_CONTROL");
  tap_check_int (copy_default_backup (), BACKUP_EXISTING,
                 "-b without $VERSION_CONTROL: existing");
  setenv ("VERSION_CONTROL", "numbered", 1);
  tap_check_int (copy_default_backup (), BACKUP_NUMBERED,
                 "-b with VERSION_CONTROL=numbered");
  unsetenv ("VERSION_CONTROL");
}

static void
test_settle (void)
{
  struct copy_options x = { .clobber = COPY_CLOBBER_NO,
                            .update = COPY_UPDATE_OLDER };
  copy_options_settle (&x, false, false);
  tap_check_int (x.update, COPY_UPDATE_NONE, "-n after -u leaves every file");

  x = (struct copy_options) { .link = COPY_LINK_HARD, .recursive = true };
  copy_options_settle (&x, false, false);
  tap_check_int (x.deref, COPY_DEREF_ALWAYS, "-r -l follows a tree's links");
  x = (struct copy_options) { .link = COPY_LINK_HARD, .recursive = true,
                              .deref = COPY_DEREF_NEVER };
  copy_options_settle (&x, false, false);
  tap_check_int (x.deref, COPY_DEREF_NEVER, "-r -l -P does not");

  setenv ("VERSION_CONTROL", "simple", 1);
  x = (struct copy_options) { 0 };
  copy_options_settle (&x, true, false);
  tap_check_int (x.backup, BACKUP_SIMPLE, "-b takes $VERSION_CONTROL's");
  x = (struct copy_options) { .backup = BACKUP_NUMBERED };
  copy_options_settle (&x, true, true);
  tap_check_int (x.backup, BACKUP_NUMBERED, "--backup=CONTROL keeps its own");
  unsetenv ("VERSION_CONTROL");
}

/* A usage error in a child: exit status 2, the message on standard
   error (thrown away).  */
static void
check_usage (const struct copy_options *given, int step, const char *what)
{
  fflush (NULL);
  pid_t pid = fork ();
  if (pid < 0)
    tap_die ("fork");
  if (pid == 0)
    {
      if (!freopen ("/dev/null", "w", stderr))
        _exit (99);
      struct copy_options x = *given;
      if (step == 0)
        copy_options_settle (&x, true, false);
      else if (step == 1)
        copy_options_settle (&x, false, false);
      else if (step == 2)
        copy_set_link (&x, COPY_LINK_SYMBOLIC);
      else
        copy_parse_preserve ("preserve", "mode,nothing", true, &x);
      _exit (0);
    }
  int status;
  if (waitpid (pid, &status, 0) != pid)
    tap_die ("waitpid");
  tap_check_int (WIFEXITED (status) ? WEXITSTATUS (status) : -1, 2,
                 "usage error: %s", what);
}

static void
test_usage_errors (void)
{
  check_usage (&(struct copy_options) { .clobber = COPY_CLOBBER_NO,
                                        .update = COPY_UPDATE_NONE }, 0,
               "--backup with -n");
  check_usage (&(struct copy_options) { .update = COPY_UPDATE_NONE_FAIL },
               0, "--backup with --update=none-fail");
  check_usage (&(struct copy_options) { .engine = COPY_ENGINE_CLONE,
                                        .reflink = COPY_WHEN_NEVER }, 1,
               "--engine=clone --reflink=never");
  check_usage (&(struct copy_options) { .reflink = COPY_WHEN_ALWAYS,
                                        .sparse = COPY_WHEN_NEVER }, 1,
               "--reflink=always --sparse=never");
  check_usage (&(struct copy_options) { .link = COPY_LINK_HARD }, 2,
               "-l then -s");
  check_usage (&(struct copy_options) { 0 }, 3, "--preserve=mode,nothing");
}

int
main (int argc, char **argv)
{
  (void) argc;
  cli_init (1, argv);
  test_preserve ();
  test_words ();
  test_settle ();
  test_usage_errors ();
  return tap_done ();
}
