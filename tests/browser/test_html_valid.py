"""Every page of the site built from the browser tests' catalogue of real records (see
conftest.py) is valid HTML and its links resolve.

No browser needed: html5lib parses each page in strict mode (any parse error of the
HTML standard fails: stray or missing end tags, duplicate attributes, bad doctype...);
then the parsed tree is checked for duplicate ids, tables without caption or header
scope, and links to files or fragments that do not exist in the built site.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

html5lib = pytest.importorskip("html5lib", reason="html5lib is needed for the HTML check")

NS = "{http://www.w3.org/1999/xhtml}"


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def parse(path: Path) -> ET.Element:
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=True)
    with path.open("rb") as handle:
        return parser.parse(handle)  # type: ignore[no-any-return]


@pytest.fixture(scope="session")  # parsed once, though xdist interleaves modules
def parsed(built_site: Path) -> dict[Path, ET.Element]:
    trees: dict[Path, ET.Element] = {}
    errors: list[str] = []
    for path in pages(built_site):
        try:
            trees[path] = parse(path)
        except html5lib.html5parser.ParseError as exc:
            errors.append(f"{path.relative_to(built_site)}: {exc}")
    assert not errors, f"{len(errors)} page(s) are not valid HTML:\n" + "\n".join(errors[:30])
    return trees


def test_site_has_pages(built_site: Path) -> None:
    assert (built_site / "index.html").is_file()
    assert len(pages(built_site)) >= 20


def test_every_page_parses_strictly(parsed: dict[Path, ET.Element]) -> None:
    for tree in parsed.values():
        assert tree.tag == f"{NS}html"
        assert tree.get("lang") == "en"


def test_ids_are_unique(parsed: dict[Path, ET.Element], built_site: Path) -> None:
    problems = []
    for path, tree in parsed.items():
        seen: set[str] = set()
        for element in tree.iter():
            ident = element.get("id")
            if ident is None:
                continue
            if ident in seen:
                problems.append(f"{path.relative_to(built_site)}: duplicate id '{ident}'")
            seen.add(ident)
    assert not problems, "\n".join(problems[:30])


def test_tables_have_caption_and_scoped_headers(
    parsed: dict[Path, ET.Element], built_site: Path
) -> None:
    problems = []
    for path, tree in parsed.items():
        for number, table in enumerate(tree.iter(f"{NS}table")):
            where = f"{path.relative_to(built_site)} table {number}"
            if table.find(f"{NS}caption") is None:
                problems.append(f"{where}: no caption")
            for th in table.iter(f"{NS}th"):
                if th.get("scope") not in ("col", "row", "colgroup", "rowgroup"):
                    problems.append(f"{where}: <th> without scope")
                    break
    assert not problems, "\n".join(problems[:30])


def _ids(tree: ET.Element) -> set[str]:
    found = {e.get("id") for e in tree.iter() if e.get("id")}
    found |= {e.get("name") for e in tree.iter(f"{NS}a") if e.get("name")}
    return {i for i in found if i}


def test_internal_links_resolve(parsed: dict[Path, ET.Element], built_site: Path) -> None:
    """Every relative href/src names a file of the site, and every fragment an id in it."""
    ids = {path.resolve(): _ids(tree) for path, tree in parsed.items()}
    problems = []
    for path, tree in parsed.items():
        for element in tree.iter():
            for attribute in ("href", "src"):
                target = element.get(attribute)
                if target is None:
                    continue
                parts = urlsplit(target)
                if parts.scheme or parts.netloc or target.startswith("//"):
                    continue  # external: not checked offline
                file = (
                    path.resolve()
                    if not parts.path
                    else (path.parent / unquote(parts.path)).resolve()
                )
                if file.is_dir():
                    file = file / "index.html"
                if not file.is_file() or not file.is_relative_to(built_site.resolve()):
                    problems.append(f"{path.relative_to(built_site)}: {target}: no such file")
                    continue
                fragment = unquote(parts.fragment)
                if fragment and file.suffix == ".html":
                    known = ids.get(file, set())
                    if fragment not in known:
                        problems.append(f"{path.relative_to(built_site)}: {target}: no id")
    assert not problems, f"{len(problems)} broken link(s):\n" + "\n".join(problems[:40])


LANDMARK_TAGS = {"main": "main", "nav": "navigation", "aside": "complementary"}
LANDMARK_ROLES = {"banner", "complementary", "contentinfo", "form", "main", "navigation",
                  "region", "search"}  # fmt: skip


def _text(element: ET.Element) -> str:
    return " ".join("".join(element.itertext()).split())


def landmarks(tree: ET.Element) -> list[tuple[str, str]]:
    """(role, accessible name) of every landmark of a page, as axe's landmark-unique rule
    sees them: main, nav, aside; header and footer outside sectioning elements; a section
    or form with a name; any element with an explicit landmark role."""
    by_id = {e.get("id"): e for e in tree.iter() if e.get("id")}
    parents = {child: parent for parent in tree.iter() for child in parent}
    found = []
    for element in tree.iter():
        tag = element.tag.removeprefix(NS) if isinstance(element.tag, str) else ""
        role = element.get("role")
        if role is None:
            role = LANDMARK_TAGS.get(tag)
        if role is None and tag in ("header", "footer"):
            scoped, parent = False, parents.get(element)
            while parent is not None:
                if parent.tag.removeprefix(NS) in ("article", "aside", "main", "nav", "section"):
                    scoped = True
                parent = parents.get(parent)
            role = None if scoped else ("banner" if tag == "header" else "contentinfo")
        name = element.get("aria-label") or " ".join(
            _text(by_id[i]) for i in (element.get("aria-labelledby") or "").split() if i in by_id
        )
        if role is None and tag in ("section", "form") and name:
            role = "region" if tag == "section" else "form"
        if role in LANDMARK_ROLES:
            found.append((role, name))
    return found


def test_landmarks_are_unique_on_every_page(
    parsed: dict[Path, ET.Element], built_site: Path
) -> None:
    """axe's landmark-unique rule, on every page of the site (the browser runs axe
    itself on a sample of each page type): no two landmarks of one role share a name.
    Tables that scroll are named groups, not landmarks: a table captioned like its
    section made two 'Evaluations on this dataset' landmarks."""
    problems = []
    for path, tree in parsed.items():
        seen = landmarks(tree)
        twice = sorted({pair for pair in seen if seen.count(pair) > 1})
        for role, name in twice:
            problems.append(f"{path.relative_to(built_site)}: two {role} landmarks named {name!r}")
    assert not problems, f"{len(problems)} duplicate landmark(s):\n" + "\n".join(problems[:30])


def test_page_titles_are_unique(parsed: dict[Path, ET.Element], built_site: Path) -> None:
    """Two pages never share a <title> (runs of one setup add their record id)."""
    by_title: dict[str, list[str]] = {}
    for path, tree in parsed.items():
        title = tree.find(f"{NS}head/{NS}title")
        assert title is not None, path
        by_title.setdefault(_text(title), []).append(str(path.relative_to(built_site)))
    shared = {t: p for t, p in by_title.items() if len(p) > 1}
    lines = [f"{len(p)} pages titled {t!r}: {', '.join(p[:3])}" for t, p in sorted(shared.items())]
    assert not shared, "\n".join(lines[:20])


def test_every_page_links_a_favicon_that_exists(
    parsed: dict[Path, ET.Element], built_site: Path
) -> None:
    """A favicon on every page (a served page no longer asks for a missing one)."""
    problems = []
    for path, tree in parsed.items():
        icons = [
            link.get("href", "")
            for link in tree.iter(f"{NS}link")
            if "icon" in (link.get("rel") or "").split()
        ]
        if not icons:
            problems.append(f"{path.relative_to(built_site)}: no <link rel=icon>")
        elif not (path.parent / icons[0]).resolve().is_file():
            problems.append(f"{path.relative_to(built_site)}: {icons[0]}: no such file")
    assert not problems, "\n".join(problems[:20])
