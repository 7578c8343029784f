"""Reproductions beside published values, as facts: one model (derive/reproduction.py)
with the agreement verdicts of derive/agreement.py and the hardware rule of
derive/comparability.py (their words: tests/render/test_reproduction_words.py).

"Measured under the same protocol" and "agrees within tolerance" are separate: only an
agreeing value is reproduced and counted as agreeing.
"""

from __future__ import annotations

import pytest
from scenarios import load_scenario

from rewire_site.derive.agreement import agreement
from rewire_site.derive.comparability import HardwareBlock, HardwareClass
from rewire_site.derive.pairs import Differences
from rewire_site.derive.reproduction import (
    evaluation_reproductions,
    protocol_reproduction_groups,
    reproduction_group,
    setup_settings,
)
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol


def test_agreement_within_beyond_and_without_tolerance() -> None:
    within = agreement(31.0, 33.88, 0.1)
    assert within.state == "agrees" and within.reproduced
    assert agreement(11.0, 10.0, 0.1).state == "agrees"  # exactly at the boundary
    beyond = agreement(14.0, 11.49, 0.1)
    assert beyond.state == "disagrees" and not beyond.reproduced
    assert beyond.ratio == pytest.approx(14.0 / 11.49)
    assert beyond.off == pytest.approx(14.0 / 11.49 - 1)
    none = agreement(14.0, 11.49, None)
    assert none.state == "no_tolerance" and not none.reproduced
    assert agreement(None, 11.49, 0.1).reason == "missing"
    assert agreement(1.0, 0.0, 0.1).reason == "zero"


def test_a_blocked_comparison_keeps_its_ratio_but_is_never_reproduced() -> None:
    block = HardwareBlock(HardwareClass(("H100",)), None)
    blocked = agreement(33.9, 33.88, 0.1, blocked=block)
    assert blocked.state == "not_comparable" and not blocked.reproduced
    assert blocked.ratio == pytest.approx(33.9 / 33.88)
    assert (blocked.reason, blocked.block) == ("blocked", block)


def test_one_group_per_published_evaluation_with_its_verdicts_and_counts() -> None:
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
    # means 10^9 bytes (read as GiB: 0.85, beyond 10%).
    states = {r.measured_evaluation_id: r.pair.agreement.state for r in checkpointing.rows}
    assert states == {"eval-nt-rewire": "depends_on_unit", "eval-nt-rewire-fp32-ckpt": "agrees"}
    # No reading is declared and the settings disagree: the value is not 'reproduced'.
    assert checkpointing.verdict.state == "depends_on_setting"
    assert checkpointing.verdict.judged_id == "eval-nt-rewire-fp32-ckpt"
    assert deepspeed.verdict.state == "not_reproduced"
    assert (group.agree_count, group.disagree_count, group.value_count) == (1, 2, 4)
    assert group.depends_count == 1 and group.not_judged_count == 0
    # Stated differences: the recipe's settings and the accelerator (the protocol declares
    # that peak memory does not depend on it, so it does not block agreement).
    bf16 = next(r for r in checkpointing.rows if r.measured_evaluation_id == "eval-nt-rewire")
    assert bf16.differences == Differences(
        (("precision", "bf16"), ("update", "full")), ("H200",), 1, ("H100",)
    )
    assert group.unmatched == (
        ("NT 2.5B training peak memory, Rewire measurement on H200", ("baseline",)),
    )
    assert [e.label for r in checkpointing.rows for e in r.pair.estimates] == [
        "model-state floor",
        "model-state floor",
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
    row = group.columns[0].rows[0]
    assert row.pair.agreement.ratio is not None and not row.pair.agreement.reproduced
    assert row.pair.agreement.block == HardwareBlock(
        HardwareClass(("H200",), 1), HardwareClass(("H100",))
    )


def test_without_tolerance_groups_judge_no_agreement() -> None:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol).model_copy(
        update={"tolerance": None, "tolerance_reason": None}
    )
    published = catalogue.get("eval-nt-published", Evaluation)
    group = reproduction_group(
        published, catalogue.evaluations_of(protocol.id), _with_protocol(catalogue, protocol)
    )
    assert group is not None
    assert (group.value_count, group.not_judged_count, group.tolerance) == (4, 4, None)
    states = {r.pair.agreement.state for c in group.columns for r in c.rows}
    assert states == {"no_tolerance"}


def _with_protocol(catalogue: Catalogue, protocol: Protocol) -> Catalogue:
    records = [protocol if r.id == protocol.id else r for r in catalogue.by_id.values()]
    return Catalogue.from_records(records)


def test_an_incomplete_run_gets_no_ratio() -> None:
    catalogue = load_scenario("incomplete_run")
    (group,) = protocol_reproduction_groups(catalogue.get("repro-peak-memory", Protocol), catalogue)
    short = next(
        r for r in group.columns[0].rows if r.measured_evaluation_id == "eval-nt-rewire-short"
    )
    assert short.distance is None and short.pair.measured_status == "incomplete"
    assert (short.pair.agreement.state, short.pair.agreement.reason) == (
        "not_comparable",
        "incomplete",
    )
    assert not group.all_incomplete


def test_a_wholly_incomplete_measurement_says_so() -> None:
    catalogue = load_scenario("incomplete_run")
    short = catalogue.get("eval-nt-rewire-short", Evaluation)
    only = short.model_copy(update={"results": short.results[:1]})
    records = [r for r in catalogue.by_id.values() if r.id != short.id]
    changed = Catalogue.from_records([*records, only])
    (group,) = evaluation_reproductions(only, changed)
    assert group.agree_count == group.disagree_count == 0
    assert group.all_incomplete


def test_evaluation_pages_get_their_own_group_and_the_value_s_one_verdict() -> None:
    catalogue = load_scenario("setup_rows")
    measured = catalogue.get("eval-nt-rewire-fp32-ds", Evaluation)
    (own,) = evaluation_reproductions(measured, catalogue)
    assert own.measured_evaluation_ids == ("eval-nt-rewire-fp32-ds",)
    assert [c.column_id for c in own.columns] == ["deepspeed"]
    published = catalogue.get("eval-nt-published", Evaluation)
    (every,) = evaluation_reproductions(published, catalogue)
    assert len(every.measured_evaluation_ids) == 3
    # The measurement's page reads the verdict judged over every measurement of the value.
    (column,) = own.columns
    judged = next(c for c in every.columns if c.column_id == "deepspeed")
    assert column.verdict == judged.verdict
    assert column.verdict_rows == judged.rows and len(column.rows) == 1
    seed = load_scenario("seed_memory")
    assert protocol_reproduction_groups(seed.get("training-peak-memory", Protocol), seed) == ()


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
