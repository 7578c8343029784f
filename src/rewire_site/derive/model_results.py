"""Every result of a model family across tasks, grouped as a model page shows them: by
task family (derive.task_families' rule over the dataset titles), then protocol class
(fine-tuned, parameter-efficient, frozen probe, zero-shot, other), then protocol, and
each imported result table apart (its rows, seeds aggregated to mean, sd and n by
derive.table_facts.seed_aggregates; the table's own adaptation is its class). Pure; no
best marks: results of one protocol or table are listed, never ranked here.

The protocol class is the leaderboards' (`leaderboard.adaptation_class` over the
evaluation's stated adaptation), so a result sits in the same class on every page. A
result of a memory, time or throughput protocol (`scales.is_resource_metric`) is in
the group RESOURCES, not a task family."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ..link import Catalogue
from ..models import Configuration, Dataset, Evaluation, Protocol, ResultTable
from ..models.evaluation import Origin, Result
from ..models.protocol import Metric
from ..table_rows import ResultTableRow
from .boards import CLASSES, AdaptationClass, adaptation_class
from .scales import is_resource_metric
from .table_facts import SeedAggregate, repeat_positions, seed_aggregates
from .task_families import FAMILY_RULES, OTHER, SUITE, family_of

ProtocolClass = AdaptationClass
PROTOCOL_CLASSES: tuple[ProtocolClass, ...] = CLASSES
RESOURCES = "resources"
"""The group of memory, time and throughput results (not a task)."""


def protocol_class(evaluation: Evaluation, protocol: Protocol | None = None) -> ProtocolClass:
    """The protocol class of an evaluation's results: the one rule the leaderboards use
    (`leaderboard.adaptation_class` over the stated adaptation). `protocol` is not read."""
    del protocol
    return adaptation_class(evaluation.comparison.adaptation)


@dataclass(frozen=True)
class ModelResult:
    """One result of one evaluation of the family."""

    evaluation_id: str
    configuration_id: str
    configuration_title: str
    dataset_id: str
    dataset_title: str
    column_label: str
    """The protocol column's label ('MCC', 'Test accuracy')."""
    metric: Metric
    result: Result
    origin: Origin


@dataclass(frozen=True)
class ProtocolResults:
    """The family's results under one protocol (one table, not ranked)."""

    protocol_id: str
    protocol_title: str
    results: tuple[ModelResult, ...]
    """By task title, configuration, column."""


@dataclass(frozen=True)
class TableResult:
    """One result of an imported result table: a row's metric, seeds aggregated."""

    task_label: str
    """The source's task label."""
    dataset_id: str | None
    """The dataset the label maps to (None: unmapped)."""
    dataset_title: str
    """Its title, else the source's label."""
    model_label: str
    """The source's model label."""
    checkpoint: str | None
    """The checkpoint the label is pinned to (None: known at family level only)."""
    settings: tuple[tuple[str, str], ...]
    """(setting name, value) of the row, the seed left out."""
    metric_label: str
    aggregate: SeedAggregate
    """Mean, sd and n over the seeds (n 1: one row)."""
    printed: str
    """The value as printed when n is 1, else ''."""


@dataclass(frozen=True)
class TableResults:
    """The family's rows of one result table (one table, not ranked)."""

    table_id: str
    table_title: str
    results: tuple[TableResult, ...]


@dataclass(frozen=True)
class ClassResults:
    protocol_class: ProtocolClass
    protocols: tuple[ProtocolResults, ...]
    tables: tuple[TableResults, ...] = ()
    """Imported result tables of this class (by title)."""

    @property
    def count(self) -> int:
        return sum(len(p.results) for p in self.protocols) + sum(
            len(t.results) for t in self.tables
        )


@dataclass(frozen=True)
class TaskFamilyResults:
    key: str
    """A task family key (`task_families.FAMILY_RULES`), SUITE, OTHER or RESOURCES."""
    classes: tuple[ClassResults, ...]
    """In `PROTOCOL_CLASSES` order."""
    task_count: int
    """Distinct datasets with a result."""

    @property
    def count(self) -> int:
        return sum(c.count for c in self.classes)


_FAMILY_ORDER = {key: i for i, (key, _) in enumerate(FAMILY_RULES)} | {
    SUITE: len(FAMILY_RULES),
    OTHER: len(FAMILY_RULES) + 1,
    RESOURCES: len(FAMILY_RULES) + 2,
}


def _task_key(dataset: Dataset, protocol: Protocol) -> str:
    if is_resource_metric(protocol):
        return RESOURCES
    if len(dataset.tasks) > 1:
        return SUITE
    return family_of((dataset.title,))


def family_evaluations(family_id: str, catalogue: Catalogue) -> list[Evaluation]:
    """The evaluations of every configuration of the family."""
    out: list[Evaluation] = []
    for configuration in catalogue.referring(family_id, Configuration):
        out.extend(
            e
            for e in catalogue.referring(configuration.id, Evaluation)
            if isinstance(e, Evaluation) and e.configuration == configuration.id
        )
    return out


def model_results(family_id: str, catalogue: Catalogue) -> tuple[TaskFamilyResults, ...]:
    """Every result of the family's evaluations, grouped (task family, class, protocol)."""
    grouped: dict[str, dict[ProtocolClass, dict[str, list[ModelResult]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list))
    )
    datasets: dict[str, set[str]] = defaultdict(set)
    protocols: dict[str, Protocol] = {}
    for evaluation in family_evaluations(family_id, catalogue):
        protocol = protocols.get(evaluation.protocol)
        if protocol is None:
            protocol = protocols[evaluation.protocol] = catalogue.get(evaluation.protocol, Protocol)
        dataset = catalogue.get(evaluation.dataset, Dataset)
        configuration = catalogue.get(evaluation.configuration, Configuration)
        key = _task_key(dataset, protocol)
        labels = {c.id: c.label for c in protocol.columns}
        klass = protocol_class(evaluation, protocol)
        datasets[key].add(dataset.id)
        for result in evaluation.results:
            grouped[key][klass][protocol.id].append(
                ModelResult(
                    evaluation.id,
                    configuration.id,
                    configuration.title,
                    dataset.id,
                    dataset.title,
                    labels.get(result.column, result.column),
                    protocol.column_metric(result.column),
                    result,
                    evaluation.origin,
                )
            )
    tabled = _table_results(family_id, catalogue, datasets)
    out = []
    for key in sorted(set(grouped) | set(tabled), key=lambda k: _FAMILY_ORDER.get(k, 99)):
        classes = []
        for klass in PROTOCOL_CLASSES:
            by_protocol = grouped[key].get(klass, {}) if key in grouped else {}
            tables = tuple(
                sorted(tabled.get(key, {}).get(klass, ()), key=lambda t: t.table_title.lower())
            )
            if not by_protocol and not tables:
                continue
            protocol_tables = [
                ProtocolResults(
                    pid,
                    protocols[pid].title,
                    tuple(
                        sorted(
                            rows,
                            key=lambda r: (
                                r.dataset_title.lower(),
                                r.configuration_title.lower(),
                                r.column_label,
                                r.evaluation_id,
                            ),
                        )
                    ),
                )
                for pid, rows in by_protocol.items()
            ]
            protocols_found = sorted(
                (p for p in protocol_tables),
                key=lambda t: (t.protocol_title.lower(), t.protocol_id),
            )
            classes.append(ClassResults(klass, tuple(protocols_found), tables))
        out.append(TaskFamilyResults(key, tuple(classes), len(datasets[key])))
    return tuple(out)


def family_table_results(
    family_id: str, catalogue: Catalogue
) -> dict[ProtocolClass, list[TableResults]]:
    """The family's result-table rows, by the table's protocol class (its adaptation):
    one `TableResults` per table and task family, seeds aggregated."""
    found: dict[ProtocolClass, list[TableResults]] = defaultdict(list)
    for by_class in _table_results(family_id, catalogue, defaultdict(set)).values():
        for klass, tables in by_class.items():
            found[klass].extend(tables)
    return dict(found)


def _table_results(
    family_id: str, catalogue: Catalogue, datasets: dict[str, set[str]]
) -> dict[str, dict[ProtocolClass, list[TableResults]]]:
    """The family's result-table rows by task family and the table's adaptation; adds each
    mapped dataset (else the task label) to `datasets` for the task counts."""
    by_table: dict[str, list[ResultTableRow]] = defaultdict(list)
    for row in catalogue.result_rows.of_family(family_id):
        by_table[row.table].append(row)
    found: dict[str, dict[ProtocolClass, list[TableResults]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for table_id in sorted(by_table):
        table = catalogue.get(table_id, ResultTable)
        members = by_table[table_id]
        identity = {(r.model, r.task): r for r in members}
        names = [c.name for c in table.columns.settings]
        repeats = repeat_positions(table)
        kept = [n for i, n in enumerate(names) if i not in repeats]
        by_key: dict[str, list[TableResult]] = defaultdict(list)
        for aggregate in seed_aggregates(table, members):
            row = identity[(aggregate.model, aggregate.task)]
            dataset = catalogue.get(row.dataset, Dataset) if row.dataset is not None else None
            title = dataset.title if dataset is not None else row.task
            suite = dataset is not None and len(dataset.tasks) > 1
            key = SUITE if suite else family_of((title,))
            datasets[key].add(row.dataset or f"label:{row.task}")
            metric = table.columns.metrics[aggregate.metric]
            printed = ""
            if aggregate.n == 1:
                line = next(r for r in members if r.line == aggregate.lines[0])
                value = line.values[aggregate.metric]
                printed = value.printed if value is not None else ""
            by_key[key].append(
                TableResult(
                    row.task,
                    row.dataset,
                    title,
                    row.model,
                    row.checkpoint,
                    tuple(zip(kept, aggregate.settings, strict=True)),
                    metric.label,
                    aggregate,
                    printed,
                )
            )
        klass: ProtocolClass = table.adaptation.value
        for key, results in by_key.items():
            results.sort(
                key=lambda r: (r.dataset_title.lower(), r.model_label, r.settings, r.metric_label)
            )
            found[key][klass].append(TableResults(table.id, table.title, tuple(results)))
    return found
