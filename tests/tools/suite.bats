#!/usr/bin/env bats
# suite.bats -- the harness itself: tests/scripts/run-bats, as root,
# runs the suite in a mount namespace of its own, so that the tmpfs a
# test mounts never reaches the machine's mount table (nor its caller's).

load test_helper

setup() {
  nc_setup
  skip_arch_independent "the test harness"
}

@test "run-bats as root: its tests in a mount namespace of their own, their mounts out of the caller's" {
  require_root
  require_cmd unshare
  unshare -m --propagation private true 2>/dev/null \
    || skip "unshare -m is not allowed here"
  mkdir suite
  # (The test's first line is printed: bats would take it for one of
  # this file's.)
  {
    printf '@%s "probe" {\n' test
    cat <<'EOF'
  mkdir fs
  mount -t tmpfs nc-probe fs
  echo "$(readlink /proc/self/ns/mnt) $(grep -c " $PWD/fs " /proc/self/mountinfo) $PWD/fs" >"$PROBE_OUT"
  umount fs
}
EOF
  } >suite/probe.bats
  # Started afresh, as by make check: not in the namespace of this run.
  run env -u NC_BATS_MOUNT_NS PROBE_OUT="$PWD/out" NC_BATS_JOBS=1 \
    "$BATS_TEST_DIRNAME/../scripts/run-bats" suite
  assert_success
  local ns seen fs
  read -r ns seen fs <out
  assert_equal "$seen" 1
  assert [ "$ns" != "$(readlink /proc/self/ns/mnt)" ]
  run grep -c " $fs " /proc/self/mountinfo
  assert_output 0
}
