"""Training-step pieces of a stage: synthetic batches, precision policies, optimizers,
LoRA, activation checkpointing and the DeepSpeed ZeRO-2 CPU-offload engine."""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Mapping
from typing import Any

import torch

from measure.architectures.spec import CAUSAL_FAMILIES, Architecture

MASK_FRACTION = 0.15

# NT ids, a reconstruction of the tokeniser's layout: 5 specials, 4096 six-mers, 4 bases.
NT_SPECIALS = {"unk": 0, "pad": 1, "mask": 2, "cls": 3, "eos": 4}
NT_KMER_OFFSET = 5
NT_BASE_OFFSET = NT_KMER_OFFSET + 4**6
# GENA-LM BPE ids: 5 specials; random DNA becomes BPE ids drawn uniformly from the rest.
GENA_SPECIALS = {"unk": 0, "cls": 1, "sep": 2, "pad": 3, "mask": 4}
# Causal decoders: BOS, then body ids drawn uniformly past the specials (Mistral-DNA's BPE:
# 4 specials; GENERator's 6-mers: 32 specials, then the 4096 six-mers).
CAUSAL_FIRST_BODY_ID = {"mixtral-causal": 4, "llama-causal": 32}


def nt_ids(bases: torch.Tensor, kmer: int = 6) -> torch.Tensor:
    """Token ids of one sequence of bases (0..3) under NT's rule: CLS, non-overlapping
    k-mers, then the leftover bases as single tokens."""
    full = (bases.numel() // kmer) * kmer
    groups = bases[:full].view(-1, kmer)
    weights = 4 ** torch.arange(kmer - 1, -1, -1)
    kmers = (groups * weights).sum(dim=1) + NT_KMER_OFFSET
    rest = bases[full:] + NT_BASE_OFFSET
    cls = torch.tensor([NT_SPECIALS["cls"]])
    return torch.cat([cls, kmers, rest])


def synthetic_batches(
    arch: Architecture,
    *,
    batch: int,
    tokens: int,
    nucleotides: int | None,
    steps: int,
    seed: int,
) -> list[dict[str, torch.Tensor]]:
    """`steps` batches of uniform random DNA from `seed`, as masked-LM inputs and labels.

    ESM (NT): `nucleotides` random bases tokenised by the 6-mer rule (with `nucleotides`
    None, `tokens` k-mer ids drawn uniformly). BERT (GENA-LM): BPE ids drawn uniformly,
    between CLS and SEP. 15% of the non-special positions are targets, shown as the mask."""
    generator = torch.Generator().manual_seed(seed)
    if arch.family in CHARACTER_FAMILIES:
        return _character_batches(
            arch, batch=batch, tokens=tokens, steps=steps, generator=generator
        )
    esm = arch.family in ("esm", "esm-v2")
    out = []
    for _ in range(steps):
        rows = []
        for _ in range(batch):
            if esm and nucleotides is not None:
                bases = torch.randint(0, 4, (nucleotides,), generator=generator)
                row = nt_ids(bases)
            elif arch.family in CAUSAL_FAMILIES:  # BOS then body ids past the specials
                first = CAUSAL_FIRST_BODY_ID[arch.family]
                body = torch.randint(first, int(arch.config["vocab_size"]), (tokens - 1,),
                                     generator=generator)  # fmt: skip
                row = torch.cat([torch.tensor([int(arch.config["bos_token_id"])]), body])
            elif esm:
                body = torch.randint(
                    NT_KMER_OFFSET, NT_BASE_OFFSET, (tokens - 1,), generator=generator
                )
                row = torch.cat([torch.tensor([NT_SPECIALS["cls"]]), body])
            else:
                vocab = int(arch.config["vocab_size"])
                body = torch.randint(len(GENA_SPECIALS), vocab, (tokens - 2,), generator=generator)
                cls, sep = GENA_SPECIALS["cls"], GENA_SPECIALS["sep"]
                row = torch.cat([torch.tensor([cls]), body, torch.tensor([sep])])
            if row.numel() != tokens:
                raise ValueError(f"tokenised length {row.numel()} != planned {tokens}")
            rows.append(row)
        input_ids = torch.stack(rows)
        if arch.family in CAUSAL_FAMILIES:  # a causal LM: every next token is a target
            out.append({"input_ids": input_ids, "labels": input_ids.clone()})
            continue
        mask_id = NT_SPECIALS["mask"] if esm else GENA_SPECIALS["mask"]
        chosen = torch.rand(input_ids.shape, generator=generator) < MASK_FRACTION
        chosen[:, 0] = False
        if not esm:
            chosen[:, -1] = False
        labels = torch.where(chosen, input_ids, torch.full_like(input_ids, -100))
        masked = torch.where(chosen, torch.full_like(input_ids, mask_id), input_ids)
        item = {"input_ids": masked, "labels": labels}
        if arch.family == "bert-prelayernorm":
            item["position_ids"] = torch.arange(tokens).expand(batch, -1).contiguous()
        out.append(item)
    return out


CHARACTER_FAMILIES = ("hyena-lm", "caduceus")
"""Families with a character tokeniser (one token per base): HyenaDNA and Caduceus."""
CHAR_IDS = {"mask": 3, "first_base": 7}
"""Their tokeniser's ids: [MASK] 3, then A C G T at 7-10 (the specials 0-6 before them)."""


def _character_batches(
    arch: Architecture, *, batch: int, tokens: int, steps: int, generator: torch.Generator
) -> list[dict[str, torch.Tensor]]:
    """Random bases as character ids; HyenaDNA (causal) predicts every next token, Caduceus
    (masked LM) 15% of the positions, shown as the mask."""
    out = []
    first = CHAR_IDS["first_base"]
    for _ in range(steps):
        input_ids = torch.randint(first, first + 4, (batch, tokens), generator=generator)
        if arch.family == "hyena-lm":
            out.append({"input_ids": input_ids, "labels": input_ids.clone()})
            continue
        chosen = torch.rand(input_ids.shape, generator=generator) < MASK_FRACTION
        labels = torch.where(chosen, input_ids, torch.full_like(input_ids, -100))
        masked = torch.where(chosen, torch.full_like(input_ids, CHAR_IDS["mask"]), input_ids)
        out.append({"input_ids": masked, "labels": labels})
    return out


class Fp32StateAdamW(torch.optim.Optimizer):
    """AdamW for bf16 weights that keeps its two moments in fp32 and updates the bf16
    weights in place (no fp32 master copy): 12 bytes per trainable parameter in all."""

    def __init__(
        self,
        params: Iterable[torch.nn.Parameter],
        lr: float = 1e-4,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0.01,
    ) -> None:
        super().__init__(
            params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay}
        )

    @torch.no_grad()
    def step(self, closure: Any = None) -> None:  # type: ignore[override]
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p, dtype=torch.float32)
                    state["exp_avg_sq"] = torch.zeros_like(p, dtype=torch.float32)
                state["step"] += 1
                grad = p.grad.float()
                state["exp_avg"].lerp_(grad, 1 - beta1)
                state["exp_avg_sq"].mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                correction1 = 1 - beta1 ** state["step"]
                correction2 = 1 - beta2 ** state["step"]
                denom = (state["exp_avg_sq"] / correction2).sqrt_().add_(group["eps"])
                update = state["exp_avg"] / correction1 / denom
                update.add_(p.float(), alpha=group["weight_decay"])
                p.add_(update.to(p.dtype), alpha=-group["lr"])


def model_dtype(precision: str) -> torch.dtype:
    """Dtype the weights are held in under a precision policy."""
    return torch.float32 if precision == "fp32-autocast" else torch.bfloat16


def apply_lora(model: Any, lora: Mapping[str, Any], precision: str) -> Any:
    """Wrap `model` with LoRA adapters; the backbone is frozen. Adapters are kept in the
    weights' dtype (peft would otherwise upcast them to fp32)."""
    from peft import LoraConfig, get_peft_model

    config = LoraConfig(
        r=int(lora["r"]),
        lora_alpha=int(lora["alpha"]),
        lora_dropout=float(lora["dropout"]),
        target_modules=list(lora["target_modules"]),
    )
    return get_peft_model(model, config, autocast_adapter_dtype=False)


def make_optimizer(
    params: list[torch.nn.Parameter], precision: str, optimizer: Mapping[str, Any]
) -> torch.optim.Optimizer:
    """The optimizer of a precision policy: torch AdamW (its default implementation) on
    bf16 or fp32 weights, or Fp32StateAdamW for bf16 weights with fp32 states."""
    lr = float(optimizer["lr"])
    betas = (float(optimizer["betas"][0]), float(optimizer["betas"][1]))
    eps = float(optimizer["eps"])
    weight_decay = float(optimizer["weight_decay"])
    if precision == "bf16-fp32-states":
        return Fp32StateAdamW(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay)
    return torch.optim.AdamW(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay)


def deepspeed_config(base: Mapping[str, Any], *, precision: str, batch: int) -> dict[str, Any]:
    """The DeepSpeed config of a stage: the recipe's ZeRO-2 offload block, batch, and bf16
    for the bf16 policies (fp32 weights otherwise, with DeepSpeed's torch_autocast in bf16)."""
    config: dict[str, Any] = {
        "train_micro_batch_size_per_gpu": batch,
        "gradient_accumulation_steps": 1,
        "steps_per_print": 1_000_000,
        "wall_clock_breakdown": False,
        **copy.deepcopy(dict(base)),
    }
    config["bf16"] = {"enabled": precision != "fp32-autocast"}
    if precision == "fp32-autocast":
        # DeepSpeed's engine turns an outer torch.autocast off in its forward; its own
        # torch_autocast block is the way to run fp32 weights under bf16 autocast.
        config["torch_autocast"] = {"enabled": True, "dtype": "bfloat16"}
    return config


def deepspeed_engine(
    model: Any,
    params: list[torch.nn.Parameter],
    config: dict[str, Any],
    optimizer: Mapping[str, Any],
) -> tuple[Any, str]:
    """`deepspeed.initialize` with DeepSpeedCPUAdam as the optimizer (one process, one GPU)."""
    import deepspeed
    from deepspeed.ops.adam import DeepSpeedCPUAdam

    cpu_adam = DeepSpeedCPUAdam(
        params,
        lr=float(optimizer["lr"]),
        betas=(float(optimizer["betas"][0]), float(optimizer["betas"][1])),
        eps=float(optimizer["eps"]),
        weight_decay=float(optimizer["weight_decay"]),
        adamw_mode=True,
    )
    engine, _opt, _loader, _sched = deepspeed.initialize(
        model=model, optimizer=cpu_adam, config=config
    )
    return engine, f"DeepSpeedCPUAdam (deepspeed {deepspeed.__version__}, adamw_mode)"


def flops_per_step(params: int, batch: int, tokens: int) -> float:
    """6 x parameters x tokens: forward and backward of a dense transformer step."""
    return 6.0 * params * batch * tokens


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    if not ordered:
        return math.nan
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2
