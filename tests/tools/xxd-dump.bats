#!/usr/bin/env bats
# xxd-dump.bats -- preadv-dump as xxd: its options, pipes and standard
# input, --ranges-from, and the differential fuzz against the installed
# xxd (tests/scripts/xxd-diff).

load test_helper

setup() {
  nc_setup
}

require_xxd() {
  require_cmd xxd python3
}

@test "xxd-diff: 10000 random cases agree with the installed xxd, byte for byte" {
  require_xxd
  # NC_XXD_CASES=N runs N cases instead (a long run); the seed is printed.
  run -0 "$BATS_TEST_DIRNAME/../scripts/xxd-diff" \
    --cases "${NC_XXD_CASES:-10000}" --tool "$NC_BINDIR/preadv-dump"
  assert_output --regexp ", 0 differ$"
}

@test "preadv-dump: standard input as xxd reads it: no FILE, -, a pipe" {
  require_xxd
  printf 'hello, world\n' > f
  run -0 bash -c 'cat f | preadv-dump'
  assert_output "$(xxd f)"
  run -0 bash -c 'cat f | preadv-dump -'
  assert_output "$(xxd f)"
  run -0 bash -c 'preadv-dump < f'
  assert_output "$(xxd f)"
  # More than a chunk through the pipe, -p and -b.
  head -c 3000000 /dev/urandom > big
  run -0 bash -c 'cat big | preadv-dump -p | cmp - <(xxd -p big)'
  run -0 bash -c 'cat big | preadv-dump -b -s 1000 -l 2000000 | cmp - <(xxd -b -s 1000 -l 2000000 big)'
}

@test "preadv-dump: a pipe takes ranges forward only; a range back is a usage error" {
  printf 'abcdefghij' > f
  run -0 bash -c 'cat f | preadv-dump -f raw - 0:2 2:2 8'
  assert_output "abcdij"
  run -2 --separate-stderr bash -c 'cat f | preadv-dump -f raw - 4:2 5:1'
  assert_output ""
  assert_err --partial "range '5:1' starts before the end of range '4:2'"
  run -2 --separate-stderr bash -c 'cat f | preadv-dump -f raw - 4 9:1'
  assert_err --partial "range '9:1' starts before the end of range '4'"
  # Past the end: as for a file.
  run -1 --separate-stderr bash -c 'cat f | preadv-dump -f raw - 8:1 20:1'
  assert_output "i"
  assert_err "preadv-dump: standard input: range '20:1' is past the end of the file (10 bytes)"
  # -s back from the end needs the end; past the end, xxd's complaint.
  run -2 --separate-stderr bash -c 'cat f | preadv-dump -s -2'
  assert_err --partial "-s -2: standard input is a pipe or a terminal, which cannot be read back"
  run -1 --separate-stderr bash -c 'cat f | preadv-dump -s 20'
  assert_err "preadv-dump: -s 20: standard input ends before it (10 bytes)"
}

@test "preadv-dump -s, -l: one range as xxd takes it; the end is no failure" {
  require_xxd
  head -c 1000 /dev/urandom > f
  local args
  for args in '-s 100' '-s +100' '-s -100' '-l 10' '-s 0x10 -l 0x20' \
    '-s 990 -l 100' '-s 2000' '-s 1000' '-l 0'; do
    # shellcheck disable=SC2086 # the words of ARGS
    run -0 preadv-dump $args f
    # shellcheck disable=SC2086 # the words of ARGS
    assert_output "$(xxd $args f)"
  done
  # +SEEK counts from the offset of standard input, as xxd's fseek.
  run -0 bash -c '{ head -c 10 > /dev/null; preadv-dump -s +5 -l 4; } < f'
  assert_output "$(xxd -s 15 -l 4 f)"
  run -1 --separate-stderr preadv-dump -s -2000 f
  assert_err "preadv-dump: -s -2000: before the start of 'f'"
  run -2 --separate-stderr preadv-dump -s 5 f 0:1
  assert_err --partial "-s and -l give the one range to dump"
  run -2 --separate-stderr preadv-dump -s x f
  assert_err --partial "invalid --seek"
}

@test "preadv-dump --ranges-from: a RANGE a line, from a file or standard input" {
  printf '0123456789' > f
  printf '1:2\n\n  5-7 \n9\n' > ranges
  run -0 preadv-dump -f raw --ranges-from=ranges f
  assert_output "12569"
  run -0 preadv-dump -f raw --ranges-from=- f < ranges
  assert_output "12569"
  # After the operands.
  run -0 preadv-dump -f raw --ranges-from=ranges f 0:1
  assert_output "012569"
  printf '1:2\nx\n' > bad
  run -2 --separate-stderr preadv-dump --ranges-from=bad f
  assert_err --partial "invalid range 'x' on line 2 of 'bad'"
  run -2 --separate-stderr preadv-dump --ranges-from=- - < ranges
  assert_err --partial "standard input cannot be both FILE and the file of --ranges-from"
  run -1 --separate-stderr preadv-dump --ranges-from=nonexistent f
  assert_err "preadv-dump: cannot open 'nonexistent': No such file or directory"
}

@test "preadv-dump --ranges-from: 10000 ranges, more than a command line holds" {
  head -c 100000 /dev/urandom > f
  python3 -c 'import random
r = random.Random(1)
for _ in range(10000):
    print("%d:%d" % (r.randrange(100000), r.randrange(1, 50)))' > ranges
  run -0 bash -c 'preadv-dump -f raw --ranges-from=ranges f | md5sum'
  local want
  want=$(python3 -c 'import sys
d = open("f", "rb").read()
out = b"".join(d[int(o):int(o) + int(n)] for o, n in
               (l.split(":") for l in open("ranges")))
sys.stdout.buffer.write(out)' | md5sum)
  assert_output "$want"
}

@test "preadv-dump: the last of -f, -p, -b, -e, -i chooses the format, as in xxd" {
  printf 'AB' > f
  run -0 preadv-dump -p -f xxd f
  assert_output "00000000: 4142                                     AB"
  run -0 preadv-dump -f xxd -p f
  assert_output "4142"
  local bits
  bits="00000000: 01000001 01000010$(printf '%38s' '')AB"
  run -0 preadv-dump -e -b f
  assert_output "$bits"
  run -0 preadv-dump -f plain f
  assert_output "4142"
  run -0 preadv-dump -f bits -u f
  assert_output "$bits"
  run -0 preadv-dump -u -a -a f
  assert_output "00000000: 4142                                     AB"
}

@test "preadv-dump -f c keeps its form; -i is xxd's; -n and -C name both" {
  printf 'AB' > 1f
  run -0 preadv-dump -f c -n my.name -C 1f 0:1
  assert_output "$(printf '%s\n' '/* offset 0 */' 'unsigned char MY_NAME_0[] = {' \
    '  0x41' '};' 'unsigned int MY_NAME_0_LEN = 1;')"
  run -0 preadv-dump -i -u 1f
  assert_output "$(printf '%s\n' 'unsigned char __1f[] = {' '  0X41, 0X42' \
    '};' 'unsigned int __1f_len = 2;')"
  # xxd -i of standard input: the bytes alone.
  run -0 preadv-dump -i < 1f
  assert_output "  0x41, 0x42"
  # Several ranges: numbered names.
  run -0 preadv-dump -i 1f 0:1 1:1
  assert_line -n 0 "unsigned char __1f_0[] = {"
  assert_line -n 4 "unsigned char __1f_1[] = {"
}

@test "preadv-dump -a, -o, -d, -e: as xxd on files of zeros" {
  require_xxd
  local size args
  for size in 0 16 32 48 64 100 4096; do
    head -c "$size" /dev/zero > z
    printf 'x' >> z
    head -c "$size" /dev/zero >> z
    for args in '-a' '-a -c 8' '-a -o 0x100 -d' '-e -a' '-a -p' '-b -a'; do
      # shellcheck disable=SC2086 # the words of ARGS
      diff <(preadv-dump $args z) <(xxd $args z)
    done
  done
}

@test "preadv-dump -e: a group must be a power of 2; -c limits as xxd's" {
  run -2 --separate-stderr preadv-dump -e -g 3 /dev/null
  assert_err --partial "must be a power of 2 with -e"
  run -0 preadv-dump -p -c 1000 /dev/null
  run -0 preadv-dump -i -c 1000 /dev/null
  run -2 --separate-stderr preadv-dump -b -c 257 /dev/null
  assert_err --partial "at most 256"
}

@test "preadv-dump -R: always, never, auto (a terminal), abbreviated; a bad WHEN" {
  printf 'A\0' > f
  run -0 preadv-dump -R always f
  assert_output "00000000: "$'\e[1;32m41\e[0m\e[1;37m00\e[0m'"$(printf '%37s' '')"$'\e[1;32mA\e[0m\e[1;37m.\e[0m'
  run -0 preadv-dump -R al -p f
  assert_output "4100"
  run -0 preadv-dump -R never f
  assert_output "00000000: 4100                                     A."
  run -0 script -qec "env TERM=xterm $NC_BINDIR/preadv-dump -R never f" /dev/null
  refute_output --partial $'\e'
  run -2 --separate-stderr preadv-dump -R sometimes f
  assert_err --partial "invalid argument 'sometimes' for '--color'"
}
