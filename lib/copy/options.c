/* copy/options.c -- what a copy of files is asked to do: the process's
   identity, xcp's option words and the rules between the options; see
   copy/options.h.  */

#include <config.h>

#include "copy/options.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/common.h"
#include "xalloc.h"

/* --preserve without a list.  */
#define PRESERVE_DEFAULT "mode,ownership,timestamps"

void
copy_options_init (struct copy_options *x)
{
  /* umask can only be read by setting it: put it back at once.  */
  mode_t m = umask (0);
  umask (m);
  x->umask_bits = m;
  x->euid = geteuid ();
  x->egid = getegid ();
  x->is_root = x->euid == 0;
}

enum copy_when
copy_parse_when (const char *option, const char *arg)
{
  static const char *const words[] = { "auto", "always", "never", NULL };
  return cli_keyword (option, arg, words);
}

enum copy_update
copy_parse_update (const char *arg)
{
  static const char *const words[] = {
    "all", "none", "none-fail", "older", NULL
  };
  return cli_keyword ("update", arg, words);
}

enum copy_engine
copy_parse_engine (const char *arg)
{
  static const char *const words[] = {
    "clone", "copy_file_range", "sendfile", "splice", "rw", NULL
  };
  static const enum copy_engine engines[] = {
    COPY_ENGINE_CLONE, COPY_ENGINE_COPY_FILE_RANGE, COPY_ENGINE_SENDFILE,
    COPY_ENGINE_SPLICE, COPY_ENGINE_RW,
  };
  return engines[cli_keyword ("engine", arg, words)];
}

void
copy_parse_preserve (const char *option, const char *arg, bool on,
                     struct copy_options *x)
{
  static const char *const words[] = {
    "mode", "timestamps", "ownership", "links", "xattr", "all", NULL
  };
  static const char *const no_words[] = {
    "mode", "timestamps", "ownership", "links", "context", "xattr", "all",
    NULL
  };
  struct copy_preserve *keep = &x->preserve;
  bool context;
  bool *const kept[] = { &keep->mode, &keep->times, &keep->owner,
                         &keep->links, &keep->xattr };
  bool *const no_kept[] = { &keep->mode, &keep->times, &keep->owner,
                            &keep->links, &context, &keep->xattr };
  enum { ALL = sizeof kept / sizeof kept[0],
         NO_ALL = sizeof no_kept / sizeof no_kept[0] };
  if (!on && (!arg || !*arg))
    cli_keyword (option, "", no_words);     /* ambiguous, as in cp */
  char *list = xstrdup (arg && *arg ? arg : PRESERVE_DEFAULT);
  char *save = NULL;
  for (char *tok = strtok_r (list, ",", &save); tok;
       tok = strtok_r (NULL, ",", &save))
    {
      size_t i = cli_keyword (option, tok, on ? words : no_words);
      size_t all = on ? ALL : NO_ALL;
      /* Only xattr by name makes a failure to keep one an error.  */
      if (strcmp ((on ? words : no_words)[i], "xattr") == 0)
        keep->xattr_required = on;
      for (size_t k = 0; k < all; k++)
        if (k == i || i == all)
          *(on ? kept : no_kept)[k] = on;
      /* The last word about the mode wins, as in cp.  */
      if (i == 0 || i == all)
        x->default_mode = !on;
    }
  free (list);
}

enum backup_type
copy_parse_backup (const char *what, const char *control)
{
  return backup_types[cli_keyword_of (what, control, backup_words,
                                      backup_types, sizeof backup_types[0])];
}

enum backup_type
copy_default_backup (void)
{
  const char *control = getenv ("VERSION_CONTROL");
  return control && *control ? copy_parse_backup ("$VERSION_CONTROL",
                                                  control)
                             : BACKUP_EXISTING;
}

void
copy_set_link (struct copy_options *x, enum copy_link link)
{
  if (x->link != COPY_LINK_NONE && x->link != link)
    cli_usage_error ("cannot make both hard and symbolic links");
  x->link = link;
}

void
copy_options_settle (struct copy_options *x, bool backup, bool control)
{
  /* -n after the last -i leaves every file, whatever --update says; -i
     after it asks about those --update would replace (cp's order).  */
  if (x->clobber == COPY_CLOBBER_NO)
    x->update = COPY_UPDATE_NONE;
  /* -r -l links what a tree's symbolic links name, as cp -r -l does.  */
  if (x->link == COPY_LINK_HARD && x->recursive
      && x->deref == COPY_DEREF_DEFAULT)
    x->deref = COPY_DEREF_ALWAYS;
  if (backup && copy_leaves_existing (x))
    cli_usage_error ("--backup is mutually exclusive with -n or "
                     "--update=none-fail");
  if (backup && !control)
    x->backup = copy_default_backup ();
  if (x->engine == COPY_ENGINE_CLONE && x->reflink == COPY_WHEN_NEVER)
    cli_usage_error ("--engine=clone and --reflink=never contradict");
  /* Shared blocks cannot be written out as zeros.  */
  if (x->reflink == COPY_WHEN_ALWAYS && x->sparse == COPY_WHEN_NEVER)
    cli_usage_error ("--reflink=always and --sparse=never contradict");
}
