#!/bin/bash
# bench/xcp.sh: xcp against cp (and rsync -a, if installed) on four
# copies, with the goals of issue 3 printed beside the ratios:
#   1 GiB file on tmpfs, against cp            goal <= 0.8x cp
#   1 GiB file on ext4 (loop image, as root)   goal <= 1.0x cp
#   50 000 small files (1-8 KiB) on tmpfs,
#     xcp -a against cp -a and rsync -a         goal <= 0.8x cp -a
#   sparse 4 GiB file, 4 MiB of data, tmpfs    goal <= 1.0x cp
# and, for how the cost grows, xcp against cp on tmpfs: one file of each
# size of FILE_SIZES, and xcp -a against cp -a: a tree of each number of
# files of TREE_SIZES (1-8 KiB files, 500 to a directory).
# Every copy is checked (cmp, or diff -r and the file count) before it is
# timed; a wrong copy is reported and not timed.  hyperfine runs the
# commands, without a shell, in alternating rounds (the machine's load
# drifts); the destination is removed before each run (--prepare, then a
# sync of that file system only, so that no run pays for writing back the
# previous copy).  Medians over all runs; ratio = median time of xcp /
# median time of the other command.
#   usage: bench/xcp.sh
#   env:   ROUNDS (default 3), RUNS per command per round (default 2),
#          EXT4=0 to skip ext4, NC_BINDIR, BIG_MIB the big file's size
#          (default 1024, a multiple of 16), TREE_FILES (default 50000),
#          FILE_SIZES in MiB (default "1 4 16 64 256"), TREE_SIZES
#          (default "500 2000 8000 32000"); empty: no such series
set -euo pipefail
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
bench_rounds 3 2
big_mib=${BIG_MIB:-1024}
tree_files=${TREE_FILES:-50000}
read -ra file_sizes <<<"${FILE_SIZES-1 4 16 64 256}"
read -ra tree_sizes <<<"${TREE_SIZES-500 2000 8000 32000}"
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
  big "$dir/$fs/big" "$big_mib"
done

# The sparse file: 4 MiB of data in four 1 MiB pieces, at 0, 1 GiB,
# 2 GiB and 4 GiB - 1 MiB.
sparse=$dir/tmpfs/sparse
truncate -s 4G "$sparse"
for seek in 0 1024 2048 4095; do
  head -c $MIB /dev/urandom |
    dd of="$sparse" bs=1M seek="$seek" conv=notrunc iflag=fullblock status=none
done

# make_tree DIR FILES: FILES files of 1 to 8 KiB, 500 to a directory, the
# directories 10 to a parent (a source tree, a maildir).
make_tree() {
  python3 - "$1" "$2" <<'PY'
import os, random, sys
top, files = sys.argv[1], int(sys.argv[2])
rand = random.Random(3)
block = os.urandom(8192)
for d in range((files + 499) // 500):
    sub = os.path.join(top, f"d{d // 10}", f"s{d}")
    os.makedirs(sub)
    for f in range(min(500, files - d * 500)):
        n = rand.randint(1024, 8192)
        with open(os.path.join(sub, f"f{f}.txt"), "wb") as out:
            out.write(block[:n])
PY
}
tree=$dir/tmpfs/tree
make_tree "$tree" "$tree_files"
for n in "${tree_sizes[@]}"; do
  make_tree "$dir/tmpfs/tree$n" "$n"
done
for mib in "${file_sizes[@]}"; do
  head -c "$((mib * MIB))" /dev/urandom >"$dir/tmpfs/file$mib"
done

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
for mib in "${file_sizes[@]}"; do
  src=$dir/tmpfs/file$mib
  if check "fsize$mib" "$src" "$dir/tmpfs/dst" "$xcp" "$src" "$dir/tmpfs/dst" \
    && check "fsize$mib" "$src" "$dir/tmpfs/dst" cp "$src" "$dir/tmpfs/dst"; then
    scenarios+=("fsize$mib")
  fi
done
for n in "${tree_sizes[@]}"; do
  src=$dir/tmpfs/tree$n
  if check "files$n" "$src" "$dir/tmpfs/dst" "$xcp" -a "$src" "$dir/tmpfs/dst" \
    && check "files$n" "$src" "$dir/tmpfs/dst" cp -a "$src" "$dir/tmpfs/dst"; then
    scenarios+=("files$n")
  fi
done

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
    fsize*)
      fs=tmpfs src=$dir/tmpfs/file${scenario#fsize} dst=$dir/tmpfs/dst
      cmds=(-n xcp "'$xcp' '$src' '$dst'" -n cp "cp '$src' '$dst'")
      ;;
    files*)
      fs=tmpfs src=$dir/tmpfs/tree${scenario#files} dst=$dir/tmpfs/dst
      cmds=(-n "xcp -a" "'$xcp' -a '$src' '$dst'" -n "cp -a" "cp -a '$src' '$dst'")
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
bench_export "$dir"/json/*.json
for scenario in "${scenarios[@]}"; do
  case $scenario in
  1G-*)
    bench_pair "$scenario" "$big_mib MiB file on ${scenario#1G-}" xcp cp
    ;;
  sparse)
    bench_pair sparse "sparse 4 GiB file, 4 MiB of data, on tmpfs" xcp cp
    ;;
  tree)
    bench_pair tree "$tree_files small files on tmpfs" xcp "cp -a"
    if ((have_rsync)); then
      bench_pair tree "$tree_files small files on tmpfs" xcp "rsync -a"
    fi
    ;;
  fsize*)
    bench_pair "$scenario" "one ${scenario#fsize} MiB file on tmpfs" xcp cp \
      file-size $((${scenario#fsize} * MIB))
    ;;
  files*)
    bench_pair "$scenario" "${scenario#files} small files on tmpfs" \
      "xcp -a" "cp -a" files "${scenario#files}"
    ;;
  esac
done
python3 - "$big_mib" "$tree_files" "$dir"/json/*.json <<'PY'
import json, os, statistics, sys
times = {}
big_mib, tree_files = sys.argv[1], sys.argv[2]
for path in sys.argv[3:]:
    scenario = os.path.basename(path).split(".")[0]
    for r in json.load(open(path))["results"]:
        times.setdefault(scenario, {}).setdefault(r["command"], []).extend(r["times"])
what = {"1G-tmpfs": (f"{big_mib} MiB file on tmpfs", {"cp": 0.8}),
        "1G-ext4": (f"{big_mib} MiB file on ext4", {"cp": 1.0}),
        "tree": (f"{tree_files} small files on tmpfs", {"cp -a": 0.8}),
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
