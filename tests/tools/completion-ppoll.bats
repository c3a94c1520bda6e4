#!/usr/bin/env bats
# completion-ppoll.bats -- the bash completion of ppoll-wait's options
# about processes and handshakes: --kill=SIG's signal names (each taken by
# ppoll-wait), --kill without '=' followed by a target, the units of a
# duration (--timeout, --kill-after), --count, and --ready-fd's
# descriptors, those the line's redirections open.

load test_helper
load completion_helper

setup() {
  nc_setup
  skip_arch_independent "bash completion"
  [[ -r /usr/share/bash-completion/bash_completion ]] ||
    skip "bash-completion is not installed (Debian's bash-completion package)"
  mkdir tree tree/dir1
  : >tree/file1
  cd tree || return 1
}

@test "ppoll-wait: the new options are offered" {
  expect 'ppoll-wait --sta' --status
  expect 'ppoll-wait --kill' --kill --kill-after=
  expect 'ppoll-wait --cou' --count=
  expect 'ppoll-wait --ready' --ready-fd=
}

@test "ppoll-wait --kill=: signal names, KILL and STOP too, each taken" {
  expect 'ppoll-wait --kill=T' TERM TRAP TSTP TTIN TTOU
  expect 'ppoll-wait --kill=k' KILL
  expect 'ppoll-wait --kill=SIGST' SIGSTKFLT SIGSTOP
  complete_line 'ppoll-wait --kill='
  # shellcheck disable=SC2154 # set by complete_line (completion_helper)
  [[ $offered != *JUNK* ]] || fail "offers bash's JUNK names"
  local name
  for name in $offered; do
    ppoll-wait "--kill=$name" --version >/dev/null 2>&1 ||
      fail "offers $name, which ppoll-wait --kill refuses"
  done
}

@test "ppoll-wait --kill without '=': the next word is a target" {
  expect 'ppoll-wait --kill f' file1
  expect 'ppoll-wait -t 5m --kill ' dir1 file1
  # After "pid:", its number alone: ':' breaks words by default.
  complete_line "ppoll-wait --kill pid:$$"
  grep -qxF "$$" <<<"$offered" || fail "pid:$$ not offered: $offered"
}

@test "ppoll-wait: a duration's units after its number, each below the last" {
  expect 'ppoll-wait -t ' # a number first
  expect 'ppoll-wait -t 5' 5d 5h 5m 5s 5ms
  expect 'ppoll-wait --timeout=1.5' 1.5d 1.5h 1.5m 1.5s 1.5ms
  expect 'ppoll-wait --kill-after=1m3' 1m3s 1m3ms
  expect 'ppoll-wait --kill-after 2s5' 2s5ms
  expect 'ppoll-wait -t 5x'
  expect 'ppoll-wait -t 5s'
  # Each offered duration is one that ppoll-wait takes.
  local d
  for d in 5d 5h 5m 5s 5ms 1.5d 1m3s 1m3ms 2s5ms; do
    ppoll-wait "--timeout=$d" --version >/dev/null 2>&1 ||
      fail "ppoll-wait refuses the duration $d"
  done
}

@test "ppoll-wait -c, --count: a number, not completed" {
  expect 'ppoll-wait -c '
  expect 'ppoll-wait --count='
  expect 'ppoll-wait -ac '
}

@test "ppoll-wait --ready-fd: the descriptors the line redirects" {
  expect 'ppoll-wait --ready-fd='
  expect 'ppoll-wait 3>fifo --ready-fd=' 3
  expect 'ppoll-wait --closed f 3>fifo 4<>x 5<file1 --ready-fd ' 3 4 5
  expect 'ppoll-wait 3>fifo 4>x --ready-fd=4' 4
}
