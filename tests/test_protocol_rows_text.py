"""What a protocol page says, without JavaScript, about result rows it does not list.

A protocol with more than 60 published results lists no result rows of its own (each
value links to its evaluation page); its filter status line counted the rows listed and
read "0 matching evaluations". A protocol with measurements only read "The 0 published
result rows", and so did one whose published evaluation holds claims, not values
(HyenaDNA's Colab GPU fit). Without result rows the filter hides and counts the
comparison tables' rows, with or without JavaScript: "N matching table rows". The pages
are built from real records (Feng et al.'s embedding time, the H200 memory curves, the
HyenaDNA Colab fit), copied with what they refer to."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from htmltext import flat, page_text
from scenarios import copy_closure

from rewire_site.build import build_site
from rewire_site.link import Catalogue
from rewire_site.models.evaluation import Origin

ROOT = Path(__file__).resolve().parents[1]
MANY = "feng-2024-protocol-embedding-time"
MEASURED_ONLY = "rewire-20261130-protocol-gpu-memory-curves"
CLAIMS_ONLY = "evidence-20261130-protocol-hyenadna-colab-gpu-fit"


def _ids(catalogue: Catalogue, protocol: str) -> list[str]:
    """Ids of the live evaluations under `protocol` (the catalogue gathered once)."""
    return sorted(e.id for e in catalogue.evaluations_of(protocol))


def _fit_measurements(catalogue: Catalogue) -> int:
    """The live catalogue's Rewire measurements under the Colab-fit protocol (editors add
    more: the tests read the count, they do not pin it)."""
    return sum(e.origin == Origin.rewire_measurement for e in catalogue.evaluations_of(CLAIMS_ONLY))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, live_catalogue: Catalogue) -> Path:
    feng = _ids(live_catalogue, MANY)[:61]
    curves = _ids(live_catalogue, MEASURED_ONLY)[:4]
    fit = _ids(live_catalogue, CLAIMS_ONLY)
    assert len(feng) == 61 and len(curves) == 4, "the live catalogue lost these protocols"
    measured = [
        e.id
        for e in live_catalogue.evaluations_of(CLAIMS_ONLY)
        if e.origin == Origin.rewire_measurement
    ]
    assert 0 < len(measured) < len(fit), "the Colab fit protocol: published and measured"
    project = tmp_path_factory.mktemp("rows-text")
    (project / "records").mkdir()
    copy_closure(feng + curves + fit, ROOT / "records", project / "records")
    build_site(project, project / "site", release_date=date(2026, 11, 30))
    return project / "site"


def _page(site: Path, protocol: str) -> str:
    return flat(page_text(site / "protocols" / protocol / "index.html"))


def _table_rows(site: Path, protocol: str) -> int:
    """Rows of the page's comparison tables (published and measurements)."""
    html = (site / "protocols" / protocol / "index.html").read_text(encoding="utf-8")
    tables = re.findall(r'<table id="comparison(?:-measurements)?".*?</table>', html, re.S)
    return sum(len(re.findall(r"<tr\b", t.split("<tbody>", 1)[1])) for t in tables)


def test_many_results_count_the_table_rows_listed_without_javascript(site: Path) -> None:
    text = _page(site, MANY)
    rows = _table_rows(site, MANY)
    assert 2 <= rows < 61
    assert "matching evaluation" not in text
    assert re.search(rf"· {rows} matching table rows\b", text), "as rewire.js counts at load"


def test_measurements_only_protocol_says_no_published_result(site: Path) -> None:
    text = _page(site, MEASURED_ONLY)
    assert "0 published result rows" not in text
    assert "No published result is recorded under this protocol" in text
    assert "0 matching" not in text  # (these four points share every facet: no filter)


def test_claims_only_published_evaluation_has_no_published_rows(
    site: Path, live_catalogue: Catalogue
) -> None:
    text = _page(site, CLAIMS_ONLY)
    assert "0 published result rows" not in text
    assert "No published result value is recorded under this protocol" in text
    measured = _fit_measurements(live_catalogue)
    each = f"each of the {measured} measurements" if measured > 1 else "the measurement"
    assert (
        "No published result value is recorded under this protocol (its claims as printed are "
        f"on the evaluation pages; {each} has its own page, linked from the "
        "measurements table)" in text
    )
    assert _table_rows(site, CLAIMS_ONLY) == measured
    assert f"· {measured} matching table rows" in text
    assert "matching evaluation" not in text


def test_run_times_read_as_durations(site: Path) -> None:
    """The Colab-fit page's recorded run times and its recipe's hand estimate (1.0
    minutes in the record) read as durations: 'about 1 minute', not 'about 1 minutes'."""
    text = _page(site, CLAIMS_ONLY)
    assert re.search(r"ran for [^.]+ each, by their recorded start and end times", text)
    assert "about 1 minute for the whole recipe" in text
    assert "1 minutes" not in text
