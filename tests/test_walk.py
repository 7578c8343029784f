"""scripts/walk.py, the tracer of one evaluation's walk (issue 26): it follows the page
from its context builder to its written file and counts stays, modules and returns."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
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


STAYS, MODULES, RETURNS = 471, 32, 439
"""One evaluation's walk as it stands (the reproduction fixture's measurement page): a
ratchet, lower them when the walk gets shorter. The aim (issue 26) is 9 modules and 5
returns. Raised once, from 529 stays in 28 modules and 501 returns, when derive/display.py
(101 stays in one module) was split by job into render/present/ (numbers, metrics,
missing, agreement, flags, durations, review): a helper calling another module's helper
(an agreement's percent rounds through `present.numbers`) is a stay and a return more.
Raised again, from 487 stays in 32 modules and 455 returns, when the relation labels left
derive/related.py for render/present/relations.py (issue 26: derive/ holds no words; the
page words each relation there: 5 stays, 1 module)."""

DERIVE_STILL_ENTERED = frozenset({"scales"})
"""derive/ modules the page job still enters: a metric's scale (a ratchet: it may only
shrink; the hash of a readiness fact left with the fragment cache it keyed; display and
tables left it when derive/ stopped making reader text, agreement when an agreement's
read facts became fields).
The evaluation's derived facts themselves are computed before the page, by the derive
stage (`derive.evaluation_facts`)."""


@cache
def _stays() -> tuple[str, ...]:
    """The stays of the fixture's walk, traced once for the tests below."""
    stays: tuple[str, ...] = evaluation_walk(FIXTURE)[0].stays
    return stays


def test_the_walk_gets_no_longer() -> None:
    walk = Walk(_stays())
    assert len(walk.stays) <= STAYS
    assert walk.modules <= MODULES
    assert walk.returns <= RETURNS


def test_the_page_job_derives_nothing() -> None:
    prefix = "rewire_site.derive."
    entered = {m.removeprefix(prefix) for m in _stays() if m.startswith(prefix)}
    assert entered <= DERIVE_STILL_ENTERED
    assert "rewire_site.derive.evaluation_facts" not in _stays()


def test_the_coarser_views_keep_the_walk_s_order_and_drop_its_detail() -> None:
    """`--calls` leaves out the returns to a caller; `--depth 2` keeps the page job and
    what it calls (the context builder, the renderer, the writer)."""
    full = Walk(_stays())
    calls, _ = evaluation_walk(FIXTURE, calls=True)
    top, _ = evaluation_walk(FIXTURE, depth=2)
    assert len(top.stays) < len(calls.stays) < len(full.stays)
    assert set(top.stays) <= set(calls.stays) == set(full.stays)
    assert top.stays[0] == "rewire_site.render.plan"
    assert "rewire_site.render.evaluation" in top.stays
    assert "rewire_site.write" in top.stays[-2:]  # the writer, then the file's hash
