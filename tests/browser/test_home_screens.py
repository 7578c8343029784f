"""The home page in Chromium (issue 25, Home): under 3 screens at 1280x800, no sideways
scrolling at 375 px, the chart drawn without JavaScript, and the findings one click away."""

from __future__ import annotations

import re
from typing import Any

SCREEN = 800
"""One screen at 1280x800."""


def _heights(browser: Any, url: str, width: int, *, javascript: bool = True) -> list[int]:
    context = browser.new_context(
        viewport={"width": width, "height": SCREEN}, java_script_enabled=javascript
    )
    try:
        page = context.new_page()
        page.goto(url)
        dims: list[int] = page.evaluate(
            "[document.documentElement.scrollHeight, document.documentElement.scrollWidth,"
            " document.documentElement.clientWidth]"
        )
        return dims
    finally:
        context.close()


def test_home_page_is_under_three_screens_at_1280(browser: Any, site_url: str) -> None:
    height, scroll, client = _heights(browser, site_url + "index.html", 1280)
    assert height < 3 * SCREEN, f"home page {height}px tall at 1280x800"
    assert scroll <= client


def test_home_page_does_not_scroll_sideways_at_375(browser: Any, site_url: str) -> None:
    _, scroll, client = _heights(browser, site_url + "index.html", 375)
    assert scroll <= client, f"home page {scroll}px wide in a {client}px viewport"


def test_home_chart_and_task_finder_need_no_javascript(browser: Any, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": SCREEN},
                                  java_script_enabled=False)  # fmt: skip
    try:
        page = context.new_page()
        page.goto(site_url + "index.html")
        svg = page.locator("figure.home-chart svg")
        assert svg.count() == 1 and svg.bounding_box()["width"] > 300
        assert page.locator("figure.home-chart svg rect").count() >= 1
        axis = svg.locator("text").all_text_contents()
        assert any(t.startswith("Results") for t in axis)  # the axis says its unit
        assert "Source:" in page.locator("figure.home-chart figcaption").inner_text()
        first = page.locator(".families details").first
        first.locator("summary").click()
        link = first.locator("a").first
        link.click()
        page.wait_for_url(re.compile(r"tasks/[^/]+/index\.html$"))
        assert page.locator("h1").count() == 1
    finally:
        context.close()
