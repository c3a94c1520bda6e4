#!/usr/bin/env bats
# sandbox-attack.bats -- unshare-run's sandbox options under attack: a
# read-only bind that must stay read-only in every submount, a script
# that tries every way out of --ro-bind / /, a racer on the paths the
# mount steps resolve, the capabilities and descriptors COMMAND gets, and
# the /dev of --dev.
#
# Safety.  These tests try to write, mount and ptrace everywhere; if the
# sandbox were broken, they would.  So whatever runs a sandbox runs in
# the jail of tests/helpers/sandbox-attack.c: a mount namespace of its
# own in which every mount of the machine is read-only, nosuid and nodev
# (a /dev of its own holds only null, zero, full, random, urandom, tty,
# ptmx, pts), then a user namespace whose ids 0-65535 are 1000000 and up
# outside.  There the kernel locks the read-only flags (a new mount
# namespace made in a user namespace cannot clear what it copied), no
# capability reaches a file of the machine (their owners do not exist
# in the jail), mknod of a device and ptrace of a process outside are
# refused, whatever the sandbox does or fails to do.  "The host" the
# attacks aim at is a fake one, built in the jail's own tmpfs (on /tmp,
# covering the machine's in the jail only), with the machine's /usr and
# /etc bound read-only so that its programs run.  "As root" is the jail's
# root: every capability of the jail's user namespace, none over the
# machine.
#
# The tool under test is $NC_SANDBOX (default unshare-run); NC_SANDBOX=bwrap
# runs the same attacks against bubblewrap, the reference: every test
# passes there too, but for the few checks that say why they differ.

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
  skip_under_qemu "the jail needs a user namespace, which qemu's thread" \
    "cannot get"
  SB=${NC_SANDBOX:-unshare-run}
  command -v "$SB" >/dev/null || skip "$SB is not installed"
  SB=$(command -v "$SB")
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

@test "--ro-bind of a tree with tmpfs and bind submounts: EROFS everywhere, ro in mountinfo" {
  in_jail '
mkdir -p tree/tmpfs tree/bind other
mount -t tmpfs tree-tmpfs tree/tmpfs && mkdir tree/tmpfs/inner \
  && mount -t tmpfs inner-tmpfs tree/tmpfs/inner \
  && mount --bind other tree/bind || exit 3
for d in tree tree/tmpfs tree/tmpfs/inner tree/bind; do
  echo data >"$d/file" && mkdir "$d/dir" && touch "$d/victim"
done
# Writable by all: the read-only flag is all that stands in the way.
chmod -R a+rwX tree
for who in root nobody; do
  echo "as $who"
  if [ $who = root ]; then
    sb $SB_PID "${SYS[@]}" --ro-bind /tmp/tree /t --proc /proc \
      -- sh -c "$RO_CHECK"
  else
    nobody "$SB" $SB_USER $SB_PID "${SYS[@]}" --ro-bind /tmp/tree /t \
      --proc /proc -- sh -c "$RO_CHECK"
  fi
done
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
    try touch "$l/home/.b" "$l/outside/.b" "$l/fake/.b"
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
