"""Which of Feng et al.'s datasets are Genomic Benchmarks datasets under another name: the
`same_task` and `related` fields the Feng importer writes into its dataset records.

A dataset is the same task as another (`same_task`, merged into one task page) only with
evidence of the same files and the same split, as both sources state them. Where the names
match but the files read do not show the same split (or the same files), the link is
`related`: shown, never merged. Feng et al.'s README (line 18) says they kept each
dataset's original training and test split where there was one; the sizes below are
Feng et al.'s summary table (results_final/summary_table.csv at the pinned commit) and the
Genomic Benchmarks READMEs at commit 605d8539 (artifacts/sources/genomic-benchmarks/).
"""

from __future__ import annotations

from typing import Any

GB = "genomic-benchmarks-dataset-"

SAME_TASK: dict[str, tuple[str, str, str]] = {
    "human_worm": (
        f"{GB}demo-human-or-worm",
        "Feng et al.'s summary table: 100,000 sequences (75000 + 25000) of length 200; the "
        "Genomic Benchmarks README of demo_human_or_worm: 100 000 sequences (50 000 human, "
        "50 000 C. elegans), 200bp long.",
        "Feng et al.: 75000 training and 25000 test sequences, the original split kept "
        "where there was one; Genomic Benchmarks: 75% used for training, 25% for testing "
        "(75,000 and 25,000).",
    ),
    "coding": (
        f"{GB}demo-coding-vs-intergenomic-seqs",
        "Feng et al.'s summary table: 100,000 sequences (75000 + 25000) of length 200; the "
        "Genomic Benchmarks README of demo_coding_vs_intergenomic_seqs: 50,000 intergenomic "
        "and 50,000 transcript sequences, 200bp long.",
        "Feng et al.: 75000 training and 25000 test sequences, the original split kept "
        "where there was one; Genomic Benchmarks: 75% used for training, 25% for testing "
        "(75,000 and 25,000).",
    ),
    "nontata_promoter": (
        f"{GB}human-nontata-promoters",
        "Feng et al.'s summary table: 36,131 sequences (27097 + 9034) of length 251; the "
        'Genomic Benchmarks README on human_nontata_promoters: "All lenghts of genomic '
        'intervals equals 251. Totally 36131 sequences have been found".',
        "Both state 27097 training and 9034 test sequences (Feng et al.'s summary table; "
        "the Genomic Benchmarks README).",
    ),
}
"""Feng et al.'s dataset name -> (Genomic Benchmarks dataset id, files evidence, split
evidence)."""

RELATED: dict[str, tuple[str, str]] = {
    "enhancer_cohn": (
        f"{GB}human-enhancers-cohn",
        "The same name and the same number of sequences, 27,791 in all (Feng et al.: 20843 "
        "training and 6948 test; Genomic Benchmarks: 13895 enhancers and 13896 negative "
        "controls), but the Genomic Benchmarks files read do not state its training and test "
        "split, so the same split is not shown: kept apart.",
    ),
    "enhancer_ensembl": (
        f"{GB}human-enhancers-ensembl",
        "The same name only: the Genomic Benchmarks files read state neither the size nor the "
        "split, so the same files and split are not shown: kept apart.",
    ),
    "regulatory": (
        f"{GB}human-ensembl-regulatory",
        "The same name only: Feng et al. state 150000 training and 57713 test sequences; the "
        "Genomic Benchmarks files read state neither the size nor the split, so the same "
        "files and split are not shown: kept apart.",
    ),
    "ocr": (
        f"{GB}human-ocr-ensembl",
        "The same name only: the Genomic Benchmarks files read state neither the size nor the "
        "split, so the same files and split are not shown: kept apart.",
    ),
}
"""Feng et al.'s dataset name -> (Genomic Benchmarks dataset id, note)."""


def task_fields(name: str) -> dict[str, Any]:
    """The `same_task` and `related` fields of Feng et al.'s dataset `name` (empty for a
    dataset with neither)."""
    fields: dict[str, Any] = {}
    if name in SAME_TASK:
        dataset, files, split = SAME_TASK[name]
        fields["same_task"] = [{"dataset": dataset, "files": files, "split": split}]
    if name in RELATED:
        dataset, note = RELATED[name]
        fields["related"] = [{"dataset": dataset, "note": note}]
    return fields
