"""`rewire import SOURCE`: public result tables at a pinned commit -> records.

One module per source format (feng, tang_koo, genomic_benchmarks, dnallm_mark), a shared core
(core.py: files, ids, YAML, manifest), table readers (tables.py) and record builders
(records.py, families.py). See README, section "Importing public result tables".
"""

from __future__ import annotations

from pathlib import Path

from . import dgeb, dnallm_mark, evo2, feng, genomic_benchmarks, lindsey, lingodnabench, tang_koo
from .core import Importer, ImportProblem, ImportReport, SourceFiles, render_records, write_records
from .shape import check_shape

IMPORTERS: dict[str, Importer] = {
    i.prefix: i
    for i in (
        feng.IMPORTER,
        tang_koo.IMPORTER,
        genomic_benchmarks.IMPORTER,
        dgeb.IMPORTER,
        lingodnabench.IMPORTER,
        evo2.IMPORTER,
        lindsey.IMPORTER,
        dnallm_mark.IMPORTER,
    )
}


def read_files(
    importer: Importer, *, git_dir: Path | None, folder: Path | None, commit: str | None
) -> SourceFiles:
    """The importer's files from a git directory or a download folder, at `commit`
    (default: the importer's pinned commit)."""
    pinned = commit or importer.commit
    if git_dir is not None:
        return SourceFiles.from_git(git_dir, pinned, importer.paths)
    if folder is not None:
        return SourceFiles.from_folder(folder, pinned, importer.paths, required=importer.required)
    raise ImportProblem("give --git-dir (a clone of the repository) or --from (a download folder)")


def run_import(
    name: str,
    root: Path,
    *,
    git_dir: Path | None = None,
    folder: Path | None = None,
    commit: str | None = None,
    check: bool = False,
) -> ImportReport:
    if name not in IMPORTERS:
        raise ImportProblem(f"unknown source {name!r}: one of {', '.join(sorted(IMPORTERS))}")
    importer = IMPORTERS[name]
    files = read_files(importer, git_dir=git_dir, folder=folder, commit=commit)
    check_shape(root, importer, files)  # before anything is built, written or deleted
    rendered = render_records(importer.build(files))
    return write_records(root, importer, files, rendered, check=check)


__all__ = ["IMPORTERS", "ImportProblem", "ImportReport", "read_files", "run_import"]
