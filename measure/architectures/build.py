"""Models of the measured architectures with random weights (no hub access), and their
parameter counts. torch and transformers are imported inside the functions that need them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from measure.architectures.spec import CAUSAL_FAMILIES, Architecture

if TYPE_CHECKING:  # pragma: no cover
    import torch


def hf_config(arch: Architecture) -> Any:
    """The transformers configuration object of an architecture."""
    if arch.family == "esm":
        from transformers import EsmConfig

        return EsmConfig(**arch.config)
    if arch.family == "bert":
        from transformers import BertConfig

        return BertConfig(**arch.config)
    if arch.family == "bert-prelayernorm":
        from transformers import RobertaPreLayerNormConfig

        return RobertaPreLayerNormConfig(**arch.config)
    if arch.family == "mosaic-bert-alibi":
        from measure.dnabert2 import dnabert2_config

        return dnabert2_config(arch.config)
    if arch.family == "mixtral-causal":
        from transformers import MixtralConfig

        return MixtralConfig(**arch.config)
    if arch.family == "llama-causal":
        from transformers import LlamaConfig

        return LlamaConfig(**arch.config)
    raise ValueError(f"unknown family {arch.family!r}")


def build_model(
    arch: Architecture,
    *,
    device: str | torch.device = "cpu",
    attn_implementation: str = "eager",
) -> Any:
    """A masked-language model of this architecture with random weights, built on `device`
    (use "meta" to count parameters without allocating them)."""
    import torch
    from transformers import AutoModelForMaskedLM

    if arch.family == "esm-v2":
        from measure.ntv2 import build_ntv2

        return build_ntv2(arch.config, device, attn_implementation)
    if arch.family == "hyena-lm":
        from measure.hyenadna.model import HyenaConfig, HyenaDNALM

        c = arch.config
        hyena = HyenaConfig(d_model=c["d_model"], n_layer=c["n_layer"], l_max=c["l_max"])
        with torch.device(device):
            return HyenaDNALM(hyena)
    if arch.family == "caduceus":
        from measure.caduceus import CaduceusConfig, build

        c = arch.config
        return build(CaduceusConfig(d_model=c["d_model"], n_layer=c["n_layer"]), device)
    config = hf_config(arch)
    if arch.family == "mosaic-bert-alibi":  # its own attention: `attn_implementation` unused
        from measure.dnabert2 import DnaBert2ForMaskedLM

        with torch.device(device):
            return DnaBert2ForMaskedLM(config)
    with torch.device(device):
        if arch.family in CAUSAL_FAMILIES:
            from transformers import AutoModelForCausalLM

            return AutoModelForCausalLM.from_config(config, attn_implementation=attn_implementation)
        model = AutoModelForMaskedLM.from_config(config, attn_implementation=attn_implementation)
    return model


def count_parameters(model: Any, *, trainable_only: bool = False) -> int:
    """Parameters of a model, tied weights counted once."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad or not trainable_only)


def parameter_count(arch: Architecture) -> int:
    """Parameter count of an architecture with its MLM head, counted on the meta device."""
    return count_parameters(build_model(arch, device="meta"))


def position_ids_needed(arch: Architecture) -> bool:
    """Whether the forward pass must be given position ids from 0 (BERT-style positions on a
    RoBERTa-style embedding that would otherwise start after the padding index)."""
    return arch.family == "bert-prelayernorm"
