"""Reproductions beside published values: one model (derive/reproduction.py) with the
agreement verdicts of derive/agreement.py and the hardware rule of derive/comparability.py.

"Measured under the same protocol" and "agrees within tolerance" are separate: only an
agreeing value is reproduced, drawn as the 'reproduced' series and counted as agreeing.
"""

from __future__ import annotations

import itertools

import pytest
from scenarios import load_scenario

from rewire_site.derive.agreement import agreement
from rewire_site.derive.reproduction import (
    evaluation_reproductions,
    nice_axis,
    printed_display,
    protocol_reproduction_groups,
    reproduction_group,
    wrap,
)
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol


def test_agreement_within_beyond_and_without_tolerance() -> None:
    within = agreement(31.0, 33.88, 0.1)
    assert within.state == "agrees" and within.reproduced
    assert within.verdict == "agrees within ±10%"
    assert agreement(11.0, 10.0, 0.1).state == "agrees"  # exactly at the boundary
    beyond = agreement(14.0, 11.49, 0.1)
    assert beyond.state == "disagrees" and not beyond.reproduced
    assert beyond.ratio == pytest.approx(14.0 / 11.49)
    assert beyond.ratio_display == "1.22×"
    assert beyond.verdict == "does not agree: differs by 21.8%, beyond ±10%"
    none = agreement(14.0, 11.49, None)
    assert none.state == "no_tolerance" and not none.reproduced
    assert none.verdict == "not judged: the protocol sets no tolerance"
    assert agreement(None, 11.49, 0.1).state == "not_comparable"
    assert agreement(1.0, 0.0, 0.1).state == "not_comparable"


def test_a_blocked_comparison_keeps_its_ratio_but_is_never_reproduced() -> None:
    blocked = agreement(33.9, 33.88, 0.1, blocked="Run time depends on the accelerator.")
    assert blocked.state == "not_comparable" and not blocked.reproduced
    assert blocked.ratio == pytest.approx(33.9 / 33.88)
    assert blocked.text == "Run time depends on the accelerator."


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
    assert group.chart is not None
    assert [e.series for e in group.chart.legend] == ["published", "measured", "estimate"]


def _with_protocol(catalogue: Catalogue, protocol: Protocol) -> Catalogue:
    records = [protocol if r.id == protocol.id else r for r in catalogue.by_id.values()]
    return Catalogue.from_records(records)


def test_chart_draws_agreeing_values_as_reproduced_and_the_rest_as_measured() -> None:
    catalogue = load_scenario("setup_rows")
    (group,) = protocol_reproduction_groups(catalogue.get("repro-peak-memory", Protocol), catalogue)
    chart = group.chart
    assert chart is not None
    labels = [[(b.series, b.label) for b in g.bars] for g in chart.groups]
    assert labels[0][:3] == [
        ("published", "Published"),
        ("reproduced", "fp32-autocast · full"),
        ("measured", "bf16 · full"),  # agrees only if 'GB' means 10^9 bytes
    ]
    assert {s for s, _ in labels[1][1:3]} == {"measured"}
    assert [e.series for e in chart.legend] == ["published", "reproduced", "measured", "estimate"]
    bars = [b for g in chart.groups for b in g.bars]
    scale = (chart.plot_right - chart.plot_left) / chart.axis_max
    for bar in bars:
        assert bar.x == chart.plot_left
        assert bar.value is not None and bar.width == pytest.approx(bar.value * scale, abs=0.01)
        assert chart.plot_top <= bar.y < chart.plot_bottom
        assert len(bar.label) * 7.2 <= bar.label_x  # the label fits left of the bars
        assert not bar.label.endswith("…")
    ys = [b.y for b in bars]
    assert ys == sorted(ys) and len(set(ys)) == len(ys)
    assert all(b2.y - b1.y >= b1.height for b1, b2 in itertools.pairwise(bars))
    assert chart.groups[0].bars[1].display == "34.2 (1.01×)"
    # Group labels wrap inside the chart; the axis title sits below the tick labels.
    for g in chart.groups:
        assert all(4 + len(line.text) * 7.2 <= chart.width for line in g.lines)
    assert chart.plot_bottom + 14 < chart.axis_label_y <= chart.height - 4
    assert "Peak memory" in chart.caption and "estimates" in chart.caption


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
    assert "claims no value" in last.pair.agreement.text
    assert group.chart is not None
    bar = group.chart.groups[0].bars[2]
    assert (bar.value, bar.width, bar.display) == (None, 0.0, "Incomplete run")


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
    ("maximum", "axis"),
    [(33.88, (40.0, 10.0)), (1.18, (1.25, 0.25)), (50, (50.0, 10.0)), (0.0, (1.0, 0.2))],
)
def test_nice_axis(maximum: float, axis: tuple[float, float]) -> None:
    assert nice_axis(maximum) == axis


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


def test_wrap_keeps_every_word_within_the_width() -> None:
    text = "Training, sequence length 1000, batch size 16, stage + Checkpointing (FlashAttention)"
    lines = wrap(text, 200)
    assert " ".join(lines) == text
    assert all(len(line) * 7.2 <= 200 for line in lines)


def test_group_chart_names_the_metric_of_the_columns_it_draws() -> None:
    """The chart's axis and caption name the metric of the reproduced columns (a column's
    own metric where it has one), not the protocol's declared metric. Real records: the
    DNABERT-2 GUE protocol (declared MCC), its EPI column given an F1 metric of its own."""
    from pathlib import Path

    from scenarios import record_closure

    from rewire_site.validate import validate_paths

    root = Path(__file__).resolve().parents[1]
    published = "evidence-20261130-eval-dnabert-2-gue-plus-epi-0-published"
    files = record_closure([published], root / "records")
    measured = [
        p
        for p in (root / "records").glob("evidence-20261130-eval-dnabert-2-gue-plus-epi*.yaml")
        if p.stem != published
    ]
    for path in measured:
        files.update(record_closure([path.stem], root / "records"))
    report = validate_paths(list(files.values()), root, cache=False)
    assert report.ok, [str(p) for p in report.problems[:3]]
    catalogue = Catalogue.from_records(report.records.values())
    protocol = catalogue.get("evidence-20261130-protocol-dnabert-2-gue-fine-tuning", Protocol)
    (group,) = protocol_reproduction_groups(protocol, catalogue)
    assert group.chart is not None and group.chart.axis_label == "MCC (percent)"
    f1 = protocol.metric.model_copy(update={"id": "f1", "label": "F1 score"})
    columns = [
        c.model_copy(update={"metric": f1}) if c.id == "epi-dataset-0" else c
        for c in protocol.columns
    ]
    changed = protocol.model_copy(update={"columns": columns})
    records = [changed if r.id == protocol.id else r for r in report.records.values()]
    (group,) = protocol_reproduction_groups(changed, Catalogue.from_records(records))
    assert group.chart is not None
    assert group.chart.axis_label == "F1 score (percent)"
    assert group.chart.caption.startswith("F1 score (percent): ")
