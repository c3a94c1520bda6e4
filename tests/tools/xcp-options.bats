#!/usr/bin/env bats
# xcp-options.bats -- the cp options scripts use that xcp takes as GNU
# cp does (issue 28, item 8), each against the real cp on the same tree:
# --no-preserve=LIST, undoing -a, -p and --preserve in command-line
# order; --strip-trailing-slashes, for each SRC copied into a directory;
# -x, --one-file-system, in a mount namespace of its own with tmpfs
# mounts; -P, -H, -L and -d, the last of -P, -H, -L counting; --parents;
# --attributes-only; --keep-directory-symlink (coreutils 9.5's, which the
# cp 9.1 here lacks: without it, compared with cp); and -a's group in a
# set-group-ID directory.  Every comparison is made with one
# worker and with two (-j 1, -j 2).

load test_helper
load xcp_helper

setup() {
  nc_setup
  require_cmd python3 cp
}

# What a listing of a copy shows (xcp_helper.bash): DIR itself and each
# entry of it: type, mode, owner, size, link target, the mtime in ns or
# "new" for a time of this run's (the copies are not made at the same
# instant), the first path of its hard-link group and its link count,
# the user.* xattrs.
# shellcheck disable=SC2034 # read by listing (xcp_helper.bash)
LISTING_FIELDS=(top mode owner size target mtime:^l xattrs group links)

# assert_same_listing A B: the listings of A and B are the same.
assert_same_listing() {
  local d
  d=$(diff <(listing "$1") <(listing "$2")) \
    || fail "$(printf '%s and %s differ:\n%s' "$1" "$2" "$d")"
}

# make_src: the tree of make_tree in src, with a user.* xattr on a file
# and on a directory where the file system has them.
make_src() {
  make_tree src
  python3 -c 'import os
for p in ("src/file", "src/sub"):
    try:
        os.setxattr(p, "user.test", b"kept")
    except OSError:
        pass'
}

# like_cp OPTION...: cp -r OPTION... src c, and xcp -j 1 and -j 2 with
# the same options to x1 and x2, make the same tree.
like_cp() {
  rm -rf c x1 x2
  cp -r "$@" src c || fail "cp -r $* failed"
  run xcp -j 1 -r "$@" src x1
  assert_success
  assert_same_listing c x1
  run xcp -j 2 -r "$@" src x2
  assert_success
  assert_same_listing c x2
}

@test "xcp --no-preserve=LIST undoes -a, -p and --preserve in order, as cp" {
  make_src
  like_cp --no-preserve=mode
  like_cp -a --no-preserve=mode
  like_cp --no-preserve=mode -a
  like_cp -a --no-preserve=all
  like_cp --no-preserve=all -a
  like_cp -a --no-preserve=timestamps,ownership
  like_cp -a --no-preserve=links
  like_cp -a --no-preserve=xattr
  like_cp -p --no-preserve=timestamps --preserve=links
  like_cp --preserve=all --no-preserve=mode,links -p
  # cp knows context, which it leaves alone without SELinux.
  like_cp -a --no-preserve=context
  # Abbreviated words, as cp takes them.
  like_cp -a --no-preserve=own,time
}

@test "xcp --no-preserve=mode: new files and directories get the default permissions less the umask, as cp" {
  printf x >f
  chmod 0750 f
  mkdir d
  chmod 0700 d
  mkfifo p
  chmod 0600 p
  umask 027
  cp -r --no-preserve=mode f d p c-dir 2>/dev/null || {
    mkdir c-dir && cp -r --no-preserve=mode f d p c-dir
  }
  mkdir x-dir
  run xcp -r --no-preserve=mode f d p x-dir
  assert_success
  assert_equal "$(stat -c '%n %a' x-dir/f x-dir/d x-dir/p)" \
    "$(stat -c '%n %a' c-dir/f c-dir/d c-dir/p | sed 's/^c-dir/x-dir/')"
  assert_equal "$(stat -c %a x-dir/f x-dir/d x-dir/p | tr '\n' ' ')" \
    "640 750 640 "
  # An existing file keeps its mode, as without the option.
  printf old >x-dir/old
  chmod 0600 x-dir/old
  run xcp --no-preserve=mode f x-dir/old
  assert_success
  assert_equal "$(stat -c %a x-dir/old)" 600
}

@test "xcp --no-preserve: its argument errors are cp's, exit 2" {
  printf x >f
  local arg
  for arg in --no-preserve=bogus --no-preserve= "--no-preserve f"; do
    # shellcheck disable=SC2086 # the last one is two words
    run --separate-stderr cp $arg f g
    assert_failure 1
    # shellcheck disable=SC2154 # set by run --separate-stderr.
    local cp_err=${stderr//[‘’]/\'}
    # shellcheck disable=SC2086
    run --separate-stderr xcp $arg f g
    # xcp's usage errors exit 2, cp's 1.
    assert_failure 2
    assert_equal "${stderr//xcp:/cp:}" "${cp_err//cp --help/xcp --help}"
    assert [ ! -e g ]
  done
}

@test "xcp --strip-trailing-slashes: each SRC copied into a directory by its name without them, as cp" {
  mkdir d
  echo x >d/f
  ln -s d l
  echo y >f
  local -a args
  local cmd x
  for cmd in "-r l/ f// d/// DIR" "-t DIR l/ f//" "l// f/ DIR" \
    "-r l/ DIR/new"; do
    rm -rf c x1 x2
    mkdir c x1 x2
    read -ra args <<<"$cmd"
    run --separate-stderr cp -v --strip-trailing-slashes "${args[@]//DIR/c}"
    local cp_status=$status cp_out=$output
    for x in x1 x2; do
      run --separate-stderr xcp -j "${x#x}" -v --strip-trailing-slashes \
        "${args[@]//DIR/$x}"
      assert_equal "$status" "$cp_status"
      assert_equal "$output" "${cp_out//c\//$x/}"
      assert_same_listing c "$x"
    done
  done
  # SRC DST: not stripped, the link followed, as by cp.
  assert [ ! -L x2/new ]
  assert [ -d x2/new ]
  # Into a directory, the link itself is copied, not the directory it
  # names; without the option, the slash follows the link.
  rm -rf x1 x2
  mkdir x1 x2
  run xcp -r --strip-trailing-slashes l/ f x1
  assert_success
  assert [ -L x1/l ]
  run xcp -r l/ f x2
  assert_success
  assert [ ! -L x2/l ]
  assert [ -d x2/l ]
}

@test "xcp -x: a directory on another file system than SRC is copied empty, a bind mount of the same whole, as cp -x" {
  require_root
  require_cmd unshare mount
  cat >ns.sh <<'EOF'
set -e
mkdir -p src/m src/keep/deep src/b
mount -t tmpfs -o mode=0750 nc-test src/m || exit 77
mkdir src/m/sub
echo in >src/m/f
echo k >src/keep/deep/k
mount --bind src/keep src/b
touch -d 2001-01-01 src/m
for tool in cp "xcp -j 1" "xcp -j 2"; do
  out=${tool// /}
  $tool -a -x src "$out-x"
  $tool -a --one-file-system src "$out-long"
  $tool -a src "$out-all"
  $tool -a -x src/m "$out-top"
done
EOF
  # xcp by PATH, which test_helper begins with $NC_BINDIR.
  run unshare -m --propagation private bash ns.sh
  [[ $status -ne 77 ]] || skip "cannot mount a tmpfs"
  assert_success
  local x form
  for form in x long all top; do
    for x in xcp-j1 xcp-j2; do
      assert_same_listing "cp-$form" "$x-$form"
    done
  done
  # The mount point itself, empty, with its mode and time.
  assert_equal "$(find xcp-j2-x/m | wc -l)" 1
  assert_equal "$(stat -c '%a %Y' xcp-j2-x/m)" "750 $(date -d 2001-01-01 +%s)"
  assert_file_exists xcp-j2-x/b/deep/k
  assert_file_exists xcp-j2-all/m/f
  assert_file_exists xcp-j2-top/f
}

# like_cp_into OPTION... SRC...: cp OPTION... SRC... c/out and xcp -j 1,
# -j 2 with the same to x1/out, x2/out make the same trees and say the
# same (-v's lines, sorted: the order of a directory's entries is the
# file system's, which cp and xcp read differently; the exit status).
like_cp_into() {
  rm -rf c x1 x2
  mkdir c x1 x2
  local cp_out cp_status=0 out status x
  cp_out=$(cp -v "$@" c/out 2>/dev/null) || cp_status=$?
  cp_out=$(sort <<<"$cp_out")
  for x in x1 x2; do
    status=0
    out=$(xcp -j "${x#x}" -v "$@" "$x/out" 2>/dev/null) || status=$?
    [[ $status -eq $cp_status ]] ||
      fail "xcp -j ${x#x} -v $* $x/out: status $status, cp's $cp_status"
    assert_equal "$(sort <<<"$out")" "${cp_out//c\/out/$x/out}"
    assert_same_listing c "$x"
  done
}

@test "xcp -P, -H, -L, -d: symbolic links given as operands, as cp" {
  mkdir d
  echo x >d/f
  ln -s ../d/f d/up
  ln -s d l
  echo y >f
  ln -s f lf
  ln -s nowhere dang
  # cp's defaults: followed without -r, not with it.
  like_cp_into lf
  like_cp_into -r lf
  like_cp_into -r l
  like_cp_into -P lf
  like_cp_into -P dang
  like_cp_into -P l
  like_cp_into --no-dereference lf
  like_cp_into -d lf
  like_cp_into -rH l
  like_cp_into -a -H l
  like_cp_into -rH lf
  like_cp_into -rH dang
  like_cp_into -rL l
  like_cp_into -r --dereference lf
  like_cp_into -L dang
  # The last of -P, -H, -L counts.
  like_cp_into -r -L -P l
  like_cp_into -P -L lf
  like_cp_into -r -P -H l
  like_cp_into -r -H -P l
}

@test "xcp -L: the links inside a tree copied as the files they name, one file per target with --preserve=links, as cp" {
  mkdir -p s/sub
  echo a >s/f
  ln -s f s/l1
  ln -s ../f s/sub/l2
  echo b >s/g
  ln s/g s/h
  ln -s g s/lg
  echo c >outside
  ln -s ../outside s/lo
  like_cp_into -rL s
  like_cp_into -rL --preserve=links s
  assert [ "$(stat -c %i x2/out/f)" = "$(stat -c %i x2/out/sub/l2)" ]
  assert [ ! -L x2/out/lo ]
  like_cp_into -a -L s
  like_cp_into -a -H s
  assert [ -L x2/out/lo ]
}

# like_cp_parents OPTION... SRC...: cp --parents -v OPTION... SRC... c and
# xcp -j 1, -j 2 the same into x1, x2 (made here, or there already as
# c is) make the same trees and say the same lines, in the same order
# (with -r, in any order: the entries of a directory come in the order
# of each one's reading, cp's sorted by inode number).
like_cp_parents() {
  local cp_out cp_status=0 out status x order=cat
  [[ " $* " != *" -r "* ]] || order='sort'
  mkdir -p c x1 x2
  cp_out=$(cp --parents -v "$@" c 2>/dev/null) || cp_status=$?
  for x in x1 x2; do
    status=0
    out=$(xcp -j "${x#x}" --parents -v "$@" "$x" 2>/dev/null) || status=$?
    [[ $status -eq $cp_status ]] ||
      fail "xcp -j ${x#x} --parents -v $* $x: status $status, cp's $cp_status"
    assert_equal "$($order <<<"$out")" \
      "$(sed -e "s|-> c/|-> $x/|" -e "s|-> 'c/|-> '$x/|" <<<"$cp_out" | $order)"
    assert_same_listing c "$x"
  done
  rm -rf c x1 x2
}

@test "xcp --parents: SRC copied to DIR/SRC, its path's directories made as cp makes them" {
  mkdir -p a/b/c
  echo x >a/b/c/f
  echo y >a/b/g
  chmod 0750 a
  chmod 02771 a/b
  chmod 0705 a/b/c
  touch -d 2002-02-02 a/b/c
  touch -d 2001-01-01 a/b
  touch -d 2003-03-03 a
  if [[ $(id -u) -eq 0 ]]; then
    chown 1234:5678 a/b
  fi
  like_cp_parents a/b/c/f a/b/g
  like_cp_parents -p a/b/c/f
  like_cp_parents -a a/b/c/f a/b/g
  like_cp_parents -a --no-preserve=mode a/b/c/f
  like_cp_parents --preserve=timestamps a/b/g
  like_cp_parents -r a/b
  like_cp_parents ./a//b///g
  like_cp_parents --strip-trailing-slashes a/b/c/
  ( umask 077 && like_cp_parents a/b/c/f )
  # The directories there already are left as they are, but given what
  # -a keeps.
  mkdir -p c/a x1/a x2/a
  chmod 0700 c/a x1/a x2/a
  like_cp_parents a/b/g
  mkdir -p c/a x1/a x2/a
  chmod 0700 c/a x1/a x2/a
  like_cp_parents -a a/b/g
  # An absolute SRC: its whole path under DIR.
  like_cp_parents "$PWD/a/b/g"
}

@test "xcp --parents: the destination must be a directory, as for cp" {
  echo x >f
  run --separate-stderr xcp --parents f g
  assert_failure 2
  assert_err "xcp: with --parents, the destination must be a directory
Try 'xcp --help' for more information."
  assert_not_exist g
  run --separate-stderr cp --parents f g
  assert_failure 1
  assert_err "cp: with --parents, the destination must be a directory
Try 'cp --help' for more information."
}

@test "xcp --parents: a file where SRC's path has a directory is refused before anything is made, as by cp" {
  touch f
  mkdir d c
  run --separate-stderr xcp --parents f/g d
  assert_failure 1
  assert_err "xcp: failed to get attributes of 'f': Not a directory"
  run --separate-stderr cp --parents f/g c
  assert_failure 1
  assert_err "cp: failed to get attributes of 'f': Not a directory"
  assert_equal "$(ls -A d)" ""
  assert_equal "$(ls -A c)" ""
}

# The copies of the names of one file are recorded relative to each
# operand's directory: y/b linked to the copy of x/a, found as "a" in y's,
# was made a link to the copy of y/a, another file.
@test "xcp --parents --preserve=links: a name is never linked to another operand's file of the same name" {
  mkdir x y dst
  echo I1 >x/a
  ln x/a y/b
  echo other >y/a
  run xcp --preserve=links --parents y/a x/a y/b dst
  assert_success
  assert_equal "$(cat dst/y/b)" I1
  assert_equal "$(cat dst/y/a)" other
  mkdir dst2
  run xcp -a --parents y x dst2
  assert_success
  assert_equal "$(cat dst2/y/b)" I1
  assert_equal "$(cat dst2/y/a)" other
}

# md5s DIR: the checksum of each regular file below DIR, by path.
md5s() {
  (cd "$1" && find . -type f -exec md5sum {} + | LC_ALL=C sort -k 2)
}

@test "xcp --attributes-only: no data, a new file empty, an existing one keeps its own, the attributes kept, as cp" {
  make_src
  like_cp --attributes-only
  like_cp -a --attributes-only
  like_cp -p --attributes-only --no-preserve=timestamps
  assert_equal "$(find x2 -type f -size +0 | wc -l)" 0
  # Over existing files of other data and attributes: theirs kept, the
  # attributes -a keeps given.
  local x
  for x in c x1 x2; do
    rm -rf "$x"
    mkdir -p "$x/sub/deeper"
    # Not file: which of its two names cp copies first, and makes the
    # other a link to, is the order of the directory.
    printf 'old data of exec\n' >"$x/exec"
    printf 'old f2\n' >"$x/sub/deeper/f2"
    chmod 0606 "$x/exec" "$x/sub/deeper/f2"
  done
  cp -a --attributes-only src/. c
  run xcp -j 1 -a --attributes-only src/. x1
  assert_success
  run xcp -j 2 -a --attributes-only src/. x2
  assert_success
  assert_same_listing c x1
  assert_same_listing c x2
  assert_equal "$(md5s x2)" "$(md5s c)"
  assert_equal "$(cat x2/exec)" "old data of exec"
  assert_equal "$(stat -c %a x2/exec)" 711
  # Without -p, the existing file's mode too.
  printf 'kept\n' >x2/own
  chmod 0600 x2/own
  run xcp --attributes-only src/exec x2/own
  assert_success
  assert_equal "$(cat x2/own)" kept
  assert_equal "$(stat -c %a x2/own)" 600
}

@test "xcp --keep-directory-symlink: a link to a directory at the destination is copied into, and left as it is" {
  mkdir -p s/d/e
  echo f >s/d/e/f
  echo g >s/g
  chmod 0700 s/d
  touch -d 2001-01-01 s/d
  local x
  for x in c x1 x2; do
    mkdir -p "$x/out" "$x/real"
    chmod 0751 "$x/real"
    ln -s ../real "$x/out/d"
  done
  # Without it, as cp 9.1: the link is not replaced, nor gone through.
  run cp -a s/. c/out
  assert_failure 1
  run --separate-stderr xcp -a s/. x1/out
  assert_failure 1
  assert [ -L x1/out/d ]
  assert_not_exist x1/real/e
  for x in x1 x2; do
    run xcp -j "${x#x}" -a --keep-directory-symlink s/. "$x/out"
    assert_success
    assert_equal "$(readlink "$x/out/d")" ../real
    assert_equal "$(cat "$x/real/e/f")" f
    assert_equal "$(cat "$x/out/g")" g
    # The directory reached keeps its own attributes.
    assert_equal "$(stat -c %a "$x/real")" 751
  done
  # -T, and a link to a directory of the destination itself.
  rm -rf a b
  mkdir -p a/b b/d/e
  ln -s b a/d
  run xcp -RT --keep-directory-symlink b a
  assert_success
  assert_dir_exists a/b/e
  assert [ -L a/d ]
}

@test "xcp -a into a set-group-ID directory: each copy gets its source's group, as from cp -a" {
  require_root
  mkdir s c x1 x2
  echo x >s/f
  mkfifo s/p
  ln -s f s/l
  # Root's own, which a copy made by root does not need to be given,
  # but there the directory's group would be left.
  chown 0:0 s/f s/p
  chown -h 2222:3333 s/l
  chown :7777 c x1 x2
  chmod 2775 c x1 x2
  cp -a s/f s/p s/l c
  run xcp -j 1 -a s/f s/p s/l x1
  assert_success
  assert_same_listing c x1
  run xcp -j 2 -a s x2
  assert_success
  assert_equal "$(stat -c %g x2/s/f x2/s/p x2/s/l)" "0
0
3333"
  assert_equal "$(stat -c %g x1/f x1/p x1/l)" "0
0
3333"
}
