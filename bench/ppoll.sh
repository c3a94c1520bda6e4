#!/bin/bash
# bench/ppoll.sh: two figures of ppoll-wait.
#  - wake-up latency: a waiter sleeps on an empty FIFO; a writer opens it
#    and writes a line; the time from just before the writer's open until
#    the waiter has exited and been reaped.  ppoll-wait (ppoll, and
#    --select) against bash's `read -t` on the same FIFO (opened with <>,
#    so that -t covers the whole wait, as ppoll-wait's -t does).  The
#    writer acts only once the waiter sleeps in its wait (by its
#    /proc/PID/wchan); the rounds alternate between the waiters; medians.
#  - start-up: `ppoll-wait -t 0 /dev/null` against `true` and
#    `timeout 0 true`, by hyperfine without a shell, in the caller's
#    locale and in the C locale; medians.
#   usage: bench/ppoll.sh
#   env:   RUNS latency rounds per waiter (default 300), STARTUP_RUNS
#          hyperfine runs per command (default 500), NC_BINDIR
set -euo pipefail
runs=${RUNS:-300}
startup_runs=${STARTUP_RUNS:-500}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
tool=$bindir/ppoll-wait
[[ -x $tool ]] || {
  echo "bench: no $tool; build first or set NC_BINDIR" >&2
  exit 1
}
bench_need hyperfine python3 bash timeout
dir=$(mktemp -d "${TMPDIR:-/tmp}/newcalls-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# The tool must work before its speed matters.
"$tool" -q -t 0 /dev/null

python3 - "$tool" "$dir" "$runs" <<'PY'
import json, os, statistics, subprocess, sys, time

tool, tmp, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
fifo = os.path.join(tmp, "fifo")
os.mkfifo(fifo)
waiters = {
    "ppoll-wait": [tool, "-q", "-t", "10s", fifo],
    "ppoll-wait --select": [tool, "-q", "--select", "-t", "10s", fifo],
    "bash read -t": ["bash", "-c", 'read -t 10 -r line <>"$1"', "_", fifo],
}

def asleep(pid):
    """Whether PID sleeps in a poll or select: its wchan, or where the
    kernel hides it, its state once it has exec'd."""
    try:
        with open(f"/proc/{pid}/wchan") as f:
            wchan = f.read()
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return False
    if stat.split(") ")[1][0] != "S":
        return False
    if wchan not in ("", "0"):
        return "poll" in wchan or "select" in wchan
    return stat.split(" (")[1].split(")")[0] in ("ppoll-wait", "bash")

def round_trip(argv):
    p = subprocess.Popen(argv)
    deadline = time.monotonic() + 10
    while not asleep(p.pid):
        if time.monotonic() > deadline or p.poll() is not None:
            sys.exit(f"bench: {argv[0]} does not wait")
    start = time.perf_counter()
    fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    os.write(fd, b"x\n")
    p.wait()
    elapsed = time.perf_counter() - start
    os.close(fd)
    if p.returncode != 0:
        sys.exit(f"bench: {argv[0]} exited with {p.returncode}")
    return elapsed

times = {name: [] for name in waiters}
for _ in range(runs):
    for name, argv in waiters.items():
        times[name].append(round_trip(argv))
# The rounds in hyperfine's form, for bench/report.
with open(os.path.join(tmp, "latency.1.json"), "w") as f:
    json.dump({"results": [{"command": name, "times": t}
                           for name, t in times.items()]}, f)
med = {name: statistics.median(t) * 1e6 for name, t in times.items()}
peer = med["bash read -t"]
print(f"wake-up latency, FIFO write to exit, {runs} rounds each (medians):")
for name in waiters:
    ratio = ("" if name == "bash read -t"
             else f"; bash/ppoll-wait {peer / med[name]:.2f}")
    print(f"  {name:27} {med[name]:6.0f} us{ratio}")
PY

# Twice: in the caller's locale, and in the C locale, where setlocale()
# has no locale files to load: the difference is that loading, which
# every newcalls tool does first (cli_init).
for locale in "" C; do
  LC_ALL=$locale hyperfine --style none -N --warmup 20 --runs "$startup_runs" \
    --export-json "$dir/startup-${locale:-caller}.1.json" \
    -n ppoll-wait "$tool -t 0 /dev/null" \
    -n true "true" \
    -n "timeout 0 true" "timeout 0 true" >/dev/null 2>&1
done
bench_export "$dir"/latency.1.json "$dir"/startup-*.1.json
bench_pair latency "wake-up latency" ppoll-wait "bash read -t"
bench_pair latency "wake-up latency, --select" "ppoll-wait --select" \
  "bash read -t"
bench_pair startup-caller "start-up, locale ${LC_ALL:-${LANG:-C}}" \
  ppoll-wait "timeout 0 true"
bench_pair startup-C "start-up, locale C" ppoll-wait "timeout 0 true"

python3 - "$startup_runs" "${LC_ALL:-${LANG:-C}}" "$dir" <<'PY'
import json, statistics, sys
runs, caller, tmp = sys.argv[1:]
for name, locale in (("caller", caller), ("C", "C")):
    with open(f"{tmp}/startup-{name}.1.json") as f:
        results = json.load(f)["results"]
    med = {r["command"]: statistics.median(r["times"]) * 1e6 for r in results}
    tool = med["ppoll-wait"]
    print(f"start-up, locale {locale}, {runs} runs each (medians):")
    for cmd, t in med.items():
        label = "ppoll-wait -t 0 /dev/null" if cmd == "ppoll-wait" else cmd
        ratio = "" if cmd == "ppoll-wait" else f"; ppoll-wait/{cmd} {tool / t:.2f}"
        print(f"  {label:27} {t:6.0f} us{ratio}")
PY
