"""`rewire import dnallm-mark`: DNALLM-Mark's 41 per-model performance files (MIT, copied
under artifacts/sources/dnallm-mark/files/) become one result table, its protocol, a
dataset record per task and the model families; the files at the pinned commit reproduce
the committed records byte for byte, values re-read from the pinned bytes match the rows,
every model and task label maps to a record, and a file of another shape is refused before
anything is written."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import random
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from entry_point import rewire_script

from rewire_site.importers import IMPORTERS, run_import
from rewire_site.importers import dnallm_mark_ids as ids
from rewire_site.importers.dnallm_mark_read import MODELS, TABLE, model_path
from rewire_site.link import Catalogue
from rewire_site.models import Dataset, ModelFamily

ROOT = Path(__file__).resolve().parents[1]
PREFIX = "dnallm-mark"
FILES = ROOT / "artifacts" / "sources" / PREFIX / "files"
MANIFEST = ROOT / "artifacts" / "sources" / PREFIX / "manifest.json"
DNABERT_2 = model_path("DNABERT-2-117M")


def _committed(key: str) -> Path:
    """The committed file of a manifest key (a record id, or a path under records/)."""
    if "/" in key:
        return ROOT / "records" / key
    return ROOT / "records" / f"{key}.yaml"


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for folder in (root / "records", root / "artifacts")
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh project that imported the committed copies of the pinned files once."""
    root = tmp_path_factory.mktemp("dnallm")
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\n", "utf-8")
    report = run_import(PREFIX, root, folder=FILES)
    assert report.commit == IMPORTERS[PREFIX].commit
    assert not report.changed and not report.removed
    return root


def test_committed_files_are_the_pinned_files() -> None:
    """Every copied file has the SHA-256 and size the manifest and its source record give."""
    manifest = json.loads(MANIFEST.read_text("utf-8"))
    assert set(manifest["files"]) == set(IMPORTERS[PREFIX].paths)
    for path, entry in manifest["files"].items():
        data = (FILES / path).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], path
        assert len(data) == entry["size"], path
        (source,) = (ROOT / "records").glob(f"{PREFIX}-source-*-{entry['sha256'][:12]}.yaml")
        record = yaml.safe_load(source.read_text("utf-8"))
        assert (record["path"], record["sha256"], record["size_bytes"]) == (
            path,
            entry["sha256"],
            entry["size"],
        ), path
        assert record["revision"] == IMPORTERS[PREFIX].commit


def test_a_fresh_import_reproduces_the_committed_records(imported: Path) -> None:
    """Byte for byte: every record, the table's YAML and its CSV."""
    manifest = json.loads(MANIFEST.read_text("utf-8"))
    written = json.loads((imported / MANIFEST.relative_to(ROOT)).read_text("utf-8"))
    assert written["records"] == manifest["records"]
    for key in manifest["records"]:
        ours = (imported / "records" / (key if "/" in key else f"{key}.yaml")).read_bytes()
        assert ours == _committed(key).read_bytes(), key
    assert f"tables/{TABLE}.csv" in manifest["records"]


def test_check_on_the_project_reports_no_change() -> None:
    """`rewire import dnallm-mark --from artifacts/... --check` on the repository itself."""
    report = run_import(PREFIX, ROOT, folder=FILES, check=True)
    assert not report.added and not report.changed and not report.removed
    assert len(report.unchanged) == len(json.loads(MANIFEST.read_text("utf-8"))["records"])


def _rows() -> list[dict[str, str]]:
    text = (ROOT / "records" / "tables" / f"{TABLE}.csv").read_text("utf-8")
    return list(csv.DictReader(io.StringIO(text, newline="")))


def _spec() -> dict[str, object]:
    data = yaml.safe_load((ROOT / "records" / "tables" / f"{TABLE}.yaml").read_text("utf-8"))
    assert isinstance(data, dict)
    return data


def test_a_sample_of_values_re_read_from_the_pinned_bytes() -> None:
    """Fifty values drawn at random from the committed rows: each locator names a file
    whose bytes have the SHA-256 of a source the table lists, and the JSON value at the
    locator and the metric's key, as printed, is the cell; its number parses from it."""
    spec = _spec()
    columns = spec["columns"]
    assert isinstance(columns, dict)
    keys = {m["column"]: m["source_key"] for m in columns["metrics"]}
    sources = {}
    for source_id in spec["sources"]:  # type: ignore[attr-defined]
        record = yaml.safe_load((ROOT / "records" / f"{source_id}.yaml").read_text("utf-8"))
        sources[record["path"]] = record["sha256"]
    cells = [(row, column) for row in _rows() for column in keys if row[column]]
    sample = random.Random(24).sample(cells, 50)
    for row, column in sample:
        path, _, where = row["locator"].partition(": ")
        assert where == f"performance['{row['task']}']['performance']"
        data = (FILES / path).read_bytes()
        assert hashlib.sha256(data).hexdigest() == sources[path], path
        parsed = json.loads(data, parse_float=str, parse_int=str)
        printed = parsed["performance"][row["task"]]["performance"][keys[column]]
        assert printed == row[column], (path, row["task"], column)
        assert repr(float(printed)) == repr(float(row[column]))
        assert path == model_path(row["model"])


def test_counts_of_the_table() -> None:
    """41 models x 47 tasks, one row each; every value of the files but the all-empty
    pearson_r key is a cell."""
    rows = _rows()
    assert len(rows) == 41 * 47
    assert len({(r["model"], r["task"]) for r in rows}) == len(rows)
    assert {r["model"] for r in rows} == set(MODELS)
    in_files = 0
    for label in MODELS:
        data = json.loads((FILES / model_path(label)).read_text("utf-8"))
        for entry in data["performance"].values():
            assert entry["performance"]["pearson_r"] == ""
            in_files += sum(1 for v in entry["performance"].values() if v != "")
    spec = _spec()
    columns = [m["column"] for m in spec["columns"]["metrics"]]  # type: ignore[index]
    assert sum(1 for r in rows for c in columns if r[c]) == in_files


def _labels(catalogue: Catalogue, kind: type[Dataset] | type[ModelFamily]) -> dict[str, list[str]]:
    """label -> ids of the live records of `kind` that carry it (scope dnallm-mark), on
    the record or on one of its checkpoints (the catalogue gathered once per process)."""
    found: dict[str, list[str]] = {}
    for record in catalogue.of_kind(kind):
        entries = list(record.labels)
        if isinstance(record, ModelFamily):
            entries += [label for c in record.checkpoints for label in c.labels]
        for entry in entries:
            if entry.scope == ids.SCOPE:
                found.setdefault(entry.label, []).append(record.id)
    return found


def test_every_model_label_maps_to_one_family(live_catalogue: Catalogue) -> None:
    """Each of the 41 labels sits on exactly one family record (on a checkpoint, or on
    the family with the reason where no checkpoint can be pinned)."""
    found = _labels(live_catalogue, ModelFamily)
    assert set(found) == set(MODELS)
    for label in MODELS:
        assert found[label] == [ids.model_family(label)], label


def test_every_task_label_has_its_dataset_record(live_catalogue: Catalogue) -> None:
    tasks = {r["task"] for r in _rows()}
    assert len(tasks) == 47
    found = _labels(live_catalogue, Dataset)
    assert set(found) == tasks
    assert all(len(v) == 1 for v in found.values())


def _tamper_value(folder: Path) -> None:
    file = folder / DNABERT_2
    text = file.read_text("utf-8")
    assert '"mcc": 0.7481940376071038' in text
    file.write_text(text.replace('"mcc": 0.7481940376071038', '"mcc": "0.75x"', 1), "utf-8")


def _tamper_list(folder: Path) -> None:
    (folder / DNABERT_2).write_text('{"info": {}, "performance": []}\n', "utf-8")


def _tamper_key(folder: Path) -> None:
    file = folder / DNABERT_2
    text = file.read_text("utf-8")
    file.write_text(text.replace('"auroc":', '"roc":', 1), "utf-8")


def _tamper_missing(folder: Path) -> None:
    (folder / DNABERT_2).unlink()


CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "a value that is not a number": (_tamper_value, "'0.75x' is not a number"),
    "performance is a list": (_tamper_list, "expected an object, found list"),
    "a metric key renamed": (_tamper_key, "keys differ"),
    "a performance file missing": (_tamper_missing, "missing"),
}


LATER = "1" * 40
"""A later commit than the pinned one: the manifest's checksums do not apply to it, so the
shape check itself must refuse the file."""


@pytest.mark.parametrize("commit", [None, LATER], ids=["pinned commit", "later commit"])
@pytest.mark.parametrize("case", list(CASES))
def test_a_file_of_another_shape_changes_nothing(
    imported: Path, tmp_path: Path, case: str, commit: str | None
) -> None:
    tamper, message = CASES[case]
    if commit is None and case != "a performance file missing":
        message = "not the file recorded at"
    download = tmp_path / "download"
    shutil.copytree(FILES, download)
    tamper(download)
    before = _snapshot(imported)
    command = [rewire_script(), "import", PREFIX, "--from", str(download), "--root", str(imported)]
    done = subprocess.run(
        [*command, *(["--commit", commit] if commit else [])],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rewire import: "), done.stderr
    assert message in lines[0]
    if case != "a performance file missing":
        assert DNABERT_2 in lines[0] and "nothing was changed" in lines[0]
    assert _snapshot(imported) == before
