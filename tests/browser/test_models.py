"""A researcher's task (issue 25): the parameters, context and licence of a named
checkpoint with citations, within 3 clicks from the home page; the model directory reads
without sideways scrolling on a phone. Expected values are read from the bounded
catalogue's record files, not typed here."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

pytestmark = pytest.mark.browser

FAMILY = "gfm-guide-20261014-family-nucleotide-transformer"
CHECKPOINT = "InstaDeepAI/nucleotide-transformer-v2-500m-multi-species"
MODELS_PAGE = "models/index.html"
Shot = Callable[[Any, str], Path]


def load(records: Path, record_id: str) -> Any:
    return yaml.safe_load((records / f"{record_id}.yaml").read_text(encoding="utf-8"))


def source_id_of(href: str) -> str:
    """The record id in a source page's link: '../sources/<id>/index.html'."""
    parts = href.split("/")
    return parts[parts.index("sources") + 1]


def test_checkpoint_facts_with_citations_from_home(
    page: Any, site_url: str, built_site: Path, shot: Shot
) -> None:
    records = built_site.parent / "records"
    family = load(records, FAMILY)
    facts = next(c for c in family["checkpoints"] if c["name"] == CHECKPOINT)["facts"]
    cited = {facts[name]["citation"]["source"] for name in facts if facts[name]}

    page.goto(site_url + "index.html")
    page.get_by_role("navigation", name="Site").get_by_role("link", name="Models").click()
    page.wait_for_url("**/" + MODELS_PAGE)  # one click
    row = page.locator("tbody tr").filter(
        has=page.get_by_role("rowheader", name=CHECKPOINT, exact=True)
    )
    assert row.count() == 1

    parameters = row.locator('td[data-label="Parameters"]')
    assert facts["parameters"]["printed_value"] in parameters.inner_text()
    link = parameters.get_by_role("link")
    assert facts["parameters"]["citation"]["locator"] in link.inner_text()
    assert source_id_of(link.get_attribute("href")) == facts["parameters"]["citation"]["source"]

    trained = facts["context_length_trained"]
    context = row.locator('td[data-label="Context in pre-training"]')
    assert f"{int(trained['value']):,} {trained['unit']}s" in context.inner_text()
    link = context.get_by_role("link")
    assert trained["citation"]["locator"] in link.inner_text()
    assert source_id_of(link.get_attribute("href")) == trained["citation"]["source"]

    licence = row.locator('td[data-label="Licence"]')
    link = licence.get_by_role("link")
    source_id = source_id_of(link.get_attribute("href"))
    assert source_id in cited, "the licence comes from a source cited for the checkpoint"
    stated = load(records, source_id)["licence"]
    assert stated and licence.inner_text().startswith(stated)
    shot(page, "models-directory")
    link.click()  # two clicks: the source page states the licence
    assert stated in page.locator("main").inner_text()


def test_directory_fits_a_phone(phone_page: Any, site_url: str, shot: Shot) -> None:
    """At 375 px each checkpoint stacks into labelled lines: no sideways scrolling, and
    every value keeps its label."""
    phone_page.goto(site_url + MODELS_PAGE)
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"{MODELS_PAGE} is {width} px wide at 375 px"
    label = phone_page.locator('tbody td[data-label="Licence"]').first
    before = label.evaluate("el => getComputedStyle(el, '::before').content")
    assert "Licence" in before
    shot(phone_page, "phone-models-directory")


LEFT = "evidence-20261130-family-dnabert-2"
RIGHT = "evidence-20261130-family-hyenadna"
COMPARE_PAGE = f"models/compare/{LEFT}--{RIGHT}/index.html"
SHARED = "feng-2024-eval-dnabert-2-mean-4mc-a-thaliana-mcc"
OTHER = "feng-2024-eval-hyenadna-medium-160k-mean-4mc-a-thaliana-mcc"


def test_two_models_compared_on_shared_tasks_from_home(
    page: Any, site_url: str, built_site: Path, shot: Shot
) -> None:
    """Home -> Models -> 'DNABERT-2 and HyenaDNA': both models' values on a shared task
    side by side, each linking to its evidence, with the verdict layer's judgement
    (derive.model_compare over the same records)."""
    from rewire_site.build import gather
    from rewire_site.derive.concerns import flags_by_evaluation
    from rewire_site.derive.model_compare import compare_families
    from rewire_site.render.model_compare import compare_page

    project = built_site.parent
    catalogue = gather(project / "records", project).catalogue
    pair = compare_families(LEFT, RIGHT, catalogue, flags_by_evaluation(catalogue))
    expected = compare_page(pair, (), "x")
    line = next(
        item
        for table in expected.tables
        for item in table.lines
        if any(v.value.href.endswith(f"/{SHARED}/index.html") for v in item.left)
        and any(v.value.href.endswith(f"/{OTHER}/index.html") for v in item.right)
    )
    left = load(project / "records", SHARED)["results"][0]
    right = load(project / "records", OTHER)["results"][0]

    page.goto(site_url + "index.html")
    page.get_by_role("navigation", name="Site").get_by_role("link", name="Models").click()
    page.wait_for_url("**/" + MODELS_PAGE)  # one click
    page.locator("#compare-models").get_by_role(
        "link", name=re.compile("DNABERT-2 and HyenaDNA")
    ).click()
    page.wait_for_url("**/" + COMPARE_PAGE)  # two clicks
    assert "DNABERT-2" in page.locator("h1").inner_text()
    assert "HyenaDNA" in page.locator("h1").inner_text()
    row = (
        page.locator("tbody tr")
        .filter(has=page.locator(f"a[href$='/{SHARED}/index.html']"))
        .filter(has=page.locator(f"a[href$='/{OTHER}/index.html']"))
    )
    assert row.count() == 1
    left_cell = row.locator('td[data-label="DNABERT-2"]').inner_text()
    right_cell = row.locator('td[data-label="HyenaDNA"]').inner_text()
    assert str(left.get("printed_value") or left["value"])[:5] in left_cell
    assert str(right.get("printed_value") or right["value"])[:5] in right_cell
    assert row.locator('td[data-label="Verdict"]').inner_text() == line.verdict
    assert row.locator('td[data-label="Difference"]').inner_text() == line.difference
    shot(page, "models-compare")
    row.locator(f"a[href$='/{SHARED}/index.html']").click()  # three clicks: the evidence
    page.wait_for_url(f"**/evaluations/{SHARED}/index.html")


@pytest.mark.parametrize(
    "path", [COMPARE_PAGE, f"families/{LEFT}/index.html", "families/" + FAMILY + "/index.html"]
)
def test_model_pages_fit_a_phone(phone_page: Any, site_url: str, path: str, shot: Shot) -> None:
    """Key facts, results and comparisons stack at 375 px: no sideways scrolling."""
    phone_page.goto(site_url + path)
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"{path} is {width} px wide at 375 px"
    shot(phone_page, "phone-" + path.split("/")[1][:40])


def test_family_page_key_facts_first_with_citations(
    page: Any, site_url: str, built_site: Path
) -> None:
    """The family page opens on each checkpoint's key facts with their citations; "how we
    know" is collapsed."""
    records = built_site.parent / "records"
    family = load(records, FAMILY)
    facts = next(c for c in family["checkpoints"] if c["name"] == CHECKPOINT)["facts"]
    page.goto(site_url + "families/" + FAMILY + "/index.html")
    row = page.locator("table.key-facts tbody tr").filter(
        has=page.locator("th", has_text=CHECKPOINT)
    )
    assert row.count() == 1
    parameters = row.locator('td[data-label="Parameters"]')
    assert facts["parameters"]["printed_value"] in parameters.inner_text()
    link = parameters.get_by_role("link")
    assert source_id_of(link.get_attribute("href")) == facts["parameters"]["citation"]["source"]
    assert not page.locator("details.how-we-know").evaluate("d => d.open")
    assert page.locator("#model-facts").is_hidden()
