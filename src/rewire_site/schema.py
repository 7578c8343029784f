"""JSON Schemas of the record kinds, exported from the Pydantic models.

One file per kind, `schemas/<kind>.schema.json`, for editors (each record's first line
is a `yaml-language-server` modeline naming its schema) and for CI, which fails when the
committed files differ from what the models export (`rewire schema --check`).
Output is deterministic: sorted keys, two-space indent, a trailing newline.
Dates and datetimes are strings with `"format": "date"` / `"date-time"`, as YAML
editors read them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .config import SCHEMAS_DIR
from .models import RECORD_TYPES

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schema_of(kind: str) -> dict[str, Any]:
    """The JSON Schema of one record kind (validation mode: what an editor writes)."""
    schema = RECORD_TYPES[kind].model_json_schema(mode="validation")
    schema["$schema"] = DIALECT
    schema["$id"] = f"{kind}.schema.json"
    return schema


def schema_text(kind: str) -> str:
    return json.dumps(schema_of(kind), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def schema_path(root: Path, kind: str) -> Path:
    return root / SCHEMAS_DIR / f"{kind}.schema.json"


def expected_schemas(root: Path) -> dict[Path, str]:
    """Every schema file and the text it must hold."""
    return {schema_path(root, kind): schema_text(kind) for kind in RECORD_TYPES}


def write_schemas(root: Path) -> list[Path]:
    """Write every schema whose text changed; return the paths written."""
    written = []
    for path, text in expected_schemas(root).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def check_schemas(root: Path) -> list[str]:
    """One line per stale, missing or unexpected schema file; empty when up to date."""
    expected = expected_schemas(root)
    stale = []
    for path, text in expected.items():
        if not path.is_file():
            stale.append(f"{path}: missing")
        elif path.read_text(encoding="utf-8") != text:
            stale.append(f"{path}: differs from the models")
    folder = root / SCHEMAS_DIR
    if folder.is_dir():
        for path in sorted(folder.glob("*.schema.json")):
            if path not in expected:
                stale.append(f"{path}: no record kind has this schema")
    return stale


__all__ = ["check_schemas", "expected_schemas", "schema_of", "schema_text", "write_schemas"]
