#!/usr/bin/env bats
# xcp-replace.bats -- what xcp does about an existing destination, as cp
# 9.5 does (issue 28, item 8): -n and --update=WHEN (all, none,
# none-fail, older; -u) leave it, -i asks in cp's words, -f undoes
# neither, and --remove-destination replaces it by a new file, never
# written through a symbolic link or into a FIFO or device.
#
# Each behaviour is compared with GNU cp (9.1 on the test machines) in the
# same test where 9.1 already behaves as 9.5.  What 9.1 lacks or does
# otherwise is asserted as 9.5 documents it, and said so: --update=WHEN,
# --debug's "skipped" line, the exit status 1 where -i is answered no
# (9.2 and later; 9.1 exits 0).  Where 9.3 to 9.5 let a later --update
# undo -i, or -i undo an earlier --update=none (bugs fixed in 9.6, whose
# tests/cp/cp-i.sh checks them), the fixed behaviour is the one asserted.

# shellcheck disable=SC2154 # run --separate-stderr sets stderr, stderr_lines
load test_helper
load xcp_helper

setup() {
  nc_setup
}

# tool_path TOOL: the binary to run for TOOL (cp or xcp).
tool_path() {
  if [[ $1 == xcp ]]; then
    echo "$NC_BINDIR/xcp"
  else
    command -v cp
  fi
}

# in_fresh TOOL FUNCTION: FUNCTION run with the path of TOOL in a new
# directory of that name, its output with the program's name of each
# message turned into P.
in_fresh() {
  local bin
  bin=$(tool_path "$1")
  mkdir -p "$1"
  (cd "$1" && "$2" "$bin") 2>&1 | sed -E 's#^[^ :]*(xcp|cp): #P: #'
}

# same_as_cp FUNCTION: FUNCTION's output with xcp is cp's.
same_as_cp() {
  local want got
  # 9.5 names the source after "with non-directory"; older cp does not.
  local drop_src="s/\\(with non-directory\\) '[^']*'\$/\\1/"
  want=$(in_fresh cp "$1" | sed "$drop_src")
  got=$(in_fresh xcp "$1" | sed "$drop_src")
  run echo "$got"
  assert_output "$want"
}

# -n over existing files: after it, -f does not undo it; the source as
# its own destination is left too, without the "same file" failure; -v
# names no file left.
no_clobber_case() {
  echo new >a
  echo old >b
  echo old >c
  echo old >e
  "$1" -n a b
  echo "-n: $?"
  "$1" -n -f a c
  echo "-n -f: $?"
  "$1" -n a a
  echo "-n a a: $?"
  "$1" -nv a e
  echo "-nv: $?"
  "$1" -n a made
  echo "-n onto nothing: $?"
  cat b c e made a
}

@test "xcp -n leaves an existing file silently, exit 0; -f after it does not undo it, as cp" {
  same_as_cp no_clobber_case
  assert_line "-n -f: 0"
  assert_line "-n a a: 0"
  refute_output --partial "P: "
}

# The last of -i and -n counts; -f undoes neither: which of them ask
# (answered n) and what is left.
ask_order_case() {
  local opts
  echo new >a
  echo old >newer
  touch -d tomorrow newer
  for opts in "-i -n" "-n -i" "-i -f" "-f -i" "-f -n" "-n -f -i" \
    "-i -u" "-u -i"; do
    [[ -e d ]] || echo old >d
    # shellcheck disable=SC2086 # the options split on purpose
    "$1" $opts a d <<<n
    echo
    echo "[$opts] $(cat d)"
    # shellcheck disable=SC2086
    "$1" $opts a newer <<<n
    echo
    echo "[$opts newer] $(cat newer)"
  done
}

@test "xcp -i and -n: the last given counts, -f undoes neither, -u leaves a newer file unasked, as cp" {
  same_as_cp ask_order_case
  assert_line "P: overwrite 'd'? "
  assert_line "[-i -f] old"
  assert_line "[-f -n] old"
  # Exit status, as cp 9.5 (9.1 exits 0 where the answer is no).
  cd xcp
  echo old >d
  run xcp -i -f a d <<<n
  assert_failure 1
  run xcp -i -n a d <<<n
  assert_success
  run xcp -u -i a newer </dev/null
  assert_success
  assert_output ""
}

@test "xcp -i answered no leaves the file and exits 1 without a message, as cp 9.5 (not 9.1)" {
  echo new >a
  echo old >b
  mkdir d
  echo old >d/a
  echo old >d/b
  run --separate-stderr xcp -i a b <<<n
  assert_failure 1
  assert_output ""
  assert_equal "${stderr% }" "xcp: overwrite 'b'?"
  assert_equal "$(cat b)" old
  # One no among yeses: the others are copied, the status is still 1.
  run --separate-stderr xcp -iv a b d <<<$'y\nn'
  assert_failure 1
  assert_output "'a' -> 'd/a'"
  assert_equal "$(cat d/a) $(cat d/b)" "new old"
  run --separate-stderr xcp -i a b <<<y
  assert_success
  assert_equal "$(cat b)" new
}

@test "xcp --update=none, none-fail, all, older and -u, the last given counting, as cp 9.5 (9.1 has -u only)" {
  echo new >a
  echo old >b
  touch -d yesterday b
  run --separate-stderr xcp --update=none a b
  assert_success
  assert_equal "$stderr" ""
  assert_equal "$(cat b)" old
  run --separate-stderr xcp --update=none-fail a b
  assert_failure 1
  assert_equal "$stderr" "xcp: not replacing 'b'"
  assert_equal "$(cat b)" old
  # Onto nothing: copied, whatever WHEN says.
  local when
  for when in none none-fail all older; do
    run xcp --update="$when" a "made-$when"
    assert_success
    assert_equal "$(cat "made-$when")" new
  done
  # The source itself: left before the "same file" failure.
  run --separate-stderr xcp --update=none a a
  assert_success
  assert_equal "$stderr" ""
  run --separate-stderr xcp --update=none-fail a a
  assert_failure 1
  assert_equal "$stderr" "xcp: not replacing 'a'"
  # The last --update counts; -n makes it none whatever their order.
  run xcp --update=all --update=none a b
  assert_success
  assert_equal "$(cat b)" old
  run xcp --no-clobber --update=all a b
  assert_success
  assert_equal "$(cat b)" old
  run --separate-stderr xcp --update=all -n a b
  assert_success
  run --separate-stderr xcp -n --update=none-fail a b
  assert_success
  assert_equal "$stderr" ""
  assert_equal "$(cat b)" old
  run xcp --update=none --update=all a b
  assert_success
  assert_equal "$(cat b)" new
  # older: a bare --update, -u; an older file only.
  echo old >b
  touch -d tomorrow b
  for when in --update --update=older -u; do
    run xcp "$when" a b
    assert_success
    assert_equal "$(cat b)" old
  done
  touch -d yesterday b
  run xcp --update a b
  assert_success
  assert_equal "$(cat b)" new
  # -u takes no argument: -uv is -u -v.
  touch -d yesterday b
  run xcp -uv a b
  assert_success
  assert_output "'a' -> 'b'"
  run --separate-stderr xcp --update=sometimes a b
  assert_failure 2
  assert_equal "${stderr_lines[0]}" \
    "xcp: invalid argument 'sometimes' for '--update'"
}

@test "xcp --update=none and none-fail are not asked about by -i, in either order; -i asks what --update=older replaces" {
  echo new >a
  echo old >b
  touch -d yesterday b
  run --separate-stderr xcp -i --update=none a b </dev/null
  assert_success
  assert_equal "$stderr" ""
  run --separate-stderr xcp --update=none -i a b </dev/null
  assert_success
  assert_equal "$stderr" ""
  run --separate-stderr xcp --update=none-fail -i a b </dev/null
  assert_failure 1
  assert_equal "$stderr" "xcp: not replacing 'b'"
  # cp 9.3 to 9.5 let --update=older undo an earlier -i (fixed in 9.6).
  run --separate-stderr xcp -i --update=older a b <<<n
  assert_failure 1
  assert_equal "${stderr% }" "xcp: overwrite 'b'?"
  assert_equal "$(cat b)" old
}

@test "xcp -r --update=none-fail copies the new files, names each existing one, exits 1" {
  mkdir -p s/sub t/s/sub
  echo 1 >s/one
  echo 2 >s/sub/two
  echo 3 >s/three
  echo old >t/s/one
  echo old >t/s/sub/two
  run --separate-stderr xcp -r --update=none-fail s t
  assert_failure 1
  assert_equal "$(printf '%s\n' "${stderr_lines[@]}" | sort)" \
    "$(printf '%s\n' "xcp: not replacing 't/s/one'" \
      "xcp: not replacing 't/s/sub/two'")"
  assert_equal "$(cat t/s/one t/s/sub/two t/s/three)" "$(printf 'old\nold\n3')"
}

@test "xcp --debug names each file left on standard output, as cp 9.5 (9.1 has no --debug)" {
  echo new >a
  echo old >b
  touch -d tomorrow b
  local opts
  for opts in --update=none -n -u; do
    run --separate-stderr xcp --debug "$opts" a b
    assert_success
    assert_output "skipped 'b'"
  done
  run --separate-stderr xcp --debug -i a b <<<n
  assert_failure 1
  assert_output "skipped 'b'"
  run --separate-stderr xcp --debug --update=none-fail a b
  assert_failure 1
  assert_output ""
  assert_equal "$stderr" "xcp: not replacing 'b'"
}

# -i's questions to a user: a file the user may write, one the user may
# not (with and without -f or --remove-destination; with set-ID and
# sticky bits), and a symbolic link to it (written through, or replaced).
ask_words_case() {
  local line
  while read -r line; do
    # shellcheck disable=SC2086 # the options split on purpose
    as_nobody "$1" ${line% *} a "${line##* }" <<<n
    echo
  done <<'EOF'
-i w
-i z
-if z
-i --remove-destination z
-i -f --remove-destination z
-i r
-i t
-i lnk
-i --remove-destination lnk
-i -f lnk
EOF
}

@test "xcp -i asks in cp's words: overwrite, replace overriding mode, unwritable (tests/mv/i-2)" {
  require_nobody
  local tool
  for tool in cp xcp; do
    mkdir -m 0777 "$tool"
    (cd "$tool" && echo new >a && echo w >w && echo z >z && echo r >r &&
      echo t >t && ln -s z lnk && chmod 0000 z && chmod 2444 r &&
      chmod 1444 t && chown -h 65534:65534 a w z r t lnk)
  done
  same_as_cp ask_words_case
  assert_line "P: replace 'z', overriding mode 0000 (---------)? "
  assert_line "P: unwritable 'z' (mode 0000, ---------); try anyway? "
  assert_line "P: unwritable 'r' (mode 2444, r--r-Sr--); try anyway? "
  assert_line "P: unwritable 't' (mode 1444, r--r--r-T); try anyway? "
  # As root, every file is writable: the plain question, as from cp.
  cd xcp
  run --separate-stderr "$NC_BINDIR/xcp" -if a z <<<n
  assert_equal "${stderr% }" "xcp: overwrite 'z'?"
  run --separate-stderr cp -if a z <<<n
  assert_equal "${stderr% }" "cp: overwrite 'z'?"
  # And mv/i-2's answer yes replaces the file.
  mkdir ../own
  chown 65534:65534 ../own
  cd ../own
  as_nobody sh -c 'echo e >e && echo f >f && chmod 0 f'
  run --separate-stderr as_nobody "$NC_BINDIR/xcp" -if e f <<<y
  assert_success
  assert_equal "${stderr% }" "xcp: replace 'f', overriding mode 0000 (---------)?"
  assert_equal "$(cat f)" e
}

@test "xcp -i: without faccessat2 (ENOSYS, or EPERM from a filter), the question is still cp's" {
  require_nobody
  require_strace_inject
  mkdir -m 0777 box
  cd box
  echo new >a
  echo w >w
  echo z >z
  chmod 0 z
  chown 65534:65534 a w z
  local err
  for err in ENOSYS EPERM; do
    run --separate-stderr strace -f -qq -o /dev/null -u nobody \
      -e inject=faccessat2:error="$err" "$NC_BINDIR/xcp" -i a w <<<n
    assert_equal "${stderr% }" "xcp: overwrite 'w'?"
    run --separate-stderr strace -f -qq -o /dev/null -u nobody \
      -e inject=faccessat2:error="$err" "$NC_BINDIR/xcp" -i a z <<<n
    assert_equal "${stderr% }" \
      "xcp: unwritable 'z' (mode 0000, ---------); try anyway?"
  done
}

# --remove-destination onto each kind of file: what is there after, the
# file a link named, the other name of a hard-linked file.
remove_dest_case() {
  echo new >a
  chmod 0640 a
  echo old >reg
  ln reg reg2
  chmod 0606 reg
  chown 1234:5678 reg
  setfattr -n user.old -v 1 reg
  if command -v setfacl >/dev/null; then setfacl -m u:1234:rw reg; fi
  echo target >target
  ln -s target lnk
  ln -s nowhere dangling
  ln -s loop loop
  mkfifo fifo
  mknod dev c 1 3
  mkdir dir
  echo old >verbose
  local dst
  for dst in reg lnk dangling loop fifo dev dir; do
    timeout 10 "$1" --remove-destination -T a "$dst"
    # A FIFO left a FIFO would hold cat.
    echo "$dst: $? $(stat -c '%F %a %u:%g %h' "$dst") $(timeout 5 cat "$dst" 2>&1)"
    echo "$(getfattr -d "$dst" 2>/dev/null)$(getfacl -cs "$dst" 2>/dev/null)"
  done
  echo "reg2: $(cat reg2) target: $(cat target)"
  ls nowhere 2>&1
  "$1" -v --remove-destination a verbose
}

@test "xcp --remove-destination replaces a file, a link, a dangling link, a FIFO, a device by a new file; refuses a directory; as cp" {
  require_root
  require_cmd setfattr getfattr timeout
  same_as_cp remove_dest_case
  assert_line "reg: 0 regular file 640 0:0 1 new"
  assert_line "reg2: old target: target"
  assert_line "fifo: 0 regular file 640 0:0 1 new"
  assert_line "P: cannot overwrite directory 'dir' with non-directory"
  assert_line "removed 'verbose'"
}

# --remove-destination where the destination is the source or one of its
# names: another name of the file is replaced (the source still there to
# be read), not the source itself, nor a file a source link names; a
# link to the source is replaced, not the source.
remove_dest_same_case() {
  local args
  for args in "foo hard" "foo foo" "sym foo" "foo sym" "foo ./foo"; do
    rm -f foo hard sym
    echo XYZ >foo
    ln foo hard
    ln -s foo sym
    # shellcheck disable=SC2086 # the operands split on purpose
    "$1" --remove-destination $args
    echo "[$args] $? foo=$(cat foo) $(find . -printf '%y:%p:%n ' | tr '\n' ' ')"
  done
}

@test "xcp --remove-destination onto the source's other name, a link to it, itself, as cp (tests/cp/same-file)" {
  same_as_cp remove_dest_same_case
  assert_line --partial "[foo hard] 0 foo=XYZ"
  assert_line "P: 'foo' and 'foo' are the same file"
}

@test "xcp --remove-destination: the name is never missing (no unlink; a rename over it) and nothing is opened through it" {
  require_strace
  echo new >a
  echo old >reg
  echo target >target
  ln -s target lnk
  mkfifo fifo
  local dst
  for dst in reg lnk fifo; do
    run strace -f -qq -e trace=unlink,unlinkat,rename,renameat,renameat2,openat \
      -o "trace.$dst" timeout 10 "$NC_BINDIR/xcp" --remove-destination a "$dst"
    assert_success
    run grep -E "unlink(at)?\(.*\"$dst\"|open(at)?\(.*\"$dst\"" "trace.$dst"
    assert_failure
    run grep -E "rename(at2?)?\(.*\"$dst\"" "trace.$dst"
    assert_success
    assert_equal "$(stat -c %F "$dst") $(cat "$dst")" "regular file new"
  done
  assert_equal "$(cat target)" target
}

@test "xcp -r -j: -i asks one question at a time, with -f too; --update=none -i asks none and runs its workers" {
  mkdir -p s/sub
  echo 1 >s/one
  echo 2 >s/sub/two
  cp -r s t
  run xcp -r -i -f -j4 --debug s t/ </dev/null
  assert_line --partial "'s': 1 jobs"
  run xcp -r -i -u -j4 --debug s t/ </dev/null
  assert_line --partial "'s': 1 jobs"
  run xcp -r -i --update=none -j4 --debug s t/ </dev/null
  assert_success
  assert_line --partial "'s': 4 jobs"
  refute_output --partial overwrite
}

# -f onto a loop of symbolic links, one to itself and two to each other;
# without -f, refused.
force_loop_case() {
  echo new >a
  ln -s self self
  ln -s two one
  ln -s one two
  "$1" a self 2>/dev/null
  echo "no -f: $? $(stat -c %F self)"
  "$1" -f a self
  echo "self: $? $(stat -c %F self) $(cat self)"
  "$1" -f a one
  echo "one: $? $(stat -c %F one) $(cat one) two: $(stat -c %F two)"
}

@test "xcp -f onto a loop of symbolic links replaces the link by a new file, as cp -f (it cannot open it)" {
  same_as_cp force_loop_case
  assert_line "self: 0 regular file new"
  assert_line "no -f: 1 symbolic link"
}

# cp -v's "removed" line comes before the copy's, file by file: with the
# workers of -j too, in the order of -j 1.
@test "xcp -r -v --remove-destination: each 'removed' line before its file's, -j 4 in the order of -j 1, the lines of cp" {
  local i t
  mkdir s
  for i in $(seq 200); do echo "$i" >"s/f$i"; done
  mkdir t1 t4 tc
  for t in t1 t4 tc; do cp -r s "$t/"; done
  xcp -r -v -j 1 --remove-destination s t1 >one
  xcp -r -v -j 4 --remove-destination s t4 >four
  cp -r -v --remove-destination s tc >gnu
  run diff one <(sed 's#t4/#t1/#' four)
  assert_success
  run grep -c "^removed 't1/s/f" one
  assert_output 200
  run awk '/^removed/ { want = $2 } /->/ && want { if ($3 != want) bad++; want = "" } END { print bad + 0 }' one
  assert_output 0
  run diff <(LC_ALL=C sort one) <(sed 's#tc/#t1/#' gnu | LC_ALL=C sort)
  assert_success
}

# A symbolic link or a FIFO onto a file with --attributes-only: cp does
# not remove the file (no data to copy), so making the link fails; with
# --remove-destination, or a backup, it is replaced.
attributes_only_case() {
  printf 1 >file1
  ln -s file1 sym1
  mkfifo fifo
  printf 2 >f1
  printf 2 >f2
  printf 2 >f3
  printf 2 >f4
  "$1" -a --attributes-only sym1 f1
  echo "link: $? $(stat -c %F f1) $(cat f1)"
  # A FIFO opened for its data would hold the copy.
  timeout 10 "$1" -a --attributes-only fifo f2
  echo "fifo: $? $(stat -c %F f2) $(timeout 5 cat f2)"
  "$1" -a --remove-destination --attributes-only sym1 f3
  echo "removed: $? $(stat -c %F f3)"
  "$1" -a -b --attributes-only sym1 f4
  echo "backup: $? $(stat -c %F f4) $(cat f4~)"
}

@test "xcp -a --attributes-only of a link or FIFO onto a file: refused (File exists), replaced with --remove-destination or -b; as cp" {
  require_cmd timeout
  same_as_cp attributes_only_case
  assert_line "link: 1 regular file 2"
  assert_line "P: cannot create symbolic link 'f1': File exists"
  assert_line "removed: 0 symbolic link"
}
