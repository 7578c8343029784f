"""Model families the imported sources evaluate, shared by every importer.

A family is one record however many sources report on it, so that a family's page gathers
every source's results. Nucleotide Transformer, DNABERT-2 and HyenaDNA already have
editors' records (constants below); the importers point to them. The
families here carry only what the importers know: name, developers and the paper each
source's README cites for it; architecture and tokenisation are left to an editor, with
the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .core import Record, missing
from .records import ADDED, AREAS, CONTEXTS

NUCLEOTIDE_TRANSFORMER = "gfm-guide-20261014-family-nucleotide-transformer"
DNABERT_2 = "evidence-20261130-family-dnabert-2"
HYENADNA = "evidence-20261130-family-hyenadna"
"""Families that already have an editor's record (with model facts): the importers point
to them instead of writing their own."""


@dataclass(frozen=True)
class Family:
    id: str
    name: str
    developers: tuple[str, ...]
    summary: str
    reference: str
    """The paper as the citing README or script names it."""
    checkpoints: tuple[Record, ...] = field(default=())
    """Checkpoints another source pins, with that source's label (e.g. DNALLM-Mark's)."""


FAMILIES: dict[str, Family] = {
    f.id: f
    for f in (
        Family(
            "catalogue-family-gpn",
            "GPN (Genomic Pre-trained Network)",
            ("Benegas et al.",),
            "GPN (Genomic Pre-trained Network), a DNA language model by Benegas et al.",
            "Benegas, G. et al. DNA language models are powerful predictors of genome-wide "
            "variant effects (PNAS 2023).",
            (
                {
                    "name": "songlab/gpn-brassicales",
                    "parameters": "66M",
                    "url": "https://huggingface.co/songlab/gpn-brassicales",
                    "note": (
                        "As DNALLM-Mark prints it for `gpn-brassicales` (its performance "
                        "file's info block): 66M parameters, context 512 bp, tokeniser "
                        "singlebase, architecture ConvNet. The hub revision is not stated."
                    ),
                    "labels": [{"scope": "dnallm-mark", "label": "gpn-brassicales"}],
                },
            ),
        ),
        Family(
            "catalogue-family-random-bert",
            "Randomly initialised BERT (control)",
            ("Tang et al.",),
            "A BERT model with random, untrained weights: a control that shows what a "
            "language model's representations add over its architecture alone.",
            "Tang, Z. et al. Evaluating the representational power of pre-trained DNA "
            "language models for regulatory genomics (bioRxiv 2024.02.29.582810).",
        ),
        Family(
            "catalogue-family-sei",
            "Sei",
            ("Chen et al.",),
            "Sei, a supervised sequence model by Chen et al.; in the imported tables a "
            "baseline, not a language model.",
            "Chen, K. M. et al. A sequence-based global map of regulatory activity for "
            "deciphering human genetics (Nature Genetics 2022).",
        ),
        Family(
            "catalogue-family-one-hot-cnn",
            "Supervised CNNs on one-hot DNA (baselines)",
            ("Tang et al.", "Agarwal et al.", "Grešová et al."),
            "Convolutional networks trained from scratch on one-hot encoded DNA for each "
            "task: the conventional reference a DNA language model should beat.",
            "Task-specific baselines of each source (MPRAnn of Agarwal et al. 2023; the "
            "ResNet and representation CNN of Tang et al.; the Genomic Benchmarks CNNs).",
        ),
    )
}


def family_record(family: Family) -> Record:
    recorded = (
        "recorded, with the checkpoints another importing source pins; model facts are"
        if family.checkpoints
        else "recorded; checkpoints and model facts are"
    )
    record: Record = {
        "id": family.id,
        "kind": "model_family",
        "title": family.name,
        "summary": family.summary,
        "limitations": [
            "Imported family: only its name, developers and the paper the importing "
            f"sources name ({family.reference}) are {recorded} not yet recorded."
        ],
        "areas": AREAS,
        "contexts": CONTEXTS,
        "name": family.name,
        "developers": list(family.developers),
        "architecture": None,
        "tokenisation": None,
        "added": ADDED,
        "missing_metadata": {
            "architecture": missing(
                "unknown",
                f"Not transcribed by the importer; the family's paper states it: "
                f"{family.reference}",
            ),
            "tokenisation": missing(
                "unknown",
                f"Not transcribed by the importer; the family's paper states it: "
                f"{family.reference}",
            ),
        },
    }
    if family.checkpoints:
        record["checkpoints"] = [dict(c) for c in family.checkpoints]
    return record


def family_records(ids: set[str]) -> list[Record]:
    return [family_record(FAMILIES[i]) for i in sorted(ids) if i in FAMILIES]
