#!/usr/bin/env bats
# ppoll.bats -- ppoll-wait, from the outside.
#
# Waits that must end are started in the background, and the test acts
# (writes, sends a signal) only once the helper tests/helpers/ppoll-race has seen
# ppoll-wait asleep in its wait: no sleeps, no guessed delays.  The race
# the system calls exist for is tested by that helper too, against
# ppoll-wait and in-process, along with a naive version that loses it.
# The stop tests assert an upper bound on a time, 0.7 s after success and
# 0.8 s before the failure it tells from success (assert_stop_counted).

load test_helper
load ppoll_helper

setup() {
  nc_setup
  RACE="${NC_BUILDDIR:-$NC_BINDIR/..}/tests/helpers/ppoll-race"
  JOB_PID=
  WAIT_PID=
  SERVER_PID=
}

teardown() {
  local pid
  for pid in $WAIT_PID $JOB_PID $SERVER_PID; do
    kill -KILL "$pid" 2>/dev/null || true
  done
}

# The wall clock in microseconds.
now_us() {
  local t=${EPOCHREALTIME//[!0-9]/}
  echo "$((10#$t))"
}

# fill_fifo FIFO: write into FIFO, which has a reader, until it is full.
fill_fifo() {
  dd if=/dev/zero of="$1" bs=4096 count=100000 oflag=nonblock \
    status=none 2>/dev/null || true
}

# --- readiness ----------------------------------------------------------

# bats test_tags=arch
@test "/dev/null and a regular file are always ready" {
  run --separate-stderr ppoll-wait /dev/null
  assert_success
  assert_output "/dev/null in"
  assert_err ""
  run ppoll-wait -t 0 -w /dev/null
  assert_success
  assert_output "/dev/null out"
  echo data >file
  run ppoll-wait -r -w file
  assert_success
  assert_output "file in out"
}

@test "FIFO without a writer: not ready, exit 124" {
  mkfifo f
  run --separate-stderr ppoll-wait -t 200ms f
  assert_failure 124
  assert_output ""
  assert_err ""
}

@test "FIFO with a writer that has not written: not ready" {
  mkfifo f
  # <> opens a FIFO without waiting for the other end: a writer.
  exec {rw}<>f
  run ppoll-wait -t 200ms f
  exec {rw}>&-
  assert_failure 124
  assert_output ""
}

# written_during_wait TIMEOUT: ppoll-wait -t TIMEOUT on a FIFO that a
# writer opens and writes to during the wait: ready for reading.
written_during_wait() {
  mkfifo f
  start_wait -t "$1" f
  exec {w}>f
  printf x >&"$w"
  finish_wait
  exec {w}>&-
  assert_success
  assert_output "f in"
}

# bats test_tags=arch
@test "FIFO: a writer writes during the wait" {
  written_during_wait 30s
}

@test "FIFO: a writer comes and goes without writing: hang-up" {
  mkfifo f
  start_wait -t 30s f
  : >f
  finish_wait
  assert_equal "$status" 0
  assert_output "f hup"
}

@test "FIFO: data left by a writer that has gone: in and hup" {
  mkfifo f
  start_wait -t 30s --hup f
  # --hup: data alone does not end the wait, the writer's close does.
  exec {w}>f
  printf x >&"$w"
  "$RACE" wait "$WAIT_PID"
  exec {w}>&-
  finish_wait
  assert_equal "$status" 0
  assert_output "f hup"
  # Without --hup, the same state is ready with both events.
  mkfifo g
  start_wait -t 30s g
  exec {w}>g
  printf x >&"$w"
  exec {w}>&-
  finish_wait
  assert_equal "$status" 0
  assert_output --regexp '^g in( hup)?$'
}

# bats test_tags=arch
@test "pipe on standard input: data, end of file" {
  run bash -c 'printf "hi\n" | ppoll-wait 0'
  assert_success
  assert_output --regexp '^0 in( hup)?$'
  # The writer exits without writing: whenever ppoll-wait looks, it ends
  # with the hang-up.
  run bash -c ': | ppoll-wait 0'
  assert_success
  assert_output "0 hup"
}

# with_fd7 FILE CMD...: CMD with descriptor 7 open read-write on FILE.
with_fd7() {
  local file=$1
  shift
  "$@" 7<>"$file"
}

@test "descriptor targets: an inherited pipe" {
  mkfifo f
  run with_fd7 f ppoll-wait -t 200ms 7
  assert_failure 124
  exec {rw}<>f
  printf x >&"$rw"
  run with_fd7 f ppoll-wait -t 5s 7
  exec {rw}>&-
  assert_success
  assert_output "7 in"
}

# bats test_tags=arch
@test "-w on a full pipe: not writable until it is read" {
  mkfifo f
  exec {rw}<>f
  fill_fifo f
  run ppoll-wait -w -t 200ms f
  assert_failure 124
  run ppoll-wait -w -t 200ms "$rw"
  assert_failure 124
  # Read a page: room again.
  dd of=/dev/null bs=4096 count=1 status=none <&"$rw"
  run ppoll-wait -w f
  assert_success
  assert_output "f out"
  run ppoll-wait -w "$rw"
  assert_success
  assert_output "$rw out"
  exec {rw}>&-
}

@test "--pri: /dev/null has no priority data" {
  run ppoll-wait --pri -t 100ms /dev/null
  assert_failure 124
  assert_output ""
}

@test "any target by default, every one with --all" {
  mkfifo f
  run ppoll-wait /dev/null f
  assert_success
  assert_output "/dev/null in"
  # --all: f is not ready; the targets that were are still printed.
  run ppoll-wait --all -t 200ms /dev/null f
  assert_failure 124
  assert_output "/dev/null in"
  exec {rw}<>f
  printf x >&"$rw"
  run ppoll-wait -a -t 5s f /dev/null
  assert_success
  assert_output $'f in\n/dev/null in'
  exec {rw}>&-
}

@test "--all: targets that become ready one after the other" {
  mkfifo f g
  exec {rf}<>f {rg}<>g
  start_wait -a -t 30s f g
  printf x >&"$rf"
  "$RACE" wait "$WAIT_PID"
  printf x >&"$rg"
  finish_wait
  exec {rf}>&- {rg}>&-
  assert_equal "$status" 0
  assert_output $'f in\ng in'
}

# bats test_tags=arch
@test "a Unix socket path is connected to" {
  require_cmd python3
  # A server that accepts two connections, sends a byte on the second
  # when told (a line on its standard input), and waits for the end of
  # its input.
  mkfifo ctl
  exec {ctl}<>ctl
  python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind("sock")
s.listen(2)
open("listening", "w").close()
first, _ = s.accept()
second, _ = s.accept()
sys.stdin.readline()
second.send(b"x")
sys.stdin.read()' <ctl {ctl}>&- 3>&- &
  SERVER_PID=$!
  local i
  for ((i = 0; i < 200; i++)); do
    [[ -e listening ]] && break
    sleep 0.05
  done
  assert_file_exists listening
  run ppoll-wait -w sock
  assert_success
  assert_output "sock out"
  start_wait -t 30s sock
  echo go >&"$ctl"
  finish_wait
  exec {ctl}>&-
  wait "$SERVER_PID"
  SERVER_PID=
  assert_equal "$status" 0
  assert_output "sock in"
}

@test "names the shell would need quoted are quoted" {
  mkfifo 'a b'
  exec {rw}<>'a b'
  printf x >&"$rw"
  run ppoll-wait 'a b'
  exec {rw}>&-
  assert_success
  assert_output "'a b' in"
}

@test "-q prints nothing" {
  run --separate-stderr ppoll-wait -q /dev/null
  assert_success
  assert_output ""
  assert_err ""
  mkfifo f
  run ppoll-wait -q -t 0 f
  assert_failure 124
  assert_output ""
}

@test "use in a script: wait, then read the line" {
  mkfifo f
  exec {fd}<>f
  echo hello >&"$fd"
  local line=
  if ppoll-wait -q -t 5s "$fd"; then read -r line <&"$fd"; fi
  assert_equal "$line" hello
  local status=0
  ppoll-wait -q -t 100ms "$fd" || status=$?
  exec {fd}>&-
  assert_equal "$status" 124
}

# --- timeout --------------------------------------------------------------

# bats test_tags=arch
@test "timeout: exit 124 after at least the timeout" {
  mkfifo f
  local duration us start elapsed
  for duration in 300ms 0.3s 0.0050m 300000us; do
    us=300000
    start=$(now_us)
    run --separate-stderr ppoll-wait -t "$duration" f
    elapsed=$(($(now_us) - start))
    assert_failure 124
    assert_output ""
    assert_err ""
    ((elapsed >= us)) || fail "-t $duration: exited after ${elapsed} us"
  done
}

# bats test_tags=arch
@test "timeout 0 polls once" {
  mkfifo f
  run ppoll-wait -t 0 f
  assert_failure 124
  run ppoll-wait -t 0 /dev/null
  assert_success
}

# bats test_tags=arch
@test "--remaining prints the time left" {
  run ppoll-wait --remaining -t 2m /dev/null
  assert_success
  assert_line --index 0 "/dev/null in"
  assert_line --index 1 --regexp '^remaining 1(19\.9[0-9]{8}|20\.000000000)$'
  mkfifo f
  run ppoll-wait --remaining -t 10ms f
  assert_failure 124
  assert_output "remaining 0.000000000"
}

# stopped_wait ARG...: ppoll-wait ARG... once it waits stopped for 1.5 s,
# then continued; its exit status in $stop_status, its output in $output,
# the milliseconds from its launch to its end in $elapsed_ms, and from
# the moment it was seen in its wait (just before the stop) to its end
# in $after_wait_ms; $start_ms is the time from the launch to that moment.
stopped_wait() {
  local launch waiting
  launch=$(now_us)
  start_wait "$@"
  waiting=$(now_us)
  kill -STOP "$WAIT_PID"
  sleep 1.5
  kill -CONT "$WAIT_PID"
  stop_status=0
  wait "$JOB_PID" || stop_status=$?
  local end
  end=$(now_us)
  elapsed_ms=$(((end - launch) / 1000))
  after_wait_ms=$(((end - waiting) / 1000))
  start_ms=$(((waiting - launch) / 1000))
  JOB_PID=
  WAIT_PID=
  output=$(cat out)
}

# assert_stop_counted ARG...: ppoll-wait --remaining -t 3 ARG..., stopped
# for 1.5 s, times out 3 s after its start, not 4.5 s.  Its start (when
# it takes its deadline) is somewhere between its launch and the moment
# it is seen in its wait: it must end at least 3 s after the launch, and,
# counted, at most 3 s after that moment; not counted, at least 4.5 s
# after the launch.  The bound below, 3.7 s after the moment, tells the
# two apart when the start took less than 0.8 s; a start slower than that
# (strace on a busy machine) leaves the round unable to tell, and it is
# run again, up to three times.  So is a round that ended 6 s or more
# after the launch: neither counted (3 s) nor uncounted (4.5 s), the
# machine itself stalled (a virtual machine's host, once in CI).
assert_stop_counted() {
  local round
  for round in 1 2 3; do
    stopped_wait --remaining -t 3 "$@"
    assert_equal "$stop_status" 124
    assert_output "remaining 0.000000000"
    ((elapsed_ms >= 3000)) || fail "-t 3 $*: timed out after $elapsed_ms ms"
    if ((elapsed_ms >= 6000 && round < 3)); then
      echo "# -t 3 $*: ended $elapsed_ms ms after its launch, a stalled" \
        "machine, too slow to tell (round $round)" >&3
      continue
    fi
    ((after_wait_ms < 3700)) || fail "-t 3 $*, stopped 1.5 s: timed out" \
      "$after_wait_ms ms after it was seen waiting, the stop not counted"
    ((start_ms >= 800)) || return 0
    echo "# -t 3 $*: $start_ms ms to reach its wait, too slow to tell (round $round)" >&3
  done
  fail "-t 3 $*: three starts of $start_ms ms or more to reach the wait," \
    "too slow to tell whether the stop counted"
}

@test "a stop counts: -t 3 stopped 1.5 s ends 3 s after its start, not 4.5" {
  mkfifo f
  assert_stop_counted f
  # Under qemu, each call once (a stop takes 3 s): ppoll on a descriptor,
  # pselect6 on none.
  if [[ -z ${NC_QEMU-} ]]; then
    assert_stop_counted --select f
  fi
  # No target: ppoll (or pselect6) on no descriptor.
  if [[ -z ${NC_QEMU-} ]]; then
    assert_stop_counted -s USR1
  fi
  assert_stop_counted --select -s USR1
}

@test "a stop counts where personality(2) is refused: SIGCONT ends the wait" {
  require_strace_inject
  skip_under_qemu "the injection would fail qemu's own personality calls"
  mkfifo f
  # As a seccomp filter of a container runtime may refuse STICKY_TIMEOUTS.
  # shellcheck disable=SC2317 # called by start_wait
  ppoll-wait() {
    strace -f -o /dev/null -e inject=personality:error=EPERM \
      "$NC_BINDIR/ppoll-wait" "$@"
  }
  assert_stop_counted f
  assert_stop_counted --select -s USR1
  # --ignore=CONT keeps SIGCONT blocked: the time stopped is not counted.
  stopped_wait -t 3 --ignore=CONT f
  assert_equal "$stop_status" 124
  ((elapsed_ms >= 4500)) || fail "--ignore=CONT: timed out after $elapsed_ms ms"
}

@test "durations reach the kernel to the nanosecond (strace)" {
  require_strace
  local spec want
  while read -r spec want; do
    strace -o log -e trace=ppoll,ppoll_time64 ppoll-wait -q -t "$spec" /dev/null
    run grep -E -c "^ppoll(_time64)?\(.*, \{tv_sec=${want}\}, " log
    assert_output 1 || fail "-t $spec: $(cat log)"
  done <<'EOF'
250ms 0, tv_nsec=250000000
1.5s 1, tv_nsec=500000000
1.5 1, tv_nsec=500000000
2m 120, tv_nsec=0
1.000000001s 1, tv_nsec=1
1500us 0, tv_nsec=1500000
7ns 0, tv_nsec=7
.25h 900, tv_nsec=0
2d 172800, tv_nsec=0
0.0000000001s 0, tv_nsec=1
0.1ns 0, tv_nsec=1
0.0166666666667m 1, tv_nsec=1
0.333333333333m 20, tv_nsec=0
0 0, tv_nsec=0
1e3 1000, tv_nsec=0
1E-3 0, tv_nsec=1000000
2.5e-1m 15, tv_nsec=0
1e-400 0, tv_nsec=1
0x10 16, tv_nsec=0
0x1.8p1 3, tv_nsec=0
0x1p-1 0, tv_nsec=500000000
0x1d 29, tv_nsec=0
1m30s 90, tv_nsec=0
1h2m3.5s 3723, tv_nsec=500000000
1s250ms 1, tv_nsec=250000000
EOF
}

@test "inf, infinity and durations beyond time_t: no timeout at all (strace)" {
  require_strace
  local spec
  for spec in inf INF infinity Infinitys infd 1e400 99999999999999999999d; do
    strace -o log -e trace=ppoll,ppoll_time64 ppoll-wait -q -t "$spec" /dev/null
    run grep -E -c '^ppoll(_time64)?\(.*, NULL, ' log
    assert_output 1 || fail "-t $spec: $(cat log)"
  done
  # --remaining says so; --json has no number for it.
  run --separate-stderr ppoll-wait --remaining -t inf /dev/null
  assert_success
  assert_output $'/dev/null in\nremaining inf'
  run --separate-stderr ppoll-wait --json -t inf /dev/null
  assert_success
  assert_output --partial '"remaining":null}'
}

# bats test_tags=arch
@test "-t inf waits until the target is ready" {
  written_during_wait inf
}

# The strings timeout(1) takes are taken: the same verdict on each, but
# for the documented differences of the next test.
@test "durations: what timeout(1) takes, ppoll-wait takes" {
  require_cmd timeout
  local spec got want status
  for spec in 0 1 .5 5. 1.5s 2m .25h 1d 007 1e3 1E-3 1e+2 .5e1 5.e-1 \
    1e-400 1e400 1e400s 0x10 0X1F 0x.8 0x1.8p1 0x1P-4 0x1d 0x1ds 0x1p0d \
    inf INF Infinity infs infinityd \
    '' . 1e 1e+ 1es 0x 0x. 0xp1 0x1p nan NaN infin infinit 1x 1S 1D 1sec \
    -1 1.2.3 '1 ' '1 s' 1,5 1p3 s; do
    # 125: an invalid duration (124, a short one that ran out, is fine).
    want=takes got=takes status=0
    timeout -- "$spec" true 2>/dev/null || status=$?
    ((status != 125)) || want=refuses
    ppoll-wait -q -t "$spec" /dev/null 2>/dev/null || got=refuses
    [[ $got == "$want" ]] \
      || fail "-t '$spec': timeout $want it, ppoll-wait $got it"
  done
}

@test "durations: the differences from timeout(1), both ways" {
  require_cmd timeout
  local spec
  # More units, and compound durations.
  for spec in 250ms 1500us 7ns 1m30s 1h2m3.5s 1d1h1m1s1ms1us1ns 1m5ms; do
    run timeout -- "$spec" true
    assert_failure 125
    run --separate-stderr ppoll-wait -t "$spec" /dev/null
    assert_success
  done
  # No sign and no blank, as in every newcalls number.
  for spec in +1 -0 ' 1' $'\t1'; do
    run timeout -- "$spec" true
    assert_success
    run --separate-stderr ppoll-wait -t "$spec" /dev/null
    assert_failure 2
  done
}

# --- --select and --json --------------------------------------------------

# both ARG...: ppoll-wait ARG... with ppoll and with --select; the two
# must end the same way.
both() {
  local want_status=0 want_output got_status=0 got_output
  want_output=$(ppoll-wait "$@") || want_status=$?
  got_output=$(ppoll-wait --select "$@") || got_status=$?
  assert_equal "$got_status $got_output" "$want_status $want_output"
}

# bats test_tags=arch
@test "--select: the same results as ppoll" {
  mkfifo f g
  both /dev/null
  both -w /dev/null
  both -r -w /dev/null
  both -t 100ms f
  both -a -t 100ms /dev/null f
  exec {rw}<>f
  printf x >&"$rw"
  both -t 5s f g
  both -a -t 5s f /dev/null
  fill_fifo f
  both -w -t 100ms f
  both -w -t 100ms /dev/null f
  exec {rw}>&-
}

# bats test_tags=arch
@test "--select: a signal during the wait" {
  mkfifo f
  start_wait --select -s USR1 f
  kill -USR1 "$WAIT_PID"
  finish_wait
  assert_equal "$status" $((128 + $(signum USR1)))
  assert_output "signal USR1"
}

@test "--select refuses descriptors from FD_SETSIZE on" {
  if (($(ulimit -n) < 2048)); then
    ulimit -n 2048 2>/dev/null || skip "cannot raise the descriptor limit"
  fi
  run --separate-stderr ppoll-wait --select 1500 1500</dev/null
  assert_failure 1
  assert_output ""
  assert_err "ppoll-wait: --select: descriptor 1500 is not below FD_SETSIZE (1024); wait for it without --select"
  # ppoll has no such limit.
  run --separate-stderr ppoll-wait 1500 1500</dev/null
  assert_success
  assert_output "1500 in"
}

@test "--json: one object that parses" {
  require_cmd jq
  mkfifo f
  run ppoll-wait --json -r -w /dev/null
  assert_success
  run jq -c '[.result, .status, .ready, .signal, .remaining]' <<<"$output"
  assert_output '["ready",0,[{"target":"/dev/null","events":["in","out"]}],null,null]'
  run ppoll-wait --json -t 10ms f
  assert_failure 124
  run jq -c '[.result, .status, .ready, .signal, .remaining]' <<<"$output"
  assert_output '["timeout",124,[],null,0]'
  run ppoll-wait --json -t 1m /dev/null
  run jq -e '.remaining > 59 and .remaining <= 60' <<<"$output"
  assert_success
}

@test "--json: a signal" {
  require_cmd jq
  mkfifo f
  start_wait --json -s USR1,USR2 f
  kill -USR2 "$WAIT_PID"
  finish_wait
  local usr2
  usr2=$(signum USR2)
  assert_equal "$status" $((128 + usr2))
  run jq -c '[.result, .status, .signal]' <<<"$output"
  assert_output "[\"signal\",$((128 + usr2)),{\"number\":$usr2,\"name\":\"USR2\"}]"
}

@test "--json: names with quotes, controls and invalid UTF-8" {
  require_cmd python3
  local name=$'q"b\\s\tt\x01\xc3\xa9\xff'
  mkfifo "$name"
  exec {rw}<>"$name"
  printf x >&"$rw"
  run ppoll-wait --json "$name"
  exec {rw}>&-
  assert_success
  # Valid UTF-8 (the é) as it is, an invalid byte as U+FFFD.
  run python3 -c '
import json, sys
print(ascii(json.loads(sys.stdin.read())["ready"][0]["target"]))' <<<"$output"
  assert_success
  assert_output "'q\"b\\\\s\\tt\\x01\\xe9\\ufffd'"
}

# --- -- COMMAND -------------------------------------------------------------

@test "FIFO by path: a line written as the wait starts, 100 rounds, none lost" {
  mkfifo f
  local i line writer
  for ((i = 1; i <= 100; i++)); do
    # The writer races the wait: it may open the FIFO before ppoll-wait
    # (and wait there for a reader) or after, and closes it at once.
    printf 'line %d\n' "$i" >f &
    writer=$!
    # shellcheck disable=SC2016 # $line is the inner sh's.
    line=$(ppoll-wait -t 10s f -- sh -c 'read -r line <&3; echo "$line"')
    wait "$writer"
    assert_equal "$line" "line $i"
  done
}

@test "FIFO by path without COMMAND: the data survives only while a writer holds it" {
  mkfifo f
  # A writer that keeps the FIFO open: ppoll-wait may come and go.
  exec {w}<>f
  echo kept >&"$w"
  run ppoll-wait -t 5s f
  assert_success
  assert_output "f in"
  local line=
  read -r line <f
  exec {w}>&-
  assert_equal "$line" kept
  # A writer that has closed: the pipe goes with ppoll-wait, the last to
  # hold it (the pitfall of the man page).
  printf 'lost\n' >f &
  run ppoll-wait -t 5s f
  wait $!
  assert_success
  assert_output --regexp '^f in( hup)?$'
  run dd if=f iflag=nonblock status=none
  assert_output ""
}

# bats test_tags=arch
@test "-- COMMAND: the targets on descriptors 3, 4..., the ready ones listed" {
  echo data >file
  mkfifo f
  # shellcheck disable=SC2016 # for the inner sh.
  run --separate-stderr ppoll-wait file f /dev/null -- sh -c \
    'readlink /proc/self/fd/3 /proc/self/fd/4 /proc/self/fd/5
     echo "ready: $PPOLL_WAIT_READY"; read -r x <&3; echo "$x"'
  assert_success
  assert_err ""
  assert_output "$PWD/file
$PWD/f
/dev/null
ready: 3 5
data"
  # Inherited descriptors move too, even onto each other's numbers, and
  # stay on their own number as well.
  run ppoll-wait 4 3 7 -- sh -c \
    'readlink /proc/self/fd/3 /proc/self/fd/4 /proc/self/fd/5 /proc/self/fd/7' \
    3<file 4</dev/null 7</dev/zero
  assert_success
  assert_output "/dev/null
$PWD/file
/dev/zero
/dev/zero"
  # The same target twice: on two descriptors.
  # shellcheck disable=SC2016 # for the inner sh.
  run ppoll-wait --all 0 0 -- sh -c 'echo "$PPOLL_WAIT_READY"' </dev/null
  assert_output "3 4"
  # A descriptor 3 of the caller that is no target gives way.
  run ppoll-wait /dev/null -- readlink /proc/self/fd/3 3<file
  assert_output /dev/null
}

# fd_flags LINE: the octal flags of a "flags:" LINE of fdinfo, in $flags.
fd_flags() {
  flags=${1##*[[:space:]]}
  [[ $1 == flags:* && $flags =~ ^[0-7]+$ ]] || fail "no flags in: $1"
}

@test "-- COMMAND: a target opened by ppoll-wait is blocking, an inherited one as it was" {
  mkfifo f
  exec {w}<>f
  echo x >&"$w"
  # O_NONBLOCK is 04000: COMMAND is the host's grep, under qemu too.
  local flags
  run ppoll-wait f -- grep ^flags: /proc/self/fdinfo/3
  fd_flags "$output"
  (((8#$flags & 8#4000) == 0)) || fail "descriptor 3 is non-blocking: $flags"
  run ppoll-wait "$w" -- grep ^flags: /proc/self/fdinfo/3
  fd_flags "$output"
  (((8#$flags & 8#4000) == 0)) || fail "descriptor 3 made non-blocking: $flags"
  exec {w}>&-
  # An inherited non-blocking descriptor stays non-blocking: a socket
  # made so by ppoll-wait for another target would not be shared, but
  # this one is the caller's.
  printf 'import os, sys\nos.set_blocking(0, False)\nos.execvp(sys.argv[1], sys.argv[1:])\n' >nonblock.py
  require_cmd python3
  run python3 nonblock.py ppoll-wait 0 -- grep ^flags: /proc/self/fdinfo/3 </dev/zero
  fd_flags "$output"
  (((8#$flags & 8#4000) != 0)) || fail "descriptor 3 made blocking: $flags"
}

# bats test_tags=arch
@test "-- COMMAND: its exit status, or 124 and 128+N if the wait ends so" {
  run ppoll-wait /dev/null -- sh -c 'exit 7'
  assert_failure 7
  run ppoll-wait /dev/null -- true
  assert_success
  # COMMAND killed: the shell's 128+N, as for COMMAND alone.
  run ppoll-wait /dev/null -- sh -c 'kill -TERM $$'
  assert_failure 143
  mkfifo f
  run --separate-stderr ppoll-wait -t 100ms f -- touch ran
  assert_failure 124
  assert_output ""
  assert_err ""
  assert_not_exist ran
  start_wait -s USR1 f -- touch ran
  kill -USR1 "$WAIT_PID"
  finish_wait
  assert_equal "$status" $((128 + $(signum USR1)))
  assert_output ""
  assert_not_exist ran
  # The output is COMMAND's alone.
  run ppoll-wait --all /dev/null /dev/zero -- echo hi
  assert_output hi
}

@test "-- COMMAND: not found 127, cannot run 126" {
  run -127 --separate-stderr ppoll-wait /dev/null -- no-such-command-here
  assert_failure 127
  assert_err "ppoll-wait: cannot run 'no-such-command-here': No such file or directory"
  printf '#!/bin/sh\n' >script
  chmod 644 script
  run --separate-stderr ppoll-wait /dev/null -- ./script
  assert_failure 126
  assert_err "ppoll-wait: cannot run './script': Permission denied"
  mkdir adir
  run --separate-stderr ppoll-wait /dev/null -- ./adir
  assert_failure 126
}

@test "-- COMMAND: an --ignore signal held during the wait does not reach it" {
  skip_under_qemu "qemu queues a blocked signal itself, and setting SIG_IGN" \
    "does not discard it there as the kernel does"
  mkfifo f
  # shellcheck disable=SC2016 # for the inner sh.
  start_wait --ignore=TERM f -- sh -c 'read -r line <&3; echo "ran: $line"'
  kill -TERM "$WAIT_PID"
  echo x >f
  finish_wait
  # Discarded, as ppoll-wait's exit would: not killed by it (143).
  assert_equal "$status" 0
  assert_output "ran: x"
}

@test "-- COMMAND: the signal mask and actions and the personality as inherited" {
  skip_under_qemu "qemu keeps its own signal mask and actions in the host" \
    "process, which COMMAND inherits, not the tool's"
  local want got
  # USR2 blocked and ignored by the caller, and caught by ppoll-wait; TERM
  # blocked by it; the personality changed by -t (STICKY_TIMEOUTS).  The
  # probes are no shell, which would set its own mask.
  want=$(env --block-signal=USR2 --ignore-signal=USR2 \
    grep -E '^Sig(Blk|Ign)' /proc/self/status)
  [[ $want == *SigBlk:*800* ]] || fail "env did not block USR2: $want"
  got=$(env --block-signal=USR2 --ignore-signal=USR2 \
    ppoll-wait -t 5s -s USR1,USR2 --ignore=TERM /dev/null -- \
    grep -E '^Sig(Blk|Ign)' /proc/self/status)
  assert_equal "$got" "$want"
  want=$(cat /proc/self/personality)
  got=$(ppoll-wait -t 5s /dev/null -- cat /proc/self/personality)
  assert_equal "$got" "$want"
}

# --- signals --------------------------------------------------------------

# bats test_tags=arch
@test "kill -USR1 during the wait: exit 128+10, the signal named" {
  mkfifo f
  start_wait -s USR1 f
  kill -USR1 "$WAIT_PID"
  finish_wait
  # 128+10, or 128+16 on mips, 128+30 on sparc64 (signum).
  assert_equal "$status" $((128 + $(signum USR1)))
  assert_output "signal USR1"
  assert_size err 0
}

# bats test_tags=arch
@test "signal names: any case, with or without SIG, numbers, lists" {
  mkfifo f
  local spec usr1
  usr1=$(signum USR1)
  for spec in usr1 SIGUSR1 sigusr1 "$usr1" HUP,USR1 "USR2,$usr1,TERM"; do
    start_wait -s "$spec" f
    kill -USR1 "$WAIT_PID"
    finish_wait
    assert_equal "$status" $((128 + usr1))
    assert_output "signal USR1"
  done
  # -s repeated adds up.
  start_wait -s USR2 -s TERM f
  kill -TERM "$WAIT_PID"
  finish_wait
  assert_equal "$status" 143
  assert_output "signal TERM"
}

@test "a real-time signal: exit 128+N" {
  skip_under_qemu "qemu does not hand the host's SIGRTMIN+1 to the tool" \
    "as its SIGRTMIN+1"
  mkfifo f
  local n
  n=$(signum RTMIN+1)
  start_wait -s RTMIN+1 f
  kill -s RTMIN+1 "$WAIT_PID"
  finish_wait
  assert_equal "$status" $((128 + n))
  assert_output "signal RTMIN+1"
}

# bats test_tags=arch
@test "a signal not in -s keeps its default action" {
  mkfifo f
  start_wait -s USR1 f
  kill -TERM "$WAIT_PID"
  finish_wait
  # Killed by SIGTERM: 128+15, and no word from ppoll-wait.
  assert_equal "$status" 143
  assert_output ""
  assert_size err 0
}

# bats test_tags=arch
@test "no target: wait for the signals alone" {
  start_wait -s USR2
  kill -USR2 "$WAIT_PID"
  finish_wait
  assert_equal "$status" $((128 + $(signum USR2)))
  assert_output "signal USR2"
  run ppoll-wait -s USR2 -t 100ms
  assert_failure 124
  run ppoll-wait -s USR2 --select -t 100ms
  assert_failure 124
}

# bats test_tags=arch
@test "--ignore keeps a signal blocked during the wait" {
  mkfifo f
  start_wait -s USR2 --ignore=USR1 -t 500ms f
  kill -USR1 "$WAIT_PID"
  finish_wait
  # Neither woken (128+USR1 with a message) nor killed (without).
  assert_equal "$status" 124
  assert_output ""
}

# bats test_tags=arch
@test "stopped and continued, the wait goes on" {
  mkfifo f
  start_wait -s USR1 f
  kill -STOP "$WAIT_PID"
  kill -CONT "$WAIT_PID"
  "$RACE" wait "$WAIT_PID"
  kill -USR1 "$WAIT_PID"
  finish_wait
  assert_equal "$status" $((128 + $(signum USR1)))
  assert_output "signal USR1"
}

@test "strace: the wait takes the mask, non-NULL" {
  require_strace
  mkfifo f
  # The mask of the wait: the inherited one (empty) plus --ignore, less -s.
  strace -o log ppoll-wait -q -s USR1 --ignore=TERM -t 0 f || true
  run grep -E '^rt_sigprocmask\(SIG_BLOCK, \[USR1 TERM\], ' log
  assert_success
  run grep -E '^ppoll(_time64)?\(\[\{fd=[0-9]+, events=POLLIN\}\], 1, \{tv_sec=0, tv_nsec=0\}, \[TERM\], 8\)' log
  assert_success
  strace -o log ppoll-wait -q --select -s USR1 --ignore=TERM -t 0 f || true
  run grep -E '^pselect6(_time64)?\([0-9]+, \[[0-9]+\], \[\], \[\], \{tv_sec=0, tv_nsec=0\}, \{sigmask=\[TERM\], sigsetsize=8\}\)' log
  assert_success
  # No -s: the inherited mask is still passed.
  strace -o log ppoll-wait -q -t 0 f || true
  run grep -E '^ppoll(_time64)?\(.*, \[\], 8\)' log
  assert_success
}

@test "strace: no target and no timeout is rt_sigsuspend" {
  require_strace
  require_race
  strace -o log ppoll-wait -s USR1 --ignore=TERM >out 3>&- &
  JOB_PID=$!
  WAIT_PID=$(find_tool "$JOB_PID")
  "$RACE" wait "$WAIT_PID"
  kill -USR1 "$WAIT_PID"
  finish_wait
  run grep -E '^rt_sigsuspend\(\[TERM\], 8\)' log
  assert_success
  run cat out
  assert_output "signal USR1"
}

# --- the race -----------------------------------------------------------

@test "race: ppoll-wait never misses a signal sent as it starts to wait" {
  require_race
  skip_under_qemu "qemu catches every signal itself, so /proc/PID/status" \
    "cannot tell when the tool is ready for one"
  mkfifo f
  run "$RACE" tool 200 ppoll-wait -q -s USR1 -t 5s f
  assert_success
  assert_output --regexp '^tool: 200 of 200 wake-ups seen'
  run "$RACE" tool 100 ppoll-wait -q --select -s USR1 -t 5s f
  assert_success
  run "$RACE" tool 100 ppoll-wait -q -s USR1
  assert_success
}

# bats test_tags=arch
@test "race: ppoll, pselect6 and rt_sigsuspend in-process, 10000 rounds each" {
  require_race
  local call
  for call in ppoll pselect6 sigsuspend; do
    run "$RACE" "$call" 10000
    assert_success
    assert_output "$call: 10000 of 10000 wake-ups seen (5000 racing, 5000 in the worst order)"
  done
}

@test "race: the naive sigprocmask + poll loses the wake-up" {
  require_race
  # Proof that the test above can fail: the same rounds, with the unblock
  # and the wait as two steps.
  run "$RACE" -t 200 naive 1000
  assert_failure 1
  assert_output --regexp '^naive: wake-up lost in round 1 of 1000'
  # And against the tool: a signal kept blocked is never seen.
  skip_under_qemu "the in-process half passed; the tool half cannot run:" \
    "qemu catches every signal itself"
  mkfifo f
  run "$RACE" tool 3 ppoll-wait -q -s USR2 --ignore=USR1 -t 100ms f
  assert_failure 1
  assert_output --partial "exit status 124 (timed out)"
}

@test "early signals: blocked by the caller before exec, none is lost" {
  require_race
  skip_under_qemu "qemu catches every signal itself: whether one pending" \
    "at exec reaches the tool is up to qemu"
  mkfifo f
  local sig n
  # Sent the moment ppoll-wait has exec'd, before it can block or catch
  # anything: pending, it must end the first wait.  CHLD is one that the
  # default action would drop, USR1 one that it would kill with.
  for sig in USR1 CHLD; do
    n=$(signum "$sig")
    run "$RACE" -b early 20 "$n" ppoll-wait -q -s "$sig" -t 10s f
    assert_success
    assert_output --regexp '^early: 20 of 20 signals seen'
    run "$RACE" -b early 10 "$n" ppoll-wait -q --select -s "$sig" -t 10s f
    assert_success
    run "$RACE" -b early 10 "$n" ppoll-wait -q -s "$sig"
    assert_success
  done
  # The man page's example, in bash, which passes its mask on to the
  # commands it runs: the signal sent at once is reported.
  run env --block-signal=USR1 bash -c \
    'ppoll-wait --json -s USR1 -t 10s f & kill -USR1 $!; wait $!'
  assert_failure $((128 + $(signum USR1)))
  assert_output --partial '"result":"signal"'
  assert_output --partial '"name":"USR1"'
}

@test "early signals: not blocked, they are lost (the window of the man page)" {
  require_race
  skip_under_qemu "qemu catches every signal itself"
  mkfifo f
  # Not every round need lose its signal, but 20 sent in the first
  # millisecond, before ppoll-wait has even loaded its libraries, do not
  # all come late.
  run "$RACE" early 20 "$(signum USR1)" ppoll-wait -q -s USR1 -t 5s f
  assert_failure 1
  assert_output --regexp '[1-9][0-9]* killed by it'
  run "$RACE" early 20 "$(signum CHLD)" ppoll-wait -q -s CHLD -t 200ms f
  assert_failure 1
  assert_output --regexp '[1-9][0-9]* timed out'
}

# --- errors -----------------------------------------------------------------

@test "unknown or unusable signals: exit 2" {
  mkfifo f
  local spec
  for spec in FOO 0 99 32 -1 '' 'USR1,' ',USR1' 'USR 1' RTMIN+99 10x; do
    run --separate-stderr ppoll-wait -s "$spec" f
    assert_failure 2
    assert_output ""
    assert_err --partial "ppoll-wait: invalid signal for --signal: '"
    assert_err --partial "Try 'ppoll-wait --help' for more information."
  done
  run --separate-stderr ppoll-wait --ignore=BAR f
  assert_failure 2
  assert_err --partial "invalid signal for --ignore: 'BAR'"
  for spec in KILL STOP 9; do
    run --separate-stderr ppoll-wait -s "$spec" f
    assert_failure 2
    assert_err --partial "cannot be caught or blocked"
  done
  run --separate-stderr ppoll-wait -s USR1 --ignore=usr1 f
  assert_failure 2
  assert_err --partial "signal USR1 is given to both --signal and --ignore"
}

@test "malformed or negative durations: exit 2, with the reason" {
  mkfifo f
  local spec
  for spec in -1 -1s abc 1x '' 1.2.3 ' 1' '1 s' s . 1sec 1S +1 1e 0x nan \
    1m30 1s1m 1s1s inf1s; do
    run --separate-stderr ppoll-wait -t "$spec" f
    assert_failure 2
    assert_output ""
    assert_err --partial "ppoll-wait: invalid duration '$spec' for --timeout: "
    assert_err --partial "Try 'ppoll-wait --help'"
  done
  local reason
  while IFS=: read -r spec reason; do
    run --separate-stderr ppoll-wait -t "$spec" f
    assert_failure 2
    # shellcheck disable=SC2154 # set by run --separate-stderr.
    assert_equal "${stderr_lines[0]}" \
      "ppoll-wait: invalid duration '$spec' for --timeout:$reason"
  done <<'EOF'
-1s: negative duration
1x: unknown unit 'x' at position 2 (units: ns, us, ms, s, m, h, d)
+1: '+' at position 1 does not start a number (a duration takes no sign)
1e: no digit in the exponent at position 2
0x: no hexadecimal digit after '0x' at position 1
nan: not a number
1m30: no unit for the number at position 3 (each part of a compound duration has one)
1s1m: unit 'm' at position 4 out of order (a compound duration goes from d down to ns, each unit once)
inf1s: inf cannot be part of a compound duration
EOF
}

# bats test_tags=arch
@test "descriptor not open: exit 1" {
  local fd
  for fd in 987 99999999999; do
    run --separate-stderr ppoll-wait "$fd"
    assert_failure 1
    assert_output ""
    assert_err "ppoll-wait: cannot wait for descriptor $fd: Bad file descriptor"
  done
}

@test "missing path, directory: exit 1" {
  run --separate-stderr ppoll-wait -t 1s nope
  assert_failure 1
  assert_output ""
  assert_err "ppoll-wait: cannot open 'nope': No such file or directory"
  mkdir adir
  run --separate-stderr ppoll-wait adir
  assert_failure 1
  assert_err "ppoll-wait: cannot wait for 'adir': Is a directory"
  # -w on a FIFO without a reader.
  mkfifo f
  run --separate-stderr ppoll-wait -w f
  assert_failure 1
  assert_err "ppoll-wait: cannot open 'f': No such device or address"
}

@test "usage errors: exit 2" {
  local args want
  while IFS='|' read -r args want; do
    # shellcheck disable=SC2086 # the arguments are words.
    run --separate-stderr ppoll-wait $args
    assert_failure 2
    assert_output ""
    assert_err --partial "ppoll-wait: $want"
    assert_err --partial "Try 'ppoll-wait --help' for more information."
  done <<'EOF'
-t 1s|missing target operand
-q --json /dev/null|--quiet and --json are mutually exclusive
--select --hup /dev/null|--hup cannot be used with --select
--remaining /dev/null|--remaining needs --timeout
--bogus /dev/null|--bogus
/dev/null --|missing command after '--'
--|missing command after '--'
-- /dev/null|missing target operand before '--'
-s USR1 -- true|missing target operand before '--'
-t -- /dev/null|-t: missing argument
--json /dev/null -- true|--json cannot be used with a COMMAND
-t 1s --remaining /dev/null -- true|--remaining cannot be used with a COMMAND
pid:0|invalid process 'pid:0': pid:N wants N from 1 to 2147483647 (a file of that name: ./ before it)
pid:|invalid process 'pid:'
pid:12x|invalid process 'pid:12x'
pid:-5|invalid process 'pid:-5'
pid:2147483648|invalid process 'pid:2147483648'
--follow /dev/null|--follow needs --exists, --gone or --closed
EOF
}

# --- kernels without pidfd_open or inotify (tests/helpers/enosys-exec) ----------

require_enosys_exec() {
  ENOSYS_EXEC=${NC_ENOSYS_EXEC:-${NC_BUILDDIR:-$NC_BINDIR/..}/tests/helpers/enosys-exec}
  [[ -x $ENOSYS_EXEC ]] \
    || fail "$ENOSYS_EXEC is not built: run 'make tests/helpers/enosys-exec'"
  "$ENOSYS_EXEC" pidfd_open true \
    || skip "no seccomp filter here (enosys-exec: $?)"
}

@test "pid: without pidfd_open (Linux < 5.3): an error that says so, no polling loop" {
  require_enosys_exec
  command -v strace >/dev/null || skip "strace is not installed"
  sleep 30 &
  local pid=$!
  run --separate-stderr strace -f -o trace \
    -e trace=pidfd_open,ppoll,pselect6,nanosleep,clock_nanosleep \
    "$ENOSYS_EXEC" pidfd_open ppoll-wait -t 5s "pid:$pid"
  kill "$pid"
  assert_failure 1
  assert_err "ppoll-wait: cannot wait for pid:$pid: pidfd_open is not in this kernel (Linux 5.3 or later)"
  # One refused call, then the exit: no wait of any kind.
  run grep -cE 'pidfd_open\(' trace
  assert_output 1
  run grep -E 'ppoll|pselect6|nanosleep' trace
  assert_failure
}

@test "path targets: inotify refused or its limits reached: exit 1, the directory named" {
  require_enosys_exec
  local call want
  while IFS='|' read -r call want; do
    run --separate-stderr "$ENOSYS_EXEC" "$call" \
      ppoll-wait -t 5s --exists "$PWD/no/such"
    assert_failure 1
    assert_output ""
    assert_err "ppoll-wait: cannot watch $want"
  done <<EOF
inotify_init1|'$PWD/no/such': inotify_init1 is not in this kernel (Linux 2.6.27 or later)
inotify_init1:EMFILE|'$PWD/no/such' (the open file limit, or the inotify instance limit: fs.inotify.max_user_instances, one per path): Too many open files
inotify_add_watch:ENOSPC|'/' (the inotify watch limit: fs.inotify.max_user_watches): No space left on device
inotify_add_watch:EACCES|'/' (a watch needs read permission on each directory on the way): Permission denied
EOF
}
