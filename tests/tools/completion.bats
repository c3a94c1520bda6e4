#!/usr/bin/env bats
# completion.bats -- the bash completions of completions/, loaded by name and
# called as bash calls them (tests/scripts/complete-line), checked against
# the tools' own option tables (cmd/*.c, lib/cli/common.c) and against what
# the tools accept, so that a new option or value without its completion
# fails here.

load test_helper
load completion_helper

setup() {
  nc_setup
  skip_arch_independent "bash completion"
  [[ -r /usr/share/bash-completion/bash_completion ]] ||
    skip "bash-completion is not installed (Debian's bash-completion package)"
  printf x >one-byte-file
  # The files a completion sees: a directory and a file.
  mkdir tree tree/dir1
  : >tree/file1
  cd tree || return 1
}

# complete_lines LINE...: as complete_line for each LINE, by one bash, into
# the associative array OFFERED indexed by LINE.
complete_lines() {
  declare -gA OFFERED=()
  local file=$BATS_TEST_TMPDIR/completions record line
  local -a records
  "$BATS_TEST_DIRNAME/../scripts/complete-line" -0 "$@" \
    >"$file" 2>"$file.err" ||
    fail "complete-line: status $?: $(cat "$file.err")"
  stderr=$(<"$file.err")
  only_compopt_messages
  mapfile -d '' records <"$file"
  for record in "${records[@]}"; do
    record=${record%$'\n'}
    line=${record%%$'\n'*}
    OFFERED[$line]=''
    [[ $record != *$'\n'* ]] || OFFERED[$line]=${record#*$'\n'}
  done
}

require_sources() {
  [[ -r $BATS_TEST_DIRNAME/../../cmd/xcp.c
     && -r $BATS_TEST_DIRNAME/../../lib/cli/common.c ]] ||
    skip "the option tables are read from the sources, not found next to tests/"
}

# popt_options TOOL: a line "LONG SHORT ARG" per option of TOOL's popt
# tables, as the sources give them: cmd/TOOL.c, the rows splice-in and
# splice-out share in lib/copy/pipe.c (if TOOL's table includes them), the
# common options of lib/cli/common.c (its --progress rows if TOOL's table
# includes them), the rows a tool makes from lib/ns/kinds.c's ns_table
# (fill_ns_options: each kind's option, its argument optional) and popt's
# --help and --usage.  LONG and SHORT are the names or '-'; ARG is none,
# required or optional (POPT_ARGFLAG_OPTIONAL).
popt_options() {
  local src=$BATS_TEST_DIRNAME/../.. progress=0 files kinds=()
  files=("$src/cmd/$1.c")
  grep -q SPLICE_PIPE_OPTIONS "$src/cmd/$1.c" &&
    files+=("$src/lib/copy/pipe.c")
  grep -q CLI_PROGRESS_OPTIONS "$src/cmd/$1.c" && progress=1
  grep -q fill_ns_options "$src/cmd/$1.c" && kinds=("$src/lib/ns/kinds.c")
  # The sandbox options, read before popt: their words follow them.
  grep -q ns_sandbox_help "$src/cmd/$1.c" && kinds+=("$src/lib/ns/sandbox.c")
  awk -v progress="$progress" '
    # The tables of lib/cli/common.c that a tool may not include; a
    # file after it starts unskipped.
    FNR == 1 { skip = 0 }
    /^struct poptOption cli_[a-z_]+\[\]/ {
      skip = $0 ~ /cli_progress_options/ && !progress
    }
    skip { next }
    # { "name", \047c\047, POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, ...
    # or, at a given index, [INDEX] = { "name", ...
    /^[ \t]*(\[[A-Z_]+\] = )?\{ *("[a-z0-9-]+"|NULL), *\047(\\0|.)\047, *[A-Z_| ]+,/ {
      entry = $0
      sub(/^[ \t]*(\[[A-Z_]+\] = )?\{ */, "", entry)
      split(entry, field, / *, */)
      long = field[1]
      gsub(/"/, "", long)
      short = substr(field[2], 2, length(field[2]) - 2)
      flags = field[3]
      # A hidden option (the -ps of preadv-dump, as xxd spells it) is not
      # offered.
      if (flags ~ /INCLUDE_TABLE|CALLBACK|DOC_HIDDEN/)
        next
      print (long == "NULL" ? "-" : long), (short == "\\0" ? "-" : short),
        (flags ~ /ARG_(NONE|VAL)/ ? "none" : flags ~ /OPTIONAL/ ? "optional" : "required")
    }
    /^[ \t]*POPT_AUTOHELP/ { print "help ? none"; print "usage - none" }
    # STEP ("--bind", "SRC DST", 2, ... or OPT ("--uid", "UID", 1, ... or
    # { "--unshare-pid", "", 0, ...: a sandbox option of lib/ns/sandbox.c.
    /^[ \t]*(STEP \(|OPT \(|\{ )"--[a-z-]+", "[^"]*", [0-2], / {
      long = $0
      sub(/^[^"]*"--/, "", long)
      sub(/".*/, "", long)
      print long, "-", "none"
    }
    # { CLONE_NEWNS, "mnt", "mount", \047m\047, ...: a row of ns_table.
    /^[ \t]*\{ CLONE_NEW[A-Z]+, "[a-z]+", "[a-z]+", \047.\047,/ {
      split($0, field, / *, */)
      long = field[3]
      gsub(/"/, "", long)
      print long, substr(field[4], 2, 1), "optional"
    }
  ' "${files[@]}" "$src/lib/cli/common.c" "$src/lib/cli/common.h" \
    "${kinds[@]}"
}

# expected_options TOOL: the spellings of TOOL's options its completion
# offers, sorted: --LONG= for one that needs an argument; not popt's -?,
# a glob when unquoted.
expected_options() {
  local long short arg
  popt_options "$1" | while read -r long short arg; do
    if [[ $long != - ]]; then
      if [[ $arg == required ]]; then
        printf -- '--%s=\n' "$long"
      else
        printf -- '--%s\n' "$long"
      fi
    fi
    [[ $short == [-?] ]] || printf -- '-%s\n' "$short"
  done | sort -u
}

@test "every option of each tool is offered, and nothing else" {
  require_sources
  local tool lines=()
  for tool in "${NC_TOOLS[@]}"; do
    lines+=("$tool -" "$tool --")
  done
  complete_lines "${lines[@]}"
  for tool in "${NC_TOOLS[@]}"; do
    local expected
    expected=$(expected_options "$tool")
    [[ $expected == *--version* ]] ||
      fail "no options read from cmd/$tool.c and lib/cli/common.c"
    same_words "'$tool -'" "${OFFERED[$tool -]}" "$expected"
    same_words "'$tool --'" "${OFFERED[$tool --]}" "$(grep -- '^--' <<<"$expected")"
  done
}

@test "a long option that takes an argument ends in '=', with no space after" {
  expect 'xcp --eng' --engine=
  [[ $stderr == *'compopt -o nospace'* ]] || fail "no 'compopt -o nospace'"
  expect 'rmtree --forc' --force
  [[ $stderr != *nospace* ]] || fail "nospace after an option without argument"
  # The argument of --reflink is optional, given only after '='.
  expect 'xcp --refl' --reflink
  expect 'rmtree --interac' --interactive
  expect 'rmtree --preserve-r' --preserve-root
}

@test "rmtree: the words of --interactive= and --preserve-root=" {
  expect 'rmtree --interactive=' never once always
  expect 'rmtree --interactive=o' once
  expect 'rmtree --preserve-root=' all
  # Without '=', the next word is an operand.
  expect 'rmtree --interactive file' file1
}

@test "after --, operands only: file names, even those starting with '-'" {
  : >-x
  local tool lines=()
  # unshare-run and ppoll-wait take a COMMAND there: tested below.
  for tool in "${NC_TOOLS[@]}"; do
    [[ $tool == @(unshare-run|ppoll-wait) ]] || lines+=("$tool -- -")
  done
  complete_lines "${lines[@]}"
  for tool in "${NC_TOOLS[@]}"; do
    [[ $tool == @(unshare-run|ppoll-wait) ]] ||
      same_words "'$tool -- -'" "${OFFERED[$tool -- -]}" -x
  done
}

# What the argument of each option completes to, by "TOOL --LONG": every
# option that takes one needs an entry here, so that a new one is given its
# completion.
#   nothing  a number, a size, a duration or a name: nothing is offered
#   files, dirs
#   users, groups  the names the system knows, which the tool takes
#   words    the words of the option's --help entry that the tool accepts
#   list     the same, as a comma-separated list
#   signals, signal-list  the signal names bash knows that the tool accepts
declare -gA ARG_KIND=(
  [preadv-dump --format]=words
  [preadv-dump --cols]=nothing
  [preadv-dump --groupsize]=nothing
  [preadv-dump --gap]=nothing
  [preadv-dump --engine]=words
  [preadv-dump --name]=nothing
  [preadv-dump --offset]=nothing
  [preadv-dump --seek]=nothing
  [preadv-dump --len]=nothing
  [preadv-dump --color]=words
  [preadv-dump --ranges-from]=files
  [ppoll-wait --timeout]=nothing
  [ppoll-wait --signal]=signal-list
  [ppoll-wait --ignore]=signal-list
  [ppoll-wait --exists]=files
  [ppoll-wait --gone]=files
  [ppoll-wait --closed]=files
  [ppoll-wait --count]=nothing
  [ppoll-wait --kill]=signals
  [ppoll-wait --kill-after]=nothing
  [ppoll-wait --ready-fd]=nothing
  [pwritev-patch --engine]=words
  [pwritev-patch --cols]=nothing
  [pwritev-patch --base]=nothing
  [unshare-run --map-user]=users
  [unshare-run --map-group]=groups
  [unshare-run --setgroups]=words
  [unshare-run --setuid]=users
  [unshare-run --setgid]=groups
  [unshare-run --mount-proc]=dirs
  [unshare-run --propagation]=words
  [unshare-run --root]=dirs
  [unshare-run --wd]=dirs
  [unshare-run --hostname]=nothing
  [unshare-run --monotonic]=nothing
  [unshare-run --boottime]=nothing
  [unshare-run --kill-child]=signals
  [unshare-run --json-status-fd]=nothing
  [rmtree --interactive]=words
  [rmtree --preserve-root]=words
  [xcp --engine]=words
  [xcp --reflink]=words
  [xcp --sparse]=words
  [xcp --preserve]=list
  [xcp --no-preserve]=list
  [xcp --target-directory]=dirs
  [xcp --jobs]=nothing
  [xcp --backup]=words
  [xcp --suffix]=nothing
  [xcp --update]=words
)
for opt in --offset --length --pipe-size --rate-limit --size; do
  ARG_KIND[splice-in $opt]=nothing ARG_KIND[splice-out $opt]=nothing
done
# The namespace options take the file of a namespace to enter.
for opt in --mount --uts --ipc --net --pid --user --cgroup --time; do
  ARG_KIND[unshare-run $opt]=files
done
unset opt

# accepts TOOL LONG VALUE: whether TOOL takes --LONG=VALUE rather than
# refusing it (status 2).  --version ends the run once the options before
# it are parsed; preadv-dump checks its --format only with a file to dump.
accepts() {
  if [[ $1 == preadv-dump ]]; then
    "$1" "--$2=$3" "$BATS_TEST_TMPDIR/one-byte-file" >/dev/null 2>&1
  else
    "$1" "--$2=$3" --version >/dev/null 2>&1
  fi
}

# accepted TOOL LONG WORD...: the WORDs TOOL accepts as --LONG's argument,
# sorted; by a child bash, where a loop runs faster than under bats.
accepted() {
  BATS_TEST_TMPDIR=$BATS_TEST_TMPDIR bash -c "$(declare -f accepts)"'
    tool=$1 long=$2
    shift 2
    for word; do
      accepts "$tool" "$long" "$word" && printf "%s\n" "$word"
    done' accepted "$@" | sort -u
}

# help_entry_words TOOL LONG: the lowercase words of the entry of --LONG in
# TOOL --help, its continuation lines included.  Only the row that names
# --LONG in its option column counts: "-a  same as --preserve=all" is
# -a's row, and its "a" would be an abbreviation of "all".
help_entry_words() {
  "$1" --help | awk -v opt="--$2" '
    /^  (    )?-/ {
      inside = 0
      names = $0
      sub(/^ +/, "", names)
      sub(/  .*/, "", names)
      n = split(names, w, /[ ,]+/)
      for (i = 1; i <= n; i++) {
        o = w[i]
        sub(/=.*/, "", o)
        sub(/\[.*/, "", o)
        if (o == opt)
          inside = 1
      }
    }
    inside' | grep -oE '[a-z][a-z0-9_]*(-[a-z0-9_]+)*' | sort -u
}

# The signal names bash knows, without SIG: JUNK(32) included.
bash_signal_names() {
  compgen -A signal | sed 's/^SIG//'
}

@test "after each option that takes an argument, what the argument is" {
  require_sources
  local tool long short arg flag kinds=()
  local -A wanted=()
  for tool in "${NC_TOOLS[@]}"; do
    # A short option without argument, to put in a cluster before the
    # first short one that takes an argument.
    flag=$(popt_options "$tool" | awk '$2 != "-" && $2 != "?" && $3 == "none" {
      print $2; exit }')
    while read -r long short arg; do
      [[ $arg == none ]] && continue
      [[ $long != - ]] || fail "$tool -$short takes an argument but has no long name"
      [[ ${ARG_KIND[$tool --$long]+set} ]] ||
        fail "no ARG_KIND for $tool --$long: say what completes its argument" \
          "there, and in completions/$tool"
      kinds+=("$tool $long $short $arg ${ARG_KIND[$tool --$long]}")
      wanted[$tool --$long=]=1
      if [[ $arg == required ]]; then
        wanted[$tool --$long ]=1
        if [[ $short != - ]]; then
          wanted[$tool -$short ]=1
          [[ -z $flag ]] || wanted[$tool -$flag$short ]=1
          flag=''
        fi
      else
        # Given without '=', it has no argument: the next word is an
        # operand.
        wanted[$tool --$long ]=1
        wanted[$tool ]=1
      fi
    done < <(popt_options "$tool")
  done
  complete_lines "${!wanted[@]}"

  local entry kind offered_there expected users groups
  users=$(getent passwd | cut -d: -f1 | sort -u)
  groups=$(getent group | cut -d: -f1 | sort -u)
  for entry in "${kinds[@]}"; do
    read -r tool long short arg kind <<<"$entry"
    offered_there=${OFFERED[$tool --$long=]}
    case $kind in
      nothing) expected='' ;;
      files) expected=$'dir1\nfile1' ;;
      dirs) expected=dir1 ;;
      users) expected=$users ;;
      groups) expected=$groups ;;
      words | list)
        # shellcheck disable=SC2046 # one word a line
        expected=$(accepted "$tool" "$long" $(help_entry_words "$tool" "$long"))
        [[ $expected ]] || fail "$tool --$long: no value of its --help accepted"
        ;;
      signals | signal-list)
        # shellcheck disable=SC2046 # one name a line
        expected=$(accepted "$tool" "$long" $(bash_signal_names))
        ;;
    esac
    same_words "'$tool --$long='" "$offered_there" "$expected"
    case $kind in
      users | groups)
        accepts "$tool" "$long" root || fail "$tool refuses --$long=root"
        ;;
    esac
    if [[ $arg == required ]]; then
      same_words "'$tool --$long '" "${OFFERED[$tool --$long ]}" "$expected"
      if [[ $short != - ]]; then
        same_words "'$tool -$short '" "${OFFERED[$tool -$short ]}" "$expected"
        [[ -z ${OFFERED[$tool -$flag$short ]+set} ]] ||
          same_words "'$tool -$flag$short '" \
            "${OFFERED[$tool -$flag$short ]}" "$expected"
      fi
    else
      same_words "'$tool --$long '" "${OFFERED[$tool --$long ]}" \
        "${OFFERED[$tool ]}"
    fi
  done
}

@test "comma lists: the last item completed, those given left out" {
  expect 'xcp --preserve=mode,o' mode,ownership
  expect 'xcp --preserve=mode,ownership,' mode,ownership,timestamps \
    mode,ownership,links mode,ownership,xattr mode,ownership,all
  complete_line 'ppoll-wait --signal=HUP,'
  # shellcheck disable=SC2154 # set by complete_line (completion_helper)
  grep -qx 'HUP,TERM' <<<"$offered" || fail "HUP,TERM not offered"
  ! grep -qx 'HUP,HUP' <<<"$offered" || fail "HUP offered twice"
  expect 'ppoll-wait -s usr1,sigterm,usr' usr1,sigterm,USR2
}

@test "ppoll-wait -s: names in either case, with or without SIG, not KILL or STOP" {
  expect 'ppoll-wait -s usr' USR1 USR2
  expect 'ppoll-wait -s SIGUSR' SIGUSR1 SIGUSR2
  expect 'ppoll-wait -s K'
  expect 'ppoll-wait --ignore=ST' STKFLT
  expect 'ppoll-wait -as TT' TTIN TTOU
  expect 'ppoll-wait -t ' # a duration
  # KILL is the default of --kill-child: unshare-run takes it.
  expect 'unshare-run --kill-child=SIGK' SIGKILL
}

@test "xcp: files and directories, directories only after -t" {
  expect 'xcp ' dir1 file1
  expect 'xcp file1 ' dir1 file1
  expect 'xcp -t ' dir1
  expect 'xcp -rt ' dir1
  expect 'xcp --target-directory=' dir1
  expect 'xcp -t dir1 ' dir1 file1
  expect_some 'xcp file1 dir1 --rec' --recursive
  expect 'xcp --reflink ' dir1 file1
  expect 'xcp --reflink=a' auto always
  expect 'xcp --debug=' # no argument
}

@test "rmtree, splice-in, splice-out: their operands are files" {
  expect 'rmtree ' dir1 file1
  expect 'rmtree file1 ' dir1 file1
  expect 'rmtree file1 --no-p' --no-preserve-root --no-progress
  expect 'splice-in ' dir1 file1
  expect 'splice-in -o 4K ' dir1 file1
  expect 'splice-in file1 ' # one FILE only
  expect 'splice-out -a ' dir1 file1
  expect 'splice-out file1 '
}

@test "preadv-dump: FILE is a file, the RANGEs after it are not" {
  expect 'preadv-dump ' dir1 file1
  expect 'preadv-dump -f json ' dir1 file1
  expect 'preadv-dump --stats file1 '
  expect 'preadv-dump -f c file1 0:4 '
  expect 'preadv-dump -f ' bits c json plain raw xxd
}

@test "pwritev-patch: FILE, then the DATAFILE of OFFSET@DATAFILE" {
  expect 'pwritev-patch ' dir1 file1
  expect 'pwritev-patch file1 ' # OFFSET=HEXBYTES
  expect 'pwritev-patch file1 0x10=' # HEXBYTES
  expect 'pwritev-patch file1 0x10@' dir1 file1
  expect 'pwritev-patch -e file1 0=ff 0x10@fi' file1
  # --engine's word is its argument, not FILE.
  expect 'pwritev-patch --engine ' auto pwritev uring
  expect 'pwritev-patch --engine uring ' dir1 file1
  expect 'pwritev-patch --engine=uring file1 0x10@' dir1 file1
  # Where '@' does not break words, the whole word is replaced.
  export NC_COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'
  expect 'pwritev-patch file1 0x10@fi' 0x10@file1
}

@test "ppoll-wait: TARGETs are files" {
  mkfifo fifo
  expect 'ppoll-wait ' dir1 fifo file1
  expect 'ppoll-wait -w fifo f' fifo file1
  expect 'ppoll-wait --signal=USR1 f' fifo file1
}

@test "ppoll-wait: --exists, --gone and --closed take a path" {
  expect 'ppoll-wait --exists ' dir1 file1
  expect 'ppoll-wait --gone=f' file1
  expect 'ppoll-wait -t 5s --closed d' dir1
  expect 'ppoll-wait --closed file1 --exists ' dir1 file1
  # --follow takes no argument: an operand follows.
  expect 'ppoll-wait --exists file1 --follow ' dir1 file1
  # A name with ':' is completed whole: bash replaces what follows the ':'.
  : >pid:7
  expect 'ppoll-wait --exists pid:' 7
  expect 'ppoll-wait ./pid:' 7
  NC_COMP_WORDBREAKS=' ' expect 'ppoll-wait --exists pid:' pid:7
}

# pids_offered: the words offered in $offered for a 'pid:' target, each
# checked to be a number.
pids_offered() {
  local word
  while read -r word; do
    [[ $word == +([0-9]) ]] || fail "not a pid: '$word'"
  done <<<"$offered"
}

@test "ppoll-wait: pid:N completes the processes of /proc" {
  # The test's own process, which lives through the completion: offered
  # after 'pid:' and after the first digits of its number.
  complete_line 'ppoll-wait pid:'
  pids_offered
  grep -qx "$$" <<<"$offered" || fail "pid:$$ (this test) not offered"
  grep -qx 1 <<<"$offered" || fail "pid:1 not offered"
  complete_line "ppoll-wait -t 5s pid:$$"
  pids_offered
  grep -qx "$$" <<<"$offered" || fail "pid:$$ not offered"
  ! grep -v "^$$" <<<"$offered" || fail "a pid not starting with $$ offered"
  # No process number starts with 0.
  expect 'ppoll-wait pid:0'
  # Where ':' does not break words, the whole word.
  NC_COMP_WORDBREAKS=' ' complete_line 'ppoll-wait pid:1'
  grep -qx pid:1 <<<"$offered" || fail "pid:1 not offered whole"
  # Not after the path options: pid:7 there is a file's name.
  expect 'ppoll-wait --gone pid:'
}

@test "ppoll-wait: COMMAND after --, then COMMAND's own line" {
  mkfifo fifo
  expect_some 'ppoll-wait fifo -- xc' xcp
  expect_some 'ppoll-wait -t 2s --signal=USR1 fifo -- xc' xcp
  expect 'ppoll-wait fifo -- xcp --eng' --engine=
  expect 'ppoll-wait fifo -- rmtree fi' fifo file1
  expect 'ppoll-wait fifo -- ppoll-wait -s usr' USR1 USR2
}

@test "unshare-run: COMMAND after the options, then COMMAND's own line" {
  expect_some 'unshare-run xc' xcp
  expect_some 'unshare-run -r xc' xcp
  # -S and a cluster ending in S take the next word: COMMAND is after it.
  expect_some 'unshare-run -S root xc' xcp
  expect_some 'unshare-run -rS root xc' xcp
  expect_some 'unshare-run -- xc' xcp
  # --net takes an argument only after '=': the next word is COMMAND.
  expect_some 'unshare-run --net xc' xcp
  expect 'unshare-run --wd=/ --propagation slave xcp --eng' --engine=
  expect 'unshare-run -r -- rmtree fi' file1
  expect 'unshare-run -U xcp -rt ' dir1
  expect 'unshare-run -r 2>/dev/null xcp --sp' --sparse=
  expect 'unshare-run --map-root-user xcp -- -' # no file starts with -
  expect 'unshare-run -f preadv-dump -f ' bits c json plain raw xxd
  # COMMAND's options are its own.
  expect 'unshare-run -r rmtree --propa'
  # Under another command that completes its COMMAND (sudo), and under
  # itself.
  expect 'sudo unshare-run -r --wd=/ xcp --eng' --engine=
  expect 'unshare-run -r unshare-run --wd=/ xcp -t ' dir1
}

@test "unshare-run: option values" {
  expect 'unshare-run --propagation=s' shared slave
  expect 'unshare-run --setgroups ' allow deny
  expect 'unshare-run --mount-proc=' dir1
  expect 'unshare-run -R ' dir1
  expect 'unshare-run -rw ' dir1
  expect 'unshare-run --net=' dir1 file1
  expect 'unshare-run --hostname='
  expect_some 'unshare-run -S ro' root
  expect_some 'unshare-run --setgid=ro' root
}
