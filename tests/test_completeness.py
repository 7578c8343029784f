"""completeness: a reportable field holds a value or its missing-metadata reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rewire_site.completeness import check, defaulted, reportable_fields
from rewire_site.load import load_file
from rewire_site.models import RECORD_TYPES, RecordBase

FIXTURE = Path(__file__).parent / "fixtures" / "minimal" / "records"


def data(name: str) -> dict[str, Any]:
    loaded = load_file(FIXTURE / f"{name}.yaml")
    assert isinstance(loaded.data, dict)
    return loaded.data


def record(values: dict[str, Any]) -> RecordBase:
    return RECORD_TYPES[values["kind"]].model_validate(values)


def test_fixture_records_are_complete() -> None:
    for path in sorted(FIXTURE.glob("*.yaml")):
        assert check(record(data(path.stem))) == [], path.name


def test_reportable_fields_include_nested_and_listed_parts() -> None:
    fields = dict(reportable_fields(record(data("fx-eval"))))
    assert fields["comparison.dataset_version"] is True
    assert fields["comparison.split"] is False
    assert fields["results.0.uncertainty"] is True
    assert fields["results.0.unit"] is False
    assert "results.0.value" not in fields  # required, not reportable
    assert "configuration" not in fields


def test_null_without_reason_is_a_gap_at_the_field() -> None:
    values = data("fx-eval")
    del values["missing_metadata"]["results.0.uncertainty"]
    gaps = check(record(values))
    assert [g.field for g in gaps] == ["results.0.uncertainty"]
    assert "no value and no reason" in gaps[0].message


def test_absent_field_counts_as_null() -> None:
    values = data("fx-config")
    del values["checkpoint"]
    del values["missing_metadata"]["checkpoint"]
    assert [g.field for g in check(record(values))] == ["checkpoint"]


@pytest.mark.parametrize(
    ("key", "fragment"),
    [
        ("training_hardware", "has a value and a missing-metadata reason"),
        ("results.4.unit", "names no field"),
        ("nonsense", "names no field"),
        ("comparison.nonsense", "names no field"),
        ("configuration", "not a reportable field"),
        ("results.0.value", "not a reportable field"),
    ],
)
def test_reason_keys_must_name_a_null_reportable_field(key: str, fragment: str) -> None:
    values = data("fx-eval")
    values["missing_metadata"][key] = {"reason": "unreported"}
    gaps = check(record(values))
    assert [g.field for g in gaps] == [f"missing_metadata.{key}"]
    assert fragment in gaps[0].message


def test_nested_model_fields_are_checked_when_the_parent_is_present() -> None:
    values = data("fx-eval")
    values["review"] = {"status": "unreviewed", "reviewer": "r", "reviewed_at": None}
    gaps = check(record(values))
    assert [g.field for g in gaps] == ["review.reviewed_at"]
    values["missing_metadata"]["review.reviewed_at"] = {"reason": "unknown"}
    assert check(record(values)) == []


def _checkpoint_facts(**facts: Any) -> dict[str, Any]:
    values = data("fx-family")
    values["checkpoints"] = [{"name": "fixture/net-1b", "facts": facts}]
    return values


PARAMETERS = {
    "value": 1e9,
    "unit": "parameter",
    "printed_value": "1B",
    "citation": {"source": "fx-source", "locator": "Table 1", "quote": "1B parameters"},
}


def test_checkpoint_with_only_stated_facts_is_complete() -> None:
    """A checkpoint gives the facts its sources state; every other fact and pre-training
    field needs no missing-metadata entry (issue 25: 11 facts and 14 pre-training fields
    had to be explained before a new checkpoint validated)."""
    values = _checkpoint_facts(parameters=PARAMETERS)
    values["checkpoints"][0]["pretraining"] = {"steps": 1000}
    found = record(values)
    assert check(found) == []
    derived = defaulted(found)
    assert "checkpoints.0.facts.layers" in derived
    assert "checkpoints.0.facts.training_compute" in derived
    assert "checkpoints.0.pretraining.seeds" in derived
    assert "checkpoints.0.facts.parameters" not in derived
    assert "checkpoints.0.pretraining.steps" not in derived
    assert "tokenisation" not in derived  # the family's own fields keep their rule


def test_stated_reason_inside_defaulted_part_is_kept() -> None:
    values = _checkpoint_facts(parameters=PARAMETERS)
    values["missing_metadata"]["checkpoints.0.facts.attention_heads"] = {
        "reason": "inapplicable",
        "note": "No attention layers.",
    }
    found = record(values)
    assert check(found) == []
    assert "checkpoints.0.facts.attention_heads" not in defaulted(found)


def test_reason_for_a_given_fact_is_still_an_error() -> None:
    values = _checkpoint_facts(parameters=PARAMETERS)
    values["missing_metadata"]["checkpoints.0.facts.parameters"] = {"reason": "unreported"}
    gaps = check(record(values))
    assert [g.field for g in gaps] == ["missing_metadata.checkpoints.0.facts.parameters"]


def test_family_fields_outside_the_defaulted_part_still_need_reasons() -> None:
    values = _checkpoint_facts(parameters=PARAMETERS)
    del values["missing_metadata"]["tokenisation"]
    assert [g.field for g in check(record(values))] == ["tokenisation"]
