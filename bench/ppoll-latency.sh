#!/bin/bash
# bench/ppoll-latency.sh: how soon ppoll-wait follows a process.
#  - exit latency: a process (the bench's child, a `sleep`) ends on the
#    bench's SIGTERM and is reaped at once by the bench, as by any
#    parent; the time from just before the kill until the waiter has
#    exited and been reaped.  `ppoll-wait pid:N`, `ppoll-wait --status
#    pid:N` (which reads the status once the parent has reaped it)
#    against `tail --pid=N -s 0.01 -f /dev/null` (tail polls every
#    second by default: -s 0.01 keeps a round short) and util-linux's
#    `waitpid N` where installed.  The kill comes once the waiter sleeps
#    in its wait (its wchan), then 0 to 10 ms later, at random, the same
#    delay for every waiter of a round; the waiters alternate round by
#    round; median and p99.
#  - deadline latency: a child that outlives the deadline.  `ppoll-wait
#    pid:N -t T --kill` against `timeout -k K T CMD`, whose CMD is its
#    own child: TERM at T; and, for a child that ignores TERM, KILL K
#    after the deadline (`--kill-after=K`).  The time from the start of
#    the waiter until it has exited, less T (and K): the waiter's
#    start-up, the lateness of its timer, the signal, the child's end and
#    the waiter's exit; median and p99, the waiters alternating.  timeout
#    sends its KILL to its process group, itself included: it ends with
#    the KILL, without waiting for its child's end, which ppoll-wait waits
#    for.
# The bench prints the CPU: latencies of a few hundred microseconds mean
# little without it.
#   usage: bench/ppoll-latency.sh
#   env:   RUNS rounds per waiter (default 300), NC_BINDIR
set -euo pipefail
runs=${RUNS:-300}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
tool=$bindir/ppoll-wait
[[ -x $tool ]] || {
  echo "bench: no $tool; build first or set NC_BINDIR" >&2
  exit 1
}
bench_need python3 timeout
dir=$(mktemp -d "${TMPDIR:-/tmp}/newcalls-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# --status needs Linux 6.15 (PIDFD_INFO_EXIT): it fails at once before
# (status 1), and times out here (124) on this shell, which runs on.
status_ok=1
status=0
"$tool" -q --status -t 0 "pid:$$" 2>/dev/null || status=$?
if [[ $status -eq 1 ]]; then
  status_ok=0
  echo "bench: --status needs Linux 6.15: left out" >&2
elif [[ $status -ne 124 ]]; then
  echo "bench: $tool --status -t 0 pid:$$: status $status, not 124" >&2
  exit 1
fi
tail_pid=0
if tail --help 2>&1 | grep -q -- --pid; then
  tail_pid=1
else
  echo "bench: this tail has no --pid: left out" >&2
fi
waitpid=0
if command -v waitpid >/dev/null; then
  waitpid=1
else
  echo "bench: no waitpid (util-linux 2.38 or later): left out" >&2
fi
echo "CPU: $(bench_cores)"

python3 - "$tool" "$dir" "$runs" "$status_ok" "$tail_pid" "$waitpid" <<'PY'
import json, math, os, random, signal, statistics, subprocess, sys, threading
import time

tool, tmp, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
status_ok, tail_pid, waitpid = (a == "1" for a in sys.argv[4:7])
rand = random.Random(31)


def proc(pid, name):
    try:
        with open(f"/proc/{pid}/{name}") as f:
            return f.read()
    except OSError:
        return ""


def comm(pid):
    stat = proc(pid, "stat")
    return stat.split(" (")[1].split(")")[0] if stat else ""


def polls(name):
    """Whether the waiter, once it runs NAME, sleeps in its wait."""
    def asleep(pid, _=None):
        stat = proc(pid, "stat")
        if comm(pid) != name or stat.split(") ")[1][0] != "S":
            return False
        wchan = proc(pid, "wchan")
        return wchan in ("", "0") or any(
            w in wchan for w in ("poll", "select", "nanosleep", "wait"))
    return asleep


def holds_pidfd(name):
    """Whether the waiter, once it runs NAME, sleeps with a pidfd of the
    target open: --status sleeps once before it takes the target, as it
    checks the kernel with a child of its own."""
    asleep = polls(name)

    def holds(pid, target):
        if not asleep(pid, target):
            return False
        try:
            fds = os.listdir(f"/proc/{pid}/fdinfo")
        except OSError:
            return False
        return any(f"Pid:\t{target}\n" in proc(pid, f"fdinfo/{fd}")
                   for fd in fds)
    return holds


def stop(*procs):
    for p in procs:
        if p is not None and p.poll() is None:
            p.kill()
            p.wait()


def p99(t):
    """The time that 99 % of the rounds do not exceed (nearest rank)."""
    return sorted(t)[math.ceil(0.99 * len(t)) - 1]


def watched(p, name):
    """A watchdog that kills P after 10 s: it missed what it waited
    for.  Not p.wait(timeout=): it polls."""
    dog = threading.Timer(10, p.kill)
    dog.daemon = True
    dog.start()
    return dog


def exit_round(name, argv, asleep, delay):
    target = subprocess.Popen(["sleep", "1000"])
    p = subprocess.Popen(argv(target.pid))
    dog = watched(p, name)
    try:
        while not asleep(p.pid, target.pid):
            if p.poll() is not None:
                sys.exit(f"bench: {name} does not wait")
        time.sleep(delay)
        start = time.perf_counter()
        target.send_signal(signal.SIGTERM)
        target.wait()
        p.wait()
        elapsed = time.perf_counter() - start
    finally:
        dog.cancel()
        stop(p, target)
    want = 128 + signal.SIGTERM if "--status" in name else 0
    if p.returncode != want:
        sys.exit(f"bench: {name} exited with {p.returncode}, not {want}")
    return elapsed


# A child that ignores TERM: `exec` keeps an ignored signal ignored.
STUBBORN = ["sh", "-c", "trap '' TERM; exec sleep 1000"]
T, K = 0.02, 0.02


def deadline_round(name, argv, stubborn):
    child = [] if "timeout" in name else None
    target = None
    if child is None:
        target = subprocess.Popen(STUBBORN if stubborn
                                  else ["sleep", "1000"])
        # The target sleeps before the waiter starts.
        while not polls("sleep")(target.pid):
            pass
    start = time.perf_counter()
    p = subprocess.Popen(argv(target.pid if target else 0))
    dog = watched(p, name)
    try:
        p.wait()
        elapsed = time.perf_counter() - start
    finally:
        dog.cancel()
        stop(p, target)
    # timeout's KILL goes to its process group, itself included: the
    # shell's 137 is then its death by KILL.
    want = 137 if stubborn else 124
    if p.returncode not in (want, -signal.SIGKILL if stubborn else want):
        sys.exit(f"bench: {name} exited with {p.returncode}, not {want}")
    return elapsed - T - (K if stubborn else 0)


def report(scenario, title, times):
    with open(os.path.join(tmp, f"{scenario}.1.json"), "w") as f:
        json.dump({"results": [{"command": name, "times": t}
                               for name, t in times.items()]}, f)
    us = {name: [x * 1e6 for x in t] for name, t in times.items()}
    tool_med = statistics.median(next(iter(us.values())))
    print(f"{title}, {runs} rounds each (median, p99, min-max):")
    for i, (name, t) in enumerate(us.items()):
        med = statistics.median(t)
        ratio = "" if i == 0 else f"; {med / tool_med:.2f} x ppoll-wait's"
        print(f"  {name:25} {med:7.0f} us, p99 {p99(t):7.0f} us,"
              f" {min(t):.0f}-{max(t):.0f} us{ratio}")


waiters = {"ppoll-wait pid:N": (
    lambda pid: [tool, "-q", "-t", "10s", f"pid:{pid}"],
    holds_pidfd("ppoll-wait"))}
if status_ok:
    waiters["ppoll-wait --status"] = (
        lambda pid: [tool, "-q", "--status", "-t", "10s", f"pid:{pid}"],
        holds_pidfd("ppoll-wait"))
if tail_pid:
    waiters["tail --pid"] = (
        lambda pid: ["tail", f"--pid={pid}", "-s", "0.01", "-f",
                     "/dev/null"],
        polls("tail"))
if waitpid:
    waiters["waitpid"] = (lambda pid: ["waitpid", str(pid)],
                          polls("waitpid"))
times = {name: [] for name in waiters}
for _ in range(runs):
    delay = rand.uniform(0, 0.01)
    for name, (argv, asleep) in waiters.items():
        times[name].append(exit_round(name, argv, asleep, delay))
report("exit", "process ends (SIGTERM, reaped by its parent) to the"
       " waiter's exit (tail: -s 0.01)", times)

for scenario, stubborn, title in (
        ("kill", False, f"--kill: TERM at a {T * 1e3:.0f} ms deadline, start"
         " to exit less the deadline"),
        ("kill-after", True, f"--kill-after: TERM ignored, KILL"
         f" {K * 1e3:.0f} ms after a {T * 1e3:.0f} ms deadline, start to"
         " exit less both (timeout -k dies with its KILL, ppoll-wait waits"
         " for the end)")):
    kill = ["--kill=TERM"] + ([f"--kill-after={K}"] if stubborn else [])
    cmd = STUBBORN if stubborn else ["sleep", "1000"]
    waiters = {
        "ppoll-wait --kill": lambda pid, kill=kill: (
            [tool, "-q", "-t", str(T)] + kill + [f"pid:{pid}"]),
        "timeout -k": lambda _, cmd=cmd: (
            ["timeout", "-k", str(K if stubborn else 10), str(T)] + cmd),
    }
    times = {name: [] for name in waiters}
    for _ in range(runs):
        for name, argv in waiters.items():
            times[name].append(deadline_round(name, argv, stubborn))
    report(scenario, title, times)
PY

bench_export "$dir"/exit.1.json "$dir"/kill.1.json "$dir"/kill-after.1.json
bench_pair exit "process ends, exit to exit (tail: -s 0.01)" \
  "ppoll-wait pid:N" "tail --pid"
bench_pair kill "--kill TERM at the deadline, deadline to exit" \
  "ppoll-wait --kill" "timeout -k"
bench_pair kill-after "--kill-after KILL, deadline to exit" \
  "ppoll-wait --kill" "timeout -k"
