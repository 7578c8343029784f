"""Phone first (issue 25): at 375 px no answer table scrolls sideways, on one page of every
page type. A table may be wider than its box only inside a "how we know" block
(`details.how-we-know`), which is collapsed by default; every other disclosure is opened
before measuring, so a table a reader can open is checked too. Tables stack into one card
per row under a media query (`table.stack`), each value under its column's name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_site import overflow_candidates

pytestmark = pytest.mark.browser

WIDTH = 375

TABLES_SCRIPT = """() => {
  for (const d of document.querySelectorAll('main details')) {
    if (!d.closest('details.how-we-know')) d.open = true;
  }
  const width = document.documentElement.clientWidth;
  const wide = [];
  for (const t of document.querySelectorAll('main table')) {
    if (t.closest('details.how-we-know')) continue;  // collapsed by default: may scroll
    const r = t.getBoundingClientRect();
    if (!r.width) continue;
    const box = t.parentElement.getBoundingClientRect();
    if (r.right > width + 1 || r.width > box.width + 1) {
      const caption = t.querySelector('caption');
      const name = caption ? caption.textContent.trim().slice(0, 50) : (t.className || 'table');
      wide.push(Math.round(r.width) + ' px: ' + name);
    }
  }
  return {scrollWidth: document.scrollingElement.scrollWidth, width, wide};
}"""


def phone_pages(site: Path) -> dict[str, list[str]]:
    """One or more pages of every page type: those with the longest unbroken strings and
    the largest (overflow_candidates), where wide tables are most likely."""
    return overflow_candidates(site, per_type=2)


def test_no_answer_table_scrolls_sideways_at_375(
    phone_page: Any, built_site: Path, site_url: str
) -> None:
    page = phone_page
    problems = []
    pages = phone_pages(built_site)
    assert {"families", "compare", "models", "tasks", "protocols"} <= pages.keys()
    for kind, paths in sorted(pages.items()):
        for path in paths:
            page.goto(site_url + path)
            found = page.evaluate(TABLES_SCRIPT)
            assert found["width"] == WIDTH
            if found["scrollWidth"] > WIDTH or found["wide"]:
                problems.append(f"{kind}: {path}: {found['scrollWidth']} px; {found['wide'][:4]}")
    checked = sum(len(p) for p in pages.values())
    assert not problems, f"{len(problems)} of {checked} pages:\n" + "\n".join(problems)


def test_stacked_cells_name_their_column(phone_page: Any, site_url: str) -> None:
    """A stacked row keeps each value's column name: every data cell of a stacked table
    carries the name (data-label), and the phone shows it before the value."""
    page = phone_page
    page.goto(site_url + "families/gfm-guide-20261014-family-nucleotide-transformer/index.html")
    tables = page.locator("main table.stack")
    assert tables.count() >= 1
    unlabelled = page.evaluate(
        """() => [...document.querySelectorAll('main table.stack tbody td')]
                  .filter(td => !td.getAttribute('data-label')).length"""
    )
    assert unlabelled == 0
    shown = page.evaluate(
        """() => { const td = document.querySelector('main table.stack tbody td[data-label]');
                   return getComputedStyle(td, '::before').content; }"""
    )
    assert shown not in ("none", "normal", '""')


OWN_PHONE_LAYOUT = {"board-table", "fit-answer"}
"""Tables with their own narrow-screen CSS: the leaderboard (board.css stacks its rows)
and the fits answer (three narrow columns, fixed layout)."""


def test_every_template_table_stacks_on_a_phone() -> None:
    """Every table a template writes is `stack` (or has its own phone layout): a table
    the browser catalogue does not happen to show is covered too (a cross-source table
    added on 2026-12-02 was 1,349 px wide at 375 on the live NT family page)."""
    import re

    templates = Path(__file__).resolve().parents[2] / "templates"
    plain = []
    for path in sorted(templates.rglob("*.html")):
        for tag in re.findall(r"<table\b[^>]*>", path.read_text(encoding="utf-8")):
            found = re.search(r'class="([^"]*)"', tag)
            classes = set(found.group(1).split()) if found else set()
            if "stack" not in classes and not classes & OWN_PHONE_LAYOUT:
                plain.append(f"{path.relative_to(templates)}: {tag}")
    assert not plain, "\n".join(plain)
