"""Cross-record checks: references resolve to a record of the right kind, results agree
with their protocol (columns, unit), `reproduces` names an evaluation of the same
protocol, artifacts exist under root with the SHA-256 recorded, and warnings for
records nothing refers to (see `ENTRY_KINDS`) and for a dataset its protocol does not
list. Problems go into the `ValidationReport`, with the line of the field.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from .config import RECORDS_DIR
from .link import references
from .models import Evaluation, Protocol, RecordBase
from .parse_cache import ParseCache, load_files, yaml_names
from .problems import Problem, Severity
from .record_checks import KIND_OF, article, check_loaded

if TYPE_CHECKING:
    from .validate import ValidationReport

ENTRY_KINDS = frozenset({"protocol", "question", "evaluation"})
"""Kinds that need no referrer: the index lists protocols and questions, and an
evaluation is reached through the protocol and configuration it names."""


class _Hashes:
    """SHA-256 of artifact files, each file read once per run."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.known: dict[Path, str | None] = {}

    def of(self, relative: str) -> tuple[Path | None, str | None]:
        """(resolved path or None when it leaves root, digest or None when unreadable)."""
        if Path(relative).is_absolute() or "\0" in relative:
            return None, None
        try:
            target = (self.root / relative).resolve()
        except (OSError, RuntimeError):  # a link loop
            return None, None
        if not target.is_relative_to(self.root):
            return None, None
        if target not in self.known:
            try:
                self.known[target] = hashlib.sha256(target.read_bytes()).hexdigest()
            except OSError:
                self.known[target] = None
        return target, self.known[target]


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
                    f"'{target_id}' is {article(invalid_kind)}, not {article(expected)}",
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
                f"'{target_id}' refers to no record (expected the id of {article(expected)})",
            )
        elif KIND_OF[type(target)] != expected:
            _record_problem(
                report,
                record.id,
                field_path,
                f"'{target_id}' is {article(KIND_OF[type(target)])}, not {article(expected)}",
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
    names = yaml_names(folder)  # strings: Path objects for 10,000 files cost 0.3 s
    others = [Path(n) for n in names if os.path.abspath(n) not in selected]  # noqa: PTH100
    for loaded in load_files(others, root, cache=store is not None, store=store):
        result = check_loaded(loaded)
        if result.record is not None and result.record.id not in report.records:
            extra.setdefault(result.record.id, result.record)
        elif result.record is None and result.raw_id is not None:
            report.broken_context.setdefault(result.raw_id, result.path)
    return extra


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


__all__ = ["ENTRY_KINDS", "check_links"]
