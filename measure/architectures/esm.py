"""Nucleotide Transformer architectures: NT v1 (transformers' ESM) and NT v2 (ESM with rotary
positions and a gated feed-forward, measure/ntv2.py).
"""

from __future__ import annotations

from typing import Any

from measure.architectures.spec import Architecture


def _esm(hidden: int, layers: int, heads: int, ffn: int) -> dict[str, Any]:
    return {
        "vocab_size": 4105,
        "hidden_size": hidden,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "intermediate_size": ffn,
        "max_position_embeddings": 1002,
        "position_embedding_type": "absolute",
        "token_dropout": True,
        "emb_layer_norm_before": False,
        "pad_token_id": 1,
        "mask_token_id": 2,
        "layer_norm_eps": 1e-12,
        "hidden_dropout_prob": 0.0,
        "attention_probs_dropout_prob": 0.0,
        "tie_word_embeddings": False,
    }


def _ntv2(hidden: int, layers: int, heads: int, ffn: int) -> dict[str, Any]:
    """NT v2 config.json keys (rotary, gated feed-forward without biases)."""
    return {
        "add_bias_fnn": False,
        "attention_probs_dropout_prob": 0.0,
        "emb_layer_norm_before": False,
        "hidden_dropout_prob": 0.0,
        "hidden_size": hidden,
        "initializer_range": 0.02,
        "intermediate_size": ffn,
        "layer_norm_eps": 1e-12,
        "mask_token_id": 2,
        "max_position_embeddings": 2050,
        "num_attention_heads": heads,
        "num_hidden_layers": layers,
        "pad_token_id": 1,
        "position_embedding_type": "rotary",
        "tie_word_embeddings": False,
        "token_dropout": False,
        "vocab_size": 4107,
    }


NT_TOKENS = "non-overlapping 6-mers with a prepended CLS; leftover bases become single tokens"

NT_V2_100M_SOURCE = (
    "terry-r123/Cross-MolecularBenchmark at ce0ae52c4a0763b73e39acc3202be7069df9a5d9, "
    "model/ProtDNA/nt/nt_v2_100m_multi/config.json (SHA-256 "
    "a54704a53cb02ddaf71da37ba930f188e55d974a5efe107e551546faee8b79ac; a vendored copy of "
    "InstaDeepAI/nucleotide-transformer-v2-100m-multi-species' config.json): ESM, hidden 512, "
    "22 layers, 16 heads, feed-forward 2048 (gated), rotary positions, 2050 positions, "
    "vocabulary 4107, add_bias_fnn false"
)

NT_V2_500M_SOURCE = (
    "open-genome/dna at 7d89354848eac176f0ea1e92f8718e629381a1d6, "
    "nucleotide-transformer-v2-500m-multi-species/config.json (SHA-256 "
    "27e19a9e3fbba65b933bde793b503734744b5c6e376c74dcd1cb7317876efab8; a vendored copy of "
    "InstaDeepAI/nucleotide-transformer-v2-500m-multi-species' config.json): ESM, hidden 1024, "
    "29 layers, 16 heads, feed-forward 4096 (gated), rotary positions, 2050 positions, "
    "vocabulary 4107, add_bias_fnn false"
)


MODELS: tuple[Architecture, ...] = (
    Architecture(
        key="nt-2-5b",
        name="NT 2.5B",
        family="esm",
        config=_esm(2560, 32, 20, 10240),
        published_parameters=2.5e9,
        checkpoint="InstaDeepAI/nucleotide-transformer-2.5b-multi-species",
        max_tokens=1000,
        tokenisation=NT_TOKENS,
        nucleotides_per_token=6.0,
        nucleotides_exact=True,
    ),
    Architecture(
        key="nt-500m",
        name="NT 500M",
        family="esm",
        config=_esm(1280, 24, 20, 5120),
        published_parameters=500e6,
        checkpoint="InstaDeepAI/nucleotide-transformer-500m-human-ref",
        max_tokens=1000,
        tokenisation=NT_TOKENS,
        nucleotides_per_token=6.0,
        nucleotides_exact=True,
    ),
    Architecture(
        key="nt-v2-100m",
        name="NT v2 100M",
        family="esm-v2",
        config=_ntv2(512, 22, 16, 2048),
        published_parameters=100e6,
        checkpoint="InstaDeepAI/nucleotide-transformer-v2-100m-multi-species",
        max_tokens=2048,
        tokenisation=NT_TOKENS,
        nucleotides_per_token=6.0,
        nucleotides_exact=True,
        notes=(
            "Built by measure/ntv2.py: transformers' ESM with rotary positions and the "
            "gated (SwiGLU) feed-forward without biases of InstaDeep's modelling code.",
            "2050 positions; curves are measured to 2048 tokens (12 kb).",
        ),
        config_source=NT_V2_100M_SOURCE,
    ),
    Architecture(
        key="nt-v2-500m",
        name="NT v2 500M",
        family="esm-v2",
        config=_ntv2(1024, 29, 16, 4096),
        published_parameters=500e6,
        checkpoint="InstaDeepAI/nucleotide-transformer-v2-500m-multi-species",
        max_tokens=2048,
        tokenisation=NT_TOKENS,
        nucleotides_per_token=6.0,
        nucleotides_exact=True,
        notes=(
            "Built by measure/ntv2.py as NT v2 100M: transformers' ESM with rotary "
            "positions and the gated (SwiGLU) feed-forward without biases; the checkpoint "
            "Feng et al. ran (job_scripts/inference_ntv2.py).",
        ),
        config_source=NT_V2_500M_SOURCE,
    ),
)

TINY: tuple[Architecture, ...] = (
    Architecture(
        key="tiny-esm",
        name="tiny ESM (tests)",
        family="esm",
        config={**_esm(32, 2, 4, 64), "vocab_size": 4105},
        published_parameters=0.0,
        checkpoint="none (test configuration)",
        max_tokens=1000,
        tokenisation=NT_TOKENS,
        nucleotides_per_token=6.0,
        nucleotides_exact=True,
    ),
    Architecture(
        key="tiny-ntv2",
        name="tiny NT v2 (tests)",
        family="esm-v2",
        config=_ntv2(32, 2, 4, 64),
        published_parameters=0.0,
        checkpoint="none (test configuration)",
        max_tokens=2048,
        tokenisation=NT_TOKENS,
        nucleotides_per_token=6.0,
        nucleotides_exact=True,
    ),
)
