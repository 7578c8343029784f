"""The Evo 2 gene completion importer (issue 24): ArcInstitute/evo2's
scripts/gene_completion/results/*.csv at a pinned commit -> two result tables. The files
are Apache-2.0 and committed under artifacts/sources/evo2-gene-completion/files/."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
import subprocess
from pathlib import Path

import yaml
from entry_point import rewire_script

from rewire_site.importers import run_import
from rewire_site.importers.evo2 import COMMIT, PREFIX, SUMMARY

ROOT = Path(__file__).resolve().parents[1]
FILES = ROOT / "artifacts" / "sources" / PREFIX / "files"
TABLES = ROOT / "records" / "tables"


def _texts(root: Path) -> dict[str, str]:
    manifest = json.loads((root / "artifacts/sources" / PREFIX / "manifest.json").read_text())
    return {
        key: (root / "records" / (key if "/" in key else f"{key}.yaml")).read_text("utf-8")
        for key in manifest["records"]
    }


def test_import_of_the_committed_files_gives_the_committed_records(tmp_path: Path) -> None:
    manifest = json.loads((FILES.parent / "manifest.json").read_text("utf-8"))
    assert manifest["commit"] == COMMIT
    for path, entry in manifest["files"].items():
        data = (FILES / path).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], path
    run_import(PREFIX, tmp_path, folder=FILES)
    assert _texts(tmp_path) == _texts(ROOT)
    check = run_import(PREFIX, ROOT, folder=FILES, check=True)
    assert not check.added and not check.changed and not check.removed


def test_every_value_rereads_from_the_pinned_bytes() -> None:
    """All 64 values (the sample is the whole table): the cell at the row's locator under
    the metric's source key, in the file whose SHA-256 the source record holds."""
    seen = 0
    for spec_path in sorted(TABLES.glob(f"{PREFIX}-table-*.yaml")):
        spec = yaml.safe_load(spec_path.read_text("utf-8"))
        hashes = {}
        for source in spec["sources"]:
            record = yaml.safe_load((ROOT / "records" / f"{source}.yaml").read_text("utf-8"))
            hashes[record["path"]] = record["sha256"]
        with (TABLES / spec["rows"]).open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                path, number = row["locator"].split(", row ")
                data = (FILES / path).read_bytes()
                assert hashlib.sha256(data).hexdigest() == hashes[path]
                line = list(csv.DictReader(io.StringIO(data.decode("utf-8"))))[int(number) - 2]
                assert line["model"] == row["model"]
                assert row["task"] == line.get("gene", "Gene Completion benchmark")
                for metric in spec["columns"]["metrics"]:
                    assert row[metric["column"]] == line[metric["source_key"]]
                    seen += 1
    assert seen == 48 + 16


def test_a_summary_of_another_shape_refuses_and_writes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "site"
    run_import(PREFIX, root, folder=FILES)
    before = {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
    download = tmp_path / "download"
    shutil.copytree(FILES, download)
    target = download / SUMMARY
    target.write_text(target.read_text("utf-8").replace("paper_reported", "paper"), "utf-8")
    command = [rewire_script(), "import", PREFIX, "--from", str(download), "--root", str(root)]
    command += ["--commit", "1" * 40]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1
    (line,) = done.stderr.strip().splitlines()
    assert "summary.csv" in line and "nothing was changed" in line, line
    assert {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()} == before
