#!/usr/bin/env bats
# cli.bats -- the command-line conventions every tool shares.
#
# Each test checks all the tools of NC_TOOLS (test_helper.bash), so that a
# new tool is checked by adding it there.

load test_helper

setup() {
  nc_setup
}

# The version the build was configured with, when the build tree is known.
expected_version() {
  local config="${NC_BUILDDIR:-$NC_BINDIR/..}/config.h"
  [[ -r $config ]] || return 0
  sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$config"
}

@test "--help: exit 0, Usage: on stdout" {
  local tool
  for tool in "${NC_TOOLS[@]}"; do
    run --separate-stderr "$tool" --help
    assert_success
    assert_line --index 0 --regexp "^Usage: $tool \\[OPTION\\]\\.\\.\\. [A-Z[]"
    assert_output --partial "--version"
    assert_err ""
    # -? is the same.
    local help=$output
    run --separate-stderr "$tool" "-?"
    assert_success
    assert_output "$help"
  done
}

@test "--usage: exit 0, a short Usage: line" {
  local tool
  for tool in "${NC_TOOLS[@]}"; do
    run --separate-stderr "$tool" --usage
    assert_success
    assert_line --index 0 --partial "Usage: $tool "
    assert_err ""
  done
}

@test "--version: exit 0, first line '<tool> (newcalls) <version>'" {
  local tool version
  version=$(expected_version)
  for tool in "${NC_TOOLS[@]}"; do
    run --separate-stderr "$tool" --version
    assert_success
    assert_err ""
    assert_line --index 0 --regexp "^$tool \\(newcalls\\) [0-9]+(\\.[0-9]+)+$"
    if [[ -n $version ]]; then
      assert_line --index 0 "$tool (newcalls) $version"
    fi
    local first=${lines[0]}
    run --separate-stderr "$tool" -V
    assert_success
    assert_line --index 0 "$first"
  done
}

# to_full CMD...: CMD with standard output /dev/full.
to_full() {
  "$@" >/dev/full
}

@test "--version and --help >/dev/full: failure, with a message" {
  [[ -c /dev/full ]] || skip "no /dev/full"
  local tool opt
  for tool in "${NC_TOOLS[@]}"; do
    for opt in --version --help; do
      run --separate-stderr to_full "$tool" "$opt"
      assert_failure
      assert_err --partial "$tool: "
      assert_err --partial "No space left on device"
    done
  done
}

@test "unknown option: exit 2, Try '<tool> --help'" {
  local tool
  for tool in "${NC_TOOLS[@]}"; do
    run --separate-stderr "$tool" --no-such-option </dev/null
    assert_failure 2
    assert_output ""
    assert_err --regexp "^$tool: .*--no-such-option"
    assert_err --regexp $'\n'"Try '$tool --help' for more information.\$"
    run --separate-stderr "$tool" -Z </dev/null
    assert_failure 2
    assert_err --partial "Try '$tool --help' for more information."
  done
}

@test "messages name the bare tool, however it was invoked" {
  mkdir sub
  local tool
  for tool in "${NC_TOOLS[@]}"; do
    run --separate-stderr "$NC_BINDIR/$tool" --no-such-option </dev/null
    assert_failure 2
    assert_err --regexp "^$tool: "
    assert_err --partial "Try '$tool --help'"
    # A relative path, with ./ and ..
    (cd sub && ln -s "$NC_BINDIR/$tool" "link-$tool")
    run --separate-stderr "sub/../sub/link-$tool" --no-such-option </dev/null
    assert_failure 2
    assert_err --regexp "^link-$tool: "
    # A runtime error, not only a usage error (unshare-run's COMMAND not
    # found is 127, as in a shell).
    local status=1
    [[ $tool == unshare-run ]] && status=127
    run "-$status" --separate-stderr "$NC_BINDIR/$tool" sub/missing/file </dev/null
    assert_failure "$status"
    assert_err --regexp "^$tool: [^/]*'sub/missing/file': No such file or directory$"
  done
}
