#!/usr/bin/env bats
# xcp-tree.bats -- xcp -r's walk where it could reach its own output, and
# where the source moves under it: a bind mount of the destination inside
# the source, or the destination moved into the source during the copy,
# is refused as cp refuses it (the same message and status), before the
# copy copies itself, and the directories made get their attributes as
# cp -a gives them; a source directory moved during a walk deeper than
# the descriptors allow is the only error, and its ancestors keep their
# modes and times.  Each with one walker and with workers (-j 2).
#
# The mounts and the runaway copies a regression would make happen in a
# mount namespace of the test's own, on a small tmpfs (see in_own_tmpfs):
# never on the machine's mounts, and a copy of itself fills that tmpfs
# in a moment instead of the disk.

load test_helper
load xcp_helper

setup() {
  nc_setup
  local builddir="${NC_BUILDDIR:-$NC_BINDIR/..}"
  TREE_HELPER="$builddir/tests/helpers/rmtree-race"
  XCP=$NC_BINDIR/xcp
  export TREE_HELPER XCP
}

# A copy left stopped (SIGSTOP) by a test that failed before its SIGCONT
# is killed.
teardown() {
  if [[ -n ${BG_PID:-} ]]; then
    kill -KILL "$BG_PID" 2>/dev/null || true
  fi
}

# in_own_tmpfs SCRIPT: SCRIPT run by bash in a mount namespace of its
# own (private propagation), in a tmpfs of 64 MiB and 20000 inodes
# mounted on ./ns.  Exit status 99: the stage could not be set.
in_own_tmpfs() {
  require_root
  require_cmd unshare timeout
  unshare -m --propagation private true 2>/dev/null \
    || skip "cannot make a mount namespace"
  mkdir ns
  unshare -m --propagation private bash -c '
    mount -t tmpfs -o size=64m,nr_inodes=20000 nc-tree ns || exit 99
    cd ns || exit 99
    '"$1"
}

@test "xcp -r: a bind mount of the destination inside the source is refused as cp refuses it" {
  # shellcheck disable=SC2016 # for the inner bash.
  run --separate-stderr in_own_tmpfs '
    mkdir -p src/a dst && echo data >src/a/f && mkdir src/m \
      && mount --bind dst src/m || exit 99
    for cmd in "cp -r" "$XCP -r -j 1" "$XCP -r -j 2"; do
      timeout 60 $cmd src dst/ 2>&1
      echo "status $?"
      # Refused before the copy of the mount point is made.
      [[ $cmd == cp* || ! -e dst/src/m ]] || echo "dst/src/m made"
      rm -rf dst/src
    done'
  assert_success
  assert_output "cp: cannot copy a directory, 'src', into itself, 'dst/src'
status 1
xcp: cannot copy a directory, 'src', into itself, 'dst/src'
status 1
xcp: cannot copy a directory, 'src', into itself, 'dst/src'
status 1"
}

# Refused three levels down, the copies of those levels (made writable
# and searchable by their owner, 0750 under a umask of 022) get their
# own modes and times on the way out, as cp -a gives them; cp makes the
# mount point's copy before it finds itself inside it.
@test "xcp -a: refused midway by a bind mount of the destination, the directories made get their modes and times as cp -a gives them (-j 1, -j 2)" {
  # shellcheck disable=SC2016 # for the inner bash.
  run --separate-stderr in_own_tmpfs '
    mkdir -p src/a/b/m dst && echo data >src/a/b/f \
      && mount --bind dst src/a/b/m || exit 99
    chmod 0550 src src/a src/a/b \
      && touch -h -d "2001-02-03 04:05:06.5" src src/a src/a/b || exit 99
    for cmd in "cp -a" "$XCP -a -j 1" "$XCP -a -j 2"; do
      timeout 60 $cmd src dst/ 2>&1
      echo "status $?"
      find dst/src -path dst/src/a/b/m -prune -o -type d \
        -printf "%p %m %T@\n" | sort
      chmod -R u+w dst/src && rm -rf dst/src
    done'
  assert_success
  local made="dst/src 550 981173106.5000000000
dst/src/a 550 981173106.5000000000
dst/src/a/b 550 981173106.5000000000"
  assert_output "cp: cannot copy a directory, 'src', into itself, 'dst/src'
status 1
$made
xcp: cannot copy a directory, 'src', into itself, 'dst/src'
status 1
$made
xcp: cannot copy a directory, 'src', into itself, 'dst/src'
status 1
$made"
}

# The racer moves the destination into a directory of the source 280
# levels down once the copy is 20 levels down (the copy stopped meanwhile
# by SIGSTOP): the walker lists that directory only when it gets there.
# Where the racer, slowed by a loaded machine, stopped the copy after the
# walker got there, the try does not count and is made again (3 at most).
# A copy that does not stop is killed after 60 s.
@test "xcp -r: the destination moved into the source during the copy stops it at once (-j 1, -j 2)" {
  require_helper "$TREE_HELPER"
  local jobs
  for jobs in 1 2; do
    # shellcheck disable=SC2016 # for the inner bash.
    run --separate-stderr in_own_tmpfs '
      mark=dst/src$(printf "/d%.0s" $(seq 20))
      into=src$(printf "/d%.0s" $(seq 280))
      for try in 1 2 3; do
        rm -rf src dst
        "$TREE_HELPER" deep src 300 20 && mkdir dst || exit 99
        "$XCP" -r -j '"$jobs"' src dst/ 2>err &
        pid=$!
        (sleep 60 && kill -KILL "$pid") >/dev/null 2>&1 &
        watchdog=$!
        end=$((SECONDS + 20))
        until [[ -d $mark ]] || ((SECONDS >= end)); do :; done
        kill -STOP "$pid"
        [[ -e dst/src${into#src} ]] || break
        kill -CONT "$pid"
        wait "$pid"
        pkill -P "$watchdog" sleep
      done
      mv dst "$into/" && echo moved
      kill -CONT "$pid"
      wait "$pid"
      echo "status $?"
      pkill -P "$watchdog" sleep
      cat err
      # The moved destination was not entered: no copy of it in itself.
      [[ ! -e $into/dst/src${into#src}/dst ]] || echo "the copy copied itself"'
    assert_success
    assert_output "moved
status 1
xcp: cannot copy a directory, 'src', into itself, 'dst/src'"
  done
}

# The walker finds the deep one moved on its way up (its ".." is not its
# parent any more), goes down again from the top by the names, and finds
# the shallow one gone: it leaves the 1600 levels between them at once.
# The copies of those levels are closed but for the deepest, and the way
# up to their parent must not open them all at once: 1024 descriptors are
# not enough, and the ancestors would lose their modes and times, each
# reported as moved.  The copy is stopped (SIGSTOP) while the walker is
# below the levels moved, so that the moves happen there: alone, since a
# file beside it slows the watch for that moment past the walk's 50
# last levels.
# bats test_tags=serial
@test "xcp -a: source directories moved during a walk 1800 deep under ulimit -n 1024: only they are reported, the ancestors keep their modes and times (-j 1, -j 2)" {
  require_helper "$TREE_HELPER"
  local jobs up deep mark end status
  up=src$(printf '/d%.0s' $(seq 100))
  deep=away$(printf '/d%.0s' $(seq 101 1700))
  mark=dst$(printf '/d%.0s' $(seq 1750))
  for jobs in 1 2; do
    rm -rf src dst away away2
    "$TREE_HELPER" deep src 1800 2
    find src -mindepth 1 -maxdepth 99 -type d \
      -exec chmod 0750 {} + -exec touch -d "2001-02-03 04:05:06.5" {} +
    (ulimit -n 1024 && exec "$XCP" -a -j "$jobs" src dst) 2>err &
    BG_PID=$!
    end=$((SECONDS + 30))
    until [[ -d $mark ]] || ((SECONDS >= end)); do :; done
    kill -STOP "$BG_PID"
    mv "$up" away && mv "$deep" away2 || fail "cannot move the levels"
    kill -CONT "$BG_PID"
    status=0
    wait "$BG_PID" || status=$?
    BG_PID=
    assert_equal "$status" 1
    run cat err
    assert_equal "${#lines[@]}" 2
    assert_line --index 0 --regexp "^xcp: cannot access '.*': Directory moved during the walk$"
    assert_line --index 1 --regexp "^xcp: cannot access '.*': Directory moved during the walk$"
    run bash -c "find dst -mindepth 1 -maxdepth 99 -type d -printf '%m %T@\n' | uniq -c"
    assert_output --regexp "^ +99 750 981173106\.50+$"
  done
}

# A subtree removed during the walk (rm -rf, or mv to another file system,
# which copies and then removes): the walker, 300 levels down or more,
# climbs back through every removed level, none of which can be read any
# more; only the top-most, 3 levels down, is reported.  The copies of all
# the levels, the removed ones too, get their modes and times.  The copy
# is stopped (SIGSTOP) once it is 300 levels down; where the racer,
# slowed by a loaded machine, stopped it after the walker left level 3
# (its copy has its time), the try does not count (3 at most).
@test "xcp -a: a subtree removed during a walk 1000 deep is reported once, at its top; every directory copied keeps its mode, and its times but the deepest at times (-j 1, -j 2)" {
  require_helper "$TREE_HELPER"
  local jobs mark end status
  mark=dst$(printf '/d%.0s' $(seq 300))
  for jobs in 1 2; do
    for _ in 1 2 3; do
      rm -rf src dst
      "$TREE_HELPER" deep src 1000 0
      find src -type d \
        -exec chmod 0750 {} + -exec touch -d "2001-02-03 04:05:06.5" {} +
      "$XCP" -a -j "$jobs" src dst 2>err &
      BG_PID=$!
      end=$((SECONDS + 30))
      until [[ -d $mark ]] || ((SECONDS >= end)); do :; done
      kill -STOP "$BG_PID"
      [[ $(stat -c %Y dst/d/d/d) != 981173106 ]] && break
      kill -CONT "$BG_PID"
      wait "$BG_PID" || true
    done
    rm -rf src/d/d/d || fail "cannot remove the levels"
    kill -CONT "$BG_PID"
    status=0
    wait "$BG_PID" || status=$?
    BG_PID=
    assert_equal "$status" 1
    run cat err
    assert_output "xcp: cannot access 'src/d/d/d': No such file or directory"
    # Every copy has its mode; every one its times but, rarely (1 run in
    # 15 or so, under load), the deepest: the one being made when the
    # source went, whose times are not given yet: not explained.
    run bash -c "find dst -type d -printf '%m\n' | uniq -c"
    assert_output --regexp "^ +[0-9]+ 750$"
    run bash -c "find dst -type d -printf '%d %T@\n' | sort -n"
    local deepest=${lines[-1]%% *}
    run bash -c "find dst -type d -printf '%d %T@\n' \
      | grep -v ' 981173106\.50*$'"
    assert [ "${#lines[@]}" -le 1 ]
    [[ ${#lines[@]} -eq 0 ]] || assert_equal "${lines[0]%% *}" "$deepest"
    run find dst -type d -path 'dst/d/d/d/*'
    assert [ "${#lines[@]}" -ge 297 ]
  done
}

@test "xcp -a: a directory of 300 subdirectories is read once, not again after each, and copied whole (-j 1, -j 2)" {
  require_strace
  mkdir src
  for i in $(seq 300); do
    mkdir "src/d$i"
    echo "$i" >"src/d$i/f"
    echo "$i" >"src/f$i"
  done
  for j in 1 2; do
    run strace -f -o "trace$j.log" -e trace=getdents64,lseek "$XCP" -a -j "$j" src "dst$j"
    assert_success
    run diff -r src "dst$j"
    assert_success
    # Two readings of each of the 301 directories (the entries, then the
    # end): the rest of src's listing is kept while its subdirectories are
    # read.
    run grep -c 'lseek(' "trace$j.log"
    assert_output 0
    run grep -c 'getdents64(' "trace$j.log"
    assert_output 602
  done
}
