#!/usr/bin/env bash
# The peak-memory FlashAttention stages with the real flash-attn-4 package beside PyTorch
# SDPA's FlashAttention backend (issue 16 section 4), on a one-GPU H200:
#
#   bash measure/h200_fa4.sh RUN_ID
#
# flash-attn-4 needs nvidia-cutlass-dsl-libs-cu13 (a 92 MB wheel). The working tree a call
# carries is limited to 64 MiB, so that wheel's files travel xz-compressed in two parts over
# two calls on one warm machine: the first call copies .fa4a/ (part 1 and the other wheels)
# to /tmp/fa4stage; this one carries .fa4b/ (part 2 and the SHA-256 of the whole) and .whl/
# (pydantic for measure.cli, deepspeed for the recipe's imports).
set -euo pipefail
RUN=${1:?run id}
OUT=${OUT:-/tmp/out}
P=/tmp/pm
mkdir -p "$OUT" "$P"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1
ls /tmp/fa4stage
cat /tmp/fa4stage/cu13.part00 .fa4b/cu13.part01 > /tmp/cu13.tar.xz
sha256sum -c .fa4b/cu13.sha256
S=/tmp/fa4site
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target "$S" /tmp/fa4stage/*.whl .whl/*.whl
tar xJf /tmp/cu13.tar.xz -C "$S"  # after pip: --upgrade would replace the shared folder
export PYTHONPATH=$S:$S/nvidia_cutlass_dsl/dsl_packages:$PWD/src:$PWD
python3 -m pip list --path "$S" 2>/dev/null | grep -i -E "flash|cutlass|quack|tvm|dlpack" \
  | tee "$P/fa4-packages.txt"
set +e
python3 - <<'PY' 2>&1 | tee "$P/fa4-smoke.txt"
import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
from flash_attn.cute import flash_attn_func
torch.manual_seed(0)
for b, s, h, d in [(16, 171, 20, 128), (16, 1000, 20, 128)]:
    q, k, v = (torch.randn(b, s, h, d, device="cuda", dtype=torch.bfloat16,
                           requires_grad=True) for _ in range(3))
    out = flash_attn_func(q, k, v)[0]
    out.sum().backward()
    dq = q.grad.clone(); q.grad = None
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        ref = torch.nn.functional.scaled_dot_product_attention(
            q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)).transpose(1, 2)
        ref.sum().backward()
    print(b, s, h, d, "max|out-ref|", (out - ref).abs().max().item(),
          "max|dq-ref|", (dq - q.grad).abs().max().item())
PY
python3 -c 'from measure.cli import app; app()' run \
  saadat-fellay-20261015-protocol-training-peak-memory --run-id "$RUN" --runs-dir "$P" \
  --models nt-2-5b --stages flashattention,checkpointing \
  --settings bf16-full-1000nt --settings bf16-full-1000tok \
  --settings precision=bf16,update=full,length=1000nt,attention=flash-attn-4 \
  --settings precision=bf16,update=full,length=1000tok,attention=flash-attn-4 \
  --gpus 0,0 --no-records --time-budget 300 2>&1 | tee "$P/fa4-run.txt" | tail -n 30
tar czf "$OUT/fa4.tar.gz" -C /tmp pm
ls -la "$OUT"
