#!/usr/bin/env bats
# rmtree.bats -- rmtree from the outside: trees of every shape, the
# messages and exit statuses, what strace shows, and races against a
# process that keeps changing the tree.
#
# Big trees are built by the C helper tests/helpers/rmtree-race (a shell
# loop of mkdir would take minutes), on a tmpfs mounted for the test when
# running as root: creating files is fast there whatever the disk is.

load test_helper

setup() {
  nc_setup
  HELPER="${NC_BUILDDIR:-$NC_BINDIR/..}/tests/helpers/rmtree-race"
}

teardown() {
  local m
  cd "$BATS_TEST_TMPDIR" || return 1
  # chattr +i files first: rm -rf of the test directory must work.
  if [[ -n ${IMMUTABLE:-} ]]; then
    chattr -i "$IMMUTABLE" 2>/dev/null || true
  fi
  # Mounts made by the tests, innermost first.
  for m in "$BATS_TEST_TMPDIR"/fs/t/mnt "$BATS_TEST_TMPDIR"/fs/root \
    "$BATS_TEST_TMPDIR"/merged "$BATS_TEST_TMPDIR"/e4 \
    "$BATS_TEST_TMPDIR"/fs; do
    if mountpoint -q "$m" 2>/dev/null; then
      umount "$m" || umount -l "$m"
    fi
  done
}

helper() {
  "$HELPER" "$@"
}

# count_entries DIR: entries below DIR, DIR included (find handles any
# depth).
count_entries() {
  find "$1" | wc -l
}

# --- trees of every shape ------------------------------------------------

# bats test_tags=arch
@test "rmtree: an empty directory" {
  mkdir d
  run --separate-stderr rmtree d
  assert_success
  assert_output ""
  assert_err ""
  assert_not_exist d
}

@test "rmtree: a single file operand" {
  echo data >f
  run --separate-stderr rmtree f
  assert_success
  assert_err ""
  assert_not_exist f
}

# bats test_tags=arch
@test "rmtree: a symlink operand: the link goes, its target stays" {
  mkdir target
  echo keep >target/file
  ln -s target link
  run --separate-stderr rmtree link
  assert_success
  assert_err ""
  assert_not_exist link
  assert_file_exist target/file
}

# POSIX resolves a trailing slash: LINK/ is the directory. rm -r empties
# it, then fails to remove LINK/ (ENOTDIR), and rm -rf says nothing.
@test "rmtree: LINK/ empties the directory and keeps the link, as rm -r" {
  mkdir -p target/sub outside
  touch target/f target/sub/g
  echo keep >outside/file
  # Below the operand, links are still not followed.
  ln -s ../outside target/out
  ln -s target link
  ln -s link link2
  # -n says what the real run says, and removes nothing.
  run --separate-stderr rmtree -n link/
  assert_failure 1
  assert_err "rmtree: cannot remove 'link/': Not a directory"
  assert_line "would remove 'link/sub/g'"
  assert_line "would remove directory 'link/sub'"
  refute_line --partial "would remove directory 'link/'"
  [[ ${#lines[@]} -eq 4 ]] || fail "${#lines[@]} lines"
  assert_file_exist target/sub/g
  run --separate-stderr rmtree -v link//
  assert_failure 1
  assert_err "rmtree: cannot remove 'link/': Not a directory"
  assert_line "removed 'link/f'"
  assert_line "removed 'link/out'"
  assert_line "removed 'link/sub/g'"
  assert_line "removed directory 'link/sub'"
  [[ ${#lines[@]} -eq 4 ]] || fail "${#lines[@]} lines"
  assert_link_exist link
  assert_dir_exist target
  [[ -z $(ls -A target) ]] || fail "target is not empty: $(ls -A target)"
  assert_file_exist outside/file
  # -f: the link stays, silently; a link to a link works the same.
  touch target/h
  run --separate-stderr rmtree -f link2/
  assert_success
  assert_output ""
  assert_err ""
  assert_link_exist link2
  assert_link_exist link
  assert_not_exist target/h
  assert_dir_exist target
}

# NAME/ where NAME is no directory: ENOTDIR (the kernel's word for
# unlinkat of NAME/), even for a dangling link or a loop; nothing goes.
@test "rmtree: NAME/ that is not a directory is refused, not removed" {
  touch f
  ln -s f flink
  ln -s nowhere dangling
  ln -s loop loop
  run --separate-stderr rmtree f/ flink/ dangling// loop/
  assert_failure 1
  assert_output ""
  assert_err - <<'EOF'
rmtree: cannot remove 'f/': Not a directory
rmtree: cannot remove 'flink/': Not a directory
rmtree: cannot remove 'dangling/': Not a directory
rmtree: cannot remove 'loop/': Not a directory
EOF
  run --separate-stderr rmtree -f f/ flink/ dangling// loop/ nope/
  assert_success
  assert_err ""
  assert_file_exist f
  assert_link_exist flink
  assert_link_exist dangling
  assert_link_exist loop
  run --separate-stderr rmtree nope/
  assert_failure 1
  assert_err "rmtree: cannot remove 'nope/': No such file or directory"
}

# Shown as rm shows them: two or more trailing slashes made one.
@test "rmtree: trailing slashes and a path of several components" {
  mkdir -p a/b/c/d
  touch a/b/c/d/f
  run --separate-stderr rmtree -v a/b/c//
  assert_success
  assert_err ""
  assert_output - <<'EOF'
removed 'a/b/c/d/f'
removed directory 'a/b/c/d'
removed directory 'a/b/c/'
EOF
  assert_dir_exist a/b
  assert_not_exist a/b/c
  run --separate-stderr rmtree -v a///
  assert_success
  assert_err ""
  assert_output - <<'EOF'
removed directory 'a/b'
removed directory 'a/'
EOF
  assert_not_exist a
}

# bats test_tags=arch
@test "rmtree: FIFOs, sockets, dangling and outward symlinks" {
  require_cmd python3
  mkdir -p t/sub outside
  echo keep >outside/file
  mkfifo t/fifo t/sub/fifo
  python3 -c 'import socket, sys
for p in sys.argv[1:]:
    socket.socket(socket.AF_UNIX).bind(p)' t/sock t/sub/sock
  ln -s nowhere t/dangling
  ln -s ../outside t/out
  ln -s "$PWD/outside" t/sub/out-abs
  touch t/sub/file
  [[ -p t/fifo && -S t/sock ]] || fail "could not make the FIFO or socket"
  # A FIFO opened for reading would block: timeout catches that.
  run --separate-stderr timeout 10 rmtree t
  assert_success
  assert_err ""
  assert_not_exist t
  assert_file_exist outside/file
}

@test "rmtree: read-only directories (root can still remove them)" {
  require_root
  mkdir -p t/a/b
  touch t/a/f t/a/b/g
  chmod 0555 t/a/b t/a
  chmod 0444 t/a/f
  chmod 0000 t
  run --separate-stderr rmtree t
  assert_success
  assert_err ""
  assert_not_exist t
}

@test "rmtree: deep tree, 20000 levels (beyond PATH_MAX), under ulimit -n 32" {
  require_helper "$HELPER"
  use_tmpfs 2g
  helper deep deep 20000 2
  # Sanity: the tree is as deep as claimed (40 001 bytes of path).
  [[ $(count_entries deep) -eq $((20000 + 1 + 20001 * 2)) ]] \
    || fail "the helper did not build the tree"
  run --separate-stderr bash -c 'ulimit -n 32 && exec rmtree deep'
  assert_success
  assert_err ""
  assert_not_exist deep
}

# bats test_tags=arch
@test "rmtree: deep tree removed with only 3 descriptors to spare" {
  require_helper "$HELPER"
  use_tmpfs 2g
  helper deep deep 2000 1
  # 0, 1, 2 and 3 more (bats' own descriptors closed): the walk holds
  # fewer ancestors and goes up by "..".
  run --separate-stderr bash -c 'ulimit -n 6 && exec rmtree deep 3>&- 4>&- 5>&-'
  assert_success
  assert_err ""
  assert_not_exist deep
}

# bats test_tags=arch
@test "rmtree: wide directory, 100000 entries (tmpfs)" {
  require_helper "$HELPER"
  use_tmpfs 2g
  helper wide wide 100000
  run --separate-stderr rmtree wide
  assert_success
  assert_err ""
  assert_not_exist wide
}

@test "rmtree: wide directory, 100000 entries (ext4 on a loop device)" {
  require_root
  require_helper "$HELPER"
  require_cmd mkfs.ext4 losetup
  use_tmpfs 2g
  truncate -s 400M ext4.img
  mkfs.ext4 -q -F -N 120000 ext4.img || skip "mkfs.ext4 failed"
  mkdir "$BATS_TEST_TMPDIR/e4"
  mount -o loop ext4.img "$BATS_TEST_TMPDIR/e4" || skip "cannot mount a loop device"
  cd "$BATS_TEST_TMPDIR/e4" || fail
  helper wide wide 100000
  run --separate-stderr rmtree wide
  assert_success
  assert_err ""
  assert_not_exist wide
}

@test "rmtree: bushy tree, -v lists every entry once" {
  require_helper "$HELPER"
  use_tmpfs 2g
  helper bushy bushy 400 10
  local n
  n=$(count_entries bushy)
  run --separate-stderr rmtree -v bushy
  assert_success
  assert_err ""
  [[ ${#lines[@]} -eq $n ]] || fail "${#lines[@]} lines for $n entries"
  [[ $(printf '%s\n' "${lines[@]}" | sort -u | wc -l) -eq $n ]] \
    || fail "an entry was listed twice"
  assert_line "removed directory 'bushy'"
  assert_line "removed 'bushy/d1/d9/f3'"
  assert_not_exist bushy
}

# --- errors ----------------------------------------------------------------

# bats test_tags=arch
@test "rmtree: an immutable file is reported, its ancestors left, the rest removed" {
  require_root
  require_cmd chattr
  mkdir -p t/a/b t/c
  touch t/a/b/keep t/a/b/other t/a/x t/c/y
  chattr +i t/a/b/keep 2>/dev/null || skip "chattr +i not supported here"
  IMMUTABLE=$PWD/t/a/b/keep
  run --separate-stderr rmtree t
  assert_failure 1
  assert_output ""
  assert_err "rmtree: cannot remove 't/a/b/keep': Operation not permitted"
  assert_file_exist t/a/b/keep
  assert_not_exist t/a/b/other
  assert_not_exist t/a/x
  assert_not_exist t/c
  # -f does not hide it.
  run --separate-stderr rmtree -f t
  assert_failure 1
  assert_err "rmtree: cannot remove 't/a/b/keep': Operation not permitted"
  chattr -i t/a/b/keep
  run rmtree t
  assert_success
  assert_not_exist t
}

@test "rmtree: a file in an unwritable directory (as uid 65534)" {
  require_nobody
  mkdir -m 0755 box
  mkdir -p box/a/b box/a/c
  touch box/a/b/file box/a/c/file box/a/top
  chown -R 65534:65534 box/a
  chmod 0555 box/a/b
  cd box
  run --separate-stderr as_nobody rmtree a
  assert_failure 1
  assert_output ""
  assert_err "rmtree: cannot remove 'a/b/file': Permission denied"
  assert_file_exist a/b/file
  assert_not_exist a/c
  assert_not_exist a/top
}

@test "rmtree: an unreadable empty directory is still removed (as uid 65534)" {
  require_nobody
  mkdir -m 0755 box
  mkdir -p box/a/locked box/solo
  chown -R 65534:65534 box
  chmod 0300 box/a/locked box/solo
  cd box
  run --separate-stderr as_nobody rmtree a solo
  assert_success
  assert_err ""
  assert_not_exist a
  assert_not_exist solo
}

# bats test_tags=arch
@test "rmtree: a missing operand: exit 1, or 0 with -f" {
  touch there
  run --separate-stderr rmtree nope there
  assert_failure 1
  assert_output ""
  assert_err "rmtree: cannot remove 'nope': No such file or directory"
  assert_not_exist there
  run --separate-stderr rmtree -f nope nope/deeper there/x
  assert_success
  assert_err ""
  run --separate-stderr rmtree missing/x
  assert_failure 1
  assert_err "rmtree: cannot remove 'missing/x': No such file or directory"
}

@test "rmtree: no operand: usage error, or nothing to do with -f" {
  run --separate-stderr rmtree
  assert_failure 2
  assert_err - <<'EOF'
rmtree: missing operand
Try 'rmtree --help' for more information.
EOF
  run --separate-stderr rmtree -f
  assert_success
  assert_err ""
  run --separate-stderr rmtree --bogus d
  assert_failure 2
}

@test "rmtree: '.' and '..' are refused, the other operands removed" {
  mkdir -p d/e keep
  touch f
  run --separate-stderr rmtree . d/e/.. d/. f ..
  assert_failure 1
  assert_err - <<'EOF'
rmtree: refusing to remove '.' or '..' directory: skipping '.'
rmtree: refusing to remove '.' or '..' directory: skipping 'd/e/..'
rmtree: refusing to remove '.' or '..' directory: skipping 'd/.'
rmtree: refusing to remove '.' or '..' directory: skipping '..'
EOF
  assert_dir_exist d/e
  assert_dir_exist keep
  assert_not_exist f
}

# The real "/" is only ever given with -n: were the check broken, -n
# would list the system, not remove it.
@test "rmtree: '/' is refused" {
  run --separate-stderr timeout 20 rmtree -n /
  assert_failure 1
  assert_output ""
  assert_err - <<'EOF'
rmtree: it is dangerous to operate recursively on '/'
rmtree: use --no-preserve-root to override this failsafe
EOF
  # As rm shows them: '//' stays, '///' is '/'.
  run --separate-stderr timeout 20 rmtree -n --preserve-root // ///
  assert_failure 1
  assert_output ""
  assert_err - <<'EOF'
rmtree: it is dangerous to operate recursively on '//' (same as '/')
rmtree: use --no-preserve-root to override this failsafe
rmtree: it is dangerous to operate recursively on '/'
rmtree: use --no-preserve-root to override this failsafe
EOF
}

# LINK/ resolves to '/': refused before anything is listed.  Only with
# -n: were the check broken, -n would list the system, not remove it.
@test "rmtree: a link to '/' with a trailing slash is refused (dry run)" {
  ln -s / rootlink
  ln -s rootlink rootlink2
  run --separate-stderr timeout 20 rmtree -n rootlink/ rootlink2//
  assert_failure 1
  assert_output ""
  assert_err - <<'EOF'
rmtree: it is dangerous to operate recursively on 'rootlink/' (same as '/')
rmtree: use --no-preserve-root to override this failsafe
rmtree: it is dangerous to operate recursively on 'rootlink2/' (same as '/')
rmtree: use --no-preserve-root to override this failsafe
EOF
  assert_link_exist rootlink
  assert_link_exist rootlink2
}

# The same for real, where it can do no harm: chrooted into a tmpfs of
# a private mount namespace, with /usr, the tools and /proc (for the
# sanitizers) mounted read-only.  Were the refusal broken, the tmpfs
# would be emptied, and the rest would fail with EROFS.
@test "rmtree: a link to '/' with a trailing slash is refused (chroot on a tmpfs)" {
  require_root
  skip_under_qemu "the chroot has no qemu"
  require_cmd unshare chroot
  mkdir jail
  cat >jail.sh <<'EOF'
set -e
mount --make-rprivate /
mount -t tmpfs rmtree-jail jail || { echo "cannot mount a tmpfs"; exit 77; }
cd jail
mkdir usr nc proc tmp
ro_bind() {
  mount --bind "$1" "$2" && mount -o remount,bind,ro "$2" \
    || { echo "cannot bind-mount $1 read-only"; exit 77; }
}
ro_bind /usr usr
ro_bind "$NC_BINDIR" nc
mount -t proc -o ro rmtree-proc proc || { echo "cannot mount /proc"; exit 77; }
for d in bin sbin lib lib32 lib64 libx32; do
  if [[ -L /$d ]]; then
    ln -s "$(readlink "/$d")" "$d"
  elif [[ -d /$d ]]; then
    mkdir "$d"
    ro_bind "/$d" "$d"
  fi
done
# access(2) says EROFS on a read-only mount, even to root.
for d in usr nc proc; do
  [[ ! -w $d ]] || { echo "$d is not read-only"; exit 77; }
done
touch canary
ln -s / tmp/rootlink
ln -s /tmp/rootlink tmp/rootlink2
ret=0
chroot . /nc/rmtree /tmp/rootlink/ /tmp/rootlink2// || ret=$?
echo "exit $ret"
ls -A . tmp
EOF
  run --separate-stderr unshare -m bash jail.sh
  [[ $status -ne 77 ]] || skip "$output"
  assert_success
  assert_err - <<'EOF'
rmtree: it is dangerous to operate recursively on '/tmp/rootlink/' (same as '/')
rmtree: use --no-preserve-root to override this failsafe
rmtree: it is dangerous to operate recursively on '/tmp/rootlink2/' (same as '/')
rmtree: use --no-preserve-root to override this failsafe
EOF
  assert_line --index 0 "exit 1"
  assert_line canary
  assert_line rootlink
  assert_line rootlink2
}

@test "rmtree: '/' under another name is refused too" {
  require_root
  mkdir -p fs/root
  mount --bind / fs/root || skip "cannot bind-mount /"
  run --separate-stderr timeout 20 rmtree -n fs/root
  assert_failure 1
  assert_output ""
  assert_err - <<'EOF'
rmtree: it is dangerous to operate recursively on 'fs/root' (same as '/')
rmtree: use --no-preserve-root to override this failsafe
EOF
}

@test "rmtree: --dry-run lists in removal order and removes nothing" {
  mkdir -p d/sub
  touch d/sub/f
  ln -s /etc d/sub/l
  run --separate-stderr rmtree -n d
  assert_success
  assert_err ""
  # Within a directory the order is the file system's.
  assert_line --index 2 "would remove directory 'd/sub'"
  assert_line --index 3 "would remove directory 'd'"
  assert_line "would remove 'd/sub/f'"
  assert_line "would remove 'd/sub/l'"
  [[ ${#lines[@]} -eq 4 ]] || fail "${#lines[@]} lines"
  assert_file_exist d/sub/f
  assert_link_exist d/sub/l
  # --dry-run of a missing file fails the same way.
  run --separate-stderr rmtree --dry-run nope
  assert_failure 1
  assert_err "rmtree: cannot remove 'nope': No such file or directory"
}

@test "rmtree: --verbose lists what was removed" {
  mkdir -p d/sub
  touch d/sub/f
  run --separate-stderr rmtree --verbose d
  assert_success
  assert_err ""
  assert_output - <<'EOF'
removed 'd/sub/f'
removed directory 'd/sub'
removed directory 'd'
EOF
  assert_not_exist d
}

@test "rmtree: --progress: a line with the count on standard error" {
  mkdir -p d/sub
  touch d/a d/sub/b
  run --separate-stderr rmtree --progress d
  assert_success
  assert_output ""
  assert_err --regexp '^rmtree: 4 removed, [0-9]+\.[0-9] s, [0-9.]+[kKMGTPE]?/s$'
  # Not on a pipe by default.
  mkdir d
  run --separate-stderr rmtree d
  assert_err ""
}

@test "rmtree: silent on success on a terminal, as rm" {
  require_terminal
  mkdir -p d/sub
  touch d/f
  on_terminal "rmtree d"
  assert_success
  assert_output ""
  assert_not_exist d
  # A failure is told all the same.
  on_terminal "rmtree d"
  assert_failure 1
  assert_output --partial "rmtree: cannot remove 'd': No such file or directory"
  # -v lists, with no progress line.
  mkdir d
  on_terminal "rmtree -v d"
  assert_success
  assert_output $'removed directory \'d\'\r'
}

# slow_removal OPTION...: rmtree OPTION... d on a terminal, with d a tree
# of 200 files each removed 10 ms late (strace), so that it takes more than
# 2 s; its output (the terminal's) in $output, the trace with times in
# ./log.
slow_removal() {
  require_terminal
  require_strace
  mkdir d
  local i
  for ((i = 0; i < 200; i++)); do
    : >"d/f$i"
  done
  traced_on_terminal "strace -o log -ttt -e trace=execve,unlinkat,write \
    -e inject=unlinkat:delay_enter=10000 rmtree $* d"
  assert_success
  assert_not_exist d
}

# first_line_after: the seconds from rmtree's start to its first progress
# line, from ./log.
first_line_after() {
  awk '/ execve\(/ && !t0 { t0 = $1 }
       / write\(2, "\\r/ && !t1 { t1 = $1 }
       END { if (t0 && t1) printf "%.3f\n", t1 - t0; else print "none" }' log
}

@test "rmtree: a slow removal on a terminal: a progress line after 1 s, erased at the end" {
  slow_removal
  # The line is drawn in place (\r ... \e[K), at least once: at the
  # 128th file, more than 1.28 s in.
  assert_output --regexp $'\rrmtree: [0-9]+ removed, [0-9]+\\.[0-9] s, [0-9.]+[kKMGTPE]?/s\e\\[K'
  # Not before a second of work.
  local after
  after=$(first_line_after)
  [[ $after != none ]] && awk -v t="$after" 'BEGIN { exit !(t >= 1) }' \
    || fail "first progress line after $after s"
  # Erased at the end, and nothing else: no line stays.
  [[ $output == *$'\r\e[K' ]] || fail "the line is not erased: $(printf %q "$output")"
  [[ $output != *$'\n'* ]] || fail "a line stays: $(printf %q "$output")"
}

@test "rmtree --progress on a terminal: the line, then the totals stay" {
  slow_removal --progress
  assert_output --regexp $'/s\e\\[K\rrmtree: 201 removed, [0-9]+\\.[0-9] s, [0-9.]+[kKMGTPE]?/s\e\\[K\r$'
  # A quick one: no line during it, the totals at the end.
  mkdir d
  on_terminal "rmtree --progress d"
  assert_success
  assert_output --regexp $'^\rrmtree: 1 removed, [0-9]+\\.[0-9] s, [0-9.]+[kKMGTPE]?/s\e\\[K\r$'
}

@test "rmtree: standard output full: -v fails" {
  [[ -w /dev/full ]] || skip "no /dev/full"
  mkdir d
  run --separate-stderr stdout_to /dev/full rmtree -v d
  assert_failure 1
  assert_err --partial "rmtree: write error"
}

# --- other file systems ------------------------------------------------------

# bats test_tags=arch
@test "rmtree -x: a tmpfs mounted inside is skipped and reported, and survives" {
  require_root
  mkdir -p fs/t/mnt fs/t/a
  touch fs/t/a/f fs/t/g
  mount -t tmpfs rmtree-x fs/t/mnt || skip "cannot mount a tmpfs"
  mkdir fs/t/mnt/inside
  echo keep >fs/t/mnt/inside/file
  cd fs
  run --separate-stderr rmtree -x t
  assert_failure 1
  assert_output ""
  assert_err "rmtree: skipping 't/mnt', since it's on a different device"
  assert_file_exist t/mnt/inside/file
  assert_not_exist t/a
  assert_not_exist t/g
  mountpoint -q t/mnt || fail "the mount is gone"
}

# rm -x compares devices only; rmtree skips a bind mount too, in words
# of its own.
@test "rmtree -x: a bind mount of the same file system is skipped, and said so" {
  require_root
  use_tmpfs 2g
  mkdir -p src t/mnt t/a
  touch src/keep t/a/f
  mount --bind src t/mnt || skip "cannot bind-mount"
  run --separate-stderr rmtree -x t
  assert_failure 1
  assert_output ""
  assert_err "rmtree: skipping 't/mnt', since it's a mount point"
  assert_file_exist src/keep
  assert_not_exist t/a
}

@test "rmtree without -x: a mount point is emptied, and busy" {
  require_root
  mkdir -p fs/t/mnt
  mount -t tmpfs rmtree-x fs/t/mnt || skip "cannot mount a tmpfs"
  touch fs/t/mnt/file
  cd fs
  run --separate-stderr rmtree t
  assert_failure 1
  assert_err "rmtree: cannot remove 't/mnt': Device or resource busy"
  assert_not_exist t/mnt/file
}

# bats test_tags=arch
@test "rmtree: overlayfs over two file systems (d_ino is not st_ino there)" {
  require_root
  mkdir -p lower/t/a/b merged
  touch lower/t/a/b/f lower/t/g
  use_tmpfs 2g
  mkdir upper work
  cd .. || fail
  mount -t overlay rmtree-ovl \
    -o "lowerdir=$PWD/lower,upperdir=$PWD/fs/upper,workdir=$PWD/fs/work" \
    merged || skip "cannot mount an overlay"
  mkdir -p merged/t/new/x merged/t/a/new
  touch merged/t/new/x/y
  run --separate-stderr rmtree merged/t
  umount merged
  assert_success
  assert_err ""
}

# --- the system calls ------------------------------------------------------

@test "rmtree: strace shows openat/getdents64/unlinkat on names, nothing by path" {
  require_strace
  mkdir -p t/sub/deeper
  touch t/f t/sub/g t/sub/deeper/h
  ln -s /etc t/lnk
  ln -s sub t/sublink
  run strace -f -o trace.log -e trace=%file,getdents64 rmtree t
  assert_success
  assert_not_exist t
  # Every call that names an entry of the tree (a relative path) must be
  # openat, unlinkat or statx on one component, relative to a descriptor;
  # only the operand itself is relative to the working directory.
  run awk '
    { sub(/^[0-9]+ +/, "") }
    match($0, /^[a-z0-9_]+\(/) {
      call = substr($0, 1, RLENGTH - 1)
      if (!match($0, /"[^"]*"/)) next
      path = substr($0, RSTART + 1, RLENGTH - 2)
      if (path == "" || substr(path, 1, 1) == "/") next
      split(substr($0, length(call) + 2), a, /, /)
      ok = (call == "openat" || call == "unlinkat" || call == "statx") \
        && index(path, "/") == 0 \
        && (a[1] ~ /^[0-9]+$/ || (a[1] == "AT_FDCWD" && path == "t"))
      if (call == "openat" && ok && path != "t" \
          && !($0 ~ /O_NOFOLLOW/ && $0 ~ /O_DIRECTORY/))
        ok = 0
      if (!ok) print "path-based: " $0
    }' trace.log
  assert_success
  assert_output ""
  # No path-based removal or stat at all, with any path.
  run grep -E '^[0-9]+ +(unlink|rmdir|stat|lstat|stat64|lstat64|newfstatat|fstatat64)\("[^"]' trace.log
  assert_failure
  # The directories were read with getdents64, each once (its end is
  # not read: its removal tells), and opened by name, the links never.
  [[ $(strace_count trace.log getdents64) -ge 3 ]] || fail "no getdents64"
  run grep -E '^[0-9]+ +openat\([0-9]+, "(sub|deeper)", [A-Z_|]+\) = [0-9]+$' trace.log
  assert_success
  [[ ${#lines[@]} -eq 2 ]] || fail "sub and deeper opened ${#lines[@]} times"
  assert_line --index 0 --regexp 'O_RDONLY\|.*O_NOFOLLOW\|.*O_DIRECTORY'
  assert_line --index 1 --regexp 'O_RDONLY\|.*O_NOFOLLOW\|.*O_DIRECTORY'
  run grep -E 'openat\([0-9]+, "(lnk|sublink)"' trace.log
  assert_failure
  # Nine removals: the files and links by unlinkat(fd, name, 0), the
  # directories by unlinkat(fd, name, AT_REMOVEDIR), t last.
  run grep -cE '^[0-9]+ +unlinkat\([0-9]+, "[a-z]+", (0|AT_REMOVEDIR)\) += 0$' trace.log
  assert_output 7
  run grep -E '^[0-9]+ +unlinkat\(' trace.log
  assert_line --index 6 --regexp 'unlinkat\([0-9]+, "sub", AT_REMOVEDIR\) += 0$'
  assert_line --index 7 --regexp 'unlinkat\(AT_FDCWD, "t", AT_REMOVEDIR\) += 0$'
}

@test "rmtree: a directory of 300 subdirectories is read once, not again after each" {
  require_strace
  mkdir t
  for i in $(seq 300); do mkdir "t/d$i"; touch "t/d$i/f" "t/f$i"; done
  run strace -o trace.log -e trace=getdents64,lseek rmtree t
  assert_success
  assert_not_exist t
  # One reading of each of the 301 directories (the entries: the end is
  # not read, the removal tells), none of them again: the rest of t's
  # listing is kept while its subdirectories are read.
  run grep -c '^lseek' trace.log
  assert_output 0
  run grep -c '^getdents64' trace.log
  assert_output 301
}

@test "rmtree: an operand with a directory part: opened once, then relative" {
  require_strace
  mkdir -p a/b/t/sub
  touch a/b/t/sub/f
  run strace -f -o trace.log -e trace=openat,unlinkat rmtree a/b/t
  assert_success
  run grep -E '"a/b' trace.log
  assert_output --regexp '^[0-9]+ +openat\(AT_FDCWD, "a/b", [A-Z_|]*O_PATH[A-Z_|]*\) = [0-9]+$'
  [[ ${#lines[@]} -eq 1 ]] || fail "a/b named ${#lines[@]} times"
  assert_dir_exist a/b
}

# --- races -------------------------------------------------------------

# race RACE: rmtree tree, 150 times, while tests/helpers/rmtree-race RACE
# keeps changing the tree: every round done, the tree changed during some,
# no abnormal exit.  Under qemu: the same calls each round, and qemu's start
# alone leaves the helper room for many changes a round; 40 rounds
# suffice.
race() {
  require_helper "$HELPER"
  use_tmpfs 2g
  local n=150
  if [[ -n ${NC_QEMU-} ]]; then n=40; fi
  run helper "$1" "$n" tree "$PWD/outside" rmtree tree
  assert_success
  assert_output --regexp "^$n rounds, [1-9][0-9]* changes while the command ran, 0 abnormal exits\$"
}

@test "rmtree: race: directories swapped for symlinks to the outside, 150 rounds" {
  race symlink
  assert_file_exist outside/f0
}

@test "rmtree: race: a deep directory moved out of the tree and back, 150 rounds" {
  race move
}

# The races above can fail: a remover that follows the paths loses the
# outside files.
@test "rmtree: race: the symlink race catches a path-based remover" {
  require_helper "$HELPER"
  use_tmpfs 2g
  run helper symlink 300 tree "$PWD/outside" "$HELPER" pathrm tree
  assert_failure 1
  assert_output --regexp '^round [0-9]+: [0-9]+ files of .*outside missing$'
}
