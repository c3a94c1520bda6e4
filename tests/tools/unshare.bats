#!/usr/bin/env bats
# unshare.bats -- unshare-run, from the outside.
#
# Each namespace is checked by what changes inside and what must not
# change outside; process handling (exit status, signals, reaping) with
# tests/helpers/unshare-helper.c, a probe built with the tools.  Most
# tests need root (CI runs as root) and skip without it; the user
# namespace tests run as uid 65534 through as_nobody.  Waits are bounded
# loops, never timings.

load test_helper

setup() {
  nc_setup
  HELPER_DIR="${NC_BUILDDIR:-$BATS_TEST_DIRNAME/../..}/tests/helpers"
  [[ -x $HELPER_DIR/unshare-helper ]] \
    || fail "no $HELPER_DIR/unshare-helper: build it (make) or set NC_BUILDDIR"
  HELPER_DIR=$(cd "$HELPER_DIR" && pwd)
  PATH="$HELPER_DIR:$PATH"
}

teardown() {
  local m
  for m in "$BATS_TEST_TMPDIR"/persist-* "$BATS_TEST_TMPDIR/shared"; do
    if [[ -e $m ]] && mountpoint -q "$m"; then umount -R "$m"; fi
  done
  local pid
  for pid in ${BG_PID:-} ${BG_INNER:-}; do
    kill -KILL "$pid" 2>/dev/null || true
  done
}

# In a sanitizer build, unshare-run itself makes LeakSanitizer's exit check
# possible after a new PID namespace, or skips it (see ns_run_exit() in
# lib/ns/run.c): the runs with -p need no detect_leaks=0.

# Under qemu-user each tool is a qemu process, which runs a thread of its
# own beside the tool's: the kernel gives no multi-threaded process a new
# user namespace (EINVAL) or entry into a time namespace (EUSERS), and the
# thread takes a PID in a new PID namespace.
skip_for_qemu_thread() {
  skip_under_qemu "qemu runs a thread of its own: $*"
}
NO_USERNS="a multi-threaded process gets no user namespace (EINVAL)"
NO_TIMENS="a multi-threaded process cannot enter a time namespace (EUSERS)"
# The PID that qemu's thread does not take: 2, else any.
PID2='2'
[[ -z ${NC_QEMU:-} ]] || PID2='[0-9]+'

# ns_link NAME: the namespace NAME of this shell, as readlink shows it.
ns_link() {
  readlink "/proc/self/ns/$1"
}

# wait_for_line FILE TEXT: until FILE has the line TEXT; a bound of 10 s
# against a hang, not a timing.
wait_for_line() {
  local i
  for ((i = 0; i < 200; i++)); do
    grep -qxF -- "$2" "$1" 2>/dev/null && return 0
    sleep 0.05
  done
  fail "no line '$2' in $1 after 10 s: $(cat "$1" 2>&1)"
}

# dead PID: whether process PID has ended (gone, or a zombie).
dead() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
  stat=${stat##*) }
  [[ ${stat%% *} == Z ]]
}

# wait_dead PID: until PID has ended, 10 s at most.
wait_dead() {
  local i
  for ((i = 0; i < 200; i++)); do
    dead "$1" && return 0
    sleep 0.05
  done
  fail "process $1 still runs after 10 s"
}

# Unprivileged user namespaces: the tests that need them skip, saying
# which setting disables them.
require_userns() {
  skip_for_qemu_thread "$NO_USERNS"
  require_nobody
  as_nobody "$NC_BINDIR/unshare-run" --version >/dev/null 2>&1 \
    || skip "uid 65534 cannot run $NC_BINDIR/unshare-run"
  require_userns_enabled
}

# --- namespaces --------------------------------------------------------

# bats test_tags=arch
@test "-n: only lo inside, the host's interfaces untouched" {
  require_root
  require_cmd ip
  ip -o link | awk -F': ' '{ print $2 }' >before
  run --separate-stderr unshare-run -n ip -o link
  assert_success
  assert_err ""
  [[ ${#lines[@]} -eq 1 ]] || fail "interfaces inside: $output"
  assert_line --index 0 --regexp '^1: lo: '
  ip -o link | awk -F': ' '{ print $2 }' >after
  assert_same before after
  # The host has more than lo, or the test proves nothing.
  [[ $(wc -l <before) -gt 1 ]] || skip "the host has only lo"
}

# bats test_tags=arch
@test "-u --hostname: the name inside, the host's unchanged" {
  require_root
  local host
  host=$(hostname)
  run --separate-stderr unshare-run -u --hostname=inside-x hostname
  assert_success
  assert_output "inside-x"
  run hostname
  assert_output "$host"
  # --hostname NAME, as a separate word, too.
  run unshare-run -u --hostname other-y cat /proc/sys/kernel/hostname
  assert_output "other-y"
}

# bats test_tags=arch
@test "-p -f --mount-proc: COMMAND is pid 2 under a pid 1 init; ps sees only them" {
  require_root
  require_cmd ps
  run --separate-stderr unshare-run -p -f --mount-proc ps -o pid=,comm=
  assert_success
  assert_err ""
  [[ ${#lines[@]} -eq 2 ]] || fail "processes inside: $output"
  assert_line --index 0 --regexp '^ *1 unshare-run$'
  assert_line --index 1 --regexp "^ *$PID2 ps\$"
  # The host's /proc is untouched.
  [[ -d /proc/$$ ]]
}

# bats test_tags=arch
@test "-p --as-pid-1: COMMAND is pid 1 itself" {
  require_root
  run --separate-stderr \
    unshare-run -p --as-pid-1 --mount-proc sh -c 'echo $$; exec ls /proc'
  assert_success
  assert_line --index 0 "1"
  # Only sh, become ls: pid 1.
  run grep -cx '[0-9]*' <<<"$output"
  assert_output "2"
}

# bats test_tags=arch
@test "-m: a mount inside does not appear outside, even under a shared mount" {
  require_root
  # A new mount namespace starts with copies of the mounts, peers of the
  # shared ones: unshare-run makes / private for the mount to stay in.
  mkdir shared
  mount -t tmpfs none shared
  mount --make-shared shared
  mkdir shared/dir
  run --separate-stderr unshare-run -m sh -c \
    'mount -t tmpfs none shared/dir && mountpoint -q shared/dir && echo mounted'
  assert_success
  assert_output "mounted"
  run mountpoint -q shared/dir
  assert_failure
  # The control: with the propagation unchanged, it does appear outside.
  unshare-run -m --propagation=unchanged mount -t tmpfs none shared/dir
  run mountpoint -q shared/dir
  assert_success
}

@test "each namespace option: COMMAND's namespace differs from the parent's" {
  require_root
  local opt name inside
  local not_here=
  for opt in m:mnt u:uts i:ipc n:net p:pid U:user C:cgroup T:time; do
    name=${opt#*:}
    [[ -e /proc/self/ns/$name ]] || continue
    if [[ -n ${NC_QEMU:-} && ($name == user || $name == time) ]]; then
      not_here+=" $name"
      continue
    fi
    inside=$(unshare-run "-${opt%%:*}" \
      readlink "/proc/self/ns/$name")
    [[ $inside == "$name:["*"]" ]] || fail "-${opt%%:*}: $inside"
    [[ $inside != "$(ns_link "$name")" ]] \
      || fail "-${opt%%:*}: still $inside"
    # Without the option, the same namespace.
    inside=$(unshare-run readlink "/proc/self/ns/$name")
    assert_equal "$inside" "$(ns_link "$name")"
  done
  [[ -z $not_here ]] \
    || skip_for_qemu_thread "the others passed;$not_here: $NO_USERNS; $NO_TIMENS"
}

# unshare(CLONE_NEWTIME) moves only the children; unshare-run enters the
# namespace with setns(2), which recent kernels also do at execve(2).
@test "-T without --fork: COMMAND itself is in the new time namespace" {
  require_root
  [[ -e /proc/self/ns/time ]] || skip "no time namespaces in this kernel"
  skip_for_qemu_thread "$NO_TIMENS"
  local links own children
  # Both links of the one process COMMAND became (sh), read in the same
  # run: two runs' namespaces may or may not get the same inode number.
  # shellcheck disable=SC2016
  links=$(unshare-run -T sh -c 'readlink /proc/$$/ns/time /proc/$$/ns/time_for_children')
  own=${links%%$'\n'*}
  children=${links#*$'\n'}
  [[ $own == time:* ]] || fail "unexpected output: $links"
  assert_equal "$own" "$children"
  [[ $own != "$(ns_link time)" ]]
}

@test "-T --monotonic: CLOCK_MONOTONIC 100 s ahead, with and without -f" {
  require_root
  [[ -e /proc/self/ns/time ]] || skip "no time namespaces in this kernel"
  skip_for_qemu_thread "$NO_TIMENS"
  local before inside after fork
  for fork in "" -f; do
    before=$(unshare-helper clock monotonic)
    inside=$(unshare-run -T $fork --monotonic 100 unshare-helper clock monotonic)
    after=$(unshare-helper clock monotonic)
    ((inside >= before + 100000000000 && inside <= after + 100000000000)) \
      || fail "$fork: $before <= $inside - 100 s <= $after does not hold"
  done
  # Not offset by default.
  inside=$(unshare-run -T unshare-helper clock monotonic)
  after=$(unshare-helper clock monotonic)
  ((inside <= after))
}

@test "-T --boottime: /proc/uptime 1000000 s ahead" {
  require_root
  [[ -e /proc/self/ns/time ]] || skip "no time namespaces in this kernel"
  skip_for_qemu_thread "$NO_TIMENS"
  local before inside after
  before=$(cut -d. -f1 /proc/uptime)
  inside=$(unshare-run -T --boottime=1000000 cut -d. -f1 /proc/uptime)
  after=$(cut -d. -f1 /proc/uptime)
  ((inside >= before + 1000000 && inside <= after + 1000000)) \
    || fail "$before <= $inside - 1000000 <= $after does not hold"
}

@test "--all: every namespace the kernel offers, and you stay yourself" {
  require_root
  skip_for_qemu_thread "$NO_USERNS"
  local name inside
  # shellcheck disable=SC2016 # expanded by the inner sh.
  run --separate-stderr unshare-run --all sh -c \
    'for n in mnt uts ipc net pid user cgroup time; do
       [ -e /proc/self/ns/$n ] && readlink /proc/self/ns/$n; done; id -u'
  assert_success
  for name in mnt uts ipc net pid user cgroup time; do
    [[ -e /proc/self/ns/$name ]] || continue
    inside=$(printf '%s\n' "${lines[@]}" | grep "^$name:") \
      || fail "no $name namespace inside: $output"
    [[ $inside != "$(ns_link "$name")" ]] || fail "--all kept $inside"
  done
  assert_line --index "$((${#lines[@]} - 1))" "0"
}

@test "--fs: COMMAND's cd no longer moves a process it shared CLONE_FS with" {
  skip_under_qemu "qemu refuses clone(2) with CLONE_FS but not CLONE_VM"
  mkdir here
  cd here
  # unshare-helper shares its working directory with the child that runs
  # unshare-run, which becomes sh: without --fs, sh's cd moves both.
  run unshare-helper share-fs unshare-run sh -c 'cd /'
  assert_success
  assert_output "/"
  run unshare-helper share-fs unshare-run --fs sh -c 'cd /'
  assert_success
  assert_output "$PWD"
}

@test "--sysvsem: COMMAND's semaphore undo applies when it ends" {
  skip_under_qemu "qemu refuses clone(2) with CLONE_SYSVSEM but not CLONE_VM"
  # The child sharing unshare-helper's undo list (CLONE_SYSVSEM) raises a
  # semaphore with SEM_UNDO: the undo applies when the last sharer ends.
  run unshare-helper share-sysvsem unshare-run unshare-helper semup
  assert_success
  assert_output "1"
  run unshare-helper share-sysvsem unshare-run --sysvsem unshare-helper semup
  assert_success
  assert_output "0"
}

@test "--files, --fs, --sysvsem and the namespaces: one unshare(2)" {
  require_root
  require_strace
  # execve(2) already gave unshare-run a descriptor table of its own, so
  # --files shows only here, in the flags.
  strace -f -o log -e trace=unshare \
    unshare-run --files --fs --sysvsem -n -i -u true
  run grep -c 'unshare(' log
  assert_output "1"
  run grep 'unshare(' log
  local flag
  for flag in CLONE_FILES CLONE_FS CLONE_SYSVSEM CLONE_NEWNET CLONE_NEWIPC \
    CLONE_NEWUTS; do
    assert_output --partial "$flag"
  done
  assert_output --partial ") = 0"
}

# bats test_tags=arch
@test "--NS=FILE persists the namespace: nsenter joins it later" {
  require_root
  require_cmd nsenter ip
  touch persist-net
  unshare-run --net="$PWD/persist-net" --uts="$PWD/persist-uts" \
    --hostname=kept -- true
  run nsenter --net="$PWD/persist-net" ip -o link
  assert_success
  assert_line --index 0 --regexp '^1: lo: '
  [[ ${#lines[@]} -eq 1 ]]
  run nsenter --uts="$PWD/persist-uts" hostname
  assert_output "kept"
  # A PID namespace is kept once its first process exists.
  unshare-run -f --pid="$PWD/persist-pid" true
  mountpoint -q persist-pid
}

@test "--mount=FILE on a shared mount: refused, saying why" {
  require_root
  mkdir shared
  mount -t tmpfs none shared
  mount --make-shared shared
  touch shared/m
  run --separate-stderr unshare-run --mount="$PWD/shared/m" true
  assert_failure 1
  assert_err --partial "cannot bind /proc/"
  assert_err --partial "not shared"
}

# refused_persist NS WHAT FILE WHY: unshare-run --NS=FILE is refused,
# saying WHY, before anything is unshared: COMMAND does not run, no other
# FILE is made, nothing is mounted on FILE.  WHAT: the namespace in it.
refused_persist() {
  local ns=$1 what=$2 f=$3 why=$4
  rm -f ran
  run --separate-stderr timeout 20 unshare-run --"$ns"="$f" \
    --ipc=persist-other touch ran
  assert_failure 1
  assert_err "unshare-run: refusing to persist the $what namespace on '$f': it is $why (it must be an empty regular file, or missing)"
  [[ ! -e ran ]] || fail "COMMAND ran"
  [[ ! -e persist-other ]] || fail "persist-other was made"
  if mountpoint -q "$f"; then fail "something was mounted on $f"; fi
}

@test "--NS=FILE: a symbolic link is refused, never followed" {
  require_root
  : >persist-target
  ln -s persist-target persist-link
  ln -s persist-nowhere persist-dangling
  refused_persist net network persist-link "a symbolic link"
  refused_persist uts UTS persist-dangling "a symbolic link"
  if mountpoint -q persist-target; then fail "mounted through the link"; fi
  [[ ! -e persist-nowhere ]] || fail "the dangling link was followed"
  assert_equal "$(readlink persist-link)" persist-target
}

@test "--NS=FILE: a file with content, a directory, a FIFO: refused" {
  require_root
  printf 'keep me' >persist-full
  mkdir persist-dir
  mkfifo persist-fifo
  refused_persist net network persist-full "not empty"
  refused_persist net network persist-dir "not a regular file"
  refused_persist uts UTS persist-fifo "not a regular file"
  assert_equal "$(cat persist-full)" "keep me"
  if can_strace; then
    strace -f -o log -e trace=unshare,mount unshare-run --net=persist-full \
      true 2>/dev/null && fail "not refused"
    if grep -E 'unshare\(|mount\(' log; then fail "unshared or mounted"; fi
  fi
}

@test "--NS=FILE: a missing FILE is made with O_EXCL, an empty one taken" {
  require_root
  require_strace
  : >persist-empty
  strace -f -o log -e trace=openat \
    unshare-run --net=persist-new --uts=persist-empty --hostname=kept true
  grep 'openat(AT_FDCWD, "persist-new", .*O_CREAT' log | grep O_EXCL |
    grep -q O_NOFOLLOW || fail "not O_EXCL|O_NOFOLLOW: $(grep persist-new log)"
  mountpoint -q persist-new
  mountpoint -q persist-empty
  run nsenter --uts="$PWD/persist-empty" hostname
  assert_output "kept"
}

# --- users -------------------------------------------------------------

@test "as uid 65534: -U -r id -u prints 0" {
  require_userns
  run --separate-stderr as_nobody "$NC_BINDIR/unshare-run" -U -r id -u
  assert_success
  assert_output "0"
  assert_err ""
}

@test "as uid 65534: -r maps uid and gid, and denies setgroups as the kernel requires" {
  require_userns
  run as_nobody "$NC_BINDIR/unshare-run" -r \
    cat /proc/self/uid_map /proc/self/gid_map /proc/self/setgroups
  assert_success
  assert_line --index 0 --regexp '^ +0 +65534 +1$'
  assert_line --index 1 --regexp '^ +0 +65534 +1$'
  assert_line --index 2 "deny"
  # -c maps to yourself; --map-user/--map-group to what is asked.
  run as_nobody "$NC_BINDIR/unshare-run" -c id -u
  assert_output "65534"
  run as_nobody "$NC_BINDIR/unshare-run" --map-user=1000 --map-group=2000 \
    sh -c 'id -u; id -g'
  assert_success
  assert_output "1000
2000"
}

@test "as uid 65534: with --fork and a new PID namespace, in the user namespace" {
  require_userns
  run as_nobody "$NC_BINDIR/unshare-run" \
    -r -p --mount-proc sh -c 'id -u; echo $$; exit 5'
  assert_failure 5
  assert_output "0
2"
}

@test "as uid 65534: --setgroups=allow with a gid map: the file and the reason" {
  require_userns
  run --separate-stderr as_nobody "$NC_BINDIR/unshare-run" -r \
    --setgroups=allow true
  assert_failure 1
  assert_err --regexp "cannot write '0 65534 1' to /proc/[0-9]+/gid_map: Operation not permitted"
  assert_err --partial "drop --setgroups=allow"
}

@test "as uid 65534: -n without -U says what to change" {
  require_nobody
  run --separate-stderr as_nobody "$NC_BINDIR/unshare-run" -n true
  assert_failure 1
  assert_err "unshare-run: creating a network namespace needs CAP_SYS_ADMIN; run as root or add -U/-r"
  run --separate-stderr as_nobody "$NC_BINDIR/unshare-run" -n -m -u true
  assert_failure 1
  assert_err --partial "creating mount, UTS and network namespaces needs CAP_SYS_ADMIN"
}

@test "as root: -r writes the gid map and leaves setgroups allowed" {
  require_root
  skip_for_qemu_thread "$NO_USERNS"
  run unshare-run -r cat /proc/self/uid_map /proc/self/gid_map \
    /proc/self/setgroups
  assert_success
  assert_line --index 0 --regexp '^ +0 +0 +1$'
  assert_line --index 1 --regexp '^ +0 +0 +1$'
  assert_line --index 2 "allow"
  run unshare-run -r --setgroups=deny cat /proc/self/setgroups
  assert_output "deny"
}

@test "-S/-G: COMMAND's user and group, without supplementary groups" {
  require_root
  skip_for_qemu_thread "$NO_USERNS"
  run unshare-run -S 65534 -G 65534 sh -c 'id -u; id -g; id -G'
  assert_success
  assert_output "65534
65534
65534"
  run --separate-stderr unshare-run -U --setuid=5 true
  assert_failure 1
  assert_err --partial "cannot set the user ID to 5: Invalid argument; it has no mapping"
}

@test "--keep-caps: a non-root COMMAND keeps the namespace's capabilities" {
  require_root
  skip_for_qemu_thread "$NO_USERNS"
  run unshare-run -U --map-user=1000 grep CapAmb /proc/self/status
  assert_output --regexp ':\s+0+$'
  run unshare-run -U --map-user=1000 --keep-caps grep CapEff /proc/self/status
  refute_output --regexp ':\s+0+$'
}

# bats test_tags=arch
@test "no_new_privs: set by default, not with --new-privs or --keep-caps" {
  run unshare-run grep NoNewPrivs /proc/self/status
  assert_output --regexp ':\s+1$'
  run unshare-run --new-privs grep NoNewPrivs /proc/self/status
  assert_output --regexp ':\s+0$'
  run unshare-run --keep-caps grep NoNewPrivs /proc/self/status
  assert_output --regexp ':\s+0$'
  run unshare-run --keep-caps --no-new-privs grep NoNewPrivs /proc/self/status
  assert_output --regexp ':\s+1$'
}

# --- exit status and signals -------------------------------------------

# bats test_tags=arch
@test "exit codes 0, 1, 42 pass through, with and without --fork and -p" {
  require_root
  local mode code
  for mode in "" -f -p; do
    for code in 0 1 42; do
      # shellcheck disable=SC2086 # $mode: no option, or one.
      run unshare-run $mode sh -c "exit $code"
      assert_equal "$status" "$code"
    done
  done
}

@test "COMMAND killed by a signal: unshare-run dies by the same signal" {
  require_root
  local mode
  for mode in -f -p; do
    run unshare-helper status unshare-run "$mode" sh -c 'kill -TERM $$'
    assert_output "signal 15"
    run unshare-helper status unshare-run "$mode" sh -c 'kill -USR1 $$'
    assert_output "signal 10"
  done
  # A core-dumping signal, without a second core from unshare-run.
  skip_under_qemu "the other signals passed; for SIGSEGV qemu adds a" \
    "message of its own"
  run unshare-helper status unshare-run -f sh -c 'ulimit -c 0; kill -SEGV $$'
  assert_output "signal 11"
  run unshare-helper status unshare-run sh -c 'kill -TERM $$'
  assert_output "signal 15"
}

# signal_reaches SIG OPTION...: SIG sent to unshare-run OPTION... reaches
# COMMAND, which then exits 7.
signal_reaches() {
  local sig=$1
  shift
  # Not the last run's "ready": the new one truncates out only once it
  # runs.
  rm -f out
  unshare-run "$@" unshare-helper catch \
    >out 2>err 3>&- &
  BG_PID=$!
  wait_for_line out ready
  kill "-$sig" "$BG_PID"
  # Bounded: a signal that never arrives fails the test, not hangs it.
  wait_dead "$BG_PID"
  local status=0
  wait "$BG_PID" || status=$?
  BG_PID=
  assert_equal "$status" 7
  run cat out
  assert_line --index 1 "got SIGNUMBER $(signum "$sig")"
  assert_size err 0
}

@test "a signal to unshare-run reaches COMMAND: alone, or with --forward-signals" {
  # Without --fork, unshare-run has become COMMAND.
  signal_reaches TERM
  signal_reaches HUP
  signal_reaches TERM --forward-signals
  signal_reaches TERM -f --forward-signals --new-session
  require_root
  signal_reaches TERM -p --forward-signals
}

# The COMMAND of outlives: says "ready", waits for the file go (10 s at
# most), says "alive" and, given "zombie", makes an orphan that the init
# must reap (unshare-helper zombie, which says "reaped"); exits 3.
# shellcheck disable=SC2016 # expanded by the inner sh.
PROBE='echo ready >out; i=0
while [ ! -e go ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ -e go ] || exit 1
echo alive >>out
if [ "$1" = zombie ]; then unshare-helper zombie >>out; fi
exit 3'

# wait_pending PID SIG: until signal SIG is pending for process PID,
# blocked (ShdPnd of /proc/PID/status); fails at once if PID ends.
wait_pending() {
  local i mask
  for ((i = 0; i < 200; i++)); do
    dead "$1" && fail "process $1 ended instead of keeping signal $2 blocked"
    mask=$(awk '$1 == "ShdPnd:" { print $2 }' "/proc/$1/status")
    (((0x$mask >> ($2 - 1)) & 1)) && return 0
    sleep 0.05
  done
  fail "signal $2 not pending for $1 after 10 s"
}

# outlives SIG zombie|- OPTION...: SIG sent to unshare-run OPTION...
# leaves COMMAND running.  SIGKILL and SIGHUP end unshare-run alone;
# SIGTERM stays blocked, and unshare-run waits and ends with COMMAND's 3.
# Then COMMAND ends, and the child of unshare-run (the init, with -p) too.
outlives() {
  local sig=$1 probe_arg=$2
  shift 2
  rm -f out go
  unshare-run "$@" sh -c "$PROBE" probe \
    "$probe_arg" 2>err 3>&- &
  BG_PID=$!
  wait_for_line out ready
  local child status=0
  child=$(pgrep -P "$BG_PID") || fail "$*: no child"
  BG_INNER=$child
  kill "-$sig" "$BG_PID"
  if [[ $sig == TERM ]]; then
    # qemu takes every signal itself: none stays pending in the kernel.
    [[ -n ${NC_QEMU:-} ]] || wait_pending "$BG_PID" 15
    touch go
    wait "$BG_PID" || status=$?
    assert_equal "$sig $*: $status" "$sig $*: 3"
  else
    wait "$BG_PID" || status=$?
    assert_equal "$sig $*: $status" "$sig $*: $((128 + $(signum "$sig")))"
    touch go
  fi
  BG_PID=
  wait_for_line out alive
  [[ $probe_arg != zombie ]] || wait_for_line out reaped
  wait_dead "$child"
  BG_INNER=
  assert_size err 0
}

@test "unshare-run killed or sent SIGTERM, without --kill-child: COMMAND runs on (-f)" {
  local sig
  for sig in KILL HUP TERM; do
    outlives "$sig" - -f
  done
}

@test "killed or sent SIGTERM: the init keeps reaping, COMMAND as pid 1 runs on (-p)" {
  require_root
  local sig
  for sig in KILL HUP TERM; do
    outlives "$sig" zombie -p --mount-proc
    outlives "$sig" - -p --as-pid-1
  done
}

@test "-p --kill-child: unshare-run killed, the whole namespace ends" {
  require_root
  rm -f out go
  unshare-run -p --kill-child sh -c "$PROBE" \
    2>err 3>&- &
  BG_PID=$!
  wait_for_line out ready
  local init cmd
  init=$(pgrep -P "$BG_PID") || fail "no init"
  cmd=$(pgrep -P "$init") || fail "no COMMAND"
  BG_INNER=$cmd
  kill -KILL "$BG_PID"
  wait "$BG_PID" || true
  BG_PID=
  wait_dead "$cmd"
  wait_dead "$init"
  BG_INNER=
  run cat out
  assert_output "ready"
}

@test "^C on a terminal reaches COMMAND, through --fork and the init" {
  require_cmd python3
  local mode
  for mode in -f -p; do
    [[ $mode != -p || $(id -u) -eq 0 ]] || continue
    # A terminal of its own: the tests' background jobs ignore SIGINT.
    run python3 - "$mode" <<'PY'
import os, pty, select, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp("unshare-run", ["unshare-run", sys.argv[1], "unshare-helper", "catch"])
out = b""
while True:
    if not select.select([fd], [], [], 10)[0]:
        print("timeout:", out)
        break
    try:
        data = os.read(fd, 1024)
    except OSError:
        break
    if not data:
        break
    out += data
    if b"ready" in out and b"\x03" not in out and b"^C" not in out:
        os.write(fd, b"\x03")
        out += b"\x03"
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
print(out.decode(errors="replace").replace("\r", ""))
PY
    assert_line --index 0 "7"
    assert_output --partial "got SIGNUMBER 2"
  done
}

# bats test_tags=arch
@test "a zombie child of COMMAND is reaped in a PID namespace (not by --as-pid-1)" {
  require_root
  run unshare-run -p --mount-proc unshare-helper zombie
  assert_success
  assert_output "reaped"
  # As pid 1 itself, unshare-helper never waits: the orphan stays a zombie.
  run unshare-run -p --as-pid-1 --mount-proc unshare-helper zombie
  assert_failure 1
  assert_output "zombie"
}

@test "COMMAND not found: 127; not executable: 126, with a message" {
  local mode
  touch not-exec
  for mode in --new-privs -f; do
    run -127 --separate-stderr unshare-run "$mode" ./no-such-command
    assert_failure 127
    assert_err "unshare-run: cannot run './no-such-command': No such file or directory"
    run -127 --separate-stderr unshare-run "$mode" no-such-command-either
    assert_failure 127
    run --separate-stderr unshare-run "$mode" ./not-exec
    assert_failure 126
    assert_err "unshare-run: cannot run './not-exec': Permission denied"
  done
  require_root
  run -127 --separate-stderr unshare-run -p ./no-such-command
  assert_failure 127
}

@test "no COMMAND: \$SHELL, else /bin/sh, as a login shell" {
  # A script's \$0 would be its path, which the kernel gives its
  # interpreter: a link to bash named probe-shell sees its own argv[0].
  mkdir bin
  ln -s /bin/bash bin/probe-shell
  # shellcheck disable=SC2016 # for the shell unshare-run starts.
  run env HOME="$PWD" SHELL="$PWD/bin/probe-shell" unshare-run \
    <<<'echo "$0"; shopt -q login_shell && echo login'
  assert_success
  assert_output "-probe-shell
login"
  run bash -c 'echo "echo \$0" | SHELL= unshare-run'
  assert_output "-sh"
  # \$SHELL is a file, not looked for in PATH, as unshare(1) does.
  run -127 --separate-stderr env SHELL=probe-shell PATH="$PWD/bin:$PATH" \
    unshare-run -f </dev/null
  assert_failure 127
  assert_err "unshare-run: cannot run 'probe-shell': No such file or directory"
}

@test "options end at COMMAND: its own options and optional arguments" {
  require_root
  # -l is ls's; --mount-proc takes 'ps' only after '='; -nf is -n -f.
  run --separate-stderr unshare-run -n ls -d -l /
  assert_success
  assert_output --regexp '^d.* /$'
  run --separate-stderr unshare-run -pf --mount-proc ps -o pid=
  assert_success
  assert_output --regexp "^ +1
 +$PID2\$"
  # shellcheck disable=SC2016 # expanded by the inner sh.
  run --separate-stderr unshare-run -nf sh -c 'echo $$ $PPID; ip -o link | wc -l'
  assert_success
  assert_line --index 1 "1"
  run -127 --separate-stderr unshare-run -n -- -x
  assert_failure 127
  assert_err --partial "cannot run '-x'"
}

@test "--json-status-fd: the child's pid, its namespaces, its exit" {
  require_root
  require_cmd python3
  unshare-run --json-status-fd=5 -p -n \
    sh -c 'readlink /proc/self/ns/net >net; exit 3' 5>json || true
  run python3 - json "$(cat net)" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) == 2, lines
first, last = lines
assert first["child-pid"] > 1, first
assert "net:[%d]" % first["net-namespace"] == sys.argv[2], (first, sys.argv[2])
for name in ("mnt", "uts", "ipc", "pid", "user"):
    assert name + "-namespace" in first, first
assert last == {"exit-code": 3}, last
print("ok")
PY
  assert_output "ok"
  # Killed by a signal; without --fork, only the first line.
  unshare-run --json-status-fd=5 -f \
    sh -c 'kill -TERM $$' 5>json || true
  run tail -n 1 json
  assert_output '{"exit-signal": 15}'
  unshare-run --json-status-fd=5 -n true 5>json
  run cat json
  assert_output --regexp '^\{"child-pid": [0-9]+, "mnt-namespace": [0-9]+, .*\}$'
  run --separate-stderr unshare-run --json-status-fd=9 true
  assert_failure 1
  assert_err --partial "--json-status-fd=9: Bad file descriptor"
}

# bats test_tags=arch
@test "--kill-child=TERM: COMMAND gets SIGTERM when unshare-run dies" {
  unshare-run --kill-child=TERM unshare-helper catch >out 2>err 3>&- &
  BG_PID=$!
  wait_for_line out ready
  local catcher
  catcher=$(pgrep -P "$BG_PID" -x unshare-helper) || fail "no child"
  kill -KILL "$BG_PID"
  wait "$BG_PID" || true
  BG_PID=$catcher
  wait_for_line out "got SIGNUMBER 15"
  wait_dead "$catcher"
  BG_PID=
}

@test "--die-with-parent: COMMAND dies with the process that started unshare-run" {
  local mode inner
  for mode in "" -f; do
    rm -f inner
    # shellcheck disable=SC2016 # $$: the inner shell's.
    sh -c 'unshare-run --die-with-parent '"$mode"' sh -c "echo \$\$ >inner; exec sleep 1000" & wait' \
      3>&- &
    BG_PID=$!
    for ((i = 0; i < 200; i++)); do [[ -s inner ]] && break; sleep 0.05; done
    inner=$(<inner)
    BG_INNER=$inner
    dead "$inner" && fail "$mode: $inner is not running"
    kill -KILL "$BG_PID"
    wait "$BG_PID" || true
    BG_PID=
    wait_dead "$inner"
    BG_INNER=
  done
}

# bats test_tags=arch
@test "--new-session: COMMAND leads a session of its own" {
  require_cmd ps
  run unshare-run --new-session sh -c 'ps -o sid= -p $$; echo $$'
  assert_success
  assert_equal "$(echo "${lines[0]}" | tr -d ' ')" "${lines[1]}"
}

# bats test_tags=arch
@test "--root and --wd" {
  require_root
  run unshare-run --root=/ --wd=/usr pwd
  assert_output "/usr"
  run unshare-run -w /etc pwd
  assert_output "/etc"
  run --separate-stderr unshare-run --wd=/no-such-dir true
  assert_failure 1
  assert_err "unshare-run: cannot change the working directory to '/no-such-dir': No such file or directory"
}

@test "--mount-proc on a directory that is not a mount point, / left shared: refused" {
  require_root
  mkdir p
  run --separate-stderr unshare-run --propagation=unchanged \
    --mount-proc="$PWD/p" true
  assert_failure 1
  assert_err --partial "it is not a mount point"
  run --separate-stderr unshare-run --mount-proc="$PWD/p" \
    sh -c 'test -r p/self/status && echo proc'
  assert_success
  assert_output "proc"
}

# --- errors and usage --------------------------------------------------

@test "usage errors: exit 2, saying what to add" {
  local args
  while IFS='|' read -r args expected; do
    # shellcheck disable=SC2086 # $args: several words.
    run --separate-stderr unshare-run $args true
    assert_failure 2
    assert_err --partial "unshare-run: $expected"
    assert_err --partial "Try 'unshare-run --help' for more information."
  done <<'EOF'
--hostname=x|--hostname needs a new UTS namespace: add -u
--monotonic=5|--monotonic needs a new time namespace: add -T
--boottime=5|--boottime needs a new time namespace: add -T
--propagation=slave|--propagation needs a new mount namespace: add -m
-m --propagation=sideways|invalid argument 'sideways' for '--propagation'
--setgroups=deny|--setgroups needs a new user namespace: add -U
-U --setgroups=maybe|invalid argument 'maybe' for '--setgroups'
--as-pid-1|--as-pid-1 needs a new PID namespace: add -p
--kill-child=NOPE|invalid signal for --kill-child: 'NOPE'
--map-user=no-such-user-x|invalid user for --map-user: 'no-such-user-x'
-T --monotonic=1.5|invalid --monotonic '1.5': '.' at position 2 is not a decimal digit
--json-status-fd=x|invalid --json-status-fd 'x': 'x' at position 1 is not a decimal digit
--net=|empty argument after '--net='
--bogus|--bogus: unknown option
EOF
}

@test "--monotonic, --boottime: a number first, no white space (fuzz/fuzz-unshare-run)" {
  local opt ws
  for opt in monotonic boottime; do
    for ws in ' ' $'\t' $'\n' $'\v' $'\f' $'\r'; do
      run --separate-stderr unshare-run -T --$opt="${ws}8" true
      assert_failure 2
      assert_err --partial "invalid --$opt '"
    done
  done
}

@test "a namespace limit of 0: the message names the setting" {
  require_root
  skip_for_qemu_thread "$NO_USERNS"
  # The limits are per user namespace: set them in a new one only.
  run --separate-stderr unshare-run -r sh -c \
    'echo 0 >/proc/sys/user/max_net_namespaces && unshare-run -n true'
  assert_failure 1
  assert_err "unshare-run: network namespaces are disabled (sysctl user.max_net_namespaces = 0)"
}

@test "-T --monotonic out of range: the file and the reason" {
  require_root
  [[ -e /proc/self/ns/time ]] || skip "no time namespaces in this kernel"
  run --separate-stderr unshare-run -T --monotonic=-100000000000 true
  assert_failure 1
  assert_err --partial "cannot set the monotonic clock offset in /proc/self/timens_offsets: "
  assert_err --partial "the clock must stay between 0 and"
}

@test "refuses to run set-user-ID" {
  skip_under_qemu "binfmt_misc starts qemu without the tool's set-user-ID bit"
  require_nobody
  cp "$NC_BINDIR/unshare-run" suid
  chmod 4755 suid
  chmod 755 .
  [[ $(findmnt -no OPTIONS --target . 2>/dev/null) != *nosuid* ]] \
    || skip "$PWD is on a nosuid mount"
  run --separate-stderr as_nobody ./suid -n true
  assert_failure 1
  assert_err --partial "refusing to run set-user-ID"
}

@test "--help: the synopsis; --version" {
  run --separate-stderr unshare-run --help
  assert_success
  assert_line --index 0 "Usage: unshare-run [OPTION]... [--] [COMMAND [ARG]...]"
  assert_output --partial "-n, --net[=FILE]"
  assert_output --partial "--mount-proc[=DIR]"
  assert_output --partial "--forward-signals"
  run unshare-run --version
  assert_success
  assert_line --index 0 --regexp '^unshare-run \(newcalls\) '
}

@test "lib/ns/kinds.c: ns_flags_parse and ns_flags_describe" {
  run unshare-helper ns-parse net
  assert_output "a network namespace"
  run unshare-helper ns-parse ipc,mnt
  assert_output "mount and IPC namespaces"
  run unshare-helper ns-parse n,uts,user
  assert_output "UTS, network and user namespaces"
  run unshare-helper ns-parse all
  assert_output "mount, UTS, IPC, network, PID, user, cgroup and time namespaces"
  run unshare-helper ns-parse net,bogus,ipc
  assert_failure 1
  assert_output "bad: bogus"
  run unshare-helper ns-parse net,
  assert_failure 1
  run unshare-helper ns-inode net
  assert_output "$(ns_link net | tr -dc 0-9)"
}

@test "-n=FILE: the long form is named; --hostname='': refused" {
  run --separate-stderr unshare-run -n=FILE true
  assert_failure 2
  assert_err "unshare-run: option -n takes no '=': use --net=FILE
Try 'unshare-run --help' for more information."
  assert_file_not_exists FILE
  run --separate-stderr unshare-run -f=x true
  assert_failure 2
  assert_err --partial "unshare-run: option -f takes no argument"
  run --separate-stderr unshare-run -u --hostname= true
  assert_failure 2
  assert_err --partial "unshare-run: invalid --hostname '': empty host name"
}
