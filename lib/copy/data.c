/* copy/data.c -- one file's data, as a copy of files wants it; see
   copy/data.h.  */

#include <config.h>

#include "copy/data.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "stat-size.h"
#include "sys/calls.h"

/* Add the counts of one extent's copy, PART, to the whole file's, RES.  */
static void
add_result (struct copy_result *res, const struct copy_result *part)
{
  res->bytes += part->bytes;
  res->calls += part->calls;
  res->declined |= part->declined;
  res->via_pipe |= part->via_pipe;
  res->side = part->side;
  /* The engine that moved data; an extent of nothing names none.  */
  if (part->bytes || res->engine == COPY_ENGINE_NONE)
    res->engine = part->engine;
}

/* Set the offsets of IN_FD and OUT_FD to POS.  */
static int
seek_both (int in_fd, int out_fd, off_t pos, struct copy_result *res)
{
  off_t r = sys_lseek (in_fd, pos, SEEK_SET);
  if (r < 0)
    {
      res->side = COPY_SIDE_READ;
      return (int) r;
    }
  r = sys_lseek (out_fd, pos, SEEK_SET);
  if (r < 0)
    {
      res->side = COPY_SIDE_WRITE;
      return (int) r;
    }
  return 0;
}

/* The block size below which zeros are written, not skipped: that of
   most file systems.  */
#define COPY_HOLE_BLOCK 4096

static bool
all_zero (const char *p, size_t n)
{
  return n == 0 || (p[0] == 0 && memcmp (p, p + 1, n - 1) == 0);
}

/* Copy LENGTH bytes (COPY_TO_EOF: to the end) at POS of IN_FD to the same
   position of OUT_FD by read/write, skipping the blocks of zeros: what
   copy_extents does with COPY_ZEROS_AS_HOLES.  Set *END to the position
   reached.  */
static int
copy_skipping_zeros (int in_fd, int out_fd, off_t pos, uint64_t length,
                     struct copy_result *res, off_t *end)
{
  char *buf = malloc (COPY_RW_BUFSIZE);
  int ret = 0;
  *res = (struct copy_result) { .engine = COPY_ENGINE_RW };
  if (!buf)
    {
      res->side = COPY_SIDE_READ;
      return -ENOMEM;
    }
  while (length > 0)
    {
      size_t want = length < COPY_RW_BUFSIZE ? length : COPY_RW_BUFSIZE;
      off_t at = pos;
      ssize_t n = copy_read_some (in_fd, &at, buf, want);
      res->calls++;
      if (n < 0)
        {
          res->side = COPY_SIDE_READ;
          ret = (int) n;
          break;
        }
      if (n == 0)
        break;
      /* Write each run of blocks that are not all zeros at its offset.  */
      for (size_t i = 0; i < (size_t) n; )
        {
          size_t blk = (size_t) n - i < COPY_HOLE_BLOCK ? (size_t) n - i
                                                        : COPY_HOLE_BLOCK;
          if (all_zero (buf + i, blk))
            {
              i += blk;
              continue;
            }
          size_t j = i + blk;
          while (j < (size_t) n)
            {
              size_t b = (size_t) n - j < COPY_HOLE_BLOCK ? (size_t) n - j
                                                          : COPY_HOLE_BLOCK;
              if (all_zero (buf + j, b))
                break;
              j += b;
            }
          off_t wpos = pos + (off_t) i;
          size_t written;
          ret = copy_write_all (out_fd, &wpos, buf + i, j - i, &written);
          res->calls++;
          res->bytes += written;
          if (ret < 0)
            {
              res->side = COPY_SIDE_WRITE;
              goto out;
            }
          i = j;
        }
      pos += n;
      if (length != COPY_TO_EOF)
        length -= n;
    }
out:
  *end = pos;
  free (buf);
  return ret;
}

/* The first data extent of FD at or after POS: *DATA its start, *LENGTH
   its length, COPY_TO_EOF where it runs to the end.  Return 1, 0 when
   only a hole is left, or -errno with RES->side set.  */
static int
next_extent (int fd, off_t pos, off_t *data, uint64_t *length,
             struct copy_result *res)
{
  *data = sys_lseek (fd, pos, SEEK_DATA);
  if (*data == -ENXIO)
    return 0;                   /* a hole up to the end */
  if (*data == -EINVAL && pos == 0)
    {
      /* No SEEK_DATA here: one extent, all data.  */
      *data = 0;
      *length = COPY_TO_EOF;
      return 1;
    }
  if (*data < 0)
    {
      res->side = COPY_SIDE_READ;
      return (int) *data;
    }
  off_t hole = sys_lseek (fd, *data, SEEK_HOLE);
  if (hole < 0)
    {
      res->side = COPY_SIDE_READ;
      return (int) hole;
    }
  /* The file may have grown since its size was taken: its end is a hole
     then too.  */
  *length = hole > *data ? (uint64_t) (hole - *data) : COPY_TO_EOF;
  return 1;
}

/* Copy the extent of LENGTH bytes (COPY_TO_EOF: to the end) at DATA of
   REQ's input to the same place of its output, as REQ's flags say; add
   the counts to RES and set *END to the position reached.  */
static int
copy_extent (const struct copy_request *req, off_t data, uint64_t length,
             struct copy_result *res, off_t *end)
{
  struct copy_result part;
  int ret;
  if (req->flags & COPY_ZEROS_AS_HOLES)
    {
      ret = copy_skipping_zeros (req->in_fd, req->out_fd, data, length,
                                 &part, end);
      add_result (res, &part);
      return ret;
    }
  /* SEEK_HOLE moved the input's offset too.  */
  if ((ret = seek_both (req->in_fd, req->out_fd, data, res)) < 0)
    return ret;
  struct copy_request part_req = *req;
  part_req.in_off = part_req.out_off = NULL;
  part_req.length = length;
  ret = copy_range (&part_req, &part);
  add_result (res, &part);
  *end = data + (off_t) part.bytes;
  return ret;
}

int
copy_extents (const struct copy_request *req, off_t size,
              struct copy_result *res, bool *holes)
{
  off_t pos = 0, copied_to = 0;
  int ret;

  *res = (struct copy_result) { .engine = COPY_ENGINE_NONE };
  *holes = false;
  while (pos < size)
    {
      off_t data, end;
      uint64_t length;
      ret = next_extent (req->in_fd, pos, &data, &length, res);
      if (ret == 0)
        break;
      if (ret < 0)
        return ret;
      ret = copy_extent (req, data, length, res, &end);
      if (ret < 0)
        return ret;
      copied_to = end;
      if (length == COPY_TO_EOF || end == data)
        break;
      pos = end;
    }
  off_t final = copied_to > size ? copied_to : size;
  *holes = res->bytes < (uint64_t) final;
  /* The end of the file is a hole, or zeros left out: only the size
     makes it.  */
  if (*holes)
    {
      ret = sys_ftruncate (req->out_fd, final);
      if (ret < 0)
        {
          res->side = COPY_SIDE_WRITE;
          return ret;
        }
    }
  return 0;
}

const char *
copy_engine_keyword (enum copy_engine engine)
{
  /* The one engine whose name is no word for a command line.  */
  return engine == COPY_ENGINE_RW ? "rw" : copy_engine_name (engine);
}

/* Whether ERR from FICLONE means "these file systems cannot", not "this
   copy failed".  */
static bool
clone_unsupported (int err)
{
  return err == -EOPNOTSUPP || err == -EXDEV || err == -EINVAL
         || err == -ENOTTY || err == -ENOSYS || err == -EPERM
         || err == -EBADF;
}

/* Whether the sizes of the files of FD's file system say nothing of
   their data: those of sysfs are a page, whatever they hold (and no
   block), those of /proc 0.  */
static bool
nominal_sizes (int fd)
{
  struct statfs sf;
  if (fstatfs (fd, &sf) != 0)
    return false;
  switch ((unsigned long) sf.f_type)
    {
    case PROC_SUPER_MAGIC:
    case SYSFS_MAGIC:
    case DEBUGFS_MAGIC:
    case TRACEFS_MAGIC:
    case SECURITYFS_MAGIC:
    case CGROUP_SUPER_MAGIC:
    case CGROUP2_SUPER_MAGIC:
    case 0x62656570:            /* configfs */
      return true;
    default:
      return false;
    }
}

/* What copy_file_data works out of its request before moving a byte.  */
struct file_copy
{
  const struct copy_data_request *req;
  struct copy_data_result *res;
  struct copy_fs_cache *cache;  /* the request's, or a scratch one */
  bool regular;                 /* the source is a regular file */
  bool both;                    /* ... and so is the copy */
  bool has_holes;               /* fewer blocks than the size needs */
  bool size_unknown;            /* the size is no end: read to the end */
  unsigned int engines;         /* those copy_range may use */
};

/* Fill F from its request.  */
static void
file_copy_start (struct file_copy *f)
{
  const struct copy_data_request *req = f->req;
  const struct stat *st = req->in_st;
  struct copy_fs_cache *c = f->cache;
  if (!c->valid || c->src != st->st_dev || c->dst != req->out_dev)
    *c = (struct copy_fs_cache) { .valid = true, .src = st->st_dev,
                                  .dst = req->out_dev };
  f->regular = S_ISREG (st->st_mode);
  /* What needs a regular file on both sides: FICLONE, copy_file_range,
     holes, and the refusals remembered for the pair of file systems.  */
  f->both = f->regular && req->out_regular;
  f->has_holes = f->regular
                 && (uintmax_t) ST_NBLOCKS (*st) * ST_NBLOCKSIZE
                    < (uintmax_t) st->st_size;
  /* A size of 0 may mean "unknown" (/proc): such a file is read to its
     end, whatever engine was asked for, rather than copied as empty.  So
     is one of sysfs, whose size is a page without a block, rather than
     taken for a hole after its data and padded with zeros.  */
  f->size_unknown = f->regular
                    && (st->st_size == 0
                        || (f->has_holes && nominal_sizes (req->range.in_fd)));
  if (f->size_unknown)
    f->has_holes = false;
}

/* FICLONE, where the request allows it: 1 if it made the copy, 0 to go
   on with the other engines, -errno if the copy failed.  */
static int
file_copy_clone (struct file_copy *f)
{
  const struct copy_data_request *req = f->req;
  bool must = req->engine == COPY_ENGINE_CLONE
              || req->reflink == COPY_WHEN_ALWAYS;
  if (!f->both
      || !(req->engine == COPY_ENGINE_CLONE
           || (req->engine == COPY_ENGINE_NONE
               && req->reflink != COPY_WHEN_NEVER
               && (!f->cache->no_clone || must))))
    return 0;
  int ret = copy_clone (req->range.in_fd, req->range.out_fd);
  if (ret == 0)
    {
      f->res->moved.engine = COPY_ENGINE_CLONE;
      f->res->moved.bytes = req->in_st->st_size;
      f->res->holes = f->has_holes;
      return 1;
    }
  if (!clone_unsupported (ret) || (must && !f->size_unknown))
    {
      f->res->failure = COPY_FAILED_CLONE;
      return ret;
    }
  f->cache->no_clone = true;
  return 0;
}

/* The engines copy_range may use for F.  */
static unsigned int
file_copy_engines (const struct file_copy *f)
{
  const struct copy_data_request *req = f->req;
  /* sendfile adds nothing to splice between two files: only when
     asked for.  */
  unsigned int engines
    = req->engine != COPY_ENGINE_NONE
      ? COPY_ENGINE_BIT (req->engine)
      : (COPY_ENGINES_ALL & ~COPY_ENGINE_BIT (COPY_ENGINE_SENDFILE)
         & ~f->cache->declined);
  /* copy_file_range may share the blocks as FICLONE does (btrfs, XFS,
     NFS): never is never.  */
  if (req->engine == COPY_ENGINE_NONE && req->reflink == COPY_WHEN_NEVER)
    engines &= ~COPY_ENGINE_BIT (COPY_ENGINE_COPY_FILE_RANGE);
  return engines ? engines : COPY_ENGINE_BIT (COPY_ENGINE_RW);
}

/* The first engine of F's allowed, less SKIP, that applies to its pair of
   files; COPY_ENGINE_NONE if none.  */
static enum copy_engine
file_copy_first (const struct file_copy *f, unsigned int skip)
{
  for (enum copy_engine e = COPY_ENGINE_COPY_FILE_RANGE;
       e <= COPY_ENGINE_RW; e++)
    if (f->engines & COPY_ENGINE_BIT (e) & ~skip
        && (f->both || e != COPY_ENGINE_COPY_FILE_RANGE))
      return e;
  return COPY_ENGINE_NONE;
}

static void
report_progress (const struct copy_data_request *req, uint64_t bytes)
{
  if (req->progress)
    req->progress (req->progress_arg, bytes);
}

/* Copy the regular file of F in pieces of the request's size, each
   reported, for a progress line to move.  */
static int
file_copy_pieces (struct file_copy *f, struct copy_request *creq)
{
  const struct copy_data_request *req = f->req;
  struct copy_result *res = &f->res->moved;
  uint64_t left = req->in_st->st_size;
  int ret = 0;
  while (left > 0 && ret == 0)
    {
      struct copy_result part;
      creq->length = left < req->piece ? left : req->piece;
      ret = copy_range (creq, &part);
      add_result (res, &part);
      report_progress (req, part.bytes);
      if (part.bytes < creq->length)
        break;
      left -= part.bytes;
    }
  return ret;
}

/* Copy F's data with the engines of copy_range: its extents, in pieces,
   or in one call.  */
static int
file_copy_range (struct file_copy *f)
{
  const struct copy_data_request *req = f->req;
  struct copy_result *res = &f->res->moved;
  struct copy_request creq = req->range;
  creq.engines = f->engines;
  creq.flags = f->both ? COPY_REGULAR_FILES : 0;
  int ret;
  if (f->both && req->sparse != COPY_WHEN_NEVER && !f->size_unknown
      && (f->has_holes || req->sparse == COPY_WHEN_ALWAYS))
    {
      /* --sparse=always: zeros in the data become holes too, as the
         data is read.  */
      if (req->sparse == COPY_WHEN_ALWAYS
          && (req->engine == COPY_ENGINE_NONE
              || req->engine == COPY_ENGINE_RW))
        creq.flags |= COPY_ZEROS_AS_HOLES;
      ret = copy_extents (&creq, req->in_st->st_size, res, &f->res->holes);
      report_progress (req, res->bytes);
    }
  else if (f->regular && !f->size_unknown && req->piece)
    ret = file_copy_pieces (f, &creq);
  else
    {
      /* Up to the size fstat gave, in one call where the engine allows;
         to the end where the size says nothing (/proc, FIFOs).  */
      creq.length = f->regular && !f->size_unknown
                    ? (uint64_t) req->in_st->st_size : COPY_TO_EOF;
      ret = copy_range (&creq, res);
      report_progress (req, res->bytes);
    }
  /* A refusal for a file of unknown size (/proc) is about that file,
     not about the file systems.  */
  if (req->engine == COPY_ENGINE_NONE && f->both && !f->size_unknown)
    f->cache->declined |= res->declined & ~COPY_ENGINE_BIT (COPY_ENGINE_RW);

  /* Nothing came: the file may be empty, or one whose size the kernel
     does not know and which the engine took as empty (copy_file_range
     and sendfile on /proc).  Reading it settles it; a forced engine
     never costs the copy its data.  */
  if (res->bytes == 0 && res->engine != COPY_ENGINE_RW
      && (!f->regular || f->size_unknown)
      && (ret == 0
          || (f->size_unknown && (ret == -EINVAL || ret == -ENOSYS
                                  || ret == -EXDEV || ret == -EOPNOTSUPP))))
    {
      struct copy_result probe;
      creq.engines = COPY_ENGINE_BIT (COPY_ENGINE_RW);
      creq.length = COPY_TO_EOF;
      ret = copy_range (&creq, &probe);
      if (probe.bytes > 0 || ret < 0)
        *res = probe;
      report_progress (req, probe.bytes);
    }
  return ret;
}

/* What F's failure RET is: the forced engine that cannot, or a read or a
   write that failed.  */
static enum copy_data_failure
file_copy_failure (const struct file_copy *f, int ret)
{
  if (f->req->engine != COPY_ENGINE_NONE && f->res->moved.bytes == 0
      && (ret == -EINVAL || ret == -ENOSYS || ret == -EXDEV
          || ret == -EOPNOTSUPP))
    return COPY_FAILED_ENGINE;
  return f->res->moved.side == COPY_SIDE_READ ? COPY_FAILED_READ
                                               : COPY_FAILED_WRITE;
}

int
copy_file_data (const struct copy_data_request *req,
                struct copy_data_result *res)
{
  struct copy_fs_cache scratch = { .valid = false };
  struct file_copy f = { .req = req, .res = res,
                         .cache = req->cache ? req->cache : &scratch };
  *res = (struct copy_data_result) {
    .moved = { .engine = COPY_ENGINE_NONE },
  };
  if (!req->in_st)
    {
      /* A range, as asked.  */
      int ret = copy_range (&req->range, &res->moved);
      res->engine = res->moved.engine;
      res->size = res->moved.bytes;
      if (ret < 0)
        res->failure = res->moved.side == COPY_SIDE_READ ? COPY_FAILED_READ
                                                         : COPY_FAILED_WRITE;
      return ret;
    }
  file_copy_start (&f);
  int ret = file_copy_clone (&f);
  if (ret < 0)
    return ret;
  if (ret > 0)
    {
      res->engine = COPY_ENGINE_CLONE;
      res->size = req->in_st->st_size;
      return 0;
    }
  f.engines = file_copy_engines (&f);
  ret = file_copy_range (&f);
  if (ret < 0)
    {
      res->failure = file_copy_failure (&f, ret);
      return ret;
    }
  const struct stat *st = req->in_st;
  /* The extents' copy ends at the size, whatever the end of the data:
     only the fstat after the copy can tell a change there.  */
  res->short_read = f.regular && !f.size_unknown && !res->holes
                    && res->moved.bytes < (uint64_t) st->st_size;
  /* Nothing moved (an empty file, or holes only): the engine that would
     have moved data, the first that did not refuse.  */
  res->engine = res->moved.engine;
  if (res->moved.bytes == 0)
    {
      enum copy_engine e = file_copy_first (&f, res->moved.declined);
      res->engine = e != COPY_ENGINE_NONE ? e : file_copy_first (&f, 0);
    }
  /* The copy's size: holes count.  */
  res->size = res->holes ? (uint64_t) st->st_size : res->moved.bytes;
  return 0;
}

bool
copy_source_changed (int in_fd, const struct stat *before, bool short_read)
{
  struct stat now;
  if (sys_fstat (in_fd, &now) == 0
      && (now.st_size != before->st_size
          || now.st_mtim.tv_sec != before->st_mtim.tv_sec
          || now.st_mtim.tv_nsec != before->st_mtim.tv_nsec
          || now.st_ctim.tv_sec != before->st_ctim.tv_sec
          || now.st_ctim.tv_nsec != before->st_ctim.tv_nsec))
    return true;
  return short_read;
}
