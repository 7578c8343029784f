"""DNABERT-2's architecture, written here from its published description (no hub access).

DNABERT-2 (Zhou et al., ICLR 2024; checkpoint `zhihan1996/DNABERT-2-117M`) is a MosaicBERT:
BERT without position embeddings, ALiBi attention biases, a gated-linear-unit feed-forward
block with GELU, post-layer-norm, unpadded hidden states between layers, and a masked-LM
head tied to the word embeddings that scores only the masked positions during training. Its
modelling code (`bert_layers.py`) lives on the Hugging Face hub, not in the GitHub repository;
this module is an independent implementation of the same computation, with the same
parameter shapes, so memory measured with random weights is the same model's.

Attention runs the PyTorch path of the hub code: Q K^T / sqrt(d) plus the ALiBi bias (a
(batch, heads, length, length) tensor built once per forward pass), softmax, times V. The
hub code takes that path when Triton's FlashAttention kernel cannot be imported or attention
dropout is non-zero; its Triton kernel (written for a 2023 Triton pre-release) is not
reproduced here.
"""

from __future__ import annotations

import math
from typing import Any, cast

import torch
import torch.nn.functional as F
import torch.utils.checkpoint
from torch import nn
from transformers import BertConfig, PreTrainedModel
from transformers.modeling_outputs import MaskedLMOutput


def alibi_slopes(heads: int) -> list[float]:
    """ALiBi's per-head slopes (Press et al. 2022): a geometric sequence from 2^(-8/n) for
    n a power of two; otherwise those of the power of two below, then every other slope of
    the power of two above."""
    if math.log2(heads).is_integer():
        start = 2 ** (-(2 ** -(math.log2(heads) - 3)))
        return [start * start**i for i in range(heads)]
    lower = 2 ** math.floor(math.log2(heads))
    return alibi_slopes(lower) + alibi_slopes(2 * lower)[0::2][: heads - lower]


def alibi_bias(heads: int, length: int) -> torch.Tensor:
    """(1, heads, length, length): -slope x |i - j| (symmetric: the encoder is bidirectional)."""
    positions = torch.arange(length)
    distance = (positions[None, :] - positions[:, None]).abs()
    slopes = torch.tensor(alibi_slopes(heads))
    return (-slopes[:, None, None] * distance[None]).unsqueeze(0)


class Embeddings(nn.Module):
    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.word_embeddings = nn.Embedding(
            config.vocab_size, config.hidden_size, padding_idx=config.pad_token_id
        )
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, config.hidden_size)
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)

    def forward(self, input_ids: torch.Tensor, token_type_ids: torch.Tensor) -> torch.Tensor:
        summed = self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids)
        return cast(torch.Tensor, self.dropout(self.LayerNorm(summed)))  # ALiBi: no positions


class Layer(nn.Module):
    """Attention (fused QKV projection) and the GLU feed-forward block, each followed by
    dropout, the residual and a layer norm. Hidden states are unpadded: (tokens, hidden)."""

    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        h, f = config.hidden_size, config.intermediate_size
        self.heads = config.num_attention_heads
        self.head_size = h // self.heads
        self.intermediate = f
        self.Wqkv = nn.Linear(h, 3 * h)
        self.attention_dropout = nn.Dropout(config.attention_probs_dropout_prob)
        self.dense = nn.Linear(h, h)
        self.attention_norm = nn.LayerNorm(h, eps=config.layer_norm_eps)
        self.gated_layers = nn.Linear(h, 2 * f, bias=False)
        self.wo = nn.Linear(f, h)
        self.mlp_norm = nn.LayerNorm(h, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)

    def forward(
        self,
        hidden: torch.Tensor,
        indices: torch.Tensor,
        shape: tuple[int, int],
        bias: torch.Tensor,
        subset: torch.Tensor | None = None,
    ) -> torch.Tensor:
        batch, length = shape
        qkv = self.Wqkv(hidden)
        padded = qkv.new_zeros(batch * length, qkv.shape[-1]).index_put((indices,), qkv)
        qkv5 = padded.view(batch, length, 3, self.heads, self.head_size)
        q = qkv5[:, :, 0].permute(0, 2, 1, 3)
        k = qkv5[:, :, 1].permute(0, 2, 3, 1)
        v = qkv5[:, :, 2].permute(0, 2, 1, 3)
        scores = torch.matmul(q, k) / math.sqrt(self.head_size) + bias
        probs = self.attention_dropout(F.softmax(scores, dim=-1))
        context = torch.matmul(probs, v).permute(0, 2, 1, 3).reshape(batch * length, -1)
        context = context.index_select(0, indices)
        if subset is not None:  # the last layer of a masked-LM step: masked positions only
            context, hidden = context.index_select(0, subset), hidden.index_select(0, subset)
        attended = self.attention_norm(self.dropout(self.dense(context)) + hidden)
        gated, linear = self.gated_layers(attended).split(self.intermediate, dim=-1)
        out = self.wo(self.dropout(F.gelu(gated) * linear))
        return cast(torch.Tensor, self.mlp_norm(self.dropout(out) + attended))


class DnaBert2ForMaskedLM(PreTrainedModel):
    """The masked-LM model: embeddings, layers, and a head (dense, GELU, layer norm, decoder
    tied to the word embeddings). With labels, the last layer and the head see only the
    masked positions (and each sequence's first token), as in the hub code."""

    config_class = BertConfig
    base_model_prefix = "bert"
    _tied_weights_keys = {"decoder.weight": "embeddings.word_embeddings.weight"}  # noqa: RUF012

    def __init__(self, config: BertConfig) -> None:
        super().__init__(config)
        self.embeddings = Embeddings(config)
        self.layers = nn.ModuleList([Layer(config) for _ in range(config.num_hidden_layers)])
        size = int(getattr(config, "alibi_starting_size", config.max_position_embeddings))
        self.alibi: torch.Tensor
        self.register_buffer("alibi", alibi_bias(config.num_attention_heads, size))
        h = config.hidden_size
        self.transform = nn.Linear(h, h)
        self.transform_norm = nn.LayerNorm(h, eps=1e-12)
        self.decoder = nn.Linear(h, config.vocab_size)
        self.decoder.weight = self.embeddings.word_embeddings.weight
        self.checkpoint_layers = False
        self.post_init()

    def enable_layer_checkpointing(self) -> None:
        """Recompute each layer's activations in the backward pass (non-reentrant
        torch.utils.checkpoint), as transformers' gradient checkpointing does for its models."""
        self.checkpoint_layers = True

    def _init_weights(self, module: nn.Module) -> None:
        if isinstance(module, nn.Linear):
            nn.init.normal_(module.weight, std=self.config.initializer_range)
            if module.bias is not None:
                nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            nn.init.normal_(module.weight, std=self.config.initializer_range)
        elif isinstance(module, nn.LayerNorm):
            nn.init.ones_(module.weight)
            nn.init.zeros_(module.bias)

    def get_input_embeddings(self) -> nn.Module:
        return self.embeddings.word_embeddings

    def get_output_embeddings(self) -> nn.Module:
        return self.decoder

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor | None = None,
        token_type_ids: torch.Tensor | None = None,
        labels: torch.Tensor | None = None,
        **_: Any,
    ) -> MaskedLMOutput:
        batch, length = input_ids.shape
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        keep = attention_mask.bool().flatten()
        hidden, indices, bias = self._embed(input_ids, attention_mask, token_type_ids)
        subset = None
        masked = None
        if labels is not None:
            masked = labels > 0
            first = torch.zeros_like(masked)
            first[:, 0] = True
            subset = torch.nonzero((masked | first).flatten()[keep], as_tuple=False).flatten()
        for i, layer in enumerate(self.layers):
            last = i == len(self.layers) - 1
            chosen = subset if last else None
            if self.checkpoint_layers and self.training:
                hidden = torch.utils.checkpoint.checkpoint(
                    layer, hidden, indices, (batch, length), bias, chosen, use_reentrant=False
                )
            else:
                hidden = layer(hidden, indices, (batch, length), bias, chosen)
        if masked is None:
            out = hidden.new_zeros(batch * length, hidden.shape[-1]).index_put((indices,), hidden)
            logits = self._head(out.view(batch, length, -1))
            return MaskedLMOutput(loss=None, logits=logits)
        assert subset is not None and labels is not None
        chosen = masked.flatten()[keep][subset]
        logits = self._head(hidden[chosen])
        target = labels.flatten()[keep][subset][chosen]
        loss = F.cross_entropy(logits.float(), target)
        return MaskedLMOutput(loss=loss, logits=logits)

    def _embed(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        token_type_ids: torch.Tensor | None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """The unpadded token embeddings, the indices of the kept (unpadded) positions and
        the attention bias (padding mask plus ALiBi, the table grown to the input as the hub
        code grows it)."""
        batch, length = input_ids.shape
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        dtype = self.decoder.weight.dtype
        if length > self.alibi.shape[-1]:  # the hub code grows its ALiBi table likewise
            self.alibi = alibi_bias(self.config.num_attention_heads, length).to(
                self.alibi.device, dtype
            )
        extended = (1.0 - attention_mask[:, None, None, :].to(dtype)) * -10000.0
        bias = extended + self.alibi[:, :, :length, :length].to(dtype)
        indices = torch.nonzero(attention_mask.bool().flatten(), as_tuple=False).flatten()
        hidden = self.embeddings(input_ids, token_type_ids).reshape(batch * length, -1)
        return hidden.index_select(0, indices), indices, bias

    def hidden_states(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None
    ) -> torch.Tensor:
        """The last layer's hidden states (batch, length, hidden), zeros at padding: what an
        embedding is pooled from (the hub code's BertModel output)."""
        batch, length = input_ids.shape
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        hidden, indices, bias = self._embed(input_ids, attention_mask, None)
        for layer in self.layers:
            hidden = layer(hidden, indices, (batch, length), bias, None)
        out = hidden.new_zeros(batch * length, hidden.shape[-1]).index_put((indices,), hidden)
        return out.view(batch, length, -1)

    def _head(self, hidden: torch.Tensor) -> torch.Tensor:
        transformed = self.transform_norm(F.gelu(self.transform(hidden)))
        return cast(torch.Tensor, self.decoder(transformed))


def dnabert2_config(config: dict[str, Any]) -> BertConfig:
    """The transformers configuration object (the hub checkpoint's `model_type` is bert)."""
    return BertConfig(**config)
