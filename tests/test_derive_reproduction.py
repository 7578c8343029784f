"""Reproductions beside published values (derive/reproduction.py, derive/agreement.py)."""

from __future__ import annotations

import itertools

import pytest
from scenarios import load_scenario

from rewire_site.derive.agreement import agreement
from rewire_site.derive.reproduction import (
    Reproduction,
    nice_axis,
    protocol_reproductions,
    reproduction,
    reproductions_of,
)
from rewire_site.derive.reproduction_groups import (
    evaluation_reproductions,
    protocol_reproduction_groups,
    reproduction_group,
)
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol


def _made(catalogue: Catalogue | None = None) -> Reproduction:
    catalogue = catalogue or load_scenario("reproduction")
    found = reproduction(catalogue.get("eval-nt-rewire", Evaluation), catalogue)
    assert found is not None
    return found


def test_agreement_within_beyond_and_without_tolerance() -> None:
    assert agreement(31.0, 33.88, 0.1).state == "agrees"
    assert agreement(11.0, 10.0, 0.1).state == "agrees"  # exactly at the boundary
    beyond = agreement(14.0, 11.49, 0.1)
    assert beyond.state == "disagrees"
    assert beyond.ratio == pytest.approx(14.0 / 11.49)
    assert beyond.ratio_display == "1.22×"
    none = agreement(14.0, 11.49, None)
    assert none.state == "no_tolerance" and none.ratio == pytest.approx(14.0 / 11.49)
    assert none.text == "The protocol sets no tolerance, so no agreement is computed."
    assert agreement(None, 11.49, 0.1).state == "not_comparable"
    assert agreement(1.0, 0.0, 0.1).state == "not_comparable"


def test_pairs_sit_side_by_side_with_ratio_and_agreement() -> None:
    made = _made()
    assert made.published_evaluation_id == "eval-nt-published"
    assert [p.column_id for p in made.pairs] == ["checkpointing", "deepspeed"]
    assert made.unmatched_columns == ("baseline",)
    first, second = made.pairs
    assert (first.published_value, first.published_display, first.published_printed) == (
        33.88,
        "33.9",
        "33.88",
    )
    assert (first.measured_value, first.measured_display) == (31.0, "31")
    assert first.agreement.state == "agrees"
    assert second.agreement.state == "disagrees"
    assert first.published_citation is not None
    assert first.published_citation.quote == "33.88 → 11.49 GB"
    assert [(e.label, e.value) for e in first.estimates] == [("model-state floor", 25.0)]
    assert (made.agree_count, made.disagree_count) == (1, 1)
    assert made.summary == "1 of 2 columns within the protocol's tolerance of ±10%."


def test_without_tolerance_no_agreement_is_computed_and_it_says_so() -> None:
    catalogue = load_scenario("reproduction")
    protocol = catalogue.get("repro-peak-memory", Protocol)
    records = [r for r in catalogue.by_id.values() if r.id != protocol.id]
    changed = Catalogue.from_records([*records, protocol.model_copy(update={"tolerance": None})])
    made = _made(changed)
    assert {p.agreement.state for p in made.pairs} == {"no_tolerance"}
    assert made.summary == "The protocol sets no tolerance, so no agreement is computed."
    assert made.pairs[0].agreement.ratio is not None


def test_chart_geometry_is_computed_as_numbers() -> None:
    chart = _made().chart
    assert chart is not None
    assert chart.axis_max == 40.0
    assert [t.display for t in chart.ticks] == ["0", "10", "20", "30", "40"]
    assert chart.ticks[0].x == chart.plot_left and chart.ticks[-1].x == chart.plot_right
    scale = (chart.plot_right - chart.plot_left) / chart.axis_max
    group = chart.groups[0]
    assert [b.series for b in group.bars] == ["published", "reproduced", "estimate"]
    published = group.bars[0]
    assert published.width == pytest.approx(33.88 * scale, abs=0.01)
    assert published.display == "33.9" and published.value == 33.88
    # Bars never overlap and stay inside the drawing.
    ys = [b.y for g in chart.groups for b in g.bars]
    assert ys == sorted(ys)
    bars = [b for g in chart.groups for b in g.bars]
    assert all(b2.y - b1.y >= b1.height for b1, b2 in itertools.pairwise(bars))
    assert all(b.x + b.width <= chart.plot_right + 1e-9 for g in chart.groups for b in g.bars)
    assert chart.height > chart.plot_bottom > ys[-1]


def test_out_of_memory_measurement_has_no_bar() -> None:
    catalogue = load_scenario("reproduction")
    published = catalogue.get("eval-nt-published", Evaluation)
    result = published.results[0].model_copy(update={"column": "baseline"})
    changed_published = published.model_copy(update={"results": [result, *published.results[1:]]})
    records = [r for r in catalogue.by_id.values() if r.id != published.id]
    made = _made(Catalogue.from_records([*records, changed_published]))
    baseline = made.pairs[0]
    assert baseline.column_id == "baseline"
    assert baseline.measured_status == "out_of_memory"
    assert baseline.measured_display == "Out of memory"
    assert baseline.agreement.state == "not_comparable"
    assert made.chart is not None
    bar = made.chart.groups[0].bars[1]
    assert (bar.value, bar.width, bar.display) == (None, 0.0, "Out of memory")


@pytest.mark.parametrize(
    ("maximum", "axis"),
    [(33.88, (40.0, 10.0)), (1.18, (1.25, 0.25)), (50, (50.0, 10.0)), (0.0, (1.0, 0.2))],
)
def test_nice_axis(maximum: float, axis: tuple[float, float]) -> None:
    assert nice_axis(maximum) == axis


def test_lookups_from_the_published_evaluation_and_the_protocol() -> None:
    catalogue = load_scenario("reproduction")
    published = catalogue.get("eval-nt-published", Evaluation)
    assert [r.measured_evaluation_id for r in reproductions_of(published, catalogue)] == [
        "eval-nt-rewire"
    ]
    assert reproduction(published, catalogue) is None
    protocol = catalogue.get("repro-peak-memory", Protocol)
    assert len(protocol_reproductions(protocol, catalogue)) == 1
    seed = load_scenario("seed_memory")
    assert protocol_reproductions(seed.get("training-peak-memory", Protocol), seed) == ()


def test_incomplete_run_gets_no_ratio_and_says_why() -> None:
    catalogue = load_scenario("incomplete_run")
    made = reproduction(catalogue.get("eval-nt-rewire-short", Evaluation), catalogue)
    assert made is not None
    short, deepspeed = made.pairs
    assert (short.column_id, short.measured_status, short.measured_display) == (
        "checkpointing",
        "incomplete",
        "Incomplete run",
    )
    assert (short.agreement.state, short.agreement.ratio, short.agreement.ratio_display) == (
        "not_comparable",
        None,
        "",
    )
    assert "incomplete run" in short.agreement.text and "claims no value" in short.agreement.text
    assert deepspeed.agreement.state == "disagrees"  # the complete column still compares
    assert made.summary == "0 of 1 column within the protocol's tolerance of ±10%."
    assert made.chart is not None
    bar = made.chart.groups[0].bars[1]
    assert (bar.value, bar.width, bar.display) == (None, 0.0, "Incomplete run")


def test_a_wholly_incomplete_measurement_says_so_instead_of_an_agreement_count() -> None:
    catalogue = load_scenario("incomplete_run")
    short = catalogue.get("eval-nt-rewire-short", Evaluation)
    only = short.model_copy(update={"results": short.results[:1]})
    records = [r for r in catalogue.by_id.values() if r.id != short.id]
    made = reproduction(only, Catalogue.from_records([*records, only]))
    assert made is not None
    assert made.agree_count == made.disagree_count == 0
    assert made.summary.startswith("The measurement is an incomplete run")
    assert "no ratio or agreement is computed" in made.summary


def test_one_group_per_published_evaluation_with_every_reproduction_closest_first() -> None:
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
    # Rows sorted by |ratio - 1|: 34.2 / 33.88 = 1.009 before 31 / 33.88 = 0.915.
    assert [(r.setup, r.pair.measured_display) for r in checkpointing.rows] == [
        ("fp32-autocast · full", "34.2"),
        ("bf16 · full", "31"),
    ]
    assert [r.setup for r in deepspeed.rows] == ["bf16 · full", "fp32-autocast · full"]
    distances = [r.distance for r in checkpointing.rows]
    assert distances == sorted(d for d in distances if d is not None)
    # Tolerance 10%: 34.2 and 31 agree, 14 and 16.7 do not.
    assert group.summary == "2 of 4 reproduced values within the protocol's tolerance of ±10%."
    assert (group.agree_count, group.disagree_count) == (2, 2)
    # Every measurement ran on an H200 (the protocol's is an H100): all are excluded, so
    # the closest is named as the nearest ratio, not as a comparable result.
    assert checkpointing.closest_text == (
        "Closest: fp32-autocast · full, ratio 1.01. Every reproduction here is excluded "
        "from comparisons (Hardware differs from the protocol), so this is the nearest "
        "ratio, not a comparable result."
    )
    # The baseline out-of-memory run has no published counterpart.
    assert group.unmatched == (
        "NT 2.5B training peak memory, Rewire measurement on H200: baseline",
    )
    # Estimates: one per distinct label and value; a repeated label names its setup.
    assert [e.label for e in checkpointing.estimates] == [
        "model-state floor (fp32-autocast · full)",
        "model-state floor (bf16 · full)",
    ]


def test_group_chart_has_a_bar_per_reproduction_labelled_by_setup() -> None:
    catalogue = load_scenario("setup_rows")
    (group,) = protocol_reproduction_groups(catalogue.get("repro-peak-memory", Protocol), catalogue)
    chart = group.chart
    assert chart is not None
    labels = [[(b.series, b.label) for b in g.bars] for g in chart.groups]
    assert labels[0] == [
        ("published", "Published"),
        ("reproduced", "fp32-autocast · full"),
        ("reproduced", "bf16 · full"),
        ("estimate", "Estimate: model-state floor (fp32-autocast · full)"),
        ("estimate", "Estimate: model-state floor (bf16 · full)"),
    ]
    bars = [b for g in chart.groups for b in g.bars]
    scale = (chart.plot_right - chart.plot_left) / chart.axis_max
    for bar in bars:
        assert bar.x == chart.plot_left
        assert bar.value is not None and bar.width == pytest.approx(bar.value * scale, abs=0.01)
        assert chart.plot_top <= bar.y < chart.plot_bottom
    ys = [b.y for b in bars]
    assert ys == sorted(ys) and len(set(ys)) == len(ys)  # no two bars overlap
    assert chart.groups[0].bars[1].display == "34.2 (ratio 1.01)"
    assert chart.plot_left >= max(len(b.label) for b in bars) * 6  # labels fit their column


def test_without_tolerance_groups_compute_no_agreement_and_say_so() -> None:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol).model_copy(update={"tolerance": None})
    published = catalogue.get("eval-nt-published", Evaluation)
    group = reproduction_group(
        published.model_copy(update={"protocol": protocol.id}),
        catalogue.evaluations_of(protocol.id),
        _with_protocol(catalogue, protocol),
    )
    assert group is not None
    assert group.summary == "The protocol sets no tolerance, so no agreement is computed."
    states = {r.pair.agreement.state for c in group.columns for r in c.rows}
    assert states == {"no_tolerance"}
    assert (group.agree_count, group.disagree_count) == (0, 0)


def _with_protocol(catalogue: Catalogue, protocol: Protocol) -> Catalogue:
    records = [protocol if r.id == protocol.id else r for r in catalogue.by_id.values()]
    return Catalogue.from_records(records)


def test_evaluation_pages_get_their_own_group() -> None:
    catalogue = load_scenario("setup_rows")
    measured = catalogue.get("eval-nt-rewire-fp32-ds", Evaluation)
    (own,) = evaluation_reproductions(measured, catalogue)
    assert own.measured_evaluation_ids == ("eval-nt-rewire-fp32-ds",)
    assert [c.column_id for c in own.columns] == ["deepspeed"]
    published = catalogue.get("eval-nt-published", Evaluation)
    (every,) = evaluation_reproductions(published, catalogue)
    assert len(every.measured_evaluation_ids) == 3


def test_incomplete_runs_sort_last_and_are_never_closest() -> None:
    catalogue = load_scenario("incomplete_run")
    (group,) = protocol_reproduction_groups(catalogue.get("repro-peak-memory", Protocol), catalogue)
    checkpointing = group.columns[0]
    assert [r.measured_evaluation_id for r in checkpointing.rows] == [
        "eval-nt-rewire",
        "eval-nt-rewire-short",
    ]
    last = checkpointing.rows[-1]
    assert last.distance is None and last.pair.agreement.state == "not_comparable"
    # One reproduction with a ratio: nothing to be closest among, and it says so plainly.
    assert checkpointing.closest_text == (
        "Reproduced by NT 2.5B training peak memory, Rewire measurement on H200, ratio 0.91. "
        "It is excluded from comparisons (Hardware differs from the protocol)."
    )
