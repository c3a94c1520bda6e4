/* fuzz-hexdump.c -- ranges/hexdump-xxd.h, the line formats of xxd: any
   layout the options can ask for (the first 8 bytes of the input choose
   it), any bytes, given in pieces as preadv-dump gives them.  The lines
   are built in place, in room reserved by hand: a sanitizer finds what
   runs past it.  The output goes to /dev/null.  */

#include <config.h>

#include <fcntl.h>
#include <unistd.h>

#include "fuzz.h"
#include "ranges/dumpout.h"
#include "ranges/hexdump-xxd.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static bool quiet;
  if (!quiet)
    {
      int null = open ("/dev/null", O_WRONLY);
      if (null >= 0)
        dup2 (null, STDOUT_FILENO);
      quiet = true;
    }
  if (size < 8)
    return 0;
  struct xxd_layout lay = {
    .style = data[0] % 3, .cols = data[1] % 256 + 1,
    .little = data[3] & 1, .upper = data[3] & 2, .autoskip = data[3] & 4,
    .decimal = data[3] & 8, .color = data[3] & 16,
    .display = (uint64_t) data[4] << 56 | data[5]
  };
  lay.group = data[2] % lay.cols + 1;
  if (lay.style == XXD_PLAIN && data[3] & 32)
    lay.cols = 0;
  size_t piece = lay.cols ? (size_t) lay.cols * (data[6] % 4 + 1) : 7;
  data += 8;
  size -= 8;
  out_open ();
  xxd_start (&lay);
  xxd_begin ((uint64_t) data[-1] << 40);
  while (size > 0)
    {
      size_t n = size < piece ? size : piece;
      xxd_data (data, n);
      data += n;
      size -= n;
    }
  xxd_end ();
  out_close ();
  return 0;
}
