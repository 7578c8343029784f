"""Results whose protocol column carries its own metric (`ResultColumn.metric`) are named by
that metric wherever a value is shown, never by the protocol's metric.

Real case: Feng et al. (2024) protocols declare AUC as the protocol metric and give each
column (MCC, AUC, F1, accuracy) its own metric; an MCC value was labelled "AUC (MCC)" on its
evaluation page, in the protocol's comparison table, in the evidence table, in the matrix
CSV and under the "metric" filter. The records are copied from `records/` (the listed
evaluations and every record they refer to)."""

from __future__ import annotations

import csv
import gzip
import io
from datetime import date
from pathlib import Path

import pytest
from htmltext import flat, page_text
from scenarios import copy_closure

from rewire_site.build import build_site, gather
from rewire_site.models import Evaluation, Protocol
from rewire_site.render.comparison_table import comparison_table
from rewire_site.render.evaluation_rows import evaluation_rows
from rewire_site.render.evidence import evidence_table
from rewire_site.render.filters import evaluation_facets

ROOT = Path(__file__).resolve().parents[1]
MCC = "feng-2024-eval-dnabert-2-mean-5mc-mcc"
ACCURACY = "feng-2024-eval-dnabert-2-mean-5mc-accuracy"
OTHER_MCC = "feng-2024-eval-hyenadna-medium-160k-mean-5mc-mcc"
PROTOCOL = "feng-2024-protocol-5mc"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("column-metrics")
    (root / "records").mkdir()
    assert copy_closure([MCC, ACCURACY, OTHER_MCC], ROOT / "records", root / "records") < 200
    return root


def test_the_real_protocol_has_column_metrics_unlike_its_own(project: Path) -> None:
    catalogue = gather(project / "records", project).catalogue
    protocol = catalogue.get(PROTOCOL, Protocol)
    assert protocol.metric.label == "AUC"
    assert protocol.column_metric("mcc").label == "MCC"
    assert protocol.column_metric("mcc").minimum == -1.0


def test_derived_labels_name_the_columns_metric(project: Path) -> None:
    catalogue = gather(project / "records", project).catalogue
    protocol = catalogue.get(PROTOCOL, Protocol)
    mcc = catalogue.get(MCC, Evaluation)
    (row,) = evaluation_rows([mcc], catalogue)
    assert row.column_header == "MCC"
    table = comparison_table(protocol, catalogue)
    headers = {c.id: c.header for c in table.columns}
    assert headers == {"mcc": "MCC", "accuracy": "Accuracy"}
    rows = evidence_table(mcc, catalogue).rows
    labels = [r.property_label for r in rows if r.field_path == "results.0"]
    assert labels and set(labels) == {"Result: MCC"}
    assert evaluation_facets(mcc, catalogue)["metric"] == (("mcc", "MCC"),)
    accuracy = catalogue.get(ACCURACY, Evaluation)
    assert evaluation_facets(accuracy, catalogue)["metric"] == (("accuracy", "Accuracy"),)


def test_built_pages_and_csv_never_call_an_mcc_value_auc(project: Path) -> None:
    site = project / "site"
    build_site(project, site, release_date=date(2026, 11, 30))
    evaluation = flat(page_text(site / "evaluations" / MCC / "index.html"))
    assert "AUC (MCC)" not in evaluation
    assert "Result: MCC" in evaluation
    protocol_page = flat(page_text(site / "protocols" / PROTOCOL / "index.html"))
    assert "AUC (MCC)" not in protocol_page and "AUC (Accuracy)" not in protocol_page
    dataset_page = flat(page_text(site / "datasets" / "feng-2024-dataset-5mc" / "index.html"))
    assert "AUC (score)" not in dataset_page
    assert "MCC (correlation, -1 to 1)" in dataset_page  # its own scale
    with gzip.open(site / "downloads" / "model-evaluation-matrix.csv.gz", "rt") as handle:
        rows = list(csv.DictReader(io.StringIO(handle.read())))
    metrics = {r["evaluation_id"]: r["metric"] for r in rows}
    assert metrics[MCC] == "MCC" and metrics[ACCURACY] == "Accuracy"


def test_a_protocol_with_several_column_metrics_is_named_by_them(project: Path) -> None:
    """Feng et al.'s protocols declare AUC, but their columns are MCC, AUC, F1 and accuracy:
    the index line, the coverage row and the comparison table name the column metrics, not
    AUC alone; a protocol whose columns share one metric still reads as that metric."""
    from rewire_site.render.coverage import protocol_coverage, protocols_by_area
    from rewire_site.render.present.labels import protocol_metric_label
    from rewire_site.render.present.metrics import metric_dependence

    catalogue = gather(project / "records", project).catalogue
    protocol = catalogue.get(PROTOCOL, Protocol)
    per_column = "per column: MCC, AUC, F1 score, Accuracy"
    assert protocol_metric_label(protocol) == per_column
    assert metric_dependence(protocol, False) == (
        "MCC, AUC, F1 score and Accuracy do not depend on the accelerator"
    )
    (summary,) = [p for g in protocols_by_area(catalogue) for p in g.protocols if p.id == PROTOCOL]
    assert summary.metric_label == per_column
    (row,) = [r for r in protocol_coverage(catalogue) if r.protocol_id == PROTOCOL]
    assert (row.metric, row.unit, row.direction) == (per_column, "score", "higher")
    table = comparison_table(protocol, catalogue)  # the copied evaluations: MCC, accuracy
    assert table.metric_label == "MCC and Accuracy"
    one = protocol.model_copy(update={"columns": protocol.columns[:1]})
    assert protocol_metric_label(one) == "MCC"
    assert metric_dependence(one, True, lower=True) == "mcc depends on the accelerator"


def test_protocol_page_facts_and_home_list_name_the_column_metrics(project: Path) -> None:
    site = project / "site-metrics"
    build_site(project, site, release_date=date(2026, 11, 30))
    page = page_text(site / "protocols" / PROTOCOL / "index.html")
    assert "metric\nAUC (auc)" not in page
    assert "metric\nper column: MCC (mcc), AUC (auc), F1 score (f1), Accuracy (accuracy)" in page
    assert "MCC, AUC, F1 score and Accuracy do not depend on the accelerator" in page
    assert "MCC and Accuracy (score, higher is better) by tested configuration" in page
    home = flat(page_text(site / "findings" / "index.html"))
    assert "· per column: MCC, AUC, F1 score, Accuracy ·" in home
    assert "· AUC ·" not in home


def test_an_unmeasured_published_value_names_its_column_metric(project: Path) -> None:
    """A protocol page's headline lists each published value; where the protocol has
    several columns (Feng et al.: MCC, AUC, F1, accuracy), each names its column's metric,
    not a bare '0.832 as published by ...'."""
    from rewire_site.derive.concerns import flags_by_evaluation
    from rewire_site.render.findings import published_findings

    catalogue = gather(project / "records", project).catalogue
    flags = flags_by_evaluation(catalogue)
    (mcc,) = published_findings(catalogue.get(MCC, Evaluation), catalogue, flags)
    assert mcc.state == "unmeasured"
    assert mcc.text.startswith("MCC: ") and "as published by" in mcc.text
    (accuracy,) = published_findings(catalogue.get(ACCURACY, Evaluation), catalogue, flags)
    assert accuracy.text.startswith("Accuracy: ")


def test_score_meaning_compares_a_result_with_its_columns_metric(project: Path) -> None:
    """The readiness check compares each result's unit and direction with its column's
    metric: an MCC result in 'score' is not 'not percent' because the protocol's declared
    metric (here changed to percent) says so."""
    from rewire_site.derive.readiness import ScoreMeaning, readiness
    from rewire_site.link import Catalogue
    from rewire_site.render.readiness_text import requirement_reason

    catalogue = gather(project / "records", project).catalogue
    protocol = catalogue.get(PROTOCOL, Protocol)
    declared = protocol.metric.model_copy(update={"unit": "percent"})
    changed = protocol.model_copy(update={"metric": declared})
    records = [changed if r.id == PROTOCOL else r for r in catalogue.by_id.values()]
    found = readiness(catalogue.get(MCC, Evaluation), Catalogue.from_records(records), {})
    meaning = next(r for c in found.checks for r in c.requirements if r.key == "score_meaning")
    assert isinstance(meaning.detail, ScoreMeaning)
    # What remains is true of the record: Feng et al. state no direction.
    assert [p.kind for p in meaning.detail.problems] == ["no_direction"]
    reason = requirement_reason(meaning, changed)
    assert reason == "MCC: the source does not state which way is better."
