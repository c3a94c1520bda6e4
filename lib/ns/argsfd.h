/* ns/argsfd.h -- the words of --args FD: more options for unshare-run,
   as bubblewrap takes them (Flatpak passes its options so, past the
   limits of a command line and out of sight of ps(1)): the bytes read
   from a descriptor to its end, a word ending at each NUL, the last
   one at the end of the data if no NUL ends it.  Empty data are no
   words.  Returns -errno and leaves the words of failures to its
   caller.  */

#ifndef NC_NS_ARGSFD_H
#define NC_NS_ARGSFD_H

#include <stddef.h>

/* The most bytes one --args may give (16 MiB): ample for the options
   of a command line, whose arguments and environment Linux holds to a
   quarter of the stack's limit, 2 MiB by default.  */
#define NS_ARGS_MAX_BYTES ((size_t) 16 << 20)

/* The words read: WORDS[I] points into DATA.  */
struct ns_args_words
{
  char *data;
  char **words;
  size_t n;
};

/* Read FD to its end (sys/readwait.h: interrupted reads retried, a
   descriptor left O_NONBLOCK waited for), then split what it gave into
   *W (free its DATA and WORDS).  0; -EFBIG for more than
   NS_ARGS_MAX_BYTES bytes, -E2BIG for more than MAX_WORDS words, or the
   -errno of the read; *W is then left as it was.  */
int ns_args_read (int fd, size_t max_words, struct ns_args_words *w);

#endif
