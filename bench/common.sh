# shellcheck shell=bash
# bench/common.sh: what the benchmarks share.  Sourced by bench/*.sh after
# `set -euo pipefail`; defines
#   bindir, builddir  the tools ($NC_BINDIR, else ../cmd beside this
#                     script) and the build tree ($NC_BUILDDIR, else
#                     bindir/..);
#   bench_rounds ROUNDS RUNS
#                     rounds= and runs=, from $ROUNDS and $RUNS, else the
#                     script's defaults ROUNDS and RUNS;
#   bench_need CMD... exit with a message unless every CMD is installed;
#   bench_scratch     dir=, a new directory on tmpfs, removed at exit
#                     with every file system bench_ext4 mounted in it;
#   bench_ext4 DIR SIZE [MKFS-OPTION...]
#                     an ext4 image of SIZE (DIR.img) on a loop device,
#                     mounted on DIR; fails with a message unless root
#                     with mkfs.ext4 (or with EXT4=0);
#   bench_export JSON...
#                     with $BENCH_RESULTS set (bench/report sets it), copy
#                     the results (hyperfine's --export-json files, named
#                     SCENARIO.ROUND.json) there: the data of the report;
#   bench_pair SCENARIO TITLE TOOL PEER [SERIES X]
#                     tell the report what SCENARIO's files compare: the
#                     command named TOOL (hyperfine's -n) against PEER,
#                     ratio = TOOL's time / PEER's; with SERIES and X, the
#                     scenario is the point X (a number of files, bytes)
#                     of the series SERIES, which the report plots as time
#                     against X.  Names and titles must not hold a tab.
#   bench_cores       print the machine's cores: "N cores (MODEL)", N from
#                     nproc, MODEL /proc/cpuinfo's first model name (a
#                     parallel tool's figures mean little without them);
#   bench_make_tree DIR FILES [PER-DIR]
#                     a tree of FILES files of 1 to 8 KiB (the same
#                     pseudo-random sizes every time), PER-DIR (default
#                     50) to a directory, the directories side by side
#                     in DIR (DIR/dN/fM.txt: 20 000 files make 400).

bindir=$(cd "${NC_BINDIR:-$(dirname "$0")/../cmd}" && pwd)
# shellcheck disable=SC2034 # used by the scripts that source this
builddir=$(cd "${NC_BUILDDIR:-$bindir/..}" && pwd)

# shellcheck disable=SC2034 # used by the scripts that source this
bench_rounds() {
  rounds=${ROUNDS:-$1}
  runs=${RUNS:-$2}
}

bench_need() {
  local cmd
  for cmd in "$@"; do
    command -v "$cmd" >/dev/null || {
      echo "bench: $cmd not found" >&2
      exit 1
    }
  done
}

bench_mounts=()

bench_cleanup() {
  local m
  for m in "${bench_mounts[@]}"; do
    if mountpoint -q "$m" 2>/dev/null; then
      umount "$m"
    fi
  done
  rm -rf "$dir"
}

bench_scratch() {
  dir=$(mktemp -d /dev/shm/newcalls-bench.XXXXXX)
  trap bench_cleanup EXIT
}

bench_ext4() {
  local mnt=$1 size=$2
  shift 2
  [[ ${EXT4:-1} != 0 ]] || return 1
  if [[ $(id -u) -ne 0 ]] || ! command -v mkfs.ext4 >/dev/null; then
    echo "bench: ext4 on a loop device needs root and mkfs.ext4;" \
      "tmpfs only" >&2
    return 1
  fi
  mkdir -p "$mnt"
  truncate -s "$size" "$mnt.img"
  if mkfs.ext4 -q -F "$@" "$mnt.img" && mount -o loop "$mnt.img" "$mnt"
  then
    bench_mounts+=("$mnt")
    return 0
  fi
  echo "bench: no ext4 on a loop device; tmpfs only" >&2
  return 1
}

bench_export() {
  [[ -n ${BENCH_RESULTS:-} ]] || return 0
  mkdir -p "$BENCH_RESULTS"
  cp "$@" "$BENCH_RESULTS/"
}

bench_pair() {
  [[ -n ${BENCH_RESULTS:-} ]] || return 0
  mkdir -p "$BENCH_RESULTS"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5-}" "${6-}" \
    >>"$BENCH_RESULTS/pairs.tsv"
}

bench_cores() {
  local model
  model=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo |
    head -n 1)
  echo "$(nproc) cores (${model:-$(uname -m)})"
}

bench_make_tree() {
  python3 - "$1" "$2" "${3:-50}" <<'PY'
import os, random, sys
top, files, per_dir = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rand = random.Random(3)
block = os.urandom(8192)
os.makedirs(top)
for d in range((files + per_dir - 1) // per_dir):
    sub = os.path.join(top, f"d{d}")
    os.mkdir(sub)
    for f in range(min(per_dir, files - d * per_dir)):
        with open(os.path.join(sub, f"f{f}.txt"), "wb") as out:
            out.write(block[:rand.randint(1024, 8192)])
PY
}
