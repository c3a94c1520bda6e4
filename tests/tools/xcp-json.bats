#!/usr/bin/env bats
# xcp-json.bats -- xcp --json: one JSON object on standard output at the
# end, read back with jq; and the progress line's total of a tree.

load test_helper
load json_helper

# s/: 3 regular files (1000 + 2000 + 0 bytes), a symbolic link, and 2
# directories below it.
make_tree() {
  mkdir -p s/a/b
  head -c 1000 /dev/urandom >s/f
  head -c 2000 /dev/urandom >s/a/g
  : >s/a/b/empty
  ln -s f s/link
}

@test "--json: files, bytes, directories, engines, no error, status 0; nothing else on standard output" {
  make_tree
  run --separate-stderr xcp -r --json s t
  assert_success
  assert_err ""
  assert_equal "${#lines[@]}" 1
  json_is '[.files, .bytes, .directories, .errors, .status]' '[4,3000,3,[],0]'
  # Each regular file counted under the engine that copied it.
  json_is '[.engines[]] | add' 3
  json_is '.engines | keys' '["clone","copy_file_range","rw","sendfile","splice"]'
  diff -r s t || fail "t is not a copy of s"
}

@test "--json --engine=rw: the engine counts say so" {
  make_tree
  run --separate-stderr xcp -r --json --engine=rw s t
  assert_success
  json_is '.engines' '{"clone":0,"copy_file_range":0,"splice":0,"sendfile":0,"rw":3}'
}

@test "--json -v: the lines of -v go to standard error" {
  make_tree
  run --separate-stderr xcp -r --json -v s t
  assert_success
  json_is '.files' 4
  assert_err --partial "'s/f' -> 't/f'"
}

@test "--json: a file operand, and --debug's 'skipped' to standard error" {
  echo data >f
  run --separate-stderr xcp --json f g
  assert_success
  json_is '[.files, .bytes, .directories]' '[1,5,0]'
  run --separate-stderr xcp --json --debug -n f g
  assert_success
  json_is '.files' 0
  assert_err --partial "skipped 'g'"
}

@test "--json: each failure's path, message and errno, the messages on standard error too, status 1" {
  make_tree
  touch plain
  mkdir t
  run --separate-stderr xcp -r --json s missing plain/x t
  assert_failure 1
  json_is '.status' 1
  json_is '.files' 4
  json_is '.errors | length' 2
  json_is '.errors[0]' \
    '{"path":"missing","message":"cannot stat '"'missing'"': No such file or directory","errno":2}'
  json_is '.errors[1].path' '"plain/x"'
  json_is '.errors[1].errno' 20
  assert_err --partial "xcp: cannot stat 'missing': No such file or directory"
}

@test "--json: a failure that ends xcp at once (no target directory) prints no object" {
  touch f
  run --separate-stderr xcp --json f f missing/
  assert_failure 1
  assert_output ""
}

@test "--json: a file of a read-only bind mount cannot be written, reported with its path" {
  require_root
  require_cmd unshare mount
  make_tree
  mkdir -p ro/t
  run --separate-stderr unshare -m sh -c \
    'mount --bind ro ro && mount -o remount,bind,ro ro && exec xcp -r --json s ro/t/s'
  assert_failure 1
  json_is '[.files, .status]' '[0,1]'
  json_is '.errors[0].path' '"ro/t/s"'
  json_is '.errors[0].errno' 30
}

@test "--json: a name that is no UTF-8 is still valid JSON" {
  run --separate-stderr xcp --json $'bad\xff' t
  assert_failure 1
  json_is '.errors[0].path == "bad\ufffd"' true
}

@test "progress: the total of a tree, once the walk listed it; the time left" {
  require_terminal
  require_strace
  mkdir s
  local i
  for ((i = 0; i < 60; i++)); do
    echo "$i" >"s/f$i"
  done
  # Each open 20 ms late: more than a second in all.  With workers, the
  # walk lists the files ahead of their copies.
  traced_on_terminal "strace -f -o /dev/null -e trace=openat \
    -e inject=openat:delay_enter=20000 xcp -j2 --progress -r s t"
  assert_success
  assert_output --regexp "xcp: [0-9.]+B of (at least )?[0-9.]+B, [0-9]+ of (at least )?[0-9]+ files, "
  # The last line: the totals.
  assert_output --regexp "xcp: [0-9.]+B, 60 files, "
}
