#!/usr/bin/env bats
# cli.bats -- the command-line conventions every tool shares.
#
# Each test checks all the tools of NC_TOOLS (test_helper.bash), so that a
# new tool is checked by adding it there.

load test_helper

setup() {
  nc_setup
}

# The version the build was configured with, when the build tree is known.
expected_version() {
  local config="${NC_BUILDDIR:-$NC_BINDIR/..}/config.h"
  [[ -r $config ]] || return 0
  sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$config"
}

@test "--help: exit 0, Usage: on stdout" {
  skip_arch_independent "help text"
  local tool
  for tool in "${NC_TOOLS[@]}"; do
    run --separate-stderr "$tool" --help
    assert_success
    assert_line --index 0 --regexp "^Usage: $tool \\[OPTION\\]\\.\\.\\. [A-Z[]"
    assert_output --partial "--version"
    assert_err ""
    # -h is the same, and so is popt's -? (kept, not shown).
    local help=$output opt
    for opt in -h "-?"; do
      run --separate-stderr "$tool" "$opt"
      assert_success
      assert_output "$help"
    done
    assert_line --regexp '^  -h, --help +show this help and exit$'
    refute_output --partial -- "-?"
  done
}

# longest_line: the width of the longest line of standard input.
longest_line() {
  awk '{ n = length($0); if (n > max) max = n } END { print max + 0 }'
}

@test "--help and --usage: no line wider than 79 columns, whatever COLUMNS" {
  skip_arch_independent "help text"
  local tool opt width
  for tool in "${NC_TOOLS[@]}"; do
    for opt in --help --usage; do
      run --separate-stderr "$tool" "$opt"
      assert_success
      local text=$output
      width=$(printf '%s\n' "$text" | longest_line)
      if (( width > 79 )); then
        fail "$tool $opt: a line of $width columns"
      fi
      # The same text for a script as for a narrow or wide terminal.
      run --separate-stderr env COLUMNS=40 "$tool" "$opt"
      assert_output "$text"
      run --separate-stderr env COLUMNS=200 "$tool" "$opt"
      assert_output "$text"
    done
  done
}

@test "--help: a description paragraph is wrapped between words, filled" {
  skip_arch_independent "help text"
  # xcp's first paragraph is one string of about 680 characters.
  run --separate-stderr xcp --help
  assert_success
  local para
  para=$(printf '%s\n' "$output" | sed -n '/^Copy SRC/,/^$/p')
  # Eight lines or more, none of them short but the last: filled, with
  # no word cut (the joined text reads as written).
  local n
  n=$(printf '%s\n' "$para" | grep -c .)
  (( n >= 8 )) || fail "xcp's description is $n lines"
  run awk 'NF && NR < '"$n"' && length($0) < 60 { print }' <<<"$para"
  assert_output ""
  run tr '\n' ' ' <<<"$para"
  assert_output --partial "Each copy is written to an unnamed temporary file in the destination directory and linked or renamed into place only when complete"
}

@test "--help: the common options worded as the tools' own rows" {
  skip_arch_independent "help text"
  local tool
  for tool in "${NC_TOOLS[@]}"; do
    run --separate-stderr "$tool" --help
    assert_success
    assert_line "Common options:"
    assert_line --regexp '^      --usage +show a short usage message and exit$'
    assert_line --regexp '^  -V, --version +show version information and exit$'
    refute_line "Help options:"
    # No option row starts its description with a capital (an acronym
    # such as CLONE_FS may).
    refute_line --regexp '^ +(-[^ ], )?--?[^ ]* {3,}[A-Z][a-z]'
  done
}

@test "--usage: exit 0, a short Usage: line" {
  skip_arch_independent "help text"
  local tool
  for tool in "${NC_TOOLS[@]}"; do
    run --separate-stderr "$tool" --usage
    assert_success
    assert_line --index 0 --partial "Usage: $tool "
    assert_err ""
  done
}

@test "--version: exit 0, first line '<tool> (newcalls) <version>'" {
  local tool version
  version=$(expected_version)
  for tool in "${NC_TOOLS[@]}"; do
    run --separate-stderr "$tool" --version
    assert_success
    assert_err ""
    assert_line --index 0 --regexp "^$tool \\(newcalls\\) [0-9]+(\\.[0-9]+)+$"
    if [[ -n $version ]]; then
      assert_line --index 0 "$tool (newcalls) $version"
    fi
    local first=${lines[0]}
    run --separate-stderr "$tool" -V
    assert_success
    assert_line --index 0 "$first"
  done
}

# to_full CMD...: CMD with standard output /dev/full.
to_full() {
  "$@" >/dev/full
}

@test "--version and --help >/dev/full: failure, with a message" {
  [[ -c /dev/full ]] || skip "no /dev/full"
  local tool opt
  for tool in "${NC_TOOLS[@]}"; do
    for opt in --version --help; do
      run --separate-stderr to_full "$tool" "$opt"
      assert_failure
      assert_err --partial "$tool: "
      assert_err --partial "No space left on device"
    done
  done
}

@test "unknown option: exit 2, Try '<tool> --help'" {
  local tool
  for tool in "${NC_TOOLS[@]}"; do
    run --separate-stderr "$tool" --no-such-option </dev/null
    assert_failure 2
    assert_output ""
    assert_err --regexp "^$tool: .*--no-such-option"
    assert_err --regexp $'\n'"Try '$tool --help' for more information.\$"
    run --separate-stderr "$tool" -Z </dev/null
    assert_failure 2
    assert_err --partial "Try '$tool --help' for more information."
  done
}

@test "messages name the bare tool, however it was invoked" {
  mkdir sub
  local tool
  for tool in "${NC_TOOLS[@]}"; do
    run --separate-stderr "$NC_BINDIR/$tool" --no-such-option </dev/null
    assert_failure 2
    assert_err --regexp "^$tool: "
    assert_err --partial "Try '$tool --help'"
    # A relative path, with ./ and ..
    (cd sub && ln -s "$NC_BINDIR/$tool" "link-$tool")
    run --separate-stderr "sub/../sub/link-$tool" --no-such-option </dev/null
    assert_failure 2
    assert_err --regexp "^link-$tool: "
    # A runtime error, not only a usage error (unshare-run's COMMAND not
    # found is 127, as in a shell).
    local status=1
    [[ $tool == unshare-run ]] && status=127
    local more=()
    [[ $tool == pwritev-patch ]] && more=("0=00")
    [[ $tool == xcp ]] && more=(dst)
    run "-$status" --separate-stderr "$NC_BINDIR/$tool" sub/missing/file \
      "${more[@]}" </dev/null
    assert_failure "$status"
    assert_err --regexp "^$tool: [^/]*'sub/missing/file': No such file or directory$"
  done
}

# --- numbers (newcalls(7), NUMBERS) -------------------------------------

# offset_read TOOL SPELLING: the offset TOOL reads in SPELLING, printed, or
# TOOL's message on standard error and its status.  In "big", 4096 bytes,
# the readers tell it by what is left to read; the writers make "out"
# that long, or one byte longer.
offset_read() {
  local tool=$1 n=$2 size
  rm -f out
  case $tool in
    splice-in) splice-in --offset="$n" big >out || return
      size=$(stat -c %s out) ;;
    preadv-dump) preadv-dump -f raw big -- "$n" >out || return
      size=$(stat -c %s out) ;;
    splice-out) splice-out --offset="$n" out </dev/null || return
      size=$(stat -c %s out) ;;
    pwritev-patch) touch out && pwritev-patch -e out -- "$n=00" || return
      size=$(($(stat -c %s out) - 1)) ;;
  esac
  case $tool in
    splice-in | preadv-dump) echo $((4096 - size)) ;;
    *) echo "$size" ;;
  esac
}

# The tools that read an offset, and how each names one it refuses.
OFFSET_TOOLS=(splice-in splice-out preadv-dump pwritev-patch)
offset_message() {
  case $1 in
    splice-in | splice-out) echo "$1: invalid --offset '$2': $3" ;;
    preadv-dump) echo "$1: invalid range '$2': $3" ;;
    pwritev-patch) echo "$1: invalid patch '$2=00': $3" ;;
  esac
}

@test "numbers: every tool reads the same spellings as the same value" {
  head -c 4096 /dev/zero >big
  local zeros spelling value tool
  # Leading zeros make no number too long, nor octal.
  zeros=$(printf '0%.0s' {1..130})
  while read -r spelling value; do
    [[ $spelling == ZEROS12 ]] && spelling=${zeros}12
    for tool in "${OFFSET_TOOLS[@]}"; do
      run --separate-stderr offset_read "$tool" "$spelling"
      assert_success
      assert_output "$value"
    done
  done <<'EOF2'
0 0
16 16
0x10 16
0X10 16
0x0a 10
010 10
0x1B 27
0x1e 30
1K 1024
1k 1024
1KiB 1024
1KB 1000
2kB 2000
ZEROS12 12
EOF2
}

# bats test_tags=arch
@test "numbers: every tool refuses the same spellings with the same message" {
  head -c 4096 /dev/zero >big
  local ones spelling message tool
  ones=$(printf '1%.0s' {1..130})
  while IFS='|' read -r spelling message; do
    [[ $spelling == ONES ]] && spelling=$ones
    for tool in "${OFFSET_TOOLS[@]}"; do
      run --separate-stderr offset_read "$tool" "$spelling"
      assert_failure 2
      assert_err "$(offset_message "$tool" "$spelling" "$message")
Try '$tool --help' for more information."
    done
  done <<'EOF2'
|missing offset
-1|negative offset
 1|' ' at position 1 is not a decimal digit
+1|'+' at position 1 is not a decimal digit
1.5|'.' at position 2 is not a decimal digit
0x|no digits after '0x'
0xg|'g' at position 3 is not a hexadecimal digit
0x1G|'G' at position 4 is not a hexadecimal digit (a 0x number takes no unit)
0x1KiB|'K' at position 4 is not a hexadecimal digit (a 0x number takes no unit)
1Q|unknown unit 'Q' at position 2 (units: K, M, G, T, P, E, alone or followed by iB or B)
4KiBx|unknown unit 'KiBx' at position 2 (units: K, M, G, T, P, E, alone or followed by iB or B)
8E|offset too large (at most 9223372036854775807)
9223372036854775808|offset too large (at most 9223372036854775807)
ONES|offset too large (at most 9223372036854775807)
EOF2
}

@test "numbers: a count takes no unit, and its maximum is named" {
  # unshare-run's descriptor, IDs and seconds are counts, not sizes.
  local arg
  for arg in --json-status-fd=1K --setuid=1K; do
    run --separate-stderr unshare-run "$arg" true
    assert_failure 2
    assert_err --regexp "^unshare-run: invalid ${arg%%=*} '1K': 'K' at position 2 is not a decimal digit \\(a [a-zA-Z ]+ takes no unit\\)"
  done
  run --separate-stderr unshare-run --json-status-fd=0x1G true
  assert_failure 2
  assert_err --partial "invalid --json-status-fd '0x1G': 'G' at position 4 is not a hexadecimal digit (a 0x number takes no unit)"
  run --separate-stderr unshare-run --json-status-fd=99999999999999999999999 true
  assert_failure 2
  assert_err --partial "descriptor too large (at most 2147483647)"
  run --separate-stderr preadv-dump --cols=0x101 missing-file
  assert_failure 2
  assert_err --partial "invalid --cols '0x101': number of columns too large (at most 256)"
}

# --- long options abbreviated (newcalls(7), COMMON OPTIONS) ---------------

@test "long options: --vers, a beginning of --version, is --version" {
  local tool
  for tool in "${NC_TOOLS[@]}"; do
    run --separate-stderr "$tool" --version
    assert_success
    local version=$output
    run --separate-stderr "$tool" --vers
    assert_success
    assert_err ""
    assert_output "$version"
  done
}

# same_as WANT COMMAND...: COMMAND succeeds, its standard output WANT.
same_as() {
  local want=$1
  shift
  run --separate-stderr "$@"
  assert_success
  assert_output "$want"
}

@test "long options: each tool's abbreviated options do what the whole ones do" {
  printf 'hello world\n' >f
  mkdir -p src/sub d1 d2
  echo a >src/sub/a
  same_as llo splice-in --off=2 --len 3 f
  same_as llo splice-in --offset=2 --length 3 f
  printf 'abc' | splice-out --app f
  printf 'abc' | splice-out --append f
  run cat f
  assert_output "hello world
abcabc"
  run --separate-stderr preadv-dump --format=raw f 2:3
  same_as "$output" preadv-dump --form=raw f 2:3
  run --separate-stderr pwritev-patch --dry-run f 0=41
  same_as "$output" pwritev-patch --dry f 0=41
  run head -c 1 f
  assert_output h
  run --separate-stderr ppoll-wait --timeout=0 --json /dev/null
  same_as "$output" ppoll-wait --tim=0 --js /dev/null
  same_as / unshare-run --w / pwd
  run --separate-stderr rmtree --dry-run d1
  same_as "$output" rmtree --dry d1
  assert [ -d d1 ]
  # xcp as cp, which reads its abbreviations with getopt_long.
  xcp --recurs src x1
  cp --recurs src c1
  diff -r c1 x1
  run --separate-stderr xcp --verb f d2
  same_as "$output" cp --verb f d2
}

# ambiguous TOOL WORD CANDIDATES: TOOL WORD is a usage error that names
# CANDIDATES.
ambiguous() {
  run --separate-stderr "$1" "$2" </dev/null
  assert_failure 2
  assert_output ""
  assert_err "$1: option '$2' is ambiguous; possibilities: $3
Try '$1 --help' for more information."
}

@test "long options: an ambiguous beginning is a usage error naming the candidates" {
  ambiguous preadv-dump --g "'--groupsize' '--gap'"
  ambiguous pwritev-patch --s "'--sync' '--stats'"
  ambiguous ppoll-wait --s "'--signal' '--status' '--select'"
  ambiguous unshare-run --us "'--user' '--usage'"
  ambiguous rmtree --ver "'--verbose' '--version'"
  ambiguous xcp --ver=x "'--verbose' '--version'"
  # An empty name begins every one, as cp has it too.
  local all="'--offset' '--length' '--pipe-size' '--debug' '--progress' '--rate-limit' '--size' '--help' '--usage' '--version' '--features'"
  ambiguous splice-in --=1 "$all"
  ambiguous splice-out --= "'--append' $all"
}

@test "long options: the ambiguity message is cp's and rm's, status 2" {
  local tool word
  for tool in xcp rmtree; do
    local peer=cp
    [[ $tool == rmtree ]] && peer="rm"
    for word in --ver --ver=1; do
      run --separate-stderr env LC_ALL=C "$peer" "$word"
      # shellcheck disable=SC2154 # run --separate-stderr sets stderr
      local want=${stderr/#$peer:/$tool:}
      want=${want//"'$peer --help'"/"'$tool --help'"}
      run --separate-stderr "$tool" "$word"
      assert_failure 2
      assert_err "$want"
    done
  done
}

@test "long options: a whole name wins over the longer names it begins" {
  # --mount is a name, and the beginning of --mount-proc; --moun is the
  # beginning of both.  An empty FILE names the option taken.
  run --separate-stderr unshare-run --mount= true
  assert_failure 2
  assert_err --regexp "^unshare-run: empty argument after '--mount='"
  run --separate-stderr unshare-run --mount-p= true
  assert_failure 2
  assert_err --regexp "^unshare-run: empty argument after '--mount-proc='"
  ambiguous unshare-run --moun "'--mount' '--mount-proc'"
}

@test "long options: an ambiguous one is reported where the options get to it" {
  # --help before it wins, as in cp; an unknown option before it is
  # reported instead.
  run --separate-stderr cp --help --ver
  assert_success
  run --separate-stderr xcp --help --ver
  assert_success
  assert_line --index 0 --partial "Usage: xcp "
  run --separate-stderr rmtree --vers --ver
  assert_success
  assert_line --index 0 --partial "rmtree (newcalls)"
  run --separate-stderr xcp --no-such-option --ver
  assert_failure 2
  assert_err --regexp "^xcp: --no-such-option: unknown option"
}

@test "long options: an option's argument in a word of its own, and the words after --, are left as they are" {
  printf 'hello world\n' >f
  mkdir -- --recurs
  # As cp: the argument of -t and of --tar(get-directory).
  cp --tar --recurs f
  assert_same f --recurs/f
  rm -- --recurs/f
  xcp -t --recurs f
  assert_same f --recurs/f
  rm -- --recurs/f
  xcp --tar --recurs f
  assert_same f --recurs/f
  # As cp: an operand after --.
  xcp --verb -- f --vers
  assert_same f --vers
  run --separate-stderr rmtree --dry -- --vers
  assert_success
  assert_output --partial "'--vers'"
  assert_file_exists --vers
  run --separate-stderr ppoll-wait --tim --vers /dev/null
  assert_failure 2
  assert_err --regexp "^ppoll-wait: invalid duration '--vers' for --timeout"
  same_as --vers ppoll-wait --tim=0 -q /dev/null -- echo --vers
  run --separate-stderr preadv-dump --form --vers f
  assert_failure 2
  assert_err --regexp "^preadv-dump: invalid argument '--vers' for '--format'"
  run --separate-stderr pwritev-patch --eng --vers f 0=41
  assert_failure 2
  assert_err --regexp "^pwritev-patch: invalid argument '--vers' for '--engine'"
  run --separate-stderr splice-in --off --vers f
  assert_failure 2
  assert_err --regexp "^splice-in: invalid --offset '--vers'"
  run --separate-stderr splice-out --len --vers f </dev/null
  assert_failure 2
  assert_err --regexp "^splice-out: invalid --length '--vers'"
  same_as "$PWD/--recurs" unshare-run --w --recurs pwd
}

@test "long options: unshare-run leaves COMMAND's arguments as they are" {
  same_as "--vers --ver --w" unshare-run --w / echo --vers --ver --w
  same_as "--vers" unshare-run --w=/ -- echo --vers
  same_as "--w" unshare-run --w / -- echo --w
  # --fo(rk) and --ma(p-root-user) are abbreviations only before COMMAND.
  same_as "--fo --ma" unshare-run --w / echo --fo --ma
}

@test "long options: rmtree's --no-preserve-root is written in full, as rm's" {
  mkdir d
  run --separate-stderr env LC_ALL=C rm -r --no-preserve-r d
  assert_failure
  local want=${stderr//rm:/rmtree:}
  [[ $want == "rmtree: you may not abbreviate the --no-preserve-root option" ]]
  run --separate-stderr rmtree --no-preserve-r d
  assert_failure 2
  assert_err "$want
Try 'rmtree --help' for more information."
  assert [ -d d ]
  run --separate-stderr rmtree --no-preserve-root=x d
  assert_failure 2
  assert [ -d d ]
  # In full, or another option abbreviated (--pres(erve-root)), it is
  # taken.
  run --separate-stderr rmtree --pres --no-preserve-root d
  assert_success
  assert_not_exists d
}

@test "long options: POSIXLY_CORRECT ends the options at the first operand, as in cp" {
  printf 'hello world\n' >f
  # shellcheck disable=SC2225 # --reflink is the destination here
  POSIXLY_CORRECT=1 cp f --reflink
  assert_same f --reflink
  rm -- --reflink
  POSIXLY_CORRECT=1 xcp f --reflink
  assert_same f --reflink
  assert_not_exists --reflink=
  run --separate-stderr env POSIXLY_CORRECT=1 xcp --verb f --vers
  assert_success
  assert_output "'f' -> '--vers'"
  assert_same f --vers
}
