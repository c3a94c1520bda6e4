/* call-cost -- the time of each system call a copy of one small file
   makes, xcp's way and cp's way, measured alone in the same run.

   call-cost DIR [FILES [ROUNDS]]

   Makes DIR/src with FILES files (default 2000) of 1 to 8 KiB, then,
   ROUNDS times (default 5), copies each of them twice: once with the
   calls xcp -a makes for a file (statx, an O_TMPFILE file put in place
   by linkat, the source's second statx that detects a change, ...) and
   once with those cp -a makes (full paths, fstat, open with O_CREAT and
   O_EXCL, the ACL it sets, ...), the two in alternating order from file
   to file.  Each call is timed alone by CLOCK_MONOTONIC (the vDSO: no
   call of its own), and a call kind's figure is the median of its
   times: a run preempted by the machine's other work moves the mean,
   not the median.  The kinds that are a guarantee of xcp's, or its
   alternative, are timed in the same loop on files of their own:
   open(O_CREAT|O_EXCL) by a directory's descriptor (what O_TMPFILE and
   linkat replace), fstat (against statx), fchown to the same owner.

   Prints one row a call kind, tab-separated: the tool ("xcp", "cp" or
   "alone"), the kind, the calls per file, the median, 10th and 90th
   percentile in nanoseconds; then per tool the sum over its kinds of
   calls per file times median, the system calls' time per file.  The
   clock's own cost (two reads back to back) is the "clock" row, not
   taken off the others.  Exit 1 on a failed call, 2 on a usage error,
   77 where O_TMPFILE is refused (the file system has none).  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#ifndef FICLONE
# define FICLONE _IOW (0x94, 9, int)
#endif

enum kind
{
  K_CLOCK,
  X_OPEN, X_STATX, X_TMPFILE, X_COPY, X_STATX2, X_LISTXATTR, X_UTIMENS,
  X_LINKAT, X_CLOSE,
  C_LSTAT, C_OPEN, C_FSTAT, C_CREATE, C_FICLONE, C_FSTAT_DST, C_FADVISE,
  C_COPY, C_COPY_EOF, C_UTIMENS, C_LISTXATTR, C_GETXATTR, C_FSTAT2,
  C_SETXATTR, C_CLOSE,
  A_CREATE_AT, A_FSTAT, A_FCHOWN, A_UNLINK,
  KINDS
};

static const struct
{
  const char *tool, *name;
} kinds[KINDS] = {
  [K_CLOCK] = { "alone", "clock (two reads)" },
  [X_OPEN] = { "xcp", "openat source by dir fd" },
  [X_STATX] = { "xcp", "statx source" },
  [X_TMPFILE] = { "xcp", "openat O_TMPFILE" },
  [X_COPY] = { "xcp", "copy_file_range" },
  [X_STATX2] = { "xcp", "statx source again (change)" },
  [X_LISTXATTR] = { "xcp", "flistxattr" },
  [X_UTIMENS] = { "xcp", "utimensat (futimens)" },
  [X_LINKAT] = { "xcp", "linkat AT_EMPTY_PATH" },
  [X_CLOSE] = { "xcp", "close" },
  [C_LSTAT] = { "cp", "newfstatat full path" },
  [C_OPEN] = { "cp", "openat source full path" },
  [C_FSTAT] = { "cp", "fstat (newfstatat \"\")" },
  [C_CREATE] = { "cp", "openat O_CREAT|O_EXCL full path" },
  [C_FICLONE] = { "cp", "ioctl FICLONE" },
  [C_FSTAT_DST] = { "cp", "fstat copy" },
  [C_FADVISE] = { "cp", "fadvise64" },
  [C_COPY] = { "cp", "copy_file_range" },
  [C_COPY_EOF] = { "cp", "copy_file_range at EOF" },
  [C_UTIMENS] = { "cp", "utimensat (futimens)" },
  [C_LISTXATTR] = { "cp", "flistxattr" },
  [C_GETXATTR] = { "cp", "fgetxattr ACL" },
  [C_FSTAT2] = { "cp", "fstat source again" },
  [C_SETXATTR] = { "cp", "fsetxattr ACL" },
  [C_CLOSE] = { "cp", "close" },
  [A_CREATE_AT] = { "alone", "openat O_CREAT|O_EXCL by dir fd" },
  [A_FSTAT] = { "alone", "fstat (against statx)" },
  [A_FCHOWN] = { "alone", "fchown to the same owner" },
  [A_UNLINK] = { "alone", "unlinkat" },
};

/* The samples of each kind, and how many calls of it a file makes.  */
static uint32_t *samples[KINDS];
static size_t count[KINDS];
static unsigned per_file[KINDS];
static long files = 2000;
static long rounds = 5;

static char buf[8192];
static char list[1024];
static char top[4096];

static uint64_t
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static void
record (enum kind k, uint64_t t0)
{
  uint64_t t = now () - t0;
  samples[k][count[k]++] = t > UINT32_MAX ? UINT32_MAX : (uint32_t) t;
}

static void
must (long r, const char *what)
{
  if (r < 0)
    {
      fprintf (stderr, "call-cost: %s: %s\n", what, strerror (errno));
      exit (1);
    }
}

/* T(K, CALL): CALL timed as a call of kind K; its result.  */
#define T(k, call) \
  __extension__ ({ uint64_t t0_ = now (); long r_ = (long) (call); \
                   record ((k), t0_); must (r_, kinds[k].name); r_; })

static void
make_sources (int src)
{
  unsigned seed = 3;
  for (size_t i = 0; i < sizeof buf; i++)
    buf[i] = (char) rand_r (&seed);
  for (long i = 0; i < files; i++)
    {
      char name[32];
      snprintf (name, sizeof name, "f%ld", i);
      int fd = openat (src, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                       0644);
      must (fd, "create source");
      size_t size = 1024 + (size_t) rand_r (&seed) % (sizeof buf - 1024);
      must (write (fd, buf, size) == (ssize_t) size ? 0 : -1, "write");
      close (fd);
    }
}

static void
copy_xcp (int src, int dst, const char *name)
{
  struct statx stx;
  const unsigned flags = AT_EMPTY_PATH | AT_STATX_SYNC_AS_STAT
                         | AT_NO_AUTOMOUNT;
  int in = (int) T (X_OPEN, openat (src, name, O_RDONLY | O_NOCTTY
                                    | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC));
  T (X_STATX, statx (in, "", flags, STATX_BASIC_STATS, &stx));
  int out = (int) T (X_TMPFILE, openat (dst, ".", O_WRONLY | O_CLOEXEC
                                        | O_TMPFILE, 0644));
  T (X_COPY, copy_file_range (in, NULL, out, NULL, stx.stx_size, 0));
  T (X_STATX2, statx (in, "", flags, STATX_BASIC_STATS, &stx));
  T (X_LISTXATTR, flistxattr (in, list, sizeof list));
  struct timespec ts[2] = {
    { stx.stx_atime.tv_sec, stx.stx_atime.tv_nsec },
    { stx.stx_mtime.tv_sec, stx.stx_mtime.tv_nsec },
  };
  T (X_UTIMENS, futimens (out, ts));
  T (X_LINKAT, linkat (out, "", dst, name, AT_EMPTY_PATH));
  T (X_CLOSE, close (out));
  T (X_CLOSE, close (in));
}

/* The POSIX ACL of mode 0644 that cp -a sets on each copy.  */
static const unsigned char acl_0644[28] = {
  2, 0, 0, 0, 1, 0, 6, 0, 255, 255, 255, 255,
  4, 0, 4, 0, 255, 255, 255, 255, 32, 0, 4, 0, 255, 255, 255, 255
};

static void
copy_cp (const char *name)
{
  char from[4200], to[4200];
  struct stat st;
  snprintf (from, sizeof from, "%s/src/%s", top, name);
  snprintf (to, sizeof to, "%s/c/%s", top, name);
  T (C_LSTAT, fstatat (AT_FDCWD, from, &st, AT_SYMLINK_NOFOLLOW));
  int in = (int) T (C_OPEN, open (from, O_RDONLY | O_NOFOLLOW));
  T (C_FSTAT, fstat (in, &st));
  int out = (int) T (C_CREATE, open (to, O_WRONLY | O_CREAT | O_EXCL,
                                     0600));
  uint64_t t0 = now ();
  ioctl (out, FICLONE, in);
  record (C_FICLONE, t0);
  T (C_FSTAT_DST, fstat (out, &st));
  t0 = now ();
  posix_fadvise (in, 0, 0, POSIX_FADV_SEQUENTIAL);
  record (C_FADVISE, t0);
  T (C_COPY, copy_file_range (in, NULL, out, NULL, 1L << 30, 0));
  T (C_COPY_EOF, copy_file_range (in, NULL, out, NULL, 1L << 30, 0));
  struct timespec ts[2] = { st.st_atim, st.st_mtim };
  T (C_UTIMENS, futimens (out, ts));
  T (C_LISTXATTR, flistxattr (in, NULL, 0));
  T (C_LISTXATTR, flistxattr (in, list, 0));
  t0 = now ();
  fgetxattr (in, "system.posix_acl_access", list, 132);
  record (C_GETXATTR, t0);
  T (C_FSTAT2, fstat (in, &st));
  t0 = now ();
  fsetxattr (out, "system.posix_acl_access", acl_0644, sizeof acl_0644, 0);
  record (C_SETXATTR, t0);
  T (C_CLOSE, close (out));
  T (C_CLOSE, close (in));
}

/* The kinds timed alone: a create by name, fstat, fchown.  */
static void
alone (int dst, const char *name)
{
  struct stat st;
  uint64_t t0 = now ();
  record (K_CLOCK, t0);
  int out = (int) T (A_CREATE_AT, openat (dst, name, O_WRONLY | O_CREAT
                                          | O_EXCL | O_CLOEXEC, 0600));
  T (A_FSTAT, fstat (out, &st));
  T (A_FCHOWN, fchown (out, st.st_uid, st.st_gid));
  close (out);
}

static void
empty (int dir, enum kind k)
{
  for (long i = 0; i < files; i++)
    {
      char name[32];
      snprintf (name, sizeof name, "f%ld", i);
      T (k, unlinkat (dir, name, 0));
    }
}

static int
by_value (const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  return (x > y) - (x < y);
}

static void
report (void)
{
  double sum[3] = { 0, 0, 0 };
  const char *tools[3] = { "xcp", "cp", "alone" };
  for (int k = 0; k < KINDS; k++)
    {
      if (count[k] == 0)
        continue;
      qsort (samples[k], count[k], sizeof *samples[k], by_value);
      uint32_t med = samples[k][count[k] / 2];
      printf ("%s\t%s\t%u\t%u\t%u\t%u\n", kinds[k].tool, kinds[k].name,
              per_file[k], med, samples[k][count[k] / 10],
              samples[k][count[k] * 9 / 10]);
      for (int t = 0; t < 2; t++)
        if (strcmp (kinds[k].tool, tools[t]) == 0)
          sum[t] += (double) per_file[k] * med;
    }
  for (int t = 0; t < 2; t++)
    printf ("%s\tsum per file\t\t%.0f\t\t\n", tools[t], sum[t]);
}

int
main (int argc, char **argv)
{
  if (argc < 2 || argc > 4)
    {
      fprintf (stderr, "usage: call-cost DIR [FILES [ROUNDS]]\n");
      return 2;
    }
  if (realpath (argv[1], top) == NULL)
    must (-1, argv[1]);
  if (argc > 2)
    files = atol (argv[2]);
  if (argc > 3)
    rounds = atol (argv[3]);
  if (files <= 0 || rounds <= 0)
    {
      fprintf (stderr, "call-cost: FILES and ROUNDS must be positive\n");
      return 2;
    }
  static const unsigned calls[KINDS] = {
    [K_CLOCK] = 1, [X_OPEN] = 1, [X_STATX] = 1, [X_TMPFILE] = 1,
    [X_COPY] = 1, [X_STATX2] = 1, [X_LISTXATTR] = 1, [X_UTIMENS] = 1,
    [X_LINKAT] = 1, [X_CLOSE] = 2, [C_LSTAT] = 1, [C_OPEN] = 1,
    [C_FSTAT] = 1, [C_CREATE] = 1, [C_FICLONE] = 1, [C_FSTAT_DST] = 1,
    [C_FADVISE] = 1, [C_COPY] = 1, [C_COPY_EOF] = 1, [C_UTIMENS] = 1,
    [C_LISTXATTR] = 2, [C_GETXATTR] = 1, [C_FSTAT2] = 1, [C_SETXATTR] = 1,
    [C_CLOSE] = 2, [A_CREATE_AT] = 1, [A_FSTAT] = 1, [A_FCHOWN] = 1,
    [A_UNLINK] = 3,
  };
  for (int k = 0; k < KINDS; k++)
    {
      per_file[k] = calls[k];
      samples[k] = malloc (sizeof *samples[k] * (size_t) (files * rounds)
                           * (calls[k] ? calls[k] : 1));
      must (samples[k] ? 0 : -1, "malloc");
    }
  int dirs[4];
  const char *names[4] = { "src", "x", "c", "a" };
  for (int d = 0; d < 4; d++)
    {
      char path[4200];
      snprintf (path, sizeof path, "%s/%s", top, names[d]);
      must (mkdir (path, 0755), path);
      dirs[d] = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      must (dirs[d], path);
    }
  int probe = openat (dirs[1], ".", O_WRONLY | O_TMPFILE | O_CLOEXEC, 0600);
  if (probe < 0)
    {
      fprintf (stderr, "call-cost: O_TMPFILE: %s\n", strerror (errno));
      return 77;
    }
  close (probe);
  make_sources (dirs[0]);
  for (long r = 0; r < rounds; r++)
    {
      for (long i = 0; i < files; i++)
        {
          char name[32];
          snprintf (name, sizeof name, "f%ld", i);
          if (i % 2)
            copy_cp (name);
          copy_xcp (dirs[0], dirs[1], name);
          if (i % 2 == 0)
            copy_cp (name);
          alone (dirs[3], name);
        }
      for (int d = 1; d < 4; d++)
        empty (dirs[d], A_UNLINK);
    }
  report ();
  return 0;
}
