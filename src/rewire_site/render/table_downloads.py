"""Downloads of the result tables: each table's rows as CSV, and the derived identity
tables (every task with each source's names for it; every checkpoint with its facts and
each source's names for it). Cells go through `downloads.csv_cell` (no formula runs)."""

from __future__ import annotations

from ..link import Catalogue
from ..models import Dataset, ModelFamily, ResultTable
from ..models.common import SourceLabel
from ..models.family import Fact
from .downloads import csv_bytes, csv_cell

TASK_IDENTITY = "downloads/task-identity.csv"
CHECKPOINT_IDENTITY = "downloads/checkpoint-identity.csv"


def table_csv(table: ResultTable, catalogue: Catalogue) -> bytes:
    """The rows of `table` with what each label maps to, one line per row."""
    spec = table.columns
    header = (
        "table",
        "csv_line",
        "model_label",
        "task_label",
        "model_family",
        "checkpoint",
        "dataset",
        *(csv_cell(f"setting: {s.name}") for s in spec.settings),  # a name may hold a CR
        *(f"{m.metric}" for m in spec.metrics),
        "locator",
    )
    rows = (
        (
            row.table,
            row.line,
            row.model,
            row.task,
            row.family,
            row.checkpoint,
            row.dataset,
            *row.settings,
            *(None if v is None else v.printed for v in row.values),
            row.locator,
        )
        for row in catalogue.result_rows.of_table(table.id)
    )
    return csv_bytes(header, rows)


def _labels(labels: list[SourceLabel]) -> str:
    return "; ".join(f"{label.scope}: {label.label}" for label in labels)


def task_identity_csv(catalogue: Catalogue) -> bytes:
    """Every dataset with its version and each source's names for it."""
    header = ("dataset", "title", "version", "same_task", "related", "labels")
    rows = (
        (
            d.id,
            d.title,
            d.version,
            "; ".join(s.dataset for s in d.same_task),
            "; ".join(r.dataset for r in d.related),
            _labels(d.labels),
        )
        for d in catalogue.of_kind(Dataset)
    )
    return csv_bytes(header, rows)


def _fact(fact: Fact | None) -> str | None:
    if fact is None:
        return None
    return fact.printed_value or str(fact.value)


def checkpoint_identity_csv(catalogue: Catalogue) -> bytes:
    """Every checkpoint (and every family-level label) with its cited facts and each
    source's names for it."""
    header = (
        "model_family",
        "family_name",
        "checkpoint",
        "revision",
        "parameters",
        "context_tokens",
        "max_positions",
        "tokeniser",
        "labels",
    )
    rows: list[tuple[object, ...]] = []
    for family in catalogue.of_kind(ModelFamily):
        for checkpoint in family.checkpoints:
            facts = checkpoint.facts
            rows.append(
                (
                    family.id,
                    family.name,
                    checkpoint.name,
                    checkpoint.revision,
                    _fact(facts.parameters) if facts else checkpoint.parameters,
                    _fact(facts.context_length_trained) if facts else None,
                    _fact(facts.max_positions) if facts else None,
                    _fact(facts.tokeniser) if facts else family.tokenisation,
                    _labels(checkpoint.labels),
                )
            )
        if family.labels:
            rows.append(
                (family.id, family.name, None, None, None, None, None, None, _labels(family.labels))
            )
    return csv_bytes(header, rows)


__all__ = [
    "CHECKPOINT_IDENTITY",
    "TASK_IDENTITY",
    "checkpoint_identity_csv",
    "table_csv",
    "task_identity_csv",
]
