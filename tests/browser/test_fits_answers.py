"""Issue 25 (Fits, Phone first): a researcher asks whether a named model fine-tunes on a
24 GB GPU at a named length in base pairs, and finds the answer within 3 clicks from the
home page; the answer tables of "Does it fit on my GPU?" read without sideways scrolling
at 375 px. The site is built from the catalogue's own memory-curve records of two models
(NT 500M, DNABERT-2) and everything they refer to; the expected answers are computed by
derive.fits from those records, never written here."""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Iterator
from datetime import date
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from scenarios import copy_closure

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = "rewire-20261130-protocol-gpu-memory-curves"
MODELS = ("NT 500M", "DNABERT-2")
"""Models whose curve records the site holds (their configurations' reported names)."""
MODEL = "NT 500M"
ASKED_BP = 3_000
"""The researcher's length: 3,000 base pairs."""
GPU_GB = 24


def _curve_records() -> list[str]:
    """Ids of the catalogue's memory-curve evaluations of MODELS."""
    from rewire_site.load import load_file

    found = []
    for path in sorted((ROOT / "records").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        if f"protocol: {PROTOCOL}" not in text:
            continue
        data = load_file(path).data
        if not isinstance(data, dict) or data.get("protocol") != PROTOCOL:
            continue
        configuration = ROOT / "records" / f"{data.get('configuration')}.yaml"
        reported = load_file(configuration).data if configuration.is_file() else None
        if isinstance(reported, dict) and reported.get("reported_name") in MODELS:
            found.append(path.stem)
    return found


@pytest.fixture(scope="module")
def curve_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from rewire_site.build import build_site

    ids = _curve_records()
    assert ids, f"no memory-curve record of {MODELS} in records/"
    project = tmp_path_factory.mktemp("fits-answers")
    copy_closure(ids, ROOT / "records", project / "records")
    build_site(project, project / "site", release_date=date(2026, 12, 1), workers=1)
    return project


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def curve_url(curve_project: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(curve_project / "site"))
    )
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _expected(project: Path, model: str, size_gb: int) -> tuple[str, str, int | None]:
    """(the full fine-tuning method the answers read first, its longest-input answer's
    text, its base pairs) as derive.fits reads the records, at the method's smallest
    batch: the common mixed-precision recipe once it has points, else bf16-only `full`."""
    from rewire_site.build import gather
    from rewire_site.derive.fits import (
        BYTES_PER_PARAMETER,
        curves,
        family_base_pairs,
        longest_length,
    )
    from rewire_site.models import ModelFamily
    from rewire_site.render.fits.answers import answer_methods, answer_text

    catalogue = gather(project / "records", project).catalogue
    found = curves(catalogue)
    method = next(m for m in answer_methods(found.methods()) if m in BYTES_PER_PARAMETER)
    family_id = {m: f for f, m in found.models()}[model]
    family = catalogue.by_id[family_id]
    assert isinstance(family, ModelFamily)
    batch = min(p.batch for p in found.points if p.method == method)
    answer = longest_length(found.curve(model, method, batch), size_gb)
    claims = answer.state in ("fits_all", "fits_up_to") and answer.value is not None
    bases = family_base_pairs(family).base_pairs(answer.value) if claims and answer.value else None
    return method, answer_text(answer), bases


def test_a_model_at_a_length_in_base_pairs_on_a_24_gb_gpu_within_3_clicks(
    page: Any, curve_url: str, curve_project: Path, shot: Callable[[Any, str], Path]
) -> None:
    """From the home page: 1. "Does it fit on my GPU?", 2. "24 GB"; the first full
    fine-tuning table there (the common mixed-precision recipe once measured) answers for
    NT 500M in base pairs, as derive.fits computes it."""
    clicks = 0
    page.goto(curve_url)
    page.locator('a[href$="fits/index.html"]').first.click()
    clicks += 1
    page.wait_for_url("**/fits/index.html")
    page.locator("nav.fit-size-nav a", has_text=f"{GPU_GB} GB").first.click()
    clicks += 1
    assert clicks <= 3
    method, text, bases = _expected(curve_project, MODEL, GPU_GB)
    group = page.locator(f'section.fit-size[data-size="{GPU_GB}"]')
    full = [
        m
        for m in group.locator("table.fit-answer").evaluate_all(
            "ts => ts.map(t => t.dataset.method)"
        )
        if m.startswith("full")
    ]
    assert full[0] == method, "the first full fine-tuning answers read the common recipe"
    table = group.locator(f'table.fit-answer[data-method="{method}"]')
    cell = table.locator(f'tr[data-model="{MODEL}"] td.fit-length')
    cell.scroll_into_view_if_needed()
    assert cell.is_visible()
    shown = " ".join(cell.inner_text().split())
    assert bases is not None, "NT's cited 6-mer tokeniser gives base pairs"
    assert shown == f"{bases:,} bp {text}"
    shown_bp = int(re.sub(r"[^0-9]", "", cell.locator(".fit-bp").inner_text()))
    assert shown_bp == bases
    # the answer to "does NT 500M fine-tune on 24 GB at 3,000 bp?" reads the same
    assert (shown_bp >= ASKED_BP) == (bases >= ASKED_BP)
    caption = table.locator("caption").inner_text()
    assert caption.startswith("Full fine-tuning") and caption.endswith(f"on a {GPU_GB} GB GPU")
    shot(page, "fits-answer-1280")


OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const inScroller = el => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll') return true;
    }
    return false;
  };
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el.ownerSVGElement || !el.getClientRects().length || inScroller(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width && r.right > width + 0.5) {
      const cls = el.getAttribute('class');
      out.push(el.tagName + (cls ? '.' + cls : '') + ' ' + Math.round(r.right));
    }
  }
  const tables = [...document.querySelectorAll('table.fit-answer')].map(t => ({
    size: t.dataset.size, method: t.dataset.method, scroll: t.scrollWidth,
    client: t.clientWidth, right: t.getBoundingClientRect().right}));
  return {scrollWidth: document.documentElement.scrollWidth, width, out: out.slice(0, 10),
          tables};
}"""


def test_the_answer_tables_read_without_sideways_scrolling_at_375(
    phone_page: Any, curve_url: str, shot: Callable[[Any, str], Path]
) -> None:
    phone_page.goto(curve_url + "fits/index.html")
    found = phone_page.evaluate(OVERFLOW)
    assert found["width"] == 375
    assert found["scrollWidth"] <= found["width"], found["out"]
    assert found["out"] == []
    assert len(found["tables"]) >= 7
    wide = [t for t in found["tables"] if t["scroll"] > t["client"] or t["right"] > 375]
    assert wide == []
    shot(phone_page, "fits-answer-375")
