"""Reproductions: a Rewire measurement beside the published evaluation it reproduces.

For each column both report: the two values, their ratio (measured / published) and
agreement within the protocol's tolerance (no tolerance: no agreement is computed, and
the text says so; an incomplete run claims no value, so neither ratio nor agreement is
computed for it, and the text says why); the measurement's analytical estimates; and a
horizontal bar chart whose geometry is computed here as plain numbers, so a template only
draws the SVG.
The pairs are the chart's text alternative.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from ..link import Catalogue
from ..models import Evaluation, Protocol
from ..models.evaluation import Origin
from .agreement import Agreement, agreement
from .display import (
    OUT_OF_MEMORY,
    CitationView,
    cite,
    column_header,
    display_number,
    plural,
    result_display,
)

Series = Literal["published", "reproduced", "estimate"]
SERIES_LABELS: dict[str, str] = {"published": "Published", "reproduced": "Reproduced (Rewire)"}

# Chart layout, in SVG user units.
CHART_WIDTH = 640.0
LABEL_WIDTH = 200.0
"""Left column holding the series labels."""
RIGHT_MARGIN = 80.0
"""Room for the value printed after a bar."""
TOP = 8.0
GROUP_LABEL_HEIGHT = 22.0
BAR_HEIGHT = 16.0
BAR_GAP = 6.0
GROUP_GAP = 14.0
AXIS_HEIGHT = 28.0


INCOMPLETE_TEXT = (
    "The measurement is an incomplete run: it covered fewer steps or samples than the "
    "protocol asks and claims no value, so no ratio or agreement is computed (its note "
    "says why; its observations hold what was measured)."
)


@dataclass(frozen=True)
class EstimateView:
    label: str
    value: float
    display: str
    method: str


@dataclass(frozen=True)
class ReproductionPair:
    """One column reported by both the published evaluation and the measurement."""

    column_id: str
    column_label: str
    header: str
    """'Peak memory (stage + Checkpointing)'."""
    unit: str
    published_value: float | None
    published_display: str
    published_printed: str | None
    published_citation: CitationView | None
    measured_status: Literal["value", "out_of_memory", "incomplete"]
    measured_value: float | None
    measured_display: str
    """Rounded for display, 'Out of memory' or 'Incomplete run'."""
    agreement: Agreement
    estimates: tuple[EstimateView, ...]


@dataclass(frozen=True)
class ChartBar:
    series: Series
    label: str
    """'Published', 'Reproduced (Rewire)' or 'Estimate: model-state floor'."""
    value: float | None
    """None when no bar is drawn (the run did not fit in memory)."""
    display: str
    x: float
    y: float
    width: float
    height: float
    label_x: float
    """Right edge of the series label (text-anchor end)."""
    text_x: float
    """Where the value text starts, after the bar."""
    text_y: float
    """Baseline of both texts."""


@dataclass(frozen=True)
class ChartGroup:
    column_id: str
    label: str
    label_y: float
    bars: tuple[ChartBar, ...]


@dataclass(frozen=True)
class ChartTick:
    value: float
    display: str
    x: float


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
    """'Peak memory (gigabyte)'."""
    ticks: tuple[ChartTick, ...]
    groups: tuple[ChartGroup, ...]
    title: str
    description: str
    """One-sentence summary for aria-describedby; the pairs table is the full alternative."""


@dataclass(frozen=True)
class Reproduction:
    protocol_id: str
    measured_evaluation_id: str
    measured_title: str
    published_evaluation_id: str
    published_title: str
    published_origin: str
    pairs: tuple[ReproductionPair, ...]
    unmatched_columns: tuple[str, ...]
    """Columns the measurement reports and the published evaluation does not."""
    tolerance: float | None
    tolerance_text: str
    agree_count: int
    disagree_count: int
    summary: str
    """'1 of 2 columns within the protocol's tolerance of ±10%.' or the no-tolerance text."""
    chart: Chart | None
    """None when no pair has a value to draw."""


def nice_axis(maximum: float, ticks: int = 5) -> tuple[float, float]:
    """(axis maximum, tick step) with a step of 1, 2, 2.5 or 5 times a power of ten."""
    if maximum <= 0:
        return 1.0, 0.2
    raw = maximum / ticks
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if raw <= m * magnitude + 1e-12)
    return float(math.ceil(maximum / step - 1e-9) * step), float(step)


def _pair(
    column_id: str,
    protocol: Protocol,
    published: Evaluation,
    measured: Evaluation,
    catalogue: Catalogue,
) -> ReproductionPair | None:
    mine = next((r for r in measured.results if r.column == column_id), None)
    theirs = next((r for r in published.results if r.column == column_id), None)
    if mine is None or theirs is None:
        return None
    label = next((c.label for c in protocol.columns if c.id == column_id), column_id)
    status: Literal["value", "out_of_memory", "incomplete"] = (
        mine.status if mine.status in ("value", "incomplete") else "out_of_memory"
    )
    found = agreement(mine.value, theirs.value, protocol.tolerance)
    if status == "incomplete":
        found = Agreement("not_comparable", None, "", protocol.tolerance, INCOMPLETE_TEXT)
    return ReproductionPair(
        column_id=column_id,
        column_label=label,
        header=column_header(protocol.metric.label, label),
        unit=protocol.metric.unit,
        published_value=theirs.value,
        published_display=display_number(theirs.value)
        if theirs.value is not None
        else OUT_OF_MEMORY,
        published_printed=theirs.printed_value,
        published_citation=cite(theirs.citation, catalogue) if theirs.citation else None,
        measured_status=status,
        measured_value=mine.value,
        measured_display=result_display(mine.value, mine.status),
        agreement=found,
        estimates=tuple(
            EstimateView(e.label, e.value, display_number(e.value), e.method)
            for e in mine.estimates
        ),
    )


def chart_bar(
    series: Series,
    label: str,
    value: float | None,
    display: str,
    y: float,
    scale: float,
    label_width: float = LABEL_WIDTH,
) -> ChartBar:
    """One horizontal bar: its length is `value * scale`, its label sits left of `label_width`."""
    width = round(value * scale, 2) if value is not None else 0.0
    return ChartBar(
        series=series,
        label=label,
        value=value,
        display=display,
        x=label_width,
        y=round(y, 2),
        width=width,
        height=BAR_HEIGHT,
        label_x=label_width - 6,
        text_x=round(label_width + width + 4, 2),
        text_y=round(y + BAR_HEIGHT - 4, 2),
    )


def _bar(
    series: Series,
    label: str,
    value: float | None,
    y: float,
    scale: float,
    missing: str = OUT_OF_MEMORY,
) -> ChartBar:
    display = display_number(value) if value is not None else missing
    return chart_bar(series, label, value, display, y, scale)


def reproduction_chart(
    pairs: tuple[ReproductionPair, ...], metric_label: str, unit: str, title: str
) -> Chart | None:
    """Bar chart geometry: one group per column, bars published, reproduced, estimates."""
    values = [
        v
        for p in pairs
        for v in (p.published_value, p.measured_value, *(e.value for e in p.estimates))
        if v is not None
    ]
    if not values:
        return None
    axis_max, step = nice_axis(max(values))
    plot_width = CHART_WIDTH - LABEL_WIDTH - RIGHT_MARGIN
    scale = plot_width / axis_max
    y = TOP
    groups = []
    for pair in pairs:
        label_y = y + GROUP_LABEL_HEIGHT - 8
        y += GROUP_LABEL_HEIGHT
        bars = [_bar("published", SERIES_LABELS["published"], pair.published_value, y, scale)]
        y += BAR_HEIGHT + BAR_GAP
        bars.append(
            _bar(
                "reproduced",
                SERIES_LABELS["reproduced"],
                pair.measured_value,
                y,
                scale,
                pair.measured_display,
            )
        )
        y += BAR_HEIGHT + BAR_GAP
        for estimate in pair.estimates:
            bars.append(_bar("estimate", f"Estimate: {estimate.label}", estimate.value, y, scale))
            y += BAR_HEIGHT + BAR_GAP
        groups.append(ChartGroup(pair.column_id, pair.column_label, round(label_y, 2), tuple(bars)))
        y += GROUP_GAP
    count = round(axis_max / step)
    ticks = tuple(
        ChartTick(
            round(i * step, 10),
            display_number(round(i * step, 10)),
            round(LABEL_WIDTH + i * step * scale, 2),
        )
        for i in range(count + 1)
    )
    plot_bottom = round(y, 2)
    return Chart(
        width=CHART_WIDTH,
        height=round(y + AXIS_HEIGHT, 2),
        plot_left=LABEL_WIDTH,
        plot_right=LABEL_WIDTH + plot_width,
        plot_top=TOP,
        plot_bottom=plot_bottom,
        axis_max=axis_max,
        axis_label=f"{metric_label} ({unit})",
        ticks=ticks,
        groups=tuple(groups),
        title=title,
        description=f"Published and reproduced {metric_label.lower()} for "
        f"{plural(len(pairs), 'column')}, with analytical estimates; the table below "
        "lists every value.",
    )


def reproduction(measured: Evaluation, catalogue: Catalogue) -> Reproduction | None:
    """The reproduction `measured` makes, or None when it is not a Rewire measurement
    that names a published evaluation it reproduces."""
    if measured.origin != Origin.rewire_measurement or measured.reproduces is None:
        return None
    published = catalogue.by_id.get(measured.reproduces)
    if not isinstance(published, Evaluation):
        return None
    protocol = catalogue.get(measured.protocol, Protocol)
    order = [c.id for c in protocol.columns]
    mine = {r.column for r in measured.results}
    theirs = {r.column for r in published.results}
    pairs = tuple(
        p
        for c in order
        if c in mine & theirs
        and (p := _pair(c, protocol, published, measured, catalogue)) is not None
    )
    agree = sum(p.agreement.state == "agrees" for p in pairs)
    disagree = sum(p.agreement.state == "disagrees" for p in pairs)
    if protocol.tolerance is None:
        tolerance_text = "The protocol sets no tolerance, so no agreement is computed."
        summary = tolerance_text
    else:
        percent = display_number(protocol.tolerance * 100)
        tolerance_text = f"Tolerance: ±{percent}% of the published value."
        comparable = sum(p.agreement.state in ("agrees", "disagrees") for p in pairs)
        summary = (
            f"{agree} of {plural(comparable, 'column')} within the protocol's tolerance of "
            f"±{percent}%."
        )
    if pairs and all(p.measured_status == "incomplete" for p in pairs):
        summary = INCOMPLETE_TEXT
    return Reproduction(
        protocol_id=protocol.id,
        measured_evaluation_id=measured.id,
        measured_title=measured.title,
        published_evaluation_id=published.id,
        published_title=published.title,
        published_origin=published.origin.value,
        pairs=pairs,
        unmatched_columns=tuple(c for c in order if c in mine - theirs),
        tolerance=protocol.tolerance,
        tolerance_text=tolerance_text,
        agree_count=agree,
        disagree_count=disagree,
        summary=summary,
        chart=reproduction_chart(
            pairs, protocol.metric.label, protocol.metric.unit, f"{published.title}: reproduction"
        ),
    )


def reproductions_of(evaluation: Evaluation, catalogue: Catalogue) -> tuple[Reproduction, ...]:
    """Reproductions of a published `evaluation` (measurements whose `reproduces` names it)."""
    found = []
    for record in catalogue.referring(evaluation.id, Evaluation):
        if isinstance(record, Evaluation) and record.reproduces == evaluation.id:
            made = reproduction(record, catalogue)
            if made is not None:
                found.append(made)
    return tuple(found)


def protocol_reproductions(protocol: Protocol, catalogue: Catalogue) -> tuple[Reproduction, ...]:
    """Every reproduction under `protocol`, by measurement id."""
    found = (reproduction(e, catalogue) for e in catalogue.evaluations_of(protocol.id))
    return tuple(r for r in found if r is not None)
