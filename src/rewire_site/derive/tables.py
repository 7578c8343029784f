"""Comparison tables and the rows of 'Exact evaluated configurations and original
reported results'.

A comparison table has one row per configuration and one column per protocol result
column that holds any result. It is sorted by one column in the metric's direction
(rows without a value in that column last); best in column ignores results that a flag
takes out of comparisons, results that did not fit in memory and incomplete runs (which
claim no value: the cell says 'Incomplete run' and links to the note saying why). Display rounding
never changes the stored value: each cell keeps the value and the printed value (the
citation is on the evaluation page each cell links to, `ResultRow` below).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ..link import Catalogue
from ..models import Configuration, Dataset, Evaluation, Protocol, Result
from ..models.evaluation import Origin
from .comparability import (
    Conditions,
    Entry,
    accelerators,
    conditions,
    evaluation_hardware,
    protocol_depends_on_hardware,
    ranking_value,
    standings,
    value_margin,
)
from .concerns import Flag, excluded, flags_by_evaluation
from .display import (
    DIRECTION_LABELS,
    NOT_REPORTED,
    ORIGIN_LABELS,
    TRIVIAL_LEGENDS,
    CitationView,
    FlagView,
    cite,
    flag_label,
    flag_text,
    flag_view,
    metric_dependence,
    metric_names,
    missing_text,
    per_column,
    plural,
    result_display,
    result_header,
    review_label,
    unit_text,
)
from .reproduction import printed_display
from .scales import column_metrics

CellStatus = Literal["value", "not_reported", "out_of_memory", "incomplete"]
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
    """One configuration's result in one column."""

    column_id: str
    status: CellStatus
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
    """True: best of a group of at least two comparable results in its column
    (`comparability.standings`)."""
    conditions: Conditions | None = None
    """The recorded conditions the comparability guard compared."""
    standing: str = ""
    """'best of 3 comparable', 'tied for best of 3 comparable', 'not ranked: length unit
    not stated', 'no comparable result', 'excluded from comparisons: ...' or '' (no
    value)."""
    standing_state: str = "no_value"
    """best | tied | ranked | alone | unstated | excluded | no_value."""
    rank_value: float | None = None
    """The value on the column metric's own scale: what sorting and ranking compare (a
    result printed as a percent beside one printed as a fraction)."""
    concerns: tuple[tuple[str, str], ...] = ()
    """(label, legend text) of every flag that concerns this result: the cell names
    each; the table's legend explains each once."""
    rank_margin: float = 0.0
    """The value's margin on the column metric's scale (`comparability.value_margin`):
    a lead within it is a tie, not a best mark."""


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
    """Set when the row is one setup across several configurations (`setup_keys`): the
    model family they share; `configuration_id` is then the first of them."""
    configuration_ids: tuple[str, ...] = ()
    """Every configuration whose results the row holds."""


@dataclass(frozen=True)
class ComparisonTable:
    """A protocol's results, rows configurations, columns result columns."""

    protocol_id: str
    protocol_title: str
    metric_label: str
    """The metric of the columns shown: 'Peak memory', or 'MCC, AUC, F1 score and Accuracy'
    where columns have metrics of their own (scales.column_metrics)."""
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
    row_heading: str = "Tested configuration"
    """What a row is: 'Tested configuration', or 'Measured setup' when rows are setups."""
    setup_keys: tuple[str, ...] = ()
    """The recipe settings that define a setup row."""
    unit_text: str = ""
    """'gigabyte, 10⁹ bytes': the unit as a reader must read it."""
    legend: tuple[LegendNote, ...] = ()
    """Every concern the table's cells name, each explained once."""
    groups: tuple[Conditions, ...] = ()
    """Conditions of each group of comparable results ranked in some column."""
    ranked_count: int = 0
    """Cells ranked against at least one comparable result."""
    hardware_note: str = ""
    """Where the protocol declares its metric independent of the accelerator and the
    table holds results from other accelerators than the protocol's: says so once."""


def _cell(
    evaluation: Evaluation,
    result: Result,
    found: tuple[Flag, ...],
    catalogue: Catalogue,
    protocol: Protocol,
) -> Cell:
    display = result_display(result.value, result.status)
    if result.value is not None and evaluation.origin != Origin.rewire_measurement:
        display = printed_display(result.value, result.printed_value)
    return Cell(
        column_id=result.column,
        status=_status(result),
        value=result.value,
        display=display,
        printed_value=result.printed_value,
        unit=result.unit,
        evaluation_id=evaluation.id,
        origin_label=ORIGIN_LABELS[evaluation.origin],
        excluded=excluded(found, result.column),
        flag_labels=tuple(flag_label(f) for f in found if f.affects(result.column)),
        best=False,
        conditions=conditions(evaluation, result, protocol, catalogue),
        rank_value=ranking_value(protocol, result),
        rank_margin=value_margin(protocol.column_metric(result.column), result),
        concerns=tuple(
            (flag_label(f), _legend(f, catalogue)) for f in found if f.affects(result.column)
        ),
    )


def _status(result: Result) -> CellStatus:
    if result.status == "value" and result.value is not None:
        return "value"
    return "incomplete" if result.status == "incomplete" else "out_of_memory"


def _empty(column_id: str) -> Cell:
    return Cell(
        column_id,
        "not_reported",
        None,
        NOT_REPORTED,
        None,
        None,
        None,
        None,
        False,
        (),
        False,
    )


def _select(
    protocol: Protocol,
    catalogue: Catalogue,
    dataset_id: str | None,
    evaluations: Iterable[Evaluation] | None,
) -> list[Evaluation]:
    chosen = catalogue.evaluations_of(protocol.id) if evaluations is None else list(evaluations)
    chosen = [e for e in chosen if e.protocol == protocol.id]
    if dataset_id is not None:
        chosen = [e for e in chosen if e.dataset == dataset_id]
    return sorted(chosen, key=lambda e: e.id)


def comparison_table(
    protocol: Protocol,
    catalogue: Catalogue,
    sort_by: str | None = None,
    *,
    dataset_id: str | None = None,
    flags: Flags | None = None,
    evaluations: Iterable[Evaluation] | None = None,
    setup_keys: Sequence[str] = (),
    setup_defaults: Mapping[str, str] | None = None,
) -> ComparisonTable:
    """The comparison table of `protocol`'s evaluations (all, or those on `dataset_id`,
    or the given `evaluations`), sorted by column `sort_by` (default: the first shown
    column holding a comparable result, see `default_sort_column`). `flags` (from
    `flags_by_evaluation`) avoids recomputing flags. With `setup_keys` (the protocol
    recipe's), evaluations whose configurations share family, reported name and those
    settings form one row across the columns (`setup_key`); others keep a row per
    configuration."""
    chosen = _select(protocol, catalogue, dataset_id, evaluations)
    if flags is None:
        flags = flags_by_evaluation(catalogue, chosen)
    used = {r.column for e in chosen for r in e.results}
    columns = tuple(
        TableColumn(
            id=c.id,
            label=c.label,
            header=result_header(protocol, c.id),
            description=c.description,
            unit=protocol.column_metric(c.id).unit,
            direction=protocol.column_metric(c.id).direction,
            direction_label=DIRECTION_LABELS[protocol.column_metric(c.id).direction],
        )
        for c in protocol.columns
        if c.id in used
    )
    column_ids = [c.id for c in columns]

    # Group results into rows: one per configuration, a further row only when two
    # evaluations of one configuration report the same column.
    groups: dict[str, list[dict[str, Cell]]] = {}
    evaluation_ids: dict[tuple[str, int], list[str]] = {}
    configurations: dict[str, list[str]] = {}
    setups: dict[str, tuple[str, str]] = {}
    notes: dict[tuple[str, str], list[bool]] = {}
    result_count = 0
    for evaluation in chosen:
        found = flags.get(evaluation.id, ())
        key = evaluation.configuration
        setup = setup_key(catalogue.by_id.get(key), setup_keys, setup_defaults)
        if setup is not None:
            key = "setup:" + "\x1f".join(setup)
            setups[key] = (
                setup[0],
                setup_title(setup[1], setup_keys, setup[2:], setup_defaults),
            )
        members = configurations.setdefault(key, [])
        if evaluation.configuration not in members:
            members.append(evaluation.configuration)
        rows = groups.setdefault(key, [])
        columns_here = {r.column for r in evaluation.results}
        index = next((i for i, row in enumerate(rows) if not columns_here & row.keys()), None)
        if index is None:
            rows.append({})
            index = len(rows) - 1
        for result in evaluation.results:
            rows[index][result.column] = _cell(evaluation, result, found, catalogue, protocol)
            for flag in found:
                if flag.affects(result.column):
                    notes.setdefault((flag_label(flag), _legend(flag, catalogue)), []).append(
                        flag.excludes_from_comparisons
                    )
            result_count += 1
        evaluation_ids.setdefault((key, index), []).append(evaluation.id)

    # The comparability guard ranks each column: best needs comparable results of two
    # different row keys (configurations, or setups).
    all_groups: list[Conditions] = []
    ranked_count = 0
    for column_id in column_ids:
        cells = [
            (key, rows, index, row[column_id])
            for key, rows in groups.items()
            for index, row in enumerate(rows)
            if column_id in row
        ]
        ranking = standings(
            [
                Entry(
                    cell.rank_value if cell.status == "value" else None,
                    cell.conditions or _NO_CONDITIONS,
                    tuple(label for label in cell.flag_labels if cell.excluded)
                    if cell.excluded
                    else (),
                    # Rows of one key are one configuration (or setup) measured again.
                    competitor=key,
                    margin=cell.rank_margin,
                )
                for key, _, _, cell in cells
            ],
            protocol.column_metric(column_id).direction,
        )
        for (_, rows, index, cell), standing in zip(cells, ranking.standings, strict=True):
            ranked_count += standing.state in ("best", "tied", "ranked")
            rows[index][column_id] = replace(
                cell,
                best=standing.best,
                standing=standing.label,
                standing_state=standing.state,
            )
        all_groups += [g for g in ranking.groups if g not in all_groups]

    table_rows: list[TableRow] = []
    for key, rows in groups.items():
        configuration_id = configurations[key][0]
        configuration = catalogue.by_id.get(configuration_id)
        title = (
            configuration.title if isinstance(configuration, Configuration) else configuration_id
        )
        family_id = None
        if key in setups:
            family_id, title = setups[key]
        for index, row in enumerate(rows):
            shown = [row.get(column_id) or _empty(column_id) for column_id in column_ids]
            table_rows.append(
                TableRow(
                    configuration_id,
                    title,
                    tuple(evaluation_ids[(key, index)]),
                    tuple(shown),
                    family_id,
                    tuple(configurations[key]),
                )
            )

    table_rows = distinct_titles(table_rows)
    table_rows.sort(key=lambda r: (r.configuration_title, r.configuration_id))
    sort_column = sort_by or default_sort_column(column_ids, table_rows)
    dataset_ids = tuple(dict.fromkeys(e.dataset for e in chosen))
    dataset_titles = tuple(_title(catalogue, d) for d in dataset_ids)
    metrics = column_metrics(protocol, column_ids)  # of the columns shown
    table = ComparisonTable(
        protocol_id=protocol.id,
        protocol_title=protocol.title,
        metric_label=metric_names(metrics),
        unit=per_column([m.unit for m in metrics]),
        direction=per_column([m.direction for m in metrics]),
        dataset_ids=dataset_ids,
        dataset_titles=dataset_titles,
        columns=columns,
        rows=tuple(table_rows),
        sort_column=None,
        sort_text="",
        evaluation_count=len(chosen),
        result_count=result_count,
        excluded_count=sum(c.excluded for r in table_rows for c in r.cells),
        counts_text=f"{plural(len(chosen), 'recorded evaluation')}, "
        f"{plural(result_count, 'metric row')}",
        short_counts_text=f"{plural(len(chosen), 'evaluation')} · {plural(result_count, 'result')}",
        row_heading="Measured setup" if setups else "Tested configuration",
        setup_keys=tuple(setup_keys) if setups else (),
        unit_text=unit_text(per_column([m.unit for m in metrics])),
        legend=tuple(
            LegendNote(label, text, len(hits), any(hits))
            for (label, text), hits in sorted(notes.items())
        ),
        groups=tuple(all_groups),
        ranked_count=ranked_count,
        hardware_note=_hardware_note(protocol, chosen, catalogue),
    )
    return resort(table, sort_column) if sort_column is not None else table


_NO_CONDITIONS = Conditions(None, None, "", None, None)


def _hardware_note(
    protocol: Protocol, evaluations: Sequence[Evaluation], catalogue: Catalogue
) -> str:
    if protocol_depends_on_hardware(protocol):
        return ""
    specified = accelerators(protocol.hardware)
    ran: set[str] = set()
    for evaluation in evaluations:
        found = catalogue.by_id.get(evaluation.configuration)
        configuration = found if isinstance(found, Configuration) else None
        ran |= accelerators(evaluation_hardware(evaluation, configuration))
    other = sorted(ran - specified)
    if not other or not specified:
        return ""
    return (
        f"Results from {', '.join(other)} rank with those from {', '.join(sorted(specified))} "
        f"(the protocol's): the protocol declares that "
        f"{metric_dependence(protocol, False, lower=True)}."
    )


def fixed_legend(kind: str, recorded: bool) -> str:
    """A flag's explanation for a table legend where it is not the flag's own text: a
    trivial result's shared explanation, or a pointer to the evaluation page, which shows
    the full text ('' for the computed flags whose text is the same for every result:
    hardware, units, length unit, tolerance)."""
    if kind in TRIVIAL_LEGENDS:
        return TRIVIAL_LEGENDS[kind]
    if recorded:
        return "Recorded for the evaluation; its page gives the full text and citations."
    if kind == "reproduction_disagrees":
        return (
            "The measurement differs from the published value it reproduces by more "
            "than the protocol's tolerance; its evaluation page gives the values."
        )
    return ""


def legend_text(flag: FlagView) -> str:
    """A shown flag's explanation for a table legend (`fixed_legend`, else its text)."""
    return fixed_legend(flag.kind, flag.recorded) or flag.text


def _legend(flag: Flag, catalogue: Catalogue) -> str:
    return fixed_legend(flag.kind, flag.recorded) or flag_text(flag, catalogue)


def distinct_titles(rows: Sequence[TableRow]) -> list[TableRow]:
    """Rows whose configurations share a title (the same setup measured in two runs, say)
    get their configuration id after the title, so that no two rows read the same."""
    counts = Counter(r.configuration_title for r in rows)
    ids = Counter((r.configuration_title, r.configuration_id) for r in rows)
    return [
        replace(r, configuration_title=f"{r.configuration_title} ({r.configuration_id})")
        if counts[r.configuration_title] > ids[(r.configuration_title, r.configuration_id)]
        else r
        for r in rows
    ]


def setup_key(
    configuration: object,
    setup_keys: Sequence[str],
    defaults: Mapping[str, str] | None = None,
) -> tuple[str, ...] | None:
    """(family, reported name, setting values in `setup_keys` order) of a configuration
    whose settings hold every setup key, a missing key reading as its default (the
    recipe's `setup_defaults`: records made before the key existed); None otherwise (its
    row stays its own)."""
    if not setup_keys or not isinstance(configuration, Configuration):
        return None
    settings = {**(defaults or {}), **configuration.settings}
    if any(k not in settings for k in setup_keys):
        return None
    values = tuple(settings[k] for k in setup_keys)
    return (configuration.family, configuration.reported_name, *values)


def setup_title(
    reported_name: str,
    setup_keys: Sequence[str],
    values: Sequence[str],
    defaults: Mapping[str, str] | None = None,
) -> str:
    """'NT 2.5B (precision bf16, update full, length 1000nt)': a setting at the recipe's
    default is left out (it names the default setup)."""
    settings = ", ".join(
        f"{k} {v}" for k, v in zip(setup_keys, values, strict=True) if (defaults or {}).get(k) != v
    )
    return f"{reported_name} ({settings})"


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
    """Reported evaluations (every origin but a Rewire measurement: author reported,
    independent paper, community reproduction, maintainer statement) in one table, Rewire
    measurements in another, grouped by the recipe's `setup_keys` when it sets them."""
    chosen = _select(protocol, catalogue, None, evaluations)
    if flags is None:
        flags = flags_by_evaluation(catalogue, chosen)
    # Only Rewire's own runs go to the measurements table: a community reproduction or a
    # maintainer's statement is reported by others, and stays with the reported evidence.
    published = [e for e in chosen if e.origin != Origin.rewire_measurement]
    measured = [e for e in chosen if e.origin == Origin.rewire_measurement]
    keys = protocol.recipe.setup_keys if protocol.recipe is not None else []
    defaults = dict(getattr(protocol.recipe, "setup_defaults", None) or {})
    first = comparison_table(protocol, catalogue, flags=flags, evaluations=published)
    second = (
        comparison_table(
            protocol,
            catalogue,
            flags=flags,
            evaluations=measured,
            setup_keys=keys,
            setup_defaults=defaults,
        )
        if measured
        else None
    )
    results = first.result_count + (second.result_count if second else 0)
    counts = f"{plural(len(chosen), 'recorded evaluation')}, {plural(results, 'metric row')}"
    shown = {c.id for t in (first, second) if t is not None for c in t.columns}
    column_ids = tuple(c.id for c in protocol.columns if c.id in shown)
    return ProtocolTables(first, second, counts, column_ids)


def default_sort_column(column_ids: list[str], rows: Iterable[TableRow]) -> str | None:
    """The first column that holds a comparable result (a value no flag excludes), else
    the first column; None without columns. A column of excluded results only (say, a
    measurement on other hardware) never leads the order."""
    comparable = {
        c.column_id
        for r in rows
        for c in r.cells
        if c.status == "value" and c.value is not None and not c.excluded
    }
    return next((c for c in column_ids if c in comparable), column_ids[0] if column_ids else None)


def resort(table: ComparisonTable, sort_by: str) -> ComparisonTable:
    """The same table sorted by column `sort_by` in the metric's direction: comparable
    values first, then values that left comparisons, then out of memory, then incomplete
    runs, then rows without a value (ties by configuration title). Cells are reused, not
    recomputed."""
    column_ids = [c.id for c in table.columns]
    if sort_by not in column_ids:
        raise ValueError(
            f"cannot sort {table.protocol_id} by {sort_by!r}: shown columns are {column_ids}"
        )
    position = column_ids.index(sort_by)
    lower = table.columns[position].direction == "lower"

    def key(row: TableRow) -> tuple[int, float, str, str]:
        cell = row.cells[position]
        if cell.status == "value" and cell.value is not None:
            ranked = cell.rank_value if cell.rank_value is not None else cell.value
            value = ranked if lower else -ranked
            group = 1 if cell.excluded else 0
            return (group, value, row.configuration_title, row.configuration_id)
        group = {"out_of_memory": 2, "incomplete": 3}.get(cell.status, 4)
        return (group, 0.0, row.configuration_title, row.configuration_id)

    column = table.columns[position]
    return replace(
        table,
        rows=tuple(sorted(table.rows, key=key)),
        sort_column=sort_by,
        sort_text=f"Sorted by {column.header} ({column.direction_label}).",
    )


def _title(catalogue: Catalogue, record_id: str) -> str:
    record = catalogue.by_id.get(record_id)
    return record.title if record is not None else record_id


@dataclass(frozen=True)
class EvaluationRow:
    """One result of one evaluation, with what a reader needs to judge it."""

    evaluation_id: str
    evaluation_title: str
    configuration_id: str
    configuration_title: str
    protocol_id: str
    protocol_title: str
    dataset_id: str
    dataset_title: str
    column_id: str
    column_header: str
    status: CellStatus
    value: float | None
    display: str
    """Rounded for display, 'Out of memory' or 'Incomplete run'."""
    printed_value: str | None
    unit: str
    """The result's unit, or why it is missing ('Not reported')."""
    direction: str
    """'lower' or 'higher' (the result's, else the protocol's)."""
    uncertainty: str
    """As reported, or 'Not reported by the source' (or another missing reason)."""
    coverage: str
    """'12 scored / 18 eligible', or 'Not reported scored / Not reported eligible'."""
    aggregation: str
    """The evaluation's aggregation, or why it is missing."""
    origin: str
    origin_label: str
    review_label: str
    """Record review: 'Source checked', 'Not reviewed', 'Disputed'."""
    citation: CitationView | None
    flags: tuple[FlagView, ...]
    """Flags that concern this result."""
    excluded: bool
    note: str | None


def evaluation_rows(
    evaluations: Iterable[Evaluation],
    catalogue: Catalogue,
    *,
    flags: Flags | None = None,
) -> tuple[EvaluationRow, ...]:
    """Rows of the 'Exact evaluated configurations' table: evaluations sorted by id,
    results in protocol column order."""
    chosen = sorted(evaluations, key=lambda e: e.id)
    if flags is None:
        flags = flags_by_evaluation(catalogue, chosen)
    out: list[EvaluationRow] = []
    for evaluation in chosen:
        protocol = catalogue.get(evaluation.protocol, Protocol)
        order = {c.id: i for i, c in enumerate(protocol.columns)}
        found = flags.get(evaluation.id, ())
        dataset = catalogue.by_id.get(evaluation.dataset)
        indexed = sorted(enumerate(evaluation.results), key=lambda p: order.get(p[1].column, 0))
        for i, result in indexed:
            out.append(_evaluation_row(evaluation, i, result, protocol, found, dataset, catalogue))
    return tuple(out)


def _evaluation_row(
    evaluation: Evaluation,
    i: int,
    result: Result,
    protocol: Protocol,
    found: tuple[Flag, ...],
    dataset: object,
    catalogue: Catalogue,
) -> EvaluationRow:
    if result.coverage is not None:
        coverage = f"{result.coverage.scored} scored / {result.coverage.eligible} eligible"
    else:
        why = missing_text(evaluation, f"results.{i}.coverage").label
        coverage = f"{why} scored / {why} eligible"
    aggregation = evaluation.comparison.aggregation or (
        missing_text(evaluation, "comparison.aggregation").label
    )
    configuration = catalogue.by_id.get(evaluation.configuration)
    return EvaluationRow(
        evaluation_id=evaluation.id,
        evaluation_title=evaluation.title,
        configuration_id=evaluation.configuration,
        configuration_title=configuration.title if configuration else evaluation.configuration,
        protocol_id=protocol.id,
        protocol_title=protocol.title,
        dataset_id=evaluation.dataset,
        dataset_title=dataset.title if isinstance(dataset, Dataset) else evaluation.dataset,
        column_id=result.column,
        column_header=result_header(protocol, result.column),
        status=_status(result),
        value=result.value,
        display=result_display(result.value, result.status),
        printed_value=result.printed_value,
        unit=result.unit or missing_text(evaluation, f"results.{i}.unit").label,
        direction=result.direction or protocol.column_metric(result.column).direction,
        uncertainty=result.uncertainty
        or missing_text(evaluation, f"results.{i}.uncertainty").long_label,
        coverage=coverage,
        aggregation=aggregation,
        origin=evaluation.origin.value,
        origin_label=ORIGIN_LABELS[evaluation.origin],
        review_label=review_label(evaluation).capitalize(),
        citation=cite(result.citation, catalogue) if result.citation else None,
        flags=tuple(flag_view(f, catalogue) for f in found if f.affects(result.column)),
        excluded=excluded(found, result.column),
        note=result.note,
    )
