"""Every built page of the real records is valid HTML and its links resolve.

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


@pytest.fixture(scope="module")
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
