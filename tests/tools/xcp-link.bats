#!/usr/bin/env bats
# xcp-link.bats -- xcp -l (--link) and -s (--symbolic-link), as GNU cp
# makes them (issue 28, item 8), each case against the real cp: the same
# files (a hard link is the source's inode, compared by number; a
# symbolic link by its text), the same -v lines, exit status and
# messages (the program's name left out).  Trees with one worker and
# with two (-j 1, -j 2).  strace shows that a link is one linkat or
# symlinkat, no data moved, and a replacement a rename over the name.

load test_helper
load xcp_helper

setup() {
  nc_setup
  require_cmd python3 cp
}

# What a listing of a copy shows (xcp_helper.bash): type, mode (not of a
# symbolic link), the text of a symbolic link, the mtime in ns or "new"
# (made by this run) of a directory or symbolic link, and for anything
# but a directory its inode: the number, where two trees link to one
# source, or with "listing DIR group" the first path of its inode in
# DIR, where they were made alike in two places.
# shellcheck disable=SC2034 # read by listing (xcp_helper.bash)
LISTING_FIELDS=(mode target mtime:dl inode)

# make_src: a tree to link: files, a hard link, a FIFO, (as root) a
# device, symbolic links to a file, to a FIFO and dangling, directories
# of their own modes and old times.
make_src() {
  mkdir -p src/sub/deeper
  (
    cd src || exit 1
    echo a >f
    echo b >sub/g
    echo c >sub/deeper/h
    ln f sub/hard
    mkfifo fifo
    ln -s f lf
    ln -s ../fifo sub/lfifo
    ln -s nowhere dang
    if [[ $(id -u) -eq 0 ]]; then
      mknod null c 1 3
    fi
    chmod 0750 sub
    chmod 0705 sub/deeper
    touch -h -d "2001-02-03 04:05:06.123456789" lf f
    touch -d "2003-01-01 00:00:00.000000001" sub/deeper
    touch -d "2004-01-01 00:00:00.999999999" sub
  ) || fail "cannot build the tree"
}

# errors FILE: the lines of FILE without the program's name (at their
# start, or after -i's question), sorted (cp walks a tree in another
# order).
errors() {
  sed -E 's/(^|\? )[^ :]*(xcp|cp): /\1/g' "$1" | LC_ALL=C sort
}

# like_cp_tree OPTION...: cp OPTION... src c, and xcp -j 1 and -j 2 with
# the same options to x1 and x2: the same files (the same inodes linked),
# status, messages and -v lines (sorted: cp walks in another order).
like_cp_tree() {
  local x cp_status
  rm -rf c x1 x2
  cp_status=0
  cp "$@" src c >c.out 2>c.err || cp_status=$?
  for x in x1 x2; do
    run bash -c '"$NC_BINDIR/xcp" -j "$1" "${@:3}" src "$2" \
      >"$2.out" 2>"$2.err"' - "${x#x}" "$x" "$@"
    [[ $status -eq $cp_status ]] ||
      fail "xcp -j ${x#x} $*: status $status, cp's $cp_status"
    assert_equal "$(errors "$x.err")" "$(errors c.err | sed "s#'c#'$x#g")"
    assert_equal "$(LC_ALL=C sort "$x.out")" \
      "$(sed "s#'c#'$x#" c.out | LC_ALL=C sort)"
    assert_equal "$(listing "$x")" "$(listing c)"
  done
}

# like_cp SETUP OPTION... ARG...: in two directories ./c and ./x made
# alike by the function SETUP, cp and xcp with the same arguments (@D@
# in one stands for the directory's absolute path), standard input from
# $ANSWER: the same status, standard output, messages and files.
ANSWER=
like_cp() {
  local setup=$1 dir prog out st top=$PWD
  shift
  rm -rf c x
  mkdir c x
  for dir in c x; do
    (cd "$dir" && "$setup") || fail "$setup failed"
    prog=$NC_BINDIR/xcp
    if [[ $dir == c ]]; then
      prog="cp"
    fi
    st=0
    (cd "$dir" && exec "$prog" "${@//@D@/$top/$dir}" <<<"$ANSWER" \
      >../"$dir.out" 2>../"$dir.err") || st=$?
    echo "$st" >"$dir.status"
  done
  out="cp $*: "
  assert_equal "$out$(cat x.status)" "$out$(cat c.status)"
  assert_equal "$out$(sed "s#$PWD/x#@D@#g" x.out)" \
    "$out$(sed "s#$PWD/c#@D@#g" c.out)"
  # 9.5 names the source after "with non-directory"; older cp does not.
  assert_equal "$out$(errors x.err | sed "s#$PWD/x#@D@#g" | sed \
      "s#\\(with non-directory\\) '[^']*'\$#\\1#")" \
    "$out$(errors c.err | sed "s#$PWD/c#@D@#g" | sed \
      "s#\\(with non-directory\\) '[^']*'\$#\\1#")"
  assert_equal "$out$(listing x group | sed "s#$PWD/x#@D@#g")" \
    "$out$(listing c group | sed "s#$PWD/c#@D@#g")"
}

# A directory of files, links and a FIFO to link from and onto.
files() {
  echo a >f
  echo b >g
  ln f h
  ln -s f sl
  ln -s g sg
  ln -s nowhere dang
  mkfifo p
  mkdir d e
  echo c >d/f
  touch -d 2001-01-01 g
}

@test "xcp -l: each operand a hard link of its source, -v's lines, as cp -l" {
  like_cp files -l f x
  like_cp files -lv f x
  like_cp files --link -v f g e
  assert_equal "$(stat -c %i x/e/g)" "$(stat -c %i x/g)"
  like_cp files --link -v f g d
  like_cp files -lv -t d g f
  like_cp files -lv p x
  like_cp files -l d x
  like_cp files -l nosuch x
  like_cp files -lv -r d x
  like_cp files -lv -r d f e
  # A symbolic link: followed, unless -P (or -d, -a): -r does not stop
  # it with -l.
  like_cp files -lv sl x
  like_cp files -l -r sl x
  like_cp files -l -P sl x
  like_cp files -l -d sl x
  like_cp files -l -a sl x
  like_cp files -l -H -r sl x
  like_cp files -l -r -L -P sl x
  like_cp files -l dang x
  like_cp files -l -P dang x
  assert [ -L x/x ]
}

@test "xcp -l onto an existing destination: refused, unless -f or -i said yes; left where it is a link of the source; as cp" {
  like_cp files -l f g
  like_cp files -lv f g
  like_cp files -lf f g
  like_cp files -lfv f g d
  like_cp files -l f d
  like_cp files -l --force -v f d
  like_cp files -l p g
  like_cp files -l -P p g
  like_cp files -l -d sl sg
  like_cp files -l g sl
  like_cp files -lf g sl
  like_cp files -lf -d g sl
  # Already a link of the source: nothing to do, nothing said.
  like_cp files -lv f h
  like_cp files -lfv f h
  like_cp files -l f f
  like_cp files -l -T f d
  like_cp files -l -n f g
  like_cp files -l -u f g
  like_cp files -l -u g f
  ANSWER=y like_cp files -l -i f g
  # A "no" is a failure since coreutils 9.2 (9.1, the cp here, exits 0):
  # checked on xcp alone.
  rm -rf x && mkdir x && (cd x && files)
  run bash -c 'cd x && exec "$NC_BINDIR/xcp" -l -i f g <<<n'
  assert_failure 1
  assert_output "xcp: overwrite 'g'? "
  assert [ "$(stat -c %i x/g)" != "$(stat -c %i x/f)" ]
  ANSWER=y like_cp files -s -i f g
}

@test "xcp -l, -s: the same-file cases of coreutils' tests/cp/same-file, inode for inode, as cp" {
  same() {
    echo XYZ >foo
    ln -s foo symlink
    ln foo hardlink
    ln -s foo sl1
    ln -s foo sl2
    ln -s foo hlsl0
    ln hlsl0 hlsl
    rm hlsl0
  }
  local args opts
  for args in 'foo symlink' 'symlink foo' 'foo foo' 'sl1 sl2' \
    'foo hardlink' 'hlsl sl2'; do
    for opts in -l -dl -fl -dfl -s -sf -ds -dsf -lv -sfv; do
      # shellcheck disable=SC2086 # two words each
      like_cp same $opts $args
    done
  done
}

@test "xcp -r -l, -a -l: directories made with their attributes, all else linked; links followed or not as -P, -H, -L, -a say; as cp" {
  make_src
  like_cp_tree -rl
  like_cp_tree -rlv
  like_cp_tree -al
  like_cp_tree -alv
  like_cp_tree -rl -P
  like_cp_tree -rl -H
  like_cp_tree -rl -L
  like_cp_tree -rl -p
  like_cp_tree -rl --preserve=links
  like_cp_tree -rl -L -a
  like_cp_tree -rl -a -L
  # The directories are new, the rest is the source's.
  assert_equal "$(stat -c %i src/f)" "$(stat -c %i x2/sub/hard)"
  assert_equal "$(stat -c %i src/fifo)" "$(stat -c %i x2/sub/lfifo)"
  assert [ "$(stat -c %i src/sub)" != "$(stat -c %i x2/sub)" ]
  assert_equal "$(stat -c '%a %Y' x2/sub)" "$(stat -c '%a %Y' src/sub)"
}

@test "xcp -L -a: -a is -P too, undoing an -L before it, as cp -a" {
  make_src
  rm -rf c x
  cp -L -a src c
  run xcp -L -a src x
  assert_success
  assert [ -L x/lf ]
  assert_equal "$(listing x group)" "$(listing c group)"
  # After -a, -L counts (a link to a FIFO in a tree is not followed
  # yet without -l).
  rm -rf c x src/sub/lfifo
  cp -a -L src c 2>/dev/null || true
  run xcp -a -L src x
  assert_failure 1
  assert [ ! -L x/lf ]
  assert_equal "$(listing x group)" "$(listing c group)"
}

@test "xcp -s: the link's text is SRC as given, relative only into the current directory; -r, -p as cp -s" {
  like_cp files -s f x
  like_cp files -sv f x
  like_cp files -s f ./x
  like_cp files -sv f d/x
  like_cp files -sv f g d
  like_cp files -s @D@/f d/x
  like_cp files -sv @D@/f @D@/g @D@/sl d
  like_cp files -s sl x
  like_cp files -s dang x
  like_cp files -s d x
  like_cp files -s p x
  # The existing destination: only -f replaces it.
  like_cp files -s f g
  like_cp files -sf f g
  like_cp files -sfv f sl
  like_cp files -s -P sl sg
  like_cp files -sf f f
  like_cp files -sn f g
  # The source's times (and owner) on the link with -p, -a.
  like_cp files -sp g x
  like_cp files -s -a g x
  like_cp files -s -a @D@/sl d/x
  # A tree: each entry a link to its path; only an absolute one works.
  like_cp files -rsv d x
  like_cp files -rsv @D@/d x
  like_cp files -rsv @D@/d @D@/f @D@/sl e
  assert [ "$(readlink x/e/d/f)" = "$PWD/x/d/f" ]
}

@test "xcp -s of a tree with -j 2: every entry linked, -v in the order of -j 1, as cp -rs" {
  make_src
  local i
  for i in $(seq 1 200); do
    echo "$i" >"src/sub/f$i"
  done
  rm -rf c
  cp -rsv "$PWD/src" c >c.out 2>c.err
  run bash -c '"$NC_BINDIR/xcp" -j 1 -rsv "$PWD/src" x1 >x1.out'
  assert_success
  run bash -c '"$NC_BINDIR/xcp" -j 2 -rsv "$PWD/src" x2 >x2.out'
  assert_success
  # Only the destination's name: the scratch path may hold "x2" too.
  assert_equal "$(sed "s/'x2/'x1/" x2.out)" "$(cat x1.out)"
  assert_equal "$(LC_ALL=C sort x1.out)" "$(sed s/"'c"/"'x1"/ c.out | LC_ALL=C sort)"
  assert_equal "$(listing x2 group | sed s/x2/c/g)" "$(listing c group)"
  assert_equal "$(readlink x2/sub/f7)" "$PWD/src/sub/f7"
}

@test "xcp -l -j 2: -v in the order of -j 1, every file a link of its source" {
  make_src
  local i d
  for d in a b c; do
    mkdir "src/$d"
    for i in $(seq 1 150); do
      echo "$i" >"src/$d/f$i"
    done
  done
  run bash -c '"$NC_BINDIR/xcp" -j 1 -rlv src x1 >x1.out'
  run bash -c '"$NC_BINDIR/xcp" -j 2 -rlv src x2 >x2.out'
  assert_equal "$(sed "s/'x2/'x1/" x2.out)" "$(cat x1.out)"
  assert_equal "$(listing x2)" "$(listing x1)"
  assert_equal "$(stat -c %i src/b/f99)" "$(stat -c %i x2/b/f99)"
}

@test "xcp -l and -s together: cp's usage error" {
  echo a >f
  run --separate-stderr cp -l -s f g
  # shellcheck disable=SC2154 # set by run --separate-stderr.
  local want=${stderr_lines[0]#cp: }
  run --separate-stderr xcp -l -s f g
  assert_failure 2
  assert_equal "${stderr_lines[0]#xcp: }" "$want"
  assert [ ! -e g ]
  run xcp -ls f g
  assert_failure 2
  # Either one alone, given twice, is fine.
  run xcp -l -l --link f g
  assert_success
}

@test "xcp -l, -s: one linkat or symlinkat, no data call, nothing of the source opened (strace)" {
  require_cmd strace
  make_src
  local calls='trace=openat,open,read,write,pread64,pwrite64,copy_file_range,sendfile,splice,ioctl,linkat,symlinkat,renameat2,unlinkat'
  run strace -f -qq -o trace -e "$calls" "$NC_BINDIR/xcp" -l src/f x
  assert_success
  assert_equal "$(grep -c 'linkat(AT_FDCWD, "src/f", [0-9]*, "x", AT_SYMLINK_FOLLOW) = 0' trace)" 1
  # The source is not opened, nor a file written.
  refute grep -E 'openat\([^)]*"src/f"|copy_file_range|sendfile|splice|FICLONE|pwrite|write\(3' trace
  run strace -f -qq -o trace -e "$calls" "$NC_BINDIR/xcp" -s "$PWD/src/f" y
  assert_success
  assert_equal "$(grep -c "symlinkat(\"$PWD/src/f\", [0-9]*, \"y\") = 0" trace)" 1
  refute grep -E 'openat\([^)]*src/f|copy_file_range|sendfile|splice' trace
  # A tree with two workers: a linkat per entry not a directory, without
  # following (-a); the directories made.
  run strace -f -qq -o trace -e "$calls,mkdirat" "$NC_BINDIR/xcp" -j 2 -al src t
  assert_success
  # (A call of a thread's may be cut in two lines by another's.)
  assert_equal "$(grep -c ' linkat(' trace)" "$(find src ! -type d | wc -l)"
  assert_equal "$(grep -c ' mkdirat(' trace)" "$(find src -type d | wc -l)"
  refute grep -E ' linkat\(.*AT_SYMLINK_FOLLOW|(link|mkdir)at\(.*= -1|copy_file_range|sendfile|splice|FICLONE' trace
}

@test "xcp -l -f, -s -f: the link is renamed over the name, which is never missing" {
  require_cmd strace
  echo a >a
  echo b >b
  echo old >dst
  run strace -f -qq -o trace -e trace=linkat,renameat2,rename,unlinkat,unlink "$NC_BINDIR/xcp" -lf a dst
  assert_success
  assert_equal "$(stat -c %i dst)" "$(stat -c %i a)"
  assert grep -E '^[0-9]+ +linkat\(AT_FDCWD, "a", [0-9]+, "\.xcp-[0-9]+-[0-9]+\.tmp", AT_SYMLINK_FOLLOW\) = 0' trace
  assert grep -E 'renameat2\([0-9]+, "\.xcp-[0-9]+-[0-9]+\.tmp", [0-9]+, "dst", 0\) = 0' trace
  refute grep -E 'unlink' trace
  run strace -f -qq -o trace -e trace=symlinkat,renameat2,unlinkat "$NC_BINDIR/xcp" -sf b dst
  assert_success
  assert_equal "$(readlink dst)" b
  assert grep -E 'renameat2\([0-9]+, "\.xcp-[0-9]+-[0-9]+\.tmp", [0-9]+, "dst", 0\) = 0' trace
  refute grep -E 'unlink' trace
  # Replaced over and over while another process looks: never missing.
  python3 - <<'EOF' &
import os, time
end = time.time() + 3
missing = looks = 0
while time.time() < end:
    looks += 1
    try:
        os.lstat("dst")
    except FileNotFoundError:
        missing += 1
open("looked", "w").write("%d %d\n" % (missing, looks))
EOF
  local watcher=$! n=0 failed=0
  SECONDS=0
  while ((SECONDS < 3)); do
    xcp -lf a dst || failed=$((failed + 1))
    xcp -lf b dst || failed=$((failed + 1))
    xcp -sf a dst || failed=$((failed + 1))
    n=$((n + 3))
  done
  wait "$watcher"
  assert_equal "$failed" 0
  read -r missing looks <looked
  ((n > 10 && looks > 1000)) || fail "only $n replacements, $looks looks"
  assert_equal "missing $missing times" "missing 0 times"
}

@test "xcp -l across file systems: cp's message (Invalid cross-device link), nothing made" {
  require_root
  require_cmd unshare mount
  cat >ns.sh <<'EOF'
mkdir other && mount -t tmpfs nc-test other || exit 77
echo a >other/f
mkdir -p other/d/e && echo b >other/d/e/g
for prog in cp "$NC_BINDIR/xcp"; do
  out=${prog##*/}
  "$prog" -l other/f "$out-f" 2>"$out.err"; echo "status $?" >>"$out.err"
  "$prog" -rl other/d "$out-d" 2>>"$out.err"; echo "status $?" >>"$out.err"
  sed -i -e "s/^$out: //" -e "s/$out-/P-/g" "$out.err"
  ls -R "$out-d" | sed "s/$out-/P-/" >"$out.ls"
  [ ! -e "$out-f" ] || echo "$out-f made" >>"$out.err"
done
EOF
  run unshare -m --propagation private bash ns.sh
  [[ $status -ne 77 ]] || skip "no tmpfs in a mount namespace"
  assert_success
  assert_equal "$(cat xcp.err)" "$(cat cp.err)"
  assert_equal "$(cat xcp.ls)" "$(cat cp.ls)"
  assert grep -q "Invalid cross-device link" xcp.err
}

@test "xcp --debug -l, -s: the engine is a link" {
  echo a >f
  run --separate-stderr xcp --debug -l f x
  assert_success
  # shellcheck disable=SC2154 # set by run --separate-stderr.
  assert_equal "$stderr" "xcp: 'f' -> 'x': engine link"
  run --separate-stderr xcp --debug -s f y
  assert_success
  assert_equal "$stderr" "xcp: 'f' -> 'y': engine symlink"
  assert_equal "$(readlink y)" f
}

# --update=none is -n for links too: before anything, the same file
# included; none-fail fails there instead (cp 9.5; 9.1 lacks --update=).
@test "xcp -l, -s --update=none leave a destination as -n does, the source itself too; none-fail fails with cp's words" {
  echo a >f
  echo b >g
  run "$NC_BINDIR/xcp" -s --update=none f f
  assert_success
  assert_output ""
  run "$NC_BINDIR/xcp" -s -n f f
  assert_success
  run "$NC_BINDIR/xcp" -l --update=none f g
  assert_success
  assert [ "$(stat -c %i f)" != "$(stat -c %i g)" ]
  run "$NC_BINDIR/xcp" -l --update=none-fail f g
  assert_failure 1
  assert_output "xcp: not replacing 'g'"
  assert [ "$(cat g)" = b ]
}
