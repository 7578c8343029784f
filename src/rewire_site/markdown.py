"""Markdown in records: markdown-it-py, CommonMark, raw HTML off, unsafe links dropped.

Record text (summaries, limitations, concern texts, ...) may use Markdown. Raw HTML in it is
escaped, never passed through, and a link or image whose URL is not http(s), mailto, a
fragment or a relative path is not turned into a link: its text stays as typed.
"""

from __future__ import annotations

import re
from functools import lru_cache

from markdown_it import MarkdownIt
from markupsafe import Markup

SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):")
_CONTROL = re.compile(r"[\x00-\x20\x7f]+")


def is_safe_url(url: str) -> bool:
    """True for http(s) and mailto URLs, fragments and relative paths; False for
    javascript:, data:, vbscript:, file: and every other scheme (control characters and
    whitespace removed first, as browsers do)."""
    cleaned = _CONTROL.sub("", url)
    match = _SCHEME.match(cleaned)
    if match is None:
        return True
    return match.group(1).lower() in SAFE_SCHEMES


class _SafeMarkdown(MarkdownIt):
    def validateLink(self, url: str) -> bool:
        return is_safe_url(url)


def _parser() -> MarkdownIt:
    md = _SafeMarkdown("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.disable("image")
    return md


_MD = _parser()

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 ,.;:'()/%+=?@-]*")
"""One line of prose in which CommonMark finds no syntax: it starts with a letter (no
list, heading, quote or code block), and holds no character that starts inline syntax
(`*_`[]<>!&#\\~|`), no quote mark (markdown-it escapes `"` its own way) and no line
break. markdown-it renders such a line as the line itself, in a paragraph for blocks;
`tests/test_markdown.py` checks that against markdown-it."""


def _plain(text: str) -> bool:
    return _PLAIN.fullmatch(text) is not None and not text.endswith(" ")


@lru_cache(maxsize=65536)
def render_block(text: str) -> Markup:
    """Markdown text as block HTML (paragraphs, lists)."""
    if _plain(text):  # the same bytes as markdown-it, without parsing
        return Markup(f"<p>{text}</p>")
    return Markup(_MD.render(text).strip())


@lru_cache(maxsize=65536)
def render_inline(text: str) -> Markup:
    """Markdown text as inline HTML (for table cells and list items): no paragraph wrapper."""
    if _plain(text):
        return Markup(text)
    return Markup(_MD.renderInline(text).strip())
