"""The compile-cache setting an IA3 record states: cold, warm on the same machine, or
carried from another machine, with the hit and miss counts the worker read from torch."""

from __future__ import annotations

from pathlib import Path

from measure.ia3.build import _cache_setting
from measure.ia3.evidence import RunLog


def log(cache: dict[str, object] | None, compile_mode: str = "reduce-overhead") -> RunLog:
    return RunLog(
        path=Path("x.json"), data={"settings": {"compile": compile_mode}, "compile_cache": cache}
    )


BASE = {"dir": "/tmp/c", "fx_graph_cache": "1", "autograd_cache": "1"}


def test_cold_warm_and_carried_read_differently() -> None:
    cold = _cache_setting(log({**BASE, "files_at_start": 0}))["compile_cache"]
    warm = _cache_setting(log({**BASE, "files_at_start": 725}))["compile_cache"]
    carried = _cache_setting(
        log({**BASE, "files_at_start": 725, "origin": "carried from run R on another machine"})
    )["compile_cache"]
    assert cold.startswith("cold:")
    assert warm.startswith("warm: 725 files") and "same machine" in warm
    assert carried.startswith("carried: 725 files") and "run R on another machine" in carried
    assert "same machine" not in carried


def test_hits_and_misses_are_stated_when_recorded() -> None:
    text = _cache_setting(
        log(
            {
                **BASE,
                "files_at_start": 10,
                "fx_graph_cache_hit": 3,
                "fx_graph_cache_miss": 0,
                "autograd_cache_hit": 2,
                "autograd_cache_miss": 1,
            }
        )
    )["compile_cache"]
    assert "FX graph cache 3 hits and 0 misses" in text
    assert "AOTAutograd cache 2 hits and 1 misses" in text
    # a log from before the counters were recorded says nothing about hits
    assert "hits" not in _cache_setting(log({**BASE, "files_at_start": 10}))["compile_cache"]


def test_no_setting_without_compilation() -> None:
    assert _cache_setting(log({**BASE, "files_at_start": 10}, compile_mode="none")) == {}
