#!/usr/bin/env bats
# splice.bats -- splice-in and splice-out, from the outside.
#
# The copies are checked byte for byte with cmp; which system calls moved
# the data is checked with strace and with --debug.

load test_helper

MIB=$((1024 * 1024))

setup() {
  nc_setup
}

teardown() {
  # The ENOSPC tests mount a small tmpfs here.
  if [[ -d $BATS_TEST_TMPDIR/mnt ]] && mountpoint -q "$BATS_TEST_TMPDIR/mnt"
  then
    umount "$BATS_TEST_TMPDIR/mnt"
  fi
}

# pipe_copy SIZE [OPTION...]: SIZE random bytes through
# `splice-in src | splice-out dst`, both given the OPTIONs; both must
# succeed without a message and dst be identical to src.
pipe_copy() {
  local size=$1
  shift
  make_random src "$size"
  splice-in "$@" src 2>in.err | splice-out "$@" dst 2>out.err
  local status_all="${PIPESTATUS[*]}"
  assert_equal "$status_all" "0 0"
  assert_size in.err 0
  assert_size out.err 0
  assert_same src dst
}

# Set O_NONBLOCK on descriptor $1, then exec the command that follows.
NONBLOCK_EXEC='import fcntl, os, sys
fd = int(sys.argv[1])
fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
os.execvp(sys.argv[2], sys.argv[2:])'

# slow_cat FILE: FILE in 64 KiB pieces, with a pause after each, so that a
# reader keeps finding its pipe empty.
slow_cat() {
  local i pieces=$((($(file_size "$1") + 65535) / 65536))
  for ((i = 0; i < pieces; i++)); do
    dd if="$1" bs=64K skip="$i" count=1 status=none
    sleep 0.02
  done
}

# --- byte-identical copies ---------------------------------------------

@test "splice-in | splice-out: empty file" {
  pipe_copy 0
}

@test "splice-in | splice-out: 1 byte" {
  pipe_copy 1
}

@test "splice-in | splice-out: 4095 bytes" {
  pipe_copy 4095
}

@test "splice-in | splice-out: 4096 bytes" {
  pipe_copy 4096
}

# bats test_tags=arch
@test "splice-in | splice-out: 4097 bytes" {
  pipe_copy 4097
}

# bats test_tags=arch
@test "splice-in | splice-out: 64 MiB" {
  pipe_copy $((64 * MIB))
}

@test "splice-in | splice-out: 3 MiB through 64 KiB pipes" {
  pipe_copy $((3 * MIB)) --pipe-size=64K
}

# bats test_tags=arch
@test "splice-in | splice-out: 3 MiB through 8 KiB pipes" {
  pipe_copy $((3 * MIB)) --pipe-size=8K
}

# bats test_tags=arch
@test "splice-in to a regular file" {
  local size
  for size in 0 1 4097 $((3 * MIB)); do
    make_random "src$size" "$size"
    splice-in "src$size" >"dst$size"
    assert_same "src$size" "dst$size"
  done
}

@test "splice-in to a regular file writes at its position" {
  make_random src 100000
  { echo header; splice-in src; echo trailer; } >dst
  { echo header; cat src; echo trailer; } >expected
  assert_same expected dst
}

@test "splice-in to /dev/null" {
  make_random src $((3 * MIB))
  run --separate-stderr stdout_to /dev/null splice-in src
  assert_success
  assert_output ""
  assert_err ""
}

# bats test_tags=arch
@test "splice-out from a regular file" {
  make_random src $((3 * MIB))
  splice-out dst <src
  assert_same src dst
}

@test "splice-out from a regular file starts at its position" {
  make_random src 100000
  { dd bs=1000 count=1 of=/dev/null status=none; splice-out dst; } <src
  tail -c +1001 src >expected
  assert_same expected dst
}

@test "splice-out truncates an existing file" {
  make_random dst 100000
  make_random src 1000
  splice-in src | splice-out dst
  assert_same src dst
}

@test "splice-out creates the file with mode 0666 less the umask" {
  umask 027
  splice-out new </dev/null
  assert_file_exists new
  assert_file_permission 640 new
  assert_size new 0
}

@test "splice-out: a file name with spaces" {
  make_random src 5000
  splice-in src | splice-out "a file"
  assert_same src "a file"
}

# --- /proc and /sys: sizes that stat does not tell --------------------

# proc_copy FILE: splice-in FILE into a pipe and into a regular file; both
# must equal what cat reads.
proc_copy() {
  [[ -r $1 ]] || skip "no $1"
  cat "$1" >expected
  splice-in "$1" | cat >via-pipe
  splice-in "$1" >via-file
  assert_size expected "$(file_size via-pipe)"
  assert_same expected via-pipe
  assert_same expected via-file
}

@test "splice-in /proc/version (st_size 0)" {
  [[ -r /proc/version ]] || skip "no /proc/version"
  assert_size /proc/version 0
  proc_copy /proc/version
  [[ -s expected ]]
}

@test "splice-in /proc/sys/kernel/ostype (st_size 0)" {
  proc_copy /proc/sys/kernel/ostype
  [[ -s expected ]]
}

# bats test_tags=arch
@test "splice-in /proc/self/environ larger than a page (st_size 0)" {
  [[ -r /proc/self/environ ]] || skip "no /proc/self/environ"
  local value
  value=$(seq 1 5000 | tr '\n' ,)
  printf 'V=%s\0' "$value" >expected
  [[ $(file_size expected) -gt 8192 ]]
  # env -i: the environment is exactly V, whatever runs the test.
  env -i "V=$value" "$NC_BINDIR/splice-in" /proc/self/environ >via-file
  env -i "V=$value" "$NC_BINDIR/splice-in" /proc/self/environ | cat >via-pipe
  assert_same expected via-file
  assert_same expected via-pipe
}

@test "splice-in a /sys file stops at its end, not at st_size" {
  local f=/sys/devices/system/cpu/possible
  [[ -r $f ]] || skip "no $f"
  cat "$f" >expected
  [[ $(file_size expected) -lt $(file_size "$f") ]] \
    || skip "$f: st_size is not larger than the content"
  proc_copy "$f"
}

@test "splice-in --offset/--length on /proc/version" {
  [[ -r /proc/version ]] || skip "no /proc/version"
  tail -c +7 /proc/version | head -c 10 >expected
  splice-in --offset=6 --length=10 /proc/version >got
  assert_same expected got
}

# --- --offset and --length --------------------------------------------

@test "splice-in --offset/--length match tail | head" {
  make_random src $((3 * MIB))
  local off len
  for off in 0 1 4095 4096 1000000; do
    for len in 1 4096 70000 $((2 * MIB)); do
      tail -c +$((off + 1)) src | head -c "$len" >expected
      splice-in --offset="$off" --length="$len" src | cat >via-pipe
      splice-in -o "$off" -l "$len" src >via-file
      assert_same expected via-pipe
      assert_same expected via-file
    done
  done
}

@test "splice-in --offset alone copies to the end" {
  make_random src 100000
  tail -c +12346 src >expected
  splice-in --offset=12345 src | cat >via-pipe
  splice-in --offset=12345 src >via-file
  assert_same expected via-pipe
  assert_same expected via-file
}

@test "splice-in --length alone, and larger than the file" {
  make_random src 100000
  head -c 5000 src >expected
  splice-in --length=5000 src | cat >got
  assert_same expected got
  splice-in --length=1G src | cat >got
  assert_same src got
}

@test "splice-in --length=0 and --offset past the end copy nothing" {
  make_random src 10000
  run --separate-stderr splice-in --length=0 src
  assert_success
  assert_output ""
  run --separate-stderr splice-in --offset=20000 src
  assert_success
  assert_output ""
  splice-in --offset=1T src >got
  assert_size got 0
}

# bats test_tags=arch
@test "splice-in --offset beyond 4 GiB in a sparse file" {
  make_random data 10000
  dd if=data of=sparse bs=1 seek=$((5 * 1024 * MIB)) status=none \
    || skip "no sparse 5 GiB file here"
  splice-in --offset=5G sparse | cat >via-pipe
  splice-in --offset=5G sparse >via-file
  assert_same data via-pipe
  assert_same data via-file
}

@test "sizes take K, KB, M suffixes and 0x; a leading 0 is not octal" {
  make_random src $((2 * MIB))
  local arg bytes
  for arg in 1K:1024 1KB:1000 1KiB:1024 1M:1048576 1MB:1000000 0x10:16 \
    010:10 0X20:32; do
    bytes=${arg#*:}
    splice-in --length="${arg%%:*}" src | cat >got
    assert_size got "$bytes"
    head -c "$bytes" src >expected
    assert_same expected got
  done
}

@test "splice-out --offset truncates there first, as dd seek=" {
  make_random base 10000
  make_random data 3000
  local off
  for off in 0 4000 9000 12000; do
    # dd without conv=notrunc truncates at seek= too.
    cp base expected
    dd if=data of=expected bs=1 seek="$off" status=none
    cp base via-pipe
    splice-in data | splice-out --offset="$off" via-pipe
    assert_same expected via-pipe
    cp base via-file
    splice-out -o "$off" via-file <data
    assert_same expected via-file
  done
}

@test "splice-out --offset on a new file leaves a hole of zeros" {
  make_random data 3000
  splice-in data | splice-out --offset=5000 new
  { head -c 5000 /dev/zero; cat data; } >expected
  assert_same expected new
}

# bats test_tags=arch
@test "splice-out --offset beyond 4 GiB" {
  make_random data 10000
  splice-in data | splice-out --offset=5G big \
    || skip "no sparse 5 GiB file here"
  assert_size big $((5 * 1024 * MIB + 10000))
  tail -c 10000 big >got
  assert_same data got
}

@test "splice-out --length copies the first N bytes" {
  make_random src 100000
  head -c 1000 src >expected
  splice-out --length=1000 via-file <src
  assert_same expected via-file
  splice-in src | splice-out --length=1000 via-pipe
  assert_same expected via-pipe
}

@test "splice-out --length leaves the rest of a pipe to the next reader" {
  make_random src 100000
  splice-in src | { splice-out --length=1000 first; cat >rest; }
  cat first rest >got
  assert_size first 1000
  assert_same src got
}

# bats test_tags=arch
@test "splice-out --offset with --length" {
  make_random base 10000
  make_random data 3000
  cp base got
  splice-in data | splice-out --offset=50 --length=20 got
  { head -c 50 base; head -c 20 data; } >expected
  assert_same expected got
}

@test "splice-out --append adds to the end" {
  make_random base 10000
  make_random data 3000
  cp base via-pipe
  splice-in data | splice-out --append via-pipe
  cp base via-file
  splice-out -a via-file <data
  cat base data >expected
  assert_same expected via-pipe
  assert_same expected via-file
}

@test "splice-out --append creates a missing file" {
  make_random data 3000
  splice-in data | splice-out --append new
  assert_same data new
}

@test "splice-out --append with --offset is a usage error" {
  make_random base 1000
  cp base dst
  run --separate-stderr splice-out --append --offset=5 dst <base
  assert_failure 2
  assert_err --partial "splice-out: "
  assert_err --partial "Try 'splice-out --help'"
  # Nothing was touched.
  assert_same base dst
  run --separate-stderr splice-out -a -o 5 new <base
  assert_failure 2
  assert_file_not_exists new
}

# --- FILE -: standard input or output -----------------------------------

# dash_copies TOOL: TOOL - (its standard input for splice-in, output for
# splice-out) copies 3 MiB of src to dst: pipe to pipe (spliced), a
# regular file to a pipe, a regular file to a regular file.
dash_copies() {
  make_random src $((3 * MIB))
  dd if=src bs=64K status=none | "$1" --debug - 2>err | cat >dst
  assert_same src dst
  run cat err
  assert_output --regexp "^$1: engine splice, 3145728 bytes"
  "$1" - <src | cat >dst
  assert_same src dst
  "$1" - <src >dst
  assert_same src dst
}

@test "splice-in -: standard input, a pipe or a regular file" {
  dash_copies splice-in
  # Standard input at its end: nothing.
  run splice-in - </dev/null
  assert_success
  assert_output ""
}

# bats test_tags=arch
@test "splice-in -: read from its offset, which moves; --offset leaves it" {
  make_random src 1000
  # The first 10 bytes by splice-in, the rest by cat: the offset moved.
  { splice-in -l 10 -; cat; } <src >dst
  assert_same src dst
  # At --offset, then cat from where the shell left the offset: 0.
  { splice-in -o 990 -; cat; } <src >dst
  { tail -c 10 src; cat src; } >expected
  assert_same expected dst
  # A pipe has no offsets.
  run --separate-stderr bash -c 'cat src | splice-in -o 5 -'
  assert_failure 1
  assert_err "splice-in: error reading standard input: Illegal seek"
}

@test "splice-out -: standard output, a pipe or a regular file" {
  dash_copies splice-out
  # Appended where the shell's >> puts it.
  echo header >dst
  splice-out - <src >>dst
  { echo header; cat src; } >expected
  assert_same expected dst
}

@test "splice-out -: never truncated; --offset writes there; no --append" {
  printf 'abcdefghij' >f
  printf 'XY' | splice-out -o 3 - 1<>f
  run cat f
  assert_output "abcXYfghij"
  printf 'XY' | splice-out - 1<>f
  run cat f
  assert_output "XYcXYfghij"
  run --separate-stderr splice-out -a - </dev/null
  assert_failure 2
  assert_err "splice-out: --append cannot be used with - (open standard output with >> instead)
Try 'splice-out --help' for more information."
}

@test "- that is the other end's file is refused, as cat does" {
  make_random f 1000
  cp f orig
  run --separate-stderr bash -c 'splice-in - <f >>f'
  assert_failure 1
  assert_err "splice-in: standard input: input file is output file"
  run --separate-stderr bash -c 'splice-out - <f >>f'
  assert_failure 1
  assert_err "splice-out: standard output: input file is output file"
  assert_same orig f
}

@test "./- is a file named -, for both tools" {
  printf 'data' >./-
  run --separate-stderr splice-in ./- </dev/null
  assert_success
  assert_output "data"
  # Standard output is not written by splice-out ./-, the file is.
  run bash -c 'printf new | splice-out ./-'
  assert_success
  assert_output ""
  run cat ./-
  assert_output "new"
}

# --- which system calls move the data --------------------------------

@test "strace: splice-in | splice-out moves the data by splice only" {
  require_strace
  local size=$((8 * MIB))
  local calls=splice,read,write,pread64,pwrite64,readv,writev,preadv,pwritev
  calls+=,sendfile,copy_file_range
  make_random big "$size"
  # stdin given: were it closed, the loader would read libraries on fd 0.
  strace -f -o in.log -e trace="$calls" splice-in big </dev/null \
    | strace -f -o out.log -e trace="$calls" splice-out out
  assert_same big out

  # splice-in: the bytes went into its stdout by splice...
  assert_equal "$(strace_sum in.log splice 3 1)" "$size"
  # ...and splice-out took them from its stdin by splice.
  assert_equal "$(strace_sum out.log splice 1 0)" "$size"

  local log call moved
  for log in in.log out.log; do
    # No read or write on the standard descriptors at all...
    run grep -E '^[0-9]+ +(read|write|readv|writev)\((0|1),' "$log"
    assert_failure
    # ...and whatever else read or wrote (the dynamic loader reads ELF
    # headers and locale files) moved a tiny part of the data.
    moved=0
    for call in read write pread64 pwrite64 readv writev preadv pwritev \
      sendfile copy_file_range; do
      moved=$((moved + $(strace_sum "$log" "$call")))
    done
    [[ $moved -lt $((size / 16)) ]] \
      || fail "$log: $moved bytes moved by read/write-like calls"
  done
}

@test "strace: --pipe-size sets the size of the internal pipe" {
  require_strace
  make_random big $((2 * MIB))
  strace -f -o log -e trace=splice splice-in --pipe-size=16K big >/dev/null
  # The kernel rounds a pipe up to a page at least.
  local max want=16384 page
  page=$(getconf PAGESIZE)
  if ((page > want)); then want=$page; fi
  max=$(strace_returns log splice | sort -n | tail -n 1)
  assert_equal "$max" "$want"
  # In then out of the internal pipe: each byte is spliced twice.
  assert_equal "$(strace_sum log splice)" $((2 * 2 * MIB))
}

@test "strace: --pipe-size sets the size of a stdout pipe" {
  require_strace
  make_random big $((2 * MIB))
  strace -f -o log -e trace=splice splice-in --pipe-size=8K big | cat >out
  assert_same big out
  local max want=8192 page
  page=$(getconf PAGESIZE)
  if ((page > want)); then want=$page; fi
  max=$(strace_returns log splice 3 1 | sort -n | tail -n 1)
  assert_equal "$max" "$want"
  assert_equal "$(strace_sum log splice 3 1)" $((2 * MIB))
}

@test "--debug: splice into a pipe" {
  make_random src 300000
  splice-in --debug src 2>err | splice-out --debug dst 2>err2
  assert_same src dst
  run cat err
  assert_output --regexp '^splice-in: engine splice, 300000 bytes, [0-9]+ calls?$'
  run cat err2
  assert_output --regexp '^splice-out: engine splice, 300000 bytes, [0-9]+ calls?$'
}

@test "--debug: copy_file_range between regular files" {
  make_random src 300000
  splice-in --debug src >dst 2>err
  assert_same src dst
  run cat err
  assert_output --regexp '^splice-in: engine copy_file_range, 300000 bytes, [0-9]+ calls?$'
  splice-out -d dst2 <src 2>err
  assert_same src dst2
  run cat err
  assert_output --regexp '^splice-out: engine copy_file_range, 300000 bytes, [0-9]+ calls?$'
}

@test "--debug: splice through the internal pipe to /dev/null" {
  make_random src 300000
  run --separate-stderr stdout_to /dev/null splice-in --debug src
  assert_success
  assert_err --regexp '^splice-in: engine splice \(internal pipe\), 300000 bytes, [0-9]+ calls?$'
}

@test "--debug: an O_APPEND output goes by read/write" {
  make_random src 300000
  : >dst
  splice-in --debug src >>dst 2>err
  assert_same src dst
  run cat err
  assert_output --regexp '^splice-in: engine read/write, 300000 bytes, [0-9]+ calls?$'
  splice-in src | splice-out --append --debug dst2 2>err
  assert_same src dst2
  run cat err
  assert_output --regexp '^splice-out: engine read/write, 300000 bytes, [0-9]+ calls?$'
}

@test "--debug: '(internal pipe)' only when splice used it" {
  [[ -r /proc/self/environ ]] || skip "no /proc/self/environ"
  # /proc/self/environ refuses copy_file_range and (on current kernels)
  # splice, so the engine falls back after trying the internal pipe.
  env -i V=value "$NC_BINDIR/splice-in" --debug /proc/self/environ \
    >got 2>err
  printf 'V=value\0' >expected
  assert_same expected got
  run cat err
  assert_output --regexp '^splice-in: engine [a-z_/]+( \(internal pipe\))?, 8 bytes, [0-9]+ calls?$'
  if [[ $output == *"(internal pipe)"* ]]; then
    assert_output --partial "engine splice (internal pipe)"
  fi
}

# --- fallbacks, with system calls made to fail by strace --------------
#
# strace -e inject makes a call fail as an old kernel (ENOSYS) or a
# seccomp filter (EPERM) would; the engine must then take the next way
# and still copy the right bytes to the right place.

require_inject() {
  require_strace_inject
  strace -f -o /dev/null -e trace=getpid -e inject=getpid:error=ENOSYS \
    true >/dev/null 2>&1 || skip "this strace cannot inject errors"
}

# inject CALLS ERRNO [WHEN] CMD...: CMD with the system calls CALLS (comma
# separated) failing with ERRNO, each time or as strace's WHEN says
# (a number, N..M, N+STEP).
inject() {
  local calls=$1 errno=$2 when=
  shift 2
  if [[ $1 =~ ^[0-9] ]]; then
    when=:when=$1
    shift
  fi
  strace -f -o /dev/null -e trace="$calls" \
    -e inject="$calls:error=$errno$when" "$@"
}

# fallback_copies CALLS ERRNO ENGINE: with CALLS failing with ERRNO, each
# kind of copy gives the right bytes, and splice-in to a file names ENGINE.
fallback_copies() {
  local calls=$1 errno=$2 engine=$3
  make_random src 300000
  make_random base 10000
  make_random data 3000

  # splice-in into a file, into a pipe, in part and whole.
  inject "$calls" "$errno" splice-in --debug src >got 2>err
  assert_same src got
  run cat err
  assert_output --regexp "^splice-in: engine ${engine}[ ,]"
  tail -c +1001 src | head -c 200000 >expected
  inject "$calls" "$errno" splice-in -o 1000 -l 200000 src >got
  assert_same expected got
  inject "$calls" "$errno" splice-in -o 1000 -l 200000 src | cat >got
  assert_same expected got
  { echo header; inject "$calls" "$errno" splice-in src; } >got
  { echo header; cat src; } >expected
  assert_same expected got

  # splice-out from a file, whole, from its position, at an offset.
  inject "$calls" "$errno" splice-out got <src
  assert_same src got
  { dd bs=1000 count=1 of=/dev/null status=none
    inject "$calls" "$errno" splice-out got; } <src
  tail -c +1001 src >expected
  assert_same expected got
  cp base expected
  dd if=data of=expected bs=1 seek=4000 status=none
  cp base got
  splice-in data | inject "$calls" "$errno" splice-out --offset=4000 got
  assert_same expected got
  cp base got
  inject "$calls" "$errno" splice-out --offset=4000 got <data
  assert_same expected got
  { head -c 4000 base; head -c 1000 data; } >expected
  cp base got
  inject "$calls" "$errno" splice-out -o 4000 -l 1000 got <data
  assert_same expected got
}

@test "fallback: no copy_file_range (ENOSYS) -> splice" {
  require_inject
  fallback_copies copy_file_range ENOSYS 'splice \(internal pipe\)'
}

# bats test_tags=arch
@test "fallback: copy_file_range refused (EXDEV) -> splice" {
  require_inject
  fallback_copies copy_file_range EXDEV 'splice \(internal pipe\)'
}

# bats test_tags=arch
@test "fallback: no copy_file_range nor splice (ENOSYS) -> sendfile" {
  require_inject
  fallback_copies copy_file_range,splice ENOSYS sendfile
}

@test "fallback: seccomp refusing copy_file_range and splice (EPERM)" {
  require_inject
  fallback_copies copy_file_range,splice EPERM sendfile
}

@test "fallback: only read and write left (ENOSYS) -> read/write" {
  require_inject
  # sendfile64 is the call on 32-bit architectures.
  fallback_copies copy_file_range,splice,sendfile,sendfile64 ENOSYS read/write
}

@test "fallback: --debug names the engine that copied, and no internal pipe" {
  require_inject
  make_random src 300000
  inject copy_file_range,splice ENOSYS splice-in --debug src >got 2>err
  assert_same src got
  run cat err
  assert_output --regexp '^splice-in: engine sendfile, 300000 bytes, [0-9]+ calls?$'
  inject copy_file_range,splice,sendfile,sendfile64 ENOSYS splice-in --debug src \
    >got 2>err
  assert_same src got
  run cat err
  assert_output --regexp '^splice-in: engine read/write, 300000 bytes, [0-9]+ calls?$'
}

@test "fallback: an output refusing splice after the input was spliced" {
  require_inject
  # No copy_file_range: file -> internal pipe succeeds, then the pipe ->
  # file splice is refused; the bytes already in the pipe must not be lost.
  make_random src $((3 * MIB))
  inject copy_file_range ENOSYS splice-in --debug src >/dev/null 2>err
  run cat err
  assert_output --partial "engine splice (internal pipe)"
  strace -f -o /dev/null -e trace=copy_file_range,splice \
    -e inject=copy_file_range:error=ENOSYS \
    -e inject=splice:error=EINVAL:when=2 splice-in src >got
  assert_same src got
  tail -c +1001 src | head -c $((2 * MIB)) >expected
  strace -f -o /dev/null -e trace=copy_file_range,splice \
    -e inject=copy_file_range:error=ENOSYS \
    -e inject=splice:error=EINVAL:when=2 \
    splice-in -o 1000 -l 2M src >got
  assert_same expected got
  # splice-out at an offset, into a new file (dd seek= keeps the bytes
  # before the offset of an existing one).
  rm -f got
  { head -c 4000 /dev/zero; cat src; } >expected
  strace -f -o /dev/null -e trace=copy_file_range,splice \
    -e inject=copy_file_range:error=ENOSYS \
    -e inject=splice:error=EINVAL:when=2 \
    splice-out --offset=4000 got <src
  assert_same expected got
}

# bats test_tags=arch
@test "EINTR is retried" {
  require_inject
  make_random src $((1 * MIB))
  inject splice EINTR 1..3 splice-in src | inject splice EINTR 2+2 splice-out got
  assert_same src got
  inject copy_file_range EINTR 1 splice-in src >got
  assert_same src got
  inject splice EINTR 1..4 splice-in src | cat >got
  assert_same src got
  : >got
  inject write EINTR 2..5 splice-in src >>got
  assert_same src got
  : >got
  # Skip the reads the loader (and a sanitizer runtime) make before main:
  # count them in a run that reads no data.
  local startup
  strace -f -o log -e trace=read splice-out --version >/dev/null
  startup=$(grep -c ' read(' log)
  inject read,write EINTR "$((startup + 2))+3" splice-out --append got <src
  assert_same src got
}

@test "EIO is reported, not a reason to fall back" {
  require_inject
  make_random src 300000
  run --separate-stderr inject splice EIO splice-in src
  assert_failure 1
  assert_err "splice-in: error reading 'src': Input/output error"
  run --separate-stderr stdout_to got inject copy_file_range EIO splice-in src
  assert_failure 1
  assert_err --partial "Input/output error"
  run --separate-stderr inject copy_file_range EIO splice-out got <src
  assert_failure 1
  assert_err --partial "Input/output error"
}

@test "EINVAL after bytes moved is an error, not a fallback" {
  require_inject
  make_random src $((1 * MIB))
  # The 3rd splice fails: 2 of 16 pieces of 64 KiB have gone already.
  run --separate-stderr inject splice EINVAL 3 splice-in --pipe-size=64K src
  assert_failure 1
  assert_err "splice-in: error reading 'src': Invalid argument"
}

# --- outputs that refuse splice ---------------------------------------

@test "splice-in >> file (O_APPEND) appends" {
  make_random base 10000
  make_random src 300000
  cp base dst
  splice-in src >>dst
  splice-in --offset=100 --length=5000 src >>dst
  { cat base src; tail -c +101 src | head -c 5000; } >expected
  assert_same expected dst
}

@test "splice-in to a terminal" {
  require_cmd script stty
  seq 1 30000 >src
  # Raw mode: the terminal passes the bytes as they are.
  SHELL=/bin/sh script -qec \
    'stty raw -echo && test -t 1 && splice-in src 2>err' /dev/null \
    </dev/null >got
  assert_size err 0
  assert_same src got
}

# bats test_tags=arch
@test "splice-in to a socket, blocking and non-blocking" {
  require_cmd python3
  make_random src $((2 * MIB))
  local mode
  for mode in block nonblock; do
    # The reader starts late, so that a non-blocking socket fills up.
    python3 -c '
import fcntl, os, socket, subprocess, sys, time
a, b = socket.socketpair()
if sys.argv[1] == "nonblock":
    fcntl.fcntl(a, fcntl.F_SETFL, fcntl.fcntl(a, fcntl.F_GETFL) | os.O_NONBLOCK)
p = subprocess.Popen(sys.argv[2:], stdout=a.fileno())
a.close()
time.sleep(0.1)
with open("got", "wb") as out:
    while True:
        d = b.recv(65536)
        if not d:
            break
        out.write(d)
sys.exit(p.wait())' "$mode" splice-in src 2>err
    assert_size err 0
    assert_same src got
  done
}

# --- non-blocking descriptors -----------------------------------------

@test "splice-out with a non-blocking stdin pipe and a slow writer" {
  require_cmd python3
  make_random src $((1 * MIB))
  slow_cat src | python3 -c "$NONBLOCK_EXEC" 0 splice-out dst 2>err
  assert_size err 0
  assert_same src dst
}

@test "splice-in with a non-blocking stdout pipe and a slow reader" {
  require_cmd python3
  make_random src $((1 * MIB))
  python3 -c "$NONBLOCK_EXEC" 1 splice-in src 2>err \
    | { sleep 0.2; cat >dst; }
  assert_size err 0
  assert_same src dst
}

@test "splice-out --append with a non-blocking stdin pipe" {
  require_cmd python3
  make_random src $((1 * MIB))
  slow_cat src | python3 -c "$NONBLOCK_EXEC" 0 splice-out --append dst 2>err
  assert_size err 0
  assert_same src dst
}

# --- SIGPIPE ------------------------------------------------------------

# bats test_tags=arch
@test "splice-in | head -c 10: ends quietly" {
  require_cmd timeout
  make_random big $((8 * MIB))
  timeout 60 splice-in big 2>err | head -c 10 >got
  local status_all="${PIPESTATUS[*]}"
  # Killed by SIGPIPE (141), or 1 if the signal was ignored by whoever
  # started bats; 124 is timeout's: a hang.
  [[ $status_all == "141 0" || $status_all == "1 0" ]] \
    || fail "exit statuses: $status_all"
  assert_size err 0
  head -c 10 big >expected
  assert_same expected got
}

@test "splice-in | head -c 10 with SIGPIPE ignored: status 1, no message" {
  require_cmd timeout
  make_random big $((8 * MIB))
  (
    trap '' PIPE
    timeout 60 splice-in big 2>err | head -c 10 >/dev/null
    echo "${PIPESTATUS[0]}" >status
  )
  run cat status
  assert_output 1
  assert_size err 0
}

# --- errors -------------------------------------------------------------

# bats test_tags=arch
@test "splice-in: missing file" {
  run --separate-stderr splice-in nope
  assert_failure 1
  assert_output ""
  assert_err "splice-in: cannot open 'nope': No such file or directory"
}

@test "splice-in: a directory" {
  mkdir adir
  run --separate-stderr splice-in adir
  assert_failure 1
  assert_output ""
  assert_err --regexp "^splice-in: .*'adir': Is a directory$"
}

@test "splice-in: unreadable file (as uid 65534)" {
  require_nobody
  mkdir -m 0755 box
  make_random box/secret 100
  chmod 0600 box/secret
  cd box
  run --separate-stderr as_nobody splice-in secret
  assert_failure 1
  assert_output ""
  assert_err "splice-in: cannot open 'secret': Permission denied"
  # The same, readable, goes through: the failure was the permission.
  chmod 0644 secret
  run --separate-stderr as_nobody splice-in secret
  assert_success
}

# nobody_splice_out FILE INPUT: splice-out FILE <INPUT as uid 65534.
nobody_splice_out() {
  as_nobody splice-out "$1" <"$2"
}

@test "splice-out: unwritable directory (as uid 65534)" {
  require_nobody
  mkdir -m 0755 box
  make_random box/data 100
  mkdir -m 0555 box/ro
  mkdir -m 0777 box/rw
  cd box
  run --separate-stderr nobody_splice_out ro/x data
  assert_failure 1
  assert_err "splice-out: cannot open 'ro/x': Permission denied"
  assert_file_not_exists ro/x
  run --separate-stderr nobody_splice_out rw/x data
  assert_success
  assert_same data rw/x
}

@test "splice-out: missing parent directory" {
  make_random data 100
  run --separate-stderr splice-out missing/x <data
  assert_failure 1
  assert_err "splice-out: cannot open 'missing/x': No such file or directory"
}

@test "splice-out: stdin that cannot be read" {
  mkdir adir
  run --separate-stderr splice-out dst <adir
  assert_failure 1
  assert_err --regexp '^splice-out: .*Is a directory$'
}

@test "splice-in >/dev/full" {
  [[ -c /dev/full ]] || skip "no /dev/full"
  make_random src 100000
  run --separate-stderr stdout_to /dev/full splice-in src
  assert_failure 1
  assert_err "splice-in: write error: No space left on device"
  # From a pipe too.
  run --separate-stderr stdout_to /dev/full splice-in /proc/version
  assert_failure 1
  assert_err --partial "No space left on device"
}

@test "splice-out /dev/full" {
  [[ -c /dev/full ]] || skip "no /dev/full"
  make_random src 100000
  run --separate-stderr splice-out /dev/full <src
  assert_failure 1
  assert_err "splice-out: error writing '/dev/full': No space left on device"
  splice-in src | splice-out /dev/full 2>err && fail "splice-out succeeded"
  run cat err
  assert_output "splice-out: error writing '/dev/full': No space left on device"
}

# mount_small_tmpfs: a 1 MiB tmpfs on ./mnt, unmounted by teardown.
mount_small_tmpfs() {
  require_root
  mkdir mnt
  mount -t tmpfs -o size=1m,mode=0755 nc-test mnt 2>/dev/null \
    || skip "cannot mount a tmpfs here"
}

# The bytes that fit were written: OUT is a non-empty prefix of SRC.
assert_prefix() {
  local n
  n=$(file_size "$2")
  [[ $n -gt 0 ]] || fail "$2 is empty"
  cmp -n "$n" -- "$1" "$2" || fail "$2 is not a prefix of $1"
}

@test "ENOSPC: splice-out from a pipe" {
  mount_small_tmpfs
  make_random src $((4 * MIB))
  splice-in src 2>/dev/null | splice-out mnt/out 2>err \
    && fail "splice-out succeeded"
  run cat err
  assert_output "splice-out: error writing 'mnt/out': No space left on device"
  assert_prefix src mnt/out
}

@test "ENOSPC: splice-out from a regular file" {
  mount_small_tmpfs
  make_random src $((4 * MIB))
  run --separate-stderr splice-out mnt/out <src
  assert_failure 1
  assert_err "splice-out: error writing 'mnt/out': No space left on device"
  assert_prefix src mnt/out
}

@test "ENOSPC: splice-out --append" {
  mount_small_tmpfs
  make_random src $((4 * MIB))
  run --separate-stderr splice-out --append mnt/out <src
  assert_failure 1
  assert_err "splice-out: error writing 'mnt/out': No space left on device"
  assert_prefix src mnt/out
}

# bats test_tags=arch
@test "ENOSPC: splice-in into a file" {
  mount_small_tmpfs
  make_random src $((4 * MIB))
  splice-in src >mnt/out 2>err && fail "splice-in succeeded"
  run cat err
  assert_output "splice-in: write error: No space left on device"
  assert_prefix src mnt/out
}

@test "splice-in with stdout closed" {
  make_random src 1000
  cp src before
  run --separate-stderr stdout_closed splice-in src
  assert_failure 1
  # The output is what failed.
  assert_err --partial "splice-in: write error"
  assert_same before src
}

# --- a file copied onto itself -----------------------------------------

# bounded CMD...: CMD (a function too) with files limited to 1 MiB
# (ulimit -f counts KiB) and 20 s of processor time each, so that a tool
# copying a file onto itself is killed (SIGXFSZ, SIGXCPU) instead of
# filling the disk or spinning.
bounded() {
  (
    ulimit -f 1024 -t 20
    "$@"
  )
}

# make_same FILE: FILE of 100000 random bytes, a copy in FILE.orig, and an
# old time stamp on FILE, which a truncation or a write would change.
make_same() {
  make_random "$1" 100000
  cp "$1" "$1.orig"
  touch -d @1000000000 "$1"
}

# assert_untouched FILE: FILE is as make_same left it.
assert_untouched() {
  assert_same "$1.orig" "$1"
  assert_equal "$(stat -c %Y -- "$1")" 1000000000
}

# refused TOOL NAME CMD...: CMD failed with status 1 and TOOL's message
# that NAME is its own input, and the file was not touched.
refused() {
  local tool=$1 name=$2
  shift 2
  run --separate-stderr "$@"
  assert_failure 1
  assert_output ""
  assert_err "$tool: '$name': input file is output file"
  assert_untouched same
}

# shellcheck disable=SC2094 # reading and writing one file is the point.
# bats test_tags=arch
@test "splice-out FILE < FILE is refused before truncating" {
  make_same same
  refused splice-out same bounded splice-out same <same
  refused splice-out same bounded splice-out -d --pipe-size 64K same <same
}

# shellcheck disable=SC2094 # reading and writing one file is the point.
@test "splice-out --append FILE < FILE is refused, nothing appended" {
  make_same same
  refused splice-out same bounded splice-out --append same <same
  refused splice-out same bounded splice-out -a -l 2M same <same
}

# shellcheck disable=SC2094 # reading and writing one file is the point.
@test "splice-out --offset FILE < FILE is refused, before or after the end" {
  make_same same
  local off
  for off in 0 4 50000 100000 200000; do
    refused splice-out same bounded splice-out -o "$off" same <same
  done
}

# shellcheck disable=SC2094 # reading and writing one file is the point.
@test "splice-out: FILE < FILE by a hard link, a symlink, /dev/stdin" {
  make_same same
  ln same hard
  ln -s same sym
  refused splice-out hard bounded splice-out hard <same
  refused splice-out sym bounded splice-out -a sym <same
  refused splice-out sym bounded splice-out -o 4 sym <hard
  [[ -e /dev/stdin ]] || skip "no /dev/stdin"
  refused splice-out /dev/stdin bounded splice-out /dev/stdin <same
}

@test "splice-in FILE >> FILE is refused, nothing appended" {
  make_same same
  refused splice-in same bounded stdout_appended same splice-in same
  refused splice-in same bounded stdout_appended same splice-in -o 99999 same
  ln same hard
  ln -s same sym
  refused splice-in sym bounded stdout_appended hard splice-in sym
}

@test "splice-in FILE 1<> FILE is refused: it would write what it reads" {
  make_same same
  # In place from the start, as cat 9.1 refuses it too.
  refused splice-in same bounded stdout_rw same splice-in same
  # Ahead of what is read: a loop without end.
  refused splice-in same bounded stdout_rw_at same 10 splice-in same
  # Behind what is read, the reads go past where the writes start.
  refused splice-in same bounded stdout_rw same splice-in -o 40000 same
  refused splice-in same bounded stdout_rw same splice-in -o 4 -l 5 same
}

# stdout_appended FILE CMD...: CMD with standard output appending to FILE;
# stdout_rw FILE CMD...: opened read-write at its start, not truncated;
# stdout_rw_at FILE N CMD...: the same at byte N.
stdout_appended() {
  local file=$1
  shift
  "$@" >>"$file"
}
stdout_rw() {
  local file=$1
  shift
  "$@" 1<>"$file"
}
stdout_rw_at() {
  local file=$1 off=$2
  shift 2
  exec 1<>"$file"
  # dd without of= seeks descriptor 1 itself: the offset CMD inherits.
  dd bs="$off" seek=1 count=0 status=none conv=notrunc
  "$@"
}

# shellcheck disable=SC2094 # reading and writing one file is the point.
@test "splice-out --offset FILE < FILE at its end is refused: it would read the zeros" {
  # Nothing to read, but the truncation extends the file past standard
  # input's position: it would read the zeros, then what it wrote.
  touch empty
  run --separate-stderr bounded splice-out -o 100 empty <empty
  assert_failure 1
  assert_err "splice-out: 'empty': input file is output file"
  assert_size empty 0
  make_same same
  refused splice-out same bounded \
    sh -c 'dd bs=100000 count=1 of=/dev/null status=none; exec "$@"' sh \
    splice-out -o 100001 same <same
}

# shellcheck disable=SC2094 # reading and writing one file is the point.
@test "splice-out FILE < FILE at its end copies nothing and truncates, as cat" {
  # As `splice-out f </dev/null`: there is nothing left to read.
  touch empty
  run --separate-stderr bounded splice-out empty <empty
  assert_success
  assert_err ""
  assert_size empty 0
  make_same same
  { cat >/dev/null; bounded splice-out -a same; } <same
  assert_same same.orig same
  { cat >/dev/null; bounded splice-out -o 50000 same; } <same
  assert_size same 50000
  { cat >/dev/null; bounded splice-out same; } <same
  assert_size same 0
}

@test "splice-in FILE > FILE copies nothing, as cat (the shell emptied it)" {
  make_same same
  run --separate-stderr bounded stdout_to same splice-in same
  assert_success
  assert_err ""
  assert_size same 0
}

# shellcheck disable=SC2094 # reading and writing one file is the point.
@test "splice-out --length: FILE onto itself where reads and writes cannot meet" {
  make_same same
  # The whole file appended once: 100000 bytes read from 0, written from
  # 100000.
  bounded splice-out -a -l 100000 same <same
  cat same.orig same.orig >expected
  assert_same expected same
  # One byte more would read the first byte written.
  make_same same
  refused splice-out same bounded splice-out -a -l 100001 same <same
  # From the middle of standard input to an --offset past what it reads:
  # bytes [1000, 31000) to 31000, the file cut after them.
  { dd bs=1000 count=1 of=/dev/null status=none;
    bounded splice-out -o 31000 -l 30000 same; } <same
  { head -c 31000 same.orig; tail -c +1001 same.orig | head -c 30000; } \
    >expected
  assert_same expected same
  # Past the end, the hole between reads as zeros in the file only.
  make_same same
  bounded splice-out -o 150000 -l 100000 same <same
  { cat same.orig; head -c 50000 /dev/zero; cat same.orig; } >expected
  assert_same expected same
  # An --offset one byte short of the end of the reads is refused.
  make_same same
  refused splice-out same bounded \
    sh -c 'dd bs=1000 count=1 of=/dev/null status=none; exec "$@"' sh \
    splice-out -o 30999 -l 30000 same <same
}

@test "splice-in: FILE onto itself where reads and writes cannot meet" {
  make_same same
  # The last 40000 bytes to the start of the file: the writes stay before
  # the reads, which end at the end of the file, where it always was.
  bounded stdout_rw same splice-in -o 60000 same
  { tail -c 40000 same.orig; tail -c +40001 same.orig; } >expected
  assert_same expected same
  # --length bytes from the start appended.
  make_same same
  bounded stdout_appended same splice-in -l 100000 same
  cat same.orig same.orig >expected
  assert_same expected same
  # 10 bytes from the start written ahead of them at 20.
  make_same same
  bounded stdout_rw_at same 20 splice-in -l 10 same
  { head -c 20 same.orig; head -c 10 same.orig; tail -c +31 same.orig; } \
    >expected
  assert_same expected same
}

@test "the same device as input and output is not refused, as with cat" {
  [[ -c /dev/null ]] || skip "no /dev/null"
  run --separate-stderr bounded splice-out /dev/null </dev/null
  assert_success
  assert_err ""
  run --separate-stderr bounded stdout_to /dev/null splice-in /dev/null
  assert_success
  assert_err ""
}

# --- usage errors -----------------------------------------------------

@test "bad option: exit 2" {
  local tool
  for tool in splice-in splice-out; do
    run --separate-stderr "$tool" --bogus x </dev/null
    assert_failure 2
    assert_output ""
    assert_err --partial "$tool: --bogus"
    assert_err --partial "Try '$tool --help' for more information."
  done
}

@test "bad sizes: exit 2" {
  make_random src 100
  local tool arg operand
  for tool in splice-in splice-out; do
    # splice-in would read src, splice-out write dst.
    operand=src
    if [[ $tool == splice-out ]]; then operand=dst; fi
    for arg in --length=abc --offset=-1 --length=99999999999999999999999 \
      --offset=9223372036854775808 --length=' -5' --pipe-size=1Q \
      --length= --offset=0x --length=12abc; do
      run --separate-stderr "$tool" "$arg" "$operand" <src
      assert_failure 2
      assert_output ""
      assert_err --partial "$tool: invalid --"
      assert_err --partial "Try '$tool --help'"
    done
  done
  assert_file_not_exists dst
}

@test "missing file operand: exit 2" {
  local tool
  for tool in splice-in splice-out; do
    run --separate-stderr "$tool" </dev/null
    assert_failure 2
    assert_err --partial "$tool: missing file operand"
    assert_err --partial "Try '$tool --help'"
  done
}

@test "extra operand: exit 2" {
  make_random src 100
  local tool
  for tool in splice-in splice-out; do
    run --separate-stderr "$tool" src extra </dev/null
    assert_failure 2
    assert_output ""
    assert_err --partial "$tool: extra operand 'extra'"
    assert_err --partial "Try '$tool --help'"
  done
  assert_file_not_exists extra
  assert_size src 100
}

@test "option without its argument: exit 2" {
  local tool
  for tool in splice-in splice-out; do
    run --separate-stderr "$tool" src --offset </dev/null
    assert_failure 2
    assert_err --partial "Try '$tool --help'"
  done
}

@test "--pipe-size: 1 to 1G, the reason named; a page at least, 1G at most" {
  make_random src 100
  local tool size
  for tool in splice-in splice-out; do
    for size in 1T 2G 1073741825; do
      run --separate-stderr "$tool" --pipe-size="$size" src </dev/null
      assert_failure 2
      assert_err "$tool: invalid --pipe-size '$size': pipe size too large (at most 1073741824, 1G)
Try '$tool --help' for more information."
    done
    for size in 0 0x0 0K 00; do
      run --separate-stderr "$tool" --pipe-size="$size" src </dev/null
      assert_failure 2
      assert_err "$tool: invalid --pipe-size '$size': pipe size too small (at least 1)
Try '$tool --help' for more information."
    done
  done
  # The bounds themselves are taken (the kernel rounds 1 up to a page; a
  # size it refuses leaves the pipe as it was).
  for size in 1 1G; do
    run --separate-stderr splice-in --pipe-size="$size" src
    assert_success
    run --separate-stderr splice-out --pipe-size="$size" out <src
    assert_success
    assert_same src out
  done
}
