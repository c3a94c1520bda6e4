#!/bin/bash
# bench/splice.sh: `splice-in f | splice-out g` against `cat f | cat > g`
# on a file in tmpfs.  hyperfine runs the two in alternating rounds (the
# machine's load drifts); medians over all runs and the ratio are printed.
# The destination is removed before each run (--prepare), so that freeing
# the previous copy is not timed.
#   usage: bench/splice.sh [SIZE]   (default 1G; a head -c size)
#   env:   ROUNDS (default 5), RUNS per command per round (default 2)
set -euo pipefail
size=${1:-1G}
rounds=${ROUNDS:-5}
runs=${RUNS:-2}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
bench_need hyperfine python3 cmp
dir=$(mktemp -d /dev/shm/newcalls-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
head -c "$size" /dev/urandom >"$dir/src"

# The copy must be right before its speed matters.
"$bindir/splice-in" "$dir/src" | "$bindir/splice-out" "$dir/dst"
cmp "$dir/src" "$dir/dst"

# Two destinations: a tmpfs file (the whole copy), and /dev/null (only the
# trip through the pipe, where splice saves the copies).
for round in $(seq "$rounds"); do
  hyperfine --style none --warmup 1 --runs "$runs" \
    --prepare "rm -f '$dir/dst'" --export-json "$dir/splice.$round.json" \
    -n splice-file "'$bindir/splice-in' '$dir/src' | '$bindir/splice-out' '$dir/dst'" \
    -n cat-file "cat '$dir/src' | cat > '$dir/dst'" \
    -n splice-null "'$bindir/splice-in' '$dir/src' | '$bindir/splice-out' /dev/null" \
    -n cat-null "cat '$dir/src' | cat > /dev/null" >/dev/null
done
bench_export "$dir"/splice.*.json
bench_pair splice "$size to a tmpfs file" splice-file cat-file
bench_pair splice "$size to /dev/null" splice-null cat-null

python3 - "$size" "$dir"/splice.*.json <<'PY'
import json, statistics, sys
times = {}
for path in sys.argv[2:]:
    for r in json.load(open(path))["results"]:
        times.setdefault(r["command"], []).extend(r["times"])
med = {k: statistics.median(v) for k, v in times.items()}
n = len(times["splice-file"])
for dest in ("file", "null"):
    s, c = med["splice-" + dest], med["cat-" + dest]
    where = "tmpfs file" if dest == "file" else "/dev/null"
    # A median below the timer's grain (a small smoke run) has no ratio.
    ratio = f"{c/s:.2f}x" if s > 0 else "none (too short to time)"
    print(f"splice.sh {sys.argv[1]} to {where}, {n} runs each: "
          f"splice-in|splice-out {s*1000:.0f} ms, cat|cat {c*1000:.0f} ms "
          f"(medians); ratio {ratio}")
PY
