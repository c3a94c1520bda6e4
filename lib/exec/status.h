/* exec/status.h -- the exit status of a tool that could not run its COMMAND.

   unshare-run and ppoll-wait end by becoming a command, as timeout(1),
   env(1) and nice(1) do; when execvp(3) fails they report it with the
   statuses of those tools and of the shell: 127 for a command not found,
   126 for one found that cannot run.  */

#ifndef NC_EXEC_STATUS_H
#define NC_EXEC_STATUS_H

/* A command found that cannot run, and one not found.  */
#define EXIT_CANNOT_RUN 126
#define EXIT_NOT_FOUND 127

/* The status to exit with when execvp (FILE, ...) failed with *ERR, an
   errno value.  execvp reports EACCES for a directory of $PATH that
   cannot be searched as well as for a FILE that cannot be executed;
   unless some FILE was found, *ERR becomes ENOENT, as the shell, which
   says "not found" then, would have it.  */
int exec_failure_status (const char *file, int *err);

#endif
