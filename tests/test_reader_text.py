"""No page shows readers text written for developers or editors: code names
('derive.readiness._values', 'release.hash_artifacts'), record field paths ('results.0',
'Results.0', 'checkpoints.2.facts.layers'), notes for editors ('for an editor to add') or
boilerplate that contradicts the page ('A comparison chart has not yet been validated' on
a page with charts). Issue 23, item 7: 2,104 live pages said "Checked by
derive.readiness._values", 1,718 "Results.0".

Read over every HTML page of the golden site and of the live catalogue, each built into a
temporary folder: the visible text and the attributes a reader meets (title, alt,
aria-label). Attributes for scripts and tests (data-*) are not read.
"""

from __future__ import annotations

import re
from datetime import date
from html import unescape
from pathlib import Path

import pytest

from rewire_site.build import build_site

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "fixtures" / "golden"

FORBIDDEN = re.compile(
    r"(?<!/)\b(?:rewire_site|derive|render|release|export|models|importers)"
    r"\.(?!(?:yaml|json|csv|html)\b)[a-z_]+\w*"  # code names, not a file's name nor a
    # file of a source repository ('dgeb/models.py' of TattaBio/DGEB)
    r"|\b_values\b"  # a private function's name
    r"|\b(?:results|claims|checkpoints|columns|artifacts|citations|concerns|estimates"
    r"|values|datasets|settings)\.\d+\b"  # field paths ('results.0', 'Results.0')
    r"|\bcomparison\.[a-z]+_[a-z_]+"  # 'comparison.dataset_version'
    r"|for an editor|seed pages? show|batch review|\bTODO\b"  # editor text
    r"|has not yet been validated|has not yet been reviewed for this record",  # boilerplate
)
"""What a reader must never meet (the reviewers' grep, widened), in lower case: it reads
text lowered first (`forbidden_in`), 1.6 times as fast as an IGNORECASE search over the live
catalogue's pages (12.8 -> 8.0 CPU s at 5,455 pages)."""


def forbidden_in(text: str) -> list[re.Match[str]]:
    """Where `text` shows what FORBIDDEN names, in any case."""
    return list(FORBIDDEN.finditer(text.lower()))


READ_ATTRIBUTES = ("alt", "aria-label", "placeholder", "title")
_UNREAD = re.compile(r"<(script|style)\b.*?</\1\s*>|<!--.*?-->", re.IGNORECASE | re.DOTALL)
_READ_ATTRIBUTE = re.compile(
    r"\s(?:" + "|".join(READ_ATTRIBUTES) + r""")\s*=\s*(?:"([^"]*)"|'([^']*)')""",
    re.IGNORECASE,
)
_TAG = re.compile(r"<[^>]*>")


def reader_text(html: str) -> str:
    """The text a reader meets: what is between the tags (not in scripts, styles or
    comments) and the attributes of READ_ATTRIBUTES, entities decoded. Read with
    regular expressions over the page the builder wrote (escaped by the templates):
    html.parser took minutes over the live catalogue's pages on two busy cores."""
    shown = _UNREAD.sub(" ", html)
    attributes = [a or b for a, b in _READ_ATTRIBUTE.findall(shown)]
    return unescape(" ".join([_TAG.sub(" ", shown), *attributes]))


def offences(site: Path) -> dict[str, list[str]]:
    """Page path -> what it shows that it must not (each with some context)."""
    found: dict[str, list[str]] = {}
    for page in sorted(site.rglob("*.html")):
        text = re.sub(r"\s+", " ", reader_text(page.read_text(encoding="utf-8")))
        hits = [text[max(0, m.start() - 60) : m.end() + 30] for m in forbidden_in(text)]
        if hits:
            found[page.relative_to(site).as_posix()] = hits
    return found


def _report(found: dict[str, list[str]]) -> str:
    lines = [f"{len(found)} pages show developer or editor text:"]
    for page, hits in list(found.items())[:15]:
        lines.append(f"{page}: {hits[:3]}")
    return "\n".join(lines)


def test_the_check_catches_what_readers_must_not_see() -> None:
    for shown in (
        "Checked by derive.readiness._values: each of 1 result holds a value.",
        "Checked by release.hash_artifacts: the builder hashed 1 file.",
        "see models.family for the checkpoints",
        "Results.0: the source does not state which way is better.",
        "results.0.coverage: reason: unreported",
        "checkpoints.2.facts.layers: reason: unreported",
        "comparison.dataset_version: reason: inapplicable",
        "checkpoints and model facts are for an editor to add.",
        "A comparison chart has not yet been validated for these results.",
        "An explanatory profile has not yet been reviewed for this record.",
    ):
        assert forbidden_in(reader_text(f"<p>{shown}</p>")), shown
    assert forbidden_in(reader_text('<span title="Results.0">x</span>'))
    for fine in (
        "Table A.3 of the paper",
        "Peak memory 33.9 GB (printed: 33.88)",
        "result 1, coverage: Not applicable",
        "https://doi.org/10.5281/zenodo.11583224",
        "records/saadat-fellay-20261015-source-optimizing-genomic-language-models.yaml",
        'quote: logs["timer/step"] = (time.time() - self._snap_step_time)',
        '<span data-derived="rewire_site.render.findings.protocol_headline">ok</span>',
        "dgeb/models.py (TattaBio/DGEB), lines 90-91",
    ):
        assert not forbidden_in(reader_text(fine)), fine


def test_golden_site_shows_readers_no_code_names_or_editor_text(tmp_path: Path) -> None:
    build_site(GOLDEN, tmp_path / "site", release_date=date(2026, 2, 10), workers=1)
    found = offences(tmp_path / "site")
    assert not found, _report(found)


@pytest.mark.slow
def test_live_catalogue_shows_readers_no_code_names_or_editor_text(live_site: Path) -> None:
    found = offences(live_site)
    assert not found, _report(found)
