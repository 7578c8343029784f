"""The bar chart of a reproduction group (published value, each measurement, the
estimates): its geometry in SVG user units and its text, so that the template
(`_partials/_reproduction.html`) only draws it. The facts it draws (values, the
agreement of each measurement) are `derive/reproduction.py`'s; which bars are drawn as
'reproduced' is the agreement verdict's (`derive.agreement`), never decided here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..derive.scales import column_metrics
from ..link import Catalogue
from ..models import Protocol
from .present.agreement import ratio_text
from .present.metrics import metric_names, per_column
from .present.numbers import display_number, plural
from .reproduction import ReproducedColumn, ReproductionGroup

Series = Literal["published", "reproduced", "measured", "estimate"]
SERIES_LABELS: dict[str, str] = {
    "published": "Published",
    "reproduced": "Measured, agrees within tolerance",
    "measured": "Measured, agreement not shown",
    "estimate": "Analytical estimate",
}
"""Legend text per series; a legend lists only the series a chart draws."""

# Chart layout, in SVG user units (the stylesheet sets chart text to 12px).
CHAR_WIDTH = 7.2
"""Width reserved per label character: above the widest common glyphs at 12px, so that
a label never runs out of the viewBox (tests/browser/test_charts.py measures it)."""
MIN_LABEL_WIDTH = 120.0
MAX_LABEL_WIDTH = 480.0
PLOT_WIDTH = 360.0
RIGHT_MARGIN = 170.0
"""Room for the value and ratio printed after a bar."""
TOP = 8.0
LINE_HEIGHT = 15.0
GROUP_LABEL_GAP = 6.0
BAR_HEIGHT = 16.0
BAR_GAP = 6.0
GROUP_GAP = 14.0
AXIS_HEIGHT = 40.0
"""Tick labels and the axis title below the plot."""


@dataclass(frozen=True)
class ChartBar:
    series: Series
    label: str
    value: float | None
    """None when no bar is drawn (out of memory, incomplete run)."""
    display: str
    x: float
    y: float
    width: float
    height: float
    label_x: float
    """Right edge of the label (text-anchor end)."""
    text_x: float
    text_y: float


@dataclass(frozen=True)
class ChartLine:
    text: str
    y: float


@dataclass(frozen=True)
class ChartGroup:
    column_id: str
    label: str
    lines: tuple[ChartLine, ...]
    """The label wrapped to the chart's width."""
    bars: tuple[ChartBar, ...]


@dataclass(frozen=True)
class ChartTick:
    value: float
    display: str
    x: float


@dataclass(frozen=True)
class LegendEntry:
    series: Series
    label: str


@dataclass(frozen=True)
class Chart:
    width: float
    height: float
    plot_left: float
    plot_right: float
    plot_top: float
    plot_bottom: float
    axis_max: float
    axis_label: str
    axis_label_x: float
    axis_label_y: float
    ticks: tuple[ChartTick, ...]
    groups: tuple[ChartGroup, ...]
    legend: tuple[LegendEntry, ...]
    """Only the series drawn."""
    title: str
    description: str
    caption: str


def nice_axis(maximum: float, ticks: int = 5) -> tuple[float, float]:
    """(axis maximum, tick step) with a step of 1, 2, 2.5 or 5 times a power of ten."""
    if maximum <= 0:
        return 1.0, 0.2
    raw = maximum / ticks
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if raw <= m * magnitude + 1e-12)
    return float(math.ceil(maximum / step - 1e-9) * step), float(step)


def wrap(text: str, width: float) -> tuple[str, ...]:
    """`text` in lines of at most `width` user units (CHAR_WIDTH per character)."""
    limit = max(8, int(width // CHAR_WIDTH))
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if len(candidate) <= limit or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return tuple(lines)


def _bar(
    series: Series,
    label: str,
    value: float | None,
    display: str,
    y: float,
    scale: float,
    left: float,
) -> ChartBar:
    width = round(value * scale, 2) if value is not None else 0.0
    return ChartBar(
        series=series,
        label=label,
        value=value,
        display=display,
        x=left,
        y=round(y, 2),
        width=width,
        height=BAR_HEIGHT,
        label_x=left - 6,
        text_x=round(left + width + 4, 2),
        text_y=round(y + BAR_HEIGHT - 4, 2),
    )


def draw(
    columns: Sequence[ReproducedColumn], metric_label: str, unit: str, title: str
) -> Chart | None:
    """Bar chart geometry: per column the published bar, a bar per measurement (labelled
    by its setup; agreeing ones drawn as 'reproduced') and the estimates. The label column
    fits the longest label; group labels wrap to the chart's width; the legend lists only
    the series drawn."""
    values = [
        v
        for c in columns
        for v in (
            c.published_value,
            *(r.pair.measured_value for r in c.rows),
            *(e.value for e in c.estimates),
        )
        if v is not None
    ]
    if not values:
        return None
    labels = [
        label
        for c in columns
        for label in (
            "Published",
            *(r.setup for r in c.rows),
            *(f"Estimate: {e.label}" for e in c.estimates),
        )
    ]
    longest = max(len(label) for label in labels) * CHAR_WIDTH + 18
    left = min(MAX_LABEL_WIDTH, max(MIN_LABEL_WIDTH, round(longest)))
    width = left + PLOT_WIDTH + RIGHT_MARGIN
    label_limit = left - 12
    axis_max, step = nice_axis(max(values))
    scale = PLOT_WIDTH / axis_max
    y = TOP
    groups = []
    drawn: set[str] = set()
    for column in columns:
        lines = []
        for text in wrap(column.column_label, width - 8):
            y += LINE_HEIGHT
            lines.append(ChartLine(text, round(y - 3, 2)))
        y += GROUP_LABEL_GAP
        bars = [
            _bar(
                "published",
                "Published",
                column.published_value,
                column.published_display,
                y,
                scale,
                left,
            )
        ]
        drawn.add("published")
        y += BAR_HEIGHT + BAR_GAP
        for row in column.rows:
            found = row.pair.agreement
            display = row.pair.measured_display
            if found.ratio is not None:
                display = f"{display} ({ratio_text(found)})"
            series: Series = "reproduced" if found.reproduced else "measured"
            if row.pair.measured_value is not None:
                drawn.add(series)
            bars.append(
                _bar(
                    series,
                    _fit(row.setup, label_limit),
                    row.pair.measured_value,
                    display,
                    y,
                    scale,
                    left,
                )
            )
            y += BAR_HEIGHT + BAR_GAP
        for estimate in column.estimates:
            drawn.add("estimate")
            bars.append(
                _bar(
                    "estimate",
                    _fit(f"Estimate: {estimate.label}", label_limit),
                    estimate.value,
                    estimate.display,
                    y,
                    scale,
                    left,
                )
            )
            y += BAR_HEIGHT + BAR_GAP
        groups.append(ChartGroup(column.column_id, column.column_label, tuple(lines), tuple(bars)))
        y += GROUP_GAP
    count = round(axis_max / step)
    ticks = tuple(
        ChartTick(
            round(i * step, 10),
            display_number(round(i * step, 10)),
            round(left + i * step * scale, 2),
        )
        for i in range(count + 1)
    )
    reproductions = sum(len(c.rows) for c in columns)
    order: tuple[Series, ...] = ("published", "reproduced", "measured", "estimate")
    legend = tuple(LegendEntry(s, SERIES_LABELS[s]) for s in order if s in drawn)
    plot_bottom = round(y, 2)
    return Chart(
        width=round(width, 2),
        height=round(y + AXIS_HEIGHT, 2),
        plot_left=left,
        plot_right=left + PLOT_WIDTH,
        plot_top=TOP,
        plot_bottom=plot_bottom,
        axis_max=axis_max,
        axis_label=f"{metric_label} ({unit})",
        axis_label_x=round(left + PLOT_WIDTH / 2, 2),
        axis_label_y=round(plot_bottom + 32, 2),
        ticks=ticks,
        groups=tuple(groups),
        legend=legend,
        title=title,
        description=f"Published {metric_label.lower()} and {plural(reproductions, 'measurement')} "
        f"over {plural(len(columns), 'column')}, each labelled by its setup; the tables below "
        "list every value.",
        caption=f"{metric_label} ({unit}): the published value, each measurement labelled by "
        "its setup (agreeing ones first, then closest ratio first)"
        + (", and the measurements' analytical estimates" if "estimate" in drawn else "")
        + ". The ratio measured / published follows each value.",
    )


def _fit(label: str, limit: float) -> str:
    """`label` shortened with an ellipsis to fit `limit` user units."""
    most = int(limit // CHAR_WIDTH)
    return label if len(label) <= most else label[: max(1, most - 1)].rstrip() + "…"


def group_chart(group: ReproductionGroup, protocol: Protocol) -> Chart | None:
    """The chart of `group` (of `protocol`): its axis names the metric of the columns it
    draws (a column's own metric where it has one); None when no value can be drawn."""
    metrics = column_metrics(protocol, {c.column_id for c in group.columns})
    return draw(
        group.columns,
        metric_names(metrics),
        per_column([m.unit for m in metrics]),
        f"{group.published_title}: published value and measurements",
    )


def group_charts(
    groups: Sequence[ReproductionGroup], catalogue: Catalogue
) -> tuple[Chart | None, ...]:
    """One chart (or None) per group, in order."""
    return tuple(group_chart(g, catalogue.get(g.protocol_id, Protocol)) for g in groups)
