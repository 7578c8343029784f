"""'Where sources overlap' on the task and model pages, and downloads/cross-source.csv
(render/cross_source.py), on the scenario `tests/fixtures/cross_source` (see
tests/test_derive_cross_source.py for what it holds)."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest
from htmltext import text_of

from rewire_site.build import build_site

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "cross_source"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cross") / "project"
    shutil.copytree(FIXTURE, root)
    out = root / "site"
    build_site(root, out, release_date="2026-12-02", workers=1)
    return out


def _section(html: str) -> str:
    start = html.index('<section class="cross-source"')
    return html[start : html.index("</section>", start)]


def test_the_task_page_sets_both_sources_side_by_side(site: Path) -> None:
    text = text_of(_section((site / "tasks/cs-task-h3/index.html").read_text("utf-8")))
    assert "5 pairs, 3 differing by more than the stated spread, 1 within it, 1 not judged" in text
    assert "0.52 ± 0.02 (sd of 3 runs)" in text
    assert "0.6 (one run, spread not stated)" in text
    assert "+0.08" in text
    assert "Spread not stated: not judged" in text
    assert "Conflicts within one source" in text
    assert "agrees" not in text.lower()
    # the related promoter tasks are two pages, neither with the section
    for task in ("cs-task-prom", "cs-task-prom-b"):
        assert 'class="cross-source"' not in (site / f"tasks/{task}/index.html").read_text()


def test_the_model_page_lists_its_checkpoint_pairs_with_their_task(site: Path) -> None:
    html = (site / "families/cs-family/index.html").read_text("utf-8")
    section = _section(html)
    assert 'href="../../tasks/cs-task-h3/index.html"' in section
    assert text_of(section).count("example/fixture-lm") >= 5


def test_the_download_holds_every_pair_and_conflict(site: Path) -> None:
    rows = list(csv.DictReader(io.StringIO((site / "downloads/cross-source.csv").read_text())))
    verdicts = sorted(r["verdict"] for r in rows)
    assert verdicts == sorted(
        ["Differs by more than the stated spread"] * 3
        + ["Within the stated spread", "Spread not stated: not judged"]
        + ["Conflict: one source gives two values"]
    )
    mcc = [r for r in rows if r["metric"] == "mcc" and r["first source"] == "Bench A 2026"]
    assert {(r["first value"], r["first spread (sd)"], r["first n"]) for r in mcc} == {
        ("0.52", "0.02", "3")
    }


def test_a_long_list_keeps_the_largest_disagreements_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scenarios import load_scenario

    from rewire_site.derive.cross_source import cross_source
    from rewire_site.render import cross_source as render
    from rewire_site.render.chooser.pages import task_path

    catalogue = load_scenario("cross_source")
    monkeypatch.setattr(render, "ROW_LIMIT", 2)
    found = render.section(cross_source(catalogue), catalogue, "on this task", task_path)
    assert [(r.second.label, r.difference) for r in found.rows] == [
        ("fixture-lm-copy, batch size 32", "+0.09"),
        ("fixture-lm-v1, batch size 32", "+0.08"),
    ]
    assert "Listed: the 2 pairs furthest beyond what the stated spread allows" in found.summary
    assert "5 pairs" in found.summary
