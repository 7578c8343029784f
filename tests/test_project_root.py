"""Every command finds the project root the same way (the nearest folder upwards with
records/ and pyproject.toml) and, outside a project, says so plainly and writes nothing."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from entry_point import rewire_script

from rewire_site.config import NotInProject, find_root, project_root, resolve_root


def _rewire(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [rewire_script(), *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_root_is_found_from_any_folder_below_it(tmp_path: Path) -> None:
    (tmp_path / "records").mkdir()
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    deep = tmp_path / "src" / "pkg"
    deep.mkdir(parents=True)
    assert find_root(deep) == project_root(deep) == tmp_path.resolve()
    assert resolve_root(None, deep) == tmp_path.resolve()
    assert resolve_root(deep) == deep.resolve()  # --root is taken as given


def test_no_root_is_an_error_not_the_current_folder(tmp_path: Path) -> None:
    (tmp_path / "records").mkdir()  # records/ without pyproject.toml: not a project
    assert project_root(tmp_path) is None
    with pytest.raises(NotInProject, match="not in a Rewire project"):
        find_root(tmp_path)
    with pytest.raises(NotInProject, match="no such folder"):
        resolve_root(tmp_path / "nowhere")


@pytest.mark.parametrize(
    "args",
    [
        ("validate",),
        ("validate", "--strict"),
        ("build",),
        ("schema", "--check"),
        ("schema",),
        ("new", "source", "--defaults"),
        ("serve", "--port", "0"),
    ],
    ids=" ".join,
)
def test_outside_a_project_every_command_says_so_and_writes_nothing(
    args: tuple[str, ...], tmp_path: Path
) -> None:
    done = _rewire(*args, cwd=tmp_path)
    output = done.stdout + done.stderr
    assert done.returncode == 2, output
    assert "not in a Rewire project" in done.stderr
    assert "Traceback" not in output
    assert "run `rewire schema`" not in output  # would write a stray schemas/
    assert "no such file or folder" not in output
    assert list(tmp_path.iterdir()) == []


def test_validate_finds_the_project_of_the_files_it_is_given(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "records").mkdir(parents=True)
    (project / "pyproject.toml").write_text("", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    record = project / "records" / "x.yaml"
    record.write_text("id: x\nkind: nothing\n", encoding="utf-8")
    done = _rewire("validate", str(record), cwd=elsewhere)
    assert done.returncode == 1
    assert "unknown record kind 'nothing'" in done.stdout
    assert list(elsewhere.iterdir()) == []  # the parse cache went to the project
    assert (project / ".rewire-cache").is_dir()
