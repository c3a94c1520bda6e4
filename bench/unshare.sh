#!/bin/bash
# bench/unshare.sh: unshare-run against util-linux's unshare(1), in the two
# usual cases: a new network namespace (`-n true`), and a new PID
# namespace with its own /proc (`-pf --mount-proc true`; also with
# --as-pid-1, to show what the init costs).  hyperfine runs the commands
# in alternating rounds (the machine's load drifts, and the kernel tears
# network namespaces down in the background); medians over all runs and
# the ratios are printed.  Needs root: without -U, creating
# namespaces needs CAP_SYS_ADMIN.
#
# Then unshare-run's sandbox against bubblewrap (bwrap), the same command
# lines through both, in a private mount namespace of the bench (unshare
# -m) where trees of N tmpfs submounts are made (never the machine's own
# mounts); each sandbox is a read-only /usr and the links to it, plus:
#   - one --ro-bind of a tree of 50 submounts, and BINDS of them;
#   - bwrap's one-liner: --ro-bind / / --dev /dev --proc /proc --tmpfs
#     /tmp --unshare-all --die-with-parent true;
#   - SERIES_BINDS binds of a tree of N submounts, N in SUBMOUNTS, and
#     none: the time per bind against N (the new mount API binds and
#     makes read-only a whole tree in a constant number of calls; bwrap
#     0.8 remounts each submount, reading /proc/self/mountinfo).
# The set-up (trees, mounts) is outside the timing.  Skipped, saying so,
# when unshare-run has no --ro-bind or bwrap is not installed.
#   usage: bench/unshare.sh
#   env:   ROUNDS (default 5), RUNS per command per round (default 30),
#          BINDS (default 200), SUBMOUNTS (default "10 50 200"),
#          SERIES_BINDS (default 20), SANDBOX_RUNS per command per round
#          of the sandbox part (default: RUNS; bwrap's 200 binds take
#          seconds),
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
binds=${BINDS:-200}
submounts=${SUBMOUNTS:-10 50 200}
series_binds=${SERIES_BINDS:-20}
sandbox_runs=${SANDBOX_RUNS:-$runs}

# sandbox_bench: the sandbox part, run in a private mount namespace of
# its own (below) with $dir the bench's scratch directory.
sandbox_bench() {
  local ns=$dir/ns n i
  mkdir -p "$ns"
  mount -t tmpfs -o size=16m,mode=755 nc-bench "$ns"
  # tree_N: N directories, each a small tmpfs.
  for n in 50 $submounts; do
    [[ -d $ns/tree$n ]] && continue
    for ((i = 0; i < n; i++)); do
      mkdir -p "$ns/tree$n/d$i"
      mount -t tmpfs -o size=64k,mode=755 "nc-sub$i" "$ns/tree$n/d$i"
    done
  done
  local base="--ro-bind /usr /usr --symlink usr/bin /bin"
  base+=" --symlink usr/lib /lib --symlink usr/lib64 /lib64"
  base+=" --symlink usr/sbin /sbin"
  local one="--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp"
  one+=" --unshare-all --die-with-parent"
  # binds N K: K read-only binds of tree_N.
  binds() {
    local k
    for ((k = 0; k < $2; k++)); do
      printf ' --ro-bind %s /t%d' "$ns/tree$1" "$k"
    done
  }
  local b1 bk tool
  b1=$(binds 50 1) bk=$(binds 50 "$binds")
  # Both must do the job before their speed matters: every submount of
  # every bind read-only.
  for tool in "$bindir/unshare-run" bwrap; do
    # shellcheck disable=SC2086 # the option strings, one word an option
    $tool $base $bk /usr/bin/sh -c \
      "! touch /t0/d0/x && ! touch /t$((binds - 1))/d49/x" 2>/dev/null
    # shellcheck disable=SC2086
    $tool $one /usr/bin/true
  done
  local -a cmds=()
  for tool in run:"$bindir/unshare-run" bwrap:bwrap; do
    cmds+=(-n "${tool%%:*}-bind1" "${tool#*:} $base$b1 /usr/bin/true"
      -n "${tool%%:*}-bind$binds" "${tool#*:} $base$bk /usr/bin/true"
      -n "${tool%%:*}-oneliner" "${tool#*:} $one /usr/bin/true"
      -n "${tool%%:*}-sub0" "${tool#*:} $base /usr/bin/true")
    for n in $submounts; do
      cmds+=(-n "${tool%%:*}-sub$n"
        "${tool#*:} $base$(binds "$n" "$series_binds") /usr/bin/true")
    done
  done
  local round
  for round in $(seq "$rounds"); do
    hyperfine -N --style none --warmup 2 --runs "$sandbox_runs" \
      --export-json "$dir/sandbox.$round.json" "${cmds[@]}" >/dev/null
  done
}

if [[ -n ${NC_BENCH_SANDBOX:-} ]]; then
  sandbox_bench
  exit
fi

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

if ! "$bindir/unshare-run" --help | grep -q -- '--ro-bind '; then
  echo "unshare.sh sandbox against bwrap: skipped: this unshare-run has" \
    "no --ro-bind"
  exit 0
fi
if ! command -v bwrap >/dev/null; then
  echo "unshare.sh sandbox against bwrap: skipped: bwrap is not installed"
  exit 0
fi
NC_BENCH_SANDBOX=1 dir=$dir unshare -m --propagation private "$BASH" "$0"
bench_export "$dir"/sandbox.*.json
bench_pair sandbox "--ro-bind of a tree of 50 submounts" run-bind1 bwrap-bind1
bench_pair sandbox "$binds --ro-bind of a tree of 50 submounts" \
  "run-bind$binds" "bwrap-bind$binds"
bench_pair sandbox "bwrap's one-liner (--ro-bind / / --dev --proc --tmpfs \
--unshare-all)" run-oneliner bwrap-oneliner
for n in $submounts; do
  bench_pair sandbox "$series_binds binds of a tree of $n submounts" \
    "run-sub$n" "bwrap-sub$n" submounts "$n"
done
# shellcheck disable=SC2086 # the counts, one word each
python3 - "$binds" "$series_binds" "$(bench_cores)" $submounts \
  "$dir"/sandbox.*.json <<'PY'
import json, statistics, sys
binds, series_binds, cores = sys.argv[1], int(sys.argv[2]), sys.argv[3]
subs = [a for a in sys.argv[4:] if not a.endswith(".json")]
times = {}
for path in [a for a in sys.argv[4:] if a.endswith(".json")]:
    for r in json.load(open(path))["results"]:
        times.setdefault(r["command"], []).extend(r["times"])
med = {k: statistics.median(v) for k, v in times.items()}
n = len(times["run-bind1"])
print(f"unshare.sh sandbox against bwrap, {n} runs each, {cores}:")
for case, what in (("bind1", "--ro-bind of a tree of 50 submounts"),
                   ("bind" + binds, f"{binds} --ro-bind of that tree"),
                   ("oneliner", "bwrap's one-liner")):
    r, b = med["run-" + case], med["bwrap-" + case]
    print(f"  {what}: unshare-run {r*1000:.2f} ms, bwrap {b*1000:.2f} ms "
          f"(medians); bwrap/unshare-run {b/r:.2f}x")
print(f"  time per bind ({series_binds} binds less none), against the "
      "submounts of the tree:")
for s in subs:
    per = {t: (med[f"{t}-sub{s}"] - med[f"{t}-sub0"]) / series_binds
           for t in ("run", "bwrap")}
    print(f"    {s} submounts: unshare-run {per['run']*1e6:.0f} us, "
          f"bwrap {per['bwrap']*1e6:.0f} us")
PY
