"""Architectures of the models Rewire measures, built with random weights (no hub access).

Configurations are transcribed from the checkpoints' `config.json` as reported by public
copies (see `shared/research/gpu-facts.md`); random weights are valid for memory and time.
torch and transformers are imported inside the functions that need them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import torch


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


DNABERT_S_SOURCE = (
    "MAGICS-LAB/DNABERT_S at ac01b55e5034182e4b915d34ce5a3a323b82adb8, "
    "evaluate/model_codes/config.json (SHA-256 "
    "d54c142114563aa34ef7c2b54ccc921d08e50cd7c3cd69c439d5e0d2bbcfcdee): hidden 768, 12 layers, "
    "12 heads, feed-forward 3072, vocabulary 4096, ALiBi starting size 512 (DNABERT-2's dimensions)"
)
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

DNABERT_6_SOURCE = (
    "jerryji1993/DNABERT at b6da04ec9a7d4e53efe5b33a6ce1a21c0e7ac413, "
    "src/transformers/dnabert-config/bert-config-6/config.json (SHA-256 "
    "7f4cc985df92902163131f7317784848382a3a7d0c73b9a7ac7e49b4b57e90a8): BertForMaskedLM, "
    "hidden 768, 12 layers, 12 heads, feed-forward 3072, vocabulary 4101, 512 positions"
)
NT_V2_100M_SOURCE = (
    "terry-r123/Cross-MolecularBenchmark at ce0ae52c4a0763b73e39acc3202be7069df9a5d9, "
    "model/ProtDNA/nt/nt_v2_100m_multi/config.json (SHA-256 "
    "a54704a53cb02ddaf71da37ba930f188e55d974a5efe107e551546faee8b79ac; a vendored copy of "
    "InstaDeepAI/nucleotide-transformer-v2-100m-multi-species' config.json): ESM, hidden 512, "
    "22 layers, 16 heads, feed-forward 2048 (gated), rotary positions, 2050 positions, "
    "vocabulary 4107, add_bias_fnn false"
)
CADUCEUS_SOURCE = (
    "kuleshov-group/caduceus at 0060a6d8079b6a040fc55d505e15972a327b70a6: "
    "configs/model/caduceus.yaml (SHA-256 "
    "da023e6d69168f1e0d9f3ab77d41befa0929fe3549ec606a3aeafd927b27e0c4; Mamba settings: d_state "
    "16, d_conv 4, expand 2, dt_rank auto, RMSNorm, vocabulary 12 padded to a multiple of 8, "
    "bidirectional add, projections tied) and README.md (SHA-256 "
    "e508e5199d0cfb9c36dbd503cdccf50d734f419fa8cf1f890dec0db7e741ad42; Caduceus-PS 131k: "
    '"a model size of 256 and 16 layers", RCPS)'
)
HYENADNA_SOURCE = (
    "HazyResearch/hyena-dna at d553021b483b82980aa4b868b37ec2d4332e198a, huggingface.py: "
    '"the 1M long sequence model (8 layers, d_model=256)"; the other dimensions are the '
    "defaults of standalone_hyenadna.py at the same commit (measure/hyenadna/model.py)"
)
NT_V2_500M_SOURCE = (
    "open-genome/dna at 7d89354848eac176f0ea1e92f8718e629381a1d6, "
    "nucleotide-transformer-v2-500m-multi-species/config.json (SHA-256 "
    "27e19a9e3fbba65b933bde793b503734744b5c6e376c74dcd1cb7317876efab8; a vendored copy of "
    "InstaDeepAI/nucleotide-transformer-v2-500m-multi-species' config.json): ESM, hidden 1024, "
    "29 layers, 16 heads, feed-forward 4096 (gated), rotary positions, 2050 positions, "
    "vocabulary 4107, add_bias_fnn false"
)
HYENADNA_160K_SOURCE = (
    "LongSafari/hyenadna-medium-160k-seqlen's hub config.json as publicly reported (not "
    "retrieved: d_model 256, 8 layers, as measure/hyenadna/recipe.yaml); the maximum length "
    "160,000 from HazyResearch/hyena-dna huggingface.py at "
    "d553021b483b82980aa4b868b37ec2d4332e198a ('hyenadna-medium-160k-seqlen': 160000)"
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
RESTATED_NOTE = (
    "The hub's config.json could not be read from these machines: its keys come from a "
    "restatement of it at a pinned commit of another repository (tcztzy/evo.cpp at c281681), "
    "which gives the hub file's SHA-256."
)
CHAR_TOKENS = "one token per nucleotide (character tokeniser: A, C, G, T, N and specials)"
REFERENCE_SCAN_NOTE = (
    "Reference PyTorch scan, not the fused kernel: memory and time are upper bounds for the "
    "kernel (mamba-ssm's CUDA kernels are not installed on the GPU machine; measure/caduceus.py)."
)


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

ARCHITECTURES: dict[str, Architecture] = {
    a.key: a
    for a in (
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
            key="hyenadna-large-1m",
            name="HyenaDNA large 1M",
            family="hyena-lm",
            config={"d_model": 256, "n_layer": 8, "l_max": 1_000_002, "vocab_size": 12},
            published_parameters=6.6e6,
            checkpoint="LongSafari/hyenadna-large-1m-seqlen-hf",
            max_tokens=1_000_000,
            tokenisation=CHAR_TOKENS,
            attention_modules=("in_proj", "out_proj"),
            notes=(
                "Built by measure/hyenadna/model.py (a typed transcription of "
                "standalone_hyenadna.py), with the language-model head tied to the embeddings; "
                "the long convolution runs through torch.fft in float32.",
            ),
            config_source=HYENADNA_SOURCE,
            nucleotides_per_token=1.0,
            nucleotides_exact=True,
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
        Architecture(
            key="hyenadna-medium-160k",
            name="HyenaDNA medium 160k",
            family="hyena-lm",
            config={"d_model": 256, "n_layer": 8, "l_max": 160_002, "vocab_size": 12},
            published_parameters=6.6e6,
            checkpoint="LongSafari/hyenadna-medium-160k-seqlen-hf",
            max_tokens=160_000,
            tokenisation=CHAR_TOKENS,
            attention_modules=("in_proj", "out_proj"),
            notes=(
                "Built by measure/hyenadna/model.py as HyenaDNA large 1M, with l_max 160,002; "
                "the checkpoint Feng et al. ran (job_scripts/inference_hyena.py).",
            ),
            config_source=HYENADNA_160K_SOURCE,
            nucleotides_per_token=1.0,
            nucleotides_exact=True,
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
        Architecture(
            key="caduceus-ps-131k",
            name="Caduceus-PS 131k",
            family="caduceus",
            config={"d_model": 256, "n_layer": 16, "vocab_size": 16, "d_state": 16},
            published_parameters=8e6,  # DNALLM-Mark prints 8M (LingoDNABench 1.9M)
            checkpoint="kuleshov-group/caduceus-ps_seqlen-131k_d_model-256_n_layer-16",
            max_tokens=131_072,
            tokenisation=CHAR_TOKENS,
            attention_modules=("in_proj", "out_proj"),
            notes=(
                "Built by measure/caduceus.py: bidirectional Mamba blocks with "
                "reverse-complement parameter sharing, masked-LM head tied to the embeddings.",
                REFERENCE_SCAN_NOTE,
            ),
            config_source=CADUCEUS_SOURCE,
            nucleotides_per_token=1.0,
            nucleotides_exact=True,
        ),
    )
}

TINY: dict[str, Architecture] = {
    "tiny-esm": Architecture(
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
    "tiny-gena": Architecture(
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
    "tiny-dnabert-2": Architecture(
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
    "tiny-mixtral": Architecture(
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
    "tiny-bert": Architecture(
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
    "tiny-llama": Architecture(
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
    "tiny-ntv2": Architecture(
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
    "tiny-hyena": Architecture(
        key="tiny-hyena",
        name="tiny HyenaDNA (tests)",
        family="hyena-lm",
        config={"d_model": 32, "n_layer": 2, "l_max": 1026, "vocab_size": 12},
        published_parameters=0.0,
        checkpoint="none (test configuration)",
        max_tokens=1024,
        tokenisation=CHAR_TOKENS,
        attention_modules=("in_proj", "out_proj"),
        nucleotides_per_token=1.0,
        nucleotides_exact=True,
    ),
    "tiny-caduceus": Architecture(
        key="tiny-caduceus",
        name="tiny Caduceus (tests)",
        family="caduceus",
        config={"d_model": 32, "n_layer": 2, "vocab_size": 16, "d_state": 16},
        published_parameters=0.0,
        checkpoint="none (test configuration)",
        max_tokens=2048,
        tokenisation=CHAR_TOKENS,
        attention_modules=("in_proj", "out_proj"),
        nucleotides_per_token=1.0,
        nucleotides_exact=True,
    ),
}


CAUSAL_FAMILIES = ("mixtral-causal", "llama-causal")
"""Transformer decoders built as transformers' causal language models (Mistral-DNA,
GENERator): next-token loss, BOS then body tokens."""


def get_architecture(key: str) -> Architecture:
    """The architecture with this key (tiny test architectures included)."""
    found = ARCHITECTURES.get(key) or TINY.get(key)
    if found is None:
        known = ", ".join(sorted(ARCHITECTURES))
        raise KeyError(f"unknown model {key!r}; known: {known}")
    return found


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
