"""Facts of one result table and its rows: counts, label identity, pages of rows.

Pure functions over the catalogue (`catalogue.result_rows` holds the rows that
validation read); presentation (labels, wording) is `render.result_table`'s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..link import Catalogue
from ..models import ResultTable
from ..table_rows import ResultTableRow

ROWS_PER_PAGE = 500
"""Rows shown on one page of a table's rows (about 150-250 kB of HTML): a table of any
size never makes a page over the budget, and adds one page per this many rows."""


@dataclass(frozen=True)
class MappedLabel:
    """A source's label and the record it maps to."""

    label: str
    record_id: str
    checkpoint: str | None = None
    """For a model label: the checkpoint's name; None when only the family is known."""
    rows: int = 0


@dataclass(frozen=True)
class RowPage:
    """One page of a table's rows: rows `start` (0-based) up to `stop`."""

    number: int
    """1-based."""
    start: int
    stop: int


@dataclass(frozen=True)
class TableFacts:
    table_id: str
    rows: int
    values: int
    """Non-empty metric cells."""
    values_by_metric: tuple[int, ...]
    """Non-empty cells of each metric column, in the table's order."""
    models: tuple[MappedLabel, ...]
    """Model labels that map to a checkpoint, or to a family only (checkpoint None)."""
    tasks: tuple[MappedLabel, ...]
    unmapped_models: tuple[str, ...]
    unmapped_tasks: tuple[str, ...]
    pages: tuple[RowPage, ...]

    @property
    def unpinned_models(self) -> tuple[MappedLabel, ...]:
        """Model labels known only at family level: the checkpoint is not pinned."""
        return tuple(m for m in self.models if m.checkpoint is None)


def row_pages(count: int, per_page: int = ROWS_PER_PAGE) -> tuple[RowPage, ...]:
    """The pages `count` rows take, `per_page` each (none for no rows)."""
    return tuple(
        RowPage(i // per_page + 1, i, min(i + per_page, count)) for i in range(0, count, per_page)
    )


def table_facts(table: ResultTable, catalogue: Catalogue) -> TableFacts:
    rows = catalogue.result_rows.of_table(table.id)
    metrics = len(table.columns.metrics)
    by_metric = [0] * metrics
    model_rows: dict[str, int] = {}
    task_rows: dict[str, int] = {}
    models: dict[str, ResultTableRow] = {}
    tasks: dict[str, ResultTableRow] = {}
    for row in rows:
        for i, value in enumerate(row.values):
            if value is not None:
                by_metric[i] += 1
        model_rows[row.model] = model_rows.get(row.model, 0) + 1
        task_rows[row.task] = task_rows.get(row.task, 0) + 1
        models.setdefault(row.model, row)
        tasks.setdefault(row.task, row)
    mapped_models = tuple(
        MappedLabel(label, identity.family, identity.checkpoint, model_rows[label])
        for label, row in sorted(models.items())
        if (identity := row.model_identity) is not None
    )
    mapped_tasks = tuple(
        MappedLabel(label, row.dataset, None, task_rows[label])
        for label, row in sorted(tasks.items())
        if row.dataset is not None
    )
    return TableFacts(
        table_id=table.id,
        rows=len(rows),
        values=sum(by_metric),
        values_by_metric=tuple(by_metric),
        models=mapped_models,
        tasks=mapped_tasks,
        unmapped_models=tuple(sorted(m for m, r in models.items() if r.model_identity is None)),
        unmapped_tasks=tuple(sorted(t for t, r in tasks.items() if r.dataset is None)),
        pages=row_pages(len(rows)),
    )


SEED_NAMES = frozenset({"seed", "random seed", "replicate", "replicate number", "run"})
"""Setting names that mark a repeat of the same result (a seed, a replicate), not another
setting (a name is read up to ' (', case aside: 'seed (as printed)' is 'seed')."""


@dataclass(frozen=True)
class SeedAggregate:
    """The values of rows that differ only in their seed, for one metric."""

    table: str
    model: str
    task: str
    settings: tuple[str, ...]
    """The row's settings with the repeat settings' cells left out (in the table's order)."""
    metric: int
    """Index of the metric in the table's `columns.metrics`."""
    mean: float
    sd: float | None
    """Sample standard deviation (n - 1); None for a single value."""
    n: int
    lines: tuple[int, ...]
    """CSV lines of the rows aggregated."""


def repeat_positions(table: ResultTable) -> frozenset[int]:
    """Indexes of the table's settings that mark repeats (`SEED_NAMES`): Lindsey et al.'s
    attention tables give a replicate number and a seed; rows that differ only in these
    are one setting run several times."""
    return frozenset(
        i
        for i, setting in enumerate(table.columns.settings)
        if setting.name.split(" (")[0].strip().lower() in SEED_NAMES
    )


def seed_aggregates(
    table: ResultTable, rows: Sequence[ResultTableRow]
) -> tuple[SeedAggregate, ...]:
    """Per metric, the rows of `table` that differ only in their repeat settings (seed,
    replicate: `repeat_positions`), as mean, sample standard deviation and n (a table
    without one: every row alone, n 1). Ordered by model, task, other settings, metric."""
    repeats = repeat_positions(table)
    groups: dict[tuple[str, str, tuple[str, ...]], list[ResultTableRow]] = {}
    for row in rows:
        settings = tuple(v for i, v in enumerate(row.settings) if i not in repeats)
        groups.setdefault((row.model, row.task, settings), []).append(row)
    found = []
    for (model, task, settings), members in sorted(groups.items()):
        for metric in range(len(table.columns.metrics)):
            present = [(r.line, v.value) for r in members if (v := r.values[metric]) is not None]
            if not present:
                continue
            values = [v for _, v in present]
            n = len(values)
            mean = math.fsum(values) / n
            sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else None
            lines = tuple(line for line, _ in present)
            found.append(SeedAggregate(table.id, model, task, settings, metric, mean, sd, n, lines))
    return tuple(found)


__all__ = [
    "ROWS_PER_PAGE",
    "SEED_NAMES",
    "MappedLabel",
    "RowPage",
    "SeedAggregate",
    "TableFacts",
    "repeat_positions",
    "row_pages",
    "seed_aggregates",
    "table_facts",
]
