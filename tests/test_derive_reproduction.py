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
