#!/usr/bin/env bats
# rmtree-json.bats -- rmtree --json: one JSON object on standard output
# at the end, read back with jq.

load test_helper
load json_helper

# tree: d/ with 3 files and 2 directories below it.
make_tree() {
  mkdir -p d/a/b
  touch d/f d/a/g d/a/b/h
}

@test "--json: the files and directories removed, no error, status 0; nothing else on standard output" {
  make_tree
  run --separate-stderr rmtree --json d
  assert_success
  assert_err ""
  # One object, on one line.
  assert_equal "${#lines[@]}" 1
  json_is . '{"files":3,"directories":3,"dry_run":false,"errors":[],"status":0}'
  assert_not_exist d
}

@test "--json -v: the lines of -v go to standard error" {
  make_tree
  run --separate-stderr rmtree --json -v d
  assert_success
  json_is '[.files, .directories]' '[3,3]'
  assert_err --partial "removed 'd/f'"
  assert_err --partial "removed directory 'd'"
}

@test "--json -n: what would be removed, counted; nothing removed" {
  make_tree
  run --separate-stderr rmtree --json -n d
  assert_success
  json_is '[.files, .directories, .dry_run]' '[3,3,true]'
  assert_err --partial "would remove 'd/a/b/h'"
  assert_file_exist d/a/b/h
}

@test "--json: each failure's path, message and errno; the messages on standard error too, status 1" {
  make_tree
  touch plain
  run --separate-stderr rmtree --json d missing plain/x
  assert_failure 1
  json_is '[.files, .directories, .status]' '[3,3,1]'
  json_is '.errors | length' 2
  json_is '.errors[0]' \
    '{"path":"missing","message":"cannot remove '"'missing'"': No such file or directory","errno":2}'
  json_is '.errors[1].path' '"plain/x"'
  json_is '.errors[1].errno' 20
  assert_err --partial "rmtree: cannot remove 'missing': No such file or directory"
  assert_err --partial "rmtree: cannot remove 'plain/x': Not a directory"
}

@test "--json: a file name that is no UTF-8 is still valid JSON" {
  run --separate-stderr rmtree --json $'bad\xff\n'
  assert_failure 1
  json_is '.errors[0].path == "bad\ufffd\n"' true
}

@test "--json: entries of a read-only bind mount fail with EROFS, each reported" {
  require_root
  require_cmd unshare mount
  mkdir -p ro/d/sub
  touch ro/d/f1 ro/d/sub/f2
  # A private mount namespace: the bind mount is gone with it.
  run --separate-stderr unshare -m sh -c \
    'mount --bind ro ro && mount -o remount,bind,ro ro && exec rmtree --json ro/d'
  assert_failure 1
  json_is '[.files, .directories, .status]' '[0,0,1]'
  json_is '[.errors[].errno] | unique' '[30]'
  json_is '[.errors[].path] | sort' '["ro/d/f1","ro/d/sub/f2"]'
  assert_file_exist ro/d/f1
}
