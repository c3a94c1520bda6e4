#!/usr/bin/env bats
# preadv.bats -- preadv-dump and pwritev-patch, from the outside.
#
# Dumps are checked byte for byte against xxd, dd, tail and python3
# references; which system calls did the I/O is checked with strace and
# with --stats.  Random inputs come from a seed that failures print.

load test_helper

MIB=$((1024 * 1024))

# NC_ENGINE=uring (or preadv, auto) runs the whole file with that engine:
# each preadv-dump and pwritev-patch a test runs takes --engine=$NC_ENGINE
# first, preadv being pwritev for pwritev-patch (tests/scripts/run-bats
# runs the file a second time with uring), unless the test names an engine
# itself (popt keeps no more than the last of a repeated option, and leaks
# the others' strings, which a sanitizer build reports).  A tool run by
# another program (strace, timeout, bash -c) is the plain one.
preadv-dump() {
  local opt
  opt=$(engine_option preadv "$@")
  command preadv-dump ${opt:+"$opt"} "$@"
}
pwritev-patch() {
  local opt
  opt=$(engine_option pwritev "$@")
  command pwritev-patch ${opt:+"$opt"} "$@"
}
# engine_option PREADV-NAME ARG...: --engine=$NC_ENGINE (preadv spelled
# PREADV-NAME), or nothing when NC_ENGINE is unset or an ARG names one.
engine_option() {
  local engine=${NC_ENGINE-} preadv_name=$1 arg
  shift
  for arg; do
    [[ $arg != --engine=* ]] || return 0
  done
  [[ $engine != preadv ]] || engine=$preadv_name
  [[ -z $engine ]] || printf '%s\n' "--engine=$engine"
}

# skip_counts_of_uring: a test of the calls of the preadv engine (--stats
# counts) ends here when the file runs with NC_ENGINE=uring.
skip_counts_of_uring() {
  if [[ ${NC_ENGINE-} == uring ]]; then
    skip "NC_ENGINE=uring: the counts are those of the preadv engine"
  fi
}

setup() {
  nc_setup
  require_cmd python3
  SEED=${NC_SEED:-$RANDOM}
}

teardown() {
  if [[ -n ${LOOPDEV:-} ]]; then
    losetup -d "$LOOPDEV"
  fi
  # The pwritev-patch ENOSPC test mounts a small tmpfs here.
  if [[ -d $BATS_TEST_TMPDIR/mnt ]] && mountpoint -q "$BATS_TEST_TMPDIR/mnt"
  then
    umount "$BATS_TEST_TMPDIR/mnt"
  fi
}

# gen_ranges COUNT FILE_SIZE [MAXLEN]: COUNT random ranges of a file of
# FILE_SIZE bytes into ranges.txt, one "OPERAND OFFSET LENGTH" a line
# (LENGTH empty: to the end), in every syntax preadv-dump takes; some
# overlap, some touch, some are empty.  All stay within the file.
gen_ranges() {
  python3 - "$SEED" "$1" "$2" "${3:-4096}" >ranges.txt <<'PY'
import random, sys
seed, count, size, maxlen = map(int, sys.argv[1:])
rnd = random.Random(seed)
prev = (0, 1)
for i in range(count):
    kind = rnd.randrange(10)
    if kind == 0:                       # touching the previous one
        off, n = prev[0] + prev[1], rnd.randrange(1, 64)
    elif kind == 1:                     # overlapping the previous one
        off, n = prev[0] + prev[1] // 2, rnd.randrange(1, 2 * maxlen)
    else:
        off, n = rnd.randrange(size), rnd.randrange(maxlen + 1)
    off = min(off, size - 1)
    n = min(n, size - off)
    prev = (off, n)
    form = rnd.randrange(6)
    if form == 0:
        op = "%d:%d" % (off, n)
    elif form == 1:
        op = "%#x:%#x" % (off, n)
    elif form == 2:
        op = "%d-%d" % (off, off + n)
    elif form == 3:
        op = "%#x-%d" % (off, off + n)
    elif form == 4 and off % 1024 == 0 and n % 1024 == 0:
        op = "%dK:%dK" % (off // 1024, n // 1024)
    elif form == 5:                     # to the end, near it
        off = size - rnd.randrange(1, maxlen + 1)
        print("%d %d " % (off, off))
        prev = (off, size - off)
        continue
    else:
        op = "%d:%d" % (off, n)
    print(op, off, n)
PY
  mapfile -t OPS < <(cut -d' ' -f1 ranges.txt)
}

# The reference dumps of ranges.txt: xxd_expected FILE [XXD OPTION...],
# raw_expected FILE.
xxd_expected() {
  local f=$1 op off len
  shift
  while read -r op off len; do
    if [[ -n $len ]]; then
      xxd "$@" -s "$off" -l "$len" "$f"
    else
      xxd "$@" -s "$off" "$f"
    fi
  done <ranges.txt
}

raw_expected() {
  python3 - "$1" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
out = sys.stdout.buffer
for line in open("ranges.txt"):
    _, off, n = (line.rstrip("\n").split(" ") + [""])[:3]
    off = int(off)
    out.write(data[off:off + int(n)] if n else data[off:])
PY
}

# calls_in_stats: the call count of the --stats line in $stderr.
calls_in_stats() {
  # shellcheck disable=SC2154 # stderr is set by run --separate-stderr.
  sed -n 's/.* \([0-9][0-9]*\) preadv2\{0,1\} calls\{0,1\},.*/\1/p' \
    <<<"$stderr"
}

# --- preadv-dump: the bytes -------------------------------------------

@test "preadv-dump: random ranges, xxd format equals xxd -s -l" {
  make_random f $MIB
  gen_ranges 300 $MIB
  xxd_expected f >expected
  run --separate-stderr stdout_to out preadv-dump f "${OPS[@]}"
  assert_success
  assert_err ""
  assert_same expected out || fail "seed $SEED"
}

@test "preadv-dump: -c and -g as in xxd" {
  make_random f 70000
  gen_ranges 12 70000 700
  local c g pairs=()
  for c in 1 5 7 16 32 256; do
    for g in 0 1 2 3 4 8 40; do
      pairs+=("$c $g")
    done
  done
  # Under qemu, formatting is the same C code as natively: each -c and
  # each -g once, not the 42 pairs.
  if [[ -n ${NC_QEMU-} ]]; then
    pairs=("1 0" "5 1" "7 2" "16 3" "32 4" "256 8" "16 40")
  fi
  for c in "${pairs[@]}"; do
    g=${c#* } c=${c% *}
    xxd_expected f -c "$c" -g "$g" >expected
    preadv-dump -c "$c" -g "$g" f "${OPS[@]}" >out
    assert_same expected out || fail "-c $c -g $g, seed $SEED"
  done
  # -c 0 is the default, as in xxd.
  xxd_expected f >expected
  preadv-dump -c 0 f "${OPS[@]}" >out
  assert_same expected out
}

# bats test_tags=arch
@test "preadv-dump: 5000 random ranges, raw format equals a python3 reference" {
  make_random f $MIB
  gen_ranges 5000 $MIB 300
  raw_expected f >expected
  run --separate-stderr stdout_to out preadv-dump --stats -f raw f "${OPS[@]}"
  assert_success
  assert_same expected out || fail "seed $SEED"
  skip_counts_of_uring
  # Merged and batched: far fewer calls than ranges.
  local calls
  calls=$(calls_in_stats)
  [[ -n $calls ]] || fail "no call count in: $stderr"
  ((calls >= 1 && calls <= 50)) || fail "$calls calls for 5000 ranges"
}

@test "preadv-dump: raw format equals dd and tail -c extracts" {
  make_random f 100000
  local off len
  for off in 0 1 4095 4096 65537 99999; do
    for len in 0 1 4096 5000; do
      ((off + len <= 100000)) || continue
      dd if=f of=expected iflag=skip_bytes,count_bytes skip="$off" \
        count="$len" status=none
      preadv-dump -f raw f "$off:$len" >out
      assert_same expected out
    done
    tail -c +$((off + 1)) f >expected
    preadv-dump -f raw f "$off" >out
    assert_same expected out
  done
}

# bats test_tags=arch
@test "preadv-dump: every range syntax gives the same bytes" {
  make_random f 10000
  dd if=f of=expected iflag=skip_bytes,count_bytes skip=4096 count=1024 \
    status=none
  local op
  for op in 4096:1024 0x1000:0x400 4K:1K 4096-5120 0x1000-5K 4KiB:1KiB \
    0X1000:1024; do
    preadv-dump -f raw f "$op" >out
    assert_same expected out || fail "range $op"
  done
  # 1KB is 1000 bytes.
  preadv-dump -f raw f 0:1KB >out
  assert_size out 1000
}

# bats test_tags=arch
@test "preadv-dump: no range dumps the whole file, as xxd does" {
  make_random f 100003
  xxd f >expected
  preadv-dump f >out
  assert_same expected out
  : >empty
  run --separate-stderr preadv-dump empty
  assert_success
  assert_output ""
  assert_err ""
}

@test "preadv-dump: ranges are printed in the order given, repeats too" {
  printf 'abcdefghijklmnopqrstuvwxyz' >f
  run preadv-dump -f raw f 20:3 0:2 20:3 1-4 25 10:0 24:2
  assert_success
  assert_output "uvwabuvwbcdzyz"
}

@test "preadv-dump: ranges longer than a batch are streamed, in order" {
  make_random f $((20 * MIB))
  # Ranges over 8 MiB are streamed, the small ones between them batched;
  # the 8 MiB ones fill more than one batch of 64 MiB.
  local i ops
  {
    echo "0:12M 0 $((12 * MIB))"
    echo "5:10 5 10"
    echo "1M $MIB "
    echo "100:12M 100 $((12 * MIB))"
    echo "7-8 7 1"
    for i in 1 2 3 4 5 6 7 8 9; do
      echo "${i}M:8M $((i * MIB)) $((8 * MIB))"
    done
  } >ranges.txt
  mapfile -t ops < <(cut -d' ' -f1 ranges.txt)
  raw_expected f >expected
  preadv-dump -f raw f "${ops[@]}" >out
  assert_same expected out
  # The whole file through the xxd formatter, against xxd.
  xxd f >expected
  preadv-dump f >out
  assert_same expected out
}

@test "preadv-dump: -f c is xxd -i for each range" {
  make_random f.bin 1000
  xxd -i f.bin | sed 's/f_bin/f_bin_0/' >expected
  preadv-dump -f c f.bin 0 >out
  assert_equal "$(head -n 1 out)" "/* offset 0 */"
  tail -n +2 out >out.c
  assert_same expected out.c
  head -c 300 f.bin | tail -c 100 >part.bin
  xxd -i -c 5 part.bin | sed 's/part_bin/f_bin_1/' >expected
  preadv-dump -f c -c 5 f.bin 0:0 200:100 >out
  sed -n '/^unsigned char f_bin_1/,$p' out >out.c
  assert_same expected out.c
  # An empty range, as xxd -i shows an empty file.
  : >empty.bin
  xxd -i empty.bin | sed 's/empty_bin/f_bin_0/' >expected
  preadv-dump -f c f.bin 10:0 | tail -n +2 >out.c
  assert_same expected out.c
}

@test "preadv-dump: -f json has offset, length and base64 data" {
  make_random f $MIB
  gen_ranges 200 $MIB
  preadv-dump -f json f "${OPS[@]}" >out.json
  run python3 - <<'PY'
import base64, json
data = open("f", "rb").read()
objs = json.load(open("out.json"))
lines = open("ranges.txt").read().splitlines()
assert len(objs) == len(lines), (len(objs), len(lines))
for o, line in zip(objs, lines):
    _, off, n = (line.split(" ") + [""])[:3]
    off = int(off)
    want = data[off:off + int(n)] if n else data[off:]
    assert o["offset"] == off, (o["offset"], off)
    assert o["length"] == len(want), (o["length"], len(want))
    assert base64.b64decode(o["data"]) == want, line
print("ok")
PY
  assert_success
  assert_output "ok"
  run preadv-dump -f json f 0:0
  assert_output $'[\n{"offset": 0, "data": "", "length": 0}\n]'
}

@test "preadv-dump: a /proc file, whose size shows as 0" {
  [[ -r /proc/version ]] || skip "no /proc/version"
  cat /proc/version >expected
  preadv-dump -f raw /proc/version >out
  assert_same expected out
  head -c 5 /proc/version >expected
  preadv-dump -f raw /proc/version 0:5 >out
  assert_same expected out
}

# --- preadv-dump: the calls -------------------------------------------

@test "strace: preadv with several iovecs, no lseek or read of the data" {
  require_strace
  make_random f 200000
  preadv-dump -f raw f 0:4 100:4 3000:10 3500:1 150000:7 >expected
  strace -f -e trace=openat,preadv,preadv2,lseek,read -o log \
    preadv-dump --stats -f raw f 0:4 100:4 3000:10 3500:1 150000:7 \
    >out 2>err
  assert_same expected out
  # The descriptor of f, and what was done with it once open.
  local fd
  fd=$(sed -nE 's/^([0-9]+ +)?openat\(AT_FDCWD, "f", .*\) = ([0-9]+)$/\2/p' log)
  [[ -n $fd ]] || fail "f not opened: $(cat log)"
  sed -n '/openat(AT_FDCWD, "f"/,$p' log >after
  # Four spans within 4 KiB of one another: one call, 7 iovecs (4 spans
  # and 3 gaps); the span at 150000 is a call of its own.
  local counts
  counts=$(sed -nE 's/^([0-9]+ +)?preadv\(.*\], ([0-9]+), [0-9]+\) += [0-9]+$/\2/p' \
    log | tr '\n' ' ')
  assert_equal "$counts" "7 1 "
  assert_equal "$(strace_count log preadv)" 2
  grep -q "2 preadv calls" err || fail "--stats: $(cat err)"
  grep -qE "^([0-9]+ +)?preadv\($fd, " after || fail "no preadv on $fd"
  if grep -E "^([0-9]+ +)?(lseek|read)\($fd," after; then
    fail "lseek or read on the file"
  fi
}

# bats test_tags=arch
@test "preadv-dump: the offset of an inherited descriptor does not move" {
  printf 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' >f
  # (bats owns descriptor 3: take a free one.)
  local x fd
  exec {fd}<f
  read -r -N 2 -u "$fd" x
  preadv-dump -f raw "/dev/fd/$fd" 10:3 >out
  read -r -N 4 -u "$fd" x
  exec {fd}<&-
  assert_equal "$(cat out)" "KLM"
  assert_equal "$x" "CDEF"
  # Standard input is the very descriptor of the shell: preadv leaves its
  # offset alone, so head reads on from where the shell left it.
  { head -c 3 >/dev/null; preadv-dump -f raw - 20:3 5:1; head -c 2; } <f >out
  assert_equal "$(cat out)" "UVWFDE"
}

@test "preadv-dump: --gap 0 reads each span by a call of its own" {
  skip_counts_of_uring
  make_random f 100000
  run --separate-stderr preadv-dump --stats -f raw f 0:4 10:4 20:4 30:4
  assert_equal "$(calls_in_stats)" 1
  run --separate-stderr preadv-dump --stats --gap 0 -f raw f 0:4 10:4 20:4 30:4
  assert_equal "$(calls_in_stats)" 4
  # Overlapping and touching ranges are one span, read once.
  run --separate-stderr preadv-dump --stats --gap 0 -f raw f 0:4 2:8 10:4 0:1
  assert_equal "$(calls_in_stats)" 1
  assert_err --partial "14 bytes read"
  # Gaps wider than --gap split the calls.
  run --separate-stderr preadv-dump --stats --gap 100 -f raw f 0:4 50:4 5000:4
  assert_equal "$(calls_in_stats)" 2
}

# bats test_tags=arch
@test "preadv-dump: more spans than IOV_MAX take more calls" {
  make_random f $MIB
  local i ops=()
  for ((i = 0; i < 3000; i++)); do
    ops+=("$((i * 300)):3")
  done
  run --separate-stderr stdout_to out preadv-dump --stats -f raw f "${ops[@]}"
  assert_success
  assert_size out 9000
  skip_counts_of_uring
  # 3000 spans and 2999 gaps: 1024 iovecs a call at most.
  local calls
  calls=$(calls_in_stats)
  ((calls >= 6 && calls <= 8)) || fail "$calls calls: $stderr"
}

# --- preadv-dump: the end of the file ---------------------------------

# bats test_tags=arch
@test "preadv-dump: ranges cut short by the end: what exists, one warning, exit 0" {
  make_random f 1000
  xxd -s 990 -l 100 f >expected
  xxd -s 500 -l 10 f >>expected
  xxd -s 999 -l 5 f >>expected
  run --separate-stderr stdout_to out preadv-dump f 990:100 500:10 999:5
  assert_success
  assert_same expected out
  assert_err "preadv-dump: warning: 'f': 2 ranges cut short by the end of the file (1000 bytes)"
}

# bats test_tags=arch
@test "preadv-dump: ranges past the end: a message each, the others dumped, exit 1" {
  make_random f 1000
  xxd -s 10 -l 10 f >expected
  run --separate-stderr stdout_to out preadv-dump f 1000:1 10:10 5000-5001
  assert_failure 1
  assert_same expected out
  assert_err --partial "preadv-dump: 'f': range '1000:1' is past the end of the file (1000 bytes)"
  assert_err --partial "range '5000-5001' is past the end"
  # At the very end, an empty range or one to the end is no error.
  run --separate-stderr preadv-dump f 1000 1000:0
  assert_success
  assert_output ""
  assert_err ""
}

# bats test_tags=arch
@test "preadv-dump: a range beyond 4 GiB of a sparse file" {
  local size=$((5 * 1024 * MIB)) marker=$((4 * 1024 * MIB + 12345))
  truncate -s "$size" big || skip "no room for a sparse file"
  printf 'MARKER' | dd of=big bs=1 seek="$marker" conv=notrunc status=none
  run preadv-dump -f raw big "$marker:6"
  assert_success
  assert_output "MARKER"
  xxd -s $((marker - 8)) -l 40 big >expected
  preadv-dump big "$((marker - 8)):40" >out
  assert_same expected out
  # Across the 4 GiB line, and to the end.
  xxd -s $((4 * 1024 * MIB - 20)) -l 40 big >expected
  xxd -s $((size - 3)) big >>expected
  preadv-dump big "$((4 * 1024 * MIB - 20)):40" "$((size - 3))" >out
  assert_same expected out
}

# bats test_tags=arch
@test "preadv-dump: a block device" {
  require_root
  require_cmd losetup
  make_random img $((4 * MIB))
  LOOPDEV=$(losetup -f --show img 2>/dev/null) || skip "no loop device"
  gen_ranges 100 $((4 * MIB))
  raw_expected img >expected
  preadv-dump -f raw "$LOOPDEV" "${OPS[@]}" >out
  assert_same expected out
  # To the end is to the end of the device.
  tail -c 100 img >expected
  preadv-dump -f raw "$LOOPDEV" $((4 * MIB - 100)) >out
  assert_same expected out
  run preadv-dump "$LOOPDEV" $((4 * MIB)):1
  assert_failure 1
  assert_output --partial "past the end of the file ($((4 * MIB)) bytes)"
}

# --- preadv-dump: --nowait, --hipri ------------------------------------

# evict FILE: drop FILE's pages from the page cache.  The kernel may keep
# some (pages another CPU still holds): fincore, which looks without
# reading, tells when all are gone; skip the test if they never go.
evict() {
  local i
  for ((i = 0; i < 10; i++)); do
    sync "$1"
    python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$1"
    command -v fincore >/dev/null || return 0
    [[ $(fincore --bytes --noheadings --output RES "$1") -eq 0 ]] && return 0
    sleep 0.1
  done
  skip "cannot drop $1 from the page cache (tmpfs?)"
}

# skip_without CALL STATUS MESSAGE: skip if a run ending with STATUS and
# MESSAGE said that the kernel has no CALL (ENOSYS, as before Linux 4.6,
# or under a qemu-user without preadv2/pwritev2).
skip_without() {
  if [[ $2 -eq 1 && $3 == *"with $1 flag"*": Function not implemented"* ]]; then
    skip "the kernel has no $1 (ENOSYS)"
  fi
}

@test "preadv-dump --nowait: cached ranges dumped, the others reported" {
  make_random f $((4 * MIB))
  evict f
  run --separate-stderr stdout_to out preadv-dump --nowait -f raw f 0:100 $((2 * MIB)):100
  skip_without preadv2 "$status" "$stderr"
  if [[ $status -eq 0 ]]; then
    skip "this file system keeps the file in memory (tmpfs?)"
  fi
  assert_failure 1
  assert_err --partial "preadv-dump: 'f': range '0:100' is not in the page cache"
  # The other range is dumped if it is cached: the kernel may read ahead
  # for the failed one, or another process touch the file, meanwhile.
  if [[ -s out ]]; then
    dd if=f iflag=skip_bytes,count_bytes skip=$((2 * MIB)) count=100 \
      status=none >second
    assert_same second out
  fi
  # Once read, the same ranges are in the cache.
  cat f >/dev/null
  head -c 100 f >expected
  dd if=f iflag=skip_bytes,count_bytes skip=$((2 * MIB)) count=100 \
    status=none >>expected
  run --separate-stderr stdout_to out preadv-dump --nowait --stats -f raw f 0:100 $((2 * MIB)):100
  assert_success
  assert_err --partial "preadv2 calls"
  assert_same expected out
}

@test "preadv-dump --nowait: only part of the file in the cache" {
  make_random f $((4 * MIB))
  evict f
  # Read the first MiB into the cache, and no further (no readahead).
  python3 -c 'import os
fd = os.open("f", os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
os.pread(fd, 1 << 20, 0)'
  run --separate-stderr stdout_to out preadv-dump --nowait --gap 0 -f raw f 1000:10 $((3 * MIB)):10
  skip_without preadv2 "$status" "$stderr"
  [[ $status -ne 0 ]] || skip "this file system keeps the file in memory (tmpfs?)"
  assert_failure 1
  assert_err --partial "range '$((3 * MIB)):10' is not in the page cache"
  refute_err --partial "'1000:10'"
  dd if=f iflag=skip_bytes,count_bytes skip=1000 count=10 status=none >expected
  assert_same expected out
}

@test "preadv-dump --hipri: the same bytes" {
  if [[ ${NC_ENGINE-} == uring ]]; then
    skip "NC_ENGINE=uring: --engine=uring --hipri is a usage error (tested below)"
  fi
  make_random f 100000
  preadv-dump -f raw f 10:100 5000:3 >expected
  run --separate-stderr stdout_to out preadv-dump --hipri -f raw f 10:100 5000:3
  if [[ $status -ne 0 ]]; then
    assert_err --partial "RWF_HIPRI"
    skip "RWF_HIPRI not supported here"
  fi
  assert_same expected out
}

# --- preadv-dump: errors ----------------------------------------------

@test "preadv-dump: malformed ranges: exit 2, nothing read" {
  make_random f 100
  local op
  for op in abc 5: 5- :5 -5 5-3 1:2:3 0x 1Q 0xffffffffffffffff:2 \
    18446744073709551616 9223372036854775807:1 1:0x7fffffffffffffff \
    16E "1 :2" " 1:2" 1:-2 1--2; do
    run --separate-stderr preadv-dump f -- "$op"
    assert_failure 2
    assert_output ""
    assert_err --regexp "^preadv-dump: invalid range '$op': [a-z']"
    assert_err --partial "Try 'preadv-dump --help' for more information."
  done
  run --separate-stderr preadv-dump f 0xffffffffffffffff:2
  assert_err --partial "offset too large"
  run --separate-stderr preadv-dump f -- -5:3
  assert_err --partial "negative offset"
  run --separate-stderr preadv-dump f 5-3
  assert_err --partial "end before offset"
  # A malformed range is found before a missing file.
  run --separate-stderr preadv-dump nonexistent 1:x
  assert_failure 2
}

@test "preadv-dump: bad options: exit 2" {
  make_random f 100
  run --separate-stderr preadv-dump -f hex f
  assert_failure 2
  assert_err --partial "invalid argument 'hex' for '--format'"
  run --separate-stderr preadv-dump -c 257 f
  assert_failure 2
  run --separate-stderr preadv-dump -g -1 f
  assert_failure 2
  # No FILE: standard input, as xxd reads it.
  run --separate-stderr preadv-dump < /dev/null
  assert_success
  assert_output ""
}

# bats test_tags=arch
@test "preadv-dump: missing file, directory: exit 1" {
  run --separate-stderr preadv-dump nonexistent 0:1
  assert_failure 1
  assert_err "preadv-dump: cannot open 'nonexistent': No such file or directory"
  mkdir dir
  run --separate-stderr preadv-dump dir 0:1
  assert_failure 1
  assert_err "preadv-dump: error reading 'dir': Is a directory"
}

@test "preadv-dump >/dev/full: write error, exit 1" {
  [[ -c /dev/full ]] || skip "no /dev/full"
  make_random f 100000
  local fmt
  for fmt in xxd raw c json; do
    run --separate-stderr stdout_to /dev/full preadv-dump -f "$fmt" f 0:10
    assert_failure 1
    assert_err "preadv-dump: write error: No space left on device"
  done
}

# --- preadv-dump: the engines (preadv, io_uring) ------------------------

# require_uring FILE: skip unless preadv-dump reads FILE by io_uring here:
# not under qemu-user (its io_uring_setup is ENOSYS), not where the kernel
# refuses it (kernel.io_uring_disabled, a seccomp filter).
require_uring() {
  skip_under_qemu "qemu-user has no io_uring: only the fallback would be tested"
  local err
  err=$(command preadv-dump --engine=uring --debug -f raw "$1" 0:1 2>&1 >/dev/null)
  [[ $err == *"engine uring:"* ]] || skip "io_uring refused here: $err"
}

# distant_ranges COUNT SPACING [LENGTH]: COUNT ranges SPACING bytes apart
# (farther than --gap: each read by a call of its own), into OPS.
distant_ranges() {
  local i
  OPS=()
  for ((i = 0; i < $1; i++)); do
    OPS+=("$((i * $2 + i % 7)):${3:-4}")
  done
}

# The engine --debug named in $stderr: uring or preadv.
engine_in_debug() {
  sed -n 's/^preadv-dump: engine \([a-z]*\).*/\1/p' <<<"$stderr"
}

@test "engines: --engine=uring reads by io_uring_enter, no preadv; auto too, for many calls" {
  require_strace
  make_random f $((8 * MIB))
  require_uring f
  distant_ranges 64 $((100 * 1024))
  command preadv-dump --engine=preadv -f raw f "${OPS[@]}" >expected
  local engine engines=(uring auto)
  # On tmpfs auto reads by preadv (tested below).
  [[ $(stat -f -c %T .) != tmpfs ]] || engines=(uring)
  for engine in "${engines[@]}"; do
    strace -f -e trace=io_uring_setup,io_uring_enter,preadv,preadv2 \
      -o log preadv-dump --engine="$engine" -f raw f "${OPS[@]}" >out
    assert_same expected out
    assert_equal "$(strace_count log io_uring_setup)" 1
    (($(strace_count log io_uring_enter) >= 1)) || fail "no io_uring_enter: $(cat log)"
    assert_equal "$(strace_count log preadv)$(strace_count log preadv2)" 00
  done
}

@test "engines: auto reads a few mergeable ranges by preadv, no io_uring_setup" {
  require_strace
  make_random f 200000
  strace -f -e trace=io_uring_setup,io_uring_enter,preadv,preadv2 -o log \
    preadv-dump --engine=auto -f raw f 0:4 100:4 3000:10 150000:7 >out
  assert_size out 25
  assert_equal "$(strace_count log preadv)" 2
  assert_equal "$(strace_count log io_uring_setup)$(strace_count log io_uring_enter)" 00
  # --hipri: auto keeps to preadv2, whatever the number of calls.
  distant_ranges 40 4097 1
  strace -f -e trace=io_uring_setup,preadv2 -o log \
    preadv-dump --engine=auto --hipri -f raw f "${OPS[@]}" >out 2>err || true
  assert_equal "$(strace_count log io_uring_setup)" 0
}

@test "engines: auto reads a file of tmpfs by preadv; --engine=uring by io_uring" {
  require_root
  mkdir mnt
  mount -t tmpfs -o size=16m nc-test mnt || skip "cannot mount a tmpfs"
  make_random mnt/f $((8 * MIB))
  require_uring mnt/f
  distant_ranges 64 $((100 * 1024))
  command preadv-dump --engine=preadv -f raw mnt/f "${OPS[@]}" >expected
  run --separate-stderr stdout_to out command preadv-dump --debug -f raw \
    mnt/f "${OPS[@]}"
  assert_success
  assert_err "preadv-dump: engine preadv (auto: tmpfs): 64 ranges, 64 preadv calls"
  assert_same expected out
  run --separate-stderr stdout_to out command preadv-dump --engine=uring \
    --debug -f raw mnt/f "${OPS[@]}"
  assert_success
  assert_err --regexp "^preadv-dump: engine uring: 64 ranges, [0-9]+ SQEs, [0-9]+ io_uring_enter calls?$"
  assert_same expected out
}

@test "engines: the same bytes in every format from both engines" {
  make_random f $((16 * MIB))
  require_uring f
  gen_ranges 2000 $((16 * MIB)) 64
  local fmt
  for fmt in xxd raw c json; do
    command preadv-dump --engine=preadv -f "$fmt" f "${OPS[@]}" >expected
    run --separate-stderr stdout_to out command preadv-dump --engine=uring \
      --debug -f "$fmt" f "${OPS[@]}"
    assert_success
    assert_equal "$(engine_in_debug)" uring
    assert_same expected out || fail "-f $fmt, seed $SEED"
  done
  xxd_expected f >expected
  command preadv-dump --engine=uring f "${OPS[@]}" >out
  assert_same expected out || fail "seed $SEED"
}

@test "engines: 10000 ranges, more than the ring's SQ entries" {
  make_random f $MIB
  require_uring f
  distant_ranges 10000 100
  # With --gap 0 each range is a READV of its own: 10000 SQEs through a
  # ring of at most 1024 entries.
  command preadv-dump --engine=preadv --gap 0 -f raw f "${OPS[@]}" >expected
  run --separate-stderr stdout_to out preadv-dump --engine=uring --gap 0 \
    --debug --stats -f raw f "${OPS[@]}"
  assert_success
  assert_same expected out
  assert_size out 40000
  local sqes enters
  sqes=$(sed -nE 's/^preadv-dump: engine uring: 10000 ranges, ([0-9]+) SQEs, .*/\1/p' <<<"$stderr")
  enters=$(sed -nE 's/^preadv-dump: engine uring: .* SQEs, ([0-9]+) io_uring_enter calls?$/\1/p' <<<"$stderr")
  [[ -n $sqes && -n $enters ]] || fail "no engine line: $stderr"
  ((sqes >= 10000)) || fail "$sqes SQEs for 10000 reads"
  # Several enters, as the ring is refilled, but far fewer than reads.
  ((enters >= 3 && enters <= 100)) || fail "$enters io_uring_enter calls"
  assert_err --partial "'f': 10000 ranges, $sqes SQEs, $enters io_uring_enter calls, 0 preadv calls, 10000 iovecs, 40000 bytes read (0 of them in gaps)"
}

@test "engines: ranges across and past the end: the same output and messages" {
  make_random f 100000
  require_uring f
  distant_ranges 30 3000 10
  local src ops
  # A regular file, whose size is known; /proc/version, whose end the
  # reads find (io_uring's read of 0 bytes, then preadv's search).
  for src in f /proc/version; do
    [[ -r $src ]] || continue
    if [[ $src == f ]]; then
      ops=("${OPS[@]}" 99990:100 200000:5 100000 50:0)
    else
      ops=(0:10 20:30 100:1000 5000:5 7000:1 9000:0 0)
    fi
    run --separate-stderr stdout_to out.preadv command preadv-dump \
      --engine=preadv -f raw "$src" "${ops[@]}"
    local status_preadv=$status stderr_preadv=$stderr
    run --separate-stderr stdout_to out.uring command preadv-dump \
      --engine=uring -f raw "$src" "${ops[@]}"
    assert_equal "$status" "$status_preadv"
    assert_equal "$stderr" "$stderr_preadv"
    assert_same out.preadv out.uring
    assert_failure 1
    assert_err --partial "range '$( [[ $src == f ]] && echo 200000:5 || echo 5000:5)' is past the end of the file"
    assert_err --partial "cut short by the end of the file"
  done
}

@test "engines: --nowait under io_uring: cached ranges dumped, the others reported" {
  make_random f $((4 * MIB))
  require_uring f
  evict f
  # The first MiB into the cache, and no further (no readahead).
  python3 -c 'import os
fd = os.open("f", os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
os.pread(fd, 1 << 20, 0)'
  distant_ranges 20 $((40 * 1024)) 10
  run --separate-stderr stdout_to out preadv-dump --engine=uring --debug \
    --nowait --gap 0 -f raw f "${OPS[@]}" $((3 * MIB)):10
  skip_without preadv2 "$status" "$stderr"
  [[ $status -ne 0 ]] || skip "this file system keeps the file in memory (tmpfs?)"
  assert_failure 1
  assert_equal "$(engine_in_debug)" uring
  assert_err --partial "preadv-dump: 'f': range '$((3 * MIB)):10' is not in the page cache"
  assert_equal "$(grep -c 'page cache' <<<"$stderr")" 1
  command preadv-dump --engine=preadv -f raw f "${OPS[@]}" >expected
  assert_same expected out
}

@test "engines: io_uring refused (ENOSYS, EPERM): preadv, the same output, said only by --debug" {
  local enosys_exec="${NC_ENOSYS_EXEC:-${NC_BUILDDIR:-$NC_BINDIR/..}/tests/helpers/enosys-exec}"
  require_helper "$enosys_exec"
  make_random f $MIB
  "$enosys_exec" io_uring_setup "$NC_BINDIR/preadv-dump" --version >/dev/null 2>&1 \
    || skip "seccomp filters cannot be installed here"
  distant_ranges 100 8000
  command preadv-dump --engine=preadv -f xxd f "${OPS[@]}" >expected
  local engine refusal engines=(uring auto)
  # On tmpfs auto would not try io_uring at all.
  [[ $(stat -f -c %T .) != tmpfs ]] || engines=(uring)
  for engine in "${engines[@]}"; do
    for refusal in io_uring_setup:ENOSYS io_uring_setup:EPERM io_uring_enter:ENOSYS; do
      run --separate-stderr stdout_to out "$enosys_exec" "$refusal" \
        "$NC_BINDIR/preadv-dump" --engine="$engine" f "${OPS[@]}"
      assert_success
      assert_err ""
      assert_same expected out
      run --separate-stderr stdout_to out "$enosys_exec" "$refusal" \
        "$NC_BINDIR/preadv-dump" --engine="$engine" --debug f "${OPS[@]}"
      assert_success
      assert_same expected out
      # qemu-user answers io_uring_setup ENOSYS itself, before any
      # filter of the host's calls.
      if [[ $refusal == *EPERM && -z ${NC_QEMU-} ]]; then
        assert_err "preadv-dump: engine preadv (io_uring: Operation not permitted): 100 ranges, 100 preadv calls"
      else
        assert_err "preadv-dump: engine preadv (io_uring: Function not implemented): 100 ranges, 100 preadv calls"
      fi
    done
  done
}

@test "engines: a pipe is read in order by read(2), whatever the engine" {
  # io_uring would read a pipe where it is, ignoring the offsets; preadv
  # refuses it.  A range behind the one before is a usage error.
  local engine
  for engine in uring auto preadv; do
    # shellcheck disable=SC2016 # the arguments of the child shell
    run --separate-stderr bash -c 'printf abcdefghij | "$1" --engine="$2" -f raw - 1:2 5:1 9' \
      sh "$NC_BINDIR/preadv-dump" "$engine"
    assert_success
    assert_output "bcfj"
    # shellcheck disable=SC2016 # the arguments of the child shell
    run --separate-stderr bash -c 'printf abcdefghij | "$1" --engine="$2" -f raw - 5:1 0:1' \
      sh "$NC_BINDIR/preadv-dump" "$engine"
    assert_failure 2
    assert_output ""
    assert_err --partial "range '0:1' starts before the end of range '5:1': standard input is a pipe or a terminal, read once, in order"
  done
}

@test "engines: --engine=uring --hipri is a usage error; an unknown engine too" {
  make_random f 1000
  run --separate-stderr command preadv-dump --engine=uring --hipri f 0:1
  assert_failure 2
  assert_output ""
  assert_err "preadv-dump: --engine=uring cannot be used with --hipri: io_uring polls only on an IOPOLL ring, for O_DIRECT files
Try 'preadv-dump --help' for more information."
  run --separate-stderr command preadv-dump --engine=io_uring f 0:1
  assert_failure 2
  assert_output ""
  assert_err --partial "preadv-dump: invalid argument 'io_uring' for '--engine'"
  assert_err --partial "  - 'uring'"
  # A keyword may be abbreviated; preadv and auto take --hipri.
  run --separate-stderr command preadv-dump --engine=pre --debug -f raw f 0:1
  assert_success
  assert_err --regexp "^preadv-dump: engine preadv: 1 range, 1 preadv calls?$"
  run --separate-stderr command preadv-dump --hipri --debug -f raw f 0:1
  if [[ $status -eq 0 ]]; then
    assert_err "preadv-dump: engine preadv (auto: --hipri): 1 range, 1 preadv2 call"
  fi
}

# --- pwritev-patch ------------------------------------------------------

# gen_patches COUNT FILE_SIZE: COUNT random patches that do not overlap,
# in a random order, into PATCHES (operands; some OFFSET@DATAFILE with
# their data files) and the file expected after applying them to f.
gen_patches() {
  python3 - "$SEED" "$1" "$2" >patches.txt <<'PY'
import random, sys
seed, count, size = map(int, sys.argv[1:])
rnd = random.Random(seed)
data = bytearray(open("f", "rb").read())
offs = sorted(rnd.sample(range(size), count))
patches = []
for i, off in enumerate(offs):
    room = (offs[i + 1] if i + 1 < count else size) - off
    # Every fourth patch runs up to the next one: a gather of several.
    n = room if i % 4 == 0 else rnd.randrange(1, min(room, 64) + 1)
    n = min(n, 2000)
    patches.append((off, bytes(rnd.randrange(256) for _ in range(n))))
rnd.shuffle(patches)
for i, (off, b) in enumerate(patches):
    data[off:off + len(b)] = b
    if i % 3 == 0:
        name = "data%d" % i
        open(name, "wb").write(b)
        print("%#x@%s" % (off, name))
    else:
        print("%d=%s" % (off, b.hex()))
open("expected", "wb").write(data)
PY
  mapfile -t PATCHES <patches.txt
}

@test "pwritev-patch then preadv-dump: a round trip" {
  make_random f $MIB
  gen_patches 500 $MIB
  run --separate-stderr pwritev-patch --stats f "${PATCHES[@]}"
  assert_success
  assert_output ""
  assert_same expected f || fail "seed $SEED"
  # Read back: each patch's bytes where it was written.
  local p off
  for p in "${PATCHES[@]:0:50}"; do
    if [[ $p == *=* ]]; then
      off=${p%%=*}
      preadv-dump -f raw f "$off:$(((${#p} - ${#off} - 1) / 2))" | xxd -p \
        | tr -d '\n' >got
      assert_equal "$(cat got)" "${p#*=}"
    else
      off=${p%%@*}
      preadv-dump -f raw f "$off:$(file_size "${p#*@}")" >got
      assert_same "${p#*@}" got
    fi
  done
}

# bats test_tags=arch
@test "pwritev-patch: patches that touch go out in one pwritev" {
  skip_if_uring_pass "calls (strace, --stats)"
  make_random f 10000
  cp f orig
  printf 'XYZ' >data
  run --separate-stderr pwritev-patch --stats f 103=4444 100@data 105=55 \
    9000=aa 9001=bb
  assert_success
  assert_err "pwritev-patch: 'f': 5 patches, 2 pwritev calls, 5 iovecs, 8 bytes written"
  run preadv-dump -f raw f 100:6 9000:2
  assert_output $'XYZDDU\xaa\xbb'
  if can_strace; then
    cp orig f
    strace -e trace=pwritev,pwritev2,lseek,write -o log \
      pwritev-patch f 103=4444 100@data 105=55 9000=aa 9001=bb
    assert_equal "$(sed -nE 's/^pwritev\(.*\], ([0-9]+), ([0-9]+)\) += ([0-9]+)$/\1 \2 \3/p' log | tr '\n' ' ')" \
      "3 100 6 2 9000 2 "
    run grep -E '^(lseek|write)\(' log
    assert_failure
  fi
}

@test "pwritev-patch: overlapping patches refused, nothing written" {
  make_random f 1000
  cp f orig
  local set
  for set in "10=aabb 11=cc" "0=00 500=0102030405 504=ff" "20@data 21=00" \
    "7=ab 7=ab"; do
    printf 'abc' >data
    # shellcheck disable=SC2086 # the patches are words
    run --separate-stderr pwritev-patch f $set
    assert_failure 2
    assert_err --regexp "^pwritev-patch: patches '.*' and '.*' overlap; nothing written$"
    assert_same orig f
  done
  run --separate-stderr pwritev-patch f 10=aabb 0=00 11=cc
  assert_err "pwritev-patch: patches '10=aabb' and '11=cc' overlap; nothing written"
}

# bats test_tags=arch
@test "pwritev-patch: never extends the file, unless --extend" {
  make_random f 1000
  cp f orig
  run --separate-stderr pwritev-patch f 0=00 998=010203
  assert_failure 1
  assert_err "pwritev-patch: 'f': patch '998=010203' ends past the end of the file (1000 bytes); --extend allows it; nothing written"
  assert_same orig f
  run --separate-stderr pwritev-patch --extend f 0=00 998=010203 1500=ff
  assert_success
  assert_size f 1501
  run preadv-dump -f raw f 998:3
  assert_output $'\x01\x02\x03'
  # The bytes between the old end and the last patch read as zeros.
  cmp -s <(head -c 499 /dev/zero) <(preadv-dump -f raw f 1001:499) \
    || fail "not zeros"
  # Up to the very end is no extension.
  run pwritev-patch f 1499=eeff
  assert_success
  assert_size f 1501
}

@test "pwritev-patch --dry-run: shows before and after, changes nothing" {
  make_random f 1000
  printf 'ABCDEFGH' >f
  cp f orig
  local mtime
  mtime=$(stat -c %Y.%y f)
  run --separate-stderr pwritev-patch --dry-run --extend f 2=6162 6=7a7a7a7a 100=00
  assert_success
  assert_err ""
  assert_same orig f
  assert_equal "$(stat -c %Y.%y f)" "$mtime"
  assert_line --index 0 "patch '2=6162': 2 bytes at 2 (0x2)"
  assert_line --index 1 --regexp '^- 00000002: 4344 +CD$'
  assert_line --index 2 --regexp '^\+ 00000002: 6162 +ab$'
  assert_line --index 4 --regexp '^- 00000006: 4748 +GH$'
  assert_line --index 5 --regexp '^\+ 00000006: 7a7a 7a7a +zzzz$'
  assert_output --partial "(the file ends at byte 8: this patch extends it)"
  assert_output --partial "(the file ends at byte 8: this patch extends it)"
  assert_line --index 7 "patch '100=00': 1 byte at 100 (0x64)"
  assert_line --index 8 --regexp '^\+ 00000064: 00 +\.$'
  if [[ $(engine_in_use) == uring ]]; then
    assert_line "dry run: 3 patches, 7 bytes, 3 io_uring writes; 'f' not changed"
  else
    assert_line "dry run: 3 patches, 7 bytes, 3 pwritev calls; 'f' not changed"
  fi
  # The same checks as a real run.
  run --separate-stderr pwritev-patch -n f 100=00
  assert_failure 1
  run --separate-stderr pwritev-patch -n f 1=00 0=0000
  assert_failure 2
}

@test "pwritev-patch --sync: RWF_DSYNC" {
  make_random f 1000
  run pwritev-patch --sync f 10=abcd
  skip_without pwritev2 "$status" "$output"
  assert_success
  run preadv-dump -f raw f 10:2
  assert_output $'\xab\xcd'
  # The uring engine's --sync has a test of its own.
  if can_strace && [[ ${NC_ENGINE:-} != uring ]]; then
    strace -e trace=pwritev2 -o log pwritev-patch --sync f 20=ef
    grep -q 'RWF_DSYNC' log || fail "no RWF_DSYNC: $(cat log)"
  fi
}

# bats test_tags=arch
@test "pwritev-patch: data from standard input, and empty data files" {
  make_random f 100
  : >empty
  printf 'hello' | pwritev-patch f 10@- 50@empty 50=21
  run preadv-dump -f raw f 10:5 50:1
  assert_output "hello!"
  run --separate-stderr pwritev-patch f 1@- 2@-
  assert_failure 2
  assert_err --partial "standard input can be read only once"
}

@test "pwritev-patch: malformed patches: exit 2, nothing written" {
  make_random f 100
  cp f orig
  local p
  for p in 10 =aa 10=a 10=xyz 10= 10@ -1=aa 0xffffffffffffffff=00 \
    9223372036854775807=0000 abc=00; do
    run --separate-stderr pwritev-patch f -- "$p"
    assert_failure 2
    assert_err --regexp "^pwritev-patch: invalid patch '$p': "
    assert_same orig f
  done
  # Separators between the bytes, and 0x.
  run pwritev-patch f 0=0xde:ad_be\ ef
  assert_success
  run preadv-dump -f raw f 0:4
  assert_output $'\xde\xad\xbe\xef'
}

@test "pwritev-patch: no patch is a usage error, FILE untouched" {
  make_random f 100
  cp f orig
  run --separate-stderr pwritev-patch f
  assert_failure 2
  assert_output ""
  assert_err "pwritev-patch: missing patch operand after 'f'
Try 'pwritev-patch --help' for more information."
  # Checked before FILE is opened: a missing FILE is not the complaint.
  run --separate-stderr pwritev-patch -n nonexistent
  assert_failure 2
  assert_err --partial "missing patch operand after 'nonexistent'"
  run --separate-stderr pwritev-patch
  assert_failure 2
  assert_err --partial "pwritev-patch: missing file operand"
  assert_same orig f
}

@test "pwritev-patch: missing file, directory, missing data file: exit 1" {
  run --separate-stderr pwritev-patch nonexistent 0=00
  assert_failure 1
  assert_err "pwritev-patch: cannot open 'nonexistent': No such file or directory"
  mkdir dir
  run --separate-stderr pwritev-patch dir 0=00
  assert_failure 1
  assert_err "pwritev-patch: cannot open 'dir': Is a directory"
  make_random f 10
  cp f orig
  run --separate-stderr pwritev-patch f 0=00 1@nonexistent
  assert_failure 1
  assert_err "pwritev-patch: cannot open 'nonexistent': No such file or directory"
  assert_same orig f
}

# bats test_tags=arch
@test "pwritev-patch: a patch beyond 4 GiB of a sparse file" {
  local off=$((4 * 1024 * MIB + 777))
  truncate -s $((5 * 1024 * MIB)) big || skip "no room for a sparse file"
  run pwritev-patch big "$off=4d41524b"
  assert_success
  run bash -c "preadv-dump -f raw big $((off - 1)):6 | xxd -p"
  assert_output "004d41524b00"
  assert_size big $((5 * 1024 * MIB))
}

# --- pwritev-patch: a failed write is undone (issue 13) ------------------

# bats test_tags=arch
@test "pwritev-patch: a full file system: every patch undone, exit 1" {
  require_root
  mkdir mnt
  mount -t tmpfs -o size=4m pwritev-patch-test mnt || skip "cannot mount a tmpfs"
  make_random mnt/f $((1536 * 1024))
  cp mnt/f orig
  # From 1 MiB to 4.5 MiB: overwrites the last 512 KiB, then grows the
  # file past what the 4 MiB file system holds.
  make_random data $((3584 * 1024))
  run --separate-stderr pwritev-patch --extend mnt/f 0=4141 1M@data
  assert_failure 1
  assert_err "pwritev-patch: error writing 'mnt/f' at patch '1M@data': No space left on device; the 2 patches written were undone: 'mnt/f' is as it was"
  assert_size mnt/f $((1536 * 1024))
  assert_same orig mnt/f
  # The room the failed write took is free again.
  run pwritev-patch mnt/f 100=42
  assert_success
}

# bats test_tags=arch
@test "pwritev-patch: past the file size limit: EFBIG, not SIGXFSZ; undone" {
  make_random f 1000
  cp f orig
  # ulimit -f counts KiB: writes end at 100 KiB.
  # shellcheck disable=SC2086 # the option, or no word
  run --separate-stderr bash -c 'ulimit -f 100 && exec "$@"' limit \
    pwritev-patch ${NC_ENGINE:+--engine=$NC_ENGINE} --extend f 0=4141 500=42 1M=43
  assert_failure 1
  assert_err "pwritev-patch: error writing 'f' at patch '1M=43': File too large; the 2 patches written were undone: 'f' is as it was"
  assert_same orig f
  # A file already past the limit: the patch beyond it fails, without
  # growing anything; the one before it is undone.
  make_random f 200000
  cp f orig
  # shellcheck disable=SC2086 # the option, or no word
  run --separate-stderr bash -c 'ulimit -f 100 && exec "$@"' limit \
    pwritev-patch ${NC_ENGINE:+--engine=$NC_ENGINE} f 0=4141 150000=42
  assert_failure 1
  assert_err "pwritev-patch: error writing 'f' at patch '150000=42': File too large; the 1 patch written was undone: 'f' is as it was"
  assert_same orig f
}

# inject_eio WHEN CMD...: CMD with its pwritev calls failing with EIO as
# strace's WHEN says (2: the second only; 2+: from the second on).
inject_eio() {
  local when=$1
  shift
  strace -f -o /dev/null -e trace=pwritev \
    -e inject="pwritev:error=EIO:when=$when" "$@"
}

@test "pwritev-patch: an I/O error undone; a failed undo names what stays" {
  # The count of pwritev calls (when=) would be qemu's.
  skip_under_qemu "strace counts qemu's calls"
  skip_if_uring_pass "calls made to fail (the uring engine's: faults.bats)"
  require_strace_inject
  strace -f -o /dev/null -e trace=getpid -e inject=getpid:error=ENOSYS \
    true >/dev/null 2>&1 || skip "this strace cannot inject errors"
  make_random f 1000
  cp f orig
  # Three runs, three calls: the second fails, the first is undone.
  run --separate-stderr inject_eio 2 pwritev-patch --extend f 2000=43 0=4141 500=42
  assert_failure 1
  assert_err "pwritev-patch: error writing 'f' at patch '500=42': Input/output error; the 1 patch written was undone: 'f' is as it was"
  assert_same orig f
  # The first call fails: there is nothing to undo.
  run --separate-stderr inject_eio 1 pwritev-patch f 0=4141 500=42
  assert_failure 1
  assert_err "pwritev-patch: error writing 'f' at patch '0=4141': Input/output error; nothing written"
  assert_same orig f
  # Every call from the third fails, the undo's too: the file is cut back
  # to its old size, but the patches that were within it stay, and are
  # named, the one that grew the file in part.
  run --separate-stderr inject_eio 3+ pwritev-patch --extend f 0=41 999=4242 2000=43
  assert_failure 1
  assert_err "pwritev-patch: error writing 'f' at patch '2000=43': Input/output error
pwritev-patch: cannot undo: error writing 'f': Input/output error
pwritev-patch: 'f': patch '0=41' stays written
pwritev-patch: 'f': patch '999=4242' stays written in part (1 of 2 bytes)
pwritev-patch: 'f' is not as it was"
  cp orig expected
  printf 'A' | dd of=expected conv=notrunc status=none
  printf 'B' | dd of=expected bs=1 seek=999 conv=notrunc status=none
  assert_same expected f
}

# --- preadv-dump: files whose size is 0 or wrong ------------------------

# like_regular SRC OPERANDS...: preadv-dump of SRC, a file whose size
# fstat does not tell, does as of reg, a regular file of the same content
# (not empty: an empty one is read as a /proc file is): the same output,
# messages and exit status.  Each OPERANDS is one run, its ranges apart
# by spaces.
like_regular() {
  local src=$1 ops s1 s2
  shift
  for ops in "$@"; do
    local -a rs
    read -ra rs <<<"$ops"
    s1=0 s2=0
    preadv-dump "$src" "${rs[@]}" >out1 2>err1 || s1=$?
    preadv-dump reg "${rs[@]}" >out2 2>err2 || s2=$?
    sed "s|'$src'|'reg'|" err1 >err1.reg
    ((s1 == s2)) || fail "$ops: exit $s1 for $src, $s2 for reg: $(cat err1)"
    cmp -s out1 out2 || fail "$ops: not the output of reg: $(cat out1)"
    cmp -s err1.reg err2 ||
      fail "$ops: messages of $src: $(cat err1); of reg: $(cat err2)"
  done
}

@test "preadv-dump: a /proc file: the real end, exit 1 past it, as a regular file" {
  [[ -r /proc/version ]] || skip "no /proc/version"
  cat /proc/version >reg
  local size
  size=$(file_size reg)
  # Past the end: once 'past the end of the file (1000 bytes)', or
  # nothing and exit 0 for a range to the end.
  run --separate-stderr preadv-dump /proc/version 1000:5
  assert_failure 1
  assert_err "preadv-dump: '/proc/version': range '1000:5' is past the end of the file ($size bytes)"
  like_regular /proc/version 1000 1000:5 1000:0 "$size:1" "$((size + 1)):0" \
    "$((size + 1))" "$size" "$size:0" "$((size - 3))" "$((size - 3)):10" \
    0:"$((size + 7))" 5:4 \
    "2:3 4000:1 $((size - 1)):9 9000" "3000:2 0:2 3000"
}

@test "preadv-dump: /proc/self/maps past its end: its real size, not the offset" {
  [[ -r /proc/self/maps ]] || skip "no /proc/self/maps"
  run --separate-stderr preadv-dump /proc/self/maps 100000:10
  assert_failure 1
  assert_output ""
  assert_err --regexp "^preadv-dump: '/proc/self/maps': range '100000:10' is past the end of the file \(([1-9][0-9]*) bytes\)$"
  local n=${stderr##*(}
  n=${n%% *}
  ((n < 100000)) || fail "not the real end: $stderr"
}

@test "preadv-dump: a sysfs file showing 4096 bytes: the end read, not 4096" {
  local f src=
  for f in /sys/power/state /sys/devices/system/cpu/possible \
    /sys/kernel/mm/transparent_hugepage/enabled; do
    if [[ -r $f && $(stat -c %s "$f") == 4096 ]] && cat "$f" >reg 2>/dev/null &&
      [[ -s reg ]] && (($(file_size reg) < 1000)); then
      src=$f
      break
    fi
  done
  [[ -n $src ]] || skip "no readable sysfs file showing 4096 bytes"
  run --separate-stderr preadv-dump "$src" 1000:5
  assert_failure 1
  assert_err "preadv-dump: '$src': range '1000:5' is past the end of the file ($(file_size reg) bytes)"
  like_regular "$src" 1000:5 2000 0:3000 "$(file_size reg):1"
}

@test "preadv-dump: /dev/null and /dev/zero: an empty range past the end, or far" {
  local f r
  : >empty
  for f in /dev/null empty; do
    for r in 10:0 10:5 10 1; do
      run --separate-stderr preadv-dump "$f" "$r"
      assert_failure 1
      assert_err "preadv-dump: '$f': range '$r' is past the end of the file (0 bytes)"
    done
    for r in 0 0:0; do
      run --separate-stderr preadv-dump "$f" "$r"
      assert_success
      assert_output ""
      assert_err ""
    done
  done
  # /dev/zero has no end: an empty range a TiB in is checked by one byte,
  # not by reading up to it.
  run --separate-stderr timeout 20 preadv-dump --stats /dev/zero 1T:0
  assert_success
  assert_err "preadv-dump: '/dev/zero': 1 range, 1 preadv call, 1 iovecs, 1 bytes read (0 of them in gaps)"
}

@test "pwritev-patch: a bad hexadecimal digit is named, an odd count is said" {
  make_random f 100
  cp f orig
  run --separate-stderr pwritev-patch f 2=4G
  assert_failure 2
  assert_err "pwritev-patch: invalid patch '2=4G': 'G' at position 4 is not a hexadecimal digit
Try 'pwritev-patch --help' for more information."
  run --separate-stderr pwritev-patch f '0=0xab:c'
  assert_failure 2
  assert_err --partial "invalid patch '0=0xab:c': odd number of hexadecimal digits"
  assert_same orig f
}

@test "an operand like a negative number: its own message, not 'unknown option'" {
  make_random f 100
  cp f orig
  run --separate-stderr preadv-dump f -1:2
  assert_failure 2
  assert_output ""
  assert_err "preadv-dump: invalid range '-1:2': negative offset
Try 'preadv-dump --help' for more information."
  run --separate-stderr pwritev-patch f -1=00
  assert_failure 2
  assert_err "pwritev-patch: invalid patch '-1=00': negative offset
Try 'pwritev-patch --help' for more information."
  assert_same orig f
}

# --- pwritev-patch: the io_uring engine (issue 16) -------------------------

# uring_probe: pwritev-patch's --debug line for one patch with
# --engine=uring, which says whether a ring could be had here.
uring_probe() {
  printf 'x' >uring-probe
  command pwritev-patch --engine=uring --debug uring-probe 0=78 2>&1
}

# engine_in_use: uring if this run of the suite (NC_ENGINE) writes
# through io_uring, pwritev otherwise (qemu-user, whose io_uring_setup
# answers ENOSYS, or a kernel that refuses io_uring: the fallback).
engine_in_use() {
  if [[ ${NC_ENGINE:-} == uring && -z ${NC_QEMU:-} ]] \
    && [[ $(uring_probe) == *'engine uring:'* ]]; then
    echo uring
  else
    echo pwritev
  fi
}

# require_uring: skip unless pwritev-patch --engine=uring gets a ring here.
require_uring() {
  skip_under_qemu "io_uring_setup answers ENOSYS under qemu-user (the fallback test checks that)"
  local probe
  probe=$(uring_probe)
  [[ $probe == *'engine uring:'* ]] \
    || skip "the kernel refuses io_uring here (kernel.io_uring_disabled, seccomp?): $probe"
}

# skip_if_uring_pass WHAT: a test of WHAT of the pwritev engine itself
# (its calls by strace or --stats) skipped in the NC_ENGINE=uring run of
# the suite; the tests below check the uring engine's own.
skip_if_uring_pass() {
  [[ ${NC_ENGINE:-} != uring ]] \
    || skip "NC_ENGINE=uring: checks the pwritev engine's $*"
}

# runs_of PATCH...: how many runs (writes) the patches of f make, as
# --dry-run of the pwritev engine counts them.
runs_of() {
  command pwritev-patch --engine=pwritev --dry-run --extend f "$@" \
    | sed -nE 's/^dry run: .*, ([0-9]+) pwritev calls?; .*/\1/p'
}

@test "pwritev-patch --engine=uring: distant patches in one submission, no pwritev (strace)" {
  require_uring
  require_strace
  make_random f $MIB
  cp f orig
  gen_patches 400 $MIB
  local runs enters
  runs=$(runs_of "${PATCHES[@]}")
  ((runs > 100)) || fail "only $runs runs (seed $SEED)"
  strace -f -o log -e trace=io_uring_setup,io_uring_enter,preadv,pwritev,preadv2,pwritev2,pwrite64 \
    "$NC_BINDIR/pwritev-patch" --engine=uring --debug f "${PATCHES[@]}" 2>debug
  assert_same expected f || fail "seed $SEED"
  # The same file as the pwritev engine makes.
  cp orig g
  command pwritev-patch --engine=pwritev g "${PATCHES[@]}"
  assert_same g f
  assert_equal "$(strace_count log io_uring_setup)" 1
  local call
  # (pread64 is the dynamic loader's.)
  for call in preadv pwritev preadv2 pwritev2 pwrite64; do
    assert_equal "$call: $(strace_count log "$call")" "$call: 0"
  done
  enters=$(strace_count log io_uring_enter)
  # Two SQEs a run (its old bytes read, then written), and --debug
  # counts the enters strace saw: few, for hundreds of runs.
  assert_equal "$(cat debug)" "pwritev-patch: engine uring: 400 patches, $runs runs, $((2 * runs)) SQEs, $enters io_uring_enter calls"
  ((enters * 10 <= runs)) || fail "$enters io_uring_enter calls for $runs runs"
}

@test "pwritev-patch --engine=uring: past RLIMIT_FSIZE in the middle of the chain: undone, the messages of pwritev" {
  require_uring
  make_random f 1000
  cp f orig
  # 30 runs within the limit (100 KiB), one past it, 20 behind that one.
  local -a patches=()
  local i
  for ((i = 0; i < 30; i++)); do
    patches+=("$((i * 3000))=4141")
  done
  patches+=(200K=42)
  for ((i = 1; i <= 20; i++)); do
    patches+=("$((200000 + i * 5000))=43")
  done
  local engine
  for engine in pwritev uring; do
    cp orig f
    run --separate-stderr bash -c 'ulimit -f 100 && exec "$@"' limit \
      pwritev-patch --engine=$engine --debug --extend f "${patches[@]}"
    assert_failure 1
    assert_same orig f
    # The last line is --debug's: the engine asked for did the writes.
    [[ ${stderr##*$'\n'} == "pwritev-patch: engine $engine: "* ]] \
      || fail "not the $engine engine: $stderr"
    assert_equal "${stderr%$'\n'*}" "pwritev-patch: error writing 'f' at patch '200K=42': File too large; the 30 patches written were undone: 'f' is as it was"
  done
  # A file already past the limit: nothing grows; the patch beyond the
  # limit fails, those before it are undone, those behind it never
  # written.
  make_random f 200000
  cp f orig
  for engine in pwritev uring; do
    run --separate-stderr bash -c 'ulimit -f 100 && exec "$@"' limit \
      pwritev-patch --engine=$engine f 0=4141 50000=44 150000=42 190000=45
    assert_failure 1
    assert_err "pwritev-patch: error writing 'f' at patch '150000=42': File too large; the 2 patches written were undone: 'f' is as it was"
    assert_same orig f
  done
}

@test "pwritev-patch --engine=uring --sync: one linked fdatasync, no RWF_DSYNC" {
  require_uring
  make_random f $MIB
  cp f orig
  gen_patches 100 $MIB
  local runs
  runs=$(runs_of "${PATCHES[@]}")
  run --separate-stderr command pwritev-patch --engine=uring --sync --stats f "${PATCHES[@]}"
  assert_success
  assert_same expected f || fail "seed $SEED"
  # One SQE a run, and the fdatasync's.
  assert_err --regexp "^pwritev-patch: 'f': 100 patches, $((runs + 1)) SQEs, [0-9]+ io_uring_enter calls?, 100 iovecs, [0-9]+ bytes written$"
  if can_strace; then
    cp orig f
    strace -f -o log -e trace=pwritev,pwritev2,fsync,fdatasync,io_uring_enter \
      "$NC_BINDIR/pwritev-patch" --engine=uring --sync --no-journal f "${PATCHES[@]}"
    assert_same expected f
    local call
    for call in pwritev pwritev2 fsync fdatasync; do
      assert_equal "$call: $(strace_count log "$call")" "$call: 0"
    done
    (($(strace_count log io_uring_enter) > 0)) || fail "no io_uring_enter"
  fi
}

# bats test_tags=arch
@test "pwritev-patch: io_uring refused (seccomp, qemu): pwritev, without a word unless --debug" {
  local helper=${NC_ENOSYS_EXEC:-${NC_BUILDDIR:-$NC_BINDIR/..}/tests/helpers/enosys-exec}
  require_helper "$helper"
  make_random f $MIB
  cp f orig
  gen_patches 100 $MIB
  local runs calls engine
  runs=$(runs_of "${PATCHES[@]}")
  ((runs >= 16)) || fail "only $runs runs (seed $SEED)"
  for calls in io_uring_setup io_uring_setup:EPERM io_uring_enter \
    io_uring_enter:EPERM; do
    # Explicit or automatic, the engine falls back alike.
    for engine in uring auto; do
      cp orig f
      run --separate-stderr "$helper" "$calls" \
        pwritev-patch --engine=$engine f "${PATCHES[@]}"
      assert_success
      assert_err ""
      assert_same expected f || fail "$calls, $engine, seed $SEED"
    done
    cp orig f
    run --separate-stderr "$helper" "$calls" \
      pwritev-patch --engine=uring --debug f "${PATCHES[@]}"
    assert_success
    # qemu-user answers io_uring_setup ENOSYS itself, before any filter.
    local why="Function not implemented"
    [[ $calls != *:EPERM || -n ${NC_QEMU:-} ]] || why="Operation not permitted"
    assert_err "pwritev-patch: engine pwritev (io_uring: $why): 100 patches, $runs runs, $runs preadv calls, $runs pwritev calls"
    assert_same expected f
  done
}

@test "pwritev-patch --engine=auto: pwritev below 16 runs, uring from 16" {
  require_uring
  make_random f $MIB
  local -a patches=()
  local i
  for ((i = 0; i < 15; i++)); do
    patches+=("$((i * 1000))=41")
  done
  run --separate-stderr command pwritev-patch --debug f "${patches[@]}"
  assert_success
  assert_err "pwritev-patch: engine pwritev (auto: 15 runs, uring from 16): 15 patches, 15 runs, 15 preadv calls, 15 pwritev calls"
  run --separate-stderr command pwritev-patch --debug f "${patches[@]}" 20000=42
  assert_success
  assert_err --regexp "^pwritev-patch: engine uring: 16 patches, 16 runs, 32 SQEs, [0-9]+ io_uring_enter calls?$"
  # Touching patches are one run: 30 patches, 15 runs.
  for ((i = 0; i < 15; i++)); do
    patches+=("$((i * 1000 + 1))=42")
  done
  run --separate-stderr command pwritev-patch --debug f "${patches[@]}"
  assert_success
  assert_err --partial "(auto: 15 runs, uring from 16): 30 patches"
}

@test "pwritev-patch --engine: an unknown keyword is a usage error, abbreviations work" {
  make_random f 100
  cp f orig
  run --separate-stderr command pwritev-patch --engine=io_uring f 0=00
  assert_failure 2
  assert_output ""
  assert_err "pwritev-patch: invalid argument 'io_uring' for '--engine'
Valid arguments are:
  - 'auto'
  - 'pwritev'
  - 'uring'
Try 'pwritev-patch --help' for more information."
  assert_same orig f
  # Checked where it stands, before --version ends the run.
  run --separate-stderr command pwritev-patch --engine=bogus --version
  assert_failure 2
  run --separate-stderr command pwritev-patch --engine= f 0=00
  assert_failure 2
  assert_same orig f
  run --separate-stderr command pwritev-patch --engine=pw --debug f 0=00
  assert_success
  assert_err --partial "engine pwritev: 1 patch, 1 run"
}

@test "pwritev-patch --engine=uring: a FIFO is refused as by pwritev (Illegal seek), not waited on" {
  mkfifo ff
  local engine
  for engine in pwritev uring auto; do
    run --separate-stderr timeout 20 pwritev-patch --engine=$engine ff 0=41
    assert_failure 1
    assert_err "pwritev-patch: error reading 'ff': Illegal seek; nothing written"
  done
}
