"""Metric scales and bounds: the same score as a fraction (0.6191) or a percent (61.91).

Pure functions: `to_scale` converts a value between scales; `scale_problem` says why a
result does not fit its metric (a scale given for a metric without one, a value outside
the metric's bounds once converted to the metric's own scale).
"""

from __future__ import annotations

from .common import Scale
from .evaluation import Result
from .protocol import Metric

_FACTOR = {Scale.fraction: 1.0, Scale.percent: 100.0}


def to_scale(value: float, from_scale: Scale | None, to_scale_: Scale | None) -> float:
    """`value` given on `from_scale`, expressed on `to_scale_` (unchanged when either is
    None or they are the same)."""
    if from_scale is None or to_scale_ is None or from_scale == to_scale_:
        return value
    return value / _FACTOR[from_scale] * _FACTOR[to_scale_]


def on_metric_scale(metric: Metric, result: Result) -> float | None:
    """The result's value on its metric's own scale (None without a value)."""
    if result.value is None:
        return None
    return to_scale(result.value, result.scale, metric.scale)


def scale_problem(metric: Metric, result: Result) -> tuple[str, str] | None:
    """(field, message) when the result does not fit its metric, else None."""
    if result.scale is not None and metric.scale is None:
        return (
            "scale",
            f"metric '{metric.id}' has no scale (it is in {metric.unit}); a scale applies "
            "only to a score with a fixed range",
        )
    value = on_metric_scale(metric, result)
    if value is None:
        return None
    shown = f"{result.value:g}" + (
        f" ({value:g} on the metric's {metric.scale.value} scale)"
        if result.scale is not None and result.scale != metric.scale and metric.scale
        else ""
    )
    if metric.minimum is not None and value < metric.minimum - 1e-12:
        return ("value", f"{shown} is below the lowest possible {metric.label}, {metric.minimum:g}")
    if metric.maximum is not None and value > metric.maximum + 1e-12:
        return (
            "value",
            f"{shown} is above the highest possible {metric.label}, {metric.maximum:g}",
        )
    return None
