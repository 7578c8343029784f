"""The LingoDNABench importer (issue 24): the `Benchmark performance` sheet of
manuscript-results.xlsx -> three result tables (adapter, zero-shot variant, non-gLM
baselines).

The repository has no licence, so the workbook is not committed. Tests that need its real
bytes read the bare clone under /work/.mirror when it is there and are skipped with the
reason otherwise; the others build a small workbook from an excerpt of the real sheet
(values copied from it) and run the importer on that.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import subprocess
import zipfile
from pathlib import Path

import pytest
import yaml

from rewire_site.importers import ImportProblem, run_import
from rewire_site.importers.core import SourceFile
from rewire_site.importers.lingodnabench import COMMIT, PATHS, SHEET, WORKBOOK, read_sheet

openpyxl = pytest.importorskip("openpyxl", reason="the `import` extra (openpyxl) is not installed")

ROOT = Path(__file__).resolve().parents[1]
MIRROR = Path("/work/.mirror/gao-lab+LingoDNABench/repo")
TABLES = ROOT / "records" / "tables"
needs_mirror = pytest.mark.skipif(
    not MIRROR.is_dir(), reason=f"no clone of gao-lab/LingoDNABench at {MIRROR} (no network in CI)"
)

EXCERPT = [
    # 'Benchmark performance' rows 1, 7, 15 and 25, columns A-H and J (here I), as in the
    # workbook
    ["Category", "Task", "Task type", "Metric", "Non-gLM baselines", "RandomWeight",
     "Caduceus-PS (1.9M)", "HyenaDNA-1M (6.6M)", "GPN-MSA (86M)"],
    ["Transcriptional regulation", "Promoter (proximal, non-TATA)", "Classification", "AUROC",
     0.987600213, 0.986251875, 0.99387803, 0.989583095, "\\"],
    ["Transcriptional regulation", "CRE activity", "Regression", "Spearman's rho",
     0.734392031, 0.589663955, 0.636816736, 0.611570229, "\\"],
    ["Variant effect prediction", "Variant (disease-related-coding)", "Classification", "AUROC",
     0.983438387, 0.484466809, 0.445838171, 0.533369093, 0.922725225],
]  # fmt: skip


REGULATORY = [
    # 'PDAS regulatory' rows 1, 47, 48, 119 and 120, as in the workbook
    ["Task", "Checkpoint", "Metric", "Pretraining loss"],
    ["Promoter (proximal, non-TATA)", 0, 0.991508995, 0.9789],
    ["Promoter (proximal, non-TATA)", 1, 0.99255569, 0.8162],
    ["CRE activity", 0, 0.655707612, 0.9789],
    ["CRE activity", 1, 0.63866777, 0.8162],
]
VARIANT = [
    # 'PDAS variant' rows 1, 2, 3, 18 and 19, as in the workbook
    ["Task", "Model", "Checkpoint", "Metric", "Pretraining loss"],
    ["Variant (disease-related-coding)", "Model H", 0, 0.431666682690162, 1.10605299472808],
    ["Variant (disease-related-coding)", "Model H", 1, 0.442463116774636, 0.915613293647766],
    ["Variant (disease-related-coding)", "Model M", 0, 0.505790466836141, 0.9789],
    ["Variant (disease-related-coding)", "Model M", 1, 0.538767018136896, 0.8162],
]


def _workbook(
    rows: list[list[object]],
    sheet: str = SHEET,
    regulatory: list[list[object]] = REGULATORY,
) -> bytes:
    book = openpyxl.Workbook()
    ws = book.active
    assert ws is not None
    ws.title = sheet
    for row in rows:
        ws.append(row)
    for name, sheet_rows in (("PDAS regulatory", regulatory), ("PDAS variant", VARIANT)):
        extra = book.create_sheet(name)
        for row in sheet_rows:
            extra.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _folder(tmp_path: Path, data: bytes) -> Path:
    """A download folder with the excerpt workbook and the real text files they cite."""
    folder = tmp_path / "download"
    for path in PATHS:
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if path == WORKBOOK:
            target.write_bytes(data)
        else:
            target.write_bytes(_text_file(path))
    return folder


def _text_file(path: str) -> bytes:
    fixture = ROOT / "tests" / "fixtures" / "import" / "lingodnabench" / path
    return fixture.read_bytes()


def _tables(root: Path) -> dict[str, list[dict[str, str]]]:
    out = {}
    for path in sorted((root / "records" / "tables").glob("lingodnabench-table-*.csv")):
        with path.open(encoding="utf-8", newline="") as handle:
            out[path.stem] = list(csv.DictReader(handle))
    return out


def test_excerpt_rows_go_to_the_table_of_their_protocol(tmp_path: Path) -> None:
    root = tmp_path / "site"
    run_import("lingodnabench", root, folder=_folder(tmp_path, _workbook(EXCERPT)), commit=COMMIT)
    tables = _tables(root)
    adapter = tables["lingodnabench-table-adapter"]
    assert [(r["model"], r["task"], r["auroc"], r["spearman"], r["locator"]) for r in adapter] == [
        ("Caduceus-PS (1.9M)", "CRE activity", "", "0.636816736",
         "manuscript-results.xlsx: 'Benchmark performance'!G3"),
        ("Caduceus-PS (1.9M)", "Promoter (proximal, non-TATA)", "0.99387803", "",
         "manuscript-results.xlsx: 'Benchmark performance'!G2"),
        ("HyenaDNA-1M (6.6M)", "CRE activity", "", "0.611570229",
         "manuscript-results.xlsx: 'Benchmark performance'!H3"),
        ("HyenaDNA-1M (6.6M)", "Promoter (proximal, non-TATA)", "0.989583095", "",
         "manuscript-results.xlsx: 'Benchmark performance'!H2"),
        ("RandomWeight", "CRE activity", "", "0.589663955",
         "manuscript-results.xlsx: 'Benchmark performance'!F3"),
        ("RandomWeight", "Promoter (proximal, non-TATA)", "0.986251875", "",
         "manuscript-results.xlsx: 'Benchmark performance'!F2"),
    ]  # fmt: skip
    variant = tables["lingodnabench-table-variant"]
    assert {r["model"] for r in variant} == {
        "RandomWeight", "Caduceus-PS (1.9M)", "HyenaDNA-1M (6.6M)", "GPN-MSA (86M)"
    }  # fmt: skip
    assert [r["auroc"] or r["spearman"] for r in tables["lingodnabench-table-baseline"]] == [
        "0.734392031", "0.987600213", "0.983438387"
    ]  # fmt: skip
    spec = yaml.safe_load(
        (root / "records/tables/lingodnabench-table-variant.yaml").read_text("utf-8")
    )
    assert spec["adaptation"] == "zero_shot"
    assert not (root / "artifacts/sources/lingodnabench/files").exists()  # no licence: no copy
    checkpoints = tables["lingodnabench-table-pretraining-regulatory"]
    assert [(r["model"], r["task"], r["checkpoint"], r["spearman"], r["pretraining-loss"])
            for r in checkpoints][:2] == [
        ("Model M", "CRE activity", "0", "0.655707612", "0.9789"),
        ("Model M", "CRE activity", "1", "0.63866777", "0.8162"),
    ]  # fmt: skip
    assert len(tables["lingodnabench-table-pretraining-variant"]) == 4


@pytest.mark.parametrize(
    ("rows", "sheet", "message"),
    [
        (EXCERPT, "Sheet1", "no sheet 'Benchmark performance'"),
        ([["Task", *EXCERPT[0][1:]], *EXCERPT[1:]], SHEET, "row 1 is not"),
        (
            [*EXCERPT, [*EXCERPT[1][:5], "n/a", *EXCERPT[1][6:]]],
            SHEET,
            r"F5: 'n/a' is not a number",
        ),
        ([*EXCERPT, ["x", "y", "Classification", "F1", 0.5]], SHEET, "metric 'F1'"),
    ],
)
def test_a_malformed_workbook_refuses_and_writes_nothing(
    tmp_path: Path, rows: list[list[object]], sheet: str, message: str
) -> None:
    root = tmp_path / "site"
    folder = _folder(tmp_path, _workbook(rows, sheet))
    with pytest.raises(ImportProblem, match=message):
        run_import("lingodnabench", root, folder=folder, commit=COMMIT)
    assert not root.exists()


def test_unnamed_model_needs_model_m_losses(tmp_path: Path) -> None:
    """The regulatory checkpoint sheet names no model: its rows are Model M's only while
    its losses are Model M's in the variant sheet."""
    other = [REGULATORY[0], ["CRE activity", 0, 0.655707612, 0.5]]
    folder = _folder(tmp_path, _workbook(EXCERPT, regulatory=other))
    with pytest.raises(ImportProblem, match="cannot be given to Model M"):
        run_import("lingodnabench", tmp_path / "site", folder=folder, commit=COMMIT)
    assert not (tmp_path / "site").exists()


def test_not_a_workbook_is_one_clear_line(tmp_path: Path) -> None:
    folder = _folder(tmp_path, b"Category,Task\n")
    command = ["rewire", "import", "lingodnabench", "--from", str(folder), "--root", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1
    (line,) = done.stderr.strip().splitlines()
    assert "not a readable .xlsx workbook" in line and "nothing was changed" in line


def _stored_texts(data: bytes, sheet: str = SHEET) -> dict[str, str]:
    """Coordinate -> the text the workbook's XML stores for each numeric cell of `sheet`
    (read without openpyxl)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        book = archive.read("xl/workbook.xml").decode("utf-8")
        names = re.findall(r'<sheet [^>]*name="([^"]+)"', book)
        xml = archive.read(f"xl/worksheets/sheet{names.index(sheet) + 1}.xml").decode("utf-8")
    cells = re.findall(r'<c r="([A-Z]+\d+)"([^>]*)>(?:<f>[^<]*</f>)?<v>([^<]*)</v>', xml)
    return {ref: text for ref, attrs, text in cells if 't="s"' not in attrs}


def _pinned() -> bytes:
    return subprocess.run(
        ["git", "--git-dir", str(MIRROR), "show", f"{COMMIT}:{WORKBOOK}"],
        capture_output=True,
        check=True,
    ).stdout


@needs_mirror
def test_every_value_is_the_text_the_pinned_workbook_stores() -> None:
    """All 328 committed values (the sample is the whole table) against the XML text of
    their cell in the pinned workbook, whose SHA-256 the source record holds."""
    data = _pinned()
    (source,) = [
        yaml.safe_load(p.read_text("utf-8"))
        for p in (ROOT / "records").glob("lingodnabench-source-manuscript-results-xlsx-*.yaml")
    ]
    assert source["sha256"] == hashlib.sha256(data).hexdigest()
    assert source["size_bytes"] == len(data) and source["revision"] == COMMIT
    letters = {  # sheet -> (score column, loss column)
        "PDAS regulatory": ("C", "D"),
        "PDAS variant": ("D", "E"),
    }
    stored = {s: _stored_texts(data, s) for s in (SHEET, *letters)}
    seen = 0
    for rows in _tables(ROOT).values():
        for row in rows:
            match = re.fullmatch(
                rf"{re.escape(WORKBOOK)}: '([^']+)'!([A-Z]+)(\d+)(?::[A-Z]+\d+)?", row["locator"]
            )
            assert match, row["locator"]
            sheet, column, number = match.groups()
            scores = [row[c] for c in ("auroc", "spearman") if row.get(c)]
            if sheet == SHEET:
                assert scores == [stored[sheet][f"{column}{number}"]], row
                seen += 1
                continue
            score, loss = letters[sheet]
            assert scores == [stored[sheet][f"{score}{number}"]], row
            assert row["pretraining-loss"] == stored[sheet][f"{loss}{number}"], row
            seen += 2
    assert seen == 328 + 614


@needs_mirror
def test_import_from_the_clone_gives_the_committed_records(tmp_path: Path) -> None:
    run_import("lingodnabench", tmp_path, git_dir=MIRROR)
    manifest = json.loads(
        (tmp_path / "artifacts/sources/lingodnabench/manifest.json").read_text("utf-8")
    )
    for key in manifest["records"]:
        name = key if "/" in key else f"{key}.yaml"
        assert (tmp_path / "records" / name).read_text("utf-8") == (
            ROOT / "records" / name
        ).read_text("utf-8"), key
    check = run_import("lingodnabench", ROOT, git_dir=MIRROR, check=True)
    assert not check.added and not check.changed and not check.removed


@needs_mirror
def test_sheet_reader_reads_every_numeric_cell_as_stored() -> None:
    data = _pinned()
    rows = read_sheet(SourceFile(WORKBOOK, COMMIT, data))
    stored = _stored_texts(data)
    cells = [c for r in rows for c in r.scores.values()]
    assert len(cells) == 328
    assert all(stored[c.coordinate] == c.text for c in cells)
