#!/usr/bin/env bats
# completion-shells.bats -- the zsh and fish completions (completions/zsh,
# completions/fish): made from the bash ones by build-aux/gen-completions
# and up to date with them, and offering in a real zsh and fish what the
# bash ones offer.  Skipped where zsh or fish is not installed (Debian's
# packages zsh and fish).

# shellcheck disable=SC2154 # run sets output and lines

load test_helper

setup() {
  nc_setup
  SRCDIR=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  # Whatever fish or zsh would keep (fish's universal variables, history)
  # goes to the test's own directory.
  export HOME=$BATS_TEST_TMPDIR/home XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/home
  export XDG_DATA_HOME=$BATS_TEST_TMPDIR/home
  mkdir -p "$HOME" work
  cd work || return 1
  # Files and directories for the completions of file arguments.
  mkdir -p dir
  : >file
}

# zsh_offers LINE: what zsh offers for LINE, sorted, one a line, in
# $output.
zsh_offers() {
  require_cmd zsh
  run bash -c 'timeout 30 zsh -f "$1" "$2" "$3" | sort -u' _ \
    "$SRCDIR/tests/scripts/zsh-complete-line" "$SRCDIR/completions/zsh" "$1"
  assert_success
}

# fish_offers LINE: what fish offers for LINE, the words without their
# descriptions, sorted, in $output.
fish_offers() {
  require_cmd fish
  run bash -c 'timeout 30 fish --no-config -c "source $1; complete -C $2" \
    | cut -f1 | sort -u' _ "$SRCDIR/completions/fish/${1%% *}.fish" \
    "$(printf '%q' "$1")"
  assert_success
}

@test "the zsh and fish completions are up to date with the bash ones" {
  [[ -r /usr/share/bash-completion/bash_completion ]] \
    || skip "bash-completion is not installed"
  run "$SRCDIR/build-aux/gen-completions" --check "$SRCDIR" "$NC_BINDIR"
  assert_success
}

@test "every tool has a zsh and a fish completion, which each shell reads" {
  local tool
  for tool in "${NC_TOOLS[@]}"; do
    assert_file_exists "$SRCDIR/completions/zsh/_$tool"
    assert_file_exists "$SRCDIR/completions/fish/$tool.fish"
  done
  if command -v zsh >/dev/null; then
    for tool in "${NC_TOOLS[@]}"; do
      zsh -n "$SRCDIR/completions/zsh/_$tool" || fail "zsh: _$tool"
    done
  fi
  if command -v fish >/dev/null; then
    for tool in "${NC_TOOLS[@]}"; do
      fish --no-config -n "$SRCDIR/completions/fish/$tool.fish" \
        || fail "fish: $tool.fish"
    done
  fi
}

@test "zsh: option names, value lists, and files" {
  zsh_offers "xcp --eng"
  assert_output "--engine"
  zsh_offers "xcp --engine "
  assert_output "$(printf '%s\n' clone copy_file_range rw sendfile splice)"
  zsh_offers "xcp --reflink="
  assert_output "$(printf -- '--reflink=%s\n' always auto never)"
  zsh_offers "rmtree --feat"
  assert_output "--features"
  zsh_offers "unshare-run --propagation="
  assert_line -- "--propagation=private"
  zsh_offers "preadv-dump --format="
  assert_line -- "--format=xxd"
  zsh_offers "splice-in "
  assert_line "dir"
  assert_line "file"
}

@test "fish: option names, value lists, and files" {
  fish_offers "xcp --eng"
  assert_output "--engine"
  fish_offers "xcp --engine "
  assert_output "$(printf '%s\n' clone copy_file_range rw sendfile splice)"
  fish_offers "xcp --reflink="
  assert_output "$(printf -- '--reflink=%s\n' always auto never)"
  fish_offers "rmtree --feat"
  assert_output "--features"
  fish_offers "xcp -t "
  assert_output "dir/"
  fish_offers "splice-in "
  assert_line "dir/"
  assert_line "file"
}
