"""`rewire serve` keeps each protocol's coverage row and each evaluation's filter-page row
between edits (memo pieces, render/index.py): an edit makes again only the rows whose
inputs it changed, and the kept rows equal rows computed from scratch.

The fixed catalogue of tests/test_incremental.py, through `IncrementalSite` itself (its
full preview build, then `update`); test_incremental compares every file with a full
`rewire build --preview` after each edit.
"""

from __future__ import annotations

import weakref
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_incremental import (
    EVALUATION,
    RELEASE_DATE,
    UNCITED_EVALUATION,
    _value,
    differing,
    full_preview,
    make_project,
    record,
    replace_in,
)

from rewire_site.derive.coverage import protocol_coverage
from rewire_site.incremental import IncrementalSite
from rewire_site.models import Evaluation
from rewire_site.render import index
from rewire_site.render.contexts import FilterRow, Link, SharedRows


def _pieces(site: IncrementalSite, tag: str) -> dict[str, Any]:
    """The memo's pieces of one kind by their id: ('coverage', protocol id) or ('filter
    row', evaluation id)."""
    return {k[1]: v[0] for k, v in site.memo.items.items() if k[0] == tag}


def _fresh_rows(site: IncrementalSite) -> dict[str, FilterRow]:
    """Every filter page's rows built from scratch (no memo), by evaluation id."""
    plan = site.plan
    assert plan is not None
    found: dict[str, FilterRow] = {}
    for (key, value), ids in plan.members.items():
        page = index.filter_page(key, value, ids, plan.catalogue, plan.facts)
        assert page.shared_rows is None
        found.update(zip(ids, page.rows, strict=True))
    return found


@pytest.mark.slow
def test_serve_remakes_only_the_coverage_and_filter_rows_an_edit_touches(tmp_path: Path) -> None:
    project = make_project(tmp_path / "project")
    site = IncrementalSite(
        project,
        project / "records",
        project / "site",
        release_date=RELEASE_DATE,
        workers=1,
        log=print,
    )
    site.build()
    assert site.plan is not None
    protocols = [p.id for p in site.plan.catalogue.protocols()]
    edited = site.plan.catalogue.get(EVALUATION, Evaluation)
    # after the full build, every row is kept (made once more in this process)
    coverage, rows = _pieces(site, "coverage"), _pieces(site, "filter row")
    assert list(coverage) == protocols and len(protocols) > 1
    assert tuple(coverage.values()) == protocol_coverage(site.plan.catalogue)
    assert rows == _fresh_rows(site) and len(rows) > 1
    assert isinstance(site.memo.rows["filter rows"], SharedRows)
    listed = _pieces(site, "list row")  # the rows of family, dataset and question pages
    assert EVALUATION in listed and len(listed) > 1
    assert isinstance(site.memo.rows["evaluation list rows"], SharedRows)

    # one evaluation's value: its protocol's coverage row and its own filter row are
    # made again; every other row is the very object kept before
    _value(project)
    site.update([record(project, EVALUATION)])
    now_coverage, now_rows = _pieces(site, "coverage"), _pieces(site, "filter row")
    assert [p for p in protocols if now_coverage[p] is not coverage[p]] == [edited.protocol]
    assert [i for i in rows if now_rows[i] is not rows[i]] == [EVALUATION]
    now_listed = _pieces(site, "list row")
    assert [i for i in listed if now_listed[i] is not listed[i]] == [EVALUATION]
    assert tuple(now_coverage[p] for p in protocols) == protocol_coverage(site.plan.catalogue)
    assert now_rows == _fresh_rows(site)

    # its protocol's title: every filter row of that protocol shows the new title
    path = record(project, edited.protocol)
    old = next(t for t in path.read_text(encoding="utf-8").splitlines() if t.startswith("title:"))
    replace_in(path, old, "title: A protocol retitled by the test")
    site.update([path])
    retitled = _pieces(site, "filter row")
    under = {e.id for e in site.plan.catalogue.evaluations_of(edited.protocol)}
    assert {i for i in rows if retitled[i] is not now_rows[i]} == under & set(rows)
    assert retitled == _fresh_rows(site)
    assert retitled[EVALUATION].protocol.text == "A protocol retitled by the test"
    retitled_coverage = _pieces(site, "coverage")
    assert tuple(retitled_coverage[p] for p in protocols) == protocol_coverage(site.plan.catalogue)
    assert retitled_coverage[edited.protocol].title == "A protocol retitled by the test"

    # a deleted evaluation: its protocol's row counts one evaluation fewer, its filter
    # row is gone, and the pages read as a full preview build's
    gone = site.plan.catalogue.get(UNCITED_EVALUATION, Evaluation)
    before = _pieces(site, "coverage")[gone.protocol]
    record(project, UNCITED_EVALUATION).unlink()
    site.update([record(project, UNCITED_EVALUATION)])
    after = _pieces(site, "coverage")
    assert after[gone.protocol].evaluations == before.evaluations - 1
    assert tuple(after[p] for p in protocols) == protocol_coverage(site.plan.catalogue)
    assert UNCITED_EVALUATION not in _pieces(site, "filter row")
    assert differing(project / "site", full_preview(project, tmp_path / "reference")) == []


def test_shared_rows_render_each_row_once_and_keep_no_row_alive() -> None:
    """The filter rows' HTML cache lives as long as `rewire serve`: it renders a row
    object once per page depth, and keeps no row alive (the HTML of dropped rows goes)."""
    made: list[str] = []

    def render(page: Any, row: Link) -> str:
        made.append(row.text)
        return f"<tr><td>{page.root}{row.href}</td><td>{row.text}</td></tr>"

    shared, page = SharedRows(), SimpleNamespace(root="../../")
    rows = [Link(f"row {i}", f"e/{i}/") for i in range(3000)]
    first = [shared(render, page, r) for r in rows]
    assert first == [render(page, r) for r in rows]
    made.clear()
    assert [shared(render, page, r) for r in rows] == first and made == []
    assert shared.hits == 3000
    assert shared(render, SimpleNamespace(root="../"), rows[0]) == render(
        SimpleNamespace(root="../"), rows[0]
    )
    probe = weakref.ref(rows[0])
    # an equal row that is another object is rendered again (identity, not value)
    made.clear()
    assert shared(render, page, Link("row 1", "e/1/")) == first[1] and made == ["row 1"]
    del rows, first
    assert probe() is None  # no row kept alive by the cache
    fresh = [Link(f"new {i}", f"e/{i}/") for i in range(3000)]
    for r in fresh:
        shared(render, page, r)
    assert shared.kept < 6000  # the dead rows' HTML was dropped as the cache grew
