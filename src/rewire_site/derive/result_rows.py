"""The row of one classifier's results an evaluation belongs to, and the class balance of
its test data where the records show it: what the trivial-result rules
(`trivial.trivial_results`) read from the catalogue.

A row is one configuration under one protocol, dataset, split and origin: the metrics a
source prints side by side, whether the records hold them as one evaluation or one
evaluation per metric (Feng et al.). Values are read on each metric's fraction scale.
Every read goes through the catalogue's `referring`, so `rewire serve` recomputes a
row's concern when another evaluation of the row changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..link import Catalogue
from ..models import Evaluation, Protocol
from ..models.common import Scale
from ..models.scales import on_metric_scale, to_scale
from .trivial import majority_share, metric_kind, negative_share


@dataclass(frozen=True)
class ResultRow:
    """The row of one classifier's results an evaluation belongs to (`result_row`)."""

    values: dict[str, float]
    """Metric kind (`trivial.metric_kind`) -> value on its fraction scale."""
    higher: frozenset[str]
    """Metric kinds whose direction is higher."""
    columns: dict[str, str]
    """The evaluation's own result columns -> their metric kinds."""


def _fraction(evaluation: Evaluation, protocol: Protocol) -> list[tuple[str, str, float, bool]]:
    """(column, metric kind, value on the fraction scale, higher is better) of each result
    with a value."""
    out = []
    for result in evaluation.results:
        if result.status != "value" or result.value is None:
            continue
        metric = protocol.column_metric(result.column)
        value = on_metric_scale(metric, result)
        if value is None:
            continue
        value = to_scale(value, metric.scale, Scale.fraction)
        higher = (result.direction or metric.direction) == "higher"
        out.append((result.column, metric_kind(metric.id), value, higher))
    return out


def result_row(evaluation: Evaluation, catalogue: Catalogue) -> ResultRow:
    """The results of `evaluation` with those of the evaluations that share its
    configuration, protocol, dataset, split and origin (a source's table row, recorded
    one evaluation per metric). The evaluation's own values come first; a metric the
    others hold more than one value of is left out (which one belongs to the row is not
    recorded)."""
    protocol = catalogue.get(evaluation.protocol, Protocol)
    own = _fraction(evaluation, protocol)
    values = {kind: value for _, kind, value, _ in own}
    higher = {kind for _, kind, _, up in own if up}
    others: dict[str, set[float]] = {}
    lower: set[str] = set()
    # Every evaluation of the row refers to all three; read the fewest referrers.
    targets = (evaluation.protocol, evaluation.dataset, evaluation.configuration)
    fewest = min(targets, key=lambda t: len(catalogue.referrers.get(t, ())))
    for other in catalogue.referring(fewest, Evaluation):
        if (
            not isinstance(other, Evaluation)
            or other.id == evaluation.id
            or other.configuration != evaluation.configuration
            or other.protocol != evaluation.protocol
            or other.dataset != evaluation.dataset
            or other.origin != evaluation.origin
            or other.comparison.split != evaluation.comparison.split
        ):
            continue
        for _, kind, value, up in _fraction(other, protocol):
            others.setdefault(kind, set()).add(value)
            (higher.add if up else lower.add)(kind)
    for kind, found in others.items():
        if kind not in values and len(found) == 1:
            values[kind] = next(iter(found))
    return ResultRow(
        values,
        frozenset(higher - lower),
        {column: kind for column, kind, _, _ in own},
    )


@dataclass(frozen=True)
class Balance:
    """The class balance of a row's test data, as other rows on the same data show it."""

    majority: float
    """The majority class's share."""
    shown_by: str
    """The title of the configuration whose row shows it."""


def class_balance(evaluation: Evaluation, catalogue: Catalogue) -> Balance | None:
    """The class balance of the data `evaluation` was scored on, where a row of results
    on the same protocol, dataset and split never answers positive (MCC 0 and F1 0
    exactly: its accuracy is the share of negatives, `trivial.negative_share`); None
    where no row shows it, or rows disagree."""
    shares: dict[float, str] = {}
    for other in catalogue.evaluations_of(evaluation.protocol):
        if (
            not isinstance(other, Evaluation)
            or other.dataset != evaluation.dataset
            or other.comparison.split != evaluation.comparison.split
            or not any(r.value == 0 for r in other.results)
        ):
            continue
        share = negative_share(result_row(other, catalogue).values)
        if share is not None:
            found = catalogue.by_id.get(other.configuration)
            shares.setdefault(share, getattr(found, "title", other.configuration))
    if len(shares) != 1:
        return None
    ((share, title),) = shares.items()
    return Balance(majority_share(share), title)
