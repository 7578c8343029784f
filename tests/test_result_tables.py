"""Result tables (issue 24): a table's YAML spec and its CSV rows, read and checked.

The scenario `tests/fixtures/result_tables` holds one table of six rows (two seeds of
one model on one task; a model known only at family level, one pinned checkpoint, one
model and one task no record names). Each test copies it and breaks one thing."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from entry_point import rewire_script

from rewire_site.models import ResultTable
from rewire_site.table_rows import MAX_TABLE_BYTES
from rewire_site.validate import ValidationReport, validate_paths

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "result_tables"
TABLE = "records/tables/rt-table"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    target = tmp_path / "project"
    shutil.copytree(FIXTURE, target)
    return target


def validate(root: Path) -> ValidationReport:
    return validate_paths([root / "records"], root, cache=False)


def errors(report: ValidationReport) -> list[str]:
    """`name:line: field: message` of each error, the path cut to its file name."""
    return [f"{p.path.name}:{p.line}: {p.field}: {p.message}" for p in report.errors]


def csv_lines(root: Path) -> list[str]:
    return (root / f"{TABLE}.csv").read_text(encoding="utf-8").splitlines()


def write_csv(root: Path, lines: list[str]) -> None:
    (root / f"{TABLE}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def edit_yaml(root: Path, old: str, new: str) -> None:
    path = root / f"{TABLE}.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


# ---------------------------------------------------------------- the good table


def test_the_scenario_validates_and_its_rows_join_the_catalogue() -> None:
    report = validate(FIXTURE)
    assert report.ok, errors(report)
    rows = report.result_rows
    assert len(rows) == 6
    assert rows.value_count() == 11  # one accuracy cell is empty
    assert isinstance(report.records["rt-table"], ResultTable)
    first = rows.of_table("rt-table")[0]
    assert (first.line, first.model, first.task, first.settings) == (2, "FixBERT", "H3", ("1",))
    assert first.values[0] is not None and first.values[0].value == 0.5512
    assert first.values[0].printed == "0.5512"
    assert first.locator == 'results/scores.json: FixBERT["H3"][1]'


def test_labels_resolve_through_datasets_checkpoints_and_families() -> None:
    rows = validate(FIXTURE).result_rows
    by_line = {row.line: row for row in rows}
    assert by_line[2].dataset == "rt-task-h3"
    assert by_line[4].dataset == "rt-task-promoter"  # 'prom_300' is that dataset's label
    assert (by_line[2].family, by_line[2].checkpoint) == ("rt-family", None)  # family level
    assert (by_line[5].family, by_line[5].checkpoint) == (
        "rt-family",
        "example/fixture-bert-small",
    )
    assert by_line[6].model_identity is None and by_line[7].dataset is None
    assert rows.unmapped["rt-table"].models == ("Mystery-LM",)
    assert rows.unmapped["rt-table"].tasks == ("enhancers",)
    assert [r.line for r in rows.of_dataset("rt-task-h3")] == [2, 3, 5, 6]
    assert [r.line for r in rows.of_family("rt-family")] == [2, 3, 4, 5]
    assert [r.line for r in rows.of_checkpoint("rt-family", "example/fixture-bert-small")] == [5]


def test_a_label_of_another_scope_does_not_resolve(root: Path) -> None:
    edit_yaml(root, "labels: rt-bench", "labels: other-bench")
    report = validate(root)
    assert report.ok, errors(report)
    assert all(r.dataset is None and r.model_identity is None for r in report.result_rows)


def test_a_label_given_twice_in_one_scope_is_an_error(root: Path) -> None:
    path = root / "records" / "rt-task-promoter.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("label: prom_300", "label: H3"), encoding="utf-8"
    )
    found = errors(validate(root))
    assert any(
        e.startswith("rt-task-promoter.yaml:")
        and "labels.0" in e
        and "also given by rt-task-h3" in e
        for e in found
    ), found


# ---------------------------------------------------------------- bad rows


@pytest.mark.parametrize(
    ("line", "cells", "expected"),
    [
        (
            3,
            'FixBERT,H3,2,0.5x,0.7833,"results/scores.json: x"',
            "rt-table.csv:3: column mcc: '0.5x' is not a number",
        ),
        (
            3,
            'FixBERT,H3,2,nan,0.7833,"results/scores.json: x"',
            "rt-table.csv:3: column mcc: 'nan' is not a number",
        ),
        (
            4,
            'FixBERT,prom_300,1,1.7,,"results/scores.json: x"',
            "rt-table.csv:4: column mcc: 1.7 is outside the bounds of MCC (from -1 to 1)",
        ),
        (
            4,
            'FixBERT,prom_300,1,0.8,-0.1,"results/scores.json: x"',
            "rt-table.csv:4: column accuracy: -0.1 is outside the bounds of Accuracy (from 0 to 1)",
        ),
        (
            5,
            ',H3,1,0.4,0.7,"results/scores.json: x"',
            "rt-table.csv:5: column model: the model label is empty",
        ),
        (
            5,
            'FixBERT-small,H3,1,0.4,0.7,"elsewhere.json: x"',
            "rt-table.csv:5: column locator: 'elsewhere.json: x' does not start with the path "
            "of a source of the table ('results/scores.json')",
        ),
        (
            5,
            "FixBERT-small,H3,1,0.4,0.7",
            "rt-table.csv:5: : the row has 5 cell(s); the header has 6",
        ),
        (
            5,
            'FixBERT-small,H3,1,,,"results/scores.json: x"',
            "rt-table.csv:5: : the row holds no value (every metric cell is empty)",
        ),
        (
            3,
            'FixBERT,H3,1,0.5601,0.7833,"results/scores.json: x"',
            "rt-table.csv:3: : the same model, task and settings as line 2: a result is given once",
        ),
    ],
)
def test_a_bad_cell_is_an_error_naming_file_line_and_column(
    root: Path, line: int, cells: str, expected: str
) -> None:
    lines = csv_lines(root)
    lines[line - 1] = cells
    write_csv(root, lines)
    report = validate(root)
    found = errors(report)
    assert expected in found, found
    assert "rt-table" not in report.result_rows.by_table  # a table with errors adds no rows


def test_a_bad_header_names_each_column(root: Path) -> None:
    lines = csv_lines(root)
    lines[0] = "model,task,seed,MCC,accuracy,locator,extra"
    write_csv(root, lines)
    found = errors(validate(root))
    assert "rt-table.csv:1: column MCC: the table's `columns` do not name this column" in found
    assert "rt-table.csv:1: column extra: the table's `columns` do not name this column" in found
    assert (
        "rt-table.csv:1: column mcc: the header lacks this column, which the table's `columns` name"
        in found
    )


def test_an_empty_rows_file_is_an_error(root: Path) -> None:
    (root / f"{TABLE}.csv").write_bytes(b"")
    found = errors(validate(root))
    assert any(e.startswith("rt-table.csv:1: : the file is empty") for e in found), found


def test_carriage_returns_and_control_characters_are_errors(root: Path) -> None:
    path = root / f"{TABLE}.csv"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert any("carriage return" in e for e in errors(validate(root)))
    lines = csv_lines(root)
    lines[3] = lines[3].replace("FixBERT", "Fix\x1b]0;pwned\x07BERT")
    write_csv(root, lines)
    found = errors(validate(root))
    assert any(e.startswith("rt-table.csv:4:") and "control character" in e for e in found), found


def test_bytes_that_are_not_utf8_are_an_error_with_their_line(root: Path) -> None:
    path = root / f"{TABLE}.csv"
    path.write_bytes(path.read_bytes().replace(b"Mystery", b"Myst\xffry", 1))
    found = errors(validate(root))
    assert any(e.startswith("rt-table.csv:6:") and "not UTF-8" in e for e in found), found


def test_a_cell_longer_than_the_limit_is_an_error(root: Path) -> None:
    lines = csv_lines(root)
    lines[2] = f'FixBERT,H3,2,0.5601,0.7833,"results/scores.json: {"x" * 10_000}"'
    write_csv(root, lines)
    found = errors(validate(root))
    assert any(e.startswith("rt-table.csv:3:") and "cannot be read" in e for e in found), found


# ---------------------------------------------------------------- files


def test_a_missing_rows_file_is_an_error_at_the_tables_rows_field(root: Path) -> None:
    (root / f"{TABLE}.csv").unlink()
    found = errors(validate(root))
    assert any(
        e.startswith("rt-table.yaml:") and ": rows: no such file: rt-table.csv" in e for e in found
    ), found


def test_a_csv_file_no_table_names_is_an_error(root: Path) -> None:
    (root / "records" / "stray.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    found = errors(validate(root))
    assert any(e.startswith("stray.csv:1: : a CSV file that no result table names") for e in found)


def test_a_rows_file_over_the_size_limit_is_refused_before_reading(root: Path) -> None:
    path = root / f"{TABLE}.csv"
    with path.open("r+b") as handle:  # sparse: the size is seen by fstat, nothing is read
        handle.truncate(MAX_TABLE_BYTES + 1)
    found = errors(validate(root))
    assert any(e.startswith("rt-table.csv:1:") and "MiB" in e for e in found), found


def test_a_rows_file_linked_out_of_the_project_is_refused_quoting_nothing(
    root: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.csv"
    secret.write_text("TOKEN=abcdef-secret\n", encoding="utf-8")
    path = root / f"{TABLE}.csv"
    path.unlink()
    path.symlink_to(secret)
    report = validate(root)
    text = "\n".join(str(p) for p in report.problems)
    assert "outside the project" in text
    assert "abcdef" not in text and "secret" not in text.replace(str(root), "")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_rows_file_that_is_a_named_pipe_is_refused_without_hanging(root: Path) -> None:
    path = root / f"{TABLE}.csv"
    path.unlink()
    os.mkfifo(path)
    found = errors(validate(root))
    assert any("named pipe" in e for e in found), found


# ---------------------------------------------------------------- the table's YAML


def test_a_metric_that_is_no_column_of_the_protocol_is_an_error(root: Path) -> None:
    edit_yaml(root, "metric: accuracy,", "metric: f1,")
    found = errors(validate(root))
    assert any(
        "columns.metrics.1.metric: 'f1' is not a result column of protocol 'rt-protocol'" in e
        for e in found
    ), found


def test_a_rows_name_with_a_folder_is_an_error(root: Path) -> None:
    edit_yaml(root, "rows: rt-table.csv", "rows: ../rt-table.csv")
    found = errors(validate(root))
    assert any(e.startswith("rt-table.yaml:") and ": rows:" in e for e in found), found


def test_a_header_named_twice_in_the_spec_is_an_error(root: Path) -> None:
    edit_yaml(root, "locator: locator", "locator: seed")
    found = errors(validate(root))
    assert any("a CSV header may be named once: 'seed'" in e for e in found), found


def test_a_shared_comparison_field_needs_its_missing_reason(root: Path) -> None:
    path = root / f"{TABLE}.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index("missing_metadata:")], encoding="utf-8")
    found = errors(validate(root))
    assert any("comparison.budget" in e for e in found), found


# ---------------------------------------------------------------- the command line


def test_rewire_validate_reports_a_bad_cell_in_one_line_and_exits_1(root: Path) -> None:
    lines = csv_lines(root)
    lines[2] = 'FixBERT,H3,2,0.5x,0.7833,"results/scores.json: x"'
    write_csv(root, lines)
    done = subprocess.run(
        [rewire_script(), "validate", "--root", str(root), str(root / "records")],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr + done.stdout
    assert "records/tables/rt-table.csv:3: column mcc: '0.5x' is not a number" in done.stdout


# ---------------------------------------------------------------- derived facts


def test_rows_that_differ_only_in_the_seed_aggregate_to_mean_sd_and_n() -> None:
    from rewire_site.derive.table_facts import seed_aggregates

    report = validate(FIXTURE)
    table = report.records["rt-table"]
    assert isinstance(table, ResultTable)
    found = {
        (a.model, a.task, a.metric): a
        for a in seed_aggregates(table, report.result_rows.of_table("rt-table"))
    }
    mcc = found[("FixBERT", "H3", 0)]
    assert (mcc.n, mcc.lines, mcc.settings) == (2, (2, 3), ())
    assert mcc.mean == pytest.approx((0.5512 + 0.5601) / 2)
    assert mcc.sd == pytest.approx(abs(0.5601 - 0.5512) / 2**0.5)
    alone = found[("FixBERT", "prom_300", 0)]
    assert (alone.n, alone.sd) == (1, None)
    assert ("FixBERT", "prom_300", 1) not in found  # its accuracy cell is empty


def test_the_table_facts_count_rows_values_and_labels() -> None:
    from rewire_site.build import gather
    from rewire_site.derive.table_facts import ROWS_PER_PAGE, row_pages, table_facts

    catalogue = gather(FIXTURE / "records", FIXTURE).catalogue
    facts = table_facts(catalogue.get("rt-table", ResultTable), catalogue)
    assert (facts.rows, facts.values, facts.values_by_metric) == (6, 11, (6, 5))
    assert [(m.label, m.checkpoint) for m in facts.models] == [
        ("FixBERT", None),
        ("FixBERT-small", "example/fixture-bert-small"),
    ]
    assert [m.label for m in facts.unpinned_models] == ["FixBERT"]
    assert (facts.unmapped_models, facts.unmapped_tasks) == (("Mystery-LM",), ("enhancers",))
    pages = row_pages(2 * ROWS_PER_PAGE + 1)
    assert [(p.number, p.start, p.stop) for p in pages] == [
        (1, 0, ROWS_PER_PAGE),
        (2, ROWS_PER_PAGE, 2 * ROWS_PER_PAGE),
        (3, 2 * ROWS_PER_PAGE, 2 * ROWS_PER_PAGE + 1),
    ]


def test_an_edit_of_a_rows_file_makes_another_release(root: Path) -> None:
    from rewire_site.build import gather
    from rewire_site.release import make_release

    def release_id() -> str:
        catalogue = gather(root / "records", root).catalogue
        rows = catalogue.result_rows.sha256()
        return make_release(catalogue.by_id.values(), "2026-12-01", rows_sha256=rows).id

    before = release_id()
    lines = csv_lines(root)
    lines[1] = lines[1].replace("0.5512", "0.5513")
    write_csv(root, lines)
    assert release_id() != before


def test_a_build_notices_a_rows_file_changed_while_it_read(root: Path) -> None:
    from rewire_site.build import RecordsChanged, check_unchanged, record_state

    folder = root / "records"
    before = record_state(folder, root)
    assert root / f"{TABLE}.csv" in before
    lines = csv_lines(root)
    write_csv(root, [*lines, 'FixBERT,H3,3,0.5,0.7,"results/scores.json: x"'])
    with pytest.raises(RecordsChanged):
        check_unchanged(folder, before, root)


def test_the_table_page_and_its_rows_pages_and_csv_download(tmp_path: Path) -> None:
    from rewire_site.build import build_site

    out = tmp_path / "site"
    build_site(FIXTURE, out, release_date="2026-12-01", workers=1)
    page = (out / "tables" / "rt-table" / "index.html").read_text(encoding="utf-8")
    assert "checkpoint not pinned" in page and "Mystery-LM" in page and "enhancers" in page
    assert "0123456789abcdef0123456789abcdef01234567" in page  # the source's commit
    assert "rows/1/index.html" in page and "downloads/tables/rt-table.csv" in page
    rows = (out / "tables" / "rt-table" / "rows" / "1" / "index.html").read_text(encoding="utf-8")
    assert rows.count("<tr") == 7  # the heading and six rows
    assert '<tr id="line-2">' in rows  # each row's CSV line: where leaderboards link
    assert "results/scores.json: FixBERT[&#34;H3&#34;][1]" in rows
    source = (out / "sources" / "rt-source" / "index.html").read_text(encoding="utf-8")
    assert "tables/rt-table/index.html" in source  # linked from its source's page
    download = (out / "downloads" / "tables" / "rt-table.csv").read_text(encoding="utf-8")
    assert download.splitlines()[5].startswith("rt-table,6,Mystery-LM,H3,,,rt-task-h3,1,-0.02,")


def test_a_formula_in_a_label_is_neutralised_in_the_download(root: Path, tmp_path: Path) -> None:
    from rewire_site.build import build_site

    lines = csv_lines(root)
    lines[5] = lines[5].replace("Mystery-LM", "=HYPERLINK(1)", 1)
    lines[6] = lines[6].replace("Mystery-LM", "@SUM(1)", 1)
    write_csv(root, lines)
    out = tmp_path / "site"
    build_site(root, out, release_date="2026-12-01", workers=1)
    download = (out / "downloads" / "tables" / "rt-table.csv").read_text(encoding="utf-8")
    cells = [cell for line in download.splitlines() for cell in line.split(",")]
    assert "'=HYPERLINK(1)" in cells and "'@SUM(1)" in cells
    assert not any(cell.startswith(("=", "+", "@")) for cell in cells)


def test_a_metric_direction_against_the_protocols_is_an_error(root: Path) -> None:
    edit_yaml(
        root,
        "label: Accuracy, scale: fraction, direction: higher",
        "label: Accuracy, scale: fraction, direction: lower",
    )
    found = errors(validate(root))
    assert any(
        "columns.metrics.1.direction: 'lower' is better here, but protocol 'rt-protocol' says "
        "'higher'" in e
        for e in found
    ), found


def test_rewire_serve_remakes_the_rows_after_a_rows_file_or_a_label_changes(
    root: Path,
) -> None:
    from rewire_site.incremental import IncrementalSite

    shutil.copytree(Path(__file__).resolve().parents[1] / "templates", root / "templates")
    site = IncrementalSite(root, root / "records", root / "site", release_date="2026-12-01")
    site.build()
    rows_page = root / "site" / "tables" / "rt-table" / "rows" / "1" / "index.html"
    assert "0.5512" in rows_page.read_text(encoding="utf-8")
    lines = csv_lines(root)
    lines[1] = lines[1].replace("0.5512", "0.5513")
    write_csv(root, lines)
    site.update([root / f"{TABLE}.csv"])
    assert "0.5513" in rows_page.read_text(encoding="utf-8")
    table_page = root / "site" / "tables" / "rt-table" / "index.html"
    assert "enhancers" in table_page.read_text(encoding="utf-8")
    dataset = root / "records" / "rt-task-promoter.yaml"
    text = dataset.read_text(encoding="utf-8")
    dataset.write_text(
        text.replace(
            "  - {scope: rt-bench, label: prom_300}",
            "  - {scope: rt-bench, label: prom_300}\n  - {scope: rt-bench, label: enhancers}",
        ),
        encoding="utf-8",
    )
    site.update([dataset])
    assert "Tasks not yet identified" not in table_page.read_text(encoding="utf-8")
