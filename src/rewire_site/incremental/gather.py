"""Incremental gather: the record files of a preview, kept between edits; an edit
re-reads and re-checks only the files that changed (`record_checks`), a duplicate id,
and the reference checks (`link_checks`) of the changed records and of every record that
refers to a changed or vanished id. An edit with errors changes nothing here:
`RecordsInvalid` with every problem."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..link import Catalogue, references
from ..models import RecordBase
from ..problems import Problem, RecordsInvalid
from ..record_checks import check_file
from ..validate import ValidationReport, check_changed
from .track import ANY, Key


@dataclass(frozen=True)
class Change:
    """What an edit changed in the records."""

    ids: frozenset[str]  # added, removed or whose content changed
    keys: set[Key]  # their keys: ('id', ...), ('field', ...), ('kind', ...), ('ref', ...)


@dataclass
class Records:
    """Every valid record file of a preview, by path, and the catalogue they make."""

    root: Path  # the project root (artifact paths are relative to it)
    catalogue: Catalogue
    files: dict[str, str]  # record file -> record id
    lines: dict[str, Mapping[str, int]] = field(default_factory=dict)  # id -> field -> line

    @classmethod
    def from_report(cls, root: Path, report: ValidationReport) -> Records:
        files = {str(path): record_id for record_id, path in report.files.items()}
        catalogue = Catalogue.from_records(report.records.values(), report.result_rows)
        return cls(root, catalogue, files, dict(report.lines))

    def apply(self, paths: Iterable[Path]) -> Change:
        """Re-read `paths` (changed, added or deleted record files) and update the
        catalogue; `RecordsInvalid` (nothing changed) when an edit has errors."""
        old = self.catalogue
        files = dict(self.files)
        fresh: dict[str, RecordBase] = {}
        lines: dict[str, Mapping[str, int]] = {}
        problems: list[Problem] = []
        for path in sorted(set(paths)):
            name = str(path)
            files.pop(name, None)
            if not path.is_file():
                continue
            result = check_file(path)
            problems += [p for p in result.problems if p.severity == "error"]
            if result.record is not None:
                files[name] = result.record.id
                fresh[name] = result.record
                lines[result.record.id] = result.lines
        owner: dict[str, str] = {}
        for name in sorted(files):
            record_id = files[name]
            if record_id in owner:
                second = name if name in fresh else owner[record_id]
                problems.append(
                    Problem(
                        Path(second),
                        1,
                        "id",
                        f"duplicate id '{record_id}': also the id in "
                        f"{owner[record_id] if second == name else name}",
                    )
                )
            owner.setdefault(record_id, name)
        if problems:
            raise RecordsInvalid(sorted(problems, key=_order))
        by_id: dict[str, RecordBase] = {}
        for name in sorted(files):
            record_id = files[name]
            record = fresh.get(name)
            if record is None:
                record = old.by_id[record_id]
            elif record == old.by_id.get(record_id):
                record = old.by_id[record_id]  # the same content: keep the object
            by_id[record_id] = record
        changed = frozenset(
            i for i in old.by_id.keys() | by_id.keys() if old.by_id.get(i) is not by_id.get(i)
        )
        catalogue = old.replaced(by_id, changed)
        keys = _keys(old, catalogue, changed)
        all_lines = {**self.lines, **lines}
        problems = check_changed(self.root, catalogue, old, changed, owner, all_lines)
        if problems:
            raise RecordsInvalid(sorted(problems, key=_order))
        self.catalogue, self.files = catalogue, files
        self.lines = {i: all_lines[i] for i in by_id if i in all_lines}
        return Change(changed, keys)


def _order(problem: Problem) -> tuple[str, int, str, str]:
    return (str(problem.path), problem.line, problem.field, problem.message)


def _keys(old: Catalogue, new: Catalogue, changed: frozenset[str]) -> set[Key]:
    """The keys an edit of the `changed` ids changed: their ids, fields and kinds, and
    the targets whose references changed."""
    keys: set[Key] = {("id", ANY)} if changed else set()
    for record_id in changed:
        before, after = old.by_id.get(record_id), new.by_id.get(record_id)
        keys.add(("id", record_id))
        keys.update(("field", record_id, name) for name in changed_fields(before, after))
        for record in (before, after):
            if record is not None:
                keys.add(("kind", type(record).__name__))
                for target in {ref.target_id for ref in references(record)}:
                    if old.referrers.get(target, []) != new.referrers.get(target, []):
                        keys |= {("ref", target), ("ref", ANY)}
    return keys


def changed_fields(before: RecordBase | None, after: RecordBase | None) -> set[str]:
    """The fields whose value differs between two versions of a record (every field of
    either when it was added, removed or changed kind)."""
    if before is None or after is None or type(before) is not type(after):
        return {n for r in (before, after) if r is not None for n in type(r).model_fields}
    return {n for n in type(after).model_fields if getattr(before, n) != getattr(after, n)}
