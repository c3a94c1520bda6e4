#!/usr/bin/env bats
# ppoll-process.bats -- ppoll-wait and the processes it waits for: their
# exit status (--status, --json), a deadline that signals them (--kill,
# --kill-after), --count, and --ready-fd's handshake.
#
# The processes waited for are not ppoll-wait's children unless a test
# says so: each is the child of a python3 that reaps it at once, as a
# service manager or a shell would, so that its status is public (the
# kernel gives it to others once its parent has collected it).

load test_helper
load ppoll_helper

setup() {
  nc_setup
  BUILD="${NC_BUILDDIR:-$NC_BINDIR/..}/tests/helpers"
  # shellcheck disable=SC2034 # used by ppoll_helper.bash's start_wait
  RACE="$BUILD/ppoll-race"
  GO_N=0
  JOB_PID=
  WAIT_PID=
  REAPER=
  REAPERS=
}

teardown() {
  local pid
  for pid in $WAIT_PID $JOB_PID; do
    kill -KILL "$pid" 2>/dev/null || true
  done
  # A reaper kills its process on TERM unless it has reaped it: as its
  # parent, it holds its pid, which no other process can have taken.
  for pid in $REAPERS; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in $REAPERS; do
    wait "$pid" 2>/dev/null || true
  done
}

# start_process [-i] CMD: a process that is not this shell's child, its
# pid in PID: sh, the child of a python3 (REAPER) that reaps it at once,
# or kills it when sent TERM.  It waits for a line on the FIFO ./go.N
# (release), then runs CMD; until then it lives on.  -i: it ignores
# TERM from the start.
start_process() {
  require_cmd python3
  local ignore=0
  if [[ $1 == -i ]]; then
    ignore=1
    shift
  fi
  GO_N=$((${GO_N:-0} + 1))
  GO=go.$GO_N
  mkfifo "$GO"
  rm -f process.pid
  python3 -c '
import os, signal, sys
pid = os.fork()
if pid == 0:
    if sys.argv[3] == "1":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.execvp("sh", ["sh", "-c", "read _ <" + sys.argv[2] + "; " + sys.argv[1]])
signal.signal(signal.SIGTERM, lambda *_: os.kill(pid, signal.SIGKILL))
print(pid, flush=True)
os.waitpid(pid, 0)' "$1" "$GO" "$ignore" >process.pid 2>/dev/null 3>&- &
  REAPER=$!
  REAPERS+=" $REAPER"
  local i
  for ((i = 0; i < 200; i++)); do
    if [[ -s process.pid ]]; then
      PID=$(<process.pid)
      return
    fi
    sleep 0.05
  done
  fail "the process did not start"
}

# release [FIFO]: let the process of start_process (of FIFO, else the
# last one) run its CMD.
release() {
  echo >"${1:-$GO}"
}

# status_of ARG...: ppoll-wait ARG... started, the last process of
# start_process released once ppoll-wait waits, its status in $status and
# its output in $output.
status_of() {
  start_wait "$@"
  release
  finish_wait
}

# Skip unless this kernel gives the status of a process to others than
# its parent (PIDFD_INFO_EXIT, Linux 6.15).
require_status_kept() {
  run --separate-stderr ppoll-wait --status pid:1 -t 0
  # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr.
  if [[ $status -eq 1 && $stderr == *"Linux 6.15"* ]]; then
    skip "the kernel keeps no exit status for others (needs Linux 6.15)"
  fi
  assert_equal "$status" 124
}

@test "--status: the exit status of a process that is not its child" {
  require_status_kept
  local code
  for code in 0 1 7 255; do
    start_process "exit $code"
    status_of --status "pid:$PID" -t 30s
    assert_equal "$status" "$code"
    assert_output "pid:$PID exit"
  done
}

@test "--status: a process killed by a signal, 128+N" {
  require_status_kept
  start_process 'kill -TERM $$'
  status_of -q --status "pid:$PID" -t 30s
  assert_equal "$status" 143
  start_process 'kill -KILL $$'
  status_of -q --status "pid:$PID" -t 30s
  assert_equal "$status" 137
}

@test "--status: its own child (exec form), by waitid, on any kernel" {
  # The child of the shell that becomes ppoll-wait: ppoll-wait's child,
  # never reaped by it (WNOWAIT).
  run sh -c '(sleep 0.2; exit 5) & exec "$0" --status -q "pid:$!" -t 30s' \
    "$NC_BINDIR/ppoll-wait"
  assert_equal "$status" 5
  if can_strace; then
    # shellcheck disable=SC2016 # for the inner sh.
    run strace -f -o log -e trace=waitid sh -c \
      '(exit 3) & exec "$0" --status -q "pid:$!" -t 30s' \
      "$NC_BINDIR/ppoll-wait"
    assert_equal "$status" 3
    run grep -c "WNOWAIT" log
    assert_output 1
  fi
}

@test "--status where the kernel keeps no status: exit 1 before the wait" {
  require_strace_inject
  start_process true
  # As a kernel before 6.13 answers PIDFD_GET_INFO.
  run --separate-stderr strace -f -o /dev/null -e inject=ioctl:error=ENOTTY \
    "$NC_BINDIR/ppoll-wait" --status "pid:$PID"
  assert_equal "$status" 1
  assert_output ""
  [[ $stderr == *"--status:"*"PIDFD_INFO_EXIT: Linux 6.15 or later"* ]] \
    || fail "not the kernel named: $stderr"
}

@test "--status: usage errors" {
  run --separate-stderr ppoll-wait --status -t 1 --exists f
  assert_equal "$status" 2
  [[ $stderr == *"--status needs a pid:N target"* ]] || fail "$stderr"
  run --separate-stderr ppoll-wait --status pid:1 -- true
  assert_equal "$status" 2
}

# check_json JSON: the --json object JSON, checked against the schema
# of ppoll-wait(1): types, the values each key may take, and the keys a
# process's status brings.
check_json() {
  python3 -c '
import json, sys
o = json.loads(sys.argv[1])
assert set(o) <= {"result", "kill", "status", "ready", "signal", "remaining"}
assert o["result"] in ("ready", "timeout", "signal")
assert isinstance(o["status"], int) and 0 <= o["status"] <= 255
assert "kill" not in o or o["result"] == "timeout"
for t in o["ready"]:
    assert isinstance(t["target"], str) and isinstance(t["events"], list)
    s = t.get("status")
    assert s in (None, "exited", "killed", "pending", "unknown")
    assert ("exit" in t) == (s == "exited")
    assert ("signal" in t) == (s == "killed")
    if s == "exited":
        assert isinstance(t["exit"], int) and 0 <= t["exit"] <= 255
    if s == "killed":
        assert t["signal"].isalnum() and not t["signal"].startswith("SIG")
print("valid")' "$1"
}

@test "--json: a process's status, exited or killed, as the schema says" {
  require_status_kept
  require_cmd python3
  start_process "exit 42"
  status_of --json --status "pid:$PID" -t 30s
  assert_equal "$status" 42
  [[ $output == *'"status":"exited","exit":42}'* ]] || fail "$output"
  run check_json "$output"
  assert_output valid
  start_process 'kill -USR1 $$'
  status_of --json --status "pid:$PID" -t 30s
  assert_equal "$status" 138
  [[ $output == *'"status":"killed","signal":"USR1"}'* ]] || fail "$output"
  run check_json "$output"
  assert_output valid
}

@test "--kill: TERM through the pidfd at the deadline, exit 124" {
  start_process true
  run ppoll-wait "pid:$PID" -t 0.2 --kill --json
  assert_equal "$status" 124
  [[ $output == '{"result":"timeout","kill":"TERM","status":124,'* ]] \
    || fail "$output"
  [[ $output == *'"target":"pid:'"$PID"'"'* ]] || fail "not ended: $output"
  run check_json "$output"
  assert_output valid
  if can_strace; then
    start_process true
    run strace -f -o log -e trace=kill,tgkill,pidfd_send_signal \
      "$NC_BINDIR/ppoll-wait" -q "pid:$PID" -t 0.2 --kill=HUP
    assert_equal "$status" 124
    run grep -c "pidfd_send_signal([0-9]*, SIGHUP, NULL, 0) = 0" log
    assert_output 1
    run grep -cE "^[0-9]+ +(kill|tgkill)\(" log
    assert_output 0
  fi
}

@test "--kill-after: KILL for a process that ignores TERM, exit 137" {
  start_process -i true
  run ppoll-wait -q "pid:$PID" -t 0.2 --kill --kill-after=0.3
  assert_equal "$status" 137
  [[ ! -d /proc/$PID ]] || [[ $(awk '/^State:/ { print $2 }' \
    "/proc/$PID/status") == Z ]] || fail "still running"
  start_process true
  run ppoll-wait -q "pid:$PID" -t 0.2 --kill=KILL
  assert_equal "$status" 137
  # Ended by TERM in the grace period: 124.
  start_process true
  run ppoll-wait -q "pid:$PID" -t 0.2 --kill --kill-after=30s
  assert_equal "$status" 124
}

@test "--kill: a process that ends before the deadline is not signalled" {
  start_process 'trap "echo signalled >got" TERM; exit 0'
  status_of "pid:$PID" -t 30s --kill
  assert_success
  assert_output "pid:$PID exit"
  [[ ! -e got ]]
}

@test "--kill: a process it may not signal, EPERM named, exit 1" {
  require_nobody
  start_process true
  run --separate-stderr as_nobody "$NC_BINDIR/ppoll-wait" "pid:$PID" \
    -t 0.1 --kill
  assert_equal "$status" 1
  assert_equal "$stderr" \
    "ppoll-wait: cannot send TERM to pid:$PID: Operation not permitted"
  [[ -d /proc/$PID ]]
}

@test "--kill: usage errors" {
  run --separate-stderr ppoll-wait --kill pid:1
  assert_equal "$status" 2
  [[ $stderr == *"--kill needs --timeout"* ]] || fail "$stderr"
  run --separate-stderr ppoll-wait --kill -t 1 --exists f
  assert_equal "$status" 2
  [[ $stderr == *"--kill needs a pid:N target"* ]] || fail "$stderr"
  run --separate-stderr ppoll-wait --kill-after=1 -t 1 pid:1
  assert_equal "$status" 2
  [[ $stderr == *"--kill-after needs --kill"* ]] || fail "$stderr"
  run --separate-stderr ppoll-wait --kill=NOSUCH -t 1 pid:1
  assert_equal "$status" 2
  [[ $stderr == *"invalid signal for --kill: 'NOSUCH'"* ]] || fail "$stderr"
}

# In a PID namespace of its own, where ns_last_pid can hand out a pid
# again: the process waited for ends while ppoll-wait is held (strace
# delays its pidfd_send_signal by 0.7 s) between the deadline and the
# signal; it is reaped, and a newcomer takes its pid number.  The signal
# goes to the pidfd's process, which has ended: never to the newcomer.
@test "--kill: a newcomer with the pid of the ended process is never signalled" {
  require_root
  require_strace
  require_cmd unshare
  unshare -p -f --mount-proc true 2>/dev/null \
    || skip "no PID namespace here"
  local round
  for round in 1 2 3; do
    rm -f got newpid out
    # shellcheck disable=SC2016 # for the inner bash.
    unshare -p -f --mount-proc bash -c '
      sleep 0.3 &
      target=$!
      strace -f -o /dev/null \
        -e inject=pidfd_send_signal:delay_enter=700000 \
        "$0" "pid:$target" -t 0.1 --kill --json >out &
      waiter=$!
      wait "$target"
      echo $((target - 1)) >/proc/sys/kernel/ns_last_pid
      bash -c "trap \"echo signalled >got\" TERM; echo \$\$ >newpid
               sleep 2 & wait" &
      newcomer=$!
      wait "$waiter"
      echo "$target" >target
      wait "$newcomer"' "$NC_BINDIR/ppoll-wait"
    [[ $(<newpid) == "$(<target)" ]] && break
    echo "# round $round: the newcomer got pid $(<newpid), not $(<target)" >&3
  done
  [[ $(<newpid) == "$(<target)" ]] || skip "the pid was not handed out again"
  [[ ! -e got ]] || fail "the newcomer was signalled"
  run cat out
  [[ $output == '{"result":"timeout","kill":"TERM","status":124,'* ]] \
    || fail "$output"
}

@test "--count: N of the targets, -a all of them" {
  start_process 'exit 0'
  local first=$PID first_go=$GO
  start_process true
  start_wait "pid:$first" "pid:$PID" pid:1 --count=2 -t 1
  release "$first_go"
  finish_wait
  assert_equal "$status" 124
  assert_output "pid:$first exit"
  start_process 'exit 0'
  first=$PID first_go=$GO
  start_process 'exit 0'
  start_wait "pid:$first" pid:1 "pid:$PID" --count=2 -t 30s
  release "$first_go"
  release
  finish_wait
  assert_success
  assert_output "pid:$first exit
pid:$PID exit"
  mkdir d
  run ppoll-wait --exists d --exists e --gone f -c 2 -t 30s
  assert_success
  assert_output "d exists
f gone"
}

@test "--count: usage errors" {
  run --separate-stderr ppoll-wait --count=3 pid:1 pid:2
  assert_equal "$status" 2
  assert_equal "$stderr" "ppoll-wait: --count=3: there are 2 targets
Try 'ppoll-wait --help' for more information."
  run --separate-stderr ppoll-wait --count=0 pid:1
  assert_equal "$status" 2
  run --separate-stderr ppoll-wait --count=1 -a pid:1
  assert_equal "$status" 2
  [[ $stderr == *"--count and --all are mutually exclusive"* ]] \
    || fail "$stderr"
}

@test "--ready-fd: a writer that starts after the line is never missed" {
  mkfifo ready
  local round
  for round in $(seq 1 30); do
    rm -f f
    ppoll-wait --ready-fd=3 --closed f -t 30s >out 3>ready &
    JOB_PID=$!
    read -r line <ready
    [[ $line == ready ]] || fail "round $round: $line"
    echo data >f
    wait "$JOB_PID"
    JOB_PID=
    [[ $(<out) == "f closed" ]] || fail "round $round: $(<out)"
  done
}

@test "--ready-fd: a descriptor that is not open, exit 1" {
  run --separate-stderr ppoll-wait --ready-fd=9 --exists f -t 1
  assert_equal "$status" 1
  assert_equal "$stderr" "ppoll-wait: --ready-fd=9: Bad file descriptor"
}
