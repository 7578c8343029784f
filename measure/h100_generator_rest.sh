#!/usr/bin/env bash
# The GENERator eukaryote 1.2B points that measure/h100_grover_generator.sh did not reach
# when its session's device time ran out (issue 27), on one H100 (kind nvidia-h100-x1, the
# card of the first run, so that out-of-memory points mean the same 80 GB):
#
#   bash measure/h100_generator_rest.sh        (carry .whl: pydantic and its pins)
#
# It resumes the committed runs 20261207-h100-curves and 20261207-h100-embed: their logs
# (artifacts/measurements/) are copied into the run folders first, so the runner plans only
# the points without a finished log:
# 1. the parameter-efficient (LoRA), bf16 full and mixed-precision checkpointed fine-tuning
#    curves, batch 1 and 8, 64 tokens doubling to 16,384; one stage per method, each alone
#    on the GPU: every one of them reaches tens of GB at batch 8 and may run out of memory
#    there, which must mean the card's memory, not a neighbour's. (Their batch-1 curves
#    side by side would cost a second model build per method, about 10 s each in the first
#    run, for points of about 1 s: nothing gained.)
# 2. embedding throughput at batch 32 from 1,024 tokens on (the first run stopped at 512),
#    alone (timings must not share the GPU).
# The mixed-precision curve without checkpointing is not resumed: its batch-8 points past
# 4,096 tokens were not started after 4,096 ran out of memory, and cannot fit either.
# Stages share a deadline (DEADLINE_S seconds after the start, 540 by default) and each has
# a latest end (END1-END3); each point's log is written as it ends and packed into
# $OUT/runs.tar.gz every few seconds. Records afterwards, where the catalogue lives:
# `rewire measure run PROTOCOL --run-id 20261207-h100-curves --runs-dir DIR --records-only`
# (the committed points have records and are left alone).
# DRY_RUN=1 WHEELS= R=DIR OUT=DIR plans every stage on a CPU (measure/device_common.sh).
set -uo pipefail
R=${R:-/tmp/curves}
OUT=${OUT:-/tmp/out}
DEADLINE_S=${DEADLINE_S:-540}
END1=${END1:-150}
END2=${END2:-270}
END3=${END3:-390}
GPU=${GPU:-0}
MODEL=generator-eukaryote-1-2b
CURVES_RUN=20261207-h100-curves
EMBED_RUN=20261207-h100-embed
CURVES=rewire-20261130-protocol-gpu-memory-curves
EMBED=rewire-20261202-protocol-embedding-throughput
here=$(dirname "$0")
. "$here/device_common.sh"
device_setup || exit 1
resume_from "$CURVES_RUN"
resume_from "$EMBED_RUN"
start_packing
STAGE_KILL_GRACE=2
. "$here/stage_limit.sh"  # measure LIMIT ARGS...: a stage stopped at its limit
curve() {  # curve END METHOD: one method's missing points, alone on the GPU
  stage "$2 start"
  measure "$(till "$1")" $CURVES --models $MODEL --stages "$2" --run-id $CURVES_RUN \
    "${common[@]}" --gpus "$GPU" > "$R/curves-$2.txt" 2>&1
}
curve "$END1" full
curve "$END2" peft
curve "$END3" full-mixed-ckpt
stage "throughput start"
measure "$(till "$DEADLINE_S")" $EMBED --models $MODEL --settings batch=32 --run-id $EMBED_RUN \
  "${common[@]}" --gpus "$GPU" > "$R/embed.txt" 2>&1
stage "end"
stop_packing
tail -n 3 "$R"/curves-*.txt "$R/embed.txt"
status_counts "$CURVES_RUN" "$EMBED_RUN"
cat "$R/timing.txt"
ls -la "$OUT"
