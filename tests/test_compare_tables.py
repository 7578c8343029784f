"""Compare pages with imported result tables (issue 25 item 3): two or three model
families side by side on the result-table values (records/tables/*.csv) they all have,
grouped by protocol class and table, one line per task and metric, never judged and never
ranked across tables or classes. Read from the live catalogue (the tables and their
family mappings are records); expected values are computed here from the table rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from rewire_site.build import gather
from rewire_site.derive.model_compare import (
    FamilyTables,
    ModelPair,
    family_tables,
    shared_table_rows,
)
from rewire_site.link import Catalogue
from rewire_site.models import ResultTable
from rewire_site.render.model_compare import GROUP_LINES, SIDE_ROWS, compare_page, table_groups
from rewire_site.render.model_page import CLASS_LABELS

ROOT = Path(__file__).resolve().parents[1]
DNABERT2 = "evidence-20261130-family-dnabert-2"
NT = "gfm-guide-20261014-family-nucleotide-transformer"
HYENADNA = "evidence-20261130-family-hyenadna"


@pytest.fixture(scope="module")
def live() -> Catalogue:
    return gather(ROOT / "records", ROOT).catalogue


def expected_keys(family: str, catalogue: Catalogue) -> set[tuple[str, str, str]]:
    """(table, task, metric label) of every value of the family's table rows."""
    keys = set()
    for row in catalogue.result_rows.of_family(family):
        table = catalogue.get(row.table, ResultTable)
        task = row.dataset or f"label:{row.task}"
        for metric, value in zip(table.columns.metrics, row.values, strict=True):
            if value is not None:
                keys.add((row.table, task, metric.label))
    return keys


@pytest.fixture(scope="module")
def tables(live: Catalogue) -> dict[str, FamilyTables]:
    found = {f: family_tables(f, live) for f in (DNABERT2, NT, HYENADNA)}
    if not all(t.rows for t in found.values()):
        pytest.skip("no result table maps labels to all three families yet")
    return found


def test_shared_rows_are_what_both_families_have(
    live: Catalogue, tables: dict[str, FamilyTables]
) -> None:
    rows = shared_table_rows((tables[DNABERT2], tables[NT]))
    assert rows
    assert {r.key for r in rows} == expected_keys(DNABERT2, live) & expected_keys(NT, live)
    left_models = {r.model for r in live.result_rows.of_family(DNABERT2)}
    right_models = {r.model for r in live.result_rows.of_family(NT)}
    for row in rows:
        assert row.protocol_class == live.get(row.table_id, ResultTable).adaptation.value
        left, right = row.sides
        assert left and right
        assert {r.model_label for r in left} <= left_models
        assert {r.model_label for r in right} <= right_models
        assert {r.metric_label for r in (*left, *right)} == {row.metric}


def test_three_families_share_what_all_three_have(
    live: Catalogue, tables: dict[str, FamilyTables]
) -> None:
    rows = shared_table_rows((tables[DNABERT2], tables[HYENADNA], tables[NT]))
    expected = (
        expected_keys(DNABERT2, live) & expected_keys(HYENADNA, live) & expected_keys(NT, live)
    )
    assert {r.key for r in rows} == expected
    assert all(len(r.sides) == 3 and all(r.sides) for r in rows)


def test_groups_are_by_class_and_table_and_cut_with_the_rest_counted(
    tables: dict[str, FamilyTables],
) -> None:
    rows = shared_table_rows((tables[DNABERT2], tables[NT]))
    groups = table_groups(rows)
    per_table: dict[str, int] = {}
    for r in rows:
        per_table[r.table_id] = per_table.get(r.table_id, 0) + 1
    assert len(groups) == len(per_table)  # a table has one protocol class
    for group in groups:
        table_id = group.table.href.split("/")[1]
        total = per_table[table_id]
        assert len(group.lines) == min(total, GROUP_LINES)
        assert group.class_label in CLASS_LABELS.values()
        if total > GROUP_LINES:
            assert group.more.startswith(f"{total - GROUP_LINES} further shared")
        else:
            assert group.more == ""
        for line in group.lines:
            assert all(0 < len(texts) <= SIDE_ROWS + 1 for texts in line.values)


def test_a_compare_page_holds_the_table_groups_and_says_so(
    tables: dict[str, FamilyTables],
) -> None:
    rows = shared_table_rows((tables[DNABERT2], tables[NT]))
    pair = ModelPair(DNABERT2, "DNABERT-2", NT, "Nucleotide Transformer", (), rows)
    page = compare_page(pair, (), "x")
    assert page.table_groups == table_groups(rows)
    assert "Imported result tables hold both on" in page.answer
    assert "not judged" in page.answer
