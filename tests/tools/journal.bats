#!/usr/bin/env bats
# journal.bats -- pwritev-patch --journal: a patch killed at any moment
# leaves a file that the next run (or --recover) makes wholly old or
# wholly new.
#
# The kills: at every system call of a patch of many runs, one round a
# call (strace -e inject=CALL:signal=KILL:when=N), some of them killing
# the recovery too, then at random moments of a large --from-xxd patch,
# up to NC_JOURNAL_ROUNDS rounds in all (default 300; a longer run takes
# more).  Random inputs come from a seed that failures print.

load test_helper

setup() {
  nc_setup
  SEED=${NC_SEED:-$RANDOM}
  RANDOM=$SEED
}

# The old file, old, and the patches of many runs, PATCHES, one past the
# end; the new file, new.
make_patches() {
  local i off
  make_random old $((256 * 1024))
  PATCHES=()
  for ((i = 0; i < 64; i++)); do
    off=$((i * 4096 + RANDOM % 2048))
    PATCHES+=("$off=$(head -c $((RANDOM % 512 + 1)) /dev/urandom | xxd -p \
      | tr -d '\n')")
  done
  PATCHES+=("$((256 * 1024 + 100))=$(head -c 300 /dev/urandom | xxd -p \
    | tr -d '\n')")
  cp old new
  command pwritev-patch --extend new "${PATCHES[@]}"
}

# assert_old_or_new ROUND: after a recovery, f is old or new, and no
# journal is left.
assert_old_or_new() {
  cmp -s f old || cmp -s f new \
    || fail "seed $SEED round $1: f is neither old nor new: $(cmp f old)"
  assert_file_not_exists .f.pwritev-journal
}

# recover ROUND: the recovery, itself killed at its Nth CALL now and
# then, and then run again.  It waits for the killed run's lock: timeout
# -s KILL kills its own process group too, so it returns while the run it
# killed may still be ending, its last write under way.
recover() {
  local calls=(pwritev fsync unlinkat ftruncate) call
  if ((RANDOM % 4 == 0)); then
    call=${calls[RANDOM % 4]}
    strace -o /dev/null -e "trace=$call" \
      -e "inject=$call:signal=KILL:when=$((RANDOM % 8 + 1))" \
      "$NC_BINDIR/pwritev-patch" --recover --wait f 2>/dev/null || true
  fi
  command pwritev-patch --recover --wait f 2>/dev/null \
    || fail "seed $SEED round $1: --recover failed"
}

@test "--journal: SIGKILL at every call of a patch, and at random moments: f is old or new" {
  require_strace
  local rounds=${NC_JOURNAL_ROUNDS:-300} round=0 call n count old_seen=0
  local new_seen=0 t
  make_patches
  # The calls a whole patch makes, by name.
  cp old f
  strace -o log -e trace=openat,write,fsync,pwritev,ftruncate,unlinkat \
    "$NC_BINDIR/pwritev-patch" --journal --engine=pwritev --extend f \
    "${PATCHES[@]}"
  assert_same new f
  for call in openat write fsync pwritev ftruncate unlinkat; do
    count=$(strace_count log "$call")
    for ((n = 1; n <= count && round < rounds; n++)); do
      cp old f
      strace -o /dev/null -e "trace=$call" \
        -e "inject=$call:signal=KILL:when=$n" \
        "$NC_BINDIR/pwritev-patch" --journal --engine=pwritev --extend f \
        "${PATCHES[@]}" 2>/dev/null || true
      recover "$round"
      assert_old_or_new "$round"
      if cmp -s f old; then old_seen=$((old_seen + 1)); else
        new_seen=$((new_seen + 1)); fi
      round=$((round + 1))
    done
  done
  # A large patch, killed at random moments.
  make_random old $((4 * 1024 * 1024))
  make_random new $((4 * 1024 * 1024))
  xxd new >dump
  for (( ; round < rounds; round++)); do
    cp old f
    t=$((RANDOM % 300))
    timeout -s KILL "0.$(printf '%03d' "$t")" \
      "$NC_BINDIR/pwritev-patch" --sync --from-xxd f dump 2>/dev/null || true
    recover "$round"
    assert_old_or_new "$round"
    if cmp -s f old; then old_seen=$((old_seen + 1)); else
      new_seen=$((new_seen + 1)); fi
  done
  echo "# $round rounds: $old_seen old, $new_seen new, none torn" >&3
}

@test "--journal: .FILE.pwritev-journal, mode 0600, created O_EXCL, the directory synced, gone after" {
  require_strace
  printf 'abcdef' >f
  strace -o log -e trace=openat,fsync,unlinkat \
    "$NC_BINDIR/pwritev-patch" --journal f 1=5859
  assert_equal "$(cat f)" aXYdef
  assert_file_not_exists .f.pwritev-journal
  grep -q 'openat(.*"\.f\.pwritev-journal", O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC, 0600)' log \
    || fail "no O_EXCL 0600 journal: $(cat log)"
  grep -q 'unlinkat(.*"\.f\.pwritev-journal", 0)' log || fail "not removed"
  (($(strace_count log fsync) >= 4)) || fail "fewer than 4 fsync calls"
}

@test "--sync keeps a journal, --no-journal none, --journal refuses a file that is not regular" {
  require_strace
  printf 'abcdef' >f
  strace -o log -e trace=openat "$NC_BINDIR/pwritev-patch" --sync f 0=41
  grep -q 'pwritev-journal", O_WRONLY' log || fail "--sync kept no journal"
  strace -o log -e trace=openat \
    "$NC_BINDIR/pwritev-patch" --sync --no-journal f 0=42
  ! grep -q 'pwritev-journal", O_WRONLY' log || fail "--no-journal kept one"
  run pwritev-patch --journal /dev/null 0=41
  assert_failure 1
  assert_output --partial "--journal needs a regular file; nothing written"
}

@test "a journal left by a kill: the next patch puts the old bytes back first, and says so" {
  require_strace_inject
  printf 'abcdef' >f
  strace -o /dev/null -e trace=unlinkat -e inject=unlinkat:signal=KILL \
    "$NC_BINDIR/pwritev-patch" --journal f 1=5859 2>/dev/null || true
  assert_equal "$(cat f)" aXYdef
  assert_file_exists .f.pwritev-journal
  run pwritev-patch --dry-run f 0=41
  assert_success
  assert_output --partial "the journal '.f.pwritev-journal' of an interrupted patch is there"
  run pwritev-patch f 5=5a
  assert_success
  assert_output --partial "'f': an interrupted patch was undone: the old bytes of 1 range put back from the journal '.f.pwritev-journal'"
  assert_equal "$(cat f)" abcdeZ
  assert_file_not_exists .f.pwritev-journal
}

@test "a torn journal: removed, the patch it was for never started" {
  require_strace_inject
  mkdir d
  printf 'abcdef' >d/f
  # Killed at the journal's write: created, empty.
  strace -o /dev/null -e trace=write -e inject=write:signal=KILL \
    "$NC_BINDIR/pwritev-patch" --journal d/f 1=5859 2>/dev/null || true
  assert_file_exists d/.f.pwritev-journal
  run pwritev-patch --recover d/f
  assert_success
  assert_output "pwritev-patch: 'd/f': removed the torn journal 'd/.f.pwritev-journal': the patch it was written for never started"
  assert_equal "$(cat d/f)" abcdef
  # A whole journal less its last byte, or one byte changed: torn too.
  strace -o /dev/null -e trace=unlinkat -e inject=unlinkat:signal=KILL \
    "$NC_BINDIR/pwritev-patch" --journal d/f 1=5859 2>/dev/null || true
  cp d/.f.pwritev-journal whole
  truncate -s -1 d/.f.pwritev-journal
  run pwritev-patch --recover d/f
  assert_output --partial "removed the torn journal"
  cp whole d/.f.pwritev-journal
  printf 'Q' | dd of=d/.f.pwritev-journal bs=1 seek=60 conv=notrunc status=none
  run pwritev-patch --recover d/f
  assert_output --partial "removed the torn journal"
  assert_equal "$(cat d/f)" aXYdef
}

@test "a journal of another file (FILE replaced): left alone, the run fails" {
  require_strace_inject
  printf 'abcdef' >f
  strace -o /dev/null -e trace=unlinkat -e inject=unlinkat:signal=KILL \
    "$NC_BINDIR/pwritev-patch" --journal f 1=5859 2>/dev/null || true
  mv f g
  printf '123456' >f
  run pwritev-patch f 0=41
  assert_failure 1
  assert_output --partial "was written for another file"
  assert_equal "$(cat f)" 123456
  assert_file_exists .f.pwritev-journal
}

@test "--recover without a journal: nothing to do, and no patch taken" {
  printf 'abcdef' >f
  run pwritev-patch --recover f
  assert_success
  assert_output ""
  run pwritev-patch --recover f 0=41
  assert_failure 2
  assert_output --partial "--recover takes no patch"
}

@test "--journal: a failed write undone, the journal removed" {
  require_strace_inject
  printf 'abcdef' >f
  run strace -o /dev/null -e trace=pwritev -e inject=pwritev:error=EIO:when=2 \
    "$NC_BINDIR/pwritev-patch" --journal --engine=pwritev f 0=41 3=44
  assert_failure 1
  assert_equal "$(cat f)" abcdef
  assert_file_not_exists .f.pwritev-journal
  assert_output --partial "is as it was"
}
