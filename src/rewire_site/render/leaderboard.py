"""The leaderboard of a task page as its template shows it (issue 25): the answer in
words, one table per protocol with its chart, and the filter values of each row. The
facts (values, best marks, spread, evidence) come from `derive.leaderboard`; this module
only words, formats and draws them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..derive.boards import (
    AdaptationClass,
    Board,
    BoardModel,
    BoardValue,
    ClassAnswer,
    TableConcern,
    TaskBoards,
)
from ..link import Catalogue
from ..models import Metric, Protocol
from .contexts import Link
from .present.flags import flag_label
from .present.names import row_title
from .present.numbers import display_number, plural
from .present.values import scale_unit, scaled_value
from .result_table import row_anchor
from .urls import page_of

CLASS_LABELS: dict[AdaptationClass, str] = {
    "fine_tuned": "Fine-tuned",
    "parameter_efficient": "Parameter-efficient fine-tuning",
    "frozen_probe": "Frozen probe",
    "zero_shot": "Zero-shot",
    "other": "Other or not stated",
}
"""What a reader reads for each protocol class."""

CLASS_PHRASES: dict[AdaptationClass, str] = {
    "fine_tuned": "full fine-tuning",
    "parameter_efficient": "parameter-efficient fine-tuning",
    "frozen_probe": "a frozen probe (a classifier on frozen embeddings)",
    "zero_shot": "zero-shot use",
    "other": "other or unstated adaptation",
}

SIZE_BINS: tuple[tuple[str, str, float], ...] = (
    ("small", "under 100 million parameters", 1e8),
    ("medium", "100 million to 1 billion", 1e9),
    ("large", "1 billion or more", math.inf),
)
CONTEXT_BINS: tuple[tuple[str, str, float], ...] = (
    ("short", "under 2 kb", 2_000),
    ("mid", "2 kb to 32 kb", 32_000),
    ("long", "32 kb or more", math.inf),
)
UNKNOWN = ("unknown", "not stated")
MAX_SOURCE_FILTERS = 16
"""Source filters the stylesheet has rules for (`f-src-0` ... `f-src-15`); a page with
more sources lists every source but filters the first 16 only."""

CHART_WIDTH = 480
ROW_HEIGHT = 34
LABEL_GAP = 14
AXIS_HEIGHT = 44
MAX_LABEL = 48
"""Characters of a model's name a chart row shows (the table beside it has the whole)."""


@dataclass(frozen=True)
class FilterOption:
    key: str
    """The element id suffix and data value ('fine_tuned', 'small', '0')."""
    label: str
    """What the checkbox says ('Frozen probe', 'under 2 kb')."""
    count: int
    """Rows (or tables, or models) it covers."""


@dataclass(frozen=True)
class BoardCell:
    """One value of a board."""

    text: str
    """The value as every page shows it ('0.8483', '96.6%'), '' without a value."""
    href: str
    """The value's evidence (its evaluation's page, or the table row's anchor)."""
    best: bool
    """Marked best by the verdict layer."""
    note: str
    """'best of 6 comparable', 'tied for best', 'ranked', 'not ranked: ...', 'excluded
    from comparisons: ...', 'rounded from ...', spread and seeds."""
    label: str
    """The column's label (shown before the value when a phone stacks the row)."""
    detail: str = ""
    """The printed value where the shown one is rounded or converted ('rounded from
    0.8483157111445417'): the value's tooltip; its evidence page shows it too."""


@dataclass(frozen=True)
class BoardRowView:
    model: Link
    """The configuration as the source ran it, linked to its page."""
    size: str
    """Parameters of its checkpoint ('500M') or 'not stated'."""
    size_bin: str
    """`SIZE_BINS` key (or 'unknown'): what the size filter hides."""
    context: str
    """Longest input in base pairs ('12 kb') or 'not stated'."""
    context_bin: str
    """`CONTEXT_BINS` key (or 'unknown')."""
    cells: tuple[BoardCell, ...]
    """One per column of the board."""


@dataclass(frozen=True)
class ChartPoint:
    label: str
    """The model (cut to `MAX_LABEL` characters)."""
    value_text: str
    """The value as the table shows it."""
    x: float
    """The value's position in SVG units."""
    low: float
    """Left end of its uncertainty bar."""
    high: float
    """Right end of its uncertainty bar."""
    y: float
    """The row's line in SVG units."""
    best: bool
    """Marked best by the verdict layer."""


@dataclass(frozen=True)
class ChartTick:
    x: float
    """Position in SVG units."""
    text: str
    """The axis value."""


@dataclass(frozen=True)
class BoardChart:
    """A dot chart of one column with uncertainty bars, every coordinate in SVG units."""

    width: int
    """The viewBox width."""
    height: int
    """The viewBox height."""
    title: str
    """'MCC by model (higher is better)'."""
    description: str
    """How many values and what the bars show."""
    axis_label: str
    """The metric and its unit."""
    axis_y: float
    """The axis line's height."""
    left: float
    """The axis's left end."""
    right: float
    """The axis's right end."""
    ticks: tuple[ChartTick, ...]
    """Axis values."""
    points: tuple[ChartPoint, ...]
    """One per value, in table order."""


@dataclass(frozen=True)
class BoardView:
    anchor: str
    """The table's id on the page ('board-1')."""
    adaptation: str
    """Its protocol class key (what the adaptation filter hides)."""
    adaptation_label: str
    """'Frozen probe'."""
    heading: Link
    """The protocol."""
    dataset: Link
    """The dataset record the values are on."""
    source: str
    """The publications the values come from ('Feng et al. 2024')."""
    source_index: int
    """Index of `source` in the page's source filter."""
    conditions: str
    """The adaptations and origins as recorded."""
    columns: tuple[str, ...]
    """Column headers: the metric with its direction."""
    rows: tuple[BoardRowView, ...]
    """Models, best first in the first column."""
    chart: BoardChart | None
    """The first column's chart (None under two values)."""
    ranking_note: str
    """How best marks are given, or why none is."""
    wide: bool
    """More than two value columns: the chart goes below the table, not beside it."""


@dataclass(frozen=True)
class Leaderboard:
    answers: tuple[str, ...]
    """The answer first: one sentence per protocol class, from the verdict layer's marks."""
    boards: tuple[BoardView, ...]
    """One table per protocol (and dataset), in protocol-class order."""
    classes: tuple[FilterOption, ...]
    """Filter: the protocol classes present, with their model counts."""
    sizes: tuple[FilterOption, ...]
    """Filter: model-size bins present, with their row counts."""
    contexts: tuple[FilterOption, ...]
    """Filter: context-length bins present, with their row counts."""
    sources: tuple[FilterOption, ...]
    """Filter: the sources, with their table counts."""
    other_protocols: tuple[Link, ...]
    """Protocols measuring memory or time on the task (not ranked here)."""
    summary: str
    """'12 results of 9 models from 3 sources in 4 tables.'"""


def _bin(value: float | None, bins: Sequence[tuple[str, str, float]]) -> str:
    if value is None:
        return UNKNOWN[0]
    return next(key for key, _, bound in bins if value < bound)


def size_text(parameters: float | None) -> str:
    if parameters is None:
        return "not stated"
    if parameters >= 1e9:
        return f"{display_number(parameters / 1e9, 3)}B"
    if parameters >= 1e6:
        return f"{display_number(parameters / 1e6, 3)}M"
    return display_number(parameters, 3)


def context_text(base_pairs: float | None) -> str:
    if base_pairs is None:
        return "not stated"
    if base_pairs >= 1000:
        return f"{display_number(base_pairs / 1000, 3)} kb"
    return f"{display_number(base_pairs, 3)} bp"


def _metric(protocol: Protocol, column: str) -> Metric:
    return protocol.column_metric(column)


def value_text(metric: Metric, value: BoardValue) -> tuple[str, str, float | None]:
    """(shown text, note, value on the shown scale) of one board value, by the one rule
    every page uses (`display.scaled_value`)."""
    shown = scaled_value(metric, value.recorded, "value", value.recorded_scale, value.printed)
    return shown.text, shown.note, shown.value


def _to_shown(metric: Metric, amount: float) -> float:
    """A margin or spread on the metric's own scale, on the scale values are shown on."""
    shown = scaled_value(metric, 1.0, "value", metric.scale, None).value
    if shown is None or metric.scale is None:
        return amount
    return amount * shown  # a scale change is a factor (x100 or /100)


TABLE_CONCERN_LABELS: dict[TableConcern, str] = {
    TableConcern.TRIVIAL: "no better than a trivial answer",
}
"""A result table's own concerns (`derive.boards.TableConcern`) as a board value's note
names them."""


def _standing_note(value: BoardValue, rivals: int) -> str:
    if value.standing == "best":
        return f"best of {rivals} comparable"
    if value.standing == "tied":
        return "tied for best"
    if value.standing == "excluded":
        labels = (
            TABLE_CONCERN_LABELS[c] if isinstance(c, TableConcern) else flag_label(c)
            for c in value.concerns
        )
        return "excluded from comparisons: " + "; ".join(dict.fromkeys(labels))
    if value.standing == "unstated":
        return "not ranked: its conditions are not all stated"
    if value.standing == "alone":
        return "not ranked: no comparable result"
    return ""


def _model_link(model: BoardModel, catalogue: Catalogue) -> Link:
    record = catalogue.by_id.get(model.record) if model.record else None
    title = row_title(model.name)
    title = title if model.pinned else f"{title} (checkpoint not pinned)"
    return Link(title, page_of(record) if record is not None else "")


def _evidence_href(value: BoardValue, catalogue: Catalogue) -> str:
    """The evaluation's page, or the result table's row (its rows page and anchor)."""
    if value.evidence.line is not None:
        return row_anchor(value.evidence.record_id, value.evidence.line, catalogue)
    record = catalogue.by_id.get(value.evidence.record_id)
    return page_of(record) if record is not None else ""


def _ticks(low: float, high: float) -> tuple[float, float, list[float]]:
    """A nice axis from `low` to `high`: (start, stop, tick values)."""
    if high <= low:
        high = low + (abs(low) or 1.0) * 0.1
        low -= (abs(low) or 1.0) * 0.1
    raw = (high - low) / 4
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    start = math.floor(low / step) * step
    stop = math.ceil(high / step) * step
    count = round((stop - start) / step)
    return start, stop, [start + i * step for i in range(count + 1)]


def board_chart(
    board: Board, column: int, metric: Metric, rows: Sequence[BoardRowView]
) -> BoardChart | None:
    """A dot chart of `column`'s values with their uncertainty bars (spread where known,
    else the value's margin), on the scale values are shown on; None without two values."""
    found: list[tuple[str, str, float, float, bool]] = []
    for row, view in zip(board.rows, rows, strict=True):
        value = row.values[column]
        if value is None:
            continue
        text, _, shown = value_text(metric, value)
        if shown is None:
            continue
        error = _to_shown(metric, value.spread if value.spread is not None else value.margin)
        label = view.model.text
        if len(label) > MAX_LABEL:
            label = label[: MAX_LABEL - 1].rstrip() + "…"
        found.append((label, text, shown, error, value.standing == "best"))
    if len(found) < 2:
        return None
    low = min(v - e for _, _, v, e, _ in found)
    high = max(v + e for _, _, v, e, _ in found)
    start, stop, ticks = _ticks(low, high)
    left, right = 24.0, CHART_WIDTH - 24.0

    def x(v: float) -> float:
        return round(left + (v - start) / (stop - start) * (right - left), 1)

    points = tuple(
        ChartPoint(
            label,
            text,
            x(v),
            x(max(v - e, start)),
            x(min(v + e, stop)),
            i * ROW_HEIGHT + LABEL_GAP + 8,
            best,
        )
        for i, (label, text, v, e, best) in enumerate(found)
    )
    axis_y = len(found) * ROW_HEIGHT + 8
    unit = scale_unit(metric)
    digits = max(0, -math.floor(math.log10(ticks[1] - ticks[0])) + 1) if len(ticks) > 1 else 2
    label = metric.label + (f" ({unit})" if unit else "")
    direction = "higher is better" if metric.direction == "higher" else "lower is better"
    return BoardChart(
        width=CHART_WIDTH,
        height=int(axis_y + AXIS_HEIGHT),
        title=f"{metric.label} by model ({direction})",
        description=(
            f"{plural(len(found), 'value')}; bars show the stated spread or uncertainty "
            "where the source gives one, else the rounding margin of the printed value."
        ),
        axis_label=label,
        axis_y=axis_y,
        left=left,
        right=right,
        ticks=tuple(ChartTick(x(t), f"{t:.{min(digits, 6)}f}") for t in ticks),
        points=points,
    )


def _conditions(board: Board) -> str:
    adaptations = "; ".join(a or "not stated" for a in board.adaptations)
    origins = ", ".join(o.replace("_", " ") for o in board.origins)
    return f"Adaptation as recorded: {adaptations}. Origin: {origins}."


def board_view(
    board: Board, index: int, source_index: int, catalogue: Catalogue, task: str
) -> BoardView:
    protocol = catalogue.by_id.get(board.protocol_id)
    assert isinstance(protocol, Protocol)
    dataset = catalogue.by_id.get(board.dataset_id)
    metrics = [_metric(protocol, c.key) for c in board.columns]
    rivals = [
        sum(r.values[i] is not None and r.values[i].standing in ("best", "tied", "ranked")  # type: ignore[union-attr]
            for r in board.rows)
        for i in range(len(board.columns))
    ]  # fmt: skip
    rows: list[BoardRowView] = []
    for row in board.rows:
        cells = []
        for i, value in enumerate(row.values):
            label = board.columns[i].label
            if value is None:
                cells.append(BoardCell("", "", False, "", label))
                continue
            text, note, _ = value_text(metrics[i], value)
            short = note.split(" ")[0] if note.startswith("rounded") else note
            notes = [n for n in (_standing_note(value, rivals[i]), short) if n]
            if value.spread is not None:
                spread = display_number(_to_shown(metrics[i], value.spread), 2)
                notes.append(f"sd {spread}" + (f" over {value.n} seeds" if value.n else ""))
            cells.append(
                BoardCell(
                    text,
                    _evidence_href(value, catalogue),
                    value.standing == "best",
                    "; ".join(notes),
                    label,
                    note,
                )
            )
        rows.append(
            BoardRowView(
                _model_link(row.model, catalogue),
                size_text(row.model.parameters),
                _bin(row.model.parameters, SIZE_BINS),
                context_text(row.model.context_bp),
                _bin(row.model.context_bp, CONTEXT_BINS),
                tuple(cells),
            )
        )
    headers = tuple(
        f"{c.label} ({'higher' if c.direction == 'higher' else 'lower'} is better)"
        for c in board.columns
    )
    chart = board_chart(board, 0, metrics[0], rows) if metrics else None
    ranked = board.ranked
    return BoardView(
        anchor=f"board-{index + 1}",
        adaptation=board.adaptation,
        adaptation_label=CLASS_LABELS[board.adaptation],
        heading=Link(protocol.title, page_of(protocol)),
        dataset=Link(
            getattr(dataset, "title", board.dataset_id), page_of(dataset) if dataset else ""
        ),
        source=", ".join(board.publications),
        source_index=source_index,
        conditions=_conditions(board),
        columns=headers,
        rows=tuple(rows),
        chart=chart,
        wide=len(board.columns) > 2,
        ranking_note=(
            "Best is marked only where a value leads every comparable rival by more than "
            "their margins, and never for a value a concern takes out of comparisons."
            if ranked
            else "No value here can be ranked: each lacks a comparable rival or a stated "
            "condition, so none is marked best."
        ),
    )


def answer_text(
    answer: ClassAnswer, boards: Sequence[Board], catalogue: Catalogue, task: str
) -> str:
    """The answer of one protocol class in words, from the verdict layer's marks: 'On
    <task>, under <class>, ...' ('' for `task`: 'Under <class>, ...')."""
    board = boards[answer.board]
    phrase = CLASS_PHRASES[answer.adaptation]
    opening = f"On {task}, under {phrase}" if task else f"Under {phrase}"
    counts = (
        f"{plural(answer.models, 'model')}, {plural(answer.sources, 'source')} under this class."
    )
    if answer.state == "unranked" or not board.columns:
        return (
            f"{opening}, no value can be ranked (no comparable rival, or a "
            f"condition not stated); {counts}"
        )
    protocol = catalogue.by_id.get(board.protocol_id)
    assert isinstance(protocol, Protocol)
    column = board.columns[answer.column]
    metric = _metric(protocol, column.key)
    top = board.rows[answer.rows[0]]
    value = top.values[answer.column]
    assert value is not None
    text, _, _ = value_text(metric, value)
    word = "highest" if column.direction == "higher" else "lowest"
    source = ", ".join(board.publications)
    if answer.state == "best" and not answer.beyond:
        return (
            f"{opening}, the {word} {column.label} is {text} for "
            f"{row_title(top.model.name)} ({source}); {counts}"
        )
    if answer.state == "best":
        return (
            f"{opening}, the best {column.label} of the comparable results is {text} for "
            f"{row_title(top.model.name)} ({source}); {plural(answer.beyond, 'better value')} "
            f"{'is' if answer.beyond == 1 else 'are'} not ranked (see the table); {counts}"
        )
    names = [row_title(board.rows[i].model.name) for i in answer.rows]
    return (
        f"{opening}, no single model leads on {column.label}: "
        f"{plural(len(names), 'model')} are within the margin of the top value {text} "
        f"({', '.join(names[:3])}{', ...' if len(names) > 3 else ''}; {source}); {counts}"
    )


def leaderboard(found: TaskBoards, catalogue: Catalogue, task: str) -> Leaderboard:
    """The task page's leaderboard of `found` (the task titled `task`)."""
    publications = list(dict.fromkeys(", ".join(b.publications) for b in found.boards))
    views = tuple(
        board_view(b, i, publications.index(", ".join(b.publications)), catalogue, task)
        for i, b in enumerate(found.boards)
    )
    rows = [r for v in views for r in v.rows]
    classes = tuple(
        FilterOption(a.adaptation, CLASS_LABELS[a.adaptation], a.models) for a in found.answers
    )

    def options(bins: Sequence[tuple[str, str, float]], attr: str) -> tuple[FilterOption, ...]:
        keys = [getattr(r, attr) for r in rows]
        return tuple(
            FilterOption(key, label, keys.count(key))
            for key, label in [(k, lab) for k, lab, _ in bins] + [UNKNOWN]
            if key in keys
        )

    models = {r.model.key for b in found.boards for r in b.rows}
    results = sum(v is not None for b in found.boards for r in b.rows for v in r.values)
    other = tuple(
        Link(p.title, page_of(p))
        for p in (catalogue.by_id.get(i) for i in found.other_protocols)
        if isinstance(p, Protocol)
    )
    return Leaderboard(
        answers=tuple(
            answer_text(a, found.boards, catalogue, task if i == 0 else "")
            for i, a in enumerate(found.answers)
        ),
        boards=views,
        classes=classes,
        sizes=options(SIZE_BINS, "size_bin"),
        contexts=options(CONTEXT_BINS, "context_bin"),
        sources=tuple(
            FilterOption(str(i), name, sum(v.source_index == i for v in views))
            for i, name in enumerate(publications[:MAX_SOURCE_FILTERS])
        ),
        other_protocols=other,
        summary=(
            f"{plural(results, 'result')} of {plural(len(models), 'model')} from "
            f"{plural(len({p for b in found.boards for p in b.publications}), 'source')} "
            f"in {plural(len(views), 'table')}."
        ),
    )
