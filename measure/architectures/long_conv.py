"""Long-convolution and state-space architectures with their own modules: HyenaDNA
(measure/hyenadna/model.py) and Caduceus (measure/caduceus.py).
"""

from __future__ import annotations

from measure.architectures.spec import Architecture

CHAR_TOKENS = "one token per nucleotide (character tokeniser: A, C, G, T, N and specials)"

REFERENCE_SCAN_NOTE = (
    "Reference PyTorch scan, not the fused kernel: memory and time are upper bounds for the "
    "kernel (mamba-ssm's CUDA kernels are not installed on the GPU machine; measure/caduceus.py)."
)

HYENADNA_SOURCE = (
    "HazyResearch/hyena-dna at d553021b483b82980aa4b868b37ec2d4332e198a, huggingface.py: "
    '"the 1M long sequence model (8 layers, d_model=256)"; the other dimensions are the '
    "defaults of standalone_hyenadna.py at the same commit (measure/hyenadna/model.py)"
)

HYENADNA_160K_SOURCE = (
    "LongSafari/hyenadna-medium-160k-seqlen's hub config.json as publicly reported (not "
    "retrieved: d_model 256, 8 layers, as measure/hyenadna/recipe.yaml); the maximum length "
    "160,000 from HazyResearch/hyena-dna huggingface.py at "
    "d553021b483b82980aa4b868b37ec2d4332e198a ('hyenadna-medium-160k-seqlen': 160000)"
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


MODELS: tuple[Architecture, ...] = (
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

TINY: tuple[Architecture, ...] = (
    Architecture(
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
    Architecture(
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
)
