"""derive.embed_time: 'how long to embed N sequences of L bp?' read from measured throughput
points, never extrapolated beyond the longest measured input."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from scenarios import copy_closure

from rewire_site.build import gather
from rewire_site.derive.embed_time import (
    SpeedPoint,
    embed_time,
    models,
    speed_points,
    tokens_for,
)

ROOT = Path(__file__).resolve().parents[1]


def _p(
    tokens: int, batch: int, sps: float, ratio: float | None = 6.0, model: str = "M"
) -> SpeedPoint:
    return SpeedPoint(
        f"e-{model}-{batch}-{tokens}", "fam", model, batch, tokens, sps, ratio, "H200"
    )


CURVE = [
    _p(64, 1, 100.0), _p(64, 32, 3000.0), _p(128, 32, 2000.0),
    _p(256, 1, 90.0), _p(256, 32, 1000.0), _p(512, 32, 400.0),
]  # fmt: skip


def test_the_time_is_read_at_the_shortest_measured_length_that_holds_the_sequence() -> None:
    assert tokens_for(600, 6.0) == 102  # 100 six-mers and two special tokens
    answer = embed_time(CURVE, "M", 1_000_000, 600)
    assert answer.outcome == "time" and answer.tokens_needed == 102
    assert answer.point is not None and (answer.point.tokens, answer.point.batch) == (128, 32)
    assert answer.seconds == pytest.approx(1_000_000 / 2000.0)
    # the fastest batch at that length
    assert embed_time(CURVE, "M", 10, 1000).point == CURVE[4]  # 169 tokens -> 256, batch 32


def test_no_answer_past_the_longest_measured_input_or_without_a_stated_ratio() -> None:
    too_long = embed_time(CURVE, "M", 10, 6000)  # 1,002 tokens > 512 measured
    assert (too_long.outcome, too_long.seconds, too_long.longest_tokens) == ("too-long", None, 512)
    bpe = [_p(64, 8, 500.0, ratio=None, model="B")]
    assert embed_time(bpe, "B", 10, 100).outcome == "no-ratio"
    assert embed_time(CURVE, "other", 10, 100).outcome == "not-measured"
    assert models([*CURVE, *bpe]) == (("fam", "M"), ("fam", "B"))


EVALS = (
    "rewire-20261202-embed-eval-nt-500m-embed-b32-1000tok",
    "rewire-20261202-embed-eval-nt-500m-embed-b32-512tok",
    "rewire-20261202-embed-eval-dnabert-2-embed-b32-512tok",
)


def test_points_are_read_from_the_throughput_records(tmp_path: Path) -> None:
    if not all((ROOT / "records" / f"{e}.yaml").exists() for e in EVALS):
        pytest.skip("the 2026-12-02 throughput records are not in records/")
    copy_closure(list(EVALS), ROOT / "records", tmp_path / "records")
    catalogue = gather(tmp_path / "records", tmp_path).catalogue
    points = {p.evaluation_id: p for p in speed_points(catalogue)}
    assert set(points) == set(EVALS)
    for ident in EVALS:
        record = yaml.safe_load((ROOT / "records" / f"{ident}.yaml").read_text(encoding="utf-8"))
        assert points[ident].sequences_per_second == record["results"][0]["value"]
        assert str(points[ident].tokens) == record["settings"]["tokens_per_sequence"]
    nt = points[EVALS[0]]
    assert nt.nucleotides_per_token == pytest.approx(6.0, abs=0.01)  # NT's 6-mers
    assert points[EVALS[2]].nucleotides_per_token is None  # DNABERT-2: no stated ratio
    answer = embed_time(tuple(points.values()), nt.model, 1_000_000, 5000)  # 836 tokens
    assert answer.point == nt and answer.seconds == pytest.approx(1e6 / nt.sequences_per_second)
    assert embed_time(tuple(points.values()), nt.model, 1, 6000).outcome == "too-long"
