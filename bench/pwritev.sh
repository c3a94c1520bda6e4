#!/bin/bash
# bench/pwritev.sh: pwritev-patch --from-xxd against xxd -r, reading back
# a dump of SIZE bytes (the dump's size; the file is about a quarter of
# it for a normal dump, half for a plain one) into an existing file of
# the same bytes, in tmpfs:
#   - a normal dump (xxd FILE), then a plain one (xxd -p FILE);
#   - pwritev-patch with --journal too (the undo bytes written and
#     synced first; tmpfs makes the syncs cheap: on a disk they are the
#     cost);
#   - the instructions of each, by perf stat where perf may count them,
#     else by callgrind on a 4 MiB dump: under load, wall-clock ratios
#     are noisy, instruction counts not.
# hyperfine runs the commands in alternating rounds; medians over all
# runs, and the ratios, are printed.
#   usage: bench/pwritev.sh [SIZE]   (default 64M, 1M under BENCH_QUICK=1,
#          the smoke run of bench/report; a head -c size)
#   env:   ROUNDS (default 3), RUNS per command per round (default 2)
set -euo pipefail
default_size=64M
[[ ${BENCH_QUICK:-0} == 0 ]] || default_size=1M
size=${1:-$default_size}
rounds=${ROUNDS:-3}
runs=${RUNS:-2}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
bench_need hyperfine xxd python3 cmp numfmt
dir=$(mktemp -d /dev/shm/newcalls-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
bytes=$(numfmt --from=iec "$size")
# xxd writes 68 bytes a line of 16, xxd -p 61 a line of 30.
head -c $((bytes * 16 / 68)) /dev/urandom >"$dir/normal.bin"
head -c $((bytes * 30 / 61)) /dev/urandom >"$dir/plain.bin"
xxd "$dir/normal.bin" >"$dir/normal.dump"
xxd -p "$dir/plain.bin" >"$dir/plain.dump"
for kind in normal plain; do
  cp "$dir/$kind.bin" "$dir/$kind.copy"
done

p=("$bindir/pwritev-patch" --from-xxd)
"${p[@]}" "$dir/normal.copy" "$dir/normal.dump"
"${p[@]}" -p "$dir/plain.copy" "$dir/plain.dump"
cmp "$dir/normal.bin" "$dir/normal.copy"
cmp "$dir/plain.bin" "$dir/plain.copy"

for round in $(seq "$rounds"); do
  hyperfine --style none --warmup 1 --runs "$runs" \
    --export-json "$dir/pwritev.$round.json" \
    -n patch-normal "'${p[0]}' --from-xxd '$dir/normal.copy' '$dir/normal.dump'" \
    -n xxd-normal "xxd -r '$dir/normal.dump' '$dir/normal.copy'" \
    -n patch-plain "'${p[0]}' --from-xxd -p '$dir/plain.copy' '$dir/plain.dump'" \
    -n xxd-plain "xxd -r -p '$dir/plain.dump' '$dir/plain.copy'" \
    -n patch-journal "'${p[0]}' --from-xxd --journal '$dir/normal.copy' '$dir/normal.dump'" \
    >/dev/null
done
bench_export "$dir"/pwritev.*.json
bench_pair pwritev "a $size xxd dump read back" patch-normal xxd-normal
bench_pair pwritev "a $size xxd -p dump read back" patch-plain xxd-plain

python3 - "$size" "$dir"/pwritev.*.json <<'PY'
import json, statistics, sys
times = {}
for path in sys.argv[2:]:
    for r in json.load(open(path))["results"]:
        times.setdefault(r["command"], []).extend(r["times"])
med = {k: statistics.median(v) for k, v in times.items()}
n = len(times["patch-normal"])
for kind in ("normal", "plain"):
    p, x = med["patch-" + kind], med["xxd-" + kind]
    print(f"pwritev.sh {sys.argv[1]} {kind} dump, {n} runs each: "
          f"pwritev-patch --from-xxd {p*1000:.0f} ms, xxd -r {x*1000:.0f} ms "
          f"(medians); ratio {p/x:.2f}x xxd's time")
j = med["patch-journal"]
print(f"pwritev.sh {sys.argv[1]} normal dump with --journal: {j*1000:.0f} ms "
      f"({j/med['patch-normal']:.2f}x without)")
PY

# Instructions, which load does not change: perf's (user and kernel)
# where it may count them, else valgrind's (user only) on a 4 MiB dump.
perf_count() {
  perf stat -x, -e instructions "$@" 2>&1 >/dev/null | cut -d, -f1 | tail -n 1
}
callgrind_count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 \
    >/dev/null | sed -n 's/.*refs: *//p' | tr -d ,
}
if command -v perf >/dev/null \
  && [[ $(perf_count true) =~ ^[0-9]+$ ]]; then
  how=perf what=$size
  pi=$(perf_count "${p[@]}" "$dir/normal.copy" "$dir/normal.dump")
  xi=$(perf_count xxd -r "$dir/normal.dump" "$dir/normal.copy")
elif command -v valgrind >/dev/null; then
  how="callgrind, user only" what=4M
  head -c $((4 * 1024 * 1024 * 16 / 68)) "$dir/normal.bin" >"$dir/small.bin"
  xxd "$dir/small.bin" >"$dir/small.dump"
  pi=$(callgrind_count "${p[@]}" "$dir/small.bin" "$dir/small.dump")
  xi=$(callgrind_count xxd -r "$dir/small.dump" "$dir/small.bin")
else
  echo "pwritev.sh: neither perf nor valgrind can count instructions here"
  exit 0
fi
echo "pwritev.sh $what normal dump, instructions ($how): pwritev-patch" \
  "$pi, xxd -r $xi; ratio $(python3 -c "print(f'{$pi / $xi:.2f}')")x"
