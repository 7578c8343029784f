"""The scale a metric's values are compared and exported on, as facts: which metrics are
correlations (MCC and the like, on -1 to 1 whatever scale a source printed), a result's
value on that canonical scale, the metrics a protocol's columns are measured in, and
whether a protocol measures a resource (memory, time, throughput, energy).
Pages present these values (`render/present/values.py`);
exports write them as numbers.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from ..models import Metric, Protocol, Result
from ..models.common import Scale
from ..models.scales import to_scale


def column_metrics(
    protocol: Protocol, column_ids: Collection[str] | None = None
) -> tuple[Metric, ...]:
    """The metrics a protocol's results are measured in: the distinct metrics of its
    result columns (of `column_ids` only, when given; a column's own metric, else the
    protocol's), by id, in column order; the protocol's metric when no column is left.
    Feng et al.'s protocols declare AUC but score their columns in MCC, AUC, F1 and
    accuracy: four metrics, not one."""
    found = {
        m.id: m
        for m in (
            protocol.column_metric(c.id)
            for c in protocol.columns
            if column_ids is None or c.id in column_ids
        )
    }
    return tuple(found.values()) or (protocol.metric,)


_CORRELATIONS = re.compile(r"\b(mcc|matthews|pearson|spearman|correlation)\b", re.IGNORECASE)


def is_correlation(metric: Metric) -> bool:
    """MCC and other correlations: a score on [-1, 1], never a percentage (a paper's x100
    is its printing convention)."""
    return bool(_CORRELATIONS.search(f"{metric.id.replace('-', ' ')} {metric.label}"))


def canonical_scale(metric: Metric) -> Scale | None:
    """The scale a metric's values are shown and compared on: a correlation's own
    (fraction, -1 to 1), else the metric's declared scale (None: a unit, no fixed range)."""
    return Scale.fraction if is_correlation(metric) else metric.scale


@dataclass(frozen=True)
class CanonicalValue:
    """A result on its metric's canonical scale, as exports carry it: the number, its unit
    and the metric's bounds on that scale (None: not stated)."""

    value: float | None
    unit: str | None
    minimum: float | None
    maximum: float | None


def canonical_value(metric: Metric, result: Result) -> CanonicalValue:
    """The value every export writes: on the scale pages show (`canonical_scale`), with a
    unit that says that scale (a correlation's is 'correlation coefficient', never
    'percent'); a unit-bearing metric (no scale) keeps its recorded unit."""
    target = canonical_scale(metric)
    if target is None:
        return CanonicalValue(
            result.value, result.unit or metric.unit, metric.minimum, metric.maximum
        )

    def convert(value: float | None, given: Scale | None) -> float | None:
        return None if value is None else to_scale(value, given, target)

    if target == Scale.percent:
        unit = "percent"
    else:
        unit = "correlation coefficient" if is_correlation(metric) else "fraction"
    return CanonicalValue(
        convert(result.value, result.scale or metric.scale),
        unit,
        convert(metric.minimum, metric.scale),
        convert(metric.maximum, metric.scale),
    )


_RESOURCE_UNITS = {
    "byte", "kilobyte", "megabyte", "gigabyte", "terabyte", "kibibyte", "mebibyte",
    "gibibyte", "tebibyte", "microsecond", "millisecond", "second", "minute", "hour", "day",
    "token-per-second", "sample-per-second", "sequence-per-second", "step-per-second",
    "joule", "kilojoule", "watt", "kilowatt-hour", "gpu-hour",
}  # fmt: skip
_RESOURCE_METRIC = re.compile(r"memory|runtime|run-time|wall-time|latency|throughput|energy")


def is_resource_metric(protocol: Protocol) -> bool:
    """Memory, time, throughput or energy: measured from the run, with no per-sample
    predictions."""
    # 'sequence per second' is 'sequence-per-second': words joined as the set spells them
    unit = re.sub(r"\s+", "-", protocol.metric.unit.strip().lower()).removesuffix("s")
    return unit in _RESOURCE_UNITS or bool(_RESOURCE_METRIC.search(protocol.metric.id))
