"""The filter form's count on a protocol page that lists no result rows of its own.

A protocol page with more than 60 published results (render/protocol.py MAX_RESULT_ROWS)
has no table of result rows (`data-filter-count`); the filter form still filters the
comparison table. rewire.js counted only rows of a `data-filter-count` table, so after
filtering the count read "0 matching evaluations". The real case: Feng et al.'s embedding
time protocol (342 published results in the live catalogue). This site is built for the
test from 61 of its real evaluation records and every record they refer to (the shared
browser catalogue, catalogue.txt, is kept small and holds no such protocol)."""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator
from datetime import date
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from scenarios import copy_closure

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = "feng-2024-protocol-embedding-time"
PAGE = f"protocols/{PROTOCOL}/index.html"
PUBLISHED = 61
"""One more than MAX_RESULT_ROWS: the page lists no result rows."""


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def many_results_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from rewire_site.build import build_site

    # Every model of the protocol, a few datasets each: sorted by dataset, then id.
    texts = {p.stem: p.read_text(encoding="utf-8") for p in (ROOT / "records").glob("feng-*")}
    dataset = {k: re.search(r"\ndataset: (\S+)", t) for k, t in texts.items()}
    evaluations = sorted(
        (k for k, t in texts.items() if f"\nprotocol: {PROTOCOL}\n" in t and dataset[k]),
        key=lambda k: (dataset[k].group(1), k),  # type: ignore[union-attr]
    )[:PUBLISHED]
    assert len(evaluations) == PUBLISHED, "the live catalogue lost Feng et al.'s timings"
    project = tmp_path_factory.mktemp("many-results")
    (project / "records").mkdir()
    assert copy_closure(evaluations, ROOT / "records", project / "records") < 400
    site = project / "site"
    build_site(project, site, release_date=date(2026, 11, 30))
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _visible_rows(page: Any, table: str) -> int:
    script = "rows => rows.filter(r => !r.hidden).length"
    return int(page.eval_on_selector_all(f"#{table} tbody tr", script))


def test_count_after_filtering_without_result_rows(page: Any, many_results_url: str) -> None:
    page.goto(many_results_url + PAGE)
    assert page.locator("#result-rows tbody tr").count() == 0, "the page lists no result rows"
    form = page.locator("form.filters").first
    assert form.is_visible()
    form_id = form.get_attribute("id")
    assert "comparison" in (form.get_attribute("data-filter-target") or "").split()
    count = page.locator(f"[data-filter-count-for='{form_id}']")
    total = _visible_rows(page, "comparison")
    assert total >= 2
    assert count.inner_text() == f"{total} matching table rows", "counted before any filter"
    select = form.locator("select[data-facet='model']")
    value = select.locator("option").nth(1).get_attribute("value")
    select.select_option(value)
    shown = _visible_rows(page, "comparison")
    assert 0 < shown < total
    assert count.inner_text() == f"{shown} matching table row{'s' if shown != 1 else ''}"
    form.locator("button[type='reset']").click()
    page.wait_for_function(
        f"document.querySelector('[data-filter-count-for=\"{form_id}\"]').textContent"
        f" === '{total} matching table rows'"
    )
