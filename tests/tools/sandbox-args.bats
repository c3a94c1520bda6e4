#!/usr/bin/env bats
# sandbox-args.bats -- unshare-run's --args FD, as a script uses it: more
# options read from a descriptor, NUL-separated, in place of --args FD.
# What bubblewrap does the same is compared in sandbox-bwrap.bats; here,
# what is unshare-run's alone: its own options among the words, the
# descriptor closed or kept, the bounds, the reads (a non-blocking pipe,
# strace), and each refusal with its message and status.
#
# The sandboxes that mount build their own root in their own mount
# namespace (root, else skipped: CI runs as root); the others make no
# namespace or only a UTS one.
#
# The shell text given to COMMAND is expanded there (SC2016).
# shellcheck disable=SC2016

load test_helper

setup() {
  nc_setup
  BASE=(--ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib
    --symlink usr/lib64 /lib64 --symlink usr/sbin /sbin)
}

# words FILE WORD...: FILE holds the WORDs, each ended by a NUL.
words() {
  local file=$1
  shift
  printf '%s\0' "$@" >"$file"
}

# Set O_NONBLOCK on descriptor 0, then exec the command that follows.
NONBLOCK_EXEC='import fcntl, os, sys
fcntl.fcntl(0, fcntl.F_SETFL, fcntl.fcntl(0, fcntl.F_GETFL) | os.O_NONBLOCK)
os.execvp(sys.argv[1], sys.argv[1:])'

@test "--args: --help names it" {
  run unshare-run --help
  assert_success
  assert_line -p "--args FD                  read more options from FD"
}

@test "--args: unshare-run's own options among the words, in place" {
  require_root
  words a -u --hostname from-args --setenv V args
  run --separate-stderr unshare-run --hostname before --args 3 \
    --setenv W line -- sh -c 'echo "$(hostname) $V $W"' 3<a
  assert_success
  assert_output "from-args args line"
  # An option after --args overrides one of its words, as typed.
  run --separate-stderr unshare-run -u --args 3 --hostname after hostname 3<a
  assert_success
  assert_output after
}

@test "--args: the steps in the order typed, around and between two --args" {
  require_root
  mkdir src
  echo s >src/f
  words a1 --dir /t/a/x --tmpfs /t/a
  words a2 --ro-bind "$PWD/src" /t/b --remount-ro /t
  run --separate-stderr unshare-run "${BASE[@]}" --tmpfs /t --args 3 \
    --dir /t/a/y --args 4 -- sh -c \
    'ls /t/a; cat /t/b/f; touch /t/z 2>/dev/null || echo read-only' 3<a1 4<a2
  assert_success
  assert_output $'y\ns\nread-only'
}

@test "--args: FD closed once read, for COMMAND too; 0, 1 and 2 stay" {
  words a --setenv V v
  run --separate-stderr unshare-run --args 5 -- sh -c \
    'echo $V; [ -e /proc/self/fd/5 ] && echo open || echo closed' 5<a
  assert_success
  assert_output $'v\nclosed'
  # A standard descriptor closed would be the next file's: COMMAND keeps
  # it, at its end.
  run --separate-stderr unshare-run --args 0 -- sh -c \
    'echo $V; readlink /proc/self/fd/0; cat' <a
  assert_success
  assert_output "v"$'\n'"$PWD/a"
}

@test "--args: empty data, no NUL at the end, empty words as arguments" {
  : >empty
  printf -- '--setenv\0E\0\0--setenv\0L\0last' >a
  run --separate-stderr unshare-run --args 3 --args 4 -- sh -c \
    'echo "[${E-unset}] [$L]"' 3<empty 4<a
  assert_success
  assert_output "[] [last]"
}

@test "--args: COMMAND, --, an empty word or a nested --args in the words: usage errors" {
  local data
  for data in 'true' '--' '' '--args 4'; do
    # shellcheck disable=SC2086 # the words of $data
    words a --setenv V v $data
    [[ -n $data ]] || printf '\0' >>a
    run --separate-stderr unshare-run --args 3 echo ran 3<a 4<a
    assert_failure 2
    refute_output
    assert_err -p "unshare-run: --args 3: "
  done
  assert_err -p "--args cannot be read from the words of another one"
}

@test "--args: an option's arguments are in the words, not after them" {
  words a --setenv V
  run --separate-stderr unshare-run --args 3 v echo ran 3<a
  assert_failure 2
  assert_err -p "--setenv needs 2 arguments in the words of --args 3"
  words a --hostname
  run --separate-stderr unshare-run -u --args 3 h echo ran 3<a
  assert_failure 2
  assert_err -p "--hostname needs its argument in the words of --args 3"
  words a --perms 0700
  run --separate-stderr unshare-run --args 3 --dir /d echo ran 3<a
  assert_failure 2
  assert_err -p "--perms must be followed by an option that creates a file"
}

@test "--args: a descriptor that is not one, closed, or a directory" {
  run --separate-stderr unshare-run --args x true
  assert_failure 2
  assert_err -p "invalid --args 'x'"
  run --separate-stderr unshare-run --args -1 true
  assert_failure 2
  run --separate-stderr unshare-run --args 42 echo ran
  assert_failure 1
  refute_output
  assert_err "unshare-run: --args 42: cannot read: Bad file descriptor"
  run --separate-stderr unshare-run --args 3 echo ran 3<.
  assert_failure 1
  assert_err "unshare-run: --args 3: cannot read: Is a directory"
  words a --setenv V v
  run --separate-stderr unshare-run --args 3 --args 3 echo ran 3<a
  assert_failure 1
  assert_err "unshare-run: --args 3: cannot read: Bad file descriptor"
}

@test "--args: at most 16 MiB of data and 9000 words" {
  local mib16=16777216 head
  # 16 MiB exactly: taken (--unsetenv keeps the long value from execve).
  head=$(printf '%s\0' --setenv V | wc -c)
  { printf '%s\0' --setenv V
    head -c $((mib16 - head - 13)) /dev/zero | tr '\0' x
    printf '\0%s\0%s' --unsetenv V; } >big
  assert_equal "$(file_size big)" "$mib16"
  run --separate-stderr unshare-run --args 3 echo ran 3<big
  assert_success
  assert_output ran
  echo >>big
  run --separate-stderr unshare-run --args 3 echo ran 3<big
  assert_failure 2
  assert_err -p "unshare-run: --args 3: more than 16777216 bytes"
  # 9000 words in all, from two --args.
  yes -- -f | head -n 4500 | tr '\n' '\0' >half
  run --separate-stderr unshare-run --args 3 --args 4 echo ran 3<half 4<half
  assert_success
  { cat half; printf -- -f; } >over
  run --separate-stderr unshare-run --args 3 --args 4 echo ran 3<half 4<over
  assert_failure 2
  assert_err -p "unshare-run: --args 4: more than 9000 words from --args in all"
}

@test "--args: a non-blocking pipe whose writer is slow is read to its end" {
  require_cmd python3
  run --separate-stderr bash -c '{ printf "%s\0" --setenv; sleep 0.3
    printf "%s\0" V slow; } | python3 -c "$1" unshare-run --args 0 -- \
    sh -c "echo \$V"' sh "$NONBLOCK_EXEC"
  assert_success
  assert_output slow
}

@test "strace: FD read to its end, then closed, before anything else runs" {
  require_strace
  words a --setenv V v
  strace -f -qq -o trace -e trace=read,close,unshare,execve \
    unshare-run --args 3 -- sh -c 'echo $V' 3<a >out
  assert_equal "$(cat out)" v
  # The reads of 3, the last one 0 (the end), then close(3), before
  # COMMAND's execve.
  run awk '{ sub(/^[0-9]+ +/, "") }
    /^read\(3,/ { sub(/.*= /, ""); print "read " $0 }
    /^close\(3\)/ { print "close " $NF }
    /^execve\("[^"]*\/sh"/ { print "exec"; exit }' trace
  assert_output $'read 13\nread 0\nclose 0\nexec'
}
