"""The "Does it fit on my GPU?" page is reachable: the memory-curve protocol's page links to
it and sitemap.xml lists it (the memory_curves scenario, tests/fits_scenario.py, built by
the real build)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

pytest.importorskip("measure.memory_curve.records")

from fits_scenario import PROTOCOL, write_scenario

from rewire_site.render.fits.pages import FITS_PATH


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from rewire_site.build import build_site

    root = tmp_path_factory.mktemp("curves-links")
    write_scenario(root)
    out = root / "site"
    build_site(root, out, release_date=date(2026, 11, 30), workers=1)
    return out


def test_the_curve_protocol_page_links_to_the_fits_page(site: Path) -> None:
    page = (site / "protocols" / PROTOCOL / "index.html").read_text(encoding="utf-8")
    assert f'<a href="../../{FITS_PATH}">Does it fit on my GPU?</a>' in page
    assert (site / FITS_PATH).is_file()


def test_the_sitemap_lists_the_fits_page(site: Path) -> None:
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert f"/{FITS_PATH.removesuffix('index.html')}</loc>" in sitemap
