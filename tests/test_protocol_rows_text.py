"""What a protocol page says, without JavaScript, about result rows it does not list.

A protocol with more than 60 published results lists no result rows of its own (each
value links to its evaluation page); its filter status line counted the rows listed and
read "0 matching evaluations". A protocol with measurements only read "The 0 published
result rows". Both pages are built from real records (Feng et al.'s embedding time, and
the H200 memory curves), copied with what they refer to."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from htmltext import flat, page_text
from scenarios import copy_closure

from rewire_site.build import build_site

ROOT = Path(__file__).resolve().parents[1]
MANY = "feng-2024-protocol-embedding-time"
MEASURED_ONLY = "rewire-20261130-protocol-gpu-memory-curves"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    texts = {p.stem: p.read_text(encoding="utf-8") for p in (ROOT / "records").glob("*.yaml")}
    feng = sorted(k for k, t in texts.items() if f"\nprotocol: {MANY}\n" in t)[:61]
    curves = sorted(k for k, t in texts.items() if f"\nprotocol: {MEASURED_ONLY}\n" in t)[:4]
    assert len(feng) == 61 and len(curves) == 4, "the live catalogue lost these protocols"
    project = tmp_path_factory.mktemp("rows-text")
    (project / "records").mkdir()
    copy_closure(feng + curves, ROOT / "records", project / "records")
    build_site(project, project / "site", release_date=date(2026, 11, 30))
    return project / "site"


def _page(site: Path, protocol: str) -> str:
    return flat(page_text(site / "protocols" / protocol / "index.html"))


def test_many_results_count_every_evaluation_without_javascript(site: Path) -> None:
    text = _page(site, MANY)
    assert "0 matching evaluations" not in text
    assert re.search(r"\b61 matching evaluations\b", text)


def test_measurements_only_protocol_says_no_published_result(site: Path) -> None:
    text = _page(site, MEASURED_ONLY)
    assert "0 published result rows" not in text
    assert "No published result is recorded under this protocol" in text
