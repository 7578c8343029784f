"""`rewire new` on bad input and unwritable targets: one clear line, a non-zero exit, no
traceback, and no record file left behind (issue 28). Run through the installed script."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from entry_point import rewire_script
from mounts import full_disk, read_only_folder
from pydantic import TypeAdapter, ValidationError

from rewire_site.models.common import ID_MAX_LENGTH, Slug, id_problem


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "records").mkdir(parents=True)
    (project / "pyproject.toml").write_text("", encoding="utf-8")
    return project


def _new(*args: str, cwd: Path, stdin: int | None = subprocess.DEVNULL) -> tuple[int, str, str]:
    done = subprocess.run(
        [rewire_script(), "new", *args],
        cwd=cwd,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def _one_clear_line(stderr: str, *words: str) -> None:
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, stderr
    for word in words:
        assert word in errors[0], stderr


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


@pytest.mark.parametrize("length", [201, 230, 255, 300])
def test_an_id_longer_than_the_rule_is_refused(tmp_path: Path, length: int) -> None:
    """300 characters gave a traceback (file name too long); 201-255 were written, and
    validation then rejected them."""
    project = _project(tmp_path)
    code, _, err = _new("dataset", "--id", "a" * length, "--defaults", cwd=project)
    assert code == 2
    _one_clear_line(err, f"longer than {ID_MAX_LENGTH} characters", f"it has {length}")
    assert _files(project / "records") == []


def test_the_longest_id_the_rule_allows_is_written(tmp_path: Path) -> None:
    project = _project(tmp_path)
    code, _, err = _new("dataset", "--id", "a" * ID_MAX_LENGTH, "--defaults", cwd=project)
    assert code == 0, err
    assert _files(project / "records") == ["a" * ID_MAX_LENGTH + ".yaml"]


@pytest.mark.parametrize(
    "value",
    [
        *("a" * n for n in (ID_MAX_LENGTH - 1, ID_MAX_LENGTH, ID_MAX_LENGTH + 1, 255)),
        *("Bad_Id", "two--hyphens", "-lead", "ok-id-1", "../x", ""),
    ],
)
def test_new_and_validation_share_one_id_rule(value: str) -> None:
    """The id rule `rewire new` applies is the one record validation applies."""
    try:
        TypeAdapter(Slug).validate_python(value)
    except ValidationError:
        accepted = False
    else:
        accepted = True
    assert accepted == (id_problem(value) is None)


def test_closed_standard_input_writes_the_skeleton(tmp_path: Path) -> None:
    """`rewire new dataset <&-` gave AttributeError ('NoneType' has no 'isatty')."""
    project = _project(tmp_path)
    closing = "import os, sys; os.close(0); os.execv(sys.argv[1], sys.argv[1:])"
    for args in (("dataset",), ("dataset", "--id", "asked", "--ask")):
        done = subprocess.run(
            [sys.executable, "-c", closing, rewire_script(), "new", *args],
            cwd=project,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
    assert _files(project / "records") == ["asked.yaml", "new-dataset.yaml"]


def test_out_naming_an_existing_file(tmp_path: Path) -> None:
    project = _project(tmp_path)
    target = project / "notes.txt"
    target.write_text("keep me\n", encoding="utf-8")
    for out in (target, target / "sub"):
        code, _, err = _new("dataset", "--out", str(out), "--defaults", cwd=project)
        assert code == 1
        _one_clear_line(err, str(out))
    assert target.read_text(encoding="utf-8") == "keep me\n"


def test_a_read_only_out_folder(tmp_path: Path) -> None:
    project = _project(tmp_path)
    with read_only_folder(tmp_path / "read-only") as folder:
        for out in (folder, folder / "sub"):
            code, _, err = _new("dataset", "--out", str(out), "--defaults", cwd=project)
            assert code == 1
            _one_clear_line(err, str(out))
        assert _files(folder) == []


def test_records_folder_not_writable(tmp_path: Path) -> None:
    project = _project(tmp_path)
    with read_only_folder(project / "records") as records:
        code, _, err = _new("dataset", "--defaults", cwd=project)
        assert code == 1
        _one_clear_line(err, str(records))
        assert _files(records) == []


def test_a_full_disk_leaves_no_empty_record(tmp_path: Path) -> None:
    """A full disk gave a traceback and left a 0-byte record that validation then read."""
    project = _project(tmp_path)
    with full_disk(tmp_path / "full") as folder:
        before = _files(folder)
        code, _, err = _new("evaluation", "--out", str(folder), "--defaults", cwd=project)
        assert code == 1
        _one_clear_line(err, "no space left")
        assert _files(folder) == before


def test_a_record_that_exists_is_kept(tmp_path: Path) -> None:
    project = _project(tmp_path)
    record = project / "records" / "kept.yaml"
    record.write_text("id: kept\n", encoding="utf-8")
    code, _, err = _new("dataset", "--id", "kept", "--defaults", cwd=project)
    assert code == 1
    _one_clear_line(err, "already exists")
    assert record.read_text(encoding="utf-8") == "id: kept\n"
    assert _files(project / "records") == ["kept.yaml"]


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX only")
def test_no_temporary_file_is_left_after_a_write(tmp_path: Path) -> None:
    project = _project(tmp_path)
    code, _, err = _new("dataset", "--id", "fresh", "--defaults", cwd=project)
    assert code == 0, err
    assert _files(project / "records") == ["fresh.yaml"]
