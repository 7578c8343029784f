"""The stage switch: which features a cumulative stage turns on, and how attention runs."""

from __future__ import annotations

import importlib.metadata
import importlib.util
from dataclasses import dataclass
from typing import Any

from measure.peak_memory.recipe import Stage


@dataclass(frozen=True)
class StageFeatures:
    attn_implementation: str
    """transformers attention implementation: eager, sdpa or flash_attention_2."""
    sdpa_flash_only: bool
    """Run forward and backward inside `sdpa_kernel(SDPBackend.FLASH_ATTENTION)`."""
    attention_backend: str
    """What the record says ran."""
    checkpointing: bool
    zero2_offload: bool


def flash_attn_version() -> str | None:
    """Version of the `flash_attn` package when it provides the FlashAttention 2 API that
    transformers' `flash_attention_2` calls (`flash_attn.flash_attn_interface`), else None.

    Detected by what it provides, not by its name: flash-attn-4 installs only
    `flash_attn/cute/` (a namespace package with no FlashAttention 2 API), which
    `find_spec("flash_attn")` finds all the same."""
    try:
        if importlib.util.find_spec("flash_attn.flash_attn_interface") is None:
            return None
    except (ImportError, ValueError):
        return None
    try:
        return importlib.metadata.version("flash-attn")
    except importlib.metadata.PackageNotFoundError:
        return "unknown version"


def torch_version() -> str:
    try:
        return importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


FA4 = "flash-attn-4"
"""The attention knob's value for the flash-attn-4 package (CuTe DSL kernels)."""
FA4_IMPLEMENTATION = "rewire_fa4"
"""The name under which `register_flash_attn_4` registers its transformers attention (no
"flash" in it: transformers routes such names through its own FlashAttention loader)."""


def flash_attn_4_version() -> str | None:
    """Version of flash-attn-4 when `flash_attn.cute.flash_attn_func` is importable, else
    None (detected by what the package provides)."""
    try:
        if importlib.util.find_spec("flash_attn.cute") is None:
            return None
    except (ImportError, ValueError):
        return None
    try:
        return importlib.metadata.version("flash-attn-4")
    except importlib.metadata.PackageNotFoundError:
        return "unknown version"


def stage_features(
    stage: Stage, flash_attn: str | None = None, attention: str = "auto"
) -> StageFeatures:
    """Features of `stage`. FlashAttention is the `flash_attn` package when importable
    (`flash_attn` gives its version), else PyTorch's SDPA restricted to its FlashAttention
    backend; with `attention` flash-attn-4, that package's kernels (an error if it is not
    importable: no silent fallback); without FlashAttention, attention is eager (explicit
    softmax(QK^T)V)."""
    if not stage.flash_attention:
        return StageFeatures(
            attn_implementation="eager",
            sdpa_flash_only=False,
            attention_backend="eager (transformers eager attention: matmul, softmax, matmul)",
            checkpointing=stage.checkpointing,
            zero2_offload=stage.zero2_offload,
        )
    if attention == FA4:
        version = flash_attn_4_version()
        if version is None:
            raise RuntimeError(
                "attention flash-attn-4: flash_attn.cute is not importable (install the "
                "flash-attn-4 wheel and its nvidia-cutlass-dsl libraries)"
            )
        return StageFeatures(
            attn_implementation=FA4_IMPLEMENTATION,
            sdpa_flash_only=False,
            attention_backend=f"flash-attn-4 {version} (flash_attn.cute.flash_attn_func, "
            "CuTe DSL kernels, through a transformers attention function)",
            checkpointing=stage.checkpointing,
            zero2_offload=stage.zero2_offload,
        )
    if attention != "auto":
        raise ValueError(f"attention {attention!r}: expected auto or {FA4}")
    if flash_attn is not None:
        return StageFeatures(
            attn_implementation="flash_attention_2",
            sdpa_flash_only=False,
            attention_backend=f"flash_attn {flash_attn} (transformers flash_attention_2)",
            checkpointing=stage.checkpointing,
            zero2_offload=stage.zero2_offload,
        )
    return StageFeatures(
        attn_implementation="sdpa",
        sdpa_flash_only=True,
        attention_backend=(
            f"torch {torch_version()} scaled_dot_product_attention, "
            "SDPBackend.FLASH_ATTENTION only (FlashAttention-2 kernel)"
        ),
        checkpointing=stage.checkpointing,
        zero2_offload=stage.zero2_offload,
    )


def fa4_attention_forward(
    module: Any,
    query: Any,
    key: Any,
    value: Any,
    attention_mask: Any,
    scaling: float | None = None,
    dropout: float = 0.0,
    **_: Any,
) -> tuple[Any, None]:
    """A transformers attention function on flash-attn-4: (batch, heads, length, dim)
    inputs in, (batch, length, heads, dim) out, as transformers' SDPA function returns.
    Refuses what the kernel cannot do here: attention dropout and a mask that hides any
    position (the measured batches have no padding)."""
    import torch
    from flash_attn.cute import flash_attn_func

    if dropout:
        raise ValueError(f"flash-attn-4 has no attention dropout (asked for {dropout})")
    if attention_mask is not None:
        hides = (
            not bool(attention_mask.all())
            if attention_mask.dtype == torch.bool
            else bool((attention_mask != 0).any())
        )
        if hides:
            raise ValueError("flash-attn-4 here takes no attention mask that hides positions")
    out = flash_attn_func(
        query.transpose(1, 2),
        key.transpose(1, 2),
        value.transpose(1, 2),
        softmax_scale=scaling,
        causal=bool(getattr(module, "is_causal", False)),
    )
    return (out[0] if isinstance(out, tuple) else out), None


def register_flash_attn_4() -> None:
    """Make `attn_implementation=FA4_IMPLEMENTATION` call `fa4_attention_forward`."""
    from transformers import AttentionInterface

    AttentionInterface.register(FA4_IMPLEMENTATION, fa4_attention_forward)
