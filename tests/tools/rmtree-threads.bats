#!/usr/bin/env bats
# rmtree-threads.bats -- how rmtree spends its calls: the second thread
# that removes files while the walk goes on (and what it does with a
# file it cannot remove), the directory removed before the read that
# would find its end, and the descriptors of a deep tree.

load test_helper

setup() {
  nc_setup
  HELPER="${NC_BUILDDIR:-$NC_BINDIR/..}/tests/helpers/rmtree-race"
}

teardown() {
  cd "$BATS_TEST_TMPDIR" || return 1
  if [[ -n ${IMMUTABLE:-} ]]; then
    chattr -i "$IMMUTABLE" 2>/dev/null || true
  fi
}

# make_immutable FILE: chattr +i FILE (as root, on a file system that has
# the flag), or skip.
make_immutable() {
  require_root
  require_cmd chattr
  chattr +i "$1" 2>/dev/null || skip "no immutable flag on this file system"
  IMMUTABLE=$PWD/$1
}

# file_unlinks: the successful unlinkat(fd, name, 0) of each trace.PID
# file of strace -ff, a count per thread that made any, one a line.
file_unlinks() {
  local f
  for f in trace.*; do
    grep -cE '^unlinkat\([0-9]+, "[^"]+", 0\) += 0$' "$f" || true
  done | grep -v '^0$'
}

# Alone: under the load of other tests, the second thread might not run
# at all before a small tree is gone.
# bats test_tags=serial
@test "rmtree: files are removed by two threads, directories by the walk's" {
  require_strace
  mkdir t
  for d in a b c d; do
    mkdir "t/$d"
    for i in $(seq 1000); do : >"t/$d/f$i"; done
  done
  run strace -ff -o trace -e trace=unlinkat rmtree t
  assert_success
  assert_output ""
  assert_not_exist t
  # Both threads removed files (the walk's helps while it waits), each
  # file once.
  run file_unlinks
  [[ ${#lines[@]} -eq 2 ]] || fail "files removed by ${#lines[@]} threads"
  (( lines[0] + lines[1] == 4000 )) || fail "${lines[*]} files removed"
  # Every directory once, by one thread.
  run grep -lE 'AT_REMOVEDIR\) += 0$' trace.*
  [[ ${#lines[@]} -eq 1 ]] || fail "directories removed by ${#lines[@]} threads"
  run grep -cE 'AT_REMOVEDIR\) += 0$' "${lines[0]}"
  assert_output 5
}

@test "rmtree: a file the second thread cannot remove is reported once, by its path; its directories stay" {
  mkdir -p t/a/b t/c
  for i in $(seq 100); do : >"t/a/b/f$i"; : >"t/c/g$i"; done
  make_immutable t/a/b/f7
  run --separate-stderr rmtree t
  assert_failure 1
  assert_output ""
  assert_err "rmtree: cannot remove 't/a/b/f7': Operation not permitted"
  assert_exist t/a/b/f7
  [[ $(find t | wc -l) -eq 4 ]] || fail "left: $(find t)"
  assert_not_exist t/c
}

@test "rmtree --json: a failure of the second thread is in the object" {
  require_cmd jq
  mkdir -p t/d
  for i in $(seq 50); do : >"t/d/f$i"; done
  make_immutable t/d/f9
  run --separate-stderr rmtree --json t
  assert_failure 1
  assert_equal "$(jq -c '[.files, .directories, .status]' <<<"$output")" \
    '[49,0,1]'
  assert_equal "$(jq -c '[.errors[] | [.path, .errno]]' <<<"$output")" \
    '[["t/d/f9",1]]'
}

@test "rmtree: a directory is removed before the read that would find its end; found not empty, it is read on" {
  require_strace_inject
  mkdir -p t/a
  # The walk's thread's first unlinkat, the removal of a, fails as if an
  # entry had come after the one batch read: rmtree reads a on, then
  # removes it, and says nothing of the first failure.
  run --separate-stderr strace -o trace.log -e trace=getdents64,unlinkat \
    -e inject=unlinkat:error=ENOTEMPTY:when=1 rmtree t
  assert_success
  assert_err ""
  assert_not_exist t
  run grep -E '^(getdents64|unlinkat)' trace.log
  assert_line --index 0 --regexp '^getdents64\('
  assert_line --index 1 --regexp '^getdents64\('
  assert_line --index 2 --regexp '^unlinkat\([0-9]+, "a", AT_REMOVEDIR\) += -1 ENOTEMPTY .*INJECTED'
  assert_line --index 3 --regexp '^getdents64\(.*\) += 0$'
  assert_line --index 4 --regexp '^unlinkat\([0-9]+, "a", AT_REMOVEDIR\) += 0$'
}

@test "rmtree: a directory whose removal before its end was read fails otherwise is reported once, and still read to its end" {
  require_strace_inject
  mkdir -p t/a
  run --separate-stderr strace -o trace.log -e trace=getdents64,unlinkat \
    -e inject=unlinkat:error=EIO:when=1 rmtree t
  assert_failure 1
  assert_err "rmtree: cannot remove 't/a': Input/output error"
  assert_exist t/a
  run grep -E '^(getdents64|unlinkat)' trace.log
  assert_line --index 2 --regexp '^unlinkat\([0-9]+, "a", AT_REMOVEDIR\) += -1 EIO .*INJECTED'
  assert_line --index 3 --regexp '^getdents64\(.*\) += 0$'
  # Neither a tried again, nor t (which keeps it, and is read to its
  # end: its one batch was short, but something in it stays).
  run grep -c '^unlinkat' trace.log
  assert_output 1
  run grep -cE '^getdents64\(.*\) += 0$' trace.log
  assert_output 2
}

@test "rmtree -v, -i, -n: each file said or asked, by the walk's thread alone" {
  require_strace
  mkdir -p t/d
  for i in $(seq 100); do : >"t/d/f$i"; done
  run strace -ff -o trace -e trace=unlinkat rmtree -v t
  assert_success
  [[ ${#lines[@]} -eq 102 ]] || fail "${#lines[@]} lines"
  run file_unlinks
  assert_output 100
  # The end of each directory is read (no removal before it).
  mkdir -p t/d
  run strace -f -o trace.log -e trace=getdents64 rmtree -v t
  run grep -c '= 0$' trace.log
  assert_output 2
}

@test "rmtree: a deep tree under a low soft descriptor limit raises it to the hard one, and climbs by no '..'" {
  require_strace
  require_helper "$HELPER"
  (( $(ulimit -Hn) >= 4096 )) || skip "hard descriptor limit below 4096"
  "$HELPER" deep deep 3000 2
  run --separate-stderr strace -o trace.log -e trace=prlimit64,openat \
    bash -c 'ulimit -Sn 1024 && exec rmtree deep'
  assert_success
  assert_err ""
  assert_not_exist deep
  run grep -E '^prlimit64\(0, RLIMIT_NOFILE, \{rlim_cur=' trace.log
  assert_success
  run grep -c 'openat([0-9]*, "\.\."' trace.log
  assert_output 0
}

@test "rmtree: the table of descriptors of a deep walk grows in steps of eight times, its second thread paused for each" {
  require_strace
  require_helper "$HELPER"
  (( $(ulimit -Hn) >= 4096 )) || skip "hard descriptor limit below 4096"
  "$HELPER" deep deep 3000 2
  run --separate-stderr strace -f -o trace.log -e trace=fcntl,clone3 \
    bash -c 'ulimit -n 4096 && exec rmtree deep'
  assert_success
  assert_not_exist deep
  # 512, then 4096 (the limit: 4064 held and 32 spare),
  # each with the thread stopped: a thread more each time.
  run grep -oE 'F_DUPFD_CLOEXEC, [0-9]+' trace.log
  assert_output $'F_DUPFD_CLOEXEC, 511\nF_DUPFD_CLOEXEC, 4095'
  run grep -c '^[0-9]* *clone3(' trace.log
  assert_output 3
}

@test "rmtree: a deep tree under a hard limit of 32 descriptors: the second thread's files are done before a level is closed" {
  require_helper "$HELPER"
  "$HELPER" deep deep 3000 2
  run --separate-stderr bash -c 'ulimit -n 32 && exec rmtree deep'
  assert_success
  assert_err ""
  assert_not_exist deep
}
