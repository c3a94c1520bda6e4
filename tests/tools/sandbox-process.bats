#!/usr/bin/env bats
# sandbox-process.bats -- what COMMAND gets of unshare-run's sandbox
# options in bubblewrap's names, from the outside: its environment
# (--setenv, --unsetenv, --clearenv), working directory (--chdir, and
# where a new root puts it), capabilities (--cap-add, --cap-drop), seccomp
# program (--seccomp), ids (--uid, --gid, --map-users, --map-groups,
# --map-auto) and descriptors (--info-fd, --sync-fd, --block-fd).
#
# As root, and as uid 65534 with a user namespace (as_nobody).  The
# ranges of ids read /etc/subuid and /etc/subgid: a test that needs an
# entry there binds a file of its own over them inside `unshare -m`, a
# mount namespace of its own, and never writes the machine's.  Waits are
# bounded loops, never timings; that something has not happened yet is
# looked at once after a short pause, which a slow machine can make pass
# without proving it, never fail.

# shellcheck disable=SC2016 # the '...' here are scripts of inner shells.

load test_helper

setup() {
  nc_setup
  HELPER_DIR="${NC_BUILDDIR:-$BATS_TEST_DIRNAME/../..}/tests/helpers"
  require_helper "$HELPER_DIR/seccomp-deny"
  HELPER_DIR=$(cd "$HELPER_DIR" && pwd)
  cd "$BATS_TEST_TMPDIR" || fail "cannot enter $BATS_TEST_TMPDIR"
}

teardown() {
  local pid
  for pid in ${BG_PID:-}; do
    kill -KILL "$pid" 2>/dev/null || true
  done
}

# Unprivileged user namespaces: the tests that need them skip, saying
# which setting disables them.
require_userns() {
  skip_under_qemu "qemu runs a thread of its own: a multi-threaded" \
    "process gets no user namespace (EINVAL)"
  require_nobody
  require_userns_enabled
}

# The five capability sets of /proc/self/status, as COMMAND sees them.
CAPS_PROBE='grep -E "^Cap(Inh|Prm|Eff|Bnd|Amb):" /proc/self/status'

# assert_caps HEX: every one of the five sets of $output is HEX.
assert_caps() {
  local set
  for set in CapInh CapPrm CapEff CapBnd CapAmb; do
    assert_line --regexp "^$set:[[:space:]]+$1\$"
  done
}

# wait_for_file FILE: until FILE exists; a bound of 10 s against a hang.
wait_for_file() {
  local i
  for ((i = 0; i < 200; i++)); do
    [[ -e $1 ]] && return 0
    sleep 0.05
  done
  fail "no $1 after 10 s"
}

# --- environment and working directory ---------------------------------

@test "--setenv, --unsetenv, --clearenv: applied in order" {
  run --separate-stderr unshare-run --setenv NC_GONE 1 --clearenv \
    --setenv NC_A 1 --setenv NC_B "two words" --unsetenv NC_A \
    -- /usr/bin/env
  assert_success
  assert_output "NC_B=two words"
  # Without them, COMMAND gets the environment as it is.
  NC_MARK=kept run unshare-run -- /usr/bin/env
  assert_line "NC_MARK=kept"
  refute_line --regexp '^NC_(A|B)='
}

@test "--setenv PATH: COMMAND is searched in the PATH it gets" {
  run -127 unshare-run --setenv PATH /nonexistent -- true
  assert_failure 127
  run unshare-run --setenv PATH /nonexistent -- /bin/sh -c 'echo "$PATH"'
  assert_success
  assert_output "/nonexistent"
}

@test "--chdir: COMMAND starts there, with PWD; --chdir and --wd refused" {
  run unshare-run --chdir /usr -- /bin/sh -c 'pwd -P; echo "$PWD"'
  assert_success
  assert_output "/usr
/usr"
  run unshare-run --chdir /nonexistent -- true
  assert_failure 1
  assert_output --partial "/nonexistent"
  assert_output --partial "--chdir"
  run unshare-run --chdir /usr --wd / -- true
  assert_failure 2
  assert_output --partial "--chdir and --wd"
}

@test "new root without --chdir: the caller's directory if it is there, else \$HOME, else /" {
  require_root
  mkdir -p here
  cd here
  run unshare-run --ro-bind / / -- /bin/sh -c 'pwd -P; echo "$PWD"'
  assert_success
  assert_output "$PWD
$PWD"
  local tree=(--ro-bind /usr /usr --symlink usr/bin /bin
    --symlink usr/lib /lib --symlink usr/lib64 /lib64)
  [[ -e /lib64 ]] || tree=(--ro-bind /usr /usr --symlink usr/bin /bin
    --symlink usr/lib /lib)
  HOME=/usr/share run unshare-run "${tree[@]}" -- /bin/sh -c 'pwd -P'
  assert_success
  assert_output "/usr/share"
  HOME=/nonexistent run unshare-run "${tree[@]}" -- /bin/sh -c \
    'pwd -P; echo "$PWD"'
  assert_success
  assert_output "/
/"
}

# --- capabilities ------------------------------------------------------

@test "--cap-drop ALL: no capability in any set (CapInh CapPrm CapEff CapBnd CapAmb)" {
  require_root
  run unshare-run --cap-drop ALL -- /bin/sh -c "$CAPS_PROBE"
  assert_success
  assert_caps 0000000000000000
  # Even with no_new_privs off, nothing comes back at execve(2).
  run unshare-run --new-privs --cap-drop ALL -- /bin/sh -c "$CAPS_PROBE"
  assert_success
  assert_caps 0000000000000000
}

@test "--cap-drop ALL --cap-add CAP_NET_RAW: that one alone, in all five sets" {
  require_root
  run unshare-run --cap-drop ALL --cap-add CAP_NET_RAW -- \
    /bin/sh -c "$CAPS_PROBE"
  assert_success
  assert_caps 0000000000002000
  # A user other than root keeps it too: it is ambient.
  run unshare-run --setuid 1000 --cap-drop ALL --cap-add CAP_NET_RAW -- \
    /bin/sh -c "id -u; $CAPS_PROBE"
  assert_success
  assert_line 1000
  assert_caps 0000000000002000
}

@test "--cap-drop CAP: that one gone, the others kept; without --cap-*, unchanged" {
  require_root
  local before
  before=$(sed -n 's/^CapBnd:[[:space:]]*//p' /proc/self/status)
  run unshare-run --cap-drop CAP_SYS_ADMIN -- /bin/sh -c "$CAPS_PROBE"
  assert_success
  local want
  want=$(printf '%016x' $((0x$before & ~(1 << 21))))
  assert_caps "$want"
  run unshare-run -- /bin/sh -c "$CAPS_PROBE"
  assert_line --regexp "^CapEff:[[:space:]]+$before\$"
  assert_line --regexp "^CapAmb:[[:space:]]+0+\$"
}

@test "as uid 65534: -U -r --cap-drop ALL empties every set; --cap-add needs -U" {
  require_userns
  run as_nobody "$NC_BINDIR/unshare-run" -U -r --cap-drop ALL -- \
    /bin/sh -c "$CAPS_PROBE"
  assert_success
  assert_caps 0000000000000000
  # Not root inside: --cap-add is what COMMAND gets, ambient.
  run as_nobody "$NC_BINDIR/unshare-run" -U --uid 5 --cap-add CAP_NET_RAW \
    -- /bin/sh -c "id -u; $CAPS_PROBE"
  assert_success
  assert_line 5
  assert_line --regexp '^CapAmb:[[:space:]]+0000000000002000$'
  assert_line --regexp '^CapEff:[[:space:]]+0000000000002000$'
  run as_nobody "$NC_BINDIR/unshare-run" --cap-add CAP_NET_RAW -- true
  assert_failure 2
  assert_output --partial "--cap-add CAP_NET_RAW needs root or a new user namespace"
}

@test "capabilities: bwrap's for --unshare-user or a new root, unshare(1)'s for -U alone" {
  require_root
  local bnd
  bnd=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
  # bwrap's: root's effective set is the bounding set; the others as the
  # new namespace gave them, cut by execve(2).
  run unshare-run --unshare-user --ro-bind / / -- /bin/sh -c "$CAPS_PROBE"
  assert_success
  assert_line --regexp "^CapBnd:[[:space:]]+$bnd\$"
  assert_line --regexp "^CapEff:[[:space:]]+$bnd\$"
  assert_line --regexp '^CapInh:[[:space:]]+0000000000000000$'
  assert_line --regexp '^CapAmb:[[:space:]]+0000000000000000$'
  # Not root inside: none.
  run unshare-run --unshare-user --uid 5 --ro-bind / / -- /bin/sh -c "$CAPS_PROBE"
  assert_success
  assert_line --regexp '^CapEff:[[:space:]]+0000000000000000$'
  assert_line --regexp "^CapBnd:[[:space:]]+$bnd\$"
  # A new root in -U's namespace: bwrap's too, so that COMMAND cannot
  # make the root's read-only mounts writable.
  run unshare-run -U -r --ro-bind / / -- /bin/sh -c "$CAPS_PROBE"
  assert_success
  assert_line --regexp "^CapBnd:[[:space:]]+$bnd\$"
  assert_line --regexp "^CapEff:[[:space:]]+$bnd\$"
  # unshare(1)'s, -U without a new root or with --keep-caps: every
  # capability of the kernel, as the new namespace's root has them.
  local full
  full=$(printf '%016x' $(((1 << ($(</proc/sys/kernel/cap_last_cap) + 1)) - 1)))
  run unshare-run -U -r -- /bin/sh -c "$CAPS_PROBE"
  assert_success
  assert_line --regexp "^CapBnd:[[:space:]]+$full\$"
  assert_line --regexp "^CapEff:[[:space:]]+$full\$"
  run unshare-run -U -r --keep-caps --ro-bind / / -- /bin/sh -c "$CAPS_PROBE"
  assert_success
  assert_line --regexp "^CapEff:[[:space:]]+$full\$"
}

@test "as uid 65534, --unshare-user: no capability in any set, as bwrap" {
  require_userns
  run as_nobody "$NC_BINDIR/unshare-run" --unshare-user --ro-bind / / -- \
    /bin/sh -c "$CAPS_PROBE"
  assert_success
  assert_caps 0000000000000000
  # A mount step's implied user namespace is bwrap's too.
  run as_nobody "$NC_BINDIR/unshare-run" --ro-bind / / -- \
    /bin/sh -c "$CAPS_PROBE"
  assert_success
  assert_caps 0000000000000000
  # --cap-add on top, in all five sets.
  run as_nobody "$NC_BINDIR/unshare-run" --unshare-user --cap-add \
    CAP_NET_RAW --ro-bind / / -- /bin/sh -c "$CAPS_PROBE"
  assert_success
  assert_line --regexp '^CapBnd:[[:space:]]+0000000000002000$'
  assert_line --regexp '^CapAmb:[[:space:]]+0000000000002000$'
}

# --- seccomp -----------------------------------------------------------

@test "--seccomp: a program denying mkdir makes mkdir fail with its errno" {
  "$HELPER_DIR/seccomp-deny" 31 >deny-mkdir
  run unshare-run --seccomp 3 -- mkdir made 3<deny-mkdir
  assert_failure 1
  assert_output --partial "Too many links"
  [[ ! -e made ]] || fail "mkdir made the directory under the program"
  # mkdirat too; the other calls are allowed.
  run unshare-run --seccomp 3 -- /bin/sh -c \
    'touch file && echo ok; mkdir -p a/b' 3<deny-mkdir
  assert_failure
  assert_line ok
  assert_output --partial "Too many links"
  run unshare-run -- mkdir made
  assert_success
}

@test "--seccomp as uid 65534 in a user namespace, and with --new-privs refused without CAP_SYS_ADMIN" {
  require_userns
  "$HELPER_DIR/seccomp-deny" 31 >deny-mkdir
  run as_nobody "$NC_BINDIR/unshare-run" -U -r --seccomp 3 -- \
    mkdir /tmp/nc-seccomp-never 3<deny-mkdir
  assert_failure 1
  assert_output --partial "Too many links"
  run as_nobody "$NC_BINDIR/unshare-run" --new-privs --seccomp 3 -- \
    true 3<deny-mkdir
  assert_failure 1
  assert_output --partial "no_new_privs"
}

@test "--seccomp: a malformed program is refused before COMMAND runs" {
  head -c 12 /dev/zero >twelve
  : >empty
  head -c $((4097 * 8)) /dev/zero >long
  "$HELPER_DIR/seccomp-deny" --refused >refused
  local prog
  for prog in twelve empty long; do
    run unshare-run --seccomp 3 -- touch ran 3<"$prog"
    assert_failure 1
    assert_output --partial "--seccomp 3"
    [[ ! -e ran ]] || fail "COMMAND ran with the program $prog"
  done
  run unshare-run --seccomp 3 -- touch ran 3<long
  assert_output --partial "4096 instructions"
  run unshare-run --seccomp 3 -- touch ran 3<refused
  assert_failure 1
  assert_output --partial "refused the program"
  [[ ! -e ran ]] || fail "COMMAND ran with a program the kernel refused"
  run unshare-run --seccomp 9 -- touch ran
  assert_failure 1
  assert_output --partial "Bad file descriptor"
}

@test "strace: bounding drops, capset, ambient, no_new_privs, then seccomp last before execve" {
  require_root
  require_strace
  "$HELPER_DIR/seccomp-deny" 31 >deny-mkdir
  strace -f -o log -e trace=capset,prctl,seccomp,execve \
    unshare-run --cap-drop ALL --cap-add CAP_NET_RAW --seccomp 3 -- true \
    3<deny-mkdir
  run grep -E 'capset|PR_CAPBSET_DROP, CAP_SYS_ADMIN|AMBIENT_RAISE|NO_NEW_PRIVS|seccomp\(|execve\("/[^"]*/true' log
  assert_line --index 0 --partial "PR_CAPBSET_DROP, CAP_SYS_ADMIN) = 0"
  assert_line --index 1 --regexp 'capset\(.*effective=1<<CAP_NET_RAW, permitted=1<<CAP_NET_RAW, inheritable=1<<CAP_NET_RAW\}\) = 0'
  assert_line --index 2 --partial "PR_CAP_AMBIENT_RAISE, CAP_NET_RAW"
  assert_line --index 3 --partial "PR_SET_NO_NEW_PRIVS, 1"
  assert_line --index 4 --partial "seccomp(SECCOMP_SET_MODE_FILTER, 0, {len="
  assert_line --index 4 --partial ") = 0"
  # After the program, COMMAND's execve and nothing else of these.
  run sh -c "sed -n '/seccomp(/,\$p' log | grep -cE 'capset|prctl'"
  assert_output 0
}

# --- ids ---------------------------------------------------------------

@test "as uid 65534: -U --uid 5 --gid 7: COMMAND's ids inside, the caller's outside" {
  require_userns
  run --separate-stderr as_nobody "$NC_BINDIR/unshare-run" -U --uid 5 \
    --gid 7 -- /bin/sh -c 'id -u; id -g; cat /proc/self/uid_map /proc/self/gid_map'
  assert_success
  assert_line --index 0 5
  assert_line --index 1 7
  assert_line --index 2 --regexp '^ +5 +65534 +1$'
  assert_line --index 3 --regexp '^ +7 +65534 +1$'
  # --uid alone: the group is the caller's own, mapped.
  run as_nobody "$NC_BINDIR/unshare-run" -U --uid 0 -- /bin/sh -c 'id -u; id -g'
  assert_success
  assert_output "0
65534"
}

@test "--uid and --gid need a new user namespace, unless they are the caller's" {
  run unshare-run --uid 5 -- true
  assert_failure 2
  assert_output --partial "--uid needs a new user namespace: add -U"
  run unshare-run --gid 7 -- true
  assert_failure 2
  assert_output --partial "--gid needs a new user namespace"
  run unshare-run --uid "$(id -u)" --gid "$(id -g)" -- id -u
  assert_success
  assert_output "$(id -u)"
}

@test "as root: --map-users and --map-groups are written directly, with -r's line" {
  require_root
  run unshare-run --map-users 1:100000:1000 --map-groups 0:200000:10 -- \
    cat /proc/self/uid_map /proc/self/gid_map
  assert_success
  assert_line --index 0 --regexp '^ +1 +100000 +1000$'
  assert_line --index 1 --regexp '^ +0 +200000 +10$'
  run unshare-run -r --map-users 0:100000:1000 -- cat /proc/self/uid_map
  assert_success
  assert_line --index 0 --regexp '^ +0 +0 +1$'
  assert_line --index 1 --regexp '^ +1 +100000 +999$'
}

# with_subids SCRIPT: run SCRIPT (bash) in a mount namespace of its own
# where /etc/subuid and /etc/subgid are files of this test giving uid
# 65534 the ranges 200000 and 300000 (65536 each); $U is unshare-run.
with_subids() {
  require_userns
  require_cmd newuidmap
  require_cmd newgidmap
  printf 'nobody:200000:65536\n' >subuid
  printf '65534:300000:65536\n' >subgid
  chmod 644 subuid subgid
  U="$NC_BINDIR/unshare-run" SUBUID="$PWD/subuid" SUBGID="$PWD/subgid" \
    run unshare -m --propagation private bash -c '
    mount --bind "$SUBUID" /etc/subuid && mount --bind "$SUBGID" /etc/subgid \
      || exit 99
    nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
    '"$1"
}

@test "as uid 65534: --map-auto -r maps the ranges of /etc/subuid and /etc/subgid through newuidmap" {
  with_subids 'nobody "$U" --map-auto -r -- cat /proc/self/uid_map /proc/self/gid_map'
  assert_success
  assert_line --index 0 --regexp '^ +0 +65534 +1$'
  assert_line --index 1 --regexp '^ +1 +200000 +65535$'
  assert_line --index 2 --regexp '^ +0 +65534 +1$'
  assert_line --index 3 --regexp '^ +1 +300000 +65535$'
  with_subids 'nobody "$U" --map-users 0:200010:5 --map-groups auto -- cat /proc/self/uid_map /proc/self/gid_map'
  assert_success
  assert_line --index 0 --regexp '^ +0 +200010 +5$'
  assert_line --index 1 --regexp '^ +0 +300000 +65536$'
  # A file owned by a mapped id is owned by its outer id outside.
  with_subids 'nobody "$U" --map-auto -r -- sh -c "touch /tmp/nc-subid-$$; chown 7:7 /tmp/nc-subid-$$" && stat -c "%u %g" /tmp/nc-subid-$$; rm -f /tmp/nc-subid-$$'
  assert_success
  assert_output "200006 300006"
}

@test "as uid 65534: a range not in /etc/subuid, no line, no newuidmap: refused, COMMAND never runs" {
  with_subids 'nobody "$U" --map-users 0:100000:10 -- echo nc-command-ran'
  assert_failure 1
  refute_output --partial nc-command-ran
  assert_output --partial "newuidmap failed"
  with_subids 'nobody env PATH=/nonexistent "$U" --map-auto -- echo nc-command-ran'
  assert_failure 1
  refute_output --partial nc-command-ran
  assert_output --partial "not installed (the uidmap package)"
  with_subids ': >"$SUBUID"; nobody "$U" --map-auto -- echo nc-command-ran'
  assert_failure 1
  refute_output --partial nc-command-ran
  assert_output --partial "/etc/subuid has no range of subordinate user IDs"
}

# --- descriptors -------------------------------------------------------

@test "--info-fd: bubblewrap's JSON, the child's pid and its new namespaces" {
  require_root
  run unshare-run -n -u --info-fd 3 -- /bin/sh -c \
    'stat -L -c %i /proc/self/ns/net; echo $$' 3>info
  assert_success
  local net=${lines[0]} pid=${lines[1]}
  run cat info
  assert_line --index 0 "{"
  assert_line --index 1 "    \"child-pid\": $pid,"
  assert_line --index 2 "    \"net-namespace\": $net,"
  assert_line --index 3 --regexp '^    "uts-namespace": [0-9]+$'
  assert_line --index 4 "}"
  # With --fork, the child's pid; the file ends when it is written.
  run unshare-run -p --info-fd 3 -- true 3>info
  assert_success
  run grep -c namespace info
  assert_output 1
}

@test "--info-fd, --sync-fd, --block-fd: COMMAND holds none of them" {
  require_root
  local probe='for f in 5 6 7; do test -e /proc/self/fd/$f && echo has$f || echo no$f; done'
  run unshare-run --info-fd 5 --sync-fd 6 --block-fd 7 -- /bin/sh -c \
    "$probe" 5>/dev/null 6>/dev/null 7</dev/null
  assert_success
  assert_output "no5
no6
no7"
  # Pid 1 of the sandbox itself keeps --sync-fd, as bubblewrap's does.
  run unshare-run -p --as-pid-1 --sync-fd 6 -- /bin/sh -c "$probe" \
    5>/dev/null 6>/dev/null 7</dev/null
  assert_line has6
}

@test "--info-fd: its reader sees the end while COMMAND runs on" {
  require_root
  mkfifo info go
  unshare-run -p --info-fd 3 -- /bin/sh -c 'read x <go; echo finished >out' \
    3>info &
  BG_PID=$!
  run timeout 10 cat info
  assert_success
  assert_output --partial '"child-pid"'
  [[ ! -e out ]] || fail "COMMAND ended before the info was read"
  echo >go
  wait "$BG_PID"
  BG_PID=
  [[ $(<out) == finished ]]
}

@test "--sync-fd: its reader sees the end only when the sandbox ends" {
  require_root
  mkfifo sync go
  unshare-run -p --sync-fd 3 -- /bin/sh -c 'echo up >up; read x <go' \
    3>sync &
  BG_PID=$!
  exec 4<sync
  wait_for_file up
  # Still open: a read times out rather than meeting the end.
  run timeout 0.3 cat <&4
  assert_failure 124
  echo >go
  run timeout 10 cat <&4
  assert_success
  exec 4<&-
  wait "$BG_PID"
  BG_PID=
}

@test "--block-fd: COMMAND runs only after a byte, or the end, on it" {
  require_root
  mkfifo block
  unshare-run --block-fd 3 -- touch ran 3<block &
  BG_PID=$!
  exec 4>block
  sleep 0.3
  [[ ! -e ran ]] || fail "COMMAND ran before the byte"
  echo x >&4
  exec 4>&-
  wait "$BG_PID"
  BG_PID=
  [[ -e ran ]]
  # The end of file lets it go as well.
  run unshare-run --block-fd 3 -- echo ran 3</dev/null
  assert_success
  assert_output ran
}
