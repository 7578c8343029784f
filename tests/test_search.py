"""The offline search index: every record with its title, id and model names."""

from __future__ import annotations

import json

from scenarios import load_scenario

from rewire_site.render.search import search_entries, search_index_json


def test_every_record_is_in_the_index_with_its_page() -> None:
    catalogue = load_scenario("seed_memory")
    entries = search_entries(catalogue)
    assert sorted(e.id for e in entries) == sorted(catalogue.by_id)
    for entry in entries:
        assert entry.path.endswith(f"/{entry.id}/index.html")
        assert entry.title == catalogue.by_id[entry.id].title


def test_model_names_are_searchable_on_evaluations_and_configurations() -> None:
    catalogue = load_scenario("seed_memory")
    entries = {e.id: e for e in search_entries(catalogue)}
    evaluation = next(e for e in entries.values() if e.kind == "evaluation")
    assert evaluation.models, "an evaluation lists the model it tested"
    assert all(name.lower() in evaluation.terms for name in evaluation.models)
    assert evaluation.id in evaluation.terms


def test_index_is_ordered_by_kind_then_title_and_byte_stable() -> None:
    catalogue = load_scenario("seed_memory")
    entries = search_entries(catalogue)
    kinds = [e.kind for e in entries]
    order = ["protocol", "evaluation", "configuration", "dataset", "source", "model_family"]
    assert kinds == sorted(kinds, key=lambda k: order.index(k) if k in order else 99)
    data = search_index_json(entries)
    assert data == search_index_json(search_entries(catalogue))
    parsed = json.loads(data)
    assert {"id", "kind", "title", "path", "models"} == set(parsed[0])
