"""'Where sources overlap': the same checkpoint, task, metric and protocol class in two
sources, side by side (the task page's section, the model page's, and
`downloads/cross-source.csv`), worded from `derive.cross_source`'s facts.

The verdict is `derive.cross_source.judge`'s, computed once; this module words it and
never calls two values agreeing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..derive.cross_source import READING, Judgement, Overlap, Side, cross_source
from ..link import Catalogue
from ..models import Dataset, Evaluation, Protocol, ResultTable
from .contexts import CrossSourceRow, CrossSourceSection, CrossSourceSide, Link
from .downloads import csv_bytes
from .leaderboard import CLASS_LABELS
from .present.numbers import plural
from .urls import page_of

ROW_LIMIT = 40
"""Pairs (and conflicts) a page lists; beyond it, the largest differences against what
the stated spread allows are listed and the rest counted (a synthetic family of 100,000
table values had a 1 MB section). Every pair is in `CROSS_SOURCE`."""

CROSS_SOURCE = "downloads/cross-source.csv"
"""Every pair of sides and every conflict of the catalogue, one CSV line each."""

VERDICTS = {
    "disagrees": "Differs by more than the stated spread",
    "within_spread": "Within the stated spread",
    "spread_not_stated": "Spread not stated: not judged",
    "conflict": "Conflict: one source gives two values",
}
"""The reader's words for each verdict of `derive.cross_source.judge` (and a conflict)."""


def _number(value: float) -> str:
    return f"{value:.4g}"


def _settings(side: Side) -> str:
    return "".join(f", {name} {value}" for name, value in side.settings if name != "column")


def _value(side: Side) -> str:
    if side.spread is not None and side.n > 1:
        return f"{_number(side.value)} ± {_number(side.spread)} (sd of {side.n} runs)"
    if side.spread is not None:
        return f"{_number(side.value)} ± {_number(side.spread)} (stated)"
    runs = "one run" if side.n == 1 else f"mean of {side.n} runs"
    return f"{_number(side.value)} ({runs}, spread not stated)"


def _side(side: Side, catalogue: Catalogue) -> CrossSourceSide:
    record = catalogue.by_id.get(side.record)
    href = page_of(record) if record is not None else ""
    label = side.label
    if isinstance(record, Evaluation):
        configuration = catalogue.by_id.get(record.configuration)
        label = configuration.title if configuration is not None else record.configuration
    more = len(side.lines) - 1
    evidence = side.locator + (f", and {plural(more, 'more row')}" if more > 0 else "")
    return CrossSourceSide(side.source_name, label + _settings(side), _value(side), href, evidence)


def metric_label(overlap: Overlap, catalogue: Catalogue) -> str:
    """The metric's label as the first side's record names it, with the scale compared."""
    side = overlap.sides[0]
    record = catalogue.by_id.get(side.record)
    label = overlap.key.metric
    if isinstance(record, ResultTable):
        protocol = catalogue.by_id.get(record.protocol)
        for column in record.columns.metrics:
            if (
                isinstance(protocol, Protocol)
                and protocol.column_metric(column.metric).id == overlap.key.metric
            ):
                label = column.label
                break
    elif isinstance(record, Evaluation):
        protocol = catalogue.by_id.get(record.protocol)
        if isinstance(protocol, Protocol):
            label = protocol.column_metric(dict(side.settings).get("column", "")).label
    scale = "as a fraction" if overlap.key.scale == "fraction" else "as recorded"
    return f"{label}, {scale}"


TaskPath = Callable[[str], str]
"""The path of a task's page from its first dataset id (`chooser.pages.task_path`, given
by the caller: the task page family imports this module)."""


def _task_link(task: str, catalogue: Catalogue, task_path: TaskPath) -> Link:
    record = catalogue.by_id.get(task)
    return Link(record.title if isinstance(record, Dataset) else task, task_path(task))


def _row(
    overlap: Overlap,
    first: Side,
    second: Side,
    judgement: Judgement | None,
    catalogue: Catalogue,
    task_path: TaskPath,
) -> CrossSourceRow:
    state = judgement.verdict if judgement is not None else "conflict"
    difference = second.value - first.value
    return CrossSourceRow(
        task=_task_link(overlap.key.task, catalogue, task_path),
        checkpoint=overlap.key.checkpoint,
        metric=metric_label(overlap, catalogue),
        protocol_class=CLASS_LABELS[overlap.key.protocol_class],
        first=_side(first, catalogue),
        second=_side(second, catalogue),
        difference=f"{difference:+.4g}",
        allowed=_number(judgement.allowed) if judgement is not None else "",
        verdict=VERDICTS[state],
        state=state,
    )


def rows_of(
    overlaps: Iterable[Overlap], catalogue: Catalogue, task_path: TaskPath
) -> tuple[tuple[CrossSourceRow, ...], tuple[CrossSourceRow, ...]]:
    """(pairs of different sources, conflicts within a source) as rows."""
    pairs: list[CrossSourceRow] = []
    conflicts: list[CrossSourceRow] = []
    for overlap in overlaps:
        for j in overlap.judgements:
            pairs.append(_row(overlap, j.first, j.second, j, catalogue, task_path))
        for c in overlap.conflicts:
            conflicts.append(_row(overlap, c.first, c.second, None, catalogue, task_path))
    return tuple(pairs), tuple(conflicts)


def section(
    overlaps: Sequence[Overlap], catalogue: Catalogue, where: str, task_path: TaskPath
) -> CrossSourceSection:
    """The section of a page over `overlaps` (a task's or a family's); `where` names the
    page's subject in the summary ('on this task', 'for this model')."""
    pairs, conflicts = rows_of(overlaps, catalogue, task_path)
    listed = _listed(pairs, overlaps)
    if not overlaps:
        summary = (
            f"No checkpoint has results {where} in two sources under the same metric and "
            "protocol class."
        )
    else:
        counts = {state: sum(r.state == state for r in pairs) for state in VERDICTS}
        checkpoints = len({o.key.checkpoint for o in overlaps})
        sources = ", ".join(sorted({s.source_name for o in overlaps for s in o.sides}))
        summary = (
            f"{plural(checkpoints, 'checkpoint')} with results {where} in two or more "
            f"sources ({sources}) under the same metric and protocol class: "
            f"{plural(len(pairs), 'pair')}, {counts['disagrees']} differing by more than the "
            f"stated spread, {counts['within_spread']} within it, "
            f"{counts['spread_not_stated']} not judged (spread not stated)"
            + (f"; {plural(len(conflicts), 'conflict')} within one source." if conflicts else ".")
        )
        if len(listed) < len(pairs) or len(conflicts) > ROW_LIMIT:
            summary += (
                f" Listed: the {plural(len(listed), 'pair')} furthest beyond what the stated "
                "spread allows (differences beyond it first)"
                + (f" and the first {ROW_LIMIT} conflicts" if len(conflicts) > ROW_LIMIT else "")
                + "; every pair is in the download."
            )
    return CrossSourceSection(summary, READING, listed, conflicts[:ROW_LIMIT], CROSS_SOURCE)


def _listed(
    pairs: tuple[CrossSourceRow, ...], overlaps: Sequence[Overlap]
) -> tuple[CrossSourceRow, ...]:
    """All pairs up to `ROW_LIMIT`; beyond it the `ROW_LIMIT` disagreements whose
    difference most exceeds what the stated spread allows, then other pairs by the same
    excess (their page order kept)."""
    if len(pairs) <= ROW_LIMIT:
        return pairs
    judgements = [j for o in overlaps for j in o.judgements]
    excess = [abs(j.difference) - j.allowed for j in judgements]
    order = sorted(range(len(pairs)), key=lambda i: (pairs[i].state != "disagrees", -excess[i]))
    keep = set(order[:ROW_LIMIT])
    return tuple(p for i, p in enumerate(pairs) if i in keep)


def task_section(
    group_ids: Sequence[str], catalogue: Catalogue, task_path: TaskPath
) -> CrossSourceSection:
    """The task page's section: the keys of the task (its datasets `group_ids`)."""
    overlaps = cross_source(catalogue, datasets=group_ids)
    return section(overlaps, catalogue, "on this task", task_path)


def family_section(family_id: str, catalogue: Catalogue, task_path: TaskPath) -> CrossSourceSection:
    """The model page's section: the keys of the family's checkpoints."""
    overlaps = cross_source(catalogue, family=family_id)
    return section(overlaps, catalogue, "for this model", task_path)


HEADER = (
    "task",
    "task page",
    "model family",
    "checkpoint",
    "metric",
    "scale",
    "protocol class",
    "first source",
    "first record",
    "first label",
    "first settings",
    "first value",
    "first spread (sd)",
    "first n",
    "first locator",
    "second source",
    "second record",
    "second label",
    "second settings",
    "second value",
    "second spread (sd)",
    "second n",
    "second locator",
    "difference (second - first)",
    "stated spread + rounding",
    "verdict",
)


def _exact(value: float) -> str:
    """A computed number to 12 significant digits (a mean or sd carries float noise)."""
    return f"{value:.12g}"


def _cells(side: Side) -> tuple[str, ...]:
    settings = "; ".join(f"{name} {value}" for name, value in side.settings)
    spread = "" if side.spread is None else _exact(side.spread)
    return (
        side.source_name,
        side.record,
        side.label,
        settings,
        _exact(side.value),
        spread,
        str(side.n),
        side.locator,
    )


def cross_source_csv(catalogue: Catalogue, task_path: TaskPath) -> bytes:
    """Every pair of sides of different sources and every conflict within a source,
    with both values, spreads, n, locators, the difference and the verdict."""
    lines: list[tuple[str, ...]] = []
    for overlap in cross_source(catalogue):
        key = overlap.key
        task = _task_link(key.task, catalogue, task_path)
        pairs: list[tuple[Side, Side, float, str, str]] = [
            (j.first, j.second, j.difference, _exact(j.allowed), j.verdict)
            for j in overlap.judgements
        ]
        pairs += [
            (c.first, c.second, c.second.value - c.first.value, "", "conflict")
            for c in overlap.conflicts
        ]
        for first, second, difference, allowed, state in pairs:
            lines.append(
                (
                    task.text,
                    task.href,
                    key.family,
                    key.checkpoint,
                    key.metric,
                    key.scale,
                    key.protocol_class,
                    *_cells(first),
                    *_cells(second),
                    _exact(difference),
                    allowed,
                    VERDICTS[state],
                )
            )
    return csv_bytes(HEADER, lines)


__all__ = [
    "CROSS_SOURCE",
    "VERDICTS",
    "CrossSourceRow",
    "CrossSourceSection",
    "CrossSourceSide",
    "cross_source_csv",
    "family_section",
    "metric_label",
    "rows_of",
    "section",
    "task_section",
]
