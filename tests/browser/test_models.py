"""A researcher's task (issue 25): the parameters, context and licence of a named
checkpoint with citations, within 3 clicks from the home page; the model directory reads
without sideways scrolling on a phone. Expected values are read from the bounded
catalogue's record files, not typed here."""

from __future__ import annotations

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
