"""Paths and defaults in one place."""

from __future__ import annotations

import os
from pathlib import Path

RECORDS_DIR = "records"
SCHEMAS_DIR = "schemas"
SITE_DIR = "site"
ARTIFACTS_DIR = "artifacts"
TEMPLATES_DIR = "templates"

REPOSITORY_URL = os.environ.get(
    "REWIRE_REPOSITORY_URL", "https://github.com/rewire-catalogue/rewire"
)
"""Base URL of the repository; 'Suggest a correction' links to records under it."""

DEFAULT_BRANCH = "main"


class NotInProject(Exception):
    """No Rewire project root in the folder given or any folder above it."""

    @classmethod
    def searched(cls, start: Path) -> NotInProject:
        return cls(
            f"not in a Rewire project: neither {start} nor any folder above it holds both "
            f"{RECORDS_DIR}/ and pyproject.toml. Run rewire inside a clone of the catalogue, "
            "or name the project with --root"
        )


def project_root(start: Path | None = None) -> Path | None:
    """The nearest folder from `start` (default: the current folder) upwards that holds
    `records/` and `pyproject.toml`; None when there is none."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / RECORDS_DIR).is_dir() and (folder / "pyproject.toml").is_file():
            return folder
    return None


def find_root(start: Path | None = None) -> Path:
    """The project root every command uses (see `project_root`); `NotInProject` when
    there is none, so no command writes or reads `records/` of an arbitrary folder."""
    found = project_root(start)
    if found is None:
        raise NotInProject.searched((start or Path.cwd()).resolve())
    return found


def resolve_root(explicit: Path | None, start: Path | None = None) -> Path:
    """`--root` when given (it must be a folder), else `find_root(start)`."""
    if explicit is None:
        return find_root(start)
    if not explicit.is_dir():
        raise NotInProject(f"--root {explicit}: no such folder")
    return explicit.resolve()
