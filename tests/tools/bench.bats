#!/usr/bin/env bats
# bench.bats -- bench/report, the driver of make bench.
#
# A smoke run (BENCH_QUICK=1: tiny inputs, one round) must write a report
# with a ratio for every tool, computed from the benches' JSON, and plots
# that parse.  The times themselves are never checked: they vary with
# the machine and its load.

load test_helper

report=$BATS_TEST_DIRNAME/../../bench/report

setup() {
  nc_setup
}

# Its benches time the tools against their peers: a file at work beside
# it can bring a median down to nothing.
# bats test_tags=serial
@test "bench/report: a quick run reports every tool against its peer, from the JSON" {
  skip_under_qemu "the benches time the host's tools and namespaces"
  require_root
  require_cmd hyperfine gnuplot python3
  builddir=${NC_BUILDDIR:-$BATS_TEST_DIRNAME/../..}
  [[ -x $builddir/tests/helpers/rmtree-race ]] ||
    skip "tests/helpers/rmtree-race is not built (make check builds it)"
  run env BENCH_QUICK=1 NC_BUILDDIR="$builddir" "$report" --out out
  assert_success
  assert_file_exists out/report.md

  # A row per tool in the summary, each with its ratio (or range).
  local tool
  for tool in ppoll-wait preadv-dump rmtree 'splice-in \\\| splice-out' \
    unshare-run xcp; do
    grep -E "^\| $tool \| .* \| [1-9][0-9]* \| [0-9]+\.[0-9]{2}( – [0-9]+\.[0-9]{2})? \| \[plot\]" \
      out/report.md
  done
  refute grep -q 'Not measured' out/report.md

  # The figures are the JSON's: the median ratio of splice-in|splice-out
  # to cat|cat on a file, recomputed here, is in the splice table.
  ratio=$(python3 - out/results/splice/splice.*.json <<'PY'
import json, statistics, sys
t = {}
for path in sys.argv[1:]:
    for r in json.load(open(path))["results"]:
        t.setdefault(r["command"], []).extend(r["times"])
print(f"{statistics.median(t['splice-file']) / statistics.median(t['cat-file']):.2f}")
PY
)
  grep -E "^\| [^|]+ to a tmpfs file \| splice-file: .* \| \*\*$ratio\*\* \|" \
    out/report.md

  # preadv-dump's engines against each other, on tmpfs and (unless the
  # bench said it skipped that part) on ext4 on a loop device, warm and
  # cold; with strace, the calls: io_uring_enter where io_uring read
  # (its --debug line; a kernel or seccomp may refuse it).
  local what='[1-9][0-9]* ranges of 4 bytes, engine uring against preadv'
  grep -E "^\| $what, tmpfs \(warm\) \| dump-uring: .* \| dump-preadv: " \
    out/report.md
  if ! grep -q 'skipped' out/results/preadv/output.txt; then
    grep -E "^\| $what, ext4 on a loop device, cold \| dump-uring: " \
      out/report.md
  fi
  if command -v strace >/dev/null &&
    grep -q '^--debug (uring.tmpfs): preadv-dump: engine uring:' \
      out/results/preadv/output.txt; then
    grep -E '^\| uring, tmpfs, warm \| [1-9][0-9]* \(' \
      out/results/preadv/output.txt
  fi

  # The plots: the ratio bars of every bench, time against size for xcp
  # and rmtree; every SVG parses, every PNG is one.
  local plot
  for plot in ratio-ppoll ratio-preadv ratio-rmtree ratio-splice \
    ratio-unshare ratio-xcp xcp-files xcp-file-size rmtree-files \
    rmtree-file-size; do
    assert_file_exists "out/plots/$plot.svg"
    if command -v xmllint >/dev/null; then
      xmllint --noout "out/plots/$plot.svg"
    else
      grep -q '<svg' "out/plots/$plot.svg"
    fi
    [[ $(head -c 4 "out/plots/$plot.png" | tail -c 3) == PNG ]]
    grep -qF "(plots/$plot.svg)" out/report.md
  done
}

@test "bench/report: without gnuplot, says what to install and runs nothing" {
  mkdir bin
  ln -s "$(command -v python3)" bin/python3
  run env PATH="$PWD/bin" "$report" --out out
  assert_failure
  assert_output --partial "bench/report: missing: "
  assert_output --partial "gnuplot (Debian package gnuplot-nox)"
  assert_not_exists out/results
}

@test "bench/report: an unknown bench is refused" {
  require_cmd hyperfine gnuplot
  run "$report" --out out nosuch
  assert_failure
  assert_output "bench/report: no bench named nosuch"
}
