"""Visible text of a built page, whitespace collapsed, for tests that read pages as a
reader would (scripts, styles and the head left out)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

_BLOCK = {
    "p", "li", "tr", "h1", "h2", "h3", "h4", "dt", "dd", "div", "br", "caption", "section",
    "summary", "td", "th", "table", "ul", "figure", "figcaption", "nav", "header", "footer",
}  # fmt: skip


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "head", "svg"):
            self.skip += 1
        if tag in _BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head", "svg"):
            self.skip -= 1
        if tag in _BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def text_of(html: str) -> str:
    """Visible text: runs of spaces collapsed within lines, one line per block."""
    parser = _Text()
    parser.feed(html)
    text = "".join(parser.parts)
    lines = (re.sub(r"\s+", " ", line).strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def page_text(path: Path) -> str:
    return text_of(path.read_text(encoding="utf-8"))


def flat(text: str) -> str:
    """The text on one line (for phrases that cross block boundaries)."""
    return re.sub(r"\s+", " ", text)
