"""How a result's value reads: on its metric's canonical scale with the digits its source
printed (`scaled_value`, `result_value`), the one rounding and scale rule pages state, and
the unit a metric's shown values are in."""

from __future__ import annotations

from dataclasses import dataclass

from ...derive.scales import canonical_scale, is_correlation
from ...models import Metric, Result
from ...models.common import Scale
from ...models.scales import to_scale
from .numbers import (
    NOT_REPORTED,
    PRINTED_DIGITS,
    SIGNIFICANT,
    STATUS_LABELS,
    display_number,
    significant_figures,
)

ROUNDING_RULE = (
    "Values show the digits their source printed; a value printed with more than "
    f"{PRINTED_DIGITS} significant figures (a spreadsheet's float) is rounded to "
    f"{SIGNIFICANT} and marked rounded, and a measured value is rounded to {SIGNIFICANT}. "
    "A correlation such as MCC is shown on its own scale, "
    "-1 to 1, never as a percentage; a paper's value x100 is converted, with the printed "
    "value beside it."
)
"""The one rounding and scale rule, as pages state it once."""


def scale_unit(metric: Metric) -> str:
    """The unit a metric's shown values are in: 'correlation, -1 to 1' for MCC and other
    correlations (whatever scale a source printed them on), else the metric's unit."""
    return "correlation, -1 to 1" if is_correlation(metric) else metric.unit


@dataclass(frozen=True)
class ScaledValue:
    """A result's value as every page shows it: on its metric's canonical scale."""

    value: float | None
    """On the canonical scale (what comparisons use); None without a value."""
    text: str
    """'0.362', '61.9%', '33.9', 'Out of memory'."""
    note: str = ""
    """'printed 36.2, x100', 'rounded from 0.3622498911964387', or ''."""

    @property
    def full(self) -> str:
        """The text with its note: '0.3622 (rounded from 0.3622498911964387)'."""
        return f"{self.text} ({self.note})" if self.note else self.text


def scaled_value(
    metric: Metric, value: float | None, status: str, scale: Scale | None, printed: str | None
) -> ScaledValue:
    """One function for every page: `value` (given on `scale`, else the metric's) on the
    metric's canonical scale, '%' only on a percent scale that is not a correlation's,
    digits as printed unless there are more than `PRINTED_DIGITS` of them (then rounded to
    `SIGNIFICANT`, and said). A value converted from the source's scale keeps the printed
    value beside it."""
    if value is None:
        return ScaledValue(None, STATUS_LABELS.get(status, NOT_REPORTED))
    given = scale or metric.scale
    target = canonical_scale(metric)
    converted = value if given is None or target is None else to_scale(value, given, target)
    suffix = "%" if target == Scale.percent else ""
    if converted != value:
        shown = display_number(converted, SIGNIFICANT)
        as_printed = printed if printed is not None else display_number(value, SIGNIFICANT)
        how = ", x100" if given == Scale.percent else " as a fraction"
        return ScaledValue(converted, shown + suffix, f"printed {as_printed}{how}")
    if printed is not None and significant_figures(printed) <= PRINTED_DIGITS:
        return ScaledValue(converted, printed + suffix)
    shown = display_number(converted, SIGNIFICANT)
    rounded = printed is not None and significant_figures(printed) > significant_figures(shown)
    return ScaledValue(converted, shown + suffix, f"rounded from {printed}" if rounded else "")


def result_value(metric: Metric, result: Result) -> ScaledValue:
    """`scaled_value` of a recorded result."""
    return scaled_value(metric, result.value, result.status, result.scale, result.printed_value)
