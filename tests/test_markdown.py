"""Markdown in records: raw HTML is escaped, unsafe links are not links."""

from __future__ import annotations

import pytest

from rewire_site.markdown import is_safe_url, render_block, render_inline


def test_raw_html_is_escaped_not_passed_through() -> None:
    html = render_block("Hello <script>alert(1)</script> <b>bold</b>")
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;b&gt;bold&lt;/b&gt;" in html


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "java\tscript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD4=",
        "vbscript:msgbox(1)",
        "file:///etc/passwd",
    ],
)
def test_unsafe_links_are_dropped(url: str) -> None:
    assert not is_safe_url(url)
    html = render_block(f"[click]({url})")
    assert "<a " not in html
    assert "click" in html


@pytest.mark.parametrize(
    "url", ["https://example.org/a?b=1", "http://x.org", "mailto:a@b.org", "#part", "../x"]
)
def test_safe_links_stay_links(url: str) -> None:
    assert is_safe_url(url)
    assert f'href="{url}"' in render_block(f"[ok]({url})").replace("&amp;", "&")


def test_images_are_not_rendered() -> None:
    html = render_block("![x](https://example.org/x.png)")
    assert "<img" not in html


def test_inline_has_no_paragraph_and_keeps_emphasis() -> None:
    assert render_inline("a *b* `c`") == "a <em>b</em> <code>c</code>"
    assert render_block("a *b*") == "<p>a <em>b</em></p>"
