"""Shapes of the Nucleotide Transformer benchmark tasks, for synthetic run-time data.

Lengths, class counts and training-set sizes are leads gathered from public copies of
the benchmark's data cards and third-party tables (`shared/research/nt-benchmark.md`),
not read from the paper; the records say so. The revised set (Nature Methods) lengthened
enhancers to 400 bp and splice sites to 600 bp; its histone-mark lengths are unconfirmed,
so the original 500 bp is kept for them.
"""

from __future__ import annotations

from dataclasses import dataclass

SHAPES_SOURCE = (
    "Task lengths, class counts and training-set sizes are leads from public copies of the "
    "NT benchmark's data cards and third-party tables (secondary sources), not read from "
    "Dalla-Torre et al.; histone-mark lengths in the revised set are unconfirmed."
)


@dataclass(frozen=True)
class TaskShape:
    """One benchmark task as far as run time is concerned."""

    name: str
    length_bp: int
    classes: int
    train_size: int
    task_set: str  # "original" or "revised"


TASKS: dict[str, TaskShape] = {
    t.name: t
    for t in (
        TaskShape("promoter_all", 300, 2, 53_276, "original"),
        TaskShape("promoter_tata", 300, 2, 5_509, "original"),
        TaskShape("promoter_no_tata", 300, 2, 47_767, "original"),
        TaskShape("enhancers", 200, 2, 14_968, "original"),
        TaskShape("enhancers_types", 200, 3, 14_968, "original"),
        TaskShape("splice_sites_all", 400, 3, 27_000, "original"),
        TaskShape("splice_sites_acceptors", 600, 2, 19_961, "original"),
        TaskShape("splice_sites_donors", 600, 2, 19_775, "original"),
        TaskShape("H3", 500, 2, 13_468, "original"),
        TaskShape("H4", 500, 2, 13_140, "original"),
        TaskShape("H3K9ac", 500, 2, 25_003, "original"),
        TaskShape("H3K14ac", 500, 2, 29_743, "original"),
        TaskShape("H4ac", 500, 2, 30_685, "original"),
        TaskShape("H3K4me1", 500, 2, 28_509, "original"),
        TaskShape("H3K4me2", 500, 2, 27_614, "original"),
        TaskShape("H3K4me3", 500, 2, 33_119, "original"),
        TaskShape("H3K36me3", 500, 2, 31_392, "original"),
        TaskShape("H3K79me3", 500, 2, 25_953, "original"),
        TaskShape("enhancers_revised", 400, 2, 14_968, "revised"),
        TaskShape("enhancers_types_revised", 400, 3, 14_968, "revised"),
        TaskShape("splice_sites_all_revised", 600, 3, 27_000, "revised"),
    )
}

DEFAULT_TASK = "splice_sites_all_revised"
"""The longest task shape of the revised set (600 bp, 101 tokens, 3 classes): a run on it
bounds the per-run time of the shorter tasks from above."""


def task(name: str) -> TaskShape:
    """The task shape called `name`; a clear error lists the known names."""
    try:
        return TASKS[name]
    except KeyError:
        known = ", ".join(sorted(TASKS))
        raise ValueError(f"unknown NT benchmark task {name!r}; known: {known}") from None
