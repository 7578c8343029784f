#!/usr/bin/env bash
# The H200 run of the peak-memory recipe, as sent to the device machine (kind nvidia-h200-x2):
#   bash measure/peak_memory/h200_sweep.sh RUN_ID [TIME_BUDGET_S]
# Carries `.whl` (deepspeed 0.19.8 pure-Python wheel, hjson, pydantic and its core, ...).
# Writes the run folder as $OUT/run.tar.gz; records are written afterwards where the
# catalogue lives: `rewire measure run PROTOCOL --run-id RUN_ID` (all stages finished).
set -uo pipefail
RUN_ID=${1:?run id}
BUDGET=${2:-450}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD/src:$PWD PYTHONUNBUFFERED=1
export TORCH_EXTENSIONS_DIR=/tmp/torch_extensions
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv | tee "$OUT/nvidia-smi.txt"
python3 -c "import torch, transformers, peft, deepspeed, pydantic, rewire_site; \
print('torch', torch.__version__, 'cuda', torch.version.cuda, 'gpus', torch.cuda.device_count(), \
'transformers', transformers.__version__, 'peft', peft.__version__, 'deepspeed', deepspeed.__version__)" \
  2>&1 | grep -v WARNING || exit 1
# cpu_adam builds once, in the background, into the shared TORCH_EXTENSIONS_DIR.
python3 -m measure.peak_memory.prebuild > "$OUT/prebuild.txt" 2>&1 &
# Smoke test: tiny models through the FlashAttention and checkpointing stages, one per GPU.
python3 -m rewire_site.cli measure run training-peak-memory \
  --recipe tests/measure/fixtures/tiny_recipe.yaml --stages flashattention,checkpointing \
  --settings bf16-full-1000nt --runs-dir /tmp/smoke --run-id smoke --no-records \
  > "$OUT/smoke.txt" 2>&1
smoke=$?
tail -n 20 "$OUT/smoke.txt"
if [ $smoke -ne 0 ]; then
  cat /tmp/smoke/smoke/stdout/*.txt | tail -n 60
  exit 1
fi
# (no wait: the runner's own prebuild waits on the build lock and loads the result)
cat "$OUT/prebuild.txt" | grep -v WARNING | tail -n 3
start=$(date +%s)
python3 -m rewire_site.cli measure run training-peak-memory --run-id "$RUN_ID" \
  --runs-dir runs --time-budget "$BUDGET" --no-records 2>&1 | tee "$OUT/sweep.txt"
echo "sweep wall time: $(( $(date +%s) - start )) s"
tar czf "$OUT/run.tar.gz" -C runs "$RUN_ID"
ls -la "$OUT"
