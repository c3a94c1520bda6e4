# completion_helper.bash -- what the completion suites share: the
# words a bash completion offers for a line, and the checks on them.

# complete_line LINE: what completing LINE offers, sorted, one a line, in
# $offered; $stderr keeps the compopt calls.  Fails on any other message.
# shellcheck disable=SC2154 # run --separate-stderr sets stderr
complete_line() {
  run --separate-stderr "$BATS_TEST_DIRNAME/../scripts/complete-line" "$1"
  ((status == 0)) || fail "complete-line '$1': status $status: $stderr"
  only_compopt_messages
  offered=$(sort -u <<<"$output" | sed '/^$/d')
}

# only_compopt_messages: $stderr of complete-line holds nothing but
# the compopt calls the completions make, or the test fails.
only_compopt_messages() {
  local message
  while IFS= read -r message; do
    [[ -z $message || $message == 'compopt '* ]] ||
      fail "complete-line: $message"
  done <<<"$stderr"
}

# same_words WHAT ACTUAL EXPECTED: the sorted lists are equal, or fail with
# both.
same_words() {
  [[ $2 == "$3" ]] ||
    fail "$(printf '%s offers:\n%s\n-- expected:\n%s' "$1" "${2:-(nothing)}" \
      "${3:-(nothing)}")"
}

# expect LINE WORD...: completing LINE offers exactly the WORDs.
expect() {
  local line=$1
  shift
  complete_line "$line"
  same_words "'$line'" "$offered" "$(printf '%s\n' "$@" | sort -u | sed '/^$/d')"
}

# expect_some LINE WORD...: completing LINE offers each WORD (among others).
expect_some() {
  local line=$1 word
  shift
  complete_line "$line"
  for word; do
    grep -qxF -- "$word" <<<"$offered" ||
      fail "$(printf "'%s' does not offer %s; it offers:\n%s" "$line" \
        "$word" "$offered")"
  done
}
