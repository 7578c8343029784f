"""Cross-record checks: references resolve to a record of the right kind, results agree
with their protocol (columns, unit), `reproduces` names an evaluation of the same
protocol, artifacts exist under root with the SHA-256 recorded, and warnings for
records nothing refers to (see `ENTRY_KINDS`) and for a dataset its protocol does not
list. Problems go into the `ValidationReport`, with the line of the field.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .config import ARTIFACTS_DIR, RECORDS_DIR
from .derive.artifacts import IMPORTER_MANIFEST, orphan_artifacts
from .link import Catalogue, Ref, reference_fields
from .load import line_of
from .models import (
    Dataset,
    Evaluation,
    ModelFamily,
    Protocol,
    RecordBase,
    ResultTable,
    Source,
)
from .models.scales import scale_problem
from .parse_cache import ParseCache, load_files, yaml_names
from .problems import Problem, Severity
from .record_checks import KIND_OF, ValidationReport, article, check_loaded, under

ENTRY_KINDS = frozenset({"protocol", "question", "evaluation", "result_table"})
"""Kinds that need no referrer: the index lists protocols and questions, an evaluation
is reached through the protocol and configuration it names, and a result table through
its sources and protocol."""


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


@dataclass
class _Target:
    """Where the problems of one record go: its file and lines; problems under a field
    its model rejected (`replaced`, for a record checked from its valid parts) are
    dropped, since the model's error there already says what is wrong."""

    report: ValidationReport
    record_id: str
    path: Path
    lines: Mapping[str, int]
    replaced: Sequence[str] = ()

    def add(self, field_path: str, message: str, severity: Severity = "error") -> None:
        if self.replaced and under(field_path, self.replaced):
            return
        line = line_of(self.lines, field_path)
        self.report.problems.append(Problem(self.path, line, field_path, message, severity))


def _target(report: ValidationReport, record_id: str) -> _Target:
    if record_id in report.files:
        return _Target(report, record_id, report.files[record_id], report.lines[record_id])
    result = report.partial[record_id]
    return _Target(report, record_id, result.path, result.lines, result.replaced)


def _check_references(
    to: _Target,
    record: RecordBase,
    universe: dict[str, RecordBase],
    refs: list[Ref],
) -> None:
    report = to.report
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
                to.add(
                    field_path,
                    f"'{target_id}' is {article(invalid_kind)}, not {article(expected)}",
                )
        elif target is None and target_id in report.unreadable:
            # the file of that name cannot be read: its error is reported once, there
            report.unchecked[target_id] = report.unchecked.get(target_id, 0) + 1
        elif target is None and target_id in report.broken_context:
            to.add(
                field_path,
                f"'{target_id}' is in {report.broken_context[target_id]}, which has errors "
                "(validate that file)",
            )
        elif target is None:
            to.add(
                field_path,
                f"'{target_id}' refers to no record (expected the id of {article(expected)})",
            )
        elif KIND_OF[type(target)] != expected:
            to.add(
                field_path,
                f"'{target_id}' is {article(KIND_OF[type(target)])}, not {article(expected)}",
            )


def _check_results(to: _Target, record: Evaluation, protocol: Protocol) -> None:
    """Each result against its protocol: the column exists; unit, direction and scale
    agree with the column's metric."""
    columns = {column.id for column in protocol.columns}
    for i, result in enumerate(record.results):
        if result.column not in columns:
            to.add(
                f"results.{i}.column",
                f"protocol '{protocol.id}' has no column '{result.column}' "
                f"(columns: {', '.join(sorted(columns))})",
            )
            continue
        metric = protocol.column_metric(result.column)
        if result.unit is not None and result.unit != metric.unit:
            to.add(
                f"results.{i}.unit",
                f"unit '{result.unit}' differs from the unit of protocol "
                f"'{protocol.id}' metric '{metric.id}': '{metric.unit}'",
            )
        if result.direction is not None and result.direction != metric.direction:
            to.add(
                f"results.{i}.direction",
                f"'{result.direction}' contradicts protocol '{protocol.id}': its metric "
                f"'{metric.id}' is better when {metric.direction}; drop the field or fix "
                "the column",
            )
        problem = scale_problem(metric, result)
        if problem is not None:
            field_name, message = problem
            to.add(f"results.{i}.{field_name}", message)


@dataclass(frozen=True)
class Cycle:
    """A `reproduces` cycle of two or more evaluations, seen from one of its members."""

    members: list[str]
    """The ids in `reproduces` order (shared by every member's `Cycle`)."""
    position: int
    """Where this member is in `members`."""

    def path(self, most: int = 6) -> list[str]:
        """From this member along the cycle and back to it; at most `most` ids, then ''
        for the rest."""
        size = len(self.members)
        ids = [self.members[(self.position + step) % size] for step in range(min(size, most))]
        return [*ids, ""] if size > most else [*ids, ids[0]]


def reproduction_cycles(universe: Mapping[str, RecordBase]) -> dict[str, Cycle]:
    """Evaluation id -> the `reproduces` cycle through it, for every evaluation on a
    cycle of two or more (self-reproduction is reported on its own). Linear: each
    evaluation has at most one `reproduces`, and each is walked once."""
    cycles: dict[str, Cycle] = {}
    done: set[str] = set()
    for first, record in universe.items():
        if first in done or not isinstance(record, Evaluation):
            continue
        path: list[str] = []
        at: dict[str, int] = {}
        current: str | None = first
        while current is not None and current not in done and current not in at:
            at[current] = len(path)
            path.append(current)
            found = universe.get(current)
            current = found.reproduces if isinstance(found, Evaluation) else None
        if current is not None and current in at:
            members = path[at[current] :]
            if len(members) > 1:
                for i, member in enumerate(members):
                    cycles[member] = Cycle(members, i)
        done.update(path)
    return cycles


def _check_evaluation(
    to: _Target,
    record: Evaluation,
    universe: dict[str, RecordBase],
    hashes: _Hashes,
    cycles: Mapping[str, Cycle],
) -> None:
    protocol = universe.get(record.protocol) if record.protocol is not None else None
    if isinstance(protocol, Protocol):
        _check_results(to, record, protocol)
        if protocol.datasets and record.dataset not in protocol.datasets:
            to.add(
                "dataset",
                f"dataset '{record.dataset}' is not among the datasets of protocol '{protocol.id}'",
                "warning",
            )
    if record.reproduces is not None:
        target = universe.get(record.reproduces)
        if isinstance(target, Evaluation) and target.protocol != record.protocol:
            to.add(
                "reproduces",
                f"'{target.id}' follows protocol '{target.protocol}', not '{record.protocol}'",
            )
        if record.reproduces == to.record_id:
            to.add("reproduces", "an evaluation cannot reproduce itself")
        else:
            cycle = cycles.get(to.record_id)
            if cycle is not None:
                steps = " reproduces ".join(f"'{i}'" if i else "..." for i in cycle.path())
                to.add(
                    "reproduces",
                    f"a reproduction cycle of {len(cycle.members)} evaluations: {steps}: "
                    "one of them must be the original",
                )
    for i, artifact in enumerate(record.artifacts):
        if artifact.path is None or artifact.sha256 is None:
            continue  # a record checked from its valid parts: the model named the field
        file, digest = hashes.of(artifact.path)
        if file is None:
            to.add(f"artifacts.{i}.path", f"'{artifact.path}' is not a path inside the repository")
        elif digest is None:
            to.add(f"artifacts.{i}.path", f"no file at '{artifact.path}'")
        elif digest != artifact.sha256:
            to.add(
                f"artifacts.{i}.sha256",
                f"SHA-256 of '{artifact.path}' is {digest}, not the recorded value",
            )
        elif artifact.size_bytes is not None and file.stat().st_size != artifact.size_bytes:
            to.add(
                f"artifacts.{i}.size_bytes",
                f"'{artifact.path}' has {file.stat().st_size} bytes, not {artifact.size_bytes}",
            )


def _context_records(
    root: Path, selected: set[str] | None, report: ValidationReport, store: ParseCache | None
) -> tuple[dict[str, RecordBase], list[RecordBase]]:
    """Records under root/records that were not selected, to resolve references against,
    and the valid parts of those that failed their model (what they refer to counts)."""
    folder = root / RECORDS_DIR
    if selected is None or not folder.is_dir():
        return {}, []
    extra: dict[str, RecordBase] = {}
    partial: list[RecordBase] = []
    # strings: Path objects for 10,000 files cost 0.3 s
    names = yaml_names(folder, os.path.realpath(root))
    others = [Path(n) for n in names if os.path.abspath(n) not in selected]  # noqa: PTH100
    for loaded in load_files(others, root, cache=store is not None, store=store):
        result = check_loaded(loaded)
        if result.record is not None and result.record.id not in report.records:
            extra.setdefault(result.record.id, result.record)
        elif result.record is None:
            report.broken_context.setdefault(result.raw_id or result.path.stem, result.path)
            if result.partial is not None:
                partial.append(result.partial)
            else:
                report.referrers_unknown = True
    return extra, partial


def _outgoing(record: RecordBase) -> list[Ref]:
    """(field, target id, expected kind) of every reference that names an id."""
    return [ref for ref in reference_fields(record) if isinstance(ref[1], str)]


def _check_record(
    to: _Target,
    record: RecordBase,
    universe: dict[str, RecordBase],
    refs: list[Ref],
    hashes: _Hashes,
    cycles: Mapping[str, Cycle],
) -> None:
    """The reference checks of one record: its references (`refs`), and an
    evaluation's results and artifacts."""
    _check_references(to, record, universe, refs)
    if isinstance(record, Evaluation):
        _check_evaluation(to, record, universe, hashes, cycles)
    if isinstance(record, ResultTable):
        _check_result_table(to, record, universe)


def _check_result_table(to: _Target, table: ResultTable, universe: dict[str, RecordBase]) -> None:
    """A result table's metrics are columns of its protocol, and its sources are files of
    a repository (each row's locator starts with one of their paths). A table checked
    from its valid parts (`report.partial`) may lack any of these fields."""
    protocol = universe.get(table.protocol) if isinstance(table.protocol, str) else None
    metrics = getattr(table.columns, "metrics", None) or []
    if isinstance(protocol, Protocol):
        known = {column.id for column in protocol.columns}
        for i, metric in enumerate(metrics):
            name = getattr(metric, "metric", None)
            if isinstance(name, str) and name not in known:
                to.add(
                    f"columns.metrics.{i}.metric",
                    f"'{name}' is not a result column of protocol '{protocol.id}' "
                    f"(its columns: {', '.join(sorted(known))})",
                )
            elif isinstance(name, str):
                stated = protocol.column_metric(name).direction
                direction = getattr(metric, "direction", None)
                if isinstance(direction, str) and direction != stated:
                    to.add(
                        f"columns.metrics.{i}.direction",
                        f"'{direction}' is better here, but protocol '{protocol.id}' says "
                        f"'{stated}' is better for its column '{name}'",
                    )
    for i, source_id in enumerate(table.sources or []):
        source = universe.get(source_id) if isinstance(source_id, str) else None
        if isinstance(source, Source) and not source.path:
            to.add(
                f"sources.{i}",
                f"source '{source_id}' has no `path`: a result table's rows are located in "
                "files of a repository (each locator starts with the file's path)",
            )


def check_records(
    report: ValidationReport,
    root: Path,
    records: Iterable[RecordBase],
    universe: dict[str, RecordBase],
) -> None:
    """The reference checks of `records` (each in `report.files` and `report.lines`)
    against `universe`, into `report`: what serve re-checks after an edit."""
    hashes = _Hashes(root)
    cycles = reproduction_cycles(universe)
    for record in records:
        to = _Target(report, record.id, report.files[record.id], report.lines[record.id])
        _check_record(to, record, universe, reference_fields(record), hashes, cycles)


def check_links(
    report: ValidationReport,
    root: Path,
    selected: set[str] | None,
    store: ParseCache | None = None,
) -> dict[str, RecordBase]:
    """Cross-record checks over the records in `report`, and over the valid parts of
    those that failed their model (`report.partial`). `selected`: absolute paths of the
    files validated, or None when they include every file under `root/records`.
    Returns the records the references resolved against (those validated and, when only
    some files were, the valid records of the rest of `root/records`)."""
    universe = dict(report.records)
    context, context_partial = _context_records(root, selected, report, store)
    for record_id, record in context.items():
        universe.setdefault(record_id, record)
    if report.unreadable:
        report.referrers_unknown = True
    hashes = _Hashes(root)
    cycles = reproduction_cycles(universe)
    referenced: set[str] = set()
    outgoing: dict[str, list[Ref]] = {}
    for record_id, record in universe.items():
        refs = report.outgoing.get(record_id)  # found during the per-file checks
        if refs is None:
            refs = reference_fields(record)
        outgoing[record_id] = refs
        referenced.update(target for _, target, _ in refs)
    partial_refs: dict[str, list[Ref]] = {}
    for record_id, result in report.partial.items():
        assert result.partial is not None
        partial_refs[record_id] = _outgoing(result.partial)
        referenced.update(target for _, target, _ in partial_refs[record_id])
    for record in context_partial:
        referenced.update(target for _, target, _ in _outgoing(record))
    for record_id, record in report.records.items():
        to = _Target(report, record_id, report.files[record_id], report.lines[record_id])
        _check_record(to, record, universe, outgoing[record_id], hashes, cycles)
        kind = KIND_OF[type(record)]
        stands_alone = (isinstance(record, ModelFamily) and record.has_facts) or _labelled(record)
        if (
            kind not in ENTRY_KINDS
            and record_id not in referenced
            and not stands_alone
            and not report.referrers_unknown
        ):
            to.add("id", f"nothing refers to this {kind.replace('_', ' ')}", "warning")
    for record_id, result in report.partial.items():
        assert result.partial is not None
        _check_record(
            _target(report, record_id),
            result.partial,
            universe,
            partial_refs[record_id],
            hashes,
            cycles,
        )
    if report.partial or context_partial or report.referrers_unknown:
        report.orphans_unknown = (root / ARTIFACTS_DIR).is_dir()
    else:
        _check_orphans(report, root, universe)
    return universe


def _imported_files(folder: Path) -> frozenset[str]:
    """Files an importer's manifest (`artifacts/sources/<prefix>/manifest.json`) lists
    under `files/` beside it: the importer's pinned copies, each with its SHA-256."""
    found: set[str] = set()
    for manifest in sorted((folder / "sources").glob(f"*/{IMPORTER_MANIFEST}")):
        try:
            listed = json.loads(manifest.read_text(encoding="utf-8")).get("files", {})
        except (OSError, ValueError, AttributeError):
            continue  # an unreadable manifest vouches for nothing
        prefix = f"{ARTIFACTS_DIR}/sources/{manifest.parent.name}/files/"
        found.update(prefix + name for name in listed if isinstance(name, str))
    return frozenset(found)


def _check_orphans(report: ValidationReport, root: Path, universe: dict[str, RecordBase]) -> None:
    """A warning for each file under artifacts/ that no record cites (a log whose record
    was never written, or was moved). Only when every record could be read: a record
    with errors may be the one that cites it."""
    folder = root / ARTIFACTS_DIR
    if not folder.is_dir():
        return
    files = [
        os.path.relpath(os.path.join(directory, name), root).replace(os.sep, "/")  # noqa: PTH118
        for directory, _, names in os.walk(folder)
        for name in names
    ]
    imported = _imported_files(folder)
    files = [f for f in files if f not in imported]
    by_kind: dict[type[RecordBase], list[RecordBase]] = {Evaluation: [], Source: []}
    for record in universe.values():
        if type(record) in by_kind:
            by_kind[type(record)].append(record)
    catalogue = Catalogue(by_id=universe, _by_kind=by_kind)  # all orphan_artifacts reads
    for orphan in orphan_artifacts(catalogue, files):
        report.problems.append(
            Problem(
                root / orphan,
                1,
                "",
                "no record cites this file: name it (with its SHA-256) in the `artifacts` of "
                "the record it belongs to, or delete it",
                "warning",
            )
        )


def _labelled(record: RecordBase) -> bool:
    """True for a dataset or model family that carries a source's labels: an identity
    record that result tables' rows map to (they name it by label, not by id); and for a
    dataset that joins other datasets (`same_task` or `related`): a task identity record,
    which the task pages read through its links."""
    if isinstance(record, Dataset):
        return bool(record.labels or record.same_task or record.related)
    if isinstance(record, ModelFamily):
        return bool(record.labels) or any(c.labels for c in record.checkpoints)
    return False


__all__ = ["ENTRY_KINDS", "check_links"]
