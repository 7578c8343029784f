"""`rewire import lindsey-2025`: Lindsey et al.'s tokenization study as four result tables.

The repository has no licence, so its files are not in Rewire: tests/fixtures/import/
lindsey-2025/files/ holds excerpts (the rows of a few tasks, other rows blanked so that row
numbers are the real ones; the cited lines of the other files) and source.json the real
files' SHA-256 and size. The excerpt tests run everywhere; where the snapshot of the
repository is on this machine (/work/.mirror), the full files are imported too and must
reproduce the committed records and tables byte for byte.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from rewire_site.build import Gathered
from rewire_site.importers import IMPORTERS, ImportProblem, run_import
from rewire_site.importers.core import SourceFiles
from rewire_site.importers.lindsey import COMMIT, PATHS, table_id
from rewire_site.importers.lindsey_rows import RUN_DIRECTORY, TABLES, read_rows
from rewire_site.models import ResultTable

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "import" / "lindsey-2025"
EXCERPT = FIXTURE / "files"
TABLES_DIR = ROOT / "records" / "tables"
MIRROR = Path("/work/.mirror/leannmlindsey+DNATokenization_results_analysis/repo")
PREFIX = "lindsey-2025"
LATER = "1" * 40
"""A stand-in commit: the changed download is read as another commit's file, so the
manifest's hash check (which stops it first at the pinned commit) does not apply."""

needs_mirror = pytest.mark.skipif(
    not (MIRROR / "HEAD").is_file(),
    reason="the snapshot of leannmlindsey/DNATokenization_results_analysis is not on this "
    "machine (no network in CI); the excerpt tests cover the importer",
)


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


@pytest.fixture(scope="module")
def excerpt_import(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lindsey")
    run_import(PREFIX, root, folder=EXCERPT)
    return root


def test_excerpt_rows_are_the_committed_rows(excerpt_import: Path) -> None:
    """Every row the excerpt gives is, byte for byte, a line of the committed table (the
    excerpt keeps the real row numbers, so the locators agree), and every committed table
    names the same columns, protocol, sources and label scope as the excerpt's."""
    for table in TABLES:
        name = table_id(table)
        ours = (excerpt_import / "records" / "tables" / f"{name}.csv").read_text("utf-8")
        committed = (TABLES_DIR / f"{name}.csv").read_text("utf-8")
        lines = ours.splitlines()
        assert lines[0] == committed.splitlines()[0]
        assert len(lines) > 20
        assert set(lines[1:]) <= set(committed.splitlines()[1:]), name
        spec = yaml.safe_load((excerpt_import / "records" / "tables" / f"{name}.yaml").read_text())
        committed_spec = yaml.safe_load((TABLES_DIR / f"{name}.yaml").read_text("utf-8"))
        for key in ("columns", "protocol", "labels", "rows", "adaptation", "origin"):
            assert spec[key] == committed_spec[key], (name, key)
        # the whole sweep is shown, never ranked: boards use the best-setting tables
        assert committed_spec.get("ranked", True) is table.best, name


def test_each_cell_is_the_source_cell_at_its_locator(excerpt_import: Path) -> None:
    """A row's metric cells and settings are the source file's cells at the row its locator
    names, verbatim; the model label is the source's own."""
    files = SourceFiles.from_folder(EXCERPT, COMMIT, PATHS)
    checked = 0
    for table in TABLES:
        source = list(csv.reader(io.StringIO(files[table.path].text(), newline="")))
        header = source[0]
        text = (excerpt_import / "records" / "tables" / f"{table_id(table)}.csv").read_text()
        for row in _rows(text):
            path, _, number = row["locator"].rpartition(", row ")
            assert path == table.path
            cells = dict(zip(header, source[int(number) - 1], strict=True))
            assert row["model"] == cells["model"]
            for metric in table.metrics:
                assert row[metric] == cells[metric]
                if row[metric]:
                    float(row[metric])
                    checked += 1
            for setting in table.settings:
                if setting is not RUN_DIRECTORY:
                    assert row[setting.column] == cells[setting.source_key]
    assert checked > 2000


def test_source_records_carry_the_real_files_hashes() -> None:
    meta = json.loads((FIXTURE / "source.json").read_text("utf-8"))
    assert meta["commit"] == IMPORTERS[PREFIX].commit == COMMIT
    manifest = json.loads(
        (ROOT / "artifacts" / "sources" / PREFIX / "manifest.json").read_text("utf-8")
    )
    assert manifest["files"] == meta["files"]
    for path, entry in meta["files"].items():
        found = list((ROOT / "records").glob(f"{PREFIX}-source-*-{entry['sha256'][:12]}.yaml"))
        assert len(found) == 1, path
        record = yaml.safe_load(found[0].read_text("utf-8"))
        assert (record["path"], record["sha256"], record["size_bytes"], record["revision"]) == (
            path,
            entry["sha256"],
            entry["size"],
            COMMIT,
        )
    # the files carry no licence: none is copied into the project
    assert not (ROOT / "artifacts" / "sources" / PREFIX / "files").exists()


def test_task_labels_name_one_dataset_each(excerpt_import: Path) -> None:
    """The three names of one task (attention tables, state-space best, state-space sweep)
    are labels of one dataset record; the original and revised NT tasks of one name stay
    two datasets; Genomic Benchmarks and Feng et al.'s tasks are only related."""
    records = excerpt_import / "records"
    tf0 = yaml.safe_load((records / f"{PREFIX}-dataset-gue-tf-0.yaml").read_text("utf-8"))
    assert [x["label"] for x in tf0["labels"]] == ["GUE/tf_0", "tf_0", "human_tf_0"]
    assert "same_task" not in tf0
    assert [r["dataset"] for r in tf0["related"]] == ["feng-2024-dataset-tf-0"]
    v1 = yaml.safe_load((records / f"{PREFIX}-dataset-ntv1-enhancers.yaml").read_text("utf-8"))
    v2 = yaml.safe_load((records / f"{PREFIX}-dataset-ntv2-enhancers.yaml").read_text("utf-8"))
    assert [x["label"] for x in v1["labels"]] == ["NTv1/enhancers"]
    assert [x["label"] for x in v2["labels"]] == ["NTv2/enhancers", "enhancers"]


def test_runs_sharing_every_setting_are_told_apart_by_their_directory() -> None:
    """best_replicates.csv rows 588 and 589: NTv2 on prom_300_all, learning rate 1e-4, 4
    epochs, seed 99, twice (the second run in a nested directory): both keep their run
    directory as a setting; a run no other run shares keeps it empty."""
    table = TABLES[0]
    files = SourceFiles.from_folder(EXCERPT, COMMIT, [table.path])
    rows = {r.line: r for r in read_rows(files[table.path], table)}
    at = table.settings.index(RUN_DIRECTORY)
    first, second = rows[588].settings[at], rows[589].settings[at]
    assert first.endswith("/results/NTv2__1e-4_prom_300_all_seed99")
    assert "/nt_NTv2-500m-ms_1e-4_prom_300_all_seed99/" in second
    assert rows[588].metrics[1] == "0.8356111240988223"
    assert rows[589].metrics[1] == "0.7824436066735111"
    assert sum(1 for r in rows.values() if r.settings[at]) < len(rows) / 4


def _corrupt(tmp_path: Path, path: str, old: str, new: str) -> Path:
    folder = tmp_path / "download"
    shutil.copytree(EXCERPT, folder)
    file = folder / path
    text = file.read_text("utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), "utf-8")
    return folder


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            ",0.4142656922340393,",
            ",0.41x,",
            r"final_combined_ss_results/best_replicates_ss\.csv, row 207, column mcc: '0\.41x' "
            "is not a number",
        ),
        (
            ",0.4142656922340393,",
            ",1.41,",
            r"best_replicates_ss\.csv, row 207, column mcc: '1\.41' is outside -1\.\.1",
        ),
        ("\nH3K4me1,CNN-LR", "\nH3K4me2x,CNN-LR", r"row 207: task 'H3K4me2x' is in no dataset"),
        ("recall,specificity,", "recall,specifity,", r"the header is .* nothing was changed"),
    ],
)
def test_malformed_source_is_refused_and_nothing_is_written(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    """A bad cell, an unknown task or another header: one clear line naming the file, row
    and column; the earlier import stays as it was, byte for byte."""
    root = tmp_path / "project"
    run_import(PREFIX, root, folder=EXCERPT)
    before = _tree(root)
    folder = _corrupt(tmp_path, "final_combined_ss_results/best_replicates_ss.csv", old, new)
    with pytest.raises(ImportProblem, match="not the file recorded"):  # at the pinned commit
        run_import(PREFIX, root, folder=folder)
    with pytest.raises(ImportProblem, match=message):  # as a later commit: the cell itself
        run_import(PREFIX, root, folder=folder, commit=LATER)
    assert _tree(root) == before


def test_hand_edited_rows_file_stops_the_import(tmp_path: Path) -> None:
    """The rows file is the importer's like its records: an edit by hand is kept and named."""
    run_import(PREFIX, tmp_path, folder=EXCERPT)
    rows = tmp_path / "records" / "tables" / f"{table_id(TABLES[2])}.csv"
    rows.write_text(rows.read_text("utf-8").replace("0.4142656922340393", "0.99", 1), "utf-8")
    before = _tree(tmp_path)
    with pytest.raises(ImportProblem, match=rf"records/tables/{table_id(TABLES[2])}\.csv"):
        run_import(PREFIX, tmp_path, folder=EXCERPT)
    assert _tree(tmp_path) == before


@needs_mirror
def test_check_reproduces_the_committed_records_byte_for_byte() -> None:
    report = run_import(PREFIX, ROOT, git_dir=MIRROR, check=True)
    assert not report.added and not report.changed and not report.removed, report.lines()
    assert f"tables/{table_id(TABLES[0])}.csv" in report.unchanged


@needs_mirror
def test_a_sample_of_values_is_read_again_from_the_pinned_bytes() -> None:
    """50 values drawn at random from the committed tables: each is the cell at its
    locator's row and its metric's source column in the file `git show COMMIT:PATH`
    gives, whose SHA-256 is the one the table's source record holds."""
    rng = random.Random(24)
    for table in TABLES:
        spec = yaml.safe_load((TABLES_DIR / f"{table_id(table)}.yaml").read_text("utf-8"))
        (source_id,) = spec["sources"]
        source = yaml.safe_load((ROOT / "records" / f"{source_id}.yaml").read_text("utf-8"))
        data = subprocess.run(
            ["git", "--git-dir", str(MIRROR), "show", f"{source['revision']}:{source['path']}"],
            capture_output=True,
            check=True,
        ).stdout
        assert hashlib.sha256(data).hexdigest() == source["sha256"]
        original = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
        rows = _rows((TABLES_DIR / f"{table_id(table)}.csv").read_text("utf-8"))
        for row in rng.sample(rows, 13 if table.best else 12):
            path, _, number = row["locator"].rpartition(", row ")
            assert path == source["path"]
            cells = dict(zip(original[0], original[int(number) - 1], strict=True))
            for metric in spec["columns"]["metrics"]:
                assert row[metric["column"]] == cells[metric["source_key"]]


IDENTITY = {
    "DNABERT": ("evidence-20261202-family-dnabert", "zhihan1996/DNA_bert_6"),
    "DNABERT2": ("evidence-20261130-family-dnabert-2", "zhihan1996/DNABERT-2-117M"),
    "NTv2": (
        "gfm-guide-20261014-family-nucleotide-transformer",
        "InstaDeepAI/nucleotide-transformer-v2-500m-multi-species",
    ),
    "GPT": ("evidence-20261202-family-gpt-neo", "EleutherAI/gpt-neo-125m"),
    "HyenaDNA": ("evidence-20261130-family-hyenadna", None),
    "Caduceus": ("evidence-20261130-family-caduceus", None),
    "Mamba-bpe": (f"{PREFIX}-family-mamba", None),
    "Mamba-char": (f"{PREFIX}-family-mamba", None),
    "CNN": (f"{PREFIX}-family-cnn-baseline", None),
}
"""The study's model labels: the attention models' checkpoints as the study's run scripts
(leannmlindsey/DNAtokenization at 91d51390, cited on the family records) name them; the
state-space models and the CNN at family level only (no checkpoint is named)."""


def test_committed_records_validate_and_every_label_resolves(live: Gathered) -> None:
    """The importer's records and tables, and the family records that carry the study's
    labels, validate with no problem (the live catalogue, gathered once per process: an
    error anywhere stops the gathering; no warning names these files); every task label
    names a dataset and every model label its family (and checkpoint where the run
    scripts name it)."""
    paths = {
        *sorted((ROOT / "records").glob(f"{PREFIX}-*.yaml")),
        *sorted(TABLES_DIR.glob(f"{PREFIX}-*")),
        *sorted({ROOT / "records" / f"{f}.yaml" for f, _ in IDENTITY.values()}),
        *sorted((ROOT / "records").glob("evidence-20261202-source-dnatokenization-*.yaml")),
    }
    assert [str(p) for p in live.warnings if p.path.resolve() in paths] == []
    rows = live.catalogue.result_rows
    for table in TABLES:
        assert isinstance(live.catalogue.by_id[table_id(table)], ResultTable)
        unmapped = rows.unmapped.get(table_id(table))
        assert unmapped is None or (unmapped.tasks, unmapped.models) == ((), ())
        assert rows.of_table(table_id(table))
        for row in rows.of_table(table_id(table)):
            assert row.dataset is not None
            assert (row.family, row.checkpoint) == IDENTITY[row.model]
