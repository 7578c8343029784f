"""Facts of one result table and its rows: counts, label identity, pages of rows.

Pure functions over the catalogue (`catalogue.result_rows` holds the rows that
validation read); presentation (labels, wording) is `render.result_table`'s.
"""

from __future__ import annotations

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


__all__ = ["ROWS_PER_PAGE", "MappedLabel", "RowPage", "TableFacts", "row_pages", "table_facts"]
