/* xcp -- copy files with the cheapest call the file systems allow
   (FICLONE, copy_file_range, splice), keeping holes, into an unnamed
   temporary file that is linked into place only once complete.

   SYNOPSIS: xcp [OPTION]... SRC DST
             xcp [OPTION]... SRC... DIR
             xcp [OPTION]... -t DIR SRC...  */

#include <config.h>

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/common.h"
#include "copy/install.h"
#include "copy/jobs.h"
#include "copy/operand.h"
#include "copy/options.h"
#include "copy/sources.h"
#include "copy/telling.h"

enum { OPT_ENGINE = 1, OPT_REFLINK, OPT_SPARSE, OPT_PRESERVE, OPT_FORCE,
       OPT_NO_CLOBBER, OPT_INTERACTIVE, OPT_PRESERVE_DEFAULT, OPT_DEBUG,
       OPT_FSYNC, OPT_INPLACE, OPT_UPDATE,
       OPT_VERBOSE, OPT_RECURSIVE, OPT_ARCHIVE, OPT_TARGET_DIR,
       OPT_NO_TARGET_DIR, OPT_JOBS, OPT_NO_PRESERVE,
       OPT_STRIP_SLASHES, OPT_ONE_FS,
       OPT_NO_DEREF, OPT_DEREF_ARGS, OPT_DEREF, OPT_NO_DEREF_LINKS,
       OPT_PARENTS, OPT_ATTRIBUTES_ONLY, OPT_KEEP_DIR_SYMLINK,
       OPT_LINK, OPT_SYMBOLIC_LINK,
       OPT_BACKUP, OPT_BACKUP_SHORT, OPT_SUFFIX, OPT_COPY_CONTENTS,
       OPT_UPDATE_OLDER, OPT_REMOVE_DEST, OPT_JSON };

static struct poptOption tool_options[] = {
  { "engine", '\0', POPT_ARG_STRING, NULL, OPT_ENGINE,
    "move file data with this call only: clone, copy_file_range, "
    "sendfile, splice or rw (default: the first that works of clone, "
    "copy_file_range, splice, rw)", "ENGINE" },
  { "reflink", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL,
    OPT_REFLINK,
    "share the source's blocks (FICLONE): auto (if the file system can), "
    "always (fail if it cannot; a bare --reflink), never (not even through "
    "copy_file_range, which may share them too)", "WHEN" },
  { "sparse", '\0', POPT_ARG_STRING, NULL, OPT_SPARSE,
    "keep holes: auto (if the source has some), always (look for them in "
    "every file), never (write them out as zeros)", "WHEN" },
  { "debug", '\0', POPT_ARG_NONE, NULL, OPT_DEBUG,
    "tell on standard error, per file, the engine, the holes and the "
    "byte count", NULL },
  { "fsync", '\0', POPT_ARG_NONE, NULL, OPT_FSYNC,
    "flush each file, and its directory, to the disk before going on",
    NULL },
  { "no-clobber", 'n', POPT_ARG_NONE, NULL, OPT_NO_CLOBBER,
    "never replace an existing file, silently (as --update=none; cancels "
    "an earlier -i)", NULL },
  { "interactive", 'i', POPT_ARG_NONE, NULL, OPT_INTERACTIVE,
    "ask before replacing an existing file; one not replaced is a "
    "failure (cancels an earlier -n)", NULL },
  { "force", 'f', POPT_ARG_NONE, NULL, OPT_FORCE,
    "replace by a new file an existing one that cannot be opened for "
    "writing (as cp removes it and tries again); -i still asks", NULL },
  { "inplace", '\0', POPT_ARG_NONE, NULL, OPT_INPLACE,
    "write over an existing regular file in place, as cp does, instead "
    "of replacing it whole (it is then half-written while the copy runs)",
    NULL },
  { "update", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL,
    OPT_UPDATE,
    "which existing files are replaced, before -i asks: all (the "
    "default), none (silently), none-fail (none, each one reported, exit "
    "status 1), older (those older than the source; --update alone)",
    "WHEN" },
  { NULL, 'u', POPT_ARG_NONE, NULL, OPT_UPDATE_OLDER,
    "same as --update=older", NULL },
  { "verbose", 'v', POPT_ARG_NONE, NULL, OPT_VERBOSE,
    "print 'SRC' -> 'DST' for each file copied", NULL },
  { "recursive", 'r', POPT_ARG_NONE, NULL, OPT_RECURSIVE,
    "copy directories and everything below them; symbolic links are "
    "copied as links", NULL },
  { NULL, 'R', POPT_ARG_NONE, NULL, OPT_RECURSIVE, "same as -r", NULL },
  { "no-dereference", 'P', POPT_ARG_NONE, NULL, OPT_NO_DEREF,
    "copy symbolic links as links, operands too (the default with -r)",
    NULL },
  { NULL, 'H', POPT_ARG_NONE, NULL, OPT_DEREF_ARGS,
    "follow the symbolic links given as operands, not those in a tree",
    NULL },
  { "dereference", 'L', POPT_ARG_NONE, NULL, OPT_DEREF,
    "follow symbolic links, operands (the default without -r) and those "
    "in a tree: a link to a directory is copied as that directory, unless "
    "it leads to one it is in (a cycle, reported)", NULL },
  { NULL, 'd', POPT_ARG_NONE, NULL, OPT_NO_DEREF_LINKS,
    "same as -P --preserve=links", NULL },
  { "archive", 'a', POPT_ARG_NONE, NULL, OPT_ARCHIVE,
    "same as -r -P --preserve=all", NULL },
  { NULL, 'p', POPT_ARG_NONE, NULL, OPT_PRESERVE_DEFAULT,
    "same as --preserve=mode,ownership,timestamps", NULL },
  { "preserve", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL,
    OPT_PRESERVE,
    "keep these attributes: mode, ownership, timestamps, links, xattr, "
    "all (default: mode,ownership,timestamps)", "LIST" },
  { "no-preserve", '\0', POPT_ARG_STRING, NULL, OPT_NO_PRESERVE,
    "do not keep these attributes: mode, ownership, timestamps, links, "
    "xattr, context (none without SELinux), all; after --preserve or "
    "--archive, which it undoes as the options come; without mode, new "
    "copies get 0666 or 0777 less the umask", "LIST" },
  { "jobs", 'j', POPT_ARG_STRING, NULL, OPT_JOBS,
    "copy the files of directories with N threads (default: one per "
    "CPU it may run on; 1: one file at a time, no thread)", "N" },
  { "target-directory", 't', POPT_ARG_STRING, NULL, OPT_TARGET_DIR,
    "copy every SRC into DIR", "DIR" },
  { "no-target-directory", 'T', POPT_ARG_NONE, NULL, OPT_NO_TARGET_DIR,
    "treat DST as the name of the copy, even if it is a directory", NULL },
  { "one-file-system", 'x', POPT_ARG_NONE, NULL, OPT_ONE_FS,
    "with -r, copy a directory on another file system than its SRC's "
    "empty, as a mount point", NULL },
  { "attributes-only", '\0', POPT_ARG_NONE, NULL, OPT_ATTRIBUTES_ONLY,
    "copy no data: a new file is made empty, an existing one keeps its "
    "data; the attributes as --preserve says", NULL },
  { "keep-directory-symlink", '\0', POPT_ARG_NONE, NULL,
    OPT_KEEP_DIR_SYMLINK,
    "with -r, copy into the directory a symbolic link at the destination "
    "names, where the source has a directory, leaving the link and the "
    "directory's attributes as they are", NULL },
  { "parents", '\0', POPT_ARG_NONE, NULL, OPT_PARENTS,
    "copy each SRC to DIR/SRC, making the directories of its path there "
    "as SRC's are", NULL },
  { "strip-trailing-slashes", '\0', POPT_ARG_NONE, NULL, OPT_STRIP_SLASHES,
    "copy each SRC into DIR by its name without the slashes at its end: "
    "a symbolic link to a directory is then copied as a link", NULL },
  { "link", 'l', POPT_ARG_NONE, NULL, OPT_LINK,
    "hard-link files instead of copying them (directories are made); "
    "symbolic links are followed unless -P, -d or -a says not to", NULL },
  { "symbolic-link", 's', POPT_ARG_NONE, NULL, OPT_SYMBOLIC_LINK,
    "make symbolic links to the sources instead of copying them: a SRC "
    "not starting with / only into the current directory", NULL },
  { "backup", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL,
    OPT_BACKUP,
    "keep each file replaced under a backup name, made as a hard link "
    "before the copy takes its place; CONTROL: none or off (never kept), "
    "numbered or t (NAME.~N~), existing or nil (numbered where NAME has "
    "numbered backups, else simple), simple or never (NAME~); a bare "
    "--backup or -b: as $VERSION_CONTROL says, else existing",
    "CONTROL" },
  { NULL, 'b', POPT_ARG_NONE, NULL, OPT_BACKUP_SHORT,
    "like --backup, taking no argument", NULL },
  { "suffix", 'S', POPT_ARG_STRING, NULL, OPT_SUFFIX,
    "end simple backup names with SUFFIX (default: $SIMPLE_BACKUP_SUFFIX, "
    "else ~); implies --backup", "SUFFIX" },
  { "copy-contents", '\0', POPT_ARG_NONE, NULL, OPT_COPY_CONTENTS,
    "with -r, read FIFOs and devices as files, copying their data into "
    "regular files (reading a FIFO waits for a writer)", NULL },
  { "remove-destination", '\0', POPT_ARG_NONE, NULL, OPT_REMOVE_DEST,
    "replace each existing destination but a directory by a new file, as "
    "cp removes it first: never written through a symbolic link or into a "
    "FIFO or device, keeping nothing of it (the name is never missing)",
    NULL },
  { "json", '\0', POPT_ARG_NONE, NULL, OPT_JSON,
    "at the end, print on standard output one JSON object: the files, "
    "bytes and directories copied, the files each engine copied, the "
    "errors (path, message, errno) and the exit status; the lines of -v "
    "and --debug go to standard error", NULL },
  CLI_PROGRESS_OPTIONS,
  POPT_TABLEEND
};

static struct poptOption options[] = {
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, tool_options, 0,
    "Copy SRC to DST, or each SRC into DIR.  File data moves by reflink, "
    "copy_file_range or splice where the file systems allow; holes are "
    "kept.  Each copy is written to an unnamed temporary file in the "
    "destination directory and linked or renamed into place only when "
    "complete: an existing DST holds its old content or the new one, "
    "never a part, and keeps its owner, mode and ACL unless -a or "
    "--preserve asks for the source's.  A DST that is a symbolic link is "
    "written through; a device, FIFO or socket is written into (both are "
    "replaced by --remove-destination).  Where a "
    "replacement could not keep what DST is (other hard links, an owner "
    "this user cannot give, a directory this user cannot write), DST is "
    "written in place, as cp does; where cp removes it first (other hard "
    "links with --preserve=links, one -f cannot open), a new file "
    "replaces it.  The progress line shows bytes, files and rate, and "
    "their total and the time left once the walks have listed the files."
    "\n\n"
    CLI_EXIT_STATUS_USUAL "\n\nOptions:", NULL },
  CLI_COMMON_OPTIONS
};


/* --- options ------------------------------------------------------- */

/* The options parsed; reachable to the end, for leak checkers, whichever
   way xcp exits.  */
static poptContext ctx;

/* -j N: from 1 to COPY_JOBS_MAX.  */
static unsigned int
parse_jobs (const char *arg)
{
  uint64_t jobs = cli_parse_number ("jobs", "number of jobs", arg,
                                    COPY_JOBS_MAX, 0);
  if (jobs == 0)
    cli_usage_error ("invalid --jobs %s: at least 1", quote_file (arg));
  return (unsigned int) jobs;
}

/* The options that set one flag of struct copy_options, and which (-f
   undoes neither -i nor -n, as in cp).  */
#define FLAG(opt, field) { opt, offsetof (struct copy_options, field) }
static const struct { int opt; size_t field; } flag_options[] = {
  FLAG (OPT_RECURSIVE, recursive),
  FLAG (OPT_FORCE, force),
  FLAG (OPT_DEBUG, debug),
  FLAG (OPT_FSYNC, fsync),
  FLAG (OPT_INPLACE, inplace),
  FLAG (OPT_REMOVE_DEST, remove_dest),
  FLAG (OPT_VERBOSE, verbose),
  FLAG (OPT_NO_TARGET_DIR, no_target_dir),
  FLAG (OPT_ATTRIBUTES_ONLY, attributes_only),
  FLAG (OPT_KEEP_DIR_SYMLINK, keep_dir_symlink),
  FLAG (OPT_COPY_CONTENTS, copy_contents),
  FLAG (OPT_PARENTS, parents),
  FLAG (OPT_ONE_FS, one_fs),
  FLAG (OPT_STRIP_SLASHES, strip_slashes),
  FLAG (OPT_JSON, json),
};
#undef FLAG

/* Apply option OPT, of argument ARG (or NULL), to X.  */
static void
apply_option (struct copy_options *x, int opt, const char *arg)
{
  for (size_t i = 0; i < sizeof flag_options / sizeof flag_options[0]; i++)
    if (flag_options[i].opt == opt)
      {
        *(bool *) ((char *) x + flag_options[i].field) = true;
        return;
      }
  switch (opt)
    {
    case OPT_ENGINE:
      x->engine = copy_parse_engine (arg);
      break;
    case OPT_REFLINK:           /* a bare --reflink is --reflink=always */
      x->reflink = arg && *arg ? copy_parse_when ("reflink", arg)
                                : COPY_WHEN_ALWAYS;
      break;
    case OPT_SPARSE:
      x->sparse = copy_parse_when ("sparse", arg);
      break;
    case OPT_PRESERVE:          /* each --preserve adds to the list */
    case OPT_PRESERVE_DEFAULT:
      copy_parse_preserve ("preserve", arg, true, x);
      break;
    case OPT_NO_PRESERVE:       /* and each --no-preserve takes away */
      copy_parse_preserve ("no-preserve", arg, false, x);
      break;
    case OPT_ARCHIVE:           /* -dR --preserve=all: -P too, as cp */
      copy_parse_preserve ("preserve", "all", true, x);
      x->preserve.xattr_quiet = true;
      x->recursive = true;
      x->deref = COPY_DEREF_NEVER;
      break;
    case OPT_NO_CLOBBER:
      x->clobber = COPY_CLOBBER_NO;
      break;
    case OPT_INTERACTIVE:
      x->clobber = COPY_CLOBBER_ASK;
      break;
    case OPT_UPDATE:            /* the last --update or -u counts */
      x->update = arg && *arg ? copy_parse_update (arg) : COPY_UPDATE_OLDER;
      break;
    case OPT_UPDATE_OLDER:
      x->update = COPY_UPDATE_OLDER;
      break;
    case OPT_NO_DEREF:          /* the last of -P, -H, -L counts */
      x->deref = COPY_DEREF_NEVER;
      break;
    case OPT_NO_DEREF_LINKS:
      x->deref = COPY_DEREF_NEVER;
      x->preserve.links = true;
      break;
    case OPT_DEREF_ARGS:
      x->deref = COPY_DEREF_ARGS;
      break;
    case OPT_DEREF:
      x->deref = COPY_DEREF_ALWAYS;
      break;
    case OPT_LINK:
      copy_set_link (x, COPY_LINK_HARD);
      break;
    case OPT_SYMBOLIC_LINK:
      copy_set_link (x, COPY_LINK_SYMBOLIC);
      break;
    case OPT_JOBS:
      x->jobs = parse_jobs (arg);
      break;
    }
}

/* -j's default: a worker per CPU this process may run on (taskset,
   cgroup cpusets), else per online CPU.  */
static unsigned int
default_jobs (void)
{
  cpu_set_t set;
  long cpus = sched_getaffinity (0, sizeof set, &set) == 0
              ? CPU_COUNT (&set) : sysconf (_SC_NPROCESSORS_ONLN);
  return cpus < 1 ? 1 : cpus > COPY_JOBS_MAX ? COPY_JOBS_MAX
                                             : (unsigned int) cpus;
}

/* Parse the options of ARGV into X; return the operands, their number in
   *N.  */
static const char **
parse_options (int argc, char **argv, struct copy_options *x, size_t *n)
{
  /* cp takes an optional argument only after '=': a bare --preserve or
     --reflink gives "".  */
  ctx = cli_context_flags (argc, argv, options,
                           "[OPTION]... SRC DST\n"
                           "  or:  xcp [OPTION]... SRC... DIR\n"
                           "  or:  xcp [OPTION]... -t DIR SRC...",
                           CLI_OPTIONAL_AFTER_EQUALS);
  int opt;
  /* -b, -S, --backup; with a CONTROL, the type it says (the last).  */
  bool backup = false, control = false;
  while ((opt = cli_next_option (ctx)) >= 0)
    {
      /* Each string is freed once applied: popt would not free one when
         storing the next of the same option.  */
      char *arg = poptGetOptArg (ctx);
      if (opt == OPT_TARGET_DIR)
        {
          free (x->target_dir);
          x->target_dir = arg;
          continue;
        }
      if (opt == OPT_BACKUP || opt == OPT_BACKUP_SHORT)
        {
          backup = true;
          if (arg && *arg)
            {
              x->backup = copy_parse_backup ("backup type", arg);
              control = true;
            }
          free (arg);
          continue;
        }
      if (opt == OPT_SUFFIX)
        {
          backup = true;
          free (x->backup_suffix);
          x->backup_suffix = arg;
          continue;
        }
      apply_option (x, opt, arg);
      free (arg);
    }
  x->progress = cli_progress;
  copy_options_settle (x, backup, control);
  if (x->jobs == 0)
    x->jobs = default_jobs ();
  const char **args = poptGetArgs (ctx);
  *n = 0;
  while (args && args[*n])
    ++*n;
  return args;
}

/* Check the number of operands N of ARGS against X's -t and -T.  */
static void
check_operands (const struct copy_options *x, const char **args, size_t n)
{
  if (n == 0)
    cli_usage_error ("missing file operand");
  if (x->target_dir && x->no_target_dir)
    cli_usage_error ("cannot combine --target-directory (-t) and "
                     "--no-target-directory (-T)");
  if (!x->target_dir && n == 1)
    cli_usage_error ("missing destination file operand after %s",
                     quote_file (args[0]));
  if (x->no_target_dir && n > 2)
    cli_usage_error ("extra operand %s", quote_file (args[2]));
}

int
main (int argc, char **argv)
{
  cli_init (argc, argv);
  struct copy_options x = { 0 };
  size_t n;
  const char **args = parse_options (argc, argv, &x, &n);
  check_operands (&x, args, n);

  copy_options_init (&x);
  copy_telling_start (&x);
  install_catch_signals ();

  const char *dir = copy_target_dir (&x, args, &n);

  copy_telling_operands (&x, args, n);

  /* N is the number of sources now.  */
  x.record_made = dir && n > 1;
  if (dir)
    copy_sources_into (&x, args, n, dir);
  else if (x.parents)
    cli_usage_error ("with --parents, the destination must be a directory");
  else
    copy_to (&x, args[0], args[1]);

  copy_telling_end (&x, cli_status);
  poptFreeContext (ctx);
  free (x.target_dir);
  free (x.backup_suffix);
  return cli_status;
}
