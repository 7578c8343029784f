"""The comparability guard (derive/comparability.py): results are ranked together only
when their recorded conditions match, best needs two comparable values, and the reason a
result is not ranked is named."""

from __future__ import annotations

from pathlib import Path

import pytest
from scenarios import load_scenario

from rewire_site.derive.comparability import (
    ANY_HARDWARE,
    ROUNDING_MARGIN,
    Conditions,
    Entry,
    compare,
    conditions,
    hardware_blocks,
    input_length,
    last_digit,
    length_unit,
    protocol_depends_on_hardware,
    ranking_value,
    standings,
    stated_uncertainty,
)
from rewire_site.models import Evaluation, Protocol
from rewire_site.render.comparison_table import comparison_table, protocol_tables

FINE_TUNED = Conditions("fine-tuned", "test", "mcc in score", "tokens", ANY_HARDWARE)
FROZEN = Conditions("frozen, probed", "test", "mcc in score", "tokens", ANY_HARDWARE)


def test_best_needs_two_comparable_values() -> None:
    ranking = standings([Entry(0.5, FINE_TUNED)], "higher")
    (only,) = ranking.standings
    assert only.state == "alone" and not only.best
    assert only.group_size == 1
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
    assert ranking.standings[0].group_size == 2
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
    assert ranking.standings[1].excluded_by == ("Evidence concern",)
    assert ranking.standings[2].unstated == ("length_unit",)


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
    assert ranking.groups[0].input_length == "512 tokens"


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
    assert rivals.standings[0].group_size == 2  # two competitors, three values
    # Entries that name no competitor stay competitors of each other.
    unnamed = standings([Entry(1.0, FINE_TUNED), Entry(2.0, FINE_TUNED)], "lower")
    assert [s.state for s in unnamed.standings] == ["best", "ranked"]


def test_a_lead_within_the_margin_is_a_tie_not_a_best_mark() -> None:
    # 61.9 and 61.88: the lead (0.02) is within half a unit of 61.9's last digit (0.05).
    ranking = standings(
        [
            Entry(61.9, FINE_TUNED, competitor="a", margin=0.05),
            Entry(61.88, FINE_TUNED, competitor="b", margin=0.005),
            Entry(55.0, FINE_TUNED, competitor="c", margin=0.05),
        ],
        "higher",
    )
    assert [s.state for s in ranking.standings] == ["tied", "tied", "ranked"]
    assert ranking.standings[0].group_size == 3
    assert not any(s.best for s in ranking.standings)
    # Beyond the margin the leader is best; lower is better reads the other way.
    ranking = standings(
        [Entry(61.9, FINE_TUNED, margin=0.05), Entry(61.8, FINE_TUNED, margin=0.05)], "higher"
    )
    assert [s.state for s in ranking.standings] == ["best", "ranked"]
    ranking = standings(
        [Entry(3.0, FINE_TUNED, margin=0.5), Entry(3.4, FINE_TUNED, margin=0.05)], "lower"
    )
    assert [s.state for s in ranking.standings] == ["tied", "tied"]
    # Equal values of two competitors were both 'best'; they are a tie.
    ranking = standings([Entry(0.5, FINE_TUNED), Entry(0.5, FINE_TUNED)], "higher")
    assert [s.state for s in ranking.standings] == ["tied", "tied"]
    # One competitor measured twice within its margin is still best alone.
    ranking = standings(
        [
            Entry(0.9, FINE_TUNED, competitor="a", margin=0.05),
            Entry(0.88, FINE_TUNED, competitor="a", margin=0.05),
            Entry(0.5, FINE_TUNED, competitor="b", margin=0.05),
        ],
        "higher",
    )
    assert [s.state for s in ranking.standings] == ["best", "ranked", "ranked"]


def test_margins_come_from_the_printed_digits_or_the_stated_uncertainty() -> None:
    assert last_digit("61.9") == pytest.approx(0.1)
    assert last_digit("1,234") == 1 and last_digit("2.5e-3") == pytest.approx(1e-4)
    assert last_digit("0.0229731335046838") == pytest.approx(1e-16)
    assert last_digit("n/a") is None
    assert stated_uncertainty("± 0.3 (s.d., 3 seeds)", 61.9) == pytest.approx(0.3)
    assert stated_uncertainty("±2%", 50.0) == pytest.approx(1.0)
    assert stated_uncertainty("95% CI 0.80-0.84", 0.82) == pytest.approx(0.02)
    assert stated_uncertainty("three seeds", 0.82) is None
    assert stated_uncertainty(None, 0.82) is None
    assert ROUNDING_MARGIN == 0.5
    assert compare(0.9436, 0.0, 0.94, 0.005, "higher") == "tie"
    assert compare(0.9436, 0.0, 0.93, 0.005, "higher") == "first"
    assert compare(12.0, 0.05, 10.0, 0.05, "lower") == "second"


GM12878 = "feng-2024-protocol-gm12878"


def test_a_real_lead_within_the_printed_digits_is_a_tie(tmp_path: Path) -> None:
    """Feng et al.'s GM12878 accuracy: DNABERT-2 (mean pooling) 0.9436363636363636 and
    NT-v2 (mean pooling) printed '0.94' (anything from 0.935 to 0.945): the lead is within
    that margin, so neither is best (the first was 'best of 6 comparable'), and their
    compare/ page says tie, not a win."""
    from scenarios import copy_closure

    from rewire_site.build import gather
    from rewire_site.derive.overlaps import better

    root = Path(__file__).resolve().parents[1]
    ids = [
        f"feng-2024-eval-{m}-gm12878-accuracy"
        for m in ("dnabert-2-mean", "dnabert-2-summary", "nt-v2-500m-mean", "nt-v2-500m-summary")
    ]
    copy_closure(ids, root / "records", tmp_path / "records")
    catalogue = gather(tmp_path / "records", tmp_path).catalogue
    table = comparison_table(catalogue.get(GM12878, Protocol), catalogue)
    cells = {r.configuration_id: r.cells[0] for r in table.rows}
    dnabert = cells["feng-2024-config-dnabert-2-mean-pooling"]
    nt = cells["feng-2024-config-nt-v2-500m-mean-pooling"]
    assert (dnabert.printed_value, nt.printed_value) == ("0.9436363636363636", "0.94")
    assert dnabert.standing_state == nt.standing_state == "tied"
    assert dnabert.standing == "tied for best of 4 comparable" and not dnabert.best
    assert nt.rank_margin == pytest.approx(0.005)
    pair = [catalogue.get(i, Evaluation) for i in ids[0::2]]
    protocol = catalogue.get(GM12878, Protocol)
    entries = [(e, e.results[0], protocol) for e in pair]
    assert better(entries[0], entries[1]) == "tie"
