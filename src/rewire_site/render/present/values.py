"""How a result's value reads: the one rounding and scale rule pages state, and the unit
a metric's shown values are in."""

from __future__ import annotations

from ...derive.display import PRINTED_DIGITS, SIGNIFICANT
from ...derive.scales import is_correlation
from ...models import Metric

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
