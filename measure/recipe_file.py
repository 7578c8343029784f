"""What every recipe file shares: its error type, the typed look-up of one field, and
reading the YAML file (the recipes of peak_memory/, memory_curve/ and hyenadna/ each parse
their own fields with these)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import yaml

T = TypeVar("T")


class RecipeError(ValueError):
    """The recipe file is malformed; the message names the field."""


def require(
    data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str = ""
) -> Any:
    """`data[key]`, which must be a `kind` (a bool is not an int); RecipeError naming
    `where` and `key` otherwise."""
    if not isinstance(data, Mapping) or key not in data:
        raise RecipeError(f"{where}{key}: required")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecipeError(f"{where}{key}: expected {getattr(kind, '__name__', kind)}")
    return value


def read_recipe(path: Path, parse: Callable[[Any], T]) -> T:
    """The recipe in `path`, parsed by `parse`; RecipeError names the file and the field."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise RecipeError(f"{path}: not valid YAML: {error}") from None
    try:
        return parse(data)
    except RecipeError as error:
        raise RecipeError(f"{path}: {error}") from None


__all__ = ["RecipeError", "read_recipe", "require"]
