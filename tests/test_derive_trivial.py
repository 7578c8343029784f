"""Degenerate and trivial results (derive/trivial.py, the computed concern in
derive/concerns.py): no best mark and no win for a result no better than a trivial answer.

Real case: Feng et al.'s 4mC_E.coli, 4mC_G.pickeringii and 4mC_G.subterraneus rows hold
predictors with MCC 0 and F1 0, whose accuracy is the negative-class share (always
answering negative); the accuracy column marked them 'best of 6 comparable' and compare/
pages counted them as wins. The records are copied from `records/` (the evaluations of
those three datasets and every record they refer to)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from htmltext import flat, page_text
from scenarios import copy_closure

from rewire_site.build import build_site, gather
from rewire_site.derive.concerns import flags_by_evaluation
from rewire_site.derive.trivial import (
    NEAR_ZERO,
    metric_kind,
    trivial_results,
)
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol
from rewire_site.render.chooser.pages import compare_pages
from rewire_site.render.comparison_table import comparison_table

ROOT = Path(__file__).resolve().parents[1]
DATASETS = ("4mc-e-coli", "4mc-g-pickeringii", "4mc-g-subterraneus")
METRICS = ("mcc", "f1", "accuracy", "auc")
NEGATIVE = "No better than always answering negative"


def test_mcc_and_f1_at_zero_is_always_answering_negative() -> None:
    (found,) = trivial_results({"mcc": 0.0, "f1": 0.0, "accuracy": 0.8334, "auc": 0.58})
    assert found.kind == "answers_negative" and found.exact
    # The answers are trivial; the ranking an AUC scores is not.
    assert found.metrics == {"mcc", "f1", "accuracy"}
    (near,) = trivial_results({"mcc": 0.023, "f1": 0.0064})
    assert near.kind == "answers_negative" and not near.exact
    assert near.evidence == (("mcc", 0.023), ("f1", 0.0064))


def test_a_weak_but_informative_classifier_is_not_flagged() -> None:
    assert trivial_results({"mcc": 0.077, "f1": 0.034, "accuracy": 0.834}) == ()
    assert trivial_results({"mcc": 0.01, "f1": 0.4}) == ()  # finds positives
    assert trivial_results({"mcc": NEAR_ZERO, "f1": 0.0}) == ()  # the bound is exclusive
    assert trivial_results({"mcc": 0.0}) == ()  # F1 not in the row: no rule applies


def test_accuracy_at_or_below_the_majority_share() -> None:
    (found,) = trivial_results({"accuracy": 0.8331}, majority_share=0.8334)
    assert found.kind == "majority_class" and found.baseline == 0.8334
    assert trivial_results({"accuracy": 0.8334}, majority_share=0.8334)[0].exact
    assert trivial_results({"accuracy": 0.84}, majority_share=0.8334) == ()
    assert trivial_results({"accuracy": 0.6}) == ()  # class balance unknown


def test_auc_at_or_below_chance_where_higher_is_better() -> None:
    (found,) = trivial_results({"auc": 0.462})
    assert found.kind == "chance_ranking" and found.metrics == {"auc"}
    assert trivial_results({"auc": 0.5})[0].exact
    assert trivial_results({"auc": 0.51}) == ()
    assert trivial_results({"auc": 0.4}, higher_is_better=frozenset()) == ()


def test_metric_ids_are_read_by_kind() -> None:
    assert metric_kind("F1-score") == "f1" and metric_kind("AUROC") == "auc"
    assert metric_kind("MCC") == "mcc" and metric_kind("peak-memory") == "peakmemory"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("trivial")
    ids = [
        f"feng-2024-eval-{model}-{dataset}-{metric}"
        for model in (
            "dnabert-2-mean",
            "dnabert-2-summary",
            "hyenadna-medium-160k-mean",
            "hyenadna-medium-160k-summary",
            "nt-v2-500m-mean",
            "nt-v2-500m-summary",
        )
        for dataset in DATASETS
        for metric in METRICS
    ]
    assert copy_closure(ids, ROOT / "records", root / "records") < 200
    return root


@pytest.fixture(scope="module")
def catalogue(project: Path) -> Catalogue:
    return gather(project / "records", project).catalogue


def _row(catalogue: Catalogue, configuration: str, dataset: str) -> dict[str, float]:
    return {
        e.results[0].column: e.results[0].value or 0.0
        for e in catalogue.of_kind(Evaluation)
        if e.configuration == configuration and e.dataset.endswith(dataset)
    }


def test_the_real_always_negative_rows_lose_their_best_mark(catalogue: Catalogue) -> None:
    flags = flags_by_evaluation(catalogue)
    degenerate = 0
    for dataset in DATASETS:
        protocol = catalogue.get(f"feng-2024-protocol-{dataset}", Protocol)
        table = comparison_table(protocol, catalogue, flags=flags)
        for row in table.rows:
            values = _row(catalogue, row.configuration_id, dataset)
            cells = {c.column_id: c for c in row.cells}
            if values["mcc"] == 0 and values["f1"] == 0:
                degenerate += 1
                # accuracy = the negative share, as always answering negative scores
                for column in ("mcc", "f1", "accuracy"):
                    assert not cells[column].best and cells[column].excluded
                    assert cells[column].flag_labels == (NEGATIVE,)
                    assert cells[column].standing == f"excluded from comparisons: {NEGATIVE}"
                # the AUC scores the ranking of probabilities: still ranked
                assert not cells["auc"].excluded and cells["auc"].standing_state != "excluded"
        best = [c for r in table.rows for c in r.cells if c.best]
        assert all(not c.excluded for c in best)
    assert degenerate >= 3  # each of the three datasets holds such rows


def test_the_concern_shows_its_reason_where_the_value_is(catalogue: Catalogue) -> None:
    flags = flags_by_evaluation(catalogue)
    from rewire_site.derive.concerns import TrivialResult
    from rewire_site.render.present.flags import flag_view

    (fact,) = flags["feng-2024-eval-nt-v2-500m-mean-4mc-e-coli-accuracy"]
    assert isinstance(fact.detail, TrivialResult) and fact.detail.finding.exact
    flag = flag_view(fact, catalogue)
    assert flag.label == NEGATIVE and flag.excludes_from_comparisons and not flag.recorded
    assert flag.text.startswith(f"{NEGATIVE}: MCC 0, F1 0 in the same row")
    (near_fact,) = flags["feng-2024-eval-hyenadna-medium-160k-mean-4mc-e-coli-accuracy"]
    assert isinstance(near_fact.detail, TrivialResult) and not near_fact.detail.finding.exact
    near = flag_view(near_fact, catalogue)
    # MCC 0.023 is a little better than 0: the label says 'practically', not 'no better'
    assert near.label == "Practically no better than always answering negative"
    assert near.text.startswith(
        "Practically no better than always answering negative: MCC 0.023, F1 0.0064"
    )
    assert flags["feng-2024-eval-nt-v2-500m-mean-4mc-e-coli-auc"] == ()
    # A weak but informative row (MCC 0.077, F1 0.034) is not flagged.
    assert flags["feng-2024-eval-hyenadna-medium-160k-mean-4mc-g-pickeringii-accuracy"] == ()


def test_flagged_results_never_win_on_compare_pages(catalogue: Catalogue) -> None:
    flags = flags_by_evaluation(catalogue)
    flagged = {e for e, found in flags.items() if any(f.kind.startswith("trivial_") for f in found)}
    pages = compare_pages(catalogue, flags, "test")
    assert pages
    judged = 0
    for page in pages:
        for row in page.rows:
            ids = {row.left.href.split("/")[1], row.right.href.split("/")[1]}
            if ids & flagged:
                assert row.winner == "", (page.path, row.metric)
                judged += 1
                # the value shows why it is not judged, as the comparison table does
                for cell in (row.left, row.right):
                    if cell.href.split("/")[1] in flagged:
                        assert cell.note in (
                            f"excluded from comparisons: {NEGATIVE}",
                            "excluded from comparisons: Practically no better than always "
                            "answering negative",
                        )
    assert judged


def test_built_pages_show_the_concern_not_a_best_mark(project: Path) -> None:
    site = project / "site"
    build_site(project, site, release_date=date(2026, 11, 30))
    protocol = flat(page_text(site / "protocols" / "feng-2024-protocol-4mc-e-coli" / "index.html"))
    assert "excluded from comparisons: No better than always answering negative" in protocol
    # Every accuracy and F1 and MCC of 4mC_E.coli is flagged: only AUC holds a best mark.
    assert protocol.count("best of 6 comparable") == 1
    evaluation = flat(
        page_text(
            site
            / "evaluations"
            / "feng-2024-eval-nt-v2-500m-mean-4mc-e-coli-accuracy"
            / "index.html"
        )
    )
    assert "No better than always answering negative: MCC 0, F1 0 in the same row" in evaluation


def test_the_rows_that_never_answer_positive_show_the_class_balance(
    catalogue: Catalogue,
) -> None:
    """No dataset record states its class counts; on 4mC_E.coli the rows with MCC 0 and F1
    0 exactly never answered positive, so their accuracy (0.833378124160172) is the share
    of negatives. A row that does find positives (its MCC and F1 raised here to 0.2 and 0.3)
    but whose accuracy (0.83310937919914, recorded) is below that share is no better than
    always answering the majority class."""
    from rewire_site.derive.concerns import TrivialResult, flags
    from rewire_site.derive.result_rows import class_balance
    from rewire_site.derive.trivial import negative_share
    from rewire_site.render.present.flags import flag_view

    assert negative_share({"mcc": 0.0, "f1": 0.0, "accuracy": 0.8}) == 0.8
    assert negative_share({"mcc": 0.01, "f1": 0.0, "accuracy": 0.8}) is None
    accuracy = catalogue.get(
        "feng-2024-eval-hyenadna-medium-160k-mean-4mc-e-coli-accuracy", Evaluation
    )
    balance = class_balance(accuracy, catalogue)
    assert balance is not None and balance.majority == 0.833378124160172
    raised = []
    for record in catalogue.by_id.values():
        if isinstance(record, Evaluation) and record.id in (
            accuracy.id.replace("accuracy", "mcc"),
            accuracy.id.replace("accuracy", "f1"),
        ):
            value = {"mcc": 0.2, "f1": 0.3}[record.results[0].column]
            result = record.results[0].model_copy(update={"value": value})
            record = record.model_copy(update={"results": [result]})
        raised.append(record)
    changed = Catalogue.from_records(raised)
    (fact,) = flags(changed.get(accuracy.id, Evaluation), changed)
    assert isinstance(fact.detail, TrivialResult) and fact.detail.balance is not None
    assert fact.detail.finding.kind == "majority_class"
    flag = flag_view(fact, changed)
    assert flag.label == "No better than always answering the majority class"
    assert flag.text.startswith(
        "No better than always answering the majority class: accuracy 0.8331, at or below "
        "the majority class's share of the test data (0.8334, as "
    )
    assert "random forest shows: it never answers positive (MCC 0, F1 0)" in flag.text
    assert flags(changed.get(accuracy.id.replace("accuracy", "mcc"), Evaluation), changed) == ()
    table = comparison_table(changed.get("feng-2024-protocol-4mc-e-coli", Protocol), changed)
    (row,) = [r for r in table.rows if accuracy.id in r.evaluation_ids]
    cell = next(c for c in row.cells if c.column_id == "accuracy")
    assert cell.excluded and not cell.best


def test_rewire_serve_sees_that_a_flag_reads_the_rows_other_evaluations(
    catalogue: Catalogue,
) -> None:
    """An accuracy result's concern depends on the MCC and F1 evaluations of its row (and
    on the rows that show the class balance): `rewire serve` must recompute it when one of
    those records changes, so their ids are among the keys the computation read."""
    from rewire_site.derive.concerns import flags
    from rewire_site.incremental.track import Recorder, TrackingCatalogue

    recorder = Recorder()
    seen = TrackingCatalogue(catalogue, recorder)
    accuracy = catalogue.get(
        "feng-2024-eval-hyenadna-medium-160k-mean-4mc-e-coli-accuracy", Evaluation
    )
    found, keys = recorder.run(lambda: flags(accuracy, seen))
    assert found
    for metric in ("mcc", "f1"):
        assert ("id", accuracy.id.replace("accuracy", metric)) in keys
    # a row that shows the class balance: NT-v2 (mean pooling) never answers positive
    assert ("id", "feng-2024-eval-nt-v2-500m-mean-4mc-e-coli-mcc") in keys
