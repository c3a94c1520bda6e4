#!/usr/bin/env bats
# arch.bats -- the tools enter the kernel through the project's own stubs
# (arch/<arch>/syscall_arch.h), not through libc: no tool imports libc's
# syscall(3), nor the libc function of a call that lib/sys/calls.c wraps.  On
# every architecture that arch/check-arches builds, the same test
# reads that architecture's binaries (readelf reads any ELF file).

load test_helper

setup() {
  nc_setup
  require_cmd readelf
}

# imports FILE: the names of the dynamic symbols FILE takes from its
# libraries, one a line, without their versions.  The name follows the
# UND column (ppc64 ELFv2 puts "[<localentry>: 8]" before it).
imports() {
  readelf --dyn-syms -W "$1" | awk '
    { for (i = 1; i < NF; i++)
        if ($i == "UND") { name = $(i + 1); sub(/@.*/, "", name); print name; break } }'
}

# The libc functions of the calls lib/sys/calls.c makes itself (with their
# 64-bit and fortified names).
WRAPPED='syscall
preadv preadv64 preadv2 preadv64v2 pwritev pwritev64 pwritev2 pwritev64v2
ppoll __ppoll_chk __ppoll64 __ppoll64_chk pselect __pselect64
splice tee vmsplice copy_file_range sendfile sendfile64
unshare setns mount umount2 sethostname capget capset prctl
openat openat64 __openat_2 __openat64_2 unlinkat mkdirat mknodat linkat
symlinkat readlinkat renameat2 fchmodat fchownat faccessat
statx getdents64 utimensat __utimensat64 pipe2'

# bats test_tags=arch
@test "the tools import no syscall(3) and no wrapped call from libc" {
  local tool imp name bad=
  for tool in "${NC_TOOLS[@]}"; do
    imp=$(imports "$NC_BINDIR/$tool") || fail "readelf cannot read $tool"
    # A dynamic executable at all, or this test would prove nothing.
    grep -qx '__libc_start_main' <<<"$imp" \
      || fail "$tool: no __libc_start_main among its imports: $imp"
    for name in $WRAPPED; do
      if grep -qx -- "$name" <<<"$imp"; then
        bad+=" $tool:$name"
      fi
    done
  done
  [[ -z $bad ]] || fail "imported from libc:$bad"
}

@test "the check itself: a program calling syscall(3) is caught" {
  require_cmd cc
  # Built for the build machine (readelf and imports do not care which).
  printf '%s\n' '#include <unistd.h>' '#include <sys/syscall.h>' \
    'int main (void) { return syscall (SYS_getpid) < 0; }' >p.c
  cc -o p p.c || skip "cannot build a test program here"
  run imports p
  assert_success
  assert_line syscall
  assert_line __libc_start_main
}

# gen_check [ARCH...]: arch/gen-syscall-nr --check on a copy of arch/ in
# the test's directory, which the test may change.
gen_check() {
  "$PWD/arch/gen-syscall-nr" --check "$@"
}
copy_arch() {
  cp -R "$BATS_TEST_DIRNAME/../../arch" . || fail "cannot copy arch/"
}

@test "gen-syscall-nr --check: a number changed in a committed table is caught" {
  copy_arch
  # The first architecture whose headers this machine has.
  local arch='' a
  for a in x86_64 i386 aarch64 arm mips mips64 powerpc riscv64 s390x sparc64; do
    if gen_check "$a" | grep -qx "gen-syscall-nr: checked $a"; then
      arch=$a
      break
    fi
  done
  [[ -n $arch ]] || skip "no kernel headers of any architecture of arch/ here"
  sed -i 's/^#define NC_SYS_read \([0-9]*\)$/#define NC_SYS_read 1\1/' \
    "arch/$arch/syscall_nr.h"
  grep -q '^#define NC_SYS_read 1[0-9]*$' "arch/$arch/syscall_nr.h" \
    || fail "arch/$arch/syscall_nr.h has no NC_SYS_read line to change"
  run gen_check "$arch"
  assert_failure 1
  assert_output --partial "$arch: arch/$arch/syscall_nr.h is out of date"
  assert_output --partial '#define NC_SYS_read'
}

@test "gen-syscall-nr --check: missing headers are a skip, in its one line" {
  copy_arch
  run env CPP_s390x=/nonexistent/cpp "$PWD/arch/gen-syscall-nr" --check s390x
  assert_success
  assert_output "gen-syscall-nr: checked none; no preprocessor finds <asm/unistd.h> for s390x (skipped)"
}

@test "every syscall number generated into arch/ is used by lib/ or tests/" {
  local top=$BATS_TEST_DIRNAME/../.. name unused=
  while read -r name; do
    grep -qw "NC_SYS_$name" "$top"/lib/*/*.c "$top"/tests/*/*.c \
      || unused+=" $name"
  done < <(sed -n 's/^#define NC_SYS_\([a-z0-9_]*\) .*/\1/p' \
    "$top"/arch/*/syscall_nr.h | sort -u)
  [[ -z $unused ]] || fail "generated and never used:$unused"
}
