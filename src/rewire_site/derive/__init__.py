"""Derived facts: pure functions over a linked `Catalogue`, returning frozen dataclasses.

No I/O, no HTML: templates display these values as they are. Compute flags once per
build (`flags_by_evaluation`) and pass them to the table and row functions.

Tables (`tables.py`)
    comparison_table(protocol, catalogue, sort_by=None, *, dataset_id=None, flags=None,
        evaluations=None) -> ComparisonTable(columns: TableColumn..., rows: TableRow(cells:
        Cell...)..., sort_text, counts_text, short_counts_text, ...)
    resort(table, sort_by) -> ComparisonTable (same cells, sorted by another column: use it
        for the pre-rendered sorted pages instead of recomputing the table)
    evaluation_rows(evaluations, catalogue, *, flags=None) -> tuple[EvaluationRow, ...]
        ("Exact evaluated configurations and original reported results")
Readiness (`readiness.py`)
    readiness(evaluation, catalogue, artifact_hashes) -> Readiness(checks: Check(
        requirements: Requirement...)..., met_count, summary, artifacts, artifact_note)
    `artifact_hashes`: artifact path -> SHA-256 the builder computed (None: no file);
    `release.hash_artifacts(catalogue, root)` makes it. is_resource_metric(protocol) ->
    bool (memory, time, throughput: no per-sample predictions).
Concerns (`concerns.py`)
    flags(evaluation, catalogue) -> tuple[Flag, ...]; flags_by_evaluation(catalogue)
    -> dict[evaluation id, tuple[Flag, ...]]; excluded(flags, column_id) -> bool;
    accelerators(text) -> frozenset[str] ('NVIDIA H100 94GB' -> {'H100'})
Evidence (`evidence.py`)
    evidence_table(record, catalogue) -> EvidenceTable(rows: EvidenceRow..., count_text)
    sources_of(record, catalogue) -> SourceList(sources: SourceEntry..., count_text)
Display helpers (`display.py`)
    display_number(value) -> str (3 significant digits: 33.88 -> '33.9'), plural(n, word),
    ORIGIN_LABELS, ORIGIN_COUNT_LABELS, missing_text(record, path) -> MissingText,
    cite(citation, catalogue) -> CitationView, kind_of(record) -> str,
    review_label(record) -> 'source checked' | 'not reviewed' | 'disputed'
Evidence rows: EvidenceRow(record_id, property_label, statement, field_path, missing,
    cited: CitedSource, review_status, record_review, origin, shared_locator); the cited
    source's fields read through the row too (row.source_title, row.locator, row.sha256,
    row.hash_scope, row.retrieved_at, row.scope_label, ...).
Agreement (`agreement.py`)
    agreement(measured, published, tolerance) -> Agreement(state: agrees | disagrees |
        no_tolerance | not_comparable, ratio, ratio_display, tolerance, text)
Reproduction (`reproduction.py`)
    reproduction(measured_evaluation, catalogue) -> Reproduction | None (pairs:
        ReproductionPair(published_*, measured_*, agreement, estimates)..., summary,
        chart: Chart(ticks: ChartTick..., groups: ChartGroup(bars: ChartBar...)...) | None)
    reproductions_of(published_evaluation, catalogue) -> tuple[Reproduction, ...]
    protocol_reproductions(protocol, catalogue) -> tuple[Reproduction, ...]
Reproductions by published evaluation (`reproduction_groups.py`)
    protocol_reproduction_groups(protocol, catalogue, flags=None) -> tuple[ReproductionGroup,
        ...] (one per published evaluation: columns: ReproducedColumn(published_*, rows:
        ReproductionRow(setup, pair, excluded, distance)... closest first, closest_text,
        estimates)..., summary, chart); evaluation_reproductions(evaluation, catalogue)
Coverage (`coverage.py`)
    catalogue_counts(catalogue) -> CatalogueCounts; protocols_by_area(catalogue) ->
    tuple[AreaGroup, ...]; newest_records(catalogue, limit=10) -> tuple[NewestRecord, ...];
    reproduction_sites(catalogue) -> tuple[ReproductionSite, ...];
    baseline_coverage(protocol, catalogue) -> BaselineCoverage(roles: BaselineRoleView...,
        summary, origin_counts, recipe_text); protocol_coverage(catalogue, flags=None) ->
        tuple[ProtocolCoverage, ...] (the protocol coverage CSV rows)
Filters (`filters.py`)
    filter_index(catalogue) -> FilterIndex(index: facet -> evaluation id -> tokens,
        labels: facet -> token -> label; .options(key, ids), .matching(selection, ids));
    FACETS (key, label) in form order
Related (`related.py`)
    related(record, catalogue) -> tuple[Related(relation, record_id, kind, title,
        direction), ...]
"""

from __future__ import annotations

from .agreement import Agreement, agreement
from .concerns import Flag, accelerators, excluded, flags, flags_by_evaluation
from .coverage import (
    AreaGroup,
    BaselineCoverage,
    BaselineRoleView,
    CatalogueCounts,
    NewestRecord,
    ProtocolCoverage,
    ReproductionSite,
    baseline_coverage,
    catalogue_counts,
    newest_records,
    protocol_coverage,
    protocols_by_area,
    reproduction_sites,
)
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
    CitedSource,
    EvidenceRow,
    EvidenceTable,
    SourceEntry,
    SourceList,
    evidence_table,
    sources_of,
)
from .filters import FACETS, FacetOption, FilterIndex, filter_index
from .readiness import (
    READINESS_NOTE,
    ArtifactStatus,
    Check,
    Readiness,
    Requirement,
    is_resource_metric,
    readiness,
)
from .related import Related, related
from .reproduction import (
    Chart,
    ChartBar,
    ChartGroup,
    ChartTick,
    Reproduction,
    ReproductionPair,
    protocol_reproductions,
    reproduction,
    reproductions_of,
)
from .tables import (
    Cell,
    ComparisonTable,
    EvaluationRow,
    TableColumn,
    TableRow,
    comparison_table,
    evaluation_rows,
    resort,
)

__all__ = [
    "FACETS",
    "NOT_REPORTED",
    "ORIGIN_COUNT_LABELS",
    "ORIGIN_LABELS",
    "READINESS_NOTE",
    "Agreement",
    "AreaGroup",
    "ArtifactStatus",
    "BaselineCoverage",
    "BaselineRoleView",
    "CatalogueCounts",
    "Cell",
    "Chart",
    "ChartBar",
    "ChartGroup",
    "ChartTick",
    "Check",
    "CitationView",
    "CitedSource",
    "ComparisonTable",
    "EvaluationRow",
    "EvidenceRow",
    "EvidenceTable",
    "FacetOption",
    "FilterIndex",
    "Flag",
    "MissingText",
    "NewestRecord",
    "ProtocolCoverage",
    "Readiness",
    "Related",
    "Reproduction",
    "ReproductionPair",
    "ReproductionSite",
    "Requirement",
    "SourceEntry",
    "SourceList",
    "TableColumn",
    "TableRow",
    "accelerators",
    "agreement",
    "baseline_coverage",
    "catalogue_counts",
    "cite",
    "comparison_table",
    "display_number",
    "evaluation_rows",
    "evidence_table",
    "excluded",
    "filter_index",
    "flags",
    "flags_by_evaluation",
    "is_resource_metric",
    "kind_of",
    "missing_text",
    "newest_records",
    "plural",
    "protocol_coverage",
    "protocol_reproductions",
    "protocols_by_area",
    "readiness",
    "related",
    "reproduction",
    "reproduction_sites",
    "reproductions_of",
    "resort",
    "review_label",
    "sources_of",
]
