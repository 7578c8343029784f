"""Technical metadata: every field of a record as label and display text.

The "Technical metadata and extraction receipts" section of each page lists every field a
record holds, including missing-metadata reasons and the review, in model field order.
A field left empty because `missing_metadata` gives a reason reads "Not reported" with the
reason; an optional field that is simply absent is left out. Its view classes
(`MetaItem`, `MetaValue`) live here, beside the one builder that makes them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from ..link import REFERENCES
from ..models import RecordBase
from .present.fields import field_text
from .present.flags import FLAG_LABELS
from .present.missing import missing_text
from .present.numbers import NOT_REPORTED
from .urls import kind_of, record_path

SHOWN_ELSEWHERE = frozenset({"id", "kind", "title", "summary"})
"""Fields every page shows in its heading (the stable id is shown on its own line)."""

FACTS_SHOWN_ABOVE = "shown in the table 'Model facts by checkpoint' above"

NEVER_SHOWN = frozenset({"editor_notes"})
"""Fields for editors only (how a record was transcribed or reviewed): no page shows
them; tests/test_pages.py checks that no page contains their text."""


@dataclass(frozen=True)
class MetaValue:
    """One displayed value; `href` (relative to the site root) when it names a record."""

    text: str
    href: str | None = None


@dataclass(frozen=True)
class MetaItem:
    """One field: its label and one or more values (a list field gives several)."""

    label: str
    values: tuple[MetaValue, ...]


LABELS = {"family": "model family", "sha256": "SHA-256", "url": "URL"}


@cache
def label(name: str) -> str:
    """Field name as a reader sees it: 'source_locator' -> 'source locator'."""
    return LABELS.get(name, name.replace("_", " "))


def _scalar(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _empty(value: object) -> bool:
    return value is None or (isinstance(value, list | dict | tuple) and not value)


def missing_notes(record: RecordBase) -> dict[str, str]:
    """Field path -> 'Not reported by the source: <the editor's note>', for each path
    `missing_metadata` explains (every reason in reader words, never its code name):
    made once per record, read by the missing field and by the list of reasons."""
    notes = {}
    for path in record.missing_metadata:
        text = missing_text(record, path)
        notes[path] = text.long_label + (f". {text.note}" if text.note else "")
    return notes


PATH_KEYS = frozenset({"field", "supports"})
"""Keys whose values are field paths of the record ('results.0'): shown in reader words."""


def _reader_scalar(key: str, value: str, path: str) -> str:
    """A nested string as a reader reads it: a field path in words ('result 1'), a
    concern's kind by its label."""
    if key in PATH_KEYS:
        return field_text(value)
    if key == "kind" and path.startswith("concerns."):
        return FLAG_LABELS.get(value, "Evidence concern")
    return value


def format_value(value: object, notes: Mapping[str, str], path: str) -> str:
    """A value as one line of text: nested fields as 'key: value; ...'. `value` is as
    `model_dump(mode="json")` gives it (dates and times already ISO 8601, 'Z' for UTC);
    `notes`: the record's `missing_notes`."""
    if isinstance(value, str):  # most values: the fast path
        return value
    if value is None:
        return notes.get(path) or NOT_REPORTED
    if isinstance(value, dict):
        parts = []
        for key, inner in value.items():
            if isinstance(inner, str):  # never empty in the sense of `_empty`
                parts.append(f"{label(key)}: {_reader_scalar(key, inner, path)}")
                continue
            sub = f"{path}.{key}"
            if _empty(inner) and sub not in notes:
                continue
            if key in PATH_KEYS and isinstance(inner, list):
                inner = [field_text(v) if isinstance(v, str) else v for v in inner]
            parts.append(f"{label(key)}: {format_value(inner, notes, sub)}")
        return "; ".join(parts)
    if isinstance(value, list):
        return "; ".join(format_value(v, notes, f"{path}.{i}") for i, v in enumerate(value))
    return _scalar(value)


def _reference_text(record_id: str, title_of: Callable[[str], str | None] | None) -> str:
    title = title_of(record_id) if title_of is not None else None
    return f"{title} ({record_id})" if title else record_id


@cache
def _reference_kinds(kind: str) -> dict[str, str]:
    return {attr.removesuffix("[]"): target for attr, target in REFERENCES[kind]}


DICT_FIELDS = frozenset({"missing_metadata", "settings"})
"""Maps whose keys are data (field paths, setting names): one line per key, sorted."""

LAST_FIELDS = ("citations", "limitations", "added", "missing_metadata", "review")
"""Common fields shown after the kind's own fields, as the seed pages order them."""


def field_order(record: RecordBase) -> list[str]:
    """Field names: areas and contexts, the kind's own fields, then the common tail."""
    return list(_field_order(type(record)))


@cache
def _field_order(model: type[RecordBase]) -> tuple[str, ...]:
    names = [n for n in model.model_fields if n not in SHOWN_ELSEWHERE | NEVER_SHOWN]
    head = [n for n in names if n not in LAST_FIELDS]
    return (*head, *(n for n in LAST_FIELDS if n in names))


def technical_metadata(
    record: RecordBase, title_of: Callable[[str], str | None] | None = None
) -> tuple[MetaItem, ...]:
    """Every field of `record` except those in its heading, in model field order. A field
    that names another record shows its title (from `title_of`) and its id, linked."""
    kind = kind_of(record)
    refs = _reference_kinds(kind)
    items: list[MetaItem] = []
    data = record.model_dump(mode="json")
    notes = missing_notes(record)
    if kind == "model_family":  # the facts have their own table on the family page
        for checkpoint in data.get("checkpoints") or []:
            if checkpoint.get("facts"):
                checkpoint["facts"] = FACTS_SHOWN_ABOVE
    for name in _field_order(type(record)):
        value = data[name]
        if type(value) is str:  # most fields: one line of text, never empty
            if name not in refs:
                items.append(MetaItem(label(name), (MetaValue(value),)))
                continue
        elif _empty(value) and name not in notes:
            continue
        if name in refs and value is not None:
            ids = value if isinstance(value, list) else [value]
            values = tuple(
                MetaValue(_reference_text(i, title_of), record_path(refs[name], i)) for i in ids
            )
        elif isinstance(value, list) and value:
            values = tuple(
                MetaValue(format_value(v, notes, f"{name}.{i}")) for i, v in enumerate(value)
            )
        elif name == "missing_metadata" and value:
            values = tuple(MetaValue(f"{field_text(key)}: {notes[key]}") for key in sorted(value))
        elif isinstance(value, dict) and value and name in DICT_FIELDS:
            values = tuple(
                MetaValue(f"{key}: {format_value(inner, notes, f'{name}.{key}')}")
                for key, inner in sorted(value.items())
            )
        else:
            values = (MetaValue(format_value(value, notes, name)),)
        items.append(MetaItem(label(name), values))
    return tuple(items)
