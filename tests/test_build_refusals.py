"""Never replace a site with nothing (issue 28): `rewire build` from zero records, from a
`records/` that is a link out of the project, or with `--records /etc` refuses with one
clear line and leaves the previous site as it was; `--allow-empty` builds an empty site
on purpose; `--out` inside records/ is refused before anything is written there."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from entry_point import rewire_script

FIXTURES = Path(__file__).resolve().parent / "fixtures"
DAY = "2026-10-22"


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}  # fmt: skip


def build(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [rewire_script(), "build", "--root", str(root), "--release-date", DAY, "--workers", "1",
         *args],
        cwd=root, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with its site built once (copied by each test)."""
    root = tmp_path_factory.mktemp("built") / "project"
    shutil.copytree(FIXTURES / "minimal", root)
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    done = build(root)
    assert done.returncode == 0, done.stdout + done.stderr
    return root


@pytest.fixture
def project(built: Path, tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(built, root, symlinks=True)
    return root


def _refused(done: subprocess.CompletedProcess[str], fragment: str) -> None:
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("build failed: ") and fragment in lines[0], lines[0]
    assert lines[0].endswith("the site was not changed")


def test_zero_records_refuse_and_keep_the_site(project: Path) -> None:
    before = _tree(project / "site")
    for path in (project / "records").glob("*.yaml"):
        path.unlink()
    _refused(build(project), "no records under")
    assert _tree(project / "site") == before


def test_allow_empty_builds_an_empty_site_on_purpose(project: Path) -> None:
    for path in (project / "records").glob("*.yaml"):
        path.unlink()
    shutil.rmtree(project / "artifacts")
    done = build(project, "--allow-empty")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "from 0 records" in done.stdout


def test_records_that_lead_out_of_the_project_refuse(project: Path, tmp_path: Path) -> None:
    """A `records/` linked to a folder outside (here holding valid records: it would
    build) and `--records /etc` both refuse; the site is unchanged."""
    before = _tree(project / "site")
    outside = tmp_path / "elsewhere"
    (project / "records").rename(outside)
    (project / "records").symlink_to(outside, target_is_directory=True)
    _refused(build(project), "leads outside the project")
    _refused(build(project, "--records", "/etc"), "leads outside the project")
    assert _tree(project / "site") == before


def test_out_inside_records_is_refused_before_writing(project: Path) -> None:
    before = _tree(project / "records")
    _refused(build(project, "--out", str(project / "records" / "site")), "inside the records")
    assert _tree(project / "records") == before
    assert not (project / "records" / "site").exists()
