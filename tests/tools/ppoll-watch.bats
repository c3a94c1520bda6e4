#!/usr/bin/env bats
# ppoll-watch.bats -- ppoll-wait's pid: targets and its --exists, --gone
# and --closed paths, from the outside, as scripts use them.
#
# As in ppoll.bats, a wait that must end is started in the background and
# the test acts (makes a directory, kills a process) only once the helper
# tests/helpers/ppoll-race has seen ppoll-wait asleep in its wait: no sleeps.  The
# races (a tree made while the wait starts, a process ending as it starts)
# are run by tests/helpers/watch-race, 300 rounds each; their timings are printed
# there, not tested here.  Four tests wait out a timeout of 1 s on
# purpose: what must not end a wait can only be seen not to end it (the
# act comes once ppoll-wait sleeps, so a slow machine makes them pass
# for no reason, never fail); the timeout is no measure of anything.

load test_helper
load ppoll_helper

setup() {
  nc_setup
  BUILD="${NC_BUILDDIR:-$NC_BINDIR/..}/tests/helpers"
  RACE="$BUILD/ppoll-race"
  WATCH_RACE="$BUILD/watch-race"
  JOB_PID=
  WAIT_PID=
  ORPHAN=
  ZOMBIE_PARENT=
  HOLDER=
  THREADED=
}

teardown() {
  local pid
  for pid in $WAIT_PID $JOB_PID $ORPHAN $ZOMBIE_PARENT $HOLDER $THREADED; do
    kill -KILL "$pid" 2>/dev/null || true
  done
  # Reaped here, a killed job is not reported on the test's output.
  for pid in $ZOMBIE_PARENT $HOLDER $THREADED; do
    wait "$pid" 2>/dev/null || true
  done
}

# start_traced CALLS ARG...: start_wait under strace -f -o log -e
# trace=CALLS.
start_traced() {
  require_helper "$RACE"
  local calls=$1
  shift
  strace -f -o log -e trace="$calls" ppoll-wait "$@" >out 2>err 3>&- &
  JOB_PID=$!
  WAIT_PID=$(find_tool "$JOB_PID")
  "$RACE" wait "$WAIT_PID"
}

# start_orphan: a process that is not a child of this shell (a sleep of
# a subshell that has exited, adopted by the system's reaper), its pid in
# ORPHAN.
start_orphan() {
  ORPHAN=$(
    sleep 1000 >/dev/null 2>&1 &
    echo $!
  )
  [[ -d /proc/$ORPHAN ]] || fail "the orphan sleep did not start"
  [[ $(ps -o ppid= -p "$ORPHAN") -ne $$ ]] || fail "the orphan is a child"
}

# make_zombie: a process that has ended but was not reaped, its pid in
# ZOMBIE: the child of a python3 (ZOMBIE_PARENT) that never waits (a
# shell might reap it before it execs).
make_zombie() {
  require_cmd python3
  python3 -c '
import os, time
pid = os.fork()
if pid == 0:
    os._exit(0)
print(pid, flush=True)
time.sleep(1000)' >zombie.pid &
  ZOMBIE_PARENT=$!
  local i state=
  for ((i = 0; i < 200; i++)); do
    if [[ -s zombie.pid ]]; then
      ZOMBIE=$(<zombie.pid)
      state=$(awk '/^State:/ { print $2 }' "/proc/$ZOMBIE/status" 2>/dev/null) || true
      [[ $state == Z ]] && return
    fi
    sleep 0.05
  done
  fail "no zombie (state ${state:-unknown})"
}

# start_threaded: a python3 with a second thread, both asleep, its pid
# in THREADED, the thread's id in ./tid.
start_threaded() {
  python3 -c '
import threading, time
t = threading.Thread(target=time.sleep, args=(1000,), daemon=True)
t.start()
print(t.native_id, flush=True)
time.sleep(1000)' >tid &
  THREADED=$!
  local i
  for ((i = 0; i < 200; i++)); do
    [[ -s tid ]] && return
    sleep 0.05
  done
  fail "python3 did not start its thread"
}

# hold_for_writing FILE: a process (HOLDER) that holds FILE open for
# writing.  A process of its own: a descriptor of this shell would be
# inherited by ppoll-wait, which would then hold the file itself.
hold_for_writing() {
  sleep 1000 >>"$1" &
  HOLDER=$!
}

# --- --exists -------------------------------------------------------------

@test "--exists: a path already there is ready at once" {
  mkdir -p a/b
  touch a/b/file
  run --separate-stderr ppoll-wait --exists a/b/file -t 0
  assert_success
  assert_output "a/b/file exists"
  assert_err ""
  # No operand is needed; an absolute path is printed as given.
  run ppoll-wait -t 0 --exists "$PWD/a/b"
  assert_success
  assert_output "$PWD/a/b exists"
}

@test "--exists: a/b/c/file, its directories made during the wait" {
  start_wait --exists a/b/c/file -t 30s
  mkdir a
  "$RACE" wait "$WAIT_PID"
  mkdir a/b
  "$RACE" wait "$WAIT_PID"
  mkdir a/b/c
  "$RACE" wait "$WAIT_PID"
  echo data >a/b/c/file
  finish_wait
  assert_equal "$status" 0
  assert_output "a/b/c/file exists"
  assert_equal "$(cat err)" ""
}

@test "--exists: directories alone, or a neighbour, do not make the file: 124" {
  start_wait --exists a/b/c/file -t 1s
  mkdir -p a/b/c
  touch a/b/c/other a/b/c/file.tmp a/b/file
  finish_wait
  assert_equal "$status" 124
  assert_output ""
}

@test "--exists: a file renamed into place" {
  mkdir d
  start_wait --exists d/file -t 30s
  echo data >d/.file.tmp
  mv d/.file.tmp d/file
  finish_wait
  assert_equal "$status" 0
  assert_output "d/file exists"
}

@test "--exists: a directory renamed into place with the file inside" {
  mkdir -p a.new/b
  echo data >a.new/b/file
  start_wait --exists a/b/file -t 30s
  mv a.new a
  finish_wait
  assert_equal "$status" 0
  assert_output "a/b/file exists"
}

@test "--exists: a directory on the way replaced by rename" {
  # a/b is there without the file; a new a/b with it takes its place.
  mkdir -p a/b new/b
  touch new/b/file
  start_wait --exists a/b/file -t 30s
  mv -T new/b a/b.new
  # rename(2) replaces an empty directory.
  mv -T a/b.new a/b
  finish_wait
  assert_equal "$status" 0
  assert_output "a/b/file exists"
}

@test "--exists: a dangling symlink exists; with --follow, once its target does" {
  ln -s target link
  run ppoll-wait --exists link -t 0
  assert_success
  assert_output "link exists"
  run ppoll-wait --follow --exists link -t 0
  assert_failure 124
  assert_output ""
  start_wait --follow --exists link -t 30s
  touch target
  finish_wait
  assert_equal "$status" 0
  assert_output "link exists"
}

@test "--exists: a symlink to a directory on the way, its target made later" {
  ln -s real d
  start_wait --exists d/sub/file -t 30s
  mkdir real
  "$RACE" wait "$WAIT_PID"
  mkdir real/sub
  touch real/sub/file
  finish_wait
  assert_equal "$status" 0
  assert_output "d/sub/file exists"
}

@test "--exists: a symlink on the way that is made to point elsewhere" {
  mkdir one two
  ln -s one d
  start_wait --exists d/file -t 30s
  touch two/file
  ln -sfn two d.new
  mv -T d.new d
  finish_wait
  assert_equal "$status" 0
  assert_output "d/file exists"
}

@test "--exists: a search-denied directory on the way is an error naming it (as uid 65534)" {
  require_nobody
  mkdir -m 0755 box
  mkdir -m 0700 box/locked
  cd box
  run --separate-stderr as_nobody ppoll-wait --exists locked/sub/file -t 5s
  assert_failure 1
  assert_output ""
  assert_err --partial "locked"
  assert_err --partial "Permission denied"
}

@test "--exists: out of inotify watches is an error naming the directory (strace)" {
  require_strace_inject
  mkdir dir
  run --separate-stderr strace -o /dev/null \
    -e inject=inotify_add_watch:error=ENOSPC ppoll-wait --exists dir/file -t 5s
  assert_failure 1
  assert_output ""
  # The directory whose watch failed: one on the way to dir/file.
  assert_err --regexp "^ppoll-wait: cannot watch '[^']*'.*: $(fault_strerror ENOSPC)\$"
  # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr.
  local dir=${stderr#*\'}
  dir=${dir%%\'*}
  [[ $dir == @(.|dir|"$PWD"|"$PWD/dir") ]] || fail "'$dir' is not on the way to dir/file"
}

@test "a file named pid:N is reached as ./pid:N" {
  touch pid:1
  run ppoll-wait -t 0 ./pid:1
  assert_success
  assert_output "./pid:1 in"
  run ppoll-wait -t 0 --exists pid:1
  assert_success
  assert_output "pid:1 exists"
}

# --- --gone ---------------------------------------------------------------

@test "--gone: a path already gone is ready at once" {
  run --separate-stderr ppoll-wait --gone nothere -t 0
  assert_success
  assert_output "nothere gone"
  assert_err ""
  # Below a file: ENOTDIR, gone too.
  touch file
  run ppoll-wait --gone file/x -t 0
  assert_success
  assert_output "file/x gone"
  # There: not gone.
  run ppoll-wait --gone file -t 0
  assert_failure 124
}

@test "--gone: removed during the wait" {
  touch file
  start_wait --gone file -t 30s
  rm file
  finish_wait
  assert_equal "$status" 0
  assert_output "file gone"
}

@test "--gone: an ancestor renamed away (mv a x) ends the wait" {
  mkdir -p a/b
  touch a/b/file
  start_wait --gone a/b/file -t 30s
  mv a x
  finish_wait
  assert_equal "$status" 0
  assert_output "a/b/file gone"
  assert_file_exist x/b/file
}

@test "--gone: a dangling symlink is not gone; with --follow it is" {
  ln -s nowhere link
  run ppoll-wait --gone link -t 0
  assert_failure 124
  run ppoll-wait --follow --gone link -t 0
  assert_success
  assert_output "link gone"
}

# --- --closed -------------------------------------------------------------

# older_than_start: wait until what was just written is older than a
# wait started now, by more than file times can tell: a file changed
# since a little before the start (a jiffy, the clock tick of the start
# time) counts as closed at once when no one writes it any more.
older_than_start() {
  sleep 0.1
}

@test "--closed: a file already there, written and closed during the wait" {
  echo one >file
  older_than_start
  start_wait --closed file -t 30s
  echo two >>file
  finish_wait
  assert_equal "$status" 0
  assert_output "file closed"
}

@test "--closed: a read-only open and close does not count: 124" {
  echo one >file
  older_than_start
  # A file there at the start waits for its next close after writing.
  start_wait --closed file -t 1s
  cat file >/dev/null
  exec {r}<file
  exec {r}<&-
  finish_wait
  assert_equal "$status" 124
  assert_output ""
}

@test "--closed: a file renamed into place (the atomic replace)" {
  echo old >file
  older_than_start
  start_wait --closed file -t 30s
  echo new >.file.tmp
  mv .file.tmp file
  finish_wait
  assert_equal "$status" 0
  assert_output "file closed"
}

@test "--closed: a file written in a directory made during the wait" {
  start_wait --closed d/file -t 30s
  mkdir d
  "$RACE" wait "$WAIT_PID"
  echo data >d/file
  finish_wait
  assert_equal "$status" 0
  assert_output "d/file closed"
}

@test "--closed: a directory renamed into place with a finished file in it" {
  mkdir d.new
  echo data >d.new/file
  start_wait --closed d/file -t 30s
  mv d.new d
  finish_wait
  assert_equal "$status" 0
  assert_output "d/file closed"
}

@test "--closed: a directory renamed into place while a writer holds the file" {
  mkdir d.new
  echo data >d.new/file
  hold_for_writing d.new/file
  # Held open for writing all along: not closed.
  start_wait --closed d/file -t 1s
  mv d.new d
  finish_wait
  assert_equal "$status" 124
  assert_output ""
  # Released during the wait: closed.
  mv d d.new
  start_wait --closed d/file -t 30s
  mv d.new d
  "$RACE" wait "$WAIT_PID"
  kill "$HOLDER"
  finish_wait
  assert_equal "$status" 0
  assert_output "d/file closed"
}

# --- pid: -------------------------------------------------------------------

@test "pid: a process that is not a child ends: exit" {
  start_orphan
  start_wait "pid:$ORPHAN" -t 30s
  kill -TERM "$ORPHAN"
  finish_wait
  assert_equal "$status" 0
  assert_output "pid:$ORPHAN exit"
  assert_equal "$(cat err)" ""
}

@test "pid: a zombie has ended" {
  make_zombie
  run --separate-stderr ppoll-wait "pid:$ZOMBIE" -t 5s
  assert_success
  assert_output "pid:$ZOMBIE exit"
  assert_err ""
}

@test "pid: a running process is not ready: 124" {
  start_orphan
  run ppoll-wait "pid:$ORPHAN" -t 0
  assert_failure 124
  assert_output ""
}

@test "pid: a process that does not exist is an error naming it" {
  # Beyond pid_max no process can be.
  local max n
  max=$(</proc/sys/kernel/pid_max)
  n=$((max + 1))
  ((n <= 2147483647)) || skip "pid_max is INT_MAX"
  run --separate-stderr ppoll-wait "pid:$n" -t 5s
  assert_failure 1
  assert_output ""
  assert_err "ppoll-wait: cannot wait for pid:$n: No such process"
}

@test "pid: a thread that is not a process is an error naming it" {
  require_cmd python3
  start_threaded
  local tid
  tid=$(<tid)
  [[ -d /proc/$THREADED/task/$tid && $tid != "$THREADED" ]] || fail "no thread"
  run --separate-stderr ppoll-wait "pid:$tid" -t 5s
  assert_failure 1
  assert_output ""
  assert_err --partial "ppoll-wait: cannot wait for pid:$tid: "
}

@test "pid: malformed numbers are usage errors: exit 2" {
  local arg
  for arg in pid:0 pid:x pid: pid:-1 pid:+1 pid:1x pid:2147483648 \
    pid:99999999999999999999 "pid: 1"; do
    run --separate-stderr ppoll-wait "$arg" -t 0
    assert_failure 2
    assert_output ""
    assert_err --partial "$arg"
  done
}

@test "pid: strace shows pidfd_open once and a single ppoll, no polling loop" {
  require_strace
  start_orphan
  start_traced pidfd_open,ppoll,nanosleep,clock_nanosleep -t 30s "pid:$ORPHAN"
  kill -TERM "$ORPHAN"
  finish_wait
  assert_equal "$status" 0
  assert_output "pid:$ORPHAN exit"
  run grep -E "^[0-9]+ +pidfd_open\($ORPHAN, 0\) += [0-9]+$" log
  assert_success
  assert_equal "$(strace_count log pidfd_open)" 1
  assert_equal "$(strace_count log ppoll)" 1
  assert_equal "$(strace_count log nanosleep)" 0
  assert_equal "$(strace_count log clock_nanosleep)" 0
}

@test "--exists: strace shows inotify, and a wait for a missing path does not loop" {
  require_strace
  mkdir a
  start_traced inotify_init1,inotify_add_watch,ppoll,nanosleep,clock_nanosleep \
    -t 1s --exists a/b/file
  finish_wait
  assert_equal "$status" 124
  assert_output ""
  assert_equal "$(strace_count log inotify_init1)" 1
  run strace_count log inotify_add_watch
  ((output >= 1)) || fail "no inotify_add_watch"
  # A loop would make one ppoll per round, hundreds in a second.
  run strace_count log ppoll
  ((output >= 1 && output <= 2)) || fail "$output ppoll calls in 1 s with nothing happening"
  assert_equal "$(strace_count log nanosleep)" 0
  assert_equal "$(strace_count log clock_nanosleep)" 0
}

# --- with the other options -------------------------------------------------

@test "-a: a pid and a path, ready one after the other" {
  start_orphan
  start_wait -a "pid:$ORPHAN" --exists file -t 30s
  touch file
  "$RACE" wait "$WAIT_PID"
  kill -TERM "$ORPHAN"
  finish_wait
  assert_equal "$status" 0
  # Operands first, then the paths in command-line order.
  assert_output "pid:$ORPHAN exit
file exists"
}

@test "without -a, the first ready of a pid and paths ends the wait" {
  start_orphan
  run ppoll-wait "pid:$ORPHAN" --exists nothere --gone nothere -t 5s
  assert_success
  assert_output "nothere gone"
}

@test "--json: pid and path targets in ready" {
  require_cmd python3
  make_zombie
  touch file
  run --separate-stderr ppoll-wait --json -a "pid:$ZOMBIE" --exists file \
    --gone nothere -t 5s
  assert_success
  assert_err ""
  run python3 -c '
import json, sys
o = json.loads(sys.stdin.read())
print(o["result"], o["status"], json.dumps(o["ready"], separators=(",", ":")))' \
    <<<"$output"
  assert_success
  # A zombie: its parent has not collected its status yet.
  assert_output "ready 0 [{\"target\":\"pid:$ZOMBIE\",\"events\":[\"exit\"],\"status\":\"pending\"},{\"target\":\"file\",\"events\":[\"exists\"]},{\"target\":\"nothere\",\"events\":[\"gone\"]}]"
}

@test "--select: a pid target and a path target" {
  start_orphan
  start_wait --select "pid:$ORPHAN" -t 30s
  kill -TERM "$ORPHAN"
  finish_wait
  assert_equal "$status" 0
  assert_output "pid:$ORPHAN exit"
  start_wait --select --exists d/file -t 30s
  mkdir d
  touch d/file
  finish_wait
  assert_equal "$status" 0
  assert_output "d/file exists"
}

@test "-- COMMAND: a pid: operand on descriptor 3, the paths not passed" {
  make_zombie
  touch file
  # shellcheck disable=SC2016 # for the inner sh.
  run --separate-stderr ppoll-wait -a "pid:$ZOMBIE" --exists file -- sh -c \
    'echo "ready: $PPOLL_WAIT_READY"; readlink /proc/self/fd/3
     for fd in /proc/$$/fd/*; do readlink "$fd"; done | grep -c inotify'
  assert_failure 1
  assert_err ""
  # No inotify descriptor reaches COMMAND (grep counts none, fails).
  assert_output "ready: 3
anon_inode:[pidfd]
0"
}

@test "a directory that can be read but not searched: its search permission named" {
  require_nobody
  mkdir -p d/e
  chmod 777 .
  chmod 644 d
  run --separate-stderr as_nobody "$NC_BINDIR/ppoll-wait" --exists d/e/f -t 0
  assert_failure 1
  assert_equal "$stderr" "ppoll-wait: cannot watch './d/e' (no search \
permission on the directory './d'): Permission denied"
  # Searched but not read: the watch needs read permission.
  chmod 711 d
  run --separate-stderr as_nobody "$NC_BINDIR/ppoll-wait" --exists d/e/f -t 0
  assert_failure 1
  assert_equal "$stderr" "ppoll-wait: cannot watch './d' (a watch needs \
read permission on each directory on the way): Permission denied"
}

@test "a long path in a message is shortened, its end shown" {
  local long
  long=$(printf 'x%.0s' {1..200})
  mkdir -p "d/$long"
  : >"d/$long/file"
  run --separate-stderr ppoll-wait -t 0 "d/$long/file/$long"
  assert_failure 1
  [[ ${#stderr} -lt 300 ]] || fail "${#stderr} bytes: $stderr"
  [[ $stderr == "ppoll-wait: cannot open '"*"/$long': Not a directory" ]] \
    || fail "$stderr"
}

# --- the races ----------------------------------------------------------------

@test "race: a/b/c/file made as the wait starts, 300 rounds, none missed" {
  require_helper "$WATCH_RACE"
  run "$WATCH_RACE" tree 300 ppoll-wait -q -t 10s --exists
  assert_success
  assert_output --regexp '^tree: 300 of 300 rounds seen, 0 missed'
  run "$WATCH_RACE" -r tree 300 ppoll-wait -q -t 10s --exists
  assert_success
  assert_output --regexp '^tree -r: 300 of 300 rounds seen, 0 missed'
}

@test "race: a process that is not a child ends as the wait starts, 300 rounds, none missed" {
  require_helper "$WATCH_RACE"
  run "$WATCH_RACE" pid 300 ppoll-wait -q -t 10s
  assert_success
  assert_output --regexp '^pid: 300 of 300 rounds seen, 0 missed'
}

@test "race: --closed, a writer at work at the start closes 0-30 ms later, 300 rounds, none missed" {
  require_helper "$WATCH_RACE"
  run "$WATCH_RACE" closed 300 ppoll-wait -q -t 10s --closed
  assert_success
  assert_output --regexp '^closed: 300 of 300 rounds seen, 0 missed'
  # The moments within the start-up itself, where the watch is not set.
  run "$WATCH_RACE" -d 3000 closed 300 ppoll-wait -q -t 10s --closed
  assert_success
  assert_output --regexp '^closed: 300 of 300 rounds seen, 0 missed'
}

@test "race: --closed, a file created, written and closed 0-30 ms after the start, 300 rounds, none missed" {
  require_helper "$WATCH_RACE"
  run "$WATCH_RACE" -c closed 300 ppoll-wait -q -t 10s --closed
  assert_success
  assert_output --regexp '^closed -c: 300 of 300 rounds seen, 0 missed'
  run "$WATCH_RACE" -c -d 3000 closed 300 ppoll-wait -q -t 10s --closed
  assert_success
  assert_output --regexp '^closed -c: 300 of 300 rounds seen, 0 missed'
}

@test "--closed: a file changed before the start, or still open for writing, waits for a close" {
  # Written and closed before the start: not a close of this wait.
  echo old >f
  older_than_start
  run ppoll-wait -q --closed f -t 300ms
  assert_failure 124
  # Written just now, as the wait starts, by a writer that holds it open:
  # the wait goes on until the writer closes it.
  mkfifo ctl
  sh -c 'exec 5>>f; echo more >&5; : >written; read -r _ <ctl' 3>&- &
  local writer=$! i
  for ((i = 0; i < 500; i++)); do
    [[ -e written ]] && break
    sleep 0.01
  done
  start_wait --closed f -t 30s
  [[ -d /proc/$WAIT_PID ]] || fail "ready while the writer held the file"
  echo >ctl
  wait "$writer"
  finish_wait
  assert_success
  assert_output "f closed"
}

@test "race: the driver counts a missed round (the tests above can fail)" {
  require_helper "$WATCH_RACE"
  # With -a and a path that never comes, every round times out.
  run "$WATCH_RACE" tree 2 ppoll-wait -q -a -t 100ms --exists nothere/file --exists
  assert_failure 1
  assert_line "tree: round 1 of 2 missed: exit status 124 (timed out)"
  assert_line --regexp '^tree: 0 of 2 rounds seen, 2 missed'
  run "$WATCH_RACE" pid 2 ppoll-wait -q -a -t 100ms --exists nothere/file
  assert_failure 1
  assert_line --regexp '^pid: 0 of 2 rounds seen, 2 missed'
  run "$WATCH_RACE" closed 2 ppoll-wait -q -a -t 100ms --exists nothere \
    --closed
  assert_failure 1
  assert_line --regexp '^closed: 0 of 2 rounds seen, 2 missed'
}
