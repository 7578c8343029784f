"""The rows of Lindsey et al.'s result tables: each source CSV read, checked and written
as Rewire's rows file (records/tables/<table-id>.csv, see TABLES-SPEC).

A row is one fine-tuning run: model and task labels, the settings that identify the run
(seed last, so runs that differ only in the seed sit together) and every metric cell
verbatim. A metric cell is empty or a finite number within the metric's range; a task
label the task table does not know stops the import (nothing is written).
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass

from .core import ImportProblem, SourceFile
from .lindsey_tasks import attention_index, dataset_id, state_space_index


@dataclass(frozen=True)
class Metric:
    column: str
    label: str
    minimum: float


METRICS = {
    m.column: m
    for m in (
        Metric("accuracy", "Accuracy", 0.0),
        Metric("mcc", "MCC", -1.0),
        Metric("f1", "F1 score", 0.0),
        Metric("precision", "Precision", 0.0),
        Metric("recall", "Recall", 0.0),
        Metric("specificity", "Specificity", 0.0),
    )
}


@dataclass(frozen=True)
class Setting:
    column: str
    """The column in Rewire's rows file."""
    name: str
    """The reader's name of the setting."""
    source_key: str
    """The source CSV's heading."""


@dataclass(frozen=True)
class TableDef:
    key: str
    path: str
    family: str
    """attention or state-space."""
    best: bool
    header: tuple[str, ...]
    settings: tuple[Setting, ...]
    metrics: tuple[str, ...]


ATTN_HEADER = (
    "directory_name", "model", "lr", "benchmark", "task", "seed", "accuracy", "mcc", "f1",
    "precision", "recall", "runtime", "replicate_number", "sequence_length", "epoch",
    "source_file",
)  # fmt: skip
SS_HEADER = (
    "task", "run_name", "seed", "learning_rate", "batch_size", "accuracy", "mcc", "f1",
    "precision", "recall", "specificity", "model", "rc_aug",
)  # fmt: skip
RUN_DIRECTORY = Setting(
    "run_directory", "run directory (where two runs share settings)", "directory_name"
)
"""Filled only for runs whose model, task, learning rate, epochs, replicate and seed are
those of another run in the same file (the same run repeated in a nested directory, or a
run under another model's directory name): the directory tells the two apart."""
ATTN_SETTINGS = (
    Setting("learning_rate", "learning rate", "lr"),
    Setting("epoch", "logged epoch", "epoch"),
    Setting("replicate", "replicate number", "replicate_number"),
    RUN_DIRECTORY,
    Setting("seed", "seed", "seed"),
)
SS_SETTINGS = (
    Setting("run", "run name", "run_name"),
    Setting("learning_rate", "learning rate", "learning_rate"),
    Setting("batch_size", "batch size", "batch_size"),
    Setting("rc_aug", "reverse-complement augmentation", "rc_aug"),
    Setting("seed", "seed", "seed"),
)
ATTN_METRICS = ("accuracy", "mcc", "f1", "precision", "recall")
SS_METRICS = (*ATTN_METRICS, "specificity")

TABLES = (
    TableDef(
        "attention-best",
        "final_combined_attn_results/best_replicates.csv",
        "attention",
        True,
        ATTN_HEADER,
        ATTN_SETTINGS,
        ATTN_METRICS,
    ),
    TableDef(
        "attention-sweep",
        "final_combined_attn_results/combined_attn_results_cleaned.csv",
        "attention",
        False,
        ATTN_HEADER,
        ATTN_SETTINGS,
        ATTN_METRICS,
    ),
    TableDef(
        "state-space-best",
        "final_combined_ss_results/best_replicates_ss.csv",
        "state-space",
        True,
        SS_HEADER,
        SS_SETTINGS,
        SS_METRICS,
    ),
    TableDef(
        "state-space-sweep",
        "final_combined_ss_results/combined_ss_results_cleaned.csv",
        "state-space",
        False,
        SS_HEADER,
        SS_SETTINGS,
        SS_METRICS,
    ),
)


@dataclass(frozen=True)
class Row:
    """One result row as Rewire writes it: labels, settings and metric cells verbatim."""

    model: str
    task: str
    settings: tuple[str, ...]
    metrics: tuple[str, ...]
    line: int
    locator: str
    dataset: str


def _read(file: SourceFile, header: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """(row number, cells by heading) of every data row; the header is row 1."""
    rows = list(csv.reader(io.StringIO(file.text(), newline="")))
    if not rows or tuple(rows[0]) != header:
        found = rows[0] if rows else []
        raise ImportProblem(
            f"{file.path}: the header is {found}, the importer reads {list(header)}; "
            "nothing was changed"
        )
    out: list[tuple[int, dict[str, str]]] = []
    for number, cells in enumerate(rows[1:], start=2):
        if not cells:
            continue
        if len(cells) != len(header):
            raise ImportProblem(
                f"{file.path}, row {number}: {len(cells)} cells, the header has {len(header)}"
            )
        out.append((number, dict(zip(header, cells, strict=True))))
    if not out:
        raise ImportProblem(f"{file.path}: no data rows; nothing was changed")
    return out


def _check_number(path: str, number: int, column: str, text: str, minimum: float) -> None:
    """A metric cell is empty (no value) or a finite number within the metric's range."""
    if text == "":
        return
    try:
        value = float(text)
    except ValueError:
        raise ImportProblem(
            f"{path}, row {number}, column {column}: {text!r} is not a number"
        ) from None
    if not math.isfinite(value) or not minimum <= value <= 1.0:
        raise ImportProblem(
            f"{path}, row {number}, column {column}: {text!r} is outside {minimum:g}..1"
        )


def _sort_key(text: str) -> tuple[int, float, str]:
    try:
        return (0, float(text), text)
    except ValueError:
        return (1, 0.0, text)


def read_rows(file: SourceFile, table: TableDef) -> list[Row]:
    """Every run of one table, sorted by model, task and settings; a task label the
    task table (lindsey_tasks.py) does not know stops the import."""
    index = attention_index() if table.family == "attention" else state_space_index()
    rows: list[Row] = []
    for number, cells in _read(file, table.header):
        if table.family == "attention":
            label = f"{cells['benchmark']}/{cells['task']}"
        else:
            label = cells["task"]
        task = index.get(label)
        if task is None:
            raise ImportProblem(
                f"{file.path}, row {number}: task {label!r} is in no dataset of "
                "importers/lindsey_tasks.py; add it there with its evidence. Nothing was changed"
            )
        for column in table.metrics:
            _check_number(file.path, number, column, cells[column], METRICS[column].minimum)
        rows.append(
            Row(
                model=cells["model"],
                task=label,
                settings=tuple(
                    "" if s is RUN_DIRECTORY else cells[s.source_key] for s in table.settings
                ),
                metrics=tuple(cells[m] for m in table.metrics),
                line=number,
                locator=f"{file.path}, row {number}",
                dataset=dataset_id(task),
            )
        )
    if RUN_DIRECTORY in table.settings:
        rows = _tell_apart(file, table, rows)
    rows.sort(key=lambda r: (r.model, r.task, tuple(_sort_key(s) for s in r.settings), r.line))
    return rows


def _tell_apart(file: SourceFile, table: TableDef, rows: list[Row]) -> list[Row]:
    """Runs that share model, task and every other setting get their run directory (the
    source's `directory_name`, verbatim) as a setting; a pair it does not tell apart
    stops the import."""
    at = table.settings.index(RUN_DIRECTORY)
    header = table.header.index(RUN_DIRECTORY.source_key)
    groups: dict[tuple[str, str, tuple[str, ...]], list[int]] = {}
    for index, row in enumerate(rows):
        groups.setdefault((row.model, row.task, row.settings), []).append(index)
    lines = file.lines()
    out = list(rows)
    for indexes in groups.values():
        if len(indexes) < 2:
            continue
        seen: dict[str, int] = {}
        for index in indexes:
            row = rows[index]
            directory = next(csv.reader([lines[row.line - 1]]))[header]
            if directory == "" or directory in seen:
                raise ImportProblem(
                    f"{file.path}, rows {seen.get(directory, rows[indexes[0]].line)} and "
                    f"{row.line}: the same model, task, settings and seed, and no run "
                    "directory tells them apart; nothing was changed"
                )
            seen[directory] = row.line
            settings = (*row.settings[:at], directory, *row.settings[at + 1 :])
            out[index] = Row(
                row.model, row.task, settings, row.metrics, row.line, row.locator, row.dataset
            )
    return out
