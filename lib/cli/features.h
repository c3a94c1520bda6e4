/* cli/features.h -- the kernel's calls each tool makes: --features, and
   the words for a call that is missing or refused.

   The calls, their Linux versions and their probes are sys/kernel.h's;
   here is which tool makes which, and what it does without each.  */

#ifndef NC_CLI_FEATURES_H
#define NC_CLI_FEATURES_H

/* Print on standard output the calls the tool named PROGRAM makes, one a
   line: the call, the Linux version that brought it, and "works",
   "missing: needs Linux X.Y" or "refused (seccomp?)" here; then, on a
   line of its own, what the tool does without it.  */
void cli_print_features (const char *program);

/* The message for ERR, a -errno that call CALL answered, when it says the
   call is missing ("CALL is not in this kernel (Linux X.Y or later)") or
   refused by a filter ("CALL: refused (seccomp?)"); NULL when ERR is the
   call's own answer, to be reported as usual.  The message stays valid
   until the next call.  */
const char *cli_call_trouble (const char *call, int err);

/* What went wrong with call CALL that answered ERR (a -errno), for a
   message: cli_call_trouble's words, else strerror's.  */
const char *cli_call_strerror (const char *call, int err);

#endif
