"""A filter value's list of evaluations is split into pages of
`index.FILTER_ROWS_PER_PAGE` (issue 25 item 3: filters/origin/independent_paper was a
1.22 MB page): every evaluation is listed once, each page links to every part."""

from __future__ import annotations

from scenarios import load_scenario, scenario_root

from rewire_site.render import index
from rewire_site.render.derive_stage import plan_site
from rewire_site.render.urls import filter_path


def test_a_long_filter_list_is_split_into_linked_parts() -> None:
    catalogue = load_scenario("seed_memory")
    plan = plan_site(catalogue, scenario_root("seed_memory"), "2026-12-02", preview=True)
    (key, value), ids = max(plan.members.items(), key=lambda item: len(item[1]))
    assert len(ids) >= 3
    pages = index.filter_pages(key, value, ids, catalogue, plan.facts, per_page=2)
    assert len(pages) == (len(ids) + 1) // 2
    assert pages[0].path == filter_path(key, value)
    assert pages[1].path == filter_path(key, value).replace("index.html", "part-2/index.html")
    listed = [r.evaluation.href for p in pages for r in p.rows]
    assert len(listed) == len(set(listed)) == len(ids)  # each evaluation once
    for n, page in enumerate(pages):
        assert page.part == n and [p.href for p in page.parts] == [p.path for p in pages]
        assert f"of {len(pages)})" in page.title
    one = index.filter_pages(key, value, ids, catalogue, plan.facts)
    assert len(one) == 1 and one[0].parts == () and "part" not in one[0].title
