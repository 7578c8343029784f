"""Missing metadata is never a blank: the completeness rule.

A field marked reportable (`json_schema_extra={"reportable": True}`, see
`models.common.reportable`) either holds a value or the record's `missing_metadata`
map gives a reason for its exact field path (`comparison.budget`, `results.0.unit`).
Every key of `missing_metadata` must name a reportable field that exists and is null:
a value and a reason at once is an error, and so is a reason for a field that is not
reportable or does not exist (e.g. `results.3.unit` in a record with two results).

Inside a part marked `REASON_DEFAULTED` (a checkpoint's `facts` and `pretraining`) a null
reportable field needs no entry: its reason is derived, "not reported by the cited
sources" (`defaulted`), so a new checkpoint validates with the facts its sources state.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel

from .models.common import REASON_DEFAULTED, REPORTABLE


@dataclass(frozen=True)
class Gap:
    """A breach of the rule: `field` names the field path, or `missing_metadata.<key>`."""

    field: str
    message: str


@dataclass(frozen=True)
class _FieldPlan:
    name: str
    reportable: bool
    nested: bool
    """True when the value may hold models that have reportable fields."""
    defaulted: bool = False
    """True when the reportable fields inside the value need no stated reason."""


def _is_reportable(info: Any) -> bool:
    extra = info.json_schema_extra
    return isinstance(extra, dict) and bool(extra.get(REPORTABLE))


def _is_defaulted(info: Any) -> bool:
    extra = info.json_schema_extra
    return isinstance(extra, dict) and bool(extra.get(REASON_DEFAULTED))


def _model_types(annotation: Any) -> Iterator[type[BaseModel]]:
    """Model classes that can appear in a value of `annotation`."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
        return
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        yield from _model_types(typing.get_args(annotation)[0])
    elif origin in (list, typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            yield from _model_types(arg)


@cache
def _plan(model: type[BaseModel]) -> tuple[_FieldPlan, ...]:
    plans = []
    for name, info in model.model_fields.items():
        if name == "missing_metadata":
            continue
        nested = any(_plan_has_reportable(t) for t in _model_types(info.annotation))
        reportable = _is_reportable(info)
        if reportable or nested:
            plans.append(_FieldPlan(name, reportable, nested, _is_defaulted(info)))
    return tuple(plans)


@cache
def _plan_has_reportable(model: type[BaseModel]) -> bool:
    return bool(_plan(model))


def reportable_fields(record: BaseModel) -> Iterator[tuple[str, bool]]:
    """(field path, is null) for every reportable field of `record` and its parts."""
    found: dict[str, bool] = {}
    _walk(record, "", found, set())
    return iter(found.items())


def defaulted(record: BaseModel) -> frozenset[str]:
    """Paths of the null reportable fields of `record` whose reason is derived (inside a
    `REASON_DEFAULTED` part, with no `missing_metadata` entry): "not reported by the
    cited sources"."""
    found: dict[str, bool] = {}
    optional: set[str] = set()
    _walk(record, "", found, optional)
    missing: dict[str, Any] = getattr(record, "missing_metadata", {})
    return frozenset(p for p in optional if found.get(p) and p not in missing)


def _walk(
    model: BaseModel, prefix: str, found: dict[str, bool], optional: set[str], inside: bool = False
) -> None:
    """Add the reportable fields of `model` to `found` and, inside a `REASON_DEFAULTED`
    part, their paths to `optional` (a plain recursion: nested generators cost a frame
    switch per field and level, on every record validated)."""
    for plan in _plan(type(model)):
        value = getattr(model, plan.name)
        path = prefix + plan.name
        if plan.reportable:
            found[path] = value is None
            if inside:
                optional.add(path)
        if plan.nested and value is not None:
            deeper = inside or plan.defaulted
            if isinstance(value, BaseModel):
                _walk(value, path + ".", found, optional, deeper)
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, BaseModel):
                        _walk(item, f"{path}.{i}.", found, optional, deeper)


def _resolve(record: BaseModel, field_path: str) -> tuple[str, Any]:
    """('reportable'|'plain'|'absent', value) for a dotted field path in `record`."""
    parts = field_path.split(".")
    current: Any = record
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if isinstance(current, BaseModel):
            info = type(current).model_fields.get(part)
            if info is None:
                return "absent", None
            value = getattr(current, part)
            if last:
                return ("reportable" if _is_reportable(info) else "plain"), value
            current = value
        elif isinstance(current, list) and part.isdigit():
            index = int(part)
            if index >= len(current):
                return "absent", None
            current = current[index]
            if last:
                return "plain", current
        else:
            return "absent", None
    return "absent", None  # pragma: no cover - the loop always returns


def check(record: BaseModel) -> list[Gap]:
    """Every breach of the missing-metadata rule in one validated record."""
    missing: dict[str, Any] = getattr(record, "missing_metadata", {})
    fields: dict[str, bool] = {}
    optional: set[str] = set()
    _walk(record, "", fields, optional)
    gaps = [
        Gap(
            path,
            "no value and no reason: give a value, or a `missing_metadata` entry "
            f"for '{path}' with its reason",
        )
        for path, is_null in fields.items()
        if is_null and path not in missing and path not in optional
    ]
    for key in missing:
        if fields.get(key):
            continue  # a reportable field that is null: the reason belongs
        where = f"missing_metadata.{key}"
        status, value = _resolve(record, key)
        if status == "absent":
            gaps.append(Gap(where, f"'{key}' names no field of this record"))
        elif status == "plain":
            gaps.append(
                Gap(where, f"'{key}' cannot be marked missing: it is not a reportable field")
            )
        elif value is not None:
            gaps.append(Gap(where, f"'{key}' has a value and a missing-metadata reason: keep one"))
    return gaps


__all__ = ["Gap", "check", "defaulted", "reportable_fields"]
