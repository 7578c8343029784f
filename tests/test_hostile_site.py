"""Property: hostile strings in every text and URL field of every record kind never
become live on the built site, and never start a formula in a CSV download.

Each example takes the minimal fixture catalogue (every record kind), writes hostile
strings (script tags, attribute breakouts, javascript: and data: URLs, formulas, control
characters, right-to-left marks) into every text field and every URL field of every
record, nested objects and lists included, with `model_copy` (which validates nothing:
the values a model would refuse get through, as if they had slipped past it), builds the
site with the build's own stages, then reads every page with html5lib (tests/live_html.py:
no script but the site's own, no event-handler attribute, no href/src whose scheme is not
http, https or mailto) and every cell of every CSV download.
"""

from __future__ import annotations

import csv
import gzip
import io
import tempfile
import types
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from live_html import build_catalogue, live_parts_of_site
from pydantic import BaseModel
from scenarios import load_scenario, scenario_root

from rewire_site.link import Catalogue
from rewire_site.models import (
    Checkpoint,
    Concern,
    ConcernKind,
    ModelFamily,
    RecordBase,
    Review,
)
from rewire_site.models.common import ReviewStatus, web_url
from rewire_site.render.downloads import FORMULA_STARTS
from rewire_site.table_rows import ModelIdentity, ResultRows, ResultTableRow, Unmapped, Value

HOSTILE_TEXT = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "'><svg onload=alert(1)>",
    "</script><script>alert(document.domain)</script>",
    "javascript:alert(1)",
    "[click](javascript:alert(1))",
    "[x](java&#x09;script:alert(1))",
    "<a href=javascript:alert(1)>x</a>",
    "=cmd|' /C calc'!A0",
    "+1+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
    "\x00\x1b[2J\x07",
    "\u202egnp.exe",
    "{{ 7*7 }}{% raw %}",
    "]]></title><script>alert(1)</script>",
]
HOSTILE_URLS = [
    "javascript:alert(document.domain)",
    " JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "//evil.example/x",
    'https://example.org/"><script>alert(1)</script>',
    "\x01javascript:alert(1)",
]

STRUCTURAL = {
    ("Artifact", "path"),  # a file under artifacts/ the build hashes, not display text
    ("Citation", "supports"),  # field paths of the record: checked by validate
    ("Concern", "field"),  # a field path of the record: checked by validate
}
"""Text fields that name files or other fields rather than hold prose; validate checks
each against what it names, so they are left as they are."""


def _metadata(field: typing.Any) -> Iterator[object]:
    yield from field.metadata
    stack = [field.annotation]
    while stack:
        kind = stack.pop()
        yield from getattr(kind, "__metadata__", ())
        stack.extend(typing.get_args(kind))


def _base_types(annotation: object) -> set[object]:
    found: set[object] = set()
    stack = [annotation]
    while stack:
        kind = stack.pop()
        origin = typing.get_origin(kind)
        if origin is typing.Annotated:
            stack.append(typing.get_args(kind)[0])
        elif origin in (list, typing.Union, types.UnionType):
            stack.extend(typing.get_args(kind))
        else:
            found.add(origin or kind)
    return found


def field_kind(model: type[BaseModel], name: str) -> str | None:
    """'url' for a URL field, 'text' for a free-text field (a str without a pattern),
    None for anything else (ids, hashes, dates, enums, numbers, nested objects)."""
    field = model.model_fields[name]
    metadata = list(_metadata(field))
    if any(getattr(m, "func", None) is web_url for m in metadata):
        return "url"
    if (model.__name__, name) in STRUCTURAL:
        return None
    if _base_types(field.annotation) - {type(None)} != {str}:
        return None
    if any(getattr(m, "pattern", None) or hasattr(m, "func") for m in metadata):
        return None  # a slug, hash, partial date...
    return "text"


class Hostile:
    """Hands out the hostile strings of one example in turn, and counts the fields."""

    def __init__(self, texts: list[str], urls: list[str]) -> None:
        self.texts, self.urls = texts, urls
        self.filled: set[tuple[str, str]] = set()
        self._n = 0

    def next(self, kind: str) -> str:
        pool = self.urls if kind == "url" else self.texts
        self._n += 1
        return pool[self._n % len(pool)]


def hostile_copy(value: typing.Any, hostile: Hostile) -> typing.Any:
    """`value` with every text and URL field (set or not) replaced by hostile strings."""
    if isinstance(value, list):
        return [hostile_copy(v, hostile) for v in value]
    if not isinstance(value, BaseModel):
        return value
    model = type(value)
    update: dict[str, object] = {}
    for name in model.model_fields:
        current = getattr(value, name)
        kind = field_kind(model, name)
        if kind is None:
            if isinstance(current, (BaseModel, list)):
                update[name] = hostile_copy(current, hostile)
            continue
        hostile.filled.add((model.__name__, name))
        if isinstance(current, list):
            update[name] = [hostile.next(kind) for _ in range(max(len(current), 2))]
        else:
            update[name] = hostile.next(kind)
    return value.model_copy(update=update)


def _with_every_kind_of_field(catalogue: Catalogue) -> list[RecordBase]:
    """The records with a review and a concern on each and a checkpoint on each family,
    so that the URL and text fields of those nested objects are filled too."""
    records: list[RecordBase] = []
    review = Review(status=ReviewStatus.unreviewed, reviewer="r")
    concern = Concern(id="c", kind=ConcernKind.other, text="x", excludes_from_comparisons=False)
    for record in catalogue.by_id.values():
        update: dict[str, object] = {"review": record.review or review}
        if not record.concerns:
            update["concerns"] = [concern]
        if isinstance(record, ModelFamily):
            update["checkpoints"] = [*record.checkpoints, Checkpoint(name="fx/one")]
        records.append(record.model_copy(update=update))
    return records


def hostile_rows(texts: list[str]) -> ResultRows:
    """Rows of the result table `rt-table` whose labels, settings, printed values and
    locators are the hostile strings (a row that slipped past the CSV checks), some
    mapped to the scenario's records, and every label listed as unmapped too."""
    n = len(texts)
    rows = tuple(
        ResultTableRow(
            "rt-table",
            i + 2,
            texts[i % n],
            texts[(i + 1) % n],
            (texts[(i + 2) % n],),
            (Value(0.5, texts[(i + 3) % n]), None),
            texts[(i + 4) % n],
            "rt-task-h3" if i % 2 else None,
            ModelIdentity("rt-family", texts[i % n] if i % 3 else None) if i % 2 else None,
        )
        for i in range(max(n, 4))
    )
    unmapped = Unmapped(tuple(sorted(set(texts))), tuple(sorted(set(texts))))
    return ResultRows({"rt-table": rows}, {"rt-table": unmapped})


def hostile_catalogue(texts: list[str], urls: list[str]) -> tuple[Catalogue, Hostile]:
    hostile = Hostile(texts, urls)
    base = _with_every_kind_of_field(load_scenario("minimal"))
    tables = _with_every_kind_of_field(load_scenario("result_tables"))
    records = [hostile_copy(r, hostile) for r in (*base, *tables)]
    return Catalogue.from_records(records, hostile_rows(texts)), hostile


def formula_cells(site: Path) -> list[tuple[str, str]]:
    """(file, cell) for each cell of each CSV download that a spreadsheet would read
    as a formula: it starts with = + - @, tab or CR and is not a number."""
    found = []
    for path in sorted((site / "downloads").rglob("*.csv*")):
        data = path.read_bytes()
        text = (gzip.decompress(data) if path.suffix == ".gz" else data).decode("utf-8")
        for row in csv.reader(io.StringIO(text, newline="")):
            for cell in row:
                if cell.startswith(FORMULA_STARTS):
                    try:
                        float(cell)
                    except ValueError:
                        found.append((path.name, cell))
    return found


def test_every_text_and_url_field_of_every_record_kind_is_filled() -> None:
    catalogue, hostile = hostile_catalogue(HOSTILE_TEXT, HOSTILE_URLS)
    assert {
        ("Source", "url"),
        ("Source", "repository"),
        ("Source", "retrieval_url"),
        ("Review", "retrieval_url"),
        ("Checkpoint", "url"),
        ("Source", "title"),
        ("Evaluation", "title"),
        ("Protocol", "summary"),
        ("Dataset", "description"),
        ("Question", "title"),
        ("Configuration", "title"),
        ("ModelFamily", "name"),
        ("Citation", "locator"),
        ("Result", "printed_value"),
        ("Concern", "text"),
        ("SourceLabel", "label"),
        ("MetricColumn", "label"),
        ("SettingColumn", "name"),
    } <= hostile.filled
    kinds = {type(r).__name__ for r in catalogue.by_id.values()}
    assert kinds == {
        "Source", "Protocol", "Dataset", "ModelFamily", "Configuration", "Evaluation",
        "Question", "ResultTable",
    }  # fmt: skip
    assert len(hostile.filled) > 60


@pytest.mark.slow
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    texts=st.lists(
        st.builds(
            lambda a, b, c: a + b + c,
            st.sampled_from(HOSTILE_TEXT),
            st.text(max_size=8),
            st.sampled_from(["", *HOSTILE_TEXT]),
        ),
        min_size=3,
        max_size=12,
    ),
    urls=st.lists(st.sampled_from(HOSTILE_URLS), min_size=1, max_size=6),
)
def test_hostile_strings_in_every_field_are_never_live(texts: list[str], urls: list[str]) -> None:
    catalogue, _ = hostile_catalogue(texts, urls)
    with tempfile.TemporaryDirectory(prefix="rewire-hostile-") as folder:
        site = build_catalogue(catalogue, scenario_root("minimal"), Path(folder) / "site")
        assert live_parts_of_site(site) == {}
        assert formula_cells(site) == []
