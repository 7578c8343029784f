"""Pages that compare two model families on the tasks they share (issue 25): one static
page per pair with comparable results (derive.model_compare.family_pairs), reachable from
the model directory and both family pages. Values side by side with their difference and
the verdict layer's judgement (better beyond the margin, tie, not judged); one table per
protocol; no overall score."""

from __future__ import annotations

from dataclasses import dataclass

from ..derive.model_compare import ModelPair, ModelTriple, SharedRow, SharedTableRow, Side
from ..derive.model_results import TableResult
from .contexts import Link, Page, page_header
from .model_page import CLASS_LABELS, table_value
from .present.numbers import plural
from .present.values import result_value, scale_unit
from .urls import record_path

COMPARE_DIR = "models/compare"


def compare_path(pair: ModelPair) -> str:
    """'models/compare/<left id>--<right id>/index.html'."""
    return f"{COMPARE_DIR}/{pair.left_id}--{pair.right_id}/index.html"


@dataclass(frozen=True)
class CompareValue:
    """One side's value in a compared pair."""

    configuration: str
    """The tested configuration's title."""
    value: Link
    """The value as every page shows it, linking to its evaluation."""
    note: str
    """'Taken out of comparisons by a concern' or ''."""


@dataclass(frozen=True)
class CompareLine:
    """One task and metric both models have comparable results for."""

    task: Link
    """The task (dataset) page."""
    metric: str
    """'MCC (correlation, -1 to 1)'."""
    left: tuple[CompareValue, ...]
    """The first model's values (one per tested configuration)."""
    right: tuple[CompareValue, ...]
    """The second model's values."""
    difference: str
    """First minus second on the metric's own scale ('+0.031'; '+0.005 to +0.031' over
    several pairs); '' when no pair is judged."""
    verdict: str
    """'DNABERT-2 higher', 'Tie within the values' margin', or over several pairs
    'DNABERT-2 higher in 3 of 4 pairs, 1 tie'."""


@dataclass(frozen=True)
class CompareTable:
    """The pairs under one protocol."""

    class_label: str
    """The protocol class."""
    protocol: Link
    """The protocol's page."""
    summary: str
    """'DNABERT-2 better in 40 pairs, Nucleotide Transformer in 30 pairs, 6 ties, 2 not
    judged.'"""
    lines: tuple[CompareLine, ...]
    """By task, metric."""


@dataclass(frozen=True)
class TableLineView:
    """One task and metric of an imported result table that every compared model has
    rows for: each model's rows side by side, not judged."""

    task: Link
    """The task's page ('' href: the source's task label maps to no task record)."""
    metric: str
    values: tuple[tuple[str, ...], ...]
    """Per model, in the page's order: each of its rows, 'NT-v2 500M (lr 3e-5): MCC
    0.61' or with mean, sd and n over seeds."""


@dataclass(frozen=True)
class TableGroup:
    """The shared lines of one imported result table (one protocol class)."""

    class_label: str
    """The table's protocol class."""
    table: Link
    """The result table's page (its rows, source file and hash)."""
    lines: tuple[TableLineView, ...]
    """By task, metric; at most `GROUP_LINES`."""
    more: str = ""
    """'12 further shared tasks and metrics are on the table's page.' or ''."""


GROUP_LINES = 40
"""Lines shown of one shared result table: a page stays well under 1 MB (a sweep table
shares hundreds of task and metric lines between two models; its own page has them all)."""


SIDE_ROWS = 4
"""A model's rows shown on one line of a shared result table; the rest are counted (a
sweep table holds dozens of settings per model and task; its own page lists them)."""


def _table_row_text(r: TableResult) -> str:
    settings = ", ".join(f"{name} {value}" for name, value in r.settings)
    return f"{r.model_label}{f' ({settings})' if settings else ''}: {table_value(r)}"


def _side_texts(side: tuple[TableResult, ...]) -> tuple[str, ...]:
    shown = tuple(_table_row_text(x) for x in side[:SIDE_ROWS])
    rest = len(side) - SIDE_ROWS
    if rest > 0:
        shown += (f"{plural(rest, 'further row')} on the table's page",)
    return shown


def table_groups(rows: tuple[SharedTableRow, ...]) -> tuple[TableGroup, ...]:
    """The shared result-table lines, one group per protocol class and table (in the
    order `derive.model_compare.shared_table_rows` gives: class, then task)."""
    groups: dict[tuple[str, str], list[TableLineView]] = {}
    titles: dict[str, str] = {}
    for r in rows:
        titles[r.table_id] = r.table_title
        groups.setdefault((r.protocol_class, r.table_id), []).append(
            TableLineView(
                Link(r.task, "" if r.dataset_id is None else record_path("dataset", r.dataset_id)),
                r.metric,
                tuple(_side_texts(side) for side in r.sides),
            )
        )
    return tuple(
        TableGroup(
            CLASS_LABELS[klass],
            Link(titles[table_id], record_path("result_table", table_id)),
            tuple(lines[:GROUP_LINES]),
            _more(len(lines) - GROUP_LINES),
        )
        for (klass, table_id), lines in groups.items()
    )


def _more(rest: int) -> str:
    if rest <= 0:
        return ""
    lines = plural(rest, "further shared task and metric", "further shared tasks and metrics")
    return f"{lines} {'is' if rest == 1 else 'are'} on the table's page."


def _tables_sentence(rows: tuple[SharedTableRow, ...]) -> str:
    if not rows:
        return ""
    tasks = len({r.dataset_id or r.task for r in rows})
    tables = len({r.table_id for r in rows})
    return (
        f" Imported result tables hold both on {plural(tasks, 'task')} in "
        f"{plural(tables, 'table')}, listed side by side and not judged."
    )


@dataclass(frozen=True)
class ModelComparePage(Page):
    left: Link
    """The first family's page."""
    right: Link
    """The second family's page."""
    answer: str
    """The comparison in a sentence, from the judged pairs."""
    tables: tuple[CompareTable, ...]
    """One per protocol."""
    table_groups: tuple[TableGroup, ...]
    """Imported result-table rows both models have, one group per protocol class and
    table; never judged, never ranked across classes."""
    others: tuple[Link, ...]
    """The other comparison pages."""


def _value(side: Side) -> CompareValue:
    metric = side.protocol.column_metric(side.result.column)
    shown = result_value(metric, side.result)
    return CompareValue(
        side.configuration_title,
        Link(shown.full, record_path("evaluation", side.evaluation_id)),
        "Taken out of comparisons by a concern" if side.excluded else "",
    )


def _difference(values: list[float]) -> str:
    if not values:
        return ""
    low, high = min(values), max(values)
    return f"{low:+.4g}" if low == high else f"{low:+.4g} to {high:+.4g}"


def _verdict(row: SharedRow, left: str, right: str, higher: bool) -> str:
    word = "higher" if higher else "lower"
    n = len(row.pairs)
    if n == 1:
        outcome = row.pairs[0].outcome
        if outcome == "left":
            return f"{left} {word}"
        if outcome == "right":
            return f"{right} {word}"
        if outcome == "tie":
            return "Tie within the values' margin"
        return "Not judged: a concern takes a value out of comparisons"
    parts = []
    for outcome, name in (("left", left), ("right", right)):
        if row.count(outcome):
            parts.append(f"{name} {word} in {row.count(outcome)} of {n} pairs")
    if row.count("tie"):
        parts.append(plural(row.count("tie"), "tie"))
    if row.count("not_judged"):
        parts.append(f"{row.count('not_judged')} not judged")
    return ", ".join(parts)


def _line(row: SharedRow, left: str, right: str) -> CompareLine:
    protocol = row.left[0].protocol
    metric = protocol.column_metric(row.column)
    label = next((c.label for c in protocol.columns if c.id == row.column), row.column)
    higher = (row.left[0].result.direction or metric.direction) == "higher"
    used_left = sorted({p.left for p in row.pairs})
    used_right = sorted({p.right for p in row.pairs})
    return CompareLine(
        Link(row.dataset_title, record_path("dataset", row.dataset_id)),
        f"{label} ({scale_unit(metric)})",
        tuple(_value(row.left[i]) for i in used_left),
        tuple(_value(row.right[i]) for i in used_right),
        _difference([p.difference for p in row.pairs if p.difference is not None]),
        _verdict(row, left, right, higher),
    )


def _summary(rows: list[SharedRow], left: str, right: str) -> str:
    counts = {o: sum(r.count(o) for r in rows) for o in ("left", "right", "tie", "not_judged")}
    text = (
        f"{left} better in {plural(counts['left'], 'pair')}, {right} in "
        f"{plural(counts['right'], 'pair')}, {plural(counts['tie'], 'tie')}"
    )
    if counts["not_judged"]:
        text += f", {counts['not_judged']} not judged"
    return text + "."


def compare_page(pair: ModelPair, others: tuple[Link, ...], release_id: str) -> ModelComparePage:
    left, right = pair.left_name, pair.right_name
    by_protocol: dict[str, list[SharedRow]] = {}
    for row in pair.rows:
        by_protocol.setdefault(row.protocol_id, []).append(row)
    tables = []
    for rows in by_protocol.values():
        first = rows[0]
        lines = [_line(r, left, right) for r in rows]
        tables.append(
            CompareTable(
                CLASS_LABELS[first.protocol_class],
                Link(first.protocol_title, record_path("protocol", first.protocol_id)),
                _summary(rows, left, right),
                tuple(lines),
            )
        )
    judged = [p for r in pair.rows for p in r.pairs]
    answer = (
        (
            f"{left} and {right} have comparable results on "
            f"{plural(pair.task_count, 'task')} under {plural(len(tables), 'protocol')} "
            f"(same task, protocol, metric, adaptation and split): "
            f"{_summary(list(pair.rows), left, right)} A pair is one tested configuration of "
            f"each model; {plural(len(judged), 'pair')} on "
            f"{plural(len(pair.rows), 'task and metric', 'tasks and metrics')}. A count of "
            "pairs is not a measure of how much better, and there is no overall score."
        )
        if pair.rows
        else f"{left} and {right} have no evaluation records under one protocol."
    ) + _tables_sentence(pair.table_rows)
    return ModelComparePage(
        **page_header(
            "model_compare.html",
            compare_path(pair),
            f"{left} and {right} compared",
            f"{left} and {right} side by side on the tasks both have comparable results for.",
            release_id,
            nav="models",
        ),
        left=Link(left, record_path("model_family", pair.left_id)),
        right=Link(right, record_path("model_family", pair.right_id)),
        answer=answer,
        tables=tuple(tables),
        table_groups=table_groups(pair.table_rows),
        others=tuple(o for o in others if o.href != compare_path(pair)),
    )


def compare_links(pairs: tuple[ModelPair, ...]) -> tuple[Link, ...]:
    """Every comparison page: 'DNABERT-2 and HyenaDNA (57 shared tasks)'."""
    return tuple(
        Link(
            f"{p.left_name} and {p.right_name} ({plural(p.task_count, 'shared task')})",
            compare_path(p),
        )
        for p in pairs
    )


def compare_pages(pairs: tuple[ModelPair, ...], release_id: str) -> list[ModelComparePage]:
    """One page per pair."""
    links = compare_links(pairs)
    return [compare_page(p, links, release_id) for p in pairs]


def triple_path(triple: ModelTriple) -> str:
    """'models/compare/<a>--<b>--<c>/index.html'."""
    return f"{COMPARE_DIR}/{'--'.join(triple.ids)}/index.html"


@dataclass(frozen=True)
class PairVerdict:
    """One pair's verdict on a line of a three-model comparison."""

    pair: str
    """'DNABERT-2 and HyenaDNA'."""
    difference: str
    """First minus second ('+0.031', a range over several pairs, '' when none judged)."""
    verdict: str
    """As on the two-model page."""


@dataclass(frozen=True)
class TripleLine:
    """One task and metric all three models have comparable results for."""

    task: Link
    """The task (dataset) page."""
    metric: str
    """'MCC (correlation, -1 to 1)'."""
    values: tuple[tuple[CompareValue, ...], ...]
    """Each model's values, in the page's model order."""
    verdicts: tuple[PairVerdict, ...]
    """The three pairs' verdicts."""


@dataclass(frozen=True)
class TripleTable:
    """The lines under one protocol."""

    class_label: str
    """The protocol class."""
    protocol: Link
    """The protocol's page."""
    lines: tuple[TripleLine, ...]
    """By task, metric."""


@dataclass(frozen=True)
class ModelTriplePage(Page):
    models: tuple[Link, ...]
    """The three families' pages."""
    answer: str
    """What the page holds, in a sentence."""
    tables: tuple[TripleTable, ...]
    """One per protocol."""
    table_groups: tuple[TableGroup, ...]
    """Imported result-table rows all three models have (as on the two-model page)."""
    pairs: tuple[Link, ...]
    """The two-model pages of the three pairs."""


def _pair_verdict(row: SharedRow, left: str, right: str) -> PairVerdict:
    line = _line(row, left, right)
    return PairVerdict(f"{left} and {right}", line.difference, line.verdict)


def triple_page(triple: ModelTriple, release_id: str) -> ModelTriplePage:
    a, b, c = triple.names
    by_protocol: dict[str, list[TripleLine]] = {}
    first: dict[str, SharedRow] = {}
    for row in triple.rows:
        ab, ac, bc = row.first_second, row.first_third, row.second_third
        base = _line(ab, a, b)
        line = TripleLine(
            base.task,
            base.metric,
            (base.left, base.right, _line(ac, a, c).right),
            (_pair_verdict(ab, a, b), _pair_verdict(ac, a, c), _pair_verdict(bc, b, c)),
        )
        by_protocol.setdefault(ab.protocol_id, []).append(line)
        first.setdefault(ab.protocol_id, ab)
    tables = tuple(
        TripleTable(
            CLASS_LABELS[first[pid].protocol_class],
            Link(first[pid].protocol_title, record_path("protocol", pid)),
            tuple(lines),
        )
        for pid, lines in by_protocol.items()
    )
    names = f"{a}, {b} and {c}"
    pair_links = tuple(
        Link(f"{x} and {y}", f"{COMPARE_DIR}/{i}--{j}/index.html")
        for (x, i), (y, j) in (
            ((a, triple.ids[0]), (b, triple.ids[1])),
            ((a, triple.ids[0]), (c, triple.ids[2])),
            ((b, triple.ids[1]), (c, triple.ids[2])),
        )
    )
    return ModelTriplePage(
        **page_header(
            "model_compare3.html",
            triple_path(triple),
            f"{names} compared",
            f"{names} side by side on the tasks all three have comparable results for.",
            release_id,
            nav="models",
        ),
        models=tuple(
            Link(name, record_path("model_family", i))
            for name, i in zip(triple.names, triple.ids, strict=True)
        ),
        answer=(
            f"{names} all have comparable results on {plural(triple.task_count, 'task')} "
            f"under {plural(len(tables), 'protocol')} (same task, protocol, metric, "
            "adaptation and split). Each line gives the three models' values and each "
            "pair's verdict; there is no overall score."
            + _tables_sentence(triple.table_rows).replace("hold both", "hold all three")
        ),
        tables=tables,
        table_groups=table_groups(triple.table_rows),
        pairs=pair_links,
    )


def triple_links(triples: tuple[ModelTriple, ...]) -> tuple[Link, ...]:
    """Every three-model page: 'DNABERT-2, HyenaDNA and Nucleotide Transformer (57 shared
    tasks)'."""
    return tuple(
        Link(
            f"{', '.join(t.names[:2])} and {t.names[2]} ({plural(t.task_count, 'shared task')})",
            triple_path(t),
        )
        for t in triples
    )
