"""The search list in parts: no part over SEARCH_PER_PAGE entries (a page stays under 1 MB as
records are added), every record in exactly one part, and only the search page itself
searches the whole index (search/index.json) when JavaScript runs."""

from __future__ import annotations

from pathlib import Path

from rewire_site.render import Renderer
from rewire_site.render.index import search_pages
from rewire_site.render.search import SearchEntry
from rewire_site.render.urls import SEARCH, search_part_path

ROOT = Path(__file__).resolve().parents[1]


class _Facts:
    release_id = "2026-12-02-000000000000"


def _entries(n: int) -> tuple[SearchEntry, ...]:
    return tuple(
        SearchEntry(
            "source", "Source", f"s-{i:03d}", f"Source {i}", f"sources/s-{i:03d}/index.html", ()
        )
        for i in range(n)
    )


def test_a_long_list_is_split_into_parts_and_each_record_is_in_one() -> None:
    entries = _entries(5)
    pages = search_pages(entries, _Facts(), per_page=2)  # type: ignore[arg-type]
    assert [p.path for p in pages] == [SEARCH, search_part_path(2), search_part_path(3)]
    assert [e for p in pages for e in p.entries] == list(entries)
    assert all(len(p.entries) <= 2 for p in pages)
    assert [link.text for link in pages[0].parts] == ["1 to 2", "3 to 4", "5 to 5"]
    assert [p.searches_all for p in pages] == [True, False, False]
    html = [Renderer(ROOT / "templates").render(p.template, p).decode("utf-8") for p in pages]
    assert 'data-index="../search/index.json"' in html[0]
    assert "data-index" not in html[1] and 'id="search-input"' not in html[1]
    assert "5 records in this release; this part lists 3 to 4" in html[1]
    assert 'aria-current="page">3 to 4<' in html[1]


def test_a_short_list_is_one_page_without_parts() -> None:
    [page] = search_pages(_entries(3), _Facts(), per_page=2_000)  # type: ignore[arg-type]
    assert page.parts == () and len(page.entries) == 3
    html = Renderer(ROOT / "templates").render(page.template, page).decode("utf-8")
    assert "data-index" not in html and 'id="search-input"' in html
