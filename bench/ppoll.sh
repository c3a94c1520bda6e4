#!/bin/bash
# bench/ppoll.sh: three figures of ppoll-wait.
#  - wake-up latency: a waiter sleeps on an empty FIFO; a writer opens it
#    and writes a line; the time from just before the writer's open until
#    the waiter has exited and been reaped.  ppoll-wait (ppoll, and
#    --select) against bash's `read -t` on the same FIFO (opened with <>,
#    so that -t covers the whole wait, as ppoll-wait's -t does).  The
#    writer acts only once the waiter sleeps in its wait (by its
#    /proc/PID/wchan); the rounds alternate between the waiters; medians.
#  - the same latency for the targets of issue 19, from the event to the
#    waiter's exit; medians, p99, min-max:
#      a path appears: `ppoll-wait --exists DIR/f` against inotifywait on
#      DIR (-e create,moved_to: it cannot wait for a path that does not
#      exist, so it watches the directory, the nearest it can do) and a
#      `while [ ! -e DIR/f ]; do sleep 0.01; done` loop; the event: the
#      bench creates DIR/f;
#      a process ends: `ppoll-wait pid:N` against a `while kill -0 N;
#      do sleep 0.01; done` loop and, where tail has --pid, `tail
#      --pid=N -s 0.01 -f /dev/null` (tail polls the pid every second by
#      default: a second a round would not fit the bench's time; -s 0.01
#      is the loop's interval); N, the bench's child (not the waiter's),
#      ends on the bench's SIGTERM and is reaped at once by the bench,
#      as by any parent: kill -0 and tail take a zombie for alive.
#    The event only once the waiter sleeps (its wchan: in its poll, or a
#    loop's bash waiting for its sleep), then 0 to 10 ms later, at random
#    (a loop's latency depends on the moment in its sleep), the same
#    delay for every waiter of a round; the waiters alternate round by
#    round, so that run i of each is paired with run i of the others.
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
bench_need hyperfine python3 bash timeout inotifywait
dir=$(mktemp -d "${TMPDIR:-/tmp}/newcalls-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# The tool must work before its speed matters: a descriptor, a path that
# exists (ready at once), and this shell's pid, which does not end (the
# timeout, not an error: pidfd_open works here).
"$tool" -q -t 0 /dev/null
"$tool" -q -t 0 --exists "$dir"
status=0
"$tool" -q -t 0 "pid:$$" || status=$?
if [[ $status -ne 124 ]]; then
  echo "bench: $tool -t 0 pid:$$ exited with $status, not 124 (timeout)" >&2
  exit 1
fi
# tail --pid is GNU's: a tail without it is left out, with a word.
tail_pid=0
if tail --help 2>&1 | grep -q -- --pid; then
  tail_pid=1
else
  echo "bench: this tail has no --pid; ppoll-wait pid: against the loop only" >&2
fi

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

python3 - "$tool" "$dir" "$runs" "$tail_pid" <<'PY'
import json, math, os, random, signal, statistics, subprocess, sys, threading
import time

tool, tmp, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
tail_pid = sys.argv[4] == "1"
watched = os.path.join(tmp, "dir")
os.mkdir(watched)
path = os.path.join(watched, "f")


def proc(pid, name):
    try:
        with open(f"/proc/{pid}/{name}") as f:
            return f.read()
    except OSError:
        return ""


def comm(pid):
    """The program PID runs: before its exec, still the bench's fork."""
    stat = proc(pid, "stat")
    return stat.split(" (")[1].split(")")[0] if stat else ""


def polls(name):
    """Whether a waiter that exec'd NAME sleeps in its wait: a poll or
    select (inotifywait's pselect6), a read of an inotify descriptor, a
    sleep (tail -s), by its wchan; or, where the kernel hides it, its
    state."""
    def asleep(pid):
        stat = proc(pid, "stat")
        if comm(pid) != name or stat.split(") ")[1][0] != "S":
            return False
        wchan = proc(pid, "wchan")
        return wchan in ("", "0") or any(
            w in wchan for w in ("poll", "select", "inotify", "nanosleep"))
    return asleep


def loop_asleep(pid):
    """A bash loop sleeps when its bash waits (for its sleep) or a sleep
    runs: its test ([ or kill -0) has run at least once by then."""
    if comm(pid) != "bash":
        return False
    return "wait" in proc(pid, "wchan") or any(
        comm(child) == "sleep"
        for child in proc(pid, f"task/{pid}/children").split())


def no_target():
    return None


def appear(_):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    os.close(fd)


def new_target():
    return subprocess.Popen(["sleep", "1000"])


def end(target):
    # Reaped at once, as a parent would: kill -0 and tail take a zombie
    # for alive (ppoll-wait does not: its pidfd is readable at the exit).
    target.send_signal(signal.SIGTERM)
    target.wait()


def stop(*procs):
    for p in procs:
        if p is not None and p.poll() is None:
            p.kill()
            p.wait()


def round_trip(name, argv, asleep, start_target, event, delay):
    """The time from EVENT, DELAY seconds after the waiter sleeps, until
    the waiter has exited and been reaped."""
    target = start_target()
    p = subprocess.Popen(argv(target))
    # Not p.wait(timeout=): it polls, by sleeps of 0.5 ms and more.
    watchdog = threading.Timer(10, p.kill)
    watchdog.daemon = True
    try:
        deadline = time.monotonic() + 10
        while not asleep(p.pid):
            if time.monotonic() > deadline or p.poll() is not None:
                sys.exit(f"bench: {name} does not wait")
        watchdog.start()
        time.sleep(delay)
        start = time.perf_counter()
        event(target)
        p.wait()
        elapsed = time.perf_counter() - start
        if p.returncode == -signal.SIGKILL:
            sys.exit(f"bench: {name} missed the event")
    finally:
        watchdog.cancel()
        stop(p, target)
    if p.returncode != 0:
        sys.exit(f"bench: {name} exited with {p.returncode}")
    if os.path.lexists(path):
        os.unlink(path)
    return elapsed


rand = random.Random(19)


def p99(t):
    """The time that 99 % of the rounds do not exceed (nearest rank)."""
    return sorted(t)[math.ceil(0.99 * len(t)) - 1]


def measure(scenario, title, waiters, start_target, event):
    """WAITERS: name -> (its argv, a function of the target; its asleep),
    ppoll-wait first: the ratios are to its median."""
    times = {name: [] for name in waiters}
    for _ in range(runs):
        # A loop's latency depends on where in its 10 ms sleep the event
        # falls: at a random moment, as a real event's, the same for
        # every waiter of the round (paired).
        delay = rand.uniform(0, 0.01)
        for name, (argv, asleep) in waiters.items():
            times[name].append(
                round_trip(name, argv, asleep, start_target, event, delay))
    # The rounds in hyperfine's form, for bench/report.
    with open(os.path.join(tmp, f"{scenario}.1.json"), "w") as f:
        json.dump({"results": [{"command": name, "times": t}
                               for name, t in times.items()]}, f)
    us = {name: [x * 1e6 for x in t] for name, t in times.items()}
    tool_med = statistics.median(next(iter(us.values())))
    print(f"{title}, {runs} rounds each (median, p99, min-max):")
    for i, (name, t) in enumerate(us.items()):
        med = statistics.median(t)
        ratio = "" if i == 0 else f"; {med / tool_med:.2f} x ppoll-wait's"
        print(f"  {name:19} {med:7.0f} us, p99 {p99(t):7.0f} us,"
              f" {min(t):.0f}-{max(t):.0f} us{ratio}")


measure("exists",
        "path appears, create of DIR/f to exit"
        " (inotifywait watches DIR: it cannot wait for DIR/f)", {
            "ppoll-wait --exists": (
                lambda _: [tool, "-q", "-t", "10s", "--exists", path],
                polls("ppoll-wait")),
            "inotifywait DIR": (
                lambda _: ["inotifywait", "-qq", "-e", "create,moved_to",
                           watched],
                polls("inotifywait")),
            "sleep 0.01 loop": (
                lambda _: ["bash", "-c",
                           'while [ ! -e "$1" ]; do sleep 0.01; done', "_",
                           path],
                loop_asleep),
        }, no_target, appear)

ends = {
    "ppoll-wait pid:N": (
        lambda t: [tool, "-q", "-t", "10s", f"pid:{t.pid}"],
        polls("ppoll-wait")),
    "kill -0 loop": (
        lambda t: ["bash", "-c",
                   'while kill -0 "$1" 2>/dev/null; do sleep 0.01; done',
                   "_", str(t.pid)],
        loop_asleep),
}
if tail_pid:
    ends["tail --pid"] = (
        lambda t: ["tail", f"--pid={t.pid}", "-s", "0.01", "-f", "/dev/null"],
        polls("tail"))
measure("pid", "process ends, SIGTERM to exit"
        " (tail with -s 0.01: by default it polls every 1 s)",
        ends, new_target, end)
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
bench_export "$dir"/latency.1.json "$dir"/exists.1.json "$dir"/pid.1.json \
  "$dir"/startup-*.1.json
bench_pair latency "wake-up latency" ppoll-wait "bash read -t"
bench_pair latency "wake-up latency, --select" "ppoll-wait --select" \
  "bash read -t"
bench_pair exists \
  "path appears, create to exit (inotifywait: on its directory, the nearest it can do)" \
  "ppoll-wait --exists" "inotifywait DIR"
bench_pair exists "path appears, create to exit" "ppoll-wait --exists" \
  "sleep 0.01 loop"
bench_pair pid "process ends, SIGTERM to exit" "ppoll-wait pid:N" "kill -0 loop"
if [[ $tail_pid -eq 1 ]]; then
  bench_pair pid \
    "process ends, SIGTERM to exit (tail: -s 0.01; it polls every 1 s by default)" \
    "ppoll-wait pid:N" "tail --pid"
fi
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
