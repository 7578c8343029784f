"""schema: JSON Schemas are current, and every record passes them and Pydantic."""

from __future__ import annotations

import json
import re
import shutil
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator, FormatChecker

from rewire_site.models import RECORD_ADAPTER, RECORD_TYPES
from rewire_site.schema import check_schemas, schema_text, write_schemas

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"


def as_json(value: Any) -> Any:
    """PyYAML reads timestamps as dates and datetimes; JSON Schema sees strings."""
    if isinstance(value, dict):
        return {key: as_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_json(item) for item in value]
    if isinstance(value, date | datetime):
        return value.isoformat()
    return value


def record_files() -> list[Path]:
    files = sorted((REPO / "records").glob("*.yaml"))
    return files + sorted((FIXTURES / "minimal" / "records").glob("*.yaml"))


FORMATS = FormatChecker()
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


@FORMATS.checks("date-time", raises=ValueError)
def _date_time(value: object) -> bool:
    """RFC 3339 date-time (jsonschema checks it only with an optional package)."""
    if not isinstance(value, str):
        return True
    if not RFC3339.match(value):
        raise ValueError(f"{value!r} is not an RFC 3339 date-time with an offset")
    datetime.fromisoformat(value.replace("z", "Z"))
    return True


@cache  # one per kind: checking the schema and building its validator cost ~90 ms each
def validator(kind: str) -> Draft202012Validator:
    schema = json.loads((REPO / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=FORMATS)


def test_committed_schemas_are_current() -> None:
    stale = check_schemas(REPO)
    assert stale == [], "schemas/ is stale: run `rewire schema`\n" + "\n".join(stale)


def test_schema_text_is_deterministic_and_ends_with_a_newline() -> None:
    for kind in RECORD_TYPES:
        text = schema_text(kind)
        assert text == schema_text(kind)
        assert text.endswith("}\n")
        assert json.loads(text)["$id"] == f"{kind}.schema.json"


def test_check_finds_stale_missing_and_unexpected_files(tmp_path: Path) -> None:
    assert len(write_schemas(tmp_path)) == len(RECORD_TYPES)
    assert write_schemas(tmp_path) == []
    assert check_schemas(tmp_path) == []
    folder = tmp_path / "schemas"
    (folder / "source.schema.json").write_text("{}\n", encoding="utf-8")
    (folder / "question.schema.json").unlink()
    (folder / "gadget.schema.json").write_text("{}\n", encoding="utf-8")
    stale = check_schemas(tmp_path)
    assert len(stale) == 3
    assert any("source.schema.json: differs" in line for line in stale)
    assert any("question.schema.json: missing" in line for line in stale)
    assert any("gadget.schema.json: no record kind" in line for line in stale)


def test_records_exist_or_skip() -> None:
    if not list((REPO / "records").glob("*.yaml")):
        pytest.skip("records/ is empty")
    assert record_files()


SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader when PyYAML has it: yaml.safe_load's values, ~6 times faster."""


@pytest.mark.parametrize("path", record_files(), ids=lambda p: p.name)
def test_record_passes_json_schema_and_pydantic(path: Path) -> None:
    data = as_json(yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER))
    kind = data["kind"]
    errors = [
        f"{'.'.join(str(p) for p in error.absolute_path)}: {error.message}"
        for error in validator(kind).iter_errors(data)
    ]
    assert errors == []
    assert RECORD_ADAPTER.validate_python(data).id == path.stem


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("published", "2026-13-01"),
        ("retrieved_at", "yesterday"),
        ("sha256", "ABC"),
        ("id", "Not A Slug"),
        ("colour", "blue"),
    ],
)
def test_json_schema_rejects_what_pydantic_rejects(field: str, value: str) -> None:
    path = FIXTURES / "minimal" / "records" / "fx-source.yaml"
    data = as_json(yaml.safe_load(path.read_text(encoding="utf-8")))
    data[field] = value
    assert list(validator("source").iter_errors(data))
    with pytest.raises(ValueError):
        RECORD_ADAPTER.validate_python(data)


def test_rewire_schema_check_command(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = Path(sys.executable).with_name("rewire")
    command = str(script) if script.is_file() else shutil.which("rewire")
    assert command
    stale = subprocess.run(
        [command, "schema", "--check", "--root", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert stale.returncode == 1
    assert "stale" in stale.stdout
    written = subprocess.run(
        [command, "schema", "--root", str(tmp_path)], capture_output=True, text=True, check=False
    )
    assert written.returncode == 0
    fresh = subprocess.run(
        [command, "schema", "--check", "--root", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert fresh.returncode == 0, fresh.stdout
