# shellcheck shell=bash
# test_helper.bash -- shared setup of the newcalls bats suite.
#
# Each .bats file does `load test_helper` at its top and calls nc_setup
# from its setup().  The tools are run by name, as a script would, from
# $NC_BINDIR, which the Makefile sets to the build tree's cmd directory.

# `run -N` and `run --separate-stderr` need bats 1.5.
bats_require_minimum_version 1.5.0

BATS_LIB_PATH="${BATS_LIB_PATH:+$BATS_LIB_PATH:}/usr/lib/bats:/usr/local/lib/bats"
bats_load_library bats-support
bats_load_library bats-assert
bats_load_library bats-file

# The tools under test: add a new tool here and cli.bats checks it too.
NC_TOOLS=(splice-in splice-out preadv-dump pwritev-patch ppoll-wait unshare-run rmtree
  xcp)

# Where the tools are: $NC_BINDIR, else the cmd directory of an in-tree
# build, two levels above the tests (tests/tools/).
nc_find_tools() {
  local dir="${NC_BINDIR:-$BATS_TEST_DIRNAME/../../cmd}" tool
  if ! dir=$(cd "$dir" 2>/dev/null && pwd); then
    echo "test_helper: no directory" \
      "${NC_BINDIR:-$BATS_TEST_DIRNAME/../../cmd};" \
      "build first or set NC_BINDIR to the directory of the tools" >&2
    return 1
  fi
  for tool in "${NC_TOOLS[@]}"; do
    if [[ ! -x "$dir/$tool" ]]; then
      echo "test_helper: $tool is not built in $dir;" \
        "build first or set NC_BINDIR to the directory of the tools" >&2
      return 1
    fi
  done
  NC_BINDIR=$dir
  export NC_BINDIR
  PATH="$NC_BINDIR:$PATH"
}
nc_find_tools || return 1

# Run in the test's own directory, with a known umask.
nc_setup() {
  # shellcheck disable=SC2154 # BATS_TEST_TMPDIR is set by bats.
  cd "$BATS_TEST_TMPDIR" || return 1
  umask 022
}

require_cmd() {
  local cmd
  for cmd in "$@"; do
    command -v "$cmd" >/dev/null 2>&1 || skip "$cmd is not installed"
  done
}

require_root() {
  [[ $(id -u) -eq 0 ]] || skip "needs root"
}

# require_helper PATH: the C test helper PATH (tests/helpers/NAME.c, or a
# build of it for the host under qemu) must be built; the build tree's
# tests/helpers holds them, as the source tree's holds their sources.
require_helper() {
  [[ -x $1 ]] \
    || fail "$1 is not built: run 'make tests/helpers/${1##*/}'" \
         "(make check does)"
}

# signum NAME: the number of signal NAME as the tools under test number
# it, from the C library they were built with (tests/helpers/ppoll-race
# signum):
# SIGUSR1 is 10, but 16 on mips and 30 on sparc64, and under qemu-user
# the shell running the tests, built for the host, says 10 for all.  For
# an exit status of 128+N, or a number a tool or helper prints.
signum() {
  local race=${NC_BUILDDIR:-$NC_BINDIR/..}/tests/helpers/ppoll-race
  require_helper "$race"
  "$race" signum "$1"
}

# use_tmpfs SIZE: work in a fresh tmpfs of SIZE mounted on ./fs, as root
# in the mount namespace of its own that run-bats gives the suite, else
# in a plain ./fs (a bats run by hand would mount it in the machine's
# mount table); cd there.  The suite's teardown unmounts it.
use_tmpfs() {
  mkdir fs
  if [[ $(id -u) -eq 0 && -n ${NC_BATS_MOUNT_NS:-} ]]; then
    mount -t tmpfs -o size="$1" nc-test fs || fail "cannot mount a tmpfs"
  fi
  cd fs || return 1
}

# LeakSanitizer cannot run under ptrace: in a sanitizer build, a traced
# tool would end with a LeakSanitizer error instead of its own status.
# Every strace in the suite goes through this function, which turns leak
# detection off for the traced command only.
strace() {
  ASAN_OPTIONS=$(no_leak_check_options) command strace "$@"
}
# The ASAN_OPTIONS of a traced run, for a strace started by another
# program (script -c) rather than through the function above.
no_leak_check_options() {
  printf '%s\n' "${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
}

# The tools may be foreign binaries run by qemu-user (arch/check-arches
# sets NC_QEMU to the emulator's name): the kernel then sees qemu, not the
# tool, so strace, /proc and some kernel features show or refuse qemu.
# A test that cannot hold there says so: skip_under_qemu REASON.
skip_under_qemu() {
  [[ -z ${NC_QEMU:-} ]] || skip "under $NC_QEMU: $*"
}

# skip_arch_independent WHAT: a test of WHAT, which does not depend on
# the architecture (help text, bash completion, what a tool draws on a
# terminal), is skipped under qemu-user: there it would only repeat the
# native run's check, at the cost of minutes for each architecture.
skip_arch_independent() {
  skip_under_qemu "$* is the same on every architecture (the native run checks it)"
}

# For a tool on a terminal (its progress line): script(1) is needed.
require_terminal() {
  skip_arch_independent "what a tool draws on a terminal"
  require_cmd script
}

# on_terminal COMMAND-LINE: bats' run of the shell COMMAND-LINE on a
# terminal (script -qec); what the terminal shows in $output.
on_terminal() {
  run script -qec "$1" /dev/null
}

# traced_on_terminal COMMAND-LINE: on_terminal for a COMMAND-LINE that
# runs strace, which script starts, not the strace function above: leak
# checking off for the line, as that function does.
traced_on_terminal() {
  run env ASAN_OPTIONS="$(no_leak_check_options)" script -qec "$1" /dev/null
}

# strace must be installed and allowed to trace (ptrace can be denied in
# containers).
require_strace() {
  skip_under_qemu "strace would trace qemu, not the tool"
  require_strace_inject
}

# Only to make calls fail (strace -e inject), reading no trace: that works
# under qemu too, which makes the tool's calls as the same host calls.
require_strace_inject() {
  require_cmd strace
  strace -f -o /dev/null true >/dev/null 2>&1 \
    || skip "strace cannot trace here (ptrace denied?)"
}

# For a test whose strace part is an extra: whether strace can trace the
# tools here.
can_strace() {
  [[ -z ${NC_QEMU:-} ]] && command -v strace >/dev/null \
    && strace -o /dev/null true 2>/dev/null
}

# Skip unless the kernel lets users make user namespaces, naming the
# setting that disables them.
require_userns_enabled() {
  local f
  f=/proc/sys/user/max_user_namespaces
  [[ ! -r $f || $(<"$f") -gt 0 ]] || skip "user namespaces disabled: $f is 0"
  f=/proc/sys/kernel/unprivileged_userns_clone
  [[ ! -r $f || $(<"$f") -ne 0 ]] \
    || skip "unprivileged user namespaces disabled: $f is 0"
  f=/proc/sys/kernel/apparmor_restrict_unprivileged_userns
  [[ ! -r $f || $(<"$f") -eq 0 ]] \
    || skip "AppArmor restricts unprivileged user namespaces: $f is 1"
}

# Run a command as the unprivileged uid/gid 65534, without groups.
as_nobody() {
  setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# as_nobody must work and uid 65534 must be able to run the tools (the
# build tree may sit under a directory it cannot enter).
require_nobody() {
  require_root
  require_cmd setpriv
  local tool
  for tool in "${NC_TOOLS[@]}"; do
    as_nobody "$NC_BINDIR/$tool" --version >/dev/null 2>&1 \
      || skip "uid 65534 cannot run $NC_BINDIR/$tool"
  done
}

# make_random FILE BYTES: a file of BYTES random bytes.
make_random() {
  head -c "$2" /dev/urandom >"$1"
  assert_size "$1" "$2"
}

file_size() {
  stat -c %s -- "$1"
}

# assert_size FILE BYTES, saying the actual size on failure.
assert_size() {
  local size
  size=$(file_size "$1") || fail "cannot stat $1"
  [[ $size == "$2" ]] || fail "$1: size $size, expected $2"
}

# assert_same EXPECTED ACTUAL: byte-identical files; on failure show the
# sizes and the first difference.
assert_same() {
  if ! cmp -s -- "$1" "$2"; then
    fail "$(printf '%s (%s bytes) and %s (%s bytes) differ: %s' \
      "$1" "$(file_size "$1")" "$2" "$(file_size "$2")" \
      "$(cmp -- "$1" "$2" 2>&1)")"
  fi
}

# strace_returns LOG CALL [ARGN VALUE]: the byte counts, one a line, that
# the successful CALLs of an `strace -f -o LOG` log returned; with ARGN
# and VALUE, only of the calls whose argument number ARGN (from 1) is
# VALUE.  Only arguments before the first string or structure can be
# tested.
strace_returns() {
  awk -v call="$2" -v argn="${3:-0}" -v value="${4:-}" '
    {
      line = $0
      sub(/^[0-9]+ +/, "", line)         # the pid of -f
      if (index(line, call "(") != 1) next
      if (!match(line, /\) += [0-9]+$/)) next
      ret = substr(line, RSTART, RLENGTH)
      sub(/.*= */, "", ret)
      if (argn > 0) {
        n = split(substr(line, length(call) + 2), a, /, /)
        if (argn > n) next
        arg = a[argn]
        sub(/\).*/, "", arg)
        if (arg != value) next
      }
      print ret
    }' "$1"
}

# strace_sum LOG CALL [ARGN VALUE]: the sum of those byte counts.
strace_sum() {
  strace_returns "$@" | awk '{ sum += $1 } END { printf "%.0f\n", sum }'
}

# strace_count LOG CALL: how many CALLs the log shows, failed ones too.
strace_count() {
  awk -v call="$2" '
    { sub(/^[0-9]+ +/, "") }
    index($0, call "(") == 1 { n++ }
    END { print n + 0 }' "$1"
}

# The standard error of `run --separate-stderr`, checked as bats-assert
# checks $output: assert_err [-p|-e|-r] TEXT, refute_err ...
assert_err() {
  # shellcheck disable=SC2154 # stderr is set by run --separate-stderr.
  output="$stderr" assert_output "$@"
}
refute_err() {
  output="$stderr" refute_output "$@"
}

# For `run`, whose own redirections do not reach the command:
# stdout_to FILE CMD... runs CMD with standard output to FILE, and
# stdout_closed CMD... with standard output closed.
stdout_to() {
  local file=$1
  shift
  "$@" >"$file"
}
stdout_closed() {
  "$@" >&-
}

# --- Fault injection (faults.bats) ---------------------------------------
# The tools are run under `strace -f -e inject=CALL:error=ERRNO:when=N`,
# which makes the Nth CALL of a process fail with ERRNO without running
# it (strace counts each process's calls apart, from 1).  A first run,
# nothing failing, logs the calls; the numbers of the transfers are read
# from that log.

# fault_exec CMD...: CMD under strace, as fault_run and fault_trace set it
# up: FAULT_STRACE the strace options, standard input from FAULT_IN or
# /dev/null, standard output to FAULT_OUT if set; FAULT_FROM_PIPE set:
# `cat $FAULT_IN |` feeds it; FAULT_TO_PIPE set: it writes into `| cat`.
# The status is CMD's (strace passes it on); a tool that hangs on a
# failed call is killed after a minute (status 124).
fault_exec() {
  local -a st
  read -r -a st <<<"$FAULT_STRACE"
  # As the strace function above: no leak detection under ptrace.
  st=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    timeout -k 5 60 strace "${st[@]}")
  local in=${FAULT_IN:-/dev/null} out=${FAULT_OUT:-/dev/stdout}
  if [[ -n ${FAULT_FROM_PIPE:-} ]]; then
    cat -- "$in" | "${st[@]}" "$@" >"$out"
    return "${PIPESTATUS[1]}"
  elif [[ -n ${FAULT_TO_PIPE:-} ]]; then
    "${st[@]}" "$@" <"$in" | cat >"$out"
    return "${PIPESTATUS[0]}"
  fi
  "${st[@]}" "$@" <"$in" >"$out"
}

# fault_trace CALLS CMD...: run CMD, nothing failing, with its CALLS
# (comma-separated) logged to $FAULT_LOG, and openat (for fault_fd).
fault_trace() {
  local calls=$1
  shift
  FAULT_STRACE="-f -qq --seccomp-bpf -o $FAULT_LOG -e trace=$calls,openat" \
    fault_exec "$@"
}

# fault_run SPEC... -- CMD...: `run --separate-stderr` CMD with each SPEC
# (CALL:error=ERRNO:when=WHEN) injected, the calls (and openat) logged to
# $FAULT_LOG (/dev/null if unset); strace marks those it made fail
# "(INJECTED)".
fault_run() {
  local -a inject=() calls=()
  while [[ $1 != -- ]]; do
    inject+=("-e inject=$1")
    calls+=("${1%%:*}")
    shift
  done
  shift
  local IFS=,
  FAULT_STRACE="-f -qq --seccomp-bpf -o ${FAULT_LOG:-/dev/null}"
  FAULT_STRACE+=" -e trace=${calls[*]},openat"
  IFS=' '
  FAULT_STRACE+=" ${inject[*]}"
  run --separate-stderr fault_exec "$@"
}

# fault_calls LOG CALL [REGEX]: the numbers, one a line and sorted, by
# which strace's when= counts the CALLs of a `fault_trace` LOG whose text
# (from the call's name on) matches REGEX (an awk regular expression).
fault_calls() {
  # The expression through the environment: -v would take its
  # backslashes for escapes.
  FAULT_RE="${3:-.}" awk -v call="$2" '
    BEGIN { re = ENVIRON["FAULT_RE"] }
    {
      pid = $1
      line = $0
      sub(/^[0-9]+ +/, "", line)
      if (index(line, call "(") != 1) next
      n[pid]++
      if (line ~ re) print n[pid]
    }' "$1" | sort -n -u
}

# fault_fd LOG NAME: the descriptor that the openat of the file NAME in a
# fault_trace log, LOG, returned.
fault_fd() {
  awk -v name="\"$2\"" '
    /openat\(/ && index($0, name) && match($0, /= [0-9]+$/) {
      print substr($0, RSTART + 2); exit
    }' "$1"
}

# fault_fml N...: the first, the middle and the last of the numbers N,
# without repeats.
fault_fml() {
  printf '%s\n' "$1" "${@:$((($# + 1) / 2)):1}" "${@: -1}" | awk '!seen[$0]++'
}

# fault_strerror ERRNO: the message of the errno named ERRNO.
fault_strerror() {
  case $1 in
    EIO) echo "Input/output error" ;;
    ENOSPC) echo "No space left on device" ;;
    EAGAIN) echo "Resource temporarily unavailable" ;;
    EINTR) echo "Interrupted system call" ;;
    *) echo "unknown errno $1" >&2; return 1 ;;
  esac
}
