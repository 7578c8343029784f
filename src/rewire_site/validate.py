"""Validate record files: every problem in one run, each with file, line and field.

Stages, in order, all of them run whatever the earlier ones found:
1. files: the paths given (files, or folders searched for `*.yaml`);
2. per file (`record_checks`): YAML (see `load`), record kind, the Pydantic model,
   finite numbers, file name == id, the missing-metadata rule (`completeness`);
3. across files (`link_checks`): unique ids; references resolve to a record of the
   right kind (against the whole `records/` folder under root when only some files are
   given; a reference to a record whose own file has errors is not reported twice);
   result columns and units agree with the protocol; `reproduces` names an evaluation
   of the same protocol; artifacts exist under root and their SHA-256 matches;
4. warnings: a source, dataset, model family or configuration that nothing refers to
   (protocols, questions and evaluations are entry points: the index lists protocols
   and questions, and an evaluation is reached through the protocol and configuration
   it names); an evaluation whose dataset its protocol does not list; a first line
   without the `yaml-language-server` modeline that links the kind's schema.

Parsing is cached by content hash and spread over two processes for large catalogues,
the per-file checks running here while the other process parses (`parse_cache`); none
of this changes a result.
"""

from __future__ import annotations

import gc
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from . import record_files, table_rows
from .config import RECORDS_DIR
from .link import Catalogue, Ref, reference_fields
from .link_checks import ENTRY_KINDS, check_links, check_records
from .load import line_of
from .models import RecordBase, ResultTable
from .parse_cache import ParseCache, absolute, iter_files
from .problems import Problem, display_path, printable
from .record_checks import FileResult, ValidationReport, check_file, check_loaded

# ---------------------------------------------------------------- files


def find_files(paths: Iterable[Path], root: Path | None = None) -> tuple[list[Path], list[Problem]]:
    """Record files named by `paths`: files as given, folders searched for `*.yaml`;
    what cannot be read is a problem (`record_files`: links out of the project `root`,
    pipes, devices, unreadable folders, `.yml` files)."""
    found = record_files.find(paths, root)
    return [Path(name) for name in found.names], found.problems


def collect(results: Iterable[FileResult], report: ValidationReport) -> None:
    """Add per-file results to the report; a second file with a known id is an error."""
    first_file: dict[str, Path] = {}
    for result in results:
        report.files_checked += 1
        report.problems.extend(result.problems)
        raw_id = result.raw_id
        if raw_id is not None:
            if raw_id in first_file:
                report.problems.append(
                    Problem(
                        result.path,
                        line_of(result.lines, "id"),
                        "id",
                        f"duplicate id '{raw_id}': also the id in {first_file[raw_id]}",
                    )
                )
                continue
            first_file[raw_id] = result.path
        if result.record is None:
            if raw_id is not None and result.raw_kind is not None:
                report.invalid.setdefault(raw_id, result.raw_kind)
            if raw_id is not None and result.partial is not None:
                report.partial.setdefault(raw_id, result)
            elif raw_id is None:
                report.unreadable.setdefault(result.path.stem, result.path)
        else:
            record_id = result.record.id
            report.records[record_id] = result.record
            report.files[record_id] = result.path
            report.lines[record_id] = result.lines


def _selected(paths: Sequence[Path], files: Sequence[Path], root: Path) -> set[str] | None:
    """Absolute paths of `files`, or None when `paths` name root/records or a folder
    above it (every record file is then among them: no context to read)."""
    records = absolute(root / RECORDS_DIR)
    for path in paths:
        folder = absolute(path)
        if (records + os.sep).startswith(folder.rstrip(os.sep) + os.sep) and path.is_dir():
            return None
    return {absolute(path) for path in files}


def validate_paths(
    paths: Sequence[Path], root: Path, *, cache: bool = True, jobs: int | None = None
) -> ValidationReport:
    """Validate the record files under `paths`; references resolve against `root`.

    `cache`: reuse parse results stored under `root/.rewire-cache` (see `parse_cache`);
    `jobs`: processes that parse (default: up to 2, used only for many files)."""
    report = ValidationReport()
    found = record_files.find(paths, root)
    files, refused = [Path(name) for name in found.names], found.problems
    report.problems.extend(refused)
    if any(problem.message != record_files.MISSING for problem in refused):
        report.referrers_unknown = True  # a file not read may refer to any record
    store = ParseCache(root) if cache else None
    collecting = gc.isenabled()
    # The values and records hold no cycles: collection would only walk them. Pays
    # (benchmarks/bench_validate.py --baseline with these gc lines removed, 10,000
    # evaluations, 2026-12-02): cold validation 3.36 vs 6.12 CPU s in two processes,
    # 2.25 vs 4.89 in one.
    gc.disable()
    try:
        checked: dict[Path, FileResult] = {}
        refs: dict[Path, list[Ref]] = {}
        for item in iter_files(files, root, cache=cache, jobs=jobs, store=store):
            result = checked[item.path] = check_loaded(item)
            if result.record is not None:
                refs[item.path] = reference_fields(result.record)
        collect((checked[path] for path in files), report)
        report.outgoing = {record_id: refs[path] for record_id, path in report.files.items()}
        del checked, refs
        universe = check_links(report, root, _selected(paths, files, root), store)
        check_tables(report, universe, found.tables, root)
        if store is not None:
            store.save()
    finally:
        if collecting:
            # The millions of objects made above all sit in the youngest generation: the
            # first collection after `gc.enable` would walk them all (0.4 s at 10,000
            # evaluations) to free none. Freezing and unfreezing moves them to the oldest
            # generation without a walk; they are collected as before, only later.
            gc.freeze()
            gc.unfreeze()
            gc.enable()
    report.problems.sort(key=lambda p: (str(p.path), p.line, p.field, p.message))
    return report


def check_tables(
    report: ValidationReport,
    universe: Mapping[str, RecordBase],
    found: Sequence[str],
    root: Path,
) -> None:
    """Read the rows of every result table in `report` (`table_rows`) into
    `report.result_rows`; a rows file under the paths validated (`found`) that no table
    names is an error; a label given twice in one scope is an error."""
    index = table_rows.LabelIndex.from_records(universe.values())
    for record_id, field_path, message in index.conflicts:
        if record_id in report.files:
            report.problems.append(
                Problem(
                    report.files[record_id], report.line(record_id, field_path), field_path, message
                )
            )
    named: list[Path] = []
    for record_id, record in sorted(report.records.items()):
        if not isinstance(record, ResultTable):
            continue
        path = table_rows.rows_path(record, report.files[record_id])
        named.append(path)
        refused = record_files.rows_problem(path, root)
        if refused is not None:
            message = refused.message
            if message == record_files.MISSING:
                message = f"no such file: {path.name} (the rows of this table, beside it)"
                report.problems.append(
                    Problem(
                        report.files[record_id], report.line(record_id, "rows"), "rows", message
                    )
                )
            else:
                report.problems.append(refused)
            continue
        read = table_rows.read_rows(
            record, path, paths=table_rows.source_paths(record, universe), index=index
        )
        report.problems.extend(read.problems)
        if not any(p.severity == "error" for p in read.problems):
            report.result_rows.by_table[record_id] = read.rows
            report.result_rows.unmapped[record_id] = read.unmapped
    for result in report.partial.values():
        rows = getattr(result.partial, "rows", None)
        if isinstance(rows, str):
            named.append(result.path.parent / rows)
    if "result_table" not in report.invalid.values() and not report.unreadable:
        report.problems.extend(table_rows.stray_tables(found, named))


__all__ = [
    "ENTRY_KINDS",
    "FileResult",
    "ValidationReport",
    "check_file",
    "check_loaded",
    "display_path",
    "exit_code",
    "find_files",
    "render",
    "validate_paths",
]


# ---------------------------------------------------------------- output


def render(report: ValidationReport, output_format: str, cwd: Path | None = None) -> str:
    """The report as text (one problem a line, then a summary) or as JSON."""
    shown = [
        Problem(Path(display_path(p.path, cwd)), p.line, p.field, p.message, p.severity)
        for p in report.problems
    ]
    if output_format == "json":
        document = {
            "ok": report.ok,
            "files_checked": report.files_checked,
            "errors": len(report.errors),
            "warnings": len(report.warnings),
            "problems": [p.as_json() for p in shown],
            "notes": report.notes(cwd),
        }
        return json.dumps(document, indent=2, sort_keys=True)
    notes = [printable(note) for note in report.notes(cwd)]
    return "\n".join([*(str(p) for p in shown), *notes, report.summary()])


def exit_code(report: ValidationReport, strict: bool) -> int:
    return 1 if report.errors or (strict and report.warnings) else 0


def check_changed(
    root: Path,
    new: Catalogue,
    old: Catalogue,
    changed: frozenset[str],
    owner: Mapping[str, str],
    lines: Mapping[str, Mapping[str, int]],
) -> list[Problem]:
    """The reference checks (`link_checks`) of the `changed` ids of `new` (made from `old`)
    and of the records that refer to a changed or vanished id: `rewire serve`'s edits.
    `owner`: record id -> its file; `lines`: record id -> field -> line."""
    checked: set[str] = {i for i in changed if i in new.by_id}
    for record_id in changed:
        for catalogue in (old, new):
            checked.update(r.source_id for r in catalogue.referrers.get(record_id, []))
    checked &= new.by_id.keys()
    report = ValidationReport()
    for record_id in checked:
        report.files[record_id] = Path(owner[record_id])
        report.lines[record_id] = lines.get(record_id, {})
    chosen = [new.by_id[i] for i in sorted(checked)]
    check_records(report, root, chosen, new.by_id)
    return report.errors
