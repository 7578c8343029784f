"""Evidence model v2: the shapes real evidence needs, checked on the models themselves
(the real records that use them are checked in test_evidence_records.py)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from rewire_site.link import references
from rewire_site.models import RECORD_ADAPTER, Evaluation, ModelFamily, Protocol, Source
from rewire_site.models.common import Scale
from rewire_site.models.printed import check_printed, parse_printed
from rewire_site.models.scales import scale_problem, to_scale

CITE = {"source": "src-a", "locator": "Table 1", "quote": "61.91"}


def source(**fields: Any) -> dict[str, Any]:
    record = {
        "id": "src-a",
        "kind": "source",
        "source_kind": "repository_file",
        "title": "README",
        "summary": "A README.",
        "short_citation": "Lab 2024",
        "venue": "GitHub",
        "version": "main as of 2024-06",
        "url": "https://github.com/lab/repo/blob/0123/README.md",
    }
    record.update(fields)
    return record


def evaluation(**fields: Any) -> dict[str, Any]:
    record = {
        "id": "ev-a",
        "kind": "evaluation",
        "title": "An evaluation",
        "summary": "One result.",
        "configuration": "cfg",
        "protocol": "proto",
        "dataset": "data",
        "origin": "author_reported",
        "version": "v1",
        "comparison": {},
        "results": [{"column": "test", "value": 61.91, "printed_value": "61.91", "citation": CITE}],
    }
    record.update(fields)
    return record


def errors(data: dict[str, Any]) -> str:
    with pytest.raises(ValidationError) as caught:
        RECORD_ADAPTER.validate_python(data)
    return str(caught.value)


# ------------------------------------------------------------ printed values


@pytest.mark.parametrize(
    ("text", "value", "qualifier"),
    [
        ("61.91", 61.91, None),
        ("0.6191", 0.6191, None),
        ("33.88 GB", 33.88, None),
        ("about 250k", 250_000, "about"),
        ("1T", 1e12, None),
        ("900B", 9e11, None),
        ("up to 160x", 160, "up_to"),
        ("1,234", 1234, None),
        ("−0.05", -0.05, None),
        ("at least 2.5 million", 2.5e6, "at_least"),
        ("≈ 480 x 10^9 base pairs", 480e9, "about"),
        ("1.5 × 10⁹", 1.5e9, None),
        ("3.2e-3", 3.2e-3, None),
    ],
)
def test_printed_values_are_read_with_magnitude_and_qualifier(
    text: str, value: float, qualifier: str | None
) -> None:
    read = parse_printed(text)
    assert read is not None
    assert read.value == pytest.approx(value)
    assert read.qualifier == qualifier


def test_text_without_a_number_is_not_checked() -> None:
    assert parse_printed("not reported") is None
    assert check_printed(3.0, "not reported") is None


def test_printed_precision_bounds_the_stored_value() -> None:
    assert check_printed(56.76, "56.76") is None
    assert check_printed(56.8, "56.8") is None
    assert check_printed(56.8, "56.76") is not None  # rounding is not the printed value
    assert check_printed(250_400, "about 250k") is None  # about: 5% slack
    assert check_printed(300_000, "about 250k") is not None


def test_a_quotient_of_two_printed_values_is_checked_as_their_quotient() -> None:
    assert check_printed(0.6398375169574662, "0.6380130497184959 / 0.9971485460126722") is None
    assert check_printed(0.638, "0.6380130497184959 / 0.9971485460126722") is not None
    assert check_printed(4.105, "35.80 / 8.72") is None  # 4.1055, within the printed digits
    assert check_printed(4.2, "35.80 / 8.72") is not None
    assert check_printed(35.8, "35.80 GB and 8.72 GB") is None  # not a quotient: first number


def test_a_fraction_matches_its_printed_percentage() -> None:
    assert check_printed(0.6191, "61.91", "fraction") is None
    assert check_printed(0.5676, "56.76%", "fraction") is None
    assert check_printed(0.6191, "61.91") is not None


def test_a_value_that_contradicts_its_printed_form_is_an_error() -> None:
    bad = evaluation(
        results=[{"column": "test", "value": 6.191, "printed_value": "61.91", "citation": CITE}]
    )
    assert "contradicts printed_value '61.91'" in errors(bad)


def test_a_number_given_as_text_is_an_error() -> None:
    bad = evaluation(
        results=[{"column": "test", "value": "61.91", "printed_value": "61.91", "citation": CITE}]
    )
    assert "valid number" in errors(bad)


# ------------------------------------------------------------ scales and bounds


def mcc_protocol(**metric: Any) -> Protocol:
    data = {
        "id": "proto",
        "kind": "protocol",
        "title": "MCC",
        "summary": "MCC.",
        "measurement": "MCC on test.",
        "metric": {"id": "mcc", "label": "MCC", "unit": "fraction", "direction": "higher"} | metric,
        "columns": [
            {"id": "test", "label": "Test"},
            {
                "id": "f1-task",
                "label": "F1 task",
                "metric": {"id": "f1", "label": "F1", "unit": "percent", "direction": "higher"},
            },
        ],
        "version": "1",
        "source_locator": "Table 1",
    }
    protocol = RECORD_ADAPTER.validate_python(data)
    assert isinstance(protocol, Protocol)
    return protocol


def test_scales_convert_both_ways() -> None:
    assert to_scale(61.91, Scale.percent, Scale.fraction) == pytest.approx(0.6191)
    assert to_scale(0.6191, Scale.fraction, Scale.percent) == pytest.approx(61.91)
    assert to_scale(5.0, None, Scale.percent) == 5.0


def test_values_outside_the_metric_bounds_are_errors_on_the_metric_scale() -> None:
    protocol = mcc_protocol(scale="fraction", minimum=-1, maximum=1)
    metric = protocol.column_metric("test")
    record = RECORD_ADAPTER.validate_python(evaluation())
    assert isinstance(record, Evaluation)
    result = record.results[0]  # 61.91 without a scale: read as a fraction
    problem = scale_problem(metric, result)
    assert problem is not None and "above the highest possible MCC" in problem[1]
    as_percent = result.model_copy(update={"scale": Scale.percent})
    assert scale_problem(metric, as_percent) is None  # 61.91 % = 0.6191


def test_a_column_can_carry_its_own_metric() -> None:
    protocol = mcc_protocol()
    assert protocol.column_metric("test").id == "mcc"
    assert protocol.column_metric("f1-task").id == "f1"


def test_a_mislabelled_metric_needs_the_correction_citation() -> None:
    result = {
        "column": "test",
        "value": 61.91,
        "printed_value": "61.91",
        "citation": CITE,
        "printed_metric_label": "MCC",
    }
    assert "metric_correction" in errors(evaluation(results=[result]))
    fixed = result | {"metric_correction": {"source": "src-b", "locator": "issue #3"}}
    RECORD_ADAPTER.validate_python(evaluation(results=[fixed]))


def test_a_tolerance_needs_its_reason() -> None:
    with pytest.raises(ValidationError, match="tolerance_reason"):
        mcc_protocol().model_validate(
            mcc_protocol().model_dump() | {"tolerance": 0.05, "tolerance_reason": None}
        )


# ------------------------------------------------------------ provenance


@pytest.mark.parametrize("published", ["2024", "2024-06", "2024-06-13"])
def test_dates_keep_their_printed_precision(published: str) -> None:
    record = RECORD_ADAPTER.validate_python(source(published=published))
    assert isinstance(record, Source)
    assert record.published == published


@pytest.mark.parametrize("published", ["2024-13", "2024-02-30", "June 2024"])
def test_impossible_or_unparsed_dates_are_errors(published: str) -> None:
    assert "published" in errors(source(published=published))


def test_retrieval_time_needs_a_time_zone() -> None:
    assert "has no time zone" in errors(source(retrieved_at="2026-11-30T10:00:00"))
    RECORD_ADAPTER.validate_python(source(retrieved_at="2026-11-30T10:00:00Z"))


def test_a_secondary_quotation_names_both_sources() -> None:
    quoted = {
        "source": "issue-7",
        "locator": "comment 2",
        "quote": "The paper mentions maximum of 1000 tokens.",
        "quoted_from": {"source": "paper", "locator": "Methods"},
    }
    record = RECORD_ADAPTER.validate_python(source(citations=[quoted]))
    targets = {(ref.field, ref.target_id) for ref in references(record)}
    assert ("citations.0.source", "issue-7") in targets
    assert ("citations.0.quoted_from.source", "paper") in targets


# ------------------------------------------------------------ origins, claims, conditions


def test_community_reproductions_and_maintainer_statements_are_origins() -> None:
    for origin in ("community_reproduction", "maintainer_statement"):
        record = RECORD_ADAPTER.validate_python(evaluation(origin=origin, reproduces="ev-b"))
        assert isinstance(record, Evaluation) and record.reproduces == "ev-b"


def test_claims_hold_what_is_not_one_value() -> None:
    claim = {
        "id": "faster",
        "kind": "ratio",
        "statement": "up to 160x faster training than Transformers",
        "qualifier": "up_to",
        "value": 160,
        "unit": "times",
        "baseline": "Transformer with FlashAttention",
        "citation": {"source": "src-a", "locator": "README", "quote": "up to 160x faster"},
    }
    record = RECORD_ADAPTER.validate_python(evaluation(results=[], claims=[claim]))
    assert isinstance(record, Evaluation) and record.claims[0].qualifier == "up_to"
    assert "baseline" in errors(evaluation(results=[], claims=[claim | {"baseline": None}]))
    count = claim | {"kind": "count_of", "count": 23, "total": 28}
    RECORD_ADAPTER.validate_python(evaluation(results=[], claims=[count]))
    assert "more than the total" in errors(evaluation(results=[], claims=[count | {"count": 29}]))
    assert "at least one result" in errors(evaluation(results=[]))


def test_run_conditions_are_reportable_fields() -> None:
    conditions = {"seeds": [42], "runs": 3, "learning_rate": 3e-5, "precision": "fp16"}
    record = RECORD_ADAPTER.validate_python(evaluation(run_conditions=conditions))
    assert isinstance(record, Evaluation) and record.run_conditions is not None
    assert record.run_conditions.seeds == [42]


# ------------------------------------------------------------ concerns and conflicts


@pytest.mark.parametrize("make", [source, evaluation])
def test_concerns_sit_on_any_record(make: Any) -> None:
    concern = {
        "id": "moving",
        "kind": "moving_reference",
        "text": "The README is read on a branch.",
        "field": "url",
        "excludes_from_comparisons": False,
    }
    record = RECORD_ADAPTER.validate_python(make(concerns=[concern]))
    assert record.concerns[0].field == "url"


def test_conflicting_values_hold_each_value_with_its_citation() -> None:
    stated = [
        {"value": "28 datasets", "citation": {"source": "readme", "locator": "README"}},
        {"value": "36 datasets", "citation": {"source": "paper", "locator": "Abstract"}},
    ]
    concern = {
        "id": "count",
        "kind": "conflicting_values",
        "text": "Two counts.",
        "values": stated,
        "excludes_from_comparisons": False,
    }
    record = RECORD_ADAPTER.validate_python(source(concerns=[concern]))
    targets = {ref.target_id for ref in references(record)}
    assert {"readme", "paper"} <= targets
    missing = {"licence": {"reason": "conflicting", "values": stated}}
    RECORD_ADAPTER.validate_python(source(missing_metadata=missing))
    assert "two or more" in errors(
        source(missing_metadata={"licence": {"reason": "conflicting", "values": stated[:1]}})
    )


# ------------------------------------------------------------ model facts


def test_checkpoint_facts_are_cited_and_checked_against_their_printed_form() -> None:
    fact = {
        "value": 2.5e9,
        "unit": "parameter",
        "printed_value": "2.5B",
        "citation": {"source": "src-a", "locator": "README", "quote": "2.5B parameters"},
    }
    family = {
        "id": "fam",
        "kind": "model_family",
        "title": "A family",
        "summary": "Models.",
        "name": "Fam",
        "developers": ["Lab"],
        "checkpoints": [{"name": "lab/fam-2.5b", "facts": {"parameters": fact}}],
    }
    record = RECORD_ADAPTER.validate_python(family)
    assert isinstance(record, ModelFamily) and record.has_facts
    fields = {ref.field for ref in references(record)}
    assert "checkpoints.0.facts.parameters.citation.source" in fields
    wrong = family | {
        "checkpoints": [{"name": "x", "facts": {"parameters": fact | {"value": 2.5e8}}}]
    }
    assert "contradicts printed_value '2.5B'" in errors(wrong)


def test_strict_accepts_a_family_with_facts_that_nothing_refers_to(tmp_path: Any) -> None:
    import yaml

    from rewire_site.validate import validate_paths

    records = tmp_path / "records"
    records.mkdir()
    fact = {"value": 12, "citation": {"source": "src-a", "locator": "config.json"}}
    family = {
        "id": "fam",
        "kind": "model_family",
        "title": "A family",
        "summary": "Models.",
        "name": "Fam",
        "developers": ["Lab"],
        "architecture": "BERT encoder",
        "tokenisation": "BPE",
        "checkpoints": [{"name": "lab/fam", "facts": {"layers": fact}}],
    }
    missing = {
        f"checkpoints.0.facts.{name}": {"reason": "unreported"}
        for name in [
            "parameters",
            "hidden_size",
            "attention_heads",
            "vocabulary_size",
            "max_positions",
            "position_embedding",
            "tokeniser",
            "pretraining_data",
            "context_length_trained",
            "context_length_accepted",
        ]
    }
    family["missing_metadata"] = missing
    plain = source(
        revision="0" * 40,
        licence="MIT",
        published="2024",
        retrieval_url="https://example.org/raw",
        retrieved_at="2026-11-30T10:00:00Z",
        sha256="a" * 64,
        hash_scope="file bytes",
        independence="Not independent: the developers' README.",
    )
    for record in (family, plain):
        (records / f"{record['id']}.yaml").write_text(yaml.safe_dump(record))
    report = validate_paths([records], tmp_path, cache=False)
    unreferenced = [p for p in report.problems if "nothing refers" in p.message]
    assert [p.path.name for p in unreferenced] == []
    assert report.ok, report.problems


def _fact(**extra: Any) -> dict[str, Any]:
    return {
        "value": 1e21,
        "unit": "FLOP",
        "printed_value": "1e21",
        "citation": {"source": "fx-source", "locator": "Table 1", "quote": "1e21 FLOPs"},
        **extra,
    }


def test_a_per_size_value_says_which_size() -> None:
    from rewire_site.models.family import Fact

    with pytest.raises(ValidationError, match="applies_to"):
        Fact.model_validate(_fact(qualifiers=["per_size"]))
    found = Fact.model_validate(
        _fact(qualifiers=["per_size", "approximate"], applies_to="the 2.5B size")
    )
    assert found.qualifiers == ["per_size", "approximate"]
    with pytest.raises(ValidationError):
        Fact.model_validate(_fact(qualifiers=["roughly"]))


def test_hardware_requirement_and_release_are_typed() -> None:
    from rewire_site.models.family import HardwareRequirement, ModelFacts

    citation = {"source": "fx-source", "locator": "README", "quote": "needs bf16 on sm80"}
    with pytest.raises(ValidationError, match="names an accelerator"):
        HardwareRequirement.model_validate(
            {"use": "fine-tuning", "printed_value": "a GPU", "citation": citation}
        )
    facts = ModelFacts.model_validate(
        {
            "hardware_requirements": [
                {
                    "use": "FlashAttention kernels",
                    "precision": "bf16",
                    "compute_capability": "8.0",
                    "printed_value": "bf16 on sm80",
                    "citation": citation,
                }
            ],
            "release": {"state": "described_not_released", "citation": citation},
        }
    )
    assert facts.release is not None and facts.release.state == "described_not_released"
    assert facts.hardware_requirements[0].compute_capability == "8.0"
    with pytest.raises(ValidationError):
        ModelFacts.model_validate({"release": {"state": "leaked", "citation": citation}})
