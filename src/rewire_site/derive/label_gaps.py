"""Per source, the model and task names its result tables use that Rewire cannot join to
a pinned checkpoint or a task, and why (issue 24's closing note).

A source is a result table's label scope. A row's model label resolves to a checkpoint
of a family (`labels` on the checkpoint), to a family only (`labels` on the family: the
checkpoint is not pinned; the label's `note` says why), or to nothing (no record carries
the label in that scope). A task label resolves to a dataset record or to nothing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Literal

from ..link import Catalogue
from ..models import ModelFamily, ResultTable

GapKind = Literal["model_unmapped", "model_family_only", "task_unmapped"]


@dataclass(frozen=True)
class LabelGap:
    """One label of one source that does not reach a pinned checkpoint or a task."""

    source: str
    """The label scope (the importer's source)."""
    kind: GapKind
    """model_unmapped: no record carries the model label; model_family_only: the label
    names a family, no checkpoint; task_unmapped: no dataset record carries the task."""
    label: str
    rows: int
    """Rows of the source's tables with this label."""
    tables: tuple[str, ...]
    """The result tables whose rows carry it."""
    record: str | None = None
    """The family a family-only label names."""
    note: str | None = None
    """Why the label means only the family, as the family record states it."""


@dataclass(frozen=True)
class SourceCounts:
    """What one source's result tables hold."""

    source: str
    tables: tuple[str, ...]
    rows: int
    values: int
    """Non-empty metric cells."""


def _family_notes(catalogue: Catalogue) -> dict[tuple[str, str], str | None]:
    notes: dict[tuple[str, str], str | None] = {}
    for family in catalogue.of_kind(ModelFamily):
        for label in family.labels:
            notes[(label.scope, label.label)] = label.note
    return notes


def source_counts(catalogue: Catalogue) -> tuple[SourceCounts, ...]:
    """Per label scope: its tables, rows and values (sorted by scope)."""
    tables: dict[str, list[str]] = defaultdict(list)
    for table in catalogue.of_kind(ResultTable):
        tables[table.labels].append(table.id)
    found = []
    for scope in sorted(tables):
        ids = tuple(sorted(tables[scope]))
        rows = [r for t in ids for r in catalogue.result_rows.of_table(t)]
        values = sum(sum(v is not None for v in r.values) for r in rows)
        found.append(SourceCounts(scope, ids, len(rows), values))
    return tuple(found)


def label_gaps(catalogue: Catalogue) -> tuple[LabelGap, ...]:
    """Every label that reaches no pinned checkpoint (models) or no dataset (tasks), per
    source; sorted by source, kind and label."""
    notes = _family_notes(catalogue)
    counts: dict[tuple[str, GapKind, str], list[str]] = defaultdict(list)
    families: dict[tuple[str, str], str] = {}
    for table in catalogue.of_kind(ResultTable):
        scope = table.labels
        for row in catalogue.result_rows.of_table(table.id):
            identity = row.model_identity
            if identity is None:
                counts[(scope, "model_unmapped", row.model)].append(table.id)
            elif identity.checkpoint is None:
                counts[(scope, "model_family_only", row.model)].append(table.id)
                families[(scope, row.model)] = identity.family
            if row.dataset is None:
                counts[(scope, "task_unmapped", row.task)].append(table.id)
    return tuple(
        LabelGap(
            source=scope,
            kind=kind,
            label=label,
            rows=len(tables),
            tables=tuple(sorted(set(tables))),
            record=families.get((scope, label)) if kind == "model_family_only" else None,
            note=notes.get((scope, label)) if kind == "model_family_only" else None,
        )
        for (scope, kind, label), tables in sorted(counts.items())
    )


__all__ = ["GapKind", "LabelGap", "SourceCounts", "label_gaps", "source_counts"]
