"""`reproduces` cycles (issue 28): evaluations that reproduce each other, through a chain
of any length, are an error at each member; a chain that ends is not."""

from __future__ import annotations

import time
from pathlib import Path

from rewire_site.link_checks import reproduction_cycles
from rewire_site.load import load_file
from rewire_site.models import Evaluation, RecordBase

FIXTURE = Path(__file__).parent / "fixtures" / "minimal" / "records"
BASE = load_file(FIXTURE / "fx-eval.yaml").data


def evaluation(record_id: str, reproduces: str | None) -> Evaluation:
    data = {**BASE, "id": record_id}
    if reproduces is not None:
        data["reproduces"] = reproduces
    return Evaluation.model_validate(data)


def universe(edges: dict[str, str | None]) -> dict[str, RecordBase]:
    return {record_id: evaluation(record_id, target) for record_id, target in edges.items()}


def test_two_evaluations_that_reproduce_each_other() -> None:
    found = reproduction_cycles(universe({"a": "b", "b": "a", "c": "a", "d": None}))
    assert {key: cycle.path() for key, cycle in found.items()} == {
        "a": ["a", "b", "a"],
        "b": ["b", "a", "b"],
    }


def test_a_cycle_at_the_end_of_a_chain_names_only_its_members() -> None:
    found = reproduction_cycles(
        universe({"t1": "t2", "t2": "x", "x": "y", "y": "z", "z": "x", "self": "self"})
    )
    assert sorted(found) == ["x", "y", "z"]
    assert found["y"].path() == ["y", "z", "x", "y"]


def test_chains_without_a_cycle_and_unknown_targets_are_not_cycles() -> None:
    assert reproduction_cycles(universe({"a": "b", "b": "c", "c": None, "d": "missing"})) == {}


def test_a_long_chain_is_walked_in_linear_time() -> None:
    """20,000 evaluations in one chain: each is walked once (a walk from every record
    would take 200 million steps)."""
    one = evaluation("e0", None)
    chain: dict[str, RecordBase] = {
        f"e{i}": one.model_copy(update={"id": f"e{i}", "reproduces": f"e{i + 1}"})
        for i in range(20_000)
    }
    started = time.perf_counter()
    assert reproduction_cycles(chain) == {}
    chain["e20000"] = one.model_copy(update={"id": "e20000", "reproduces": "e0"})
    found = reproduction_cycles(chain)
    assert len(found) == 20_001
    assert found["e7"].path(3) == ["e7", "e8", "e9", ""]
    assert time.perf_counter() - started < 5
