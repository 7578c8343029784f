#!/usr/bin/env bash
# One device call for the published efficiency claims (issue 27 part 4; recipes in
# measure/memory_curve/claims/), sent to a one-GPU H200 (kind nvidia-h200) carrying `.whl`
# (pydantic and its needs: measure.cli imports the record models):
#
#   bash measure/h200_claims.sh RUN_ID
#
# The claims run one after another, each its own `rewire measure run ... --no-records`: the
# GPU ones first, then those whose recipe says `device: cpu` (timed on the host CPU, its
# processes seeing no GPU), so that a CPU time shares the machine with no other process.
# Everything comes back as $OUT/claims.tar.gz (claims/RUN_ID/{logs,specs,stdout}, the
# commands' output, nvidia-smi, lscpu, versions, timing). Records are written afterwards
# where the catalogue lives, per protocol:
#   tar xzf claims.tar.gz -C /tmp
#   rewire measure run PROTOCOL --run-id RUN_ID --runs-dir /tmp/claims --records-only \
#     --git-commit COMMIT
set -uo pipefail
RUN=${1:?run id}
R=/tmp/claims
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" "$R"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
export PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/site:$PWD/src:$PWD
nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm --format=csv \
  | tee "$R/nvidia-smi.csv"
lscpu > "$R/lscpu.txt" 2>&1
python3 -c "import torch, transformers; print('torch', torch.__version__, 'transformers', \
transformers.__version__, 'cpu threads', torch.get_num_threads())" 2>&1 | tee "$R/versions.txt"
GPU_CLAIMS="rewire-20261202-protocol-mistral-dna-rtx3090-fit"
CPU_CLAIMS="rewire-20261202-protocol-feng-embedding-time-ratio"
t0=$SECONDS
for P in ${PROTOCOLS:-$GPU_CLAIMS $CPU_CLAIMS}; do
  python3 -c 'from measure.cli import app; app()' run "$P" --run-id "$RUN" --runs-dir "$R" \
    --no-records > "$R/$P.txt" 2>&1
  echo "$P: exit $? at $((SECONDS - t0)) s" | tee -a "$R/timing.txt"
  tail -n 4 "$R/$P.txt"
done
python3 -c "import json, glob, collections; print(collections.Counter(json.load(open(p))['status'] \
for p in glob.glob('$R/$RUN/logs/*.json')))"
tar czf "$OUT/claims.tar.gz" -C /tmp claims
ls -la "$OUT"
