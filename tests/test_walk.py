"""scripts/walk.py, the tracer of one evaluation's walk (issue 26): it follows the page
from its context builder to its written file and counts stays, modules and returns."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from rewire_site.load import line_of

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "reproduction"
_SPEC = importlib.util.spec_from_file_location("walk", ROOT / "scripts" / "walk.py")
assert _SPEC is not None and _SPEC.loader is not None
walk_script = importlib.util.module_from_spec(_SPEC)
sys.modules["walk"] = walk_script  # dataclasses look their module up by name
_SPEC.loader.exec_module(walk_script)
Walk, evaluation_walk, trace = walk_script.Walk, walk_script.evaluation_walk, walk_script.trace


def test_counts() -> None:
    walk = Walk(("a", "b", "a", "c", "b"))
    assert (walk.modules, walk.returns) == (3, 2)


def test_a_call_in_one_module_is_one_stay() -> None:
    walk, value = trace(lambda: line_of({"a": 3}, "a.b"))
    assert value == 3
    assert walk.stays == ("rewire_site.load",)


def test_the_walk_runs_from_the_page_job_to_the_writer() -> None:
    walk, path = evaluation_walk(FIXTURE)
    assert path.startswith("evaluations/") and path.endswith("/index.html")
    assert walk.stays[0] == "rewire_site.render.plan"
    assert "rewire_site.render.evaluation" in walk.stays
    assert walk.stays[-1] == "rewire_site.write"
