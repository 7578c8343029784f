"""Task leaderboards (issue 25): per task and protocol class, rows = models, best marks
only where the verdict layer allows. Built from copies of real records (Feng et al.'s
human_worm and Genomic Benchmarks' demo_human_or_worm, one task by a same_task link),
some with a value changed to act out a scenario."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from scenarios import copy_closure

from rewire_site.build import build_site, gather
from rewire_site.derive.boards import adaptation_class
from rewire_site.derive.concerns import flags_by_evaluation
from rewire_site.derive.leaderboard import task_boards_of
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation
from rewire_site.render.leaderboard import leaderboard
from rewire_site.render.present.names import row_title

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "records"
TASK = ("feng-2024-dataset-human-worm", "genomic-benchmarks-dataset-demo-human-or-worm")
FENG = "feng-2024-eval-{model}-human-worm-{metric}"
MODELS = (
    "dnabert-2-mean",
    "dnabert-2-summary",
    "hyenadna-medium-160k-mean",
    "hyenadna-medium-160k-summary",
    "nt-v2-500m-mean",
    "nt-v2-500m-summary",
)
METRICS = ("mcc", "auc", "f1", "accuracy", "embedding-time")
GB = (
    "genomic-benchmarks-eval-hyenadna-demo-human-or-worm-accuracy",
    "genomic-benchmarks-eval-pytorch-cnn-demo-human-or-worm-accuracy",
    "genomic-benchmarks-eval-pytorch-cnn-demo-human-or-worm-f1",
    "genomic-benchmarks-eval-tensorflow-cnn-demo-human-or-worm-accuracy",
    "genomic-benchmarks-eval-tensorflow-cnn-demo-human-or-worm-f1",
)


def _project(tmp: Path, changes: dict[str, str] | None = None) -> Catalogue:
    """The task's records copied into `tmp`; `changes`: evaluation id -> its new printed
    value (value, printed value and quote all changed, as an editor would)."""
    ids = [FENG.format(model=m, metric=k) for m in MODELS for k in METRICS] + list(GB)
    copy_closure(ids, RECORDS, tmp / "records")
    for record_id, printed in (changes or {}).items():
        path = tmp / "records" / f"{record_id}.yaml"
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"(?m)^  value: .*$", f"  value: {printed}", text, count=1)
        text = re.sub(r"(?m)^  printed_value: .*$", f"  printed_value: '{printed}'", text, count=1)
        text = re.sub(r"(?m)^    quote: .*$", f"    quote: '{printed}'", text, count=1)
        path.write_text(text, encoding="utf-8")
    return gather(tmp / "records", tmp).catalogue


def _boards(catalogue: Catalogue):  # type: ignore[no-untyped-def]
    return task_boards_of(catalogue, flags_by_evaluation(catalogue), TASK)


@pytest.mark.parametrize(
    ("recorded", "expected"),
    [
        ("frozen zero-shot embeddings, random forest (pooling: see configuration)", "frozen_probe"),
        ("prediction head 'CNN' on Sei", "frozen_probe"),
        ("Frozen embeddings (inference); fine-tuning named only for tiny-1k", "frozen_probe"),
        ("parameter-efficient fine-tuning, frozen backbone: IA3", "parameter_efficient"),
        ("all bf16 (weights, gradients, AdamW); LoRA rank 16", "parameter_efficient"),
        ("Full fine-tuning per dataset", "fine_tuned"),
        ("Fine-tuned with the Hugging Face Trainer; backbone freezing not set", "fine_tuned"),
        ("zero-shot log-likelihood ratio of the alternative allele", "zero_shot"),
        ("trained from scratch on the dataset", "other"),
        (None, "other"),
    ],
)  # fmt: skip
def test_protocol_class_of_a_recorded_adaptation(recorded: str | None, expected: str) -> None:
    assert adaptation_class(recorded) == expected


def test_one_board_per_protocol_and_class_never_one_ranking(tmp_path: Path) -> None:
    found = _boards(_project(tmp_path))
    assert [(b.adaptation, b.protocol_id) for b in found.boards] == [
        ("frozen_probe", "feng-2024-protocol-human-worm"),
        ("other", "genomic-benchmarks-protocol-demo-human-or-worm"),
    ]
    feng, gb = found.boards
    assert [c.label for c in feng.columns] == ["MCC", "AUC", "F1 score", "Accuracy"]
    assert len(feng.rows) == 6 and len(gb.rows) == 3
    # the embedding time is a resource measurement, listed apart, never a board
    assert found.other_protocols == ("feng-2024-protocol-embedding-time",)
    # rows sorted by the first column, best first; the best is the verdict layer's
    assert feng.rows[0].model.key == "feng-2024-config-dnabert-2-mean-pooling"
    assert feng.top(0) == (0,)
    assert feng.rows[0].values[0] is not None
    assert feng.rows[0].values[0].evidence.record_id == FENG.format(model=MODELS[0], metric="mcc")
    answer = found.answers[0]
    assert (answer.adaptation, answer.state, answer.models, answer.sources) == (
        "frozen_probe",
        "best",
        6,
        1,
    )
    text = leaderboard(found, _project(tmp_path / "again"), "human_worm").answers[0]
    assert text.startswith(
        "On human_worm, under a frozen probe (a classifier on frozen embeddings), the highest "
        "MCC is 0.8483 for DNABERT-2, mean of token embeddings"
    )
    assert "(Feng et al. 2024); 6 models, 1 source under this class." in text


def test_an_unranked_better_value_is_said_never_called_lower(tmp_path: Path) -> None:
    """Genomic Benchmarks' HyenaDNA 96.6% (adaptation not stated: never ranked) beats the
    best ranked 94.2%: the answer names the best comparable value and says a better one is
    not ranked, never 'the highest is 94.2%'."""
    catalogue = _project(tmp_path)
    found = _boards(catalogue)
    answer = found.answers[1]
    assert (answer.adaptation, answer.state, answer.beyond) == ("other", "best", 1)
    text = leaderboard(found, catalogue, "human_worm").answers[1]
    assert text.startswith(
        "Under other or unstated adaptation, the best Accuracy of the comparable results is "
        "94.2% for TensorFlow CNN"
    )
    assert "1 better value is not ranked" in text and "highest" not in text


def test_a_result_no_better_than_a_trivial_answer_never_wins(tmp_path: Path) -> None:
    """The leading model's MCC and F1 set to 0 (it never answers positive): its row is
    taken out of comparisons and the runner-up is best."""
    catalogue = _project(
        tmp_path,
        {
            FENG.format(model="dnabert-2-mean", metric="mcc"): "0.0",
            FENG.format(model="dnabert-2-mean", metric="f1"): "0.0",
        },
    )
    feng = _boards(catalogue).boards[0]
    by_key = {r.model.key: r for r in feng.rows}
    degenerate = by_key["feng-2024-config-dnabert-2-mean-pooling"].values[0]
    assert degenerate is not None and degenerate.standing == "excluded" and degenerate.concerns
    (top,) = feng.top(0)
    assert feng.rows[top].model.key == "feng-2024-config-nt-v2-500m-mean-pooling"


def test_a_lead_within_the_margin_is_no_best_mark(tmp_path: Path) -> None:
    """NT-v2 (mean) printed as 0.85, which stands for 0.845 to 0.855: DNABERT-2's
    0.8483 is within it, so neither is best and the answer says no single model leads."""
    catalogue = _project(tmp_path, {FENG.format(model="nt-v2-500m-mean", metric="mcc"): "0.85"})
    found = _boards(catalogue)
    feng = found.boards[0]
    tied = {feng.rows[i].model.key for i in feng.top(0)}
    assert tied == {
        "feng-2024-config-dnabert-2-mean-pooling",
        "feng-2024-config-nt-v2-500m-mean-pooling",
    }
    assert all(r.values[0] is None or r.values[0].standing != "best" for r in feng.rows)
    answer = found.answers[0]
    assert (answer.state, answer.column) == ("tied", 0)
    text = leaderboard(found, catalogue, "human_worm").answers[0]
    assert "no single model leads on MCC: 2 models are within the margin of the top" in text
    assert "the highest MCC" not in text


RANDOM_DNA = "saadat-fellay-20261015-dataset-synthetic-uniform-random-dna-seed-42"
PAGE_LIMIT = 1_000_000


def test_no_page_of_a_built_catalogue_is_over_one_megabyte(
    tmp_path: Path, live_catalogue: Catalogue
) -> None:
    """Every evaluation on the synthetic random-DNA data (its task page was 10.3 MB: 3,921
    'not comparable' pairs), built: no file over 1 MB, and the data is no task to choose
    a model for (the chooser lists it apart)."""
    ids = sorted(e.id for e in live_catalogue.of_kind(Evaluation) if e.dataset == RANDOM_DNA)
    assert len(ids) > 100  # the scenario: many measurements of several protocols
    copy_closure(ids, RECORDS, tmp_path / "records")
    site = tmp_path / "site"
    build_site(tmp_path, site, release_date=date(2026, 12, 2), workers=1)
    sizes = {p.relative_to(site).as_posix(): p.stat().st_size for p in site.rglob("*.html")}
    task = f"tasks/{RANDOM_DNA}/index.html"
    assert task in sizes
    assert {p: s for p, s in sizes.items() if s > PAGE_LIMIT} == {}
    # the page counts its pairs by verdict; every pair is in its download
    page = (site / task).read_text(encoding="utf-8")
    stated = re.search(r"Every pair as CSV</a> \((\d+) pairs\)", page)
    assert stated is not None and int(stated.group(1)) > 1000
    download = site / "tasks" / RANDOM_DNA / "overlaps.csv"
    lines = download.read_text(encoding="utf-8").splitlines()
    assert len(lines) - 1 == int(stated.group(1))
    assert lines[0].startswith("model family,metric,one table,value,its evidence page")
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert "overlaps.csv" not in sitemap and f"tasks/{RANDOM_DNA}/" in sitemap
    chooser = (site / "chooser" / "index.html").read_text(encoding="utf-8")
    tasks_part, other_part = chooser.split('id="other-data"')
    assert RANDOM_DNA not in tasks_part and RANDOM_DNA in other_part


# ---------------------------------------------------------------- result-table rows

TABLES = Path(__file__).resolve().parent / "fixtures" / "result_tables"


def _table_scenario(tmp: Path, csv_edit: tuple[str, str] | None = None) -> Catalogue:
    """The result_tables scenario (one table: FixBERT with two seeds on H3, FixBERT-small,
    Mystery-LM unmapped), copied; `csv_edit` replaces one text of its CSV."""
    import shutil

    shutil.copytree(TABLES, tmp / "project")
    if csv_edit is not None:
        path = tmp / "project" / "records" / "tables" / "rt-table.csv"
        text = path.read_text(encoding="utf-8")
        assert csv_edit[0] in text
        path.write_text(text.replace(*csv_edit), encoding="utf-8")
    return gather(tmp / "project" / "records", tmp / "project").catalogue


def test_result_table_rows_make_a_board_of_their_own(tmp_path: Path) -> None:
    catalogue = _table_scenario(tmp_path)
    found = task_boards_of(catalogue, flags_by_evaluation(catalogue), ("rt-task-h3",))
    (board,) = found.boards
    assert (board.adaptation, board.table_id, board.protocol_id) == (
        "fine_tuned",
        "rt-table",
        "rt-protocol",
    )
    assert [c.label for c in board.columns] == ["MCC", "Accuracy"]
    titles = [row_title(r.model.name) for r in board.rows]
    assert titles == ["FixBERT", "FixBERT-small", "Mystery-LM"]
    fix, small, mystery = board.rows
    mcc = fix.values[0]
    assert mcc is not None
    # two seeds aggregate: mean, sd (n - 1) and n; evidence is the first seed's CSV line
    assert mcc.value == pytest.approx((0.5512 + 0.5601) / 2)
    assert mcc.spread == pytest.approx(0.0062932, abs=1e-6) and mcc.n == 2
    assert (mcc.evidence.record_id, mcc.evidence.line) == ("rt-table", 2)
    assert mcc.standing == "best"
    assert not fix.model.pinned and small.model.pinned  # FixBERT: family-level label
    assert mystery.model.record is None  # unmapped: shown, never guessed
    text = leaderboard(found, catalogue, "H3").answers[0]
    assert text.startswith("On H3, under full fine-tuning, the highest MCC is 0.5556 for FixBERT")


def test_a_lead_within_the_spread_over_seeds_is_a_tie(tmp_path: Path) -> None:
    """FixBERT-small at 0.553 is 0.0027 below FixBERT's mean, within its sd over seeds
    (0.0063): neither is best."""
    catalogue = _table_scenario(
        tmp_path, ("FixBERT-small,H3,1,0.4012,", "FixBERT-small,H3,1,0.553,")
    )
    found = task_boards_of(catalogue, flags_by_evaluation(catalogue), ("rt-task-h3",))
    board = found.boards[0]
    top = {row_title(board.rows[i].model.name) for i in board.top(0)}
    assert top == {"FixBERT", "FixBERT-small"}
    assert found.answers[0].state == "tied"


def test_a_board_value_links_to_its_row_on_the_table_s_rows_page(tmp_path: Path) -> None:
    _table_scenario(tmp_path)
    site = tmp_path / "site"
    build_site(tmp_path / "project", site, release_date=date(2026, 12, 2), workers=1)
    task = (site / "tasks" / "rt-task-h3" / "index.html").read_text(encoding="utf-8")
    href = re.search(r'href="\.\./\.\./([^"]+#line-2)"', task)
    assert href is not None, "the FixBERT value links to CSV line 2"
    page, anchor = href.group(1).split("#")
    assert f'id="{anchor}"' in (site / page).read_text(encoding="utf-8")


def test_an_unranked_table_makes_no_board(tmp_path: Path) -> None:
    """A table marked `ranked: false` (a whole hyperparameter sweep beside the table of the
    selected settings) is shown on its own page, never on a leaderboard: no board, so no
    best mark, from its rows."""
    import shutil

    shutil.copytree(TABLES, tmp_path / "project")
    spec = tmp_path / "project" / "records" / "tables" / "rt-table.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + "ranked: false\n", encoding="utf-8")
    catalogue = gather(tmp_path / "project" / "records", tmp_path / "project").catalogue
    assert len(catalogue.result_rows.of_dataset("rt-task-h3")) > 0  # the rows are read
    found = task_boards_of(catalogue, flags_by_evaluation(catalogue), ("rt-task-h3",))
    assert not found.boards


def test_a_throughput_in_words_is_a_resource_metric_never_a_board() -> None:
    """The embedding-throughput protocol's unit is written 'sequence per second': it was
    read as a task metric, and its rows made a 'frozen probe' leaderboard of speeds on
    random DNA. Written with spaces or hyphens, it is a resource metric."""
    from scenarios import load_scenario

    from rewire_site.derive.scales import is_resource_metric
    from rewire_site.models import Protocol

    (protocol,) = load_scenario("seed_memory").of_kind(Protocol)
    for unit in ("sequence per second", "sequence-per-second", "token per second"):
        metric = protocol.metric.model_copy(update={"unit": unit, "id": "sequences-per-second"})
        assert is_resource_metric(protocol.model_copy(update={"metric": metric})), unit
    metric = protocol.metric.model_copy(update={"unit": "score", "id": "mcc"})
    assert not is_resource_metric(protocol.model_copy(update={"metric": metric}))
