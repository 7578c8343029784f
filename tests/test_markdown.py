"""Markdown in records: raw HTML is escaped, unsafe links are not links."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rewire_site.link import Catalogue
from rewire_site.markdown import is_safe_url, render_block, render_inline
from rewire_site.models import RecordBase


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


def _markdown_it_block(text: str) -> str:
    from rewire_site.markdown import _MD

    return str(_MD.render(text).strip())


def _markdown_it_inline(text: str) -> str:
    from rewire_site.markdown import _MD

    return str(_MD.renderInline(text).strip())


SAMPLE = 3000
"""Texts the fast-path test renders: a fixed-size sample (by SHA-256 order) of every
string in the live records and the test fixtures, so the test's time does not grow with
records/ (the whole set was 22,800 strings: 3.8 s of YAML parsing and 7.4 s rendering)."""


def _record_texts(records: Iterable[RecordBase]) -> list[str]:
    """A sample of the string values of the live records (already gathered: `records`)
    and of the test fixtures' YAML files."""
    import hashlib
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parents[1]
    found: set[str] = set()
    # libyaml's safe loader when PyYAML has it: the same values as yaml.safe_load, faster.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    def walk(value: object) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    for record in records:
        walk(record.model_dump())
    for path in sorted((root / "tests" / "fixtures").rglob("*.yaml")):
        try:
            walk(yaml.load(path.read_text(encoding="utf-8"), Loader=loader))
        except yaml.YAMLError:
            continue
    return sorted(found, key=lambda t: hashlib.sha256(t.encode("utf-8", "surrogatepass")).digest())[
        :SAMPLE
    ]


def test_plain_text_fast_path_matches_markdown_it_on_record_texts(
    live_catalogue: Catalogue,
) -> None:
    """The fast path for prose without Markdown syntax gives markdown-it's bytes, on a
    fixed-size sample of the texts records hold."""
    from rewire_site.markdown import _plain

    texts = _record_texts(live_catalogue.by_id.values())
    plain = [t for t in texts if _plain(t)]
    assert len(plain) > 100  # the path is taken for most record text
    for text in texts:
        assert render_block.__wrapped__(text) == _markdown_it_block(text), text
        assert render_inline.__wrapped__(text) == _markdown_it_inline(text), text


@given(
    st.text(
        alphabet=st.sampled_from("aZ09 ,.;:'()/%+=?@-*_`[]<>!&#\\~|\"\t\n1.)"),
        max_size=40,
    )
)
@settings(max_examples=2000, deadline=None)
def test_plain_text_fast_path_matches_markdown_it_on_any_text(text: str) -> None:
    assert render_block.__wrapped__(text) == _markdown_it_block(text)
    assert render_inline.__wrapped__(text) == _markdown_it_inline(text)
