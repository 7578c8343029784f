"""`rewire validate` through the installed console script: the bad-input corpus."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from entry_point import rewire_script

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "bad_records"
FIXTURE = REPO / "tests" / "fixtures" / "minimal"
CASES = sorted(p.name for p in CORPUS.iterdir() if (p / "expected.txt").is_file())
LOCATION = re.compile(r"^(?P<where>\S+:\d+: \S+): (?P<message>.+)$")


def run(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [rewire_script(), "validate", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def errors(output: str) -> dict[str, set[str]]:
    """`path:line: field` -> messages of the errors (not warnings) in the output."""
    found: dict[str, set[str]] = {}
    for line in output.splitlines():
        match = LOCATION.match(line)
        if match and not match["message"].startswith("warning: "):
            found.setdefault(match["where"], set()).add(match["message"])
    return found


def error_locations(output: str) -> set[str]:
    return set(errors(output))


def expected_line(line: str) -> tuple[str, str | None]:
    """(`path:line: field`, message or None) of a line of expected.txt: newer cases give
    the exact message too."""
    match = LOCATION.match(line)
    return (match["where"], match["message"]) if match else (line, None)


def test_corpus_has_at_least_twenty_kinds() -> None:
    assert len(CASES) >= 20


@pytest.mark.parametrize("case", CASES)
def test_bad_input_is_reported_with_file_line_and_field(case: str) -> None:
    folder = CORPUS / case
    result = run("--root", str(FIXTURE.relative_to(REPO)), str(folder.relative_to(REPO)))
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "Traceback" not in output
    expected = set((folder / "expected.txt").read_text(encoding="utf-8").split("\n")) - {""}
    assert expected, f"{case}/expected.txt lists no error"
    found = errors(result.stdout)
    wanted = [expected_line(line) for line in expected]
    assert set(found) == {where for where, _ in wanted}, output
    for where, message in wanted:  # a line that gives its message must match it exactly
        assert message is None or message in found[where], output
    assert re.search(r"^\d+ files? checked: \d+ error\(s\), \d+ warning\(s\)$", output, re.M)


@pytest.mark.parametrize("cache", ["--no-cache", "--strict"])
def test_clean_fixture_exits_zero(cache: str) -> None:
    result = run("--root", str(FIXTURE), cache, str(FIXTURE / "records"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "10 files checked: no problems"


def test_json_format_lists_problems() -> None:
    case = CORPUS / "unit-mismatch"
    result = run("--root", str(FIXTURE), "--format", "json", str(case))
    assert result.returncode == 1
    document = json.loads(result.stdout)
    assert document["ok"] is False
    assert document["errors"] == 1
    problem = next(p for p in document["problems"] if p["severity"] == "error")
    assert problem["field"] == "results.0.unit"
    assert problem["line"] == 23
    assert problem["path"].endswith("bad-unit-mismatch.yaml")


def test_strict_fails_on_warnings_only(tmp_path: Path) -> None:
    records = tmp_path / "records"
    records.mkdir()
    source = (FIXTURE / "records" / "fx-source.yaml").read_text(encoding="utf-8")
    (records / "fx-source.yaml").write_text(source, encoding="utf-8")
    lenient = run("--root", str(tmp_path), str(records))
    strict = run("--root", str(tmp_path), "--strict", str(records))
    assert lenient.returncode == 0, lenient.stdout
    assert "warning: nothing refers to this source" in lenient.stdout
    assert strict.returncode == 1


def test_missing_path_is_an_error_not_a_traceback() -> None:
    result = run("--root", str(FIXTURE), "no/such/folder")
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert "no/such/folder:1: (record): no such file or folder" in result.stdout


def test_default_is_the_records_folder_of_the_root(tmp_path: Path) -> None:
    records = tmp_path / "records"
    shutil.copytree(FIXTURE / "records", records)
    shutil.copytree(FIXTURE / "artifacts", tmp_path / "artifacts")
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    result = run(cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines()[-1].startswith("10 files checked: 0 error(s)")


def test_a_syntax_error_is_reported_once_and_its_dependents_are_counted() -> None:
    """issue 12: a broken configuration was reported by every evaluation naming it."""
    case = CORPUS / "syntax-error-cascade"
    result = run("--root", str(FIXTURE.relative_to(REPO)), str(case.relative_to(REPO)))
    assert result.returncode == 1
    assert len(errors(result.stdout)) == 1
    assert "refers to no record" not in result.stdout
    assert (
        "note: 2 reference(s) to 'bad-cascade-config' not checked: "
        "tests/bad_records/syntax-error-cascade/bad-cascade-config.yaml cannot be read"
    ) in result.stdout
    assert result.stdout.splitlines()[-1] == "3 files checked: 1 error(s), 0 warning(s)"


def test_validate_imports_only_what_it_runs() -> None:
    """`rewire validate` (the CLI and the validator) imports neither the other commands'
    modules (preview server, record skeletons, measure/) nor the derived-facts modules
    of the site builder: each costs start-up time on every run."""
    unused = (
        "rewire_site.new",
        "rewire_site.serve",
        "measure.cli",
        "rewire_site.derive.tables",
        "rewire_site.render.coverage",
        "rewire_site.render.findings",
        "rewire_site.render",
    )
    code = (
        "import sys, rewire_site.cli, rewire_site.validate;"
        f"print(','.join(m for m in {unused!r} if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == ""
