"""The comparability guard (derive/comparability.py): results are ranked together only
when their recorded conditions match, best needs two comparable values, and the reason a
result is not ranked is named."""

from __future__ import annotations

import pytest
from scenarios import load_scenario

from rewire_site.derive.comparability import (
    ANY_HARDWARE,
    Conditions,
    Entry,
    conditions,
    hardware_blocks,
    input_length,
    length_unit,
    protocol_depends_on_hardware,
    ranking_value,
    standings,
)
from rewire_site.derive.tables import comparison_table, protocol_tables
from rewire_site.models import Evaluation, Protocol

FINE_TUNED = Conditions("fine-tuned", "test", "mcc in score", "tokens", ANY_HARDWARE)
FROZEN = Conditions("frozen, probed", "test", "mcc in score", "tokens", ANY_HARDWARE)


def test_best_needs_two_comparable_values() -> None:
    ranking = standings([Entry(0.5, FINE_TUNED)], "higher")
    (only,) = ranking.standings
    assert only.state == "alone" and not only.best
    assert only.label == "no comparable result"
    assert ranking.groups == ()


def test_different_conditions_are_never_ranked_together() -> None:
    ranking = standings([Entry(0.9, FINE_TUNED), Entry(0.5, FROZEN)], "higher")
    assert [s.state for s in ranking.standings] == ["alone", "alone"]
    # Two of each condition: one best per group.
    ranking = standings(
        [
            Entry(0.9, FINE_TUNED),
            Entry(0.8, FINE_TUNED),
            Entry(0.5, FROZEN),
            Entry(0.6, FROZEN),
        ],
        "higher",
    )
    assert [s.state for s in ranking.standings] == ["best", "ranked", "ranked", "best"]
    assert ranking.standings[0].label == "best of 2 comparable"
    assert len(ranking.groups) == 2


def test_unstated_conditions_and_excluded_results_are_shown_not_ranked() -> None:
    unstated = Conditions("fine-tuned", "test", "mcc in score", None, ANY_HARDWARE)
    ranking = standings(
        [
            Entry(0.9, FINE_TUNED),
            Entry(0.8, FINE_TUNED, ("Evidence concern",)),
            Entry(0.95, unstated),
            Entry(None, FINE_TUNED),
        ],
        "higher",
    )
    states = [s.state for s in ranking.standings]
    assert states == ["alone", "excluded", "unstated", "no_value"]
    assert ranking.standings[1].label == "excluded from comparisons: Evidence concern"
    assert ranking.standings[2].label == "not ranked: length unit not stated"


def test_lower_is_better_picks_the_smallest() -> None:
    ranking = standings([Entry(3.0, FINE_TUNED), Entry(1.0, FINE_TUNED)], "lower")
    assert [s.best for s in ranking.standings] == [False, True]


def test_length_units_read_from_settings() -> None:
    assert length_unit({"length": "1000nt"}) == "nucleotides"
    assert length_unit({"length": "512tok"}) == "tokens"
    assert length_unit({"length_unit": "tokens"}) == "tokens"
    assert length_unit({"length": "1000"}) is None
    assert length_unit({}) is None


def test_seed_published_values_are_not_ranked_while_the_length_unit_is_unstated() -> None:
    """Defect 4: GENA-LM 1.18 GB was 'best in column' against NT 33.88 GB although the
    page's own concern says the two may count length in different units."""
    catalogue = load_scenario("seed_memory")
    protocol = catalogue.get("training-peak-memory", Protocol)
    table = comparison_table(protocol, catalogue)
    cells = [c for r in table.rows for c in r.cells if c.status == "value"]
    assert cells and not any(c.best for c in cells)
    assert {c.standing_state for c in cells} == {"unstated"}
    assert all("length unit" in c.standing for c in cells)


def test_measurements_rank_only_within_matching_setups() -> None:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.get("repro-peak-memory", Protocol)
    tables = protocol_tables(protocol, catalogue)
    assert tables.measurements is not None
    for row in tables.measurements.rows:
        for cell in row.cells:
            if cell.best:
                assert cell.standing.startswith("best of ")
                assert int(cell.standing.split()[2]) >= 2


def test_hardware_counts_only_where_the_protocol_declares_it() -> None:
    memory = load_scenario("reproduction")
    protocol = memory.get("repro-peak-memory", Protocol)
    assert not protocol_depends_on_hardware(protocol)
    measured = memory.get("eval-nt-rewire", Evaluation)
    published = memory.get("eval-nt-published", Evaluation)
    assert conditions(measured, measured.results[0], protocol, memory).hardware == ANY_HARDWARE
    assert hardware_blocks(measured, published, protocol, memory) is None
    runtime = load_scenario("ia3_conflict")
    ia3 = next(p for p in runtime.protocols())
    assert protocol_depends_on_hardware(ia3)
    undeclared = ia3.model_copy(update={"hardware_dependence": None})
    assert protocol_depends_on_hardware(undeclared)  # cautious when undeclared


def test_a_fraction_and_a_percent_of_one_score_rank_on_the_metric_scale() -> None:
    from rewire_site.models.common import Scale

    catalogue = load_scenario("seed_memory")
    protocol = catalogue.get("training-peak-memory", Protocol)
    percent = protocol.model_copy(
        update={"metric": protocol.metric.model_copy(update={"scale": Scale.percent})}
    )
    evaluation = catalogue.get("eval-nt-checkpointing", Evaluation)
    as_fraction = evaluation.results[0].model_copy(
        update={"value": 0.6191, "scale": Scale.fraction}
    )
    as_percent = evaluation.results[0].model_copy(update={"value": 61.91, "scale": None})
    assert ranking_value(percent, as_fraction) == pytest.approx(61.91)
    assert ranking_value(percent, as_percent) == pytest.approx(61.91)
    ranking = standings(
        [Entry(ranking_value(percent, as_fraction), FINE_TUNED), Entry(60.0, FINE_TUNED)],
        "higher",
    )
    assert [s.best for s in ranking.standings] == [True, False]


def test_results_at_different_input_lengths_are_never_ranked_together() -> None:
    """A peak at 512 tokens and one at 1,000 tokens (or a 1k-token checkpoint and a
    1M-token one) are not comparable: each length is its own group."""
    at_512 = Conditions("full", "test", "peak in GB", "tokens", ANY_HARDWARE, "512 tokens")
    at_1000 = Conditions("full", "test", "peak in GB", "tokens", ANY_HARDWARE, "1000 tokens")
    ranking = standings(
        [Entry(2.0, at_512), Entry(9.0, at_1000), Entry(3.0, at_512)], direction="lower"
    )
    assert [s.state for s in ranking.standings] == ["best", "alone", "ranked"]
    assert ranking.standings[0].group_size == 2
    assert "input length 512 tokens" in ranking.groups[0].text


def test_input_length_reads_length_then_tokens_per_sequence() -> None:
    assert input_length({"length": "1000 nt", "tokens_per_sequence": "171"}) == "1000nt"
    assert input_length({"tokens_per_sequence": "512"}) == "512 tokens"
    assert input_length({"length": "unstated"}) == ""
    assert input_length({}) == ""


def test_measurements_of_one_competitor_are_not_ranked_against_each_other() -> None:
    """Two measurements of one configuration (or one measured setup) are one point measured
    twice, not two competitors: best needs comparable values of two different ones, and the
    group size counts competitors."""
    twice = standings([Entry(25.6, FINE_TUNED, (), "a"), Entry(25.7, FINE_TUNED, (), "a")], "lower")
    assert [s.state for s in twice.standings] == ["alone", "alone"]
    assert twice.groups == ()
    rivals = standings(
        [
            Entry(25.6, FINE_TUNED, (), "a"),
            Entry(25.7, FINE_TUNED, (), "a"),
            Entry(30.0, FINE_TUNED, (), "b"),
        ],
        "lower",
    )
    assert [s.state for s in rivals.standings] == ["best", "ranked", "ranked"]
    assert rivals.standings[0].label == "best of 2 comparable"
    # Entries that name no competitor stay competitors of each other.
    unnamed = standings([Entry(1.0, FINE_TUNED), Entry(2.0, FINE_TUNED)], "lower")
    assert [s.state for s in unnamed.standings] == ["best", "ranked"]
