"""Derived facts: pure functions over a linked `Catalogue`, returning frozen dataclasses.

No I/O, no HTML: templates display these values as they are. Compute flags once per
build (`flags_by_evaluation`) and pass them to the table and row functions.

Tables (`tables.py`)
    comparison_table(protocol, catalogue, sort_by=None, *, dataset_id=None, flags=None,
        evaluations=None) -> ComparisonTable(columns: TableColumn..., rows: TableRow(cells:
        Cell...)..., sort_text, counts_text, short_counts_text, ...)
    evaluation_rows(evaluations, catalogue, *, flags=None) -> tuple[EvaluationRow, ...]
        ("Exact evaluated configurations and original reported results")
Readiness (`readiness.py`)
    readiness(evaluation, catalogue, artifact_hashes) -> Readiness(checks: Check(
        requirements: Requirement...)..., met_count, summary, artifacts, artifact_note)
    `artifact_hashes`: artifact path -> SHA-256 the builder computed (None: no file);
    `release.hash_artifacts(catalogue, root)` makes it.
Concerns (`concerns.py`)
    flags(evaluation, catalogue) -> tuple[Flag, ...]; flags_by_evaluation(catalogue)
    -> dict[evaluation id, tuple[Flag, ...]]; excluded(flags, column_id) -> bool
Evidence (`evidence.py`)
    evidence_table(record, catalogue) -> EvidenceTable(rows: EvidenceRow..., count_text)
    sources_of(record, catalogue) -> SourceList(sources: SourceEntry..., count_text)
Display helpers (`display.py`)
    display_number(value) -> str (3 significant digits: 33.88 -> '33.9'), plural(n, word),
    ORIGIN_LABELS, ORIGIN_COUNT_LABELS, missing_text(record, path) -> MissingText,
    cite(citation, catalogue) -> CitationView, kind_of(record) -> str
Agreement (`agreement.py`)
    agreement(measured, published, tolerance) -> Agreement
"""

from __future__ import annotations

from .agreement import Agreement, agreement
from .concerns import Flag, accelerators, excluded, flags, flags_by_evaluation
from .display import (
    NOT_REPORTED,
    ORIGIN_COUNT_LABELS,
    ORIGIN_LABELS,
    CitationView,
    MissingText,
    cite,
    display_number,
    kind_of,
    missing_text,
    plural,
    review_label,
)
from .evidence import (
    EvidenceRow,
    EvidenceTable,
    SourceEntry,
    SourceList,
    evidence_table,
    sources_of,
)
from .readiness import (
    READINESS_NOTE,
    ArtifactStatus,
    Check,
    Readiness,
    Requirement,
    is_resource_metric,
    readiness,
)
from .tables import (
    Cell,
    ComparisonTable,
    EvaluationRow,
    TableColumn,
    TableRow,
    comparison_table,
    evaluation_rows,
)

__all__ = [
    "NOT_REPORTED",
    "ORIGIN_COUNT_LABELS",
    "ORIGIN_LABELS",
    "READINESS_NOTE",
    "Agreement",
    "ArtifactStatus",
    "Cell",
    "Check",
    "CitationView",
    "ComparisonTable",
    "EvaluationRow",
    "EvidenceRow",
    "EvidenceTable",
    "Flag",
    "MissingText",
    "Readiness",
    "Requirement",
    "SourceEntry",
    "SourceList",
    "TableColumn",
    "TableRow",
    "accelerators",
    "agreement",
    "cite",
    "comparison_table",
    "display_number",
    "evaluation_rows",
    "evidence_table",
    "excluded",
    "flags",
    "flags_by_evaluation",
    "is_resource_metric",
    "kind_of",
    "missing_text",
    "plural",
    "readiness",
    "review_label",
    "sources_of",
]
