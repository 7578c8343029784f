"""Which datasets of different sources are the same task, and whether two results on the
same task are comparable.

Sources name the same benchmark dataset differently (Feng et al.'s `human_worm` is
Genomic Benchmarks' `demo_human_or_worm`). Datasets are one task only where a dataset
record declares it (`same_task`) with evidence of the same files and the same split;
a record's `related` link (the same name, say, without that evidence) is shown on both
datasets' task pages, never merged. Datasets of one task are shown side by side; their
results are never merged into one ranking unless the comparability rule below says they
match.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ..link import Catalogue
from ..models import Dataset, Evaluation, Protocol, Result
from .comparability import compare, ranking_value, value_margin


@dataclass(frozen=True)
class TaskLink:
    """A link between two dataset records, as the first declares it (`same_task` or
    `related` of the dataset record)."""

    first: str
    second: str
    evidence: str
    """What the record states for a related dataset: its note ('' for the same task)."""
    same: bool
    files: str = ""
    """For the same task: the record's evidence of the same files."""
    split: str = ""
    """For the same task: the record's evidence of the same split."""
    """True: the same files and split (the datasets are one task); False: related only,
    kept apart."""


def task_links(catalogue: Catalogue) -> tuple[TaskLink, ...]:
    """Every same-task and related link the dataset records declare, by declaring id."""
    links: list[TaskLink] = []
    for dataset in catalogue.of_kind(Dataset):
        for same in dataset.same_task:
            links.append(TaskLink(dataset.id, same.dataset, "", True, same.files, same.split))
        for related in dataset.related:
            links.append(TaskLink(dataset.id, related.dataset, related.note, False))
    return tuple(links)


@dataclass(frozen=True)
class SameColumn:
    """A column of a benchmark-wide protocol that is one task's result."""

    dataset: str
    protocol: str
    column: str
    evidence: str


SAME_COLUMN: tuple[SameColumn, ...] = (
    SameColumn(
        "genomic-benchmarks-dataset-human-enhancers-cohn",
        "evidence-20261130-protocol-hyenadna-genomic-benchmarks",
        "human-enhancers-cohn",
        "The HyenaDNA paper's Table 4.1 row 'Human Enhancers Cohn' is this dataset: its CNN "
        "baseline (69.5) is the Genomic Benchmarks PyTorch CNN's accuracy (69.5).",
    ),
    SameColumn(
        "genomic-benchmarks-dataset-dummy-mouse-enhancers-ensembl",
        "evidence-20261130-protocol-hyenadna-genomic-benchmarks",
        "mouse-enhancers",
        "The HyenaDNA paper's Table 4.1 row 'Mouse Enhancers' is this dataset: its CNN "
        "baseline (69.0) is the Genomic Benchmarks PyTorch CNN's accuracy (69).",
    ),
)


def task_groups(catalogue: Catalogue) -> list[tuple[str, ...]]:
    """Datasets grouped by task: datasets that a record declares the same task (same files
    and split, both records present) together, every other dataset alone (a related
    dataset too); each group sorted, groups sorted by their first id."""
    datasets = {d.id for d in catalogue.of_kind(Dataset)}
    parent = {d: d for d in datasets}

    def find(item: str) -> str:
        while parent[item] != item:
            item = parent[item]
        return item

    for link in task_links(catalogue):
        if link.same and link.first in datasets and link.second in datasets:
            parent[find(link.second)] = find(link.first)
    groups: dict[str, list[str]] = {}
    for dataset in sorted(datasets):
        groups.setdefault(find(dataset), []).append(dataset)
    return sorted(tuple(g) for g in groups.values())


def links_between(ids: Iterable[str], catalogue: Catalogue) -> list[TaskLink]:
    """The links a task's datasets take part in: same-task links within the group, and
    related links from or to one of its datasets."""
    wanted = set(ids)
    return [
        link
        for link in task_links(catalogue)
        if (link.first in wanted and link.second in wanted)
        or (not link.same and (link.first in wanted or link.second in wanted))
    ]


def columns_for(ids: Iterable[str], catalogue: Catalogue) -> list[SameColumn]:
    """Benchmark-wide protocol columns that hold results on one of these datasets."""
    wanted = set(ids)
    return [
        c
        for c in SAME_COLUMN
        if c.dataset in wanted and isinstance(catalogue.by_id.get(c.protocol), Protocol)
    ]


def _stated(value: str | None) -> str | None:
    return value.strip() if value and value.strip() else None


UnlikeKind = Literal["protocol", "adaptation", "split", "metric", "hardware", "no_value"]


@dataclass(frozen=True, slots=True)
class Unlike:
    """One reason two results cannot be ranked together: what differs and, for a stated
    condition (adaptation, split, metric), the two values (None: not stated)."""

    kind: UnlikeKind
    first: str | None = None
    second: str | None = None


def not_comparable(
    first: tuple[Evaluation, Result, Protocol],
    second: tuple[Evaluation, Result, Protocol],
) -> list[Unlike]:
    """Why two results cannot be ranked together; empty when they can (same protocol and
    column, both with a value, matching adaptation and split)."""
    (e1, r1, p1), (e2, r2, p2) = first, second
    reasons: list[Unlike] = []
    if p1.id != p2.id:
        reasons.append(Unlike("protocol"))
    a1, a2 = _stated(e1.comparison.adaptation), _stated(e2.comparison.adaptation)
    if a1 != a2:
        reasons.append(Unlike("adaptation", a1, a2))
    s1, s2 = _stated(e1.comparison.split), _stated(e2.comparison.split)
    if s1 != s2:
        reasons.append(Unlike("split", s1, s2))
    m1 = metric_of(p1, r1.column)
    m2 = metric_of(p2, r2.column)
    if m1 != m2:
        reasons.append(Unlike("metric", m1, m2))
    for protocol in {p1.id: p1, p2.id: p2}.values():
        dependence = protocol.hardware_dependence
        if dependence is not None and dependence.depends:
            h1, h2 = e1.training_hardware, e2.training_hardware
            if not h1 or not h2 or h1 != h2:
                reasons.append(Unlike("hardware"))
                break
    if r1.value is None or r2.value is None:
        reasons.append(Unlike("no_value"))
    return reasons


def better(
    first: tuple[Evaluation, Result, Protocol],
    second: tuple[Evaluation, Result, Protocol],
) -> Literal["first", "second", "tie"]:
    """Which of two comparable results (`not_comparable` finds no reason) is better: the
    values compared on their column metric's own scale, and a tie where the difference is
    within their margin (`comparability.compare`, as best marks are judged). Results
    that a concern takes out of comparisons are the caller's to leave out."""
    (_, r1, p1), (_, r2, p2) = first, second
    v1, v2 = ranking_value(p1, r1), ranking_value(p2, r2)
    if v1 is None or v2 is None:
        raise ValueError("better needs two results with values")
    m1 = value_margin(p1.column_metric(r1.column), r1)
    m2 = value_margin(p2.column_metric(r2.column), r2)
    return compare(v1, m1, v2, m2, direction_of(p1, r1.column))


def metric_of(protocol: Protocol, column_id: str) -> str:
    """The metric id of a protocol column (the column's own metric, else the protocol's)."""
    for column in protocol.columns:
        if column.id == column_id and column.metric is not None:
            return column.metric.id
    return protocol.metric.id


def direction_of(protocol: Protocol, column_id: str) -> str:
    for column in protocol.columns:
        if column.id == column_id and column.metric is not None:
            return column.metric.direction
    return protocol.metric.direction


def label_of(protocol: Protocol, column_id: str) -> str:
    for column in protocol.columns:
        if column.id == column_id:
            return column.label
    return column_id
