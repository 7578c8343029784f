"""Comparison tables in words: each cell's shown value, its flags and standing named, the
table's counts, sort order and legend, made from `derive.tables`' facts. Display rounding
never changes the stored value: each cell keeps the value and the printed value (the
citation is on the evaluation page each cell links to).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from ..derive import tables as derived
from ..derive.comparability import Conditions
from ..derive.concerns import Flag
from ..link import Catalogue
from ..models import Evaluation, Protocol
from .present.flags import fixed_legend, flag_label, flag_text
from .present.labels import ORIGIN_LABELS
from .present.metrics import (
    DIRECTION_LABELS,
    metric_dependence,
    metric_names,
    per_column,
    result_header,
)
from .present.names import row_title
from .present.numbers import NOT_REPORTED, plural, result_display, unit_text
from .present.standing import standing_text
from .reproduction import printed_display

Flags = Mapping[str, tuple[Flag, ...]]


@dataclass(frozen=True)
class TableColumn:
    """A protocol result column shown in a comparison table."""

    id: str
    label: str
    """The column's own label, e.g. a Figure 3 stage."""
    header: str
    """Metric label and column label: 'Peak memory (Training, ...)'."""
    description: str | None
    unit: str
    direction: str
    """'lower' or 'higher': which way is better."""
    direction_label: str
    """'lower is better' or 'higher is better'."""


@dataclass(frozen=True)
class Cell:
    """One configuration's result in one column, in words."""

    column_id: str
    status: derived.CellStatus
    value: float | None
    """The stored value, unrounded; None unless status is 'value'."""
    display: str
    """Rounded for display ('33.9'), 'Out of memory', 'Incomplete run' or 'Not reported'."""
    printed_value: str | None
    """The value exactly as the source printed it."""
    unit: str | None
    evaluation_id: str | None
    origin_label: str | None
    excluded: bool
    """True: a flag takes this result out of comparisons (it stays visible)."""
    flag_labels: tuple[str, ...]
    """Labels of the flags that concern this result."""
    best: bool
    """True: best of a group of at least two comparable results in its column."""
    conditions: Conditions | None
    """The recorded conditions the comparability guard compared."""
    standing: str
    """'best of 3 comparable', 'tied for best of 3 comparable', 'not ranked: length unit
    not stated', 'no comparable result', 'excluded from comparisons: ...' or '' (no
    value)."""
    standing_state: str
    """best | tied | ranked | alone | unstated | excluded | no_value."""
    rank_value: float | None
    """The value on the column metric's own scale: what sorting and ranking compare."""
    concerns: tuple[tuple[str, str], ...]
    """(label, legend text) of every flag that concerns this result: the cell names
    each; the table's legend explains each once."""
    rank_margin: float
    """The value's margin on the column metric's scale: a lead within it is a tie."""


@dataclass(frozen=True)
class LegendNote:
    """One concern, explained once per table (cells name it by `label`)."""

    label: str
    text: str
    count: int
    """Cells of the table it concerns."""
    excludes: bool = False
    """True when the concern takes the results it concerns out of comparisons."""


@dataclass(frozen=True)
class TableRow:
    """A configuration's results under the protocol."""

    configuration_id: str
    configuration_title: str
    evaluation_ids: tuple[str, ...]
    cells: tuple[Cell, ...]
    """One per table column, in column order."""
    family_id: str | None = None
    """Set when the row is one setup across several configurations: the model family
    they share; `configuration_id` is then the first of them."""
    configuration_ids: tuple[str, ...] = ()
    """Every configuration whose results the row holds."""

    @property
    def order(self) -> str:
        """What `derive.tables.row_order` breaks ties on: the row's name as it reads (the
        words of `derive.names.order_text`)."""
        return self.configuration_title


@dataclass(frozen=True)
class ComparisonTable:
    """A protocol's results in words, rows configurations, columns result columns."""

    protocol_id: str
    protocol_title: str
    metric_label: str
    """The metric of the columns shown: 'Peak memory', or 'MCC, AUC, F1 score and Accuracy'
    where columns have metrics of their own."""
    unit: str
    """The columns' shared unit, or 'per column: ...' where they differ."""
    direction: str
    """'lower' or 'higher' when the columns share it, else 'per column: ...'."""
    dataset_ids: tuple[str, ...]
    dataset_titles: tuple[str, ...]
    columns: tuple[TableColumn, ...]
    rows: tuple[TableRow, ...]
    sort_column: str | None
    """Id of the column the rows are sorted by; None when no column holds a result."""
    sort_text: str
    """'Sorted by Peak memory (...) (lower is better).' or '' without columns."""
    evaluation_count: int
    result_count: int
    excluded_count: int
    """Results that stay visible but leave comparisons."""
    counts_text: str
    """'4 recorded evaluations, 4 metric rows'."""
    short_counts_text: str
    """'4 evaluations · 4 results'."""
    row_heading: str
    """What a row is: 'Tested configuration', or 'Measured setup' when rows are setups."""
    setup_keys: tuple[str, ...]
    """The recipe settings that define a setup row."""
    unit_text: str
    """'gigabyte, 10⁹ bytes': the unit as a reader must read it."""
    legend: tuple[LegendNote, ...]
    """Every concern the table's cells name, each explained once."""
    groups: tuple[Conditions, ...]
    """Conditions of each group of comparable results ranked in some column."""
    ranked_count: int
    """Cells ranked against at least one comparable result."""
    hardware_note: str
    """Where the protocol declares its metric independent of the accelerator and the
    table holds results from other accelerators than the protocol's: says so once."""


def _legend(flag: Flag, catalogue: Catalogue) -> str:
    return fixed_legend(flag.kind, flag.recorded) or flag_text(flag, catalogue)


def _cell(cell: derived.ComparedCell, catalogue: Catalogue) -> Cell:
    labels = tuple(flag_label(f) for f in cell.flags)
    standing = cell.standing
    return Cell(
        column_id=cell.column_id,
        status=cell.status,
        value=cell.value,
        display=printed_display(cell.value, cell.printed_value)
        if cell.as_printed
        else (
            result_display(cell.value, cell.recorded_status)
            if cell.origin is not None
            else NOT_REPORTED
        ),
        printed_value=cell.printed_value,
        unit=cell.unit,
        evaluation_id=cell.evaluation_id,
        origin_label=ORIGIN_LABELS[cell.origin] if cell.origin is not None else None,
        excluded=cell.excluded,
        flag_labels=labels,
        best=cell.best,
        conditions=cell.conditions,
        standing=standing_text(standing, labels) if standing is not None else "",
        standing_state=cell.standing_state,
        rank_value=cell.rank_value,
        concerns=tuple((flag_label(f), _legend(f, catalogue)) for f in cell.flags),
        rank_margin=cell.rank_margin,
    )


def _hardware_note(table: derived.Comparison, protocol: Protocol) -> str:
    if not table.other_hardware:
        return ""
    return (
        f"Results from {', '.join(table.other_hardware)} rank with those from "
        f"{', '.join(table.protocol_hardware)} (the protocol's): the protocol declares that "
        f"{metric_dependence(protocol, False, lower=True)}."
    )


def table_view(table: derived.Comparison, catalogue: Catalogue) -> ComparisonTable:
    """A comparison in words."""
    protocol = catalogue.get(table.protocol_id, Protocol)
    notes: dict[tuple[str, str], list[bool]] = {}
    for flag, excludes in table.flagged:
        notes.setdefault((flag_label(flag), _legend(flag, catalogue)), []).append(excludes)
    metrics = table.metrics
    columns = tuple(
        TableColumn(
            id=c.id,
            label=c.label,
            header=result_header(protocol, c.id),
            description=c.description,
            unit=c.unit,
            direction=c.direction,
            direction_label=DIRECTION_LABELS[c.direction],
        )
        for c in table.columns
    )
    n, results = table.evaluation_count, table.result_count
    view = ComparisonTable(
        protocol_id=table.protocol_id,
        protocol_title=table.protocol_title,
        metric_label=metric_names(metrics),
        unit=per_column([m.unit for m in metrics]),
        direction=per_column([m.direction for m in metrics]),
        dataset_ids=table.dataset_ids,
        dataset_titles=table.dataset_titles,
        columns=columns,
        rows=tuple(
            TableRow(
                r.configuration_id,
                row_title(r.name),
                r.evaluation_ids,
                tuple(_cell(c, catalogue) for c in r.cells),
                r.family_id,
                r.configuration_ids,
            )
            for r in table.rows
        ),
        sort_column=None,
        sort_text="",
        evaluation_count=n,
        result_count=results,
        excluded_count=table.excluded_count,
        counts_text=f"{plural(n, 'recorded evaluation')}, {plural(results, 'metric row')}",
        short_counts_text=f"{plural(n, 'evaluation')} · {plural(results, 'result')}",
        row_heading="Measured setup" if table.setup_keys else "Tested configuration",
        setup_keys=table.setup_keys,
        unit_text=unit_text(per_column([m.unit for m in metrics])),
        legend=tuple(
            LegendNote(label, text, len(hits), any(hits))
            for (label, text), hits in sorted(notes.items())
        ),
        groups=table.groups,
        ranked_count=table.ranked_count,
        hardware_note=_hardware_note(table, protocol),
    )
    return _sorted_by(view, table.sort_column) if table.sort_column is not None else view


def comparison_table(
    protocol: Protocol,
    catalogue: Catalogue,
    sort_by: str | None = None,
    *,
    dataset_id: str | None = None,
    flags: Flags | None = None,
    evaluations: Iterable[Evaluation] | None = None,
) -> ComparisonTable:
    """`derive.tables.comparison` in words."""
    found = derived.comparison(
        protocol, catalogue, sort_by, dataset_id=dataset_id, flags=flags, evaluations=evaluations
    )
    return table_view(found, catalogue)


def _sorted_by(table: ComparisonTable, sort_by: str) -> ComparisonTable:
    column = next(c for c in table.columns if c.id == sort_by)
    return replace(
        table,
        sort_column=sort_by,
        sort_text=f"Sorted by {column.header} ({column.direction_label}).",
    )


def resort(table: ComparisonTable, sort_by: str) -> ComparisonTable:
    """The same table sorted by column `sort_by` (`derive.tables.row_order`). Rows are the
    same objects, not recomputed."""
    if sort_by not in [c.id for c in table.columns]:
        raise ValueError(
            f"cannot sort {table.protocol_id} by {sort_by!r}: shown columns are "
            f"{[c.id for c in table.columns]}"
        )
    order = derived.row_order(table.rows, table.columns, sort_by)
    return _sorted_by(replace(table, rows=tuple(table.rows[i] for i in order)), sort_by)


@dataclass(frozen=True)
class ProtocolTables:
    """A protocol page's two comparison tables: the published evidence as the seed page
    shows it, and Rewire's measurements (None when there are none), rows by setup."""

    published: ComparisonTable
    measurements: ComparisonTable | None
    counts_text: str
    """Both tables together: '42 recorded evaluations, 42 metric rows'."""
    column_ids: tuple[str, ...]
    """Columns either table shows, in protocol order (a pre-sorted page each)."""


def protocol_tables(
    protocol: Protocol,
    catalogue: Catalogue,
    *,
    flags: Flags | None = None,
    evaluations: Iterable[Evaluation] | None = None,
) -> ProtocolTables:
    """`derive.tables.protocol_comparisons` in words."""
    found = derived.protocol_comparisons(protocol, catalogue, flags=flags, evaluations=evaluations)
    second = found.measurements
    return ProtocolTables(
        table_view(found.published, catalogue),
        table_view(second, catalogue) if second is not None else None,
        f"{plural(found.evaluation_count, 'recorded evaluation')}, "
        f"{plural(found.result_count, 'metric row')}",
        found.column_ids,
    )
