"""Geometry of a memory-curve chart: peak reserved memory (GB) against input length
(tokens, on a log-2 axis: the lengths double), one line per model and batch, an "x" at
the top of the plot for a point that ran out of memory. Templates draw what this computes
(the SVG in `_partials/_memory_curves.html`); the table beside each chart lists every
point, and is the chart's text alternative."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ...derive.fits import Point
from ..present.numbers import plural
from ..reproduction_chart import nice_axis

WIDTH = 600.0
PLOT_LEFT = 64.0
PLOT_RIGHT = 540.0
PLOT_TOP = 22.0
PLOT_BOTTOM = 242.0
HEIGHT = 290.0
MIN_TICK_GAP = 40.0
"""Length labels closer than this (user units) to the previous label are left out (the
grid line stays)."""

COLORS: tuple[str, ...] = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#8a6d00", "#56147d")
"""Line colours per model (Okabe-Ito hues, darkened where needed for contrast on white)."""


@dataclass(frozen=True)
class Tick:
    display: str
    """Its label: '1,000' or '40'."""
    position: float
    """x (length ticks) or y (memory ticks) of the grid line, in user units."""
    label_x: float
    """x of the label's anchor."""
    label_y: float
    """y of the label's baseline."""
    labelled: bool = True
    """False when the label would crowd the previous one (the grid line stays)."""


@dataclass(frozen=True)
class Marker:
    x: float
    """Centre of the marker, user units."""
    y: float
    """Centre of the marker, user units."""
    label: str
    """'NT 2.5B, batch 8, 512 tokens: 23.41 GB' (the marker's tooltip)."""
    path: str = ""
    """SVG path of an out-of-memory cross ('' for a measured dot)."""


@dataclass(frozen=True)
class Series:
    key: str
    """'<model>-b<batch>', the legend entry's data-series."""
    label: str
    """'NT 2.5B, batch 8'."""
    color: str
    """Stroke colour (one per model)."""
    dashed: bool
    """Batches other than the smallest are dashed, with hollow markers."""
    path: str
    """SVG polyline points, 'x,y x,y ...' ('' for a single point)."""
    markers: tuple[Marker, ...]
    """One dot per point with a reserved peak."""
    out_of_memory: tuple[Marker, ...]
    """One cross at the top of the plot per point that ran out of memory."""


@dataclass(frozen=True)
class LineChart:
    width: float
    """viewBox width, user units."""
    height: float
    """viewBox height, user units."""
    plot_left: float
    """x of the plot's left edge (the memory axis)."""
    plot_right: float
    """x of the plot's right edge."""
    plot_top: float
    """y of the plot's top edge."""
    plot_bottom: float
    """y of the plot's bottom edge (the length axis)."""
    x_ticks: tuple[Tick, ...]
    """One per measured length, on a log-2 scale."""
    y_ticks: tuple[Tick, ...]
    """Memory from 0 GB in steps of 1, 2, 2.5 or 5 times a power of ten."""
    x_label: str
    """'Input length (tokens, log scale)'."""
    x_label_x: float
    """x of the length axis title."""
    x_label_y: float
    """y of the length axis title."""
    y_label: str
    """'Peak reserved memory (GB)', drawn rotated."""
    y_label_x: float
    """x of the memory axis title in its rotated frame (rotate(-90): minus the y centre)."""
    y_label_y: float
    """y of the memory axis title in its rotated frame."""
    series: tuple[Series, ...]
    """One per model and batch."""
    title: str
    """The SVG's <title>."""
    description: str
    """The SVG's <desc> and the caption: what is drawn, point counts."""


def _x_scale(lengths: Sequence[int]) -> tuple[float, float]:
    low, high = math.log2(min(lengths)), math.log2(max(lengths))
    if high == low:
        return low - 1, high + 1
    return low, high


def curve_chart(points: Sequence[Point], title: str) -> LineChart | None:
    """The chart of one method's points (any models and batches); None without a point."""
    if not points:
        return None
    lengths = sorted({p.tokens for p in points})
    values = [p.reserved_gb for p in points if p.reserved_gb is not None]
    axis_max, step = nice_axis(max(values) if values else 1.0)
    low, high = _x_scale(lengths)

    def x_of(tokens: int) -> float:
        share = (math.log2(tokens) - low) / (high - low)
        return round(PLOT_LEFT + share * (PLOT_RIGHT - PLOT_LEFT), 2)

    def y_of(gb: float) -> float:
        return round(PLOT_BOTTOM - gb / axis_max * (PLOT_BOTTOM - PLOT_TOP), 2)

    x_ticks = []
    last_label = -math.inf
    for tokens in lengths:
        x = x_of(tokens)
        labelled = x - last_label >= MIN_TICK_GAP
        last_label = x if labelled else last_label
        x_ticks.append(Tick(f"{tokens:,}", x, x, PLOT_BOTTOM + 16, labelled))
    count = round(axis_max / step)
    y_ticks = tuple(
        Tick(_gb(i * step), y_of(i * step), PLOT_LEFT - 6, y_of(i * step) + 4)
        for i in range(count + 1)
    )
    models = list(dict.fromkeys(p.model for p in points))
    smallest = min(p.batch for p in points)
    series = []
    for model in models:
        color = COLORS[models.index(model) % len(COLORS)]
        for batch in sorted({p.batch for p in points if p.model == model}):
            curve = sorted(
                (p for p in points if (p.model, p.batch) == (model, batch)), key=lambda p: p.tokens
            )
            label = f"{model}, batch {batch}"
            drawn = [
                Marker(
                    x_of(p.tokens),
                    y_of(p.reserved_gb),
                    f"{label}, {p.tokens:,} tokens: {p.reserved_gb:.2f} GB",
                )
                for p in curve
                if p.reserved_gb is not None and not p.out_of_memory
            ]
            oom = [
                _cross(
                    x_of(p.tokens), PLOT_TOP - 10, f"{label}, {p.tokens:,} tokens: out of memory"
                )
                for p in curve
                if p.out_of_memory
            ]
            path = " ".join(f"{m.x},{m.y}" for m in drawn) if len(drawn) > 1 else ""
            series.append(
                Series(
                    f"{model}-b{batch}",
                    label,
                    color,
                    batch != smallest,
                    path,
                    tuple(drawn),
                    tuple(oom),
                )
            )
    drawn_count = sum(len(s.markers) for s in series)
    oom_count = sum(len(s.out_of_memory) for s in series)
    unreadable = len(points) - drawn_count - oom_count
    description = (
        f"Peak reserved memory in GB against input length in tokens (log scale): "
        f"{plural(len(series), 'line')}, {plural(drawn_count, 'measured point')}"
        + (f", {oom_count} out of memory (marked x at the top)" if oom_count else "")
        + (f", {unreadable} without a reserved peak (not drawn)" if unreadable else "")
        + ". The table after the chart lists every point."
    )
    return LineChart(
        width=WIDTH,
        height=HEIGHT,
        plot_left=PLOT_LEFT,
        plot_right=PLOT_RIGHT,
        plot_top=PLOT_TOP,
        plot_bottom=PLOT_BOTTOM,
        x_ticks=tuple(x_ticks),
        y_ticks=y_ticks,
        x_label="Input length (tokens, log scale)",
        x_label_x=round((PLOT_LEFT + PLOT_RIGHT) / 2, 2),
        x_label_y=PLOT_BOTTOM + 38,
        y_label="Peak reserved memory (GB)",
        y_label_x=round(-(PLOT_TOP + PLOT_BOTTOM) / 2, 2),
        y_label_y=14.0,
        series=tuple(series),
        title=title,
        description=description,
    )


def _cross(x: float, y: float, label: str) -> Marker:
    a, b = round(x - 4, 2), round(x + 4, 2)
    return Marker(x, y, label, f"M{a},{y - 4} L{b},{y + 4} M{a},{y + 4} L{b},{y - 4}")


def _gb(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text or "0"
