#!/usr/bin/env bats
# faults.bats -- every tool's typical jobs with system calls made to fail:
# strace -e inject (see fault_run in test_helper.bash).
#
# Each tool has a table of cases, one a line: JOB CALL ERRNO WHICH [REGEX].
#   JOB    a job: the functions JOB_prepare (fresh files), JOB_cmd (sets
#          CMD and the FAULT_* redirections), JOB_ok (the job was done
#          whole) and JOB_failed ERRNO (the tool said why, exited 1 and
#          lost nothing); a job FAMILY_KIND without its own takes the
#          FAMILY's (si_pipe_ok is si_ok)
#   CALL   the system call that fails; with WHICH random, several may be
#          given, comma-separated: each fails once
#   ERRNO  EINTR and EAGAIN must be retried (waited out) and the job
#          done; EIO and ENOSPC must end it with status 1 and a message,
#          and so must ERRNO=fail (EAGAIN=fail: an EAGAIN not retried)
#   WHICH  first, middle, last (of the transfers), fml (those three),
#          every (each transfer fails once: when=FIRST+2), random (one
#          transfer picked with the seed printed in the output)
#   REGEX  which CALLs of a run where nothing fails are the transfers
#          (awk, on the call's text); @SRC@ stands for the descriptor of
#          the file src.  All CALLs by default.
# The count of cases run per tool is printed as "# TOOL: N cases".
# NC_FAULT_SEED=N replays the random choices of an earlier run.

# $status and $output are run's, read in the check functions of the jobs.
# shellcheck disable=SC2030,SC2031

load test_helper

setup_file() {
  export NC_FAULT_SEED=${NC_FAULT_SEED:-$((($(date +%s) ^ $$) % 100000))}
}

setup() {
  nc_setup
  require_strace
  echo "# random seed $NC_FAULT_SEED (replay: NC_FAULT_SEED=$NC_FAULT_SEED)" >&3
  # One seed per test, so that a test run alone picks as in the suite.
  RANDOM=$((NC_FAULT_SEED + ${#BATS_TEST_DESCRIPTION}))
  head -c 2000000 /dev/urandom >src.orig
}

# assert_prefix FILE ORIG: FILE holds the first bytes of ORIG, nothing
# else (what a failed copy may leave where it wrote in place).
assert_prefix() {
  local size
  size=$(file_size "$1")
  ((size <= $(file_size "$2"))) || { fail "$1 is larger than $2"; return 1; }
  cmp -s -n "$size" -- "$1" "$2" || {
    fail "$1 is not a prefix of $2"
    return 1
  }
}

# assert_failed TOOL ERRNO: status 1 and TOOL's own message with the
# errno's text.
assert_failed() {
  local text
  text=$(fault_strerror "$2")
  [[ $status -eq 1 ]] || {
    fail "status $status, expected 1 (stderr: $stderr)"
    return 1
  }
  [[ $stderr == *"$1: "*"$text"* ]] \
    || { fail "no '$1: ... $text' message: '$stderr'"; return 1; }
}

assert_done() {
  [[ $status -eq 0 ]] || {
    fail "status $status, expected 0 (stderr: $stderr)"
    return 1
  }
  [[ -z $stderr ]] || { fail "unexpected message: $stderr"; return 1; }
}

# run_cases: the table on standard input, each case on fresh files.
run_cases() {
  local -a table
  local line job calls err which regex n=0 tool=${BATS_TEST_DESCRIPTION%%:*}
  mapfile -t table
  for line in "${table[@]}"; do
    read -r job calls err which regex <<<"$line"
    [[ -n $job && $job != \#* ]] || continue
    if [[ $which == fml ]]; then
      for which in first middle last; do
        run_case "$job" "$calls" "$err" "$which" "$regex"
        n=$((n + 1))
      done
    else
      run_case "$job" "$calls" "$err" "$which" "$regex"
      n=$((n + 1))
    fi
  done
  echo "# $tool: $n cases" >&3
}

# fault_specs LOG CALLS ERRNO WHICH REGEX: the inject specs of a case,
# one a line, the transfers read from LOG.
fault_specs() {
  local log=$1 calls=$2 err=$3 which=$4 regex=$5 src_fd call when
  local -a whens
  src_fd=$(fault_fd "$log" src)
  for call in ${calls//,/ }; do
    mapfile -t whens < <(fault_calls "$log" "$call" \
      "${regex//@SRC@/${src_fd:-none}}")
    ((${#whens[@]})) || return 1
    case $which in
      first) when=${whens[0]} ;;
      middle) when=$(fault_fml "${whens[@]}" | sed -n '2p;$p' | head -1) ;;
      last) when=${whens[-1]} ;;
      every) when="${whens[0]}+2" ;;
      random) when=${whens[RANDOM % ${#whens[@]}]} ;;
      *) return 1 ;;
    esac
    echo "$call:error=$err:when=$when"
  done
}

# job_step JOB STEP [ARG...]: JOB's STEP (prepare, cmd, ok, failed), or
# where JOB has none its family's: that of JOB without its last _KIND.
job_step() {
  local job=$1 step=$2
  shift 2
  if declare -F "${job}_$step" >/dev/null; then
    "${job}_$step" "$@"
  else
    "${job%_*}_$step" "$@"
  fi
}

# run_case JOB CALLS ERRNO WHICH REGEX: one case, checked.  The transfers
# are those of a run where nothing fails (itself checked as a success).
# Through a pipe, their number depends on how fast the other end is: a
# run that made fewer calls than the pick, where nothing was injected, is
# taken as the new reference, and the case run again.
run_case() {
  local job=$1 calls=$2 err=$3 which=$4 regex=$5
  local -a specs
  local log="trace.$job.$calls"
  if [[ ! -e $log ]]; then
    job_step "$job" prepare
    job_step "$job" cmd
    FAULT_LOG=$log run --separate-stderr fault_trace "$calls" "${CMD[@]}"
    job_step "$job" ok || fail "$job: the run without faults failed"
  fi
  for _ in 1 2 3 4 5; do
    mapfile -t specs < <(fault_specs "$log" "$calls" "${err%=fail}" "$which" \
      "$regex")
    ((${#specs[@]})) || fail "$job: no $calls transfer in the log"
    job_step "$job" prepare
    job_step "$job" cmd
    FAULT_LOG=fault.log fault_run "${specs[@]}" -- "${CMD[@]}"
    grep -q INJECTED fault.log && break
    mv fault.log "$log"
  done
  local what="$job, ${specs[*]} (seed $NC_FAULT_SEED)"
  grep -q INJECTED fault.log || fail "case $what: nothing was injected"
  case $err in
    EINTR | EAGAIN) job_step "$job" ok || fail "case $what: not done whole" ;;
    *) job_step "$job" failed "${err%=fail}" || fail "case $what: wrong failure" ;;
  esac
  [[ ! -e src ]] || cmp -s src src.orig \
    || fail "case $what: the source changed"
}

# fault_io IN OUT [from-pipe|to-pipe]: the redirections of the job's runs
# (fault_exec in test_helper.bash reads them).
# shellcheck disable=SC2034 # read by fault_exec
fault_io() {
  FAULT_IN=$1 FAULT_OUT=$2 FAULT_FROM_PIPE='' FAULT_TO_PIPE=''
  case ${3:-} in
    from-pipe) FAULT_FROM_PIPE=1 ;;
    to-pipe) FAULT_TO_PIPE=1 ;;
  esac
}

# dir_entries DIR: the names in DIR, space-separated, sorted.
dir_entries() {
  find "$1" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort | paste -sd' '
}

# --- splice-in and splice-out ---------------------------------------------

si_prepare() {
  cp src.orig src
  rm -f out
}
si_ok() {
  assert_done && assert_same src.orig out
}
si_failed() {
  assert_failed splice-in "$1" && assert_prefix out src.orig
}
si_pipe_cmd() {
  CMD=(splice-in src)
  fault_io /dev/null out to-pipe
}
si_file_cmd() {
  CMD=(splice-in src)
  fault_io /dev/null out
}

@test "splice-in: EINTR, EAGAIN retried; EIO, ENOSPC reported" {
  run_cases <<'EOF'
si_pipe splice EINTR every
si_pipe splice EINTR random
si_pipe splice EAGAIN random
si_pipe splice EIO fml
si_pipe splice ENOSPC fml
si_file copy_file_range EINTR every
si_file copy_file_range EAGAIN first
si_file copy_file_range EIO fml
si_file copy_file_range ENOSPC fml
EOF
}

so_prepare() {
  cp src.orig src
  echo "old content" >dst
}
so_ok() {
  assert_done && assert_same src.orig dst
}
so_failed() {
  assert_failed splice-out "$1" && assert_prefix dst src.orig
}
so_pipe_cmd() {
  CMD=(splice-out dst)
  fault_io src /dev/null from-pipe
}
so_file_cmd() {
  CMD=(splice-out dst)
  fault_io src /dev/null
}

@test "splice-out: EINTR, EAGAIN retried; EIO, ENOSPC reported" {
  run_cases <<'EOF'
so_pipe splice EINTR every
so_pipe splice EINTR random
so_pipe splice EAGAIN random
so_pipe splice EIO fml
so_pipe splice ENOSPC fml
so_file copy_file_range EINTR every
so_file copy_file_range EIO fml
so_file copy_file_range ENOSPC fml
EOF
}

# --- rmtree ---------------------------------------------------------------

rm_prepare() {
  rm -rf t keep
  mkdir -p t/a/b t/c keep/k
  touch t/a/{1..5} t/a/b/{1..3} t/c/{1..4} t/f keep/k/1
  echo keep >keep/k/2
}
rm_cmd() {
  CMD=(rmtree t)
  fault_io /dev/null /dev/null
}
rm_keep_intact() {
  [[ $(find keep | sort | paste -sd' ') == "keep keep/k keep/k/1 keep/k/2" ]] \
    && [[ $(cat keep/k/2) == keep ]]
}
rm_ok() {
  assert_done && [[ ! -e t ]] && rm_keep_intact
}
# What rmtree says it could not remove is still there.
rm_failed() {
  assert_failed rmtree "$1" || return 1
  local name
  name=$(sed -n "s/^rmtree: cannot remove '\([^']*\)'.*/\1/p" <<<"$stderr" | head -1)
  [[ -n $name ]] || { fail "no 'cannot remove' message: $stderr"; return 1; }
  [[ -e $name ]] || {
    fail "$name was reported as not removed, but is gone"
    return 1
  }
  rm_keep_intact
}

@test "rmtree: EINTR retried; EIO reported, the rest removed" {
  # ENOSPC: no call of rmtree allocates room.
  run_cases <<'EOF'
rm getdents64 EINTR every
rm unlinkat EINTR every
rm openat EINTR every ^openat\([0-9]
rm getdents64,unlinkat,openat EINTR random ^(getdents64|unlinkat|openat\([0-9])
rm unlinkat EIO fml
rm getdents64 EIO fml
rm openat EIO fml ^openat\([0-9]
EOF
}

# --- preadv-dump ----------------------------------------------------------

pd_prepare() {
  cp src.orig src
  rm -f out
  [[ -e expect ]] || {
    head -c 100000 src.orig
    tail -c +200001 src.orig | head -c 300000
    tail -c +1500001 src.orig
  } >expect
}
pd_cmd() {
  CMD=(preadv-dump -f raw src 0:100000 200000:300000 1500000)
  fault_io /dev/null out
}
pd_ok() {
  assert_done && assert_same expect out
}
pd_failed() {
  assert_failed preadv-dump "$1" && assert_prefix out expect
}

@test "preadv-dump: EINTR retried; EIO, ENOSPC reported" {
  # Standard output goes through stdio, which a tool without a signal
  # handler never sees interrupted: only its own reads get EINTR.
  rm -f expect
  run_cases <<'EOF'
pd preadv EINTR every
pd preadv EINTR random
pd preadv EIO fml
pd write ENOSPC fml ^write\(1,
pd write EIO last ^write\(1,
EOF
}

# --- pwritev-patch --------------------------------------------------------

pw_prepare() {
  head -c 5000 src.orig >pf
  cp pf pf.orig
  tail -c 70000 src.orig >pd
  if [[ ! -e pw.expect ]]; then
    cp pf pw.expect
    printf '\xaa\xbb\xcc' | dd of=pw.expect bs=64K oflag=seek_bytes seek=10 \
      conv=notrunc status=none
    dd if=pd of=pw.expect bs=64K oflag=seek_bytes seek=100 conv=notrunc \
      status=none
    dd if=pd of=pw.expect bs=64K oflag=seek_bytes seek=80000 conv=notrunc \
      status=none
  fi
}
pw_cmd() {
  CMD=(pwritev-patch -e pf '10=aabbcc' 100@pd 80000@pd)
  fault_io /dev/null /dev/null
}
pw_pd_intact() {
  tail -c 70000 src.orig | cmp -s - pd || { fail "pd changed"; return 1; }
}
pw_ok() {
  assert_done && assert_same pw.expect pf && pw_pd_intact
}
# The writes are undone: the file as it was, size too.
pw_failed() {
  assert_failed pwritev-patch "$1" && assert_same pf.orig pf && pw_pd_intact
}

@test "pwritev-patch: EINTR retried; EIO, ENOSPC undone and reported" {
  rm -f pw.expect
  run_cases <<'EOF'
pw pwritev EINTR every
pw preadv EINTR every
pw pwritev,preadv EINTR random
pw pwritev EIO fml
pw pwritev ENOSPC fml
pw preadv EIO fml
EOF
}

# The same job through io_uring: the old bytes read by one enter, the
# patches written by the last (one linked chain).  An enter that fails
# while the old bytes are read is no failure: preadv reads them again,
# pwritev writes (pwu_read_failed checks the job done whole).  One
# that fails while writing leaves which writes were done unknown: every
# run is undone.
pwu_prepare() { pw_prepare; }
pwu_cmd() {
  CMD=(pwritev-patch --engine=uring -e pf '10=aabbcc' 100@pd 80000@pd)
  fault_io /dev/null /dev/null
}
pwu_ok() { pw_ok; }
pwu_failed() { pw_failed "$@"; }
pwu_read_failed() { pw_ok; }

@test "pwritev-patch --engine=uring: EINTR retried; EIO, ENOSPC of the ring undone and reported" {
  local probe
  head -c 10 src.orig >probe
  probe=$(pwritev-patch --engine=uring --debug probe 0=00 2>&1)
  [[ $probe == *'engine uring:'* ]] || skip "no io_uring here: $probe"
  rm -f pw.expect
  run_cases <<'EOF'
pwu io_uring_enter EINTR every
pwu io_uring_enter EINTR random
pwu io_uring_enter EIO last
pwu io_uring_enter ENOSPC last
pwu_read io_uring_enter EIO first
EOF
}

# --- ppoll-wait -----------------------------------------------------------

# A regular file is always ready: the wait ends at once unless it fails.
pp_prepare() { cp src.orig src; }
pp_cmd() {
  CMD=(ppoll-wait -t 5 src)
  fault_io /dev/null ''
}
pp_ok() {
  assert_done && [[ $output == "src in" ]]
}
pp_failed() {
  assert_failed ppoll-wait "$1" && [[ -z $output ]]
}
ps_prepare() { pp_prepare; }
ps_cmd() {
  pp_cmd
  CMD=(ppoll-wait --select -t 5 src)
}
ps_ok() { pp_ok; }
ps_failed() { pp_failed "$@"; }

@test "ppoll-wait: EINTR without a signal waits on; EIO reported" {
  # EINTR with no signal caught is a spurious wake-up: the man page's
  # "until one of the signals named by --signal arrives" means the wait
  # goes on.
  run_cases <<'EOF'
pp ppoll EINTR every
pp ppoll EINTR random
pp ppoll EIO first
pp ppoll ENOSPC first
ps pselect6 EINTR every
ps pselect6 EIO first
EOF
}

# --- unshare-run ----------------------------------------------------------

us_prepare() { :; }
us_cmd() {
  CMD=(unshare-run -p -m sh -c 'exit 3')
  fault_io /dev/null /dev/null
}
# COMMAND's status, passed on through the init of the PID namespace.
us_ok() {
  [[ $status -eq 3 ]] || {
    fail "status $status, expected 3 (stderr: $stderr)"
    return 1
  }
}
us_failed() { assert_failed unshare-run "$1"; }

@test "unshare-run: EINTR retried, the status kept; EAGAIN of fork reported" {
  require_root
  unshare-run -p -m true 2>/dev/null || skip "cannot make namespaces here"
  # The status crosses a pipe as 4 bytes: those reads and writes are the
  # transfers.  EAGAIN of clone is fork's "try again later": reported.
  run_cases <<'EOF'
us wait4 EINTR every
us wait4 EINTR random
us rt_sigtimedwait EINTR every
us read EINTR every , 4\)
us write EINTR every , 4\)
us wait4,rt_sigtimedwait,read,write EINTR random ^(wait4|rt_sigtimedwait|read\(.*, 4\)|write\(.*, 4\))
us clone EAGAIN=fail first
EOF
}

# --- xcp ------------------------------------------------------------------
# The destination directory d holds dst, whose old content must survive
# any failure, and nothing else: no temporary file may be left.

xcp_prepare() {
  cp src.orig src
  rm -rf d
  mkdir d
  echo "old content" >d/dst
}
xcp_ok() {
  assert_done && assert_same src.orig d/dst || return 1
  [[ $(dir_entries d) == dst ]] || {
    fail "d holds: $(dir_entries d)"
    return 1
  }
}
# xcp's promise: DST holds its old content or the new one, never a part
# (a failure after the rename, of the directory's fsync, leaves the new).
xcp_failed() {
  assert_failed xcp "$1" || return 1
  [[ $(cat d/dst) == "old content" ]] || cmp -s d/dst src.orig || {
    fail "d/dst is neither the old content nor the new"
    return 1
  }
  [[ $(dir_entries d) == dst ]] || {
    fail "stray files in d: $(dir_entries d)"
    return 1
  }
}
xcp_cmd_with() {
  CMD=(xcp "$@" src d/dst)
  fault_io /dev/null /dev/null
}
xcp_cfr_cmd() { xcp_cmd_with; }
xcp_rw_cmd() { xcp_cmd_with --engine=rw; }
xcp_splice_cmd() { xcp_cmd_with --engine=splice; }
xcp_sendfile_cmd() { xcp_cmd_with --engine=sendfile; }
xcp_fsync_cmd() { xcp_cmd_with --fsync; }

@test "xcp: EINTR, EAGAIN retried; EIO, ENOSPC reported, the old DST kept" {
  run_cases <<'EOF2'
xcp_cfr copy_file_range EINTR every
xcp_cfr copy_file_range EAGAIN first
xcp_cfr copy_file_range EIO fml
xcp_cfr copy_file_range ENOSPC fml
xcp_cfr ioctl EINTR every FICLONE
xcp_cfr linkat EIO first
xcp_cfr renameat2 EIO first
xcp_rw read EINTR every ^read\(@SRC@,
xcp_rw write EINTR every
xcp_rw read,write EINTR random ^(read\(@SRC@,|write)
xcp_rw read EIO fml ^read\(@SRC@,
xcp_rw write ENOSPC fml
xcp_splice splice EINTR every
xcp_splice splice EAGAIN random
xcp_splice splice EIO fml
xcp_splice splice ENOSPC fml
xcp_sendfile sendfile EINTR every
xcp_sendfile sendfile ENOSPC fml
xcp_fsync fsync EIO fml
EOF2
}

# linkat, renameat2 and fsync answer EINTR on a FUSE or NFS file system
# when a signal arrives: xcp makes them again.
@test "xcp: EINTR of linkat, renameat2, fsync retried" {
  run_cases <<'EOF2'
xcp_cfr linkat EINTR first
xcp_cfr renameat2 EINTR first
xcp_fsync fsync EINTR every
EOF2
}
