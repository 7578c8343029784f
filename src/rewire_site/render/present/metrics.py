"""A protocol's metrics and result columns named in words: metric names, per-column
values, a column's header, whether a metric depends on the accelerator, a reading's
settings."""

from __future__ import annotations

from collections.abc import Sequence

from ...derive.scales import column_metrics
from ...models import Metric, Protocol

DIRECTION_LABELS = {"lower": "lower is better", "higher": "higher is better"}

PER_COLUMN = "per column: "


def metric_names(metrics: Sequence[Metric]) -> str:
    """'Peak memory', or 'MCC, AUC, F1 score and Accuracy' (labels as recorded)."""
    labels = list(dict.fromkeys(m.label for m in metrics))
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def per_column(values: list[str]) -> str:
    """The one value every column shares ('score'), else each distinct value, in column
    order, as 'per column: MCC, AUC, F1 score, Accuracy'."""
    distinct = list(dict.fromkeys(values))
    return distinct[0] if len(distinct) == 1 else PER_COLUMN + ", ".join(distinct)


def metric_dependence(protocol: Protocol, depends: bool, *, lower: bool = False) -> str:
    """'Peak memory depends on the accelerator' (`lower`: 'peak memory ...'), or, for a
    protocol whose columns use several metrics, 'MCC, AUC, F1 score and Accuracy do not
    depend on the accelerator' (labels as recorded: an acronym is not lowered)."""
    metrics = column_metrics(protocol)
    subject = metric_names(metrics)
    if len({m.label for m in metrics}) == 1:
        subject = subject.lower() if lower else subject
        verb = "depends" if depends else "does not depend"
    else:
        verb = "depend" if depends else "do not depend"
    return f"{subject} {verb} on the accelerator"


def column_header(metric_label: str, column_label: str) -> str:
    """'Peak memory (Training, ..., stage + Checkpointing (...))'."""
    return f"{metric_label} ({column_label})"


def result_header(protocol: Protocol, column_id: str) -> str:
    """How a result in column `column_id` of `protocol` is named wherever it is shown: the
    column's own metric where it has one (`ResultColumn.metric`: 'MCC', not the protocol's
    'AUC (MCC)'), else the protocol's metric and the column's label ('Peak memory
    (Training, ...)'). A label that only repeats the metric is not repeated."""
    metric = protocol.column_metric(column_id)
    label = next((c.label for c in protocol.columns if c.id == column_id), column_id)
    return metric.label if label == metric.label else column_header(metric.label, label)


def reading_text(reading: Sequence[tuple[str, str]]) -> str:
    """'precision fp32-autocast, update full, length 1000nt' (keys in words)."""
    return ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in reading)
