#!/usr/bin/env bats
# sandbox-attack.bats -- unshare-run's sandbox options under attack: a
# read-only bind that must stay read-only in every submount, a script
# that tries every way out of --ro-bind / /, the capabilities and
# descriptors COMMAND gets, the /dev of --dev, DST paths walked through
# what an attacker plants or races in a directory bound from outside
# (tests/helpers/sandbox-attack race), the flags of every mount, and
# the terminal --new-session takes away.
#
# Safety.  These tests try to write, mount and ptrace everywhere; if the
# sandbox were broken, they would.  So every sandbox that is attacked
# runs in the jail of tests/helpers/sandbox-attack: a mount namespace of
# its own in which every mount of the machine is read-only, nosuid and
# nodev (its /dev holds only null, zero, full, random, urandom, tty, a
# devpts of its own and a fake sda), then a user namespace whose ids
# 0-65535 are 1000000 and up outside.  There, whatever the sandbox does
# or fails to do, the kernel keeps the read-only flags (a mount namespace
# made in a user namespace cannot clear what it copied, nor unmount it),
# no capability reaches a file of the machine (their owners do not exist
# in the jail, whose ids are no user's), and mknod of a device, a signal
# or ptrace to a process outside are refused.  "The host" the attacks
# aim at is a fake one, built in the jail's own tmpfs (on /tmp, covering
# the machine's in the jail only), with the machine's /usr and /etc
# bound so that its programs run, and checksummed before and after.  "As
# root" is the jail's root: every capability of the jail's user
# namespace, none over the machine.  The one test run by the machine's
# root itself only reads what COMMAND holds.
#
# The tool under test is $NC_SANDBOX (default unshare-run); NC_SANDBOX=bwrap
# runs the same attacks against bubblewrap, the reference: every test
# passes there too, but where a test says why bwrap differs.

# The scripts for the jail are single-quoted, expanded there; $stderr
# is set by run --separate-stderr.
# shellcheck disable=SC2016,SC2154

load test_helper

setup() {
  nc_setup
  local dir="${NC_BUILDDIR:-$BATS_TEST_DIRNAME/../..}/tests/helpers"
  ATTACK=$(cd "$dir" 2>/dev/null && pwd)/sandbox-attack
  require_helper "$ATTACK"
  require_root
  require_userns_enabled
  skip_under_qemu "the jail needs a user namespace, which qemu's thread" \
    "cannot get"
  SB=${NC_SANDBOX:-unshare-run}
  command -v "$SB" >/dev/null || skip "$SB is not installed"
  SB=$(command -v "$SB")
  # The jail mounts its work area, a new tmpfs, on /tmp.
  [[ $SB != /tmp/* && $ATTACK != /tmp/* ]] \
    || skip "the jail's tmpfs on /tmp would hide $SB or $ATTACK: build elsewhere"
  # Before the sandbox options exist, there is nothing to attack.
  "$SB" --ro-bind / / true >/dev/null 2>&1 \
    || skip "$SB has no sandbox options (--ro-bind)"
  # The options of the namespaces, in each tool's words: a new PID
  # namespace, and a user namespace whose root is the caller.
  if [[ ${SB##*/} == bwrap ]]; then
    SB_PID=--unshare-pid
    SB_USER='--unshare-user --uid 0 --gid 0'
  else
    SB_PID=-p
    SB_USER='-U -r'
  fi
  export ATTACK SB SB_PID SB_USER
}

is_bwrap() {
  [[ ${SB##*/} == bwrap ]]
}

# bounding_set: the bounding set expected of COMMAND after --cap-drop ALL
# run by root, as a regular expression: empty; bwrap leaves it as it
# was (no_new_privs keeps an exec from using it).
bounding_set() {
  if is_bwrap; then echo '[0-9a-f]{16}'; else echo 0000000000000000; fi
}

# What every jailed script starts with: the functions it shares.
JAIL_LIB=$(cat <<'EOF'
set -u
export TMPDIR=/tmp
# sb ARG...: the tool under test.
sb() {
  "$SB" "$@"
}
# The options that give a sandbox the machine's programs: /usr and /etc
# read-only, the top-level links into /usr (or directories) as they are.
SYS=(--ro-bind /usr /usr --ro-bind /etc /etc)
for d in /bin /sbin /lib /lib32 /lib64 /libx32; do
  if [ -L "$d" ]; then
    SYS+=(--symlink "$(readlink "$d")" "$d")
  elif [ -d "$d" ]; then
    SYS+=(--ro-bind "$d" "$d")
  fi
done
# nobody COMMAND...: COMMAND as the uid and gid 65534 of the jail.
nobody() {
  setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}
# A fake host in /tmp/fake: directories, files of several modes and
# owners (a world-writable file and directory among them: what any
# write that got through would reach), the machine's /usr and /etc
# bound (read-only, and locked so), the top-level symbolic links; and
# /tmp/outside, mode 1777, out of every sandbox's reach.
make_fake_host() {
  local d
  mkdir -p fake/proc fake/dev fake/tmp fake/home/user/sub fake/root \
    fake/var/tmp fake/srv fake/usr fake/etc outside
  for d in /bin /sbin /lib /lib32 /lib64 /libx32; do
    if [ -L "$d" ]; then ln -s "$(readlink "$d")" "fake$d"; fi
  done
  mount --rbind /usr fake/usr && mount --rbind /etc fake/etc || exit 3
  echo secret >fake/root/secret && chmod 600 fake/root/secret
  echo data >fake/home/user/file && echo sub >fake/home/user/sub/file
  echo world >fake/srv/world && chmod 666 fake/srv/world
  echo outside >outside/file && chmod 666 outside/file
  chmod 1777 fake/var/tmp outside fake/tmp
  chown -R 1000:1000 fake/home/user
  mknod fake/dev/sda c 1 3
  find fake outside -xdev -exec touch -h -d 2001-02-03T04:05:06 {} +
}
# Everything of the fake host and the outside that a write, chmod,
# chown, rename or time change would alter, and the jail's mounts.
host_sums() {
  find fake outside -xdev -printf '%p %y %m %U %G %s %T@ %C@ %l\n' | sort
  find fake outside -xdev -type f -exec sha256sum {} + | sort
  cat /proc/self/mountinfo
}
EOF
)

# in_jail SCRIPT: bats' run of the bash SCRIPT in the jail, after
# JAIL_LIB, standard error apart.
in_jail() {
  run --separate-stderr "$ATTACK" jail /tmp bash -c "$JAIL_LIB
$1"
}

# --- 1. a read-only bind of a tree with submounts ------------------------

# In the sandbox, /t a read-only bind of a tree with a tmpfs submount, a
# tmpfs in that, and a bind submount: each write of every kind fails with
# EROFS in each of them, and mountinfo says ro for each.  Every file and
# directory there is writable by all: only the read-only flag refuses.
RO_CHECK=$(cat <<'EOF'
n=0
for d in /t /t/tmpfs /t/tmpfs/inner /t/bind; do
  for c in "touch $d/new" "mkdir $d/newdir" "rm $d/victim" \
    "mv $d/file $d/moved" "chmod 777 $d/file" "ln $d/file $d/hard" \
    "ln -s file $d/soft" "truncate -s 0 $d/file" "rmdir $d/dir" \
    "chown 1:1 $d/file" "touch -d 2000-01-01 $d/file" "mkfifo $d/fifo"
  do
    err=$($c 2>&1) && { echo "WROTE: $c"; continue; }
    case $err in
      *"Read-only file system"*) n=$((n + 1)) ;;
      *) echo "NOT EROFS: $c: $err" ;;
    esac
  done
  awk -v d="$d" '$5 == d { split($6, o, ","); print d, o[1] }' \
    /proc/self/mountinfo
done
echo "$n EROFS"
EOF
)
export RO_CHECK

# ro_tree OPTION...: RO_CHECK in a sandbox whose /t the OPTIONs make of
# /tmp/tree, as the jail's root and as nobody; the tree with its
# submounts made first.
ro_tree() {
  in_jail "set -- $*"'
mkdir -p tree/tmpfs tree/bind other
mount -t tmpfs tree-tmpfs tree/tmpfs && mkdir tree/tmpfs/inner \
  && mount -t tmpfs inner-tmpfs tree/tmpfs/inner \
  && mount --bind other tree/bind || exit 3
for d in tree tree/tmpfs tree/tmpfs/inner tree/bind; do
  echo data >"$d/file" && mkdir "$d/dir" && touch "$d/victim"
done
# Writable by all: the read-only flag is all that stands in the way.
chmod -R a+rwX tree
echo "as root"
sb $SB_PID "${SYS[@]}" "$@" --proc /proc -- sh -c "$RO_CHECK"
echo "as nobody"
nobody "$SB" $SB_USER $SB_PID "${SYS[@]}" "$@" --proc /proc \
  -- sh -c "$RO_CHECK"
'
  assert_success "$stderr"
  local expected='/t ro
/t/tmpfs ro
/t/tmpfs/inner ro
/t/bind ro
48 EROFS'
  assert_output "as root
$expected
as nobody
$expected"
}

@test "--ro-bind of a tree with tmpfs and bind submounts: EROFS everywhere, ro in mountinfo" {
  ro_tree --ro-bind /tmp/tree /t
}

@test "--bind then --remount-ro of that tree: the same" {
  # nsjail's bug, in bwrap 0.8.0: the submounts stay writable.
  if is_bwrap; then skip "bwrap's --remount-ro leaves submounts writable"; fi
  ro_tree --bind /tmp/tree /t --remount-ro /t
}

# --- 2. every way out of --ro-bind / / -----------------------------------

# Run in the sandbox: try to write, chmod, chown, mknod, link, rename,
# remove and retime every directory and file of the host's tree (the
# sandbox's root mount: its own /tmp, /dev and /proc are its to write),
# mount with mount(2) (util-linux's mount) and the new API
# (sandbox-attack mount-api), remount read-write, unshare, chroot,
# ptrace every process it sees and one it should not (OUTER, the jail's
# shell), and write through every /proc/PID/root, cwd and descriptor
# link.  A line "BREACH: ..." for each that worked and must not; what
# got written is for host_sums to find.
ESCAPE=$(cat <<'EOF'
breach() { echo "BREACH: $*"; }
try() { "$@" >/dev/null 2>&1 && breach "$*"; }
# traceable PID: whether ptrace can attach to PID (strace stays attached
# until timeout ends it).
traceable() {
  timeout 1 strace -qq -o /dev/null -e trace=none -p "$1" 2>/dev/null
  case $? in 0 | 124) return 0 ;; *) return 1 ;; esac
}
# Read-write again first: the writes below would then get through.
try mount -o remount,rw /
try mount -o remount,bind,rw /
/tmp/attack mount-api | grep ': ok$' | while read -r l; do breach "$l"; done
# The host's tree: the root mount, but for the sandbox's own mounts.
host_find() {
  find / -xdev \( -path /tmp -o -path /dev -o -path /proc \) -prune \
    -o "$@" -print
}
host_find -type d | while read -r d; do
  try touch "$d/.b"
  try mkdir "$d/.bd"
  try ln -s x "$d/.bl"
  try mkfifo "$d/.bp"
  try mknod "$d/.bc" c 1 3
  try mknod "$d/.bb" b 8 0
  try chmod 777 "$d"
  try chown 1234:1234 "$d"
  try touch -d 2020-02-02 "$d"
done
host_find ! -type d ! -type p | while read -r f; do
  try sh -c ": >>'$f'"
  try truncate -s 0 "$f"
  try chmod 777 "$f"
  try chown -h 1234:1234 "$f"
  try touch -h -d 2020-02-02 "$f"
  try ln "$f" "$f.hard"
  try mv "$f" "$f.moved"
  try rm -f "$f"
done
try mount -t tmpfs none /home
try mount --bind /tmp /home
try mount --bind /tmp /proc/1/root/home
try mount -o remount,rw /proc/1/root
try umount -l /
try umount -l /proc
try unshare -m true
try chroot / true
# A new user namespace is anyone's; in it the copied mounts stay locked
# read-only.
try unshare -Urm sh -c 'mount -o remount,rw / || mount -o remount,bind,rw /'
try unshare -Urm sh -c 'umount -l /home; touch /home/.b'
traceable "$OUTER" && breach "ptrace of a process outside"
for p in /proc/[0-9]*; do
  pid=${p#/proc/}
  [ "$pid" = $$ ] && continue
  # Whatever COMMAND can trace has nothing more than COMMAND has.
  if traceable "$pid"; then
    grep -q '^CapEff:[[:space:]]*0*$' "$p/status" \
      || breach "ptrace of $pid, which has capabilities"
  fi
  for l in "$p/root" "$p/cwd" "$p"/fd/*; do
    [ -d "$l/" ] || continue
    touch "$l/.b-$pid" 2>/dev/null
    try touch "$l/home/.b" "$l/outside/.b" "$l/fake/.b" \
      "$l/tmp/outside/.b" "$l/tmp/fake/home/.b"
  done
done
echo "attacks made"
EOF
)
export ESCAPE

# escape_as WHO [OPTION]...: ESCAPE in `--ro-bind /tmp/fake /` with /tmp,
# /dev, /proc, as the jail's root or nobody (in a user namespace whose
# root it is), with OPTIONs; the host's sums before and after compared.
escape_as() {
  local who=$1
  shift
  in_jail "who=$who
set -- $*"'
make_fake_host
host_sums >before
export OUTER=$$
set -- --ro-bind /tmp/fake / --tmpfs /tmp --dev /dev --proc /proc \
  --ro-bind "$ATTACK" /tmp/attack "$@" -- sh -c "$ESCAPE"
if [ "$who" = root ]; then
  sb $SB_PID "$@"
else
  nobody "$SB" $SB_USER $SB_PID "$@"
fi
host_sums >after
diff before after && echo "host untouched"
'
}

@test "--ro-bind / / --tmpfs /tmp --dev /dev --proc /proc --cap-drop ALL, as root: the host untouched" {
  escape_as root --cap-drop ALL
  assert_success "$stderr"
  assert_output "attacks made
host untouched"
}

@test "the same as nobody in a user namespace: the host untouched" {
  escape_as nobody --cap-drop ALL
  assert_success "$stderr"
  assert_output "attacks made
host untouched"
}

# bwrap gives no capability to a COMMAND in a user namespace unless
# --cap-add: a read-only bind stays read-only there without --cap-drop.
# (As root it keeps them all, as bwrap does: the root test drops them.)
@test "as nobody, without --cap-drop: COMMAND cannot make the root writable" {
  escape_as nobody
  assert_success "$stderr"
  assert_output "attacks made
host untouched"
}

# --- 4. capabilities and descriptors -------------------------------------

# In the sandbox, COMMAND's capability sets and no_new_privs, read by a
# copy of grep that has file capabilities (which must give nothing), and
# every descriptor above 2 it holds: it inherits none that the sandbox
# opened (the data of --file, --bind-data, --ro-bind-data, the program
# of --seccomp, --block-fd, --info-fd; --sync-fd and --lock-file's stay
# with the process that waits for COMMAND), and the caller passes none
# but those.  An
# allow-all cBPF program for --seccomp: one instruction, BPF_RET | BPF_K
# of SECCOMP_RET_ALLOW.
CAPS_FDS=$(cat <<'EOF'
for fd in /proc/$$/fd/*; do
  n=${fd##*/}
  [ "$n" -gt 2 ] && eval "exec $n>&-"
done
cp /usr/bin/grep capgrep && setcap cap_sys_admin,cap_dac_override+eip capgrep \
  || exit 3
printf '\006\000\000\000\000\000\377\177' >allow.bpf
run_sb() {
  "$@" --ro-bind / / --tmpfs /tmp --proc /proc \
    --ro-bind /tmp/capgrep /tmp/capgrep --cap-drop ALL \
    --file 5 /tmp/file --bind-data 6 /tmp/data --ro-bind-data 7 /tmp/ro-data \
    --seccomp 8 --block-fd 9 --info-fd 4 --sync-fd 3 \
    --lock-file /tmp/capgrep \
    -- sh -c '/tmp/capgrep -E "^(Cap...|NoNewPrivs):" /proc/self/status
      exec "$ATTACK" fds' \
    5<<<five 6<<<six 7<<<seven 8<allow.bpf 9<<<go 4>info 3</dev/null
}
echo "as root"
run_sb "$SB" $SB_PID
echo "as nobody"
run_sb nobody "$SB" $SB_USER $SB_PID
EOF
)
export CAPS_FDS

@test "--cap-drop ALL: no capability in any set, none regained by exec; no descriptor leaks" {
  in_jail "$CAPS_FDS"
  assert_success "$stderr"
  local none=0000000000000000
  local sets="CapInh:	$none
CapPrm:	$none
CapEff:	$none
CapBnd:	@
CapAmb:	$none
NoNewPrivs:	1"
  assert_output --regexp "^as root
${sets/@/$(bounding_set)}
as nobody
${sets/@/$none}\$"
}

# The same as the machine's root, outside the jail: nothing is written
# here, only read.
@test "--cap-drop ALL run by the machine's root: no capability in any set" {
  local none=0000000000000000
  run --separate-stderr unshare -m --propagation private \
    "$SB" "$SB_PID" --ro-bind / / --proc /proc --cap-drop ALL \
    -- grep -E '^(Cap...|NoNewPrivs):' /proc/self/status
  assert_success "$stderr"
  assert_output --regexp "^CapInh:	$none
CapPrm:	$none
CapEff:	$none
CapBnd:	$(bounding_set)
CapAmb:	$none
NoNewPrivs:	1\$"
}

# --- 5. the /dev of --dev ------------------------------------------------

# In the sandbox's /dev: null and zero work; tty is refused (ENXIO:
# COMMAND runs in a session of its own, without a terminal); pts is a
# devpts of its own, not the jail's (which has a pty open: it would show
# as a number there) and holds only ptmx; shm is a writable tmpfs; the
# jail's fake sda is not there.
DEV_CHECK=$(cat <<'EOF'
echo data >/dev/null && [ "$(head -c 5 /dev/zero | wc -c)" = 5 ] \
  && echo "null, zero: work"
err=$( (exec 3</dev/tty) 2>&1) && echo "tty: opened" \
  || case $err in
       *"No such device or address"*) echo "tty: ENXIO" ;;
       *) echo "tty: $err" ;;
     esac
echo "pts:" $(ls -A /dev/pts)
pts=$(stat -c %d /dev/pts)
[ "$pts" != "$JAIL_PTS" ] && [ "$(stat -f -c %T /dev/pts)" = devpts ] \
  && echo "pts: a devpts of its own"
touch /dev/shm/file && [ "$(stat -f -c %T /dev/shm)" = tmpfs ] \
  && echo "shm: a writable tmpfs"
[ -e /dev/sda ] && echo "sda: there" || echo "sda: absent"
EOF
)
export DEV_CHECK

@test "--dev: null works, tty refused without a terminal, pts private, shm a writable tmpfs, no host device" {
  in_jail '
exec 7<>/dev/ptmx
[ -n "$(ls /dev/pts | grep -v ptmx)" ] || exit 3
JAIL_PTS=$(stat -c %d /dev/pts)
export JAIL_PTS
[ -c /dev/sda ] || exit 3
for who in root nobody; do
  echo "as $who"
  if [ $who = root ]; then
    setsid -w "$SB" $SB_PID "${SYS[@]}" --dev /dev --proc /proc \
      -- sh -c "$DEV_CHECK" 7<&-
  else
    setsid -w setpriv --reuid=65534 --regid=65534 --clear-groups \
      "$SB" $SB_USER $SB_PID "${SYS[@]}" --dev /dev --proc /proc \
      -- sh -c "$DEV_CHECK" 7<&-
  fi
done
'
  assert_success "$stderr"
  local expected='null, zero: work
tty: ENXIO
pts: ptmx
pts: a devpts of its own
shm: a writable tmpfs
sda: absent'
  assert_output "as root
$expected
as nobody
$expected"
}

# --- 3. symbolic links and a race on the paths of the mount steps ------

# The racer cannot reach the new root while it is built: a tmpfs only
# the sandbox's descriptor leads to (and /proc/PID/fd, to whoever may
# already trace the sandbox: no one with less than its rights).  But a
# --bind of a directory that the attacker owns (/tmp/attack, outside)
# puts a piece of the new root in its hands: every DST below that bind
# (/a/d/s0.../a/d/s9, and /a/d itself) is walked through /a/d, which the
# attacker makes a symbolic link (to "/", "../../..", /proc/self/root,
# or /tmp/outside, a directory out of the new root), planted before or
# exchanged with a directory again and again while the sandbox mounts.
# A round is good if the sandbox refused with a message (fail closed:
# "refused"), or if COMMAND runs and sees every payload mount inside its
# root ("inside": mountinfo shows only mounts reachable from the root;
# one sent out of it is missing), and in both cases the jail's own mount
# table, /tmp shared so that a mount outside would show there, is
# unchanged.

# In the sandbox: how many payload binds, found by the root they bind
# (/payload of the jail's tmpfs), are mounted where COMMAND sees them.
# Not by their paths, which the racer may still be changing: mountinfo
# lists a mount only if its mount point is reachable from the root.
RACE_CHECK=$(cat <<'EOF'
echo "$(awk '$4 == "/payload"' /proc/self/mountinfo | wc -l) payload mounts"
EOF
)
# One round: the payload bound on ten DSTs below /a/d, and on /a/d
# itself first if RACE_LEAF is set; says "inside" (exit 0), "refused"
# (exit 1), or what went wrong (exit 4 and up).
RACE_ROUND=$(cat <<'EOF'
dsts=()
[ -n "${RACE_LEAF:-}" ] && dsts=(--bind /tmp/payload /a/d)
for i in 0 1 2 3 4 5 6 7 8 9; do
  dsts+=(--bind /tmp/payload "/a/d/s$i")
done
want="$((${#dsts[@]} / 3)) payload mounts"
before=$(cat /proc/self/mountinfo)
out=$("$SB" $SB_PID "${SYS[@]}" --proc /proc --bind /tmp/attack /a \
  "${dsts[@]}" -- sh -c "$RACE_CHECK" 2>&1)
status=$?
after=$(cat /proc/self/mountinfo)
if [ "$before" != "$after" ]; then
  echo "mounts appeared outside:"
  diff <(echo "$before") <(echo "$after")
  exit 4
fi
if [ $status = 0 ]; then
  [ "$out" = "$want" ] && echo inside && exit 0
  echo "OUTSIDE: the sandbox ran, but: $out"
  exit 5
fi
# A refusal names the step; COMMAND not found means the root was
# replaced.
case $out in
  "unshare-run: --bind "* | "bwrap: Can't "*) echo refused && exit 1 ;;
esac
echo "the sandbox failed: $out"
exit 6
EOF
)
export RACE_CHECK RACE_ROUND JAIL_LIB
TARGETS='/ ../../.. /proc/self/root /tmp/outside'
export TARGETS

# The jail's side of both tests: /tmp shared, the payload and outside.
RACE_SETUP='
mount --make-rshared /tmp || exit 3
mkdir payload outside attack && echo mark >payload/mark || exit 3
round() {
  bash -c "$JAIL_LIB
$RACE_ROUND"
}
'

@test "a symbolic link under DST, to / or out of the new root: the mounts stay inside, or the step fails closed" {
  in_jail "$RACE_SETUP"'
for target in $TARGETS; do
  ln -s "$target" attack/d
  echo "$target: $(round | head -n 1)"
  rm attack/d
done
'
  assert_success "$stderr"
  if is_bwrap; then
    # The attack is real: bwrap walks DST by path, and mounts silently
    # where the link leads, in the scratch root it then leaves.
    assert_line "/: OUTSIDE: the sandbox ran, but: 0 payload mounts"
    return
  fi
  local target
  for target in $TARGETS; do
    assert_line --regexp "^$target: (inside|refused)\$"
  done
}

# WHERE_CHECK: in the sandbox, where the binds of /tmp/p are mounted.
WHERE_CHECK=$(cat <<'EOF'
while read -r _ _ _ root point _; do
  [ "$root" = /p ] && echo "mounted at $point"
done </proc/self/mountinfo
EOF
)
export WHERE_CHECK

# where DST...: for each DST, "DST: " and where the sandbox mounted a
# bind of /tmp/p asked for on DST, or what it said refusing.  The new
# root is a tmpfs with the machine's programs, a proc and a /dev.
where() {
  in_jail '
mkdir p
for dst in '"$*"'; do
  out=$(sb $SB_PID --tmpfs / "${SYS[@]}" --proc /proc --dev /dev \
    --bind /tmp/p "$dst" -- sh -c "$WHERE_CHECK" 2>&1)
  echo "$dst: ${out:-nowhere}"
done
'
}

@test "DST with .. after a parent it makes: mounted where the path leads, as bwrap" {
  where /a/../b /c/d/../../e /f/../g/../h
  assert_success "$stderr"
  assert_output "/a/../b: mounted at /b
/c/d/../../e: mounted at /e
/f/../g/../h: mounted at /h"
}

@test "DST climbing out of the new root or through a /proc magic link: inside, or refused" {
  # Shown above: bwrap mounts out of its new root through a link, and
  # so through these.
  if is_bwrap; then skip "bwrap mounts outside its new root"; fi
  where /../../x /proc/1/root/z /proc/self/cwd/z /proc/self/root/z \
    /proc/1/cwd/../z /dev/stdout/z /dev/fd/1/z
  assert_success "$stderr"
  assert_line "/../../x: mounted at /x"
  local dst
  for dst in /proc/1/root/z /proc/self/cwd/z /proc/self/root/z \
    /proc/1/cwd/../z /dev/stdout/z /dev/fd/1/z; do
    assert_line --regexp "^$dst: unshare-run: --bind '/tmp/p' '$dst': "
  done
}

# The same link as DST itself: /a/d -> /.  The new root is "/" only when
# asked so; a DST written below it must not put the bind over the whole
# new root, hiding every mount made before (and where the steps after
# would make their mount points in the bound directory).
@test "a symbolic link to / planted as DST itself: the new root is not replaced" {
  in_jail '
mkdir p attack && ln -s / attack/d || exit 3
sb $SB_PID "${SYS[@]}" --proc /proc --bind /tmp/attack /a --bind /tmp/p /a/d \
  -- sh -c "$WHERE_CHECK; ls -d /usr" 2>&1 || echo refused
'
  assert_success "$stderr"
  # The step refused, saying so, or run with the bind elsewhere than on
  # "/" (COMMAND not found there: the root replaced).
  if [[ ${lines[-1]} == refused ]]; then
    local said="^(unshare-run: --bind '/tmp/p' '/a/d': |bwrap: )"
    assert_line --index 0 --regexp "$said"
  else
    refute_line "mounted at /"
    assert_line "/usr"
  fi
}

# --lock-file's DEST is opened by the sandbox's init, with its
# privileges, after the new root is entered: a link planted in a
# directory bound from outside, or a /proc magic link, must not lead it
# to a file out of the new root (whose lock would then say that a
# sandbox runs, and hold a descriptor of it).
@test "--lock-file: DEST through a link out of the new root or a /proc magic link: refused" {
  if is_bwrap; then skip "bwrap opens DEST as COMMAND would, magic links"; fi
  in_jail '
mkdir a && echo outside >target && ln -s /tmp/target a/abs \
  && ln -s ../../../../tmp/target a/up || exit 3
for dest in /a/abs /a/up /proc/1/root/tmp/target /proc/self/fd/0; do
  sb "${SYS[@]}" --proc /proc --bind /tmp/a /a --lock-file "$dest" \
    -- echo "$dest: ran" </tmp/target 2>&1 || echo "$dest: refused"
done
'
  assert_success "$stderr"
  refute_output --partial ran
  local said="unshare-run: --lock-file" missing magic denied
  missing="cannot open: No such file or directory"
  denied="cannot open: Permission denied"
  magic="cannot open: Too many levels of symbolic links"
  assert_line "$said '/a/abs': $missing"
  assert_line "$said '/a/up': $missing"
  # The init may not even look into pid 1's root (EACCES); its own
  # standard input, the file outside, it could reopen but for the rule.
  assert_line --regexp \
    "^$said '/proc/1/root/tmp/target': ($magic|$denied)\$"
  assert_line "$said '/proc/self/fd/0': $magic"
}

# --file and --chmod make or change DST with the sandbox's
# privileges: an absolute symbolic link that the attacker planted there,
# in a directory bound from outside, must not turn that onto another
# file of the new root (a rw bind of the host's /etc, say).  bwrap walks
# an absolute link from its scratch root, where it leads nowhere: it
# refuses.  (Both follow a relative link: neither test covers that.)
@test "--file, --chmod on an absolute symbolic link planted under DST: its target untouched" {
  in_jail '
mkdir h && echo precious >h/victim && ln -s /h/victim h/abs || exit 3
base=(--tmpfs / "${SYS[@]}" --bind /tmp/h /h)
sb "${base[@]}" --file 5 /h/abs -- true 5<<<overwritten 2>/dev/null
sb "${base[@]}" --chmod 0777 /h/abs -- true 2>/dev/null
echo "victim: $(cat h/victim), mode $(stat -c %a h/victim)"
'
  assert_success "$stderr"
  assert_output "victim: precious, mode 644"
}

@test "a racer exchanging a directory under DST with a symbolic link: no mount lands outside the new root" {
  # Shown above: with no race needed.
  if is_bwrap; then skip "bwrap mounts outside its new root"; fi
  in_jail "$RACE_SETUP"'
for target in $TARGETS; do
  "$ATTACK" race 50 /tmp/attack "$target" bash -c "$JAIL_LIB
$RACE_ROUND" | grep -v -x -e inside -e refused | sed "s|^|$target: |"
done
'
  assert_success "$stderr"
  local target counts='[0-9]+ ran, [0-9]+ refused; [1-9][0-9]* exchanges'
  for target in $TARGETS; do
    assert_line --regexp "^$target: 50 rounds: $counts\$"
  done
  assert_equal "${#lines[@]}" 4
}

@test "the same race, DST the raced directory itself too: the new root is never replaced" {
  # Shown above: with no race needed.
  if is_bwrap; then skip "bwrap mounts outside its new root"; fi
  in_jail "$RACE_SETUP"'
export RACE_LEAF=1
for target in $TARGETS; do
  "$ATTACK" race 50 /tmp/attack "$target" bash -c "$JAIL_LIB
$RACE_ROUND" | grep -v -x -e inside -e refused | sed "s|^|$target: |"
done
'
  assert_success "$stderr"
  local target counts='[0-9]+ ran, [0-9]+ refused; [1-9][0-9]* exchanges'
  for target in $TARGETS; do
    assert_line --regexp "^$target: 50 rounds: $counts\$"
  done
  assert_equal "${#lines[@]}" 4
}

# Every mount COMMAND can reach (the last one on each mount point) is
# nosuid, so that no set-user-ID program or file capability inside gives
# anything; nodev but for --dev's device files and its devpts.  Run by
# the machine's root, which only reads here.
@test "every mount of the sandbox is nosuid, and nodev but for --dev's devices" {
  local -a mq=(--mqueue /dev/mqueue)
  # bwrap 0.8.0 mounts its mqueue with neither.
  if is_bwrap; then mq=(); fi
  run --separate-stderr unshare -m --propagation private \
    "$SB" "$SB_PID" --ro-bind / / --tmpfs /tmp --dev /dev --proc /proc \
    "${mq[@]}" --bind "$BATS_TEST_TMPDIR" /tmp/x \
    --ro-bind-data 5 /tmp/data --bind-data 6 /tmp/data2 --file 7 /tmp/file \
    -- awk '{ opts[$5] = $6 } END { for (m in opts) print m, opts[m] }' \
    /proc/self/mountinfo 5<<<five 6<<<six 7<<<seven
  assert_success "$stderr"
  local line point opts
  for line in "${lines[@]}"; do
    read -r point opts <<<"$line"
    [[ ,$opts, == *,nosuid,* ]] || fail "$point: $opts, not nosuid"
    case $point in
      /dev/null | /dev/zero | /dev/full | /dev/random | /dev/urandom | \
        /dev/tty | /dev/pts) ;;
      *) [[ ,$opts, == *,nodev,* ]] || fail "$point: $opts, not nodev" ;;
    esac
  done
  assert_line --regexp '^/tmp/x '
  assert_line --regexp '^/dev/pts '
}

# A COMMAND with the caller's terminal as its own can push input into
# it (TIOCSTI), which the caller's shell then reads as typed: bwrap's
# CVE-2017-5226.  --new-session takes the terminal away.  The probe
# pushes a space, on script(1)'s terminal, run by the machine's root with
# every capability dropped (CAP_SYS_ADMIN may push into any terminal).
@test "--new-session: COMMAND cannot type into the caller's terminal (TIOCSTI)" {
  require_terminal
  local sb="unshare -m --propagation private $SB --cap-drop ALL"
  on_terminal "$sb --new-session --ro-bind / / -- $ATTACK tiocsti"
  assert_success
  assert_output --partial "TIOCSTI: EPERM"
  # The control: without it the push works, where the kernel still
  # allows TIOCSTI at all.
  [[ $(cat /proc/sys/dev/tty/legacy_tiocsti 2>/dev/null) != 0 ]] || return 0
  on_terminal "$sb --ro-bind / / -- $ATTACK tiocsti"
  assert_output --partial "TIOCSTI: ok"
}
