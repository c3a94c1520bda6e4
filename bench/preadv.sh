#!/bin/bash
# bench/preadv.sh: preadv-dump against the tools one would otherwise use,
# and its two engines (--engine=preadv, --engine=uring) against each
# other, on a random file of SIZE bytes:
#   - the hex dump of the file (its first HEX_SIZE bytes if it is larger),
#     against xxd (both to /dev/null), the file in tmpfs; and its first
#     XXD_SIZE bytes (-l) in xxd's -p and -b formats, against xxd -p and
#     xxd -b;
#   - RANGES 4-byte ranges at random offsets (-f raw), the file in tmpfs:
#     preadv-dump (its default engine, and each engine by --engine)
#     against a Python loop of os.pread (python3 -c pass is timed too:
#     its start-up) and a shell loop of dd.  The dd loop is slow: it runs
#     over the first DD_RANGES ranges only, and its time is scaled up to
#     RANGES (said so in the results).  tmpfs is a case of its own for
#     io_uring, which cannot read shmem files inline (io-wq does);
#   - the same ranges by each engine and the default one from ext4 on a
#     loop device, as root: warm (the file in the page cache: the case
#     the goals are about), then cold (its pages dropped before every
#     run: hyperfine --prepare, dd iflag=nocache on that file only,
#     checked once by fincore).  The image is a file under COLD_DIR, on a
#     disk, attached with direct I/O (losetup --direct-io=on) so that the
#     page cache holds none of it; the file system is mounted in a
#     private mount namespace (unshare -m) on a tmpfs of its own, seen by
#     no other process, and the loop device is detached at exit, on error
#     too (and by the kernel when the namespace ends, if killed);
#   - the floor: as many ranges, adjacent (one read), on both files: what
#     is not reading (start-up, parsing, output);
#   - the system calls of each engine, counted by strace -c -f, and each
#     engine's own account (--debug).
# hyperfine runs the commands in alternating rounds (the machine's load
# drifts); medians over all runs, min-max, and the ratios are printed, the
# engines' ratio also as the lowest and highest ratio of paired runs (run
# i of one engine against run i of the other in the same round).
#   usage: bench/preadv.sh [SIZE]   (default 1G; a head -c size)
#   env:   ROUNDS (default 5), RUNS per command per round (default 2),
#          RANGES (default 10000), DD_RANGES (default 500),
#          HEX_SIZE (default 100M), XXD_SIZE (default 64M), EXT4 (0: no
#          ext4 part), COLD_DIR
#          (where the image goes: a disk, not tmpfs; default $TMPDIR,
#          else /var/tmp)
# Without root, or where a loop device or a mount namespace cannot be
# had, the ext4 part is skipped with a message.
# A preadv-dump without --engine (before issue 16) is measured against
# its peers only, and on ext4 with its one engine.
set -euo pipefail
size=${1:-1G}
rounds=${ROUNDS:-5}
runs=${RUNS:-2}
nranges=${RANGES:-10000}
ndd=${DD_RANGES:-500}
hex_size=${HEX_SIZE:-100M}
xxd_size=${XXD_SIZE:-64M}
ext4=${EXT4:-1}
cold_dir=${COLD_DIR:-${TMPDIR:-/var/tmp}}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
bench_need hyperfine xxd python3 dd numfmt
dir=$(mktemp -d /dev/shm/newcalls-bench.XXXXXX)
image_dir=
cleanup() {
  rm -rf "$dir"
  if [[ -n $image_dir ]]; then
    rm -rf "$image_dir"
  fi
}
trap cleanup EXIT
echo "preadv.sh: load before: $(uptime)" >"$dir/load"
head -c "$size" /dev/urandom >"$dir/src"
file_bytes=$(stat -c %s "$dir/src")
hex_bytes=$(numfmt --from=iec "$hex_size")

# have CMD...: whether every CMD is installed.
have() {
  local cmd
  for cmd in "$@"; do
    command -v "$cmd" >/dev/null || return 1
  done
}

# The engines, if this preadv-dump has them.
engines=()
if "$bindir/preadv-dump" --help | grep -q -- '--engine='; then
  engines=(preadv uring)
else
  echo "preadv.sh: preadv-dump has no --engine: its engines are not" \
    "compared" >&2
fi

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
ops=$(cat "$dir/ops")
# The floor: as many ranges, adjacent from the middle of the file, so one
# read: what preadv-dump spends apart from reading (start-up, parsing,
# output); the engines' times less this one are their reading.
python3 - "$file_bytes" "$nranges" >"$dir/ops-floor" <<'PY'
import sys
size, n = int(sys.argv[1]), int(sys.argv[2])
base = max(0, size // 2 - 2 * n)
print(" ".join(f"{base + 4 * i}:4" for i in range(n)))
PY
floor_ops=$(cat "$dir/ops-floor")
floor_engine=
if ((${#engines[@]})); then
  floor_engine=--engine=preadv
fi
# hyperfine takes each command as one argument, of at most 128 KiB
# (MAX_ARG_STRLEN): about 10 000 ranges of a 1 GiB file.
if ((${#ops} + 256 > 131072)); then
  echo "preadv.sh: $nranges ranges make a command of ${#ops} bytes," \
    "over the 128 KiB of an argument: fewer RANGES" >&2
  exit 1
fi

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

# The hex dump: the whole file, or its first HEX_SIZE bytes.
if ((file_bytes <= hex_bytes)); then
  hex_what=$size
  hex_dump=("$dir/src")
  hex_xxd=("$dir/src")
else
  hex_what="the first $hex_size of $size"
  hex_dump=("$dir/src" "0:$hex_bytes")
  hex_xxd=(-l "$hex_bytes" "$dir/src")
fi

# -p and -b: the first XXD_SIZE bytes, by xxd's -l for both tools.
xxd_bytes=$(numfmt --from=iec "$xxd_size")
((xxd_bytes <= file_bytes)) || xxd_bytes=$file_bytes

dump="'$bindir/preadv-dump'"
# The outputs must agree before their speed matters.
xxd "${hex_xxd[@]}" | cmp - <("$bindir/preadv-dump" "${hex_dump[@]}")
for fmt in -p -b; do
  xxd "$fmt" -l "$xxd_bytes" "$dir/src" \
    | cmp - <("$bindir/preadv-dump" "$fmt" -l "$xxd_bytes" "$dir/src")
done
python3 "$dir/pread.py" "$dir/src" "$dir/offsets" >"$dir/expected"
# shellcheck disable=SC2086 # the operands are words
"$bindir/preadv-dump" -f raw --stats "$dir/src" $ops 2>"$dir/stats" \
  | cmp - "$dir/expected"
# shellcheck disable=SC2086
"$bindir/preadv-dump" $floor_engine -f raw --stats "$dir/src" $floor_ops \
  2>"$dir/stats-floor" >/dev/null
# shellcheck disable=SC2046
"$bindir/preadv-dump" -f raw "$dir/src" $(cat "$dir/ops-dd") \
  | cmp - <(bash "$dir/dd-loop.sh" "$dir/src" "$dir/offsets-dd")

# count_calls NAME CMD...: CMD's system calls (strace -c -f, its summary
# table) in $dir/strace.NAME; CMD's standard output must be the ranges.
# A sanitizer build's leak check cannot run under ptrace (LeakSanitizer
# then ends the process with an error): off for the traced run.
count_calls() {
  local name=$1
  shift
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    strace -c -f -o "$dir/strace.$name" "$@" | cmp - "$dir/expected"
}

engine_cmds=()
for engine in "${engines[@]}"; do
  # shellcheck disable=SC2086
  "$bindir/preadv-dump" --engine="$engine" --debug -f raw "$dir/src" $ops \
    2>"$dir/debug.$engine.tmpfs" | cmp - "$dir/expected"
  engine_cmds+=(-n "dump-$engine"
    "$dump --engine=$engine -f raw '$dir/src' $ops")
done
if ((${#engines[@]})); then
  # shellcheck disable=SC2086
  "$bindir/preadv-dump" --debug -f raw "$dir/src" $ops \
    2>"$dir/debug.default.tmpfs" | cmp - "$dir/expected"
fi
if have strace; then
  # shellcheck disable=SC2086
  count_calls default.warm "$bindir/preadv-dump" -f raw "$dir/src" $ops
  for engine in "${engines[@]}"; do
    # shellcheck disable=SC2086
    count_calls "$engine.warm" "$bindir/preadv-dump" --engine="$engine" \
      -f raw "$dir/src" $ops
  done
else
  echo "preadv.sh: strace not found: no counts of system calls" >&2
fi

# No shell between hyperfine and the commands (-N): the ranges are put on
# the command line here, and the standard output of every command goes
# to /dev/null, hyperfine's default.
for round in $(seq "$rounds"); do
  hyperfine -N --style none --warmup 1 --runs "$runs" \
    --export-json "$dir/preadv.$round.json" \
    -n dump-xxd "$dump $(printf "'%s' " "${hex_dump[@]}")" \
    -n xxd "xxd $(printf "'%s' " "${hex_xxd[@]}")" \
    -n dump-plain "$dump -p -l $xxd_bytes '$dir/src'" \
    -n xxd-plain "xxd -p -l $xxd_bytes '$dir/src'" \
    -n dump-bits "$dump -b -l $xxd_bytes '$dir/src'" \
    -n xxd-bits "xxd -b -l $xxd_bytes '$dir/src'" \
    -n dump-ranges "$dump -f raw '$dir/src' $ops" \
    -n dump-floor "$dump $floor_engine -f raw '$dir/src' $floor_ops" \
    "${engine_cmds[@]}" \
    -n python-pread "python3 '$dir/pread.py' '$dir/src' '$dir/offsets'" \
    -n python-start "python3 -c pass" \
    -n dd-loop "bash '$dir/dd-loop.sh' '$dir/src' '$dir/offsets-dd'" \
    >/dev/null
done

# The ext4 part, in a private mount namespace (run there by bash -c, so
# that it is its own process: its exit trap unmounts and detaches).
#   loop_bench IMAGE MIB ROUNDS RUNS ENGINE...
# Its globals: mnt, where ext4 is mounted; loop, the device it attached
# and did not yet hand over to the mount (a detached number may already
# be someone else's: only this one is detached at exit).
loop_cleanup() {
  if [[ -n ${mnt:-} ]] && mountpoint -q "$mnt"; then
    umount "$mnt"
  fi
  if [[ -n ${loop:-} ]]; then
    losetup -d "$loop"
  fi
}

loop_bench() {
  local image=$1 mib=$2 rounds=$3 runs=$4 engine round
  local dump="'$bindir/preadv-dump'" ops
  shift 4
  ops=$(cat "$dir/ops")
  local engines=("$@") cmds=() order=()
  mnt=$dir/ns/mnt
  loop=
  trap loop_cleanup EXIT
  trap 'exit 129' HUP
  trap 'exit 130' INT
  trap 'exit 143' TERM
  mkdir -p "$dir/ns"
  # Where the machine or its kernel refuse: status 77, the part skipped.
  mount -t tmpfs -o size=1M,mode=700 newcalls-bench "$dir/ns" || return 77
  mkdir "$mnt"
  truncate -s "${mib}M" "$image"
  # No lazy initialization: ext4lazyinit would write during the runs.
  mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$image" \
    || return 77
  loop=$(losetup --find --show --direct-io=on "$image") || return 77
  echo "preadv.sh: $loop over $image, direct I/O" \
    "$(cat "/sys/block/${loop#/dev/}/loop/dio")" >"$dir/loop"
  if [[ $(cat "/sys/block/${loop#/dev/}/loop/dio") != 1 ]]; then
    echo "preadv.sh: $loop: no direct I/O on $image: the page cache" \
      "would hold the image" >&2
    return 77
  fi
  mount -t ext4 -o noatime "$loop" "$mnt" || return 77
  # Detached now: the kernel frees the device when the mount goes, at
  # the latest when this namespace's last process exits, even killed.
  losetup -d "$loop"
  loop=
  cp "$dir/src" "$mnt/src"
  sync "$mnt/src"
  local drop="dd if=$mnt/src iflag=nocache count=0 status=none"
  $drop
  local resident
  resident=$(($(fincore --bytes --noheadings --output RES "$mnt/src")))
  echo "preadv.sh: after $drop, fincore: $resident bytes of $mnt/src" \
    "in the page cache" >"$dir/dropped"
  if [[ $resident != 0 ]]; then
    echo "preadv.sh: dd iflag=nocache left $resident bytes of $mnt/src" \
      "in the page cache" >&2
    return 1
  fi
  # Each engine and the default one (auto), with its choice (--debug).
  local floor_ops floor_engine=() floor_cmd
  floor_ops=$(cat "$dir/ops-floor")
  for engine in "${engines[@]}" default; do
    local name=dump-$engine opt=(--engine="$engine") debug=(--debug)
    if [[ $engine == default ]]; then
      name=dump-ranges opt=()
    fi
    if ((${#engines[@]} == 0)); then
      debug=()
    else
      floor_engine=(--engine=preadv)
    fi
    cmds+=(-n "$name" "$dump ${opt[*]} -f raw '$mnt/src' $ops")
    $drop
    # shellcheck disable=SC2086
    "$bindir/preadv-dump" "${opt[@]}" "${debug[@]}" -f raw "$mnt/src" $ops \
      2>"$dir/debug.$engine.ext4-cold" | cmp - "$dir/expected"
    if have strace; then
      # shellcheck disable=SC2086
      count_calls "$engine.loop-warm" "$bindir/preadv-dump" "${opt[@]}" \
        -f raw "$mnt/src" $ops
      $drop
      # shellcheck disable=SC2086
      count_calls "$engine.cold" "$bindir/preadv-dump" "${opt[@]}" \
        -f raw "$mnt/src" $ops
    fi
  done
  # Warm, the floor too (see above): what is not reading.
  floor_cmd=(-n dump-floor
    "$dump ${floor_engine[*]} -f raw '$mnt/src' $floor_ops")
  # The commands' order turns by one every round: each runs first once
  # (cold: after the other's reads, the disk's own cache; the load drifts).
  local k
  for round in $(seq "$rounds"); do
    k=$((3 * ((round - 1) % (${#cmds[@]} / 3))))
    order=("${cmds[@]:k}" "${cmds[@]:0:k}")
    hyperfine -N --style none --warmup 1 --runs "$runs" \
      --export-json "$dir/warm-loop.$round.json" "${order[@]}" \
      "${floor_cmd[@]}" >/dev/null
    hyperfine -N --style none --warmup 1 --runs "$runs" --prepare "$drop" \
      --export-json "$dir/cold-loop.$round.json" "${order[@]}" >/dev/null
  done
}

cold_run=no
if [[ $ext4 == 0 ]]; then
  echo "preadv.sh: EXT4=0: no ext4 part" >"$dir/cold-skipped"
elif [[ $(id -u) -ne 0 ]]; then
  echo "preadv.sh: the ext4 part (loop device, mount) needs root:" \
    "skipped" | tee "$dir/cold-skipped" >&2
elif ! have mkfs.ext4 losetup fincore unshare mountpoint; then
  echo "preadv.sh: the ext4 part needs mkfs.ext4, losetup, fincore," \
    "unshare: skipped" | tee "$dir/cold-skipped" >&2
else
  image_dir=$(mktemp -d "$cold_dir/newcalls-bench.XXXXXX")
  if [[ $(stat -f -c %T "$image_dir") == tmpfs ]]; then
    echo "preadv.sh: $cold_dir is tmpfs: the image must be on a disk" \
      "(COLD_DIR)" >&2
    exit 1
  fi
  # The file, its ext4 metadata, the journal: SIZE + 1/16 + 64 MiB.
  image_mib=$((file_bytes / 1048576 + file_bytes / 16777216 + 64))
  export dir bindir
  export -f loop_bench loop_cleanup count_calls have
  status=0
  if unshare --mount --propagation private true; then
    unshare --mount --propagation private \
      bash -c 'set -euo pipefail; loop_bench "$@"' loop_bench \
      "$image_dir/ext4.img" "$image_mib" "$rounds" "$runs" "${engines[@]}" \
      || status=$?
  else
    status=77
  fi
  case $status in
    0) cold_run=yes ;;
    77)
      echo "preadv.sh: no ext4 on a loop device in a mount namespace" \
        "here (messages above): skipped" | tee "$dir/cold-skipped" >&2
      ;;
    *) exit "$status" ;;
  esac
fi
echo "preadv.sh: load after: $(uptime)" >>"$dir/load"

bench_export "$dir"/preadv.*.json
if [[ $cold_run == yes ]]; then
  bench_export "$dir"/warm-loop.*.json "$dir"/cold-loop.*.json
fi
# The dd loop reads fewer ranges (its time is scaled in the summary
# below): no ratio of its raw time.
bench_pair preadv "hex dump of $hex_what" dump-xxd xxd
bench_pair preadv "xxd -p of $xxd_bytes bytes" dump-plain xxd-plain
bench_pair preadv "xxd -b of $xxd_bytes bytes" dump-bits xxd-bits
bench_pair preadv "$nranges ranges of 4 bytes" dump-ranges python-pread
if ((${#engines[@]})); then
  what="$nranges ranges of 4 bytes, engine uring against preadv"
  if [[ $cold_run == yes ]]; then
    bench_pair warm-loop "$what, ext4 on a loop device, warm" \
      dump-uring dump-preadv
    bench_pair cold-loop "$what, ext4 on a loop device, cold" \
      dump-uring dump-preadv
  fi
  bench_pair preadv "$what, tmpfs (warm)" dump-uring dump-preadv
fi

cat "$dir/load" "$dir"/loop "$dir"/dropped "$dir"/cold-skipped 2>/dev/null \
  || true
python3 - "$dir" "$size" "$hex_what" "$nranges" "$ndd" "$cold_run" \
  "$xxd_bytes" "${engines[@]}" <<'PY'
import glob, json, os, statistics, sys
d, size, hex_what, nranges, ndd, cold_run, xxd_bytes = sys.argv[1:8]
nranges, ndd, engines = int(nranges), int(ndd), sys.argv[8:]


def runs(scenario):
    """Per round, per command: the times of its runs (s)."""
    rounds = []
    for path in sorted(glob.glob(os.path.join(d, f"{scenario}.*.json"))):
        with open(path) as f:
            rounds.append({r["command"]: r["times"]
                           for r in json.load(f)["results"]})
    return rounds


def joined(rounds, cmd):
    return [t for r in rounds for t in r.get(cmd, [])]


def ms(t):
    return f"{t * 1000:.1f}"


def spread(times):
    return (f"{ms(statistics.median(times))} ms "
            f"({ms(min(times))}-{ms(max(times))})")


def read(name):
    try:
        with open(os.path.join(d, name)) as f:
            return f.read().strip()
    except OSError:
        return None


warm = runs("preadv")
med = {c: statistics.median(joined(warm, c)) * 1000 for c in warm[0]}
print(f"preadv.sh: {len(joined(warm, 'xxd'))} runs of each command; medians")
dx, x = med["dump-xxd"], med["xxd"]
print(f"hex dump of {hex_what} to /dev/null: preadv-dump {dx:.0f} ms, "
      f"xxd {x:.0f} ms; ratio {x/dx:.1f}x")
for fmt, name in (("-p", "plain"), ("-b", "bits")):
    dp, xp = med[f"dump-{name}"], med[f"xxd-{name}"]
    print(f"xxd {fmt} of {xxd_bytes} bytes to /dev/null: preadv-dump "
          f"{dp:.0f} ms, xxd {xp:.0f} ms; preadv-dump's time "
          f"{dp/xp:.2f}x xxd's (goal: at most 0.5x)")
r, p = med["dump-ranges"], med["python-pread"]
print(f"{nranges} ranges of 4 bytes (-f raw): preadv-dump {r:.1f} ms, "
      f"python3 os.pread loop {p:.1f} ms; ratio {p/r:.1f}x "
      f"(python3 starting alone: {med['python-start']:.0f} ms)")
dd = med["dd-loop"] * nranges / ndd
print(f"{nranges} ranges of 4 bytes: dd loop {dd:.0f} ms (measured on "
      f"{ndd} ranges, {med['dd-loop']:.0f} ms, scaled by {nranges / ndd:g}); "
      f"ratio {dd/r:.0f}x")
print(f"preadv-dump --stats: {read('stats').split(': ', 2)[-1]}")
# The engines: time per file and cache state, ratio uring / preadv.  The
# file in the page cache is the ext4 one (tmpfs is a case of its own:
# io_uring cannot read shmem files inline, its reads go to io-wq).
cases = [("preadv", "tmpfs, warm")]
if cold_run == "yes":
    cases = [("warm-loop", "ext4, warm"), ("cold-loop", "ext4, cold")] + cases
warm_case = cases[0][0]
data = {s: runs(s) for s, _ in cases}
rows = [(f"dump-{e}", f"--engine={e}") for e in engines]
rows.append(("dump-ranges", "default (auto)" if engines else "preadv-dump"))
nruns = len(joined(data[warm_case], rows[0][0]))
print()
print(f"engines: {nranges} ranges of 4 bytes of a {size} file (-f raw), "
      f"{nruns} runs of each; median (min-max)"
      + ("; ratio = uring's median / preadv's (paired runs: lowest-highest)"
         if engines else ""))
print()
print("| engine | " + " | ".join(t for _, t in cases) + " |")
print("|---|" + "--:|" * len(cases))
for cmd, title in rows:
    print(f"| {title} | "
          + " | ".join(spread(joined(data[s], cmd))
                       if joined(data[s], cmd) else "-" for s, _ in cases)
          + " |")
met = {True: "met", False: "NOT met"}
ratios = {}
for s, _ in cases if engines else []:
    u, p = joined(data[s], "dump-uring"), joined(data[s], "dump-preadv")
    paired = [a / b for r in data[s]
              for a, b in zip(r["dump-uring"], r["dump-preadv"])]
    ratios[s] = (statistics.median(u) / statistics.median(p),
                 min(paired), max(paired))
if ratios:
    print("| uring / preadv | "
          + " | ".join(f"**{r:.2f}x** ({lo:.2f}-{hi:.2f})"
                       for r, lo, hi in (ratios[s] for s, _ in cases))
          + " |")
print()
print(f"floor: {nranges} adjacent ranges, so one read (start-up, parsing, "
      f"output; --stats: {read('stats-floor').split(': ', 2)[-1]})")
for s, title in cases:
    times = joined(data[s], "dump-floor")
    if not times:
        continue
    floor = statistics.median(times)
    line = f"{title}: floor {spread(times)}"
    if ratios:
        u, p = (statistics.median(joined(data[s], f"dump-{e}")) - floor
                for e in ("uring", "preadv"))
        line += (f"; reading (median less the floor): preadv {ms(p)} ms, "
                 f"uring {ms(u)} ms, ratio {u / p:.2f}x")
    print(line)
if ratios:
    w = ratios[warm_case][0]
    print(f"goal, {dict(cases)[warm_case]}: uring <= 0.5x preadv's time: "
          f"{w:.2f}x, {met[w <= 0.5]}")
    if cold_run == "yes":
        c = ratios["cold-loop"][0]
        print(f"goal, ext4, cold: uring >= 2x faster than preadv: "
              f"{1 / c:.2f}x faster, {met[c <= 0.5]}")

# The calls, from strace -c -f's table: calls is its 4th column.
def calls(name):
    text = read(f"strace.{name}")
    if text is None:
        return None
    n = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 5 and f[3].isdigit():
            n[f[-1]] = int(f[3])
    return n

rows = [(f"{e}.{k}", f"{e}, {t}") for e in engines + ["default"]
        for k, t in (("loop-warm", "ext4, warm"), ("cold", "ext4, cold"),
                     ("warm", "tmpfs, warm"))]
counted = [(t, calls(n)) for n, t in rows if calls(n) is not None]
if not counted:
    sys.exit(0)
print()
print("system calls (strace -c -f, one run each); per 1 000 ranges in "
      "parentheses")
print()
print("| engine, file | io_uring_enter | io_uring_setup, _register "
      "| preadv, preadv2 | all calls |")
print("|---|--:|--:|--:|--:|")


def per(n):
    return f"{n} ({n * 1000 / nranges:.1f})"


for t, n in counted:
    enter = n.get("io_uring_enter", 0)
    rd = n.get("preadv", 0) + n.get("preadv2", 0)
    ring = n.get("io_uring_setup", 0) + n.get("io_uring_register", 0)
    print(f"| {t} | {per(enter)} | {per(ring)} | {per(rd)} "
          f"| {per(n['total'])} |")
for name, title in (("uring.loop-warm", "ext4, warm"),
                    ("uring.warm", "tmpfs, warm")):
    u = calls(name)
    if u is not None:
        e = u.get("io_uring_enter", 0) * 1000 / nranges
        print()
        print(f"goal, {title}: <= 1 io_uring_enter per 1 000 ranges: "
              f"{e:.1f}, {met[e <= 1]}")
        break
# --engine=uring falls back to preadv without a word but in --debug: then
# its figures are preadv's.
for path in sorted(glob.glob(os.path.join(d, "debug.uring.*"))):
    line = read(os.path.basename(path))
    if line and "engine uring" not in line:
        print(f"NOTE: --engine=uring fell back to preadv "
              f"({os.path.basename(path)}): {line}")
for path in sorted(glob.glob(os.path.join(d, "debug.*"))):
    name = os.path.basename(path)
    if read(name):
        print(f"--debug ({name.split('.', 1)[1]}): {read(name)}")
PY
