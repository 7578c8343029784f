"""What a measured architecture is: the facts a measurement needs about one model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Architecture:
    """One model's architecture and the facts a measurement needs about it."""

    key: str
    """Short key used on the command line and in record ids, e.g. `nt-2-5b`."""
    name: str
    """Model name as the literature prints it."""
    family: str
    """Kind of model: `esm`, `esm-v2`, `bert`, `bert-prelayernorm`, `mixtral-causal`,
    `llama-causal` (transformers classes), `mosaic-bert-alibi` (DNABERT-2,
    `measure/dnabert2.py`), `hyena-lm` or `caduceus` (their own modules)."""
    config: dict[str, Any]
    published_parameters: float
    """Parameter count the literature states (with the MLM head)."""
    checkpoint: str
    """Hub id of the checkpoint whose config.json the dimensions come from."""
    max_tokens: int
    """Longest input in tokens the position embeddings allow."""
    tokenisation: str
    """How nucleotides become tokens."""
    attention_modules: tuple[str, ...] = ("query", "key", "value")
    notes: tuple[str, ...] = field(default_factory=tuple)
    config_source: str = "hub config.json as publicly reported (see shared/research/gpu-facts.md)"
    """Where the dimensions come from: a file at a pinned commit, with its SHA-256, where one is
    reachable from these machines."""
    nucleotides_per_token: float | None = None
    """Nucleotides per sequence token as the model's sources state it (6 for NT's 6-mers); None
    where no source states one (BPE tokenisers vary with the sequence)."""
    nucleotides_exact: bool = False
    """True where the ratio is exact by construction (k-mers); False for a stated average."""


CAUSAL_FAMILIES = ("mixtral-causal", "llama-causal")
"""Transformer decoders built as transformers' causal language models (Mistral-DNA,
GENERator): next-token loss, BOS then body tokens."""

RESTATED_NOTE = (
    "The hub's config.json could not be read from these machines: its keys come from a "
    "restatement of it at a pinned commit of another repository (tcztzy/evo.cpp at c281681), "
    "which gives the hub file's SHA-256."
)
