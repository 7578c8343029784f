#!/usr/bin/env bash
# One device lease, several measurements: a background process session (setsid) runs the
# phases below one after another while the machine stays warm between calls, and each
# `wait` call packs what has finished into $OUT. Sent to a 2-GPU H200 machine
# (kind nvidia-h200-x2), carrying `.whl` (DeepSpeed and its pure-Python needs):
#
#   bash measure/h200_batch.sh start PM_RUN_ID IA3_RUN_ID    install wheels, start phases
#   bash measure/h200_batch.sh wait PHASE LIMIT_S             wait for PHASE, pack $OUT
#
# Phases (N.done marks each end):
#   1  peak-memory recipe, ZeRO-2 stage under the DeepSpeed communication settings, four
#      stage processes at a time (two per GPU; allocator peaks are per process), beside it
#      on GPU 0 a 300-step NT 2.5B IA3 run with compile=default: the loss-curve reference
#      (its times are not used: it shares the host)
#   2  NT 2.5B IA3, 1 GPU, 10,000 steps, reduce-overhead, empty compile cache (alone)
#   3  the same, 300 steps, with the cache phase 2 filled: start-up with a warm cache (alone)
#   4  NT 2.5B IA3, 2 GPUs (DDP), 10,000 steps, reduce-overhead (alone)
#   5  NT 500M IA3, 1 GPU, 10,000 steps, reduce-overhead (alone)
#   6  NT 500M IA3, 2 GPUs, 10,000 steps, reduce-overhead (alone)
# Records are written afterwards where the catalogue lives (see CONTRIBUTING.md).
set -uo pipefail
B=/tmp/batch
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" "$B"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1

ia3() {  # ia3 GPUS_VISIBLE SETUP COMPILE CACHE OUTDIR
  CUDA_VISIBLE_DEVICES=$1 python3 -c 'from measure.cli import app; app()' ia3-launch "$2" \
    --compile "$3" --cache-dir "$4" --out "$5" --keep-going
}

phases() {
  local pm=$1 ia=$B/ia3/$2
  mkdir -p "$ia" "$B/pm"
  # phase 1
  # measure's own CLI (rewire_site is imported only to write records, not done here)
  python3 -c 'from measure.cli import app; app()' run training-peak-memory --run-id "$pm" \
    --runs-dir "$B/pm" --stages deepspeed --gpus 0,0,1,1 --time-budget 330 --no-records \
    --settings precision=bf16,update=full,comm=overlap \
    --settings precision=bf16,update=full,comm=hf-zero2-example \
    --settings precision=bf16,update=full,comm=hf-auto \
    --settings precision=bf16,update=full,comm=small-buckets \
    --settings bf16-full-512tok > "$B/pm-sweep.txt" 2>&1 &
  local sweep=$!
  ia3 0 nt-2-5b:1:300 default "$B/cache-default" "$ia/reference" > "$B/p1-reference.txt" 2>&1
  wait $sweep
  date -u +%FT%TZ > "$B/1.done"
  ia3 0 nt-2-5b:1:10000 reduce-overhead "$B/cache-ro" "$ia" > "$B/p2.txt" 2>&1
  date -u +%FT%TZ > "$B/2.done"
  ia3 0 nt-2-5b:1:300 reduce-overhead "$B/cache-ro" "$ia/warm-cache" > "$B/p3.txt" 2>&1
  date -u +%FT%TZ > "$B/3.done"
  ia3 0,1 nt-2-5b:2:10000 reduce-overhead "$B/cache-ro" "$ia" > "$B/p4.txt" 2>&1
  date -u +%FT%TZ > "$B/4.done"
  ia3 0 nt-500m:1:10000 reduce-overhead "$B/cache-ro" "$ia" > "$B/p5.txt" 2>&1
  date -u +%FT%TZ > "$B/5.done"
  ia3 0,1 nt-500m:2:10000 reduce-overhead "$B/cache-ro" "$ia" > "$B/p6.txt" 2>&1
  date -u +%FT%TZ > "$B/6.done"
}

case ${1:-} in
  start)
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target /tmp/site .whl/*.whl || exit 1
    nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm \
      --format=csv > "$B/nvidia-smi.csv"
    nvidia-smi topo -m > "$B/topo.txt" 2>&1
    cat "$B/nvidia-smi.csv"
    export PYTHONPATH=/tmp/site:$PWD/src:$PWD
    export TORCH_EXTENSIONS_DIR=/tmp/torch_extensions
    python3 -c "import torch, transformers, peft, deepspeed; print('torch', torch.__version__, \
'cuda', torch.version.cuda, 'gpus', torch.cuda.device_count(), 'transformers', \
transformers.__version__, 'peft', peft.__version__, 'deepspeed', deepspeed.__version__)" \
      2>&1 | grep -v WARNING | tee "$B/versions.txt"
    nproc >> "$B/versions.txt"; free -g >> "$B/versions.txt"
    export -f phases ia3
    export B
    setsid bash -c 'phases "$@"' _ "${2:?pm run id}" "${3:?ia3 run id}" \
      > "$B/phases.txt" 2>&1 < /dev/null &
    echo "started"
    ;;
  wait)
    phase=${2:?phase}
    limit=${3:?seconds}
    end=$((SECONDS + limit))
    while [ ! -e "$B/$phase.done" ] && [ $SECONDS -lt $end ]; do sleep 3; done
    ls "$B" "$B"/ia3/* 2>/dev/null
    grep -h "DONE\|FAILED" "$B"/p*.txt 2>/dev/null
    tail -n 4 "$B"/pm-sweep.txt 2>/dev/null
    tail -qn 1 "$B"/ia3/*/*.progress.jsonl "$B"/ia3/*/*/*.progress.jsonl 2>/dev/null
    tar czf "$OUT/batch-$phase.tar.gz" -C /tmp --exclude='batch/cache-*' batch
    ls -la "$OUT"
    [ -e "$B/$phase.done" ]
    ;;
  *)
    echo "usage: $0 start PM_RUN_ID IA3_RUN_ID | wait PHASE LIMIT_S" >&2
    exit 2
    ;;
esac
