"""derive/cross_source.py: the same checkpoint, task, metric and protocol class in two or
more sources, side by side, judged by one rule.

The scenario `tests/fixtures/cross_source` holds four fixture benchmarks on one model
checkpoint: A (fine-tuned, three seeds on H3), B (fine-tuned, one run, its H3 task merged
with A's by `same_task`, its promoter task only `related`; two labels of the checkpoint
with different values: a conflict; a family-level label), C (a frozen probe: another
protocol class) and D (fine-tuned, one run, accuracy only)."""

from __future__ import annotations

import pytest
from scenarios import load_scenario

from rewire_site.derive.cross_source import (
    Key,
    Overlap,
    Side,
    checkpoint_of,
    cross_source,
    disagreements,
    judge,
)
from rewire_site.derive.table_facts import repeat_positions, seed_aggregates
from rewire_site.link import Catalogue
from rewire_site.models import Configuration, ModelFamily, ResultTable

CHECKPOINT = "example/fixture-lm"


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_scenario("cross_source")


@pytest.fixture(scope="module")
def overlaps(catalogue: Catalogue) -> tuple[Overlap, ...]:
    return cross_source(catalogue)


def _one(overlaps: tuple[Overlap, ...], metric: str) -> Overlap:
    (found,) = [o for o in overlaps if o.key.metric == metric]
    return found


def _side(value: float, spread: float | None, source: str = "x", rounding: float = 0.0) -> Side:
    return Side(source, source, "t", "m", "d", (), value, spread, 1, rounding)


def test_only_keys_two_sources_share_within_one_protocol_class(
    overlaps: tuple[Overlap, ...],
) -> None:
    """H3 (A's and B's names merged by `same_task`) for MCC and accuracy, fine-tuned: the
    frozen probe (C), the promoter task (related, not merged) and the family-level label
    give no overlap."""
    assert {o.key for o in overlaps} == {
        Key("cs-family", CHECKPOINT, "cs-task-h3", metric, "fraction", "fine_tuned")
        for metric in ("mcc", "accuracy")
    }
    for overlap in overlaps:
        assert "cs-table-c" not in {s.record for s in overlap.sides}
        assert "FixtureLM-any" not in {s.label for s in overlap.sides}


def test_seeds_are_one_side_with_mean_spread_and_n(overlaps: tuple[Overlap, ...]) -> None:
    mcc = _one(overlaps, "mcc")
    (a,) = [s for s in mcc.sides if s.source == "bench-a"]
    assert a.n == 3 and a.lines == (2, 3, 4)
    assert a.value == pytest.approx(0.52)
    assert a.spread == pytest.approx(0.02)
    assert a.rounding == pytest.approx(0.005)
    assert a.source_name == "Bench A 2026"
    b_sides = [s for s in mcc.sides if s.source == "bench-b"]
    assert {s.label for s in b_sides} == {"fixture-lm-v1", "fixture-lm-copy"}
    assert all(s.spread is None and s.n == 1 for s in b_sides)
    assert {s.dataset for s in b_sides} == {"cs-task-h3-b"}


def test_a_difference_beyond_the_stated_spread_disagrees(overlaps: tuple[Overlap, ...]) -> None:
    mcc = _one(overlaps, "mcc")
    assert [j.verdict for j in mcc.judgements] == ["disagrees", "disagrees"]
    for j in mcc.judgements:
        assert {j.first.source, j.second.source} == {"bench-a", "bench-b"}
        assert j.allowed == pytest.approx(0.02 + 0.005 + 0.005)
    assert len(disagreements((mcc,))) == 2


def test_one_source_giving_two_values_for_one_key_is_a_conflict(
    overlaps: tuple[Overlap, ...],
) -> None:
    (conflict,) = _one(overlaps, "mcc").conflicts
    assert conflict.source == "bench-b"
    assert {conflict.first.value, conflict.second.value} == {0.60, 0.61}
    assert not _one(overlaps, "accuracy").conflicts


def test_verdicts_within_spread_and_spread_not_stated(overlaps: tuple[Overlap, ...]) -> None:
    """Accuracy: A (0.80 on three seeds, spread 0) and B (0.8012) are within A's stated
    spread plus rounding; A and D (0.7) differ beyond it; B and D state no spread."""
    accuracy = _one(overlaps, "accuracy")
    verdicts = {(j.first.source, j.second.source): j.verdict for j in accuracy.judgements}
    assert verdicts == {
        ("bench-a", "bench-b"): "within_spread",
        ("bench-a", "bench-d"): "disagrees",
        ("bench-b", "bench-d"): "spread_not_stated",
    }


def test_the_rule_never_judges_without_a_stated_spread() -> None:
    assert judge(_side(0.1, None), _side(0.9, None)).verdict == "spread_not_stated"
    assert judge(_side(0.5, None), _side(0.5, None)).verdict == "spread_not_stated"
    assert judge(_side(0.5, 0.1), _side(0.59, None)).verdict == "within_spread"
    assert judge(_side(0.5, 0.1), _side(0.61, None)).verdict == "disagrees"
    assert judge(_side(0.5, 0.1, rounding=0.05), _side(0.64, None)).verdict == "within_spread"
    found = judge(_side(0.5, 0.05), _side(0.4, 0.02))
    assert found.difference == pytest.approx(-0.1)
    assert found.allowed == pytest.approx(0.07)
    assert found.verdict == "disagrees"


def test_an_evaluation_names_a_checkpoint_by_its_name_and_revision() -> None:
    family = ModelFamily.model_validate(
        {
            "id": "f",
            "kind": "model_family",
            "title": "F",
            "summary": "s",
            "name": "F",
            "developers": ["d"],
            "papers": [],
            "architecture": "a",
            "tokenisation": "t",
            "checkpoints": [{"name": "org/model"}, {"name": "org/model-large"}],
        }
    )

    def config(checkpoint: str | None) -> Configuration:
        return Configuration.model_construct(checkpoint=checkpoint, family="f")

    assert checkpoint_of(config("org/model"), family) == "org/model"
    assert checkpoint_of(config("org/model (Hugging Face snapshot 1d02)"), family) == "org/model"
    assert checkpoint_of(config("org/model-large"), family) == "org/model-large"
    assert checkpoint_of(config("org/model-xl"), family) is None
    assert checkpoint_of(config(None), family) is None


def test_a_task_or_a_family_reads_its_own_keys(
    catalogue: Catalogue, overlaps: tuple[Overlap, ...]
) -> None:
    assert cross_source(catalogue, datasets=("cs-task-h3", "cs-task-h3-b")) == overlaps
    assert cross_source(catalogue, family="cs-family") == overlaps
    assert cross_source(catalogue, datasets=("cs-task-prom", "cs-task-prom-b")) == ()
    assert cross_source(catalogue, family="no-such-family") == ()


def test_seeds_and_replicate_numbers_are_repeat_settings(catalogue: Catalogue) -> None:
    """A table's seed and its replicate number both mark repeats (Lindsey et al.'s
    attention tables number ten replicates under one seed): rows differing only there
    are one setting, on the boards as in the pairs; a batch size is a setting."""
    assert repeat_positions(catalogue.get("cs-table-a", ResultTable)) == {0}
    assert repeat_positions(catalogue.get("cs-table-d", ResultTable)) == {0}
    assert repeat_positions(catalogue.get("cs-table-b", ResultTable)) == frozenset()
    table = catalogue.get("cs-table-a", ResultTable)
    rows = catalogue.result_rows.of_table("cs-table-a")
    (h3_mcc,) = [a for a in seed_aggregates(table, rows) if a.task == "H3" and a.metric == 0]
    assert (h3_mcc.n, h3_mcc.lines) == (3, (2, 3, 4))
