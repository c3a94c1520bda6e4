#!/usr/bin/env bats
# patch-lock.bats -- pwritev-patch runs on one file take turns: each
# holds an open file description lock over FILE from before it looks at
# the journal to its exit.  A second run fails at once with status 2,
# or with --wait waits; --dry-run takes a read lock.
#
# The lock in the way is held by python3 (fcntl.fcntl with a packed
# struct flock): an OFD lock as another run holds it, or a POSIX one,
# whose holder the message names by pid.

load test_helper

setup() {
  nc_setup
  require_cmd python3
  printf 'ABCDEFGH' >f
  cp f old
}

teardown() {
  [[ -z ${HOLDER:-} ]] || release_lock
}

# hold_lock CMD TYPE: a python3 process that takes a lock of TYPE
# (F_RDLCK or F_WRLCK) over the whole of f with fcntl CMD (F_OFD_SETLK
# or F_SETLK), and holds it until release_lock; its pid in HOLDER.
hold_lock() {
  mkfifo release
  python3 -c '
import fcntl, os, struct, sys
cmd, kind = sys.argv[1:]
# Python before 3.9 lacks the name of F_OFD_SETLK (37 on Linux).
cmd = getattr(fcntl, cmd, 37 if cmd == "F_OFD_SETLK" else None)
fd = os.open("f", os.O_RDWR)
# struct flock: l_type, l_whence, l_start, l_len, l_pid (0: an OFD
# lock requires it).
fcntl.fcntl(fd, cmd, struct.pack("hhqqi", getattr(fcntl, kind),
                                 os.SEEK_SET, 0, 0, 0))
open("locked", "w").close()
open("release").read()
' "$1" "$2" &
  HOLDER=$!
  local i
  for ((i = 0; i < 1000; i++)); do
    [[ -e locked ]] && return
    kill -0 "$HOLDER" 2>/dev/null || fail "the lock holder failed"
    sleep 0.01
  done
  fail "the lock holder did not take its lock"
}

release_lock() {
  : >release
  wait "$HOLDER"
  HOLDER=
  rm -f locked release
}

@test "a run on a file another run is patching fails at once: status 2, nothing written" {
  hold_lock F_OFD_SETLK F_WRLCK
  run --separate-stderr timeout 10 pwritev-patch --journal f 0=7a7a
  assert_failure 2
  assert_err "pwritev-patch: 'f' is being patched by another process; nothing written"
  assert_same old f
  assert_file_not_exists .f.pwritev-journal
}

@test "the holder of a POSIX lock is named by its pid" {
  hold_lock F_SETLK F_WRLCK
  run --separate-stderr timeout 10 pwritev-patch f 0=7a
  assert_failure 2
  assert_err "pwritev-patch: 'f' is being patched by another process (pid $HOLDER); nothing written"
  assert_same old f
}

@test "--recover takes the lock before it looks at the journal" {
  printf 'a torn journal' >.f.pwritev-journal
  hold_lock F_OFD_SETLK F_WRLCK
  run --separate-stderr timeout 10 pwritev-patch --recover f
  assert_failure 2
  assert_err -p "is being patched by another process"
  assert_file_exists .f.pwritev-journal
  release_lock
  run --separate-stderr pwritev-patch --recover f
  assert_success
  assert_err -p "removed the torn journal"
}

@test "--dry-run takes a read lock: shared with readers, not with a writer" {
  hold_lock F_OFD_SETLK F_RDLCK
  run --separate-stderr timeout 10 pwritev-patch -n f 0=7a
  assert_success
  run --separate-stderr timeout 10 pwritev-patch f 0=7a
  assert_failure 2
  assert_err "pwritev-patch: 'f' is being read by another process; nothing written"
  assert_same old f
  release_lock
  hold_lock F_OFD_SETLK F_WRLCK
  run --separate-stderr timeout 10 pwritev-patch -n f 0=7a
  assert_failure 2
  assert_err -p "is being patched by another process"
  assert_output ""
}

@test "--wait: the run waits for the holder, then patches" {
  hold_lock F_OFD_SETLK F_WRLCK
  pwritev-patch --wait --journal f 0=7a7a 2>err &
  local run=$!
  sleep 0.5
  kill -0 "$run" 2>/dev/null || fail "pwritev-patch --wait did not wait"
  assert_same old f
  release_lock
  local status=0
  wait "$run" || status=$?
  ((status == 0)) || fail "pwritev-patch --wait: status $status: $(<err)"
  [[ ! -s err ]] || fail "pwritev-patch --wait: $(<err)"
  printf 'zzCDEFGH' >new
  assert_same new f
  assert_file_not_exists .f.pwritev-journal
}

# race ROUND OPTION...: two runs, each writing its whole pattern (a or
# b) over f, started together; f must be one of the two after them,
# never a mix nor the old zeros, and no journal left.
race() {
  local round=$1 sa=0 sb=0 pa pb
  shift
  head -c 65536 /dev/zero >f
  pwritev-patch "$@" f 0@a 2>err.a &
  pa=$!
  pwritev-patch "$@" f 0@b 2>err.b &
  pb=$!
  wait "$pa" || sa=$?
  wait "$pb" || sb=$?
  assert_file_not_exists .f.pwritev-journal
  if [[ $sa != [02] || $sb != [02] ]] || ((sa != 0 && sb != 0)); then
    fail "round $round: statuses $sa and $sb: $(cat err.a err.b)"
  fi
  if ((sa != 0)); then
    assert_same b f
  elif ((sb != 0)); then
    assert_same a f
  else
    cmp -s a f || cmp -s b f || fail "round $round: f is a mix"
  fi
}

@test "two runs on one file at once, 50 times: f is one run's patch, never a mix" {
  head -c 65536 /dev/zero | tr '\0' A >a
  head -c 65536 /dev/zero | tr '\0' B >b
  local round
  for ((round = 0; round < 50; round++)); do
    race "$round" --journal
  done
  for ((round = 0; round < 20; round++)); do
    race "wait $round" --journal --wait
    [[ ! -s err.a && ! -s err.b ]] || fail "--wait: $(cat err.a err.b)"
  done
}

@test "strace: the lock is taken before the journal is opened" {
  require_strace
  strace -o log -e "trace=/^(fcntl(64)?|openat)$" pwritev-patch --journal f 0=7a
  local lock journal
  lock=$(grep -n 'F_OFD_SETLK, {l_type=F_WRLCK' log | cut -d: -f1)
  journal=$(grep -n 'pwritev-journal' log | head -1 | cut -d: -f1)
  [[ -n $lock && -n $journal ]] || fail "no lock or no journal: $(<log)"
  ((lock < journal)) || fail "the journal opened before the lock: $(<log)"
  strace -o log -e "trace=/^fcntl(64)?$" pwritev-patch -n f 0=7a >out
  grep -q 'F_OFD_SETLK, {l_type=F_RDLCK' log \
    || fail "--dry-run took no read lock: $(<log)"
}

@test "a file that cannot be locked (EINVAL, ENOLCK) is patched unlocked; --debug says so once" {
  # Under qemu, the injection would hit the emulator's own calls.
  require_strace
  # fcntl64 on 32-bit architectures.
  local err fcntl='/^fcntl(64)?$'
  for err in EINVAL ENOLCK; do
    cp old f
    run --separate-stderr strace -o log -e "$fcntl" \
      -e "inject=$fcntl:error=$err" "$NC_BINDIR/pwritev-patch" f 0=7a
    assert_success
    assert_err ""
    run --separate-stderr strace -o log -e "$fcntl" \
      -e "inject=$fcntl:error=$err" "$NC_BINDIR/pwritev-patch" --debug f 1=7a
    assert_success
    # shellcheck disable=SC2154 # run --separate-stderr sets stderr
    assert_equal "$(grep -c 'not locked against other runs' <<<"$stderr")" 1
    printf 'zzCDEFGH' >new
    assert_same new f
  done
  run --separate-stderr strace -o log -e "$fcntl" \
    -e "inject=$fcntl:error=EPERM" "$NC_BINDIR/pwritev-patch" f 0=00
  assert_failure 1
  assert_err "pwritev-patch: cannot lock 'f': Operation not permitted; nothing written"
  assert_same new f
}
