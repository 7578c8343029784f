# Sourced by the device scripts (measure/h200_new_families.sh, h100_grover_generator.sh,
# h100_generator_rest.sh).
#
# measure LIMIT ARGS...: `rewire measure run ARGS...` stopped at LIMIT seconds with its
# worker processes. The runner starts in a session of its own (setsid) and the whole
# process group is signalled, TERM then KILL after STAGE_KILL_GRACE seconds (default 5):
# GNU timeout would signal the runner only, leaving its workers on the GPU. Finished points
# keep their logs; a later call with the same run id resumes. A LIMIT of 5 s or less runs
# nothing and says so.
measure() {
  local limit=$1
  shift
  if [ "$limit" -le 5 ]; then echo "no time left for: $*" >&2; return 0; fi
  setsid python3 -c 'from measure.cli import app; app()' run "$@" &
  local pid=$!
  ( trap 'kill "$s" 2>/dev/null; exit 0' TERM; sleep "$limit" & s=$!; wait "$s"
    echo "stage limit ${limit} s: stopping" >&2
    kill -TERM -- "-$pid" 2>/dev/null; sleep "${STAGE_KILL_GRACE:-5}"
    kill -KILL -- "-$pid" 2>/dev/null ) &
  local watcher=$!
  wait "$pid"
  local rc=$?
  kill "$watcher" 2>/dev/null
  wait "$watcher" 2>/dev/null
  return $rc
}
