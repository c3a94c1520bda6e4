#!/usr/bin/env bats
# rmtree-dropin.bats -- rmtree in place of rm: rm's options (-r, -d, -i,
# -I, --interactive, --preserve-root=all), its questions and its words,
# each compared with the real rm (GNU coreutils) on identical trees; and
# a directory another process keeps filling, which ends as rm -rf ends.
#
# rmtree always recurses: it is compared with rm -r, except where -d
# alone asks rm -d's behaviour.

load test_helper

setup() {
  nc_setup
  HELPER="${NC_BUILDDIR:-$NC_BINDIR/..}/tests/helpers/rmtree-race"
}

teardown() {
  cd "$BATS_TEST_TMPDIR" || return 1
  if [[ -n ${CREATOR:-} ]]; then
    kill "$CREATOR" 2>/dev/null || true
    wait "$CREATOR" 2>/dev/null || true
  fi
  if mountpoint -q fs 2>/dev/null; then
    umount fs || umount -l fs
  fi
}

# build_tree: each test defines the tree both tools get.

# same_as_rm ANSWERS RM_OPTIONS RMTREE_OPTIONS OPERAND...: build the tree
# in rm/ and in rmtree/, run rm with RM_OPTIONS there and rmtree with
# RMTREE_OPTIONS here, on the same OPERANDs, each with ANSWERS on its
# standard input (not a terminal).  Their exit statuses, what they write
# on standard error (rm's "rm:" read "rmtree:") and the files left must
# be the same.  The status is left in $status, standard error in
# $stderr, the files left in $output (and $lines), as bats' run leaves
# them, for the test's own checks.
same_as_rm() {
  local answers=$1 rm_opts=$2 rmtree_opts=$3 tool
  shift 3
  for tool in rm rmtree; do
    mkdir "$tool"
    (cd "$tool" && build_tree) || fail "cannot build the tree"
  done
  local rm_status=0 rmtree_status=0 rm_left rmtree_left
  # The options split on purpose; rm -i reads its answers.
  # shellcheck disable=SC2086,SC2216
  (cd rm && printf '%s' "$answers" | command rm $rm_opts "$@") 2>rm.err \
    || rm_status=$?
  # shellcheck disable=SC2086
  (cd rmtree && printf '%s' "$answers" | rmtree $rmtree_opts "$@") \
    2>rmtree.err || rmtree_status=$?
  rm_left=$(cd rm && find . | sort)
  rmtree_left=$(cd rmtree && find . | sort)
  sed 's/rm: /rmtree: /g' rm.err >rm.err.renamed
  if ! diff -u rm.err.renamed rmtree.err; then
    fail "standard error differs from rm's (above)"
  fi
  assert_equal "$rmtree_status" "$rm_status"
  assert_equal "$rmtree_left" "$rm_left"
  status=$rmtree_status
  # shellcheck disable=SC2034 # bats' name, for assert_err
  stderr=$(cat rmtree.err)
  output=$rmtree_left
  mapfile -t lines <<<"$output"
  command rm -rf rm rmtree
}

# --- a directory kept from being emptied ---------------------------------

# Another process creates files in d as fast as it can, for longer than
# the removal may take: rmtree reads d again once after removing what it
# listed, then says d is not empty, as rm -rf does.  Before the bound, it
# read d again for as long as the creator ran, and timeout ended it.
#
# The creator wins as long as it runs: it adds entries while each batch
# is removed.  A creator not scheduled at the moment of the last read
# (a busy machine) lets the removal end with d gone: that round is run
# again, up to three times.

# fill_and_remove TOOL OPTION...: run TOOL OPTION... d under timeout while
# the creator fills d; bats' run's results.
fill_and_remove() {
  local tool=$1 try i
  shift
  for ((try = 1; try <= 3; try++)); do
    mkdir d
    "$HELPER" create d 60 &
    CREATOR=$!
    # The creator is running: its first files are there.
    for ((i = 0; i < 500; i++)); do
      [[ -e d/c200 ]] && break
      sleep 0.01
    done
    assert_file_exist d/c200
    run --separate-stderr timeout 10 "$tool" "$@" d
    # The creator ends by itself when d is removed.
    kill "$CREATOR" 2>/dev/null || true
    wait "$CREATOR" || true
    CREATOR=
    [[ $status -eq 0 && ! -e d ]] || return 0
  done
}

@test "rmtree: a directory another process keeps filling: 'Directory not empty', exit 1, as rm -rf" {
  require_helper "$HELPER"
  use_tmpfs 64m
  # rmtree always recurses (and 6db0874's knew no -r).
  fill_and_remove rmtree -f
  assert_failure 1
  assert_output ""
  assert_err "rmtree: cannot remove 'd': Directory not empty"
  assert_dir_exist d
  command rm -rf d
  fill_and_remove rm -rf
  assert_failure 1
  assert_err "rm: cannot remove 'd': Directory not empty"
}

# --- -r, -R, --recursive: accepted, and rmtree recurses without them ------

build_tree() {
  mkdir -p d/e/f
  touch d/a d/e/b d/e/f/c g
}

@test "rmtree -r, -R, --recursive, -rf: as rm -r" {
  local opts
  for opts in -r -R --recursive -rf -Rf "-r -f" "-f -r"; do
    same_as_rm "" "$opts" "$opts" d g
    assert_success
    assert_output "."
  done
  # Without -r, the same: rmtree always recurses.
  same_as_rm "" "-r" "" d g
  assert_success
}

# --- -d ------------------------------------------------------------------

@test "rmtree -d: an empty directory removed, another not empty refused, as rm -d" {
  build_tree() {
    mkdir -p empty full/sub
    touch file
  }
  same_as_rm "" "-d" "-d" empty full file
  assert_failure 1
  assert_err "rmtree: cannot remove 'full': Directory not empty"
  assert_output - <<'EOF'
.
./full
./full/sub
EOF
  # -r with -d recurses, as rm -rd.
  same_as_rm "" "-rd" "-rd" empty full file
  assert_success
  assert_output "."
  same_as_rm "" "-d -r" "-d -R" full
  assert_success
  # -di asks about an empty directory; not about a full one.
  same_as_rm $'y\n' "-di" "-di" full empty
  assert_failure 1
  assert_err "rmtree: cannot remove 'full': Directory not empty"$'\n'"rmtree: remove directory 'empty'? "
}

# --- -i ------------------------------------------------------------------

@test "rmtree -i: every question rm -ri asks, the answers read from standard input" {
  # One entry per directory: the order of the questions is the tree's.
  build_tree() {
    mkdir -p d/sub e
    echo data >d/sub/b
    ln -s nowhere l
    mkfifo p
  }
  # All yes.
  same_as_rm $'y\ny\ny\ny\ny\ny\ny\ny\n' "-ri" "-i" d e l p
  assert_success
  assert_output "."
  assert_err "rmtree: descend into directory 'd'? rmtree: descend into directory 'd/sub'? rmtree: remove regular file 'd/sub/b'? rmtree: remove directory 'd/sub'? rmtree: remove directory 'd'? rmtree: remove directory 'e'? rmtree: remove symbolic link 'l'? rmtree: remove fifo 'p'? "
  # A file kept: its directory is asked about, and cannot be removed.
  same_as_rm $'y\ny\nn\ny\ny\n' "-ri" "-i" d
  assert_failure 1
  assert_line "./d/sub/b"
  assert_err --partial "rmtree: cannot remove 'd/sub': Directory not empty"
  # A directory not entered: its parent is not asked about.
  same_as_rm $'y\nn\n' "-ri" "-i" d
  assert_success
  assert_line "./d/sub/b"
  # A directory kept after its contents went: its parent is asked
  # about, and fails.
  same_as_rm $'y\ny\ny\nn\ny\n' "-ri" "-i" d
  assert_failure 1
  assert_line "./d/sub"
  # No answer at all (end of file) is no.
  same_as_rm "" "-ri" "-i" d e l p
  assert_success
  assert_line "./p"
  # -f after -i asks nothing; -i after -f asks.
  same_as_rm "" "-r -i -f" "-i -f" d
  assert_success
  assert_err ""
  same_as_rm $'n\n' "-r -f -i" "-f -i" e
  assert_success
  assert_err "rmtree: remove directory 'e'? "
  # An option that asks cancels -f whole: a missing operand fails again.
  local opts
  for opts in "-f -i" "-f -I" "-f --interactive" "-f --interactive=once"; do
    # (-I's question answered yes.)
    same_as_rm $'y\n' "-r $opts" "$opts" nope
    assert_failure 1
    assert_err --partial "rmtree: cannot remove 'nope': No such file or directory"
  done
  same_as_rm "" "-r -f --interactive=never" "-f --interactive=never" nope
  assert_success
  same_as_rm "" "-r -i -f" "-i -f" nope
  assert_success
  assert_err ""
}

# --- -I and --interactive --------------------------------------------------

@test "rmtree -I: one question before anything, as rm -rI" {
  build_tree() {
    mkdir d
    touch d/x f1 f2 f3
  }
  same_as_rm $'n\n' "-rI" "-I" f1 f2 f3 d
  assert_success
  assert_err "rmtree: remove 4 arguments recursively? "
  assert_line "./d/x"
  same_as_rm $'y\n' "-rI" "-I" f1 f2 f3 d
  assert_success
  assert_output "."
  same_as_rm $'no\n' "-rI" "-I" f1
  assert_err "rmtree: remove 1 argument recursively? "
  assert_line "./f1"
  # -d alone does not recurse: three operands are not asked about.
  same_as_rm "" "-dI" "-dI" f1 f2 f3
  assert_success
  assert_err ""
  same_as_rm $'n\n' "-dI" "-dI" f1 f2 f3 d
  assert_err "rmtree: remove 4 arguments? "
  assert_line "./f1"
  # -i after -I asks each time, -I after -i once.
  same_as_rm $'n\n' "-r -I -i" "-I -i" f1
  assert_err "rmtree: remove regular empty file 'f1'? "
  same_as_rm $'y\n' "-r -i -I" "-i -I" f1 d
  assert_err "rmtree: remove 2 arguments recursively? "
  assert_output $'.\n./f2\n./f3'
}

@test "rmtree --interactive=never|no|none|once|always|yes, bare: as rm -r" {
  build_tree() {
    mkdir d
    touch d/x f1 f2 f3
  }
  local when
  for when in never no none; do
    same_as_rm "" "-r --interactive=$when" "--interactive=$when" d f1 f2 f3
    assert_success
    assert_output "."
    assert_err ""
  done
  same_as_rm $'n\n' "-r --interactive=once" "--interactive=once" d
  assert_err "rmtree: remove 1 argument recursively? "
  assert_line "./d/x"
  for when in always yes ""; do
    same_as_rm $'y\nn\ny\n' "-r --interactive${when:+=$when}" \
      "--interactive${when:+=$when}" d
    assert_failure 1
    assert_line "./d/x"
    assert_err - <<'EOF'
rmtree: descend into directory 'd'? rmtree: remove regular empty file 'd/x'? rmtree: remove directory 'd'? rmtree: cannot remove 'd': Directory not empty
EOF
  done
  # --interactive=never after -i: no question.
  same_as_rm "" "-r -i --interactive=never" "-i --interactive=never" d
  assert_success
  assert_err ""
  # A bad WHEN: rm's words, then the usage error of every tool here.
  touch f1
  run --separate-stderr rmtree --interactive=sometimes f1
  assert_failure 2
  assert_err --partial "invalid argument 'sometimes' for '--interactive'"
  assert_file_exist f1
}

# --- write-protected files ------------------------------------------------

# rm asks before removing a file it may not write when standard input is
# a terminal (not with -f; a symbolic link never).  As uid 65534 (root
# may write anything), on a terminal by script(1), echo off so that only
# the questions show.
# protected_on_terminal OPTIONS ANSWERS: rm OPTIONS and rmtree OPTIONS
# on f g d l, each in a tree of its own, as uid 65534 on a terminal, with
# ANSWERS; their questions in $out_TOOL, the files left in $left_TOOL.
protected_on_terminal() {
  local opts=$1 answers=$2 tool left out
  rm -rf rm rmtree
  for tool in rm rmtree; do
    mkdir -m 0777 "$tool"
    (cd "$tool" && touch f && echo data >g && mkdir -p d && touch d/h \
      && ln -s f l && chmod 0444 f g d/h && chown -R 65534:65534 .)
    # The answers the terminal echoes are dropped: where they show,
    # at the start or after a question, depends on the scheduling.
    out=$(cd "$tool" && printf '%b' "$answers" \
      | script -qec "setpriv --reuid=65534 --regid=65534 --clear-groups \
          $tool $opts f g d l 2>&1" /dev/null \
      | tr -d '\r' | sed -zE ':a; s/(^|\? )[ny]\n/\1/; ta')
    [[ $tool != rm ]] || out=${out//rm: /rmtree: }
    left=$(cd "$tool" && find . | sort)
    printf -v "out_$tool" '%s' "$out"
    printf -v "left_$tool" '%s' "$left"
  done
}

@test "rmtree: a write-protected file on a terminal is asked about, as rm -r and rm -rI; -f and a pipe do not ask" {
  require_nobody
  require_terminal
  local questions="rmtree: remove write-protected regular empty file 'f'? rmtree: remove write-protected regular file 'g'? rmtree: remove write-protected regular empty file 'd/h'? "
  protected_on_terminal -r 'n\ny\ny\ny\n'
  # shellcheck disable=SC2154 # set by printf -v
  assert_equal "$out_rmtree" "$out_rm"
  # shellcheck disable=SC2154
  assert_equal "$left_rmtree" "$left_rm"
  assert_equal "$out_rmtree" "$questions"
  assert_equal "$left_rmtree" $'.\n./f'
  # -I asks once, and about each write-protected file still.
  protected_on_terminal -rI 'y\nn\ny\ny\ny\n'
  assert_equal "$out_rmtree" "$out_rm"
  assert_equal "$left_rmtree" "$left_rm"
  assert_equal "$out_rmtree" "rmtree: remove 4 arguments recursively? $questions"
  assert_equal "$left_rmtree" $'.\n./f'
  # Standard input not a terminal, or -f: removed without a question.
  (cd rmtree && touch f2 && chmod 0444 f2 && chown 65534 f2)
  run --separate-stderr as_nobody rmtree rmtree/f rmtree/f2 </dev/null
  assert_success
  assert_err ""
  assert_not_exist rmtree/f
}

# An empty directory that cannot be opened (mode 0, uid 65534).  rm -d
# asks "attempt removal of inaccessible directory" and removes it on yes;
# asked about with -r alone, it is reported unasked; -f, or no question
# due, removes it.  Those are coreutils 9.2's words and rules
# (tests/rm/empty-inacc.sh); Debian 12's rm 9.1 asks otherwise, so they
# are written out here.
@test "rmtree -di: an empty directory that cannot be opened is asked about as rm -di (tests/rm/empty-inacc); -ri reports it" {
  require_nobody
  local said
  mkdir w
  chown 65534 w
  cd w || return 1
  as_nobody mkdir -m0 a b c d
  # (Captured whole: bats' run drops the space that ends a question.)
  said=$(as_nobody rmtree -di a 2>&1 <<<n) || fail "-di a, n: $?"
  assert_equal "$said" "rmtree: attempt removal of inaccessible directory 'a'? "
  assert [ -d a ]
  said=$(as_nobody rmtree -di a 2>&1 <<<y) || fail "-di a, y: $?"
  assert_not_exist a
  run --separate-stderr as_nobody rmtree -ri b <<<y
  assert_failure 1
  assert_err "rmtree: cannot remove 'b': Permission denied"
  assert [ -d b ]
  said=$(as_nobody rmtree -rdi b 2>&1 <<<y) || fail "-rdi b: $?"
  assert_equal "$said" "rmtree: attempt removal of inaccessible directory 'b'? "
  assert_not_exist b
  run --separate-stderr as_nobody rmtree -r c </dev/null
  assert_success
  assert_err ""
  run --separate-stderr as_nobody rmtree -if d
  assert_success
  assert_err ""
  assert_not_exist c d
}

# --- --preserve-root=all ---------------------------------------------------

# In a mount namespace of its own, on a tmpfs of its own: m/t is another
# tmpfs mounted there.  rm and rmtree each get such a tree.
@test "rmtree --preserve-root=all: an operand on another device than its parent is refused, as rm" {
  require_root
  require_cmd unshare
  skip_under_qemu "a mount namespace of its own"
  unshare -m --propagation private true 2>/dev/null \
    || skip "unshare -m is not allowed here"
  # shellcheck disable=SC2016 # expanded by the namespace's shell
  run --separate-stderr unshare -m --propagation private bash -c '
    set -e
    mkdir fs
    mount -t tmpfs nc-test fs
    cd fs
    for tool in rm rmtree; do
      mkdir -p $tool/m/t $tool/plain
      mount -t tmpfs nc-test $tool/m/t
      touch $tool/m/t/x $tool/plain/y
    done
    st=0
    (cd rm && command rm -r --preserve-root=all m/t plain) 2>rm.err || st=$?
    echo "rm $st"
    st=0
    (cd rmtree && rmtree --preserve-root=all m/t plain) 2>rmtree.err || st=$?
    echo "rmtree $st"
    sed "s/rm: /rmtree: /g" rm.err | diff -u - rmtree.err
    (cd rm && find . | sort) >rm.left
    (cd rmtree && find . | sort) >rmtree.left
    diff -u rm.left rmtree.left
    cat rmtree.err rmtree.left
    # The last of --preserve-root=all and --no-preserve-root wins.
    rmtree --preserve-root=all --no-preserve-root rmtree/m/t 2>&1 || true
    ls -A rmtree/m/t
    umount rm/m/t rmtree/m/t
    cd .. && umount fs'
  assert_success
  assert_output - <<'EOF'
rm 1
rmtree 1
rmtree: skipping 'm/t', since it's on a different device
rmtree: and --preserve-root=all is in effect
.
./m
./m/t
./m/t/x
rmtree: cannot remove 'rmtree/m/t': Device or resource busy
EOF
}

@test "rmtree --preserve-root=WORD: only 'all'" {
  mkdir d
  run --separate-stderr rmtree --preserve-root=some d
  assert_failure 2
  assert_err --partial "rmtree: unrecognized --preserve-root argument: 'some'"
  assert_dir_exist d
  run --separate-stderr rmtree --preserve-root --preserve-root=all d
  assert_success
  assert_not_exist d
}

# --- an option that is a file ----------------------------------------------

# rm's hint for a word meant as a file: the first such word that names a
# file, after the unknown option's message.  rmtree exits 2 (usage), rm 1.
@test "rmtree: an unknown option that names a file gets rm's hint: Try 'rmtree ./-foo'" {
  touch -- -foo '-a b'
  run --separate-stderr rmtree -foo '-a b'
  assert_failure 2
  # shellcheck disable=SC2154 # run --separate-stderr sets stderr_lines
  assert_equal "${stderr_lines[1]}" "Try 'rmtree ./-foo' to remove the file '-foo'."
  assert_equal "${stderr_lines[2]}" "Try 'rmtree --help' for more information."
  run --separate-stderr rmtree '-a b'
  assert_equal "${stderr_lines[1]}" "Try 'rmtree ./'-a b'' to remove the file '-a b'."
  run -1 --separate-stderr command rm '-a b'
  assert_equal "${#stderr_lines[@]}" 3
  # No hint where no such file exists, nor for other usage errors.
  command rm -- -foo '-a b'
  run --separate-stderr rmtree -foo
  assert_equal "${#stderr_lines[@]}" 2
  run --separate-stderr rmtree
  assert_equal "${stderr_lines[1]}" "Try 'rmtree --help' for more information."
}
