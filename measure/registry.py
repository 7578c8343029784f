"""Registry of runnable recipes: `rewire measure list` shows them, `rewire measure run` runs one.

A recipe module registers itself with `register(...)`; `recipes()` imports the known recipe
packages (cheaply: no torch at import time) so that their registrations take effect.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

RECIPE_PACKAGES: tuple[str, ...] = (
    "measure.peak_memory",
    "measure.ia3",
    "measure.memory_curve",
    "measure.hyenadna",
)
"""Packages that register a recipe when imported; a missing one is skipped."""


@dataclass(frozen=True)
class PlanItem:
    """One unit of work (a stage of a model under a setting), with its estimates."""

    key: str
    """Unique within the run; also the name of its log file."""
    description: str
    estimated_gb: float | None = None
    estimated_seconds: float | None = None
    runnable: bool = True
    reason: str | None = None
    """Why the item cannot run (when `runnable` is false)."""


@dataclass(frozen=True)
class RunOptions:
    """What the command line asked for."""

    models: Sequence[str] = ()
    stages: Sequence[str] = ()
    settings: Sequence[str] = ()
    run_id: str | None = None
    runs_dir: Path = Path("runs")
    root: Path = Path()
    dry_run: bool = False
    gpus: Sequence[int] = ()
    time_budget_s: float | None = None
    write_records: bool = True
    command: str = ""
    extra: dict[str, str] = field(default_factory=dict)


class Recipe(ABC):
    """A protocol's runnable recipe."""

    id: str
    protocol_id: str
    title: str

    @abstractmethod
    def plan(self, options: RunOptions) -> list[PlanItem]:
        """What a run with these options would do, with estimated memory and time."""

    @abstractmethod
    def run(self, options: RunOptions) -> int:
        """Run the plan (skipping finished items), write records; the exit status."""


_RECIPES: dict[str, Recipe] = {}


def register(recipe: Recipe) -> Recipe:
    """Register a recipe under its id and its protocol's id."""
    _RECIPES[recipe.id] = recipe
    return recipe


def recipes() -> dict[str, Recipe]:
    """Every registered recipe by id, after importing the known recipe packages."""
    for package in RECIPE_PACKAGES:
        try:
            importlib.import_module(package)
        except ModuleNotFoundError as error:
            if error.name is None or not package.startswith(error.name):
                raise
    return dict(_RECIPES)


def find(name: str) -> Recipe:
    """The recipe whose id or protocol id is `name`."""
    found = recipes()
    for recipe in found.values():
        if name in (recipe.id, recipe.protocol_id):
            return recipe
    known = ", ".join(sorted(r.protocol_id for r in found.values())) or "none"
    raise KeyError(f"no recipe for {name!r}; runnable protocols: {known}")
