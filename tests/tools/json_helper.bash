# shellcheck shell=bash
# json_helper.bash -- what the --json suites share: jq, a test's setup
# and teardown, and the check of one value of the object.

setup() {
  nc_setup
  require_cmd jq
}

teardown() {
  # A read-only test's tree, left under a bind mount that was gone with
  # its namespace: writable again here.
  [[ ! -d ro ]] || rm -rf ro
}

# json_is FILTER EXPECTED: jq's compact answer for FILTER on $output.
# shellcheck disable=SC2154 # run sets output
json_is() {
  assert_equal "$(jq -c "$1" <<<"$output")" "$2"
}
