"""Comparison tables as facts: one row per configuration (or measured setup) and one
column per protocol result column that holds any result, each cell's value, status,
flags and standing in its column (`render/comparison_table.py` puts them in words).

Best in column ignores results that a flag takes out of comparisons, results that did
not fit in memory and incomplete runs (which claim no value). Each cell keeps the stored
value and the printed value; nothing here rounds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal
from typing import Protocol as Shape

from ..link import Catalogue
from ..models import Configuration, Evaluation, Metric, Protocol, Result
from ..models.evaluation import Origin
from .comparability import (
    Conditions,
    Entry,
    Standing,
    accelerators,
    conditions,
    evaluation_hardware,
    protocol_depends_on_hardware,
    ranking_value,
    standings,
    value_margin,
)
from .concerns import Flag, excluded, flags_by_evaluation
from .names import RowName, order_text
from .scales import column_metrics

CellStatus = Literal["value", "not_reported", "out_of_memory", "incomplete"]
Flags = Mapping[str, tuple[Flag, ...]]


@dataclass(frozen=True)
class ComparedColumn:
    """A protocol result column shown in a comparison table."""

    id: str
    label: str
    """The column's own label, e.g. a Figure 3 stage."""
    description: str | None
    unit: str
    direction: str
    """'lower' or 'higher': which way is better."""


@dataclass(frozen=True)
class ComparedCell:
    """One configuration's result in one column."""

    column_id: str
    status: CellStatus
    value: float | None
    """The stored value, unrounded; None unless status is 'value'."""
    printed_value: str | None
    """The value exactly as the source printed it."""
    unit: str | None
    evaluation_id: str | None
    origin: Origin | None
    """The evaluation's origin; None for an empty cell."""
    excluded: bool
    """True: a flag takes this result out of comparisons (it stays visible)."""
    flags: tuple[Flag, ...]
    """The flags that concern this result."""
    best: bool
    """True: best of a group of at least two comparable results in its column
    (`comparability.standings`)."""
    conditions: Conditions | None = None
    """The recorded conditions the comparability guard compared."""
    standing: Standing | None = None
    """Where it stands in its column (`comparability.standings`); None for an empty cell.
    An excluded result's `excluded_by` names its flags' kinds (a page names them in
    words)."""
    rank_value: float | None = None
    """The value on the column metric's own scale: what sorting and ranking compare (a
    result printed as a percent beside one printed as a fraction)."""
    rank_margin: float = 0.0
    """The value's margin on the column metric's scale (`comparability.value_margin`):
    a lead within it is a tie, not a best mark."""
    recorded_status: str = "not_reported"
    """The result's status as recorded ('value', 'out_of_memory', 'incomplete')."""

    @property
    def standing_state(self) -> str:
        """best | tied | ranked | alone | unstated | excluded | no_value."""
        return self.standing.state if self.standing is not None else "no_value"

    @property
    def as_printed(self) -> bool:
        """A reported value (not a Rewire measurement): shown with the digits its source
        printed."""
        return self.value is not None and self.origin not in (None, Origin.rewire_measurement)


@dataclass(frozen=True)
class ComparedRow:
    """A configuration's results under the protocol."""

    configuration_id: str
    name: RowName
    """The row's name as parts (`render/present/names.row_title` words it)."""
    evaluation_ids: tuple[str, ...]
    cells: tuple[ComparedCell, ...]
    """One per table column, in column order."""
    family_id: str | None = None
    """Set when the row is one setup across several configurations (`setup_keys`): the
    model family they share; `configuration_id` is then the first of them."""
    configuration_ids: tuple[str, ...] = ()
    """Every configuration whose results the row holds."""

    @property
    def order(self) -> str:
        """The key rows sort on after their values: the name's text (`names.order_text`)."""
        return order_text(self.name)


@dataclass(frozen=True)
class Comparison:
    """A protocol's results, rows configurations, columns result columns."""

    protocol_id: str
    protocol_title: str
    metrics: tuple[Metric, ...]
    """The metrics of the columns shown (`scales.column_metrics`)."""
    dataset_ids: tuple[str, ...]
    dataset_titles: tuple[str, ...]
    columns: tuple[ComparedColumn, ...]
    rows: tuple[ComparedRow, ...]
    """Sorted by `sort_column` (`row_order`)."""
    sort_column: str | None
    """Id of the column the rows are sorted by; None when no column holds a result."""
    evaluation_count: int
    result_count: int
    excluded_count: int
    """Results that stay visible but leave comparisons."""
    flagged: tuple[tuple[Flag, bool], ...]
    """(flag, whether it takes the result out of comparisons) for each flag concerning
    each result of the table, in the order the results were read."""
    setup_keys: tuple[str, ...] = ()
    """The recipe settings that define a setup row; empty when rows are configurations."""
    groups: tuple[Conditions, ...] = ()
    """Conditions of each group of comparable results ranked in some column."""
    ranked_count: int = 0
    """Cells ranked against at least one comparable result."""
    other_hardware: tuple[str, ...] = ()
    """Where the protocol declares its metric independent of the accelerator: the
    accelerator classes results ran on other than the protocol's (sorted)."""
    protocol_hardware: tuple[str, ...] = ()
    """The protocol's accelerator classes (sorted), with `other_hardware`."""


def _cell(
    evaluation: Evaluation,
    result: Result,
    found: tuple[Flag, ...],
    catalogue: Catalogue,
    protocol: Protocol,
) -> ComparedCell:
    return ComparedCell(
        column_id=result.column,
        status=result_status(result),
        value=result.value,
        printed_value=result.printed_value,
        unit=result.unit,
        evaluation_id=evaluation.id,
        origin=evaluation.origin,
        excluded=excluded(found, result.column),
        flags=tuple(f for f in found if f.affects(result.column)),
        best=False,
        conditions=conditions(evaluation, result, protocol, catalogue),
        rank_value=ranking_value(protocol, result),
        rank_margin=value_margin(protocol.column_metric(result.column), result),
        recorded_status=result.status,
    )


def _empty(column_id: str) -> ComparedCell:
    return ComparedCell(column_id, "not_reported", None, None, None, None, None, False, (), False)


_NO_CONDITIONS = Conditions(None, None, "", None, None)


def comparison(
    protocol: Protocol,
    catalogue: Catalogue,
    sort_by: str | None = None,
    *,
    dataset_id: str | None = None,
    flags: Flags | None = None,
    evaluations: Iterable[Evaluation] | None = None,
    setup_keys: Sequence[str] = (),
    setup_defaults: Mapping[str, str] | None = None,
) -> Comparison:
    """The comparison of `protocol`'s evaluations (all, or those on `dataset_id`, or the
    given `evaluations`), sorted by column `sort_by` (default: the first shown column
    holding a comparable result, see `default_sort_column`). `flags` (from
    `flags_by_evaluation`) avoids recomputing flags. With `setup_keys` (the protocol
    recipe's), evaluations whose configurations share family, reported name and those
    settings form one row across the columns (`setup_key`); others keep a row per
    configuration."""
    chosen = _select(protocol, catalogue, dataset_id, evaluations)
    if flags is None:
        flags = flags_by_evaluation(catalogue, chosen)
    used = {r.column for e in chosen for r in e.results}
    columns = tuple(
        ComparedColumn(
            id=c.id,
            label=c.label,
            description=c.description,
            unit=protocol.column_metric(c.id).unit,
            direction=protocol.column_metric(c.id).direction,
        )
        for c in protocol.columns
        if c.id in used
    )
    column_ids = [c.id for c in columns]

    # Group results into rows: one per configuration, a further row only when two
    # evaluations of one configuration report the same column.
    groups: dict[str, list[dict[str, ComparedCell]]] = {}
    evaluation_ids: dict[tuple[str, int], list[str]] = {}
    configurations: dict[str, list[str]] = {}
    setups: dict[str, tuple[str, RowName]] = {}
    hardware_of: dict[str, list[str | None]] = {}  # a setup's rows: the card each ran on
    flagged: list[tuple[Flag, bool]] = []
    result_count = 0
    for evaluation in chosen:
        found = flags.get(evaluation.id, ())
        key = evaluation.configuration
        configuration = catalogue.by_id.get(key)
        setup = setup_key(configuration, setup_keys, setup_defaults)
        if setup is not None:
            key = "setup:" + "\x1f".join(setup)
            setups[key] = (
                setup[0],
                setup_name(setup[1], setup_keys, setup[2:], setup_defaults),
            )
        members = configurations.setdefault(key, [])
        if evaluation.configuration not in members:
            members.append(evaluation.configuration)
        rows = groups.setdefault(key, [])
        cards = hardware_of.setdefault(key, [])
        card = None
        if setup is not None:  # a setup measured on two cards: a row for each card
            card = evaluation_hardware(
                evaluation, configuration if isinstance(configuration, Configuration) else None
            )
        columns_here = {r.column for r in evaluation.results}
        index = next(
            (i for i, row in enumerate(rows) if cards[i] == card and not columns_here & row.keys()),
            None,
        )
        if index is None:
            rows.append({})
            cards.append(card)
            index = len(rows) - 1
        for result in evaluation.results:
            rows[index][result.column] = _cell(evaluation, result, found, catalogue, protocol)
            flagged += [
                (flag, flag.excludes_from_comparisons)
                for flag in found
                if flag.affects(result.column)
            ]
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
                    tuple(f.kind for f in cell.flags) if cell.excluded else (),
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
            rows[index][column_id] = replace(cell, best=standing.best, standing=standing)
        all_groups += [g for g in ranking.groups if g not in all_groups]

    table_rows: list[ComparedRow] = []
    for key, rows in groups.items():
        configuration_id = configurations[key][0]
        configuration = catalogue.by_id.get(configuration_id)
        name = RowName(
            configuration.title if isinstance(configuration, Configuration) else configuration_id
        )
        family_id = None
        if key in setups:
            family_id, name = setups[key]
        cards = hardware_of[key]
        for index, row in enumerate(rows):
            shown = [row.get(column_id) or _empty(column_id) for column_id in column_ids]
            table_rows.append(
                ComparedRow(
                    configuration_id,
                    replace(name, hardware=cards[index]) if len(set(cards)) > 1 else name,
                    tuple(evaluation_ids[(key, index)]),
                    tuple(shown),
                    family_id,
                    tuple(configurations[key]),
                )
            )

    table_rows = distinct_titles(table_rows)
    table_rows.sort(key=lambda r: (r.order, r.configuration_id))
    sort_column = sort_by or default_sort_column(column_ids, table_rows)
    if sort_column is not None:
        table_rows = [table_rows[i] for i in row_order(table_rows, columns, sort_column)]
    dataset_ids = tuple(dict.fromkeys(e.dataset for e in chosen))
    other, specified = _other_hardware(protocol, chosen, catalogue)
    return Comparison(
        protocol_id=protocol.id,
        protocol_title=protocol.title,
        metrics=tuple(column_metrics(protocol, column_ids)),  # of the columns shown
        dataset_ids=dataset_ids,
        dataset_titles=tuple(_title(catalogue, d) for d in dataset_ids),
        columns=columns,
        rows=tuple(table_rows),
        sort_column=sort_column,
        evaluation_count=len(chosen),
        result_count=result_count,
        excluded_count=sum(c.excluded for r in table_rows for c in r.cells),
        flagged=tuple(flagged),
        setup_keys=tuple(setup_keys) if setups else (),
        groups=tuple(all_groups),
        ranked_count=ranked_count,
        other_hardware=other,
        protocol_hardware=specified if other else (),
    )


def _other_hardware(
    protocol: Protocol, evaluations: Sequence[Evaluation], catalogue: Catalogue
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(accelerator classes the results ran on other than the protocol's, the protocol's),
    where the protocol declares its metric independent of the accelerator; else ((), ())."""
    if protocol_depends_on_hardware(protocol):
        return (), ()
    specified = accelerators(protocol.hardware)
    ran: set[str] = set()
    for evaluation in evaluations:
        found = catalogue.by_id.get(evaluation.configuration)
        configuration = found if isinstance(found, Configuration) else None
        ran |= accelerators(evaluation_hardware(evaluation, configuration))
    other = sorted(ran - specified)
    if not other or not specified:
        return (), ()
    return tuple(other), tuple(sorted(specified))


class _Cell(Shape):
    @property
    def column_id(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def value(self) -> float | None: ...
    @property
    def rank_value(self) -> float | None: ...
    @property
    def excluded(self) -> bool: ...


class _Row(Shape):
    @property
    def cells(self) -> Sequence[_Cell]: ...
    @property
    def order(self) -> str: ...
    @property
    def configuration_id(self) -> str: ...


class _Column(Shape):
    @property
    def id(self) -> str: ...
    @property
    def direction(self) -> str: ...


def default_sort_column(column_ids: Sequence[str], rows: Iterable[_Row]) -> str | None:
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


def row_order(rows: Sequence[_Row], columns: Sequence[_Column], sort_by: str) -> list[int]:
    """The positions of `rows` sorted by column `sort_by` in its metric's direction:
    comparable values first, then values that left comparisons, then out of memory, then
    incomplete runs, then rows without a value (ties by name, `order`). Reads a
    table's facts and its rows in words alike (their cells hold the same values)."""
    column_ids = [c.id for c in columns]
    if sort_by not in column_ids:
        raise ValueError(f"cannot sort by {sort_by!r}: shown columns are {column_ids}")
    position = column_ids.index(sort_by)
    lower = columns[position].direction == "lower"

    def key(index: int) -> tuple[int, float, str, str]:
        row = rows[index]
        cell = row.cells[position]
        if cell.status == "value" and cell.value is not None:
            ranked = cell.rank_value if cell.rank_value is not None else cell.value
            value = ranked if lower else -ranked
            group = 1 if cell.excluded else 0
            return (group, value, row.order, row.configuration_id)
        group = {"out_of_memory": 2, "incomplete": 3}.get(cell.status, 4)
        return (group, 0.0, row.order, row.configuration_id)

    return sorted(range(len(rows)), key=key)


@dataclass(frozen=True)
class ProtocolComparisons:
    """A protocol page's two comparisons: the published evidence as the seed page shows
    it, and Rewire's measurements (None when there are none), rows by setup."""

    published: Comparison
    measurements: Comparison | None
    evaluation_count: int
    """Evaluations of both together."""
    result_count: int
    """Results of both together."""
    column_ids: tuple[str, ...]
    """Columns either shows, in protocol order (a pre-sorted page each)."""


def protocol_comparisons(
    protocol: Protocol,
    catalogue: Catalogue,
    *,
    flags: Flags | None = None,
    evaluations: Iterable[Evaluation] | None = None,
) -> ProtocolComparisons:
    """Reported evaluations (every origin but a Rewire measurement: author reported,
    independent paper, community reproduction, maintainer statement) in one comparison,
    Rewire measurements in another, grouped by the recipe's `setup_keys` when it sets
    them."""
    chosen = _select(protocol, catalogue, None, evaluations)
    if flags is None:
        flags = flags_by_evaluation(catalogue, chosen)
    # Only Rewire's own runs go to the measurements table: a community reproduction or a
    # maintainer's statement is reported by others, and stays with the reported evidence.
    published = [e for e in chosen if e.origin != Origin.rewire_measurement]
    measured = [e for e in chosen if e.origin == Origin.rewire_measurement]
    keys = protocol.recipe.setup_keys if protocol.recipe is not None else []
    defaults = dict(getattr(protocol.recipe, "setup_defaults", None) or {})
    first = comparison(protocol, catalogue, flags=flags, evaluations=published)
    second = (
        comparison(
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
    shown = {c.id for t in (first, second) if t is not None for c in t.columns}
    column_ids = tuple(c.id for c in protocol.columns if c.id in shown)
    return ProtocolComparisons(first, second, len(chosen), results, column_ids)


def result_status(result: Result) -> CellStatus:
    """A result's cell status: a value, an incomplete run, or out of memory."""
    if result.status == "value" and result.value is not None:
        return "value"
    return "incomplete" if result.status == "incomplete" else "out_of_memory"


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


def distinct_titles(rows: Sequence[ComparedRow]) -> list[ComparedRow]:
    """Rows whose configurations share a name (the same setup measured in two runs, say)
    get their configuration id in the name (`RowName.configuration_id`: a page reads it
    after the title), so that no two rows read the same."""
    counts = Counter(r.order for r in rows)
    ids = Counter((r.order, r.configuration_id) for r in rows)
    return [
        replace(r, name=replace(r.name, configuration_id=r.configuration_id))
        if counts[r.order] > ids[(r.order, r.configuration_id)]
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


def setup_name(
    reported_name: str,
    setup_keys: Sequence[str],
    values: Sequence[str],
    defaults: Mapping[str, str] | None = None,
) -> RowName:
    """A setup row's name: the reported name and its settings, a setting at the recipe's
    default left out (it names the default setup); a page reads it 'NT 2.5B (precision
    bf16, update full, length 1000nt)'."""
    settings = tuple(
        (k, v) for k, v in zip(setup_keys, values, strict=True) if (defaults or {}).get(k) != v
    )
    return RowName(reported_name, settings, form="setup")


def _title(catalogue: Catalogue, record_id: str) -> str:
    record = catalogue.by_id.get(record_id)
    return record.title if record is not None else record_id
