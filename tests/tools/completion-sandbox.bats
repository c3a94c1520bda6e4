#!/usr/bin/env bats
# completion-sandbox.bats -- the bash completion of unshare-run's sandbox
# options, named as bwrap(1)'s, which take their arguments as the next
# words (--bind SRC DST): each offered where unshare-run --help names it,
# each argument completed by its kind, COMMAND found after the last of
# them, and the capability names offered all taken by unshare-run.

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
  # A variable for the names of --setenv and --unsetenv.
  export NC_TEST_VAR=1
}

# What each argument of each sandbox option completes to, as in
# completions/unshare-run, by the words of bwrap(1)'s --help:
#   files, dirs  the names of tree/, or its directories
#   fds      the descriptors the line's redirections open
#   caps     capability names
#   env      environment variable names
#   map      "auto"
#   nothing  a number, a mode, a value
declare -gA SANDBOX_ARGS=(
  [--bind]='files files' [--bind-try]='files files'
  [--ro-bind]='files files' [--ro-bind-try]='files files'
  [--dev-bind]='files files' [--dev-bind-try]='files files'
  [--remount-ro]=files [--tmpfs]=dirs [--size]=nothing [--perms]=nothing
  [--proc]=dirs [--dev]=dirs [--mqueue]=dirs [--dir]=dirs
  [--symlink]='files files' [--file]='fds files' [--bind-data]='fds files'
  [--ro-bind-data]='fds files' [--bind-fd]='fds files'
  [--ro-bind-fd]='fds files' [--chmod]='nothing files'
  [--unshare-user]='' [--unshare-user-try]='' [--unshare-ipc]=''
  [--unshare-pid]='' [--unshare-net]='' [--unshare-uts]=''
  [--unshare-cgroup]='' [--unshare-cgroup-try]='' [--unshare-all]=''
  [--share-net]=''
  [--chdir]=dirs [--setenv]='env nothing' [--unsetenv]=env [--clearenv]=''
  [--cap-drop]=caps [--cap-add]=caps [--seccomp]=fds
  [--uid]=nothing [--gid]=nothing [--map-users]=map [--map-groups]=map
  [--map-auto]='' [--info-fd]=fds [--sync-fd]=fds [--block-fd]=fds
  [--lock-file]=files
  [--args]=fds
)

# help_names: the long options that unshare-run --help names in the option
# column of its entries (not those its descriptions mention), one a line.
help_names() {
  unshare-run --help | sed -nE 's/^  (    )?(-.*)$/\2/; T; s/  .*//; p' |
    grep -oE -- '--[a-z0-9]+(-[a-z0-9]+)*' | sort -u
}

@test "a sandbox option is offered where unshare-run --help names it" {
  local names opt
  names=$(help_names)
  complete_line 'unshare-run --'
  for opt in "${!SANDBOX_ARGS[@]}"; do
    if grep -qxF -- "$opt" <<<"$names"; then
      # shellcheck disable=SC2154 # set by complete_line (completion_helper)
      grep -qxF -- "$opt" <<<"$offered" || fail "$opt in --help, not offered"
    else
      ! grep -qxF -- "$opt" <<<"$offered" || fail "$opt offered, not in --help"
    fi
  done
  # Their arguments follow as words: no '=' after them.
  complete_line 'unshare-run --ro-bind-'
  ! grep -q '=$' <<<"$offered" || fail "a sandbox option offered with '='"
}

# popt_names: the long options of unshare-run's popt tables, as the
# sources name them (cmd/unshare-run.c, lib/cli/common.c, the rows
# lib/ns/kinds.c gives each namespace kind), and popt's own; the sandbox
# options are read before popt, and are not among them.
popt_names() {
  local src=$BATS_TEST_DIRNAME/../..
  {
    sed -nE 's/^[ \t]*(\[[A-Z_]+\] = )?\{ *"([a-z0-9-]+)", *\x27.*/--\2/p' \
      "$src/cmd/unshare-run.c" "$src/lib/cli/common.c"
    sed -nE 's/^[ \t]*\{ CLONE_NEW[A-Z]+, "[a-z]+", "([a-z]+)".*/--\1/p' \
      "$src/lib/ns/kinds.c"
    printf '%s\n' --help --usage
  } | sort -u
}

@test "every sandbox option in --help has its arguments' kinds here" {
  [[ -r $BATS_TEST_DIRNAME/../../cmd/unshare-run.c ]] ||
    skip "the option tables are read from the sources, not found next to tests/"
  local opt popt
  popt=$(popt_names)
  grep -qx -- --propagation <<<"$popt" ||
    fail "no options read from cmd/unshare-run.c"
  # A name in --help that popt does not know is a sandbox option: new
  # ones need a kind, here and in completions/unshare-run.
  while read -r opt; do
    grep -qxF -- "$opt" <<<"$popt" && continue
    [[ ${SANDBOX_ARGS[$opt]+set} ]] ||
      fail "no SANDBOX_ARGS for $opt: say what completes its arguments" \
        "here and in completions/unshare-run"
  done < <(help_names)
}

@test "each argument of each sandbox option completes to its kind" {
  local opt kinds k line prefix expected
  for opt in "${!SANDBOX_ARGS[@]}"; do
    read -ra kinds <<<"${SANDBOX_ARGS[$opt]}"
    prefix="unshare-run 3<file1 $opt"
    for ((k = 0; k < ${#kinds[@]}; k++)); do
      line="$prefix "
      case ${kinds[k]} in
        files) expected=$'dir1\nfile1' ;;
        dirs) expected=dir1 ;;
        fds) expected=3 ;;
        map) expected=auto ;;
        nothing) expected='' ;;
        caps)
          line+=CAP_SYS_AD
          expected=CAP_SYS_ADMIN
          ;;
        env)
          line+=NC_TEST_V
          expected=NC_TEST_VAR
          ;;
      esac
      complete_line "$line"
      [[ $offered == "$expected" ]] ||
        fail "$(printf "'%s' offers:\n%s\n-- expected:\n%s" "$line" \
          "${offered:-(nothing)}" "${expected:-(nothing)}")"
      # The next argument, after a word for this one.
      prefix+=" x$k"
    done
    # After the last argument: COMMAND.
    expect_some "$prefix xc" xcp
  done
}

@test "sandbox options before COMMAND, then COMMAND's own line" {
  expect_some 'unshare-run --ro-bind / / --dev /dev --proc /proc xc' xcp
  expect_some 'unshare-run --unshare-all --die-with-parent xc' xcp
  expect 'unshare-run --ro-bind / / --tmpfs /tmp xcp --eng' --engine=
  expect 'unshare-run --setenv A B -r --chdir / rmtree fi' file1
  expect 'unshare-run --bind dir1 /mnt -- xcp -t ' dir1
  # SRC and DST are words of their own, even one that looks like an
  # option or a command.
  expect 'unshare-run --bind xcp ' dir1 file1
  expect 'unshare-run --symlink --tmpfs ' dir1 file1
  expect 'unshare-run --chmod 0755 xc'
  # Mixed with unshare-run's own options, which take '=' or the next word.
  expect 'unshare-run --wd / --bind file1 ' dir1 file1
  expect 'unshare-run -S root --tmpfs ' dir1
}

@test "an option of one argument takes it after '=' as well" {
  expect 'unshare-run --tmpfs=' dir1
  expect 'unshare-run --cap-add=CAP_SYS_AD' CAP_SYS_ADMIN
  expect 'unshare-run 3<file1 --seccomp=' 3
  expect 'unshare-run --map-groups=' auto
  expect 'unshare-run --uid='
  # After it, the next word is the next option or COMMAND.
  expect_some 'unshare-run --tmpfs=/tmp xc' xcp
  expect 'unshare-run --chdir=/ --tmpfs ' dir1
}

@test "descriptors: those that the line's redirections open" {
  expect 'unshare-run --seccomp '
  expect 'unshare-run 3<file1 --seccomp ' 3
  expect 'unshare-run 4>file1 3< file1 --info-fd ' 3 4
  expect 'unshare-run <file1 --file ' 0
  expect 'unshare-run --sync-fd 5 5<>file1 --block-fd ' 5
  expect 'unshare-run 3<file1 --ro-bind-data 3 ' dir1 file1
}

@test "capabilities: names in either case, ALL, and only those unshare-run takes" {
  expect 'unshare-run --cap-drop A' ALL
  expect 'unshare-run --cap-add CAP_NET_B' CAP_NET_BIND_SERVICE \
    CAP_NET_BROADCAST
  expect 'unshare-run --cap-add cap_net_ra' cap_net_raw
  complete_line 'unshare-run --cap-drop '
  local n
  n=$(grep -c '^CAP_' <<<"$offered")
  (($(cat /proc/sys/kernel/cap_last_cap) + 1 == n)) ||
    fail "$n names offered; this kernel has $(($(cat /proc/sys/kernel/cap_last_cap) + 1))"
  # unshare-run takes each, once it has the option.
  unshare-run --help | grep -q -- '--cap-drop' ||
    skip "this unshare-run has no --cap-drop"
  local cap
  for cap in $offered; do
    unshare-run --cap-drop "$cap" --version >/dev/null 2>&1 ||
      fail "unshare-run refuses --cap-drop $cap"
  done
}

@test "environment variables and --map-users' word" {
  expect 'unshare-run --unsetenv NC_TEST_V' NC_TEST_VAR
  expect 'unshare-run --setenv NC_TEST_V' NC_TEST_VAR
  expect 'unshare-run --setenv NC_TEST_VAR '
  expect 'unshare-run --map-users ' auto
  expect 'unshare-run --map-groups a' auto
  expect 'unshare-run --uid '
}
