#!/usr/bin/env bash
# One device call for the "does it fit on my GPU?" curves (issue 16 section 2), sent to a
# one-GPU H200 (kind nvidia-h200):
#
#   bash measure/h200_curves.sh RUN_ID CHECK_POINTS...
#
# 1. In the background: a 60-step NT 2.5B IA3 run with `--compile reduce-overhead` whose only
#    purpose is to fill torch.compile's caches (/tmp/ia3cache); they come back in $OUT as
#    ia3cache.tar.gz.* for a later call's warm start (its timings are not used: it shares
#    the GPU with the curves).
# 2. The memory-curve recipe, three processes at a time on GPU 0 (allocator peaks are per
#    process), one process per model and method.
# 3. A check of the per-point reset: CHECK_POINTS (point keys) re-run each in a fresh
#    process of its own (logs under check/), to compare with the shared-process values.
# measure.cli needs pydantic (rewire_site's models): install .whl onto PYTHONPATH first.
# Records are written afterwards where the catalogue lives (`--records-only`).
set -uo pipefail
RUN=${1:?run id}
shift
R=/tmp/curves
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" "$R/check"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD/src:$PWD${PYTHONPATH:+:$PYTHONPATH}
nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm --format=csv \
  | tee "$R/nvidia-smi.csv"
python3 -c "import torch, transformers, peft; print('torch', torch.__version__, 'transformers', \
transformers.__version__, 'peft', peft.__version__)" 2>&1 | tee "$R/versions.txt"
t0=$SECONDS
fill=
if [ "${FILL:-1}" = 1 ]; then  # FILL=0: the cache was filled by an earlier call
  python3 -c 'from measure.cli import app; app()' ia3-launch nt-2-5b:1:60 --compile reduce-overhead \
    --cache-dir /tmp/ia3cache --out "$R/ia3fill" > "$R/ia3fill.txt" 2>&1 &
  fill=$!
fi
# STAGES=full-mixed,full-mixed-ckpt: only those methods (default: every method)
python3 -c 'from measure.cli import app; app()' run rewire-20261130-protocol-gpu-memory-curves \
  --run-id "$RUN" --runs-dir "$R" --gpus "${GPUS:-0,0,0}" --no-records --time-budget "${TIME_BUDGET:-360}" \
  ${STAGES:+--stages "$STAGES"} > "$R/curves.txt" 2>&1
echo "curves: $((SECONDS - t0)) s" | tee -a "$R/timing.txt"
# CHECK_PARALLEL (default 3) fresh processes at a time on GPU 0 (allocator peaks are per process)
printf '%s\n' "$@" | xargs -P "${CHECK_PARALLEL:-3}" -I KEY sh -c 'python3 -m measure.memory_curve.worker \
  "$0/$1/specs/KEY.json" "$0/check/KEY.json" > "$0/check/KEY.stdout.txt" 2>&1' "$R" "$RUN"
echo "checks: $((SECONDS - t0)) s" | tee -a "$R/timing.txt"
[ -n "$fill" ] && wait "$fill"
echo "ia3 fill: $((SECONDS - t0)) s" | tee -a "$R/timing.txt"
tail -n 3 "$R/curves.txt" "$R/ia3fill.txt"
python3 -c "import json, glob, collections; print(collections.Counter(json.load(open(p))['status'] \
for p in glob.glob('$R/$RUN/logs/*.json')))"
tar czf "$OUT/curves.tar.gz" -C /tmp curves
[ -n "$fill" ] && tar czf /tmp/ia3cache.tar.gz -C /tmp ia3cache && split -b 15000000 -d /tmp/ia3cache.tar.gz \
  "$OUT/ia3cache.tar.gz."
du -sh /tmp/ia3cache; ls -la "$OUT"
