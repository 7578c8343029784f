"""The boards of result-table rows on one dataset (issue 24 rows on issue 25 leaderboards).

A result table (`models.result_table`) states its protocol class, protocol, sources and
conditions once; each CSV row is one model x task x settings. On a task, each table is
one board of its own (never merged or ranked with another table or an evaluation's
protocol): rows = the source's model labels (with any settings but the seed), columns =
the table's metrics that hold a value on the task.

- Seeds: rows that differ only in a repeat setting (seed, replicate:
  `table_facts.SEED_NAMES`) are one model measured several times: mean, standard
  deviation (n - 1) and n (`table_facts.seed_aggregates`).
- Ranking is the verdict layer's (`comparability.standings`): every row of a table shares
  its conditions, so rows are comparable when the table states its split; a lead must be
  larger than the values' margins (half a unit of the last printed digit, or the spread
  over seeds where larger); one model label's rows (its layers, say) are one competitor.
- A result no better than a trivial answer (`trivial.trivial_results` on the row's
  metrics on the fraction scale) is taken out of comparisons: it is never best.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..link import Catalogue
from ..models import Protocol, ResultTable
from ..models.common import Scale
from ..models.protocol import Metric
from ..models.result_table import MetricColumn
from ..models.scales import to_scale
from ..table_rows import ResultTableRow
from .boards import (
    Board,
    BoardColumn,
    BoardModel,
    BoardRow,
    BoardValue,
    Evidence,
    ModelFacts,
    Standing,
    TableConcern,
    publication,
    sort_rows,
)
from .comparability import (
    ANY_HARDWARE,
    NOT_APPLICABLE,
    ROUNDING_MARGIN,
    Conditions,
    Entry,
    last_digit,
    standings,
)
from .names import RowName
from .scales import is_resource_metric
from .table_facts import repeat_positions, seed_aggregates
from .trivial import metric_kind, trivial_results


@dataclass(frozen=True, slots=True)
class _Group:
    """Rows of one model label and settings (all but the seed)."""

    label: str
    settings: tuple[tuple[str, str], ...]
    rows: tuple[ResultTableRow, ...]


def _groups(rows: Sequence[ResultTableRow], table: ResultTable) -> list[_Group]:
    names = [s.name for s in table.columns.settings]
    repeats = repeat_positions(table)
    keep = [i for i in range(len(names)) if i not in repeats]
    short = [n.split(" (")[0].strip() for n in names]  # "layer (0 is the first ...)"
    found: dict[tuple[str, tuple[tuple[str, str], ...]], list[ResultTableRow]] = {}
    for row in rows:
        settings = tuple((short[i], row.settings[i]) for i in keep if row.settings[i])
        found.setdefault((row.model, settings), []).append(row)
    return [_Group(label, settings, tuple(members)) for (label, settings), members in found.items()]


def _metric(protocol: Protocol, column: MetricColumn) -> Metric:
    return protocol.column_metric(column.metric)


def _value(
    group: _Group, table: ResultTable, index: int, column: MetricColumn, metric: Metric
) -> BoardValue | None:
    """The group's value in metric `index`: the one row's, or the mean over seeds with
    its spread and n (`table_facts.seed_aggregates`, the one aggregation of seeds). On
    the metric's own scale (`to_scale` from the printed scale)."""
    found = [(r, v) for r in group.rows if (v := r.values[index]) is not None]
    if not found:
        return None
    units = [u for _, v in found if (u := last_digit(v.printed)) is not None]
    rounding = ROUNDING_MARGIN * to_scale(max(units), column.scale, metric.scale) if units else 0.0
    first_row, first = found[0]
    aggregate = next(
        (a for a in seed_aggregates(table, group.rows) if a.metric == index and a.n > 1), None
    )
    if aggregate is None or aggregate.sd is None:
        return BoardValue(
            value=to_scale(first.value, column.scale, metric.scale),
            recorded=first.value,
            recorded_scale=column.scale,
            printed=first.printed,
            spread=None,
            n=None,
            margin=rounding,
            standing="alone",
            concerns=(),
            evidence=Evidence(first_row.table, first_row.line),
        )
    mean = to_scale(aggregate.mean, column.scale, metric.scale)
    spread = abs(to_scale(aggregate.sd, column.scale, metric.scale))
    return BoardValue(
        value=mean,
        recorded=mean,
        recorded_scale=metric.scale,
        printed=None,
        spread=spread,
        n=aggregate.n,
        margin=max(rounding, spread),
        standing="alone",
        concerns=(),
        evidence=Evidence(first_row.table, aggregate.lines[0]),
    )


def _trivial(values: Sequence[BoardValue | None], columns: Sequence[BoardColumn],
             metrics: Sequence[Metric]) -> frozenset[int]:  # fmt: skip
    """Indexes of the values a trivial-result rule takes out of comparisons."""
    row: dict[str, float] = {}
    kinds: dict[int, str] = {}
    higher: set[str] = set()
    for i, (value, column, metric) in enumerate(zip(values, columns, metrics, strict=True)):
        if value is None or metric.scale is None:
            continue
        kind = metric_kind(column.metric_id)
        row[kind] = to_scale(value.value, metric.scale, Scale.fraction)
        kinds[i] = kind
        if column.direction == "higher":
            higher.add(kind)
    found = trivial_results(row, higher_is_better=frozenset(higher))
    concerned = {k for f in found for k in f.metrics}
    return frozenset(i for i, kind in kinds.items() if kind in concerned)


def table_board(
    table: ResultTable,
    rows: Sequence[ResultTableRow],
    dataset_id: str,
    catalogue: Catalogue,
    facts: ModelFacts,
) -> Board | None:
    """The board of `table`'s `rows` on one dataset (None without a value)."""
    protocol = catalogue.by_id.get(table.protocol)
    if not isinstance(protocol, Protocol) or not rows:
        return None
    used = [
        i for i, _ in enumerate(table.columns.metrics) if any(r.values[i] is not None for r in rows)
    ]
    if not used:
        return None
    specs = [table.columns.metrics[i] for i in used]
    metrics = [_metric(protocol, c) for c in specs]
    columns = tuple(
        BoardColumn(c.column, c.metric, c.label, m.unit, c.direction)
        for c, m in zip(specs, metrics, strict=True)
    )
    groups = _groups(rows, table)
    values = [
        [_value(g, table, i, c, m) for i, c, m in zip(used, specs, metrics, strict=True)]
        for g in groups
    ]
    trivial = [_trivial(v, columns, metrics) for v in values]
    split = table.comparison.split
    for j, column in enumerate(columns):
        conditions = Conditions(
            adaptation=table.adaptation.value,
            split=split.strip() if split else None,
            metric=f"{column.metric_id} in {column.unit}",
            length_unit=NOT_APPLICABLE,
            hardware=ANY_HARDWARE,
        )
        ranked = [(k, v[j]) for k, v in enumerate(values) if v[j] is not None]
        ranking = standings(
            [
                Entry(
                    value.value,
                    conditions,
                    (TableConcern.TRIVIAL.value,) if j in trivial[k] else (),
                    competitor=groups[k].label,
                    margin=value.margin,
                )
                for k, value in ranked
                if value is not None
            ],
            column.direction,
        )
        for (k, value), standing in zip(ranked, ranking.standings, strict=True):
            assert value is not None
            state: Standing = standing.state if standing.state != "no_value" else "alone"
            values[k][j] = BoardValue(
                value.value,
                value.recorded,
                value.recorded_scale,
                value.printed,
                value.spread,
                value.n,
                value.margin,
                state,
                (TableConcern.TRIVIAL,) if state == "excluded" else (),
                value.evidence,
            )
    board_rows = [
        BoardRow(_model(g, table, catalogue, facts), tuple(v))
        for g, v in zip(groups, values, strict=True)
        if any(x is not None for x in v)
    ]
    return Board(
        adaptation=table.adaptation.value,
        adaptations=(table.comparison.adaptation or "",),
        protocol_id=protocol.id,
        table_id=table.id,
        dataset_id=dataset_id,
        source_ids=tuple(table.sources),
        publications=tuple(sorted({publication(s, catalogue) for s in table.sources})),
        origins=(table.origin.value,),
        columns=columns,
        rows=tuple(sort_rows(board_rows, columns)),
    )


def _model(
    group: _Group, table: ResultTable, catalogue: Catalogue, facts: ModelFacts
) -> BoardModel:
    """The source's label (with its settings), linked to the family it maps to; the
    checkpoint's size and context where the label pins a checkpoint."""
    identity = group.rows[0].model_identity
    name = RowName(group.label, group.settings, form="table")
    if identity is None:
        return BoardModel(f"{table.id}:{group.label}", name, None, None, None, record=None)
    checkpoint = facts.checkpoint(identity.family, identity.checkpoint)
    return BoardModel(
        f"{identity.family}:{identity.checkpoint or group.label}",
        name,
        identity.family,
        checkpoint.parameters if checkpoint else None,
        checkpoint.context_bp if checkpoint else None,
        record=identity.family,
        pinned=identity.checkpoint is not None,
    )


def table_boards(
    dataset_id: str, catalogue: Catalogue, facts: ModelFacts
) -> tuple[list[Board], list[str]]:
    """The boards of every result table with rows on `dataset_id`, and the protocols of
    tables that measure memory or time (listed apart, not boards)."""
    by_table: dict[str, list[ResultTableRow]] = {}
    for row in catalogue.result_rows.of_dataset(dataset_id):
        by_table.setdefault(row.table, []).append(row)
    boards: list[Board] = []
    other: list[str] = []
    for table_id in sorted(by_table):
        table = catalogue.by_id.get(table_id)
        if not isinstance(table, ResultTable) or not table.ranked:
            continue  # an unranked table (a whole sweep) is shown on its own page only
        protocol = catalogue.by_id.get(table.protocol)
        if isinstance(protocol, Protocol) and is_resource_metric(protocol):
            other.append(protocol.id)
            continue
        board = table_board(table, by_table[table_id], dataset_id, catalogue, facts)
        if board is not None:
            boards.append(board)
    return boards, other
