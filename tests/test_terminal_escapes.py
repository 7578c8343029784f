"""Terminal escapes (issue 28): a file name or field name holding ANSI escape codes
never reaches the terminal raw (it could set the window title or clear the screen):
every message that quotes input escapes control characters, in one place
(`problems.printable`, used by `Problem.__str__` and the commands' other lines)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from entry_point import rewire_script

from rewire_site.problems import Problem, printable

FIXTURE = Path(__file__).parent / "fixtures" / "minimal"
HOSTILE = "\x1b]0;pwned\x07\x1b[2J"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")


def test_printable_escapes_controls_and_keeps_text() -> None:
    assert printable(HOSTILE) == "\\x1b]0;pwned\\x07\\x1b[2J"
    assert printable("über café: 1 → 2\u202eevil\x9b") == "über café: 1 → 2\\u202eevil\\x9b"
    assert printable("plain text") == "plain text"


def test_a_problem_escapes_its_path_field_and_message() -> None:
    line = str(Problem(Path(f"records/{HOSTILE}.yaml"), 3, f"a{HOSTILE}", f"bad {HOSTILE}"))
    assert not any(char in line for char in RAW)
    assert line.count("\\x1b") == 6


@pytest.fixture
def hostile_project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(FIXTURE / "records", root / "records")
    shutil.copytree(FIXTURE / "artifacts", root / "artifacts")
    shutil.copytree(FIXTURE.parent.parent.parent / "templates", root / "templates")
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    source = (root / "records" / "fx-source.yaml").read_text(encoding="utf-8")
    (root / "records" / f"{HOSTILE}.yaml").write_text(
        source.replace("id: fx-source", "id: fx-other"), encoding="utf-8"
    )
    escaped_key = '"\\e]0;pwned\\a\\e[2J"'  # YAML's escapes for ESC and BEL
    (root / "records" / "fx-source.yaml").write_text(
        source + f"{escaped_key}: 1\n", encoding="utf-8"
    )
    return root


@pytest.mark.parametrize("command", [["validate", "--no-cache"], ["build"]])
def test_commands_print_no_raw_escape_from_a_file_or_field_name(
    hostile_project: Path, command: list[str]
) -> None:
    done = subprocess.run(
        [rewire_script(), *command],
        cwd=hostile_project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "Traceback" not in output
    assert not any(char in output for char in RAW), repr(output)
    assert "records/\\x1b]0;pwned\\x07\\x1b[2J.yaml:" in output  # the file, escaped
    assert ": \\x1b]0;pwned\\x07\\x1b[2J: unknown field" in output


def test_json_output_escapes_too(hostile_project: Path) -> None:
    done = subprocess.run(
        [rewire_script(), "validate", "--no-cache", "--format", "json"],
        cwd=hostile_project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert not any(char in done.stdout for char in RAW)
    problems = json.loads(done.stdout)["problems"]
    assert any(HOSTILE in p["path"] for p in problems)  # the value itself, JSON-escaped
