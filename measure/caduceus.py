"""Caduceus-PS in pure PyTorch with a reference selective scan, for memory and time with
random weights (no mamba-ssm kernels on the GPU machine).

An independent implementation of kuleshov-group/caduceus `caduceus/modeling_caduceus.py` and
`modeling_rcps.py` (commit 0060a6d): Mamba (v1) mixers made bidirectional (`add` strategy,
forward and reverse mixers sharing their input and output projections), reverse-complement
parameter sharing (RCPS: a doubled hidden state whose second half is the reverse complement
stream, both halves through the same weights), pre-norm residual blocks with RMSNorm and a
masked-language-model head tied to the embeddings.

The selective scan is a reference PyTorch scan, not the fused CUDA kernel: the sequence is
cut into segments run one after another (the state carried between them); within a segment
the recurrence h_t = exp(delta_t A) h_{t-1} + delta_t B_t x_t is solved in parallel in log
space (cumulative sums and `logcumsumexp`, positive and negative inputs apart). Each segment
is checkpointed, so that its (batch, length, d_inner, d_state) states are recomputed in the
backward pass, as the fused kernel recomputes them. Memory and time measured with it are upper
bounds for the kernel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch.utils.checkpoint import checkpoint

SEGMENT = 512
"""Tokens per scan segment (the log-space cumulative decay stays within float32 range)."""
TINY = 1e-30


@dataclass(frozen=True)
class CaduceusConfig:
    d_model: int
    n_layer: int
    vocab_size: int = 16
    d_state: int = 16
    d_conv: int = 4
    expand: int = 2
    dt_min: float = 0.001
    dt_max: float = 0.1
    dt_init_floor: float = 1e-4
    norm_epsilon: float = 1e-5
    initializer_range: float = 0.02

    @property
    def d_inner(self) -> int:
        return self.expand * self.d_model

    @property
    def dt_rank(self) -> int:
        return math.ceil(self.d_model / 16)


# The character tokeniser's ids (Caduceus and HyenaDNA): specials 0-6, then A C G T N.
COMPLEMENT = {7: 10, 8: 9, 9: 8, 10: 7}
MASK_ID = 3


def _scan_segment(
    h: Tensor, u: Tensor, delta: Tensor, a: Tensor, b: Tensor, c: Tensor
) -> tuple[Tensor, Tensor]:
    """One segment: h (batch, d, n) state in; u, delta (batch, s, d); a (d, n); b, c
    (batch, s, n). Returns y (batch, s, d) without the skip term, and the state out."""
    log_decay = (delta.unsqueeze(-1) * a).cumsum(dim=1)  # (batch, s, d, n), <= 0
    x = (delta * u).unsqueeze(-1) * b.unsqueeze(2)

    def positive_scan(v: Tensor) -> Tensor:
        return torch.exp(
            log_decay + torch.logcumsumexp(torch.log(v.clamp_min(TINY)) - log_decay, dim=1)
        )

    states = positive_scan(x.clamp_min(0)) - positive_scan((-x).clamp_min(0))
    states = states + torch.exp(log_decay) * h.unsqueeze(1)
    y = (states * c.unsqueeze(2)).sum(-1)
    return y, states[:, -1]


def selective_scan(u: Tensor, delta: Tensor, a: Tensor, b: Tensor, c: Tensor, d: Tensor) -> Tensor:
    """y_t = C_t h_t + D u_t with h_t = exp(delta_t A) h_{t-1} + delta_t B_t u_t, in float32.
    u, delta (batch, length, d_inner); a (d_inner, d_state); b, c (batch, length, d_state)."""
    dtype = u.dtype
    with torch.autocast(u.device.type, enabled=False):
        u, delta, b, c, a = (t.float() for t in (u, delta, b, c, a))
        h = u.new_zeros(u.shape[0], u.shape[2], a.shape[1])
        ys = []
        for start in range(0, u.shape[1], SEGMENT):
            part = slice(start, start + SEGMENT)
            args = (h, u[:, part], delta[:, part], a, b[:, part], c[:, part])
            if torch.is_grad_enabled():
                y, h = checkpoint(_scan_segment, *args, use_reentrant=False)
            else:
                y, h = _scan_segment(*args)
            ys.append(y)
        out = torch.cat(ys, dim=1) + u * d.float()
    return out.to(dtype)


class Mamba(nn.Module):
    """A Mamba (v1) mixer as mamba_ssm's `mamba_simple.Mamba`, with the reference scan."""

    def __init__(self, cfg: CaduceusConfig) -> None:
        super().__init__()
        di, n, r = cfg.d_inner, cfg.d_state, cfg.dt_rank
        self.in_proj = nn.Linear(cfg.d_model, 2 * di, bias=False)
        self.conv1d = nn.Conv1d(di, di, cfg.d_conv, groups=di, padding=cfg.d_conv - 1)
        self.x_proj = nn.Linear(di, r + 2 * n, bias=False)
        self.dt_proj = nn.Linear(r, di)
        self.out_proj = nn.Linear(di, cfg.d_model, bias=False)
        self.A_log = nn.Parameter(torch.log(torch.arange(1, n + 1).float().repeat(di, 1)))
        self.D = nn.Parameter(torch.ones(di))
        with torch.no_grad():  # dt initialisation of mamba_simple (dt_init "random")
            nn.init.uniform_(self.dt_proj.weight, -(r**-0.5), r**-0.5)
            low, high = math.log(cfg.dt_min), math.log(cfg.dt_max)
            dt = torch.exp(torch.rand(di) * (high - low) + low).clamp(min=cfg.dt_init_floor)
            self.dt_proj.bias.copy_(dt + torch.log(-torch.expm1(-dt)))
        self.d_state, self.dt_rank = n, r

    def forward(self, hidden: Tensor) -> Tensor:
        length = hidden.shape[1]
        x, z = self.in_proj(hidden).chunk(2, dim=-1)
        x = F.silu(self.conv1d(x.transpose(1, 2))[..., :length].transpose(1, 2))
        dt, b, c = self.x_proj(x).split([self.dt_rank, self.d_state, self.d_state], dim=-1)
        delta = F.softplus(self.dt_proj(dt))
        y = selective_scan(x, delta, -torch.exp(self.A_log.float()), b, c, self.D)
        out: Tensor = self.out_proj(y * F.silu(z))
        return out


class BiMamba(nn.Module):
    """Caduceus' BiMambaWrapper, strategy `add`, in and out projections tied."""

    def __init__(self, cfg: CaduceusConfig) -> None:
        super().__init__()
        self.fwd = Mamba(cfg)
        self.rev = Mamba(cfg)
        self.rev.in_proj.weight = self.fwd.in_proj.weight
        self.rev.out_proj.weight = self.fwd.out_proj.weight

    def forward(self, hidden: Tensor) -> Tensor:
        out: Tensor = self.fwd(hidden) + self.rev(hidden.flip(1)).flip(1)
        return out


def _rc(x: Tensor) -> Tensor:
    """Reverse complement of a hidden stream: sequence and channels reversed."""
    return x.flip(dims=[-2, -1])


class RcpsBlock(nn.Module):
    """RCPSMambaBlock with fused add-norm: both halves through one RMSNorm and one mixer
    (the reverse-complement half reversed in and out); the halves run as one batch."""

    def __init__(self, cfg: CaduceusConfig) -> None:
        super().__init__()
        self.norm = nn.RMSNorm(cfg.d_model, eps=cfg.norm_epsilon)
        self.mixer = BiMamba(cfg)

    def forward(self, hidden: Tensor, residual: Tensor | None) -> tuple[Tensor, Tensor]:
        residual = hidden if residual is None else hidden + residual
        half = residual.shape[-1] // 2
        both = torch.cat([residual[..., :half], _rc(residual[..., half:])], dim=0)
        mixed = self.mixer(self.norm(both.to(self.norm.weight.dtype)))
        fwd, rc = mixed.chunk(2, dim=0)
        return torch.cat([fwd, _rc(rc)], dim=-1), residual


@dataclass
class MaskedLMOutput:
    loss: Tensor | None
    logits: Tensor


class CaduceusForMaskedLM(nn.Module):
    """RCPS embeddings, RCPS blocks, final RMSNorm and the tied RCPS language-model head."""

    def __init__(self, cfg: CaduceusConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.embedding = nn.Embedding(cfg.vocab_size, cfg.d_model)
        complement = torch.arange(cfg.vocab_size)
        for k, v in COMPLEMENT.items():
            complement[k] = v
        self.register_buffer("complement", complement)
        self.layers = nn.ModuleList(RcpsBlock(cfg) for _ in range(cfg.n_layer))
        self.norm_f = nn.RMSNorm(cfg.d_model, eps=cfg.norm_epsilon)
        self.checkpoint_layers = False
        self.apply(self._init)

    def _init(self, module: nn.Module) -> None:
        """Embeddings from N(0, initializer_range); Linear layers keep PyTorch's default
        initialisation (dt_proj its dt initialisation), as random weights suffice here."""
        if isinstance(module, nn.Embedding):
            nn.init.normal_(module.weight, std=self.cfg.initializer_range)

    def enable_layer_checkpointing(self) -> None:
        """Recompute each block's activations in the backward pass."""
        self.checkpoint_layers = True

    def hidden_states(self, input_ids: Tensor) -> Tensor:
        complement = cast(Tensor, self.complement)
        rc_ids = complement[input_ids.flip(-1)]
        hidden = torch.cat([self.embedding(input_ids), _rc(self.embedding(rc_ids))], dim=-1)
        residual: Tensor | None = None
        for layer in self.layers:
            if self.checkpoint_layers and torch.is_grad_enabled():
                hidden, residual = checkpoint(layer, hidden, residual, use_reentrant=False)
            else:
                hidden, residual = layer(hidden, residual)
        assert residual is not None
        residual = hidden + residual
        half = residual.shape[-1] // 2
        dtype = self.norm_f.weight.dtype
        fwd = self.norm_f(residual[..., :half].to(dtype))
        rc = _rc(self.norm_f(_rc(residual[..., half:]).to(dtype)))
        return torch.cat([fwd, rc], dim=-1)

    def forward(self, input_ids: Tensor, labels: Tensor | None = None, **_: Any) -> MaskedLMOutput:
        hidden = self.hidden_states(input_ids)
        half = hidden.shape[-1] // 2
        weight = self.embedding.weight
        complement = cast(Tensor, self.complement)
        logits = F.linear(hidden[..., :half], weight) + F.linear(
            hidden[..., half:].flip(-1), weight[complement]
        )
        loss = None
        if labels is not None:
            loss = F.cross_entropy(
                logits.float().flatten(0, 1), labels.flatten(), ignore_index=-100
            )
        return MaskedLMOutput(loss, logits)


def build(cfg: CaduceusConfig, device: Any) -> CaduceusForMaskedLM:
    with torch.device(device):
        return CaduceusForMaskedLM(cfg)
