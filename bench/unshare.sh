#!/bin/bash
# bench/unshare.sh: unshare-run against util-linux's unshare(1), in the two
# usual cases: a new network namespace (`-n true`), and a new PID
# namespace with its own /proc (`-pf --mount-proc true`; also with
# --as-pid-1, to show what the init costs).  hyperfine runs the commands
# in alternating rounds (the machine's load drifts, and the kernel tears
# network namespaces down in the background); medians over all runs and
# the ratios are printed.  Needs root: without -U, creating
# namespaces needs CAP_SYS_ADMIN.
#   usage: bench/unshare.sh
#   env:   ROUNDS (default 5), RUNS per command per round (default 30),
#          NC_BINDIR (default: the cmd directory next to this script)
set -euo pipefail
rounds=${ROUNDS:-5}
runs=${RUNS:-30}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
bench_need hyperfine unshare python3
[[ $(id -u) -eq 0 ]] || {
  echo "bench: run as root: namespaces without -U need CAP_SYS_ADMIN" >&2
  exit 1
}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Both must do the job before their speed matters.
[[ $("$bindir/unshare-run" -n ip -o link | wc -l) -eq 1 ]]
[[ $(unshare -n ip -o link | wc -l) -eq 1 ]]
[[ $("$bindir/unshare-run" -pf --mount-proc sh -c 'echo $$') -eq 2 ]]
[[ $(unshare -pf --mount-proc sh -c 'echo $$') -eq 1 ]]

# -N: no shell between hyperfine and the command, whose start is measured.
for round in $(seq "$rounds"); do
  hyperfine -N --style none --warmup 3 --runs "$runs" \
    --export-json "$dir/unshare.$round.json" \
    -n run-net "$bindir/unshare-run -n true" \
    -n ul-net "unshare -n true" \
    -n run-pid "$bindir/unshare-run -pf --mount-proc true" \
    -n ul-pid "unshare -pf --mount-proc true" \
    -n run-pid1 "$bindir/unshare-run -pf --as-pid-1 --mount-proc true" \
    >/dev/null
done
bench_export "$dir"/unshare.*.json
bench_pair unshare "-n true" run-net ul-net
bench_pair unshare "-pf --mount-proc true" run-pid ul-pid

python3 - "$dir"/unshare.*.json <<'PY'
import json, statistics, sys
times = {}
for path in sys.argv[1:]:
    for r in json.load(open(path))["results"]:
        times.setdefault(r["command"], []).extend(r["times"])
med = {k: statistics.median(v) for k, v in times.items()}
for case, what in (("net", "-n true"), ("pid", "-pf --mount-proc true")):
    r, u = med["run-" + case], med["ul-" + case]
    n = len(times["run-" + case])
    print(f"unshare.sh {what}, {n} runs each: unshare-run {r*1000:.2f} ms, "
          f"unshare {u*1000:.2f} ms (medians); ratio {u/r:.2f}x")
# What the init (pid 1 that reaps, COMMAND as pid 2) costs: one fork.
r1, u = med["run-pid1"], med["ul-pid"]
print(f"unshare.sh -pf --as-pid-1 --mount-proc true (no init): unshare-run "
      f"{r1*1000:.2f} ms; ratio {u/r1:.2f}x")
PY
