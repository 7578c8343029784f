"""record_checks: one message per field, a record rebuilt from its valid parts, field
paths that `supports` may name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from rewire_site.load import parse_text
from rewire_site.models import Evaluation, ModelFamily
from rewire_site.record_checks import PLACEHOLDER, check_loaded, names_field, partial_record

FIXTURE = Path(__file__).parent / "fixtures" / "minimal" / "records"


def _fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((FIXTURE / f"{name}.yaml").read_text(encoding="utf-8"))
    return data


def _problems(text: str, name: str) -> list[tuple[str, str]]:
    """Errors about the field `layers` (the other facts have no value and no reason)."""
    result = check_loaded(parse_text(text, Path(f"{name}.yaml")))
    return [
        (p.field, p.message)
        for p in result.problems
        if p.severity == "error" and p.field.startswith("checkpoints.0.facts.layers")
    ]


FAMILY = """id: fam
kind: model_family
title: A family
summary: One checkpoint.
name: Fam
developers: [Lab]
architecture: transformer
tokenisation: k-mer
checkpoints:
  - name: fam-small
    facts:
      layers:
        value: [12]
        unit: layer
        citation: {source: src, locator: config.json, quote: '"num_hidden_layers": 12'}
"""


def test_a_value_that_fits_no_member_of_a_union_is_one_message() -> None:
    problems = _problems(FAMILY, "fam")
    assert problems == [
        (
            "checkpoints.0.facts.layers.value",
            "Input should be a valid number or a valid string (got a list)",
        )
    ]


def test_a_placeholder_in_a_union_field_is_named_once() -> None:
    problems = _problems(FAMILY.replace("value: [12]", "value: null"), "fam")
    assert problems == [("checkpoints.0.facts.layers.value", PLACEHOLDER)]


def test_a_partial_record_keeps_the_valid_parts_and_names_the_rest() -> None:
    data = _fixture("fx-eval")
    data["version"] = ["not", "text"]
    data["results"][0]["column"] = "Not_A_Slug"
    data["comparison"] = "flat"
    replaced: list[str] = []
    record = partial_record(Evaluation, data, replaced)
    assert isinstance(record, Evaluation)
    assert record.protocol == "fx-protocol" and record.version is None
    assert record.results[0].column is None and record.results[0].value == 33.1
    assert record.results[0].citation is not None
    assert record.results[0].citation.source == "fx-source"
    assert set(replaced) == {"version", "results.0.column", "comparison"}


def test_a_part_without_a_required_field_reads_as_absent() -> None:
    """A mapping that lost a required field is dropped whole (its field is replaced), so
    code that walks the record never meets a half-built part."""
    data = _fixture("fx-family")
    data["checkpoints"] = [{"name": "c", "facts": {"layers": {"value": 3, "unit": "layer"}}}]
    replaced: list[str] = []
    record = partial_record(ModelFamily, data, replaced)
    facts = record.checkpoints[0].facts
    assert facts is not None and facts.layers is None
    assert "checkpoints.0.facts.layers" in replaced


def test_names_field_follows_the_models_and_the_data() -> None:
    data = _fixture("fx-eval")
    record = Evaluation.model_validate(data)
    for path in ("results.0", "results.0.unit", "comparison.budget", "run_conditions.seeds"):
        assert names_field(record, path), path
    for path in ("results.1", "comparison.batch", "results.0.units", "results.x", "nothing"):
        assert not names_field(record, path), path
