"""The DGEB importer (issue 24): the DNA models' leaderboard submission files at a pinned
commit -> three result tables (classification, phylogeny, clustering), one row per model,
task and layer.

The files are Apache-2.0 and committed under artifacts/sources/dgeb/files/, so every test
here runs without the network or the mirror."""

from __future__ import annotations

import csv
import hashlib
import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from entry_point import rewire_script

from rewire_site.importers import IMPORTERS, ImportProblem, run_import
from rewire_site.importers.dgeb import COMMIT, RESULT_PATHS

ROOT = Path(__file__).resolve().parents[1]
FILES = ROOT / "artifacts" / "sources" / "dgeb" / "files"
MANIFEST = FILES.parent / "manifest.json"
TABLES = ROOT / "records" / "tables"


def _committed() -> dict[str, str]:
    manifest = json.loads(MANIFEST.read_text("utf-8"))
    out: dict[str, str] = {}
    for key in manifest["records"]:
        path = ROOT / "records" / (key if "/" in key else f"{key}.yaml")
        out[key] = path.read_text("utf-8")
    return out


def _written(root: Path) -> dict[str, str]:
    manifest = json.loads((root / "artifacts/sources/dgeb/manifest.json").read_text("utf-8"))
    return {
        key: (root / "records" / (key if "/" in key else f"{key}.yaml")).read_text("utf-8")
        for key in manifest["records"]
    }


def test_import_of_the_committed_files_gives_the_committed_records(tmp_path: Path) -> None:
    """`rewire import dgeb --from artifacts/sources/dgeb/files` regenerates every record
    and table byte for byte, and the copied files are the ones the manifest hashes."""
    manifest = json.loads(MANIFEST.read_text("utf-8"))
    assert manifest["commit"] == COMMIT == IMPORTERS["dgeb"].commit
    for path, entry in manifest["files"].items():
        data = (FILES / path).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], path
        assert len(data) == entry["size"], path
    run_import("dgeb", tmp_path, folder=FILES)
    assert _written(tmp_path) == _committed()
    check = run_import("dgeb", ROOT, folder=FILES, check=True)
    assert not check.added and not check.changed and not check.removed


def _rows() -> list[tuple[str, str, dict[str, str]]]:
    out = []
    for table in sorted(TABLES.glob("dgeb-table-*.yaml")):
        spec = yaml.safe_load(table.read_text("utf-8"))
        keys = {m["column"]: m["source_key"] for m in spec["columns"]["metrics"]}
        with (TABLES / spec["rows"]).open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                out += [(table.stem, row["locator"], {keys[c]: row[c] for c in keys if row[c]})]
    return out


def test_a_sample_of_values_reread_from_the_pinned_bytes() -> None:
    """50 values drawn at random from the committed tables: each is the JSON number written
    at its locator in the file whose SHA-256 the table's source record holds."""
    sources = {}
    for path in (ROOT / "records").glob("dgeb-source-*.yaml"):
        record = yaml.safe_load(path.read_text("utf-8"))
        sources[record["path"]] = (record["id"], record["sha256"])
    values = [(t, loc, key, text) for t, loc, cells in _rows() for key, text in cells.items()]
    assert len(values) >= 392
    locator = re.compile(
        r"^(?P<path>\S+\.json): results\[(?P<i>\d+)\] \(layer_number (?P<n>\d+)\)$"
    )
    for table, where, key, text in random.Random(24).sample(values, 50):
        match = locator.match(where)
        assert match, where
        data = (FILES / match["path"]).read_bytes()
        source, sha256 = sources[match["path"]]
        assert hashlib.sha256(data).hexdigest() == sha256
        spec = yaml.safe_load((TABLES / f"{table}.yaml").read_text("utf-8"))
        assert source in spec["sources"], where
        parsed = json.loads(data, parse_float=str, parse_int=str)
        result = parsed["results"][int(match["i"])]
        assert result["layer_number"] == match["n"]
        (value,) = [m["value"] for m in result["metrics"] if m["id"] == key]
        assert value == text, (where, key)


def test_every_dna_submission_value_is_imported_once() -> None:
    """392 values: 7 DNA models x 8 tasks x 2 layers x each task's metrics, none twice."""
    expected = 0
    for path in RESULT_PATHS:
        parsed = json.loads((FILES / path).read_bytes())
        expected += sum(len(r["metrics"]) for r in parsed["results"])
    rows = _rows()
    assert sum(len(cells) for _, _, cells in rows) == expected == 392
    identities = [(t, loc) for t, loc, _ in rows]
    assert len(identities) == len(set(identities)) == 112


def _download(tmp_path: Path) -> Path:
    download = tmp_path / "download"
    shutil.copytree(FILES, download)
    return download


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace('"results"', '"scores"'), "not a DGEB submission"),
        (lambda t: t.replace('"id": "f1"', '"id": "f2"', 1), "metric 'f2' is not one"),
        (lambda t: t[: len(t) // 2], "not valid JSON"),
    ],
)
def test_a_malformed_submission_refuses_and_writes_nothing(
    tmp_path: Path, edit: object, message: str
) -> None:
    root = tmp_path / "site"
    run_import("dgeb", root, folder=FILES)
    before = _snapshot(root)
    download = _download(tmp_path)
    target = download / "leaderboard/submissions/evo-1-8k-base/ec_dna_classification.json"
    assert callable(edit)
    target.write_text(edit(target.read_text("utf-8")), encoding="utf-8")
    command = [rewire_script(), "import", "dgeb", "--from", str(download), "--root", str(root)]
    command += ["--commit", "1" * 40]  # another commit: the shape is checked, not the hash
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rewire import: "), done.stderr
    assert message in lines[0] and "nothing was changed" in lines[0], lines[0]
    assert _snapshot(root) == before


def test_a_submission_for_another_model_than_its_folder_is_refused(tmp_path: Path) -> None:
    download = _download(tmp_path)
    target = download / "leaderboard/submissions/evo-1-8k-base/ec_dna_classification.json"
    text = target.read_text("utf-8").replace("evo-1-8k-base", "evo-1-131k-base")
    target.write_text(text, encoding="utf-8")
    with pytest.raises(ImportProblem, match="not the ones of its path"):
        run_import("dgeb", tmp_path / "site", folder=download, commit="1" * 40)
    assert not (tmp_path / "site").exists()
