"""`rewire import`: each importer on real files at their real commits, idempotence, a
changed file at a new commit, a hand-edited record, and the CLI through the installed
script.

Redistributable sources (MIT, Apache-2.0) are committed under artifacts/sources/<prefix>/
files/: importing them must reproduce the committed records byte for byte. Feng et al.'s
files carry no licence: tests/fixtures/import/feng-2024/ holds excerpts (the cited lines
and three datasets' rows) with the real files' commit, SHA-256 and size.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from entry_point import rewire_script

from rewire_site.importers import IMPORTERS, ImportProblem, run_import
from rewire_site.importers.core import SourceFiles
from rewire_site.importers.tables import read_csv, read_markdown_table

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "import"
LATER = "1" * 40
"""A stand-in commit for the changed-file fixture (a full 40-hex value, as required)."""


def _files(prefix: str) -> Path:
    return ROOT / "artifacts" / "sources" / prefix / "files"


def _imported(root: Path) -> dict[str, str]:
    """Record key (as the manifest keys it) -> text: an id for records/<id>.yaml, a path
    under records/ for a result table's YAML and CSV."""
    records = root / "records"
    out = {p.stem: p.read_text("utf-8") for p in sorted(records.glob("*.yaml"))}
    for path in sorted((records / "tables").glob("*")):
        out[f"tables/{path.name}"] = path.read_text("utf-8")
    return out


@pytest.mark.parametrize("prefix", ["tang-koo-2024", "genomic-benchmarks"])
def test_redistributable_source_reproduces_committed_records(prefix: str, tmp_path: Path) -> None:
    """A fresh import of the committed source files gives the committed records exactly."""
    manifest = json.loads((_files(prefix).parent / "manifest.json").read_text("utf-8"))
    for path, entry in manifest["files"].items():
        data = (_files(prefix) / path).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], path
        assert len(data) == entry["size"], path
    report = run_import(prefix, tmp_path, folder=_files(prefix))
    assert report.commit == IMPORTERS[prefix].commit
    written = _imported(tmp_path)
    assert set(written) == set(manifest["records"])
    for record_id, text in written.items():
        name = record_id if "/" in record_id else f"{record_id}.yaml"
        assert (ROOT / "records" / name).read_text("utf-8") == text, record_id


def test_every_imported_value_quotes_its_cell(tmp_path: Path) -> None:
    """Each evaluation holds one value, located by path, row and column, whose quote and
    printed value are the cell's verbatim text and whose number parses from it."""
    run_import("tang-koo-2024", tmp_path, folder=_files("tang-koo-2024"))
    table = read_csv(
        SourceFiles.from_folder(
            _files("tang-koo-2024"),
            IMPORTERS["tang-koo-2024"].commit,
            ["lentiMPRA/results/LLM_CNN.csv"],
        )["lentiMPRA/results/LLM_CNN.csv"]
    )
    cells = {c.locator: c.text for c in table.column("Performance")}
    seen = 0
    for path in (tmp_path / "records").glob("tang-koo-2024-eval-*.yaml"):
        record = yaml.safe_load(path.read_text("utf-8"))
        (result,) = record["results"]
        citation = result["citation"]
        assert citation["quote"] == result["printed_value"]
        assert float(citation["quote"]) == result["value"]
        if citation["locator"] in cells:
            assert cells[citation["locator"]] == citation["quote"]
            seen += 1
    assert seen == len(cells) == 32


def test_import_is_idempotent(tmp_path: Path) -> None:
    first = run_import("genomic-benchmarks", tmp_path, folder=_files("genomic-benchmarks"))
    before = _imported(tmp_path)
    second = run_import("genomic-benchmarks", tmp_path, folder=_files("genomic-benchmarks"))
    assert first.added and not first.changed
    assert not second.added and not second.changed and not second.removed
    assert second.unchanged == sorted(before)
    assert _imported(tmp_path) == before


def test_feng_excerpt_matches_the_committed_records(tmp_path: Path) -> None:
    """The Feng importer on the excerpt: the same locator, quote and value as the committed
    record of that cell; the committed source records carry the real files' hashes."""
    meta = json.loads((FIXTURES / "feng-2024" / "source.json").read_text("utf-8"))
    assert meta["commit"] == IMPORTERS["feng-2024"].commit
    manifest = json.loads(
        (ROOT / "artifacts" / "sources" / "feng-2024" / "manifest.json").read_text("utf-8")
    )
    assert manifest["files"] == meta["files"]
    for path, entry in meta["files"].items():
        sources = list((ROOT / "records").glob(f"feng-2024-source-*-{entry['sha256'][:12]}.yaml"))
        assert len(sources) == 1, path
        record = yaml.safe_load(sources[0].read_text("utf-8"))
        assert (record["path"], record["sha256"], record["size_bytes"], record["revision"]) == (
            path,
            entry["sha256"],
            entry["size"],
            meta["commit"],
        )

    run_import("feng-2024", tmp_path, folder=FIXTURES / "feng-2024" / "files")
    record_id = "feng-2024-eval-dnabert-2-summary-gm12878-mcc"
    ours = yaml.safe_load((tmp_path / "records" / f"{record_id}.yaml").read_text("utf-8"))
    committed = yaml.safe_load((ROOT / "records" / f"{record_id}.yaml").read_text("utf-8"))
    (result,) = ours["results"]
    assert result["value"] == 0.812216994391334
    assert result["citation"]["quote"] == "0.812216994391334"
    assert result["citation"]["locator"] == (
        "results_final/final_dnabert2.csv, row 2 (GM12878), column MCC"
    )
    # the excerpt keeps the real file's first rows, so GM12878 moved; the value did not
    assert committed["results"][0]["value"] == result["value"]
    assert committed["results"][0]["citation"]["quote"] == result["citation"]["quote"]
    # a multiclass dataset gets the macro F1 column label, a binary one the plain one
    protocol = yaml.safe_load(
        (tmp_path / "records" / "feng-2024-protocol-regulatory.yaml").read_text("utf-8")
    )
    labels = {c["id"]: c["label"] for c in protocol["columns"]}
    assert labels["f1"] == "F1 score (macro average over classes)"
    # the checkpoint revision is read from the inference script, not typed in
    config = yaml.safe_load(
        (tmp_path / "records" / "feng-2024-config-dnabert-2-summary-pooling.yaml").read_text()
    )
    assert config["version"] == "1d020b803b871a976f5f3d5565f0eac8f2c7bb81"
    # the importer writes the task identity: `regulatory` is only related to Genomic
    # Benchmarks' dataset of that name (no evidence of the same files and split), as in
    # the committed record (the excerpt's source hash and rows differ); GM12878 has no link
    regulatory = (tmp_path / "records" / "feng-2024-dataset-regulatory.yaml").read_text("utf-8")
    data = yaml.safe_load(regulatory)
    committed_dataset = yaml.safe_load(
        (ROOT / "records" / "feng-2024-dataset-regulatory.yaml").read_text("utf-8")
    )
    assert data["related"] == committed_dataset["related"]
    assert "same_task" not in data
    assert [r["dataset"] for r in data["related"]] == [
        "genomic-benchmarks-dataset-human-ensembl-regulatory"
    ]
    gm = yaml.safe_load((tmp_path / "records" / "feng-2024-dataset-gm12878.yaml").read_text())
    assert "same_task" not in gm and "related" not in gm


def test_changed_file_at_a_new_commit_adds_a_source_and_reports_the_cell(tmp_path: Path) -> None:
    run_import("genomic-benchmarks", tmp_path, folder=_files("genomic-benchmarks"))
    changed = tmp_path / "download"
    shutil.copytree(_files("genomic-benchmarks"), changed)
    shutil.copy(
        FIXTURES / "changed" / "files" / "experiments" / "README.md",
        changed / "experiments" / "README.md",
    )
    report = run_import("genomic-benchmarks", tmp_path, folder=changed, commit=LATER)
    old = [s for s in report.kept_sources if "experiments-readme" in s]
    new = [s for s in report.added if "-source-experiments-readme" in s]
    assert len(old) == 1 and len(new) == 1
    assert (tmp_path / "records" / f"{old[0]}.yaml").is_file()
    record_id = "genomic-benchmarks-eval-hyenadna-demo-coding-vs-intergenomic-seqs-accuracy"
    assert record_id in report.changed
    assert report.cell_changes == [f"{record_id}: '91.3' -> '91.4'"]
    record = yaml.safe_load((tmp_path / "records" / f"{record_id}.yaml").read_text("utf-8"))
    assert record["results"][0]["value"] == 91.4
    assert record["results"][0]["citation"]["source"] == new[0]
    assert record["version"].endswith(LATER)


def test_hand_edited_record_stops_the_import(tmp_path: Path) -> None:
    run_import("genomic-benchmarks", tmp_path, folder=_files("genomic-benchmarks"))
    edited = (
        FIXTURES
        / "hand-edited"
        / ("genomic-benchmarks-eval-pytorch-cnn-human-enhancers-cohn-accuracy.yaml")
    )
    target = tmp_path / "records" / edited.name
    shutil.copy(edited, target)
    before = _imported(tmp_path)
    with pytest.raises(ImportProblem) as problem:
        run_import("genomic-benchmarks", tmp_path, folder=_files("genomic-benchmarks"))
    assert f"records/{edited.name}" in str(problem.value)
    assert _imported(tmp_path) == before  # nothing written, the edit kept


def test_record_not_written_by_the_importer_is_not_overwritten(tmp_path: Path) -> None:
    (tmp_path / "records").mkdir()
    squatter = tmp_path / "records" / "genomic-benchmarks-config-hyenadna.yaml"
    squatter.write_text("id: genomic-benchmarks-config-hyenadna\n", "utf-8")
    with pytest.raises(ImportProblem, match=r"genomic-benchmarks-config-hyenadna\.yaml"):
        run_import("genomic-benchmarks", tmp_path, folder=_files("genomic-benchmarks"))
    assert squatter.read_text("utf-8") == "id: genomic-benchmarks-config-hyenadna\n"


def test_abbreviated_commit_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ImportProblem, match="full 40-hex commit"):
        run_import(
            "genomic-benchmarks", tmp_path, folder=_files("genomic-benchmarks"), commit="605d853"
        )


def test_markdown_table_rows_are_file_lines() -> None:
    files = SourceFiles.from_folder(
        _files("genomic-benchmarks"),
        IMPORTERS["genomic-benchmarks"].commit,
        ["experiments/README.md"],
    )
    readme = files["experiments/README.md"]
    table = read_markdown_table(readme, "### PyTorch CNN")
    first = table.rows[0]
    assert first[0].text == "demo_coding_vs_intergenomic_seqs"
    assert "| demo_coding_vs_intergenomic_seqs |       87.6 |" in readme.line(first[0].line)


def test_cli_import_and_hand_edit_exit_codes(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "records").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\n", "utf-8")
    command = [
        rewire_script(),
        "import",
        "genomic-benchmarks",
        "--from",
        str(_files("genomic-benchmarks")),
    ]
    done = subprocess.run(
        [*command, "--root", str(root)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    manifest = json.loads((_files("genomic-benchmarks").parent / "manifest.json").read_text())
    expected = f"605d8539830e16c85abe7826990958303ffc5e1c: {len(manifest['records'])} added"
    assert expected in done.stdout
    record = root / "records" / "genomic-benchmarks-config-hyenadna.yaml"
    record.write_text(record.read_text("utf-8") + "# my note\n", "utf-8")
    done = subprocess.run(
        [*command, "--root", str(root)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert "records/genomic-benchmarks-config-hyenadna.yaml" in done.stderr


def test_tang_koo_layer_table_rereads_its_cells_from_the_pinned_bytes(tmp_path: Path) -> None:
    """The per-layer probe table (issue 24): 2 cell types x 32 layers x 7 probes, every cell
    the verbatim text of its row and column in the copied file, whose SHA-256 the table's
    source record holds."""
    run_import("tang-koo-2024", tmp_path, folder=_files("tang-koo-2024"))
    tables = tmp_path / "records" / "tables"
    spec = yaml.safe_load((tables / "tang-koo-2024-table-nt-layer-probe.yaml").read_text("utf-8"))
    keys = {m["column"]: m["source_key"] for m in spec["columns"]["metrics"]}
    sources = {}
    for source in spec["sources"]:
        record = yaml.safe_load((tmp_path / "records" / f"{source}.yaml").read_text("utf-8"))
        sources[record["path"]] = record["sha256"]
    seen = 0
    with (tables / spec["rows"]).open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            path, where = row["locator"].split(", row ")
            data = (_files("tang-koo-2024") / path).read_bytes()
            assert hashlib.sha256(data).hexdigest() == sources[path]
            lines = list(csv.DictReader(io.StringIO(data.decode("utf-8"))))
            line = lines[int(where) - 2]
            assert line["Layer"] == row["layer"] and row["model"] == "2B5_1000G"
            for column, key in keys.items():
                assert row[column] == line[key], (row["locator"], key)
                seen += 1
    assert seen == 448
