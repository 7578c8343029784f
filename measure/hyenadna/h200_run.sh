#!/usr/bin/env bash
# The H200 run of the four HyenaDNA protocols, as sent to the device machine (kind
# nvidia-h200, one GPU; needs torch, PyYAML, typer and rich there, all on its Python):
#   bash measure/hyenadna/h200_run.sh RUN_ID [BUDGET_S]
# Writes the run folder as $OUT/run.tar.gz; the records are written afterwards where the
# catalogue lives: `rewire measure run PROTOCOL --run-id RUN_ID --records-only --git-commit C`.
set -uo pipefail
RUN_ID=${1:?run id}
BUDGET=${2:-400}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" runs
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv | tee "$OUT/nvidia-smi.txt"
python3 -c "import torch, yaml, typer, rich; print('torch', torch.__version__, 'cuda', torch.version.cuda, \
'gpus', torch.cuda.device_count())" || exit 1
start=$(date +%s)
python3 -c 'from measure.cli import app; app()' hyenadna-device "runs/$RUN_ID" \
  --budget "$BUDGET" 2>&1 | tee "$OUT/device.txt"
code=${PIPESTATUS[0]}
echo "wall time: $(( $(date +%s) - start )) s, exit $code" | tee -a "$OUT/device.txt"
tar czf "$OUT/run.tar.gz" -C runs "$RUN_ID"
ls -la "$OUT"
exit "$code"
