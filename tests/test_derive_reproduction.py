"""Reproductions beside published values: one model (derive/reproduction.py) with the
agreement verdicts of derive/agreement.py and the hardware rule of derive/comparability.py.

"Measured under the same protocol" and "agrees within tolerance" are separate: only an
agreeing value is reproduced, drawn as the 'reproduced' series and counted as agreeing.
"""

from __future__ import annotations

import pytest
from scenarios import load_scenario

from rewire_site.derive.agreement import agreement
from rewire_site.derive.display import agreement_text, agreement_verdict, ratio_text
from rewire_site.derive.reproduction import (
    evaluation_reproductions,
    printed_display,
    protocol_reproduction_groups,
    reproduction_group,
    setup_label,
    setup_settings,
)
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol


def test_agreement_within_beyond_and_without_tolerance() -> None:
    within = agreement(31.0, 33.88, 0.1)
    assert within.state == "agrees" and within.reproduced
    assert agreement_verdict(within) == "agrees within ±10%"
    assert agreement(11.0, 10.0, 0.1).state == "agrees"  # exactly at the boundary
    beyond = agreement(14.0, 11.49, 0.1)
    assert beyond.state == "disagrees" and not beyond.reproduced
    assert beyond.ratio == pytest.approx(14.0 / 11.49)
    assert ratio_text(beyond) == "1.22×"
    assert agreement_verdict(beyond) == "does not agree: differs by 21.8%, beyond ±10%"
    none = agreement(14.0, 11.49, None)
    assert none.state == "no_tolerance" and not none.reproduced
    assert agreement_verdict(none) == "not judged: the protocol sets no tolerance"
    assert agreement(None, 11.49, 0.1).state == "not_comparable"
    assert agreement(1.0, 0.0, 0.1).state == "not_comparable"


def test_a_blocked_comparison_keeps_its_ratio_but_is_never_reproduced() -> None:
    blocked = agreement(33.9, 33.88, 0.1, blocked="Run time depends on the accelerator.")
    assert blocked.state == "not_comparable" and not blocked.reproduced
    assert blocked.ratio == pytest.approx(33.9 / 33.88)
    assert (blocked.reason, agreement_text(blocked)) == (
        "blocked",
        "Run time depends on the accelerator.",
    )


def test_one_group_per_published_evaluation_agreeing_rows_first() -> None:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol)
    (group,) = protocol_reproduction_groups(protocol, catalogue)
    assert group.published_evaluation_id == "eval-nt-published"
    assert group.measured_evaluation_ids == (
        "eval-nt-rewire",
        "eval-nt-rewire-fp32-ckpt",
        "eval-nt-rewire-fp32-ds",
    )
    checkpointing, deepspeed = group.columns
    # 34.2 / 33.88 = 1.009 agrees; 31 / 33.88 = 0.915 agrees only if the source's 'GB'
    # means 10^9 bytes (read as GiB: 0.85, beyond 10%). The run the verdict reads (the
    # newest) comes first.
    assert [(r.setup, r.pair.measured_display) for r in checkpointing.rows] == [
        ("fp32-autocast · full", "34.2"),
        ("bf16 · full", "31"),
    ]
    assert checkpointing.rows[1].pair.agreement.state == "depends_on_unit"
    # No reading is declared and the settings disagree: the value is not 'reproduced'.
    assert checkpointing.verdict.state == "depends_on_setting"
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
    assert (group.agree_count, group.disagree_count, group.value_count) == (1, 2, 4)
    assert group.tolerance_reason == "Spread between repeated runs of one setup (test fixture)."
    # Stated differences: the recipe's settings and the accelerator (the protocol declares
    # that peak memory does not depend on it, so it does not block agreement).
    assert checkpointing.rows[1].differences == (
        "precision bf16",
        "update full",
        "on H200 × 1 (published: H100)",
    )
    assert group.unmatched == (
        "NT 2.5B training peak memory, Rewire measurement on H200: baseline",
    )
    assert [e.label for e in checkpointing.estimates] == [
        "model-state floor (fp32-autocast · full)",
        "model-state floor (bf16 · full)",
    ]


def test_hardware_the_protocol_declares_decisive_blocks_agreement() -> None:
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
    states = {r.pair.agreement.state for c in group.columns for r in c.rows}
    assert states == {"not_comparable"}
    assert group.agree_count == group.disagree_count == 0
    assert "depends on the accelerator" in group.summary
    row = group.columns[0].rows[0]
    assert row.pair.agreement.ratio is not None and not row.pair.agreement.reproduced


def test_without_tolerance_groups_judge_no_agreement_and_say_so() -> None:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol).model_copy(
        update={"tolerance": None, "tolerance_reason": None}
    )
    published = catalogue.get("eval-nt-published", Evaluation)
    group = reproduction_group(
        published, catalogue.evaluations_of(protocol.id), _with_protocol(catalogue, protocol)
    )
    assert group is not None
    assert group.summary == (
        "4 measured values; agreement not judged: The protocol sets no tolerance, so no "
        "agreement is judged."
    )
    states = {r.pair.agreement.state for c in group.columns for r in c.rows}
    assert states == {"no_tolerance"}


def _with_protocol(catalogue: Catalogue, protocol: Protocol) -> Catalogue:
    records = [protocol if r.id == protocol.id else r for r in catalogue.by_id.values()]
    return Catalogue.from_records(records)


def test_repeated_setups_get_distinct_labels() -> None:
    catalogue = load_scenario("incomplete_run")
    (group,) = protocol_reproduction_groups(catalogue.get("repro-peak-memory", Protocol), catalogue)
    for column in group.columns:
        setups = [r.setup for r in column.rows]
        assert len(set(setups)) == len(setups), setups


def test_incomplete_run_gets_no_ratio_sorts_last_and_says_why() -> None:
    catalogue = load_scenario("incomplete_run")
    (group,) = protocol_reproduction_groups(catalogue.get("repro-peak-memory", Protocol), catalogue)
    checkpointing = group.columns[0]
    assert [r.measured_evaluation_id for r in checkpointing.rows] == [
        "eval-nt-rewire",
        "eval-nt-rewire-short",
    ]
    last = checkpointing.rows[-1]
    assert last.distance is None and last.pair.agreement.state == "not_comparable"
    assert last.pair.measured_display == "Incomplete run"
    assert last.pair.agreement.reason == "incomplete"
    assert "claims no value" in agreement_text(last.pair.agreement)


def test_a_wholly_incomplete_measurement_says_so() -> None:
    catalogue = load_scenario("incomplete_run")
    short = catalogue.get("eval-nt-rewire-short", Evaluation)
    only = short.model_copy(update={"results": short.results[:1]})
    records = [r for r in catalogue.by_id.values() if r.id != short.id]
    changed = Catalogue.from_records([*records, only])
    (group,) = evaluation_reproductions(only, changed)
    assert group.agree_count == group.disagree_count == 0
    assert group.summary.startswith("The measurement is an incomplete run")


def test_evaluation_pages_get_their_own_group() -> None:
    catalogue = load_scenario("setup_rows")
    measured = catalogue.get("eval-nt-rewire-fp32-ds", Evaluation)
    (own,) = evaluation_reproductions(measured, catalogue)
    assert own.measured_evaluation_ids == ("eval-nt-rewire-fp32-ds",)
    assert [c.column_id for c in own.columns] == ["deepspeed"]
    published = catalogue.get("eval-nt-published", Evaluation)
    (every,) = evaluation_reproductions(published, catalogue)
    assert len(every.measured_evaluation_ids) == 3
    seed = load_scenario("seed_memory")
    assert protocol_reproduction_groups(seed.get("training-peak-memory", Protocol), seed) == ()


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


def test_a_setting_the_evaluation_states_is_the_one_it_ran_under() -> None:
    """One configuration can serve several readings of a claim, so a setup key the
    evaluation states itself is read before its configuration's (a key it does not state
    still comes from the configuration)."""
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol)
    assert protocol.recipe is not None
    evaluation = catalogue.get("eval-nt-rewire", Evaluation)
    first, *rest = protocol.recipe.setup_keys
    before = dict(setup_settings(evaluation, protocol, catalogue))
    stated = evaluation.model_copy(update={"settings": {first: "stated-on-the-evaluation"}})
    after = dict(setup_settings(stated, protocol, catalogue))
    assert after[first] == "stated-on-the-evaluation" != before[first]
    assert all(after[k] == before[k] for k in rest if k in before)
    assert setup_label(stated, protocol, catalogue).startswith("stated-on-the-evaluation")
