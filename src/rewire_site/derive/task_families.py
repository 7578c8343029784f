"""Task families: which kind of biological question each task of the catalogue asks
(promoters, enhancers, splice sites, ...), with its count of tasks and results.

The rule is declared here and reads only the records' own fields: a dataset is a task
unless it is synthetic or its title or tasks call it pre-training data; a task's family is
the first rule of `FAMILY_RULES` whose pattern matches a word of its datasets' titles
(case-insensitive, where '_' and '-' separate words); a task no rule matches is "other".
A dataset that lists more than one task is a benchmark suite ("suites"), whatever its
title says.
Descriptions are not read: they are free text and name many things besides the task.
A task is a group of datasets the records declare the same task (`task_groups`); its
results are those of evaluations, and the values of result tables' rows, under protocols
that measure the task, not memory or time (`is_resource_metric`). A task with no such
result is not counted.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ..link import Catalogue
from ..models import Dataset, Evaluation, Protocol, ResultTable
from .overlaps import task_groups
from .scales import is_resource_metric

OTHER = "other"
SUITE = "suites"

FAMILY_RULES: tuple[tuple[str, str], ...] = (
    ("promoters", r"promoters?|prom|tata|nontata"),
    ("enhancers", r"enhancers?"),
    ("splice_sites", r"splice|splicing|acceptors?|donors?"),
    ("histone_marks", r"h3|h4|h3k\w+|h4ac|histone"),
    ("dna_methylation", r"4mc|5mc|6mc|methylation"),
    ("chromatin_accessibility", r"ocr|dnase|accessibility|atac"),
    ("transcription_factors", r"tf|tfbs|transcription"),
    ("regulatory_activity", r"mpra|lentimpra"),
    ("regulatory_elements", r"regulatory"),
    ("variant_effect", r"variants?|snvs?|snps?|eqtls?"),
    ("genome_annotation", r"segmentation|segmentnt|utr|element"),
    ("species_origin", r"coding|intergenomic|worm"),
)
"""(key, pattern): the first rule whose pattern matches a whole word of a task's dataset
titles names its family (render/present/task_families.py names the families). Order
matters: 'prom_300_tata' is a promoter task."""

_RULES = tuple((key, re.compile(rf"^(?:{pattern})$")) for key, pattern in FAMILY_RULES)
_PRE_TRAINING = re.compile(r"pre-?training", re.IGNORECASE)


def words(title: str) -> tuple[str, ...]:
    """'prom_300_tata (Feng et al. benchmark)' -> ('prom', '300', 'tata', 'feng', ...)."""
    return tuple(w for w in re.split(r"[^a-z0-9]+", title.lower()) if w)


def is_task(dataset: Dataset) -> bool:
    """False for synthetic data and for pre-training data (its title or a task says so)."""
    if dataset.synthetic:
        return False
    return not any(_PRE_TRAINING.search(text) for text in (dataset.title, *dataset.tasks))


def family_of(titles: tuple[str, ...]) -> str:
    """The family key of a task whose datasets carry `titles`: the first rule matching a
    word of any title, else OTHER."""
    found = [w for title in titles for w in words(title)]
    for key, pattern in _RULES:
        if any(pattern.match(w) for w in found):
            return key
    return OTHER


@dataclass(frozen=True)
class TaskRef:
    """One task: its datasets (the first names its task page) and its result count."""

    dataset_ids: tuple[str, ...]
    title: str
    results: int


@dataclass(frozen=True)
class TaskFamily:
    key: str
    """A `FAMILY_RULES` key, SUITE or OTHER."""
    tasks: tuple[TaskRef, ...]
    """The family's tasks that hold at least one result, by title."""

    @property
    def results(self) -> int:
        return sum(t.results for t in self.tasks)


def task_families(catalogue: Catalogue) -> tuple[TaskFamily, ...]:
    """Every family with at least one task holding a result, most results first (then by
    key: a page orders ties by name); suites and OTHER last."""
    results: Counter[str] = Counter()
    for evaluation in catalogue.of_kind(Evaluation):
        if not is_resource_metric(catalogue.get(evaluation.protocol, Protocol)):
            results[evaluation.dataset] += len(evaluation.results)
    resource: dict[str, bool] = {}
    for row in catalogue.result_rows:  # a result table's values count as results too
        table = catalogue.by_id.get(row.table)
        if row.dataset is None or not isinstance(table, ResultTable):
            continue
        if table.protocol not in resource:
            protocol = catalogue.by_id.get(table.protocol)
            resource[table.protocol] = isinstance(protocol, Protocol) and is_resource_metric(
                protocol
            )
        if not resource[table.protocol]:
            results[row.dataset] += sum(v is not None for v in row.values)
    found: dict[str, list[TaskRef]] = {}
    for group in task_groups(catalogue):
        datasets = [catalogue.get(i, Dataset) for i in group]
        if not all(is_task(d) for d in datasets):
            continue
        count = sum(results[i] for i in group)
        if not count:
            continue
        titles = tuple(d.title for d in datasets)
        key = SUITE if any(len(d.tasks) > 1 for d in datasets) else family_of(titles)
        found.setdefault(key, []).append(TaskRef(group, titles[0], count))
    families = [
        TaskFamily(key, tuple(sorted(tasks, key=lambda t: t.title.lower())))
        for key, tasks in found.items()
    ]
    last = (SUITE, OTHER)
    return tuple(sorted(families, key=lambda f: (f.key in last, f.key == OTHER, -f.results, f.key)))
