"""The contract between page contexts and templates (as datasette checks its own).

The golden fixture site is built with an environment that records every attribute a
template reads (`{{ page.x.y }}` compiles to `environment.getattr(obj, "y")`). Then:

1. every attribute read on one of Rewire's context dataclasses is a field or a property
   of that class (a typo, or a field renamed in Python but not in the template, fails
   here even on a branch the golden pages render empty);
2. every such field has a description: a docstring under the field, or the property's
   docstring. Fields that had none when this test was written are listed in
   `tests/render_contract_undocumented.txt` (a ratchet: the list may only shrink; a new
   field without a description fails). `REWIRE_UPDATE_CONTRACT=1 pytest
   tests/test_render_contract.py` rewrites the list after fields were documented;
3. templates read no raw record model (Pydantic): a context field belongs in its place.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import os
import textwrap
from collections import Counter
from collections.abc import Iterator
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from rewire_site.render import environment

HERE = Path(__file__).resolve().parent
FIXTURE_ROOT = HERE / "fixtures" / "golden"
BASELINE = HERE / "render_contract_undocumented.txt"
UPDATE = os.environ.get("REWIRE_UPDATE_CONTRACT") == "1"

RAW_MODEL_READS: frozenset[tuple[str, str]] = frozenset()
"""(model, attribute) reads of raw records that templates may make: none (issue 13 moved
the last ones, protocol recipe and source URL, into context fields)."""


@pytest.fixture(scope="module")
def reads(tmp_path_factory: pytest.TempPathFactory) -> Counter[tuple[type, str]]:
    """(type, attribute) of every attribute read while the golden site renders."""
    from rewire_site.build import build_site

    seen: Counter[tuple[type, str]] = Counter()
    make = environment.make_environment

    def recording(template_root: Path) -> Any:
        env = make(template_root)
        read = env.getattr

        def getattr_recorded(obj: Any, attribute: str) -> Any:
            seen[(type(obj), attribute)] += 1
            return read(obj, attribute)

        env.getattr = getattr_recorded  # type: ignore[method-assign]
        return env

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(environment, "make_environment", recording)
        out = tmp_path_factory.mktemp("contract") / "site"
        build_site(FIXTURE_ROOT, out, release_date=date(2026, 2, 10), workers=1)
    assert seen, "no attribute reads recorded: the hook no longer sees the templates"
    return seen


def _is_context(cls: type) -> bool:
    return dataclasses.is_dataclass(cls) and cls.__module__.startswith("rewire_site")


@cache
def field_descriptions(cls: type) -> dict[str, bool]:
    """Field name -> whether a docstring follows it, over the class and its bases."""
    found: dict[str, bool] = {}
    for klass in reversed(cls.__mro__):
        if not klass.__module__.startswith("rewire_site"):
            continue
        source = textwrap.dedent(inspect.getsource(klass))
        body = ast.parse(source).body[0]
        assert isinstance(body, ast.ClassDef)
        items = body.body
        for item, after in zip(items, [*items[1:], None], strict=True):
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                found[item.target.id] = (
                    isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)
                    and bool(after.value.value.strip())
                )
    return found


def context_reads(reads: Counter[tuple[type, str]]) -> Iterator[tuple[type, str]]:
    for cls, attribute in sorted(reads, key=lambda r: (r[0].__name__, r[1])):
        if _is_context(cls):
            yield cls, attribute


def test_templates_read_only_fields_of_their_contexts(
    reads: Counter[tuple[type, str]],
) -> None:
    unknown = []
    for cls, attribute in context_reads(reads):
        if attribute in field_descriptions(cls):
            continue
        if isinstance(inspect.getattr_static(cls, attribute, None), property):
            continue
        unknown.append(f"{cls.__module__}.{cls.__name__}.{attribute}")
    assert not unknown, "templates read attributes that are no context field:\n" + "\n".join(
        unknown
    )


def undocumented(reads: Counter[tuple[type, str]]) -> set[str]:
    missing = set()
    for cls, attribute in context_reads(reads):
        described = field_descriptions(cls).get(attribute)
        if described is None:
            prop = inspect.getattr_static(cls, attribute, None)
            described = isinstance(prop, property) and bool((prop.__doc__ or "").strip())
        if not described:
            missing.add(f"{cls.__name__}.{attribute}")
    return missing


def test_every_field_a_template_reads_is_described(reads: Counter[tuple[type, str]]) -> None:
    now = undocumented(reads)
    if UPDATE:
        BASELINE.write_text(
            "# Context fields templates read that have no description yet (issue 13: this\n"
            "# list may only shrink). Regenerate: REWIRE_UPDATE_CONTRACT=1 pytest "
            "tests/test_render_contract.py\n" + "".join(f"{name}\n" for name in sorted(now))
        )
        pytest.skip(f"rewrote {BASELINE.name}: {len(now)} fields without a description")
    known = {
        line.strip()
        for line in BASELINE.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    new = sorted(now - known)
    assert not new, (
        "context fields without a description (add a docstring under the field):\n" + "\n".join(new)
    )


def test_templates_read_no_new_raw_record_model(reads: Counter[tuple[type, str]]) -> None:
    raw = {
        (cls.__name__, attribute)
        for cls, attribute in reads
        if isinstance(cls, type) and issubclass(cls, BaseModel)
    }
    new = sorted(raw - RAW_MODEL_READS)
    assert not new, (
        "templates read raw record models; give the context a field instead: "
        + ", ".join(f"{model}.{attribute}" for model, attribute in new)
    )
