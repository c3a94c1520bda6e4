#!/usr/bin/env bats
# sandbox-bwrap.bats -- unshare-run's sandbox options against bubblewrap.
#
# Every test runs the same command line through bwrap (the peer,
# $SANDBOX_PEER) and through the tool under test ($SANDBOX_TOOL, default
# unshare-run), each in a private mount namespace whose $W is a fresh
# tmpfs holding the test's fixture (the function `fixture`), and compares
# what the two sandboxes show: exit status, and what a probe run inside
# prints (ids, namespaces new or the host's, capability sets, the
# environment, the mount table without ids, the tree of the new root and
# of the paths the test names, which of them are writable).  A test
# passes with SANDBOX_TOOL=bwrap: run it so after changing a test, to
# check the test rather than the tool.  Needs root (CI runs as root); the
# machine's own mounts are never touched: the sandboxes make their own
# mount namespaces inside the private one.
#
# A difference found and reported, not yet fixed, is named by the test
# (known): the test then skips, saying it; SANDBOX_STRICT=1 fails on it.
#
# Differences that are inherent, and filtered here:
# - usage errors exit 2 in newcalls' tools, 1 in bwrap (same_failure);
# - a COMMAND that cannot run: 126 or 127 in unshare-run (as env(1),
#   nohup(1)), 1 in bwrap;
# - messages are each tool's own: only their presence is compared;
# - `--dev`: /dev/shm is a tmpfs in unshare-run (the issue asks it), of
#   mode 1777, a directory of the /dev tmpfs in bwrap 0.8, of mode 0755:
#   its mount line is dropped from both tables, its mode from both trees;
# - the new root's own tmpfs: its mount options other than the flags
#   (bwrap chmods its root to 0755, unshare-run mounts it mode=755: the
#   same mode in the tree);
# - of the mounts stacked on one mount point, only the top one, the one
#   seen, is in the table: bwrap 0.8 makes a tree read-only by remounting
#   each mount it finds at a mount point, the top one, and leaves the
#   flags of those under it as they were (the host's own stacks, such as
#   a /dev/pts mounted twice, show it); mount_setattr(AT_RECURSIVE) sets
#   them all;
# - `--remount-ro` is recursive in unshare-run, and its `--mqueue`
#   nosuid, nodev, noexec (both documented in unshare-run(1)): those
#   tests say so (inherent) and compare the rest;
# - `--bind-fd` of a file: bwrap binds it, unshare-run binds a directory
#   only (documented): that test says so;
# - `--lock-file`: bwrap locks DEST once COMMAND runs, and starts a
#   relative one at COMMAND's directory; unshare-run locks it before
#   COMMAND runs, a relative one from the sandbox's root (documented):
#   those tests say so;
# - `--args`: a word of its data that is no option, COMMAND, ends
#   bwrap's reading of the data, the rest ignored; unshare-run refuses it
#   (documented): that test says so;
# - the source column of the mount table (a name such as "tmpfs" or
#   "newroot" that each tool chooses) and every id are left out; so is
#   the root of a --bind-data mount, a deleted file whose name each tool
#   chooses.
#
# The shell text given to the sandboxes is expanded inside them (SC2016);
# each test's fixture is called in sbx's shell, not here (SC2317).
# shellcheck disable=SC2016,SC2317

load test_helper

PEER=${SANDBOX_PEER:-bwrap}
TOOL=${SANDBOX_TOOL:-unshare-run}

setup() {
  nc_setup
  skip_under_qemu "the peer, bwrap, is the host's"
  require_root
  require_cmd bwrap unshare python3
  [[ /bin -ef /usr/bin && /lib -ef /usr/lib ]] \
    || skip "the minimal root below needs a merged /usr"
  needs --ro-bind --symlink --proc
  W=$BATS_TEST_TMPDIR/w
  mkdir -p "$W"
  export W
  HOSTNS=$(for n in cgroup ipc mnt net pid user uts; do
    readlink "/proc/self/ns/$n"; done | tr '\n' ' ')
  # A root of the host's /usr and /etc, read-only, and a /proc for the
  # probe, as bubblewrap's tests build it: the tree the options of a test
  # build is all the rest.
  BASE=(--ro-bind /usr /usr --ro-bind /etc /etc --symlink usr/bin /bin
    --symlink usr/lib /lib --symlink usr/lib64 /lib64
    --symlink usr/sbin /sbin --proc /proc)
}

# needs OPTION...: skip unless the tool under test lists every OPTION in
# its --help (an option not written yet: the test waits for it).
needs() {
  local opt
  [[ -n ${TOOL_HELP:-} ]] || TOOL_HELP=$("$TOOL" --help 2>&1)
  for opt in "$@"; do
    grep -qE -- "(^|[ ,])$opt([ =,]|\$)" <<<"$TOOL_HELP" \
      || skip "needs $TOOL $opt"
  done
}

# The probe: prints what a sandbox looks like from inside.  Arguments:
# the host's namespaces (readlink of /proc/self/ns/*), then items:
# t:PATH lists the tree under PATH (types, modes, owners, sizes of
# files, link targets), noroot leaves out the tree of the new root (a
# bind of the host's /, too large), w:PATH says whether a file can be
# created in the directory PATH (and why not), c:TEXT runs the shell
# TEXT, proc keeps the mounts below /proc in the mount table (left out
# elsewhere: every sandbox here has a /proc, compared in the --proc
# tests).  Of the scratch directories of bats, only this test's $W is
# in the table: a bind of the host's / would show the tmpfs another
# test mounts or unmounts in its own meanwhile.
PROBE='
hostns=$1
shift
echo "== ids $(id -u) $(id -g) $(id -G)"
for n in cgroup ipc mnt net pid user uts; do
  l=$(readlink /proc/self/ns/$n)
  case " $hostns " in
    *" $l "*) echo "ns $n host" ;;
    *) echo "ns $n new" ;;
  esac
done
case " $hostns " in
  *" $(readlink /proc/self/ns/pid) "*) echo "== pid (the host'"'"'s)" ;;
  *) echo "== pid $$" ;;
esac
echo "== cwd $(pwd)"
echo "== status"
grep -E "^(Cap|NoNewPrivs|Seccomp:)" /proc/self/status
echo "== umask $(umask)"
echo "== env"
env | grep -v "^_=" | sort
echo "== mounts"
procre="^/proc[ /]"
case " $* " in *" proc "*) procre="^$" ;; esac
awk "
  function sorted(s,   a, n, i, j, t, out) {
    n = split(s, a, \",\")
    for (i = 2; i <= n; i++)
      for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
        t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
      }
    out = a[1]
    for (i = 2; i <= n; i++) out = out \",\" a[i]
    return out
  }
  {
    prop = \"private\"
    for (i = 7; \$i != \"-\"; i++) {
      t = \$i; sub(/:.*/, \"\", t)
      prop = (prop == \"private\" ? t : prop \",\" t)
    }
    root = \$4
    super = sorted(\$(i + 3))
    if (\$5 == \"/\") root = super = \"-\"
    if (root ~ /deleted\$/) root = \"(a deleted file)\"
    print \$5, root, \$(i + 1), sorted(\$6), super, prop
  }" /proc/self/mountinfo |
  grep -v -e "^[^ ]*/dev/shm .* tmpfs " -e "$procre" |
  awk -v w="${W:-}" "index(\$1, \"/bats-run-\") == 0 ||
    (w != \"\" && index(\$1, w) == 1)" |
  awk "{ top[\$1] = \$0 } END { for (m in top) print top[m] }" | sort
shm() {
  awk "\$1 == \"d\" && \$5 ~ /\/dev\/shm\$/ { \$2 = \"-\" } { print }"
}
case " $* " in
  *" noroot "*) ;;
  *)
    echo "== root"
    find / -xdev -printf "%y %m %u %g %p %l\n" 2>&1 | shm | sort ;;
esac
for item; do
  case $item in
    t:*)
      echo "== tree ${item#t:}"
      find "${item#t:}" \( -type f -printf "%y %m %u %g %s %p\n" \) \
        -o -printf "%y %m %u %g %p %l\n" 2>&1 | shm | sort ;;
    w:*)
      if err=$( (: >"${item#w:}/.probe") 2>&1); then
        echo "== write ${item#w:} ok"
        rm -f "${item#w:}/.probe"
      else
        echo "== write ${item#w:} fails: ${err##*: }"
      fi ;;
    c:*)
      echo "== run ${item#c:}"
      sh -c "${item#c:}" 2>&1
      echo "status $?" ;;
  esac
done
'

# sbx NAME SANDBOX ARG...: SANDBOX ARG... in a new private mount
# namespace, $W a fresh tmpfs in it with the fixture made there; standard
# input from $SBX_IN (default /dev/null), output in NAME.out, NAME.err,
# the status in NAME.rc.  Descriptors 3 to 9 of the caller are passed on.
sbx() {
  local name=$1 fx rc=0
  shift
  # The fixture and the functions it calls (named fixture*).
  declare -F fixture >/dev/null || fixture() { :; }
  # shellcheck disable=SC2046 # the names, one a word
  fx=$(declare -f $(compgen -A function fixture))
  unshare -m --propagation private bash -c "$fx"'
    mount -t tmpfs -o size=32m,mode=755 nc-sbx "$W" || exit 99
    (cd "$W" && set -e && fixture) || exit 98
    "$@"' sbx "$@" <"${SBX_IN:-/dev/null}" >"$name.out" 2>"$name.err" \
    || rc=$?
  echo "$rc" >"$name.rc"
}

# both ARG...: the same command line through the peer and the tool
# (each with ARG...), results in peer.* and tool.*.
both() {
  sbx peer "$PEER" "$@"
  sbx tool "$TOOL" "$@"
}

# probe ARG...: both, the command being the probe with ARG... as items.
probe() {
  local -a opts=()
  while [[ $# -gt 0 && $1 != -- ]]; do opts+=("$1"); shift; done
  shift
  both "${opts[@]}" sh -c "$PROBE" probe "$HOSTNS" "$@"
}

# same: the tool did what the peer did: same status, same output, and
# standard error empty in both or in neither.
same() {
  local p t
  p=$(<peer.rc) t=$(<tool.rc)
  [[ $p == 0 ]] || [[ -n ${ALLOW_FAIL:-} ]] \
    || fail "the peer failed ($p): $(<peer.err)"
  [[ $p == "$t" ]] \
    || differ "status: $PEER $p, $TOOL $t; $TOOL says: $(<tool.err)"
  if ! cmp -s peer.out tool.out; then
    differ "$(printf 'output differs (- %s, + %s):\n%s\n%s' "$PEER" "$TOOL" \
      "$(diff -u peer.out tool.out | tail -n +3)" "$(<tool.err)")"
  fi
  if [[ -s peer.err && ! -s tool.err ]]; then
    differ "$PEER said '$(<peer.err)', $TOOL nothing"
  fi
  if [[ ! -s peer.err && -s tool.err ]]; then
    differ "$TOOL said '$(<tool.err)', $PEER nothing"
  fi
}

# known WHO WHAT: the test shows a difference already reported (to WHO,
# the branch that is to change), WHAT: while SANDBOX_STRICT is unset, a
# difference found skips the test, naming it and the first lines that
# differ, rather than failing it.  Remove the call once it is fixed.
known() {
  KNOWN="$1: $2"
}

# differ MESSAGE: the tool differs from the peer: fail, or skip when the
# test calls it known.
differ() {
  if [[ -n ${KNOWN:-} && -z ${SANDBOX_STRICT:-} ]]; then
    skip "known difference ($KNOWN): $(grep -E '^(status|[-+][^-+]|.* said)' \
      <<<"$1" | head -n 4 | tr '\n' '|')"
  fi
  fail "$1"
}

# inherent WHAT SED...: the tool differs from the peer by design, as
# unshare-run(1) documents (WHAT): each SED (an expression with an
# address, the tool's lines) must change tool.out, into what the peer
# shows; the rest is then compared as usual.  Not with the peer itself.
inherent() {
  local what=$1 expr
  shift
  [[ ${TOOL##*/} != bwrap ]] || return 0
  for expr; do
    [[ -n $(sed -n "${expr}p" tool.out) ]] \
      || fail "the inherent difference ($what) is not there: $expr"
    sed -i "$expr" tool.out
  done
}

# same_failure [usage]: both failed, each with a message naming its own
# program; a usage error (USAGE given) is status 1 in bwrap and 2 in the
# newcalls tools.
same_failure() {
  local p t want
  p=$(<peer.rc) t=$(<tool.rc)
  [[ $p != 0 ]] || fail "the peer succeeded: $(<peer.out)"
  want=$p
  if [[ ${1-} == usage && ${TOOL##*/} != bwrap ]]; then want=2; fi
  [[ $t == "$want" ]] \
    || differ "status: $PEER $p, $TOOL $t (expected $want): $(<tool.err)"
  grep -q "^${TOOL##*/}: " tool.err \
    || fail "no message of ${TOOL##*/}: $(<tool.err)"
  [[ ! -s tool.out ]] || differ "output on failure: $(<tool.out)"
}

# --- binds ---------------------------------------------------------------

fixture_tree() {
  mkdir -p src/sub/deep
  echo one >src/a
  echo two >src/sub/b
  chmod 640 src/a
  chmod 711 src/sub
  ln -s a src/link
  ln -s /nowhere src/dangling
  mkfifo src/fifo
  echo file >file
}

@test "--bind, --ro-bind, --dev-bind: same trees, mount table, writability" {
  needs --bind --dev-bind
  fixture() { fixture_tree; }
  probe "${BASE[@]}" --bind "$W/src" /b --ro-bind "$W/src" /r \
    --dev-bind "$W/src" /d --dir /f --ro-bind "$W/file" /f/file \
    --dir /g/h --bind "$W/file" /g/h/file \
    -- t:/b t:/r t:/d t:/f w:/b w:/r w:/d w:/b/sub
  same
}

@test "--bind-try, --ro-bind-try, --dev-bind-try: a missing SRC skipped" {
  needs --bind-try --ro-bind-try --dev-bind-try
  fixture() { fixture_tree; }
  probe "${BASE[@]}" --bind-try "$W/none" /b --ro-bind-try "$W/none" /r \
    --dev-bind-try /nonexistent /d --ro-bind-try "$W/src" /s -- t:/s
  same
}

@test "a missing SRC without -try: both fail, before COMMAND" {
  needs --bind --dev-bind
  local opt
  for opt in --bind --ro-bind --dev-bind; do
    both "${BASE[@]}" "$opt" "$W/none" /x echo ran
    same_failure
  done
}

@test "--ro-bind of a tree with tmpfs and bind submounts: all read-only" {
  needs --bind
  fixture() {
    mkdir -p tree/t tree/b tree/b2 other
    mount -t tmpfs -o size=1m,mode=755 sub tree/t
    mount --bind other tree/b
    mkdir tree/t/inner
    mount -t tmpfs -o size=1m,mode=700 subsub tree/t/inner
  }
  probe "${BASE[@]}" --ro-bind "$W/tree" /tree --bind "$W/tree" /rw \
    -- w:/tree w:/tree/t w:/tree/b w:/tree/t/inner w:/rw w:/rw/t \
    w:/rw/t/inner t:/tree
  same
}

@test "--remount-ro: a bind made read-only, and its submounts" {
  needs --bind --remount-ro --tmpfs
  fixture() {
    mkdir -p tree/t
    mount -t tmpfs -o size=1m sub tree/t
  }
  probe "${BASE[@]}" --bind "$W/tree" /tree --remount-ro /tree \
    --tmpfs /tmp --remount-ro /tmp -- w:/tree w:/tree/t w:/tmp
  # Inherent: the tool's --remount-ro is recursive (one mount_setattr
  # with AT_RECURSIVE), bwrap's is not (its --help: "does not
  # recursively remount"), which leaves /tree/t writable.
  inherent "--remount-ro is recursive" \
    '\|^/tree/t / tmpfs |s/,ro /,rw /' \
    '\|^== write /tree/t fails: Read-only file system$|s/fails.*/ok/'
  same
}

@test "a bind onto a DST in a read-only bind: both fail" {
  needs --bind
  fixture() { fixture_tree; }
  both "${BASE[@]}" --ro-bind "$W/src" /r --bind "$W/file" /r/new echo ran
  ALLOW_FAIL=1 same_failure
}

@test "a DST through a symbolic link of the new root: bound at its target" {
  needs --dir --bind
  probe "${BASE[@]}" --dir /tmp/dir --symlink dir /tmp/link \
    --bind /etc /tmp/link -- t:/tmp
  same
}

# --- tmpfs, proc, dev, mqueue ---------------------------------------------

@test "--tmpfs with --size and --perms: only the next one; the mode and size" {
  needs --tmpfs --size --perms
  probe "${BASE[@]}" --tmpfs /a --perms 0700 --tmpfs /b \
    --size 1048576 --tmpfs /c --perms 01777 --size 2097152 --tmpfs /d/e \
    --size 4194304 --perms 0750 --tmpfs /f \
    -- t:/a t:/b t:/c t:/d w:/a 'c:df --output=size --block-size=1K /c /d/e /f'
  same
}

@test "--perms or --size given twice, or bad sizes: usage errors" {
  needs --tmpfs --size --perms
  local -a bad=("--perms 0640 --perms 0640 --tmpfs /a"
    "--size 1048576 --size 1048576 --tmpfs /a" "--size 0 --tmpfs /a"
    "--size 123bogus --tmpfs /a" "--size -12345678 --tmpfs /a"
    "--size 18446744073709551616 --tmpfs /a" "--perms 0999 --tmpfs /a")
  local line
  for line in "${bad[@]}"; do
    local -a args
    read -r -a args <<<"$line"
    both "${BASE[@]}" "${args[@]}" echo ran
    same_failure usage
  done
  # An option without its argument.
  both "${BASE[@]}" --tmpfs
  same_failure usage
  # A --perms that nothing takes: bwrap 0.8 ignores it, bwrap 0.9 and
  # later refuse it ("must be followed by an option that creates a
  # file"), as the tool must.
  if [[ ${TOOL##*/} != bwrap ]]; then
    sbx tool "$TOOL" "${BASE[@]}" --perms 0700 echo ran
    [[ $(<tool.rc) == 2 ]] \
      || fail "a dangling --perms: status $(<tool.rc), not 2: $(<tool.err)"
  fi
}

@test "--proc: a new proc, with and without --unshare-pid" {
  needs --unshare-pid
  probe "${BASE[@]}" --proc /proc \
    -- proc 'c:cat /proc/self/comm; test -d /proc/1'
  same
  probe "${BASE[@]}" --unshare-pid --proc /proc \
    -- proc 'c:test -r /proc/self/status && echo readable'
  same
}

@test "--dev: the same devices, links, pts and modes" {
  needs --dev
  probe "${BASE[@]}" --dev /dev -- t:/dev 'c:echo x >/dev/null' \
    'c:head -c 4 /dev/zero | od -An -tx1' 'c:: >/dev/tty' w:/dev/shm
  same
}

@test "--dev on another path than /dev" {
  needs --dev --dir
  probe "${BASE[@]}" --dir /sandbox --dev /sandbox/dev -- t:/sandbox/dev
  same
}

@test "--mqueue with --unshare-ipc" {
  needs --mqueue --unshare-ipc --dir
  probe "${BASE[@]}" --unshare-ipc --dir /dev --mqueue /dev/mqueue -- t:/dev
  # Inherent: the tool's mqueue is nosuid, nodev, noexec as every mount
  # of its sandbox; bwrap's has none of these flags.
  inherent "--mqueue is nosuid, nodev, noexec" \
    '\|^/dev/mqueue / mqueue nodev,noexec,nosuid,|s/nodev,noexec,nosuid,//'
  same
}

# --- files, directories, links, modes ------------------------------------

@test "--dir: modes of new directories and of their parents, --perms" {
  needs --dir --perms --bind
  fixture() { mkdir -p old; chmod 710 old; }
  local -a args=() m
  for m in 1777 0755 0644 0750 0710 0720 0640 0700 0600 0705 0604 0000; do
    args+=(--perms "$m" --dir "/p$m/dir")
  done
  probe "${BASE[@]}" --bind "$W/old" /old --dir /old --dir /q/dir \
    "${args[@]}" --perms 1741 --dir /set -- t:/old
  same
}

@test "--symlink: absolute and relative targets, parents created" {
  needs --dir
  probe "${BASE[@]}" --dir /l --symlink /nowhere /l/abs \
    --symlink ../usr /l/rel \
    --symlink usr/share /share -- t:/l 'c:ls /l/rel/ | head -3'
  same
}

@test "missing parents of a bind, symlink, --dev or --proc DST: 0755" {
  # bwrap's manual: new parents are 0755 unless --perms takes bits away.
  # bwrap itself (0.8 to 0.11) makes them 0700 for these options, whose
  # zeroed permissions it takes for a --perms 0000; the tool follows the
  # manual, so only the tool is checked.
  [[ ${TOOL##*/} != bwrap ]] || skip "bwrap makes them 0700"
  needs --bind --dev --mqueue
  fixture() { mkdir src; }
  sbx tool "$TOOL" "${BASE[@]}" --bind "$W/src" /a/b --symlink x /c/d \
    --dev /e/dev --mqueue /f/mq sh -c \
    'stat -c "%a %n" /a /c /e /f'
  [[ $(<tool.rc) == 0 ]] || fail "$TOOL failed: $(<tool.err)"
  [[ $(<tool.out) == $'755 /a\n755 /c\n755 /e\n755 /f' ]] \
    || fail "modes: $(<tool.out)"
}

@test "--symlink onto an existing link with the same target: accepted" {
  # bwrap 0.8 refuses it (EEXIST), bwrap 0.9 and later accept it, as the
  # tool must; another target is refused by all.
  probe "${BASE[@]}" --symlink usr/bin /bin -- t:/bin
  if [[ ${TOOL##*/} != bwrap ]]; then
    [[ $(<tool.rc) == 0 ]] || fail "refused: $(<tool.err)"
    grep -qx 'l 777 root root /bin usr/bin' tool.out \
      || fail "/bin changed: $(grep ' /bin' tool.out)"
  fi
  both "${BASE[@]}" --symlink usr/sbin /bin true
  same_failure
}

@test "--file, --bind-data, --ro-bind-data: contents, modes, --perms" {
  needs --file --bind-data --ro-bind-data --perms --tmpfs
  printf 'data\n' >data
  local item
  SBX_IN=data probe "${BASE[@]}" --file 0 /f/file -- t:/f 'c:cat /f/file'
  same
  SBX_IN=data probe "${BASE[@]}" --perms 0640 --file 0 /f/p -- t:/f
  same
  for item in --bind-data --ro-bind-data; do
    SBX_IN=data probe "${BASE[@]}" --tmpfs /f "$item" 0 /f/d \
      -- t:/f 'c:cat /f/d' w:/f
    same
    SBX_IN=data probe "${BASE[@]}" --perms 0640 "$item" 0 /d/e \
      -- t:/d 'c:echo new >/d/e'
    same
  done
}

@test "--bind-fd, --ro-bind-fd: the directory open on FD, as --bind, --ro-bind" {
  needs --bind-fd --ro-bind-fd
  mkdir host
  (cd host && fixture_tree)
  # Standard input is the directory: each sandbox opens it anew.
  SBX_IN=host/src probe "${BASE[@]}" --bind-fd 0 /b -- t:/b w:/b w:/b/sub
  same
  SBX_IN=host/src probe "${BASE[@]}" --dir /d --ro-bind-fd 0 /d/r \
    -- t:/d w:/d w:/d/r w:/d/r/sub
  same
}

@test "--bind-fd of a file: bwrap binds it, unshare-run refuses" {
  needs --bind-fd
  echo data >file
  SBX_IN=./file both "${BASE[@]}" --bind-fd 0 /f cat /f
  [[ $(<peer.rc) == 0 && $(<peer.out) == data ]] \
    || fail "$PEER: status $(<peer.rc), output $(<peer.out) $(<peer.err)"
  [[ ${TOOL##*/} != bwrap ]] || return 0
  # unshare-run(1), "Differences from bwrap": a directory only.
  [[ $(<tool.rc) == 1 && ! -s tool.out ]] \
    || fail "$TOOL: status $(<tool.rc), output $(<tool.out)"
  grep -q -- "--bind-fd 0: Not a directory" tool.err || fail "$(<tool.err)"
}

@test "--chmod: an existing path; a missing one fails" {
  needs --chmod --dir --tmpfs
  probe "${BASE[@]}" --dir /d --chmod 1755 /d --tmpfs /t --chmod 0700 /t \
    -- t:/d t:/t
  same
  both "${BASE[@]}" --chmod 0700 /missing echo ran
  same_failure
}

# --- namespaces ------------------------------------------------------------

@test "--unshare-* one at a time, --unshare-all, --share-net" {
  needs --unshare-ipc --unshare-pid --unshare-net --unshare-uts \
    --unshare-cgroup --unshare-user --unshare-all --share-net
  local opt
  for opt in --unshare-ipc --unshare-pid --unshare-net --unshare-uts \
    --unshare-cgroup --unshare-all; do
    probe "${BASE[@]}" "$opt" -- 'c:hostname | wc -l'
    same
  done
  probe "${BASE[@]}" --unshare-all --share-net -- 'c:cat /proc/net/dev | wc -l'
  same
  probe "${BASE[@]}" --unshare-user -- 'c:hostname | wc -l'
  same
}

@test "--hostname with --unshare-uts" {
  needs --unshare-uts --hostname
  probe "${BASE[@]}" --unshare-uts --hostname inside -- 'c:hostname'
  same
}

# --- process ---------------------------------------------------------------

@test "--chdir, and the working directory when none is given" {
  needs --chdir --dir
  probe "${BASE[@]}" --dir /w/x --chdir /w/x -- 'c:pwd; echo $PWD'
  same
  probe "${BASE[@]}" --dir "$BATS_TEST_TMPDIR" -- 'c:pwd; echo $PWD'
  same
  both "${BASE[@]}" --chdir /missing echo ran
  same_failure
}

@test "--setenv, --unsetenv, --clearenv in the order given" {
  needs --setenv --unsetenv --clearenv
  FOO=wrong BAR=baz probe "${BASE[@]}" --setenv FOO bar --unsetenv BAR \
    --setenv NEW 'a b=c' -- 'c:echo "$FOO/${BAR-unset}/$NEW"'
  same
  FOO=wrong probe "${BASE[@]}" --clearenv --setenv ONLY one -- 'c:env | sort'
  same
  probe "${BASE[@]}" --setenv A 1 --clearenv -- 'c:env | sort'
  same
}

# same_but_bounding [empty]: same, the bounding sets apart: the tool's
# must hold no capability the peer's lacks (with EMPTY, none at all).
# The issue asks --cap-drop to empty the bounding set too; bwrap, run by
# root, leaves it whole unless it made a user namespace (it never needs
# it, COMMAND's other sets being empty).
same_but_bounding() {
  local p t
  p=$(sed -n 's/^CapBnd:[[:space:]]*//p' peer.out)
  t=$(sed -n 's/^CapBnd:[[:space:]]*//p' tool.out)
  sed -i '/^CapBnd:/d' peer.out tool.out
  same
  (((0x$t & ~0x$p) == 0)) \
    || differ "status: bounding set: $PEER $p, $TOOL $t"
  [[ ${1-} != empty || ${TOOL##*/} == bwrap ]] || ((0x$t == 0)) \
    || differ "status: --cap-drop ALL left a bounding set: $t"
}

@test "--cap-drop ALL, --cap-drop CAP, --cap-add after a drop" {
  needs --cap-drop --cap-add --unshare-user
  probe "${BASE[@]}" --cap-drop ALL --
  same_but_bounding empty
  probe "${BASE[@]}" --cap-drop CAP_KILL --cap-drop cap_fowner --
  same_but_bounding
  probe "${BASE[@]}" --cap-drop ALL --cap-add CAP_NET_BIND_SERVICE --
  same_but_bounding
  # With --unshare-pid: the new proc of a user namespace needs a PID
  # namespace of its own (the /proc tests check without one).
  probe "${BASE[@]}" --unshare-user --unshare-pid --cap-add ALL --
  same
  both "${BASE[@]}" --cap-drop CAP_NONSENSE echo ran
  same_failure usage
}

@test "--uid, --gid in a user namespace" {
  needs --unshare-user --unshare-pid --uid --gid
  # --unshare-pid as above.
  probe "${BASE[@]}" --unshare-user --unshare-pid --uid 1234 --gid 5678 --
  same
  probe "${BASE[@]}" --unshare-user --unshare-pid --uid 0 --gid 0 --
  same
}

# The seccomp program, compiled cBPF, x86_64 only: mkdir and mkdirat fail
# with EXDEV, everything else is allowed.
make_seccomp() {
  python3 - "$1" <<'PY'
import struct, sys
LD, JEQ, RET = 0x20, 0x15, 0x06
ALLOW, ERRNO = 0x7fff0000, 0x00050000
prog = [(LD, 0, 0, 4), (JEQ, 1, 0, 0xc000003e), (RET, 0, 0, ALLOW),
        (LD, 0, 0, 0),
        (JEQ, 0, 1, 83), (RET, 0, 0, ERRNO | 18),
        (JEQ, 0, 1, 258), (RET, 0, 0, ERRNO | 18),
        (RET, 0, 0, ALLOW)]
with open(sys.argv[1], "wb") as f:
    for code, jt, jf, k in prog:
        f.write(struct.pack("=HBBI", code, jt, jf, k))
PY
}

@test "--seccomp FD: the program's errno, and the filter in place" {
  needs --seccomp --tmpfs
  [[ $(uname -m) == x86_64 ]] || skip "the test's program is for x86_64"
  make_seccomp filter.bpf
  SBX_IN=filter.bpf probe "${BASE[@]}" --tmpfs /t --seccomp 0 \
    -- 'c:mkdir /t/x' 'c:touch /t/y && echo touched'
  same
}

@test "--info-fd: the same keys; --block-fd: COMMAND waits for data" {
  needs --info-fd --block-fd --unshare-all
  both "${BASE[@]}" --unshare-all --info-fd 1 true
  local p t
  p=$(grep -o '"[a-z-]*":' peer.out | sort | tr '\n' ' ')
  t=$(grep -o '"[a-z-]*":' tool.out | sort | tr '\n' ' ')
  [[ $p == "$t" ]] || fail "JSON keys: $PEER: $p; $TOOL: $t"
  same_status() {
    [[ $(<peer.rc) == "$(<tool.rc)" ]] \
      || fail "status: $PEER $(<peer.rc), $TOOL $(<tool.rc): $(<tool.err)"
  }
  same_status
  echo go >go
  SBX_IN=go both "${BASE[@]}" --block-fd 0 echo ran
  same
  # Nothing to read: the sandbox ends on end of file without running
  # COMMAND, or runs it; both must do the same.
  both "${BASE[@]}" --block-fd 0 echo ran
  same_status
  cmp -s peer.out tool.out || fail "$PEER: $(<peer.out); $TOOL: $(<tool.out)"
}

@test "--sync-fd: held open while the sandbox runs, closed when it ends" {
  needs --sync-fd
  # The reader of the pipe sees its end once every holder is gone: the
  # sandbox must hold it no longer than COMMAND runs.
  local tool
  for tool in "$PEER" "$TOOL"; do
    run bash -c '"$1" "${@:2}" --sync-fd 3 sh -c "echo in" 3>&1 | cat' \
      sbx "$tool" "${BASE[@]}"
    assert_success
    assert_output in
  done
}

# within_10s COMMAND...: wait until COMMAND succeeds, 10 s at most;
# fail (status 1) if it never does.
within_10s() {
  local i
  for ((i = 0; i < 200; i++)); do
    "$@" && return 0
    sleep 0.05
  done
  return 1
}

# sleeping TAG: whether a process "sleep TAG" runs; not_sleeping TAG: not.
sleeping() {
  pgrep -x -f "sleep $1" >/dev/null
}
not_sleeping() {
  ! sleeping "$1"
}

@test "--die-with-parent: COMMAND dies with the sandbox's parent" {
  needs --die-with-parent
  local tool tag pid
  for tool in "$PEER" "$TOOL"; do
    tag=$((RANDOM + 100000))
    bash -c 'exec "$@"' sbx "$tool" "${BASE[@]}" --die-with-parent \
      sleep "$tag" &
    pid=$!
    within_10s sleeping "$tag" || fail "$tool: no sleep $tag"
    kill -KILL "$pid"
    within_10s not_sleeping "$tag" \
      || fail "$tool: sleep $tag outlived its killed parent"
  done
}

# --- --lock-file -------------------------------------------------------------

# python3 -c "$LOCK_SEEN" FILE: whether another process holds a lock on
# FILE that a write lock would meet, asked with fcntl F_GETLK, which takes
# none itself (a lock taken here could make the sandbox's own fail) and
# never reports the asking process's own.
LOCK_SEEN=$(cat <<'EOF'
import fcntl, struct, sys
form = "hhqqi4x"
with open(sys.argv[1]) as f:
    got = fcntl.fcntl(f.fileno(), fcntl.F_GETLK,
                      struct.pack(form, fcntl.F_WRLCK, 0, 0, 0, 0))
sys.exit(0 if struct.unpack(form, got)[0] != fcntl.F_UNLCK else 1)
EOF
)
export LOCK_SEEN

# lock_seen FILE: the same, from here.
lock_seen() {
  python3 -c "$LOCK_SEEN" "$1"
}

# lock_free FILE: whether no other process holds a lock on FILE.
lock_free() {
  ! lock_seen "$1"
}

@test "--lock-file: held while the sandbox runs, not after it ends" {
  needs --lock-file
  local tool pid mode
  mkdir lk
  for tool in "$PEER" "$TOOL"; do
    for mode in --unshare-ipc --unshare-pid; do
      rm -f lk/*
      : >lk/lock
      "$tool" "${BASE[@]}" "$mode" --bind "$PWD/lk" /lk --lock-file /lk/lock \
        sh -c ': >/lk/started; while [ ! -e /lk/stop ]; do sleep 0.05; done' &
      pid=$!
      within_10s test -e lk/started \
        || fail "$tool $mode: COMMAND did not start"
      lock_seen lk/lock || fail "$tool $mode: no lock while COMMAND runs"
      : >lk/stop
      wait "$pid" || fail "$tool $mode: failed"
      # unshare-run lets go before it ends; bwrap's init may end after it.
      if [[ ${tool##*/} != bwrap ]]; then
        ! lock_seen lk/lock || fail "$tool $mode: lock held once it ended"
      else
        within_10s lock_free lk/lock \
          || fail "$tool $mode: lock held once it ended"
      fi
    done
  done
}

@test "--lock-file with --die-with-parent: the lock goes with the parent" {
  needs --lock-file --die-with-parent
  local tool pid mode tag
  mkdir lk
  for tool in "$PEER" "$TOOL"; do
    for mode in --unshare-ipc --unshare-pid; do
      rm -f lk/*
      : >lk/lock
      tag=$((RANDOM + 100000))
      # The shell stays as the sandbox's parent (no exec of the last
      # command): killing it is the parent's death.
      bash -c '"$@"; :' sbx "$tool" "${BASE[@]}" "$mode" --die-with-parent \
        --bind "$PWD/lk" /lk --lock-file /lk/lock \
        sh -c ': >/lk/started; exec sleep "$0"' "$tag" &
      pid=$!
      within_10s test -e lk/started \
        || fail "$tool $mode: COMMAND did not start"
      lock_seen lk/lock || fail "$tool $mode: no lock while COMMAND runs"
      kill -KILL "$pid"
      wait "$pid" || true
      within_10s lock_free lk/lock \
        || fail "$tool $mode: lock held once the parent died"
      # COMMAND goes too, with the process that held the lock.
      within_10s not_sleeping "$tag" \
        || fail "$tool $mode: COMMAND outlived its killed parent"
    done
  done
}

@test "--lock-file: a missing DEST, both fail and name it" {
  needs --lock-file
  local tool
  mkdir lk
  for tool in "$PEER" "$TOOL"; do
    run "$tool" "${BASE[@]}" --bind "$PWD/lk" /lk --lock-file /lk/none true
    assert_failure
    assert_output --partial /lk/none
  done
}

@test "--lock-file: COMMAND holds neither the lock nor its descriptor" {
  needs --lock-file
  local tool mode
  mkdir lk
  : >lk/lock
  for tool in "$PEER" "$TOOL"; do
    for mode in --unshare-ipc --unshare-pid; do
      # COMMAND sees the lock as another process's, and no descriptor of
      # the file among its own.
      run "$tool" "${BASE[@]}" "$mode" --bind "$PWD/lk" /lk \
        --lock-file /lk/lock sh -c 'for f in /proc/$$/fd/*; do
          readlink "$f"; done; exec python3 -c "$LOCK_SEEN" /lk/lock'
      assert_success
      refute_output --partial /lk/lock
    done
  done
}

@test "--lock-file with --as-pid-1: both refuse" {
  needs --lock-file --as-pid-1
  local tool
  mkdir lk
  : >lk/lock
  for tool in "$PEER" "$TOOL"; do
    run "$tool" "${BASE[@]}" --unshare-pid --as-pid-1 --bind "$PWD/lk" /lk \
      --lock-file /lk/lock true
    assert_failure
    assert_output --partial --lock-file
  done
}

@test "--lock-file: another process's write lock, both fail; unshare-run before COMMAND" {
  needs --lock-file
  local tool pid
  mkdir lk
  : >lk/lock
  python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(60)' lk/lock lk/locked &
  pid=$!
  within_10s test -e lk/locked || fail "the write lock was not taken"
  for tool in "$PEER" "$TOOL"; do
    run "$tool" "${BASE[@]}" --bind "$PWD/lk" /lk --lock-file /lk/lock \
      touch "/lk/ran-${tool##*/}"
    assert_failure
    assert_output --partial /lk/lock
  done
  kill "$pid"
  # bwrap locks DEST once COMMAND runs (documented in unshare-run(1)).
  [[ ${TOOL##*/} == bwrap || ! -e lk/ran-${TOOL##*/} ]] \
    || fail "$TOOL ran COMMAND unlocked"
}

@test "--lock-file: a relative DEST starts at the sandbox's root (unshare-run)" {
  needs --lock-file
  [[ ${TOOL##*/} != bwrap ]] \
    || skip "bwrap starts it at COMMAND's directory (documented)"
  mkdir -p lk/lk
  : >lk/lock
  run "$TOOL" "${BASE[@]}" --bind "$PWD/lk" /lk --chdir /lk/lk \
    --lock-file lk/lock sh -c 'exec python3 -c "$LOCK_SEEN" /lk/lock'
  assert_success
  # Without a new root, its root is the host's.
  run "$TOOL" --lock-file "${PWD#/}/lk/lock" -- python3 -c "$LOCK_SEEN" \
    lk/lock
  assert_success
}

# --- --args ------------------------------------------------------------------

# args_file FILE WORD...: FILE holds the WORDs, each ended by a NUL, for
# --args 0 (SBX_IN=FILE: each sandbox reads it from its start).
args_file() {
  local file=$1
  shift
  printf '%s\0' "$@" >"$file"
}

@test "--args: its words read in its place, between the options around it" {
  needs --args --tmpfs --dir --setenv --unsetenv
  # A step of the words before one after them hides it, and the
  # environment is changed in the order typed.
  args_file args --dir /t/a/x --tmpfs /t/a --perms 0700 --dir /t/p \
    --unsetenv V --setenv X args
  SBX_IN=args probe "${BASE[@]}" --setenv V line --tmpfs /t --args 0 \
    --dir /t/a/y --setenv X after -- t:/t 'c:echo "${V-unset} $X"'
  same
}

@test "--args: empty data; the last word without its NUL; an empty word" {
  needs --args --setenv --dir
  : >empty
  SBX_IN=empty probe "${BASE[@]}" --args 0 --dir /d -- t:/d
  same
  printf -- '--setenv\0E\0\0--dir\0/d/last' >args
  SBX_IN=args probe "${BASE[@]}" --args 0 -- t:/d 'c:echo "[${E-unset}]"'
  same
}

@test "--args: FD closed once read, COMMAND without it" {
  needs --args --setenv
  local tool
  args_file args --setenv V v
  for tool in "$PEER" "$TOOL"; do
    run "$tool" "${BASE[@]}" --args 5 sh -c \
      'echo $V; [ -e /proc/self/fd/5 ] && echo open || echo closed' 5<args
    assert_success
    assert_output $'v\nclosed'
  done
}

@test "--args: a descriptor closed, or a directory: both fail" {
  needs --args
  both "${BASE[@]}" --args 42 echo ran
  same_failure
  SBX_IN=. both "${BASE[@]}" --args 0 echo ran
  same_failure
}

@test "--args in the words of --args: both refuse (usage error)" {
  needs --args
  args_file args --args 0
  SBX_IN=args both "${BASE[@]}" --args 0 echo ran
  same_failure usage
}

@test "--args: an option's arguments missing from the words: both refuse" {
  needs --args --setenv
  args_file args --setenv V
  SBX_IN=args both "${BASE[@]}" --args 0 v echo ran
  same_failure usage
}

@test "--args: COMMAND in the words: bwrap ignores them from it on, unshare-run refuses" {
  needs --args --setenv
  args_file args --setenv V v echo ignored --setenv X x
  SBX_IN=args both "${BASE[@]}" --args 0 sh -c 'echo "$V ${X-unset}"'
  [[ $(<peer.rc) == 0 && $(<peer.out) == "v unset" ]] \
    || fail "$PEER: status $(<peer.rc), output $(<peer.out) $(<peer.err)"
  [[ ${TOOL##*/} != bwrap ]] || return 0
  # unshare-run(1), "Differences from bwrap".
  [[ $(<tool.rc) == 2 && ! -s tool.out ]] \
    || fail "$TOOL: status $(<tool.rc), output $(<tool.out)"
  grep -q "'echo' is not an option" tool.err || fail "$(<tool.err)"
}

# --- exit statuses and failures ----------------------------------------------

@test "COMMAND's exit status and its death by a signal" {
  needs --unshare-pid
  both "${BASE[@]}" sh -c 'exit 42'
  ALLOW_FAIL=1 same
  both "${BASE[@]}" --unshare-pid sh -c 'exit 7'
  ALLOW_FAIL=1 same
  both "${BASE[@]}" sh -c 'kill -TERM $$'
  ALLOW_FAIL=1 same
}

@test "a COMMAND not found: both fail (statuses differ by design)" {
  both "${BASE[@]}" /no/such/command
  local p t
  p=$(<peer.rc) t=$(<tool.rc)
  [[ $p != 0 ]] || fail "the peer ran it"
  [[ ${TOOL##*/} == bwrap ]] && [[ $t == "$p" ]] || [[ $t == 127 ]] \
    || fail "status: $PEER $p, $TOOL $t"
}

@test "an unknown option: a usage error in both" {
  both --no-such-option true
  same_failure usage
}

# The whole mount table of the host, through --ro-bind / /, once by each
# tool: a file beside it mounting a tmpfs between the two would differ.
# bats test_tags=serial
@test "the bwrap one-liner: same mount table, tree, process" {
  needs --dev --tmpfs --unshare-all --die-with-parent
  probe --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --unshare-all \
    --die-with-parent -- noroot proc t:/tmp w:/ w:/tmp w:/dev w:/proc
  same
}

@test "as a user, --unshare-user: the same sandbox" {
  require_nobody
  needs --unshare-user --unshare-pid --dev --tmpfs
  local tool pid
  tool=$(command -v "$TOOL")
  local -a nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  # With a PID namespace first, then without (bwrap binds the caller's
  # /proc then).
  for pid in --unshare-pid ""; do
    sbx peer "${nobody[@]}" "$PEER" "${BASE[@]}" --unshare-user $pid \
      --proc /proc --dev /dev --tmpfs /tmp \
      sh -c "$PROBE" probe "$HOSTNS" t:/tmp w:/tmp w:/ w:/dev
    sbx tool "${nobody[@]}" "$tool" "${BASE[@]}" --unshare-user $pid \
      --proc /proc --dev /dev --tmpfs /tmp \
      sh -c "$PROBE" probe "$HOSTNS" t:/tmp w:/tmp w:/ w:/dev
    same
  done
}
