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


def find_root(start: Path | None = None) -> Path:
    """The project root: the nearest folder upwards that holds `records/` and
    `pyproject.toml`; the current directory when none does."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / RECORDS_DIR).is_dir() and (folder / "pyproject.toml").is_file():
            return folder
    return here
