"""Labels readers see for evidence origins (one, and counted) and protocol metrics: a
protocol's metric, unit and direction named in one line."""

from __future__ import annotations

from ...derive.scales import column_metrics
from ...models import Origin, Protocol
from .metrics import per_column

ORIGIN_LABELS: dict[Origin, str] = {
    Origin.author_reported: "Author-reported evaluation",
    Origin.independent_paper: "Independent external evaluation",
    Origin.rewire_measurement: "Rewire measurement",
    Origin.community_reproduction: "Community reproduction",
    Origin.maintainer_statement: "Maintainer statement",
}
"""Evidence origin -> label used on every page (as the seed pages read)."""


ORIGIN_COUNT_LABELS: dict[Origin, str] = {
    Origin.author_reported: "Author-reported evaluations",
    Origin.independent_paper: "External evaluations",
    Origin.rewire_measurement: "Rewire measurements",
    Origin.community_reproduction: "Community reproductions",
    Origin.maintainer_statement: "Maintainer statements",
}
"""Evidence origin -> plural label for counts ("External evaluations: 4")."""


def protocol_metric_label(protocol: Protocol) -> str:
    """A protocol's metric wherever one line names it (index lists, coverage rows, facts):
    the metric its columns are measured in, or 'per column: MCC, AUC, F1 score, Accuracy'
    where they differ, never a single metric most columns do not use."""
    return per_column([m.label for m in column_metrics(protocol)])


def protocol_metric_unit(protocol: Protocol) -> str:
    """The unit of a protocol's results ('score'), or 'per column: ...' where they differ."""
    return per_column([m.unit for m in column_metrics(protocol)])


def protocol_metric_direction(protocol: Protocol) -> str:
    """'higher' or 'lower' when every column's metric agrees, else 'per column: ...'."""
    return per_column([m.direction for m in column_metrics(protocol)])
