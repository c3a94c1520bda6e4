#!/bin/bash
# bench/call-cost.sh: what each system call of a small file's copy costs
# on this CPU, xcp -a's calls against cp -a's, each timed alone in the
# same run by tests/helpers/call-cost (see its top comment: the median
# of each call kind over FILES files x ROUNDS, the two tools' sequences
# alternating file by file, on tmpfs).  The medians hold under load
# where wall-clock times of whole runs do not: a preempted call moves
# the mean, not the median.  Printed as a Markdown table headed by the
# CPU model, with the calls per file and their time per file per tool,
# and the guarantees of xcp that cost a call cp does not make (or a
# dearer one) figured alone.
#   usage: bench/call-cost.sh [FILES [ROUNDS]]   (default 2000 5)
#   env:   NC_BUILDDIR (the helper is built by make, tests/helpers)
set -euo pipefail
# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"
files=${1:-2000}
rounds=${2:-5}
helper=$builddir/tests/helpers/call-cost
[[ -x $helper ]] || {
  echo "bench: $helper not built; make tests/helpers/call-cost" >&2
  exit 1
}
bench_need python3
bench_scratch
"$helper" "$dir" "$files" "$rounds" >"$dir/costs.tsv"
echo "call-cost.sh: system calls of a copy of one file of 1-8 KiB on" \
  "tmpfs, $(bench_cores), $(uname -r); $files files x $rounds rounds;" \
  "load: $(uptime | sed 's/.*load average: //')"
python3 - "$dir/costs.tsv" <<'PY'
import sys
rows, total = [], {}
for line in open(sys.argv[1]):
    tool, kind, calls, med, p10, p90 = line.rstrip("\n").split("\t")
    if kind == "sum per file":
        total[tool] = float(med)
        continue
    rows.append((tool, kind, int(calls), int(med), int(p10), int(p90)))
print("| tool | call | per file | median ns | 10th-90th ns | ns per file |")
print("|---|---|--:|--:|--:|--:|")
for tool, kind, calls, med, p10, p90 in rows:
    per = f"{calls * med}" if tool != "alone" else ""
    print(f"| {tool} | {kind} | {calls} | {med} | {p10}-{p90} | {per} |")
for tool in ("xcp", "cp"):
    print(f"| {tool} | **all its calls** | | | | **{total[tool]:.0f}** |")
m = {(t, k): med for t, k, _, med, _, _ in rows}
install = m[("xcp", "openat O_TMPFILE")] + m[("xcp", "linkat AT_EMPTY_PATH")]
create = m[("alone", "openat O_CREAT|O_EXCL by dir fd")]
print()
print(f"atomic install: O_TMPFILE + linkat {install} ns against one "
      f"open(O_CREAT|O_EXCL) by the directory's descriptor {create} ns: "
      f"{install - create:+d} ns a file")
print(f"change detection: the second statx {m[('xcp', 'statx source again (change)')]} ns a file")
print(f"statx {m[('xcp', 'statx source')]} ns against fstat "
      f"{m[('alone', 'fstat (against statx)')]} ns; flistxattr "
      f"{m[('xcp', 'flistxattr')]} ns; fchown to the same owner (not made) "
      f"{m[('alone', 'fchown to the same owner')]} ns")
print(f"calls alone: xcp {total['xcp']:.0f} ns a file, cp {total['cp']:.0f} "
      f"ns, ratio {total['xcp'] / total['cp']:.2f}x")
PY
