"""Progressive disclosure (issue 25): every page type leads with its answer in plain words
(an element of class `answer`, built from the records), before its first table; the
evidence behind it ("How we know": sources, locators, hashes, readiness, technical
metadata) is collapsed by default and holds the page's sources when opened. Checked in
Chromium on one page of each type of the browser tests' catalogue."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_site import overflow_candidates

pytestmark = pytest.mark.browser

NO_ANSWER = {"downloads"}
"""Page types that answer no question of their own: a list of files."""
RECORD_TYPES = {"evaluations", "configurations", "datasets", "protocols", "sources",
                "questions", "families"}  # fmt: skip
"""Record pages: their "How we know" holds the record's evidence and sources."""

ORDER_SCRIPT = """() => {
  const main = document.querySelector('main');
  const answer = main.querySelector('.answer');
  const table = main.querySelector('table');
  const before = answer && table
    ? !!(answer.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING)
    : null;
  const blocks = [...main.querySelectorAll('details.how-we-know')];
  // a <summary> that holds a heading holds nothing else (the HTML content model)
  const mixed = [...main.querySelectorAll('summary')].filter(s =>
    s.querySelector(':scope > h2, :scope > h3, :scope > h4') &&
    [...s.childNodes].some(n => n.nodeType === Node.TEXT_NODE ? n.textContent.trim()
                                : !/^H[2-6]$/.test(n.tagName))).length;
  return {
    mixed,
    answer: answer ? answer.textContent.trim() : null,
    before,
    blocks: blocks.length,
    open: blocks.filter(d => d.open).length,
  };
}"""


def test_every_page_type_leads_with_its_answer(page: Any, built_site: Path, site_url: str) -> None:
    problems = []
    pages = overflow_candidates(built_site, per_type=1)
    assert pages.keys() >= RECORD_TYPES
    for kind, paths in sorted(pages.items()):
        if kind in NO_ANSWER:
            continue
        for path in paths:
            page.goto(site_url + path)
            found = page.evaluate(ORDER_SCRIPT)
            if not found["answer"]:
                problems.append(f"{path}: no answer")
            elif found["before"] is False:
                problems.append(f"{path}: the first table comes before the answer")
            if found["mixed"]:
                problems.append(f"{path}: {found['mixed']} summaries mix a heading and text")
            if found["open"]:
                problems.append(f"{path}: 'How we know' is open by default")
            if kind in RECORD_TYPES and not found["blocks"]:
                problems.append(f"{path}: no 'How we know' block")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("kind", sorted(RECORD_TYPES))
def test_how_we_know_is_complete_when_opened(
    page: Any, built_site: Path, site_url: str, kind: str
) -> None:
    """Opened, "How we know" shows the record's sources and its technical metadata (the
    stable id); closed, neither is on screen."""
    path = overflow_candidates(built_site, per_type=1)[kind][0]
    page.goto(site_url + path)
    block = page.locator("main details.how-we-know")
    sources = block.locator("#sources")
    assert sources.count() == 1 and not sources.is_visible()
    block.locator("summary").first.click()
    assert sources.is_visible()
    assert block.locator(".stable-id").first.is_visible()


def test_long_family_page_is_short_on_a_phone(phone_page: Any, site_url: str) -> None:
    """The Nucleotide Transformer family page (437 phone screens tall before its results
    and memory curves were collapsed) leads with its key facts and stays a few screens."""
    page = phone_page
    page.goto(site_url + "families/gfm-guide-20261014-family-nucleotide-transformer/index.html")
    height = page.evaluate("document.documentElement.scrollHeight")
    screens = height / 812
    assert screens < 40, f"{screens:.0f} screens at 375 px"
    facts = page.locator("#key-facts")
    results = page.locator("#results")
    assert facts.bounding_box()["y"] < results.bounding_box()["y"]
