#!/bin/bash
# bench/xcp.sh: xcp against cp (and rsync -a, if installed) on four
# copies, with the goals of issue 3 printed beside the ratios:
#   1 GiB file on tmpfs, against cp            goal <= 0.8x cp
#   1 GiB file on ext4 (loop image, as root)   goal <= 1.0x cp
#   50 000 small files (1-8 KiB) on tmpfs,
#     xcp -a against cp -a and rsync -a         goal <= 0.8x cp -a
#   sparse 4 GiB file, 4 MiB of data, tmpfs    goal <= 1.0x cp
# Every copy is checked (cmp, or diff -r and the file count) before it is
# timed; a wrong copy is reported and not timed.  hyperfine runs the
# commands, without a shell, in alternating rounds (the machine's load
# drifts); the destination is removed before each run (--prepare, then a
# sync of that file system only, so that no run pays for writing back the
# previous copy).  Medians over all runs; ratio = median time of xcp /
# median time of the other command.
#   usage: bench/xcp.sh
#   env:   ROUNDS (default 3), RUNS per command per round (default 2),
#          EXT4=0 to skip ext4, NC_BINDIR
set -euo pipefail
rounds=${ROUNDS:-3}
runs=${RUNS:-2}
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
xcp=$bindir/xcp
[[ -x $xcp ]] || {
  echo "bench: no $xcp; build first or set NC_BINDIR" >&2
  exit 1
}
bench_need hyperfine python3 cp cmp diff
bench_scratch
mkdir "$dir/tmpfs" "$dir/json"
MIB=$((1024 * 1024))

# big FILE MIB: MIB mebibytes of random data (a random 16 MiB block
# repeated, each copy starting with its own number: /dev/urandom is slow
# for a whole GiB).
big() {
  local i
  head -c $((16 * MIB)) /dev/urandom >"$dir/block"
  for ((i = 0; i < $2 / 16; i++)); do
    printf '%016d' "$i"
    tail -c +17 "$dir/block"
  done >"$1"
  rm -f "$dir/block"
}

# The file systems of the 1 GiB copy.
filesystems=(tmpfs)
if bench_ext4 "$dir/ext4" 3G; then
  filesystems+=(ext4)
fi
for fs in "${filesystems[@]}"; do
  big "$dir/$fs/big" 1024
done

# The sparse file: 4 MiB of data in four 1 MiB pieces, at 0, 1 GiB,
# 2 GiB and 4 GiB - 1 MiB.
sparse=$dir/tmpfs/sparse
truncate -s 4G "$sparse"
for seek in 0 1024 2048 4095; do
  head -c $MIB /dev/urandom |
    dd of="$sparse" bs=1M seek="$seek" conv=notrunc iflag=fullblock status=none
done

# The tree: 50 000 files of 1 to 8 KiB, 500 to a directory, in 100
# directories below 10 (a source tree, a maildir).
tree=$dir/tmpfs/tree
python3 - "$tree" <<'PY'
import os, random, sys
top = sys.argv[1]
rand = random.Random(3)
block = os.urandom(8192)
for d in range(100):
    sub = os.path.join(top, f"d{d // 10}", f"s{d}")
    os.makedirs(sub)
    for f in range(500):
        n = rand.randint(1024, 8192)
        with open(os.path.join(sub, f"f{f}.txt"), "wb") as out:
            out.write(block[:n])
PY

# check NAME SRC DST CMD...: run CMD, which copies SRC to DST, and compare;
# print why and fail if the copy is wrong.
check() {
  local name=$1 src=$2 dst=$3
  shift 3
  rm -rf "$dst"
  if ! "$@" >/dev/null; then
    echo "bench: $name: '$*' failed" >&2
    return 1
  fi
  if [[ -d $src ]]; then
    if ! diff -r "$src" "$dst" >/dev/null \
      || [[ $(find "$src" | wc -l) -ne $(find "$dst" | wc -l) ]]; then
      echo "bench: $name: '$*' made a copy that differs from $src; not timed" >&2
      return 1
    fi
  elif ! cmp -s "$src" "$dst"; then
    echo "bench: $name: '$*' made a copy that differs from $src; not timed" >&2
    return 1
  fi
  rm -rf "$dst"
}

# The scenarios: name, source, destination, and the commands.
scenarios=()
for fs in "${filesystems[@]}"; do
  if check "1G-$fs" "$dir/$fs/big" "$dir/$fs/dst" "$xcp" "$dir/$fs/big" "$dir/$fs/dst" \
    && check "1G-$fs" "$dir/$fs/big" "$dir/$fs/dst" cp "$dir/$fs/big" "$dir/$fs/dst"
  then
    scenarios+=("1G-$fs")
  fi
done
if check sparse "$sparse" "$dir/tmpfs/dst" "$xcp" "$sparse" "$dir/tmpfs/dst" \
  && check sparse "$sparse" "$dir/tmpfs/dst" cp "$sparse" "$dir/tmpfs/dst"; then
  scenarios+=(sparse)
fi
have_rsync=0
command -v rsync >/dev/null && have_rsync=1
if check tree "$tree" "$dir/tmpfs/dst" "$xcp" -a "$tree" "$dir/tmpfs/dst" \
  && check tree "$tree" "$dir/tmpfs/dst" cp -a "$tree" "$dir/tmpfs/dst"; then
  scenarios+=(tree)
  if ((have_rsync)) && ! check tree "$tree" "$dir/tmpfs/dst" \
    rsync -a "$tree/" "$dir/tmpfs/dst/"; then
    have_rsync=0
  fi
fi

for round in $(seq "$rounds"); do
  for scenario in "${scenarios[@]}"; do
    case $scenario in
    1G-*)
      fs=${scenario#1G-}
      src=$dir/$fs/big dst=$dir/$fs/dst
      cmds=(-n xcp "'$xcp' '$src' '$dst'" -n cp "cp '$src' '$dst'")
      ;;
    sparse)
      fs=tmpfs src=$sparse dst=$dir/tmpfs/dst
      cmds=(-n xcp "'$xcp' '$src' '$dst'" -n cp "cp '$src' '$dst'")
      ;;
    tree)
      fs=tmpfs src=$tree dst=$dir/tmpfs/dst
      cmds=(-n xcp "'$xcp' -a '$src' '$dst'" -n "cp -a" "cp -a '$src' '$dst'")
      if ((have_rsync)); then
        cmds+=(-n "rsync -a" "rsync -a '$src/' '$dst/'")
      fi
      ;;
    esac
    # -N: no shell around the commands (the sparse copy takes a few ms).
    hyperfine -N --style none --warmup 1 --runs "$runs" \
      --prepare "sh -c \"rm -rf '$dst'; sync -f '$dir/$fs'\"" \
      --export-json "$dir/json/$scenario.$round.json" "${cmds[@]}" >/dev/null
  done
done

[[ ${#scenarios[@]} -gt 0 ]] || {
  echo "bench: nothing to time" >&2
  exit 1
}
python3 - "$dir"/json/*.json <<'PY'
import json, os, statistics, sys
times = {}
for path in sys.argv[1:]:
    scenario = os.path.basename(path).split(".")[0]
    for r in json.load(open(path))["results"]:
        times.setdefault(scenario, {}).setdefault(r["command"], []).extend(r["times"])
what = {"1G-tmpfs": ("1 GiB file on tmpfs", {"cp": 0.8}),
        "1G-ext4": ("1 GiB file on ext4", {"cp": 1.0}),
        "tree": ("50000 small files on tmpfs", {"cp -a": 0.8}),
        "sparse": ("sparse 4 GiB file, 4 MiB of data, on tmpfs", {"cp": 1.0})}
def ms(t):
    return f"{t*1000:.0f} ms"
for scenario in ["1G-tmpfs", "1G-ext4", "tree", "sparse"]:
    if scenario not in times:
        continue
    title, goals = what[scenario]
    med = {k: statistics.median(v) for k, v in times[scenario].items()}
    n = len(times[scenario]["xcp"])
    x = med["xcp"]
    parts = []
    for k, v in med.items():
        if k == "xcp":
            continue
        part = f"{k} {ms(v)}, ratio {x/v:.2f}x"
        if k in goals:
            verdict = "met" if x / v <= goals[k] else "NOT met"
            part += f" (goal <= {goals[k]:.1f}x: {verdict})"
        parts.append(part)
    print(f"xcp.sh {title}, {n} runs each: xcp {ms(x)}; " + "; ".join(parts)
          + " (medians; ratio = xcp's time / the other's)")
PY
