"""Charts as a reader sees them in Chromium: every text of every reproduction chart lies
inside its SVG's viewBox (no label cut off at the left, no axis title clipped at the
bottom), no two bars of one group share a label, and the legend lists exactly the series
the chart draws.

Text boxes are measured with the browser's own `getBBox()`, mapped into the SVG's user
units through the element's transform, so the test holds whatever the font; the pages are
every page of the built site (the browser tests' catalogue, see conftest.py) that has a
chart. Each page is loaded and measured once per session; the tests read the measurements.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

MEASURE = """
() => [...document.querySelectorAll('figure.chart')].map((figure, index) => {
  const svg = figure.querySelector('svg');
  const box = svg.viewBox.baseVal;
  const toSvg = svg.getScreenCTM().inverse();
  const texts = [...svg.querySelectorAll('text')].map(t => {
    const b = t.getBBox();
    const m = toSvg.multiply(t.getScreenCTM());
    const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
                     [b.x + b.width, b.y + b.height]]
      .map(([x, y]) => new DOMPoint(x, y).matrixTransform(m));
    const xs = corners.map(p => p.x), ys = corners.map(p => p.y);
    return {text: t.textContent, x: Math.min(...xs), y: Math.min(...ys),
            right: Math.max(...xs), bottom: Math.max(...ys)};
  });
  const groups = [];
  let current = null;
  for (const node of svg.children) {
    if (node.tagName === 'text' && node.classList.contains('group-label')) {
      if (!current || current.bars.length) {
        current = {labels: [], bars: []};
        groups.push(current);
      }
    } else if (node.tagName === 'text' && node.getAttribute('text-anchor') === 'end' && current) {
      current.bars.push(node.textContent);
    }
  }
  const drawn = [...new Set([...svg.querySelectorAll('rect')]
    .map(r => r.getAttribute('class')))];
  const legend = [...figure.querySelectorAll('.legend li')].map(li => li.dataset.series);
  const axis = svg.querySelector('.axis-title');
  return {index, width: box.width, height: box.height, texts, groups, drawn, legend,
          axis: axis ? axis.textContent : '',
          caption: figure.querySelector('figcaption').textContent};
})
"""


def chart_pages(site: Path) -> list[str]:
    return sorted(
        p.relative_to(site).as_posix()
        for p in site.rglob("index.html")
        if '<figure class="chart">' in p.read_text(encoding="utf-8")
    )


Charts = dict[str, list[dict[str, Any]]]


@pytest.fixture(scope="session")
def measured(session_page: Any, site_url: str, built_site: Path) -> Charts:
    """Every chart of every chart page, measured in one pass at 1280 px, by page."""
    found: Charts = {}
    for path in chart_pages(built_site):
        session_page.goto(site_url + path)
        found[path] = session_page.evaluate(MEASURE)
    empty = [path for path, charts in found.items() if not charts]
    assert not empty, f"no chart found on {empty}"
    return found


def test_some_pages_have_charts(built_site: Path) -> None:
    assert chart_pages(built_site), "the built site has no reproduction chart to measure"


def test_no_chart_text_is_clipped(measured: Charts) -> None:
    clipped = []
    for path, charts in measured.items():
        for chart in charts:
            for t in chart["texts"]:
                inside = (
                    t["x"] >= -0.5
                    and t["y"] >= -0.5
                    and t["right"] <= chart["width"] + 0.5
                    and t["bottom"] <= chart["height"] + 0.5
                )
                if not inside:
                    clipped.append(
                        f"{path} chart {chart['index']}: {t['text']!r} at x {t['x']:.1f}..."
                        f"{t['right']:.1f}, y {t['y']:.1f}..{t['bottom']:.1f} outside "
                        f"0..{chart['width']} x 0..{chart['height']}"
                    )
    assert not clipped, "\n".join(clipped[:20])


def test_bars_of_one_group_have_distinct_labels(measured: Charts) -> None:
    repeated = []
    for path, charts in measured.items():
        for chart in charts:
            for group in chart["groups"]:
                labels = group["bars"]
                dupes = sorted({label for label in labels if labels.count(label) > 1})
                if dupes:
                    repeated.append(f"{path} chart {chart['index']}: {dupes}")
    assert not repeated, "\n".join(repeated)


def test_legend_lists_only_drawn_series(measured: Charts) -> None:
    wrong = []
    for path, charts in measured.items():
        for chart in charts:
            drawn = {c.removeprefix("bar-") for c in chart["drawn"] if c}
            if set(chart["legend"]) != drawn:
                legend = chart["legend"]
                wrong.append(
                    f"{path} chart {chart['index']}: legend {legend}, drawn {sorted(drawn)}"
                )
    assert not wrong, "\n".join(wrong)


def test_caption_names_the_charted_metric(measured: Charts) -> None:
    """A run-time chart's caption says run time, never memory (and the reverse)."""
    wrong = []
    for path, charts in measured.items():
        for chart in charts:
            name = chart["axis"].split(" (")[0].lower()
            if not name:
                wrong.append(f"{path} chart {chart['index']}: no axis title")
            elif name not in chart["caption"].lower():
                wrong.append(f"{path} chart {chart['index']}: caption does not name {name!r}")
    assert not wrong, "\n".join(wrong)


def test_home_coverage_table_fits_at_1280(page: Any, site_url: str) -> None:
    """Defect 7: the coverage table (now on the findings page) overflowed its region at
    1280 px."""
    page.goto(site_url + "findings/index.html")
    region = page.locator("#coverage-table").locator("xpath=..")
    scroll, client = region.evaluate("d => [d.scrollWidth, d.clientWidth]")
    assert scroll <= client + 1, f"coverage table {scroll}px in a {client}px region"
