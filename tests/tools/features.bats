#!/usr/bin/env bats
# features.bats -- the kernel's requirements: every tool's --features
# (each call it makes, its Linux version, whether it works here, what the
# tool does without it), the --help pointer to the manuals, and the
# messages for a call the kernel lacks (ENOSYS) or a filter refuses
# (EPERM), made so by strace -e inject.

# shellcheck disable=SC2154 # run --separate-stderr sets stderr

load test_helper

setup() {
  nc_setup
}

# inject CALL ERRNO CMD...: run CMD with every CALL failing with ERRNO.
inject() {
  local call=$1 err=$2
  shift 2
  run --separate-stderr strace -f -qq -o /dev/null \
    -e "inject=$call:error=$err" "$@"
}

# without CALL: what $output, a --features, says the tool does without
# CALL (the line after CALL's).
without() {
  grep -A1 "^$1 " <<<"$output" | sed -n 's/^ \{19\}without it: //p'
}

# A line of --features: the call, "Linux X.Y", and its state here.
FEATURE_LINE='^[a-z_0-9]+ +Linux [0-9]+\.[0-9]+(\.[0-9]+)? +(works|missing: needs Linux [0-9.]+|refused \(seccomp\?\))$'
WITHOUT_LINE='^ {19}without it: [^ ].*[^ ]$'

@test "--features: every tool lists its calls, one line each, then exits 0" {
  local tool line
  for tool in "${NC_TOOLS[@]}"; do
    run --separate-stderr "$tool" --features
    assert_success
    assert_equal "$stderr" ""
    assert_line --index 0 --regexp '^This kernel: Linux '
    assert_line --regexp '^statx +Linux 4\.11 '
    for line in "${lines[@]:1}"; do
      [[ $line =~ $FEATURE_LINE || $line =~ $WITHOUT_LINE ]] \
        || fail "$tool --features: unexpected line '$line'"
    done
  done
}

@test "--features: each tool's own calls, with their versions" {
  run xcp --features
  assert_line --regexp '^copy_file_range +Linux 4\.5 '
  assert_line '                   without it: splice, sendfile, or read and write'
  assert_line --regexp '^renameat2 +Linux 3\.15 '
  assert_equal "$(without renameat2)" "renameat, where the architecture has it"
  local tool
  for tool in xcp splice-in splice-out; do
    run "$tool" --features
    assert_equal "$(without preadv)" pread
    assert_equal "$(without pwritev)" pwrite
  done
  run unshare-run --features
  assert_line --regexp '^openat2 +Linux 5\.6 '
  assert_line --regexp '^mount_setattr +Linux 5\.12 '
  run ppoll-wait --features
  assert_line --regexp '^pidfd_open +Linux 5\.3 '
  run preadv-dump --features
  assert_line --regexp '^io_uring +Linux 5\.4 '
  assert_line '                   without it: preadv'
  run pwritev-patch --features
  assert_line --regexp '^pwritev +Linux 2\.6\.30 '
}

@test "--help ends with the pointer to the tool's manual and newcalls(7)" {
  local tool
  for tool in "${NC_TOOLS[@]}"; do
    run "$tool" --help
    assert_success
    assert_line --regexp '^      --features +show the kernel'
    assert_equal "${lines[-1]}" \
      "Manual: man $tool; what all the tools share: man 7 newcalls."
  done
  # --usage is left short.
  run xcp --usage
  refute_output --partial "Manual:"
}

@test "--features: statx missing or refused says so" {
  require_strace_inject
  inject statx ENOSYS xcp --features
  assert_success
  assert_line --regexp '^statx +Linux 4\.11 +missing: needs Linux 4\.11$'
  inject statx EPERM xcp --features
  assert_line --regexp '^statx +Linux 4\.11 +refused \(seccomp\?\)$'
  inject openat2 ENOSYS unshare-run --features
  assert_line --regexp '^openat2 +Linux 5\.6 +missing: needs Linux 5\.6$'
  assert_line --regexp '^statx +Linux 4\.11 +works$'
}

@test "without statx, xcp and rmtree stat by the C library's fstatat" {
  require_strace_inject
  local err
  for err in ENOSYS EPERM; do
    rm -rf src dst
    mkdir -p src/d
    echo one >src/f
    echo two >src/d/g
    inject statx "$err" xcp -a src dst
    assert_success
    assert_equal "$stderr" ""
    assert_equal "$(cat dst/f dst/d/g)" "one
two"
    inject statx "$err" rmtree dst
    assert_success
    assert_equal "$stderr" ""
    assert_not_exist dst
  done
}

@test "copy_file_range and splice missing: xcp and splice-in copy by the next engine" {
  require_strace_inject
  head -c 100000 /dev/urandom >src
  inject copy_file_range ENOSYS xcp src dst
  assert_success
  cmp src dst
  inject splice ENOSYS splice-in src
  assert_success
  inject copy_file_range,splice EPERM xcp src dst2
  assert_success
  cmp src dst2
}

@test "preadv and pwritev missing or refused: the message names the call" {
  require_strace_inject
  printf 'hello\n' >f
  inject preadv ENOSYS preadv-dump f 0 4
  assert_failure 1
  assert_equal "$stderr" "preadv-dump: error reading 'f': preadv is not in this kernel (Linux 2.6.30 or later)"
  inject preadv EPERM preadv-dump f 0 4
  assert_failure 1
  assert_equal "$stderr" "preadv-dump: error reading 'f': preadv: refused (seccomp?)"
  inject pwritev ENOSYS pwritev-patch f 0=41
  assert_failure 1
  assert_equal "$stderr" "pwritev-patch: error writing 'f' at patch '0=41': pwritev is not in this kernel (Linux 2.6.30 or later); nothing written"
  inject pwritev EPERM pwritev-patch f 0=41
  assert_equal "$stderr" "pwritev-patch: error writing 'f' at patch '0=41': pwritev: refused (seccomp?); nothing written"
  assert_equal "$(cat f)" hello
}

@test "io_uring missing or refused: preadv-dump reads by preadv" {
  require_strace_inject
  printf 'hello\n' >f
  local err
  for err in ENOSYS EPERM; do
    inject io_uring_setup "$err" preadv-dump --engine=uring f 0 4
    assert_success
    assert_output "$(preadv-dump f 0 4)"
  done
}

@test "pidfd_open missing or refused: ppoll-wait names it" {
  require_strace_inject
  inject pidfd_open ENOSYS ppoll-wait -t 1 "pid:$$"
  assert_failure 1
  assert_equal "$stderr" "ppoll-wait: cannot wait for pid:$$: pidfd_open is not in this kernel (Linux 5.3 or later)"
  inject pidfd_open EPERM ppoll-wait -t 1 "pid:$$"
  assert_failure 1
  assert_equal "$stderr" "ppoll-wait: cannot wait for pid:$$: pidfd_open: refused (seccomp?)"
}

@test "statx missing or refused: ppoll-wait's watch of a path names it" {
  require_strace_inject
  inject statx ENOSYS ppoll-wait -t 1 --exists nothere
  assert_failure 1
  assert_equal "$stderr" "ppoll-wait: cannot watch './nothere': statx is not in this kernel (Linux 4.11 or later)"
  inject statx EPERM ppoll-wait -t 1 --exists nothere
  assert_failure 1
  assert_equal "$stderr" "ppoll-wait: cannot watch './nothere': statx: refused (seccomp?)"
}

@test "unshare and the mount API missing or refused: unshare-run names them" {
  require_strace_inject
  inject unshare ENOSYS unshare-run -r true
  assert_failure
  assert_equal "$stderr" "unshare-run: unshare is not in this kernel (Linux 2.6.16 or later)"
  inject unshare EPERM unshare-run -r true
  assert_failure
  assert_equal "$stderr" "unshare-run: unshare: refused (seccomp?)"
  unshare-run -r true 2>/dev/null \
    || skip "no user namespace for unshare-run -r here"
  inject open_tree ENOSYS unshare-run -r --ro-bind / / true
  assert_failure
  assert_equal "$stderr" "unshare-run: --ro-bind '/' '/': open_tree is not in this kernel (Linux 5.2 or later)"
  inject openat2 EPERM unshare-run -r --ro-bind / / true
  assert_failure
  assert_equal "$stderr" "unshare-run: --ro-bind '/' '/': openat2: refused (seccomp?)"
  inject mount_setattr ENOSYS unshare-run -r --ro-bind / / true
  assert_failure
  assert_equal "$stderr" "unshare-run: cannot build the new root: mount_setattr is not in this kernel (Linux 5.12 or later)"
}
