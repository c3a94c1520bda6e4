#!/bin/bash
# bench/rmtree.sh: rmtree against `rm -rf` and `find DIR -delete` on four
# trees, on tmpfs and (as root) on ext4 in a loop-mounted image:
#   deep      20000 levels, 2 files in each      goal <= 0.65x rm -rf;
#   wide      200000 files in one directory;
#   widedirs  100000 files in 1000 directories, 8 to a parent
#                                                goal <= 0.85x rm -rf;
#   bushy     4000 directories, 8 to a parent, 15 files in each (60000);
# and, for how the cost grows, rmtree against rm -rf on tmpfs: bushy trees
# of each number of files of TREE_SIZES (15 to a directory), and four
# files of each size of FILE_SIZES.
# Then the comparison behind the *at calls (Drepper, 2005: rm -fr of a deep
# tree on tmpfs, 31.9 s with glibc's /proc/self/fd emulation, 20.7 s with
# the real calls): 1000 levels of 2 files (short names, so that full paths
# stay under PATH_MAX) removed by a walk by full paths from the working
# directory (lstat, opendir, unlink, rmdir), by the /proc/self/fd/N/name
# emulation, and by rmtree.
# hyperfine runs the commands in alternating rounds (the machine's load
# drifts), rebuilding the tree before each run (--prepare, then a sync of
# that file system only, so that no run pays for writing the previous
# tree back); medians over all runs are printed, with rmtree's time as a
# fraction of each peer's (below 1: rmtree is faster), and for the seed's
# comparison the path-based walks' times as multiples of rmtree's.
#   usage: bench/rmtree.sh
#   env:   ROUNDS (default 3), RUNS per command per round (default 1),
#          EXT4=0 to skip ext4, NC_BINDIR, NC_BUILDDIR (the helper
#          tests/helpers/rmtree-race is built by make check), DEEP_LEVELS
#          (default 20000), WIDE_FILES (200000), WIDE_DIRS (1000, of
#          100 files each), BUSHY_DIRS (4000),
#          TREE_SIZES (default "1500 6000 24000 96000"), FILE_SIZES in
#          MiB (default "1 8 64 256"); empty: no such series
set -euo pipefail
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
bench_rounds 3 1
deep_levels=${DEEP_LEVELS:-20000}
wide_files=${WIDE_FILES:-200000}
wide_dirs=${WIDE_DIRS:-1000}
bushy_dirs=${BUSHY_DIRS:-4000}
read -ra tree_sizes <<<"${TREE_SIZES-1500 6000 24000 96000}"
read -ra file_sizes <<<"${FILE_SIZES-1 8 64 256}"
helper=$builddir/tests/helpers/rmtree-race
bench_need hyperfine python3 find
[[ -x $helper ]] || {
  echo "bench: $helper not built; make tests/helpers/rmtree-race" >&2
  exit 1
}
bench_scratch
mkdir "$dir/tmpfs" "$dir/json"
# The figures are this CPU's: they are compared only with each other.
echo "rmtree.sh: $(bench_cores); $("$bindir/rmtree" --version | head -n 1);" \
  "load: $(uptime | sed 's/.*load average: //')"

# The file systems: tmpfs always, ext4 when it can be had quickly.
filesystems=(tmpfs)
if bench_ext4 "$dir/ext4" 2G -N 400000; then
  filesystems+=(ext4)
fi

# The trees: the helper's kind of tree and its sizes, by shape.
declare -A kind=([deep]=deep [wide]=wide [widedirs]=bushy [bushy]=bushy
  [deep1000]=deep)
declare -A sizes=([deep]="$deep_levels 2" [wide]=$wide_files
  [widedirs]="$wide_dirs 100" [bushy]="$bushy_dirs 15" [deep1000]="1000 2")
for n in "${tree_sizes[@]}"; do
  kind[files$n]=bushy sizes[files$n]="$((n / 15)) 15"
done
# prepare SHAPE DIR FS: hyperfine's --prepare command.
prepare() {
  local make
  case $1 in
  fsize*)
    make="mkdir '$2'; for i in 1 2 3 4; do"
    make+=" head -c ${1#fsize}M /dev/zero >'$2'/f\$i; done"
    ;;
  *) make="'$helper' ${kind[$1]} '$2' ${sizes[$1]}" ;;
  esac
  echo "rm -rf '$2'; $make; sync -f '$3'"
}

# series_round SERIES X...: this round of the series SERIES (files, fsize)
# on tmpfs: rmtree against rm -rf on the tree of each size X.
series_round() {
  local series=$1 x t=$dir/tmpfs/tree
  shift
  for x; do
    hyperfine --style none --warmup 0 --runs "$runs" \
      --prepare "$(prepare "$series$x" "$t" "$dir/tmpfs")" \
      --export-json "$dir/json/$series$x-tmpfs.$round.json" \
      -n rmtree "'$bindir/rmtree' '$t'" -n "rm -rf" "rm -rf '$t'" >/dev/null
  done
}

# The removals must be complete before their speed matters (checked on
# smaller trees: the big ones take long to build).
for fs in "${filesystems[@]}"; do
  t=$dir/$fs/tree
  for small in "deep 2000 2" "bushy 400 15"; do
    for cmd in "$bindir/rmtree" "rm -rf" "find -delete"; do
      # shellcheck disable=SC2086 # the sizes are words
      "$helper" ${small%% *} "$t" ${small#* }
      case $cmd in
      "find -delete") find "$t" -delete ;;
      *) $cmd "$t" ;;
      esac
      [[ ! -e $t ]] || {
        echo "bench: $cmd left $t (${small%% *} on $fs)" >&2
        exit 1
      }
    done
  done
done

for round in $(seq "$rounds"); do
  for fs in "${filesystems[@]}"; do
    t=$dir/$fs/tree
    for shape in deep wide widedirs bushy; do
      hyperfine --style none --warmup 0 --runs "$runs" \
        --prepare "$(prepare "$shape" "$t" "$dir/$fs")" \
        --export-json "$dir/json/$shape-$fs.$round.json" \
        -n rmtree "'$bindir/rmtree' '$t'" \
        -n "rm -rf" "rm -rf '$t'" \
        -n "find -delete" "find '$t' -delete" >/dev/null
    done
  done
  # The seed's comparison, on tmpfs.
  t=$dir/tmpfs/tree
  hyperfine --style none --warmup 0 --runs "$((runs * 3))" \
    --prepare "$(prepare deep1000 "$t" "$dir/tmpfs")" \
    --export-json "$dir/json/seed-tmpfs.$round.json" \
    -n "full paths" "'$helper' pathrm '$t'" \
    -n "/proc/self/fd" "'$helper' procrm '$t'" \
    -n rmtree "'$bindir/rmtree' '$t'" >/dev/null
  # How the cost grows, on tmpfs (files-N, fsize-MIB: the report's
  # series; not in the summary below).
  series_round files "${tree_sizes[@]}"
  series_round fsize "${file_sizes[@]}"
done

bench_export "$dir"/json/*.json
for fs in "${filesystems[@]}"; do
  for shape in deep wide widedirs bushy; do
    case $shape in
    deep) what="deep ($deep_levels levels x 2 files)" ;;
    wide) what="wide ($wide_files files)" ;;
    widedirs) what="wide ($((wide_dirs * 100)) files in $wide_dirs dirs)" ;;
    bushy) what="bushy ($((bushy_dirs * 15)) files in $bushy_dirs dirs)" ;;
    esac
    bench_pair "$shape-$fs" "$what on $fs" rmtree "rm -rf"
    bench_pair "$shape-$fs" "$what on $fs" rmtree "find -delete"
  done
done
bench_pair seed-tmpfs "1000 levels x 2 files on tmpfs" rmtree "full paths"
bench_pair seed-tmpfs "1000 levels x 2 files on tmpfs" rmtree "/proc/self/fd"
for n in "${tree_sizes[@]}"; do
  bench_pair "files$n-tmpfs" "bushy, $((n / 15 * 15)) files on tmpfs" \
    rmtree "rm -rf" files "$((n / 15 * 15))"
done
for mib in "${file_sizes[@]}"; do
  bench_pair "fsize$mib-tmpfs" "4 files of $mib MiB on tmpfs" \
    rmtree "rm -rf" file-size "$((mib * 1024 * 1024))"
done

python3 - "$deep_levels" "$wide_files" "$bushy_dirs" "$wide_dirs" \
  "$(bench_cores)" "$dir"/json/*.json <<'PY'
import json, os, statistics, sys
times = {}
for path in sys.argv[6:]:
    scenario = os.path.basename(path).split(".")[0]
    if scenario.startswith(("files", "fsize")):
        continue
    for r in json.load(open(path))["results"]:
        times.setdefault(scenario, {}).setdefault(r["command"], []).extend(r["times"])
deep, wide, bushy, wide_dirs = (int(n) for n in sys.argv[1:5])
cpu = sys.argv[5]
shapes = {"deep": f"deep ({deep} levels x 2 files)",
          "wide": f"wide ({wide} files)",
          "widedirs": f"wide ({wide_dirs * 100} files in {wide_dirs} dirs)",
          "bushy": f"bushy ({bushy * 15} files in {bushy} dirs)"}
# The goals of rmtree's time over rm -rf's on tmpfs.
goals = {"deep": 0.65, "widedirs": 0.85}
def ms(t):
    return f"{t*1000:.0f} ms"
order = ["deep", "wide", "widedirs", "bushy", "seed"]
fsorder = ["tmpfs", "ext4"]
def key(s):
    shape, fs = s.split("-")
    return (shape == "seed", fsorder.index(fs), order.index(shape))
for scenario in sorted(times, key=key):
    med = {k: statistics.median(v) for k, v in times[scenario].items()}
    shape, fs = scenario.split("-")
    base = med["rmtree"]
    n = len(times[scenario]["rmtree"])
    if shape == "seed":
        full, proc = med["full paths"], med["/proc/self/fd"]
        print(f"rmtree.sh 1000 levels x 2 files on {fs}, {n} runs each: "
              f"full paths {ms(full)}, /proc/self/fd paths {ms(proc)}, "
              f"rmtree {ms(base)} (medians); ratios {full/base:.2f}x and "
              f"{proc/base:.2f}x (Drepper 2005, /proc/self/fd emulation "
              f"against the calls: 31.9 s -> 20.7 s, 1.54x) [{cpu}]")
        continue
    others = ", ".join(f"{k} {ms(v)} (rmtree/{k} {base/v:.2f}x)"
                       for k, v in med.items() if k != "rmtree")
    goal = goals.get(shape) if fs == "tmpfs" else None
    if goal is not None:
        ratio = base / med["rm -rf"]
        others += (f"; goal <= {goal:.2f}x rm -rf: "
                   f"{'met' if ratio <= goal else 'NOT met'}")
    print(f"rmtree.sh {shapes[shape]} on {fs}, {n} runs each: "
          f"rmtree {ms(base)}, {others} (medians) [{cpu}]")
PY
