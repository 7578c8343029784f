"""Two model families compared on the tasks they share (issue 25): the results each has
under the same task, protocol, column, adaptation and split (`chooser.overlaps.
not_comparable` finds no reason against the pair), side by side, with the verdict layer's
judgement of each pair of values (`chooser.overlaps.better`: a difference within the
values' margin is a tie; a result a concern takes out of comparisons, a trivial result
among them, is not judged). Memory, time and throughput results are not tasks and are
left out. Pure; no overall score."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Literal

from ..link import Catalogue
from ..models import Configuration, Dataset, Evaluation, ModelFamily, Protocol
from ..models.evaluation import Result
from .comparability import ranking_value
from .concerns import Flag, excluded
from .model_results import (
    PROTOCOL_CLASSES,
    ProtocolClass,
    TableResult,
    family_evaluations,
    family_table_results,
    protocol_class,
)
from .overlaps import better, not_comparable
from .scales import is_resource_metric

Entry = tuple[Evaluation, Result, Protocol]
Key = tuple[str, str, str, str, str]
"""(dataset, protocol, column, adaptation, split) of a result: what must match."""

Outcome = Literal["left", "right", "tie", "not_judged"]


@dataclass(frozen=True)
class Side:
    """One result of one side."""

    evaluation_id: str
    configuration_title: str
    result: Result
    protocol: Protocol
    excluded: bool
    """True when a concern takes it out of comparisons (it is shown, never judged)."""


@dataclass(frozen=True)
class Judged:
    """One pair of results (a left and a right configuration) and the verdict on it."""

    left: int
    """Index into the row's `left`."""
    right: int
    outcome: Outcome
    difference: float | None
    """Left minus right on the metric's own scale (`ranking_value`); None when not judged."""


@dataclass(frozen=True)
class SharedRow:
    """One task, protocol and column both families have comparable results for."""

    dataset_id: str
    dataset_title: str
    protocol_id: str
    protocol_title: str
    column: str
    protocol_class: ProtocolClass
    left: tuple[Side, ...]
    right: tuple[Side, ...]
    pairs: tuple[Judged, ...]
    """Every comparable left-right pair, judged."""
    key: Key = ("", "", "", "", "")
    """What both sides' results share: dataset, protocol, column, adaptation, split."""

    def count(self, outcome: Outcome) -> int:
        return sum(1 for p in self.pairs if p.outcome == outcome)


TableKey = tuple[str, str, str]
"""(result table, task: its dataset id or 'label:<the source's task label>', metric
label) of an imported result-table value: what two families' rows must share."""


@dataclass(frozen=True)
class SharedTableRow:
    """One task and metric of one imported result table that every compared family has
    rows for: listed side by side under the table's protocol class, never judged (a
    table's rows of two models may differ in settings and seeds; its own page holds
    them all)."""

    protocol_class: ProtocolClass
    table_id: str
    table_title: str
    dataset_id: str | None
    """The task's dataset (None: the source's task label maps to no dataset)."""
    task: str
    """The dataset's title, else the source's task label."""
    metric: str
    sides: tuple[tuple[TableResult, ...], ...]
    """Each compared family's rows (by model label, settings), in the page's order."""
    key: TableKey = ("", "", "")


@dataclass(frozen=True)
class FamilyTables:
    """A family's imported result-table values by `TableKey`, and each table's protocol
    class and title."""

    rows: Mapping[TableKey, tuple[TableResult, ...]]
    tables: Mapping[str, tuple[ProtocolClass, str]]


def family_tables(family_id: str, catalogue: Catalogue) -> FamilyTables:
    """The family's result-table values (`model_results.family_table_results`) keyed by
    what another family's must match: table, task and metric."""
    rows: dict[TableKey, list[TableResult]] = defaultdict(list)
    tables: dict[str, tuple[ProtocolClass, str]] = {}
    for klass, found in family_table_results(family_id, catalogue).items():
        for table in found:
            tables[table.table_id] = (klass, table.table_title)
            for r in table.results:
                task = r.dataset_id or f"label:{r.task_label}"
                rows[(table.table_id, task, r.metric_label)].append(r)
    return FamilyTables({k: tuple(v) for k, v in rows.items()}, tables)


def shared_table_rows(families: Sequence[FamilyTables]) -> tuple[SharedTableRow, ...]:
    """The table, task and metric every one of `families` has rows for, by protocol class
    (`PROTOCOL_CLASSES` order), task, table and metric."""
    if not families:
        return ()
    keys = set(families[0].rows).intersection(*(f.rows for f in families[1:]))
    out = []
    for key in keys:
        klass, title = families[0].tables[key[0]]
        first = families[0].rows[key][0]
        out.append(
            SharedTableRow(
                klass,
                key[0],
                title,
                first.dataset_id,
                first.dataset_title,
                key[2],
                tuple(f.rows[key] for f in families),
                key,
            )
        )
    order = {k: i for i, k in enumerate(PROTOCOL_CLASSES)}
    out.sort(
        key=lambda r: (order.get(r.protocol_class, 99), r.task.lower(), r.table_title, r.metric)
    )
    return tuple(out)


@dataclass(frozen=True)
class ModelPair:
    left_id: str
    left_name: str
    right_id: str
    right_name: str
    rows: tuple[SharedRow, ...]
    """By protocol class, protocol title, task title, column."""
    table_rows: tuple[SharedTableRow, ...] = ()
    """Imported result-table values both have, by protocol class, task, table, metric."""

    @property
    def task_count(self) -> int:
        return len({r.dataset_id for r in self.rows})


def _text(value: str | None) -> str:
    return (value or "").strip().lower()


def family_entries(family_id: str, catalogue: Catalogue) -> dict[Key, list[Entry]]:
    """The family's task results with a value, by what must match to compare them."""
    found: dict[Key, list[Entry]] = defaultdict(list)
    protocols: dict[str, Protocol] = {}
    for evaluation in family_evaluations(family_id, catalogue):
        protocol = protocols.get(evaluation.protocol)
        if protocol is None:
            protocol = protocols[evaluation.protocol] = catalogue.get(evaluation.protocol, Protocol)
        if is_resource_metric(protocol):
            continue
        for result in evaluation.results:
            if result.value is None:
                continue
            key = (
                evaluation.dataset,
                protocol.id,
                result.column,
                _text(evaluation.comparison.adaptation),
                _text(evaluation.comparison.split),
            )
            found[key].append((evaluation, result, protocol))
    return found


def _judge(a: Entry, b: Entry, flags: Mapping[str, tuple[Flag, ...]]) -> Outcome | None:
    """The verdict on one pair; None when the pair is not comparable."""
    if not_comparable(a, b):
        return None
    column = a[1].column
    if excluded(flags.get(a[0].id, ()), column) or excluded(flags.get(b[0].id, ()), column):
        return "not_judged"
    found = better(a, b)
    return "left" if found == "first" else "right" if found == "second" else "tie"


def _side(entry: Entry, catalogue: Catalogue, flags: Mapping[str, tuple[Flag, ...]]) -> Side:
    evaluation, result, protocol = entry
    configuration = catalogue.get(evaluation.configuration, Configuration)
    return Side(
        evaluation.id,
        configuration.title,
        result,
        protocol,
        excluded(flags.get(evaluation.id, ()), result.column),
    )


def compare_families(
    left_id: str,
    right_id: str,
    catalogue: Catalogue,
    flags: Mapping[str, tuple[Flag, ...]],
    entries: Mapping[str, Mapping[Key, list[Entry]]] | None = None,
    tables: Mapping[str, FamilyTables] | None = None,
) -> ModelPair:
    """The two families' comparable results side by side, and the result-table values
    both have (`entries`, `tables`: each family's `family_entries` and `family_tables`,
    when the caller has them)."""
    left_entries = entries[left_id] if entries else family_entries(left_id, catalogue)
    right_entries = entries[right_id] if entries else family_entries(right_id, catalogue)
    rows: list[SharedRow] = []
    for key in sorted(set(left_entries) & set(right_entries)):
        lefts, rights = left_entries[key], right_entries[key]
        judged: list[Judged] = []
        for i, a in enumerate(lefts):
            for j, b in enumerate(rights):
                outcome = _judge(a, b, flags)
                if outcome is None:
                    continue
                difference = None
                if outcome != "not_judged":
                    va, vb = ranking_value(a[2], a[1]), ranking_value(b[2], b[1])
                    if va is not None and vb is not None:
                        difference = va - vb
                judged.append(Judged(i, j, outcome, difference))
        if not judged:
            continue
        evaluation, _, protocol = lefts[0]
        dataset = catalogue.get(evaluation.dataset, Dataset)
        rows.append(
            SharedRow(
                dataset.id,
                dataset.title,
                protocol.id,
                protocol.title,
                key[2],
                protocol_class(evaluation, protocol),
                tuple(_side(e, catalogue, flags) for e in lefts),
                tuple(_side(e, catalogue, flags) for e in rights),
                tuple(judged),
                key,
            )
        )
    rows.sort(
        key=lambda r: (
            r.protocol_class,
            r.protocol_title.lower(),
            r.dataset_title.lower(),
            r.column,
        )
    )
    left = catalogue.get(left_id, ModelFamily)
    right = catalogue.get(right_id, ModelFamily)
    left_tables = tables[left_id] if tables else family_tables(left_id, catalogue)
    right_tables = tables[right_id] if tables else family_tables(right_id, catalogue)
    return ModelPair(
        left.id,
        left.name,
        right.id,
        right.name,
        tuple(rows),
        shared_table_rows((left_tables, right_tables)),
    )


def family_pairs(
    catalogue: Catalogue, flags: Mapping[str, tuple[Flag, ...]]
) -> tuple[ModelPair, ...]:
    """Every pair of families (by name) with at least one comparable shared result, with
    the imported result-table values both have."""
    families = sorted(catalogue.families(), key=lambda f: (f.name.lower(), f.id))
    entries = {f.id: family_entries(f.id, catalogue) for f in families}
    tables = {f.id: family_tables(f.id, catalogue) for f in families}
    out = []
    for left, right in combinations(families, 2):
        if not set(entries[left.id]) & set(entries[right.id]):
            continue
        pair = compare_families(left.id, right.id, catalogue, flags, entries, tables)
        if pair.rows:
            out.append(pair)
    return tuple(out)


@dataclass(frozen=True)
class TripleRow:
    """One task, protocol and column all three families have comparable results for:
    the three pairwise rows (first-second, first-third, second-third)."""

    first_second: SharedRow
    first_third: SharedRow
    second_third: SharedRow


@dataclass(frozen=True)
class ModelTriple:
    ids: tuple[str, str, str]
    names: tuple[str, str, str]
    rows: tuple[TripleRow, ...]
    """Keys shared by all three pairs, in the first pair's order."""
    table_rows: tuple[SharedTableRow, ...] = ()
    """Imported result-table values all three have (sides in `ids` order)."""

    @property
    def task_count(self) -> int:
        return len(
            {r.first_second.dataset_id for r in self.rows}
            | {r.dataset_id or r.task for r in self.table_rows}
        )


def family_triples(pairs: tuple[ModelPair, ...]) -> tuple[ModelTriple, ...]:
    """Every three families (by name order, as `family_pairs`) whose three pairs share at
    least one task, protocol and column: three models compared on what all three hold."""
    by_ids = {(p.left_id, p.right_id): p for p in pairs}
    names = {p.left_id: p.left_name for p in pairs} | {p.right_id: p.right_name for p in pairs}
    order = list(dict.fromkeys(i for p in pairs for i in (p.left_id, p.right_id)))
    order.sort(key=lambda i: (names[i].lower(), i))
    out = []
    for a, b, c in combinations(order, 3):
        ab, ac, bc = by_ids.get((a, b)), by_ids.get((a, c)), by_ids.get((b, c))
        if ab is None or ac is None or bc is None:
            continue
        in_ac = {r.key: r for r in ac.rows}
        in_bc = {r.key: r for r in bc.rows}
        rows = tuple(
            TripleRow(r, in_ac[r.key], in_bc[r.key])
            for r in ab.rows
            if r.key in in_ac and r.key in in_bc
        )
        tabled_ac = {r.key: r for r in ac.table_rows}
        tabled_bc = {r.key for r in bc.table_rows}
        table_rows = tuple(
            replace(r, sides=(*r.sides, tabled_ac[r.key].sides[1]))
            for r in ab.table_rows
            if r.key in tabled_ac and r.key in tabled_bc
        )
        if rows:
            names3 = (names[a], names[b], names[c])
            out.append(ModelTriple((a, b, c), names3, rows, table_rows))
    return tuple(out)
