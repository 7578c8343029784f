"""Leaderboards: per task, per protocol class and per protocol, the models' results as
typed facts (issue 25).

A task is a group of dataset records the records declare the same task (`same_task`,
`chooser.overlaps.task_groups`); nothing else merges datasets. Each protocol measured on
the task makes one board (a table of rows = models, columns = the task's metrics on each
metric's own scale); boards are grouped by protocol class (`adaptation_class`) and never
ranked together: different protocols are separate tables.

Best marks are the verdict layer's, never recomputed here: a value is best only where
`comparability.standings` (through `tables.comparison_table`) marks it so, which needs
comparable results of two different models, takes out results that a concern excludes
(`concerns`, among them results no better than a trivial baseline: `trivial`) and needs a
lead over every rival larger than their margins (stated uncertainty, spread or rounding).
Protocols that measure memory or time (`scales.is_resource_metric`) are not boards: a
task page lists them apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..link import Catalogue
from ..models import Configuration, Dataset, Evaluation, Protocol
from .boards import (
    CLASSES,
    STANDINGS,
    AdaptationClass,
    AnswerState,
    Board,
    BoardColumn,
    BoardModel,
    BoardRow,
    BoardValue,
    ClassAnswer,
    Evidence,
    Flags,
    ModelFacts,
    TaskBoards,
    adaptation_class,
    publication,
    sort_rows,
)
from .names import order_text
from .overlaps import columns_for
from .scales import is_resource_metric
from .table_board import table_boards
from .tables import Comparison, comparison
from .task_families import is_task


def _board(
    table: Comparison,
    protocol: Protocol,
    dataset_id: str,
    evaluations: Sequence[Evaluation],
    catalogue: Catalogue,
    facts: ModelFacts,
    only_column: str | None = None,
) -> Board | None:
    """The board of one comparison table (its ranking is the verdict layer's)."""
    keep = [i for i, c in enumerate(table.columns) if only_column in (None, c.id)]
    columns = tuple(
        BoardColumn(
            c.id,
            protocol.column_metric(c.id).id,
            c.label if only_column is None and c.label else protocol.column_metric(c.id).label,
            c.unit,
            c.direction,
        )
        for c in (table.columns[i] for i in keep)
    )
    by_id = {e.id: e for e in evaluations}
    rows: list[BoardRow] = []
    for row in table.rows:
        values: list[BoardValue | None] = []
        for i in keep:
            cell = row.cells[i]
            if cell.status != "value" or cell.rank_value is None or cell.evaluation_id is None:
                values.append(None)
                continue
            state = cell.standing_state
            evaluation = by_id.get(cell.evaluation_id)
            result = (
                next(
                    (
                        r
                        for r in evaluation.results
                        if r.column == cell.column_id and r.value is not None
                    ),
                    None,
                )
                if evaluation is not None
                else None
            )
            values.append(
                BoardValue(
                    value=cell.rank_value,
                    recorded=result.value
                    if result is not None and result.value is not None
                    else cell.rank_value,
                    recorded_scale=result.scale if result is not None else None,
                    printed=cell.printed_value,
                    spread=None,
                    n=None,
                    margin=cell.rank_margin,
                    standing=state if state in STANDINGS else "alone",  # type: ignore[arg-type]
                    concerns=cell.flags if cell.excluded else (),
                    evidence=Evidence(cell.evaluation_id),
                )
            )
        if any(v is not None for v in values):
            configuration = catalogue.by_id.get(row.configuration_id)
            model = (
                facts.model(configuration)
                if isinstance(configuration, Configuration)
                else BoardModel(row.configuration_id, row.name, None, None, None)
            )
            if order_text(model.name) != row.order:  # a setup's name, or distinct_titles'
                model = BoardModel(
                    model.key, row.name, model.family_id, model.parameters,
                    model.context_bp, model.record,
                )  # fmt: skip
            rows.append(BoardRow(model, tuple(values)))
    if not rows:
        return None
    chosen = [by_id[i] for row in table.rows for i in row.evaluation_ids if i in by_id]
    adaptations = tuple(sorted({(e.comparison.adaptation or "").strip() for e in chosen}))
    classes = {adaptation_class(a) for a in adaptations}
    sources = sorted(
        {r.citation.source for e in chosen for r in e.results if r.citation is not None}
    )
    return Board(
        adaptation=classes.pop() if len(classes) == 1 else "other",
        adaptations=adaptations,
        protocol_id=protocol.id,
        table_id=None,
        dataset_id=dataset_id,
        source_ids=tuple(sources),
        publications=tuple(sorted({publication(s, catalogue) for s in sources})),
        origins=tuple(sorted({e.origin.value for e in chosen})),
        columns=columns,
        rows=tuple(sort_rows(rows, columns)),
    )


def _answer(
    adaptation: AdaptationClass, boards: Sequence[Board], indexes: Sequence[int]
) -> ClassAnswer:
    """The answer of a class from its boards (`indexes` into `boards`): the board with the
    most ranked values (the first on a tie), its first column with a best or tied mark."""
    chosen = max(indexes, key=lambda i: (boards[i].ranked, -i))
    board = boards[chosen]
    state: AnswerState = "unranked"
    rows: tuple[int, ...] = ()
    column = 0
    for c in range(len(board.columns)):
        top = board.top(c)
        if top:
            column, rows = c, top
            state = "best" if len(top) == 1 else "tied"
            break
    beyond = 0
    if rows:
        leader = board.rows[rows[0]].values[column]
        lower = board.columns[column].direction == "lower"
        for row in board.rows:
            v = row.values[column]
            if leader is None or v is None or v.standing in ("best", "tied", "ranked"):
                continue
            beyond += v.value < leader.value if lower else v.value > leader.value
    models = {r.model.key for i in indexes for r in boards[i].rows}
    sources = {p for i in indexes for p in boards[i].publications}
    return ClassAnswer(adaptation, chosen, column, state, rows, len(models), len(sources), beyond)


def task_boards(
    group_ids: Sequence[str],
    catalogue: Catalogue,
    flags: Flags,
    by_dataset: Mapping[str, Sequence[Evaluation]],
    facts: ModelFacts | None = None,
) -> TaskBoards:
    """The boards of the task whose datasets are `group_ids` (`by_dataset`: each dataset's
    evaluations): one per protocol measuring the task on each dataset, and one per
    benchmark-wide protocol column that is this task (`overlaps.SAME_COLUMN`)."""
    facts = facts or ModelFacts(catalogue)
    boards: list[Board] = []
    other: list[str] = []
    for dataset_id in group_ids:
        by_protocol: dict[str, list[Evaluation]] = {}
        for evaluation in by_dataset.get(dataset_id, ()):
            by_protocol.setdefault(evaluation.protocol, []).append(evaluation)
        for protocol_id in sorted(
            by_protocol, key=lambda p: (len(catalogue.get(p, Protocol).datasets) > 1, p)
        ):
            protocol = catalogue.get(protocol_id, Protocol)
            if is_resource_metric(protocol):
                other.append(protocol_id)
                continue
            evaluations = by_protocol[protocol_id]
            table = comparison(
                protocol, catalogue, dataset_id=dataset_id, flags=flags, evaluations=evaluations
            )
            board = _board(table, protocol, dataset_id, evaluations, catalogue, facts)
            if board is not None:
                boards.append(board)
    for link in columns_for(tuple(group_ids), catalogue):
        protocol = catalogue.get(link.protocol, Protocol)
        evaluations = [
            e
            for e in catalogue.evaluations_of(protocol.id)
            if any(r.column == link.column for r in e.results)
        ]
        if not evaluations or is_resource_metric(protocol):
            continue
        table = comparison(protocol, catalogue, flags=flags, evaluations=evaluations)
        board = _board(
            table, protocol, evaluations[0].dataset, evaluations, catalogue, facts, link.column
        )
        if board is not None:
            boards.append(board)
    for dataset_id in group_ids:
        found, resource = table_boards(dataset_id, catalogue, facts)
        boards += found
        other += resource
    boards.sort(key=lambda b: CLASSES.index(b.adaptation))  # stable: keeps dataset order
    answers = tuple(
        _answer(name, boards, [i for i, b in enumerate(boards) if b.adaptation == name])
        for name in CLASSES
        if any(b.adaptation == name for b in boards)
    )
    return TaskBoards(tuple(group_ids), tuple(boards), answers, tuple(dict.fromkeys(other)))


def task_boards_of(catalogue: Catalogue, flags: Flags, group_ids: Sequence[str]) -> TaskBoards:
    """`task_boards` of one task, reading its datasets' evaluations from the catalogue."""
    by_dataset: dict[str, list[Evaluation]] = {d: [] for d in group_ids}
    for evaluation in catalogue.of_kind(Evaluation):
        if evaluation.dataset in by_dataset:
            by_dataset[evaluation.dataset].append(evaluation)
    return task_boards(group_ids, catalogue, flags, by_dataset)


def is_task_group(group_ids: Sequence[str], catalogue: Catalogue) -> bool:
    """True unless a dataset of the group is synthetic or pre-training data
    (`task_families.is_task`): those are no task a model is chosen for."""
    return all(is_task(catalogue.get(d, Dataset)) for d in group_ids)
