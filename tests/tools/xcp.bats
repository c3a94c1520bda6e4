#!/usr/bin/env bats
# xcp.bats -- xcp from the outside: byte-identical copies by every engine,
# the fallbacks when the kernel refuses a call (tests/helpers/enosys-exec), holes,
# -a on every kind of file, what strace shows, the refusals, and the
# safety promise: after ENOSPC or a signal in the middle of a copy the
# destination holds its old content or the whole new one, and no
# temporary file is left in sight.
#
# Copies are made on a tmpfs mounted for the test when running as root
# (creating and reading files is fast there whatever the disk is); the
# reflink and cross-file-system tests mount loop images on it.

load test_helper
# make_tree, the xcp wrapper and the other helpers xcp-jobs.bats shares.
load xcp_helper

MIB=$((1024 * 1024))
GIB=$((1024 * MIB))

setup() {
  nc_setup
  local builddir="${NC_BUILDDIR:-$NC_BINDIR/..}"
  # Under qemu-user, a build of it for the machine that runs qemu (see
  # arch/check-arches).
  ENOSYS_EXEC="${NC_ENOSYS_EXEC:-$builddir/tests/helpers/enosys-exec}"
  TREE_HELPER="$builddir/tests/helpers/rmtree-race"
  # The same for the fanotify helper: qemu-user has no fanotify, the
  # host's kernel holds qemu's reads as it would the tool's.
  CHANGE_HELPER="${NC_CHANGE_ON_READ:-$builddir/tests/helpers/change-on-read}"
  BG_PID=
}

teardown() {
  local m p
  # A background strace and xcp that a failed test left running.
  if [[ -n $BG_PID ]]; then
    for p in $(descendants "$BG_PID") "$BG_PID"; do
      kill -KILL "$p" 2>/dev/null || true
    done
    wait "$BG_PID" 2>/dev/null || true
  fi
  cd "$BATS_TEST_TMPDIR" || return 1
  # Mounts made by the tests, innermost first (the loop devices go with
  # their mounts: mount -o loop sets autoclear).
  for m in "$BATS_TEST_TMPDIR"/fs/ref "$BATS_TEST_TMPDIR"/fs/e4 \
    "$BATS_TEST_TMPDIR"/fs "$BATS_TEST_TMPDIR"/mnt; do
    if mountpoint -q "$m" 2>/dev/null; then
      umount "$m" || umount -l "$m"
    fi
  done
}

# The 1 GiB source of the signal tests, made once for the file, on a
# tmpfs of its own (as root): $BIG.
BIG=$BATS_FILE_TMPDIR/big/big
shared_big() {
  [[ -e $BIG ]] && return
  mkdir -p "${BIG%/*}"
  mount -t tmpfs -o size=1100m xcp-big "${BIG%/*}" || fail "cannot mount a tmpfs"
  make_big "$BIG" 1024
}

teardown_file() {
  if mountpoint -q "${BIG%/*}" 2>/dev/null; then
    umount "${BIG%/*}"
  fi
}

require_enosys_exec() {
  require_helper "$ENOSYS_EXEC"
  # xcp itself as the probe: the filter kills a program of another
  # architecture than the build's (a 64-bit true under an -m32 build).
  "$ENOSYS_EXEC" splice "$NC_BINDIR/xcp" --version >/dev/null 2>&1 \
    || skip "seccomp filters cannot be installed here"
}

# tests/helpers/change-on-read must be built, and fanotify permission events
# allowed (as root, CONFIG_FANOTIFY_ACCESS_PERMISSIONS; under qemu-user,
# which does not emulate fanotify, only with a build for the host in
# NC_CHANGE_ON_READ).
require_change_helper() {
  require_helper "$CHANGE_HELPER"
  local status=0
  echo probe >probe
  "$CHANGE_HELPER" probe 1 write 0 cat probe >/dev/null 2>&1 || status=$?
  rm -f probe
  [[ $status -ne 77 ]] || skip "no fanotify permission events here${NC_QEMU:+ (under $NC_QEMU)}"
  [[ $status -eq 0 ]] || fail "$CHANGE_HELPER probe 1 write 0 cat probe: status $status"
}

# changed_on_read N ACTION BYTES [XCP OPTION]...: xcp OPTION... src dst
# with src changed at its Nth read (tests/helpers/change-on-read), which must be
# reported, exit 1 and leave dst as it was (its content in $OLD, or
# absent with OLD empty) and no other file in the directory.
changed_on_read() {
  local n=$1 action=$2 bytes=$3
  shift 3
  run --separate-stderr "$CHANGE_HELPER" src "$n" "$action" "$bytes" \
    "$NC_BINDIR/xcp" "$@" src dst
  assert_failure 1
  # With --progress, the last progress line follows.
  # shellcheck disable=SC2154 # set by run --separate-stderr.
  assert_equal "${stderr_lines[0]}" "xcp: 'src': file changed as we read it"
  [[ ${#stderr_lines[@]} -eq 1 || " $* " == *" --progress "* ]] \
    || fail "more messages: $stderr"
  if [[ -n ${OLD:-} ]]; then
    assert_equal "$(cat dst)" "$OLD"
    assert_equal "$(ls -A)" "$(printf '%s\n' dst src)"
  else
    assert_equal "$(ls -A)" src
  fi
}

# enosys CALLS CMD...: CMD with the CALLS failing (see tests/helpers/enosys-exec.c).
enosys() {
  "$ENOSYS_EXEC" "$@"
}

# mount_reflink DIR: a file system with reflinks (FICLONE), btrfs or XFS
# on a loop device, mounted on DIR (created), as root; skip otherwise.
# cp --reflink=always checks independently that cloning works there.
mount_reflink() {
  require_root
  require_cmd losetup
  truncate -s 512M "$1.img"
  if command -v mkfs.btrfs >/dev/null 2>&1; then
    mkfs.btrfs -q -f "$1.img" >/dev/null 2>&1 || skip "mkfs.btrfs failed"
  elif command -v mkfs.xfs >/dev/null 2>&1; then
    mkfs.xfs -q -f -m reflink=1 "$1.img" || skip "mkfs.xfs -m reflink=1 failed"
  else
    skip "no mkfs.btrfs or mkfs.xfs for a file system with reflinks" \
      "(apt-get install btrfs-progs or xfsprogs)"
  fi
  mkdir "$1"
  mount -o loop "$1.img" "$1" || skip "cannot mount a btrfs/XFS loop image"
  echo probe >"$1/.probe"
  cp --reflink=always "$1/.probe" "$1/.probe2" 2>/dev/null \
    || skip "FICLONE does not work on the btrfs/XFS image"
  rm -f "$1/.probe" "$1/.probe2"
}

# make_sparse FILE: 1 GiB, with 1 MiB of random data in two pieces (at
# 100 MiB and at 700 MiB); the rest is holes.
make_sparse() {
  truncate -s 1G "$1"
  head -c $((512 * 1024)) /dev/urandom |
    dd of="$1" bs=64K seek=1600 conv=notrunc iflag=fullblock status=none
  head -c $((512 * 1024)) /dev/urandom |
    dd of="$1" bs=64K seek=11200 conv=notrunc iflag=fullblock status=none
  assert_size "$1" "$GIB"
  [[ $(du_k "$1") -lt 2048 ]] || skip "no sparse files here"
}

# du_k FILE: the space FILE takes, in KiB.
du_k() {
  du -k -- "$1" | cut -f1
}

# The sources of the engine tests: 1 B, 64 KiB, 100 MiB, 0 B.
SIZES=(1 65536 $((100 * MIB)) 0)
make_sources() {
  local size
  for size in 1 65536 0; do
    make_random "src$size" "$size"
  done
  make_big "src$((100 * MIB))" 100
}

# copy_ok ENGINE SRC DST [OPTION...]: xcp --debug OPTION... SRC DST must
# succeed silently on stdout, print the --debug line with an engine
# matching the regexp ENGINE, no holes, the byte count, and DST be
# identical to SRC (EXPECTED, if set, stands for SRC's content).
copy_ok() {
  local engine=$1 src=$2 dst=$3
  shift 3
  rm -f "$dst"
  run --separate-stderr xcp --debug "$@" "$src" "$dst"
  assert_success
  assert_output ""
  assert_same "${EXPECTED:-$src}" "$dst"
  assert_err --regexp "^xcp: '$src' -> '$dst': engine ($engine), holes none, $(file_size "$dst") bytes\$"
}

# copy_all ENGINE PROC_ENGINE [OPTION...]: every source of make_sources,
# and /proc/version (st_size 0, readable by splice) and
# /proc/self/environ (st_size 0, more than a page, not readable by splice
# or sendfile), copied by xcp --debug OPTION..., with ENGINE the engine
# expected for the regular files and PROC_ENGINE for the /proc files.
# The empty file comes last: the others tell more when it fails.
copy_all() {
  local engine=$1 proc_engine=$2 size
  shift 2
  for size in "${SIZES[@]}"; do
    [[ $size -eq 0 ]] || copy_ok "$engine" "src$size" "dst$size" "$@"
  done
  [[ -r /proc/version ]] || skip "no /proc"
  assert_size /proc/version 0
  cat /proc/version >expected
  EXPECTED=expected copy_ok "$proc_engine" /proc/version dst-version "$@"
  [[ -s dst-version ]] || fail "/proc/version copied empty"
  # /proc/self/environ of xcp itself: env -i makes it known.
  local value
  value=$(seq 1 3000 | tr '\n' ,)
  printf 'V=%s\0' "$value" >expected
  local -a saved=("${XCP_WRAP[@]}")
  XCP_WRAP=(env -i "V=$value" "${saved[@]}")
  EXPECTED=expected copy_ok "$proc_engine" /proc/self/environ dst-environ "$@"
  XCP_WRAP=("${saved[@]}")
  copy_ok "$engine" src0 dst0 "$@"
}

# --- byte-identical copies, engine by engine -----------------------------

# bats test_tags=arch
@test "xcp --engine=copy_file_range: 0 B, 1 B, 64 KiB, 100 MiB, /proc files" {
  use_tmpfs 4g
  make_sources
  # copy_file_range refuses /proc (EXDEV): the copy must still be whole.
  copy_all copy_file_range 'copy_file_range|splice|sendfile|rw' \
    --engine=copy_file_range
}

# bats test_tags=arch
@test "xcp --engine=sendfile: 0 B, 1 B, 64 KiB, 100 MiB, /proc files" {
  use_tmpfs 4g
  make_sources
  copy_all sendfile 'sendfile|rw' --engine=sendfile
}

# bats test_tags=arch
@test "xcp --engine=splice: 0 B, 1 B, 64 KiB, 100 MiB, /proc files" {
  use_tmpfs 4g
  make_sources
  copy_all splice 'splice|rw' --engine=splice
}

# bats test_tags=arch
@test "xcp --engine=rw: 0 B, 1 B, 64 KiB, 100 MiB, /proc files" {
  use_tmpfs 4g
  make_sources
  copy_all rw rw --engine=rw
}

# bats test_tags=arch
@test "xcp --engine=clone on btrfs/XFS: 0 B, 1 B, 64 KiB, 100 MiB, /proc files" {
  use_tmpfs 4g
  mount_reflink ref
  cd ref || fail
  make_sources
  local used
  used=$(df -k --output=used . | tail -1)
  copy_all clone 'clone|copy_file_range|splice|sendfile|rw' --engine=clone
  # The 100 MiB were shared, not written again.
  [[ $(($(df -k --output=used . | tail -1) - used)) -lt 20480 ]] \
    || fail "the clones took space: $(df -k --output=used . | tail -1) KiB used, $used before"
}

@test "xcp: the default engine is clone on btrfs/XFS, and --reflink=never avoids it" {
  use_tmpfs 4g
  mount_reflink ref
  cd ref || fail
  make_sources
  copy_all clone 'splice|rw'
  copy_all 'copy_file_range|splice|sendfile|rw' 'splice|rw' --reflink=never
  # --reflink=always is the default order where cloning works.
  copy_ok clone src65536 dst65536 --reflink=always
}

@test "xcp: the default engine on tmpfs is copy_file_range (no reflinks)" {
  use_tmpfs 4g
  make_sources
  copy_all copy_file_range 'splice|rw'
}

@test "xcp --reflink=always fails where there are no reflinks, creating nothing" {
  use_tmpfs 4g
  make_random src 100000
  run --separate-stderr xcp --reflink=always src dst
  assert_failure 1
  assert_output ""
  assert_err --regexp "^xcp: "
  assert_not_exist dst
  # And an existing destination is left as it was.
  make_random dst 5000
  cp dst old
  run --separate-stderr xcp --reflink=always src dst
  assert_failure 1
  assert_same old dst
}

# --- the same copies when the kernel refuses the preferred calls ---------

@test "enosys-exec: the named calls fail with ENOSYS, the others work" {
  require_enosys_exec
  require_cmd python3
  run enosys splice python3 -c pass
  [[ $status -ne $((128 + $(kill -l SYS))) ]] \
    || skip "python3 is not of the build's architecture (an -m32 build?)"
  make_random src 10000
  local probe='import fcntl, os
src = os.open("src", os.O_RDONLY)
dst = os.open("dst", os.O_WRONLY | os.O_CREAT, 0o644)
r, w = os.pipe()
for name, call in (("copy_file_range", lambda: os.copy_file_range(src, dst, 10, 0, 0)),
                   ("sendfile", lambda: os.sendfile(dst, src, 0, 10)),
                   ("splice", lambda: os.splice(src, w, 10, 0)),
                   ("ficlone", lambda: fcntl.ioctl(dst, 0x40049409, src)),
                   ("fionread", lambda: fcntl.ioctl(r, 0x541B, b"1234"))):
    try:
        call()
        print(name, "ok")
    except OSError as e:
        print(name, os.strerror(e.errno))'
  run enosys copy_file_range,sendfile,splice,ficlone python3 -c "$probe"
  assert_success
  assert_line "copy_file_range Function not implemented"
  assert_line "sendfile Function not implemented"
  assert_line "splice Function not implemented"
  assert_line "ficlone Function not implemented"
  assert_line "fionread ok"
  run enosys splice,copy_file_range:EXDEV python3 -c "$probe"
  assert_line "copy_file_range Invalid cross-device link"
  assert_line "sendfile ok"
  assert_line "splice Function not implemented"
  run enosys o_tmpfile:EOPNOTSUPP python3 -c \
    'import os; os.open(".", os.O_TMPFILE | os.O_WRONLY, 0o600)'
  assert_failure
  assert_output --partial "Operation not supported"
  run enosys bogus true
  assert_failure 125
}

@test "xcp without copy_file_range (ENOSYS): splice, same bytes" {
  require_enosys_exec
  use_tmpfs 4g
  make_sources
  XCP_WRAP=("$ENOSYS_EXEC" copy_file_range)
  copy_all splice 'splice|rw'
}

# bats test_tags=arch
@test "xcp without copy_file_range and splice (ENOSYS): read/write, same bytes" {
  require_enosys_exec
  use_tmpfs 4g
  make_sources
  XCP_WRAP=("$ENOSYS_EXEC" "copy_file_range,splice")
  copy_all rw rw
}

@test "xcp without any copy call (ENOSYS): read/write, same bytes" {
  require_enosys_exec
  use_tmpfs 4g
  make_sources
  XCP_WRAP=("$ENOSYS_EXEC" "ficlone,copy_file_range,splice,sendfile")
  copy_all rw rw
}

# man/xcp.1: a forced engine is the only way tried; a file it cannot copy
# is a failure, with the kernel's reason.  Nothing may be left half done.
@test "xcp --engine=NAME whose call fails with ENOSYS: exit 1, nothing touched" {
  require_enosys_exec
  mkdir w && cd w
  make_random src 300000
  make_random dst 1000
  cp dst ../old
  local engine call
  for engine in copy_file_range sendfile splice clone; do
    call=$engine
    [[ $engine != clone ]] || call=ficlone
    XCP_WRAP=("$ENOSYS_EXEC" "$call")
    run --separate-stderr xcp --engine="$engine" src dst
    assert_failure 1
    assert_output ""
    assert_err --regexp "^xcp: .*'src'.*Function not implemented\$"
    assert_same ../old dst
    run --separate-stderr xcp --engine="$engine" src new
    assert_failure 1
    assert_not_exist new
    assert_equal "$(ls -A)" "$(printf '%s\n' dst src)"
  done
}

@test "xcp on btrfs/XFS without FICLONE (ENOSYS, EOPNOTSUPP): copy_file_range" {
  require_enosys_exec
  use_tmpfs 4g
  mount_reflink ref
  cd ref || fail
  make_sources
  XCP_WRAP=("$ENOSYS_EXEC" ficlone)
  copy_all copy_file_range 'splice|rw'
  XCP_WRAP=("$ENOSYS_EXEC" ficlone:EOPNOTSUPP)
  copy_all copy_file_range 'splice|rw'
}

@test "xcp cross-device (copy_file_range says EXDEV): splice, same bytes" {
  require_enosys_exec
  use_tmpfs 4g
  make_sources
  XCP_WRAP=("$ENOSYS_EXEC" copy_file_range:EXDEV)
  copy_all splice 'splice|rw'
}

# --- holes ---------------------------------------------------------------

# sparse_ok DST [OPTION...]: xcp --debug OPTION... sparse DST keeps the
# holes: the copy takes no more room than the source (plus 1 MiB of
# slack), says "holes kept", and has the same bytes.
sparse_ok() {
  local dst=$1
  shift
  rm -f "$dst"
  run --separate-stderr xcp --debug "$@" sparse "$dst"
  assert_success
  assert_err --regexp "^xcp: 'sparse' -> '$dst': engine (clone|copy_file_range|sendfile|splice|rw), holes kept, [0-9]+ bytes\$"
  assert_size "$dst" "$(file_size sparse)"
  [[ $(du_k "$dst") -le $(($(du_k sparse) + 1024)) ]] \
    || fail "$dst takes $(du_k "$dst") KiB, sparse $(du_k sparse) KiB"
  assert_same sparse "$dst"
}

@test "xcp: a sparse 1 GiB file with 1 MiB of data keeps its holes, by every engine" {
  use_tmpfs 4g
  make_sparse sparse
  sparse_ok dst
  local engine
  for engine in copy_file_range sendfile splice rw; do
    sparse_ok "dst-$engine" --engine="$engine"
  done
  sparse_ok dst-always --sparse=always
}

# bats test_tags=arch
@test "xcp: a sparse file ending in a hole keeps its size" {
  use_tmpfs 4g
  head -c 100000 /dev/urandom >sparse
  truncate -s 1G sparse
  sparse_ok dst
  sparse_ok dst-rw --engine=rw
}

@test "xcp --sparse=never fills the holes" {
  use_tmpfs 4g
  make_sparse sparse
  run --separate-stderr xcp --debug --sparse=never sparse dst
  assert_success
  assert_err --regexp "^xcp: 'sparse' -> 'dst': engine [a-z_]+, holes none, $GIB bytes\$"
  [[ $(du_k dst) -ge $((GIB / 1024 - 1024)) ]] \
    || fail "dst takes $(du_k dst) KiB: holes were kept"
  assert_same sparse dst
}

# bats test_tags=arch
@test "xcp --sparse=always makes holes of the zeros of a full file" {
  use_tmpfs 4g
  { head -c $MIB /dev/urandom; head -c $((64 * MIB)) /dev/zero
    head -c $MIB /dev/urandom; } >full
  [[ $(du_k full) -ge $((66 * 1024)) ]] || fail "full is not full"
  run --separate-stderr xcp --debug --sparse=always full dst
  assert_success
  assert_err --regexp "holes kept"
  [[ $(du_k dst) -le $((3 * 1024)) ]] || fail "dst takes $(du_k dst) KiB"
  assert_same full dst
  # auto keeps a full file full.
  run --separate-stderr xcp --debug full dst2
  assert_success
  assert_err --regexp "holes none"
  assert_same full dst2
}

# --- -a, -r: every kind of file ------------------------------------------

# bats test_tags=arch
@test "xcp -a keeps modes, owners, ns times, links, FIFOs, device nodes" {
  use_tmpfs 4g
  make_tree src
  local before
  before=$(tree_stat src)
  run --separate-stderr timeout 60 xcp -a src dst
  assert_success
  assert_output ""
  assert_err ""
  assert_equal "$(tree_stat dst)" "$before"
  assert_same src/file dst/file
  assert_same src/sub/deeper/f2 dst/sub/deeper/f2
  # Links are links, with their own targets.
  [[ $(readlink dst/link) == file && $(readlink dst/dangling) == nowhere/at/all \
    && $(readlink dst/sub/up) == ../file ]] || fail "symbolic links changed"
  [[ -L dst/dangling && ! -e dst/dangling ]] || fail "dst/dangling is not a dangling link"
  [[ -p dst/fifo ]] || fail "dst/fifo is not a FIFO"
  # Hard links stay hard links, in the copy.
  assert_equal "$(stat -c %i dst/sub/hard)" "$(stat -c %i dst/file)"
  [[ $(stat -c %i dst/file) != "$(stat -c %i src/file)" ]] || fail "dst/file is src/file"
  assert_equal "$(stat -c %h dst/file)" 2
}

@test "xcp -a: an xattr is kept (--preserve=xattr)" {
  require_cmd python3
  use_tmpfs 4g
  echo data >f
  python3 -c 'import os; os.setxattr("f", "user.nc", b"v\0alue")' 2>/dev/null \
    || skip "no user xattrs here"
  run --separate-stderr xcp -a f a
  assert_success
  run --separate-stderr xcp --preserve=xattr f x
  assert_success
  run python3 -c 'import os, sys
print(*(os.getxattr(f, "user.nc") for f in sys.argv[1:]))' f a x
  assert_success
  assert_output "b'v\\x00alue' b'v\\x00alue' b'v\\x00alue'"
  # Without -a, none.
  run --separate-stderr xcp f plain
  run python3 -c 'import os; print(os.listxattr("plain"))'
  assert_output "[]"
}

@test "xcp without -a: mode less the umask, new times, links followed" {
  use_tmpfs 4g
  echo data >f
  chmod 0777 f
  touch -d "2001-02-03 04:05:06.123456789" f
  ln -s f lnk
  umask 027
  run --separate-stderr xcp f g
  assert_success
  assert_file_permission 750 g
  [[ $(stat -c %Y g) -gt 1000000000 && $(stat -c %Y g) != "$(stat -c %Y f)" ]] \
    || fail "the mtime was copied without -a"
  run --separate-stderr xcp lnk h
  assert_success
  [[ -f h && ! -L h ]] || fail "h is not a regular file"
  assert_same f h
  # -a copies the link itself.
  run --separate-stderr xcp -a lnk k
  assert_success
  [[ -L k && $(readlink k) == f ]] || fail "k is not the link"
  # --preserve=timestamps alone.
  run --separate-stderr xcp --preserve=timestamps f t
  assert_success
  assert_equal "$(stat -c %y t)" "$(stat -c %y f)"
}

# bats test_tags=arch
@test "xcp -a keeps times past 2038 (time64 calls on 32-bit builds)" {
  use_tmpfs 4g
  mkdir d
  echo data >d/f
  ln -s f d/lnk
  touch -d "2100-01-01 00:00:00.123456789 UTC" d/f d
  touch -h -d "2106-02-07 06:28:16.5 UTC" d/lnk
  run --separate-stderr xcp -a d e
  assert_success
  assert_equal "$(stat -c '%Y %y' e/f)" "$(stat -c '%Y %y' d/f)"
  assert_equal "$(stat -c %Y e/f)" 4102444800
  assert_equal "$(stat -c '%Y %y' e/lnk)" "$(stat -c '%Y %y' d/lnk)"
  assert_equal "$(stat -c '%Y %y' e)" "$(stat -c '%Y %y' d)"
}

@test "xcp --preserve with no list keeps mode and times; -R is -r" {
  echo x >f
  chmod 0741 f
  touch -d "2001-02-03 04:05:06.123456789" f
  umask 077
  run --separate-stderr xcp --preserve f g
  assert_success
  assert_err ""
  assert_file_permission 741 g
  assert_equal "$(stat -c %y g)" "$(stat -c %y f)"
  mkdir -p d/e
  echo y >d/e/y
  run --separate-stderr xcp -R d d2
  assert_success
  assert_same d/e/y d2/e/y
}

# bats test_tags=arch
@test "xcp -r copies links as links, FIFOs as FIFOs, never follows them" {
  use_tmpfs 4g
  mkdir -p src outside/big
  echo secret >outside/big/file
  ln -s ../outside src/out
  ln -s "$PWD/outside/big" src/abs
  mkfifo src/fifo
  echo x >src/f
  run --separate-stderr timeout 30 xcp -r src dst
  assert_success
  assert_err ""
  [[ -L dst/out && -L dst/abs && -p dst/fifo ]] || fail "links or FIFO not copied as such"
  assert_equal "$(readlink dst/out)" ../outside
  assert_same src/f dst/f
}

@test "xcp -a: strace shows the *at calls, nothing by full path" {
  require_strace
  use_tmpfs 4g
  make_tree src
  # All calls: strace 6.1 does not know fchmodat2 (Linux 6.6) by name, nor
  # puts it in %file; it shows it as syscall_0x1c4 (452 everywhere).
  run strace -f -o trace.log "$NC_BINDIR/xcp" -a src dst
  assert_success
  assert_equal "$(tree_stat dst | sed 's/ atime .*//')" \
    "$(tree_stat src | sed 's/ atime .*//')"
  # None of the calls that take a path from the working directory, on a
  # relative path (the tree's; a sanitizer's run-time library opens
  # /proc/self/maps with open).
  run grep -E '^[0-9]+ +(open|creat|mkdir|mknod|symlink|readlink|link|chown|lchown|chmod|rename|stat|lstat|stat64|lstat64|utime|utimes|futimesat)\("[^/]' trace.log
  assert_failure
  # Within the tree, entries are made by name in their parent directory
  # (a descriptor), never by a path with a slash: only the operands
  # themselves are relative to the working directory.
  run awk '
    { sub(/^[0-9]+ +/, "") }
    /^(mkdirat|mknodat|symlinkat|linkat|fchownat|utimensat(_time64)?|fchmodat2?)\(/ {
      if (!match($0, /"[^"]*"/)) next
      split(substr($0, index($0, "(") + 1), a, /, /)
      dirarg = a[1]
      if ($0 ~ /^symlinkat\(/) dirarg = a[2]
      if ($0 ~ /^linkat\(/) next
      path = substr($0, RSTART + 1, RLENGTH - 2)
      if ($0 ~ /^symlinkat\(/) {
        # the second string is the name
        rest = substr($0, RSTART + RLENGTH)
        if (!match(rest, /"[^"]*"/)) next
        path = substr(rest, RSTART + 1, RLENGTH - 2)
      }
      if (path == "" || path == "src" || path == "dst") next
      if (index(path, "/") || dirarg == "AT_FDCWD") print "by path: " $0
    }' trace.log
  assert_output ""
  # Each of these (or one of a group) succeeded at least once; 32-bit
  # builds set times with utimensat_time64.  A call of a worker thread
  # that another thread's call interrupts in the trace ends on a line of
  # its own: "<... linkat resumed>) = 0".
  local calls call missing=
  for calls in openat mkdirat mknodat symlinkat readlinkat linkat fchownat \
    utimensat,utimensat_time64 fchmodat,fchmodat2,syscall_0x1c4 renameat,renameat2,linkat \
    newfstatat,statx,fstatat64; do
    local n=0
    for call in ${calls//,/ }; do
      n=$((n + $(grep -cE "^[0-9]+ +($call\\(.*\\)|<\\.\\.\\. $call resumed>.*) += [0-9]+\$" trace.log || true)))
    done
    [[ $n -gt 0 ]] || missing+=" $calls"
  done
  [[ -z $missing ]] || fail "no successful call of:$missing"
}

@test "xcp -r: a tree deeper than PATH_MAX (2500 levels), under ulimit -n 1024" {
  require_helper "$TREE_HELPER"
  use_tmpfs 4g
  "$TREE_HELPER" deep src 2500 1
  # The deepest file gets content (its path is too long to name: find
  # -execdir runs the command in its directory).
  find src -mindepth 2501 -name f0 -execdir sh -c 'echo deepest >f0' \;
  run --separate-stderr bash -c 'ulimit -n 1024 && exec xcp -r src dst'
  assert_success
  assert_err ""
  assert_equal "$(cd dst && find . | sort | md5sum)" "$(cd src && find . | sort | md5sum)"
  run find dst -mindepth 2501 -name f0 -execdir cat f0 \;
  assert_success
  assert_output deepest
}

@test "xcp -a: a 5000-level tree under ulimit -n 16, 24 and 40" {
  require_helper "$TREE_HELPER"
  use_tmpfs 4g
  # 600 levels under qemu: the walk is the same, the calls dearer.
  local levels=5000 n
  [[ -z ${NC_QEMU:-} ]] || levels=600
  "$TREE_HELPER" deep src "$levels" 1
  # The deepest file gets data: the listings compare its size.
  find src -mindepth "$((levels + 1))" -name f0 -execdir sh -c 'echo deepest >f0' \;
  local want
  want=$(tree_listing src | md5sum)
  for n in 16 24 40; do
    run --separate-stderr bash -c "ulimit -n $n && exec xcp -a src dst"
    assert_success
    assert_err ""
    assert_equal "$(tree_listing dst | md5sum)" "$want"
    rmtree dst
  done
}

@test "xcp -r: a message about a deep path shows its end, short" {
  use_tmpfs 4g
  # 200 levels: 400 bytes of path, beyond what a message shows whole.
  local deep
  deep=src$(printf '/d%.0s' $(seq 200))
  mkdir -p "$deep"
  echo data >"$deep/f"
  xcp -r src dst
  rm "dst${deep#src}/f"
  mkdir "dst${deep#src}/f"
  run --separate-stderr env LC_ALL=C xcp -rT src dst
  assert_failure 1
  # "..." and the end of each path within 160 bytes, from a '/'.
  local full=dst${deep#src}/f tail src_tail
  tail=${full: -157}
  tail=/${tail#*/}
  src_tail=${deep: -155}/f
  src_tail=/${src_tail#*/}
  assert_err "xcp: cannot overwrite directory '...$tail' with non-directory '...$src_tail'"
  [[ ${#stderr} -lt 400 ]] || fail "${#stderr} bytes of message"
  # The mark in a UTF-8 locale, where there is one (qemu's static
  # binaries of another byte order may not load the host's).
  if [[ -z ${NC_QEMU:-} ]] && locale -a 2>/dev/null | grep -qix 'c.utf-\?8'; then
    run --separate-stderr env LC_ALL=C.UTF-8 xcp -rT src dst
    assert_failure 1
    [[ $stderr == "xcp: cannot overwrite directory '…/d/d/"*"/d/f' with non-directory '…/d/d/"*"/d/f'" ]] \
      || fail "no UTF-8 mark: $stderr"
    [[ ${#stderr} -lt 400 ]] || fail "${#stderr} bytes of message"
  fi
}

@test "xcp -r: an unreadable file is reported, the rest copied (as uid 65534)" {
  require_nobody
  as_nobody "$NC_BINDIR/xcp" --version >/dev/null 2>&1 || skip "uid 65534 cannot run xcp"
  mkdir -m 0777 box
  mkdir -p box/src/sub
  echo a >box/src/a
  echo b >box/src/sub/b
  echo secret >box/src/sub/secret
  echo z >box/src/z
  chmod 0600 box/src/sub/secret
  cd box
  run --separate-stderr as_nobody "$NC_BINDIR/xcp" -r src dst
  assert_failure 1
  assert_output ""
  assert_err "xcp: cannot open 'src/sub/secret' for reading: Permission denied"
  assert_same src/a dst/a
  assert_same src/sub/b dst/sub/b
  assert_same src/z dst/z
  assert_not_exist dst/sub/secret
}

@test "xcp -r: without -r a directory is omitted, the files copied" {
  mkdir d out
  echo f >f
  run --separate-stderr xcp d f out
  assert_failure 1
  assert_err "xcp: -r not specified; omitting directory 'd'"
  assert_not_exist out/d
  assert_same f out/f
}

@test "xcp -a without fchmodat2 (Linux < 6.6): the modes are set by fchmodat" {
  require_enosys_exec
  require_strace
  use_tmpfs 4g
  make_tree src
  run strace -f -o trace.log "$ENOSYS_EXEC" fchmodat2 "$NC_BINDIR/xcp" -a src dst
  assert_success
  assert_equal "$(tree_stat dst | sed 's/ atime .*//')" \
    "$(tree_stat src | sed 's/ atime .*//')"
  # Resumed: a call split by another thread's in the log.
  run grep -cE '^[0-9]+ +(fchmodat\(.*\)|<\.\.\. fchmodat resumed>.*) += 0$' trace.log
  [[ $output -gt 0 ]] || fail "no fchmodat succeeded"
}

# --- refusals ------------------------------------------------------------

@test "xcp f f is refused, also through a hard link and a symlink; f intact" {
  # In a directory of its own: run --separate-stderr leaves files in ".".
  mkdir w && cd w
  make_random f 10000
  cp f orig
  ln f hard
  ln -s f sym
  mkdir d
  ln -s ../f d/f
  # SOURCE DEST, and the destination file the message names.
  local row src dst named
  for row in "f f f" "f hard hard" "f sym sym" "sym f f" "f d d/f"; do
    read -r src dst named <<<"$row"
    run --separate-stderr xcp "$src" "$dst"
    assert_failure 1
    assert_err "xcp: '$src' and '$named' are the same file"
  done
  run --separate-stderr xcp -f f hard
  assert_failure 1
  assert_same orig f
  assert_same orig hard
  [[ -L sym && -L d/f ]] || fail "a link was replaced"
  assert_equal "$(ls -A)" "$(printf '%s\n' d f hard orig sym)"
}

@test "xcp -r: a directory into itself is refused, nothing made" {
  mkdir -p d/e
  echo x >d/e/f
  # DEST, and the copy the message names, which must not be made.
  local row dst copy
  for row in "d/sub d/sub" "d d/d" "d/e d/e/d"; do
    read -r dst copy <<<"$row"
    run --separate-stderr xcp -r d "$dst"
    assert_failure 1
    assert_err "xcp: cannot copy a directory, 'd', into itself, '$copy'"
    assert_not_exist "$copy"
  done
}

@test "xcp: a directory is not overwritten by a file" {
  echo x >f
  mkdir -p dir out/f
  touch dir/keep out/f/keep
  run --separate-stderr xcp -T f dir
  assert_failure 1
  assert_err "xcp: cannot overwrite directory 'dir' with non-directory 'f'"
  assert_file_exist dir/keep
  run --separate-stderr xcp f out
  assert_failure 1
  assert_err "xcp: cannot overwrite directory 'out/f' with non-directory 'f'"
  assert_file_exist out/f/keep
}

# --- the destination is never half-written -------------------------------

@test "xcp: ENOSPC on a 1 MiB tmpfs: old content kept, no stray file, exit 1" {
  require_root
  mkdir mnt
  mount -t tmpfs -o size=1m xcp-enospc mnt || skip "cannot mount a tmpfs"
  # The source on the same file system, so that every engine can run
  # (copy_file_range does not cross file systems): 600 KB, 100 KB of old
  # destination, and no room for a second 600 KB.
  make_random mnt/src 600000
  make_random mnt/dst 100000
  cp mnt/dst old
  local engine
  local -a opt
  for engine in auto copy_file_range sendfile splice rw; do
    opt=()
    [[ $engine == auto ]] || opt=(--engine="$engine")
    run --separate-stderr xcp "${opt[@]}" mnt/src mnt/dst
    assert_failure 1
    assert_output ""
    assert_err --regexp "^xcp: .*No space left on device\$"
    assert_same old mnt/dst
    assert_equal "$(ls -A mnt)" "$(printf '%s\n' dst src)"
    run --separate-stderr xcp "${opt[@]}" mnt/src mnt/new
    assert_failure 1
    assert_err --regexp "^xcp: .*No space left on device\$"
    assert_equal "$(ls -A mnt)" "$(printf '%s\n' dst src)"
    # Nothing is held: the space is free again for a copy that fits.
    run --separate-stderr xcp "${opt[@]}" mnt/dst mnt/fits
    assert_success
    assert_same old mnt/fits
    rm mnt/fits
  done
}

# interrupt SIGNAL DST [PREFIX...] -- [OPTION...]: start PREFIX... xcp
# OPTION... $BIG DST under strace, which delays every data-moving call and
# the calls that put DST in place by 50 ms, wait until data is in a file
# of DST's directory, send SIGNAL to xcp, and wait for it.  The status is
# in $status.  SIGINT and SIGTERM get their default action back (a
# background job of a script ignores SIGINT).
interrupt() {
  local sig=$1 dst=$2
  shift 2
  local -a prefix=()
  while [[ $1 != -- ]]; do
    prefix+=("$1")
    shift
  done
  shift
  local calls=write,pwrite64,writev,pwritev,splice,sendfile,copy_file_range
  calls+=,linkat,renameat,renameat2
  strace -f -o /dev/null -e trace="$calls" \
    -e inject="$calls":delay_enter=50000 \
    env --default-signal=INT,TERM "${prefix[@]}" "$NC_BINDIR/xcp" "$@" \
    "$BIG" "$dst" 2>strace.err &
  BG_PID=$!
  local pid='' dir i
  dir=$(cd "$(dirname "$dst")" && pwd)
  for ((i = 0; i < 1000; i++)); do
    [[ -n $pid ]] || pid=$(xcp_below "$BG_PID")
    [[ -n $pid ]] && writing_to "$pid" "$dir" && break
    sleep 0.01
  done
  [[ $i -lt 1000 ]] || fail "xcp did not start writing into $dir in 10 s"
  kill -"$sig" "$pid"
  status=0
  wait "$BG_PID" || status=$?
  BG_PID=
}

# old_or_whole DST [OLD]: after an interrupted copy, DST is the whole copy
# of $BIG, or else OLD (absent without OLD) and xcp failed; nothing but
# DST's own name is in its directory.
old_or_whole() {
  local dir
  dir=$(dirname "$1")
  if [[ -e $1 ]] && cmp -s "$BIG" "$1"; then
    : # the copy was complete before the signal came
  elif [[ -n ${2:-} ]]; then
    assert_same "$2" "$1"
    [[ $status -ne 0 ]] || fail "xcp ended with 0, $1 not copied"
  else
    assert_not_exist "$1"
    [[ $status -ne 0 ]] || fail "xcp ended with 0, $1 not copied"
  fi
  assert_equal "$(ls -A "$dir")" "$(cd "$dir" && ls -A -- "${KEEP[@]}")"
}

# kill_mid_copy SIGNAL [PREFIX...] -- [OPTION...]: the 1 GiB copy, over an
# old destination and to a new one, interrupted by SIGNAL.
kill_mid_copy() {
  local sig=$1
  shift
  require_root
  require_strace
  use_tmpfs 4g
  shared_big
  mkdir out
  make_random out/dst $MIB
  cp out/dst old
  KEEP=(dst)
  interrupt "$sig" out/dst "$@"
  old_or_whole out/dst old
  # Start again from the old content if the copy was whole.
  cp old out/dst
  interrupt "$sig" out/new "$@"
  [[ -e out/new ]] && KEEP+=(new)
  old_or_whole out/new
}

@test "xcp: SIGKILL in the middle of a 1 GiB copy: dst old or absent, no stray" {
  kill_mid_copy KILL --
}

@test "xcp: SIGKILL in the middle of a 1 GiB read/write copy" {
  kill_mid_copy KILL -- --engine=rw
}

@test "xcp: SIGINT in the middle of a 1 GiB copy: dst old or absent, no stray" {
  kill_mid_copy INT --
}

@test "xcp: SIGTERM in the middle of a 1 GiB copy: dst old or absent, no stray" {
  kill_mid_copy TERM -- --engine=splice
}

@test "xcp: a source cut short as it is read, by every engine: reported, dst old or absent" {
  require_change_helper
  use_tmpfs 4g
  mkdir ../orig
  make_random ../orig/src $((4 * MIB))
  local engine
  for engine in copy_file_range sendfile splice rw; do
    # Before the first transfer: new and existing destinations.
    cp ../orig/src src
    OLD='' changed_on_read 1 truncate $((1 * MIB)) --engine="$engine"
    cp ../orig/src src
    echo old >dst
    OLD=old changed_on_read 1 truncate $((1 * MIB)) --engine="$engine"
    rm dst
  done
  # In the middle: after 1 MiB of splice's pipe, 256 KiB of read/write.
  cp ../orig/src src
  OLD='' changed_on_read 2 truncate $((3 * MIB / 2)) --engine=splice
  cp ../orig/src src
  OLD='' changed_on_read 3 truncate $((3 * MIB / 2)) --engine=rw
  # With holes (SEEK_DATA, SEEK_HOLE): the extents end at the old size.
  truncate -s $((4 * MIB)) src
  printf data | dd of=src bs=1M seek=3 conv=notrunc status=none
  OLD='' changed_on_read 1 truncate $((1 * MIB))
  # The progress line copies in pieces.
  cp ../orig/src src
  OLD='' changed_on_read 1 truncate $((1 * MIB)) --progress
}

@test "xcp --engine=clone: a source cut short or grown as it is cloned: reported, dst old" {
  require_change_helper
  use_tmpfs 4g
  mount_reflink ref
  cd ref || fail
  make_random src $((4 * MIB))
  echo old >dst
  OLD=old changed_on_read 1 truncate $((1 * MIB)) --engine=clone
  OLD=old changed_on_read 1 append $((1 * MIB)) --engine=clone
}

@test "xcp: a source grown or written over as it is read: reported, dst old or absent" {
  require_change_helper
  use_tmpfs 4g
  make_random src $((4 * MIB))
  OLD='' changed_on_read 1 append 100 --engine=rw
  OLD='' changed_on_read 1 append $((1 * MIB)) --engine=copy_file_range
  echo old >dst
  OLD=old changed_on_read 2 append 1 --engine=splice
  # The same size, other bytes: the times tell (the modification time
  # set far back, that the write cannot fall in the same clock tick).
  touch -d 2001-01-01 src
  OLD=old changed_on_read 1 write 4096
}

@test "xcp -r: a file that changes as it is read is reported, the others copied" {
  require_change_helper
  use_tmpfs 4g
  mkdir src
  make_random src/a 100000
  make_random src/b 100000
  make_random src/c 100000
  run --separate-stderr "$CHANGE_HELPER" src/b 1 truncate 10 \
    "$NC_BINDIR/xcp" -r src dst
  assert_failure 1
  assert_err "xcp: 'src/b': file changed as we read it"
  assert_same src/a dst/a
  assert_same src/c dst/c
  assert_equal "$(ls -A dst)" "$(printf '%s\n' a c)"
}

@test "xcp: files whose size says nothing (/proc, sysfs): copied as read, not taken as changed" {
  # /proc's files are of size 0, sysfs's of a page without a block (which
  # looked like a hole after the data: the copy was padded with zeros to
  # 4096 bytes).  Files that do not change while read.
  local f engine
  for f in /proc/version /sys/devices/system/cpu/possible; do
    [[ -r $f ]] || continue
    for engine in '' --engine=rw --engine=splice --sparse=always; do
      run --separate-stderr xcp ${engine:+"$engine"} "$f" copy
      assert_success
      assert_err ""
      assert_equal "$(od -c copy)" "$(od -c "$f")"
      rm copy
    done
  done
}

@test "xcp without O_TMPFILE: SIGINT and SIGTERM leave no temporary name" {
  require_enosys_exec
  kill_mid_copy INT "$ENOSYS_EXEC" o_tmpfile:EOPNOTSUPP --
  rm -f out/new
  cp old out/dst
  KEEP=(dst)
  interrupt TERM out/dst "$ENOSYS_EXEC" o_tmpfile:EOPNOTSUPP --
  old_or_whole out/dst old
}

# bats test_tags=arch
@test "xcp without O_TMPFILE (EOPNOTSUPP): copies by a temporary name" {
  require_enosys_exec
  mkdir w && cd w
  make_random src 300000
  make_random dst 1000
  XCP_WRAP=("$ENOSYS_EXEC" o_tmpfile:EOPNOTSUPP)
  run --separate-stderr xcp src dst
  assert_success
  assert_err ""
  assert_same src dst
  run --separate-stderr xcp src new
  assert_success
  assert_same src new
  assert_equal "$(ls -A)" "$(printf '%s\n' dst new src)"
}

@test "xcp: strace: data goes to an O_TMPFILE, the destination is never truncated" {
  require_strace
  make_random src 300000
  make_random dst 1000
  run strace -f -o trace.log -e trace=openat,linkat,renameat,renameat2,unlinkat \
    "$NC_BINDIR/xcp" src dst
  assert_success
  assert_same src dst
  run grep -E 'openat\(.*O_TMPFILE' trace.log
  assert_success
  # dst itself is never opened for writing.
  run grep -E 'openat\([^"]*"(\./)?dst", [^)]*(O_WRONLY|O_RDWR|O_TRUNC)' trace.log
  assert_failure
  # It is replaced in one step.
  run grep -E '^[0-9]+ +(renameat2?|linkat)\(.*"dst".*\) += 0$' trace.log
  assert_success
  # A new destination likewise.
  run strace -f -o trace2.log -e trace=openat,linkat,renameat,renameat2 \
    "$NC_BINDIR/xcp" src new
  assert_success
  run grep -E 'openat\(.*O_TMPFILE' trace2.log
  assert_success
  run grep -E 'openat\([^"]*"(\./)?new", [^)]*O_CREAT' trace2.log
  assert_failure
}

@test "xcp --fsync: the data is flushed before the rename" {
  require_strace
  make_random src 300000
  run strace -f -o trace.log -e trace=fsync,fdatasync,linkat,renameat,renameat2 \
    "$NC_BINDIR/xcp" --fsync src dst
  assert_success
  assert_same src dst
  run grep -nE '^[0-9]+ +(fsync|fdatasync)\([0-9]+\) += 0$' trace.log
  assert_success
  local sync_line=${lines[0]%%:*}
  run grep -nE '^[0-9]+ +(linkat|renameat2?)\(.*"dst".* += 0$' trace.log
  assert_success
  [[ $sync_line -lt ${lines[0]%%:*} ]] || fail "fsync after the rename"
  # Not without --fsync.
  run strace -f -o trace2.log -e trace=fsync,fdatasync "$NC_BINDIR/xcp" src dst2
  assert_success
  run grep -E '^[0-9]+ +(fsync|fdatasync)\(' trace2.log
  assert_failure
}

# --- across file systems -------------------------------------------------

@test "xcp: tmpfs to ext4 and back: files" {
  use_tmpfs 4g
  mount_ext4 e4 1G
  make_sources
  local size
  for size in "${SIZES[@]}"; do
    copy_ok 'copy_file_range|splice|sendfile|rw' "src$size" "e4/dst$size"
    copy_ok 'copy_file_range|splice|sendfile|rw' "e4/dst$size" "back$size"
  done
}

@test "xcp: tmpfs to ext4 and back: a sparse file keeps its holes" {
  use_tmpfs 4g
  mount_ext4 e4 1G
  make_sparse sparse
  sparse_ok e4/sparse
  # And back, from e4/sparse.
  cd e4 || fail
  sparse_ok ../back
}

@test "xcp -a: tmpfs to ext4 and back: the tree and its attributes" {
  use_tmpfs 4g
  mount_ext4 e4 1G
  make_tree src
  local before
  before=$(tree_stat src)
  run --separate-stderr timeout 60 xcp -a src e4/tree
  assert_success
  assert_err ""
  assert_equal "$(tree_stat e4/tree)" "$before"
  run --separate-stderr timeout 60 xcp -a e4/tree back
  assert_success
  assert_err ""
  assert_equal "$(tree_stat back)" "$before"
  assert_equal "$(stat -c %i back/sub/hard)" "$(stat -c %i back/file)"
}

# --- options -------------------------------------------------------------

@test "xcp --help lists every option" {
  run --separate-stderr xcp --help
  assert_success
  local opt
  for opt in --engine --reflink --sparse --debug --fsync --no-clobber \
    --interactive --force --update --verbose --recursive --archive \
    --preserve --progress --no-progress --target-directory \
    --no-target-directory; do
    assert_output --partial -- "$opt"
  done
  assert_line --index 0 --partial "Usage: xcp [OPTION]... "
}

@test "xcp: usage errors exit 2" {
  echo x >a
  echo y >b
  local -a args
  local cmd
  for cmd in "" "a" "--engine=bogus a c" "--reflink=bogus a c" \
    "--sparse=bogus a c" "--preserve=bogus a c" "-t a -T b c" \
    "-T a b c"; do
    read -ra args <<<"$cmd"
    run --separate-stderr xcp "${args[@]}"
    [[ $status -eq 2 ]] || fail "xcp $cmd: status $status, not 2"
    assert_err --regexp "^xcp: "
    assert_err --partial "Try 'xcp --help' for more information."
    assert_output ""
  done
  assert_not_exist c
}

# bats test_tags=arch
@test "xcp: a missing source: exit 1, the others still copied" {
  echo a >a
  echo b >b
  mkdir d
  run --separate-stderr xcp missing dst
  assert_failure 1
  assert_output ""
  assert_err "xcp: cannot stat 'missing': No such file or directory"
  assert_not_exist dst
  run --separate-stderr xcp a missing b d
  assert_failure 1
  assert_err "xcp: cannot stat 'missing': No such file or directory"
  assert_same a d/a
  assert_same b d/b
}

@test "xcp: a destination in a missing directory: cannot create regular file" {
  echo a >a
  run --separate-stderr xcp a no/such/dst
  assert_failure 1
  assert_err "xcp: cannot create regular file 'no/such/dst': No such file or directory"
}

@test "xcp SRC... DIR, -t DIR SRC..., -T" {
  echo a >a
  echo b >b
  mkdir d t e
  run --separate-stderr xcp a b d
  assert_success
  assert_same a d/a
  assert_same b d/b
  run --separate-stderr xcp -t t a b
  assert_success
  assert_same a t/a
  assert_same b t/b
  run --separate-stderr xcp --target-directory=e a
  assert_success
  assert_same a e/a
  # -T: DST is the name even if it is a directory's (here: a new name).
  mkdir -p src/in
  echo c >src/in/c
  run --separate-stderr xcp -r -T src d2
  assert_success
  assert_same src/in/c d2/in/c
  run --separate-stderr xcp -r src d2
  assert_success
  assert_same src/in/c d2/src/in/c
  # Several sources and a target that is not a directory.
  run --separate-stderr xcp a b a
  assert_failure
  assert_err "xcp: target 'a': Not a directory"
}

@test "xcp -v: 'SRC' -> 'DST' per file on stdout" {
  echo a >a
  echo b >b
  mkdir d
  run --separate-stderr xcp -v a b d
  assert_success
  assert_err ""
  assert_output - <<'EOF'
'a' -> 'd/a'
'b' -> 'd/b'
EOF
  mkdir -p t/s
  echo c >t/s/c
  run --separate-stderr xcp -rv t u
  assert_success
  assert_line "'t/s/c' -> 'u/s/c'"
}

@test "xcp -v: standard output full is an error" {
  [[ -w /dev/full ]] || skip "no /dev/full"
  echo a >a
  run --separate-stderr stdout_to /dev/full xcp -v a b
  assert_failure 1
  assert_err --partial "xcp: write error"
}

@test "xcp -n keeps an existing destination, copies a new one" {
  echo new >a
  echo new >b
  echo old >dst-a
  mkdir d
  echo old >d/a
  run --separate-stderr xcp -n a dst-a
  assert_equal "$(cat dst-a)" old
  run --separate-stderr xcp --no-clobber a b d
  assert_equal "$(cat d/a)" old
  assert_same b d/b
}

@test "xcp -u replaces only an older destination" {
  echo new >src
  touch -d "2010-01-01" src
  echo newer >dst-newer
  touch -d "2020-01-01" dst-newer
  echo older >dst-older
  touch -d "2000-01-01" dst-older
  run --separate-stderr xcp -u src dst-newer
  assert_success
  assert_equal "$(cat dst-newer)" newer
  run --separate-stderr xcp --update src dst-older
  assert_success
  assert_same src dst-older
  run --separate-stderr xcp -u src dst-missing
  assert_success
  assert_same src dst-missing
}

@test "xcp -i asks before overwriting; the answers come from stdin" {
  echo new >a
  echo new >b
  mkdir d
  echo old >d/a
  echo old >d/b
  run --separate-stderr xcp -i a b d <<<$'n\ny'
  assert_failure 1
  assert_output ""
  assert_err --partial "overwrite 'd/a'?"
  assert_err --partial "overwrite 'd/b'?"
  assert_equal "$(cat d/a)" old
  assert_same b d/b
  # No question for a new file.
  run --separate-stderr xcp -i a new </dev/null
  assert_success
  assert_err ""
  assert_same a new
  # -f after -i does not undo it, as in cp: no answer is a no.
  run --separate-stderr xcp -i -f a d/a </dev/null
  assert_failure 1
  assert_err --regexp "^xcp: overwrite 'd/a'\? ?$"
  assert_equal "$(cat d/a)" old
}

@test "xcp -f replaces a read-only destination" {
  require_nobody
  mkdir -m 0777 box
  cd box
  echo new >src
  echo old >dst
  chmod 0444 dst
  chown 65534:65534 src dst
  run --separate-stderr as_nobody "$NC_BINDIR/xcp" -f src dst
  assert_success
  assert_same src dst
}

@test "xcp --progress: a line on stderr; none on a pipe by default" {
  make_random src $((8 * MIB))
  run --separate-stderr xcp --progress src dst
  assert_success
  assert_output ""
  [[ -n $stderr ]] || fail "no progress line"
  assert_err --partial "xcp"
  assert_same src dst
  run --separate-stderr xcp src dst2
  assert_success
  assert_err ""
}

@test "xcp: silent on success on a terminal, --no-progress too" {
  require_terminal
  make_random src $((1 * MIB))
  on_terminal "xcp src dst"
  assert_success
  assert_output ""
  assert_same src dst
  on_terminal "xcp --no-progress src dst2"
  assert_success
  assert_output ""
}

# slow_copy OPTION...: xcp OPTION... -r s t on a terminal, s a tree of 120
# files each opened 10 ms late (strace), so that the copy takes more than
# 2 s; its output (the terminal's) in $output.
slow_copy() {
  require_terminal
  require_strace
  mkdir s
  local i
  for ((i = 0; i < 120; i++)); do
    echo "$i" >"s/f$i"
  done
  traced_on_terminal "strace -f -o /dev/null -e trace=openat \
    -e inject=openat:delay_enter=10000 xcp $* -r s t"
  assert_success
  diff -r s t || fail "t is not a copy of s"
}

@test "xcp: a slow copy on a terminal: a progress line, erased at the end" {
  slow_copy
  # With the total, once the walk has listed the files ahead of the copy.
  assert_output --regexp $'\rxcp: [0-9.]+ ?[KMG]?i?B( of (at least )?[0-9.]+ ?[KMG]?i?B)?, ([0-9]+ of (at least )?)?[0-9]+ files?, [0-9.]+ ?[KMG]?i?B/s(, ETA [0-9:]+( s)?)?\e\\[K'
  [[ $output == *$'\r\e[K' ]] || fail "the line is not erased: $(printf %q "$output")"
  [[ $output != *$'\n'* ]] || fail "a line stays: $(printf %q "$output")"
  # With --no-progress, nothing.
  rm -r s t
  slow_copy --no-progress
  assert_output ""
}

@test "xcp --progress on a terminal: the totals stay" {
  slow_copy --progress
  assert_output --regexp $'\e\\[K\rxcp: [0-9.]+ ?B, 120 files, [0-9.]+ ?[KMG]?i?B/s\e\\[K\r$'
}

# --- what is at the destination stays what the user had ------------------

@test "xcp -a/-r of a symlink onto the file it names is refused; the data stays" {
  mkdir w && cd w
  echo XYZ >foo
  ln -s foo symlink
  local opt
  for opt in -a -r -R; do
    run --separate-stderr xcp "$opt" symlink foo
    assert_failure 1
    assert_err "xcp: 'symlink' and 'foo' are the same file"
    [[ -f foo && ! -L foo ]] || fail "xcp $opt replaced foo"
    assert_equal "$(cat foo)" XYZ
  done
  # Through -t, and with the file as the second of two operands.
  mkdir d
  echo DATA >d/f
  ln -s d/f f
  run --separate-stderr xcp -a -t d f
  assert_failure 1
  assert_err "xcp: 'f' and 'd/f' are the same file"
  assert_equal "$(cat d/f)" DATA
  # A link of another file is copied as a link over it, as cp does.
  echo other >g
  ln -s g lg
  cp g g.orig
  run --separate-stderr xcp -a lg foo
  assert_success
  assert_equal "$(readlink foo)" g
  assert_same g.orig g
}

@test "xcp -r: a hard link of a symlink onto that symlink is fine; onto itself not" {
  mkdir w && cd w
  ln -s t sl2
  ln sl2 hlsl
  run --separate-stderr xcp -r hlsl sl2
  assert_success
  assert_err ""
  assert_equal "$(readlink sl2)" t
  run --separate-stderr xcp -r sl2 sl2
  assert_failure 1
  assert_err "xcp: 'sl2' and 'sl2' are the same file"
  assert_equal "$(readlink sl2)" t
}

@test "xcp -a onto the same file by a bind mount is refused" {
  require_root
  mkdir a b
  echo keep >a/f
  mount --bind a b || skip "cannot bind-mount"
  run --separate-stderr xcp -a a/f b/f
  local st=$status
  umount b
  [[ $st -eq 1 ]] || fail "exit $st: $stderr"
  assert_err "xcp: 'a/f' and 'b/f' are the same file"
  assert_equal "$(cat a/f)" keep
}

@test "xcp FILE FIFO: written into, the FIFO kept; a socket is refused" {
  echo payload >f
  mkfifo fifo
  timeout 10 cat fifo >got &
  local reader=$!
  run --separate-stderr timeout 10 xcp f fifo
  wait "$reader"
  assert_success
  [[ -p fifo ]] || fail "the FIFO was replaced"
  assert_same f got
  python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.bind("sock")'
  run --separate-stderr xcp f sock
  assert_failure 1
  assert_err "xcp: cannot create regular file 'sock': No such device or address"
  [[ -S sock ]] || fail "the socket was replaced"
}

# in_private_dev SCRIPT: SCRIPT run by bash in a mount namespace of its
# own with a tmpfs on /dev holding null, full, zero and stdout: never the
# machine's real /dev.
in_private_dev() {
  require_root
  require_cmd unshare
  unshare -m true 2>/dev/null || skip "cannot make a mount namespace"
  unshare -m bash -c '
    set -e
    mount --make-rprivate /
    mount -t tmpfs nc-dev /dev
    mknod -m 666 /dev/null c 1 3
    mknod -m 666 /dev/full c 1 7
    mknod -m 666 /dev/zero c 1 5
    ln -s /proc/self/fd/1 /dev/stdout
    set +e
    '"$1"
}

@test "xcp into devices (a private /dev): null and full stay devices, stdout is written" {
  skip_under_qemu "qemu-user's /proc/self/fd is qemu's view"
  echo payload >f
  run --separate-stderr in_private_dev '
    xcp f /dev/null; echo "null $?"
    xcp -a f /dev/null; echo "null-a $?"
    stat -c "%F %a %U" /dev/null
    xcp f /dev/full 2>err; echo "full $?"; cat err
    stat -c "%F" /dev/full
    xcp f /dev/stdout | cat
    xcp f /dev/stdout >out; echo "file $?"; cat out
    echo old >out2; xcp f /dev/stdout >>out2; cat out2
    stat -c "%F" /dev/stdout'
  assert_success
  assert_output "null 0
null-a 0
character special file 666 root
full 1
xcp: error writing '/dev/full': No space left on device
character special file
payload
file 0
payload
payload
symbolic link"
}

@test "xcp FILE /dev/null as a user (a private /dev): written into, not refused" {
  require_nobody
  skip_under_qemu "binfmt_misc and a private /dev: not needed to show this"
  mkdir -m 0755 box
  echo payload >box/f
  run --separate-stderr in_private_dev "
    setpriv --reuid=65534 --regid=65534 --clear-groups $NC_BINDIR/xcp box/f /dev/null
    echo \$?; stat -c '%F' /dev/null"
  assert_success
  assert_output "0
character special file"
}

@test "xcp f LINK writes the file LINK names and keeps the link" {
  mkdir w && cd w
  echo new >f
  mkdir sub
  echo old >sub/target
  chmod 0640 sub/target
  ln -s sub/target slink
  ln -s slink slink2
  run --separate-stderr xcp f slink2
  assert_success
  [[ -L slink && -L slink2 ]] || fail "a link was replaced"
  assert_same f sub/target
  assert_equal "$(stat -c %a sub/target)" 640
  # The replacement happens in the target's directory: no stray file.
  assert_equal "$(ls -A sub)" target
  assert_equal "$(ls -A)" "$(printf '%s\n' f slink slink2 sub)"
  # -r and -a write through a destination link too, as cp does.
  echo newer >f
  run --separate-stderr xcp -a f slink
  assert_success
  [[ -L slink ]] || fail "-a replaced the link"
  assert_same f sub/target
}

@test "xcp: a dangling destination link is refused; POSIXLY_CORRECT writes through" {
  mkdir w && cd w
  echo new >f
  ln -s nowhere dang
  run --separate-stderr xcp f dang
  assert_failure 1
  assert_err "xcp: not writing through dangling symlink 'dang'"
  assert_not_exist nowhere
  [[ -L dang ]] || fail "the link was replaced"
  POSIXLY_CORRECT=1 run --separate-stderr xcp f dang
  assert_success
  [[ -L dang ]] || fail "the link was replaced"
  assert_same f nowhere
}

@test "xcp -R a/1 b/1 c: the just-created c/1 is neither written through nor replaced" {
  mkdir a b c a2 b2 c2
  ln -s x a/1
  echo b >b/1
  run --separate-stderr xcp -R a/1 b/1 c
  assert_failure 1
  assert_err "xcp: will not copy 'b/1' through just-created symlink 'c/1'"
  assert_equal "$(readlink c/1)" x
  assert_not_exist c/x
  echo a >a2/1
  echo b >b2/1
  run --separate-stderr xcp a2/1 b2/1 c2
  assert_failure 1
  assert_err "xcp: will not overwrite just-created 'c2/1' with 'b2/1'"
  assert_equal "$(cat c2/1)" a
}

@test "xcp: a destination link into an unsearchable directory says EACCES" {
  require_nobody
  mkdir -m 0777 box
  cd box
  mkdir -m 0700 locked
  echo new >f
  ln -s locked/t slink
  chown 65534:65534 f
  run --separate-stderr as_nobody "$NC_BINDIR/xcp" f slink
  assert_failure 1
  assert_err "xcp: cannot stat 'slink': Permission denied"
}

# bats test_tags=arch
@test "xcp onto an existing file keeps its owner, group and mode (as root)" {
  require_root
  echo new >f
  echo old >d
  chown 65534:65534 d
  chmod 0640 d
  run --separate-stderr xcp f d
  assert_success
  assert_same f d
  assert_equal "$(stat -c '%u:%g %a' d)" "65534:65534 640"
  # -a asks for the source's.
  run --separate-stderr xcp -a f d
  assert_success
  assert_equal "$(stat -c '%u:%g %a' d)" "$(stat -c '%u:%g %a' f)"
}

@test "xcp: the modes of coreutils' perm test, existing and new destinations" {
  local u cmd force exist g o want got perms=(r w x rw wx xr rwx)
  # Under qemu, 2 of the 7 modes of an existing destination, 60 runs not
  # 600: its mode is kept by the same calls whatever its bits.
  if [[ -n ${NC_QEMU-} ]]; then perms=(w xr); fi
  for u in 31 37 2; do
    umask "$u"
    for cmd in xcp 'xcp -p'; do
      for force in '' -f; do
        for exist in yes no; do
          for g in "${perms[@]}"; do
            for o in "${perms[@]}"; do
              touch src
              chmod u=r,g=rx,o= src
              want=$(stat -c %A src)
              rm -f dest
              if [[ $exist == yes ]]; then
                touch dest
                chmod "u=rw,g=$g,o=$o" dest
              fi
              # shellcheck disable=SC2086 # $cmd and $force are words
              $cmd $force src dest || fail "$cmd $force failed"
              got=$(stat -c %A dest)
              if [[ $cmd == xcp && $exist == yes ]]; then
                want=-rw-$(echo rwx | sed "s/[^$g]/-/g")$(echo rwx | sed "s/[^$o]/-/g")
              elif [[ $cmd == xcp ]]; then
                # The umask takes group and other bits off a new file.
                [[ $u == 37 ]] && want=${want:0:5}-----
                [[ $u == 31 ]] && want=${want:0:5}--${want:7:2}-
              fi
              [[ $got == "$want" ]] \
                || fail "umask $u, $cmd $force, existing $exist, g=$g o=$o: $got, want $want"
              [[ $exist == no ]] && break 2
            done
          done
        done
      done
    done
  done
}

@test "xcp onto a file with other hard links writes it in place: every name sees it" {
  echo new >f
  echo old >d
  ln d d2
  run --separate-stderr xcp --debug f d
  assert_success
  assert_err --partial "xcp: 'd': written in place: it has other hard links"
  assert_same f d
  assert_same f d2
  assert_equal "$(stat -c %h d)" 2
  # --inplace asks for it on any file; the inode stays.
  echo x >e
  local ino
  ino=$(stat -c %i e)
  run --separate-stderr xcp --inplace --debug f e
  assert_success
  assert_err --partial "xcp: 'e': written in place: --inplace"
  assert_equal "$(stat -c %i e)" "$ino"
  assert_same f e
}

@test "xcp as a user onto another user's writable file in a writable directory: in place" {
  require_nobody
  mkdir -m 0777 box
  cd box
  echo new >f
  chown 65534:65534 f
  echo old >d
  chmod 0666 d
  run --separate-stderr as_nobody "$NC_BINDIR/xcp" --debug f d
  assert_success
  assert_err --partial "written in place: it belongs to another user"
  assert_equal "$(stat -c '%u %a' d)" "0 666"
  assert_same f d
  # A writable file in a directory the user cannot write: in place too.
  mkdir -m 0755 ro
  echo old >ro/d
  chown 65534:65534 ro/d
  run --separate-stderr as_nobody "$NC_BINDIR/xcp" --debug f ro/d
  assert_success
  assert_err --partial "written in place: its directory is not writable"
  assert_same f ro/d
}

@test "xcp -au onto an existing tree keeps the hard-link groups (coreutils preserve-link)" {
  mkdir s
  touch s/f
  ln s/f s/linkm
  ln s/f s/linke
  ln s/f s/fileo
  ln s/f s/fileu
  local first
  for first in f linkm; do
    rm -rf t
    mkdir -p t/s
    touch "t/s/$first"
    ln "t/s/$first" t/s/linke
    touch -d '-1 hour' t/s/fileo
    touch -d '+1 hour' t/s/fileu
    run --separate-stderr xcp -au s t
    assert_success
    local n
    for n in linkm linke fileo fileu; do
      [[ $(stat -c %i t/s/f) == "$(stat -c %i "t/s/$n")" ]] \
        || fail "created $first first: t/s/$n is not a link of t/s/f"
    done
  done
}

@test "xcp -a as a user of another user's set-user-ID file drops set-user/group-ID" {
  require_nobody
  mkdir -m 0777 box
  echo x >su
  chmod 6755 su
  run --separate-stderr as_nobody "$NC_BINDIR/xcp" -a su box/a
  assert_success
  assert_equal "$(stat -c '%u %a' box/a)" "65534 755"
  run --separate-stderr as_nobody "$NC_BINDIR/xcp" --preserve=mode su box/b
  assert_success
  assert_equal "$(stat -c '%a' box/b)" 755
  # Root keeps the owner, so the bits too.
  run --separate-stderr xcp -a su box/c
  assert_equal "$(stat -c '%u %a' box/c)" "0 6755"
}

# require_acl: setfacl, and ACLs on this directory's file system.
require_acl() {
  require_cmd setfacl getfacl
  touch .acl-probe
  setfacl -m u:65534:r .acl-probe 2>/dev/null || skip "no POSIX ACLs here"
  rm -f .acl-probe
}

@test "xcp: ACLs go with the mode; an inherited one is dropped by -a; a replaced file keeps its own" {
  require_acl
  echo data >f
  setfacl -m u:65534:rw f
  # --preserve=mode and -p carry the ACL, as cp -p.
  xcp --preserve=mode f pm
  getfacl -cn pm | grep -qx 'user:65534:rw-' || fail "--preserve=mode lost the ACL"
  xcp f plain
  ! getfacl -cn plain | grep -q 'user:65534' || fail "xcp without -p copied the ACL"
  # A directory with a default ACL: -a leaves no ACL, as cp -a.
  mkdir inh
  setfacl -d -m u:65534:rwx inh
  echo x >noacl
  chmod 0640 noacl
  xcp -a noacl inh/a
  assert_equal "$(getfacl -cn inh/a | grep -c '^user:65534')" 0
  assert_equal "$(stat -c %a inh/a)" 640
  mkdir srcdir
  xcp -a srcdir inh/d
  assert_equal "$(getfacl -cn inh/d | grep -c 'user:65534')" 0
  # An existing destination keeps its ACL when replaced.
  echo old >d
  setfacl -m u:65534:rwx d
  xcp noacl d
  getfacl -cn d | grep -qx 'user:65534:rwx' || fail "the destination lost its ACL"
  assert_same noacl d
}

@test "xcp -r keeps a directory's sticky bit less the umask, as cp -r" {
  mkdir -m 1777 sd
  xcp -r sd sd2
  assert_equal "$(stat -c %a sd2)" 1755
  (umask 077 && xcp -r sd sd3)
  assert_equal "$(stat -c %a sd3)" 1700
}

@test "xcp --reflink=never on btrfs shares no extents; bare --reflink is always" {
  use_tmpfs 4g
  mount_reflink ref
  cd ref || fail
  require_cmd btrfs
  btrfs filesystem du ref >/dev/null 2>&1 || btrfs filesystem du . >/dev/null 2>&1 \
    || skip "btrfs filesystem du does not work here"
  make_random src 4194304
  sync
  run --separate-stderr xcp --reflink=never --debug src never
  assert_success
  refute_err --partial "engine copy_file_range"
  refute_err --partial "engine clone"
  sync
  # Exclusive: the whole file; Set shared: nothing.
  run btrfs filesystem du --raw never
  assert_success
  assert_line --regexp '^ *4194304 +4194304 +'
  run --separate-stderr xcp --reflink --debug src always
  assert_success
  assert_err --partial "engine clone"
}

@test "xcp: --reflink=always --sparse=never is a usage error" {
  echo x >f
  run --separate-stderr xcp --reflink=always --sparse=never f g
  assert_failure 2
  assert_err --partial "xcp: --reflink=always and --sparse=never contradict"
  assert_not_exist g
}

@test "xcp -i asks before a file over a directory too; -v names only made directories" {
  echo a >a
  mkdir dd
  run --separate-stderr xcp -iT a dd <<<n
  assert_failure 1
  assert_err --regexp "^xcp: overwrite 'dd'\? ?$"
  run --separate-stderr xcp -iT a dd <<<y
  assert_failure 1
  assert_err --regexp "^xcp: overwrite 'dd'\? ?xcp: cannot overwrite directory 'dd' with non-directory 'a'$"
  mkdir -p x y
  echo 1 >x/f
  cd y
  run --separate-stderr xcp -va ../x/. .
  assert_success
  assert_output "'../x/./f' -> '././f'"
}

@test "xcp: a replaced file keeps its security.* attributes but those of its contents; -a gives the source's" {
  require_root
  echo new >f
  echo old >d
  python3 -c 'import os, sys; os.setxattr("d", "security.nc", b"of-d")' 2>/dev/null \
    || skip "no security.* attributes on this file system"
  python3 -c 'import os, sys; os.setxattr("d", "security.selinux", b"label-of-d")' 2>/dev/null \
    || skip "security.selinux is the LSM's here"
  run --separate-stderr xcp f d
  assert_success
  assert_same f d
  assert_equal "$(python3 -c 'import os; print(os.getxattr("d", "security.selinux").decode())')" \
    label-of-d
  assert_equal "$(python3 -c 'import os; print(os.getxattr("d", "security.nc").decode())')" \
    of-d
  python3 -c 'import os; os.setxattr("f", "security.nc", b"label-of-f")'
  run --separate-stderr xcp -a f d
  assert_success
  assert_equal "$(python3 -c 'import os; print(os.getxattr("d", "security.nc").decode())')" \
    label-of-f
}
