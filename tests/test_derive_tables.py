"""Comparison tables as facts (derive/tables.py): rows by configuration or setup, cells
with their stored values, flags and standings, the sort order (their words:
tests/render/test_comparison_table_words.py)."""

from __future__ import annotations

import pytest
from scenarios import load_scenario

from rewire_site.derive.names import RowName, order_text
from rewire_site.derive.tables import (
    ComparedRow,
    Comparison,
    comparison,
    distinct_titles,
    protocol_comparisons,
    row_order,
    setup_key,
    setup_name,
)
from rewire_site.models import Configuration, Evaluation, Protocol
from rewire_site.models.evaluation import Origin


def _table(scenario: str, protocol_id: str, sort_by: str | None = None) -> Comparison:
    catalogue = load_scenario(scenario)
    return comparison(catalogue.get(protocol_id, Protocol), catalogue, sort_by)


def _values(table: Comparison) -> list[tuple[str, list[float | None]]]:
    return [(r.configuration_id, [c.value for c in r.cells]) for r in table.rows]


def test_seed_memory_rows_columns_and_standings() -> None:
    table = _table("seed_memory", "training-peak-memory")
    # Only the two columns that hold results, in protocol order.
    assert [c.id for c in table.columns] == ["checkpointing", "deepspeed"]
    assert table.sort_column == "checkpointing"
    assert _values(table) == [
        ("config-gena-checkpointing", [1.18, None]),
        ("config-nt-checkpointing", [33.88, None]),
        ("config-gena-deepspeed", [None, 2.49]),
        ("config-nt-deepspeed", [None, 11.49]),
    ]
    # Neither the length unit nor the update is stated: nothing is ranked.
    cells = [c for r in table.rows for c in r.cells if c.status == "value"]
    assert not any(c.best for c in cells)
    assert {c.standing_state for c in cells} == {"unstated"}
    kinds = {f.kind for f, _ in table.flagged}
    assert kinds == {"gigabyte_ambiguous", "length_unit_unstated"}
    assert (table.evaluation_count, table.result_count) == (4, 4)
    assert table.dataset_ids == ("synthetic-dna",)


def test_cells_keep_the_stored_value_printed_value_origin_and_evaluation() -> None:
    table = _table("seed_memory", "training-peak-memory")
    cell = table.rows[1].cells[0]
    assert (cell.value, cell.printed_value, cell.evaluation_id) == (
        33.88,
        "33.88",
        "eval-nt-checkpointing",
    )
    assert cell.origin == Origin.independent_paper and cell.as_printed
    empty = table.rows[0].cells[1]
    assert (empty.status, empty.value, empty.evaluation_id, empty.origin) == (
        "not_reported",
        None,
        None,
        None,
    )
    assert empty.standing_state == "no_value" and not empty.as_printed


def test_a_recorded_conflict_keeps_results_but_takes_them_out_of_comparisons() -> None:
    table = _table("ia3_conflict", "nt-ia3-runtime")
    cells = [r.cells[0] for r in table.rows]
    assert all(c.excluded and not c.best for c in cells)
    assert all(c.standing_state == "excluded" for c in cells)
    assert all([f.recorded for f in c.flags] == [True] for c in cells)
    assert table.excluded_count == 2


def test_rows_sort_in_the_metric_direction_rows_without_a_value_last() -> None:
    table = _table("seed_memory", "training-peak-memory", sort_by="deepspeed")
    assert [r.configuration_id for r in table.rows] == [
        "config-gena-deepspeed",
        "config-nt-deepspeed",
        "config-gena-checkpointing",
        "config-nt-checkpointing",
    ]
    columns = [c.__class__(c.id, c.label, c.description, c.unit, "higher") for c in table.columns]
    order = row_order(table.rows, columns, "deepspeed")
    assert [table.rows[i].configuration_id for i in order][:2] == [
        "config-nt-deepspeed",
        "config-gena-deepspeed",
    ]
    with pytest.raises(ValueError, match=r"baseline.*checkpointing"):
        row_order(table.rows, table.columns, "baseline")


def test_out_of_memory_and_incomplete_runs_claim_no_value_and_sort_after_values() -> None:
    table = _table("incomplete_run", "repro-peak-memory", sort_by="checkpointing")
    short = next(r for r in table.rows if r.configuration_id == "config-nt-rewire-short")
    cell = short.cells[1]
    assert (cell.status, cell.value, cell.best) == ("incomplete", None, False)
    assert cell.recorded_status == "incomplete"
    assert [r.configuration_id for r in table.rows][-1] == "config-nt-rewire-short"
    oom = _table("reproduction", "repro-peak-memory").rows[0].cells[0]
    assert (oom.status, oom.value, oom.standing_state) == ("out_of_memory", None, "no_value")


def test_the_default_sort_skips_columns_without_a_comparable_result() -> None:
    table = _table("reproduction", "repro-peak-memory")
    assert [c.id for c in table.columns] == ["baseline", "checkpointing", "deepspeed"]
    assert table.sort_column == "checkpointing"
    assert _table("reproduction", "repro-peak-memory", "baseline").sort_column == "baseline"


def test_protocol_comparisons_split_reported_evidence_from_measurements() -> None:
    catalogue = load_scenario("setup_rows")
    found = protocol_comparisons(catalogue.get("repro-peak-memory", Protocol), catalogue)
    published, measured = found.published, found.measurements
    assert measured is not None
    assert [r.evaluation_ids for r in published.rows] == [("eval-nt-published",)]
    assert published.setup_keys == () and measured.setup_keys == ("precision", "update")
    fp32 = measured.rows[1]
    assert fp32.name == RowName(
        "NT 2.5B", (("precision", "fp32-autocast"), ("update", "full")), form="setup"
    )
    assert fp32.order == "NT 2.5B (precision fp32-autocast, update full)"
    assert fp32.configuration_ids == ("config-nt-rewire-fp32-ckpt", "config-nt-rewire-fp32-ds")
    # The protocol declares peak memory independent of the accelerator: the table holds
    # results from another accelerator, ranked with the protocol's.
    assert (measured.other_hardware, measured.protocol_hardware) == (("H200",), ("H100",))
    assert (published.other_hardware, published.protocol_hardware) == ((), ())
    assert (found.evaluation_count, found.result_count) == (4, 7)
    assert found.column_ids == ("baseline", "checkpointing", "deepspeed")


def test_two_evaluations_of_one_configuration_and_column_get_two_rows() -> None:
    catalogue = load_scenario("seed_memory")
    original = catalogue.get("eval-nt-checkpointing", Evaluation)
    copy = original.model_copy(update={"id": "eval-nt-checkpointing-again"})
    protocol = catalogue.get("training-peak-memory", Protocol)
    table = comparison(
        protocol, catalogue, evaluations=[*catalogue.evaluations_of(protocol.id), copy]
    )
    rows = [r for r in table.rows if r.configuration_id == "config-nt-checkpointing"]
    assert [r.evaluation_ids for r in rows] == [
        ("eval-nt-checkpointing",),
        ("eval-nt-checkpointing-again",),
    ]


def test_rows_of_configurations_sharing_a_title_name_their_configuration() -> None:
    rows = [
        ComparedRow("config-a", RowName("NT 500M on 1 x H200"), ("e1",), ()),
        ComparedRow("config-b", RowName("NT 500M on 1 x H200"), ("e2",), ()),
        ComparedRow("config-b", RowName("NT 500M on 1 x H200"), ("e3",), ()),
        ComparedRow("config-c", RowName("NT 2.5B on 1 x H200"), ("e4",), ()),
    ]
    assert [r.name.configuration_id for r in distinct_titles(rows)] == [
        "config-a",
        "config-b",
        "config-b",
        None,
    ]
    assert [r.order for r in distinct_titles(rows)] == [
        "NT 500M on 1 x H200 (config-a)",
        "NT 500M on 1 x H200 (config-b)",
        "NT 500M on 1 x H200 (config-b)",
        "NT 2.5B on 1 x H200",
    ]
    one_config = [rows[1], rows[2]]  # two rows of one configuration need no suffix
    assert distinct_titles(one_config) == one_config


def test_a_setup_key_older_records_lack_reads_as_its_default() -> None:
    catalogue = load_scenario("setup_rows")
    configuration = catalogue.get("config-nt-rewire", Configuration)
    keys = ("precision", "update", "deepspeed_communication")
    assert setup_key(configuration, keys) is None  # the key is missing, no default
    key = setup_key(configuration, keys, {"deepspeed_communication": "ds-default"})
    assert key is not None and key[-1] == "ds-default"
    defaults = {"deepspeed_communication": "ds-default"}
    assert order_text(setup_name("NT 2.5B", keys, key[2:], defaults)) == (
        "NT 2.5B (precision bf16, update full)"
    )
    assert order_text(setup_name("NT 2.5B", keys, ("bf16", "full", "overlap"), defaults)) == (
        "NT 2.5B (precision bf16, update full, deepspeed_communication overlap)"
    )


def test_a_setup_measured_on_two_cards_has_a_row_for_each_card_named_by_it() -> None:
    """Two runs of one setup on different cards: a row per card, each naming its card
    (rows of one setup read the same otherwise), still one competitor in the ranking."""
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol)
    measured = [e for e in catalogue.evaluations_of(protocol.id) if e.reproduces is not None]
    h200 = catalogue.get("eval-nt-rewire-fp32-ckpt", Evaluation)
    assert h200.environment is not None and h200.environment.gpu == "NVIDIA H200"
    h100 = h200.model_copy(
        update={
            "id": "eval-nt-rewire-fp32-ckpt-h100",
            "environment": h200.environment.model_copy(update={"gpu": "NVIDIA H100 80GB HBM3"}),
        }
    )
    keys = ("precision", "update")
    table = comparison(protocol, catalogue, evaluations=[*measured, h100], setup_keys=keys)
    rows = [r for r in table.rows if r.name.label == "NT 2.5B" and "fp32" in r.order]
    assert [(r.name.hardware, r.evaluation_ids) for r in rows] == [
        ("NVIDIA H100 80GB HBM3", ("eval-nt-rewire-fp32-ckpt-h100",)),
        ("NVIDIA H200", ("eval-nt-rewire-fp32-ckpt", "eval-nt-rewire-fp32-ds")),
    ]
    assert rows[0].order == "NT 2.5B (precision fp32-autocast, update full) (NVIDIA H100 80GB HBM3)"
    # one setup on one card keeps its plain name
    alone = comparison(protocol, catalogue, evaluations=measured, setup_keys=keys)
    assert all(r.name.hardware is None for r in alone.rows)
