"""The model directory (/models/, issue 25): every family and checkpoint with parameters,
context in tokens and base pairs, tokeniser, licence and release, each value from the
records with its citation, or the record's reason why it is missing.

The catalogue is a small copy of real family records of `records/` and what they cite
(scenarios.copy_closure); expected values are read from those record files, not typed
here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from scenarios import copy_closure

from rewire_site.build import gather
from rewire_site.derive.fits import family_base_pairs
from rewire_site.link import Catalogue
from rewire_site.models import ModelFamily
from rewire_site.render.model_directory import (
    NOT_IN_SOURCES,
    CheckpointEntry,
    FamilyEntry,
    model_directory,
)
from rewire_site.render.model_facts import FACT_LABELS, fact_rows
from rewire_site.render.models import length_cell, licence_cell, models_page

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "records"
HYENADNA = "evidence-20261130-family-hyenadna"
NT = "gfm-guide-20261014-family-nucleotide-transformer"
SEGMENTNT = "evidence-20261130-family-segmentnt"
DNABERT2 = "evidence-20261130-family-dnabert-2"
DNABERT2_CONFIG = "evidence-20261130-source-dnabert-2-config-json"
FAMILIES = [HYENADNA, NT, SEGMENTNT, DNABERT2]


def record(records: Path, record_id: str) -> Any:
    return yaml.safe_load((records / f"{record_id}.yaml").read_text(encoding="utf-8"))


def load(project: Path) -> Catalogue:
    return gather(project / "records", project).catalogue


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("model-directory")
    copy_closure(FAMILIES, RECORDS, root / "records")
    return root


@pytest.fixture(scope="module")
def directory(project: Path) -> tuple[FamilyEntry, ...]:
    return model_directory(load(project))


def entry(directory: tuple[FamilyEntry, ...], family_id: str, name: str) -> CheckpointEntry:
    family = next(f for f in directory if f.family_id == family_id)
    return next(c for c in family.checkpoints if c.name == name)


def checkpoint_record(records: Path, family_id: str, index: int) -> Any:
    return record(records, family_id)["checkpoints"][index]


def test_tokens_convert_by_the_fits_page_conversion(project: Path, directory: Any) -> None:
    """HyenaDNA states its training length in tokens and cites a single-nucleotide
    tokeniser; the fits page's conversion (family_base_pairs) gives one base pair per token
    after one special token, and the directory converts by that same function (one
    conversion for every page)."""
    records = project / "records"
    cp = checkpoint_record(records, HYENADNA, 0)
    stated = cp["facts"]["context_length_trained"]
    assert stated["unit"] == "token"
    family = load(project).get(HYENADNA, ModelFamily)
    assert family_base_pairs(family).per_token == 1
    found = entry(directory, HYENADNA, cp["name"]).trained
    assert found is not None
    assert (found.tokens, found.base_pairs, found.converted) == (
        stated["value"],
        float(stated["value"] - 1),
        True,
    )
    assert found.stated.value == stated["printed_value"]
    assert found.stated.locator == stated["citation"]["locator"]


def test_kmer_tokens_convert_as_the_fits_page_does(project: Path, directory: Any) -> None:
    """Nucleotide Transformer's cited 6-mer tokeniser: lengths in tokens also read in base
    pairs, by derive.fits.family_base_pairs (k bp per token after the CLS token)."""
    records = project / "records"
    conversion = family_base_pairs(load(project).get(NT, ModelFamily))
    assert conversion.per_token is not None
    checked = 0
    for cp in record(records, NT)["checkpoints"]:
        facts = cp.get("facts") or {}
        stated = facts.get("context_length_trained")
        if not stated or stated.get("unit") != "token":
            continue
        found = entry(directory, NT, cp["name"]).trained
        assert found is not None, cp["name"]
        assert found.tokens == stated["value"]
        assert found.base_pairs == conversion.base_pairs(int(stated["value"]))
        assert found.converted and found.per_token == conversion.per_token
        checked += 1
    assert checked, "no Nucleotide Transformer checkpoint states a training length in tokens"


def test_base_pairs_stated_stay_base_pairs(project: Path, directory: Any) -> None:
    """SegmentNT states its training length in nucleotides: base pairs shown, tokens not
    derived from them."""
    cp = checkpoint_record(project / "records", SEGMENTNT, 0)
    stated = cp["facts"]["context_length_trained"]
    assert stated["unit"] in ("nucleotide", "base-pair")
    found = entry(directory, SEGMENTNT, cp["name"]).trained
    assert found is not None
    assert (found.base_pairs, found.tokens) == (stated["value"], None)


def test_missing_fact_gives_the_records_reason(project: Path, directory: Any) -> None:
    """A missing parameter count shows the reason and note the record gives, nothing
    else."""
    family = record(project / "records", HYENADNA)
    note = family["missing_metadata"]["checkpoints.0.facts.parameters"]["note"]
    found = entry(directory, HYENADNA, family["checkpoints"][0]["name"])
    assert found.parameters.value == ""
    assert found.parameters.source_id is None
    assert note in found.parameters.missing
    assert found.parameter_count is None


def test_checkpoint_without_facts_says_so(project: Path, directory: Any) -> None:
    family = record(project / "records", HYENADNA)
    bare = next(c for c in family["checkpoints"] if "facts" not in c)
    found = entry(directory, HYENADNA, bare["name"])
    assert not found.has_facts
    assert found.parameters.missing and found.tokeniser.missing
    assert found.trained is None and found.accepted is None
    assert found.licence.value == ""


def test_rows_sorted_by_family_then_parameters(directory: tuple[FamilyEntry, ...]) -> None:
    names = [f.name.lower() for f in directory]
    assert names == sorted(names)
    for family in directory:
        counts = [c.parameter_count for c in family.checkpoints]
        stated = [c for c in counts if c is not None]
        assert stated == sorted(stated), family.name
        assert counts[: len(stated)] == stated, f"{family.name}: unstated counts come last"


def test_licence_of_a_cited_code_repository_is_marked_as_such(
    project: Path, directory: Any
) -> None:
    """No source record of DNABERT-2's hub repository states a licence (its config.json
    record has none), so the licence shown is the cited README's repository licence,
    marked as not stated for the weights."""
    records = project / "records"
    assert record(records, DNABERT2_CONFIG)["licence"] is None
    cp = checkpoint_record(records, DNABERT2, 0)
    found = entry(directory, DNABERT2, cp["name"]).licence
    assert found.scope == "code"
    assert found.source_id is not None
    assert found.value == record(records, found.source_id)["licence"]
    cell = next(
        r.licence
        for f in models_page(load(project), "2026-11-30-000000000000").families
        for r in f.rows
        if r.name == cp["name"]
    )
    assert cell.text == found.value
    assert "not stated for the weights" in cell.detail
    assert cell.cite is not None and found.source_id in cell.cite.href


def test_licence_of_the_checkpoints_own_repository_wins(tmp_path: Path) -> None:
    """A source record of the checkpoint's own hub repository that states a licence is
    the checkpoint's licence (scope 'checkpoint'), ahead of a code repository's."""
    copy_closure([DNABERT2], RECORDS, tmp_path / "records")
    path = tmp_path / "records" / f"{DNABERT2_CONFIG}.yaml"
    text = path.read_text(encoding="utf-8")
    assert "\nlicence: null\n" in text
    text = text.replace("\nlicence: null\n", "\nlicence: Apache-2.0\n")
    text, removed = re.subn(r"\n  licence:\n    reason: \w+\n    note: [^\n]*", "", text)
    assert removed == 1  # its reason for a missing licence goes with it
    path.write_text(text, "utf-8")
    found = model_directory(load(tmp_path))
    cp = checkpoint_record(tmp_path / "records", DNABERT2, 0)
    licence = entry(found, DNABERT2, cp["name"]).licence
    assert (licence.scope, licence.source_id) == ("checkpoint", DNABERT2_CONFIG)


def test_page_lists_every_family_and_checkpoint(project: Path) -> None:
    catalogue = load(project)
    page = models_page(catalogue, "2026-11-30-000000000000")
    families = catalogue.families()
    assert {f.name for f in page.families} == {f.name for f in families}
    assert sum(len(f.rows) for f in page.families) == sum(len(f.checkpoints) for f in families)
    assert len({r.anchor for f in page.families for r in f.rows}) == sum(
        len(f.rows) for f in page.families
    )
    assert page.path == "models/index.html"


def test_stated_base_pairs_replace_the_conversion(project: Path, directory: Any) -> None:
    """NT-v2 states its 2,048 tokens as '12kbp': the page shows the stated base pairs with
    their source, not the 6-mer conversion, and the 'up to' as an upper bound."""
    records = project / "records"
    checked = 0
    for cp in record(records, NT)["checkpoints"]:
        stated = (cp.get("facts") or {}).get("context_length_accepted") or {}
        if "base_pairs" not in stated:
            continue
        found = entry(directory, NT, cp["name"]).accepted
        assert found is not None and found.base_pairs_stated is not None
        assert found.base_pairs == stated["base_pairs"]["value"] and not found.converted
        assert found.base_pairs_stated.value == stated["base_pairs"]["printed_value"]
        assert found.stated.qualifiers == tuple(stated["qualifiers"])
        cell = length_cell(found, "", entry(directory, NT, cp["name"]).tokeniser)
        assert stated["base_pairs"]["printed_value"] in cell.detail
        assert "upper bound" in cell.text
        checked += 1
    assert checked, "no NT checkpoint states its accepted length in base pairs"


def test_fact_left_out_reads_not_reported_by_the_cited_sources(
    project: Path, directory: Any
) -> None:
    """A fact the record leaves out without a reason (allowed inside a checkpoint's facts)
    reads as the derived default; the release a source states is shown with its quote."""
    family = record(project / "records", DNABERT2)
    cp = family["checkpoints"][0]
    assert "training_compute" not in cp["facts"]
    assert "checkpoints.0.facts.training_compute" not in family["missing_metadata"]
    found = entry(directory, DNABERT2, cp["name"])
    assert found.training_compute is None
    assert "training_compute" in found.missing
    assert found.release is not None
    assert found.release.state == cp["facts"]["release"]["state"]
    assert found.release.cited.quote == cp["facts"]["release"]["citation"]["quote"]
    rows = fact_rows(load(project).get(DNABERT2, ModelFamily), load(project))
    compute = next(r for r in rows if r.label == FACT_LABELS["training_compute"])
    assert compute.missing and compute.value == NOT_IN_SOURCES


def test_hardware_requirements_keep_use_and_citation(project: Path, directory: Any) -> None:
    family = record(project / "records", HYENADNA)
    stated = family["checkpoints"][0]["facts"]["hardware_requirements"]
    found = entry(directory, HYENADNA, family["checkpoints"][0]["name"])
    assert [h.use for h in found.hardware] == [s["use"] for s in stated]
    assert [h.cited.value for h in found.hardware] == [s["printed_value"] for s in stated]
    assert [h.cited.locator for h in found.hardware] == [s["citation"]["locator"] for s in stated]
    assert "hardware_requirements" not in found.missing


def test_weights_licence_fact_wins_and_says_so(tmp_path: Path) -> None:
    copy_closure([DNABERT2], RECORDS, tmp_path / "records")
    path = tmp_path / "records" / f"{DNABERT2}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    release = data["checkpoints"][0]["facts"]["release"]["citation"]
    data["checkpoints"][0]["facts"]["weights_licence"] = {"value": "MIT", "citation": release}
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    found = model_directory(load(tmp_path))
    cp = entry(found, DNABERT2, data["checkpoints"][0]["name"])
    assert (cp.licence.value, cp.licence.scope) == ("MIT", "weights")
    assert licence_cell(cp.licence).detail == "Licence of the weights, as stated"
