"""URL fields of records: an allow-list of schemes (https, http) checked by the models, so
`rewire validate` refuses a javascript:, data:, vbscript: or file: link, a scheme-relative
//host and a scheme hidden by whitespace or control characters (the CLI cases are in
tests/bad_records/url-scheme)."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel, ValidationError

from rewire_site.models import RECORD_TYPES, Checkpoint, Review, Source
from rewire_site.models.common import web_url

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "minimal" / "records"

HOSTILE = [
    "javascript:alert(document.domain)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "java\x00script:alert(1)",
    "\x01javascript:alert(1)",
    "javascript\u200b:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "DATA:text/html;base64,PHNjcmlwdD4=",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "//evil.example/x",
    "/\\evil.example",
    "https:\\\\evil.example",
    "https:evil.example",
    "https://",
    "ftp://example.org/x",
    "records/x.yaml",
    "https://example.org/\u202egpj.exe",
    "https://exa mple.org",
]


@pytest.mark.parametrize("value", HOSTILE)
def test_a_hostile_url_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="is not a web address"):
        web_url(value.strip())


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        ("https://example.org/paper.pdf", "https://example.org/paper.pdf"),
        ("http://example.org", "http://example.org"),
        ("HTTPS://Example.org/a?b=c#d", "HTTPS://Example.org/a?b=c#d"),
        ("10.1101/2023.01.11.523679", "https://doi.org/10.1101/2023.01.11.523679"),
        ("doi:10.1038/s41592-024-02523-z", "https://doi.org/10.1038/s41592-024-02523-z"),
        ("arXiv:2306.15794", "https://arxiv.org/abs/2306.15794"),
        ("arxiv:2306.15794v2", "https://arxiv.org/abs/2306.15794v2"),
    ],
)
def test_a_web_address_is_kept_and_a_doi_or_arxiv_id_becomes_one(value: str, kept: str) -> None:
    assert web_url(value) == kept


def _models(model: type[BaseModel], seen: set[type[BaseModel]]) -> Iterator[type[BaseModel]]:
    if model in seen:
        return
    seen.add(model)
    yield model
    for field in model.model_fields.values():
        stack: list[object] = [field.annotation]
        while stack:
            kind = stack.pop()
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                yield from _models(kind, seen)
            stack.extend(typing.get_args(kind))


def url_fields() -> list[tuple[str, str, bool]]:
    """(model, field, checked) for every field of every record kind (nested objects
    included) whose name says it holds a URL or a repository address."""
    found = []
    seen: set[type[BaseModel]] = set()
    for record_type in RECORD_TYPES.values():
        for model in _models(record_type, seen):
            for name, field in model.model_fields.items():
                if "url" in name or name == "repository":
                    checked = any(
                        getattr(m, "func", None) is web_url for m in _metadata(field.annotation)
                    ) or any(getattr(m, "func", None) is web_url for m in field.metadata)
                    found.append((model.__name__, name, checked))
    return found


def _metadata(annotation: object) -> Iterator[object]:
    stack = [annotation]
    while stack:
        kind = stack.pop()
        yield from getattr(kind, "__metadata__", ())
        stack.extend(typing.get_args(kind))


def test_every_url_field_of_every_record_kind_checks_its_scheme() -> None:
    fields = url_fields()
    names = {(model, name) for model, name, _ in fields}
    assert {
        ("Source", "url"),
        ("Source", "repository"),
        ("Source", "retrieval_url"),
        ("Review", "retrieval_url"),
        ("Checkpoint", "url"),
    } <= names
    assert [(m, n) for m, n, checked in fields if not checked] == []


@pytest.mark.parametrize(
    ("model", "field", "base"),
    [
        (Checkpoint, "url", {"name": "x"}),
        (Review, "retrieval_url", {"status": "unreviewed", "reviewer": "x"}),
    ],
)
@pytest.mark.parametrize("value", ["javascript:alert(1)", " JaVaScRiPt:alert(1)", "java\tscript:x"])
def test_the_model_refuses_a_hostile_url_naming_the_field(
    model: type[BaseModel], field: str, base: dict[str, object], value: str
) -> None:
    with pytest.raises(ValidationError) as error:
        model.model_validate({**base, field: value})
    (problem,) = error.value.errors()
    assert problem["loc"] == (field,)
    assert "is not a web address" in problem["msg"]


def test_a_source_url_given_as_a_doi_is_stored_as_its_address() -> None:
    data = yaml.safe_load((FIXTURE / "fx-source.yaml").read_text(encoding="utf-8"))
    data["url"] = "10.1101/2023.01.11.523679"
    assert Source.model_validate(data).url == "https://doi.org/10.1101/2023.01.11.523679"
    data["url"] = "javascript:alert(1)"
    with pytest.raises(ValidationError, match="is not a web address"):
        Source.model_validate(data)
