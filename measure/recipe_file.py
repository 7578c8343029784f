"""What every recipe file shares: its error type, the typed look-up of one field, reading
the YAML file (the recipes of peak_memory/, memory_curve/ and hyenadna/ each parse their
own fields with these), and a model a recipe builds from its architecture (`RecipeModel`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml

from measure.architectures.registry import get_architecture
from measure.architectures.spec import Architecture

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


@dataclass(frozen=True)
class RecipeModel:
    """A model a recipe builds from its architecture (`key`, in measure/architectures) and
    the catalogue family its records name; each recipe adds its own fields."""

    key: str
    family: str

    @property
    def architecture(self) -> Architecture:
        return get_architecture(self.key)


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


__all__ = ["RecipeError", "RecipeModel", "read_recipe", "require"]
