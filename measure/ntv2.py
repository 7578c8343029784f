"""Nucleotide Transformer v2 built on transformers' ESM classes, with random weights.

NT v2 checkpoints load through InstaDeep's own `modeling_esm.py` (trust_remote_code); stock
transformers' ESM has rotary positions but neither the gated feed-forward nor the bias
switch. This module builds transformers' `EsmForMaskedLM` from the checkpoint's dimensions
(rotary positions, `token_dropout` false) and replaces each layer's feed-forward pair as
InstaDeep's code defines it: `EsmIntermediate.dense` a Linear from hidden to 2 x
intermediate (bias `add_bias_fnn`), SiLU of the first half times the second (a SwiGLU);
`EsmOutput.dense` a Linear from intermediate to hidden (bias `add_bias_fnn`), then dropout and
the residual. Everything else (attention with biases, rotary embedding, layer norms, the
masked-LM head) is transformers' ESM, the same as InstaDeep's copy of it.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor, nn


class GluIntermediate(nn.Module):
    def __init__(self, hidden: int, intermediate: int, bias: bool) -> None:
        super().__init__()
        self.dense = nn.Linear(hidden, 2 * intermediate, bias=bias)

    def forward(self, hidden_states: Tensor) -> Tensor:
        x1, x2 = self.dense(hidden_states).chunk(2, dim=-1)
        out: Tensor = F.silu(x1) * x2
        return out


class GluOutput(nn.Module):
    def __init__(self, intermediate: int, hidden: int, bias: bool, dropout: float) -> None:
        super().__init__()
        self.dense = nn.Linear(intermediate, hidden, bias=bias)
        self.dropout = nn.Dropout(dropout)

    def forward(self, hidden_states: Tensor, input_tensor: Tensor) -> Tensor:
        out: Tensor = self.dropout(self.dense(hidden_states)) + input_tensor
        return out


def build_ntv2(config: dict[str, Any], device: Any, attn_implementation: str) -> Any:
    """An NT v2 masked-language model from `config` (the checkpoint's config.json keys,
    `add_bias_fnn` included), random weights, on `device`."""
    from transformers import AutoModelForMaskedLM, EsmConfig

    settings = {k: v for k, v in config.items() if k != "add_bias_fnn"}
    esm = EsmConfig(**settings)
    bias = bool(config["add_bias_fnn"])
    h, f = esm.hidden_size, esm.intermediate_size
    with torch.device(device):
        model = AutoModelForMaskedLM.from_config(esm, attn_implementation=attn_implementation)
        for layer in model.esm.encoder.layer:
            layer.intermediate = GluIntermediate(h, f, bias)
            layer.output = GluOutput(f, h, bias, float(esm.hidden_dropout_prob or 0.0))
    return model
