"""Two model families compared on the tasks they share (issue 25): the results each has
under the same task, protocol, column, adaptation and split (`chooser.overlaps.
not_comparable` finds no reason against the pair), side by side, with the verdict layer's
judgement of each pair of values (`chooser.overlaps.better`: a difference within the
values' margin is a tie; a result a concern takes out of comparisons, a trivial result
among them, is not judged). Memory, time and throughput results are not tasks and are
left out. Pure; no overall score."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from ..link import Catalogue
from ..models import Configuration, Dataset, Evaluation, ModelFamily, Protocol
from ..models.evaluation import Result
from .comparability import ranking_value
from .concerns import Flag, excluded
from .model_results import ProtocolClass, family_evaluations, protocol_class
from .overlaps import better, not_comparable
from .readiness import is_resource_metric

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


@dataclass(frozen=True)
class ModelPair:
    left_id: str
    left_name: str
    right_id: str
    right_name: str
    rows: tuple[SharedRow, ...]
    """By protocol class, protocol title, task title, column."""

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
) -> ModelPair:
    """The two families' comparable results side by side (`entries`: each family's
    `family_entries`, when the caller has them)."""
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
    return ModelPair(left.id, left.name, right.id, right.name, tuple(rows))


def family_pairs(
    catalogue: Catalogue, flags: Mapping[str, tuple[Flag, ...]]
) -> tuple[ModelPair, ...]:
    """Every pair of families (by name) with at least one comparable shared result."""
    families = sorted(catalogue.families(), key=lambda f: (f.name.lower(), f.id))
    entries = {f.id: family_entries(f.id, catalogue) for f in families}
    out = []
    for left, right in combinations(families, 2):
        if not set(entries[left.id]) & set(entries[right.id]):
            continue
        pair = compare_families(left.id, right.id, catalogue, flags, entries)
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

    @property
    def task_count(self) -> int:
        return len({r.first_second.dataset_id for r in self.rows})


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
        if rows:
            out.append(ModelTriple((a, b, c), (names[a], names[b], names[c]), rows))
    return tuple(out)
