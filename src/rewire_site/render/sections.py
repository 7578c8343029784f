"""Display views of the sections several page types share.

Each view wraps a derived fact (from `derive`) with what only the page needs: links
relative to the site root, element ids, the data attributes that the sort and filter
script reads. Nothing here computes a fact about the records; `derive` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from .. import config
from ..models import RecordBase
from .comparison_table import ComparisonTable, TableRow
from .contexts import (
    CellView,
    ColumnView,
    ComparisonRowView,
    ComparisonView,
    EvidenceGroup,
    EvidenceView,
    Facet,
    LegendView,
    Link,
    NoteRef,
    ResultRowView,
    ResultsTable,
)
from .evaluation_rows import EvaluationRow
from .evidence import CitedSource, EvidenceRow, EvidenceTable
from .present.flags import legend_text
from .present.numbers import plural
from .urls import record_path, sorted_path

RANKING_TEXT = (
    "A value is marked best only among at least two results whose recorded conditions "
    "match (adaptation, split, metric and scale, length unit, and the accelerator where "
    "the protocol declares the metric depends on it), and only when it leads the others "
    "by more than their stated uncertainty or, where none is stated, half a unit of the "
    "last printed digit (closer leads are ties); a result whose conditions are not "
    "stated, or that is no better than a trivial answer, is shown, not ranked."
)


def result_anchor(evaluation_id: str, column_id: str) -> str:
    return f"result-{evaluation_id}-{column_id}"


def correction_url(record: RecordBase) -> str:
    """'Suggest a correction': the record's YAML in the repository."""
    base = config.REPOSITORY_URL.rstrip("/")
    return f"{base}/blob/{config.DEFAULT_BRANCH}/{config.RECORDS_DIR}/{record.id}.yaml"


def facet_values_of(
    facets: Mapping[str, Mapping[str, tuple[str, ...]]], evaluation_ids: Iterable[str]
) -> tuple[tuple[str, str], ...]:
    """Data attributes of a row that stands for `evaluation_ids`: per facet, the union of
    their values. `facets` maps facet key -> evaluation id -> value tokens."""
    ids = list(evaluation_ids)
    out = []
    for key in facets:
        values = sorted({v for i in ids for v in facets[key].get(i, ())})
        out.append((key, " ".join(values)))
    return tuple(out)


def results_table(
    table_id: str,
    caption: str,
    rows: Sequence[EvaluationRow],
    facets: tuple[Facet, ...],
    facet_index: Mapping[str, Mapping[str, tuple[str, ...]]],
    show_protocol: bool = True,
    *,
    compact: bool = False,
) -> ResultsTable:
    """The result rows of a page. Where a protocol page lists none (more than 60 published
    results, or none published), render.protocol sets `matching_text` to the comparison
    table rows the filter counts instead."""
    found: dict[tuple[str, str], list[bool]] = {}
    if compact:
        for row in rows:
            for flag in row.flags:
                if not flag.recorded:
                    found.setdefault((flag.label, legend_text(flag)), []).append(
                        flag.excludes_from_comparisons
                    )
    keys = sorted(found)
    numbers = {key: i for i, key in enumerate(keys, start=1)}
    legend = tuple(
        LegendView(i, key[0], key[1], plural(len(found[key]), "result"), any(found[key]))
        for i, key in enumerate(keys, start=1)
    )
    shown = {f.key for f in facets}
    facet_index = {k: v for k, v in facet_index.items() if k in shown}
    views = tuple(
        ResultRowView(
            row=row,
            anchor=result_anchor(row.evaluation_id, row.column_id),
            evaluation_href=record_path("evaluation", row.evaluation_id),
            configuration_href=record_path("configuration", row.configuration_id),
            protocol_href=record_path("protocol", row.protocol_id),
            dataset_href=record_path("dataset", row.dataset_id),
            source_href=record_path("source", row.citation.source_id) if row.citation else None,
            facet_values=facet_values_of(facet_index, [row.evaluation_id]),
            notes=tuple(
                NoteRef(numbers[(f.label, legend_text(f))], f.label)
                for f in row.flags
                if (f.label, legend_text(f)) in numbers
            ),
        )
        for row in rows
    )
    evaluations = len({r.evaluation_id for r in rows})
    return ResultsTable(
        id=table_id,
        form_id=f"{table_id}-filters",
        caption=caption,
        rows=views,
        evaluation_count=evaluations,
        matching_text=plural(evaluations, "matching evaluation"),
        counts_text=f"{plural(evaluations, 'evaluation')} · {plural(len(rows), 'result')}",
        facets=facets,
        show_protocol=show_protocol,
        compact=compact,
        legend=legend,
    )


EVIDENCE_OPEN_ROWS = 30
"""An evidence table with this many rows or fewer shows open; a longer one starts folded."""


def evidence_view(table: EvidenceTable, record_review: str) -> EvidenceView:
    """The evidence rows grouped by the citation they show (in order of first
    appearance; rows keep their order within a group), so each source's cells are
    shown once for the rows that cite it."""
    found: dict[CitedSource, list[EvidenceRow]] = {}
    for row in table.rows:
        found.setdefault(row.cited, []).append(row)
    groups = tuple(
        EvidenceGroup(cited, rows[0].shared_locator, tuple(rows)) for cited, rows in found.items()
    )
    origin = table.rows[0].origin if table.rows else None
    return EvidenceView(
        table, groups, record_review, origin, open=len(table.rows) <= EVIDENCE_OPEN_ROWS
    )


def column_views(table: ComparisonTable) -> tuple[ColumnView, ...]:
    """The header cells of `table`: each column's sorted view, and which one it is sorted
    by."""
    return tuple(
        ColumnView(
            column=c,
            sort_href=sorted_path(table.protocol_id, c.id),
            sorted=c.id == table.sort_column,
            aria_sort=(
                ("ascending" if c.direction == "lower" else "descending")
                if c.id == table.sort_column
                else ""
            ),
        )
        for c in table.columns
    )


def resorted_view(view: ComparisonView, table: ComparisonTable) -> ComparisonView:
    """`view` shown in the order of `table`, the same table in another order (its rows
    are the same `TableRow` objects, as `derive.tables.resort` keeps them): the row views
    are reused, not rebuilt, so a `SharedRows` on `view` renders each row once for all
    the orders."""
    by_row = {id(r.row): r for r in view.rows}
    return replace(
        view,
        table=table,
        columns=column_views(table),
        rows=tuple(by_row[id(row)] for row in table.rows),
    )


def _origin_of(row: TableRow, evaluation_id: str) -> str:
    """The link text of an evaluation in a comparison row: its origin as the record holds
    it ('Maintainer statement'), so a reader sees whose value each row is."""
    return next(
        (c.origin_label for c in row.cells if c.evaluation_id == evaluation_id and c.origin_label),
        "Evaluation",
    )


def comparison_view(
    table: ComparisonTable,
    facet_index: Mapping[str, Mapping[str, tuple[str, ...]]],
    table_id: str = "comparison",
) -> ComparisonView:
    numbers = {(note.label, note.text): i for i, note in enumerate(table.legend, start=1)}
    legend = tuple(
        LegendView(
            i,
            note.label,
            note.text,
            plural(note.count, "result"),
            note.excludes,
        )
        for i, note in enumerate(table.legend, start=1)
    )
    columns = column_views(table)
    headers = {c.id: c.header for c in table.columns}
    rows = tuple(
        ComparisonRowView(
            row=row,
            configuration_href=(
                record_path("model_family", row.family_id)
                if row.family_id
                else record_path("configuration", row.configuration_id)
            ),
            evaluations=tuple(
                Link(_origin_of(row, e), record_path("evaluation", e)) for e in row.evaluation_ids
            )
            if not row.family_id
            else (),  # a setup row: each cell links to its own evaluation
            cells=tuple(
                CellView(
                    cell=cell,
                    href=(
                        record_path("evaluation", cell.evaluation_id)
                        + "#"
                        + result_anchor(cell.evaluation_id, cell.column_id)
                        if cell.evaluation_id
                        else None
                    ),
                    sort_value=(
                        repr(cell.value) if cell.value is not None and not cell.excluded else ""
                    ),
                    notes=tuple(
                        NoteRef(numbers[concern], concern[0])
                        for concern in cell.concerns
                        if concern in numbers
                    ),
                    label=headers.get(cell.column_id, ""),
                )
                for cell in row.cells
            ),
            facet_values=facet_values_of(facet_index, row.evaluation_ids),
        )
        for row in table.rows
    )
    datasets = tuple(
        Link(title, record_path("dataset", i))
        for i, title in zip(table.dataset_ids, table.dataset_titles, strict=True)
    )
    excluded = table.excluded_count
    return ComparisonView(
        table_id,
        table,
        columns,
        rows,
        datasets,
        legend,
        RANKING_TEXT,
        f"{plural(excluded, 'result')} with a concern that excludes "
        f"{'it' if excluded == 1 else 'them'} stay{'s' if excluded == 1 else ''} visible but "
        "leave comparisons."
        if excluded
        else "",
    )
