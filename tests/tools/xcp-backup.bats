#!/usr/bin/env bats
# xcp-backup.bats -- xcp -b, --backup[=CONTROL], -S SUFFIX (issue 28,
# item 8), each case run with GNU cp too, on the same tree, and the
# results compared: the names made, their contents, which are one file;
# and what cp cannot give: through a SIGKILL at any moment, the
# destination's name is never missing and its old contents never lost.

load test_helper
load xcp_helper

setup() {
  nc_setup
  require_cmd cp
  GNU_CP=$(command -v cp)
  export LC_ALL=C
}

# state DIR: one line per entry of DIR, sorted: its name, its type, its
# contents (a link's target), and the number of the first entry that is
# the same file (names of one file show as such).
state() {
  local name first_of=() ino
  (
    cd "$1" || exit 1
    for name in $(find . -mindepth 1 -maxdepth 1 -printf '%P\n' | sort); do
      ino=$(stat -c %i -- "$name")
      printf '%s %s ' "$name" "$(stat -c %F -- "$name")"
      if [[ -L $name ]]; then readlink -- "$name"
      elif [[ -f $name ]]; then printf '%s\n' "$(cat -- "$name")"
      else echo; fi
      [[ -n ${first_of[ino]:-} ]] && echo "  same file as ${first_of[ino]}"
      first_of[ino]=${first_of[ino]:-$name}
    done
  )
}

# both SETUP CMD...: run SETUP (a function) in the directories gnu/ and
# xcp/, then CMD there with cp and with xcp as $TOOL; their status,
# standard output and error (program name left out) and states are
# compared.
both() {
  local setup=$1 t out
  shift
  for t in gnu xcp; do
    rm -rf "$t"
    mkdir "$t"
    (cd "$t" && "$setup")
    if [[ $t == gnu ]]; then TOOL=$GNU_CP; else TOOL=$NC_BINDIR/xcp; fi
    out=$(cd "$t" && TOOL=$TOOL "$@" 2>&1; echo "status $?")
    printf '%s\n' "$out" | sed -E 's#^[^ :]*(xcp|cp): #P: #' >"$t.out"
    state "$t" >>"$t.out"
  done
  diff -u gnu.out xcp.out
}

run_tool() { "$TOOL" "$@"; }

start_x() { echo x >x; }
start_xy() { echo x >x; echo y >y; }
start_y1() { start_xy; echo y1 >y~; }
start_n1() { start_xy; echo n1 >y.~1~; }
start_both() { start_xy; echo y1 >y~; echo n1 >y.~1~; echo n9 >y.~9~; }

@test "--backup=CONTROL: every word and abbreviation, on every start, as cp" {
  local s c
  for s in start_x start_xy start_y1 start_n1 start_both; do
    for c in none off numbered t existing nil simple never nu ne ex si o; do
      both "$s" run_tool --backup="$c" x y
    done
  done
}

@test "-b and a bare --backup take \$VERSION_CONTROL's, else existing, as cp" {
  local s v
  for s in start_xy start_n1 start_both; do
    both "$s" run_tool -b x y
    both "$s" run_tool --backup x y
    for v in numbered simple nil off t; do
      both "$s" env VERSION_CONTROL=$v "$TOOL" -b x y
      both "$s" env VERSION_CONTROL=$v "$TOOL" --backup x y
      # The word given wins over the environment's.
      both "$s" env VERSION_CONTROL=$v "$TOOL" --backup=simple x y
    done
  done
}

@test "-S SUFFIX implies a backup; SIMPLE_BACKUP_SUFFIX; a suffix with / or empty is ~" {
  both start_y1 run_tool -S .bak x y
  both start_y1 run_tool --suffix=.bak --backup=simple x y
  both start_y1 run_tool -S '' x y
  both start_y1 run_tool -S a/b x y
  both start_y1 env SIMPLE_BACKUP_SUFFIX=.env "$TOOL" -b x y
  both start_y1 env SIMPLE_BACKUP_SUFFIX=.env "$TOOL" -S .opt x y
  both start_n1 env SIMPLE_BACKUP_SUFFIX=.env "$TOOL" --backup=t x y
}

@test "numbered backups go past the highest number of the directory (9 to 10, 99 to 100)" {
  start_tens() {
    start_xy
    echo n9 >y.~9~; echo n99 >y.~99~; echo z >y.~07~; echo w >y.~3x~
  }
  both start_tens run_tool --backup=numbered x y
  both start_tens run_tool -b x y
  start_nine() { start_xy; echo n9 >y.~9~; }
  both start_nine run_tool --backup=existing x y
}

@test "an invalid or ambiguous CONTROL: cp's message and list, usage status 2" {
  start_xy
  local c
  for c in foo n '' ; do
    if [[ -n $c ]]; then
      run "$GNU_CP" --backup="$c" x y
      [[ $status -eq 1 ]]
      local want=$output
      run "$NC_BINDIR/xcp" --backup="$c" x y
      [[ $status -eq 2 ]]
      [[ ${output//xcp/cp} == "${want//$GNU_CP/cp}" ]]
    fi
    run env VERSION_CONTROL="${c:-nope}" "$GNU_CP" -b x y
    want=$output
    run env VERSION_CONTROL="${c:-nope}" "$NC_BINDIR/xcp" -b x y
    [[ $status -eq 2 ]]
    [[ ${output//xcp/cp} == "${want//$GNU_CP/cp}" ]]
  done
  [[ $(cat y) == y ]]
  run "$NC_BINDIR/xcp" -bn x y
  [[ $status -eq 2 && $output == *"mutually exclusive"* ]]
}

@test "-v says the backup made, as cp: into a directory, by -t" {
  start_dir() { start_xy; mkdir d; echo old >d/x; }
  both start_dir run_tool -bv x y
  both start_dir run_tool -bv x d/
  both start_dir run_tool -v --backup=t -t d x y
  both start_dir run_tool -v --backup=t x y
}

@test "what is at the destination is backed up, not followed: other hard links, a symbolic link, a FIFO" {
  start_kinds() {
    echo x >x
    echo f >f; ln f other
    echo target >target; ln -s target link
    ln -s missing dangling
    mkfifo fifo
  }
  both start_kinds run_tool -b x f
  both start_kinds run_tool -b x link
  both start_kinds run_tool -b x dangling
  both start_kinds run_tool -b x fifo
  both start_kinds run_tool -b --preserve=links x f
  both start_kinds run_tool -bd link f
  both start_kinds run_tool -rb fifo f
}

@test "the same file: -b f f refused, -fb f f copies to the backup name, other names of it backed up, as cp" {
  start_same() {
    echo XYZ >foo; ln -s foo symlink; ln foo hardlink
    ln -s foo sl1; ln -s foo sl2
  }
  local opts args
  for args in 'foo foo' 'foo symlink' 'symlink foo' 'foo hardlink' 'sl1 sl2'; do
    for opts in -b -bd -bf -bdf --backup=t -fS.s; do
      # shellcheck disable=SC2086
      both start_same run_tool $opts $args
    done
  done
}

@test "a backup that would be the source is refused, as cp: 'backing up ... might destroy source'" {
  start_src() { echo a >a; echo a-tilde >a~; }
  both start_src run_tool --backup=simple a~ a
  both start_src run_tool -b a~ a
  both start_src run_tool --backup=numbered a~ a
  start_src2() { echo a >a; echo s >a.s; }
  both start_src2 run_tool -S .s a.s a
}

@test "-r --backup onto an existing tree: its files backed up, its directories not, as cp" {
  start_tree() {
    mkdir -p src/foo/sub dst/foo/sub
    echo new >src/foo/bar; echo old >dst/foo/bar
    echo new2 >src/foo/sub/f; echo old2 >dst/foo/sub/f
    ln -s bar src/foo/l; echo was >dst/foo/l
  }
  local c
  for c in -rb --backup=t\ -r -ab; do
    # shellcheck disable=SC2016 # expanded by the sh -c
    both start_tree sh -c '"$TOOL" '"$c"' src/foo dst && find dst | sort &&
      for f in $(find dst -type f | sort); do echo "$f: $(cat "$f")"; done'
  done
  start_dot() { mkdir -p a b/a; echo 1 >a/f; echo 0 >b/a/f; }
  # shellcheck disable=SC2016 # expanded by the sh -c
  both start_dot sh -c 'cd a && "$TOOL" -rb . ../b/a && cd .. && find b | sort'
}

# A large old file F and a new one NEW, a copy of which replaces F with
# -b again and again, killed with SIGKILL at random moments, while a
# watcher looks for F all the time: F is always there, old or new, never
# a part, and a backup that exists is the old file whole.
@test "SIGKILL at any moment: the destination's name never goes missing, the old contents survive" {
  make_big old 24
  make_big new 24
  cp old f
  local missing=missing.log end=$((SECONDS + 20)) runs=0 pid watcher
  : >"$missing"
  (
    while :; do
      [[ -e f ]] || echo "f missing" >>"$missing"
    done
  ) &
  watcher=$!
  while ((SECONDS < end && runs < 30)); do
    "$NC_BINDIR/xcp" -b new f &
    pid=$!
    sleep "0.0$((RANDOM % 10))$((RANDOM % 10))"
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    [[ -e f ]]
    cmp -s f old || cmp -s f new
    if [[ -e f~ ]]; then cmp old f~; fi
    if cmp -s f new; then [[ -e f~ ]]; fi
    cp old f
    rm -f f~
    runs=$((runs + 1))
  done
  kill "$watcher"
  wait "$watcher" 2>/dev/null || true
  [[ ! -s $missing ]]
  # And a run left alone ends with both.
  "$NC_BINDIR/xcp" -b new f
  cmp new f
  cmp old f~
}

@test "a backup left half made by SIGKILL (its temporary name) loses nothing to the next run's cleaning" {
  echo old >f
  echo new >g
  # The state between the link to a temporary name and its rename: a
  # second name of f under the name of a dead xcp's temporary file.
  sh -c 'exit 0' &
  local dead=$!
  wait "$dead"
  ln f ".xcp-$dead-0.tmp"
  touch -d '1 minute ago' f
  sleep 6
  "$NC_BINDIR/xcp" -b g f
  [[ $(cat f) == new && $(cat f~) == old ]]
  [[ ! -e .xcp-$dead-0.tmp ]]
}

@test "no hard link allowed (protected_hardlinks, another user's file): the backup is a copy, as cp's names and contents" {
  require_nobody
  [[ $(cat /proc/sys/fs/protected_hardlinks 2>/dev/null) == 1 ]] ||
    skip "fs.protected_hardlinks is not 1"
  local t
  for t in gnu xcp; do
    mkdir "$t"
    chmod 777 "$t"
    echo old >"$t/f"
    echo older >"$t/f~"
    echo new >"$t/g"
    chmod 644 "$t/f" "$t/g"
  done
  touch -d '2001-02-03 04:05:06' xcp/f
  local was
  was=$(stat -c '%a %y' xcp/f)
  (cd gnu && as_nobody "$GNU_CP" -bv g f) >gnu.out
  (cd xcp && as_nobody "$NC_BINDIR/xcp" -bv g f) >xcp.out
  diff -u gnu.out xcp.out
  diff -u <(state gnu) <(state xcp)
  [[ $(cat xcp/f~) == old && $(cat xcp/f) == new ]]
  # Kept: the mode and the times (the owner, this user cannot give).
  [[ $(stat -c '%a %y' xcp/f~) == "$was" ]]
}

# enospc_run TOOL DIR: on a tmpfs of 512 KiB at DIR, f (and an older f~)
# replaced with TOOL -b by a file of 1 MiB; the status and the state.
enospc_run() {
  mkdir "$2"
  mount -t tmpfs -o size=512k tmpfs "$2" || return 99
  echo old >"$2/f"
  echo older >"$2/f~"
  "$1" -b big "$2/f" 2>/dev/null
  echo "status $?"
  state "$2"
  umount "$2"
}

@test "a copy that fails (ENOSPC) leaves the destination as it was and no backup, as cp" {
  require_root
  require_cmd unshare
  head -c $((1024 * 1024)) /dev/urandom >big
  export -f state enospc_run
  unshare -m --propagation private \
    bash -c "enospc_run $(printf %q "$GNU_CP") gnu" >gnu.out
  unshare -m --propagation private \
    bash -c "enospc_run $(printf %q "$NC_BINDIR/xcp") xcp" >xcp.out
  diff -u gnu.out xcp.out
  grep -qx 'status 1' xcp.out
}

@test "an operand given twice: cp's warning, skipped, unless a backup is made of each copy" {
  start_dup() { touch a; mkdir b d; echo x >b/f; }
  local opts
  for opts in '' -r -a --backup=numbered --backup=simple -b; do
    # shellcheck disable=SC2086
    both start_dup run_tool $opts a a d/
    # shellcheck disable=SC2086
    both start_dup run_tool $opts ./a a d/
  done
  both start_dup run_tool -a ./b b d/
  both start_dup run_tool -a ./b b b/
  both start_dup run_tool -r b b/ d
  both start_dup run_tool -r --backup=t b ./b d
}

@test "a directory this user cannot write: 'cannot backup', the destination left, as cp" {
  require_nobody
  start_ro() { echo x >x; echo old >f; chmod 666 f; }
  as_nobody_tool() { as_nobody "$TOOL" "$@"; }
  both start_ro as_nobody_tool -b x f
  both start_ro as_nobody_tool --backup=t x f
}
