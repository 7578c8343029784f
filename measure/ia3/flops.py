"""Model FLOPs of an IA3 training step and model FLOPs utilisation (MFU).

Formula (stated in every record): per token, the forward pass costs 2 x P multiply-add
FLOPs for the encoder's matrix weights P (Q, K, V, O, FFN in and out; embeddings, norms,
biases and the CLS-only head left out) plus attention scores and mixing, 4 x L x s x h
(QK^T and AV over s tokens); the backward pass through the frozen backbone still computes
activation gradients, about 2 x P plus 8 x L x s x h, but no weight gradients (the 2 x P
that full fine-tuning would add). Total per step: tokens x (4 x P + 12 x L x s x h).
IA3's own element-wise products, the head and the optimizer are left out (under 0.1%).
"""

from __future__ import annotations

FORMULA = (
    "model FLOPs per step = tokens x (4 x P + 12 x L x s x h): forward 2 x P + 4 x L x s x h "
    "per token, backward activation gradients only 2 x P + 8 x L x s x h (frozen backbone: "
    "no weight gradients); P = encoder matrix weights (Q, K, V, O, FFN in/out), L layers, "
    "s tokens per sequence, h hidden size; head, norms, IA3 products and optimizer left out"
)

# The datasheet peak of each GPU model is in `measure.peak_flops` (looked up from the GPU
# name a log records); only the H200's measured matrix-product rate stays here.
H200_MEASURED_MATMUL_TFLOPS = 788.0
H200_MEASURED_SOURCE = (
    "8192x8192x8192 bf16 matrix product through PyTorch on random data, measured on an H200 "
    "of the device machines (workplace notes KINDS.md, 2026-10-28)"
)


def flops_per_token(backbone_matmul: int, layers: int, seq_len: int, hidden: int) -> int:
    """Model FLOPs per token of one IA3 training step (see FORMULA)."""
    if min(backbone_matmul, layers, seq_len, hidden) < 0:
        raise ValueError("counts must be non-negative")
    return 4 * backbone_matmul + 12 * layers * seq_len * hidden


def flops_per_step(
    backbone_matmul: int, layers: int, seq_len: int, hidden: int, global_batch: int
) -> int:
    """Model FLOPs of one step over the whole global batch."""
    tokens = global_batch * seq_len
    return tokens * flops_per_token(backbone_matmul, layers, seq_len, hidden)


def mfu(step_flops: float, step_seconds: float, gpus: int, peak_tflops: float) -> float:
    """Achieved FLOP/s over the summed peak of all GPUs in the run (0..1)."""
    if step_seconds <= 0 or gpus < 1 or peak_tflops <= 0:
        raise ValueError("step time, GPU count and peak must be positive")
    return step_flops / step_seconds / (gpus * peak_tflops * 1e12)
