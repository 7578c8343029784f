"""HyenaDNA and its Transformer baseline in pure PyTorch, for memory and time with random weights.

A typed transcription of `standalone_hyenadna.py` from HazyResearch/hyena-dna at commit
d553021b483b82980aa4b868b37ec2d4332e198a (Apache License 2.0, the HyenaDNA authors): the
Hyena operator (implicit long filter with positional embedding, sine MLP and exponential
modulation; short depthwise convolution; order-2 recurrence), the pre-norm block with a 4x
GELU(tanh) MLP, the GPT-2 style embeddings, the backbone and a mean-pooled classification
head. Differences, each stated in the records:

- The long convolution runs through `torch.fft` (the standalone file's `fftconv`, the path
  the Hugging Face integration uses), not the repository's fused CUDA `fftconv` extension;
  the FFT is always computed in float32 (the source casts the input to the filter's dtype,
  which is float32 unless autocast lowers the filter MLP).
- The attention mixer of the Transformer baseline calls `scaled_dot_product_attention`
  (PyTorch's FlashAttention backend in bf16), standing in for the flash-attn package the
  paper's baseline used; the standalone file's own attention materialises the L x L scores.
- `checkpoint_mixer` / `checkpoint_mlp` wrap the mixer and MLP in `torch.utils.checkpoint`,
  as `src/models/sequence/long_conv_lm.py` does with its `CheckpointedModule`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch.utils.checkpoint import checkpoint

SOURCE_REPOSITORY = "https://github.com/HazyResearch/hyena-dna"
SOURCE_COMMIT = "d553021b483b82980aa4b868b37ec2d4332e198a"
SOURCE_PATH = "standalone_hyenadna.py"


@dataclass(frozen=True)
class HyenaConfig:
    """A HyenaDNA backbone's dimensions (the Hugging Face checkpoints' config.json keys)."""

    d_model: int
    n_layer: int
    l_max: int
    d_inner: int | None = None
    vocab_size: int = 12
    pad_vocab_size_multiple: int = 8
    emb_dim: int = 5
    filter_order: int = 64
    short_filter_order: int = 3
    mixer: str = "hyena"
    """`hyena` or `attention` (the Transformer baseline: causal multi-head attention)."""
    num_heads: int | None = None
    """Attention heads (baseline only); the block's default is d_model // 64."""
    checkpoint_mixer: bool = False
    checkpoint_mlp: bool = False

    @property
    def inner(self) -> int:
        return self.d_inner if self.d_inner is not None else 4 * self.d_model

    @property
    def padded_vocab(self) -> int:
        m = self.pad_vocab_size_multiple
        return ((self.vocab_size + m - 1) // m) * m


def fftconv(u: Tensor, k: Tensor, d: Tensor) -> Tensor:
    """Causal long convolution of u (b, d, l) with k (d, l) through the FFT, plus u * D."""
    seqlen = u.shape[-1]
    fft_size = 2 * seqlen
    k_f = torch.fft.rfft(k.float(), n=fft_size) / fft_size
    u_f = torch.fft.rfft(u.float(), n=fft_size)
    y: Tensor = torch.fft.irfft(u_f * k_f, n=fft_size, norm="forward")[..., :seqlen]
    out: Tensor = (y + u.float() * d.float().unsqueeze(-1)).to(dtype=u.dtype)
    return out


class Sin(nn.Module):
    def __init__(self, dim: int, w: float = 10.0) -> None:
        super().__init__()
        self.freq = nn.Parameter(w * torch.ones(1, dim))

    def forward(self, x: Tensor) -> Tensor:
        out: Tensor = torch.sin(self.freq * x)
        return out


class PositionalEmbedding(nn.Module):
    """Complex exponential positional embeddings for the Hyena filters."""

    def __init__(self, emb_dim: int, seq_len: int) -> None:
        super().__init__()
        t = torch.linspace(0, 1, seq_len)[None, :, None]
        bands = (emb_dim - 1) // 2
        t_rescaled = torch.linspace(0, seq_len - 1, seq_len)[None, :, None]
        w = 2 * math.pi * t_rescaled / seq_len
        f = torch.linspace(1e-4, bands - 1, bands)[None, None]
        z = torch.exp(-1j * f * w)
        # lr_pos_emb 0 in the checkpoints' configs: the source registers z as a buffer then
        self.register_buffer("z", torch.cat([t, z.real, z.imag], dim=-1))
        self.register_buffer("t", t)

    def forward(self, length: int) -> tuple[Tensor, Tensor]:
        z = cast(Tensor, self.z)
        t = cast(Tensor, self.t)
        return z[:, :length], t[:, :length]


class ExponentialModulation(nn.Module):
    def __init__(
        self,
        d_model: int,
        fast_decay_pct: float = 0.3,
        slow_decay_pct: float = 1.5,
        target: float = 1e-2,
        shift: float = 0.05,
    ) -> None:
        super().__init__()
        self.shift = shift
        max_decay = math.log(target) / fast_decay_pct
        min_decay = math.log(target) / slow_decay_pct
        self.register_buffer("deltas", torch.linspace(min_decay, max_decay, d_model)[None, None])

    def forward(self, t: Tensor, x: Tensor) -> Tensor:
        deltas = cast(Tensor, self.deltas)
        decay = torch.exp(-t * deltas.abs())
        return x * (decay + self.shift)


class HyenaFilter(nn.Module):
    """Implicit long filter: positional embedding -> sine MLP -> exponential window."""

    def __init__(self, d_model: int, emb_dim: int, order: int, seq_len: int) -> None:
        super().__init__()
        self.bias = nn.Parameter(torch.randn(d_model))
        self.pos_emb = PositionalEmbedding(emb_dim, seq_len)
        act = Sin(order)
        self.implicit_filter = nn.Sequential(nn.Linear(emb_dim, order), act)
        for _ in range(2):  # num_inner_mlps
            self.implicit_filter.append(nn.Linear(order, order))
            self.implicit_filter.append(act)
        self.implicit_filter.append(nn.Linear(order, d_model, bias=False))
        self.modulation = ExponentialModulation(d_model)

    def filter(self, length: int) -> Tensor:
        z, t = self.pos_emb(length)
        h = self.implicit_filter(z)
        out: Tensor = self.modulation(t, h)
        return out


class HyenaOperator(nn.Module):
    """Order-2 Hyena operator (Poli et al. 2023) as HyenaDNA uses it."""

    def __init__(self, cfg: HyenaConfig) -> None:
        super().__init__()
        self.d_model = cfg.d_model
        self.l_max = cfg.l_max
        self.order = 2
        inner_width = cfg.d_model * (self.order + 1)
        self.in_proj = nn.Linear(cfg.d_model, inner_width)
        self.out_proj = nn.Linear(cfg.d_model, cfg.d_model)
        self.short_filter = nn.Conv1d(
            inner_width,
            inner_width,
            cfg.short_filter_order,
            padding=cfg.short_filter_order - 1,
            groups=inner_width,
        )
        self.filter_fn = HyenaFilter(
            cfg.d_model * (self.order - 1), cfg.emb_dim, cfg.filter_order, cfg.l_max
        )

    def forward(self, u: Tensor) -> Tensor:
        length = u.size(-2)
        l_filter = min(length, self.l_max)
        u = self.in_proj(u).transpose(1, 2)  # b l d -> b d l
        uc = self.short_filter(u)[..., :l_filter]
        x0, x1, v = uc.split(self.d_model, dim=1)
        k = self.filter_fn.filter(l_filter)[0].transpose(0, 1)  # l d -> d l (order - 1 = 1)
        v = fftconv(v * x1, k, self.filter_fn.bias)
        y = (v * x0).transpose(1, 2)
        out: Tensor = self.out_proj(y)
        return out


class CausalSelfAttention(nn.Module):
    """The baseline's mixer: fused QKV projection, causal SDPA, output projection."""

    def __init__(self, d_model: int, num_heads: int) -> None:
        super().__init__()
        if d_model % num_heads:
            raise ValueError(f"d_model {d_model} is not divisible by {num_heads} heads")
        self.num_heads = num_heads
        self.Wqkv = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x: Tensor) -> Tensor:
        b, length, d = x.shape
        qkv = self.Wqkv(x).view(b, length, 3, self.num_heads, d // self.num_heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        out: Tensor = self.out_proj(y.transpose(1, 2).reshape(b, length, d))
        return out


class Mlp(nn.Module):
    def __init__(self, d_model: int, hidden: int) -> None:
        super().__init__()
        self.fc1 = nn.Linear(d_model, hidden)
        self.fc2 = nn.Linear(hidden, d_model)

    def forward(self, x: Tensor) -> Tensor:
        out: Tensor = self.fc2(F.gelu(self.fc1(x), approximate="tanh"))
        return out


class Checkpointed(nn.Module):
    """Recompute the wrapped module in the backward pass (the source's CheckpointedModule)."""

    def __init__(self, module: nn.Module) -> None:
        super().__init__()
        self.module = module

    def forward(self, x: Tensor) -> Tensor:
        if not torch.is_grad_enabled():
            out: Tensor = self.module(x)
            return out
        result: Tensor = checkpoint(self.module, x, use_reentrant=False)
        return result


class Block(nn.Module):
    """Pre-norm block as in the source: Add -> LN -> mixer -> Add -> LN -> MLP."""

    def __init__(self, cfg: HyenaConfig) -> None:
        super().__init__()
        mixer: nn.Module
        if cfg.mixer == "hyena":
            mixer = HyenaOperator(cfg)
        elif cfg.mixer == "attention":
            mixer = CausalSelfAttention(cfg.d_model, cfg.num_heads or max(1, cfg.d_model // 64))
        else:
            raise ValueError(f"mixer {cfg.mixer!r}: expected hyena or attention")
        mlp: nn.Module = Mlp(cfg.d_model, cfg.inner)
        self.mixer = Checkpointed(mixer) if cfg.checkpoint_mixer else mixer
        self.mlp = Checkpointed(mlp) if cfg.checkpoint_mlp else mlp
        self.norm1 = nn.LayerNorm(cfg.d_model, eps=1e-5)
        self.norm2 = nn.LayerNorm(cfg.d_model, eps=1e-5)

    def forward(self, hidden: Tensor, residual: Tensor | None) -> tuple[Tensor, Tensor]:
        residual = hidden + residual if residual is not None else hidden
        hidden = self.mixer(self.norm1(residual.to(self.norm1.weight.dtype)))
        residual = hidden + residual
        hidden = self.mlp(self.norm2(residual.to(self.norm2.weight.dtype)))
        return hidden, residual


class HyenaDNAModel(nn.Module):
    """Embeddings, blocks, final norm; optional mean-pooled classification head."""

    def __init__(self, cfg: HyenaConfig, n_classes: int | None = None) -> None:
        super().__init__()
        self.cfg = cfg
        self.word_embeddings = nn.Embedding(cfg.padded_vocab, cfg.d_model)
        # the baseline (GPT) has learned positions; Hyena none (max_position_embeddings 0)
        self.position_embeddings = (
            nn.Embedding(cfg.l_max, cfg.d_model) if cfg.mixer == "attention" else None
        )
        self.layers = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layer))
        self.ln_f = nn.LayerNorm(cfg.d_model, eps=1e-5)
        self.head = nn.Linear(cfg.d_model, n_classes) if n_classes else None
        self.apply(lambda m: _init_weights(m, cfg.n_layer))

    def forward(self, input_ids: Tensor) -> Tensor:
        hidden = self.word_embeddings(input_ids)
        if self.position_embeddings is not None:
            positions = torch.arange(input_ids.shape[1], device=input_ids.device)
            hidden = hidden + self.position_embeddings(positions)
        residual: Tensor | None = None
        for layer in self.layers:
            hidden, residual = layer(hidden, residual)
        assert residual is not None
        hidden = cast(Tensor, self.ln_f((hidden + residual).to(self.ln_f.weight.dtype)))
        if self.head is None:
            return hidden
        out: Tensor = self.head(hidden.mean(dim=1))
        return out


def _init_weights(module: nn.Module, n_layer: int, initializer_range: float = 0.02) -> None:
    if isinstance(module, nn.Linear):
        nn.init.normal_(module.weight, std=initializer_range)
        if module.bias is not None:
            nn.init.zeros_(module.bias)
    elif isinstance(module, nn.Embedding):
        nn.init.normal_(module.weight, std=initializer_range)
    for name, p in module.named_parameters():
        if name in ("out_proj.weight", "fc2.weight"):
            nn.init.normal_(p, std=initializer_range / math.sqrt(2 * n_layer))


def build(cfg: HyenaConfig, device: Any, n_classes: int | None = None) -> HyenaDNAModel:
    """A random-weight model on `device` (float32 parameters, as the source builds it)."""
    with torch.device(device):
        model = HyenaDNAModel(cfg, n_classes)
    return model


def count_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


@dataclass
class LMOutput:
    loss: Tensor | None
    logits: Tensor


class HyenaDNALM(nn.Module):
    """The backbone with its language-model head tied to the word embeddings (the source's
    `ConvLMHeadModel`), for the memory-curve and throughput recipes: `forward(input_ids,
    labels)` gives the next-token loss, `hidden_states(input_ids)` the final-norm states."""

    def __init__(self, cfg: HyenaConfig) -> None:
        super().__init__()
        self.backbone = HyenaDNAModel(cfg)
        self.checkpoint_layers = False

    def enable_layer_checkpointing(self) -> None:
        """Recompute each block in the backward pass (checkpoint_mixer and checkpoint_mlp)."""
        self.checkpoint_layers = True

    def hidden_states(self, input_ids: Tensor) -> Tensor:
        b = self.backbone
        hidden = b.word_embeddings(input_ids)
        residual: Tensor | None = None
        for layer in b.layers:
            if self.checkpoint_layers and torch.is_grad_enabled():
                hidden, residual = checkpoint(layer, hidden, residual, use_reentrant=False)
            else:
                hidden, residual = layer(hidden, residual)
        assert residual is not None
        return cast(Tensor, b.ln_f((hidden + residual).to(b.ln_f.weight.dtype)))

    def forward(self, input_ids: Tensor, labels: Tensor | None = None, **_: Any) -> LMOutput:
        logits = F.linear(self.hidden_states(input_ids), self.backbone.word_embeddings.weight)
        loss = None
        if labels is not None:
            loss = F.cross_entropy(
                logits[:, :-1].float().flatten(0, 1), labels[:, 1:].flatten(), ignore_index=-100
            )
        return LMOutput(loss, logits)
