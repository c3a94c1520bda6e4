#!/usr/bin/env bats
# build.bats -- what the build system gives a user: make install-strip
# into a DESTDIR (stripped tools, man pages, documents, bash completions),
# make uninstall leaving no file, and ./bootstrap doing nothing when
# nothing changed.  Everything is installed under $BATS_TEST_TMPDIR, never
# into the system; bootstrap runs on a copy of the source tree.

load test_helper

setup() {
  nc_setup
  skip_under_qemu "a cross build is installed by the machine that built it"
  BUILD=${NC_BUILDDIR:-}
  [[ -n $BUILD && -f $BUILD/Makefile && -x $BUILD/config.status ]] ||
    skip "NC_BUILDDIR is not a configured build tree"
  SRC=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
  DEST=$BATS_TEST_TMPDIR/dest
}

# make in the build tree, not as part of the make running this suite (its
# jobserver and flags are not ours), installing under $DEST only.
build_make() {
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
    make -s --no-print-directory -C "$BUILD" DESTDIR="$DEST" "$@"
}

# The base names of the files under $DEST, sorted.
installed_names() {
  find "$DEST" -type f -printf '%f\n' | LC_ALL=C sort
}

# Whether ELF file $1 has section $2.
has_section() {
  readelf -S -W "$1" | grep -q " $2 "
}

@test "make install-strip installs stripped tools, man pages, documents and completions" {
  require_cmd readelf
  run build_make install-strip
  assert_success
  local expected tool bin man1 doc compl
  expected=$( {
    printf '%s\n' "${NC_TOOLS[@]}" "${NC_TOOLS[@]/%/.1}" newcalls.7 \
      README.md ChangeLog COPYING
    for compl in "$SRC"/completions/* "$SRC"/completions/{zsh,fish}/*; do
      [[ -f $compl ]] && basename "$compl"
    done
  } | LC_ALL=C sort)
  assert_equal "$(installed_names)" "$expected"

  for tool in "${NC_TOOLS[@]}"; do
    bin=$(find "$DEST" -type f -path "*/bin/$tool")
    [[ -x $bin ]] || fail "$tool is not installed in a bin directory"
    ! has_section "$bin" .symtab || fail "$bin keeps its symbol table"
    ! has_section "$bin" .debug_info || fail "$bin keeps its debug information"
    run "$bin" --version
    assert_success
    man1=$(find "$DEST" -type f -path "*/share/man/man1/$tool.1")
    cmp "$man1" "$SRC/man/$tool.1"
  done
  [[ -f $(find "$DEST" -type f -path '*/share/man/man7/newcalls.7') ]]
  for doc in README.md ChangeLog COPYING; do
    cmp "$(find "$DEST" -type f -path "*/share/doc/newcalls/$doc")" "$SRC/$doc"
  done
  for compl in "$SRC"/completions/*; do
    [[ -f $compl ]] || continue
    cmp "$(find "$DEST" -type f -path "*/completions/${compl##*/}")" "$compl"
  done
  # zsh's _TOOL and fish's TOOL.fish: names no other file has.
  for compl in "$SRC"/completions/{zsh,fish}/*; do
    cmp "$(find "$DEST" -type f -name "${compl##*/}")" "$compl"
  done
}

@test "make install-strip strips with the configured strip" {
  # STRIP is what configure found for the host (a cross strip for a cross
  # build): one that fails must fail the installation.
  run build_make install-strip STRIP=false
  assert_failure
}

@test "make install keeps the symbols that install-strip removes" {
  require_cmd readelf
  run build_make install
  assert_success
  has_section "$(find "$DEST" -type f -path '*/bin/xcp')" .symtab
}

@test "make uninstall removes every file make install-strip added" {
  run build_make install-strip
  assert_success
  [[ -n $(installed_names) ]]
  run build_make uninstall
  assert_success
  assert_equal "$(installed_names)" ""
}

# A copy of what bootstrap reads and writes, dates kept, in $COPY.
copy_bootstrapped_tree() {
  [[ -f $SRC/bootstrap.stamp && -f $SRC/bootstrap.files ]] ||
    skip "$SRC was not bootstrapped by this ./bootstrap (a tarball?)"
  command -v gnulib-tool >/dev/null || skip "gnulib-tool is not installed"
  COPY=$BATS_TEST_TMPDIR/src
  mkdir "$COPY"
  # shellcheck disable=SC2046 # one file a line, no blanks in the names
  tar -C "$SRC" -cf - bootstrap build-aux/need-packages debian/control \
    configure.ac bootstrap.stamp bootstrap.files \
    $(cat "$SRC/bootstrap.files") | tar -C "$COPY" -xf -
}

# The files of $COPY changed since $1 was made.
changed_since() {
  (cd "$COPY" && find . -newer "$1" -print)
}

@test "a second ./bootstrap with nothing changed runs no step and touches no file" {
  copy_bootstrapped_tree
  touch "$BATS_TEST_TMPDIR/before"
  run "$COPY/bootstrap"
  assert_success
  assert_output --partial "bootstrap: up to date"
  refute_output --partial "importing gnulib"
  refute_output --partial "running aclocal"
  refute_output --partial "running autoheader"
  assert_equal "$(changed_since "$BATS_TEST_TMPDIR/before")" ""
}

@test "./bootstrap redoes only the step whose output is missing" {
  copy_bootstrapped_tree
  rm "$COPY/configure"
  run "$COPY/bootstrap"
  assert_success
  assert_output --partial "running autoheader and autoconf"
  refute_output --partial "importing gnulib"
  refute_output --partial "running aclocal"
  [[ -x $COPY/configure ]]
  run "$COPY/bootstrap"
  assert_success
  assert_output --partial "bootstrap: up to date"
}
