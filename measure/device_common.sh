# Sourced by the device scripts that pack their run folders as they go
# (measure/h100_grover_generator.sh, h100_generator_rest.sh), after they set:
#   R           the folder of run folders (/tmp/curves: packed as "curves")
#   OUT         what comes back ($OUT on the device machine)
#   DEADLINE_S  seconds after the script's start by which everything has ended
# and optionally WHEELS (default .whl: pydantic and its pins, carried; empty: install none,
# for a CPU check where the environment has them) and DRY_RUN (non-empty: every stage plans
# and prints its points, runs none: a CPU check of the script's commands).
#
# device_setup             wheels onto PYTHONPATH, the GPU as nvidia-smi names it
# start_packing            every 4 s, $R packed into $OUT/runs.tar.gz (replaced atomically),
#                          so a call stopped at its limit returns the points that finished
# stop_packing             the last pack, after the stages
# till END                 seconds left until END (seconds after the start), or the deadline
# stage NAME               "NAME at N s" into $R/timing.txt
# resume_from RUN_ID       a committed run's logs (artifacts/measurements/RUN_ID) into
#                          $R/RUN_ID/logs, so that the runner runs only its missing points
# status_counts RUN_ID...  the statuses of each run's logs
# common                   the runner options every stage shares (--runs-dir, no records)
# Then `. measure/stage_limit.sh` for `measure LIMIT ARGS...`.

device_setup() {
  mkdir -p "$OUT" "$R"
  local site=
  if [ -n "${WHEELS-.whl}" ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target /tmp/site "${WHEELS-.whl}"/*.whl || return 1
    site=/tmp/site:
  fi
  export PYTHONUNBUFFERED=1 PYTHONPATH=$site$PWD/src:$PWD${PYTHONPATH:+:$PYTHONPATH}
  nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm --format=csv \
    > "$R/nvidia-smi.csv" 2>&1
  cat "$R/nvidia-smi.csv"
  common=(--runs-dir "$R" --no-records ${DRY_RUN:+--dry-run})
}

pack() {
  tar czf "$OUT/runs.tar.gz.part" -C "$(dirname "$R")" "$(basename "$R")" 2>/dev/null \
    && mv "$OUT/runs.tar.gz.part" "$OUT/runs.tar.gz"
}

start_packing() {
  ( while true; do sleep 4; pack; done ) &
  packer=$!
}

stop_packing() {
  kill "$packer" 2>/dev/null
  wait "$packer" 2>/dev/null
  pack
}

till() { echo $(( ($1 < DEADLINE_S ? $1 : DEADLINE_S) - SECONDS )); }

stage() { echo "$1 at $SECONDS s" | tee -a "$R/timing.txt"; }

resume_from() {
  mkdir -p "$R/$1/logs"
  cp artifacts/measurements/"$1"/*.json "$R/$1/logs/"
}

status_counts() {
  local run
  for run in "$@"; do
    python3 -c "import json, glob, collections, sys; print(sys.argv[1], dict(collections.Counter(\
json.load(open(p))['status'] for p in glob.glob(sys.argv[2] + '/*.json'))))" "$run" "$R/$run/logs"
  done
}
