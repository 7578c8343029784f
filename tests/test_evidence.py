"""Evidence table and source list (render/evidence.py)."""

from __future__ import annotations

from scenarios import load_scenario

from rewire_site.models import Configuration, Evaluation, Protocol
from rewire_site.render.evidence import NO_HASH_SCOPE, evidence_table, sources_of


def test_evaluation_rows_one_per_statement_and_record_level_citation() -> None:
    catalogue = load_scenario("seed_memory")
    table = evidence_table(catalogue.get("eval-gena-deepspeed", Evaluation), catalogue)
    labels = [r.property_label for r in table.rows]
    assert labels[:4] == ["Origin", "Version", "Comparison: split", "Comparison: population"]
    assert "Comparison: adaptation" in labels
    assert table.count_text == f"{len(table.rows)} evidence rows"
    adaptation = next(r for r in table.rows if r.field_path == "comparison.adaptation")
    assert adaptation.statement == "Training step; LoRA or full update not stated"
    assert adaptation.scope == "record"
    assert adaptation.scope_label == "Context-only references"
    assert adaptation.review_status == "not individually reviewed"
    assert adaptation.locator == "Section 3.3 'ZeRO offload' paragraph (page 6); Figure 3"
    assert adaptation.retrieved_at == "2026-10-15T10:56:26Z"
    assert adaptation.sha256 == ("4bc2452110f280a7ba8baa4c7c28beac89769511019666bc77fc33af9b3bcd60")
    assert adaptation.hash_scope == NO_HASH_SCOPE
    assert adaptation.origin == "independent paper"
    # The fixture's review names reviewer and date but no artifact hash: not verifiable.
    assert adaptation.record_review == "source check not verifiable: no artifact hash recorded"
    assert adaptation.shared_locator


def test_missing_fields_say_why_and_are_marked() -> None:
    catalogue = load_scenario("seed_memory")
    table = evidence_table(catalogue.get("eval-gena-deepspeed", Evaluation), catalogue)
    version = next(r for r in table.rows if r.field_path == "comparison.dataset_version")
    assert (version.statement, version.missing) == ("Not applicable", True)
    assert version.review_status == "missing or unspecified"
    implementation = next(
        r for r in table.rows if r.field_path == "comparison.metric_implementation"
    )
    assert implementation.statement == "Not reported"


def test_result_rows_cite_the_printed_value() -> None:
    catalogue = load_scenario("seed_memory")
    table = evidence_table(catalogue.get("eval-gena-deepspeed", Evaluation), catalogue)
    result = next(r for r in table.rows if r.field_path == "results.0")
    assert result.property_label.startswith("Result: Peak memory (Training, sequence length")
    assert result.statement == "2.49"
    assert result.scope == "field" and result.role_label == "Original source"
    assert result.quote == "(e.g., GENA-LM 110M increases from 1.18 to 2.49 GB)"


def test_field_citations_replace_record_level_ones() -> None:
    catalogue = load_scenario("ia3_conflict")
    table = evidence_table(catalogue.get("eval-nt-500m-ia3-runtime", Evaluation), catalogue)
    assert [(r.field_path, r.scope) for r in table.rows] == [
        ("comparison.adaptation", "field"),
        ("training_hardware", "field"),
        ("results.0", "field"),
    ]
    assert table.rows[-1].statement == "20 min"
    assert table.rows[0].hash_scope == "PMC full-text XML as served"


def test_other_kinds_have_their_statements() -> None:
    catalogue = load_scenario("seed_memory")
    protocol = evidence_table(catalogue.get("training-peak-memory", Protocol), catalogue)
    metric = next(r for r in protocol.rows if r.field_path == "metric")
    assert metric.statement == "Peak memory (gigabyte, lower is better)"
    replicates = next(r for r in protocol.rows if r.field_path == "replicates")
    assert replicates.statement == "Not reported" and replicates.missing
    configuration = evidence_table(
        catalogue.get("config-nt-checkpointing", Configuration), catalogue
    )
    hardware = next(r for r in configuration.rows if r.field_path == "hardware")
    assert hardware.statement == "NVIDIA H100 (section 2.4); 'H100 94GB GPUs' (section 4)"


def test_record_without_citations_has_no_rows() -> None:
    catalogue = load_scenario("reproduction")
    table = evidence_table(catalogue.get("eval-nt-rewire", Evaluation), catalogue)
    assert table.rows == () and table.count_text == "0 evidence rows"


def test_sources_of_lists_each_source_once_with_its_strongest_role() -> None:
    catalogue = load_scenario("ia3_conflict")
    found = sources_of(catalogue.get("eval-nt-500m-ia3-runtime", Evaluation), catalogue)
    assert found.count_text == "1 source record"
    entry = found.sources[0]
    assert (entry.id, entry.role_label) == ("dalla-torre-2025", "Original source")
    assert entry.version == "Nature Methods 22, 287-297; PMC11810778 full-text XML"
    assert entry.retrieved_at == "2026-10-14T09:00:00Z"
