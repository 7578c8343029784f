"""Reproductions in words (render/reproduction.py, render/present/agreement.py): rows
named by setup in the order a reader reads them, each column's verdict sentence, the
group's summary, and a published value shown with the digits its source printed."""

from __future__ import annotations

import pytest
from scenarios import load_scenario

from rewire_site.derive import reproduction as derived
from rewire_site.derive.agreement import agreement, incomplete
from rewire_site.derive.comparability import HardwareBlock, HardwareClass
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol
from rewire_site.render.present.agreement import (
    agreement_text,
    agreement_verdict,
    hardware_text,
    ratio_text,
)
from rewire_site.render.reproduction import (
    evaluation_reproductions,
    printed_display,
    protocol_reproduction_groups,
    reproduction_group,
    setup_label,
)


def test_an_agreement_in_words() -> None:
    within = agreement(31.0, 33.88, 0.1)
    assert agreement_verdict(within) == "agrees within ±10%"
    beyond = agreement(14.0, 11.49, 0.1)
    assert ratio_text(beyond) == "1.22×"
    assert agreement_verdict(beyond) == "does not agree: differs by 21.8%, beyond ±10%"
    none = agreement(14.0, 11.49, None)
    assert agreement_verdict(none) == "not judged: the protocol sets no tolerance"
    assert ratio_text(agreement(None, 11.49, 0.1)) == ""


def test_a_blocked_or_incomplete_agreement_says_why() -> None:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol)
    blocked = agreement(33.9, 33.88, 0.1, blocked=HardwareBlock(HardwareClass(("H200",)), None))
    assert agreement_text(blocked, protocol) == (
        "The protocol declares that peak memory depends on the accelerator, and this ran on "
        "H200, the published value on hardware the source does not state."
    )
    assert "claims no value" in agreement_text(incomplete(0.1, "point"), protocol)


def test_rows_read_agreeing_first_with_the_verdict_in_a_sentence() -> None:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol)
    (group,) = protocol_reproduction_groups(protocol, catalogue)
    checkpointing, deepspeed = group.columns
    # The run the verdict reads (the newest) comes first.
    assert [(r.setup, r.pair.measured_display) for r in checkpointing.rows] == [
        ("fp32-autocast · full", "34.2"),
        ("bf16 · full", "31"),
    ]
    assert checkpointing.closest_text == (
        "Depends on the setting over 2 measured settings (1 agrees; no reading declared); "
        "newest run: fp32-autocast · full, ratio 1.01× (agrees within ±10%)."
    )
    assert deepspeed.closest_text == (
        "Not reproduced over 2 measured settings (0 agree; no reading declared); newest run: "
        "fp32-autocast · full, ratio 1.45× (does not agree: differs by 45.3%, beyond ±10%)."
    )
    assert group.summary == (
        "1 of 4 measured values agree within the protocol's tolerance of ±10%. 1 agrees "
        "under one reading of GB only (10^9 or 2^30 bytes)."
    )
    assert group.measured_count_text == "3 measurements"
    assert group.tolerance_text == "Tolerance: ±10% of the published value."
    assert group.tolerance_reason == "Spread between repeated runs of one setup (test fixture)."
    assert checkpointing.rows[1].differences == (
        "precision bf16",
        "update full",
        "on H200 × 1 (published: H100)",
    )
    assert group.unmatched == (
        "NT 2.5B training peak memory, Rewire measurement on H200: baseline",
    )
    # One estimate label shared by two setups names each setup.
    assert [e.label for e in checkpointing.estimates] == [
        "model-state floor (fp32-autocast · full)",
        "model-state floor (bf16 · full)",
    ]


def test_hardware_that_blocks_agreement_is_said_in_the_summary() -> None:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol)
    declared = protocol.model_copy(
        update={
            "hardware_dependence": protocol.hardware_dependence.model_copy(  # type: ignore[union-attr]
                update={"depends": True}
            )
        }
    )
    changed = _with_protocol(catalogue, declared)
    (group,) = protocol_reproduction_groups(declared, changed)
    assert "depends on the accelerator" in group.summary


def test_without_tolerance_the_summary_says_no_agreement_is_judged() -> None:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol).model_copy(
        update={"tolerance": None, "tolerance_reason": None}
    )
    changed = _with_protocol(catalogue, protocol)
    published = catalogue.get("eval-nt-published", Evaluation)
    found = derived.reproduction_group(published, changed.evaluations_of(protocol.id), changed)
    assert found is not None
    group = reproduction_group(found, changed)
    assert group.summary == (
        "4 measured values; agreement not judged: The protocol sets no tolerance, so no "
        "agreement is judged."
    )


def _with_protocol(catalogue: Catalogue, protocol: Protocol) -> Catalogue:
    records = [protocol if r.id == protocol.id else r for r in catalogue.by_id.values()]
    return Catalogue.from_records(records)


def test_repeated_setups_get_distinct_labels() -> None:
    catalogue = load_scenario("incomplete_run")
    (group,) = protocol_reproduction_groups(catalogue.get("repro-peak-memory", Protocol), catalogue)
    for column in group.columns:
        setups = [r.setup for r in column.rows]
        assert len(set(setups)) == len(setups), setups


def test_an_incomplete_run_sorts_last_and_says_why() -> None:
    catalogue = load_scenario("incomplete_run")
    (group,) = protocol_reproduction_groups(catalogue.get("repro-peak-memory", Protocol), catalogue)
    checkpointing = group.columns[0]
    assert [r.measured_evaluation_id for r in checkpointing.rows] == [
        "eval-nt-rewire",
        "eval-nt-rewire-short",
    ]
    last = checkpointing.rows[-1]
    assert last.pair.measured_display == "Incomplete run"
    assert "claims no value" in last.pair.agreement_text


def test_a_wholly_incomplete_measurement_says_so() -> None:
    catalogue = load_scenario("incomplete_run")
    short = catalogue.get("eval-nt-rewire-short", Evaluation)
    only = short.model_copy(update={"results": short.results[:1]})
    records = [r for r in catalogue.by_id.values() if r.id != short.id]
    changed = Catalogue.from_records([*records, only])
    (group,) = evaluation_reproductions(only, changed)
    assert group.summary.startswith("The measurement is an incomplete run")


def test_a_measurement_page_reads_the_verdict_sentence_of_every_measurement() -> None:
    catalogue = load_scenario("setup_rows")
    measured = catalogue.get("eval-nt-rewire-fp32-ds", Evaluation)
    (own,) = evaluation_reproductions(measured, catalogue)
    published = catalogue.get("eval-nt-published", Evaluation)
    (every,) = evaluation_reproductions(published, catalogue)
    judged = next(c for c in every.columns if c.column_id == "deepspeed")
    assert own.columns[0].closest_text == judged.closest_text
    # Given the protocol's groups, a published evaluation's page reads its group as made.
    assert evaluation_reproductions(published, catalogue, groups=(every,)) == (every,)


@pytest.mark.parametrize(
    ("value", "printed", "shown"),
    [
        (56.76, "56.76", "56.76"),
        (33.88, "33.88 GB", "33.88"),
        (1.18, "1.18", "1.18"),
        (20.0, "20", "20"),
        (0.6191, "61.91%", "0.619"),  # printed on another scale: rounded, not copied
        (1e12, "1T", "1 × 10¹²"),
    ],
)
def test_published_values_show_the_printed_digits(value: float, printed: str, shown: str) -> None:
    assert printed_display(value, printed) == shown


def test_a_setup_is_named_by_the_settings_it_ran_under() -> None:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol)
    assert protocol.recipe is not None
    evaluation = catalogue.get("eval-nt-rewire", Evaluation)
    first = protocol.recipe.setup_keys[0]
    stated = evaluation.model_copy(update={"settings": {first: "stated-on-the-evaluation"}})
    assert setup_label(stated, protocol, catalogue).startswith("stated-on-the-evaluation")


def test_an_accelerator_class_reads_names_then_count() -> None:
    assert hardware_text(HardwareClass(("H200",), 2)) == "H200 × 2"
    assert hardware_text(HardwareClass(("A100", "H100"))) == "A100 + H100"
