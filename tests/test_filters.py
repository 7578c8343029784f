"""Filter facets (render/filters.py)."""

from __future__ import annotations

from scenarios import load_scenario

from rewire_site.models import Evaluation
from rewire_site.render.filters import (
    FACETS,
    evaluation_facets,
    filter_index,
    index_of,
    labels_of,
    token,
)


def test_every_evaluation_has_a_value_per_facet() -> None:
    catalogue = load_scenario("reproduction")
    found = filter_index(catalogue)
    assert [k for k, _ in FACETS] == ["model", "protocol", "dataset", "setup", "metric", "origin"]
    for key, _ in FACETS:
        assert set(found.index[key]) == {"eval-nt-published", "eval-nt-rewire"}
    assert found.index["origin"]["eval-nt-rewire"] == ("rewire_measurement",)
    assert found.labels["origin"]["rewire_measurement"] == "Rewire measurement"
    assert found.labels["model"]["nucleotide-transformer"] == "Nucleotide Transformer"
    assert found.labels["metric"]["peak-memory"] == "Peak memory"
    assert found.labels["setup"]["unstated"] == "Not reported"


def test_options_count_and_matching_selects() -> None:
    catalogue = load_scenario("seed_memory")
    found = filter_index(catalogue)
    ids = sorted(found.index["model"])
    options = found.options("model", ids)
    assert [(o.token, o.label, o.count) for o in options] == [
        ("gena-lm", "GENA-LM", 2),
        ("nucleotide-transformer", "Nucleotide Transformer", 2),
    ]
    assert found.matching({"model": "gena-lm"}, ids) == (
        "eval-gena-checkpointing",
        "eval-gena-deepspeed",
    )
    assert found.matching({"model": "gena-lm", "origin": "author_reported"}, ids) == ()
    assert found.matching({}, ids) == tuple(ids)
    setup = found.options("setup", ids)
    assert [(o.label, o.count) for o in setup] == [
        ("Training step; LoRA or full update not stated", 4)
    ]


def test_tokens_are_attribute_safe() -> None:
    assert token("Training step; LoRA or full update not stated") == (
        "training-step-lora-or-full-update-not-stated"
    )
    assert token("IA3") == "ia3"
    assert token("!!!") == "none"
    assert " " not in token("x " * 100) and len(token("x " * 100)) <= 60


def test_labels_of_gives_the_labels_of_index_of() -> None:
    """The first label of a value is kept, as index_of keeps it."""
    facets = [
        ("e1", {"protocol": (("p", "First title"),), "metric": (("m", "M"), ("n", "N"))}),
        ("e2", {"protocol": (("p", "Second title"),), "metric": (("n", "Other N"),)}),
    ]
    assert labels_of(facets) == index_of(facets).labels
    assert labels_of(facets)["protocol"] == {"p": "First title"}
    catalogue = load_scenario("seed_memory")
    pairs = [(e.id, evaluation_facets(e, catalogue)) for e in catalogue.of_kind(Evaluation)]
    assert labels_of(pairs) == filter_index(catalogue).labels
