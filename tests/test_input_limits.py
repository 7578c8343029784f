"""Input limits (issue 12 item 11): a huge record file, a deeply nested document, a very
long line and a very large catalogue each give a clear error naming the file, or a
bounded successful run; never a hang or a traceback. Inputs are generated here."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from entry_point import rewire_script

from rewire_site.load import MAX_DEPTH, MAX_FILE_BYTES, load_file
from rewire_site.problems import MAX_MESSAGE
from rewire_site.validate import render, validate_paths

FIXTURE = Path(__file__).parent / "fixtures" / "minimal"
MB = 1024 * 1024


def _valid_source(record_id: str, title: str = "A source") -> str:
    text = (FIXTURE / "records" / "fx-source.yaml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^title: .*$", lambda _: f"title: {title}", text, count=1)
    return text.replace("id: fx-source", f"id: {record_id}")


def _project(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE / "records", tmp_path / "records")
    shutil.copytree(FIXTURE / "artifacts", tmp_path / "artifacts")
    return tmp_path


def _only_problem(path: Path) -> tuple[int, str, str]:
    loaded = load_file(path)
    assert loaded.data is None
    assert len(loaded.problems) == 1, loaded.problems
    problem = loaded.problems[0]
    return problem.line, problem.field, problem.message


def test_a_50_mb_record_file_is_refused_unparsed(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    line = "  - " + "x" * 96 + "\n"
    path.write_text("id: big\nkind: source\nlimitations:\n" + line * (50 * MB // len(line)))
    started = time.perf_counter()
    line_no, field, message = _only_problem(path)
    assert time.perf_counter() - started < 5
    assert (line_no, field) == (1, "")
    assert f"at most {MAX_FILE_BYTES // MB} MiB" in message and "artifacts/" in message


@pytest.mark.parametrize(
    ("shape", "text", "line"),
    [
        ("flow lists", "x: " + "[" * 10_000 + "]" * 10_000 + "\n", 3),
        ("flow mappings", "x: " + "{a: " * 10_000 + "1" + "}" * 10_000 + "\n", 3),
        ("block lists on one line", "x:\n" + "- " * 10_000 + "1\n", 4),
    ],
)
def test_a_10000_level_document_is_a_nesting_error(
    tmp_path: Path, shape: str, text: str, line: int
) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("id: deep\nkind: source\n" + text)
    found_line, _, message = _only_problem(path)
    assert found_line == line, shape
    assert f"nesting deeper than {MAX_DEPTH} levels" in message


def test_a_10000_level_block_mapping_is_refused_by_size_or_depth(tmp_path: Path) -> None:
    """Indented 10,000 levels deep a mapping is 50 MB of spaces: the size limit answers;
    500 levels (1.2 MB) reach the depth limit on the line where it is passed."""
    for levels, fragment in ((10_000, "MiB"), (500, f"deeper than {MAX_DEPTH} levels")):
        path = tmp_path / f"deep-{levels}.yaml"
        body = "".join(" " * i + f"k{i}:\n" for i in range(levels)) + " " * levels + "v: 1\n"
        path.write_text("id: deep\nkind: source\n" + body)
        line, _, message = _only_problem(path)
        assert fragment in message
        assert line == (1 if levels == 10_000 else MAX_DEPTH + 3)


def test_a_1_mb_single_line_value_is_read(tmp_path: Path) -> None:
    """A 1 MB title is text like any other: the record validates."""
    root = _project(tmp_path)
    title = "a" * MB
    (root / "records" / "fx-source.yaml").write_text(
        _valid_source("fx-source", title), encoding="utf-8"
    )
    report = validate_paths([root / "records"], root, cache=False)
    assert report.errors == []
    assert report.records["fx-source"].title == title


@pytest.mark.parametrize("where", ["key", "id", "kind", "supports"])
def test_a_1_mb_line_never_floods_the_output(tmp_path: Path, where: str) -> None:
    root = _project(tmp_path)
    huge = "b" * MB
    path = root / "records" / "fx-source.yaml"
    text = _valid_source("fx-source")
    if where == "key":
        text += f"{huge}: 1\n"
    elif where == "id":
        text = text.replace("id: fx-source", f"id: {huge}")
    elif where == "kind":
        text = text.replace("kind: source", f"kind: {huge}")
    else:
        text += f"citations:\n  - source: fx-source\n    locator: x\n    supports: [{huge}]\n"
    path.write_text(text, encoding="utf-8")
    report = validate_paths([root / "records"], root, cache=False)
    assert report.errors
    assert all(len(p.message) <= MAX_MESSAGE for p in report.problems)
    assert max(map(len, render(report, "text").splitlines())) < MAX_MESSAGE + 200


def test_every_limit_through_the_command_gives_errors_not_a_traceback(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    records = root / "records"
    (records / "deep.yaml").write_text("id: deep\nkind: source\nx: " + "[" * 10_000 + "\n")
    (records / "long-key.yaml").write_text("id: long-key\nkind: source\n" + "k" * MB + ": 1\n")
    (records / "big.yaml").write_bytes(b"id: big\n" + b"#" * (MAX_FILE_BYTES + 1))
    done = subprocess.run(
        [rewire_script(), "validate", "--no-cache"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert any(
        line.startswith("records/deep.yaml:3: (record): YAML syntax error") for line in lines
    )
    assert any(line.startswith("records/big.yaml:1: (record): the file has") for line in lines)
    assert any("field name longer than 1024 characters" in line for line in lines)
    assert max(map(len, lines)) < MAX_MESSAGE + 200


@pytest.mark.slow
def test_100000_records_validate_in_a_bounded_run(tmp_path: Path) -> None:
    """100,000 record files (tiny datasets that a protocol of the minimal fixture lists)
    beside the fixture: a successful run that checks every file, in time linear in the
    files; a hang would meet the timeout. About a minute on two idle cores."""
    root = _project(tmp_path)
    shutil.copytree(Path(__file__).parent.parent / "schemas", root / "schemas")
    records = root / "records"
    for path in records.glob("*.yaml"):
        text = path.read_text(encoding="utf-8").replace("../../../../schemas/", "../schemas/")
        path.write_text(text, encoding="utf-8")
    count = 100_000
    template = (
        "# yaml-language-server: $schema=../schemas/dataset.schema.json\n"
        "id: d{0}\nkind: dataset\ntitle: D{0}\nsummary: S.\ndescription: D.\n"
        "synthetic: true\nversion: '1'\ngenerator: g\nseed: {0}\naccess: x\nlicence: MIT\n"
    )
    for i in range(count):
        (records / f"d{i}.yaml").write_text(template.format(i), encoding="utf-8")
    protocol = records / "fx-protocol.yaml"
    listed = "datasets: [fx-dataset, " + ", ".join(f"d{i}" for i in range(count)) + "]"
    protocol.write_text(
        protocol.read_text(encoding="utf-8").replace("datasets: [fx-dataset]", listed),
        encoding="utf-8",
    )
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    done = subprocess.run(
        [rewire_script(), "validate"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert done.stdout.splitlines()[-1] == f"{count + 10} files checked: no problems"
