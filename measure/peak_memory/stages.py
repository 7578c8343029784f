"""The stage switch: which features a cumulative stage turns on, and how attention runs."""

from __future__ import annotations

import importlib.metadata
import importlib.util
from dataclasses import dataclass

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


def stage_features(stage: Stage, flash_attn: str | None = None) -> StageFeatures:
    """Features of `stage`. FlashAttention is the `flash_attn` package when importable
    (`flash_attn` gives its version), else PyTorch's SDPA restricted to its FlashAttention
    backend; without FlashAttention, attention is eager (explicit softmax(QK^T)V)."""
    if not stage.flash_attention:
        return StageFeatures(
            attn_implementation="eager",
            sdpa_flash_only=False,
            attention_backend="eager (transformers eager attention: matmul, softmax, matmul)",
            checkpointing=stage.checkpointing,
            zero2_offload=stage.zero2_offload,
        )
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
