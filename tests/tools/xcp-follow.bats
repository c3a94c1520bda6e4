#!/usr/bin/env bats
# xcp-follow.bats -- cp's options that follow what a tree holds (issue 28,
# item 8): -L inside a tree (links to directories copied as directories,
# cycles reported, the descriptors still bounded), -H's hard links between
# operands, --copy-contents (FIFOs and devices read into regular files)
# and --parents --preserve=links across operands; each against the real
# cp on the same tree where cp 9.1 has the behaviour, with one worker and
# with two (-j 1, -j 2).

load test_helper
load xcp_helper

setup() {
  nc_setup
  require_cmd python3 cp
}

# What a listing of a copy shows (xcp_helper.bash): type, mode, size, link
# target, and the first path of its hard-link group.
# shellcheck disable=SC2034 # read by listing (xcp_helper.bash)
LISTING_FIELDS=(mode size target group)

# messages DIR: the lines of standard input sorted, without the program's
# name, DIR in them as c.
messages() {
  sed -e 's/^[a-z]*: //' -e "s#'$1#'c#g" | sort
}

# like_cp OPTION... SRC...: cp OPTION... SRC... c and xcp -j 1, -j 2 the
# same into x1, x2 (directories) make the same trees, with the same status and the same
# messages (in any order, the program's name left out).
like_cp() {
  rm -rf c x1 x2
  mkdir c x1 x2
  local cp_err cp_status=0 err status x
  cp_err=$(timeout 20 cp "$@" c 2>&1 >/dev/null) || cp_status=$?
  cp_err=$(messages c <<<"$cp_err")
  for x in x1 x2; do
    status=0
    err=$(timeout 20 xcp -j "${x#x}" "$@" "$x" 2>&1 >/dev/null) || status=$?
    [[ $status -eq $cp_status ]] ||
      fail "xcp -j ${x#x} $* $x: status $status, cp's $cp_status: $err"
    assert_equal "$(messages "$x" <<<"$err")" "$cp_err"
    assert_equal "$(listing "$x")" "$(listing c)"
  done
}

# deep_chain DIR K D: DIR/s/top, a link to r0, and r0 ... r(K-1) beside
# s, each D directories deep with a file at every level, the deepest of
# r(i) holding a link to r(i+1) by its absolute path.
deep_chain() {
  local i j p
  for ((i = 0; i < $2; i++)); do
    p=$1/r$i
    mkdir "$p"
    for ((j = 0; j < $3; j++)); do
      p=$p/d$j
      mkdir "$p"
      echo "$i $j" >"$p/f"
    done
    if ((i + 1 < $2)); then ln -s "$1/r$((i + 1))" "$p/next"; fi
  done
  mkdir "$1/s"
  ln -s ../r0 "$1/s/top"
  echo top >"$1/s/file"
}

@test "xcp -rL: links in a tree to directories, files and FIFOs copied as what they name, as cp (tests/cp/cp-deref)" {
  mkdir -p s/d/e other/deep
  echo a >s/d/e/f
  echo o >other/deep/g
  mkfifo other/fifo
  ln -s d s/ld
  ln -s ../other s/lo
  ln -s ../other s/lo2
  ln -s ../other/fifo s/lfifo
  ln -s e/f s/d/lf
  ln -s nowhere s/dang
  like_cp -rL s
  assert [ -d x1/s/lo/deep ] && assert [ -d x2/s/lo2/deep ]
  assert [ -p x2/s/lfifo ]
  like_cp -rL --preserve=links s
  # Every name of a file reached becomes a link to its first copy.
  assert [ "$(stat -c %i x2/s/ld/e/f)" = "$(stat -c %i x2/s/d/lf)" ]
  like_cp -a -L s
}

@test "xcp -rL: a link to a directory it is in is cp's cyclic symbolic link, nothing made for it, in bounded time" {
  mkdir -p s/a/b
  echo x >s/a/b/f
  ln -s .. s/a/b/up
  ln -s ../.. s/a/b/top
  ln -s . s/a/self
  ln -s "$PWD/s" s/a/b/abs
  like_cp -rL s
  assert_not_exist x1/s/a/b/up
  assert_not_exist x1/s/a/self
  assert_same s/a/b/f x2/s/a/b/f
  # The top, a link itself (-L follows operands): still a cycle below.
  ln -s s ls
  like_cp -rL ls
}

@test "xcp -rL under ulimit -n 20: a tree 240 deep reached through a chain of links, the descriptors bounded" {
  deep_chain "$PWD" 6 40
  # shellcheck disable=SC2016 # for the inner shell.
  run --separate-stderr bash -c 'ulimit -n 20 && "$0" -j 1 -rL s x' "$NC_BINDIR/xcp"
  assert_success
  assert_err ''
  timeout 60 cp -rL s c
  diff -r c x
  assert_equal "$(listing x)" "$(listing c)"
  # With workers too, and an strace showing the way back up by names.
  if command -v strace >/dev/null; then
    # shellcheck disable=SC2016 # for the inner shell.
    run env ASAN_OPTIONS="$(no_leak_check_options)" \
      bash -c 'ulimit -n 20 && strace -f -o trace -e trace=openat "$0" -j 2 -rL s y' "$NC_BINDIR/xcp"
    assert_success
    diff -r c y
    [[ $(grep -c '"top", O_RDONLY|O_CLOEXEC|O_DIRECTORY)' trace) -gt 1 ]] ||
      fail "the top link was never opened again on the way up"
  fi
}

@test "xcp -rH --preserve=links: an operand that links to another is made a hard link of its copy, as cp (tests/cp/link-preserve)" {
  echo a >a
  ln -s a b
  mkdir -p d/sub
  ln -s d ld
  like_cp --preserve=links -R -H a b ld
  assert [ "$(stat -c %i x1/a)" = "$(stat -c %i x1/b)" ]
  assert [ -d x2/ld/sub ]
  # Without --preserve=links, two files.
  like_cp -R -H a b
  assert [ "$(stat -c %i x1/a)" != "$(stat -c %i x1/b)" ]
}

# feed FIFO TEXT: write TEXT into FIFO once a reader opens it, in the
# background, giving up after 20 s.
feed() {
  # shellcheck disable=SC2016 # for the inner shell.
  timeout 20 bash -c 'printf "%s" "$1" >"$0"' "$1" "$2" &
}

@test "xcp -r --copy-contents: FIFOs and devices read into regular files, operands too; without it made as what they are, as cp" {
  mkdir s
  mkfifo -m 0640 s/fifo top
  echo plain >s/f
  ln -s fifo s/lfifo
  if [[ $(id -u) -eq 0 ]]; then mknod -m 0604 s/null c 1 3; fi
  like_cp -r s top
  assert [ -p x1/s/fifo ] && assert [ -p x2/top ]
  ln -s top ltop
  like_cp -rH ltop
  assert [ -p x1/ltop ]
  for x in c x1 x2; do
    rm -rf "$x"
    mkdir "$x"
    feed s/fifo inside
    feed top top
    if [[ $x == c ]]; then
      timeout 20 cp -r --copy-contents s top "$x"
    else
      timeout 20 xcp -j "${x#x}" -r --copy-contents s top "$x"
    fi
    wait
    assert_equal "$(cat "$x/s/fifo")" inside
    assert_equal "$(cat "$x/top")" top
    assert [ -f "$x/s/fifo" ] && assert [ -L "$x/s/lfifo" ]
  done
  assert_equal "$(listing x1)" "$(listing c)"
  assert_equal "$(listing x2)" "$(listing c)"
  if [[ $(id -u) -eq 0 ]]; then assert [ -f x1/s/null ]; fi
}

@test "xcp --copy-contents: while a FIFO is read, its copy has no name anyone could open, nor its directory write permission for others (tests/cp/file-perm-race, parent-perm-race)" {
  umask 002
  mkdir d
  mkfifo -m 0664 d/fifo
  timeout 20 xcp -j 1 --preserve=mode -r --copy-contents d out &
  local pid=$! xpid="" fd held="" names dmode
  # Its open of the FIFO returns once a writer has it open (read-write:
  # this open never blocks, whatever xcp does).
  exec 7<>d/fifo
  echo data >&7
  for _ in $(seq 200); do
    xpid=$(pgrep -P "$pid" xcp) || xpid=none
    for fd in /proc/"$xpid"/fd/*; do
      [[ $(readlink "$fd") == */out/"#"*" (deleted)" ]] && held=$fd
    done
    [[ -n $held ]] && break
    sleep 0.05
  done
  names=$(ls -A out)
  dmode=$(stat -c %A out)
  exec 7>&-
  wait "$pid"
  [[ -n $held ]] || fail "no unnamed file held while the FIFO was read"
  assert_equal "$names" ""
  [[ $dmode == d????-??-? ]] || fail "its directory meanwhile: [$dmode]"
  assert_equal "$(cat out/fifo)" data
  assert_equal "$(stat -c %a out/fifo)" 664
  assert_equal "$(stat -c %a out)" 775
}

@test "xcp --parents --preserve=links: hard links between operands in other directories, as cp (tests/mv/hard-3)" {
  mkdir -p x y
  echo a >a
  ln a x/b
  ln a y/c
  ln a d
  for t in c x1 x2; do mkdir "$t"; done
  cp --preserve=links --parents a x/b y/c d c
  for x in x1 x2; do
    xcp -j "${x#x}" --preserve=links --parents a x/b y/c d "$x"
    assert_equal "$(listing "$x")" "$(listing c)"
  done
  assert [ "$(stat -c %i x1/x/b)" = "$(stat -c %i x1/y/c)" ]
  # A tree and a file of it, both given.
  rm -rf c x1 x2
  for t in c x1 x2; do mkdir "$t"; done
  cp -a --parents x a c
  xcp -a --parents x a x1
  assert_equal "$(listing x1)" "$(listing c)"
}

@test "xcp --parents --preserve=links: a link where the directory is not writable fails, as cp's (uid 65534)" {
  require_root
  mkdir -p w/x w/dst/x
  touch w/dst/x/b
  echo a >w/a
  ln w/a w/x/b
  ln w/a w/c
  chown -R 65534 w
  chmod a-w w/dst/x
  # shellcheck disable=SC2016 # for the inner shell.
  run setpriv --reuid=65534 --regid=65534 --clear-groups -- bash -c \
    'cd w && "$0" --preserve=link --parents a x/b c dst' "$NC_BINDIR/xcp"
  assert_failure 1
  assert_output --partial "cannot create hard link 'dst/x/b' to 'dst/a'"
  assert [ "$(stat -c %i w/dst/a)" = "$(stat -c %i w/dst/c)" ]
  assert [ "$(stat -c %i w/dst/a)" != "$(stat -c %i w/dst/x/b)" ]
}
