/* fuzz-nslist.c -- ns_flags_parse, lists of namespace kinds ("net,uts",
   "all"), and ns_flags_describe of what it parsed into a buffer of every
   size from the first input byte: the message must be cut, never
   overrun.  */

#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ns/kinds.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  size_t bufsize = data[0];
  char *list = fuzz_string (data + 1, size - 1);
  int flags = -1;
  const char *bad = NULL;
  int ret = ns_flags_parse (list, &flags, &bad);
  if (ret == 0)
    {
      fuzz_assert (flags != 0 && (flags & ~ns_flags_known ()) == 0,
                   "a list parsed into no kind or an unknown one");
      /* Exactly BUFSIZE bytes, so that AddressSanitizer sees an overrun.  */
      char *buf = malloc (bufsize ? bufsize : 1);
      if (!buf)
        abort ();
      ns_flags_describe (flags, buf, bufsize);
      fuzz_assert (bufsize == 0 || memchr (buf, '\0', bufsize),
                   "a description without its null byte");
      free (buf);
    }
  else
    fuzz_assert (ret == -EINVAL && flags == -1 && bad >= list
                 && bad <= list + strlen (list),
                 "a bad list not reported as ns/kinds.h says");
  free (list);
  return 0;
}
