#!/usr/bin/env bats
# splice-progress.bats -- splice-in's and splice-out's --progress,
# --rate-limit and --size, from the outside.
#
# The line is looked at on a terminal (script(1)); the pace is timed
# with "at least" bounds only, never "at most": a loaded machine may
# always be slower.  A slow rate keeps the data small and the line up for
# more than a second.

load test_helper

KIB=1024
MIB=$((1024 * KIB))

setup() {
  nc_setup
}

# now_ms: the time, in milliseconds.
now_ms() {
  echo $(($(date +%s%N) / 1000000))
}

# assert_at_least_ms START MS WHAT: at least MS milliseconds since START.
assert_at_least_ms() {
  local took=$(($(now_ms) - $1))
  ((took >= $2)) || fail "$3 took $took ms, expected at least $2 ms"
}

# assert_no_data_copied LOG: in the strace LOG, read and write moved no
# more than the loader's and the progress line's few bytes, and neither
# sendfile nor copy_file_range was called: splice moved the data.
assert_no_data_copied() {
  local call sum
  for call in read write; do
    sum=$(strace_sum "$1" "$call")
    ((sum < 64 * KIB)) || fail "$call moved $sum bytes"
  done
  run grep -E '^(sendfile|copy_file_range)' "$1"
  assert_failure
}

@test "splice-in -p on a terminal: the share, the rate and the time left, then the totals" {
  require_terminal
  make_random src "$MIB"
  on_terminal "splice-in -p -L 512K src >out"
  assert_success
  assert_same src out
  assert_output --partial "splice-in: "
  assert_output --regexp "KiB of 1MiB \([0-9]+%\), [0-9.]+KiB/s, ETA [0-9]+ s"
  # The last line, with the totals, stays.
  assert_output --regexp "splice-in: 1MiB in [0-9.]+ s, [0-9.]+KiB/s"
}

@test "splice-out -p: the size of a regular standard input, or -s for a pipe" {
  require_terminal
  make_random src "$MIB"
  on_terminal "splice-out -p -L 512K out <src"
  assert_success
  assert_same src out
  assert_output --regexp "KiB of 1MiB \([0-9]+%\)"
  on_terminal "cat src | splice-out --progress --size=1M -L 512K out"
  assert_success
  assert_same src out
  assert_output --regexp "KiB of 1MiB \([0-9]+%\)"
  # Without a size, no share and no time left: the time taken.
  on_terminal "cat src | splice-out -p -L 512K out"
  assert_success
  assert_output --regexp "splice-out: [0-9.]+KiB, [0-9.]+KiB/s, [0-9]+ s"
  refute_output --partial "ETA"
}

@test "--length and --offset bound the size the time left is counted for" {
  require_terminal
  make_random src $((2 * MIB))
  on_terminal "splice-in -p -L 512K --offset=1M --length=768K src >out"
  assert_success
  assert_size out $((768 * KIB))
  assert_output --regexp "KiB of 768KiB \([0-9]+%\)"
}

@test "-p off a terminal says nothing" {
  make_random src "$MIB"
  run --separate-stderr splice-in -p src
  assert_success
  assert_err ""
  splice-in -p -L 4M src 2>err | splice-out -p -L 4M out 2>>err
  assert_size err 0
  assert_same src out
}

@test "-L: 1 MiB at 512K/s takes at least 1.5 s, through each tool" {
  make_random src "$MIB"
  local start
  start=$(now_ms)
  splice-in -L 512K src | cat >out
  assert_at_least_ms "$start" 1500 "splice-in -L 512K of 1 MiB"
  assert_same src out
  start=$(now_ms)
  # From a pipe, not the file: the pipe's end is spliced.
  # shellcheck disable=SC2002
  cat src | splice-out --rate-limit=512K out
  assert_at_least_ms "$start" 1500 "splice-out -L 512K of 1 MiB"
  assert_same src out
  # Between two regular files too (copy_file_range's calls bounded).
  start=$(now_ms)
  splice-in -L 512K src >out
  assert_at_least_ms "$start" 1500 "splice-in -L 512K into a file"
  assert_same src out
}

@test "strace: with -p and -L, splice still moves the data, a bucket a call" {
  require_strace
  require_terminal
  make_random src "$MIB"
  # -L 1M: a bucket of 128 KiB, the most one call moves.
  traced_on_terminal "strace -o log -e trace=splice,read,write,sendfile,copy_file_range splice-in -p -L 1M src | cat >out"
  assert_success
  assert_same src out
  local total=0 n=0 len
  while read -r len; do
    ((len <= 128 * KIB)) || fail "a splice of $len bytes, above the bucket"
    total=$((total + len))
    n=$((n + 1))
  done < <(strace_returns log splice)
  assert_equal "$total" "$MIB"
  ((n >= 8)) || fail "$n splice calls, expected 8 at least"
  assert_no_data_copied log
}

@test "strace: splice-out -p -L from a pipe splices too" {
  require_strace
  require_terminal
  make_random src "$MIB"
  traced_on_terminal "cat src | strace -o log -e trace=splice,read,write splice-out -p -L 1M out"
  assert_success
  assert_same src out
  local total=0 len
  while read -r len; do
    total=$((total + len))
  done < <(strace_returns log splice)
  assert_equal "$total" "$MIB"
  assert_no_data_copied log
}

@test "-L and -s: bad values are usage errors, before FILE is touched" {
  printf 'keep' >out
  local arg
  for arg in -L0 -L-1 -Lx --rate-limit=1Q -s-1 --size=x; do
    run --separate-stderr splice-out "$arg" out </dev/null
    assert_failure 2
    assert_equal "$(cat out)" "keep"
  done
  run --separate-stderr splice-in -L 0 out
  assert_failure 2
  assert_err --partial "invalid --rate-limit '0'"
}

@test "-p is --progress: --pipe-size has no short option" {
  make_random src 4096
  run --separate-stderr splice-in -p 64K src
  assert_failure 2
  assert_err --partial "extra operand 'src'"
}
