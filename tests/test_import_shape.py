"""`rewire import` of a download that is not the table its importer reads: refused with
one clear line before anything is written or deleted (issue 28). A table with another
header and no rows exited 0 and deleted the source's committed records; with one row it
gave a traceback. Each importer, through the installed script."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from entry_point import rewire_script

from rewire_site.importers import IMPORTERS, run_import
from rewire_site.importers.core import manifest_path

ROOT = Path(__file__).resolve().parents[1]
LATER = "1" * 40
"""A later commit than the pinned one: the manifest's checksums do not apply to it."""

TANG_TABLE = "lentiMPRA/results/LLM_CNN.csv"
FENG_TABLE = "results_final/final_dnabert2.csv"
GB_README = "experiments/README.md"
GB_TABLE = slice(48, 58)  # lines 49-58: HyenaDNA's table (header, rule, eight rows)

SOURCES = {
    "tang-koo-2024": ROOT / "artifacts" / "sources" / "tang-koo-2024" / "files",
    "genomic-benchmarks": ROOT / "artifacts" / "sources" / "genomic-benchmarks" / "files",
    "feng-2024": ROOT / "tests" / "fixtures" / "import" / "feng-2024" / "files",
}


def _csv(path: str, text: str) -> Callable[[Path], None]:
    def tamper(folder: Path) -> None:
        (folder / path).write_text(text, encoding="utf-8")

    return tamper


def _markdown(table: str) -> Callable[[Path], None]:
    def tamper(folder: Path) -> None:
        file = folder / GB_README
        lines = file.read_text(encoding="utf-8").splitlines()
        assert lines[GB_TABLE.start].startswith("| Dataset")  # the table this test replaces
        lines[GB_TABLE] = table.splitlines()
        file.write_text("\n".join(lines) + "\n", encoding="utf-8")

    return tamper


CASES: dict[str, dict[str, Callable[[Path], None]]] = {
    "tang-koo-2024": {
        "wrong header, no rows": _csv(TANG_TABLE, "name,score\n"),
        "wrong header, one row": _csv(TANG_TABLE, "name,score\nHyenaDNA,0.5\n"),
        "right header, no rows": _csv(TANG_TABLE, "LLM,Model,Performance,Cell Type\n"),
    },
    "feng-2024": {
        "wrong header, no rows": _csv(FENG_TABLE, "name,score\n"),
        "wrong header, one row": _csv(FENG_TABLE, "name,score\nH3,0.5\n"),
        "right header, no rows": _csv(FENG_TABLE, "Data,MCC,AUC,F1-Score,Accuracy\n"),
    },
    "genomic-benchmarks": {
        "wrong header, no rows": _markdown("| Name | Score |\n|:--|--:|\n"),
        "wrong header, one row": _markdown("| Name | Score |\n|:--|--:|\n| x | 1 |\n"),
        "right header, no rows": _markdown("| Dataset | Accuracy |\n|:--|--:|\n"),
    },
}


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for folder in (root / "records", root / "artifacts")
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A project per source that imported the source's real files once."""
    out = {}
    for prefix, folder in SOURCES.items():
        root = tmp_path_factory.mktemp(prefix)
        (root / "pyproject.toml").write_text("[project]\nname = 'x'\n", "utf-8")
        report = run_import(prefix, root, folder=folder)
        assert len(report.added) > 10
        out[prefix] = root
    return out


@pytest.mark.parametrize("commit", [None, LATER], ids=["pinned commit", "later commit"])
@pytest.mark.parametrize(
    ("prefix", "case"), [(prefix, case) for prefix, cases in CASES.items() for case in cases]
)
def test_a_table_of_another_shape_changes_nothing(
    imported: dict[str, Path], tmp_path: Path, prefix: str, case: str, commit: str | None
) -> None:
    root = imported[prefix]
    download = tmp_path / "download"
    shutil.copytree(SOURCES[prefix], download)
    CASES[prefix][case](download)
    before = _snapshot(root)
    command = [rewire_script(), "import", prefix, "--from", str(download), "--root", str(root)]
    done = subprocess.run(
        [*command, *(["--commit", commit] if commit else [])],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rewire import: "), done.stderr
    assert "nothing was changed" in lines[0]
    assert _snapshot(root) == before


def test_every_importer_states_the_shape_of_its_tables() -> None:
    for importer in IMPORTERS.values():
        assert importer.tables, importer.prefix
        assert all(spec.path in importer.paths for spec in importer.tables)
        assert any(spec.required for spec in importer.tables)


def test_the_real_files_pass_the_shape_check(imported: dict[str, Path]) -> None:
    """Importing the same files again is still allowed (and changes nothing)."""
    for prefix, root in imported.items():
        before = _snapshot(root)
        report = run_import(prefix, root, folder=SOURCES[prefix])
        assert not report.added and not report.changed and not report.removed
        assert _snapshot(root) == before
        assert manifest_path(root, prefix).is_file()
