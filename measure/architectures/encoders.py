"""BERT-style encoder architectures: BERT (DNABERT 6-mer, GROVER), pre-layer-norm BERT
(GENA-LM) and MosaicBERT with ALiBi (DNABERT-2, DNABERT-S; measure/dnabert2.py).
"""

from __future__ import annotations

from typing import Any

from measure.architectures.spec import RESTATED_NOTE, Architecture


def _gena(hidden: int, layers: int, heads: int, ffn: int) -> dict[str, Any]:
    return {
        "vocab_size": 32000,
        "hidden_size": hidden,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "intermediate_size": ffn,
        "max_position_embeddings": 512,
        "type_vocab_size": 2,
        "pad_token_id": 3,
        "layer_norm_eps": 1e-12,
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "tie_word_embeddings": True,
    }


def _dnabert2() -> dict[str, Any]:
    return {
        "vocab_size": 4096,
        "hidden_size": 768,
        "num_hidden_layers": 12,
        "num_attention_heads": 12,
        "intermediate_size": 3072,
        "max_position_embeddings": 512,
        "alibi_starting_size": 512,
        "position_embedding_type": "alibi",
        "type_vocab_size": 2,
        "pad_token_id": 3,
        "layer_norm_eps": 1e-12,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.0,
        "initializer_range": 0.02,
        "tie_word_embeddings": True,
    }


def _grover() -> dict[str, Any]:
    """GROVER's BertForMaskedLM, from the restated config.json (GROVER_SOURCE); the dropout
    rates are not restated: transformers' BertConfig defaults (0.1)."""
    return {
        "vocab_size": 609,
        "hidden_size": 768,
        "num_hidden_layers": 12,
        "num_attention_heads": 12,
        "intermediate_size": 3072,
        "max_position_embeddings": 512,
        "type_vocab_size": 2,
        "layer_norm_eps": 1e-12,
        "hidden_act": "gelu",
        "pad_token_id": 0,
        # not in the restatement: transformers' default, and the restating repository's
        # catalogue count (87,101,793 checkpoint parameters) is that of a tied decoder
        "tie_word_embeddings": True,
    }


DNABERT_S_SOURCE = (
    "MAGICS-LAB/DNABERT_S at ac01b55e5034182e4b915d34ce5a3a323b82adb8, "
    "evaluate/model_codes/config.json (SHA-256 "
    "d54c142114563aa34ef7c2b54ccc921d08e50cd7c3cd69c439d5e0d2bbcfcdee): hidden 768, 12 layers, "
    "12 heads, feed-forward 3072, vocabulary 4096, ALiBi starting size 512 (DNABERT-2's dimensions)"
)

DNABERT_6_SOURCE = (
    "jerryji1993/DNABERT at b6da04ec9a7d4e53efe5b33a6ce1a21c0e7ac413, "
    "src/transformers/dnabert-config/bert-config-6/config.json (SHA-256 "
    "7f4cc985df92902163131f7317784848382a3a7d0c73b9a7ac7e49b4b57e90a8): BertForMaskedLM, "
    "hidden 768, 12 layers, 12 heads, feed-forward 3072, vocabulary 4101, 512 positions"
)

GROVER_SOURCE = (
    "tcztzy/evo.cpp at c281681e27ea5ba29e4cd0e33b8972e4f2023c88, configs/geneb-bert-models.json "
    "(SHA-256 1a2c0992042014d979377b1447f084a8d4f8c3a2a9370ca768c68f8a9a2912b5), lines 290-303: "
    "a restatement of the config.json of PoetschLab/GROVER at hub revision "
    "6b223110f0d6963e849f55bc2a2f3cff0e38c7a4, whose SHA-256 it gives as "
    "de60db6f5cb476d9f38630517abec87803e32a87672ace7946b5cf82f68ac5de (the hub file itself "
    "not reachable from these machines): BertForMaskedLM, hidden 768, 12 layers, 12 heads, "
    "feed-forward 3072, vocabulary 609, 512 positions, GELU, pad id 0"
)

GENA_TOKENS = (
    "BPE, about 8.8 nucleotides per token (model card: 512 tokens ~ 4.5 kb), plus CLS and SEP"
)

GENA_NOTE = (
    "Built as transformers' RobertaPreLayerNorm (BERT with pre-layer-norm, as GENA-LM's own "
    "modelling code); position ids are passed from 0 as in BERT, so all 512 positions are usable."
)

DNABERT2_TOKENS = (
    "BPE over DNA (vocabulary 4096), about 4-5 nucleotides per token, plus CLS and SEP"
)

DNABERT2_NOTES = (
    "Built by measure/dnabert2.py, an independent implementation of the hub's bert_layers.py "
    "(MosaicBERT: ALiBi, GEGLU feed-forward, post-layer-norm, unpadded hidden states, masked-LM "
    "head on masked positions only); attention runs the hub code's PyTorch path (explicit "
    "softmax(QK^T/sqrt(d) + ALiBi)V), not its Triton kernel.",
    "ALiBi has no position table: the configuration's 512 is the starting size of the bias "
    "table, which grows with the input; curves are measured to 2048 tokens.",
)


MODELS: tuple[Architecture, ...] = (
    Architecture(
        key="gena-lm-110m",
        name="GENA-LM 110M",
        family="bert-prelayernorm",
        config=_gena(768, 12, 12, 3072),
        published_parameters=110e6,
        checkpoint="AIRI-Institute/gena-lm-bert-base-t2t",
        max_tokens=512,
        tokenisation=GENA_TOKENS,
        notes=(GENA_NOTE,),
        nucleotides_per_token=4500 / 512,
    ),
    Architecture(
        key="gena-lm-336m",
        name="GENA-LM 336M",
        family="bert-prelayernorm",
        config=_gena(1024, 24, 16, 4096),
        published_parameters=336e6,
        checkpoint="AIRI-Institute/gena-lm-bert-large-t2t",
        max_tokens=512,
        tokenisation=GENA_TOKENS,
        notes=(GENA_NOTE,),
        nucleotides_per_token=4500 / 512,
    ),
    Architecture(
        key="dnabert-2",
        name="DNABERT-2",
        family="mosaic-bert-alibi",
        config=_dnabert2(),
        published_parameters=117e6,
        checkpoint="zhihan1996/DNABERT-2-117M",
        max_tokens=2048,
        tokenisation=DNABERT2_TOKENS,
        attention_modules=("Wqkv",),
        notes=DNABERT2_NOTES,
    ),
    Architecture(
        key="dnabert-s",
        name="DNABERT-S",
        family="mosaic-bert-alibi",
        config=_dnabert2(),
        published_parameters=117e6,
        checkpoint="zhihan1996/DNABERT-S",
        max_tokens=2048,
        tokenisation=DNABERT2_TOKENS,
        attention_modules=("Wqkv",),
        notes=(
            "DNABERT-S is DNABERT-2 trained further with a contrastive objective; its "
            "config.json gives DNABERT-2's dimensions, so its memory and speed equal "
            "DNABERT-2's by construction (measured again, not copied).",
            *DNABERT2_NOTES,
        ),
        config_source=DNABERT_S_SOURCE,
    ),
    Architecture(
        key="dnabert-6",
        name="DNABERT (6-mer)",
        family="bert",
        config={
            "vocab_size": 4101,
            "hidden_size": 768,
            "num_hidden_layers": 12,
            "num_attention_heads": 12,
            "intermediate_size": 3072,
            "max_position_embeddings": 512,
            "type_vocab_size": 2,
            "hidden_act": "gelu",
            "hidden_dropout_prob": 0.1,
            "attention_probs_dropout_prob": 0.1,
            "initializer_range": 0.02,
            "pad_token_id": 0,
            "tie_word_embeddings": True,  # not in the file: transformers' default
        },
        # LingoDNABench prints 89M for the 3-mer sibling; no cited source states the
        # 6-mer's count (built: 89.2M)
        published_parameters=89e6,
        checkpoint="zhihan1996/DNA_bert_6",
        max_tokens=512,
        tokenisation=(
            "overlapping 6-mers (one token per base after the first five) between CLS and "
            "SEP: a sequence of L bases is L - 3 tokens"
        ),
        notes=("Built as transformers' BertForMaskedLM (post-layer-norm BERT).",),
        config_source=DNABERT_6_SOURCE,
    ),
    Architecture(
        key="grover",
        name="GROVER",
        family="bert",
        config=_grover(),
        # DNALLM-Mark prints 87 (M); the restating repository's catalogue counts
        # 87,101,793 checkpoint parameters (with the pooler, which BertForMaskedLM drops)
        published_parameters=87e6,
        checkpoint="PoetschLab/GROVER",
        max_tokens=512,
        tokenisation=(
            "BPE over DNA (vocabulary 609: 5 specials, the bases and merged pieces) "
            "between CLS and SEP"
        ),
        notes=(
            "Built as transformers' BertForMaskedLM (post-layer-norm BERT, absolute "
            "positions), the class its configuration names.",
            RESTATED_NOTE,
        ),
        config_source=GROVER_SOURCE,
    ),
)

TINY: tuple[Architecture, ...] = (
    Architecture(
        key="tiny-gena",
        name="tiny BERT pre-LN (tests)",
        family="bert-prelayernorm",
        config={
            **_gena(32, 2, 4, 64),
            "vocab_size": 1000,
            "hidden_dropout_prob": 0.0,
            "attention_probs_dropout_prob": 0.0,
        },
        published_parameters=0.0,
        checkpoint="none (test configuration)",
        max_tokens=512,
        tokenisation=GENA_TOKENS,
    ),
    Architecture(
        key="tiny-dnabert-2",
        name="tiny DNABERT-2 (tests)",
        family="mosaic-bert-alibi",
        config={
            **_dnabert2(),
            "hidden_size": 32,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "intermediate_size": 64,
            "alibi_starting_size": 64,
            "vocab_size": 1000,
        },
        published_parameters=0.0,
        checkpoint="none (test configuration)",
        max_tokens=256,
        tokenisation=DNABERT2_TOKENS,
        attention_modules=("Wqkv",),
    ),
    Architecture(
        key="tiny-bert",
        name="tiny BERT (tests)",
        family="bert",
        config={
            "vocab_size": 1000,
            "hidden_size": 32,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "intermediate_size": 64,
            "max_position_embeddings": 512,
            "type_vocab_size": 2,
            "hidden_dropout_prob": 0.0,
            "attention_probs_dropout_prob": 0.0,
        },
        published_parameters=0.0,
        checkpoint="none (test configuration)",
        max_tokens=512,
        tokenisation="overlapping 6-mers (tests)",
    ),
)
