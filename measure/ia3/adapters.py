"""IA3 adapters (peft) on an ESM classifier: keys, values and the feed-forward output layer.

IA3 (Liu et al. 2022) learns rescaling vectors: one over the outputs of the key and value
projections (hidden entries each) and one over the inputs of the feed-forward output layer
(ffn entries). With the classification head trainable and everything else frozen, the
trainable parameters are layers x (2 x hidden + ffn) plus the head.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch
from peft import IA3Config, PeftModel, TaskType, get_peft_model
from transformers import AutoModelForSequenceClassification, EsmConfig

# Full-match regular expressions over module names, so that the attention block's own
# `attention.output.dense` is not taken for the feed-forward output layer.
TARGET_MODULES = r".*\.layer\.\d+\.(attention\.self\.(key|value)|output\.dense)"
FEEDFORWARD_MODULES = r".*\.layer\.\d+\.output\.dense"


@dataclass(frozen=True)
class ParameterCounts:
    """Parameter counts of an IA3 classifier."""

    adapters: int
    head: int
    trainable: int
    backbone_matmul: int
    total: int


def expected_adapter_size(config: EsmConfig) -> int:
    """IA3 vector entries: layers x (2 x hidden + ffn)."""
    return int(config.num_hidden_layers * (2 * config.hidden_size + config.intermediate_size))


def expected_head_size(config: EsmConfig, num_labels: int) -> int:
    """ESM classification head: dense hidden->hidden and out_proj hidden->labels, with biases."""
    h = int(config.hidden_size)
    return h * h + h + h * num_labels + num_labels


def backbone_matmul_parameters(config: EsmConfig) -> int:
    """Weights of the encoder's matrix multiplications (Q, K, V, O and the two FFN layers).

    Embedding lookups do no multiply-adds; biases, norms and the CLS-only head are left out.
    """
    h, f, n = int(config.hidden_size), int(config.intermediate_size), config.num_hidden_layers
    return int(n * (4 * h * h + 2 * h * f))


def build_ia3_classifier(
    config: EsmConfig,
    num_labels: int,
    device: torch.device | str = "cpu",
    backbone_dtype: torch.dtype = torch.float32,
    attn_implementation: str = "sdpa",
) -> PeftModel:
    """ESM classifier with random weights and IA3 adapters; trainable parts kept in fp32.

    The frozen backbone is built directly on `device` in `backbone_dtype`; the IA3 vectors
    and the classification head (peft's `modules_to_save`) are float32 so that Adam's
    updates at lr 3e-3 are not rounded away (bf16 resolves only ~0.008 near 1.0).
    """
    fields = {k: v for k, v in config.to_dict().items() if k not in ("id2label", "label2id")}
    cfg = EsmConfig.from_dict({**fields, "num_labels": num_labels})
    previous = torch.get_default_dtype()
    torch.set_default_dtype(backbone_dtype)
    try:
        with torch.device(device):
            base = AutoModelForSequenceClassification.from_config(
                cfg, attn_implementation=attn_implementation
            )
    finally:
        torch.set_default_dtype(previous)
    peft_config = IA3Config(
        task_type=TaskType.SEQ_CLS,
        target_modules=TARGET_MODULES,
        feedforward_modules=FEEDFORWARD_MODULES,
    )
    model: Any = get_peft_model(base, peft_config)
    for param in model.parameters():
        if param.requires_grad:
            param.data = param.data.float()
    return model  # type: ignore[no-any-return]


def count_parameters(model: torch.nn.Module, config: EsmConfig) -> ParameterCounts:
    """Trainable parameters split into adapters and head, from the model itself."""
    adapters = head = 0
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        if ".ia3_l." in name:
            adapters += param.numel()
        elif ".classifier." in name:
            head += param.numel()
        else:
            raise ValueError(f"unexpected trainable parameter {name}")
    total = sum(p.numel() for n, p in model.named_parameters() if "original_module" not in n)
    return ParameterCounts(
        adapters=adapters,
        head=head,
        trainable=adapters + head,
        backbone_matmul=backbone_matmul_parameters(config),
        total=total,
    )


def trainable_names(model: torch.nn.Module) -> list[str]:
    """Names of the parameters that receive gradients."""
    return [n for n, p in model.named_parameters() if p.requires_grad]
