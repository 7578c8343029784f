"""Task families as readers see them named (`derive.task_families` keys), and in the
order a page lists them."""

from __future__ import annotations

from collections.abc import Iterable

from ...derive.task_families import OTHER, SUITE, TaskFamily

TASK_FAMILY_LABELS: dict[str, str] = {
    "promoters": "Promoters",
    "enhancers": "Enhancers",
    "splice_sites": "Splice sites",
    "histone_marks": "Histone marks",
    "dna_methylation": "DNA methylation",
    "chromatin_accessibility": "Chromatin accessibility",
    "transcription_factors": "Transcription factor binding",
    "regulatory_activity": "Regulatory activity (MPRA)",
    "regulatory_elements": "Regulatory elements",
    "variant_effect": "Variant effect",
    "genome_annotation": "Genome annotation",
    "species_origin": "Coding and species origin",
    SUITE: "Benchmark suites",
    OTHER: "Other tasks",
}
"""The name of each task family key."""


def by_results(families: Iterable[TaskFamily]) -> tuple[TaskFamily, ...]:
    """Most results first, then by name; suites and other tasks last."""
    last = (SUITE, OTHER)
    return tuple(
        sorted(
            families,
            key=lambda f: (f.key in last, f.key == OTHER, -f.results, TASK_FAMILY_LABELS[f.key]),
        )
    )
