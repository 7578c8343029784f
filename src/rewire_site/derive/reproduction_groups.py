"""Reproductions grouped by the published evaluation they reproduce.

One group per published evaluation: for each column it reports, the published value and
every Rewire measurement that reproduces it (its own row and its own bar, labelled by its
setup), rows sorted by how close the ratio measured / published is to 1, the closest one
named in a sentence, and the measurements' analytical estimates. Agreement is the
protocol's tolerance or nothing (`agreement.py`); a result that a flag takes out of
comparisons is never named closest while a comparable one exists, and when every
reproduction is excluded the sentence says so. The chart geometry is computed here as
numbers (`reproduction.nice_axis`), so a template only draws it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..link import Catalogue
from ..models import Configuration, Evaluation, Protocol
from ..models.evaluation import Origin
from .concerns import Flag, excluded, flags_by_evaluation
from .display import OUT_OF_MEMORY, CitationView, display_number, plural
from .reproduction import (
    AXIS_HEIGHT,
    BAR_GAP,
    BAR_HEIGHT,
    GROUP_GAP,
    GROUP_LABEL_HEIGHT,
    INCOMPLETE_TEXT,
    RIGHT_MARGIN,
    TOP,
    Chart,
    ChartGroup,
    ChartTick,
    EstimateView,
    ReproductionPair,
    _pair,
    chart_bar,
    nice_axis,
)

CHAR_WIDTH = 6.6
"""Approximate width of one label character, in SVG user units (for the label column)."""
MIN_LABEL_WIDTH = 160.0
MAX_LABEL_WIDTH = 440.0
PLOT_WIDTH = 380.0


@dataclass(frozen=True)
class ReproductionRow:
    """One measurement's reproduction of one published column."""

    measured_evaluation_id: str
    measured_title: str
    setup: str
    """'bf16 · full · 1000nt' (the recipe's setup settings) or the measurement's title."""
    pair: ReproductionPair
    excluded: bool
    """True: a flag takes the measured result out of comparisons (it stays visible)."""
    flag_labels: tuple[str, ...]
    """Every flag that concerns the measured result."""
    excluded_by: tuple[str, ...]
    """Labels of the flags that take it out of comparisons."""
    distance: float | None
    """|ratio - 1|; None without a ratio (out of memory, incomplete run)."""


@dataclass(frozen=True)
class ReproducedColumn:
    """A published column and every reproduction of it, closest first."""

    column_id: str
    column_label: str
    header: str
    unit: str
    published_value: float | None
    published_display: str
    published_printed: str | None
    published_citation: CitationView | None
    rows: tuple[ReproductionRow, ...]
    """Sorted by distance of the ratio from 1 (rows without a ratio last), then setup."""
    closest_text: str
    """'Closest: bf16 · full · 1000nt, ratio 1.00.' or why no reproduction is named."""
    estimates: tuple[EstimateView, ...]
    """The measurements' estimates for this column, each distinct label and value once
    (a label that recurs with other values names the setup of its first row)."""


@dataclass(frozen=True)
class ReproductionGroup:
    protocol_id: str
    published_evaluation_id: str
    published_title: str
    published_origin: str
    measured_evaluation_ids: tuple[str, ...]
    columns: tuple[ReproducedColumn, ...]
    unmatched: tuple[str, ...]
    """'<measurement title>: <columns>' for columns measured without a published value."""
    tolerance: float | None
    tolerance_text: str
    agree_count: int
    disagree_count: int
    summary: str
    """'1 of 3 reproduced values within the protocol's tolerance of ±10%.' or why none."""
    chart: Chart | None


def setup_label(evaluation: Evaluation, protocol: Protocol, catalogue: Catalogue) -> str:
    """The measurement's setup: its configuration's values of the recipe's setup keys
    joined by ' · ', or the evaluation title when they are not all set."""
    keys = protocol.recipe.setup_keys if protocol.recipe is not None else []
    configuration = catalogue.by_id.get(evaluation.configuration)
    if (
        keys
        and isinstance(configuration, Configuration)
        and all(k in configuration.settings for k in keys)
    ):
        return " · ".join(configuration.settings[k] for k in keys)
    return evaluation.title


def _closest(rows: Sequence[ReproductionRow]) -> str:
    with_ratio = [r for r in rows if r.distance is not None]
    if not with_ratio:
        return "No reproduction has a ratio to compare (no measured value)."
    comparable = [r for r in with_ratio if not r.excluded]
    best = (comparable or with_ratio)[0]
    ratio = best.pair.agreement.ratio
    if len(with_ratio) == 1:  # nothing to be closest among
        text = f"Reproduced by {best.setup}, ratio {ratio:.2f}." if ratio is not None else ""
        if not comparable:
            text += f" It is excluded from comparisons ({'; '.join(best.excluded_by)})."
        return text
    text = f"Closest: {best.setup}, ratio {ratio:.2f}." if ratio is not None else ""
    if not comparable:
        labels = sorted({label for r in with_ratio for label in r.excluded_by})
        text += (
            f" Every reproduction here is excluded from comparisons ({'; '.join(labels)}), "
            "so this is the nearest ratio, not a comparable result."
        )
    return text


def _column(
    column_id: str,
    protocol: Protocol,
    published: Evaluation,
    measured: Sequence[Evaluation],
    catalogue: Catalogue,
    flags: Mapping[str, tuple[Flag, ...]],
) -> ReproducedColumn | None:
    rows = []
    for evaluation in measured:
        pair = _pair(column_id, protocol, published, evaluation, catalogue)
        if pair is None:
            continue
        found = flags.get(evaluation.id, ())
        ratio = pair.agreement.ratio
        rows.append(
            ReproductionRow(
                measured_evaluation_id=evaluation.id,
                measured_title=evaluation.title,
                setup=setup_label(evaluation, protocol, catalogue),
                pair=pair,
                excluded=excluded(found, column_id),
                flag_labels=tuple(f.label for f in found if f.affects(column_id)),
                excluded_by=tuple(
                    f.label for f in found if f.excludes_from_comparisons and f.affects(column_id)
                ),
                distance=abs(ratio - 1.0) if ratio is not None else None,
            )
        )
    if not rows:
        return None
    rows.sort(
        key=lambda r: (
            r.distance is None,
            r.distance or 0.0,
            r.setup,
            r.measured_evaluation_id,
        )
    )
    first = rows[0].pair
    seen: dict[tuple[str, float], tuple[EstimateView, str]] = {}
    for row in rows:
        for estimate in row.pair.estimates:
            seen.setdefault((estimate.label, estimate.value), (estimate, row.setup))
    repeated = Counter(label for label, _ in seen)
    estimates = {
        key: replace(e, label=f"{e.label} ({setup})") if repeated[e.label] > 1 else e
        for key, (e, setup) in seen.items()
    }
    return ReproducedColumn(
        column_id=column_id,
        column_label=first.column_label,
        header=first.header,
        unit=first.unit,
        published_value=first.published_value,
        published_display=first.published_display,
        published_printed=first.published_printed,
        published_citation=first.published_citation,
        rows=tuple(rows),
        closest_text=_closest(rows),
        estimates=tuple(estimates.values()),
    )


def reproduction_group(
    published: Evaluation,
    measured: Iterable[Evaluation],
    catalogue: Catalogue,
    *,
    flags: Mapping[str, tuple[Flag, ...]] | None = None,
) -> ReproductionGroup | None:
    """`published` and the Rewire measurements among `measured` that reproduce it; None
    when there is none."""
    chosen = sorted(
        (
            e
            for e in measured
            if e.origin == Origin.rewire_measurement and e.reproduces == published.id
        ),
        key=lambda e: e.id,
    )
    if not chosen:
        return None
    if flags is None:
        flags = flags_by_evaluation(catalogue, chosen)
    protocol = catalogue.get(published.protocol, Protocol)
    theirs = {r.column for r in published.results}
    columns = tuple(
        c
        for column in protocol.columns
        if column.id in theirs
        and (c := _column(column.id, protocol, published, chosen, catalogue, flags)) is not None
    )
    unmatched = tuple(
        f"{e.title}: {', '.join(missing)}"
        for e in chosen
        if (missing := [r.column for r in e.results if r.column not in theirs])
    )
    pairs = [r.pair for c in columns for r in c.rows]
    agree = sum(p.agreement.state == "agrees" for p in pairs)
    disagree = sum(p.agreement.state == "disagrees" for p in pairs)
    if protocol.tolerance is None:
        tolerance_text = "The protocol sets no tolerance, so no agreement is computed."
        summary = tolerance_text
    else:
        percent = display_number(protocol.tolerance * 100)
        tolerance_text = f"Tolerance: ±{percent}% of the published value."
        summary = (
            f"{agree} of {plural(agree + disagree, 'reproduced value')} within the "
            f"protocol's tolerance of ±{percent}%."
        )
    if pairs and all(p.measured_status == "incomplete" for p in pairs):
        summary = INCOMPLETE_TEXT
    return ReproductionGroup(
        protocol_id=protocol.id,
        published_evaluation_id=published.id,
        published_title=published.title,
        published_origin=published.origin.value,
        measured_evaluation_ids=tuple(e.id for e in chosen),
        columns=columns,
        unmatched=unmatched,
        tolerance=protocol.tolerance,
        tolerance_text=tolerance_text,
        agree_count=agree,
        disagree_count=disagree,
        summary=summary,
        chart=group_chart(
            columns,
            protocol.metric.label,
            protocol.metric.unit,
            f"{published.title}: published value and reproductions",
        ),
    )


def protocol_reproduction_groups(
    protocol: Protocol,
    catalogue: Catalogue,
    *,
    flags: Mapping[str, tuple[Flag, ...]] | None = None,
) -> tuple[ReproductionGroup, ...]:
    """One group per published evaluation of `protocol` that a measurement reproduces,
    by published evaluation id."""
    evaluations = catalogue.evaluations_of(protocol.id)
    targets = sorted({e.reproduces for e in evaluations if e.reproduces is not None})
    groups = []
    for target in targets:
        published = catalogue.by_id.get(target)
        if isinstance(published, Evaluation):
            group = reproduction_group(published, evaluations, catalogue, flags=flags)
            if group is not None:
                groups.append(group)
    return tuple(groups)


def group_chart(
    columns: Sequence[ReproducedColumn], metric_label: str, unit: str, title: str
) -> Chart | None:
    """Bar chart geometry: per column the published bar, a bar per reproduction (labelled
    by its setup, closest first) and the estimates; the label column fits the labels."""
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
    label_width = min(
        MAX_LABEL_WIDTH, max(MIN_LABEL_WIDTH, round(max(map(len, labels)) * CHAR_WIDTH + 12))
    )
    axis_max, step = nice_axis(max(values))
    scale = PLOT_WIDTH / axis_max
    y = TOP
    groups = []
    for column in columns:
        label_y = y + GROUP_LABEL_HEIGHT - 8
        y += GROUP_LABEL_HEIGHT
        published_display = (
            display_number(column.published_value)
            if column.published_value is not None
            else OUT_OF_MEMORY
        )
        bars = [
            chart_bar(
                "published",
                "Published",
                column.published_value,
                published_display,
                y,
                scale,
                label_width,
            )
        ]
        y += BAR_HEIGHT + BAR_GAP
        for row in column.rows:
            pair = row.pair
            display = pair.measured_display
            if pair.agreement.ratio is not None:
                display = f"{display} (ratio {pair.agreement.ratio:.2f})"
            bars.append(
                chart_bar(
                    "reproduced", row.setup, pair.measured_value, display, y, scale, label_width
                )
            )
            y += BAR_HEIGHT + BAR_GAP
        for estimate in column.estimates:
            bars.append(
                chart_bar(
                    "estimate",
                    f"Estimate: {estimate.label}",
                    estimate.value,
                    estimate.display,
                    y,
                    scale,
                    label_width,
                )
            )
            y += BAR_HEIGHT + BAR_GAP
        groups.append(
            ChartGroup(column.column_id, column.column_label, round(label_y, 2), tuple(bars))
        )
        y += GROUP_GAP
    count = round(axis_max / step)
    ticks = tuple(
        ChartTick(
            round(i * step, 10),
            display_number(round(i * step, 10)),
            round(label_width + i * step * scale, 2),
        )
        for i in range(count + 1)
    )
    reproductions = sum(len(c.rows) for c in columns)
    return Chart(
        width=label_width + PLOT_WIDTH + RIGHT_MARGIN + 40,
        height=round(y + AXIS_HEIGHT, 2),
        plot_left=label_width,
        plot_right=label_width + PLOT_WIDTH,
        plot_top=TOP,
        plot_bottom=round(y, 2),
        axis_max=axis_max,
        axis_label=f"{metric_label} ({unit})",
        ticks=ticks,
        groups=tuple(groups),
        title=title,
        description=f"Published {metric_label.lower()} and {plural(reproductions, 'reproduction')} "
        f"over {plural(len(columns), 'column')}, each labelled by its setup, with analytical "
        "estimates; the table below lists every value.",
    )


def evaluation_reproductions(
    evaluation: Evaluation,
    catalogue: Catalogue,
    *,
    flags: Mapping[str, tuple[Flag, ...]] | None = None,
) -> tuple[ReproductionGroup, ...]:
    """For a measurement page: its own reproduction of the published evaluation it names;
    for a published evaluation's page: every reproduction of it. Empty when neither."""
    if evaluation.origin == Origin.rewire_measurement:
        published = catalogue.by_id.get(evaluation.reproduces or "")
        if not isinstance(published, Evaluation):
            return ()
        group = reproduction_group(published, [evaluation], catalogue, flags=flags)
    else:
        referring = [
            e for e in catalogue.referring(evaluation.id, Evaluation) if isinstance(e, Evaluation)
        ]
        group = reproduction_group(evaluation, referring, catalogue, flags=flags)
    return (group,) if group is not None else ()
