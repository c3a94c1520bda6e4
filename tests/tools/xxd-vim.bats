#!/usr/bin/env bats
# xxd-vim.bats -- vim's own tests of xxd (src/testdir/test_xxd.vim),
# replayed on preadv-dump (and on pwritev-patch --from-xxd for xxd -r).
#
# Each test names the vim function and test number it replays; the input
# files and the expected lines are vim's.  Where vim spells an option in
# one of xxd's own long forms with one dash (-seek, -cols, -len, -group,
# -offset, -name, -capitalize), the test takes the short letter: popt
# reads -cols as -c with the argument "ols".
#
# Not replayed, and why:
#   Test_xxd 19, 21      -i -b: C arrays of 0b... digits (xxd 9.1.0732,
#                        newer than the installed xxd); -b -i is -i here
#   Test_xxd 20, 21      -t: a terminating NUL for -i (xxd 9.2.0205)
#   Test_xxd_version     -v: preadv-dump's version is -V (--version)
#   Test_xxd_usage -h    -h is --help here, which prints the help
#   Test_xxd_patch_with_bitdump, Test_xxd_revert_bit_dump,
#   Test_xxd_roundtrip_large_bit_dump
#                        xxd -r -b: pwritev-patch --from-xxd reads the hex
#                        dumps (normal and -p), not the bit dumps
#   Test_xxd_color2      a screen dump of vim's terminal; -R always and
#                        never on standard input are replayed instead
#   Test_xxd_color_outfile_no_color
#                        xxd's second operand, an output file: the second
#                        operand here is a RANGE (redirect instead)
#   Test_xxd_overflow -E EBCDIC characters are not shown here; the rest of
#                        the test is replayed without -E

load test_helper

setup() {
  nc_setup
}

# Skip a test of xxd -r where pwritev-patch does not read xxd dumps.
require_from_xxd() {
  pwritev-patch --help 2>/dev/null | grep -q -e --from-xxd \
    || skip "pwritev-patch --from-xxd is not built"
}

# xxd -r < DUMP > FILE: the file the dump on standard input makes.
reverse_to() {
  : > "$1"
  pwritev-patch --from-xxd "$@"
}

# The file of vim's Test_xxd: the lines 1 to 30.
lines_1_to_30() {
  seq 1 30 > XXDfile
}

EXPECTED_1=(
  '00000000: 310a 320a 330a 340a 350a 360a 370a 380a  1.2.3.4.5.6.7.8.'
  '00000010: 390a 3130 0a31 310a 3132 0a31 330a 3134  9.10.11.12.13.14'
  '00000020: 0a31 350a 3136 0a31 370a 3138 0a31 390a  .15.16.17.18.19.'
  '00000030: 3230 0a32 310a 3232 0a32 330a 3234 0a32  20.21.22.23.24.2'
  '00000040: 350a 3236 0a32 370a 3238 0a32 390a 3330  5.26.27.28.29.30'
  '00000050: 0a                                       .')

@test "Test_xxd 1: a simple dump" {
  lines_1_to_30
  run -0 preadv-dump XXDfile
  assert_output "$(printf '%s\n' "${EXPECTED_1[@]}")"
}

@test "Test_xxd 2: the dump reversed" {
  require_from_xxd
  lines_1_to_30
  preadv-dump XXDfile > dump
  reverse_to out < dump
  cmp out XXDfile
}

@test "Test_xxd 3: skip the first 0x30 bytes" {
  lines_1_to_30
  local arg
  for arg in '-s 0x30' '-s0x30' '-s+0x30' '-s +0x30 --'; do
    # shellcheck disable=SC2086 # the words of ARG
    run -0 preadv-dump $arg XXDfile
    assert_output "$(printf '%s\n' "${EXPECTED_1[@]:3}")"
  done
}

@test "Test_xxd 4: the last 0x31 bytes" {
  lines_1_to_30
  local arg
  for arg in '-s -0x31' '-s-0x31'; do
    # shellcheck disable=SC2086 # the words of ARG
    run -0 preadv-dump $arg XXDfile
    assert_output "$(printf '%s\n' "${EXPECTED_1[@]:2}")"
  done
}

# Bytes 30 to 149 of vim's runtime/doc/xxd.1, after 30 bytes standing for
# the ones that hold the date of the page.
man_copy() {
  local hex=61676520666f7220787864220a2e5c220a2e5c222032317374204d617920
  hex+=313939360a2e5c22204d616e207061676520617574686f723a0a2e5c2220202020
  hex+=546f6e79204e7567656e74203c746f6e79407363746e7567656e2e7070702e6775
  hex+=2e6564752e61753e203c542e4e7567656e74407363742e67
  { head -c 30 /dev/zero; printf '%s' "$hex" | python3 -c \
    'import sys; sys.stdout.buffer.write(bytes.fromhex(sys.stdin.read()))'
  } > Xxd.1
}

@test "Test_xxd 5: 120 bytes as plain hex, 20 a line" {
  man_copy
  run -0 preadv-dump -s 30 -l 120 -ps -c20 Xxd.1
  assert_output "$(printf '%s\n' \
    61676520666f7220787864220a2e5c220a2e5c22 \
    2032317374204d617920313939360a2e5c22204d \
    616e207061676520617574686f723a0a2e5c2220 \
    202020546f6e79204e7567656e74203c746f6e79 \
    407363746e7567656e2e7070702e67752e656475 \
    2e61753e203c542e4e7567656e74407363742e67)"
}

@test "Test_xxd 6: the date of xxd.1" {
  man_copy
  local arg
  for arg in '-l 13' '-l13'; do
    # shellcheck disable=SC2086 # the words of ARG
    run -0 preadv-dump -s 0x33 $arg -c 13 Xxd.1
    assert_output '00000033: 3231 7374 204d 6179 2031 3939 36  21st May 1996'
  done
}

# The file of the C tests: "TESTabcd09\n".
test_abcd() {
  printf 'TESTabcd09\n' > XXDfile
}

c_array() {
  printf '%s\n' "unsigned char $1[] = {" \
    '  0x54, 0x45, 0x53, 0x54, 0x61, 0x62, 0x63, 0x64, 0x30, 0x39, 0x0a' \
    '};' "unsigned int $1_$2 = 11;"
}

@test "Test_xxd 7: a C include" {
  test_abcd
  run -0 preadv-dump -i XXDfile
  assert_output "$(c_array XXDfile len)"
}

@test "Test_xxd 8: a C include, capitalised" {
  test_abcd
  local arg
  for arg in -C --capitalize; do
    run -0 preadv-dump -i "$arg" XXDfile
    assert_output "$(c_array XXDFILE LEN)"
  done
}

@test "Test_xxd 9: a file of one 'A', made by -r -s -0x10000" {
  require_from_xxd
  echo "010000: 41" > dump
  reverse_to XXDfile -s -0x10000 < dump
  run -0 cat XXDfile
  assert_output A
}

@test "Test_xxd 10: groups of 4 bytes" {
  test_abcd
  local arg
  for arg in '-g 4' '-g4' '--groupsize 4'; do
    # shellcheck disable=SC2086 # the words of ARG
    run -0 preadv-dump $arg XXDfile
    assert_output '00000000: 54455354 61626364 30390a             TESTabcd09.'
  done
}

@test "Test_xxd 11: -r -p with CR, upper case hex, a TAB" {
  require_from_xxd
  # vim's string ends at its \0: the line is cut there.
  printf ' 54455354\t610B6364 30390A             TESTa\r\n' > Xinput
  reverse_to XXDfile -p < Xinput
  run -0 od -An -tx1 XXDfile
  assert_output ' 54 45 53 54 61 0b 63 64 30 39 0a'
}

@test "Test_xxd 12: -r with a seek" {
  require_from_xxd
  printf '00000000: 54455354\t610B6364 30390A             TESTa\0x0bcd09.\r\n' > Xinput
  reverse_to XXDfile -s 5 < Xinput
  run -0 od -An -tx1 XXDfile
  assert_output ' 00 00 00 00 00 54 45 53 54 61 0b 63 64 30 39 0a'
}

@test "Test_xxd 13: decimal addresses" {
  lines_1_to_30
  run -0 preadv-dump -d XXDfile
  assert_output "$(printf '%s\n' \
    '00000000: 310a 320a 330a 340a 350a 360a 370a 380a  1.2.3.4.5.6.7.8.' \
    '00000016: 390a 3130 0a31 310a 3132 0a31 330a 3134  9.10.11.12.13.14' \
    '00000032: 0a31 350a 3136 0a31 370a 3138 0a31 390a  .15.16.17.18.19.' \
    '00000048: 3230 0a32 310a 3232 0a32 330a 3234 0a32  20.21.22.23.24.2' \
    '00000064: 350a 3236 0a32 370a 3238 0a32 390a 3330  5.26.27.28.29.30' \
    '00000080: 0a                                       .')"
}

@test "Test_xxd 14: groups of 4 with decimal addresses" {
  lines_1_to_30
  local arg
  for arg in '-g 4' '-g4'; do
    # shellcheck disable=SC2086 # the words of ARG
    run -0 preadv-dump $arg -d XXDfile
    assert_output "$(printf '%s\n' \
      '00000000: 310a320a 330a340a 350a360a 370a380a  1.2.3.4.5.6.7.8.' \
      '00000016: 390a3130 0a31310a 31320a31 330a3134  9.10.11.12.13.14' \
      '00000032: 0a31350a 31360a31 370a3138 0a31390a  .15.16.17.18.19.' \
      '00000048: 32300a32 310a3232 0a32330a 32340a32  20.21.22.23.24.2' \
      '00000064: 350a3236 0a32370a 32380a32 390a3330  5.26.27.28.29.30' \
      '00000080: 0a                                   .')"
  done
}

@test "Test_xxd 15: -c 21 -d" {
  lines_1_to_30
  run -0 preadv-dump -c 21 -d XXDfile
  assert_output "$(printf '%s\n' \
    '00000000: 310a 320a 330a 340a 350a 360a 370a 380a 390a 3130 0a  1.2.3.4.5.6.7.8.9.10.' \
    '00000021: 3131 0a31 320a 3133 0a31 340a 3135 0a31 360a 3137 0a  11.12.13.14.15.16.17.' \
    '00000042: 3138 0a31 390a 3230 0a32 310a 3232 0a32 330a 3234 0a  18.19.20.21.22.23.24.' \
    '00000063: 3235 0a32 360a 3237 0a32 380a 3239 0a33 300a          25.26.27.28.29.30.')"
}

@test "Test_xxd 16: -o" {
  lines_1_to_30
  local arg
  for arg in '-o 15' '-o15' '--offset 15'; do
    # shellcheck disable=SC2086 # the words of ARG
    run -0 preadv-dump $arg XXDfile
    assert_output "$(printf '%s\n' \
      '0000000f: 310a 320a 330a 340a 350a 360a 370a 380a  1.2.3.4.5.6.7.8.' \
      '0000001f: 390a 3130 0a31 310a 3132 0a31 330a 3134  9.10.11.12.13.14' \
      '0000002f: 0a31 350a 3136 0a31 370a 3138 0a31 390a  .15.16.17.18.19.' \
      '0000003f: 3230 0a32 310a 3232 0a32 330a 3234 0a32  20.21.22.23.24.2' \
      '0000004f: 350a 3236 0a32 370a 3238 0a32 390a 3330  5.26.27.28.29.30' \
      '0000005f: 0a                                       .')"
  done
}

@test "Test_xxd 17: a C include with a name of its own, from a file or standard input" {
  test_abcd
  local arg
  for arg in '-nvarName' '-n varName' '--name varName'; do
    # shellcheck disable=SC2086 # the words of ARG
    run -0 preadv-dump -i $arg XXDfile
    assert_output "$(c_array varName len)"
  done
  run -0 preadv-dump -i -n StdIn < XXDfile
  assert_output "$(c_array StdIn len)"
}

@test "Test_xxd 18: a name of its own, capitalised" {
  test_abcd
  local arg
  for arg in -C --capitalize; do
    run -0 preadv-dump -i "$arg" -n varName XXDfile
    assert_output "$(c_array VARNAME LEN)"
  done
}

# patch_rounds: from "::::::::\n", each line of standard input in turn,
# "DUMP|EXPECTED": DUMP (printf %b) patched in by pwritev-patch, then
# what preadv-dump -g1 must print of the file.
patch_rounds() {
  local input expected
  printf '::::::::\n' > Xxxdfile
  while IFS='|' read -r input expected; do
    printf '%b' "$input" > Xxxdin
    pwritev-patch --from-xxd Xxxdfile < Xxxdin
    run -0 preadv-dump -g1 Xxxdfile
    assert_output "$expected"
  done
}

@test "Test_xxd_patch: -r patches a file in place" {
  require_from_xxd
  patch_rounds <<'CASES'
2: 41 41\n8: 42 42\n|00000000: 3a 3a 41 41 3a 3a 3a 3a 42 42                    ::AA::::BB
2: 43 43 \n8: 44 44\n|00000000: 3a 3a 43 43 3a 3a 3a 3a 44 44                    ::CC::::DD
2: 45 45  \n8: 46 46\n|00000000: 3a 3a 45 45 3a 3a 3a 3a 46 46                    ::EE::::FF
CASES
  patch_rounds <<'CASES'
2: 41 41\n08: 42 42\n|00000000: 3a 3a 41 41 3a 3a 3a 3a 42 42                    ::AA::::BB
2: 43 43 \n09: 44 44\n|00000000: 3a 3a 43 43 3a 3a 3a 3a 42 44 44                 ::CC::::BDD
2: 45 45  \n0a: 46 46\n|00000000: 3a 3a 45 45 3a 3a 3a 3a 42 44 46 46              ::EE::::BDFF
CASES
}

@test "Test_xxd_usage: wrong arguments are usage errors" {
  local arg
  for arg in '-c' '-g' '-o' '-s' '-l' '-X' '-R' 'one two three' '----' '---'; do
    # shellcheck disable=SC2086 # the words of ARG
    run -2 --separate-stderr preadv-dump $arg
    assert_output ""
    assert_err --partial "Try 'preadv-dump --help' for more information."
  done
  run -0 preadv-dump -h
  assert_output --partial "Usage: preadv-dump"
}

@test "Test_xxd_end_of_options: a FILE after --" {
  run -1 --separate-stderr preadv-dump -- "random-file-$RANDOM"
  assert_err --regexp "random-file-.*: No such file or directory"
}

@test "Test_xxd_ignore_garbage: -r skips what is not hex" {
  require_from_xxd
  printf '\n\r xxxx 0: 42 42' > dump
  reverse_to out < dump
  run -0 cat out
  assert_output BB
}

@test "Test_xxd_bit_dump: -b" {
  run -0 bash -c 'printf 123456 | preadv-dump -b'
  assert_output '00000000: 00110001 00110010 00110011 00110100 00110101 00110110  123456'
}

@test "Test_xxd_min_cols: a negative number of columns" {
  local cols fmt
  for cols in '-c-1' '-c -1' '--cols -1'; do
    for fmt in '' -b -e -i -p; do
      # shellcheck disable=SC2086 # the words of COLS and FMT
      run -2 --separate-stderr preadv-dump $cols $fmt /dev/null
      assert_err --partial "number of columns"
    done
  done
}

@test "Test_xxd_max_cols: at most 256 columns in the formats of lines" {
  local cols fmt
  for cols in '-c257' '-c 257' '--cols 257'; do
    for fmt in '' -b -e; do
      # shellcheck disable=SC2086 # the words of COLS and FMT
      run -2 --separate-stderr preadv-dump $cols $fmt /dev/null
      assert_err --partial "number of columns too large (at most 256)"
    done
  done
}

@test "Test_xxd_buffer_overflow: 256 columns, colours, a decimal address past 2^63" {
  local a=$'\e[1;32m41\e[0m ' line
  line="9223372036854775808: $(printf "$a%.0s" {1..256}) "$'\e[1;32m'
  line+="$(printf 'A%.0s' {1..256})"$'\e[0m'
  printf 'A%.0s' {1..256} > in
  run -0 preadv-dump -Ralways -g1 -c256 -d -o 9223372036854775808 in
  assert_output "$line"
}

@test "Test_xxd_c0_is_def_cols: -c 0 is the default of the format" {
  echo abcdefghijklmnopqrstuvwxyz0123456789 > Xxdin
  local cols fmt
  for cols in '-c0' '-c 0' '--cols 0'; do
    for fmt in '' -b -e -i; do
      # shellcheck disable=SC2086 # the words of COLS and FMT
      diff <(preadv-dump $fmt Xxdin) <(preadv-dump $cols $fmt Xxdin)
    done
  done
}

@test "Test_xxd_plain_one_line: -ps -c 0 is one line" {
  local cols
  for _ in 1 2 3 4 5 6; do
    echo abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789
  done > Xxdin
  for cols in '-c0' '-c 0' '--cols 0'; do
    # shellcheck disable=SC2086 # the words of COLS
    run -0 preadv-dump -ps $cols Xxdin
    assert_equal "${#lines[@]}" 1
    assert_output --regexp '^[0-9a-f]+$'
  done
}

@test "Test_xxd_little_endian_with_cols: -e with a line of part of a group" {
  echo ABCDEF > Xxdin
  run -0 preadv-dump -e -c6 Xxdin
  assert_line -n 0 '00000000: 44434241     4645  ABCDEF'
  echo ABCDEFGHI > Xxdin
  run -0 preadv-dump -e -c9 Xxdin
  assert_line -n 0 '00000000: 44434241 48474645       49  ABCDEFGHI'
}

# The 256 bytes of Test_xxd_color: 0 to 255, but the apostrophe and the
# backslash, which are 0.
color_bytes() {
  python3 -c 'import sys; b = bytearray(range(256)); b[0x27] = b[0x5c] = 0
sys.stdout.buffer.write(b)' > XXDfile
}

@test "Test_xxd_color 1: -R never" {
  color_bytes
  run -0 preadv-dump -R never XXDfile
  assert_output "$(xxd_like_never)"
}

# What -R never prints of XXDfile: vim's expected lines.
xxd_like_never() {
  local row
  for row in 0 1 2 3 4 5 6 7 8 9 a b c d e f; do
    printf '000000%s0: ' "$row"
    python3 -c '
import sys
row = int(sys.argv[1], 16)
b = bytearray(range(256)); b[0x27] = b[0x5c] = 0
line = b[16 * row:16 * row + 16]
hexes = " ".join(line[i:i + 2].hex() for i in range(0, 16, 2))
text = "".join(chr(c) if 31 < c < 127 else "." for c in line)
print(hexes + "  " + text)' "$row"
  done
}

@test "Test_xxd_color 2: -R always -c 4" {
  color_bytes
  # vim's expected lines where the colour changes within a line.
  local e=$'\e' out
  out=$(preadv-dump -R always -c 4 XXDfile)
  run -0 preadv-dump -R always -c 4 XXDfile
  assert_line -n 0 "00000000: ${e}[1;37m00${e}[0m${e}[1;31m01${e}[0m ${e}[1;31m0203${e}[0m  ${e}[1;37m.${e}[0m${e}[1;31m...${e}[0m"
  assert_line -n 2 "00000008: ${e}[1;31m08${e}[0m${e}[1;33m09${e}[0m ${e}[1;33m0a${e}[0m${e}[1;31m0b${e}[0m  ${e}[1;31m.${e}[0m${e}[1;33m..${e}[0m${e}[1;31m.${e}[0m"
  assert_line -n 3 "0000000c: ${e}[1;31m0c${e}[0m${e}[1;33m0d${e}[0m ${e}[1;31m0e0f${e}[0m  ${e}[1;31m.${e}[0m${e}[1;33m.${e}[0m${e}[1;31m..${e}[0m"
  assert_line -n 8 "00000020: ${e}[1;32m2021${e}[0m ${e}[1;32m2223${e}[0m  ${e}[1;32m !\"#${e}[0m"
  assert_line -n 9 "00000024: ${e}[1;32m2425${e}[0m ${e}[1;32m26${e}[0m${e}[1;37m00${e}[0m  ${e}[1;32m\$%&${e}[0m${e}[1;37m.${e}[0m"
  assert_line -n 23 "0000005c: ${e}[1;37m00${e}[0m${e}[1;32m5d${e}[0m ${e}[1;32m5e5f${e}[0m  ${e}[1;37m.${e}[0m${e}[1;32m]^_${e}[0m"
  assert_line -n 31 "0000007c: ${e}[1;32m7c7d${e}[0m ${e}[1;32m7e${e}[0m${e}[1;31m7f${e}[0m  ${e}[1;32m|}~${e}[0m${e}[1;31m.${e}[0m"
  assert_line -n 32 "00000080: ${e}[1;31m8081${e}[0m ${e}[1;31m8283${e}[0m  ${e}[1;31m....${e}[0m"
  assert_line -n 63 "000000fc: ${e}[1;31mfcfd${e}[0m ${e}[1;31mfe${e}[0m${e}[1;34mff${e}[0m  ${e}[1;31m...${e}[0m${e}[1;34m.${e}[0m"
  # The other lines of vim's have one colour for the hex and the text.
  run -0 grep -c -E "^[0-9a-f]{8}: $e\\[1;3[1-7]m[0-9a-f]{4}$e\\[0m $e\\[1;3[1-7]m[0-9a-f]{4}$e\\[0m  $e\\[1;3[1-7]m.{4}$e\\[0m\$" <<< "$out"
  assert_output 57
  [[ $(wc -l <<< "$out") -eq 64 ]]
}

@test "Test_xxd_color_bits: -b -R always" {
  printf '\0\t\x41\xff' > Xxxdbits
  local e=$'\e'
  run -0 preadv-dump -b -R always -c 4 Xxxdbits
  assert_output "00000000: ${e}[1;37m00000000${e}[0m ${e}[1;33m00001001${e}[0m ${e}[1;32m01000001${e}[0m ${e}[1;34m11111111${e}[0m  ${e}[1;37m.${e}[0m${e}[1;33m.${e}[0m${e}[1;32mA${e}[0m${e}[1;34m.${e}[0m"
}

@test "Test_xxd_overflow: -b -c 128 -g 256 (without -E)" {
  [[ -r /bin/true ]] || skip "no /bin/true"
  run -0 preadv-dump -b -c 128 -g 256 /bin/true
  local n
  for n in 0 1 2 3 4; do
    assert_line -n "$n" --regexp "^$(printf '%08x' $((128 * n))): "
  done
}

@test "Test_xxd_null_dereference: -a -R never" {
  [[ -r /bin/true ]] || skip "no /bin/true"
  run -0 preadv-dump -a -R never /bin/true
  [[ ${#lines[@]} -gt 5 ]]
  local n
  for n in 0 1 2 3 4; do
    assert_line -n "$n" --regexp "^$(printf '%08x' $((16 * n))): "
  done
}

@test "Test_xxd_color_term_dumb, _term_unset: auto: no colours on a dumb terminal, or with NO_COLOR" {
  head -c 100 /dev/zero | tr '\0' A > input
  local env
  for env in 'TERM=dumb' '-u TERM' 'NO_COLOR=1 TERM=xterm'; do
    # shellcheck disable=SC2086 # the words of ENV
    run -0 script -qec "env $env preadv-dump input" /dev/null
    refute_output --partial $'\e'
  done
  run -0 script -qec "env TERM=xterm preadv-dump input" /dev/null
  assert_output --partial $'\e[1;32m'
}

@test "Test_xxd_reverse_long_input: -r of a line of 515 digits" {
  require_from_xxd
  printf '1%.0s' {1..515} > input
  echo >> input
  run reverse_to out < input
  refute_output --partial "runtime error"
}
