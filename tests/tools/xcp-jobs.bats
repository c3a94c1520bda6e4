#!/usr/bin/env bats
# xcp-jobs.bats -- xcp -j N / --jobs=N (issue 17) from the outside: the
# tree copied by N workers is the tree -j 1 makes (content, types, modes,
# owners, ns times, link targets, hard-link groups, xattrs), for every
# tree xcp.bats copies and a larger one whose hard-link groups span
# directories; -v lists the same lines in the same order; directories get
# their attributes after their files; a source changed under the workers
# leaks nothing from outside it; a signal leaves no temporary or partial
# file; a low `ulimit -n` takes fewer workers, not a failure; the option's
# errors.
#
# The trees are compared by tree_canon, a canonical listing of
# everything in them (python3, which reads trees deeper than PATH_MAX by
# descriptors).

load test_helper
load xcp_helper

# The python3 of tree_canon and of the tree builders, resolved once: a
# python3 on PATH can be a wrapper (pyenv's shims) that costs more than
# the copies it checks.
setup_file() {
  PYTHON3=
  if command -v python3 >/dev/null 2>&1; then
    PYTHON3=$(python3 -c 'import sys; print(sys.executable)')
  fi
  export PYTHON3
}

# The tests that compare trees need it.
require_python3() {
  [[ -n $PYTHON3 ]] || skip "python3 is not installed"
}

setup() {
  nc_setup
  local builddir="${NC_BUILDDIR:-$NC_BINDIR/..}"
  TREE_HELPER="$builddir/tests/helpers/rmtree-race"
  ENOSYS_EXEC="${NC_ENOSYS_EXEC:-$builddir/tests/helpers/enosys-exec}"
  BG_PID=
  RACER_PID=
}

teardown() {
  local p m
  # A background racer, strace or xcp that a failed test left running.
  for p in $RACER_PID $BG_PID; do
    [[ -n $p ]] || continue
    for m in $(descendants "$p") "$p"; do
      kill -KILL "$m" 2>/dev/null || true
    done
    wait "$p" 2>/dev/null || true
  done
  cd "$BATS_TEST_TMPDIR" || return 1
  for m in "$BATS_TEST_TMPDIR"/fs/e4 "$BATS_TEST_TMPDIR"/fs; do
    if mountpoint -q "$m" 2>/dev/null; then
      umount "$m" || umount -l "$m"
    fi
  done
}

# tree_canon DIR: one line per entry of DIR, sorted by path: type, mode,
# owner; then by type the size and a hash of the content, the link's
# target, the device number; the mtime in ns (not with
# TREE_CANON_TIMES=0: -r gives new times); for a non-directory its link
# count and the first path of its hard-link group, which tells which
# names share an inode; the xattrs, names and values.  Not the atimes:
# reading the source for the first copy moves them before the second.
# Not a directory's size, which tells how its entries were made.
tree_canon() {
  TREE_CANON_TIMES=${TREE_CANON_TIMES:-1} "$PYTHON3" - "$1" <<'EOF'
import hashlib, os, stat, sys

times = os.environ["TREE_CANON_TIMES"] == "1"
out, first = [], {}

# TARGET: a directory's descriptor, or the path of a name by its
# directory's descriptor, /proc/self/fd/N/NAME, not followed.
def xattrs(target):
    follow = isinstance(target, int)
    try:
        names = sorted(os.listxattr(target, follow_symlinks=follow))
    except OSError:
        return ""
    if not names:
        return ""
    return " xattrs " + ",".join(
        "%s=%s" % (n, os.getxattr(target, n, follow_symlinks=follow).hex())
        for n in names)

def line(path, st, dfd, name):
    m = st.st_mode
    kind = ("d" if stat.S_ISDIR(m) else "f" if stat.S_ISREG(m) else
            "l" if stat.S_ISLNK(m) else "p" if stat.S_ISFIFO(m) else
            "c" if stat.S_ISCHR(m) else "b" if stat.S_ISBLK(m) else "s")
    s = "%s %s %04o %d:%d" % (path, kind, stat.S_IMODE(m), st.st_uid,
                              st.st_gid)
    if kind == "f":
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=dfd)
        h = hashlib.md5()
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                break
            h.update(b)
        os.close(fd)
        s += " size %d md5 %s" % (st.st_size, h.hexdigest())
    elif kind == "l":
        s += " -> " + os.readlink(name, dir_fd=dfd)
    elif kind in "cb":
        s += " dev %d:%d" % (os.major(st.st_rdev), os.minor(st.st_rdev))
    if times:
        s += " mtime %d" % st.st_mtime_ns
    if kind != "d":
        group = first.setdefault((st.st_dev, st.st_ino), path)
        s += " links %d group %s" % (st.st_nlink, group)
    out.append(s)

# Level by level, each directory by a descriptor opened in its parent's:
# no path is ever longer than a name.
root = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
line(".", os.fstat(root), root, None)
out[-1] += xattrs(root)
level = [(".", root)]
while level:
    below = []
    for path, dfd in level:
        for name in sorted(os.listdir(dfd)):
            p = path + "/" + name
            st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
            line(p, st, dfd, name)
            if stat.S_ISDIR(st.st_mode):
                sub = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW,
                              dir_fd=dfd)
                out[-1] += xattrs(sub)
                below.append((p, sub))
            else:
                # The entry by its directory's descriptor: the path can be
                # too long.
                out[-1] += xattrs("/proc/self/fd/%d/%s" % (dfd, name))
        os.close(dfd)
    level = below
out.sort()
print("\n".join(out))
EOF
}

# assert_same_tree A B: tree_canon of A and of B are the same; on failure
# the first lines of their difference.
assert_same_tree() {
  local a="$BATS_TEST_TMPDIR/canon.a" b="$BATS_TEST_TMPDIR/canon.b" d
  tree_canon "$1" >"$a" || fail "tree_canon $1 failed"
  tree_canon "$2" >"$b" || fail "tree_canon $2 failed"
  [[ -s $a ]] || fail "tree_canon $1: no output"
  cmp -s "$a" "$b" && return
  d=$(diff "$a" "$b" | head -n 40)
  [[ -z $d ]] || fail "$(printf '%s and %s differ (< %s, > %s):\n%s' "$1" "$2" "$1" "$2" "$d")"
}

# jobs_line OUTPUT SRC: the N of --debug's "xcp: 'SRC': N jobs" in the
# standard error OUTPUT; fails unless there is exactly one.
jobs_line() {
  local n
  n=$(grep -c -x "xcp: '$2': [0-9]* jobs" <<<"$1")
  [[ $n -eq 1 ]] || fail "$(printf '%s lines "xcp: '\''%s'\'': N jobs" in:\n%s' "$n" "$2" "$1")"
  grep -x "xcp: '$2': [0-9]* jobs" <<<"$1" | sed 's/.*: \([0-9]*\) jobs$/\1/'
}

# --- the trees xcp.bats copies ----------------------------------------------
# Each tree_* DIR builds one, as the test of xcp.bats named above it does.

# make_tree (xcp -a keeps modes, owners, ns times...) with xattrs where
# this file system takes them: user.* on a file, trusted.* (root) on a
# directory.  (Not on a symbolic link: xcp -a does not copy those, where
# cp -a does; a gap of its own, not of -j.)
tree_xattrs() {
  make_tree "$1"
  "$PYTHON3" - "$1" <<'PY' || true
import os, sys
d = sys.argv[1]
for path, name in (("file", "user.nc"), ("sub", "trusted.nc")):
    try:
        os.setxattr(os.path.join(d, path), name, b"v\0" + path.encode())
    except OSError:
        pass
PY
  touch -d "2005-06-07 08:09:10.555555555" "$1"
}

# xcp -a keeps times past 2038.
tree_2038() {
  mkdir "$1"
  echo data >"$1/f"
  ln -s f "$1/lnk"
  touch -d "2100-01-01 00:00:00.123456789 UTC" "$1/f" "$1"
  touch -h -d "2106-02-07 06:28:16.5 UTC" "$1/lnk"
}

# xcp -r copies links as links, FIFOs as FIFOs, never follows them.
tree_outward() {
  mkdir -p "$1" outside/big
  echo secret >outside/big/file
  ln -s ../outside "$1/out"
  ln -s "$PWD/outside/big" "$1/abs"
  mkfifo "$1/fifo"
  echo x >"$1/f"
}

# xcp -au onto an existing tree keeps the hard-link groups: five names of
# one empty file.
tree_links() {
  mkdir "$1"
  touch "$1/f"
  local n
  for n in linkm linke fileo fileu; do
    ln "$1/f" "$1/$n"
  done
}

# xcp -r keeps a directory's sticky bit; xcp -rv's tree.
tree_sticky() {
  mkdir -m 1777 "$1"
  mkdir -p "$1/t/s"
  echo c >"$1/t/s/c"
}

# xcp -r: a message about a deep path: 200 levels.
tree_long_path() {
  mkdir -p "$1$(printf '/d%.0s' $(seq 200))"
  echo data >"$1$(printf '/d%.0s' $(seq 200))/f"
}

# xcp -r: a tree deeper than PATH_MAX (2500 levels, one file each; the
# deepest has data).
tree_deep() {
  require_helper "$TREE_HELPER"
  "$TREE_HELPER" deep "$1" 2500 1
  find "$1" -mindepth 2501 -name f0 -execdir sh -c 'echo deepest >f0' \;
}

# make_trees DIR: all of them in one, tree_xattrs at the top (make_tree
# and its times), the others below it, each in a directory of its name:
# one copy of them all gives the workers more to do at once, and costs
# less than a copy each.
make_trees() {
  tree_xattrs "$1"
  local tree
  for tree in tree_2038 tree_outward tree_links tree_sticky tree_long_path tree_deep; do
    "$tree" "$1/$tree"
  done
  touch -d "2005-06-07 08:09:10.555555555" "$1"
}

# same_as_serial SRC OPTION...: xcp OPTION... -j 1 and -j 4 of SRC, to
# ser and par: both succeed silently, and the copies are the same;
# --debug of -j 4 says 4 jobs.
same_as_serial() {
  local src=$1
  shift
  run --separate-stderr xcp "$@" -j 1 "$src" ser
  assert_success
  assert_output ""
  assert_err ""
  run --separate-stderr xcp "$@" -j 4 --debug "$src" par
  assert_success
  assert_output ""
  assert_equal "$(jobs_line "$stderr" "$src")" 4
  # Nothing but --debug's lines.
  run grep -v -e "^xcp: '$src': [0-9]* jobs\$" -e "^xcp: '$src': .* descriptors free" \
    -e "^xcp: '.*' -> '.*': engine " <<<"$stderr"
  assert_output ""
  local times=1
  [[ " $* " == *" -a "* ]] || times=0
  TREE_CANON_TIMES=$times assert_same_tree ser par
}

@test "xcp -j 4: the same tree as -j 1 for every tree of xcp.bats, -a and -r" {
  require_python3
  use_tmpfs 4g
  make_trees src
  local opt
  for opt in -a -r; do
    same_as_serial src "$opt"
    # -a: the copy is the source itself, times and all.
    [[ $opt != -a ]] || assert_same_tree src par
    rm -rf ser par
  done
  rm -rf src outside
  # tmpfs to ext4 and back (another file system's times and links).
  mount_ext4 e4 1G
  make_tree src
  run --separate-stderr xcp -a -j 4 src e4/tree
  assert_success
  assert_err ""
  assert_same_tree src e4/tree
  run --separate-stderr xcp -a -j 4 e4/tree back
  assert_success
  assert_err ""
  assert_same_tree src back
}

@test "xcp -au -j 4 onto an existing tree keeps the hard-link groups, as -j 1" {
  require_python3
  # xcp.bats' coreutils preserve-link case: the destination has some of
  # the names, linked otherwise, older and newer.
  tree_links s
  local first j n
  for first in f linkm; do
    for j in 1 4; do
      rm -rf "t$j"
      mkdir -p "t$j/s"
      touch "t$j/s/$first"
      ln "t$j/s/$first" "t$j/s/linke"
      touch -d 2001-01-01 "t$j/s/fileo"
      touch -d 2101-01-01 "t$j/s/fileu"
      touch -d 2002-01-01 "t$j/s/$first" "t$j/s" "t$j"
      run --separate-stderr xcp -au -j "$j" s "t$j"
      assert_success
      assert_err ""
      # No temporary name left: a rename of a name onto another link of
      # the same file does nothing (rename(2)), leaving the first.
      assert_equal "$(ls -A "t$j/s")" "$(ls -A s)"
      for n in linkm linke fileo fileu; do
        [[ $(stat -c %i "t$j/s/f") == "$(stat -c %i "t$j/s/$n")" ]] \
          || fail "-j $j, $first made first: t$j/s/$n is not a link of t$j/s/f"
      done
    done
    assert_same_tree t1 t4
  done
}

@test "xcp -a -j 4 of 300 tree operands and files into a directory: -j 1's, a jobs line each" {
  require_python3
  use_tmpfs 4g
  mkdir ser par
  # 300 trees, a pool of workers each: more threads in all than a
  # process keeps temporary names for at once.  Files between them.
  "$PYTHON3" - <<'PY' || fail "cannot build the trees"
import os
for i in range(300):
    t = "in/t%d" % i
    os.makedirs(t + "/sub")
    for j in range(2):
        for d in (t, t + "/sub"):
            with open("%s/f%d" % (d, j), "w") as f:
                f.write("%d %d\n%s" % (i, j, " " * 4096))
    os.link(t + "/f0", t + "/sub/link")
    with open("in/f%d" % i, "w") as f:
        f.write("%d\n" % i)
PY
  local i
  local -a ops=()
  for ((i = 0; i < 300; i++)); do
    ops+=("in/t$i" "in/f$i")
  done
  run --separate-stderr xcp -a -j 1 "${ops[@]}" ser
  assert_success
  assert_err ""
  run --separate-stderr xcp -a -j 4 --debug "${ops[@]}" par
  assert_success
  # A line per tree operand.  (Under -a a file operand takes the tree
  # path too, and gets one: not asked of it here.)
  run grep -c -x "xcp: 'in/t[0-9]*': 4 jobs" <<<"$stderr"
  assert_output 300
  # The targets themselves are not copies: their times are their own.
  touch -r ser par
  assert_same_tree ser par
  # By temporary names, where there is no O_TMPFILE.
  [[ -x $ENOSYS_EXEC ]] || return 0
  "$ENOSYS_EXEC" splice "$NC_BINDIR/xcp" --version >/dev/null 2>&1 || return 0
  mkdir named
  run --separate-stderr "$ENOSYS_EXEC" o_tmpfile:EOPNOTSUPP "$NC_BINDIR/xcp" -a -j 4 \
    "${ops[@]}" named
  assert_success
  assert_err ""
  touch -r ser named
  assert_same_tree ser named
}

@test "xcp -r -j 4: the files it cannot read, one message each, as -j 1; the rest copied" {
  require_python3
  require_nobody
  mkdir -m 0777 box
  mkdir -p box/src/sub box/src/closed/in
  local i
  for ((i = 0; i < 40; i++)); do
    echo "$i" >"box/src/f$i"
    echo "$i" >"box/src/sub/f$i"
  done
  echo in >box/src/closed/in/f
  chmod 0600 box/src/f3 box/src/f17 box/src/sub/f5 box/src/sub/f39
  chmod 0700 box/src/closed
  cd box
  run --separate-stderr as_nobody "$NC_BINDIR/xcp" -r -j 1 src ser
  assert_failure 1
  assert_output ""
  local serial=$stderr
  run --separate-stderr as_nobody "$NC_BINDIR/xcp" -r -j 4 src par
  assert_failure 1
  assert_output ""
  # The same messages, one per failure (in the order they came).
  assert_equal "$(LC_ALL=C sort <<<"$stderr")" "$(LC_ALL=C sort <<<"$serial")"
  # shellcheck disable=SC2154 # set by run --separate-stderr.
  assert_equal "${#stderr_lines[@]}" 5
  TREE_CANON_TIMES=0 assert_same_tree ser par
  assert_not_exist par/sub/f5
  assert_same src/sub/f6 par/sub/f6
}

# --- a larger tree ------------------------------------------------------------

# make_big_tree DIR GROUPS: 3000 files of 0 to 64 KiB (one in twenty
# empty) in 60 directories (20 and two below each), in modes and, as
# root, owners of several sorts; 40 hard-link groups of two or three
# names, each name in another directory (20 and 40 directories apart,
# the names of a group far apart in the walk, copied by different
# workers), listed in GROUPS one group a line; a symbolic link per
# directory (to a file of another directory, dangling, absolute); 10
# FIFOs; every time set to a fixed instant with nanoseconds, the
# directories' last, some of them read-only.
make_big_tree() {
  "$PYTHON3" - "$1" "$2" <<'PY' || fail "cannot build the tree"
import os, random, sys

top, groups_file = sys.argv[1], sys.argv[2]
rnd = random.Random(17)
root = os.getuid() == 0
os.mkdir(top)
dirs = []
for i in range(20):
    d = "d%02d" % i
    os.mkdir(os.path.join(top, d))
    dirs.append(d)
    for j in range(2):
        os.mkdir(os.path.join(top, d, "e%d" % j))
        dirs.append("%s/e%d" % (d, j))
files = []
for n in range(3000):
    p = "%s/f%04d" % (dirs[n % 60], n)
    size = 0 if rnd.random() < 0.05 else rnd.randint(1, 65536)
    with open(os.path.join(top, p), "wb") as f:
        f.write(os.urandom(size))
    os.chmod(os.path.join(top, p), rnd.choice((0o644, 0o600, 0o755, 0o440, 0o4755)))
    if root and n % 7 == 0:
        os.chown(os.path.join(top, p), 1000 + n % 5, 2000 + n % 3)
    files.append(p)
with open(groups_file, "w") as g:
    for k in range(40):
        n = k * 61 + 5
        group = [files[n]]
        for apart in (20, 40)[: 1 + k % 2]:
            name = "%s/h%02d-%d" % (dirs[(n + apart) % 60], k, apart)
            os.link(os.path.join(top, files[n]), os.path.join(top, name))
            group.append(name)
        g.write(" ".join(group) + "\n")
others = []
for i, d in enumerate(dirs):
    name = "%s/s%02d" % (d, i)
    target = ("../nowhere" if i % 5 == 0 else "/" if i % 5 == 1
              else os.path.relpath(files[(i * 53 + 11) % 3000], d))
    os.symlink(target, os.path.join(top, name))
    others.append(name)
for i in range(10):
    name = "%s/p%d" % (dirs[i * 6], i)
    os.mkfifo(os.path.join(top, name))
    others.append(name)
for n, p in enumerate(files + others):
    m = 1000000000 + rnd.randint(0, 600000000) * 1000000000 + rnd.randint(0, 999999999)
    os.utime(os.path.join(top, p), ns=(m + 86400 * 10**9, m), follow_symlinks=False)
# The directories last, the deepest first: making an entry sets its
# directory's mtime.
for i, d in enumerate(reversed(dirs)):
    if i % 9 == 0:
        os.chmod(os.path.join(top, d), 0o555)
    m = 1000000000 * 10**9 + i * 10**15 + i
    os.utime(os.path.join(top, d), ns=(m, m))
os.utime(top, ns=(10**18, 10**18 + 1))
PY
}

# assert_link_groups DIR GROUPS: every group of GROUPS (make_big_tree)
# is one file in DIR, of as many links as the group has names, not the
# source's (src) file.
assert_link_groups() {
  local -a names
  mapfile -t names < <(tr ' ' '\n' <"$2")
  [[ ${#names[@]} -gt 0 ]] || fail "no groups in $2"
  (cd "$1" && stat -c '%i %h %n' -- "${names[@]}") >"$BATS_TEST_TMPDIR/dst.stat" \
    || fail "not every name of $2 is in $1"
  (cd src && stat -c '%i %h %n' -- "${names[@]}") >"$BATS_TEST_TMPDIR/src.stat" \
    || fail "not every name of $2 is in src"
  run awk '
    FILENAME == ARGV[1] { ino[$3] = $1; nlink[$3] = $2; next }
    FILENAME == ARGV[2] { src_ino[$3] = $1; next }
    {
      groups++
      for (i = 2; i <= NF; i++)
        if (ino[$i] != ino[$1]) print $i " is not a link of " $1
      if (nlink[$1] != NF) print $1 ": " nlink[$1] " links, not " NF
      if (ino[$1] == src_ino[$1]) print $1 " is the source file"
    }
    END { if (groups != 40) print groups " groups, not 40" }' \
    "$BATS_TEST_TMPDIR/dst.stat" "$BATS_TEST_TMPDIR/src.stat" "$2"
  assert_success
  assert_output ""
}

@test "xcp -j 4 of 3000 files: -j 1's tree; hard-link groups across directories stay links" {
  require_python3
  use_tmpfs 4g
  make_big_tree src ../groups
  same_as_serial src -a
  assert_same_tree src par
  assert_link_groups par ../groups
  rm -rf ser par
  same_as_serial src -r --preserve=links
  assert_link_groups par ../groups
}

@test "xcp -an, -au, -a -j 4 over an existing copy: -j 1's results, no temporary name" {
  require_python3
  use_tmpfs 4g
  make_big_tree src ../groups
  run --separate-stderr xcp -a -j 1 src d1
  assert_success
  cp -a d1 d4
  # Newer data in every 50th file and in the first names of ten groups
  # (written in place: the groups stay).
  local f opt n=0
  while IFS= read -r f; do
    n=$((n + 1))
    ((n % 50 == 0)) || continue
    printf 'new %s\n' "$f" >"$f"
  done < <(find src -type f | LC_ALL=C sort)
  while read -r f _; do
    printf 'new %s\n' "$f" >"src/$f"
  done < <(head -n 10 ../groups)
  for opt in -an -au -a; do
    run --separate-stderr xcp -T "$opt" -j 1 src d1
    assert_success
    run --separate-stderr xcp -T "$opt" -j 4 src d4
    assert_success
    assert_err ""
    run find d1 d4 -name '.xcp-*'
    assert_output ""
    assert_same_tree d1 d4
  done
  assert_same_tree src d4
  assert_link_groups d4 ../groups
}

@test "xcp -j 4: a link to a file still being copied waits for it, in another directory" {
  use_tmpfs 4g
  # The walk lists a/ and its 64 MiB file, then b/ and c/ at once, while
  # a worker still copies the file.
  mkdir -p src/a src/b src/c
  make_big src/a/big 64
  ln src/a/big src/b/second
  ln src/a/big src/c/third
  echo small >src/b/small
  local opt
  for opt in -a "-r --preserve=links"; do
    # shellcheck disable=SC2086 # the options, split
    run --separate-stderr xcp $opt -j 4 src dst
    assert_success
    assert_err ""
    assert_same src/a/big dst/a/big
    assert_equal "$(stat -c '%i %h' dst/b/second)" "$(stat -c '%i %h' dst/a/big)"
    assert_equal "$(stat -c '%i %h' dst/c/third)" "$(stat -c '%i %h' dst/a/big)"
    assert_equal "$(stat -c %h dst/a/big)" 3
    rm -rf dst
  done
}

@test "xcp -v -j 4 lists what -j 1 lists, in the same order" {
  require_python3
  use_tmpfs 4g
  make_big_tree big ../groups
  make_tree small
  local src opt serial
  for src in big small; do
    for opt in -av -rv; do
      run --separate-stderr xcp "$opt" -j 1 "$src" dst
      assert_success
      assert_err ""
      serial=$output
      # Every file and directory: a listing, not a few lines.
      [[ ${#lines[@]} -gt $(find "$src" -type f | wc -l) ]] \
        || fail "xcp $opt -j 1 $src: ${#lines[@]} lines"
      rm -rf dst
      run --separate-stderr xcp "$opt" -j 4 "$src" dst
      assert_success
      assert_err ""
      [[ $output == "$serial" ]] \
        || fail "$(printf 'xcp %s -j 4 %s: other lines than -j 1:\n%s' "$opt" "$src" \
          "$(diff <(echo "$serial") <(echo "$output") | head -n 20)")"
      rm -rf dst
    done
  done
  # --progress counts the files and bytes of every worker: the same
  # totals as -j 1 (the line less its rate).
  local -a totals=()
  for opt in 1 4; do
    run --separate-stderr xcp -a --progress -j "$opt" big dst
    assert_success
    totals+=("${stderr_lines[-1]%, *}")
    rm -rf dst
  done
  [[ ${totals[0]} =~ ^xcp:\ .*,\ [0-9]+\ files$ ]] || fail "no totals: ${totals[0]}"
  assert_equal "${totals[1]}" "${totals[0]}"
}

# A tree of read-only directories with old times, whose files take the
# workers a while (a few of 1 MiB among 16 KiB ones): a file put in
# place after its directory's attributes would change its mtime, or (as
# a user) fail on its mode.
make_ro_tree() {
  mkdir -p "$1/ro/a/b" "$1/rw"
  local d i
  for d in "$1/ro" "$1/ro/a" "$1/ro/a/b" "$1/rw"; do
    for ((i = 0; i < 60; i++)); do
      if ((i % 20 == 0)); then
        head -c "$MIB" /dev/urandom >"$d/f$i"
      else
        printf '%s %d\n%16384s' "$d" "$i" "" >"$d/f$i"
      fi
    done
  done
  chmod 0555 "$1/ro" "$1/ro/a"
  chmod 0500 "$1/ro/a/b"
  touch -d "2001-02-03 04:05:06.7" "$1/ro/a/b"
  touch -d "2002-02-03 04:05:06.7" "$1/ro/a"
  touch -d "2003-02-03 04:05:06.7" "$1/ro" "$1/rw" "$1"
}

@test "xcp -a -j 4: read-only directories get their modes and old mtimes after their files" {
  require_python3
  use_tmpfs 4g
  make_ro_tree src
  run --separate-stderr xcp -a -j 4 src dst
  assert_success
  assert_err ""
  assert_same_tree src dst
  assert_equal "$(stat -c '%a %y' dst/ro/a)" "$(stat -c '%a %y' src/ro/a)"
  # As a user, to whom 0555 forbids a file made after the mode is set.
  require_nobody
  mkdir -m 0777 box
  make_ro_tree box/src
  chown -R 65534:65534 box/src
  run --separate-stderr as_nobody "$NC_BINDIR/xcp" -a -j 4 box/src box/dst
  assert_success
  assert_err ""
  assert_same_tree box/src box/dst
}

# --- races --------------------------------------------------------------------

# The racer of the race test: until the file STOP exists, it takes each
# of SRC's directories v0..v3 in turn and either puts it back or moves
# it away (to ASIDE, out of the tree) with a symbolic link in its place,
# to OUTSIDE or to "/"; or else swaps a file of it, vN/fJ, for a link to
# OUTSIDE/fJ.  It writes READY after its first change, and its count of
# changes to COUNT at the end.
RACER='
import os, sys
src, aside, outside, ready, stop, count = sys.argv[1:7]
out = {}
changes = k = 0
while not os.path.exists(stop):
    v = k % 4
    k += 1
    d = "%s/v%d" % (src, v)
    try:
        if v in out:
            path, away = out.pop(v)
            os.unlink(path)
            os.rename(away, path)
        else:
            kind = (k // 4) % 3
            if kind == 2:
                path = "%s/f%d" % (d, k % 50)
                away = "%s/v%d-f%d" % (aside, v, k % 50)
                target = "%s/f%d" % (outside, k % 50)
            else:
                path, away = d, "%s/v%d" % (aside, v)
                target = outside if kind == 0 else "/"
            os.rename(path, away)
            os.symlink(target, path)
            out[v] = (path, away)
        changes += 1
    except OSError:
        pass
    if changes == 1:
        open(ready, "w").close()
with open(count, "w") as f:
    f.write("%d\n" % changes)
'

# make_race_tree DIR: 200 files a0..a199 and four directories v0..v3 of
# 50 files f0..f49 and a sub of 50 more, of 16 KiB, every one starting
# with "inside" (printf: no process per file).
make_race_tree() {
  mkdir -p "$1/v0/sub"
  local i v
  for ((i = 0; i < 200; i++)); do
    printf 'inside a%d\n%16384s' "$i" "" >"$1/a$i"
  done
  for ((i = 0; i < 50; i++)); do
    printf 'inside v/f%d\n%16384s' "$i" "" >"$1/v0/f$i"
    printf 'inside v/sub/f%d\n%16384s' "$i" "" >"$1/v0/sub/f$i"
  done
  for v in 1 2 3; do
    cp -a "$1/v0" "$1/v$v"
  done
}

@test "xcp -a -j 4 of a source changed under it: nothing from outside, only 'changed' messages" {
  require_python3
  use_tmpfs 4g
  make_race_tree tree
  # OUTSIDE: files of the names of the victims', a directory sub like
  # theirs and a name of its own.
  mkdir -p outside/sub
  local i round n_changes=0
  for ((i = 0; i < 50; i++)); do
    echo "OUTSIDE f$i" >"outside/f$i"
    echo "OUTSIDE sub/f$i" >"outside/sub/f$i"
  done
  echo OUTSIDE >outside/outside-only
  local outside_sum
  outside_sum=$(cd outside && find . -type f -exec md5sum {} + | sort)
  for ((round = 1; round <= 6; round++)); do
    rm -rf src aside dst ready stop count
    cp -a tree src
    mkdir aside
    "$PYTHON3" -c "$RACER" src aside "$PWD/outside" ready stop count &
    RACER_PID=$!
    for ((i = 0; i < 1000; i++)); do
      [[ ! -e ready ]] || break
      sleep 0.01
    done
    [[ -e ready ]] || fail "the racer did not start in 10 s"
    run --separate-stderr timeout 60 xcp -a -j 4 src dst
    touch stop
    wait "$RACER_PID"
    RACER_PID=
    n_changes=$((n_changes + $(cat count)))
    # Exit 1 with messages, 0 without.
    if [[ -n $stderr ]]; then
      [[ $status -eq 1 ]] || fail "round $round: status $status with messages: $stderr"
    else
      [[ $status -eq 0 ]] || fail "round $round: status $status without a message"
    fi
    # Only messages of the kinds a change makes: xcp's own words, or the
    # errno of a call on an entry that is no longer what the listing
    # said (gone; a file or directory become a link, refused by
    # O_NOFOLLOW; a link become a directory again, EINVAL to readlinkat).
    local line
    # shellcheck disable=SC2154 # set by run --separate-stderr.
    for line in "${stderr_lines[@]}"; do
      [[ $line =~ ^xcp:\ \'.*\'(\ changed\ while\ being\ copied\;\ skipped|:\ file\ changed\ as\ we\ read\ it|:\ Directory\ (replaced|moved)\ during\ the\ walk)$ ||
        $line =~ ^xcp:\ cannot\ (open|stat|access|read\ symbolic\ link)\ \'.*\':\ (No\ such\ file\ or\ directory|Not\ a\ directory|Too\ many\ levels\ of\ symbolic\ links|Invalid\ argument|Directory\ (replaced|moved)\ during\ the\ walk)$ ]] \
        || fail "round $round: unexpected message: $line"
    done
    # Nothing of OUTSIDE or of / in the copy: no name of their own, no
    # file of their content; every file is one of the tree's.
    run find dst -name outside-only -o -name etc -o -name proc -o -name usr \
      -o -name '.xcp-*'
    assert_output ""
    run find dst -type f -exec grep -L -m 1 '^inside' {} +
    assert_output ""
    [[ -d dst && -f dst/a199 ]] || fail "round $round: no copy"
  done
  assert_equal "$(cd outside && find . -type f -exec md5sum {} + | sort)" "$outside_sum"
  [[ $n_changes -gt 0 ]] || fail "the racer changed nothing"
}

# --- signals ------------------------------------------------------------------

# interrupt_tree SIGNAL [PREFIX...]: start PREFIX... xcp -a -j 4 src dst
# under strace, which delays every data-moving call and the calls that
# put a file in place by 50 ms in each thread, wait until data is in a
# file of dst, send SIGNAL to xcp and wait for it: then no temporary name
# is left in dst, and every file there is whole, its source's copy; an
# incomplete copy ends in failure.  SIGINT and SIGTERM get their default
# action back (a background job of a script ignores SIGINT).
interrupt_tree() {
  local sig=$1
  shift
  local calls=write,pwrite64,writev,pwritev,splice,sendfile,copy_file_range
  calls+=,linkat,renameat,renameat2
  rm -rf dst
  strace -f -o /dev/null -e trace="$calls" -e inject="$calls":delay_enter=50000 \
    env --default-signal=INT,TERM "$@" "$NC_BINDIR/xcp" -a -j 4 src dst \
    2>strace.err &
  BG_PID=$!
  local pid='' i
  for ((i = 0; i < 1000; i++)); do
    [[ -n $pid ]] || pid=$(xcp_below "$BG_PID")
    [[ -n $pid ]] && writing_to "$pid" "$PWD/dst" && break
    sleep 0.01
  done
  [[ $i -lt 1000 ]] || fail "xcp did not start writing into dst in 10 s"
  kill -"$sig" "$pid"
  local xcp_status=0
  wait "$BG_PID" || xcp_status=$?
  BG_PID=
  run find dst -name '.xcp-*'
  assert_output ""
  # Nor any other name that the source does not have.
  run comm -13 <(cd src && find . | LC_ALL=C sort) <(cd dst && find . | LC_ALL=C sort)
  assert_output ""
  local f n=0 whole=1
  while IFS= read -r -d '' f; do
    cmp -s "src/${f#dst/}" "$f" || fail "$f is not the whole copy of src/${f#dst/}"
    n=$((n + 1))
  done < <(find dst -type f -print0)
  [[ $n -eq $(find src -type f | wc -l) ]] || whole=0
  [[ $whole -eq 1 || $xcp_status -ne 0 ]] \
    || fail "xcp -a -j 4 ended with 0 after SIG$sig, $n files copied"
}

# Four files of 32 MiB among a hundred small ones in ten directories.
make_signal_tree() {
  mkdir -p src
  local i
  for ((i = 0; i < 4; i++)); do
    make_big "src/big$i" 32
  done
  mkdir src/d{0..9}
  # printf: no process per file.
  for ((i = 0; i < 100; i++)); do
    printf '%d\n%*s' "$i" $((i * 1000)) "" >"src/d$((i % 10))/f$i"
  done
}

@test "xcp -a -j 4: SIGINT and SIGTERM leave no temporary name and no partial file" {
  require_root
  require_strace
  use_tmpfs 4g
  make_signal_tree
  interrupt_tree INT
  interrupt_tree TERM
  # By temporary names where there is no O_TMPFILE.
  [[ -x $ENOSYS_EXEC ]] || return 0
  "$ENOSYS_EXEC" splice "$NC_BINDIR/xcp" --version >/dev/null 2>&1 || return 0
  interrupt_tree INT "$ENOSYS_EXEC" o_tmpfile:EOPNOTSUPP
  interrupt_tree TERM "$ENOSYS_EXEC" o_tmpfile:EOPNOTSUPP
}

# --- descriptors --------------------------------------------------------------

@test "xcp -a -j 4 under ulimit -n 16, 24 and 40: fewer workers, the same tree" {
  require_python3
  require_helper "$TREE_HELPER"
  use_tmpfs 4g
  make_tree src
  make_race_tree src/wide
  # 100 levels, two files each: the walk's descriptors too.
  "$TREE_HELPER" deep src/deep 100 2
  local n jobs
  for n in 16 24 40; do
    run --separate-stderr bash -c "ulimit -n $n && exec \"\$0\" -a -j 4 --debug src dst" \
      "$NC_BINDIR/xcp"
    assert_success
    assert_output ""
    jobs=$(jobs_line "$stderr" src)
    [[ $jobs -ge 1 && $jobs -le 4 ]] || fail "ulimit -n $n: $jobs jobs"
    # Under 40, room for two workers at least: the parallel path is the
    # one bounded there.
    [[ $n -lt 40 || $jobs -ge 2 ]] || fail "ulimit -n $n: $jobs jobs, no worker"
    run grep -v -e "^xcp: 'src': [0-9]* jobs\$" -e "^xcp: 'src': .* descriptors free" \
      -e "^xcp: '.*' -> '.*': engine " <<<"$stderr"
    assert_output ""
    assert_same_tree src dst
    rm -rf dst
  done
}

# --- the option ---------------------------------------------------------------

@test "xcp -j: 0, not a number, over 256, empty: usage errors; --debug names the jobs" {
  mkdir -p src/sub
  local i
  for ((i = 0; i < 20; i++)); do
    echo "$i" >"src/sub/f$i"
  done
  local arg
  for arg in "-j 0" "-j x" "-j 257" "--jobs=" "--jobs=0" "-j -1" "-j 1.5"; do
    # shellcheck disable=SC2086 # the option and its argument, split
    run --separate-stderr xcp -r $arg src dst
    [[ $status -eq 2 ]] || fail "xcp -r $arg: status $status, not 2"
    assert_output ""
    assert_err --regexp "^xcp: .*jobs"
    assert_err --partial "Try 'xcp --help' for more information."
    assert_not_exist dst
  done
  # The serial path says 1 job; -j 256 is the most; --jobs=N is -j N.
  local row opt want
  for row in "-j1 1" "--jobs=1 1" "--jobs=3 3" "-j 256 256"; do
    opt=${row% *} want=${row##* }
    # shellcheck disable=SC2086 # the option and its argument, split
    run --separate-stderr xcp -r --debug $opt src dst
    assert_success
    assert_equal "$(jobs_line "$stderr" src)" "$want"
    assert_same src/sub/f19 dst/sub/f19
    rm -rf dst
  done
  # The default: a worker per online CPU.
  run --separate-stderr xcp -r --debug src dst
  assert_success
  assert_equal "$(jobs_line "$stderr" src)" "$(getconf _NPROCESSORS_ONLN)"
  rm -rf dst
  # -i asks one question at a time: serial whatever -j says.
  run --separate-stderr xcp -r -i -j 4 --debug src dst </dev/null
  assert_success
  assert_equal "$(jobs_line "$stderr" src)" 1
  # Only trees have jobs: no line for a file.
  run --separate-stderr xcp -j 4 --debug src/sub/f1 f1
  assert_success
  refute_err --partial " jobs"
  run --separate-stderr xcp --help
  assert_output --partial -- "--jobs"
}
