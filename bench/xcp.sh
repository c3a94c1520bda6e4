#!/bin/bash
# bench/xcp.sh: xcp against cp (and rsync -a, if installed), with the goals
# of issues 3, 17 and 33 printed beside the ratios:
#   1 GiB file on tmpfs, against cp            goal <= 0.8x cp
#   1 GiB file on ext4 (loop image, as root)   goal <= 1.0x cp
#   trees of TREE_FILES small files (1-8 KiB, 50 to a directory: 20 000
#     files make 400 directories), xcp -a against cp -a and rsync -a:
#     on tmpfs                                 goal <= 0.55x cp -a,
#                                                   <= 0.5x rsync -a
#     on ext4 (the loop image, as root)        goal <= 0.7x cp -a
#     and xcp -a -j 1, the serial copy, in the same rounds (the figure of
#     before the workers; only if this xcp has -j)  goal <= 0.85x cp -a;
#   sparse 4 GiB file, 4 MiB of data, tmpfs    goal <= 1.0x cp
# and, for how the cost grows, xcp against cp on tmpfs: one file of each
# size of FILE_SIZES, and xcp -a against cp -a: a tree of each number of
# files of TREE_SIZES (the same trees; a size also in TREE_FILES is that
# scenario's runs, not timed twice).  Then, with strace, the system calls
# per file of each tool on a tree of CALLS_FILES files (bench/xcp-calls.sh),
# and the time of each kind of call alone on this CPU, xcp's against cp's
# (bench/call-cost.sh, COST_FILES files).
# The figures are this CPU's, named on each line: a ratio is of two
# commands run here, never of figures from two machines.
# The machine's cores come first in the output: the tree copies of xcp
# run one worker per core by default.
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
#          (default 1024, a multiple of 16), TREE_FILES (default
#          "20000 50000"), TREE_PER_DIR (default 50), FILE_SIZES in MiB
#          (default "1 4 16 64 256"), TREE_SIZES (default
#          "5000 20000 80000"); empty: no such series; CALLS_FILES
#          (default 2000; 0: no count of system calls), COST_FILES
#          (default 2000; 0: no time per call)
set -euo pipefail
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
bench_rounds 3 2
big_mib=${BIG_MIB:-1024}
per_dir=${TREE_PER_DIR:-50}
calls_files=${CALLS_FILES:-2000}
cost_files=${COST_FILES:-2000}
read -ra tree_files <<<"${TREE_FILES-20000 50000}"
read -ra file_sizes <<<"${FILE_SIZES-1 4 16 64 256}"
read -ra tree_sizes <<<"${TREE_SIZES-5000 20000 80000}"
xcp=$bindir/xcp
[[ -x $xcp ]] || {
  echo "bench: no $xcp; build first or set NC_BINDIR" >&2
  exit 1
}
bench_need hyperfine python3 cp cmp diff
bench_scratch
mkdir "$dir/tmpfs" "$dir/json"
MIB=$((1024 * 1024))

# An xcp from before issue 17 has no -j: its tree copies are serial, and
# there is no serial figure of its own to add.
has_jobs=0 jobs="no -j: serial tree copies"
if "$xcp" --help 2>&1 | grep -q -- '--jobs'; then
  has_jobs=1 jobs="-j by default: one worker per core"
fi
echo "xcp.sh: $(bench_cores); $("$xcp" --version | head -n 1), $jobs"

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

# The file systems of the 1 GiB copy and of the trees.  The image holds
# the big file and its copy, and every tree with its copy (at most 12 KiB
# a file in 4 KiB blocks, with the directories); sparse, in /dev/shm: only
# what is written takes memory.  No lazy initialization: ext4lazyinit
# would write during the runs.
ext4_mib=$((2 * big_mib + 512))
for n in "${tree_files[@]}"; do
  ext4_mib=$((ext4_mib + n * 24 / 1024))
done
filesystems=(tmpfs)
if bench_ext4 "$dir/ext4" "${ext4_mib}M" \
  -E lazy_itable_init=0,lazy_journal_init=0; then
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

# The trees: DIR/FS/treeN, on every file system for TREE_FILES, on tmpfs
# for TREE_SIZES (made once where the two lists share a size).
for fs in "${filesystems[@]}"; do
  for n in "${tree_files[@]}"; do
    [[ -d $dir/$fs/tree$n ]] || bench_make_tree "$dir/$fs/tree$n" "$n" "$per_dir"
  done
  sync -f "$dir/$fs"
done
for n in "${tree_sizes[@]}"; do
  [[ -d $dir/tmpfs/tree$n ]] || bench_make_tree "$dir/tmpfs/tree$n" "$n" "$per_dir"
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

have_rsync=0
if command -v rsync >/dev/null; then
  have_rsync=1
else
  echo "xcp.sh: rsync not found: no comparison with rsync -a" >&2
fi

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
# tree-FS-N: xcp -a, cp -a, and where they copy it right, rsync -a and
# xcp -a -j 1 (a scenario keeps the commands that passed the check:
# tree_cmds[SCENARIO], the names of hyperfine's -n, tab-separated).
declare -A tree_cmds
for fs in "${filesystems[@]}"; do
  for n in "${tree_files[@]}"; do
    name=tree-$fs-$n src=$dir/$fs/tree$n dst=$dir/$fs/dst
    if ! check "$name" "$src" "$dst" "$xcp" -a "$src" "$dst" \
      || ! check "$name" "$src" "$dst" cp -a "$src" "$dst"; then
      continue
    fi
    scenarios+=("$name")
    tree_cmds[$name]="xcp -a	cp -a"
    if ((has_jobs)) && check "$name" "$src" "$dst" "$xcp" -a -j 1 "$src" "$dst"
    then
      tree_cmds[$name]+="	xcp -a -j 1"
    fi
    if ((have_rsync)) && check "$name" "$src" "$dst" rsync -a "$src/" "$dst/"
    then
      tree_cmds[$name]+="	rsync -a"
    fi
  done
done
# The number of workers xcp -a uses on these trees (its --debug line).
if ((has_jobs)); then
  src=$dir/tmpfs/tree${tree_files[0]:-${tree_sizes[0]:-}}
  if [[ -d $src ]] && "$xcp" -a --debug "$src" "$dir/tmpfs/dst" \
    2>"$dir/debug" >/dev/null; then
    echo "xcp.sh: xcp -a on a tree: $(grep -E -m 1 ': [0-9]+ jobs?$' \
      "$dir/debug" | sed 's/.*: //')"
  fi
  rm -rf "$dir/tmpfs/dst"
fi
for mib in "${file_sizes[@]}"; do
  src=$dir/tmpfs/file$mib
  if check "fsize$mib" "$src" "$dir/tmpfs/dst" "$xcp" "$src" "$dir/tmpfs/dst" \
    && check "fsize$mib" "$src" "$dir/tmpfs/dst" cp "$src" "$dir/tmpfs/dst"; then
    scenarios+=("fsize$mib")
  fi
done
for n in "${tree_sizes[@]}"; do
  # Timed already as tree-tmpfs-N (or found wrong there).
  [[ " ${tree_files[*]} " != *" $n "* ]] || continue
  src=$dir/tmpfs/tree$n
  if check "files$n" "$src" "$dir/tmpfs/dst" "$xcp" -a "$src" "$dir/tmpfs/dst" \
    && check "files$n" "$src" "$dir/tmpfs/dst" cp -a "$src" "$dir/tmpfs/dst"; then
    scenarios+=("files$n")
  fi
done

[[ ${#scenarios[@]} -gt 0 ]] || {
  echo "bench: nothing to time" >&2
  exit 1
}
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
    tree-*)
      fs=${scenario#tree-} fs=${fs%-*}
      src=$dir/$fs/tree${scenario##*-} dst=$dir/$fs/dst
      cmds=()
      IFS=$'\t' read -ra names <<<"${tree_cmds[$scenario]}"
      for name in "${names[@]}"; do
        case $name in
        "xcp -a") cmds+=(-n "$name" "'$xcp' -a '$src' '$dst'") ;;
        "xcp -a -j 1") cmds+=(-n "$name" "'$xcp' -a -j 1 '$src' '$dst'") ;;
        "cp -a") cmds+=(-n "$name" "cp -a '$src' '$dst'") ;;
        "rsync -a") cmds+=(-n "$name" "rsync -a '$src/' '$dst/'") ;;
        esac
      done
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
rm -rf "$dir/tmpfs/dst" "$dir/ext4/dst"

bench_export "$dir"/json/*.json
for scenario in "${scenarios[@]}"; do
  case $scenario in
  1G-*)
    bench_pair "$scenario" "$big_mib MiB file on ${scenario#1G-}" xcp cp
    ;;
  sparse)
    bench_pair sparse "sparse 4 GiB file, 4 MiB of data, on tmpfs" xcp cp
    ;;
  tree-*)
    fs=${scenario#tree-} fs=${fs%-*} n=${scenario##*-}
    title="$n small files, $per_dir to a directory, on $fs"
    for peer in "cp -a" "rsync -a"; do
      if [[ $'\t'${tree_cmds[$scenario]}$'\t' == *$'\t'$peer$'\t'* ]]; then
        bench_pair "$scenario" "$title" "xcp -a" "$peer"
      fi
    done
    # The serial copy: against cp -a (before the workers), and what the
    # workers gain.
    if [[ ${tree_cmds[$scenario]} == *"xcp -a -j 1"* ]]; then
      bench_pair "$scenario" "$title" "xcp -a -j 1" "cp -a"
      bench_pair "$scenario" "$title" "xcp -a" "xcp -a -j 1"
    fi
    if [[ $fs == tmpfs && " ${tree_sizes[*]} " == *" $n "* ]]; then
      bench_pair "$scenario" "$n small files on tmpfs (series)" \
        "xcp -a" "cp -a" files "$n"
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
python3 - "$big_mib" "$per_dir" "$(bench_cores)" "$dir"/json/*.json <<'PY'
import json, os, statistics, sys
times = {}
big_mib, per_dir, cpu = sys.argv[1], sys.argv[2], sys.argv[3]
for path in sys.argv[4:]:
    scenario = os.path.basename(path).split(".")[0]
    for r in json.load(open(path))["results"]:
        times.setdefault(scenario, {}).setdefault(r["command"], []).extend(r["times"])
def ms(t):
    return f"{t*1000:.0f} ms"
def what(scenario):
    """The title, the tool's command, the goals (peer: ratio)."""
    if scenario.startswith("1G-"):
        fs = scenario[3:]
        return (f"{big_mib} MiB file on {fs}", "xcp",
                {"cp": 0.8 if fs == "tmpfs" else 1.0})
    if scenario == "sparse":
        return ("sparse 4 GiB file, 4 MiB of data, on tmpfs", "xcp",
                {"cp": 1.0})
    if scenario.startswith("tree-"):
        _, fs, n = scenario.split("-")
        goals = ({"cp -a": 0.55, "rsync -a": 0.5} if fs == "tmpfs"
                 else {"cp -a": 0.7})
        return (f"{n} small files, {per_dir} to a directory, on {fs}", "xcp -a",
                goals)
    if scenario.startswith("files"):
        return (f"{scenario[5:]} small files on tmpfs", "xcp -a", {})
    return None
def order(scenario):
    kind = ["1G-", "tree-", "sparse", "fsize", "files"]
    rank = next(i for i, k in enumerate(kind) if scenario.startswith(k))
    num = "".join(c for c in scenario.split("-")[-1] if c.isdigit())
    return (rank, "ext4" in scenario, int(num or 0))
for scenario in sorted(times, key=order):
    if what(scenario) is None or scenario.startswith("fsize"):
        continue
    title, tool, goals = what(scenario)
    med = {k: statistics.median(v) for k, v in times[scenario].items()}
    n = len(times[scenario][tool])
    x = med[tool]
    parts = []
    for k, v in med.items():
        if k == tool:
            continue
        part = f"{k} {ms(v)}, ratio {x/v:.2f}x"
        if k in goals:
            verdict = "met" if x / v <= goals[k] else "NOT met"
            part += f" (goal <= {goals[k]:.2f}x: {verdict})"
        parts.append(part)
    if "xcp -a -j 1" in med and "cp -a" in med:
        serial = med['xcp -a -j 1'] / med['cp -a']
        parts.append(f"serial: xcp -a -j 1 / cp -a {serial:.2f}x (goal <= "
                     f"0.85x: {'met' if serial <= 0.85 else 'NOT met'})")
    print(f"xcp.sh {title}, {n} runs each: {tool} {ms(x)}; " + "; ".join(parts)
          + f" (medians; ratio = {tool}'s time / the other's) [{cpu}]")
PY

# The system calls per file of each tool (a table of its own).
if ((calls_files > 0)); then
  if command -v strace >/dev/null; then
    TREE_PER_DIR=$per_dir bash "$(dirname "$0")/xcp-calls.sh" "$calls_files"
  else
    echo "xcp.sh: strace not found: no count of system calls" >&2
  fi
fi

# The time of each kind of call, alone (a table of its own).
if ((cost_files > 0)); then
  if [[ -x $builddir/tests/helpers/call-cost ]]; then
    bash "$(dirname "$0")/call-cost.sh" "$cost_files"
  else
    echo "xcp.sh: tests/helpers/call-cost not built: no time per call" >&2
  fi
fi
