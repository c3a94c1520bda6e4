/* xxd-parse-test.c -- the C test driver for lib/ranges/xxd-parse.c (an
   xxd dump read as xxd -r reads it: the chunks of each dump, or the
   error and its line) and lib/ranges/journal.c (its hash, and a journal
   written, then recovered from after a simulated crash).

   Every check prints "ok N - what" or "not ok N - what (detail)"; the
   last line is "xxd-parse-test: N passed, M failed, K skipped"; the exit
   status is 1 if any check failed.  */

#include <config.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ranges/journal.h"
#include "ranges/patch-write.h"
#include "ranges/xxd-parse.h"

#define TAP_NAME "xxd-parse-test"
#include "tap.h"

/* A dump, how it is read, and what comes out: the chunks as
   "OFFSET:HEX@LINE" words, or the error's line and the start of its
   message.  */
struct dump_case
{
  const char *text;
  bool plain;
  int cols;
  int64_t base;
  const char *chunks;
  size_t err_line;
  const char *err;
};

static const struct dump_case cases[] = {
  { "00000000: 4142 4344  ABCD\n", false, 16, 0, "0:41424344@1", 0, NULL },
  /* The column of characters: skipped after COLS bytes, or after two
     characters that are no digits.  */
  { "00000000: 4142  ABab\n", false, 2, 0, "0:4142@1", 0, NULL },
  { "00000000: 4142  abcd\n", false, 16, 0, "0:4142@1", 0, NULL },
  /* One space then hex letters: xxd -r takes them for bytes.  */
  { "00000000: 4142 ab\n", false, 16, 0, "0:4142ab@1", 0, NULL },
  /* Offsets jump, back too; a line without a digit is skipped.  */
  { "10: 41\n*\n\n2: 4243\n", false, 16, 0, "16:41@1 2:4243@4", 0, NULL },
  { "0: 41\r\n1: 42\r\n", false, 16, 0, "0:4142@1", 0, NULL },
  { "  0:41 42 43\n", false, 2, 0, "0:4142@1", 0, NULL },
  /* A line with a hex letter and no ':' sets the next line's offset:
     the '\n' ends its offset, as in xxd.  */
  { "# note\n00: 41\n", false, 16, 0, "14:00@2", 0, NULL },
  { "0: 41\n", false, 16, 5, "5:41@1", 0, NULL },
  { "8: 41\n", false, 16, -8, "0:41@1", 0, NULL },
  /* Plain dumps: digits pair across blanks and lines.  */
  { "41 4\n2\t43\n", true, 0, 0, "0:414243@1", 0, NULL },
  { "4142zz4344\n45\n", true, 0, 3, "3:414245@1", 0, NULL },
  { "", true, 0, 0, "", 0, NULL },
  { "no digits here\n", false, 16, 0, "", 0, NULL },
  /* Errors.  */
  { "0: 41 4\n", false, 16, 0, NULL, 1, "a lone hex digit" },
  { "0: 4 41\n", false, 16, 0, NULL, 1, "a lone hex digit" },
  { "0: 41\n0: 4 \n", false, 16, 0, "0:41@1", 0, NULL },
  { "0: 41\n1: 4 42\n", false, 16, 0, NULL, 2, "a lone hex digit" },
  { "0: 41\n", false, 16, -1, NULL, 1, "the offset is negative" },
  { "1000000000000000000: 41\n", false, 16, 0, NULL, 1,
    "the offset is past" },
  { "7fffffffffffffff: 41\n", false, 16, 0, NULL, 1, "the offset is past" },
  { "4142\n4\n", true, 0, 0, NULL, 2, "an odd number" },
  /* A digit beside text is text in a plain dump, as for xxd -r -p.  */
  { "41 4x\n", true, 0, 0, "0:41@1", 0, NULL },
  { "41 TESTa\r\n", true, 0, 0, "0:41@1", 0, NULL },
};

/* The chunks of DUMP as "OFFSET:HEX@LINE" words, in BUF.  */
static void
describe (const struct nc_xxd_dump *dump, char *buf, size_t size)
{
  size_t at = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < dump->n && at < size; i++)
    {
      const struct nc_xxd_chunk *c = &dump->chunks[i];
      at += snprintf (buf + at, size - at, "%s%llu:", i ? " " : "",
                      (unsigned long long) c->offset);
      for (size_t k = 0; k < c->len && at < size; k++)
        at += snprintf (buf + at, size - at, "%02x", c->bytes[k]);
      if (at < size)
        at += snprintf (buf + at, size - at, "@%zu", c->line);
    }
}

/* TEXT on one line, its '\n', '\r' and '\t' escaped, in BUF.  */
static const char *
escape (const char *text, char *buf, size_t size)
{
  size_t at = 0;
  for (; *text && at + 3 < size; text++)
    {
      const char *e = (*text == '\n' ? "\\n" : *text == '\r' ? "\\r"
                       : *text == '\t' ? "\\t" : NULL);
      if (e)
        {
          memcpy (buf + at, e, 2);
          at += 2;
        }
      else
        buf[at++] = *text;
    }
  buf[at] = '\0';
  return buf;
}

static void
check_case (const struct dump_case *t)
{
  char name[256];
  escape (t->text, name, sizeof name);
  struct nc_xxd_dump dump = { .plain = t->plain, .cols = t->cols,
                              .base = t->base };
  size_t line = 0;
  const char *err = nc_xxd_parse ((const unsigned char *) t->text,
                                  strlen (t->text), &dump, &line);
  char got[512];
  if (t->err)
    {
      tap_check_int (line, t->err_line, "%s: the error's line", name);
      tap_ok (err && strncmp (err, t->err, strlen (t->err)) == 0,
              "%s: %s", name, t->err);
    }
  else
    {
      describe (&dump, got, sizeof got);
      tap_check_str (err ? err : got, t->chunks, "%s%s (base %lld)",
                     t->plain ? "-p: " : "", name, (long long) t->base);
    }
  nc_xxd_free (&dump);
}

static void
check_overlap (void)
{
  static const char text[] = "0: 4142\n5: 41\n1: 43\n";
  struct nc_xxd_dump dump = { .cols = 16 };
  size_t line;
  const struct nc_xxd_chunk *a, *b;
  nc_xxd_parse ((const unsigned char *) text, strlen (text), &dump, &line);
  tap_ok (nc_xxd_overlap (&dump, &a, &b) && a->line == 1 && b->line == 3,
          "lines 1 and 3 write the byte at 1");
  nc_xxd_free (&dump);
  static const char apart[] = "2: 41\n0: 4142\n";
  nc_xxd_parse ((const unsigned char *) apart, strlen (apart), &dump, &line);
  tap_ok (!nc_xxd_overlap (&dump, &a, &b), "touching lines do not overlap");
  nc_xxd_free (&dump);
}

static void
check_hash (void)
{
  tap_ok (nc_journal_hash (NC_JOURNAL_HASH_INIT, "", 0)
          == UINT64_C (0xcbf29ce484222325), "FNV-1a 64 of \"\"");
  tap_ok (nc_journal_hash (NC_JOURNAL_HASH_INIT, "a", 1)
          == UINT64_C (0xaf63dc4c8601ec8c), "FNV-1a 64 of \"a\"");
  tap_ok (nc_journal_hash (NC_JOURNAL_HASH_INIT, "foobar", 6)
          == UINT64_C (0x85944171f73967e8), "FNV-1a 64 of \"foobar\"");
}

/* A journal of two patches of FILE, the crash after the writes (no
   nc_journal_end), then the recovery: FILE as it was, the journal
   gone.  */
static void
check_journal (const char *dir)
{
  char file[4096];
  snprintf (file, sizeof file, "%s/f", dir);
  int dirfd = xopenat (AT_FDCWD, dir, O_RDONLY | O_DIRECTORY);
  write_text (dirfd, "f", "abcdefgh");
  int fd = xopenat (dirfd, "f", O_RDWR);
  struct stat st;
  fstat (fd, &st);
  struct nc_patch p[2] = {
    { .arg = "1=5859", .offset = 1, .bytes = (unsigned char *) "XY",
      .len = 2 },
    { .arg = "7=5a5a", .offset = 7, .bytes = (unsigned char *) "ZZ",
      .len = 2 },
  };
  struct nc_patch *sorted[2] = { &p[0], &p[1] };
  unsigned char *before[2] = { (unsigned char *) "bc",
                               (unsigned char *) "h" };
  uint64_t got[2] = { 2, 1 };
  struct nc_patch_plan plan = { .file = file, .fd = fd, .patches = p,
                                .n = 2, .sorted = sorted, .ns = 2,
                                .before = before, .got = got };
  struct nc_journal j;
  nc_journal_init (&j, file);
  nc_journal_begin (&j, &plan, &st, 8);
  xwrite (fd, "aXYdefgZZ", 9);
  nc_journal_free (&j);
  fstat (fd, &st);
  nc_journal_init (&j, file);
  tap_ok (nc_journal_recover (&j, fd, &st, false), "a journal recovered");
  nc_journal_free (&j);
  char text[64];
  read_text (dirfd, "f", text, sizeof text);
  tap_check_str (text, "abcdefgh", "the old bytes back, the file cut back");
  char jpath[4096];
  snprintf (jpath, sizeof jpath, "%s/.f.pwritev-journal", dir);
  tap_ok (access (jpath, F_OK) != 0, "the journal removed");
  nc_journal_init (&j, file);
  tap_ok (!nc_journal_recover (&j, fd, &st, false), "no journal: nothing");
  nc_journal_free (&j);
  close (fd);
  close (dirfd);
}

int
main (void)
{
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    check_case (&cases[i]);
  check_overlap ();
  check_hash ();
  check_journal (tap_scratch ("/tmp"));
  return tap_done ();
}
