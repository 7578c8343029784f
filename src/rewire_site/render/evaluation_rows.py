"""The rows of 'Exact evaluated configurations and original reported results': one
result of one evaluation each, with what a reader needs to judge it, in words."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..derive.concerns import Flag, excluded, flags_by_evaluation
from ..derive.tables import CellStatus, result_status
from ..link import Catalogue
from ..models import Dataset, Evaluation, Protocol, Result
from .present.citations import CitationView, cite
from .present.flags import FlagView, flag_view
from .present.labels import ORIGIN_LABELS
from .present.metrics import result_header
from .present.missing import missing_text
from .present.numbers import result_display
from .present.review import review_label

Flags = Mapping[str, tuple[Flag, ...]]


@dataclass(frozen=True)
class EvaluationRow:
    """One result of one evaluation, with what a reader needs to judge it."""

    evaluation_id: str
    evaluation_title: str
    configuration_id: str
    configuration_title: str
    protocol_id: str
    protocol_title: str
    dataset_id: str
    dataset_title: str
    column_id: str
    column_header: str
    status: CellStatus
    value: float | None
    display: str
    """Rounded for display, 'Out of memory' or 'Incomplete run'."""
    printed_value: str | None
    unit: str
    """The result's unit, or why it is missing ('Not reported')."""
    direction: str
    """'lower' or 'higher' (the result's, else the protocol's)."""
    uncertainty: str
    """As reported, or 'Not reported by the source' (or another missing reason)."""
    coverage: str
    """'12 scored / 18 eligible', or 'Not reported scored / Not reported eligible'."""
    aggregation: str
    """The evaluation's aggregation, or why it is missing."""
    origin: str
    origin_label: str
    review_label: str
    """Record review: 'Source checked', 'Not reviewed', 'Disputed'."""
    citation: CitationView | None
    flags: tuple[FlagView, ...]
    """Flags that concern this result."""
    excluded: bool
    note: str | None


def evaluation_rows(
    evaluations: Iterable[Evaluation],
    catalogue: Catalogue,
    *,
    flags: Flags | None = None,
) -> tuple[EvaluationRow, ...]:
    """Rows of the 'Exact evaluated configurations' table: evaluations sorted by id,
    results in protocol column order."""
    chosen = sorted(evaluations, key=lambda e: e.id)
    if flags is None:
        flags = flags_by_evaluation(catalogue, chosen)
    out: list[EvaluationRow] = []
    for evaluation in chosen:
        protocol = catalogue.get(evaluation.protocol, Protocol)
        order = {c.id: i for i, c in enumerate(protocol.columns)}
        found = flags.get(evaluation.id, ())
        dataset = catalogue.by_id.get(evaluation.dataset)
        indexed = sorted(enumerate(evaluation.results), key=lambda p: order.get(p[1].column, 0))
        for i, result in indexed:
            out.append(_evaluation_row(evaluation, i, result, protocol, found, dataset, catalogue))
    return tuple(out)


def _evaluation_row(
    evaluation: Evaluation,
    i: int,
    result: Result,
    protocol: Protocol,
    found: tuple[Flag, ...],
    dataset: object,
    catalogue: Catalogue,
) -> EvaluationRow:
    if result.coverage is not None:
        coverage = f"{result.coverage.scored} scored / {result.coverage.eligible} eligible"
    else:
        why = missing_text(evaluation, f"results.{i}.coverage").label
        coverage = f"{why} scored / {why} eligible"
    aggregation = evaluation.comparison.aggregation or (
        missing_text(evaluation, "comparison.aggregation").label
    )
    configuration = catalogue.by_id.get(evaluation.configuration)
    return EvaluationRow(
        evaluation_id=evaluation.id,
        evaluation_title=evaluation.title,
        configuration_id=evaluation.configuration,
        configuration_title=configuration.title if configuration else evaluation.configuration,
        protocol_id=protocol.id,
        protocol_title=protocol.title,
        dataset_id=evaluation.dataset,
        dataset_title=dataset.title if isinstance(dataset, Dataset) else evaluation.dataset,
        column_id=result.column,
        column_header=result_header(protocol, result.column),
        status=result_status(result),
        value=result.value,
        display=result_display(result.value, result.status),
        printed_value=result.printed_value,
        unit=result.unit or missing_text(evaluation, f"results.{i}.unit").label,
        direction=result.direction or protocol.column_metric(result.column).direction,
        uncertainty=result.uncertainty
        or missing_text(evaluation, f"results.{i}.uncertainty").long_label,
        coverage=coverage,
        aggregation=aggregation,
        origin=evaluation.origin.value,
        origin_label=ORIGIN_LABELS[evaluation.origin],
        review_label=review_label(evaluation).capitalize(),
        citation=cite(result.citation, catalogue) if result.citation else None,
        flags=tuple(flag_view(f, catalogue) for f in found if f.affects(result.column)),
        excluded=excluded(found, result.column),
        note=result.note,
    )
