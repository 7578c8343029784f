"""The rows of result tables: read a table's CSV into light frozen rows, and check them.

A result table (`models.result_table.ResultTable`) names a CSV file beside it; each line
is one result (model x task x settings), all its metrics. The CSV is read as the record
files are (`record_files`, `load.read_bounded`): a regular file inside the project, its
size checked by `fstat` before reading, at most `MAX_TABLE_BYTES` read. Then, with the
csv module:

- UTF-8, `\\n` line ends, no control characters, every header the table names exactly
  once and no other;
- each row has as many cells as the header; model and task labels are not empty;
- a metric cell is empty (no value) or a plain decimal number, finite, that reproduces
  its printed text (`printed.check_printed`) and lies within the metric's bounds;
- the locator starts with the path of one of the table's sources;
- no two rows share model, task and settings.

Every problem names the CSV file, its line and the column. Labels resolve through
`labels` of datasets (tasks), checkpoints and model families (models) in the table's
label scope (`LabelIndex`); a label that resolves to nothing is listed, not an error.
Rows are plain slotted objects (no Pydantic model per row: 100,000 of them fit in a
few tens of MB).
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
import os
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .load import read_bounded
from .models import Dataset, ModelFamily, RecordBase, ResultTable, Source
from .models.printed import check_printed
from .models.result_table import MetricColumn
from .problems import Problem, Severity, shown

MAX_TABLE_BYTES = 64 * 1024 * 1024
"""Largest rows file read (a table of 100,000 rows of six metrics is about 20 MB)."""
MAX_CELL_CHARS = 4096
"""Longest cell (a locator is a path and a key; a label a short name)."""
MAX_PROBLEMS = 50
"""Problems reported per rows file; the rest are counted in one line."""
TABLE_SUFFIX = ".csv"

NUMBER = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
"""A metric cell: a plain decimal number as a source prints it ('0.6191', '61.91',
'-0.02', '3.2e-3'); no sign '+', no thousands separators, no words."""
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")
"""Characters a rows file may not hold (tab, carriage return and other controls)."""


# ---------------------------------------------------------------- rows


@dataclass(frozen=True, slots=True)
class Value:
    """One metric value of a row: the number and its text exactly as printed."""

    value: float
    printed: str


@dataclass(frozen=True, slots=True)
class ModelIdentity:
    """What a source's model label names: a family, and the checkpoint where it is pinned
    (None: the label is known only at family level, the checkpoint is not pinned)."""

    family: str
    checkpoint: str | None


@dataclass(frozen=True, slots=True)
class ResultTableRow:
    """One row of a result table (one line of its CSV)."""

    table: str
    """Id of the result table."""
    line: int
    """Line of the CSV the row starts on."""
    model: str
    """The source's model label."""
    task: str
    """The source's task label."""
    settings: tuple[str, ...]
    """One cell per setting of the table (`columns.settings`), in order."""
    values: tuple[Value | None, ...]
    """One per metric of the table (`columns.metrics`), in order; None: no value."""
    locator: str
    """Where the row is in the source's file (starts with its path)."""
    dataset: str | None
    """Id of the dataset record the task label maps to; None: unmapped."""
    model_identity: ModelIdentity | None
    """The family (and checkpoint) the model label maps to; None: unmapped."""

    @property
    def family(self) -> str | None:
        return None if self.model_identity is None else self.model_identity.family

    @property
    def checkpoint(self) -> str | None:
        return None if self.model_identity is None else self.model_identity.checkpoint


@dataclass(frozen=True)
class Unmapped:
    """The labels of one table that resolve to no record (sorted)."""

    models: tuple[str, ...] = ()
    tasks: tuple[str, ...] = ()


@dataclass
class ResultRows:
    """Every row of every valid result table, with accessors by table, dataset, family
    and checkpoint (the indexes are built on first use)."""

    by_table: dict[str, tuple[ResultTableRow, ...]] = field(default_factory=dict)
    unmapped: dict[str, Unmapped] = field(default_factory=dict)
    """Table id -> its labels that map to no record."""
    _by_dataset: dict[str, list[ResultTableRow]] | None = None
    _by_family: dict[str, list[ResultTableRow]] | None = None

    def __len__(self) -> int:
        return sum(len(rows) for rows in self.by_table.values())

    def __iter__(self) -> Iterator[ResultTableRow]:
        for table_id in sorted(self.by_table):
            yield from self.by_table[table_id]

    def sha256(self) -> str:
        """SHA-256 of every row as read (table, line, labels, settings, printed values,
        locator); '' when there are none."""
        if not self.by_table:
            return ""
        digest = hashlib.sha256()
        for row in self:
            printed = tuple(None if v is None else v.printed for v in row.values)
            cells = (row.table, row.line, row.model, row.task, row.settings, printed, row.locator)
            digest.update(repr(cells).encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def value_count(self) -> int:
        """Published values held: the non-empty metric cells of every row."""
        return sum(sum(v is not None for v in row.values) for row in self)

    def of_table(self, table_id: str) -> tuple[ResultTableRow, ...]:
        return self.by_table.get(table_id, ())

    def _index(self) -> None:
        by_dataset: dict[str, list[ResultTableRow]] = defaultdict(list)
        by_family: dict[str, list[ResultTableRow]] = defaultdict(list)
        for row in self:
            if row.dataset is not None:
                by_dataset[row.dataset].append(row)
            if row.model_identity is not None:
                by_family[row.model_identity.family].append(row)
        self._by_dataset, self._by_family = dict(by_dataset), dict(by_family)

    def of_dataset(self, dataset_id: str) -> tuple[ResultTableRow, ...]:
        """Rows whose task label maps to `dataset_id` (in table, then CSV order)."""
        if self._by_dataset is None:
            self._index()
        assert self._by_dataset is not None
        return tuple(self._by_dataset.get(dataset_id, ()))

    def of_family(self, family_id: str) -> tuple[ResultTableRow, ...]:
        """Rows whose model label maps to `family_id` or one of its checkpoints."""
        if self._by_family is None:
            self._index()
        assert self._by_family is not None
        return tuple(self._by_family.get(family_id, ()))

    def of_checkpoint(self, family_id: str, checkpoint: str) -> tuple[ResultTableRow, ...]:
        """Rows whose model label maps to this checkpoint (by name) of `family_id`."""
        return tuple(r for r in self.of_family(family_id) if r.checkpoint == checkpoint)


# ---------------------------------------------------------------- label identity


@dataclass
class LabelIndex:
    """(scope, label) -> the dataset or model it names, from the records' `labels`."""

    tasks: dict[tuple[str, str], str] = field(default_factory=dict)
    models: dict[tuple[str, str], ModelIdentity] = field(default_factory=dict)
    conflicts: list[tuple[str, str, str]] = field(default_factory=list)
    """(record id, field path, message) of a label given twice in one scope."""

    @classmethod
    def from_records(cls, records: Iterable[RecordBase]) -> LabelIndex:
        index = cls()
        task_owner: dict[tuple[str, str], str] = {}
        model_owner: dict[tuple[str, str], str] = {}
        for record in sorted(records, key=lambda r: r.id):
            if isinstance(record, Dataset):
                for i, label in enumerate(record.labels):
                    key = (label.scope, label.label)
                    if key in task_owner:
                        index._conflict(record.id, f"labels.{i}", key, task_owner[key])
                        continue
                    task_owner[key] = record.id
                    index.tasks[key] = record.id
            elif isinstance(record, ModelFamily):
                given: list[tuple[str, tuple[str, str], ModelIdentity]] = [
                    (f"labels.{i}", (lab.scope, lab.label), ModelIdentity(record.id, None))
                    for i, lab in enumerate(record.labels)
                ]
                for c, checkpoint in enumerate(record.checkpoints):
                    given.extend(
                        (
                            f"checkpoints.{c}.labels.{i}",
                            (lab.scope, lab.label),
                            ModelIdentity(record.id, checkpoint.name),
                        )
                        for i, lab in enumerate(checkpoint.labels)
                    )
                for path, key, identity in given:
                    if key in model_owner:
                        index._conflict(record.id, path, key, model_owner[key])
                        continue
                    model_owner[key] = (
                        record.id
                        if identity.checkpoint is None
                        else (f"{record.id} (checkpoint {identity.checkpoint})")
                    )
                    index.models[key] = identity
        return index

    def _conflict(self, record_id: str, path: str, key: tuple[str, str], owner: str) -> None:
        self.conflicts.append(
            (
                record_id,
                path,
                f"label {shown(key[1])} of scope '{key[0]}' is also given by {owner}: a "
                "source's label names one task or one model",
            )
        )


# ---------------------------------------------------------------- reading


@dataclass
class TableRead:
    """What reading one table's rows found."""

    rows: tuple[ResultTableRow, ...] = ()
    problems: list[Problem] = field(default_factory=list)
    unmapped: Unmapped = field(default_factory=Unmapped)


class _Problems:
    """The problems of one rows file, at most `MAX_PROBLEMS` of them kept."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.found: list[Problem] = []
        self.dropped = 0

    def add(self, line: int, column: str, message: str, severity: Severity = "error") -> None:
        if len(self.found) >= MAX_PROBLEMS:
            self.dropped += 1
            return
        where = f"column {column}" if column else ""
        self.found.append(Problem(self.path, line, where, message, severity))

    def finish(self) -> list[Problem]:
        if self.dropped:
            self.found.append(
                Problem(self.path, 1, "", f"{self.dropped} more problem(s) in this file not listed")
            )
        return self.found


def rows_path(table: ResultTable, table_file: Path) -> Path:
    """The CSV file a table names: `rows`, in the table file's folder."""
    return table_file.parent / table.rows


def source_paths(table: ResultTable, records: Mapping[str, RecordBase]) -> list[str]:
    """Repository paths of the table's sources that have one."""
    found = []
    for source_id in table.sources:
        source = records.get(source_id)
        if isinstance(source, Source) and source.path:
            found.append(source.path)
    return found


def _decode(raw: bytes, problems: _Problems) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        problems.add(line, "", f"the bytes are not UTF-8 (at byte {error.start})")
        return None
    bad = _CONTROL.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        what = (
            "a carriage return: lines end with \\n only"
            if bad[0] == "\r"
            else (f"the control character {bad[0]!r}")
        )
        problems.add(line, "", f"the file holds {what}")
        return None
    return text


def read_rows(
    table: ResultTable,
    path: Path,
    *,
    paths: Sequence[str],
    index: LabelIndex,
) -> TableRead:
    """Read and check the rows file `path` of `table`; `paths`: its sources' repository
    paths (`source_paths`); `index`: the label identity of the catalogue."""
    problems = _Problems(path)
    raw = read_bounded(path, limit=MAX_TABLE_BYTES, what="rows file")
    if isinstance(raw, Problem):
        return TableRead(problems=[raw])
    text = _decode(raw, problems)
    if text is None:
        return TableRead(problems=problems.finish())
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[ResultTableRow] = []
    unmapped_models: set[str] = set()
    unmapped_tasks: set[str] = set()
    limit = csv.field_size_limit()
    try:
        csv.field_size_limit(MAX_CELL_CHARS)
        header = next(reader, None)
        columns = _columns(table, header, problems)
        if columns is None:
            return TableRead(problems=problems.finish())
        model_at, task_at, setting_at, metric_at, locator_at = columns
        width = len(header or ())
        metrics = table.columns.metrics
        scope, table_id = table.labels, table.id
        seen: dict[tuple[str, str, tuple[str, ...]], int] = {}
        strings: dict[str, str] = {}
        models: dict[str, ModelIdentity | None] = {}
        tasks: dict[str, str | None] = {}
        start = reader.line_num + 1
        for cells in reader:
            line, start = start, reader.line_num + 1
            if len(cells) != width:
                problems.add(line, "", f"the row has {len(cells)} cell(s); the header has {width}")
                continue
            model, task = cells[model_at], cells[task_at]
            if not model:
                problems.add(line, table.columns.model, "the model label is empty")
            if not task:
                problems.add(line, table.columns.task, "the task label is empty")
            locator = cells[locator_at]
            if not locator.startswith(tuple(paths)) or not paths:
                _bad_locator(problems, line, table, locator, paths)
            values = tuple(
                _value(cells[at], metric, line, problems)
                for at, metric in zip(metric_at, metrics, strict=True)
            )
            if all(v is None for v in values):
                problems.add(line, "", "the row holds no value (every metric cell is empty)")
            settings = tuple(strings.setdefault(cells[at], cells[at]) for at in setting_at)
            key = (model, task, settings)
            first = seen.setdefault(key, line)
            if first != line:
                problems.add(
                    line,
                    "",
                    f"the same model, task and settings as line {first}: a result is given once",
                )
                continue
            if model not in models:
                models[model] = index.models.get((scope, model))
            if task not in tasks:
                tasks[task] = index.tasks.get((scope, task))
            identity, dataset = models[model], tasks[task]
            if identity is None:
                unmapped_models.add(model)
            if dataset is None:
                unmapped_tasks.add(task)
            rows.append(
                ResultTableRow(
                    table_id,
                    line,
                    strings.setdefault(model, model),
                    strings.setdefault(task, task),
                    settings,
                    values,
                    locator,
                    dataset,
                    identity,
                )
            )
    except csv.Error as error:
        problems.add(reader.line_num or 1, "", f"the CSV cannot be read: {error}")
    finally:
        csv.field_size_limit(limit)
    found = problems.finish()
    if any(p.severity == "error" for p in found):
        return TableRead(problems=found)
    unmapped = Unmapped(tuple(sorted(unmapped_models)), tuple(sorted(unmapped_tasks)))
    return TableRead(tuple(rows), found, unmapped)


def _columns(
    table: ResultTable, header: list[str] | None, problems: _Problems
) -> tuple[int, int, tuple[int, ...], tuple[int, ...], int] | None:
    """Positions of the named columns in `header`, or None (problems added)."""
    named = table.columns.headers()
    if not header:
        problems.add(1, "", f"the file is empty: line 1 is the header ({', '.join(named)})")
        return None
    repeated = sorted({h for h in header if header.count(h) > 1})
    extra = [h for h in header if h not in named]
    absent = [h for h in named if h not in header]
    for name in repeated:
        problems.add(1, name, "the header names this column twice")
    for name in extra:
        problems.add(1, name, "the table's `columns` do not name this column")
    for name in absent:
        problems.add(1, name, "the header lacks this column, which the table's `columns` name")
    if repeated or extra or absent:
        return None
    at = {name: i for i, name in enumerate(header)}
    spec = table.columns
    return (
        at[spec.model],
        at[spec.task],
        tuple(at[s.column] for s in spec.settings),
        tuple(at[m.column] for m in spec.metrics),
        at[spec.locator],
    )


def _bad_locator(
    problems: _Problems, line: int, table: ResultTable, locator: str, paths: Sequence[str]
) -> None:
    column = table.columns.locator
    if not paths:
        problems.add(line, column, "no source of the table has a repository path to locate rows in")
    elif not locator:
        problems.add(line, column, "the locator is empty: say where the row is in the source")
    else:
        problems.add(
            line,
            column,
            f"{shown(locator)} does not start with the path of a source of the table "
            f"({', '.join(map(repr, paths))})",
        )


def _value(cell: str, metric: MetricColumn, line: int, problems: _Problems) -> Value | None:
    if not cell:
        return None
    if not NUMBER.fullmatch(cell):
        problems.add(line, metric.column, f"{shown(cell)} is not a number")
        return None
    number = float(cell)
    if not math.isfinite(number):
        problems.add(line, metric.column, f"{shown(cell)} is not a finite number")
        return None
    problem = check_printed(number, cell, None)
    if problem is not None:
        problems.add(line, metric.column, problem)
        return None
    low, high = metric.minimum, metric.maximum
    if (low is not None and number < low) or (high is not None and number > high):
        if low is not None and high is not None:
            bounds = f"from {low:g} to {high:g}"
        else:
            bounds = f"at least {low:g}" if low is not None else f"at most {high:g}"
        problems.add(
            line, metric.column, f"{cell} is outside the bounds of {metric.label} ({bounds})"
        )
        return None
    return Value(number, cell)


def stray_tables(found: Iterable[str], named: Iterable[Path]) -> list[Problem]:
    """A problem for each CSV file `found` under records/ that no table names."""
    named_real = {os.path.abspath(path) for path in named}  # noqa: PTH100
    return [
        Problem(
            Path(name),
            1,
            "",
            "a CSV file that no result table names: a table's `rows` names its CSV (in the "
            "same folder); remove the file or add its result table",
        )
        for name in sorted(found)
        if os.path.abspath(name) not in named_real  # noqa: PTH100
    ]


__all__ = [
    "MAX_TABLE_BYTES",
    "TABLE_SUFFIX",
    "LabelIndex",
    "ModelIdentity",
    "ResultRows",
    "ResultTableRow",
    "TableRead",
    "Unmapped",
    "Value",
    "read_rows",
    "rows_path",
    "source_paths",
    "stray_tables",
]
