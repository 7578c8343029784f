"""Causal decoder architectures built as transformers' causal language models: Mixtral
(Mistral-DNA) and Llama (GENERator).
"""

from __future__ import annotations

from typing import Any

from measure.architectures.spec import RESTATED_NOTE, Architecture


def _mistral_dna_1m() -> dict[str, Any]:
    """Mistral-DNA-v1-1M-hg38 (a Mixtral, 8 experts), from its config.json (MISTRAL_DNA_SOURCE)."""
    return {
        "vocab_size": 4096,
        "hidden_size": 64,
        "intermediate_size": 64,
        "num_hidden_layers": 4,
        "num_attention_heads": 8,
        "num_key_value_heads": 8,
        "head_dim": 8,
        "num_local_experts": 8,
        "num_experts_per_tok": 1,
        "max_position_embeddings": 256,
        "hidden_act": "silu",
        "rms_norm_eps": 1e-05,
        "rope_theta": 1000000.0,
        "router_aux_loss_coef": 0.02,
        "attention_dropout": 0.0,
        "bos_token_id": 1,
        "eos_token_id": 2,
        "pad_token_id": 3,
        "sliding_window": None,
        "tie_word_embeddings": False,
        "output_router_logits": False,
    }


def _mistral_dna_105m() -> dict[str, Any]:
    """The Mixtral that Mistral-DNA's pretraining notebook builds ("Model size: 105.0M
    parameters"), from the repository's modified Mixtral config.json (MISTRAL_DNA_105M_SOURCE)."""
    return {
        **_mistral_dna_1m(),
        "hidden_size": 256,
        "intermediate_size": 256,
        "num_hidden_layers": 8,
        "num_attention_heads": 8,
        "num_key_value_heads": 8,
        "head_dim": 32,
        "num_local_experts": 64,
        "max_position_embeddings": 512,
        "pad_token_id": None,
    }


def _generator_1_2b() -> dict[str, Any]:
    """GENERator eukaryote 1.2B (a Llama), from the restated config.json (GENERATOR_SOURCE);
    bos and eos ids as its tokeniser (1 and 2), pad id 3 (the tokeniser's <pad>)."""
    return {
        "vocab_size": 4128,
        "hidden_size": 2048,
        "num_hidden_layers": 26,
        "num_attention_heads": 32,
        "num_key_value_heads": 4,
        "intermediate_size": 5632,
        "max_position_embeddings": 16384,
        "rms_norm_eps": 1e-05,
        "rope_theta": 500000.0,
        "hidden_act": "silu",
        "attention_bias": False,
        "attention_dropout": 0.0,
        "mlp_bias": False,
        "tie_word_embeddings": False,
        "bos_token_id": 1,
        "eos_token_id": 2,
        "pad_token_id": 3,
    }


MISTRAL_DNA_SOURCE = (
    "raphaelmourad/Mistral-DNA at 700996f23699dac45022cd4d588a247e1306d2b7, "
    "data/models/Mistral-DNA-v1-1M-hg38-finetuned-tf0/config.json (SHA-256 "
    "10ec163c9aabd41782e2de84181603cab9f257c72aa986a92af9d82997f42752; fine-tuned from "
    "RaphaelMourad/Mistral-DNA-v1-1M-hg38, whose dimensions it keeps): Mixtral, hidden 64, "
    "4 layers, 8 heads, 8 experts (1 per token), vocabulary 4096, 256 positions"
)

MISTRAL_DNA_105M_SOURCE = (
    "raphaelmourad/Mistral-DNA at 700996f23699dac45022cd4d588a247e1306d2b7, "
    "data/models/Mixtral-8x7B-v0.1/config.json (SHA-256 "
    "978f9701a2b1e66c9d35c312f6655f8c1bbf61c60d83455d79f541b4d5d51cb6), the configuration "
    "scriptPython/script_pretrain_mistral-dna.ipynb loads: Mixtral, hidden 256, 8 layers, "
    "8 heads, 64 experts (1 per token), feed-forward 256, vocabulary 4096, 512 positions"
)

GENERATOR_SOURCE = (
    "tcztzy/evo.cpp at c281681e27ea5ba29e4cd0e33b8972e4f2023c88, "
    "configs/geneb-decoder-models.json (SHA-256 "
    "d5cc152df07544cdfc441836556bb2adf7440c0ac3af93550bfc2f8347f40243), lines 191-209: a "
    "restatement of the config.json of GenerTeam/GENERator-eukaryote-1.2b-base at hub revision "
    "5e872c94264891f9adf59d8ea64e426bb68badb5, whose SHA-256 it gives as "
    "2b47f1cbbadd52ad0f64e1802e3e7932e7f39cf8d42174e82bad4f6436504145 (the hub file itself not "
    "reachable from these machines): model_type llama, hidden 2048, 26 layers, 32 heads, 4 "
    "key-value heads, feed-forward 5632 (SiLU), vocabulary 4128, 16384 positions, rope_theta "
    "500000, no attention or MLP biases, untied output embeddings"
)


MODELS: tuple[Architecture, ...] = (
    Architecture(
        key="mistral-dna-1m",
        name="Mistral-DNA 1M",
        family="mixtral-causal",
        config=_mistral_dna_1m(),
        published_parameters=1e6,
        checkpoint="RaphaelMourad/Mistral-DNA-v1-1M-hg38",
        max_tokens=256,
        tokenisation="BPE over DNA (vocabulary 4096), a causal language model",
        attention_modules=("q_proj", "k_proj", "v_proj"),
        notes=(
            "A Mixtral (sparse mixture of 8 experts, 1 per token) shrunk for DNA; built as "
            "transformers' MixtralForCausalLM; the masked-LM loss of the other models is its "
            "next-token loss here.",
        ),
        config_source=MISTRAL_DNA_SOURCE,
    ),
    Architecture(
        key="mistral-dna-105m",
        name="Mistral-DNA 105M (pretraining notebook)",
        family="mixtral-causal",
        config=_mistral_dna_105m(),
        published_parameters=105.0e6,
        checkpoint="none (the pretraining notebook's configuration; no checkpoint)",
        max_tokens=512,
        tokenisation="DNABERT-2's BPE (vocabulary 4096), a causal language model",
        attention_modules=("q_proj", "k_proj", "v_proj"),
        notes=(
            "The model Mistral-DNA's pretraining notebook builds from the repository's "
            "modified Mixtral-8x7B-v0.1 config.json (the notebook prints 'Model size: "
            "105.0M parameters'); built as transformers' MixtralForCausalLM.",
        ),
        config_source=MISTRAL_DNA_105M_SOURCE,
    ),
    Architecture(
        key="generator-eukaryote-1-2b",
        name="GENERator eukaryote 1.2B",
        family="llama-causal",
        config=_generator_1_2b(),
        published_parameters=1.2e9,
        checkpoint="GenerTeam/GENERator-eukaryote-1.2b-base",
        max_tokens=16384,
        tokenisation=(
            "non-overlapping 6-mers after a BOS token (vocabulary 4128: 32 specials and "
            "4096 six-mers), a causal language model"
        ),
        attention_modules=("q_proj", "k_proj", "v_proj"),
        notes=(
            "Its configuration's model_type is llama; the hub's model class "
            "GENERatorForCausalLM is remote code not read here. Built as transformers' "
            "LlamaForCausalLM (grouped-query attention, rotary positions, SwiGLU "
            "feed-forward, RMSNorm); the masked-LM loss of the encoders is its next-token "
            "loss here.",
            "16,384 positions: curves are measured to 16,384 tokens (about 98 kb).",
            RESTATED_NOTE,
        ),
        config_source=GENERATOR_SOURCE,
        nucleotides_per_token=6.0,
        nucleotides_exact=True,
    ),
)

TINY: tuple[Architecture, ...] = (
    Architecture(
        key="tiny-mixtral",
        name="tiny Mixtral (tests)",
        family="mixtral-causal",
        config={
            **_mistral_dna_1m(),
            "hidden_size": 32,
            "intermediate_size": 32,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 4,
            "head_dim": 8,
            "num_local_experts": 2,
            "vocab_size": 1000,
        },
        published_parameters=0.0,
        checkpoint="none (test configuration)",
        max_tokens=256,
        tokenisation="BPE (tests)",
        attention_modules=("q_proj", "k_proj", "v_proj"),
    ),
    Architecture(
        key="tiny-llama",
        name="tiny Llama (tests)",
        family="llama-causal",
        config={
            **_generator_1_2b(),
            "hidden_size": 32,
            "intermediate_size": 64,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "max_position_embeddings": 1024,
        },
        published_parameters=0.0,
        checkpoint="none (test configuration)",
        max_tokens=1024,
        tokenisation="6-mers after a BOS token (tests)",
        attention_modules=("q_proj", "k_proj", "v_proj"),
        nucleotides_per_token=6.0,
        nucleotides_exact=True,
    ),
)
