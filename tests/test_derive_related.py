"""Related records in both directions (derive/related.py)."""

from __future__ import annotations

from scenarios import load_scenario

from rewire_site.derive.related import related
from rewire_site.render.present.relations import relation_label


def _pairs(scenario: str, record_id: str) -> list[tuple[str, str, str]]:
    catalogue = load_scenario(scenario)
    return [
        (r.relation, r.record_id, r.direction)
        for r in related(catalogue.by_id[record_id], catalogue)
    ]


def test_protocol_page_relations_as_the_seed() -> None:
    assert _pairs("ia3_conflict", "nt-ia3-runtime") == [
        ("uses_data", "nt-benchmark", "out"),
        ("assessment", "eval-nt-2-5b-ia3-runtime", "in"),
        ("assessment", "eval-nt-500m-ia3-runtime", "in"),
        ("assessed_by", "execution-workflow", "in"),
    ]


def test_configuration_page_relations_as_the_seed() -> None:
    assert _pairs("seed_memory", "config-nt-checkpointing") == [
        ("configuration_of", "nucleotide-transformer", "out"),
        ("system", "eval-nt-checkpointing", "in"),
    ]


def test_evaluation_links_both_ways_to_its_reproduction() -> None:
    assert ("reproduces", "eval-nt-published", "out") in _pairs("reproduction", "eval-nt-rewire")
    assert ("reproduced_by", "eval-nt-rewire", "in") in _pairs("reproduction", "eval-nt-published")
    assert ("baseline_of", "repro-peak-memory", "in") in _pairs("reproduction", "eval-nt-rewire")


def test_sources_list_what_cites_them_and_citations_are_not_repeated() -> None:
    found = _pairs("ia3_conflict", "dalla-torre-2025")
    assert found == [
        ("introduces", "nucleotide-transformer", "in"),
        ("cited_by", "eval-nt-2-5b-ia3-runtime", "in"),
        ("cited_by", "eval-nt-500m-ia3-runtime", "in"),
    ]
    # An evaluation cites its source three ways; the source is not a related record of it.
    assert all(
        r[1] != "dalla-torre-2025" for r in _pairs("ia3_conflict", "eval-nt-500m-ia3-runtime")
    )


def test_a_relation_key_reads_as_the_seed_pages_word_it() -> None:
    assert relation_label("uses_data") == "uses data"
    assert relation_label("cited_by") == "cited by"
    assert relation_label("training_data") == "training data"  # a field no relation names
