"""Result tables written by importers: the specification record and its CSV of rows.

An imported table is two files under records/tables/ (TABLES-SPEC, CONTRIBUTING "Result
tables"): `<id>.yaml`, a `result_table` record stating the shared facts once, and
`<id>.csv`, one line per result (model x task x settings) with every metric cell verbatim
as the source prints it and the row's locator in the pinned file. This module turns rows
an importer read into both, deterministically: rows sorted by model label, task label and
settings (numbers by value), `\\n` line ends, quoting only where the csv module needs it.
A row identity given twice, a metric cell that is not a number, or a locator that does not
start with a source file's path is an ImportProblem before anything is written.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .core import ROWS_TEXT, ImportProblem, Record


@dataclass(frozen=True)
class SettingColumn:
    column: str
    """CSV header."""
    name: str
    """The setting's name as readers see it, e.g. 'layer'."""


@dataclass(frozen=True)
class MetricColumn:
    column: str
    """CSV header (and the protocol's result column id)."""
    label: str
    direction: str
    source_key: str
    """The JSON key, CSV heading or spreadsheet column the source gives the value under."""
    scale: str | None = None
    minimum: float | None = None
    maximum: float | None = None

    def spec(self) -> Record:
        out: Record = {"column": self.column, "metric": self.column, "label": self.label}
        if self.scale is not None:
            out["scale"] = self.scale
        out["direction"] = self.direction
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        out["source_key"] = self.source_key
        return out


@dataclass(frozen=True)
class Row:
    """One result row as read: labels as the source writes them, settings in the table's
    setting order, metric cells (column -> printed text; absent = no value)."""

    model: str
    task: str
    settings: tuple[str, ...]
    cells: Mapping[str, str]
    locator: str


@dataclass
class ResultTableSpec:
    """Everything of a result table but its rows."""

    id: str
    title: str
    summary: str
    sources: list[str]
    source_paths: tuple[str, ...]
    """The repository paths of the files read: every row's locator starts with one."""
    labels: str
    protocol: str
    adaptation: str
    origin: str
    settings: tuple[SettingColumn, ...]
    metrics: tuple[MetricColumn, ...]
    comparison: Record
    missing_metadata: Record
    base: Record = field(default_factory=dict)
    """Common record fields (areas, contexts, citations, added, limitations...)."""


def _sort_part(text: str) -> tuple[int, float, str]:
    """Numbers sort by value before words ('6' before '16'), words by text."""
    try:
        number = float(text)
    except ValueError:
        return (1, 0.0, text)
    return (0, number, text) if math.isfinite(number) else (1, 0.0, text)


def _row_key(row: Row) -> tuple[Any, ...]:
    return (row.model, row.task, tuple(_sort_part(s) for s in row.settings))


def check_rows(spec: ResultTableSpec, rows: Sequence[Row]) -> None:
    """Raise ImportProblem for a row the table cannot hold (see the module text)."""
    if not rows:
        raise ImportProblem(f"{spec.id}: no rows read; nothing was changed")
    columns = {m.column for m in spec.metrics}
    seen: dict[tuple[str, str, tuple[str, ...]], str] = {}
    for row in rows:
        if len(row.settings) != len(spec.settings):
            raise ImportProblem(
                f"{row.locator}: {len(row.settings)} settings, table has {len(spec.settings)}"
            )
        identity = (row.model, row.task, row.settings)
        if identity in seen:
            raise ImportProblem(
                f"{row.locator}: the same model, task and settings as {seen[identity]}; "
                "nothing was changed"
            )
        seen[identity] = row.locator
        if not row.locator.startswith(spec.source_paths):
            raise ImportProblem(f"{row.locator}: not in any file of {spec.id}")
        for column, text in row.cells.items():
            if column not in columns:
                raise ImportProblem(f"{row.locator}: no metric column {column!r} in {spec.id}")
            try:
                value = float(text)
            except ValueError:
                raise ImportProblem(
                    f"{row.locator}, {column}: {text!r} is not a number; nothing was changed"
                ) from None
            if not math.isfinite(value):
                raise ImportProblem(f"{row.locator}, {column}: {text!r} is not a finite number")
        if not any(row.cells.get(c) for c in columns):
            raise ImportProblem(f"{row.locator}: a row without any value")


def rows_csv(spec: ResultTableSpec, rows: Iterable[Row]) -> str:
    """The CSV text: header, then the rows sorted by model, task and settings."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(
        [
            "model",
            "task",
            *(s.column for s in spec.settings),
            *(m.column for m in spec.metrics),
            "locator",
        ]
    )
    for row in sorted(rows, key=_row_key):
        writer.writerow(
            [
                row.model,
                row.task,
                *row.settings,
                *(row.cells.get(m.column, "") for m in spec.metrics),
                row.locator,
            ]
        )
    return out.getvalue()


def table_record(spec: ResultTableSpec, rows: Sequence[Row]) -> Record:
    """The result_table record (with its CSV text under ROWS_TEXT, for `render_records`)."""
    check_rows(spec, rows)
    record: Record = {
        "id": spec.id,
        "kind": "result_table",
        "title": spec.title,
        "summary": spec.summary,
        **spec.base,
        "rows": f"{spec.id}.csv",
        "sources": list(spec.sources),
        "labels": spec.labels,
        "protocol": spec.protocol,
        "adaptation": spec.adaptation,
        "origin": spec.origin,
        "columns": {
            "model": "model",
            "task": "task",
            "settings": [{"column": s.column, "name": s.name} for s in spec.settings],
            "metrics": [m.spec() for m in spec.metrics],
            "locator": "locator",
        },
        "comparison": spec.comparison,
        "missing_metadata": spec.missing_metadata,
        ROWS_TEXT: rows_csv(spec, rows),
    }
    return record


def value_count(rows: Iterable[Row]) -> int:
    """How many values (non-empty metric cells) the rows hold."""
    return sum(1 for row in rows for text in row.cells.values() if text)


__all__ = [
    "MetricColumn",
    "ResultTableSpec",
    "Row",
    "SettingColumn",
    "check_rows",
    "rows_csv",
    "table_record",
    "value_count",
]
