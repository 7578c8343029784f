"""The shape check of `rewire import`: before anything is built, written or deleted, each
result table must have the header and rows its importer's spec (`Importer.tables`) says,
and a file read at the commit the manifest records must be the file recorded there.

A download with another header, or with no rows, used to build no evaluations, and the
import then removed every committed record of the source as "no longer in the source
file"; with one row it stopped with a traceback. Now it is one clear line, nothing changed.
"""

from __future__ import annotations

from pathlib import Path

from .core import Importer, ImportProblem, SourceFiles, TableSpec, manifest_path, read_manifest
from .tables import Table, read_csv, read_markdown_table


def _table(files: SourceFiles, spec: TableSpec) -> Table:
    file = files[spec.path]
    if spec.heading is None:
        return read_csv(file)
    return read_markdown_table(file, spec.heading)


def _where(spec: TableSpec) -> str:
    return spec.path if spec.heading is None else f"{spec.path}, table under {spec.heading!r}"


def check_table(files: SourceFiles, spec: TableSpec) -> None:
    """Raise ImportProblem unless the table of `spec` has its columns and rows."""
    if spec.check is not None:
        try:
            spec.check(files[spec.path])
        except ImportProblem as problem:
            text = str(problem)
            raise ImportProblem(
                text if "nothing was changed" in text else f"{text}; nothing was changed"
            ) from None
        return
    try:
        table = _table(files, spec)
    except ImportProblem as problem:
        raise ImportProblem(f"{problem}; nothing was changed") from None
    where = _where(spec)
    header = list(table.header)
    if spec.exact and table.header != spec.columns:
        raise ImportProblem(
            f"{where}: the header is {header}, the importer reads {list(spec.columns)}: "
            "not the table it imports (a different file or commit?); nothing was changed"
        )
    absent = [c for c in spec.columns if c not in table.header]
    if absent:
        raise ImportProblem(
            f"{where}: no column {absent[0]!r} (the header is {header}, the importer reads "
            f"{list(spec.columns)}); nothing was changed"
        )
    if len(table.rows) < spec.min_rows:
        raise ImportProblem(
            f"{where}: {len(table.rows)} data row(s), the importer needs at least "
            f"{spec.min_rows}; nothing was changed"
        )


def check_recorded_files(root: Path, importer: Importer, files: SourceFiles) -> None:
    """At the commit the manifest records, every file read must have the SHA-256 recorded
    for it: another file is a broken or wrong download, not the source at that commit."""
    mpath = manifest_path(root, importer.prefix)
    manifest = read_manifest(mpath)
    if manifest.get("commit") != files.commit:
        return
    recorded = manifest.get("files", {})
    for path, file in sorted(files.files.items()):
        entry = recorded.get(path)
        if isinstance(entry, dict) and entry.get("sha256") not in (None, file.sha256):
            raise ImportProblem(
                f"{path}: not the file recorded at {files.commit} (its SHA-256 differs from "
                f"the one in {mpath.relative_to(root)}): download it again at that commit, "
                "or give --commit for another commit; nothing was changed"
            )


def check_shape(root: Path, importer: Importer, files: SourceFiles) -> None:
    """Every check above, in order: the recorded files, then each table's shape."""
    check_recorded_files(root, importer, files)
    for spec in importer.tables:
        if spec.path not in files:
            if spec.required:
                raise ImportProblem(f"{spec.path}: missing at {files.commit}")
            continue
        check_table(files, spec)


__all__ = ["check_recorded_files", "check_shape", "check_table"]
