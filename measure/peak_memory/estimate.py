"""Analytical estimates: model-state memory (bytes per parameter per precision policy),
DeepSpeed's own ZeRO-2 estimator, and a rough activation term for the plan.

GB are 1e9 bytes throughout. Pure functions; DeepSpeed is imported only where asked.
"""

from __future__ import annotations

from dataclasses import dataclass

GB = 1e9

# (weights, gradients, optimizer states) in bytes per parameter, for trainable parameters;
# frozen parameters hold weights only. AdamW keeps two moments.
POLICY_BYTES: dict[str, tuple[int, int, int]] = {
    "bf16": (2, 2, 4),
    "bf16-fp32-states": (2, 2, 8),
    "fp32-autocast": (4, 4, 8),
}


@dataclass(frozen=True)
class StateEstimate:
    label: str
    value_gb: float
    method: str


def model_state_floor(
    *,
    total_params: int,
    trainable_params: int,
    precision: str,
    zero2_offload: bool,
    reduce_bucket_size: int = 500_000_000,
    overlap_comm: bool = False,
) -> StateEstimate:
    """GPU bytes of weights, gradients and optimizer states: the floor under any peak.

    Without offload: weights of every parameter, plus gradients and AdamW states of the
    trainable ones. With ZeRO-2 CPU offload the optimizer states (and fp32 master weights)
    live on the CPU; the GPU holds the weights and one gradient reduce bucket of
    `reduce_bucket_size` elements in the gradient dtype, two with `overlap_comm` (DeepSpeed
    fills one while the other is reduced). The bucket is allocated at its full size even
    when the model has fewer trainable parameters: GENA-LM 110M (bf16, 116 tokens) measured
    1.54 GB with 5e8-element buckets, 0.94 with 2e8 (0.6 GB less, 3e8 x 2 bytes) and 2.54
    with two 5e8 buckets (runs 20261129-193100 and 20261130-204500).
    """
    if precision not in POLICY_BYTES:
        raise ValueError(f"unknown precision policy {precision!r}")
    weight, grad, states = POLICY_BYTES[precision]
    if zero2_offload:
        bucket = reduce_bucket_size
        buckets = 2 if overlap_comm else 1
        value = total_params * weight + buckets * bucket * grad
        kind = (
            "two gradient reduce buckets (overlap_comm)"
            if overlap_comm
            else "one gradient reduce bucket"
        )
        method = (
            f"{weight} bytes per parameter of weights ({total_params:,} parameters) plus "
            f"{kind} of {bucket:,} elements at {grad} bytes; optimizer states "
            "and master weights offloaded to the CPU"
        )
    else:
        frozen = total_params - trainable_params
        per_trainable = weight + grad + states
        value = trainable_params * per_trainable + frozen * weight
        method = (
            f"{per_trainable} bytes per trainable parameter ({weight} weights + {grad} "
            f"gradients + {states} AdamW states) x {trainable_params:,}"
            + (f", plus {weight} bytes per frozen parameter x {frozen:,}" if frozen else "")
        )
    return StateEstimate("model-state floor", value / GB, method)


def deepspeed_zero2_offload(total_params: int) -> StateEstimate | None:
    """DeepSpeed's own ZeRO-2 estimate with CPU offload, one GPU (None without DeepSpeed).

    `estimate_zero2_model_states_mem_needs_all_live(model)` counts the parameters and
    prints this function's result; calling it directly returns the number."""
    try:
        import deepspeed
        from deepspeed.runtime.zero.stage_1_and_2 import estimate_zero2_model_states_mem_needs
    except ImportError:
        return None
    _cpu, gpu = estimate_zero2_model_states_mem_needs(
        total_params=total_params, num_gpus_per_node=1, num_nodes=1, cpu_offload=True
    )
    return StateEstimate(
        "DeepSpeed ZeRO-2 offload estimate",
        gpu / GB,
        f"deepspeed {deepspeed.__version__} estimate_zero2_model_states_mem_needs("
        f"total_params={total_params:,}, cpu_offload=True), the function behind "
        "estimate_zero2_model_states_mem_needs_all_live; GPU share",
    )


def activation_gb(
    *,
    batch: int,
    tokens: int,
    hidden: int,
    layers: int,
    heads: int,
    vocab: int,
    flash: bool,
    checkpointing: bool,
    bytes_per_value: int = 2,
) -> float:
    """Rough activation memory of one step (Korthikanti et al. 2022: 34·s·b·h + 5·a·s²·b
    bytes per layer in 16-bit; without the s² term under FlashAttention; with checkpointing
    one layer input per layer plus one layer recomputed), plus fp32 logits and their
    gradient. For the plan only; not recorded as an estimate."""
    scale = bytes_per_value / 2
    attention = 0 if flash else 5 * heads * tokens**2 * batch
    per_layer = (34 * tokens * batch * hidden + attention) * scale
    if checkpointing:
        total = layers * 2 * tokens * batch * hidden * scale + per_layer
    else:
        total = layers * per_layer
    logits = batch * tokens * vocab * 4 * 2
    return (total + logits) / GB
