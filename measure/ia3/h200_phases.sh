#!/usr/bin/env bash
# IA3 run-time setups that outlast one device call (10 minutes), run in phases in a
# background process session that survives between calls while the machine stays warm:
#
#   bash measure/ia3/h200_phases.sh start PHASE...    start every phase, one after another
#   bash measure/ia3/h200_phases.sh wait N LIMIT_S    wait until phase N has ended (or LIMIT_S)
#
# A PHASE is setups that run at the same time on disjoint GPUs, joined by '+', each
# ARCH:GPUS:STEPS@GPU_LIST, e.g. 'nt-500m:1:10000@0+nt-2-5b:1:10000@1' then 'nt-500m:2:10000@0,1'.
# Setups of one phase share the host's CPUs, never a GPU; the records name runs that
# overlapped in time. Every `wait` packs what is done so far into $OUT/ia3.tar.gz, so each
# call brings back the logs of the phases ended by then. Records are written afterwards
# where the catalogue lives: rewire measure ia3-records LOGS... --run-id ... --machine ...
set -uo pipefail
LOGS=/tmp/ia3
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" "$LOGS"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1

run_phases() {
  local n=0 phase setup spec gpus pids
  for phase in "$@"; do
    n=$((n + 1))
    pids=()
    IFS='+' read -ra setups <<< "$phase"
    for setup in "${setups[@]}"; do
      spec=${setup%@*}
      gpus=${setup#*@}
      CUDA_VISIBLE_DEVICES=$gpus python3 -c 'from measure.cli import app; app()' \
        ia3-launch "$spec" --out "$LOGS" \
        > "$LOGS/phase$n-${spec//:/_}.txt" 2>&1 &
      pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid"; done
    date -u +%FT%TZ > "$LOGS/phase$n.done"
  done
}

case ${1:-} in
  start)
    shift
    nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm \
      --format=csv > "$LOGS/nvidia-smi.csv"
    nvidia-smi topo -m > "$LOGS/topo.txt" 2>&1
    cat "$LOGS/nvidia-smi.csv"
    python3 -c "import torch, transformers, peft; print('torch', torch.__version__, \
'gpus', torch.cuda.device_count(), 'transformers', transformers.__version__, \
'peft', peft.__version__)"
    export -f run_phases
    export LOGS
    setsid bash -c 'run_phases "$@"' _ "$@" > "$LOGS/phases.txt" 2>&1 < /dev/null &
    echo "started $# phases"
    ;;
  wait)
    phase=${2:?phase number}
    limit=${3:?seconds}
    end=$((SECONDS + limit))
    while [ ! -e "$LOGS/phase$phase.done" ] && [ $SECONDS -lt $end ]; do sleep 5; done
    ls "$LOGS"
    grep -h "DONE\|FAILED" "$LOGS"/phase*-*.txt 2>/dev/null
    tail -qn 1 "$LOGS"/*.progress.jsonl 2>/dev/null
    tar czf "$OUT/ia3.tar.gz" -C /tmp ia3
    [ -e "$LOGS/phase$phase.done" ]
    ;;
  *)
    echo "usage: $0 start PHASE... | wait N LIMIT_S" >&2
    exit 2
    ;;
esac
