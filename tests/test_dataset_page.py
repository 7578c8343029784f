"""A dataset page lists its evaluations one row each up to render.dataset.LIST_LIMIT, and
per protocol above it (each protocol's page lists its own): the counts per protocol add
up to every evaluation on the dataset."""

from __future__ import annotations

from rewire_site.link import Catalogue
from rewire_site.render.dataset import protocol_counts
from rewire_site.render.parts import evaluations_referring


def test_counts_per_protocol_add_up_to_every_evaluation(live_catalogue: Catalogue) -> None:
    datasets = [d for d in live_catalogue.datasets() if evaluations_referring(live_catalogue, d.id)]
    assert datasets
    for dataset in datasets:
        evaluations = evaluations_referring(live_catalogue, dataset.id)
        counts = protocol_counts(evaluations, live_catalogue)
        assert sum(c.evaluations for c in counts) == len(evaluations)
        assert sum(c.results for c in counts) == sum(len(e.results) for e in evaluations)
        assert len({c.protocol.href for c in counts}) == len(counts)
        assert [c.evaluations for c in counts] == sorted(
            (c.evaluations for c in counts), reverse=True
        )
