"""The memory-curve charts ("Does it fit on my GPU?", family pages) as Chromium draws them,
on a site built from records written by the real memory-curve writer
(tests/fits_scenario.py): every text inside the SVG's viewBox (measured with getBBox()
through each element's transform, the rotated axis title too), every marker inside the
plot, and a legend that lists exactly the series drawn."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from datetime import date
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

MEASURE = """
() => [...document.querySelectorAll('figure.line-chart')].map((figure, index) => {
  const svg = figure.querySelector('svg');
  const box = svg.viewBox.baseVal;
  const toSvg = svg.getScreenCTM().inverse();
  const boxOf = el => {
    const b = el.getBBox();
    const m = toSvg.multiply(el.getScreenCTM());
    const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
                     [b.x + b.width, b.y + b.height]]
      .map(([x, y]) => new DOMPoint(x, y).matrixTransform(m));
    const xs = corners.map(p => p.x), ys = corners.map(p => p.y);
    return {text: el.textContent.trim().slice(0, 60), x: Math.min(...xs), y: Math.min(...ys),
            right: Math.max(...xs), bottom: Math.max(...ys)};
  };
  const drawn = [...svg.querySelectorAll('g.series')]
    .filter(g => g.querySelector('circle, path, polyline'))
    .map(g => g.dataset.series);
  return {index, width: box.width, height: box.height,
          texts: [...svg.querySelectorAll('text')].map(boxOf),
          marks: [...svg.querySelectorAll('circle, path, polyline')].map(boxOf),
          drawn, legend: [...figure.querySelectorAll('.legend li')].map(li => li.dataset.series)};
})
"""


@pytest.fixture(scope="module")
def curve_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("measure.memory_curve.records")
    from fits_scenario import write_scenario

    from rewire_site.build import build_site

    root = tmp_path_factory.mktemp("curves")
    write_scenario(root)
    out = root / "site"
    build_site(root, out, release_date=date(2026, 11, 30), workers=1)
    return out


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def curve_url(curve_site: Path) -> Iterator[str]:
    """The curve site served on 127.0.0.1 (the browser context reaches loopback only)."""
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(curve_site))
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


PAGES = ["fits/index.html", "families/saadat-fellay-20261015-family-gena-lm/index.html"]


@pytest.mark.parametrize("path", PAGES)
def test_line_charts_stay_inside_their_view(page: Any, curve_url: str, path: str) -> None:
    page.goto(curve_url + path)
    charts = page.evaluate(MEASURE)
    assert len(charts) == 3, path
    outside = []
    for chart in charts:
        for t in [*chart["texts"], *chart["marks"]]:
            inside = (
                t["x"] >= -0.5
                and t["y"] >= -0.5
                and t["right"] <= chart["width"] + 0.5
                and t["bottom"] <= chart["height"] + 0.5
            )
            if not inside:
                outside.append(f"{path} chart {chart['index']}: {t}")
        assert chart["legend"] == chart["drawn"], path
    assert not outside, "\n".join(outside[:20])
