"""Per-file checks of parsed YAML: record kind, the Pydantic model, finite numbers,
file name == id, the editor modeline, and the missing-metadata rule (`completeness`).

Pure functions of one file: `check_loaded(LoadedFile) -> FileResult`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from . import completeness
from .load import LoadedFile, join, line_of, load_file
from .models import RECORD_TYPES, RecordBase
from .problems import Problem, Severity

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


__all__ = ["KIND_OF", "FileResult", "article", "check_file", "check_loaded"]
