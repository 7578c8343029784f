"""The render-time URL guard: a link to another site is written only when its value is
a web address (https:// or http:// with a host), checked again in the templates (the
Jinja test `web_url`), so a value that slipped past the models is shown as text, never
as a live link. Record Markdown keeps unsafe links as text too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from live_html import build_catalogue, live_parts, live_parts_of_site
from scenarios import load_scenario, scenario_root

from rewire_site import config
from rewire_site.link import Catalogue
from rewire_site.markdown import render_block, render_inline
from rewire_site.models import Source

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
HOSTILE_URLS = [
    "javascript:alert(document.domain)",
    " JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "//evil.example/x",
]

_URL_ATTRIBUTE = re.compile(r'\b(?:href|src|action)="((?:\{\{.*?\}\}|[^"{])*)"')
_ROOTED = re.compile(
    r"^(?:\{\{ (?:page\.)?root \}\}(?:\{\{ [^{}]+ \}\}|[\w./#-]+)+"
    r"|#\{\{ [^{}]+ \}\})$"  # or a fragment of this page: never another site
)
_EXPRESSION = re.compile(r"^\{\{ ([\w.]+) \}\}$")


def unguarded_links(text: str) -> list[str]:
    """Each href/src/action of a template that is neither a literal, a path from the
    site's root (`{{ page.root }}...`) nor a value checked by the template tag right
    before it (`{% if <value> is web_url %}`, with no other tag between)."""
    found = []
    for match in _URL_ATTRIBUTE.finditer(text):
        value = match.group(1)
        if "{{" not in value and "{%" not in value:
            continue  # a literal: '#main', 'index.json'
        if _ROOTED.match(value):
            continue
        expression = _EXPRESSION.match(value)
        before = text[: match.start()]
        last_tag = before[before.rfind("{%") :]
        guard = f"{{% if {expression.group(1)} is web_url %}}" if expression else None
        if guard is not None and last_tag.startswith(guard):
            continue
        found.append(value)
    return found


def test_unguarded_links_finds_an_unchecked_external_link() -> None:
    assert unguarded_links('<a href="{{ page.url }}">x</a>') == ["{{ page.url }}"]
    assert unguarded_links('<a href="{{ x.href }}">x</a>') == ["{{ x.href }}"]
    assert unguarded_links('<a href="{{ page.root }}{{ x.href }}">x</a>') == []
    assert unguarded_links('<a href="#{{ s.anchor }}">x</a>') == []
    assert unguarded_links('<a href="#{{ s.anchor }}{{ x.url }}">x</a>') != []
    assert unguarded_links('{% if page.url is web_url %}<a href="{{ page.url }}">') == []
    assert unguarded_links('{% if page.url is web_url %}\n<p><a href="{{ page.url }}">') == []
    assert unguarded_links('{% if x is web_url %}{% if y %}<a href="{{ page.url }}">') != []


def test_every_link_a_template_writes_is_rooted_or_checked() -> None:
    found = {
        path.relative_to(TEMPLATES).as_posix(): unguarded_links(path.read_text("utf-8"))
        for path in sorted(TEMPLATES.rglob("*.html"))
    }
    assert {name: links for name, links in found.items() if links} == {}


def _with_source_url(catalogue: Catalogue, url: str) -> Catalogue:
    records = []
    for record in catalogue.by_id.values():
        if isinstance(record, Source):
            record = record.model_copy(update={"url": url})  # validates nothing
        records.append(record)
    return Catalogue.from_records(records)


@pytest.mark.parametrize("url", HOSTILE_URLS[:4:])
def test_a_hostile_source_url_past_the_models_is_never_a_live_link(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(config, "REPOSITORY_URL", url)  # 'Suggest a correction' links
    catalogue = _with_source_url(load_scenario("minimal"), url)
    site = build_catalogue(catalogue, scenario_root("minimal"), tmp_path / "site")
    assert live_parts_of_site(site) == {}
    source = (site / "sources" / "fx-source" / "index.html").read_text(encoding="utf-8")
    assert "Open the source" not in source
    assert "is not a web address, so it is not linked" in source
    assert "Suggest a correction</a>" not in source


def test_a_web_source_url_stays_a_live_link(tmp_path: Path) -> None:
    catalogue = _with_source_url(load_scenario("minimal"), "https://example.org/p?a=1&b=2")
    site = build_catalogue(catalogue, scenario_root("minimal"), tmp_path / "site")
    source = (site / "sources" / "fx-source" / "index.html").read_text(encoding="utf-8")
    assert '<a href="https://example.org/p?a=1&amp;b=2" rel="noopener">Open the source' in source
    assert "Suggest a correction</a>" in source


@pytest.mark.parametrize(
    "text",
    [
        "[x](javascript:alert(1))",
        "[x](JaVaScRiPt:alert(1))",
        "[x](java&#x09;script:alert(1))",
        "[x](&#106;avascript:alert(1))",
        "[x](\x00javascript:alert(1))",
        "<javascript:alert(1)>",
        "[x]: javascript:alert(1)\n\n[x]",
        "[x](data:text/html,<script>alert(1)</script>)",
        "[x](vbscript:msgbox(1))",
        "[x](file:///etc/passwd)",
        "![i](javascript:alert(1))",
        '<a href="javascript:alert(1)">x</a>',
        "<img src=x onerror=alert(1)>",
        '[x](https://ok.example "t" onmouseover=alert(1))',
    ],
)
def test_markdown_never_makes_a_hostile_link_live(text: str) -> None:
    assert live_parts(str(render_block(text))) == []
    assert live_parts(f"<p>{render_inline(text)}</p>") == []


def test_live_parts_sees_what_a_browser_would_run() -> None:
    assert live_parts('<a href="java&#x09;script:alert(1)">x</a>')
    assert live_parts('<a href=" javascript:alert(1)">x</a>')
    assert live_parts("<img src=x onerror=alert(1)>")
    assert live_parts("<script>alert(1)</script>")
    assert live_parts('<svg><a xlink:href="javascript:alert(1)">x</a></svg>')
    assert live_parts('<a href="https://example.org">x</a><a href="../x/index.html">y</a>') == []
