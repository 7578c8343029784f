"""Comparison tables and evaluation rows in words (render/comparison_table.py,
render/evaluation_rows.py; their facts: tests/test_derive_tables.py)."""

from __future__ import annotations

import pytest
from scenarios import load_scenario

from rewire_site.derive.concerns import flags_by_evaluation
from rewire_site.models import Evaluation, Protocol
from rewire_site.render.comparison_table import (
    ComparisonTable,
    comparison_table,
    protocol_tables,
    resort,
)
from rewire_site.render.evaluation_rows import evaluation_rows
from rewire_site.render.present.numbers import display_number

CHECKPOINTING = (
    "Peak memory (Training, sequence length 1000, batch size 16, stage + Checkpointing "
    "(FlashAttention and activation checkpointing))"
)


def _table(scenario: str, protocol_id: str, sort_by: str | None = None) -> ComparisonTable:
    catalogue = load_scenario(scenario)
    return comparison_table(catalogue.get(protocol_id, Protocol), catalogue, sort_by)


def _grid(table: ComparisonTable) -> list[tuple[str, list[str]]]:
    return [(r.configuration_id, [c.display for c in r.cells]) for r in table.rows]


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (33.88, "33.9"),
        (1.18, "1.18"),
        (20.0, "20"),
        (11.49, "11.5"),
        (2.49, "2.49"),
        (0.0012345, "0.00123"),
        (1234.5, "1234"),
        (0.0, "0"),
        (-2.5, "-2.5"),
        (1.10, "1.1"),
    ],
)
def test_display_number_rounds_to_three_significant_digits(value: float, shown: str) -> None:
    assert display_number(value) == shown


def test_seed_memory_table_reads_as_the_seed_page() -> None:
    table = _table("seed_memory", "training-peak-memory")
    # Only the two columns that hold results, in protocol order.
    assert [c.id for c in table.columns] == ["checkpointing", "deepspeed"]
    assert table.columns[0].header == CHECKPOINTING
    assert table.sort_column == "checkpointing"
    assert table.sort_text == f"Sorted by {CHECKPOINTING} (lower is better)."
    # Published values show the digits the source printed (defect 5).
    assert _grid(table) == [
        ("config-gena-checkpointing", ["1.18", "Not reported"]),
        ("config-nt-checkpointing", ["33.88", "Not reported"]),
        ("config-gena-deepspeed", ["Not reported", "2.49"]),
        ("config-nt-deepspeed", ["Not reported", "11.49"]),
    ]
    # Neither the length unit nor the update is stated: nothing is ranked (defect 4), and
    # each cell says why.
    assert not [c for r in table.rows for c in r.cells if c.best]
    standings = {c.standing for r in table.rows for c in r.cells if c.status == "value"}
    assert standings == {"not ranked: adaptation, length unit not stated"}
    assert table.unit_text == "gigabyte, 10⁹ bytes"
    assert [n.label for n in table.legend] == ["GB or GiB not stated", "Length unit not stated"]
    assert table.counts_text == "4 recorded evaluations, 4 metric rows"
    assert table.short_counts_text == "4 evaluations · 4 results"
    assert table.dataset_ids == ("synthetic-dna",)


def test_cells_keep_the_stored_value_printed_value_and_their_evaluation() -> None:
    """A cell keeps the value as stored and as printed, and the evaluation whose page
    cites it (the table itself reads no source: a source edit leaves it as it was)."""
    table = _table("seed_memory", "training-peak-memory")
    cell = table.rows[1].cells[0]
    assert (cell.display, cell.value, cell.printed_value) == ("33.88", 33.88, "33.88")
    assert not hasattr(cell, "citation")
    assert cell.evaluation_id == "eval-nt-checkpointing"
    assert cell.origin_label == "Independent external evaluation"
    empty = table.rows[0].cells[1]
    assert (empty.status, empty.value, empty.evaluation_id, empty.best) == (
        "not_reported",
        None,
        None,
        False,
    )


def test_sort_by_another_column_puts_rows_without_a_value_last() -> None:
    table = _table("seed_memory", "training-peak-memory", sort_by="deepspeed")
    assert [r.configuration_id for r in table.rows] == [
        "config-gena-deepspeed",
        "config-nt-deepspeed",
        "config-gena-checkpointing",
        "config-nt-checkpointing",
    ]
    assert table.sort_text.startswith(
        "Sorted by Peak memory (Training, sequence length 1000, batch size 16, stage + DeepSpeed"
    )


def test_sorting_follows_the_metric_direction() -> None:
    catalogue = load_scenario("seed_memory")
    protocol = catalogue.get("training-peak-memory", Protocol)
    metric = protocol.metric.model_copy(update={"direction": "higher"})
    higher = protocol.model_copy(update={"metric": metric})
    table = comparison_table(higher, catalogue)
    assert [r.configuration_id for r in table.rows][:2] == [
        "config-nt-checkpointing",
        "config-gena-checkpointing",
    ]
    assert not any(c.best for r in table.rows for c in r.cells)  # conditions unstated
    assert table.sort_text.endswith("(higher is better).")


def test_unknown_sort_column_is_an_error_naming_the_shown_columns() -> None:
    with pytest.raises(ValueError, match=r"baseline.*checkpointing"):
        _table("seed_memory", "training-peak-memory", sort_by="baseline")


def test_recorded_conflict_keeps_results_visible_but_out_of_best_in_column() -> None:
    table = _table("ia3_conflict", "nt-ia3-runtime")
    assert _grid(table) == [("config-nt-500m-ia3", ["20"]), ("config-nt-2-5b-ia3", ["50"])]
    cells = [r.cells[0] for r in table.rows]
    assert all(c.excluded and not c.best for c in cells)
    assert all(c.flag_labels == ("Evidence concern",) for c in cells)
    assert table.excluded_count == 2


def test_out_of_memory_and_unmatched_conditions_are_never_best() -> None:
    table = _table("reproduction", "repro-peak-memory", sort_by="checkpointing")
    # The H200 measurement stays in comparisons (the protocol declares peak memory
    # independent of the accelerator), but the published value states no length unit, so
    # the two are not ranked against each other and neither is best.
    assert _grid(table) == [
        ("config-nt-rewire", ["Out of memory", "31", "14"]),
        ("config-nt-published", ["Not reported", "33.88", "11.49"]),
    ]
    measured, published = table.rows
    assert not any(c.best for r in table.rows for c in r.cells)
    assert measured.cells[0].status == "out_of_memory"
    assert measured.cells[1].standing == "not ranked: adaptation not stated"
    assert published.cells[1].standing_state == "unstated"
    assert table.result_count == 5


def test_two_evaluations_of_one_configuration_and_column_get_two_rows() -> None:
    catalogue = load_scenario("seed_memory")
    original = catalogue.get("eval-nt-checkpointing", Evaluation)
    copy = original.model_copy(update={"id": "eval-nt-checkpointing-again"})
    protocol = catalogue.get("training-peak-memory", Protocol)
    table = comparison_table(
        protocol, catalogue, evaluations=[*catalogue.evaluations_of(protocol.id), copy]
    )
    rows = [r for r in table.rows if r.configuration_id == "config-nt-checkpointing"]
    assert [r.evaluation_ids for r in rows] == [
        ("eval-nt-checkpointing",),
        ("eval-nt-checkpointing-again",),
    ]
    assert table.counts_text == "5 recorded evaluations, 5 metric rows"


def test_evaluation_rows_for_the_ia3_protocol() -> None:
    catalogue = load_scenario("ia3_conflict")
    found = flags_by_evaluation(catalogue)
    rows = evaluation_rows(catalogue.evaluations_of("nt-ia3-runtime"), catalogue, flags=found)
    assert [r.evaluation_id for r in rows] == [
        "eval-nt-2-5b-ia3-runtime",
        "eval-nt-500m-ia3-runtime",
    ]
    row = rows[0]
    assert (row.display, row.unit, row.direction) == ("50", "minute", "lower")
    assert row.column_header == "Runtime (Mean wall time per IA3 fine-tuning run)"
    assert row.uncertainty == "Not reported by the source"
    assert row.coverage == "Not reported scored / Not reported eligible"
    assert row.aggregation == "Not reported"
    assert row.origin_label == "Author-reported evaluation"
    # The fixture's review has no artifact hash: the label says what is missing.
    assert row.review_label == "Source check not verifiable: no artifact hash recorded"
    assert row.excluded and [f.label for f in row.flags] == ["Evidence concern"]


def test_evaluation_rows_follow_protocol_column_order() -> None:
    catalogue = load_scenario("reproduction")
    rows = evaluation_rows([catalogue.get("eval-nt-rewire", Evaluation)], catalogue)
    assert [(r.column_id, r.display) for r in rows] == [
        ("baseline", "Out of memory"),
        ("checkpointing", "31"),
        ("deepspeed", "14"),
    ]
    assert rows[1].uncertainty == "Not yet established by Rewire"


def test_resort_reuses_the_cells_and_matches_a_fresh_table() -> None:
    table = _table("seed_memory", "training-peak-memory")
    again = resort(table, "deepspeed")
    fresh = _table("seed_memory", "training-peak-memory", sort_by="deepspeed")
    assert again == fresh
    assert {id(c) for r in again.rows for c in r.cells} == {
        id(c) for r in table.rows for c in r.cells
    }
    with pytest.raises(ValueError, match="shown columns"):
        resort(table, "baseline")


def test_dataset_filter_keeps_one_dataset_and_names_it() -> None:
    catalogue = load_scenario("seed_memory")
    protocol = catalogue.get("training-peak-memory", Protocol)
    moved = catalogue.get("eval-nt-deepspeed", Evaluation).model_copy(
        update={"dataset": "other-data"}
    )
    chosen = [e for e in catalogue.evaluations_of(protocol.id) if e.id != moved.id] + [moved]
    both = comparison_table(protocol, catalogue, evaluations=chosen)
    assert both.dataset_ids == ("synthetic-dna", "other-data")
    one = comparison_table(protocol, catalogue, evaluations=chosen, dataset_id="synthetic-dna")
    assert one.dataset_ids == ("synthetic-dna",)
    assert one.dataset_titles == (
        "Synthetic uniform random DNA sequences, seed 42 (Saadat and Fellay 2026)",
    )
    assert one.counts_text == "3 recorded evaluations, 3 metric rows"
    assert "config-nt-deepspeed" not in [r.configuration_id for r in one.rows]


def test_incomplete_run_reads_incomplete_is_never_best_and_sorts_after_values() -> None:
    table = _table("incomplete_run", "repro-peak-memory", sort_by="checkpointing")
    grid = dict(_grid(table))
    # Columns: baseline, checkpointing, deepspeed.
    assert grid["config-nt-rewire-short"] == ["Not reported", "Incomplete run", "14"]
    short = next(r for r in table.rows if r.configuration_id == "config-nt-rewire-short")
    cell = short.cells[1]
    assert (cell.status, cell.value, cell.best) == ("incomplete", None, False)
    assert cell.evaluation_id == "eval-nt-rewire-short"  # links to the row with the note
    # Sorted by checkpointing: the two values first, then the incomplete run.
    assert [r.configuration_id for r in table.rows][-1] == "config-nt-rewire-short"
    assert table.result_count == 7


def test_incomplete_run_row_shows_the_status_and_the_note() -> None:
    catalogue = load_scenario("incomplete_run")
    rows = evaluation_rows([catalogue.get("eval-nt-rewire-short", Evaluation)], catalogue)
    row = rows[0]
    assert (row.column_id, row.status, row.value, row.display) == (
        "checkpointing",
        "incomplete",
        None,
        "Incomplete run",
    )
    assert row.note == "1 of 3 steps run; no peak over the measured region is claimed."
    assert rows[1].display == "14"


def test_default_sort_skips_columns_without_a_comparable_result() -> None:
    # The baseline column holds only an out-of-memory result: the table sorts by the
    # first column with a comparable value instead, and an explicit choice still wins.
    table = _table("reproduction", "repro-peak-memory")
    assert [c.id for c in table.columns] == ["baseline", "checkpointing", "deepspeed"]
    assert table.sort_column == "checkpointing"
    assert [r.configuration_id for r in table.rows] == ["config-nt-rewire", "config-nt-published"]
    assert _table("reproduction", "repro-peak-memory", "baseline").sort_column == "baseline"


def test_default_sort_falls_back_to_the_first_column() -> None:
    catalogue = load_scenario("ia3_conflict")
    protocol = next(iter(catalogue.protocols()))
    table = comparison_table(protocol, catalogue)
    assert all(c.excluded or c.status != "value" for r in table.rows for c in r.cells)
    assert table.sort_column == table.columns[0].id


def test_protocol_tables_split_published_evidence_from_rewire_measurements() -> None:
    catalogue = load_scenario("setup_rows")
    tables = protocol_tables(catalogue.get("repro-peak-memory", Protocol), catalogue)
    published, measured = tables.published, tables.measurements
    assert measured is not None
    assert [r.evaluation_ids for r in published.rows] == [("eval-nt-published",)]
    assert published.row_heading == "Tested configuration"
    assert published.counts_text == "1 recorded evaluation, 2 metric rows"
    # The recipe's setup keys (precision, update) join the two fp32-autocast stage runs
    # into one row; each cell keeps its own evaluation and flags.
    assert measured.row_heading == "Measured setup"
    assert _grid(measured) == [
        ("config-nt-rewire", ["Out of memory", "31", "14"]),
        ("config-nt-rewire-fp32-ckpt", ["Not reported", "34.2", "16.7"]),
    ]
    fp32 = measured.rows[1]
    assert fp32.configuration_title == "NT 2.5B (precision fp32-autocast, update full)"
    assert fp32.family_id == "nucleotide-transformer"
    assert fp32.configuration_ids == ("config-nt-rewire-fp32-ckpt", "config-nt-rewire-fp32-ds")
    assert fp32.evaluation_ids == ("eval-nt-rewire-fp32-ckpt", "eval-nt-rewire-fp32-ds")
    assert [c.evaluation_id for c in fp32.cells] == [
        None,
        "eval-nt-rewire-fp32-ckpt",
        "eval-nt-rewire-fp32-ds",
    ]
    # The protocol declares peak memory independent of the accelerator: no hardware
    # concern per cell, one sentence for the table.
    assert not any("Hardware differs" in " ".join(c.flag_labels) for c in fp32.cells)
    assert measured.hardware_note.startswith("Results from H200 rank with those from H100")
    assert not any(c.best for r in measured.rows for c in r.cells)  # all excluded (H200)
    # Counts stay true per table and together.
    assert measured.counts_text == "3 recorded evaluations, 5 metric rows"
    assert tables.counts_text == "4 recorded evaluations, 7 metric rows"
    assert tables.column_ids == ("baseline", "checkpointing", "deepspeed")


def test_without_setup_keys_measurement_rows_stay_one_per_configuration() -> None:
    catalogue = load_scenario("incomplete_run")  # recipe without setup_keys
    tables = protocol_tables(catalogue.get("repro-peak-memory", Protocol), catalogue)
    assert tables.measurements is not None
    assert tables.measurements.row_heading == "Tested configuration"
    assert sorted(r.configuration_id for r in tables.measurements.rows) == [
        "config-nt-rewire",
        "config-nt-rewire-short",
    ]
    assert all(r.family_id is None for r in tables.measurements.rows)


def test_without_measurements_there_is_one_table() -> None:
    catalogue = load_scenario("seed_memory")
    tables = protocol_tables(catalogue.get("training-peak-memory", Protocol), catalogue)
    assert tables.measurements is None
    assert tables.counts_text == tables.published.counts_text


def test_a_setup_measured_twice_is_not_its_own_competitor() -> None:
    """Two runs of one measured setup (real records: NT 2.5B, bf16, full update, 1000
    tokens, with checkpointing, measured in runs 20261129-193100 and 20261130-fa4-2327) are
    two rows of one setup, one point measured twice: with no other setup comparable in the
    column, neither is 'best of 2 comparable'."""
    from pathlib import Path

    from scenarios import record_closure

    from rewire_site.link import Catalogue
    from rewire_site.validate import validate_paths

    root = Path(__file__).resolve().parents[2]
    runs = [
        "rewire-20261129-193100-eval-nt-2-5b-checkpointing-bf16-full-1000tok",
        "rewire-20261130-fa4-2327-eval-nt-2-5b-checkpointing-bf16-full-1000tok",
    ]
    report = validate_paths(list(record_closure(runs, root / "records").values()), root)
    assert report.ok, [str(p) for p in report.problems[:3]]
    catalogue = Catalogue.from_records(report.records.values())
    protocol = catalogue.get("saadat-fellay-20261015-protocol-training-peak-memory", Protocol)
    table = protocol_tables(protocol, catalogue).measurements
    assert table is not None
    cells = [c for r in table.rows for c in r.cells if c.column_id == "checkpointing" and c.value]
    assert len(cells) == 2 and len({r.configuration_title for r in table.rows}) == 1
    assert [c.standing for c in cells] == ["no comparable result"] * 2
    assert not any(c.best for c in cells) and table.groups == ()
