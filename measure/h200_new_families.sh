#!/usr/bin/env bash
# One device call for the families added to the memory-curve and throughput recipes (issue 27):
# NT v2 100M, DNABERT (6-mer), HyenaDNA large 1M (to the recipe's 262,144-token cap) and
# Caduceus-PS 131k (to its 16,384-token cap; a reference PyTorch scan, not the fused kernel).
# Sent to a one-GPU H200 (kind nvidia-h200):
#
#   bash measure/h200_new_families.sh RUN_ID
#
# 1. The memory curves of MODELS, three processes at a time on GPU 0 (allocator peaks are per
#    process), one process per model and method (run folder /tmp/curves/RUN_ID-curves).
# 2. The embedding throughput of MODELS, one process at a time (timings must not share the
#    GPU; run folder /tmp/curves/RUN_ID-embed).
# Everything comes back in $OUT as new-families.tar.gz. Records are written afterwards where
# the catalogue lives: `rewire measure run PROTOCOL --run-id RUN_ID-curves --runs-dir DIR
# --records-only` (and the same for the throughput protocol with RUN_ID-embed).
# Carry .whl/ (pydantic and its pins, as for measure/h200_claims.sh): installed into /tmp/site.
set -uo pipefail
RUN=${1:?run id}
MODELS=${MODELS:-nt-v2-100m,dnabert-6,hyenadna-large-1m,caduceus-ps-131k}
R=/tmp/curves
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" "$R"
# pydantic and its pins for measure.cli (rewire_site's models), from the carried .whl/
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
export PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/site:$PWD/src:$PWD${PYTHONPATH:+:$PYTHONPATH}
nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm --format=csv \
  | tee "$R/nvidia-smi.csv"
python3 -c "import torch, transformers, peft; print('torch', torch.__version__, 'transformers', \
transformers.__version__, 'peft', peft.__version__)" 2>&1 | tee "$R/versions.txt"
t0=$SECONDS
. "$(dirname "$0")/stage_limit.sh"  # measure LIMIT ARGS...: a stage stopped at its limit
measure "${CURVES_LIMIT:-265}" rewire-20261130-protocol-gpu-memory-curves --models "$MODELS" --run-id "$RUN-curves" \
  --runs-dir "$R" --gpus "${GPUS:-0,0,0}" --no-records --time-budget "${CURVES_BUDGET:-235}" \
  > "$R/curves.txt" 2>&1
echo "curves: $((SECONDS - t0)) s" | tee -a "$R/timing.txt"
measure "${EMBED_LIMIT:-240}" rewire-20261202-protocol-embedding-throughput --models "$MODELS" --run-id "$RUN-embed" \
  --runs-dir "$R" --gpus 0 --no-records --time-budget "${EMBED_BUDGET:-230}" \
  > "$R/embed.txt" 2>&1
echo "throughput: $((SECONDS - t0)) s" | tee -a "$R/timing.txt"
tail -n 5 "$R/curves.txt" "$R/embed.txt"
for run in "$RUN-curves" "$RUN-embed"; do
  python3 -c "import json, glob, collections; print('$run', collections.Counter(json.load(open(p))['status'] \
for p in glob.glob('$R/$run/logs/*.json')))"
done
tar czf "$OUT/new-families.tar.gz" -C /tmp curves
ls -la "$OUT"
