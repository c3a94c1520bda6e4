#!/usr/bin/env bats
# xcp-dest.bats -- what xcp does about what is at its destination, where
# an earlier xcp lost data or granted more than cp (issue 28, items 1, 3,
# 4 and 7), each compared with GNU cp where cp has the behaviour:
# --preserve=links replaces a file of other hard links by a new one (the
# rotation of hard-linked snapshots), and makes names of one file given
# as operands one file; a replaced file passes no file capability, no
# security.ima or security.evm, and (to a user) no set-user-ID bit to
# the new contents; -f replaces a file the user cannot open; the
# temporary names a SIGKILL leaves are removed by the next run.

load test_helper
load xcp_helper

setup() {
  nc_setup
  HOLDER=
}

teardown() {
  [[ -z $HOLDER ]] || kill "$HOLDER" 2>/dev/null || true
}

# The rotation of rsnapshot and its kin: snap.1 is a hard-linked copy of
# snap.0, then TOOL copies the new state into snap.0.  Prints snap.1/doc.
rotate_with() {
  rm -rf "src" snap.0 snap.1
  mkdir src
  echo v1 >src/doc
  echo same >src/kept
  "$@" src/. snap.0 || return 1
  cp -al snap.0 snap.1
  echo v2 >src/doc
  "$@" src/. snap.0 || return 1
  cat snap.1/doc snap.0/doc
}

@test "xcp -a into the newest of hard-linked snapshots leaves the older ones as they were, as cp -a" {
  run rotate_with cp -a
  assert_success
  assert_output $'v1\nv2'
  local j
  for j in 1 2; do
    run rotate_with xcp -a -j "$j"
    assert_success
    assert_output $'v1\nv2'
    # The unchanged file's names are separate files now, as with cp -a.
    [[ $(stat -c %h snap.0/doc) == 1 ]]
    [[ $(stat -c %i snap.0/doc) != $(stat -c %i snap.1/doc) ]]
  done
}

# Two sources copied with OPTIONS into d/, whose a and b are one file.
two_onto_one_inode() {
  rm -rf x y d
  mkdir x y d
  echo AAA >x/a
  echo BBB >y/b
  echo old >d/a
  ln d/a d/b
  "$@" x/a y/b d/ || return 1
  cat d/a d/b
}

@test "xcp -a of two files onto two names of one file makes two files, as cp -a" {
  run two_onto_one_inode cp -a
  assert_success
  assert_output $'AAA\nBBB'
  run two_onto_one_inode xcp -a
  assert_success
  assert_output $'AAA\nBBB'
}

@test "--preserve=links replaces a file of other hard links by a new one, as cp" {
  echo new >src
  chmod 0644 src
  local t
  for t in cp xcp; do
    mkdir "$t"
    echo old >"$t/f"
    chmod 0600 "$t/f"
    ln "$t/f" "$t/other"
    run "$t" --preserve=links src "$t/f"
    assert_success
    assert_equal "$(cat "$t/f")" new
    assert_equal "$(cat "$t/other")" old
  done
  # A new file: the source's mode, not the old file's.
  assert_equal "$(stat -c %a xcp/f)" "$(stat -c %a cp/f)"
  # Without --preserve=links, a file of other links is written in place,
  # as cp writes it: every name sees the new data.
  echo old >e
  ln e e2
  run xcp src e
  assert_success
  assert_equal "$(cat e2)" new
}

@test "xcp --preserve=links of names of one file without -r makes one file, as cp" {
  echo data >a
  ln a b
  ln a c
  mkdir want got
  cp --preserve=links a b c want/
  [[ $(stat -c %h want/a) == 3 ]]
  local j
  for j in 1 2; do
    rm -rf got
    mkdir got
    run xcp --preserve=links -j "$j" a b c got/
    assert_success
    [[ $(stat -c %h got/a) == 3 ]]
    [[ $(stat -c %i got/a) == $(stat -c %i got/b) ]]
    [[ $(stat -c %i got/a) == $(stat -c %i got/c) ]]
  done
  # Onto existing files too: they become links to the first copy.
  rm -rf got
  mkdir got
  echo x >got/b
  run xcp --preserve=links a b c got/
  assert_success
  [[ $(stat -c %i got/a) == $(stat -c %i got/b) ]]
}

# Run the shell SCRIPT as root in a private mount namespace, in a tmpfs
# of its own (capabilities and security.* attributes are never set on
# the machine's files); XCP is the tool.
in_private_tmpfs() {
  require_root
  require_cmd unshare
  XCP="$NC_BINDIR/xcp" unshare -m --propagation private bash -c '
    set -e
    mkdir -p fs
    mount -t tmpfs nc-test fs
    cd fs
    '"$1"
}

@test "a replaced file loses its file capability, as with cp; -a gives the source's" {
  require_cmd setcap getcap
  # shellcheck disable=SC2016 # expanded by the inner shell
  run in_private_tmpfs '
    cp /bin/true ping
    setcap cap_net_raw+ep ping
    cp /bin/true cp-ping
    setcap cap_net_raw+ep cp-ping
    echo new >new
    cp new cp-ping
    "$XCP" new ping
    echo "cp: $(getcap cp-ping)"
    echo "xcp: $(getcap ping)"
    cp /bin/true src
    setcap cap_net_raw+ep src
    cp /bin/true dst
    "$XCP" -a src dst
    cp -a src cp-dst
    echo "cp -a: $(getcap cp-dst)"
    echo "xcp -a: $(getcap dst)"'
  assert_success
  assert_line "cp: "
  assert_line "xcp: "
  assert_line "cp -a: cp-dst cap_net_raw=ep"
  assert_line "xcp -a: dst cap_net_raw=ep"
}

# What cp's write in place keeps, less what describes the old contents.
@test "a replaced file keeps its extended attributes as cp keeps them, not security.capability, .ima or .evm" {
  require_cmd python3
  # shellcheck disable=SC2016 # expanded by the inner shell
  run in_private_tmpfs '
    echo new >new
    for f in f cp-f; do
      echo old >$f
      python3 -c "
import os, sys
for n, v in ((\"security.selinux\", b\"label\"), (\"security.ima\", b\"hash\"),
             (\"security.evm\", b\"sig\"), (\"trusted.t\", b\"t\"),
             (\"user.u\", b\"u\")):
    os.setxattr(sys.argv[1], n, v)
" $f
    done
    "$XCP" new f
    cp new cp-f
    cat f
    for f in f cp-f; do
      python3 -c "
import os, sys
print(sorted(n for n in os.listxattr(sys.argv[1]) if not n.startswith(\"system.\")))
" $f
    done'
  assert_success
  assert_equal "${lines[0]}" new
  # cp keeps all five; the hash and the signature of the old contents go.
  assert_equal "${lines[2]}" "['security.evm', 'security.ima', 'security.selinux', 'trusted.t', 'user.u']"
  assert_equal "${lines[1]}" "['security.selinux', 'trusted.t', 'user.u']"
}

@test "a user's replaced file loses set-user-ID as with cp; root's keeps it as with cp" {
  require_nobody
  mkdir own
  chown 65534:65534 own
  cd own
  as_nobody sh -c 'echo new >new && cp /bin/true prog &&
    cp /bin/true cp-prog && chmod 4755 prog cp-prog && cp new cp-prog'
  run as_nobody "$NC_BINDIR/xcp" new prog
  assert_success
  assert_equal "$(stat -c %a cp-prog)" 755
  assert_equal "$(stat -c %a prog)" 755
  assert_equal "$(cat prog)" new
  # Root writes set-ID files in place keeping the bits (CAP_FSETID).
  cp /bin/true rprog
  cp /bin/true cp-rprog
  chmod 4755 rprog cp-rprog
  cp new cp-rprog
  [[ $(stat -c %a cp-rprog) == 4755 ]]
  run xcp new rprog
  assert_success
  assert_equal "$(stat -c %a rprog)" "$(stat -c %a cp-rprog)"
}

# through_link_case TOOL OPTIONS: in TOOL/, d/f a symbolic link to
# snap/f, which has a second name snap/f2; TOOL OPTIONS s/f d/f; print
# what d/f is and what the two names read.
through_link_case() {
  mkdir -p "$1" && cd "$1" || return 1
  mkdir s d snap
  echo v2 >s/f
  echo v1 >snap/f
  ln snap/f snap/f2
  ln -s ../snap/f d/f
  # The options split on purpose, none for "".
  # shellcheck disable=SC2086
  "$1" $2 s/f d/f
  echo "$? $(stat -c %F d/f) $(cat snap/f) $(cat snap/f2)"
  cd .. && rm -rf "$1"
}

# cp removes the destination before copying where links are preserved and
# it has other names: the name it was given, a link to the file where it
# is one.  A new file in its place must not go over the file named.
@test "a copy made anew replaces a symbolic link at the destination, not the file it names, as cp" {
  local opts
  for opts in -a --preserve=links -d -P "" -f -r; do
    assert_equal "$(PATH=$NC_BINDIR:$PATH through_link_case xcp "$opts")" \
      "$(through_link_case cp "$opts")"
  done
  assert_equal "$(PATH=$NC_BINDIR:$PATH through_link_case xcp -a)" \
    "0 regular file v1 v1"
}

@test "xcp -f through a symbolic link to the user's read-only file replaces the link, as cp -f" {
  require_nobody
  local tool
  for tool in cp xcp; do
    mkdir "$tool"
    chown 65534:65534 "$tool"
    (cd "$tool" && as_nobody sh -c 'echo new >src && echo keep-me >ro &&
      chmod 444 ro && ln -s ro link')
  done
  (cd cp && as_nobody cp -f src link)
  (cd xcp && as_nobody "$NC_BINDIR/xcp" -f src link)
  for tool in cp xcp; do
    assert_equal "$(cat "$tool/ro") $(stat -c %F "$tool/link")" \
      "keep-me regular file"
    assert_equal "$(cat "$tool/link")" new
  done
}

@test "xcp -f onto the user's own mode-000 file replaces it, as cp -f" {
  require_nobody
  mkdir own
  chown 65534:65534 own
  cd own
  as_nobody sh -c 'echo e >e && echo old >f && chmod 000 f &&
    echo old >g && chmod 000 g && echo old >h && chmod 444 h &&
    echo old >i && chmod 444 i'
  run as_nobody cp -f e g
  assert_success
  run as_nobody "$NC_BINDIR/xcp" -f e f
  assert_success
  assert_equal "$(cat f)" e
  assert_equal "$(stat -c %a f)" "$(stat -c %a g)"
  # A file the user may not write: -f gives a new file, as cp -f.
  run as_nobody cp -f e i
  assert_success
  run as_nobody "$NC_BINDIR/xcp" -f e h
  assert_success
  assert_equal "$(stat -c %a h)" "$(stat -c %a i)"
  # Another user's file in the user's directory, as cp -f.
  echo old >k
  chmod 644 k
  run as_nobody "$NC_BINDIR/xcp" e k
  assert_failure
  run as_nobody "$NC_BINDIR/xcp" -f e k
  assert_success
  assert_equal "$(cat k)" e
  assert_equal "$(stat -c %u k)" 65534
}

# The temporary names in DIR, one a line.
tmp_names() {
  find "$1" -maxdepth 1 -name '.xcp-*.tmp' -printf '%f\n'
}

@test "temporary names left by SIGKILL are removed by the next xcp into the directory" {
  require_cmd python3
  mkdir src
  local i
  for ((i = 0; i < 2000; i++)); do
    echo "$i" >"src/f$i"
  done
  xcp -r src/. dst
  # Killed at random moments until one is caught between the link of a
  # copy to its temporary name and the rename over the old file; at most
  # 60 s.
  local end=$((SECONDS + 60)) found=
  while ((SECONDS < end)); do
    "$NC_BINDIR/xcp" -r -j 2 src/. dst &
    local pid=$!
    sleep "0.0$((RANDOM % 9 + 1))"
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    found=$(tmp_names dst)
    [[ -z $found ]] || break
  done
  [[ -n $found ]] || skip "no round was killed in the window in 60 s"
  # One that is not ours, one of a process still running, one locked by
  # another PID namespace's xcp (here: a locked file whose pid is free),
  # one of another user, and one that changed in the last 5 s (another
  # namespace's between its two calls) stay; the others once 5 s old are
  # removed.
  echo mine >dst/.xcp-notapid.tmp
  echo theirs >dst/.xcp-4194001-3.tmp
  chown 65534 dst/.xcp-4194001-3.tmp
  echo live >"dst/.xcp-$$-1.tmp"
  local free=4194000
  while [[ -e /proc/$free ]]; do free=$((free - 1)); done
  echo locked >"dst/.xcp-$free-1.tmp"
  flock_ofd "dst/.xcp-$free-1.tmp" &
  HOLDER=$!
  local ino
  ino=$(stat -c %i "dst/.xcp-$free-1.tmp")
  for ((i = 0; i < 100; i++)); do
    grep -q "OFDLCK .*:$ino " /proc/locks && break
    sleep 0.05
  done
  grep -q "OFDLCK .*:$ino " /proc/locks || fail "the lock was not taken"
  sleep 5.5
  ln -s "$free" "dst/.xcp-$free-2.tmp"
  run xcp -r src/. dst
  assert_success
  kill "$HOLDER"
  wait "$HOLDER" || true
  HOLDER=
  run tmp_names dst
  assert_output --partial ".xcp-$$-1.tmp"
  assert_output --partial ".xcp-$free-1.tmp"
  assert_output --partial ".xcp-$free-2.tmp"
  for i in $found; do
    refute_output --partial "$i"
  done
  assert_file_exists dst/.xcp-notapid.tmp
  assert_file_exists dst/.xcp-4194001-3.tmp
  diff -r src dst -x '.xcp-*'
}

# Hold an OFD write lock on FILE, as a running xcp holds on its
# temporary files, until killed.
flock_ofd() {
  exec python3 -c '
import fcntl, signal, struct, sys
f = open(sys.argv[1], "r+")
fcntl.fcntl(f, fcntl.F_OFD_SETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0))
signal.pause()' "$1"
}
