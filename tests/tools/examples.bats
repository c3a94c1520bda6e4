#!/usr/bin/env bats
# examples.bats -- the examples of README.md and the man pages, run as a
# reader would type them (tests/scripts/run-examples; the mark before
# each says how: its files, root, the output that varies).  A test per
# example, by its rank in its document; running, it names itself
# DOC:LINE and its first command, so that a stale one says where it is.
# A marked example added or removed needs its line here: the first test
# prints the lines this file should have.

load test_helper

setup() {
  nc_setup
  skip_arch_independent "a document's example"
}

examples() {
  "$BATS_TEST_DIRNAME/../scripts/run-examples" "$@"
}

# run_example DOC N: the Nth marked example of DOC, in a scratch
# directory under the test's own.
run_example() {
  local where
  where=$(examples --list "$1" | sed -n "$2p")
  [[ -n $where ]] || fail "$1 has no marked example $2"
  # shellcheck disable=SC2034 # bats prints it on the test's line.
  BATS_TEST_DESCRIPTION="${where%% *}: ${where#* * }"
  TMPDIR=$BATS_TEST_TMPDIR run examples "$1" "$2"
  [[ $status -ne 77 ]] || skip "${output#*: skipped: }"
  [[ $status -eq 0 ]] || fail "$output"
}

@test "every example block is marked, and each marked one has a test here" {
  local doc n tests=() want=()
  run examples --unmarked
  [[ $status -eq 0 ]] || fail "example blocks without a mark:"$'\n'"$output"
  mapfile -t tests < <(grep '^@test ".* example [0-9]*" {' \
    "$BATS_TEST_FILENAME")
  while read -r doc n _; do
    doc=${doc%:*}
    want+=("@test \"$doc example $n\" { run_example $doc $n; }")
  done < <(examples --list)
  [[ "${tests[*]}" == "${want[*]}" ]] ||
    fail "$(printf '%s\n' "the tests examples.bats should end with:" \
      "${want[@]}")"
}

@test "README.md example 1" { run_example README.md 1; }
@test "README.md example 2" { run_example README.md 2; }
@test "README.md example 3" { run_example README.md 3; }
@test "README.md example 4" { run_example README.md 4; }
@test "README.md example 5" { run_example README.md 5; }
@test "README.md example 6" { run_example README.md 6; }
@test "README.md example 7" { run_example README.md 7; }
@test "README.md example 8" { run_example README.md 8; }
@test "README.md example 9" { run_example README.md 9; }
@test "README.md example 10" { run_example README.md 10; }
@test "README.md example 11" { run_example README.md 11; }
@test "README.md example 12" { run_example README.md 12; }
@test "man/ppoll-wait.1 example 1" { run_example man/ppoll-wait.1 1; }
@test "man/ppoll-wait.1 example 2" { run_example man/ppoll-wait.1 2; }
@test "man/ppoll-wait.1 example 3" { run_example man/ppoll-wait.1 3; }
@test "man/ppoll-wait.1 example 4" { run_example man/ppoll-wait.1 4; }
@test "man/ppoll-wait.1 example 5" { run_example man/ppoll-wait.1 5; }
@test "man/ppoll-wait.1 example 6" { run_example man/ppoll-wait.1 6; }
@test "man/ppoll-wait.1 example 7" { run_example man/ppoll-wait.1 7; }
@test "man/ppoll-wait.1 example 8" { run_example man/ppoll-wait.1 8; }
@test "man/ppoll-wait.1 example 9" { run_example man/ppoll-wait.1 9; }
@test "man/ppoll-wait.1 example 10" { run_example man/ppoll-wait.1 10; }
@test "man/ppoll-wait.1 example 11" { run_example man/ppoll-wait.1 11; }
@test "man/ppoll-wait.1 example 12" { run_example man/ppoll-wait.1 12; }
@test "man/ppoll-wait.1 example 13" { run_example man/ppoll-wait.1 13; }
@test "man/ppoll-wait.1 example 14" { run_example man/ppoll-wait.1 14; }
@test "man/ppoll-wait.1 example 15" { run_example man/ppoll-wait.1 15; }
@test "man/ppoll-wait.1 example 16" { run_example man/ppoll-wait.1 16; }
@test "man/ppoll-wait.1 example 17" { run_example man/ppoll-wait.1 17; }
@test "man/ppoll-wait.1 example 18" { run_example man/ppoll-wait.1 18; }
@test "man/ppoll-wait.1 example 19" { run_example man/ppoll-wait.1 19; }
@test "man/ppoll-wait.1 example 20" { run_example man/ppoll-wait.1 20; }
@test "man/preadv-dump.1 example 1" { run_example man/preadv-dump.1 1; }
@test "man/preadv-dump.1 example 2" { run_example man/preadv-dump.1 2; }
@test "man/preadv-dump.1 example 3" { run_example man/preadv-dump.1 3; }
@test "man/preadv-dump.1 example 4" { run_example man/preadv-dump.1 4; }
@test "man/preadv-dump.1 example 5" { run_example man/preadv-dump.1 5; }
@test "man/pwritev-patch.1 example 1" { run_example man/pwritev-patch.1 1; }
@test "man/pwritev-patch.1 example 2" { run_example man/pwritev-patch.1 2; }
@test "man/pwritev-patch.1 example 3" { run_example man/pwritev-patch.1 3; }
@test "man/pwritev-patch.1 example 4" { run_example man/pwritev-patch.1 4; }
@test "man/pwritev-patch.1 example 5" { run_example man/pwritev-patch.1 5; }
@test "man/rmtree.1 example 1" { run_example man/rmtree.1 1; }
@test "man/rmtree.1 example 2" { run_example man/rmtree.1 2; }
@test "man/rmtree.1 example 3" { run_example man/rmtree.1 3; }
@test "man/splice-in.1 example 1" { run_example man/splice-in.1 1; }
@test "man/splice-in.1 example 2" { run_example man/splice-in.1 2; }
@test "man/splice-in.1 example 3" { run_example man/splice-in.1 3; }
@test "man/splice-in.1 example 4" { run_example man/splice-in.1 4; }
@test "man/splice-out.1 example 1" { run_example man/splice-out.1 1; }
@test "man/splice-out.1 example 2" { run_example man/splice-out.1 2; }
@test "man/splice-out.1 example 3" { run_example man/splice-out.1 3; }
@test "man/unshare-run.1 example 1" { run_example man/unshare-run.1 1; }
@test "man/unshare-run.1 example 2" { run_example man/unshare-run.1 2; }
@test "man/unshare-run.1 example 3" { run_example man/unshare-run.1 3; }
@test "man/unshare-run.1 example 4" { run_example man/unshare-run.1 4; }
@test "man/unshare-run.1 example 5" { run_example man/unshare-run.1 5; }
@test "man/unshare-run.1 example 6" { run_example man/unshare-run.1 6; }
@test "man/unshare-run.1 example 7" { run_example man/unshare-run.1 7; }
@test "man/unshare-run.1 example 8" { run_example man/unshare-run.1 8; }
@test "man/xcp.1 example 1" { run_example man/xcp.1 1; }
@test "man/xcp.1 example 2" { run_example man/xcp.1 2; }
@test "man/newcalls.7 example 1" { run_example man/newcalls.7 1; }
@test "man/newcalls.7 example 2" { run_example man/newcalls.7 2; }
