#!/usr/bin/env bash
# One short device call for the two families added to the memory-curve and throughput recipes
# on 2026-12-07 (issue 27): GROVER and GENERator eukaryote 1.2B, on one GPU (H100 or H200):
#
#   bash measure/h100_grover_generator.sh RUN_ID        (carry .whl: pydantic and its pins)
#
# The session had about 265 s of device time, so the stages share a deadline (DEADLINE_S
# seconds after the start, 150 by default) and each stage has a latest end (END1, END2):
# 1. Memory curves that cannot run out of memory on the card, side by side (allocator peaks
#    are per process): GROVER's five methods (87M parameters) and GENERator's inference.
# 2. GENERator's mixed-precision full fine-tuning (fp32 master weights and AdamW states),
#    alone on the GPU, so that its out-of-memory points mean the card's memory.
# 3. Embedding throughput, one process at a time (timings must not share the GPU): GROVER,
#    then GENERator; batch 1, 8, 32, lengths doubling, as far as the deadline allows.
# 4. GENERator's mixed precision with activation checkpointing, with whatever time is left.
# Points are run shortest first and each log is written as its point ends; every few
# seconds the run folders are packed into $OUT/runs.tar.gz, so a stop keeps the points that
# finished (measure/device_common.sh). Records are written afterwards where the catalogue
# lives: `rewire measure run PROTOCOL --run-id RUN_ID-curves --runs-dir DIR --records-only`.
# DRY_RUN=1 WHEELS= R=DIR OUT=DIR plans every stage on a CPU.
set -uo pipefail
RUN=${1:?run id}
R=${R:-/tmp/curves}
OUT=${OUT:-/tmp/out}
DEADLINE_S=${DEADLINE_S:-150}
END1=${END1:-60}   # the stages' latest ends, seconds after the start (a stage that ends
END2=${END2:-100}  # sooner leaves its time to the next)
GPUS=${GPUS:-0}
here=$(dirname "$0")
. "$here/device_common.sh"  # device_setup, start_packing, till, stage, status_counts
device_setup || exit 1
grep -c "generator-eukaryote-1-2b" measure/memory_curve/recipe.yaml > "$R/recipe-check.txt"
start_packing
STAGE_KILL_GRACE=2
. "$here/stage_limit.sh"  # measure LIMIT ARGS...: a stage stopped at its limit
CURVES=rewire-20261130-protocol-gpu-memory-curves
EMBED=rewire-20261202-protocol-embedding-throughput

stage "1 start"
measure "$(till "$END1")" $CURVES --models grover --run-id "$RUN-curves" "${common[@]}" \
  --gpus "$GPUS,$GPUS,$GPUS,$GPUS,$GPUS" > "$R/curves-grover.txt" 2>&1 &
a=$!
measure "$(till "$END1")" $CURVES --models generator-eukaryote-1-2b --stages inference \
  --run-id "$RUN-curves" "${common[@]}" --gpus "$GPUS" > "$R/curves-generator-inference.txt" 2>&1 &
b=$!
wait $a $b
stage "2 start"
measure "$(till "$END2")" $CURVES --models generator-eukaryote-1-2b --stages full-mixed \
  --run-id "$RUN-curves" "${common[@]}" --gpus "$GPUS" > "$R/curves-generator-mixed.txt" 2>&1
stage "3 start"
measure "$(till $((DEADLINE_S - 5)))" $EMBED --models grover,generator-eukaryote-1-2b \
  --run-id "$RUN-embed" "${common[@]}" --gpus "$GPUS" > "$R/embed.txt" 2>&1
stage "4 start"
measure "$(till "$DEADLINE_S")" $CURVES --models generator-eukaryote-1-2b --stages full-mixed-ckpt \
  --run-id "$RUN-curves" "${common[@]}" --gpus "$GPUS" > "$R/curves-generator-ckpt.txt" 2>&1
stage "end"
stop_packing
status_counts "$RUN-curves" "$RUN-embed"
cat "$R/timing.txt"
ls -la "$OUT"
