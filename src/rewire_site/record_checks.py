"""Per-file checks of parsed YAML: record kind, the Pydantic model, finite numbers,
file name == id, the editor modeline, and the missing-metadata rule (`completeness`).

Pure functions of one file: `check_loaded(LoadedFile) -> FileResult`.
"""

from __future__ import annotations

import os
import re
import types
import typing
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo

from . import completeness, table_rows
from .link import Ref
from .load import LoadedFile, join, line_of, load_file
from .models import RECORD_TYPES, Citation, Evaluation, Origin, RecordBase
from .models.common import CitationRole
from .models.source import FULL_COMMIT, MOVING_REFERENCE, PINNED_KINDS, SHORT_COMMIT, Source
from .problems import Problem, Severity, display_path, shown

KIND_OF = {model: kind for kind, model in RECORD_TYPES.items()}
"""Record class -> kind name."""


def article(kind: str) -> str:
    """'a dataset', 'an evaluation', 'a model family'."""
    words = kind.replace("_", " ")
    return f"{'an' if words[0] in 'aeiou' else 'a'} {words}"


@dataclass
class FileResult:
    """What `check_loaded` found in one file."""

    path: Path
    raw_id: str | None
    raw_kind: str | None
    record: RecordBase | None
    lines: Mapping[str, int]
    problems: list[Problem]
    partial: RecordBase | None = None
    """When the file failed its model: the record built from its valid parts (see
    `partial_record`), so that references and consistency are still checked."""
    replaced: list[str] = field(default_factory=list)
    """Field paths of `partial` that the model rejected: no later problem is reported
    under them."""


_FIELD_PREFIX = re.compile(r"^([a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)*): (.+)$", re.DOTALL)
_KINDS = ", ".join(RECORD_TYPES)


PLACEHOLDER = "required field still to fill"
"""What a required field left null (a `rewire new` placeholder) reads."""


_ABSENT = object()


def _child(value: Any, part: Any) -> Any:
    """`value[part]` for a key of a mapping or an index of a list, else `_ABSENT`."""
    if isinstance(value, dict):
        return value.get(part, _ABSENT)
    if isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
        return value[part]
    return _ABSENT


def _data_path(loc: Iterable[Any], data: Any) -> str:
    """Field path of a Pydantic error location in `data`: parts that name no key or
    index of the data (union members such as `float` or `str`, a tagged union's tag) are
    dropped, so that one field gives one path. A last part that is a missing key of a
    mapping is kept."""
    parts = list(loc)
    kept: list[str] = []
    current = data
    for i, part in enumerate(parts):
        child = _child(current, part)
        if child is not _ABSENT:
            current = child
            kept.append(str(part))
        elif i == len(parts) - 1 and isinstance(current, dict):
            kept.append(str(part))
    return ".".join(kept)


def _required_at(model: type[BaseModel], loc: Iterable[Any]) -> bool:
    """False when `loc` ends at a field that may be left out (it has a default); True for
    a required field, a list item, or a location the models do not describe."""
    current: type[BaseModel] | None = model
    info: FieldInfo | None = None
    for part in loc:
        if current is not None and isinstance(part, str) and part in current.model_fields:
            info = current.model_fields[part]
            nested = _nested_model(info.annotation)
            current = nested[1] if nested is not None else None
        elif isinstance(part, int) or (info is not None and current is not None):
            info = None  # a list item or a mapping's key: it stands where it was written
        else:
            continue  # a union member's name
    return info is None or info.is_required()


_GOT = re.compile(r" \(got .*\)$", re.DOTALL)


def _merge(messages: list[str]) -> list[str]:
    """One message per field: a value that fits no member of a union ('a number or a
    text') reads 'Input should be a valid number or a valid string (got a list)'."""
    if len(messages) < 2 or not all(m.startswith("Input should be ") for m in messages):
        return messages
    got = _GOT.search(messages[0])
    suffix = got[0] if got and all(m.endswith(got[0]) for m in messages) else ""
    parts = [m.removesuffix(suffix) if suffix else m for m in messages]
    merged = " or ".join([parts[0], *(p.removeprefix("Input should be ") for p in parts[1:])])
    return [merged + suffix]


def _describe(
    error: Any, kind: str, data: Any = None, model: type[BaseModel] | None = None
) -> tuple[str, str]:
    """(field path, message) of one Pydantic error."""
    field_path = ".".join(str(part) for part in error["loc"])
    if data is not None:
        field_path = _data_path(error["loc"], data)
    kind_of_error = error["type"]
    message = str(error["msg"]).removeprefix("Value error, ")
    if kind_of_error == "value_error":
        match = _FIELD_PREFIX.match(message)
        if match:  # model validators name their field: "results.0: ..."
            field_path, message = join(field_path, match[1]), match[2]
        return field_path, message
    if "input" in error and error["input"] is None and kind_of_error != "missing":
        if model is None or _required_at(model, error["loc"]):
            return field_path, PLACEHOLDER
        return field_path, "null is not allowed here: give a value, or leave the field out"
    if kind_of_error == "missing":
        return field_path, "required field is missing"
    if kind_of_error == "extra_forbidden":
        return field_path, f"unknown field: {article(kind)} record has no field with this name"
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
        return f"the modeline names schema '{schema}'; {article(kind)} record's schema is {name}"
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
            add("id", f"id {shown(raw_id)} does not match the file name '{path.name}'")
    kind = data.get("kind")
    model = RECORD_TYPES.get(kind) if isinstance(kind, str) else None
    if model is not None and isinstance(kind, str):
        result.raw_kind = kind
    if model is None or not isinstance(kind, str):
        if "kind" not in data:
            add("kind", f"required field is missing; one of: {_KINDS}")
        else:
            add("kind", f"unknown record kind {shown(kind)}; one of: {_KINDS}")
        return result
    modeline = _modeline_problem(path, kind, loaded.schema)
    if modeline:
        problems.append(Problem(path, 1, "", modeline, "warning"))
    reported: set[str] = set()
    try:
        record = model.model_validate(data)
    except ValidationError as error:
        by_field: dict[str, list[str]] = {}
        for item in error.errors(include_url=False):
            field_path, message = _describe(item, kind, data, model)
            messages = by_field.setdefault(field_path, [])
            if message not in messages:
                messages.append(message)
        for field_path, messages in by_field.items():
            reported.add(field_path)
            for message in _merge(messages):
                add(field_path, message)
        record = None
    for field_path in loaded.nonfinite:
        if field_path not in reported:
            add(field_path, "number must be finite (not NaN or infinity)")
    if record is None or loaded.nonfinite:
        replaced = list(loaded.nonfinite)
        partial = record or partial_record(model, data, replaced)
        result.partial, result.replaced = partial, replaced
        for gap in completeness.check(partial):
            if not under(gap.field, replaced):
                add(gap.field, gap.message)
        for field_path, message, severity in consistency(partial):
            if not under(field_path, replaced):
                add(field_path, message, severity)
        return result
    for gap in completeness.check(record):
        add(gap.field, gap.message)
    for field_path, message, severity in consistency(record):
        add(field_path, message, severity)
    result.record = record
    return result


def check_file(path: Path) -> FileResult:
    return check_loaded(load_file(path))


# ---------------------------------------------------------------- consistency


@cache
def _citation_fields(model: type[BaseModel]) -> tuple[tuple[str, bool], ...]:
    """(field, is a Citation itself) for the fields of `model` that can hold a citation."""
    found = []
    for name, info in model.model_fields.items():
        nested = _nested_model(info.annotation)
        if nested is None:
            continue
        inner = nested[1]
        if inner is Citation:
            found.append((name, True))
        elif inner is not model and _citation_fields(inner):
            found.append((name, False))
    return tuple(found)


def citations_in(value: BaseModel, prefix: str = "") -> Iterator[tuple[str, Citation]]:
    """(field path, citation) for every citation in a record, however deep."""
    for name, is_citation in _citation_fields(type(value)):
        held = getattr(value, name, None)
        if held is None:
            continue
        path = prefix + name
        items: Iterable[tuple[str, Any]]
        if isinstance(held, list):
            items = ((f"{path}.{i}", item) for i, item in enumerate(held))
        elif isinstance(held, dict):
            items = ((f"{path}.{key}", item) for key, item in held.items())
        else:
            items = ((path, held),)
        for where, item in items:
            if is_citation and isinstance(item, Citation):
                yield where, item
            elif isinstance(item, BaseModel):
                yield from citations_in(item, where + ".")


def _with_supports(record: BaseModel) -> list[Citation]:
    """The citations of a record that name fields in `supports` (a walk without paths:
    it runs on every record, and most citations support the record as a whole)."""
    found: list[Citation] = []
    stack: list[BaseModel] = [record]
    while stack:
        value = stack.pop()
        for name, is_citation in _citation_fields(type(value)):
            held = getattr(value, name, None)
            if held is None:
                continue
            items = held if type(held) is list else held.values() if type(held) is dict else (held,)
            for item in items:
                if is_citation:
                    if type(item) is Citation and item.supports:
                        found.append(item)
                elif isinstance(item, BaseModel):
                    stack.append(item)
    return found


def names_field(record: BaseModel, field_path: str) -> bool:
    """True when `field_path` names a field of `record` (dotted, list items by index;
    a field that is null still counts, and so does a path into it that its type has)."""
    current: Any = record
    annotation: Any = type(record)
    for part in field_path.split("."):
        if isinstance(current, BaseModel) or current is None:
            model = type(current) if isinstance(current, BaseModel) else None
            if model is None:  # null: follow the type
                nested = _nested_model(annotation)
                if nested is None or nested[0] != "one":
                    return False
                model = nested[1]
            info = model.model_fields.get(part)
            if info is None:
                return False
            annotation = info.annotation
            current = getattr(current, part, None) if current is not None else None
        elif isinstance(current, list):
            if not part.isdigit() or int(part) >= len(current):
                return False
            current = current[int(part)]
            nested = _nested_model(annotation)
            annotation = nested[1] if nested is not None else Any
        elif isinstance(current, dict):
            if part not in current:
                return False
            current = current[part]
            nested = _nested_model(annotation)
            annotation = nested[1] if nested is not None else Any
        else:
            return False
    return True


def _covers(citation: Citation, result_path: str) -> bool:
    """True when a record-level citation supports the result at `result_path`: it names
    the result, a field of it or `results`, or it supports the whole record as original."""
    if not citation.supports:
        return citation.role == CitationRole.original
    return any(
        result_path == s or result_path.startswith(s + ".") or s.startswith(result_path + ".")
        for s in citation.supports
    )


_PIN_HOW = (
    "git rev-parse HEAD in a clone at that state, or press y on the GitHub page for its "
    "permalink; a model hub shows the commit under 'Files and versions'"
)


def _pinning(source: Source) -> Iterator[tuple[str, str, Severity]]:
    """Warnings (errors under --strict) for a source that can move: a file in a git
    repository needs the full 40-hex commit as its revision, and no URL may name a branch."""
    revision = source.revision
    if source.source_kind in PINNED_KINDS and isinstance(revision, str):
        if SHORT_COMMIT.fullmatch(revision):
            yield (
                "revision",
                f"'{revision}' is an abbreviated commit: give all 40 hex digits "
                f"(git rev-parse {revision} in the repository)",
                "warning",
            )
        elif not FULL_COMMIT.fullmatch(revision):
            what = source.source_kind.value.replace("_", " ")
            yield (
                "revision",
                f"{shown(revision)} is not a commit: a {what} changes unless pinned; give "
                f"the full 40-hex commit ({_PIN_HOW})",
                "warning",
            )
    for name in ("url", "retrieval_url"):
        url = getattr(source, name, None)
        moving = MOVING_REFERENCE.search(url) if isinstance(url, str) else None
        if moving:
            branch = moving[0].strip("/").split("/")[1]
            yield (
                name,
                f"the URL names the branch '{branch}', which moves: replace it with the full "
                f"commit the revision names ({_PIN_HOW})",
                "warning",
            )


def consistency(record: RecordBase) -> Iterator[tuple[str, str, Severity]]:
    """(field, message, severity) for what one record says that does not hold together:
    a `supports` path or a concern's `field` that names no field; a published result with
    no citation (errors); a source that is not pinned to a commit (warnings)."""
    if isinstance(record, Source):
        yield from _pinning(record)
    unknown = {
        id(citation)
        for citation in _with_supports(record)
        if not all(isinstance(s, str) and names_field(record, s) for s in citation.supports)
    }
    if unknown:  # rare: walk again for the citations' paths
        for where, citation in citations_in(record):
            if id(citation) not in unknown:
                continue
            for j, supported in enumerate(citation.supports):
                if not names_field(record, supported):
                    yield (
                        f"{where}.supports.{j}",
                        f"{shown(supported)} names no field of this record (supports lists "
                        "field paths such as 'results.0' or 'comparison.adaptation')",
                        "error",
                    )
    for i, concern in enumerate(record.concerns or ()):
        about = getattr(concern, "field", None)
        if isinstance(about, str) and not names_field(record, about):
            yield (
                f"concerns.{i}.field",
                f"{shown(about)} names no field of this record (a field path such as "
                "'results.0' or 'checkpoints.0.facts.layers'; leave it out for the record)",
                "error",
            )
    if isinstance(record, Evaluation) and record.origin not in (None, Origin.rewire_measurement):
        cited = [c for c in record.citations or () if isinstance(c, Citation)]
        for i, result in enumerate(record.results or ()):
            if result.status != "value" or result.citation is not None:
                continue
            if not any(_covers(c, f"results.{i}") for c in cited):
                yield (
                    f"results.{i}.citation",
                    f"a published result ({record.origin}) needs a citation: the source, "
                    "locator and quote of the printed value (or a citation of the record "
                    f"that supports 'results.{i}')",
                    "error",
                )


# ---------------------------------------------------------------- partial records


@cache
def _adapter(owner: type[BaseModel], name: str) -> TypeAdapter[Any]:
    info = owner.model_fields[name]
    annotated: Any = Annotated[info.annotation, info]  # the field's type and constraints
    return TypeAdapter(annotated)


def _nested_model(annotation: Any) -> tuple[str, type[BaseModel]] | None:
    """('one'|'list'|'dict', model) when the field holds a model, a list or a mapping of
    them (optional or not); None for anything else."""
    while typing.get_origin(annotation) in (typing.Union, types.UnionType, typing.Annotated):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if typing.get_origin(annotation) is typing.Annotated:
            args = args[:1]
        if len(args) != 1:
            return None
        annotation = args[0]
    origin = typing.get_origin(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "one", annotation
    args = list(typing.get_args(annotation))
    if origin is list and args and isinstance(args[0], type) and issubclass(args[0], BaseModel):
        return "list", args[0]
    if origin is dict and len(args) == 2:
        value = args[1]
        if isinstance(value, type) and issubclass(value, BaseModel):
            return "dict", value
    return None


def partial_record(model: type[BaseModel], data: Any, replaced: list[str], prefix: str = "") -> Any:
    """A `model` instance built from the parts of `data` that are valid, field by field
    (a field that fails is its default, or None when it has none; model validators do
    not run). Used only for a file that failed its model, so that its references,
    completeness and consistency can still be checked. The paths of the fields that were
    replaced are added to `replaced`: the caller drops any later problem under them (the
    model's own error there says what is wrong)."""
    if not isinstance(data, dict):
        replaced.append(prefix.rstrip("."))
        data = {}
    try:
        return model.model_validate(data)
    except ValidationError:
        pass
    values: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        path = prefix + name
        if name not in data:
            if info.is_required():
                replaced.append(path)
            values[name] = _default(info)
            continue
        raw = data[name]
        nested = _nested_model(info.annotation)
        if nested is not None and raw is not None:
            shape, inner = nested
            if shape == "one" and isinstance(raw, dict):
                mark = len(replaced)
                part = partial_record(inner, raw, replaced, path + ".")
                lost = set(replaced[mark:])
                if any(
                    f"{path}.{n}" in lost for n, f in inner.model_fields.items() if f.is_required()
                ):
                    # a part without one of its required fields is no part: the field
                    # reads as absent (code that walks the record never meets a hole)
                    part = _default(info)
                    replaced.append(path)
                values[name] = part
                continue
            if shape == "list" and isinstance(raw, list):
                values[name] = [
                    partial_record(inner, item, replaced, f"{path}.{i}.")
                    for i, item in enumerate(raw)
                ]
                continue
            if shape == "dict" and isinstance(raw, dict):
                values[name] = {
                    str(key): partial_record(inner, item, replaced, f"{path}.{key}.")
                    for key, item in raw.items()
                }
                continue
        try:
            values[name] = _adapter(model, name).validate_python(raw)
        except ValidationError:
            replaced.append(path)
            values[name] = _default(info)
    return model.model_construct(**values)


def _default(info: FieldInfo) -> Any:
    return None if info.is_required() else info.get_default(call_default_factory=True)


def under(field_path: str, paths: Iterable[str]) -> bool:
    """True when `field_path` is one of `paths` or lies inside one of them."""
    return any(field_path == p or field_path.startswith(p + ".") or not p for p in paths)


__all__ = [
    "KIND_OF",
    "PLACEHOLDER",
    "FileResult",
    "article",
    "check_file",
    "check_loaded",
    "citations_in",
    "consistency",
    "names_field",
    "partial_record",
    "under",
]


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
    partial: dict[str, FileResult] = field(default_factory=dict)
    """Id -> per-file result of records that failed their model but whose id could be
    read: their references and consistency are checked from `FileResult.partial`."""
    unreadable: dict[str, Path] = field(default_factory=dict)
    """File name (without .yaml) -> file, for files validated whose id could not be read
    (a YAML syntax error, no id): a reference to that name is not reported again."""
    unchecked: dict[str, int] = field(default_factory=dict)
    """Id in `unreadable` -> how many references to it were not checked."""
    referrers_unknown: bool = False
    """True when some file could not be read: whether a record is referred to is then
    unknown, so no 'nothing refers to' warning is given."""
    outgoing: dict[str, list[Ref]] = field(default_factory=dict)
    """Record id -> (field, target id, expected kind) of its references, found with the
    per-file checks (while the other process parses) for the link checks to use."""
    orphans_unknown: bool = False
    """True when records with errors kept the check for uncited artifacts from running."""
    result_rows: table_rows.ResultRows = field(default_factory=table_rows.ResultRows)
    """The rows of every result table validated whose rows file has no error."""

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

    def notes(self, cwd: Path | None = None) -> list[str]:
        """What was not checked because of errors above (cascades reported once)."""
        found = []
        for name, count in sorted(self.unchecked.items()):
            path = display_path(self.unreadable[name], cwd)
            found.append(
                f"note: {count} reference(s) to '{name}' not checked: {path} cannot be "
                "read (its error is above; fix it first)"
            )
        if self.referrers_unknown:
            found.append(
                "note: 'nothing refers to this' warnings not given: a file that cannot be "
                "read may refer to any record"
            )
        if self.orphans_unknown:
            found.append(
                "note: artifacts no record cites not looked for: a record with errors may cite them"
            )
        return found


# ---------------------------------------------------------------- files
