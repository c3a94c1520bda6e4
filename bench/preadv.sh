#!/bin/bash
# bench/preadv.sh: preadv-dump against the tools one would otherwise use,
# on a random file in tmpfs (so in the page cache):
#   - the hex dump of the whole file, against xxd (both to /dev/null);
#   - RANGES 4-byte ranges at random offsets (-f raw), against a Python
#     loop of os.pread (python3 -c pass is timed too: its start-up) and a
#     shell loop of dd.  The dd loop is slow: it
#     runs over the first DD_RANGES ranges only, and its time is scaled
#     up to RANGES (said so in the results).
# hyperfine runs the commands in alternating rounds (the machine's load
# drifts); medians over all runs and the ratios are printed.
#   usage: bench/preadv.sh [SIZE]   (default 100M; a head -c size)
#   env:   ROUNDS (default 5), RUNS per command per round (default 2),
#          RANGES (default 10000), DD_RANGES (default 500)
set -euo pipefail
size=${1:-100M}
rounds=${ROUNDS:-5}
runs=${RUNS:-2}
nranges=${RANGES:-10000}
ndd=${DD_RANGES:-500}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
bench_need hyperfine xxd python3 dd
dir=$(mktemp -d /dev/shm/newcalls-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
head -c "$size" /dev/urandom >"$dir/src"

# The ranges: offsets, one a line, and the same as preadv-dump operands.
python3 - "$dir/src" "$nranges" >"$dir/offsets" <<'PY'
import os, random, sys
size = os.path.getsize(sys.argv[1])
for _ in range(int(sys.argv[2])):
    print(random.randrange(size - 4))
PY
sed 's/$/:4/' "$dir/offsets" | tr '\n' ' ' >"$dir/ops"
head -n "$ndd" "$dir/offsets" >"$dir/offsets-dd"
head -n "$ndd" "$dir/offsets" | sed 's/$/:4/' | tr '\n' ' ' >"$dir/ops-dd"

cat >"$dir/pread.py" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
out = sys.stdout.buffer
for line in open(sys.argv[2]):
    out.write(os.pread(fd, 4, int(line)))
PY
cat >"$dir/dd-loop.sh" <<'SH'
while read -r off; do
  dd if="$1" iflag=skip_bytes,count_bytes skip="$off" count=4 status=none
done <"$2"
SH

dump="'$bindir/preadv-dump'"
# The outputs must agree before their speed matters.
xxd "$dir/src" | cmp - <("$bindir/preadv-dump" "$dir/src")
# shellcheck disable=SC2046 # the operands are words
"$bindir/preadv-dump" -f raw --stats "$dir/src" $(cat "$dir/ops") \
  2>"$dir/stats" | cmp - <(python3 "$dir/pread.py" "$dir/src" "$dir/offsets")
# shellcheck disable=SC2046
"$bindir/preadv-dump" -f raw "$dir/src" $(cat "$dir/ops-dd") \
  | cmp - <(bash "$dir/dd-loop.sh" "$dir/src" "$dir/offsets-dd")

# No shell between hyperfine and the commands (-N): the ranges are put on
# the command line here, and the standard output of every command goes
# to /dev/null, hyperfine's default.
for round in $(seq "$rounds"); do
  hyperfine -N --style none --warmup 1 --runs "$runs" \
    --export-json "$dir/preadv.$round.json" \
    -n dump-xxd "$dump '$dir/src'" \
    -n xxd "xxd '$dir/src'" \
    -n dump-ranges "$dump -f raw '$dir/src' $(cat "$dir/ops")" \
    -n python-pread "python3 '$dir/pread.py' '$dir/src' '$dir/offsets'" \
    -n python-start "python3 -c pass" \
    -n dd-loop "bash '$dir/dd-loop.sh' '$dir/src' '$dir/offsets-dd'" \
    >/dev/null
done
bench_export "$dir"/preadv.*.json
# The dd loop reads fewer ranges (its time is scaled in the summary
# below): no ratio of its raw time.
bench_pair preadv "hex dump of $size" dump-xxd xxd
bench_pair preadv "$nranges ranges of 4 bytes" dump-ranges python-pread

python3 - "$size" "$nranges" "$ndd" "$(cat "$dir/stats")" "$dir"/preadv.*.json <<'PY'
import json, statistics, sys
size, nranges, ndd, stats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
times = {}
for path in sys.argv[5:]:
    for r in json.load(open(path))["results"]:
        times.setdefault(r["command"], []).extend(r["times"])
med = {k: statistics.median(v) * 1000 for k, v in times.items()}
n = len(times["xxd"])
print(f"preadv.sh: {n} runs of each command; medians")
d, x = med["dump-xxd"], med["xxd"]
print(f"hex dump of {size} to /dev/null: preadv-dump {d:.0f} ms, "
      f"xxd {x:.0f} ms; ratio {x/d:.1f}x")
r, p = med["dump-ranges"], med["python-pread"]
print(f"{nranges} ranges of 4 bytes (-f raw): preadv-dump {r:.1f} ms, "
      f"python3 os.pread loop {p:.1f} ms; ratio {p/r:.1f}x "
      f"(python3 starting alone: {med['python-start']:.0f} ms)")
dd = med["dd-loop"] * nranges / ndd
print(f"{nranges} ranges of 4 bytes: dd loop {dd:.0f} ms (measured on "
      f"{ndd} ranges, {med['dd-loop']:.0f} ms, scaled by {nranges / ndd:g}); "
      f"ratio {dd/r:.0f}x")
print(f"preadv-dump --stats: {stats.split(': ', 2)[-1]}")
PY
