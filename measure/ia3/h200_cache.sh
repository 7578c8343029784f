#!/usr/bin/env bash
# Does torch.compile's cache, carried to a fresh machine, load there? (issue 27, item 5)
# Two device calls on one-GPU H200s (kind nvidia-h200), with the machine given back between:
#
#   bash measure/ia3/h200_cache.sh fill RUN_ID
#       a 300-step NT 2.5B IA3 run (`--compile reduce-overhead`) into an empty cache folder;
#       its log and the filled cache come back in $OUT (ia3cache.tar.gz.NN, 15 MB parts)
#   bash measure/ia3/h200_cache.sh carried RUN_ID FILL_RUN_ID   (carry .ia3cache)
#       the parts, copied from the first call's $OUT into .ia3cache/, are unpacked into the
#       cache folder; a full 10,000-step run then starts from it, and its log records the
#       files found at start, the origin, and torch's own cache hit and miss counters
#
# Records are written where the catalogue lives:
#   rewire measure ia3-records LOG --run-id RUN_ID --machine ... --git-commit C
set -uo pipefail
MODE=${1:?fill or carried}
RUN=${2:?run id}
OUT=${OUT:-/tmp/out}
LOGS=/tmp/ia3/$RUN
CACHE=/tmp/ia3cache
mkdir -p "$OUT" "$LOGS"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm --format=csv \
  | tee "$LOGS/nvidia-smi.csv"
case $MODE in
  fill)
    rm -rf "$CACHE"
    steps=300
    ;;
  carried)
    FILL=${3:?fill run id}
    rm -rf "$CACHE" && mkdir -p /tmp/unpack
    cat .ia3cache/ia3cache.tar.gz.* | tar xzf - -C /tmp/unpack || exit 1
    mv /tmp/unpack/ia3cache "$CACHE" || exit 1
    echo "cache files at start: $(find "$CACHE" -type f | wc -l)"
    export REWIRE_COMPILE_CACHE_ORIGIN="carried from run $FILL on another machine (unpacked from its tar parts)"
    steps=10000
    ;;
  *) echo "mode: fill or carried" >&2; exit 2 ;;
esac
t0=$SECONDS
python3 -c 'from measure.cli import app; app()' ia3-launch "nt-2-5b:1:$steps" \
  --compile reduce-overhead --cache-dir "$CACHE" --out "$LOGS" > "$LOGS/launch.txt" 2>&1
echo "rc $? after $((SECONDS - t0)) s" | tee -a "$LOGS/launch.txt"
tail -n 5 "$LOGS/launch.txt"
tar czf "$OUT/ia3-$RUN.tar.gz" -C /tmp/ia3 "$RUN"
if [ "$MODE" = fill ]; then
  tar czf /tmp/ia3cache.tar.gz -C /tmp ia3cache
  split -b 15000000 -d /tmp/ia3cache.tar.gz "$OUT/ia3cache.tar.gz."
  du -sh "$CACHE" /tmp/ia3cache.tar.gz
fi
ls -la "$OUT"
