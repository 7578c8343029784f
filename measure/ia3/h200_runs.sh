#!/usr/bin/env bash
# IA3 run-time setups on a lent multi-GPU machine, as sent through the device tool:
#   bash measure/ia3/h200_runs.sh LIMIT_S SETUP...      e.g. 560 nt-500m:1:10000
# SETUP is ARCH:GPUS:STEPS (GPUS must divide 8); setups run one after another through
# torchrun. Needs only the machine's torch, transformers and peft (no wheels). Logs and
# progress lines go to /tmp/ia3 and come back as $OUT/ia3.tar.gz, also when the time limit
# cuts a run short. Records are written afterwards where the catalogue lives:
#   python -m measure.ia3.records LOGS... --run-id RUN_ID --machine "..."
set -uo pipefail
LIMIT=${1:?time limit in seconds for all setups}
shift
OUT=${OUT:-/tmp/out}
LOGS=/tmp/ia3
mkdir -p "$OUT" "$LOGS"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
pack() { tar czf "$OUT/ia3.tar.gz" -C /tmp ia3; }
trap pack EXIT
nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm \
  --format=csv > "$LOGS/nvidia-smi.csv"
nvidia-smi topo -m > "$LOGS/topo.txt" 2>&1
cat "$LOGS/nvidia-smi.csv"
python3 -c "import torch, transformers, peft; print('torch', torch.__version__, 'gpus', \
torch.cuda.device_count(), 'transformers', transformers.__version__, 'peft', peft.__version__)"
timeout "$LIMIT" python3 -m measure.ia3.launch "$@" --out "$LOGS" --keep-going \
  > "$LOGS/launch.txt" 2>&1
echo "exit $?"
grep -h "DONE\|FAILED" "$LOGS/launch.txt"
tail -n 3 "$LOGS"/*.progress.jsonl 2>/dev/null
