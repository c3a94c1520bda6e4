#!/usr/bin/env bats
# xcp-messages.bats -- what a script reads when a copy or a removal
# fails: xcp's and rmtree's message and exit status in each situation a
# script meets, against cp's and rm's.  The cases are a table: the
# words are coreutils 9.5's, and where cp or rm is installed it is run
# on the same case and must give them too (the table is checked, not
# only the tool).  By design a usage error exits 2 where coreutils exits
# 1 (status U below).

load test_helper
load xcp_helper

setup() {
  nc_setup
}

# The table, one case a line: NAME|WHO|SETUP|ARGS|MESSAGE|STATUS[|OLD]
#   WHO: "-" as the test runs; "user" as an unprivileged user (uid 65534
#     when the tests run as root), SETUP too, so that the files are its
#     own: permissions then say what a script's user meets; "other" as
#     uid 65534, SETUP as root (the case is left out when not root).
#   SETUP: shell run in a fresh directory; ARGS: the options and
#     operands, words split as the shell splits them.
#   MESSAGE: standard error, each line's program name as P; \n between
#     lines.  STATUS: the exit status, U for a usage error.
#   OLD: the message of coreutils before 9.5, where it differs: what the
#     peer says if older (9.5 names the source too in "cannot overwrite
#     directory").
XCP_CASES=$(cat <<'EOF'
missing source|-|:|nosrc dst|P: cannot stat 'nosrc': No such file or directory|1
missing source into a directory|-|mkdir d|nosrc d|P: cannot stat 'nosrc': No such file or directory|1
missing source among others|-|mkdir d; touch a|a nosrc d|P: cannot stat 'nosrc': No such file or directory|1
missing source, -r|-|:|-r nosrc dst|P: cannot stat 'nosrc': No such file or directory|1
missing source, a missing directory too|-|:|nosrc nodir/x|P: cannot stat 'nosrc': No such file or directory|1
source through a file|-|touch a|a/ b|P: cannot stat 'a/': Not a directory|1
source a looping link|-|ln -s loop loop|loop x|P: cannot stat 'loop': Too many levels of symbolic links|1
unreadable source|user|touch u; chmod 0 u|u dst|P: cannot open 'u' for reading: Permission denied|1
unreadable file in a tree|user|mkdir s; touch s/x; chmod 0 s/x|-r s dst|P: cannot open 's/x' for reading: Permission denied|1
unreadable directory in a tree|user|mkdir u; touch u/x; chmod 0 u|-r u dst|P: cannot access 'u': Permission denied|1
source in an unsearchable directory|user|mkdir D; touch D/a; chmod 0 D|D/a x|P: cannot stat 'D/a': Permission denied|1
unwritable destination directory|user|touch f; mkdir ro; chmod 555 ro|f ro/|P: cannot create regular file 'ro/f': Permission denied|1
unwritable destination directory, a new name|user|touch f; mkdir ro; chmod 555 ro|f ro/g|P: cannot create regular file 'ro/g': Permission denied|1
unwritable destination directory, -r|user|mkdir s ro; touch s/f; chmod 555 ro|-r s ro|P: cannot create directory 'ro/s': Permission denied|1
another user's file, not writable|other|echo new >f; echo old >g; chmod 644 g|f g|P: cannot create regular file 'g': Permission denied|1
unsearchable destination directory|user|touch f; mkdir ro; chmod 0 ro|f ro/g|P: cannot stat 'ro/g': Permission denied|1
unsearchable target directory|user|touch f; mkdir ro; chmod 0 ro|f ro|P: cannot stat 'ro/f': Permission denied|1
missing destination directory|-|touch f|f nodir/x|P: cannot create regular file 'nodir/x': No such file or directory|1
missing destination directory, -r|-|mkdir s|-r s nodir/x|P: cannot create directory 'nodir/x': No such file or directory|1
missing destination directory, a link|-|ln -s t l|-P l nodir/x|P: cannot create symbolic link 'nodir/x': No such file or directory|1
missing destination directory, a FIFO|-|mkfifo p|-r p nodir/x|P: cannot create fifo 'nodir/x': No such file or directory|1
missing destination directory, a directory without -r|-|mkdir s|s nodir/x|P: -r not specified; omitting directory 's'|1
missing destination directory named DIR/|-|touch f|f nodir/|P: cannot create regular file 'nodir/': Not a directory|1
destination through a file|-|touch f g|f g/x|P: cannot stat 'g/x': Not a directory|1
destination through a file, FILE/|-|touch f g|f g/|P: cannot stat 'g/': Not a directory|1
destination through a looping link|-|touch f; ln -s loop loop|f loop/x|P: cannot stat 'loop/x': Too many levels of symbolic links|1
target not a directory|-|touch a b c|a b c|P: target 'c': Not a directory|1
missing target|-|touch a b|a b nope|P: target 'nope': No such file or directory|1
missing target named DIR/|-|touch a b|a b nope/|P: target 'nope/': No such file or directory|1
-t onto a file|-|touch a c|-t c a|P: target directory 'c': Not a directory|1
-t onto nothing|-|touch a|-t nope a|P: target directory 'nope': No such file or directory|1
-t through an unsearchable directory|user|touch a; mkdir D D/D; chmod 0 D; ln -s D/D sl|-t sl a|P: target directory 'sl': Permission denied|1
destination link into an unsearchable directory|user|touch F; mkdir D D/D; chmod 0 D; ln -s D/D sl|F sl|P: cannot stat 'sl': Permission denied|1
-T: destination link into an unsearchable directory|user|touch F; mkdir D D/D; chmod 0 D; ln -s D/D sl|-T F sl|P: cannot stat 'sl': Permission denied|1
-T onto a directory|-|touch f; mkdir d|-T f d|P: cannot overwrite directory 'd' with non-directory 'f'|1|P: cannot overwrite directory 'd' with non-directory
a file onto a directory|-|touch f; mkdir -p d/f|f d|P: cannot overwrite directory 'd/f' with non-directory 'f'|1|P: cannot overwrite directory 'd/f' with non-directory
a directory onto a file|-|mkdir s x; touch x/s|-r s x|P: cannot overwrite non-directory 'x/s' with directory 's'|1
-rT: a directory onto a file|-|mkdir s; touch x|-rT s x|P: cannot overwrite non-directory 'x' with directory 's'|1
a directory without -r|-|mkdir d|d e|P: -r not specified; omitting directory 'd'|1
a directory without -r among others|-|mkdir d e; touch f|d f e|P: -r not specified; omitting directory 'd'|1
-T: a directory without -r|-|mkdir s d|-T s d|P: -r not specified; omitting directory 's'|1
same file|-|echo a >a|a a|P: 'a' and 'a' are the same file|1
same file, into its directory|-|echo a >a|a .|P: 'a' and './a' are the same file|1
same file, a hard link|-|echo a >a; ln a b|a b|P: 'a' and 'b' are the same file|1
same file, a symbolic link|-|echo a >a; ln -s a b|a b|P: 'a' and 'b' are the same file|1
same directory|-|mkdir d|-r d .|P: 'd' and './d' are the same file|1
a directory into itself|-|mkdir d|-r d d|P: cannot copy a directory, 'd', into itself, 'd/d'|1
a directory into its subdirectory|-|mkdir -p d/e|-r d d/e|P: cannot copy a directory, 'd', into itself, 'd/e/d'|1
-T: a directory into itself|-|mkdir d|-rT d d/x|P: cannot copy a directory, 'd', into itself, 'd/x'|1
a file given twice|-|echo a >a; mkdir d|a a d|P: warning: source file 'a' specified more than once|0
a file given twice, by two paths|-|echo a >a; mkdir d|a ./a d|P: warning: source file './a' specified more than once|0
a directory given twice|-|mkdir s d|-r s s d|P: warning: source directory 's' specified more than once|0
a directory given twice without -r|-|mkdir s d|s s d|P: -r not specified; omitting directory 's'\nP: -r not specified; omitting directory 's'|1
-r: a link to a directory given twice|-|mkdir s d; ln -s s l|-r l l d|P: warning: source file 'l' specified more than once|0
two files of one name|-|mkdir x y d; echo 1 >x/a; echo 2 >y/a|x/a y/a d|P: will not overwrite just-created 'd/a' with 'y/a'|1
a dangling destination link|-|echo a >a; ln -s nowhere l|a l|P: not writing through dangling symlink 'l'|1
-f: a dangling destination link|-|echo a >a; ln -s nowhere l|-f a l|P: not writing through dangling symlink 'l'|1
a looping destination link|-|echo a >a; ln -s loop loop|a loop|P: cannot stat 'loop': Too many levels of symbolic links|1
-f: a looping destination link|-|echo a >a; ln -s loop loop|-f a loop||0
no operand|-|:||P: missing file operand\nTry 'P --help' for more information.|U
no destination|-|touch a|a|P: missing destination file operand after 'a'\nTry 'P --help' for more information.|U
no destination, a missing source|-|:|nosrc|P: missing destination file operand after 'nosrc'\nTry 'P --help' for more information.|U
-T: an extra operand|-|touch a b c|-T a b c|P: extra operand 'c'\nTry 'P --help' for more information.|U
EOF
)

# rmtree's, against rm -r's.
RMTREE_CASES=$(cat <<'EOF'
missing operand|-|:|x|P: cannot remove 'x': No such file or directory|1
-f: missing operand|-|:|-f x||0
missing operand in a missing directory|-|:|x/y|P: cannot remove 'x/y': No such file or directory|1
operand through a file|-|touch f|f/y|P: cannot remove 'f/y': Not a directory|1
NAME/ of a file|-|touch f|f/|P: cannot remove 'f/': Not a directory|1
unwritable directory|user|mkdir -p ro/d; chmod 555 ro|ro/d|P: cannot remove 'ro/d': Permission denied|1
-f: unwritable directory|user|mkdir ro; touch ro/f; chmod 555 ro|-f ro/f|P: cannot remove 'ro/f': Permission denied|1
unwritable directory in the tree|user|mkdir -p d/ro; touch d/ro/f; chmod 555 d/ro|-f d|P: cannot remove 'd/ro/f': Permission denied|1
unreadable directory|user|mkdir -p d/x; chmod 300 d|-f d|P: cannot remove 'd': Permission denied|1
'.'|-|:|.|P: refusing to remove '.' or '..' directory: skipping '.'|1
'..' at the end|-|mkdir d|d/..|P: refusing to remove '.' or '..' directory: skipping 'd/..'|1
'.' with a slash|-|mkdir d|d/./|P: refusing to remove '.' or '..' directory: skipping 'd/./'|1
no operand|-|:||P: missing operand\nTry 'P --help' for more information.|U
EOF
)

# The standard error of a case, each line's program name as P.
normalize() {
  sed -E "s#^[^ :]+: #P: #; s#^Try '[^ ]+ --help'#Try 'P --help'#" "$1"
}

# run_case WHO SETUP ARGS CMD...: in a fresh directory set up by SETUP,
# CMD with ARGS; case_err is its standard error (normalized), case_status
# its exit status.
run_case() {
  local who=$1 setup=$2 args=$3 dir
  shift 3
  local -a as=() words
  dir=$(mktemp -d "$BATS_TEST_TMPDIR/case.XXXXXX")
  chmod 755 "$dir"
  if [[ $who == user && $(id -u) -eq 0 ]]; then
    chown 65534:65534 "$dir"
    as=(as_nobody)
  fi
  (cd "$dir" && "${as[@]}" bash -c "$setup") || fail "setup failed: $setup"
  if [[ $who == other ]]; then
    chmod 777 "$dir"
    as=(as_nobody)
  fi
  eval "words=($args)"
  case_status=0
  (cd "$dir" && "${as[@]}" "$@" "${words[@]}") >/dev/null \
    2>"$dir.err" </dev/null || case_status=$?
  case_err=$(normalize "$dir.err")
}

# check_table TABLE USAGE_STATUS OLD TOOL...: each case of TABLE run with
# TOOL, older than coreutils 9.5 if OLD is 1; the differences from the
# table, one a line, on standard output.
check_table() {
  local table=$1 usage=$2 older=$3 name who setup args msg status old
  shift 3
  while IFS='|' read -r name who setup args msg status old; do
    [[ -n $name ]] || continue
    [[ $who != other || $(id -u) -eq 0 ]] || continue
    [[ $status == U ]] && status=$usage
    [[ $older == 1 && -n $old ]] && msg=$old
    run_case "$who" "$setup" "$args" "$@"
    local want
    want=$(printf '%b' "$msg")
    if [[ $case_err != "$want" || $case_status != "$status" ]]; then
      printf '%s: %s: got [%s] %s, want [%s] %s\n' "$*" "$name" \
        "$case_err" "$case_status" "$want" "$status"
    fi
  done <<<"$table"
}

# 1 if coreutils' TOOL is older than 9.5, else 0.
older_peer() {
  local version
  version=$("$1" --version | sed -n '1s/.* \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
  [[ -n $version ]] || fail "no version from $1"
  local major=${version%.*} minor=${version#*.}
  if ((major < 9 || (major == 9 && minor < 5))); then echo 1; else echo 0; fi
}

# The table's users need uid 65534 to run the tools, when root.
require_users() {
  if [[ $(id -u) -eq 0 ]]; then
    require_nobody
  fi
}

@test "xcp's messages and exit statuses are cp's, case by case" {
  require_users
  local diff
  diff=$(check_table "$XCP_CASES" 2 0 "$NC_BINDIR/xcp")
  [[ -z $diff ]] || fail "$diff"
}

@test "the table of xcp's cases is what cp says" {
  require_users
  command -v cp >/dev/null || skip "no cp"
  local diff cp
  cp=$(command -v cp)
  diff=$(check_table "$XCP_CASES" 1 "$(older_peer "$cp")" "$cp")
  [[ -z $diff ]] || fail "$diff"
}

@test "rmtree's messages and exit statuses are rm -r's, case by case" {
  require_users
  local diff
  diff=$(check_table "$RMTREE_CASES" 2 0 "$NC_BINDIR/rmtree")
  [[ -z $diff ]] || fail "$diff"
}

@test "the table of rmtree's cases is what rm -r says" {
  require_users
  command -v rm >/dev/null || skip "no rm"
  local diff rm
  rm=$(command -v rm)
  diff=$(check_table "$RMTREE_CASES" 1 "$(older_peer "$rm")" "$rm" -r)
  [[ -z $diff ]] || fail "$diff"
}

# in_private_tmpfs SCRIPT: SCRIPT run by bash in a mount namespace of its
# own, in a fresh tmpfs mounted there (never a mount of the machine's).
in_private_tmpfs() {
  require_root
  require_cmd unshare
  unshare -m --propagation private true 2>/dev/null \
    || skip "cannot make a mount namespace"
  mkdir -p ns
  unshare -m --propagation private bash -c '
    mount -t tmpfs -o size=128m nc-msg ns || exit 99
    cd ns || exit 99
    '"$1"
}

# assert_msg TEXT: standard error is TEXT after the program's name.
# shellcheck disable=SC2154 # run --separate-stderr sets stderr
assert_msg() {
  assert_equal "$(sed -E 's#^[^ :]+: #P: #' <<<"$stderr")" "P: $1"
}

# The tools of the peer comparison: xcp, and cp where installed.
copy_tools() {
  echo "$NC_BINDIR/xcp"
  command -v cp || true
}

@test "xcp --preserve=xattr onto a file system without extended attributes fails, as cp; -a and --preserve=all do not" {
  require_cmd setfattr
  local tool
  for tool in $(copy_tools); do
    export XATTR_TOOL=$tool
    # shellcheck disable=SC2016 # for the inner bash.
    run --separate-stderr in_private_tmpfs '
      mkdir noxattr
      mount -t ramfs ramfs noxattr || exit 98
      echo data >a
      setfattr -n user.foo -v bar a || exit 97
      run() { "$XATTR_TOOL" "$@" 2>err; echo "$* $? $(sed "s/^[^ :]*: /P: /" err)"; }
      run -a a noxattr/
      run --preserve=all a noxattr/
      run --preserve=all a noxattr/
      rm noxattr/a
      run -a --preserve=xattr a noxattr/
      cat noxattr/a
      run --preserve=xattr a noxattr/b
      run --preserve=xattr --no-preserve=xattr a noxattr/c
      run --preserve=xattr,mode a noxattr/d
      run -a --preserve=all a noxattr/e
      run --preserve=xattr -a a noxattr/f'
    [[ $status -ne 99 ]] || fail "no tmpfs"
    [[ $status -ne 98 ]] || skip "cannot mount a ramfs"
    [[ $status -ne 97 ]] || skip "tmpfs takes no user.* attribute"
    assert_output - <<'OUT'
-a a noxattr/ 0 
--preserve=all a noxattr/ 0 
--preserve=all a noxattr/ 0 
-a --preserve=xattr a noxattr/ 1 P: setting attributes for 'noxattr/a': Operation not supported
data
--preserve=xattr a noxattr/b 1 P: setting attributes for 'noxattr/b': Operation not supported
--preserve=xattr --no-preserve=xattr a noxattr/c 0 
--preserve=xattr,mode a noxattr/d 1 P: setting attributes for 'noxattr/d': Operation not supported
-a --preserve=all a noxattr/e 0 
--preserve=xattr -a a noxattr/f 1 P: setting attributes for 'noxattr/f': Operation not supported
OUT
  done
}

@test "xcp -f onto a symbolic link that loops replaces the link, as cp -f; without -f it is refused" {
  local tool
  for tool in $(copy_tools); do
    mkdir "$BATS_TEST_TMPDIR/t${tool//\//_}"
    cd "$BATS_TEST_TMPDIR/t${tool//\//_}"
    echo data >f
    ln -s loop loop
    ln -s loop2 loop1
    ln -s loop1 loop2
    run --separate-stderr "$tool" f loop
    assert_failure 1
    assert_link_exist loop
    run --separate-stderr "$tool" -f f loop
    assert_success
    assert_err ""
    [[ -f loop && ! -L loop ]] || fail "$tool: loop is not a regular file"
    assert_equal "$(cat loop)" data
    # A loop of two: the link named is replaced, the other left.
    run --separate-stderr "$tool" -f f loop1
    assert_success
    assert_equal "$(cat loop1)" data
    assert_link_exist loop2
  done
}

@test "xcp: a source given twice is copied once, with cp's warning and status 0" {
  local tool
  for tool in $(copy_tools); do
    rm -rf a s d
    echo a >a
    mkdir -p s/in d
    echo b >s/in/b
    run --separate-stderr "$tool" -v a a d
    assert_success
    assert_output "'a' -> 'd/a'"
    assert_msg "warning: source file 'a' specified more than once"
    assert_same a d/a
    run --separate-stderr "$tool" -r s ./s d
    assert_success
    assert_msg "warning: source directory './s' specified more than once"
    assert_same s/in/b d/s/in/b
  done
}

@test "xcp on a full file system: cp's message and status" {
  local tool
  for tool in $(copy_tools); do
    export FULL_TOOL=$tool
    # shellcheck disable=SC2016 # for the inner bash.
    run --separate-stderr in_private_tmpfs '
      mkdir small && mount -t tmpfs -o size=64k nc-small small || exit 99
      head -c 300000 /dev/zero | tr "\0" x >big
      mkdir s && cp big s/a
      run() { "$FULL_TOOL" "$@" 2>err; echo "$* $? $(sed "s/^[^ :]*: /P: /" err)"; }
      run big small/dst
      rm -f small/dst
      run -r s small/t'
    [[ $status -ne 99 ]] || fail "no small tmpfs"
    assert_output - <<'OUT'
big small/dst 1 P: error writing 'small/dst': No space left on device
-r s small/t 1 P: error writing 'small/t/a': No space left on device
OUT
  done
}

# chroot_with DIR PROGRAM...: DIR a root holding PROGRAM... (as /NAME) and
# the libraries they load.
chroot_with() {
  local root=$1 prog lib
  shift
  mkdir -p "$root"
  for prog in "$@"; do
    cp "$prog" "$root/$(basename "$prog")"
    for lib in $(ldd "$prog" | grep -o '/[^ ]*'); do
      mkdir -p "$root$(dirname "$lib")"
      cp -L "$lib" "$root$lib"
    done
  done
}

# Never the machine's '/': the root is a chroot on a tmpfs of a private
# mount namespace, holding the tools only.
@test "rmtree / is refused before any removal or reading of it, as rm -r /" {
  require_cmd strace ldd chroot
  chroot_with root "$NC_BINDIR/rmtree" "$(command -v rm)"
  # strace() of test_helper is not seen by the inner bash.
  TRACE_ASAN_OPTIONS=$(no_leak_check_options)
  export TRACE_ASAN_OPTIONS
  # shellcheck disable=SC2016 # for the inner bash.
  run --separate-stderr in_private_tmpfs '
    cp -a ../root/. . || exit 99
    mkdir -p proc keep && touch keep/f && mount -t proc proc proc || exit 99
    ASAN_OPTIONS=$TRACE_ASAN_OPTIONS strace -f -o ../trace -e trace=execve,unlinkat,rmdir,getdents64 \
      chroot . /rmtree / 2>err.rmtree
    echo "rmtree $?"
    chroot . /rm -r / 2>err.rm
    echo "rm $?"
    sed "s/^[^ :]*: /P: /" err.rmtree
    sed "s/^[^ :]*: /P: /" err.rm
    test -f keep/f && echo kept'
  [[ $status -ne 99 ]] || fail "no private root"
  assert_output - <<'OUT'
rmtree 1
rm 1
P: it is dangerous to operate recursively on '/'
P: use --no-preserve-root to override this failsafe
P: it is dangerous to operate recursively on '/'
P: use --no-preserve-root to override this failsafe
kept
OUT
  # The trace is of chroot, then of rmtree: "/" is opened (O_PATH or
  # not, to compare it with the root by its descriptor), never listed,
  # nothing removed.
  grep -q 'execve("/rmtree"' trace || fail "no trace of rmtree"
  run grep -E 'unlinkat|rmdir|getdents64' trace
  assert_failure
}
