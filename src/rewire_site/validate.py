"""Validate record files: every problem in one run, each with file, line and field.

Stages, in order, all of them run whatever the earlier ones found:
1. files: the paths given (files, or folders searched for `*.yaml`);
2. per file (`check_file`): YAML (see `load`), record kind, the Pydantic model, finite
   numbers, file name == id, the missing-metadata rule (`completeness`);
3. across files: unique ids; references resolve to a record of the right kind (against
   the whole `records/` folder under root when only some files are given); result
   columns and units agree with the protocol; `reproduces` names an evaluation of the
   same protocol; artifacts exist under root and their SHA-256 matches their bytes;
4. warnings: a source, dataset, model family or configuration that nothing refers to
   (protocols, questions and evaluations are entry points: the index lists protocols
   and questions, and an evaluation is reached through the protocol and configuration
   it names), and an evaluation whose dataset its protocol does not list.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from . import completeness
from .config import RECORDS_DIR
from .link import Catalogue, references
from .load import LoadedFile, join, line_of, load_file
from .models import RECORD_TYPES, Evaluation, Protocol, RecordBase
from .parse_cache import ParseCache, load_files
from .problems import Problem, RecordsInvalid, Severity

KIND_OF = {model: kind for kind, model in RECORD_TYPES.items()}

ENTRY_KINDS = frozenset({"protocol", "question", "evaluation"})
"""Kinds that need no referrer (see the module docstring)."""


@dataclass
class ValidationReport:
    records: dict[str, RecordBase] = field(default_factory=dict)
    """Records that passed the per-file checks, by id."""
    files: dict[str, Path] = field(default_factory=dict)
    """File of each record id."""
    lines: dict[str, Mapping[str, int]] = field(default_factory=dict)
    """Record id -> field path -> line (read again from the file when the parse came
    from the cache)."""
    problems: list[Problem] = field(default_factory=list)
    files_checked: int = 0
    invalid: dict[str, str] = field(default_factory=dict)
    """Id -> kind of records whose files failed the per-file checks: references to them
    are not reported again as dangling."""
    broken_context: dict[str, Path] = field(default_factory=dict)
    """Id -> file of records outside the paths validated (under records/) that have
    errors; a reference to one is an error that names the file."""

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def ok(self) -> bool:
        return not self.errors

    def line(self, record_id: str, field_path: str) -> int:
        return line_of(self.lines.get(record_id, {}), field_path)

    def summary(self) -> str:
        errors, warnings = len(self.errors), len(self.warnings)
        files = f"{self.files_checked} file{'s' if self.files_checked != 1 else ''}"
        if not errors and not warnings:
            return f"{files} checked: no problems"
        return f"{files} checked: {errors} error(s), {warnings} warning(s)"


@dataclass
class FileResult:
    """What `check_file` found in one file (picklable, so workers can return it)."""

    path: Path
    raw_id: str | None
    raw_kind: str | None
    record: RecordBase | None
    lines: Mapping[str, int]
    problems: list[Problem]


# ---------------------------------------------------------------- files


def _absolute(path: Path) -> str:
    """Absolute path without resolving links (Path.resolve costs a syscall per part)."""
    return os.path.abspath(path)  # noqa: PTH100


def _yaml_files(folder: Path) -> list[Path]:
    """`*.yaml` files under `folder`, sorted by path."""
    names: list[str] = []
    for directory, _, files in os.walk(folder):  # os.walk and str: 10x faster than rglob
        names.extend(f"{directory}/{name}" for name in files if name.endswith(".yaml"))
    return [Path(name) for name in sorted(names)]


def find_files(paths: Iterable[Path]) -> tuple[list[Path], list[Problem]]:
    """Record files named by `paths`: files as given, folders searched for `*.yaml`."""
    found: list[Path] = []
    problems: list[Problem] = []
    for path in paths:
        if path.is_dir():
            found.extend(_yaml_files(path))
        elif path.is_file():
            found.append(path)
        else:
            problems.append(Problem(path, 1, "", "no such file or folder"))
    unique = list(dict.fromkeys(found))
    return unique, problems


# ---------------------------------------------------------------- one file

_FIELD_PREFIX = re.compile(r"^([a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)*): (.+)$", re.DOTALL)
_KINDS = ", ".join(RECORD_TYPES)


def _describe(error: Any, kind: str) -> tuple[str, str]:
    """(field path, message) of one Pydantic error."""
    field_path = ".".join(str(part) for part in error["loc"])
    kind_of_error = error["type"]
    message = str(error["msg"]).removeprefix("Value error, ")
    if kind_of_error == "value_error":
        match = _FIELD_PREFIX.match(message)
        if match:  # model validators name their field: "results.0: ..."
            field_path, message = join(field_path, match[1]), match[2]
        return field_path, message
    if kind_of_error == "missing":
        return field_path, "required field is missing"
    if kind_of_error == "extra_forbidden":
        return field_path, f"unknown field: {_a(kind)} record has no field with this name"
    value = error.get("input")
    if kind_of_error == "string_pattern_mismatch":
        pattern = str(error.get("ctx", {}).get("pattern", ""))
        if "64" in pattern:
            return field_path, f"{value!r} is not a SHA-256 (64 lowercase hexadecimal digits)"
        if "a-z0-9" in pattern:
            return field_path, f"{value!r} is not a slug (lowercase a-z, 0-9, single hyphens)"
    if kind_of_error == "string_type" and isinstance(value, int | float | bool):
        return field_path, f"{message} (YAML read {value!r}: quote the value to keep it text)"
    if isinstance(value, list | dict):
        return field_path, f"{message} (got a {'list' if isinstance(value, list) else 'mapping'})"
    if isinstance(value, str | int | float | bool):
        shown = repr(value)
        message += f" (got {shown if len(shown) <= 60 else shown[:57] + '...'})"
    return field_path, message


@cache
def _exists(folder: str, relative: str) -> bool:
    return Path(folder, relative).is_file()


def _modeline_problem(path: Path, kind: str, schema: str | None) -> str | None:
    """Why the first-line modeline does not link the record's schema, or None."""
    name = f"{kind}.schema.json"
    if schema is None:
        return (
            f"no editor modeline: start the file with '# yaml-language-server: "
            f"$schema=../schemas/{name}' so editors complete and check it"
        )
    if schema.rsplit("/", 1)[-1] != name:
        return f"the modeline names schema '{schema}'; {_a(kind)} record's schema is {name}"
    if "://" not in schema and not _exists(os.path.dirname(path), schema):  # noqa: PTH120
        return f"the modeline's schema '{schema}' is not a file (relative to this file)"
    return None


def check_loaded(loaded: LoadedFile) -> FileResult:
    """Per-file checks of parsed YAML: kind, model, finite numbers, name, completeness."""
    path, data, lines = loaded.path, loaded.data, loaded.lines
    problems = list(loaded.problems)
    result = FileResult(path, None, None, None, lines, problems)

    def add(field_path: str, message: str, severity: Severity = "error") -> None:
        problems.append(Problem(path, line_of(lines, field_path), field_path, message, severity))

    if data is None:
        return result
    if not isinstance(data, dict):
        found = "a list" if isinstance(data, list) else f"a single value ({data!r:.40})"
        add("", f"a record is a mapping of fields, but the file holds {found}")
        return result
    raw_id = data.get("id")
    if isinstance(raw_id, str):
        result.raw_id = raw_id
        if raw_id != path.stem:
            add("id", f"id '{raw_id}' does not match the file name '{path.name}'")
    kind = data.get("kind")
    model = RECORD_TYPES.get(kind) if isinstance(kind, str) else None
    if model is not None and isinstance(kind, str):
        result.raw_kind = kind
    if model is None or not isinstance(kind, str):
        if "kind" not in data:
            add("kind", f"required field is missing; one of: {_KINDS}")
        else:
            add("kind", f"unknown record kind {kind!r}; one of: {_KINDS}")
        return result
    modeline = _modeline_problem(path, kind, loaded.schema)
    if modeline:
        problems.append(Problem(path, 1, "", modeline, "warning"))
    reported: set[str] = set()
    try:
        record = model.model_validate(data)
    except ValidationError as error:
        for item in error.errors(include_url=False):
            field_path, message = _describe(item, kind)
            reported.add(field_path)
            add(field_path, message)
        record = None
    for field_path in loaded.nonfinite:
        if field_path not in reported:
            add(field_path, "number must be finite (not NaN or infinity)")
    if record is None or loaded.nonfinite:
        return result
    for gap in completeness.check(record):
        add(gap.field, gap.message)
    result.record = record
    return result


def check_file(path: Path) -> FileResult:
    return check_loaded(load_file(path))


# ---------------------------------------------------------------- across files


class _Hashes:
    """SHA-256 of artifact files, each file read once per run."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.known: dict[Path, str | None] = {}

    def of(self, relative: str) -> tuple[Path | None, str | None]:
        """(resolved path or None when it leaves root, digest or None when unreadable)."""
        if Path(relative).is_absolute():
            return None, None
        target = (self.root / relative).resolve()
        if not target.is_relative_to(self.root):
            return None, None
        if target not in self.known:
            try:
                self.known[target] = hashlib.sha256(target.read_bytes()).hexdigest()
            except OSError:
                self.known[target] = None
        return target, self.known[target]


def _a(kind: str) -> str:
    """'a dataset', 'an evaluation'."""
    words = kind.replace("_", " ")
    return f"{'an' if words[0] in 'aeiou' else 'a'} {words}"


def _record_problem(
    report: ValidationReport,
    record_id: str,
    field_path: str,
    message: str,
    severity: Severity = "error",
) -> None:
    report.problems.append(
        Problem(
            report.files[record_id],
            report.line(record_id, field_path),
            field_path,
            message,
            severity,
        )
    )


def _check_references(
    report: ValidationReport,
    record: RecordBase,
    universe: dict[str, RecordBase],
    refs: list[tuple[str, str, str]],
) -> None:
    if isinstance(record, Evaluation):
        refs = list(refs)
        for i, result in enumerate(record.results):
            extrapolation = result.extrapolation
            if extrapolation is not None and extrapolation.confirmed_by is not None:
                refs.append(
                    (
                        f"results.{i}.extrapolation.confirmed_by",
                        extrapolation.confirmed_by,
                        "evaluation",
                    )
                )
    for field_path, target_id, expected in refs:
        target = universe.get(target_id)
        invalid_kind = report.invalid.get(target_id)
        if target is None and invalid_kind is not None:
            if invalid_kind != expected:  # the target's own errors are reported in its file
                _record_problem(
                    report,
                    record.id,
                    field_path,
                    f"'{target_id}' is {_a(invalid_kind)}, not {_a(expected)}",
                )
        elif target is None and target_id in report.broken_context:
            _record_problem(
                report,
                record.id,
                field_path,
                f"'{target_id}' is in {report.broken_context[target_id]}, which has errors "
                "(validate that file)",
            )
        elif target is None:
            _record_problem(
                report,
                record.id,
                field_path,
                f"'{target_id}' refers to no record (expected the id of {_a(expected)})",
            )
        elif KIND_OF[type(target)] != expected:
            _record_problem(
                report,
                record.id,
                field_path,
                f"'{target_id}' is {_a(KIND_OF[type(target)])}, not {_a(expected)}",
            )


def _check_evaluation(
    report: ValidationReport,
    record: Evaluation,
    universe: dict[str, RecordBase],
    hashes: _Hashes,
) -> None:
    protocol = universe.get(record.protocol)
    if isinstance(protocol, Protocol):
        columns = {column.id for column in protocol.columns}
        unit = protocol.metric.unit
        for i, result in enumerate(record.results):
            if result.column not in columns:
                _record_problem(
                    report,
                    record.id,
                    f"results.{i}.column",
                    f"protocol '{protocol.id}' has no column '{result.column}' "
                    f"(columns: {', '.join(sorted(columns))})",
                )
            if result.unit is not None and result.unit != unit:
                _record_problem(
                    report,
                    record.id,
                    f"results.{i}.unit",
                    f"unit '{result.unit}' differs from the unit of protocol "
                    f"'{protocol.id}' metric '{protocol.metric.id}': '{unit}'",
                )
        if protocol.datasets and record.dataset not in protocol.datasets:
            _record_problem(
                report,
                record.id,
                "dataset",
                f"dataset '{record.dataset}' is not among the datasets of protocol '{protocol.id}'",
                "warning",
            )
    if record.reproduces is not None:
        target = universe.get(record.reproduces)
        if isinstance(target, Evaluation) and target.protocol != record.protocol:
            _record_problem(
                report,
                record.id,
                "reproduces",
                f"'{target.id}' follows protocol '{target.protocol}', not '{record.protocol}'",
            )
        if record.reproduces == record.id:
            _record_problem(
                report, record.id, "reproduces", "an evaluation cannot reproduce itself"
            )
    for i, artifact in enumerate(record.artifacts):
        file, digest = hashes.of(artifact.path)
        if file is None:
            _record_problem(
                report,
                record.id,
                f"artifacts.{i}.path",
                f"'{artifact.path}' is not a path inside the repository",
            )
        elif digest is None:
            _record_problem(
                report, record.id, f"artifacts.{i}.path", f"no file at '{artifact.path}'"
            )
        elif digest != artifact.sha256:
            _record_problem(
                report,
                record.id,
                f"artifacts.{i}.sha256",
                f"SHA-256 of '{artifact.path}' is {digest}, not the recorded value",
            )
        elif artifact.size_bytes is not None and file.stat().st_size != artifact.size_bytes:
            _record_problem(
                report,
                record.id,
                f"artifacts.{i}.size_bytes",
                f"'{artifact.path}' has {file.stat().st_size} bytes, not {artifact.size_bytes}",
            )


def _context_records(
    root: Path, selected: set[str], report: ValidationReport, store: ParseCache | None
) -> dict[str, RecordBase]:
    """Records under root/records that were not selected, to resolve references against."""
    folder = root / RECORDS_DIR
    if not folder.is_dir():
        return {}
    extra: dict[str, RecordBase] = {}
    others = [p for p in _yaml_files(folder) if _absolute(p) not in selected]
    for loaded in load_files(others, root, cache=store is not None, store=store):
        result = check_loaded(loaded)
        if result.record is not None and result.record.id not in report.records:
            extra.setdefault(result.record.id, result.record)
        elif result.record is None and result.raw_id is not None:
            report.broken_context.setdefault(result.raw_id, result.path)
    return extra


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
        else:
            record_id = result.record.id
            report.records[record_id] = result.record
            report.files[record_id] = result.path
            report.lines[record_id] = result.lines


def check_links(
    report: ValidationReport, root: Path, selected: set[str], store: ParseCache | None = None
) -> None:
    """Cross-record checks over the records in `report`."""
    universe = dict(report.records)
    for record_id, record in _context_records(root, selected, report, store).items():
        universe.setdefault(record_id, record)
    hashes = _Hashes(root)
    referenced: set[str] = set()
    outgoing: dict[str, list[tuple[str, str, str]]] = {}
    for record_id, record in universe.items():
        refs = [(ref.field, ref.target_id, ref.expected_kind) for ref in references(record)]
        outgoing[record_id] = refs
        referenced.update(target for _, target, _ in refs)
    for record_id, record in report.records.items():
        _check_references(report, record, universe, outgoing[record_id])
        if isinstance(record, Evaluation):
            _check_evaluation(report, record, universe, hashes)
        kind = KIND_OF[type(record)]
        if kind not in ENTRY_KINDS and record_id not in referenced:
            _record_problem(
                report,
                record_id,
                "id",
                f"nothing refers to this {kind.replace('_', ' ')}",
                "warning",
            )


def validate_paths(
    paths: Sequence[Path], root: Path, *, cache: bool = True, jobs: int | None = None
) -> ValidationReport:
    """Validate the record files under `paths`; references resolve against `root`.

    `cache`: reuse parse results stored under `root/.rewire-cache` (see `parse_cache`);
    `jobs`: processes that parse (default: up to 2, used only for many files)."""
    report = ValidationReport()
    files, missing = find_files(paths)
    report.problems.extend(missing)
    store = ParseCache(root) if cache else None
    collecting = gc.isenabled()
    gc.disable()  # the values and records hold no cycles; collection would cost 2-3x
    try:
        loaded = load_files(files, root, cache=cache, jobs=jobs, store=store)
        collect((check_loaded(item) for item in loaded), report)
        del loaded
        selected = {_absolute(path) for path in files}
        check_links(report, root, selected, store)
        if store is not None:
            store.save()
    finally:
        if collecting:
            gc.enable()
    report.problems.sort(key=lambda p: (str(p.path), p.line, p.field, p.message))
    return report


def load_catalogue(root: Path) -> tuple[Catalogue, ValidationReport]:
    """All records under `root/records`, linked; `RecordsInvalid` when any has errors."""
    report = validate_paths([root / RECORDS_DIR], root)
    if not report.ok:
        raise RecordsInvalid(report.problems)
    return Catalogue.from_records(report.records.values()), report


__all__ = [
    "ENTRY_KINDS",
    "FileResult",
    "ValidationReport",
    "check_file",
    "check_loaded",
    "display_path",
    "exit_code",
    "find_files",
    "load_catalogue",
    "render",
    "validate_paths",
]


# ---------------------------------------------------------------- output


def display_path(path: Path, cwd: Path | None = None) -> str:
    """`path` relative to the working directory when it lies under it."""
    here = (cwd or Path.cwd()).resolve()
    try:
        return str(path.resolve().relative_to(here))
    except ValueError:
        return str(path)


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
        }
        return json.dumps(document, indent=2, sort_keys=True)
    return "\n".join([*(str(p) for p in shown), report.summary()])


def exit_code(report: ValidationReport, strict: bool) -> int:
    return 1 if report.errors or (strict and report.warnings) else 0
