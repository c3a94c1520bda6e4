/* ranges/journal.c -- pwritev-patch's undo journal
   (ranges/journal.h).  */

#include <config.h>

#include "ranges/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "cli/common.h"
#include "dirname.h"
#include "error.h"
#include "ranges/read-all.h"
#include "sys/calls.h"
#include "xalloc.h"

/* The journal's first bytes; the version is in the last digits.  */
static const char magic[8] = "NCPWJ001";

/* The header, after the magic, and each record's head: native 64-bit
   numbers (a journal is read back by the machine that wrote it).  */
enum { H_DEV, H_INO, H_OLD_SIZE, H_CUT, H_NREC, H_WORDS };
enum { HEADER_SIZE = sizeof magic + H_WORDS * 8, RECORD_HEAD = 16,
       SUM_SIZE = 8 };

uint64_t
nc_journal_hash (uint64_t h, const void *p, size_t len)
{
  const unsigned char *b = p;
  for (size_t i = 0; i < len; i++)
    h = (h ^ b[i]) * UINT64_C (0x100000001b3);
  return h;
}

/* The journal's name, for messages (slot 1: beside FILE's).  */
#define quote_journal(j) quote_file_n (1, (j)->path)

/* The strings A, B and C one after the other, in a new string.  */
static char *
concat3 (const char *a, const char *b, const char *c)
{
  char *s = xmalloc (strlen (a) + strlen (b) + strlen (c) + 1);
  stpcpy (stpcpy (stpcpy (s, a), b), c);
  return s;
}

void
nc_journal_init (struct nc_journal *j, const char *file)
{
  char *dir = dir_name (file);
  j->file = file;
  j->name = concat3 (".", last_component (file), ".pwritev-journal");
  j->dirfd = sys_openat (AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC,
                         0);
  /* A directory one may search but not read still holds its files'
     journals, which O_PATH finds; only writing one (its fsync) then
     fails.  */
  if (j->dirfd == -EACCES)
    j->dirfd = sys_openat (AT_FDCWD, dir,
                           O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
  if (j->dirfd < 0)
    error (EXIT_FAILURE, -j->dirfd, "cannot open the directory of %s",
           quote_file (file));
  /* "f" has its journal at ".f.pwritev-journal", not "./.f...".  */
  j->path = (last_component (file) == file ? xstrdup (j->name)
             : concat3 (dir, "/", j->name));
  free (dir);
}

void
nc_journal_free (struct nc_journal *j)
{
  if (j->dirfd >= 0)
    sys_close (j->dirfd);
  free (j->name);
  free (j->path);
  j->dirfd = -1;
  j->name = j->path = NULL;
}

/* Write the LEN bytes at P to FD at POS (-1: where FD stands), short
   writes and EINTR retried: 0 or -errno.  */
static int
write_all (int fd, const void *p, size_t len, int64_t pos)
{
  const unsigned char *b = p;
  while (len > 0)
    {
      struct iovec iov = { .iov_base = (void *) b, .iov_len = len };
      ssize_t ret = (pos < 0 ? sys_write (fd, b, len)
                     : sys_pwritev (fd, &iov, 1, pos));
      if (ret == -EINTR)
        continue;
      if (ret <= 0)
        return ret < 0 ? ret : -ENOSPC;
      b += ret;
      len -= ret;
      if (pos >= 0)
        pos += ret;
    }
  return 0;
}

/* fsync FD, EINTR retried.  */
static int
sync_fd (int fd)
{
  int ret;
  do
    ret = sys_fsync (fd);
  while (ret == -EINTR);
  return ret;
}

static void
put_word (unsigned char **at, uint64_t v)
{
  memcpy (*at, &v, 8);
  *at += 8;
}

static uint64_t
get_word (const unsigned char *at)
{
  uint64_t v;
  memcpy (&v, at, 8);
  return v;
}

/* The journal of PLAN, in a new buffer of *LEN bytes.  */
static unsigned char *
build (const struct nc_patch_plan *plan, const struct stat *st,
       uint64_t old_size, size_t *len)
{
  size_t n = HEADER_SIZE + SUM_SIZE;
  uint64_t nrec = 0, end = 0;
  for (size_t i = 0; i < plan->ns; i++)
    {
      n += RECORD_HEAD + plan->got[i];
      nrec++;
      end = plan->sorted[i]->offset + plan->sorted[i]->len;
    }
  unsigned char *buf = xmalloc (n), *at = buf + sizeof magic;
  memcpy (buf, magic, sizeof magic);
  put_word (&at, st->st_dev);
  put_word (&at, st->st_ino);
  put_word (&at, old_size);
  put_word (&at, end > old_size);
  put_word (&at, nrec);
  for (size_t i = 0; i < plan->ns; i++)
    {
      put_word (&at, plan->sorted[i]->offset);
      put_word (&at, plan->got[i]);
      memcpy (at, plan->before[i], plan->got[i]);
      at += plan->got[i];
    }
  put_word (&at, nc_journal_hash (NC_JOURNAL_HASH_INIT, buf, n - SUM_SIZE));
  *len = n;
  return buf;
}

void
nc_journal_begin (struct nc_journal *j, const struct nc_patch_plan *plan,
                  const struct stat *st, uint64_t old_size)
{
  int fd = sys_openat (j->dirfd, j->name,
                       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                       0600);
  /* Made since the recovery looked, by a run that no lock kept off (no
     record locks here, or FILE's name since given to another file, whose
     lock is its own): a journal a crash may leave, never overwritten.  */
  if (fd == -EEXIST)
    error (EXIT_FAILURE, 0, "%s: the journal %s was made meanwhile by "
           "another run, which no lock kept off; nothing written",
           quote_file (j->file), quote_journal (j));
  if (fd < 0)
    error (EXIT_FAILURE, -fd, "%s: cannot create the journal %s; nothing "
           "written", quote_file (j->file), quote_journal (j));
  size_t len;
  unsigned char *buf = build (plan, st, old_size, &len);
  int err = write_all (fd, buf, len, -1);
  free (buf);
  if (err == 0)
    err = sync_fd (fd);
  int cerr = sys_close (fd);
  if (err == 0)
    err = cerr;
  if (err == 0)
    err = sync_fd (j->dirfd);
  if (err < 0)
    {
      sys_unlinkat (j->dirfd, j->name, 0);
      error (EXIT_FAILURE, -err, "%s: error writing the journal %s; nothing "
             "written", quote_file (j->file), quote_journal (j));
    }
}

/* Remove J's journal, and sync its directory: 0 or -errno.  */
static int
remove_journal (struct nc_journal *j)
{
  int err = sys_unlinkat (j->dirfd, j->name, 0);
  return err < 0 ? err : sync_fd (j->dirfd);
}

void
nc_journal_end (struct nc_journal *j, const struct nc_patch_plan *plan)
{
#define KEPT "the journal %s is kept: pwritev-patch --recover %s puts " \
    "the old bytes back"
  if (plan->left_written)
    {
      error (0, 0, KEPT, quote_journal (j), quote_file (j->file));
      return;
    }
  int err = sync_fd (plan->fd);
  if (err < 0)
    {
      cli_status = EXIT_FAILURE;
      error (0, -err, "error syncing %s", quote_file (j->file));
      error (0, 0, KEPT, quote_journal (j), quote_file (j->file));
      return;
    }
  err = remove_journal (j);
  if (err < 0)
    {
      cli_status = EXIT_FAILURE;
      error (0, -err, "%s: cannot remove the journal %s",
             quote_file (j->file), quote_journal (j));
    }
#undef KEPT
}

/* Whether the LEN bytes at BUF are a whole journal: its magic, records
   within it that end where its checksum begins, the checksum right.  */
static bool
journal_valid (const unsigned char *buf, size_t len)
{
  if (len < HEADER_SIZE + SUM_SIZE || memcmp (buf, magic, sizeof magic) != 0)
    return false;
  size_t body = len - SUM_SIZE;
  uint64_t nrec = get_word (buf + sizeof magic + H_NREC * 8);
  size_t at = HEADER_SIZE;
  for (uint64_t r = 0; r < nrec; r++)
    {
      if (body - at < RECORD_HEAD)
        return false;
      uint64_t rlen = get_word (buf + at + 8);
      if (rlen > body - at - RECORD_HEAD)
        return false;
      at += RECORD_HEAD + rlen;
    }
  return (at == body
          && get_word (buf + body) == nc_journal_hash (NC_JOURNAL_HASH_INIT,
                                                       buf, body));
}

/* Put the old bytes of the valid journal BUF back into the file open on
   FD, of status ST: 0 or -errno.  Store the number of records in
   *NREC.  */
static int
put_back (const unsigned char *buf, int fd, const struct stat *st,
          uint64_t *nrec)
{
  uint64_t old_size = get_word (buf + sizeof magic + H_OLD_SIZE * 8);
  int err = 0;
  if (get_word (buf + sizeof magic + H_CUT * 8)
      && (uint64_t) st->st_size > old_size)
    do
      err = sys_ftruncate (fd, old_size);
    while (err == -EINTR);
  *nrec = get_word (buf + sizeof magic + H_NREC * 8);
  size_t at = HEADER_SIZE;
  for (uint64_t r = 0; r < *nrec && err == 0; r++)
    {
      uint64_t off = get_word (buf + at), rlen = get_word (buf + at + 8);
      err = write_all (fd, buf + at + RECORD_HEAD, rlen, off);
      at += RECORD_HEAD + rlen;
    }
  return err < 0 ? err : sync_fd (fd);
}

/* Recover FILE, open on FD with status ST, from the LEN bytes of its
   journal at BUF.  */
static bool
recover_from (struct nc_journal *j, const unsigned char *buf, size_t len,
              int fd, const struct stat *st)
{
  const char *file = quote_file (j->file);
  if (!journal_valid (buf, len))
    {
      int err = remove_journal (j);
      if (err < 0)
        error (EXIT_FAILURE, -err, "%s: cannot remove the torn journal %s",
               file, quote_journal (j));
      error (0, 0, "%s: removed the torn journal %s: the patch it was "
             "written for never started", file, quote_journal (j));
      return false;
    }
  if (get_word (buf + sizeof magic + H_DEV * 8) != (uint64_t) st->st_dev
      || get_word (buf + sizeof magic + H_INO * 8) != (uint64_t) st->st_ino)
    error (EXIT_FAILURE, 0, "%s: the journal %s was written for another "
           "file (device and inode differ): remove it if that file is "
           "gone; nothing written", file, quote_journal (j));
  uint64_t nrec;
  int err = put_back (buf, fd, st, &nrec);
  if (err == 0)
    err = remove_journal (j);
  if (err < 0)
    error (EXIT_FAILURE, -err, "%s: cannot put back the old bytes of the "
           "journal %s; nothing written", file, quote_journal (j));
  error (0, 0, "%s: an interrupted patch was undone: the old bytes of "
         "%llu %s put back from the journal %s", file,
         (unsigned long long) nrec, nrec == 1 ? "range" : "ranges",
         quote_journal (j));
  return true;
}

bool
nc_journal_recover (struct nc_journal *j, int fd, const struct stat *st,
                    bool dry_run)
{
  int jfd = sys_openat (j->dirfd, j->name,
                        O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
  if (jfd == -ENOENT)
    return false;
  if (jfd < 0)
    error (EXIT_FAILURE, -jfd, "cannot open the journal %s",
           quote_journal (j));
  if (dry_run)
    {
      sys_close (jfd);
      error (0, 0, "%s: the journal %s of an interrupted patch is there: "
             "the next run without --dry-run puts its old bytes back first",
             quote_file (j->file), quote_journal (j));
      return false;
    }
  size_t len;
  unsigned char *buf;
  int err = nc_read_all (jfd, &buf, &len);
  sys_close (jfd);
  if (err < 0)
    error (EXIT_FAILURE, -err, "error reading the journal %s",
           quote_journal (j));
  bool changed = recover_from (j, buf, len, fd, st);
  free (buf);
  return changed;
}
