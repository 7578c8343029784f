""" "How long to embed 1 million sequences?" on the fits page and a family page: each time is
1,000,000 divided by the sequences per second of the point its link names, read at a measured
length at or above the converted length; no time past the longest measured input."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from htmltext import text_of
from scenarios import copy_closure

from rewire_site.build import gather
from rewire_site.models import ModelFamily
from rewire_site.render import Renderer
from rewire_site.render.fits.embed import duration_text
from rewire_site.render.fits.pages import family_curves, fits_page

ROOT = Path(__file__).resolve().parents[1]
EVALS = (
    "rewire-20261202-embed-eval-nt-500m-embed-b32-256tok",
    "rewire-20261202-embed-eval-nt-500m-embed-b8-256tok",
    "rewire-20261202-embed-eval-nt-500m-embed-b32-1000tok",
    "rewire-20261202-embed-eval-dnabert-2-embed-b32-512tok",
)


def test_durations_read_in_seconds_minutes_or_hours() -> None:
    assert duration_text(45) == "45 seconds"
    assert duration_text(500) == "8.3 minutes"
    assert duration_text(10_440) == "2.9 hours"
    assert duration_text(60) == "60 seconds"


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    if not all((ROOT / "records" / f"{e}.yaml").exists() for e in EVALS):
        pytest.skip("the 2026-12-02 throughput records are not in records/")
    root = tmp_path_factory.mktemp("embed")
    copy_closure(list(EVALS), ROOT / "records", root / "records")
    return gather(root / "records", root).catalogue


def _value(ident: str) -> float:
    record = yaml.safe_load((ROOT / "records" / f"{ident}.yaml").read_text(encoding="utf-8"))
    return float(record["results"][0]["value"])


def test_the_fits_page_answers_from_the_records(catalogue) -> None:  # type: ignore[no-untyped-def]
    page = fits_page(catalogue, "2026-12-02-000000000000")
    assert page.embed is not None
    html = Renderer(ROOT / "templates").render(page.template, page).decode("utf-8")
    start = html.index('id="embed-answers"')
    table = html[start : html.index("</table>", start)]
    row = re.search(r'<tr data-model="NT 500M">(.*?)</tr>', table, flags=re.S)
    assert row is not None
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), flags=re.S)
    # 300 bp -> 52 tokens and 1,000 bp -> 169 tokens: both read at 256 tokens, the faster batch
    fastest = max(_value(EVALS[0]), _value(EVALS[1]))
    expected = f"about {duration_text(1e6 / fastest)}"
    for cell in cells[:2]:
        assert expected in text_of(cell)
        assert EVALS[0 if fastest == _value(EVALS[0]) else 1] in cell  # the point it is read from
    # 5,000 bp -> 836 tokens: read at the 1,000-token point
    assert f"about {duration_text(1e6 / _value(EVALS[2]))}" in text_of(cells[2])
    dnabert = re.search(r'<tr data-model="DNABERT-2">(.*?)</tr>', table, flags=re.S)
    assert dnabert is not None and "tokens only" in text_of(dnabert.group(1))
    assert "about" not in text_of(dnabert.group(1)).split("fastest")[1]


def test_a_family_page_shows_its_own_models_only(catalogue) -> None:  # type: ignore[no-untyped-def]
    from rewire_site.derive.fits import curves

    family = catalogue.by_id["gfm-guide-20261014-family-nucleotide-transformer"]
    assert isinstance(family, ModelFamily)
    section = family_curves(family, curves(catalogue), catalogue)
    assert section.embed is not None
    assert {r.model for r in section.embed.rows} == {"NT 500M"}
