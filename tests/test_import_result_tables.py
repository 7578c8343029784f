"""Importers writing result tables (issue 24, TABLES-SPEC): the specification record and
its CSV under records/tables/, deterministic rows, the manifest guarding both files, and
rows the table cannot hold refused before anything is written."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from rewire_site.importers.core import (
    ROWS_TEXT,
    Importer,
    ImportProblem,
    ImportReport,
    Record,
    SourceFile,
    SourceFiles,
    TableSpec,
    render_records,
    write_records,
)
from rewire_site.importers.result_tables import (
    MetricColumn,
    ResultTableSpec,
    Row,
    SettingColumn,
    rows_csv,
    table_record,
)
from rewire_site.importers.shape import check_shape

COMMIT = "a" * 40
PATH = "results/scores.csv"
SCORES = "model,task,layer,f1\nm-b,t1,16,0.5\nm-a,t1,16,0.25\nm-a,t1,6,0.125\nm-a,t2,6,\n"


def _spec(table_id: str = "demo-table-scores") -> ResultTableSpec:
    return ResultTableSpec(
        id=table_id,
        title="Demo scores",
        summary="Scores of two models.",
        sources=["demo-source-results-scores-csv"],
        source_paths=(PATH,),
        labels="demo",
        protocol="demo-protocol",
        adaptation="frozen_probe",
        origin="independent_paper",
        settings=(SettingColumn("layer", "layer"),),
        metrics=(MetricColumn("f1", "F1", "higher", "f1", "fraction", 0.0, 1.0),),
        comparison={"split": "test split"},
        missing_metadata={},
        base={"added": "2026-12-02"},
    )


def _rows(text: str) -> list[Row]:
    reader = csv.DictReader(io.StringIO(text))
    rows = []
    for number, line in enumerate(reader, start=2):
        cells = {"f1": line["f1"]} if line["f1"] else {}
        rows.append(
            Row(line["model"], line["task"], (line["layer"],), cells, f"{PATH}, row {number}")
        )
    return rows


def _importer(tables: list[str]) -> Importer:
    def build(files: SourceFiles) -> list[Record]:
        rows = _rows(files[PATH].text())
        return [table_record(_spec(t), [r for r in rows if r.cells]) for t in tables]

    return Importer(
        prefix="demo",
        title="demo",
        repository="https://github.com/example/demo",
        commit=COMMIT,
        paths=(PATH,),
        required=(PATH,),
        redistributable=False,
        build=build,
        tables=(),
    )


def _source(tmp_path: Path, text: str = SCORES) -> SourceFiles:
    folder = tmp_path / "download"
    (folder / "results").mkdir(parents=True, exist_ok=True)
    (folder / PATH).write_text(text, encoding="utf-8")
    return SourceFiles.from_folder(folder, COMMIT, [PATH], required=[PATH])


def _import(
    root: Path, importer: Importer, files: SourceFiles, check: bool = False
) -> ImportReport:
    rendered = render_records(importer.build(files))
    return write_records(root, importer, files, rendered, check=check)


def test_rows_sorted_by_model_task_and_numeric_setting() -> None:
    text = rows_csv(_spec(), [r for r in _rows(SCORES) if r.cells])
    assert text.splitlines() == [
        "model,task,layer,f1,locator",
        f'm-a,t1,6,0.125,"{PATH}, row 4"',
        f'm-a,t1,16,0.25,"{PATH}, row 3"',
        f'm-b,t1,16,0.5,"{PATH}, row 2"',
    ]
    assert "\r" not in text and text.endswith("\n")


def test_table_is_written_as_yaml_and_csv_under_records_tables(tmp_path: Path) -> None:
    root = tmp_path / "site"
    files = _source(tmp_path)
    _import(root, _importer(["demo-table-scores"]), files)
    spec = root / "records" / "tables" / "demo-table-scores.yaml"
    rows = root / "records" / "tables" / "demo-table-scores.csv"
    text = spec.read_text("utf-8")
    assert text.startswith("# yaml-language-server: $schema=../../schemas/result_table.schema.json")
    assert ROWS_TEXT not in text and "rows: demo-table-scores.csv" in text
    assert rows.read_bytes().decode("utf-8").splitlines()[0] == "model,task,layer,f1,locator"
    manifest = json.loads((root / "artifacts/sources/demo/manifest.json").read_text("utf-8"))
    assert sorted(manifest["records"]) == [
        "tables/demo-table-scores.csv",
        "tables/demo-table-scores.yaml",
    ]
    again = _import(root, _importer(["demo-table-scores"]), files, check=True)
    assert again.unchanged == sorted(manifest["records"])
    assert not again.added and not again.changed


def test_hand_edited_rows_stop_the_import(tmp_path: Path) -> None:
    root = tmp_path / "site"
    files = _source(tmp_path)
    _import(root, _importer(["demo-table-scores"]), files)
    rows = root / "records" / "tables" / "demo-table-scores.csv"
    rows.write_text(rows.read_text("utf-8").replace("0.5", "0.9"), encoding="utf-8")
    with pytest.raises(ImportProblem, match=r"records/tables/demo-table-scores\.csv"):
        _import(root, _importer(["demo-table-scores"]), files)
    assert "0.9" in rows.read_text("utf-8")


def test_a_table_no_longer_built_is_removed_with_its_rows(tmp_path: Path) -> None:
    root = tmp_path / "site"
    files = _source(tmp_path)
    _import(root, _importer(["demo-table-scores", "demo-table-other"]), files)
    assert (root / "records/tables/demo-table-other.csv").is_file()
    report = _import(root, _importer(["demo-table-scores"]), files)
    assert report.removed == [
        "tables/demo-table-other.csv",
        "tables/demo-table-other.yaml",
    ]
    assert not (root / "records/tables/demo-table-other.csv").exists()
    assert (root / "records/tables/demo-table-scores.csv").is_file()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (SCORES + "m-a,t1,6,0.3\n", "the same model, task and settings"),
        (SCORES + "m-c,t1,6,0.3x\n", r"row 6, f1: '0.3x' is not a number"),
        (SCORES + "m-c,t1,6,nan\n", "not a finite number"),
    ],
)
def test_rows_a_table_cannot_hold_write_nothing(tmp_path: Path, text: str, message: str) -> None:
    root = tmp_path / "site"
    with pytest.raises(ImportProblem, match=message):
        _import(root, _importer(["demo-table-scores"]), _source(tmp_path, text))
    assert not root.exists()


def test_locator_outside_the_sources_is_refused() -> None:
    row = Row("m", "t", ("1",), {"f1": "0.5"}, "other/file.csv, row 2")
    with pytest.raises(ImportProblem, match="not in any file"):
        table_record(_spec(), [row])


def test_shape_check_of_a_format_without_a_table_reader(tmp_path: Path) -> None:
    """A JSON or spreadsheet file is checked by the importer's own function before
    anything is built; its refusal says nothing was changed."""

    def check(file: SourceFile) -> None:
        if not file.text().startswith("model,task,layer,f1\n"):
            raise ImportProblem(f"{file.path}: not the scores table")

    importer = replace(
        _importer(["demo-table-scores"]), tables=(TableSpec(PATH, ("f1",), check=check),)
    )
    check_shape(tmp_path, importer, _source(tmp_path))
    with pytest.raises(ImportProblem, match="not the scores table; nothing was changed"):
        check_shape(tmp_path, importer, _source(tmp_path, "name,score\n"))
