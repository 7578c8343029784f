"""Cross-source agreement: the same model checkpoint, task, metric and protocol class
reported by two or more sources, side by side (issue 24).

What is "the same":
- model: a pinned checkpoint (family and checkpoint name). A result-table row names it
  through its label (`labels` on the family's checkpoint); an evaluation through its
  configuration's `checkpoint` text, where that text starts with the name of one of the
  family's checkpoints. A label known only at family level is never compared.
- task: one task group (`overlaps.task_groups`: datasets merged only through `same_task`,
  each link with its evidence of the same files and split).
- metric: the protocol metric's id, values on the fraction scale where the metric has a
  scale (0.87 and 87% are one value), else as recorded.
- protocol class: the leaderboards' class (`leaderboard.adaptation_class` of an
  evaluation's adaptation; a result table's own `adaptation`). Different classes are
  never compared.

A source is a result table's label scope (the importer's source: Lindsey et al.'s four
tables are one source) or, for an evaluation, the publication of its result's citation.
Rewire's own measurements are not a source here (the reproduction verdict judges them
against what they reproduce), and memory and time protocols are not compared (they
depend on the hardware).
Only ranked tables are read (a whole hyperparameter sweep is not a reported result).

A side is one source's value for the key under one setting (the source's settings but
its repeats): the mean over repeated runs (seeds, replicates) with their sample standard
deviation and n, or the one value. Where one source reports the same key under the same
settings twice with different values (two labels of one checkpoint, say), that is a
conflict; both sides stay listed.

The verdict on two sides of different sources is `judge`, the one rule (its reading is
`READING`): never "agrees".
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..link import Catalogue
from ..models import Configuration, Evaluation, ModelFamily, Protocol, ResultTable
from ..models.common import Scale
from ..models.evaluation import Origin
from ..models.scales import to_scale
from ..table_rows import ResultTableRow
from .boards import AdaptationClass, adaptation_class, publication
from .comparability import ROUNDING_MARGIN, last_digit, stated_uncertainty
from .model_results import family_evaluations
from .overlaps import task_groups
from .scales import is_resource_metric
from .table_facts import repeat_positions

Verdict = Literal["disagrees", "within_spread", "spread_not_stated"]

READING = (
    "A side's spread is the sample standard deviation of the repeated runs (seeds or "
    "replicates) it reports, or the uncertainty it states; a single run without a stated "
    "uncertainty states no spread. Two sides of different sources are judged on the same "
    "scale: their difference is a disagreement when it is larger than the sum of the "
    "spreads they state plus half a unit of the last digit each printed; where neither "
    "side states a spread, the pair is not judged ('spread not stated'); otherwise it is "
    "within the stated spread. Within the spread is never called agreement: a side "
    "without a spread may be further off than it shows."
)
"""The declared reading of the disagreement rule (`judge`), shown with every verdict."""


@dataclass(frozen=True, slots=True)
class Key:
    """What two sources must share to be set side by side."""

    family: str
    checkpoint: str
    task: str
    """The task group's first dataset id (its task page)."""
    metric: str
    scale: str
    """'fraction' where the metric has a scale (values converted to it), else 'as recorded'."""
    protocol_class: AdaptationClass


@dataclass(frozen=True, slots=True)
class Side:
    """One source's value for a key under one setting."""

    source: str
    """The source key: a result table's label scope, or an evaluation's publication."""
    source_name: str
    """The publication ('Lindsey et al. 2025')."""
    record: str
    """The result table or evaluation id that holds the value."""
    label: str
    """The source's own model label (a table row's) or configuration id (an evaluation's)."""
    dataset: str
    """The dataset record the source's task maps to."""
    settings: tuple[tuple[str, str], ...]
    """The source's settings but the repeats, (name, value) as written."""
    value: float
    """On the key's scale: the mean over repeats, or the one value."""
    spread: float | None
    """Sample standard deviation over repeats (n >= 2), or the stated uncertainty, on the
    key's scale; None: the side states none."""
    n: int
    """Values the side holds (repeats)."""
    rounding: float
    """Half a unit of the last printed digit (the largest of the side's values), on the
    key's scale."""
    lines: tuple[int, ...] = ()
    """CSV lines of a table's rows (empty for an evaluation)."""
    locator: str = ""
    """Where the (first) value is in the source's file."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """Two sides of different sources compared (`judge`)."""

    first: Side
    second: Side
    difference: float
    """second - first, on the key's scale."""
    allowed: float
    """The stated spreads plus the rounding margins: what the difference is held to."""
    verdict: Verdict


@dataclass(frozen=True, slots=True)
class Conflict:
    """One source giving two different values for the same key and settings."""

    source: str
    first: Side
    second: Side


@dataclass(frozen=True, slots=True)
class Overlap:
    key: Key
    sides: tuple[Side, ...]
    """Sorted by source, then label and settings."""
    judgements: tuple[Judgement, ...]
    """Every pair of sides of different sources."""
    conflicts: tuple[Conflict, ...]

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(sorted({s.source for s in self.sides}))


def judge(first: Side, second: Side) -> Judgement:
    """The one disagreement rule (read as `READING` says): the difference against the
    spreads the sides state plus their rounding margins."""
    difference = second.value - first.value
    spreads = [s.spread for s in (first, second) if s.spread is not None]
    allowed = math.fsum(spreads) + first.rounding + second.rounding
    verdict: Verdict
    if abs(difference) > allowed * (1 + 1e-9):
        verdict = "disagrees" if spreads else "spread_not_stated"
    else:
        verdict = "within_spread" if spreads else "spread_not_stated"
    return Judgement(first, second, difference, allowed, verdict)


# ---------------------------------------------------------------- sides of the sources


def _scaled(value: float, scale: Scale | None) -> tuple[float, str]:
    if scale is None:
        return value, "as recorded"
    return to_scale(value, scale, Scale.fraction), Scale.fraction.value


def _tidy(value: float) -> float:
    """A computed mean or deviation rounded to 12 digits (11 after the point below 10):
    three runs of 0.80 have mean 0.8 and deviation 0, not 0.8000000000000002 and 1.4e-16
    (float noise)."""
    return round(value, 12 - _magnitude(value))


def _magnitude(value: float) -> int:
    """Digits before the decimal point of `value` (at least 1; 0 for 0)."""
    return max(1, math.floor(math.log10(abs(value))) + 1) if value else 0


def _table_sides(
    table: ResultTable,
    rows: Iterable[ResultTableRow],
    catalogue: Catalogue,
    task_of: dict[str, str],
) -> Iterable[tuple[Key, Side]]:
    """The sides of one ranked result table's `rows`: those of pinned checkpoints on tasks,
    grouped by checkpoint, dataset, label and settings but the repeats, one side per
    metric."""
    protocol = catalogue.by_id.get(table.protocol)
    if not isinstance(protocol, Protocol):
        return
    repeats = repeat_positions(table)
    names = [s.name.split(" (")[0].strip() for s in table.columns.settings]
    Group = tuple[str, str, str, str, tuple[tuple[str, str], ...]]
    groups: dict[Group, list[ResultTableRow]] = defaultdict(list)
    for row in rows:
        identity = row.model_identity
        if identity is None or identity.checkpoint is None or row.dataset not in task_of:
            continue
        assert row.dataset is not None
        settings = tuple(
            (names[i], v) for i, v in enumerate(row.settings) if i not in repeats and v
        )
        groups[(identity.family, identity.checkpoint, row.dataset, row.model, settings)].append(row)
    name = publication(table.sources[0], catalogue) if table.sources else table.labels
    for (family, checkpoint, dataset, label, settings), rows in groups.items():
        for index, column in enumerate(table.columns.metrics):
            found = [(r, v) for r in rows if (v := r.values[index]) is not None]
            if not found:
                continue
            metric = protocol.column_metric(column.metric)
            values = [_scaled(v.value, column.scale)[0] for _, v in found]
            scale = _scaled(0.0, column.scale)[1]
            units = [u for _, v in found if (u := last_digit(v.printed)) is not None]
            rounding = ROUNDING_MARGIN * _scaled(max(units), column.scale)[0] if units else 0.0
            n = len(values)
            mean = _tidy(math.fsum(values) / n)
            spread = (
                _tidy(math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)))
                if n > 1
                else None
            )
            key = Key(
                family, checkpoint, task_of[dataset], metric.id, scale, table.adaptation.value
            )
            yield (
                key,
                Side(
                    source=table.labels,
                    source_name=name,
                    record=table.id,
                    label=label,
                    dataset=dataset,
                    settings=settings,
                    value=mean,
                    spread=spread,
                    n=n,
                    rounding=rounding,
                    lines=tuple(r.line for r, _ in found),
                    locator=found[0][0].locator,
                ),
            )


def checkpoint_of(configuration: Configuration, family: ModelFamily | None) -> str | None:
    """The family checkpoint a configuration names: the checkpoint whose name its
    `checkpoint` text starts with (followed by nothing, a space or a parenthesis)."""
    text = (configuration.checkpoint or "").strip()
    if family is None or not text:
        return None
    for checkpoint in family.checkpoints:
        name = checkpoint.name
        if text == name or (text.startswith(name) and text[len(name)] in " (@"):
            return name
    return None


def _evaluation_sides(
    evaluation: Evaluation, catalogue: Catalogue, task_of: dict[str, str]
) -> Iterable[tuple[Key, Side]]:
    if evaluation.dataset not in task_of:
        return
    configuration = catalogue.by_id.get(evaluation.configuration)
    protocol = catalogue.by_id.get(evaluation.protocol)
    if not isinstance(configuration, Configuration) or not isinstance(protocol, Protocol):
        return
    if evaluation.origin == Origin.rewire_measurement or is_resource_metric(protocol):
        return
    family = catalogue.by_id.get(configuration.family)
    checkpoint = checkpoint_of(configuration, family if isinstance(family, ModelFamily) else None)
    if checkpoint is None:
        return
    protocol_class = adaptation_class(evaluation.comparison.adaptation)
    for result in evaluation.results:
        if result.value is None or result.status != "value":
            continue
        metric = protocol.column_metric(result.column)
        from_scale = result.scale or metric.scale
        value, scale = _scaled(result.value, from_scale)
        unit = last_digit(result.printed_value or repr(result.value))
        stated = stated_uncertainty(result.uncertainty, result.value)
        citation = result.citation
        if citation is None:
            continue  # a published value is cited: its source is the citation's
        name = publication(citation.source, catalogue)
        yield (
            Key(
                configuration.family,
                checkpoint,
                task_of[evaluation.dataset],
                metric.id,
                scale,
                protocol_class,
            ),
            Side(
                source=name,
                source_name=name,
                record=evaluation.id,
                label=evaluation.configuration,
                dataset=evaluation.dataset,
                settings=(("column", result.column),),
                value=value,
                spread=None if stated is None else _scaled(stated, from_scale)[0],
                n=1,
                rounding=ROUNDING_MARGIN * _scaled(unit, from_scale)[0] if unit else 0.0,
                locator=citation.locator or "",
            ),
        )


def _task_index(catalogue: Catalogue) -> dict[str, str]:
    """Dataset id -> its task (the first dataset id of its task group)."""
    return {d: group[0] for group in task_groups(catalogue) for d in group}


def cross_source(
    catalogue: Catalogue,
    *,
    datasets: Collection[str] | None = None,
    family: str | None = None,
) -> tuple[Overlap, ...]:
    """Every key (checkpoint, task, metric, scale, protocol class) that two or more
    sources report, with every side, every judged pair of sides of different sources and
    every conflict within a source; sorted by task, family, checkpoint, metric, class.
    `datasets` (one task group's datasets, a task page) or `family` (a model page) keep
    the keys of those alone, reading only their rows."""
    task_of = _task_index(catalogue)
    if datasets is not None:
        task_of = {d: t for d, t in task_of.items() if d in datasets}
    rows: Iterable[ResultTableRow]
    if family is not None:
        rows = catalogue.result_rows.of_family(family)
    elif datasets is not None:
        rows = [r for d in sorted(set(datasets)) for r in catalogue.result_rows.of_dataset(d)]
    else:
        rows = catalogue.result_rows
    by_table: dict[str, list[ResultTableRow]] = defaultdict(list)
    for row in rows:
        by_table[row.table].append(row)
    by_key: dict[Key, list[Side]] = defaultdict(list)
    for table_id in sorted(by_table):
        table = catalogue.by_id.get(table_id)
        if isinstance(table, ResultTable) and table.ranked:
            for key, side in _table_sides(table, by_table[table_id], catalogue, task_of):
                by_key[key].append(side)
    evaluations: list[Evaluation]
    if family is not None:  # a family's own: a model page reads (and depends on) no other
        evaluations = sorted(family_evaluations(family, catalogue), key=lambda e: e.id)
    elif datasets is not None:  # the task's own, read the same way (a task page)
        own = {e.id: e for d in datasets for e in catalogue.referring(d, Evaluation)}
        evaluations = [e for _, e in sorted(own.items()) if isinstance(e, Evaluation)]
    else:
        evaluations = catalogue.of_kind(Evaluation)
    for evaluation in evaluations:
        if datasets is not None and evaluation.dataset not in task_of:
            continue
        for key, side in _evaluation_sides(evaluation, catalogue, task_of):
            if family is None or key.family == family:
                by_key[key].append(side)
    found: list[Overlap] = []
    for key in sorted(by_key, key=_order):
        sides = sorted(by_key[key], key=lambda s: (s.source, s.label, s.settings, s.record))
        if len({s.source for s in sides}) < 2:
            continue
        judgements = tuple(
            judge(a, b) for i, a in enumerate(sides) for b in sides[i + 1 :] if a.source != b.source
        )
        conflicts = tuple(
            Conflict(a.source, a, b)
            for i, a in enumerate(sides)
            for b in sides[i + 1 :]
            if a.source == b.source and a.settings == b.settings and a.value != b.value
        )
        found.append(Overlap(key, tuple(sides), judgements, conflicts))
    return tuple(found)


def _order(key: Key) -> tuple[str, ...]:
    return (key.task, key.family, key.checkpoint, key.metric, key.scale, key.protocol_class)


def disagreements(overlaps: Sequence[Overlap]) -> tuple[Judgement, ...]:
    """Every judged pair whose difference is larger than the stated spread."""
    return tuple(j for o in overlaps for j in o.judgements if j.verdict == "disagrees")


def of_task(overlaps: Sequence[Overlap], task: str) -> tuple[Overlap, ...]:
    return tuple(o for o in overlaps if o.key.task == task)


def of_family(overlaps: Sequence[Overlap], family: str) -> tuple[Overlap, ...]:
    return tuple(o for o in overlaps if o.key.family == family)


__all__ = [
    "READING",
    "Conflict",
    "Judgement",
    "Key",
    "Overlap",
    "Side",
    "checkpoint_of",
    "cross_source",
    "disagreements",
    "judge",
    "of_family",
    "of_task",
]
