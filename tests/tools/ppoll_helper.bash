# shellcheck shell=bash
# ppoll_helper.bash -- what ppoll.bats and ppoll-watch.bats share: a
# ppoll-wait started in the background and let go on only once it sleeps
# in its wait (tests/helpers/ppoll-race wait), then its outcome.  Loaded
# after test_helper; the tests set RACE to tests/helpers/ppoll-race's path
# and clear JOB_PID and WAIT_PID in their setup.

require_race() {
  require_helper "$RACE"
}

# find_tool PID: the pid of the ppoll-wait that background job PID runs:
# PID itself once it has exec'd, or its child or grandchild (the shell may
# fork before it execs, and strace runs it as a child).
find_tool() {
  local i pid
  for ((i = 0; i < 200; i++)); do
    if [[ $(cat "/proc/$1/comm" 2>/dev/null) == ppoll-wait ]]; then
      echo "$1"
      return
    fi
    if pid=$(pgrep -x -P "$1,$(pgrep -d, -P "$1")" ppoll-wait); then
      echo "$pid"
      return
    fi
    sleep 0.05
  done
  fail "ppoll-wait did not start"
}

# start_wait ARG...: ppoll-wait ARG... in the background, its standard
# output in ./out and its errors in ./err; return once it waits, with its
# pid in WAIT_PID.
start_wait() {
  require_race
  ppoll-wait "$@" >out 2>err 3>&- &
  JOB_PID=$!
  WAIT_PID=$(find_tool "$JOB_PID")
  "$RACE" wait "$WAIT_PID"
}

# finish_wait: the exit status of the ppoll-wait of start_wait in $status,
# its standard output in $output (its errors are in ./err).
# shellcheck disable=SC2034 # status and output are bats's, for the tests
finish_wait() {
  status=0
  wait "$JOB_PID" || status=$?
  JOB_PID=
  WAIT_PID=
  output=$(cat out)
}
