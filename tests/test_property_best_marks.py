"""Properties of the live catalogue (built in-process from `records/`, whatever its size):

- no best mark, rank or win on a result the degenerate-result rule flags
  (`trivial.trivial_results` on the row `result_rows.result_row` reads, run here directly);
- every best mark leads every other competitor of its comparable group by more than
  their margin (`comparability.value_margin`), and so does every win on a compare/ page.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from rewire_site.derive.comparability import ranking_value, value_margin
from rewire_site.derive.concerns import flags_by_evaluation
from rewire_site.derive.result_rows import result_row
from rewire_site.derive.trivial import trivial_results
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol
from rewire_site.render.chooser.pages import compare_pages
from rewire_site.render.comparison_table import Cell, ComparisonTable, protocol_tables

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def catalogue(live_catalogue: Catalogue) -> Catalogue:
    """The live catalogue, gathered once per test process (tests/conftest.py)."""
    return live_catalogue


def _flagged(catalogue: Catalogue) -> set[tuple[str, str]]:
    """(evaluation id, column) of every result the rule finds trivial."""
    out: set[tuple[str, str]] = set()
    for evaluation in catalogue.of_kind(Evaluation):
        row = result_row(evaluation, catalogue)
        for finding in trivial_results(row.values, higher_is_better=row.higher):
            out |= {(evaluation.id, c) for c, k in row.columns.items() if k in finding.metrics}
    return out


def _tables(catalogue: Catalogue) -> list[ComparisonTable]:
    flags = flags_by_evaluation(catalogue)
    tables: list[ComparisonTable] = []
    for protocol in catalogue.of_kind(Protocol):
        found = protocol_tables(protocol, catalogue, flags=flags)
        tables += [t for t in (found.published, found.measurements) if t is not None]
    return tables


def test_no_best_mark_on_a_result_the_degenerate_rule_flags(catalogue: Catalogue) -> None:
    flagged = _flagged(catalogue)
    assert flagged  # the rule finds the real cases (Feng et al.'s always-negative rows)
    seen = 0
    for table in _tables(catalogue):
        for row in table.rows:
            for cell in row.cells:
                if (cell.evaluation_id or "", cell.column_id) in flagged:
                    seen += 1
                    assert not cell.best, (table.protocol_id, row.configuration_id)
                    assert cell.standing_state == "excluded", (table.protocol_id, cell)
    assert seen


def _competitor(table: ComparisonTable, index: int) -> tuple[str | None, tuple[str, ...]]:
    row = table.rows[index]
    return (row.family_id, row.configuration_ids or (row.configuration_id,))


def test_every_best_mark_leads_by_more_than_its_margin(catalogue: Catalogue) -> None:
    checked = 0
    for table in _tables(catalogue):
        for position, column in enumerate(table.columns):
            groups: dict[tuple[str, ...], list[tuple[int, Cell]]] = defaultdict(list)
            for index, row in enumerate(table.rows):
                cell = row.cells[position]
                if cell.standing_state in ("best", "tied", "ranked") and cell.conditions:
                    groups[cell.conditions.key].append((index, cell))
            for members in groups.values():
                for index, cell in members:
                    if not cell.best:
                        continue
                    mine = _competitor(table, index)
                    others = [c for i, c in members if _competitor(table, i) != mine]
                    assert others, (table.protocol_id, column.id)
                    for other in others:
                        lead = abs((cell.rank_value or 0.0) - (other.rank_value or 0.0))
                        better = (cell.rank_value or 0.0) > (other.rank_value or 0.0)
                        assert better == (column.direction == "higher"), (table.protocol_id, cell)
                        assert lead > max(cell.rank_margin, other.rank_margin), (
                            table.protocol_id,
                            column.id,
                            cell.display,
                            other.display,
                        )
                    checked += 1
    assert checked


def test_no_win_on_compare_pages_for_flagged_results_nor_within_margin(
    catalogue: Catalogue,
) -> None:
    flagged = _flagged(catalogue)
    flags = flags_by_evaluation(catalogue)
    wins = judged = 0
    for page in compare_pages(catalogue, flags, "property"):
        for row in page.rows:
            left, right = (
                catalogue.get(cell.href.split("/")[1], Evaluation) for cell in (row.left, row.right)
            )
            protocol = catalogue.get(left.protocol, Protocol)
            columns = (
                # chooser.overlaps.label_of: the column's label, else its id
                ({c.id for c in protocol.columns if c.label == row.metric} | {row.metric})
                & {r.column for r in left.results}
                & {r.column for r in right.results}
            )
            assert columns, (page.path, row.metric)
            if any((e.id, c) in flagged for e in (left, right) for c in columns):
                assert row.winner == "", (page.path, row.metric)
                judged += 1
                continue
            if row.winner in ("", "tie") or len(columns) > 1:
                continue
            (column,) = columns
            results = [next(r for r in e.results if r.column == column) for e in (left, right)]
            values = [ranking_value(protocol, r) or 0.0 for r in results]
            margins = [value_margin(protocol.column_metric(column), r) for r in results]
            assert abs(values[0] - values[1]) > max(margins), (page.path, row.metric)
            wins += 1
    assert wins and judged
