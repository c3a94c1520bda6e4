#!/bin/bash
# bench/xcp-calls.sh: the system calls per file of a tree copy, by tool:
# xcp -a (serial, -j 1, if this xcp has -j, and by default), cp -a and
# rsync -a (if installed), each counted by strace -f -c (every thread and
# process) copying a tree of FILES files of 1 to 8 KiB (TREE_PER_DIR to a
# directory, as bench/xcp.sh's trees) on tmpfs, the copy checked.
# Printed as a Markdown table: per tool, its calls in all and per file,
# then the calls per file of each system call, the 12 most frequent of
# each tool (the others summed as "other"), and the calls of the same
# command on an empty directory (its start-up, included in the totals).
# Not timed: strace slows every call; bench/xcp.sh times the tools, and
# runs this script at its end.
#   usage: bench/xcp-calls.sh [FILES]   (default 2000)
#   env:   NC_BINDIR, TREE_PER_DIR (default 50)
set -euo pipefail
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
files=${1:-2000}
per_dir=${TREE_PER_DIR:-50}
[[ $files =~ ^[1-9][0-9]*$ ]] || {
  echo "usage: bench/xcp-calls.sh [FILES]   (FILES a number above 0)" >&2
  exit 2
}
xcp=$bindir/xcp
[[ -x $xcp ]] || {
  echo "bench: no $xcp; build first or set NC_BINDIR" >&2
  exit 1
}
bench_need strace python3 cp diff find
bench_scratch
bench_make_tree "$dir/tree" "$files" "$per_dir"
mkdir "$dir/empty" "$dir/counts"

# The tools: a name (the table's column) and its command, which copies
# SRC to DST (rsync: the contents, trailing slashes).
tools=()
if "$xcp" --help 2>&1 | grep -q -- '--jobs'; then
  tools+=("xcp -a -j 1")
fi
tools+=("xcp -a" "cp -a")
if command -v rsync >/dev/null; then
  tools+=("rsync -a")
else
  echo "xcp-calls.sh: rsync not found: no count for rsync -a" >&2
fi

# argv TOOL SRC DST: cmd=, TOOL's command copying SRC to DST.
argv() {
  case $1 in
  "xcp -a -j 1") cmd=("$xcp" -a -j 1 "$2" "$3") ;;
  "xcp -a") cmd=("$xcp" -a "$2" "$3") ;;
  "cp -a") cmd=(cp -a "$2" "$3") ;;
  "rsync -a") cmd=(rsync -a "$2/" "$3/") ;;
  esac
}

# count TOOL SRC OUT: TOOL's calls copying SRC (strace -c's table in
# OUT), the copy checked.  A sanitizer build's leak check cannot run
# under ptrace: off for the traced run.
count() {
  local dst=$dir/dst cmd
  rm -rf "$dst"
  argv "$1" "$2" "$dst"
  if ! ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    strace -f -c -o "$3" "${cmd[@]}" >/dev/null; then
    echo "xcp-calls.sh: $1 failed" >&2
    return 1
  fi
  if ! diff -r "$2" "$dst" >/dev/null \
    || [[ $(find "$2" | wc -l) -ne $(find "$dst" | wc -l) ]]; then
    echo "xcp-calls.sh: $1 made a copy that differs from $2" >&2
    return 1
  fi
  rm -rf "$dst"
}

counted=()
for i in "${!tools[@]}"; do
  if count "${tools[i]}" "$dir/tree" "$dir/counts/tree.$i" \
    && count "${tools[i]}" "$dir/empty" "$dir/counts/empty.$i"; then
    counted+=("$i" "${tools[i]}")
  fi
done
((${#counted[@]})) || exit 1

echo "xcp-calls.sh: system calls (strace -f -c) copying $files files" \
  "($per_dir to a directory) on tmpfs; $(bench_cores)"
python3 - "$files" "$dir/counts" "${counted[@]}" <<'PY'
import os, sys
files, counts, rest = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
tools = list(zip(rest[::2], rest[1::2]))

def calls(path):
    """strace -c's table: {syscall: calls}, without its total line."""
    out = {}
    for line in open(path):
        cols = line.split()
        # % time, seconds, usecs/call, calls, [errors,] syscall
        if len(cols) >= 5 and cols[-1] != "total" and cols[3].isdigit():
            out[cols[-1]] = int(cols[3])
    return out

tree = {name: calls(os.path.join(counts, f"tree.{i}")) for i, name in tools}
empty = {name: calls(os.path.join(counts, f"empty.{i}")) for i, name in tools}
top = set()
for name, c in tree.items():
    top |= set(sorted(c, key=lambda s: (-c[s], s))[:12])
order = sorted(top, key=lambda s: (-max(c.get(s, 0) for c in tree.values()), s))

def row(cells):
    print("| " + " | ".join(cells) + " |")

names = [name for _, name in tools]
row(["calls"] + names)
print("|---|" + "--:|" * len(names))
row(["in all"] + [str(sum(tree[n].values())) for n in names])
row(["**per file**"] + [f"**{sum(tree[n].values()) / files:.2f}**" for n in names])
row(["per file, less start-up"]
    + [f"{(sum(tree[n].values()) - sum(empty[n].values())) / files:.2f}"
       for n in names])
row(["start-up (an empty directory)"]
    + [str(sum(empty[n].values())) for n in names])
for s in order:
    row([s] + [f"{tree[n][s] / files:.2f}" if s in tree[n] else "–"
               for n in names])
row(["other"] + [f"{sum(v for k, v in tree[n].items() if k not in top) / files:.2f}"
                 for n in names])
PY
