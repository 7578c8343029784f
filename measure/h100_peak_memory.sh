#!/usr/bin/env bash
# The training peak-memory protocol (Saadat and Fellay 2026, Figure 3) on one H100 80GB
# (kind nvidia-h100-x1), the paper's card class, beside the H200 runs 20261129-193100 and
# 20261130-201500:
#
#   bash measure/h100_peak_memory.sh RUN_ID    (carry .whl: deepspeed 0.19.8, hjson, pydantic
#                                               and its pins)
#
# One stage process at a time on the one GPU (an out-of-memory point then means the card's
# 80 GB, not a neighbour's), in this order, most wanted first:
# 1. the declared reading (fp32-autocast, full update, 1000 nucleotides) without ZeRO-2:
#    baseline, FlashAttention, checkpointing, both models; DeepSpeed's cpu_adam op compiles
#    meanwhile (measure/peak_memory/prebuild.py, one TORCH_EXTENSIONS_DIR for the run)
# 2. the declared reading's ZeRO-2 CPU offload stage, both models
# 3. the other precision policies (bf16; bf16-fp32-states), full update, 1000 nucleotides,
#    all four stages, both models
# 4. with what time is left: the LoRA points of the printed stages (the recipe's 'closest'
#    and 'closest-offload' entries)
# Stages share a deadline (DEADLINE_S seconds after the start, 500 by default, for a call
# of 540 s) and each has a latest end (END1-END3); each point's log is written as it ends
# and packed into $OUT/runs.tar.gz every few seconds. Records afterwards, where the
# catalogue lives: `rewire measure run training-peak-memory --run-id RUN_ID --runs-dir DIR
# --records-only`.
# DRY_RUN=1 WHEELS= R=DIR OUT=DIR plans every stage on a CPU (measure/device_common.sh).
set -uo pipefail
RUN_ID=${1:?run id}
R=${R:-/tmp/pm}
OUT=${OUT:-/tmp/out}
DEADLINE_S=${DEADLINE_S:-500}
END1=${END1:-110}
END2=${END2:-230}
END3=${END3:-470}
GPU=${GPU:-0}
PM=training-peak-memory
DECLARED=precision=fp32-autocast,update=full,length=1000nt
here=$(dirname "$0")
. "$here/device_common.sh"
device_setup || exit 1
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-/tmp/torch_extensions}
if [ -z "${DRY_RUN-}" ]; then
  python3 -c "import torch, transformers, deepspeed; print('torch', torch.__version__, \
'transformers', transformers.__version__, 'deepspeed', deepspeed.__version__)" 2>&1 \
    | grep -v WARNING | tee "$R/versions.txt"
  # cpu_adam builds once, in the background; the ZeRO-2 workers wait on its build lock
  python3 -m measure.peak_memory.prebuild > "$R/prebuild.txt" 2>&1 &
fi
start_packing
STAGE_KILL_GRACE=5
. "$here/stage_limit.sh"  # measure LIMIT ARGS...: a stage stopped at its limit
pm() {  # pm END NAME ARGS...: one stage of points, one process at a time on the GPU
  local end=$1 name=$2
  shift 2
  stage "$name start"
  measure "$(till "$end")" $PM --run-id "$RUN_ID" "${common[@]}" --gpus "$GPU" "$@" \
    > "$R/$name.txt" 2>&1
}
pm "$END1" declared --settings "$DECLARED" --stages baseline,flashattention,checkpointing
pm "$END2" declared-offload --settings "$DECLARED" --stages deepspeed
pm "$END3" policies --settings precision=bf16,update=full,length=1000nt \
  --settings precision=bf16-fp32-states,update=full,length=1000nt
pm "$DEADLINE_S" lora --settings update=lora-r16-qkv,length=1000nt \
  --stages checkpointing,deepspeed
stage "end"
stop_packing
tail -n 2 "$R"/declared.txt "$R"/declared-offload.txt "$R"/policies.txt "$R"/lora.txt
[ -f "$R/prebuild.txt" ] && grep -v WARNING "$R/prebuild.txt" | tail -n 2
status_counts "$RUN_ID"
cat "$R/timing.txt"
ls -la "$OUT"
