"""What in a built page could run or send a reader elsewhere by itself: scripts other than
the site's own, event-handler attributes, and links whose scheme is not http, https or
mailto (a relative path or #fragment has none). Read with html5lib, the way a
browser reads a page (entities decoded; tabs, newlines and leading controls and
spaces dropped from a URL before its scheme is read)."""

from __future__ import annotations

import re
from pathlib import Path

import html5lib  # type: ignore[import-untyped]

from rewire_site.build import render, write_files
from rewire_site.link import Catalogue
from rewire_site.render.derive_stage import plan_site
from rewire_site.write import OutputWriter

URL_ATTRIBUTES = frozenset(
    {"href", "src", "action", "formaction", "poster", "background", "xlink:href", "data"}
)
ALLOWED_SCHEMES = frozenset({"http", "https", "mailto"})
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):")
FOREIGN_ELEMENTS = frozenset({"script", "iframe", "object", "embed", "base", "frame", "applet"})
_DROPPED = re.compile(r"[\t\n\r]")
_LEADING = re.compile(r"^[\x00-\x20]+")


def scheme_of(url: str) -> str | None:
    """The scheme a browser reads from an attribute's (decoded) value, lowercased."""
    cleaned = _LEADING.sub("", _DROPPED.sub("", url))
    match = _SCHEME.match(cleaned)
    return match.group(1).lower() if match else None


def _attribute_name(name: str) -> str:
    """'{http://www.w3.org/1999/xlink}href' -> 'xlink:href'; other names as they are."""
    if name.startswith("{http://www.w3.org/1999/xlink}"):
        return "xlink:" + name.split("}", 1)[1]
    return name.split("}", 1)[-1]


def _tag_name(tag: str) -> str:
    return tag.split("}", 1)[-1].lower()


def _own_script(tag: str, attrs: dict[str, str]) -> bool:
    """The site's own scripts: rewire.js from static/, and JSON-LD data (not run)."""
    if tag != "script":
        return False
    src = attrs.get("src")
    if src is not None:
        return src.endswith("static/rewire.js") and scheme_of(src) is None
    return attrs.get("type") == "application/ld+json"


def live_parts(html: str) -> list[str]:
    """Every part of `html` that is live and not the site's own, as html5lib (the HTML
    standard's parsing algorithm) reads the page."""
    problems: list[str] = []
    tree = html5lib.parse(html, namespaceHTMLElements=False)
    for element in tree.iter():
        if not isinstance(element.tag, str):
            continue  # a comment
        tag = _tag_name(element.tag)
        attrs = {_attribute_name(k): v for k, v in element.attrib.items()}
        for name, value in attrs.items():
            if name.lower().startswith("on"):
                problems.append(f"<{tag}> has an event handler {name}={value!r}")
            if name.lower() in URL_ATTRIBUTES:
                scheme = scheme_of(value)
                if scheme is not None and scheme not in ALLOWED_SCHEMES:
                    problems.append(f"<{tag} {name}={value!r}>: scheme {scheme}")
            if name.lower() == "srcset":
                problems.append(f"<{tag}> has a srcset {value!r}")
            if name.lower() == "http-equiv" and value.lower() == "refresh":
                problems.append(f"<{tag}> refreshes the page")
        if tag in FOREIGN_ELEMENTS and not _own_script(tag, attrs):
            problems.append(f"a foreign <{tag}> {attrs}")
    return problems


def live_parts_of_site(site: Path) -> dict[str, list[str]]:
    """`live_parts` of every HTML page under `site` (and of SVG files), by path; pages
    with none are left out."""
    found: dict[str, list[str]] = {}
    for path in sorted(site.rglob("*")):
        if path.suffix in {".html", ".svg"} and path.is_file():
            problems = live_parts(path.read_text(encoding="utf-8"))
            if problems:
                found[path.relative_to(site).as_posix()] = problems
    return found


def build_catalogue(catalogue: Catalogue, root: Path, out: Path) -> Path:
    """Build the site of `catalogue` (records already in memory, e.g. changed with
    `model_copy`, which validates nothing: values that slipped past the models) into
    `out` with the build's own derive, render and write stages, in this process."""
    plan = plan_site(catalogue, root, "2026-01-01")
    writer = OutputWriter(out)
    try:
        stats = render(plan, root, writer, workers=1)
        write_files(plan, root, writer, stats)
    finally:
        writer.close()
    return out
