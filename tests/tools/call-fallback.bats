#!/usr/bin/env bats
# call-fallback.bats -- the calls with a fallback, made missing (ENOSYS)
# or refused as by a seccomp filter (EPERM) with strace -e inject:
# renameat2, by which xcp puts a copy over a name, gives way to renameat;
# preadv and pwritev, by which the read/write engine reads and writes at
# an offset, to pread and pwrite.  The copy is then the one made without
# injection, and the trace shows the calls that made it.  Where renameat
# is refused too, nothing replaces a name in one step: the name is left
# as it was, no temporary name stays, and xcp fails, naming renameat2 and
# the Linux it needs; a link refused before the rename keeps its words.

# shellcheck disable=SC2154 # run --separate-stderr sets stderr

load test_helper

setup() {
  nc_setup
  require_strace
  mkdir s
  head -c 70000 /dev/urandom >s/f
  chmod 640 s/f
  ln -s target s/l
  mkdir h
  echo linked >h/a
  ln h/a h/b
  SRC=$BATS_TEST_TMPDIR/s
  LINKS=$BATS_TEST_TMPDIR/h
  TRACE=$BATS_TEST_TMPDIR/trace
  # What xcp runs under: nothing, or enosys-exec's filter.
  WRAP=()
}

# traced CALLS ERR CMD...: run CMD with every call of CALLS (a list with
# commas) failing with ERR, those and its renames, links and positioned
# reads and writes traced to $TRACE (strace shows no call it injects
# into that -e trace leaves out).
traced() {
  local calls=$1 err=$2
  shift 2
  run --separate-stderr strace -f -qq -o "$TRACE" \
    -e "trace=$calls,renameat,linkat,symlinkat,pread64,pwrite64" \
    -e "inject=$calls:error=$err" "$@"
}

# tree_state: each name below the current directory, its type, mode,
# size and link count, and its bytes' checksum or its link's target.
tree_state() {
  local name
  find . -mindepth 1 | LC_ALL=C sort | while read -r name; do
    stat -c '%n %F %a %s %h' -- "$name"
    if [[ -L $name ]]; then
      readlink -- "$name"
    elif [[ -f $name ]]; then
      cksum <"$name"
    fi
  done
}

# no_tmp DIR: no temporary name of xcp is left in DIR.
no_tmp() {
  local left
  left=$(find "$1" -name '.xcp-*')
  [[ -z $left ]] || fail "temporary names left in $1: $left"
}

# as_without ERR PREP XCP-ARG...: in ./ref, the shell command PREP then
# xcp XCP-ARG... (under WRAP); in ./got the same, with renameat2 failing
# with ERR: both succeed quietly and leave the same files, and no
# temporary name.
as_without() {
  local err=$1 prep=$2
  shift 2
  rm -rf ref got
  mkdir ref got
  (cd ref && eval "$prep" && "${WRAP[@]}" xcp "$@") \
    || fail "xcp $* failed untraced"
  cd got || return 1
  eval "$prep"
  traced renameat2 "$err" "${WRAP[@]}" xcp "$@"
  cd "$BATS_TEST_TMPDIR" || return 1
  assert_success
  assert_equal "$stderr" ""
  assert_equal "$(cd got && tree_state)" "$(cd ref && tree_state)"
  no_tmp got
}

# in_trace REGEX: a line of $TRACE matches the extended REGEX.
in_trace() {
  grep -Eq -- "$1" "$TRACE" \
    || fail "no line like '$1' in the trace: $(cat "$TRACE")"
}

# renamed_by_renameat ERR: the trace shows renameat2 failing with ERR and
# renameat making each rename it was asked.
renamed_by_renameat() {
  local asked made
  asked=$(grep -Ec "renameat2\\(.*= -1 $1 .*\\(INJECTED\\)$" "$TRACE")
  made=$(grep -Ec ' renameat\(.*\) = 0$' "$TRACE")
  ((asked > 0)) || fail "no renameat2 in the trace"
  assert_equal "$made" "$asked"
}

# left_whole_by CALLS ERR PREP XCP-ARG...: in ./got, PREP then xcp
# XCP-ARG... (under WRAP) with each call of CALLS failing with ERR: xcp
# fails with status 1, the files are as PREP left them, and no temporary
# name stays.
left_whole_by() {
  local calls=$1 err=$2 prep=$3 before
  shift 3
  rm -rf got
  mkdir got
  cd got || return 1
  eval "$prep"
  before=$(tree_state)
  traced "$calls" "$err" "${WRAP[@]}" xcp "$@"
  assert_failure 1
  assert_equal "$(tree_state)" "$before"
  cd "$BATS_TEST_TMPDIR" || return 1
  no_tmp got
}

# left_whole ERR PREP XCP-ARG...: the same with renameat2 and renameat
# failing.
left_whole() {
  left_whole_by renameat2,renameat "$@"
}

# errno_words ERR: strerror's words for ERR.
errno_words() {
  case $1 in
    ENOSYS) echo "Function not implemented" ;;
    EPERM) echo "Operation not permitted" ;;
  esac
}

# refusal_of ERR: what a failure names for renameat2 failing with ERR.
refusal_of() {
  case $1 in
    ENOSYS) echo "renameat2 is not in this kernel (Linux 3.15 or later)" ;;
    EPERM) echo "renameat2: refused (seccomp?)" ;;
  esac
}

# says_refused ERR MESSAGE PREP XCP-ARG...: left_whole ERR PREP
# XCP-ARG..., its one message MESSAGE, ": ", and refusal_of ERR.
says_refused() {
  local err=$1 msg=$2
  shift 2
  left_whole "$err" "$@"
  assert_equal "$stderr" "xcp: $msg: $(refusal_of "$err")"
}

# What the copies below find at their destination.
OVER='echo old >dst; chmod 600 dst'
BACKUPS='echo old >dst; echo older >dst~'
SPECIAL='mkdir d; echo file >d/l'
LINKED='mkdir d; echo x >d/a; echo y >d/b'

@test "renameat2 missing or refused: a new file is copied as without" {
  local err
  for err in ENOSYS EPERM; do
    as_without "$err" : "$SRC/f" dst
  done
}

@test "renameat2 missing or refused: a copy over a file is renamed by renameat" {
  local err
  for err in ENOSYS EPERM; do
    as_without "$err" "$OVER" "$SRC/f" dst
    renamed_by_renameat "$err"
  done
}

@test "renameat2 missing or refused, no O_TMPFILE: the temporary name renamed by renameat" {
  local err
  WRAP=("${NC_BUILDDIR:-$NC_BINDIR/..}/tests/helpers/enosys-exec"
    o_tmpfile:EOPNOTSUPP)
  require_helper "${WRAP[0]}"
  for err in ENOSYS EPERM; do
    as_without "$err" : "$SRC/f" dst
    renamed_by_renameat "$err"
    as_without "$err" "$OVER" "$SRC/f" dst
    renamed_by_renameat "$err"
    left_whole "$err" : "$SRC/f" dst
    left_whole "$err" "$OVER" "$SRC/f" dst
  done
}

@test "renameat2 missing or refused: --backup's link and the copy renamed by renameat" {
  local err
  for err in ENOSYS EPERM; do
    as_without "$err" "$BACKUPS" --backup "$SRC/f" dst
    renamed_by_renameat "$err"
    assert_equal "$(cat got/dst~)" old
  done
}

@test "renameat2 missing or refused: a symbolic link copied over a file by renameat" {
  local err
  for err in ENOSYS EPERM; do
    as_without "$err" "$SPECIAL" -rP "$SRC/l" d/l
    renamed_by_renameat "$err"
  done
}

@test "renameat2 missing or refused: -s and -l over a file by renameat" {
  local err
  for err in ENOSYS EPERM; do
    as_without "$err" "$OVER" -sf "$SRC/f" dst
    renamed_by_renameat "$err"
    as_without "$err" "$OVER" -lf "$SRC/f" dst
    renamed_by_renameat "$err"
  done
}

@test "renameat2 missing or refused: -a's hard links over files by renameat" {
  local err
  for err in ENOSYS EPERM; do
    as_without "$err" "$LINKED" -aT "$LINKS" d
    renamed_by_renameat "$err"
    [[ got/d/a -ef got/d/b ]] || fail "the hard link was not kept"
  done
}

@test "renameat and renameat2 both refused: the names are left whole" {
  local err
  for err in ENOSYS EPERM; do
    left_whole "$err" "$OVER" "$SRC/f" dst
    left_whole "$err" "$BACKUPS" --backup "$SRC/f" dst
    left_whole "$err" "$OVER" -sf "$SRC/f" dst
    left_whole "$err" "$OVER" -lf "$SRC/f" dst
    left_whole "$err" "$LINKED" -aT "$LINKS" d
  done
}

@test "renameat and renameat2 both refused: the message names renameat2" {
  left_whole ENOSYS "$SPECIAL" -rP "$SRC/l" d/l
  assert_equal "$stderr" "xcp: cannot create symbolic link 'd/l': renameat2 is not in this kernel (Linux 3.15 or later)"
  left_whole EPERM "$SPECIAL" -rP "$SRC/l" d/l
  assert_equal "$stderr" "xcp: cannot create symbolic link 'd/l': renameat2: refused (seccomp?)"
}

@test "renameat and renameat2 both refused: a copy over a file names renameat2" {
  local err
  for err in ENOSYS EPERM; do
    says_refused "$err" "cannot create regular file 'dst'" \
      "$OVER" "$SRC/f" dst
  done
}

@test "renameat and renameat2 both refused, no O_TMPFILE: the copy names renameat2" {
  local err
  WRAP=("${NC_BUILDDIR:-$NC_BINDIR/..}/tests/helpers/enosys-exec"
    o_tmpfile:EOPNOTSUPP)
  require_helper "${WRAP[0]}"
  for err in ENOSYS EPERM; do
    says_refused "$err" "cannot create regular file 'dst'" : "$SRC/f" dst
    says_refused "$err" "cannot create regular file 'dst'" \
      "$OVER" "$SRC/f" dst
  done
}

@test "renameat and renameat2 both refused: --backup names renameat2" {
  local err
  for err in ENOSYS EPERM; do
    says_refused "$err" "cannot backup 'dst'" "$BACKUPS" --backup \
      "$SRC/f" dst
  done
}

@test "renameat and renameat2 both refused: -s and -l over a file name renameat2" {
  local err
  for err in ENOSYS EPERM; do
    says_refused "$err" "cannot create symbolic link 'dst' to '$SRC/f'" \
      "$OVER" -sf "$SRC/f" dst
    says_refused "$err" "cannot create hard link 'dst' to '$SRC/f'" \
      "$OVER" -lf "$SRC/f" dst
  done
}

# The names of one file as operands, in their order: the second is made
# a link to the copy of the first, over what is there.
@test "renameat and renameat2 both refused: -a's hard link over a file names renameat2" {
  local err
  # -u: the destinations are up to date, the second made a link all the
  # same, as cp -u keeps links.
  for err in ENOSYS EPERM; do
    says_refused "$err" "cannot create hard link 'd/b' to 'd/a'" \
      "$LINKED; touch -d tomorrow d/a d/b" -au "$LINKS/a" "$LINKS/b" d
  done
  # Without -u, the first name copied anew: where the link is refused,
  # the copy is too, as in cp; missing, it is copied instead, and the
  # copy's rename is refused.  The link's message names the first
  # name's copy by its path, as cp's does.
  local link="cannot create hard link 'd/b' to 'd/a'"
  local copy="cannot create regular file 'd/b'"
  for err in ENOSYS EPERM; do
    rm -rf got
    mkdir -p got/d
    echo y >got/d/b
    cd got || return 1
    traced renameat2,renameat "$err" xcp -a "$LINKS/a" "$LINKS/b" d
    cd "$BATS_TEST_TMPDIR" || return 1
    assert_failure 1
    assert_equal "$(cat got/d/a got/d/b)" "linked
y"
    no_tmp got
    if [[ $err == EPERM ]]; then
      assert_regex "$stderr" "^xcp: $link: renameat2: refused \\(seccomp\\?\\)\$"
    else
      assert_equal "$stderr" "xcp: $copy: $(refusal_of "$err")"
    fi
  done
}

# In a tree, the copies are named by the paths the user would type,
# as cp names them: whichever of the two names the walk meets first.
@test "renameat and renameat2 both refused: a link's message in a tree names both copies by path" {
  mkdir -p got/e/h
  echo x >got/e/h/a
  echo y >got/e/h/b
  touch -d tomorrow got/e/h/a got/e/h/b
  cd got || return 1
  traced renameat2,renameat EPERM xcp -au "$LINKS" e
  assert_failure 1
  assert_regex "$stderr" \
    "^xcp: cannot create hard link 'e/h/([ab])' to 'e/h/[ab]': renameat2: refused \\(seccomp\\?\\)\$"
  [[ $stderr != *"'e/h/${BASH_REMATCH[1]}' to 'e/h/${BASH_REMATCH[1]}'"* ]] ||
    fail "a link to itself: $stderr"
  assert_equal "$(cat e/h/a e/h/b)" "x
y"
}

@test "renameat and renameat2 both refused, the link refused too: the link's own words" {
  local err
  for err in ENOSYS EPERM; do
    left_whole_by renameat2,renameat,linkat "$err" "$OVER" -lf "$SRC/f" dst
    assert_equal "$stderr" \
      "xcp: cannot create hard link 'dst' to '$SRC/f': $(errno_words "$err")"
    left_whole_by renameat2,renameat,symlinkat "$err" "$OVER" -sf "$SRC/f" \
      dst
    assert_equal "$stderr" \
      "xcp: cannot create symbolic link 'dst' to '$SRC/f': $(errno_words "$err")"
  done
}

# The read/write engine reads or writes at an offset: splice-in's input
# with --offset, splice-out's output with --offset, xcp's with
# --sparse=always.  splice-in writing to an O_APPEND output takes that
# engine from the start; splice-out is brought to it by the failures of
# copy_file_range and splice.

@test "preadv missing or refused: splice-in --offset reads by pread" {
  local err
  printf '0123456789\n' >in
  for err in ENOSYS EPERM; do
    : >out
    traced preadv "$err" sh -c 'splice-in --offset 3 in >>out'
    assert_success
    assert_equal "$stderr" ""
    assert_equal "$(cat out)" 3456789
    in_trace "^[0-9]+ +preadv\\(.*, 3\\) = -1 $err .*\\(INJECTED\\)$"
    in_trace '^[0-9]+ +pread64\([0-9]+, "3456789\\n", [0-9]+, 3\) = 8$'
  done
}

@test "pwritev missing or refused: splice-out --offset writes by pwrite" {
  local err
  printf '0123456789\n' >in
  for err in ENOSYS EPERM; do
    printf abcdefghij >f
    traced copy_file_range,splice,pwritev "$err" \
      sh -c 'splice-out --offset 3 f <in'
    assert_success
    assert_equal "$stderr" ""
    assert_equal "$(cat f)" abc0123456789
    in_trace "^[0-9]+ +pwritev\\(.*, 3\\) = -1 $err .*\\(INJECTED\\)$"
    in_trace '^[0-9]+ +pwrite64\([0-9]+, "0123456789\\n", 11, 3\) = 11$'
  done
}

@test "preadv and pwritev missing or refused: xcp --sparse=always by pread and pwrite" {
  local err
  for err in ENOSYS EPERM; do
    rm -f dst
    traced preadv,pwritev "$err" xcp --sparse=always "$SRC/f" dst
    assert_success
    assert_equal "$stderr" ""
    cmp "$SRC/f" dst
    # Each asked once: the copy goes on with the call that answered.
    assert_equal "$(grep -c ' preadv(' "$TRACE")" 1
    assert_equal "$(grep -c ' pwritev(' "$TRACE")" 1
    in_trace '^[0-9]+ +pread64\([0-9]+, .*, 0\) = 70000$'
    in_trace '^[0-9]+ +pwrite64\([0-9]+, .*, 0\) = [0-9]+$'
  done
}
