#!/usr/bin/env bats
# xxd-reverse.bats -- pwritev-patch --from-xxd against the installed
# xxd -r, case by case: the same dump into copies of the same file must
# leave the same bytes, or, where pwritev-patch is stricter (a line that
# drops a lone digit, two lines writing one byte), a usage error and the
# file untouched.
#
# The cases are random, from a seed that a failure prints with the case:
# NC_XXD_CASES (default 1000) clean dumps and NC_XXD_MANGLED (default
# 200) mangled ones; a long run takes more.

load test_helper

setup() {
  nc_setup
  require_cmd xxd
  SEED=${NC_SEED:-$RANDOM}
  RANDOM=$SEED
}

# A random file NAME of up to MAX bytes, with a run of zeros half of the
# time (for xxd -a's "*" lines).
random_file() {
  local name=$1 max=$2 size
  size=$((RANDOM * 32768 + RANDOM))
  size=$((size % (max + 1)))
  head -c "$size" /dev/urandom >"$name"
  if ((RANDOM % 2 && size > 64)); then
    head -c $((RANDOM % size)) /dev/zero \
      | dd of="$name" bs=1 seek=$((RANDOM % size)) conv=notrunc status=none
  fi
}

# one_case DUMP-OPTIONS REVERSE-OPTIONS: the dump of f by xxd with
# DUMP-OPTIONS, read back into copies of base by xxd -r and by
# pwritev-patch --from-xxd with REVERSE-OPTIONS (in xxd's words; -c and
# -s are the same letters in ours).  Sets verdict: same, refused
# (pwritev-patch's usage error, base untouched) or a failure message.
one_case() {
  local dump_opts=$1 rev_opts=$2 st
  # shellcheck disable=SC2086 # word splitting of the option lists
  xxd $dump_opts f >dump
  cp base by-xxd
  cp base by-us
  # shellcheck disable=SC2086
  xxd -r $rev_opts dump by-xxd 2>/dev/null || true
  st=0
  # shellcheck disable=SC2086
  pwritev-patch --from-xxd $rev_opts by-us <dump 2>err || st=$?
  if ((st == 0)) && cmp -s by-xxd by-us; then
    verdict=same
  elif ((st == 2)) && cmp -s base by-us; then
    verdict=refused
  else
    verdict="exit $st: $(cat err) $(cmp by-xxd by-us 2>&1)"
  fi
}

# The options of a random dump: normal or plain, -c, -g, -a; and of its
# reverse: the same -c (or none), -s now and then.
random_options() {
  local cols=$((RANDOM % 40 + 1))
  ((RANDOM % 8)) || cols=$((RANDOM % 256 + 1))
  dump_opts="-c $cols"
  rev_opts=""
  if ((RANDOM % 3 == 0)); then
    dump_opts="-p $dump_opts"
    rev_opts="-p"
  else
    dump_opts+=" -g $((RANDOM % 9))"
    ((RANDOM % 2)) && dump_opts+=" -a"
    # Without -c, xxd -r reads 16 bytes a line: both skip the rest.
    ((RANDOM % 4)) && rev_opts="-c $cols"
  fi
  ((RANDOM % 4)) || rev_opts+=" -s $((RANDOM % 3000))"
}

@test "xxd -r and --from-xxd: random files, normal and plain dumps, random -c, -g, -a, -s" {
  local i n=${NC_XXD_CASES:-1000} same=0 dump_opts rev_opts verdict
  for ((i = 0; i < n; i++)); do
    random_file f 3000
    random_file base 4000
    random_options
    one_case "$dump_opts" "$rev_opts"
    [[ $verdict == same ]] \
      || fail "seed $SEED case $i: xxd $dump_opts, -r $rev_opts: $verdict"
    same=$((same + 1))
  done
  echo "# $same of $n cases the same" >&3
}

@test "preadv-dump's dumps read back: the same bytes as xxd -r of them, the file itself from zeros" {
  local i n=${NC_XXD_CASES:-1000} dump_opts rev_opts verdict
  n=$((n / 5))
  for ((i = 0; i < n; i++)); do
    random_file f 3000
    random_file base 4000
    random_options
    # shellcheck disable=SC2086 # word splitting of the option lists
    preadv-dump $dump_opts f >dump
    cp base by-xxd
    cp base by-us
    # shellcheck disable=SC2086
    xxd -r $rev_opts dump by-xxd 2>/dev/null || true
    # shellcheck disable=SC2086
    pwritev-patch --from-xxd $rev_opts by-us <dump \
      || fail "seed $SEED case $i: preadv-dump $dump_opts, -r $rev_opts"
    cmp -s by-xxd by-us \
      || fail "seed $SEED case $i: preadv-dump $dump_opts, -r $rev_opts:" \
        "$(cmp by-xxd by-us 2>&1)"
    # Into zeros of its size, without -s, the dump gives the file back.
    [[ $rev_opts == *-s* ]] && continue
    head -c "$(stat -c %s f)" /dev/zero >back
    # shellcheck disable=SC2086
    pwritev-patch --from-xxd $rev_opts back <dump
    if [[ $dump_opts != -p* ]] && [[ $rev_opts != *-c* ]]; then
      continue # xxd -r reads 16 bytes a line without -c: the rest is cut
    fi
    cmp f back || fail "seed $SEED case $i: preadv-dump $dump_opts"
  done
}

# mangle FILE: one random change a few times over, of the kinds a
# hand-edited dump has: a character in or out, a line doubled or
# dropped, "\r\n" line ends, a comment.
mangle() {
  local text k pos c
  text=$(<"$1")
  for ((k = RANDOM % 3 + 1; k > 0; k--)); do
    pos=$((RANDOM % (${#text} + 1)))
    case $((RANDOM % 6)) in
      0) c=$(printf '%x' $((RANDOM % 16))) ;;
      1) c=" " ;;
      2) c=$'\n' ;;
      3) c="xz" ;;
      4) c=$'\r' ;;
      5) c=$'\n# a comment\n' ;;
    esac
    if ((RANDOM % 3 == 0)); then
      text=${text:0:pos}${text:pos+1}
    else
      text=${text:0:pos}$c${text:pos}
    fi
  done
  printf '%s\n' "$text" >"$1"
}

# Both tools under a 16 MiB file size limit: a mangled offset can send
# xxd -r far, where it writes zeros up to the place when it cannot seek
# (xxd then dies of SIGXFSZ, pwritev-patch fails with EFBIG and undoes).
limited() {
  ulimit -f 16384
  "$@"
}

# xxd -r REVERSE-OPTIONS dump into a copy of base in a tmpfs, as
# by-xxd (under the same limit).
xxd_on_tmpfs() {
  local shm
  shm=$(mktemp -d /dev/shm/nc-xxd.XXXXXX) || return 1
  cp base "$shm/f"
  # shellcheck disable=SC2086
  (limited xxd -r $1 dump "$shm/f") 2>/dev/null || {
    rm -rf "$shm"
    return 1
  }
  cp "$shm/f" by-xxd
  rm -rf "$shm"
}

@test "xxd -r and --from-xxd: mangled dumps: the same bytes, or refused with nothing written" {
  local i n=${NC_XXD_MANGLED:-200} same=0 refused=0 dump_opts rev_opts st xxd_st
  for ((i = 0; i < n; i++)); do
    random_file f 600
    random_file base 800
    random_options
    # shellcheck disable=SC2086
    xxd $dump_opts f >dump
    mangle dump
    cp base by-xxd
    cp base by-us
    xxd_st=0
    # shellcheck disable=SC2086
    (limited xxd -r $rev_opts dump by-xxd) 2>/dev/null || xxd_st=$?
    st=0
    # shellcheck disable=SC2086
    (limited pwritev-patch --from-xxd $rev_opts by-us <dump) 2>err || st=$?
    if ((st == 0 && xxd_st != 0)); then
      # A line with no byte but an offset past what this file system
      # can seek to (ext4: 16 TiB): xxd -r, failing to seek, writes
      # zeros up to it and dies; pwritev-patch, writing no byte there,
      # goes nowhere.  On a tmpfs xxd -r seeks, and must agree.
      xxd_st=0
      xxd_on_tmpfs "$rev_opts" || xxd_st=$?
    fi
    if ((st == 0 && xxd_st == 0)) && cmp -s by-xxd by-us; then
      same=$((same + 1))
    elif ((st == 2)) && cmp -s base by-us && grep -q "lines\? [0-9]" err; then
      refused=$((refused + 1))
    elif ((st == 1)) && cmp -s base by-us &&
      grep -qE "as it was|nothing written" err; then
      refused=$((refused + 1))
    else
      fail "seed $SEED case $i: xxd $dump_opts, -r $rev_opts, mangled" \
        "dump: $(cat dump); exit $st (xxd $xxd_st): $(cat err)" \
        "$(cmp by-xxd by-us 2>&1)"
    fi
  done
  echo "# $same the same, $refused refused, of $n" >&3
}

@test "--from-xxd: a normal dump's offsets jump forward and back; the bytes between stay" {
  printf 'abcdefghijklmnop' >f
  printf '00000008: 5859  XY\n00000002: 3132  12\n' >dump
  run pwritev-patch --from-xxd f dump
  assert_success
  assert_equal "$(cat f)" "ab12efghXYklmnop"
}

@test "--from-xxd: past the end, FILE grows as under xxd -r; a missing FILE is not created" {
  printf 'ab' >f
  printf '00000004: 5a\n' >dump
  run pwritev-patch --from-xxd f dump
  assert_success
  assert_equal "$(od -An -c f | tr -s ' ')" " a b \\0 \\0 Z"
  run pwritev-patch --from-xxd missing dump
  assert_failure 1
  assert_output --partial "cannot open 'missing'"
  assert_file_not_exists missing
}

@test "--from-xxd: a malformed line is a usage error naming it; nothing written" {
  printf 'abcdef' >f
  printf '00000000: 4142\n00000002: 43 4\n' >dump
  run pwritev-patch --from-xxd f <dump
  assert_failure 2
  assert_output --partial "standard input: line 2: a lone hex digit"
  assert_equal "$(cat f)" abcdef
  printf '00000000: 4142\n# no hex\n00000001: 43\n' >dump
  run pwritev-patch --from-xxd f dump
  assert_failure 2
  assert_output --partial "'dump': lines 1 and 3 both write the byte at 1"
  printf '00000000: 41\n' >dump
  run pwritev-patch --from-xxd -s -1 f dump
  assert_failure 2
  assert_output --partial "line 1: the offset is negative after -s"
  printf '4142 4' >dump
  run pwritev-patch --from-xxd -p f dump
  assert_failure 2
  assert_output --partial "line 1: an odd number of hex digits"
  assert_equal "$(cat f)" abcdef
}

@test "--from-xxd: lines xxd -r skips are skipped: no digit, '*', blank, CRLF" {
  printf 'abcdef' >f
  printf '\n*\r\n   ::\n00000001: 5859\r\n' >dump
  run pwritev-patch --from-xxd f dump
  assert_success
  assert_equal "$(cat f)" aXYdef
}

@test "--from-xxd -p: digits pair across spaces and lines; -s places them" {
  printf '0123456789' >f
  printf '4\n1 42\n43' | pwritev-patch --from-xxd -p -s +3 f
  assert_equal "$(cat f)" 012ABC6789
}

@test "--from-xxd --dry-run: before and after, nothing written" {
  printf 'abcdef' >f
  run pwritev-patch --from-xxd --dry-run f <<<'00000002: 5859'
  assert_success
  assert_line "patch 'line 1': 2 bytes at 2 (0x2)"
  assert_line --regexp '^- 00000002: 6364 +cd$'
  assert_line --regexp '^\+ 00000002: 5859 +XY$'
  assert_equal "$(cat f)" abcdef
}

@test "--from-xxd: one pwritev for a whole dump" {
  require_strace
  make_random f 100000
  make_random g 100000
  xxd g >dump
  strace -f -o log -e trace=pwritev,pwritev2 \
    "$NC_BINDIR/pwritev-patch" --engine=pwritev --from-xxd f dump
  assert_same g f
  assert_equal "$(strace_count log pwritev)" 1
}

@test "-p, -c and -s without --from-xxd, DUMP and a patch: usage errors" {
  printf 'ab' >f
  run pwritev-patch -p f 0=41
  assert_failure 2
  assert_output --partial "--from-xxd is missing"
  run pwritev-patch --from-xxd f dump 0=41
  assert_failure 2
  assert_output --partial "extra operand '0=41'"
  run pwritev-patch --from-xxd -c 257 f
  assert_failure 2
}

# python3 -c NONBLOCK_EXEC COMMAND...: COMMAND run with its standard
# input, the read end of a pipe, made O_NONBLOCK (a flag of the pipe's
# open file description, which only this end shares).
NONBLOCK_EXEC='import fcntl, os, sys
fcntl.fcntl(0, fcntl.F_SETFL, fcntl.fcntl(0, fcntl.F_GETFL) | os.O_NONBLOCK)
os.execvp(sys.argv[1], sys.argv[1:])'

# python3 -c DRIP_FEED FILE...: each FILE written to standard output, a
# pipe, 0.3 s after the reader has drained what came before (FIONREAD
# 0): its reads in between find the pipe empty, however slowly it
# started.
DRIP_FEED='import fcntl, sys, termios, time
for name in sys.argv[1:]:
    while int.from_bytes(fcntl.ioctl(1, termios.FIONREAD, bytes(4)),
                         sys.byteorder):
        time.sleep(0.01)
    time.sleep(0.3)
    with open(name, "rb") as f:
        sys.stdout.buffer.write(f.read())
    sys.stdout.buffer.flush()'

# The dump of two patches of abcdef, in two pieces for DRIP_FEED.
two_piece_dump() {
  printf '00000001: 5859\n' >dump1
  printf '00000004: 5a\n' >dump2
  printf 'abcdef' >f
}

@test "--from-xxd from a non-blocking pipe: waits for a slow writer" {
  require_cmd python3
  two_piece_dump
  python3 -c "$DRIP_FEED" dump1 dump2 \
    | python3 -c "$NONBLOCK_EXEC" pwritev-patch --from-xxd f 2>err
  assert_equal "$(cat err)" ""
  assert_equal "$(cat f)" aXYdZf
}

@test "--from-xxd from a non-blocking pipe: the wait is ppoll's" {
  require_strace
  require_cmd python3
  two_piece_dump
  python3 -c "$DRIP_FEED" dump1 dump2 \
    | strace -f -o log -e trace=ppoll,read \
      python3 -c "$NONBLOCK_EXEC" pwritev-patch --from-xxd f
  assert_equal "$(cat f)" aXYdZf
  run grep -c '^[0-9]* *read(0, .*= -1 EAGAIN' log
  assert_success
  run grep -c '^[0-9]* *ppoll(\[{fd=0, events=POLLIN}\], 1, NULL' log
  assert_success
}

@test "preadv-dump | pwritev-patch --from-xxd, each from a non-blocking pipe" {
  require_cmd python3
  make_random g 5000
  head -c 5000 /dev/zero >f
  head -c 3000 g >g1
  tail -c +3001 g >g2
  python3 -c "$DRIP_FEED" g1 g2 \
    | python3 -c "$NONBLOCK_EXEC" preadv-dump 2>err \
    | python3 -c "$NONBLOCK_EXEC" pwritev-patch --from-xxd f 2>>err
  assert_equal "$(cat err)" ""
  assert_same g f
}
