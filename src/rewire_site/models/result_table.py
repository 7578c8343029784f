"""Result table: a whole imported table of published results, stated once.

One imported table is two files side by side under `records/tables/`: this record (the
shared facts: sources, protocol, adaptation class, comparison conditions, missing
metadata, what each CSV column holds) and a CSV file of rows, one line per result (model
x task x setting), all its metrics. Every row inherits the facts stated here; the rows
are read by `table_rows` (no Pydantic object per row).
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Literal

from pydantic import Field, model_validator

from .common import Direction, FiniteFloat, RecordBase, Scale, Slug, SourceLabel, Strict, Text
from .evaluation import Comparison, Origin


class Adaptation(StrEnum):
    fine_tuned = "fine_tuned"
    parameter_efficient = "parameter_efficient"
    frozen_probe = "frozen_probe"
    zero_shot = "zero_shot"
    other = "other"


class SettingColumn(Strict):
    column: Text = Field(description="CSV header of the setting's column, e.g. seed.")
    name: Text = Field(description="The setting's name as shown to readers, e.g. 'learning rate'.")


class MetricColumn(Strict):
    column: Text = Field(description="CSV header of the metric's column, e.g. mcc.")
    metric: Slug = Field(description="Id of the protocol's result column the values belong to.")
    label: Text = Field(description="Label shown in table headings, e.g. 'MCC'.")
    scale: Scale | None = Field(
        default=None,
        description="Scale the cells are printed on when the metric has one: fraction (0-1) "
        "or percent (0-100).",
    )
    direction: Direction = Field(description="Which way is better: lower or higher.")
    minimum: FiniteFloat | None = Field(
        default=None, description="Lowest possible value on the cells' scale; below it is an error."
    )
    maximum: FiniteFloat | None = Field(
        default=None,
        description="Highest possible value on the cells' scale; above it is an error.",
    )
    source_key: Text = Field(
        description="The key or column heading the source gives the value under (JSON key, "
        "CSV heading): a value's full locator is the row's locator and this key."
    )

    @model_validator(mode="after")
    def _bounds_in_order(self) -> MetricColumn:
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            raise ValueError(f"minimum: {self.minimum:g} is above maximum {self.maximum:g}")
        return self


class TableColumns(Strict):
    """What each CSV column holds. Every header of the CSV is named here exactly once."""

    model: Text = Field(description="CSV header of the model-label column.")
    task: Text = Field(description="CSV header of the task-label column.")
    settings: list[SettingColumn] = Field(
        default_factory=list,
        description="Per-row settings (seed, learning rate, ...): part of a row's identity.",
    )
    metrics: list[MetricColumn] = Field(
        min_length=1, description="One per metric column; cells hold the value as printed."
    )
    locator: Text = Field(description="CSV header of the per-row locator column.")

    def headers(self) -> list[str]:
        """Every CSV header this table names, in the order the rows are written."""
        return [
            self.model,
            self.task,
            *(s.column for s in self.settings),
            *(m.column for m in self.metrics),
            self.locator,
        ]

    @model_validator(mode="after")
    def _unique(self) -> TableColumns:
        headers = self.headers()
        repeated = sorted({h for h in headers if headers.count(h) > 1})
        if repeated:
            raise ValueError(f"a CSV header may be named once: {', '.join(map(repr, repeated))}")
        metrics = [m.metric for m in self.metrics]
        if len(metrics) != len(set(metrics)):
            raise ValueError("metrics: each metric may be named once")
        names = [s.name for s in self.settings]
        if len(names) != len(set(names)):
            raise ValueError("settings: each setting name may be given once")
        return self


ROWS_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,250}\.csv$")
"""A rows file's name: a plain file name in the table's folder (no folder, no '..')."""


class ResultTable(RecordBase):
    kind: Literal["result_table"] = Field(description="Record kind.")
    rows: str = Field(
        pattern=ROWS_FILE.pattern,
        description="File name of the CSV that holds the rows, in the same folder (e.g. <id>.csv).",
    )
    sources: list[Slug] = Field(
        min_length=1,
        description="Ids of the source records whose files the rows are read from (kind "
        "repository_file: repository, full commit, SHA-256, size); every row's locator "
        "starts with one of their paths.",
    )
    labels: Slug = Field(
        description="The label scope: the model and task labels of the rows are this "
        "source's own names, mapped through `labels` of datasets, model families and "
        "checkpoints with this scope."
    )
    protocol: Slug = Field(description="Id of the protocol: what is measured and how.")
    adaptation: Adaptation = Field(
        description="Protocol class: fine_tuned | parameter_efficient | frozen_probe | "
        "zero_shot | other. Results of different classes are never ranked together."
    )
    origin: Origin = Field(description="Who reported the values, as Evaluation.origin.")
    columns: TableColumns = Field(description="What each CSV column holds.")
    comparison: Comparison = Field(
        description="Conditions shared by every row (stated once, inherited by each row)."
    )
    ranked: bool = Field(
        default=True,
        description="False for a table shown whole but never ranked: no leaderboard and no "
        "best mark (e.g. a whole hyperparameter sweep beside the table of the settings the "
        "authors selected, which is the one ranked).",
    )

    @model_validator(mode="after")
    def _published(self) -> ResultTable:
        if self.origin == Origin.rewire_measurement:
            raise ValueError(
                "origin: a result table holds published values; a Rewire measurement is an "
                "evaluation record"
            )
        if len(self.sources) != len(set(self.sources)):
            raise ValueError("sources: each source may be named once")
        return self


__all__ = [
    "Adaptation",
    "MetricColumn",
    "ResultTable",
    "SettingColumn",
    "SourceLabel",
    "TableColumns",
]
