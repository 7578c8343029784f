"""Exports (export/): Every Eval Ever documents validated against the pinned
eval.schema.json, BibTeX and CSL-JSON citations, and the sitemap."""

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest
from eee_upstream import upstream_errors

from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol, Source
from rewire_site.render.export import EEE_DOWNLOAD, SITE_URL, SITEMAP, export_files
from rewire_site.render.export.eee import (
    SCHEMA_COMMIT,
    SCHEMA_VERSION,
    eee_jsonl,
    evaluation_document,
)
from rewire_site.validate import validate_paths

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schemas" / "external" / "every_eval_ever" / "eval.schema.json"
RELEASE = "2026-11-30-000000000000"


@pytest.fixture(scope="module")
def catalogue(live_catalogue: Catalogue) -> Catalogue:
    """The live catalogue, gathered once per test process (tests/conftest.py)."""
    return live_catalogue


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SCHEMA.read_text("utf-8"))
    assert schema["version"] == SCHEMA_VERSION
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def test_schema_copy_is_the_pinned_upstream_file() -> None:
    """The committed schema is byte for byte the file at the pinned commit, where a clone
    of evaleval/every_eval_ever is at hand; otherwise its recorded hash."""
    data = SCHEMA.read_bytes()
    mirror = Path("/work/.mirror/evaleval+every_eval_ever/repo")
    if mirror.is_dir():
        upstream = subprocess.run(
            [
                "git",
                "--git-dir",
                str(mirror),
                "show",
                f"{SCHEMA_COMMIT}:every_eval_ever/schemas/eval.schema.json",
            ],
            capture_output=True,
            check=True,
        ).stdout
        assert data == upstream
    assert hashlib.sha256(data).hexdigest() == (SCHEMA.parent / "SHA256").read_text().split()[0]


def test_validator_copy_is_the_pinned_upstream_file() -> None:
    """eval_types.py (the EEE validator's Pydantic model) is byte for byte the file at the
    pinned commit, where a clone is at hand; otherwise its recorded hash."""
    data = (SCHEMA.parent / "eval_types.py").read_bytes()
    mirror = Path("/work/.mirror/evaleval+every_eval_ever/repo")
    if mirror.is_dir():
        upstream = subprocess.run(
            [
                "git",
                "--git-dir",
                str(mirror),
                "show",
                f"{SCHEMA_COMMIT}:every_eval_ever/eval_types.py",
            ],
            capture_output=True,
            check=True,
        ).stdout
        assert data == upstream
    hashes = dict(
        reversed(line.split()) for line in (SCHEMA.parent / "SHA256").read_text().splitlines()
    )
    assert hashlib.sha256(data).hexdigest() == hashes["eval_types.py"]


def test_every_line_passes_the_upstream_validator(catalogue: Catalogue) -> None:
    """Each line passes what EEE's own validator runs on an aggregate file at the pinned
    commit (strict JSON, its Pydantic model, its score-metadata and model-deployment
    checks); 581 of 2,094 lines failed when a bound the record does not state was
    exported as null (a continuous score needs both)."""
    lines = eee_jsonl(catalogue).decode("utf-8").splitlines()
    failing = {}
    for line in lines:
        errors = upstream_errors(line)
        if errors:
            failing[json.loads(line)["evaluation_id"]] = errors
    assert not failing, (len(failing), next(iter(failing.items())))


def test_the_upstream_validator_catches_what_it_should() -> None:
    """The test-side validator is not a pass-through: a continuous score without bounds,
    a score outside them, a NaN literal and an unknown deployment type each fail."""
    good = {
        "schema_version": SCHEMA_VERSION,
        "evaluation_id": "e/m/1",
        "retrieved_timestamp": "1",
        "source_metadata": {
            "source_type": "documentation",
            "source_organization_name": "x",
            "evaluator_relationship": "other",
        },
        "eval_library": {"name": "x", "version": "unknown"},
        "model_info": {"name": "m", "id": "o/m"},
        "evaluation_results": [
            {
                "evaluation_name": "t",
                "source_data": {"dataset_name": "d", "source_type": "other"},
                "metric_config": {
                    "lower_is_better": True,
                    "score_type": "continuous",
                    "min_score": 0,
                    "max_score": "Infinity",
                },
                "score_details": {"score": 3.5},
            }
        ],
    }
    good["model_info"]["additional_details"] = {
        "deployment_type": "unknown",
        "model_availability": "unknown",
    }
    assert upstream_errors(json.dumps(good)) == []
    metric = good["evaluation_results"][0]["metric_config"]
    for key, value in (("max_score", None), ("min_score", 4), ("max_score", 3)):
        bad = json.loads(json.dumps(good))
        bad["evaluation_results"][0]["metric_config"][key] = value
        assert upstream_errors(json.dumps(bad)), (key, value)
    assert upstream_errors(json.dumps(good).replace("3.5", "NaN"))
    bad = json.loads(json.dumps(good))
    bad["model_info"]["additional_details"]["deployment_type"] = "cloud"
    assert upstream_errors(json.dumps(bad))
    assert metric["max_score"] == "Infinity"


def test_evaluation_ids_are_unique(catalogue: Catalogue) -> None:
    """The schema: "Unique identifier for this specific evaluation run". 203 ids were
    shared by 1,835 lines (protocol/model/retrieved: one id for all of a benchmark's
    tasks under one protocol)."""
    ids = [json.loads(line)["evaluation_id"] for line in eee_jsonl(catalogue).splitlines()]
    assert len(ids) == len(set(ids))
    evaluation = catalogue.get("feng-2024-eval-dnabert-2-summary-gm12878-mcc", Evaluation)
    document = evaluation_document(evaluation, catalogue)
    assert document is not None
    assert document["evaluation_id"].startswith(f"{evaluation.id}/zhihan1996/DNABERT-2-117M/")


def test_a_bound_the_record_does_not_state_is_exported_unbounded_and_named() -> None:
    from rewire_site.render.export.eee import _bounds, _unstated

    assert _bounds(0.0, None) == {"min_score": 0.0, "max_score": "Infinity"}
    assert _bounds(None, None) == {"min_score": "-Infinity", "max_score": "Infinity"}
    assert _bounds(-1.0, 1.0) == {"min_score": -1.0, "max_score": 1.0}
    assert _unstated(None, None) == "min_score, max_score"
    assert _unstated(0.0, 1.0) is None


def test_binary_accuracy_is_not_labelled_top_1(catalogue: Catalogue) -> None:
    """HyenaDNA's Table 4.1 caption says top-1 accuracy; the two GenomicBenchmarks columns
    recorded are two-class tasks, where that is plain accuracy: no exported metric or
    evaluation name says top-1."""
    lines = eee_jsonl(catalogue).decode("utf-8").splitlines()
    names = [
        (r["metric_config"]["metric_name"], r["evaluation_name"])
        for line in lines
        for r in json.loads(line)["evaluation_results"]
    ]
    assert not [n for n in names if "top-1" in " ".join(n).lower()]
    hyena = [
        n for n in names if n[1].startswith("GenomicBenchmarks fine-tuning, accuracy (HyenaDNA")
    ]
    assert hyena and {m for m, _ in hyena} == {"Accuracy"}


def test_every_exported_evaluation_validates(
    catalogue: Catalogue, validator: jsonschema.protocols.Validator
) -> None:
    lines = eee_jsonl(catalogue).decode("utf-8").splitlines()
    evaluations = [r for r in catalogue.by_id.values() if isinstance(r, Evaluation)]
    with_value = [
        e
        for e in evaluations
        if any(r.status == "value" and r.value is not None for r in e.results)
    ]
    assert len(lines) == len(with_value)
    for line in lines:
        document = json.loads(line)
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
        assert not errors, (document["source_metadata"]["additional_details"], errors[0].message)


def test_export_keeps_value_locator_and_quote(catalogue: Catalogue) -> None:
    evaluation = catalogue.get("feng-2024-eval-dnabert-2-summary-gm12878-mcc", Evaluation)
    document = evaluation_document(evaluation, catalogue)
    assert document is not None
    (result,) = document["evaluation_results"]
    assert result["score_details"]["score"] == 0.812216994391334
    details = result["score_details"]["details"]
    assert details["quote"] == "0.812216994391334"
    assert details["locator"] == "results_final/final_dnabert2.csv, row 14 (GM12878), column MCC"
    assert result["metric_config"]["min_score"] == -1.0
    assert result["metric_config"]["lower_is_better"] is False
    assert document["model_info"]["id"] == "zhihan1996/DNABERT-2-117M"
    assert document["source_metadata"]["evaluator_relationship"] == "third_party"
    source = document["source_metadata"]["additional_details"]
    assert source["source_revision"] == "9f8985bbc3c70634254d8f800e4b8f81435fd78a"


def test_export_files_are_deterministic_and_complete(
    catalogue: Catalogue, validator: jsonschema.protocols.Validator
) -> None:
    first = export_files(catalogue, RELEASE)
    assert first == export_files(catalogue, RELEASE)
    documents = gzip.decompress(first[EEE_DOWNLOAD]).decode("utf-8").splitlines()
    assert documents and all(validator.is_valid(json.loads(d)) for d in documents[:50])

    sources = sorted(r.id for r in catalogue.by_id.values() if isinstance(r, Source))
    bib = first["downloads/citations.bib"].decode("utf-8")
    keys = [line[line.index("{") + 1 : -1] for line in bib.splitlines() if line.startswith("@")]
    assert keys == [f"rewire-{RELEASE}", *sources]
    assert bib.count("{") == bib.count("}")
    csl = json.loads(first["downloads/citations.csl.json"])
    assert [item["id"] for item in csl] == [f"rewire-{RELEASE}", *sources]
    assert all(item["title"] and item["type"] for item in csl)

    tree = ElementTree.fromstring(first[SITEMAP])
    locs = [e.text or "" for e in tree.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert len(locs) == len(set(locs)) > len(catalogue.by_id) + 3  # + the chooser pages
    assert f"{SITE_URL}chooser/" in locs
    assert all(loc.startswith(SITE_URL) and loc.endswith("/") for loc in locs)
    assert f"{SITE_URL}evaluations/feng-2024-eval-dnabert-2-summary-gm12878-mcc/" in locs


def test_downloads_page_lists_every_export() -> None:
    from rewire_site.render.downloads import EXPORTS
    from rewire_site.render.index import DOWNLOAD_NOTES

    listed = {d.path for d in EXPORTS}
    for path in (EEE_DOWNLOAD, "downloads/citations.bib", "downloads/citations.csl.json"):
        assert path in listed and DOWNLOAD_NOTES[path]
    assert set(export_files(Catalogue(), RELEASE)) - {SITEMAP} <= listed


def test_json_ld_for_protocol_and_evaluation_pages(catalogue: Catalogue) -> None:
    from rewire_site.render.contexts import Page
    from rewire_site.render.export.jsonld import with_json_ld
    from rewire_site.render.page import page_header

    page = Page(**page_header("t.html", "x/index.html", "T", "D", RELEASE))
    assert page.json_ld == ""
    protocol = catalogue.get("feng-2024-protocol-gm12878", Protocol)
    data = json.loads(str(with_json_ld(page, protocol, catalogue, SITE_URL).json_ld))
    assert data["@type"] == "Dataset" and data["@context"] == "https://schema.org"
    assert data["url"] == f"{SITE_URL}protocols/feng-2024-protocol-gm12878/"
    assert [v["name"] for v in data["variableMeasured"]][:2] == ["MCC", "AUC"]
    evaluation = catalogue.get("feng-2024-eval-dnabert-2-summary-gm12878-mcc", Evaluation)
    data = json.loads(str(with_json_ld(page, evaluation, catalogue, SITE_URL).json_ld))
    assert data["variableMeasured"] == [
        {"@type": "PropertyValue", "name": "MCC", "value": 0.812216994391334, "unitText": "score"}
    ]
    assert data["isBasedOn"][0].startswith(
        "https://github.com/ChongWuLab/dna_foundation_benchmark/blob/9f8985bb"
    )
    source = next(r for r in catalogue.by_id.values() if isinstance(r, Source))
    assert with_json_ld(page, source, catalogue, SITE_URL).json_ld == ""


def test_json_ld_cannot_close_its_script_element() -> None:
    from rewire_site.render.export.jsonld import script_text

    text = str(script_text({"name": "</script><b>&"}))
    assert "</" not in text and "<" not in text and "&" not in text
    assert json.loads(text) == {"name": "</script><b>&"}


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Catalogue:
    """A synthetic catalogue whose evaluation ids interleave the protocols (synth.py
    deals evaluations to protocols in turn), unlike records/, where ids share a prefix."""
    from rewire_site.synth import generate_catalogue

    root = tmp_path_factory.mktemp("synth-export")
    generate_catalogue(root, 1500, seed=5)
    report = validate_paths([root / "records"], root, cache=False)
    assert report.ok, [str(p) for p in report.problems[:5]]
    return Catalogue.from_records(report.records.values())


def test_the_export_is_grouped_by_protocol(synthetic: Catalogue) -> None:
    lines = [json.loads(line) for line in eee_jsonl(synthetic).splitlines()]
    order = [
        (
            d["evaluation_results"][0]["metric_config"]["additional_details"]["rewire_protocol"],
            d["source_metadata"]["additional_details"]["rewire_evaluation"],
        )
        for d in lines
    ]
    assert order == sorted(order) and len({p for p, _ in order}) >= 10
    by_id = sorted(order, key=lambda pair: pair[1])
    assert by_id != order  # the ids alone would interleave the protocols


def test_a_correlation_is_exported_on_its_own_scale_never_as_percent(
    catalogue: Catalogue,
) -> None:
    """Issue 23 item 4: an MCC of 0.3622 (given as a fraction) inside a protocol whose
    metric is on the 0-100 scale was exported as 0.3622 with unit percent (Every Eval Ever
    and the matrix CSV). Both now carry the value pages show, on the correlation's own
    scale, with a unit that says so; no exported correlation says percent."""
    import csv
    import io

    from rewire_site.derive.scales import canonical_value, is_correlation
    from rewire_site.models.common import Scale
    from rewire_site.render.downloads import evaluation_matrix_csv

    evaluation = catalogue.get(
        "evidence-20261130-eval-dnabert-2-gue-plus-epi-gm12878-leannmlindsey", Evaluation
    )
    protocol = catalogue.get(evaluation.protocol, Protocol)
    (result,) = evaluation.results
    metric = protocol.column_metric(result.column)
    assert is_correlation(metric) and result.scale == Scale.fraction
    assert canonical_value(metric, result).unit == "correlation coefficient"
    document = evaluation_document(evaluation, catalogue)
    assert document is not None
    (exported,) = document["evaluation_results"]
    assert exported["metric_config"]["metric_unit"] == "correlation coefficient"
    assert exported["score_details"]["score"] == pytest.approx(0.3622498911964387)
    rows = list(csv.DictReader(io.StringIO(evaluation_matrix_csv(catalogue).decode())))
    (row,) = [r for r in rows if r["evaluation_id"] == evaluation.id]
    assert row["unit"] == "correlation coefficient"
    assert float(row["value"]) == pytest.approx(0.3622498911964387)
    for other in catalogue.of_kind(Evaluation):
        found = evaluation_document(other, catalogue)
        for item in (found or {}).get("evaluation_results", []):
            config = item["metric_config"]
            name = f"{config['metric_id']} {config['metric_name']}".lower()
            if "mcc" in name or "matthews" in name:
                assert config["metric_unit"] != "percent", (other.id, name)
                assert -1.0 <= item["score_details"]["score"] <= 1.0, (other.id, name)
