"""The hand-entered task identity records (records/evidence-20261202-dataset-*): each
joins two sources' dataset records with `same_task` only where the sizes it states are
the sizes those records state, and each merge puts both sources on one task page.

The records live in the catalogue (editors may add more): the tests read them from the
live catalogue, gathered once per process, and pin no count."""

from __future__ import annotations

from rewire_site.derive.overlaps import task_groups
from rewire_site.link import Catalogue
from rewire_site.models import Dataset

PREFIX = "evidence-20261202-dataset-"


def _sizes(dataset: Dataset) -> dict[str, int]:
    return {s.name: s.size for s in dataset.splits if s.size is not None and s.size > 0}


def _identity_records(catalogue: Catalogue) -> list[Dataset]:
    found = [d for d in catalogue.of_kind(Dataset) if d.id.startswith(PREFIX) and d.same_task]
    assert found, "no task identity record in the catalogue"
    return found


def test_a_merge_states_the_sizes_of_the_records_it_joins(live_catalogue: Catalogue) -> None:
    """Where a joined record states its split sizes (DNALLM-Mark's do), they are the
    identity record's; the evidence text names each size it relies on."""
    compared = 0
    for record in _identity_records(live_catalogue):
        mine = _sizes(record)
        assert mine, record.id
        for link in record.same_task:
            other = live_catalogue.get(link.dataset, Dataset)
            theirs = _sizes(other)
            if theirs:
                assert theirs == mine, (record.id, link.dataset)
                compared += 1
            for size in mine.values():
                assert str(size) in link.split.replace(",", ""), (record.id, size)
            assert "not compared" in link.files  # says what was not checked
    assert compared > 0


def test_a_merge_makes_one_task_of_two_sources(live_catalogue: Catalogue) -> None:
    groups = {d: g for g in task_groups(live_catalogue) for d in g}
    for record in _identity_records(live_catalogue):
        group = groups[record.id]
        assert {link.dataset for link in record.same_task} <= set(group)
        scopes = {label.scope for d in group for label in live_catalogue.get(d, Dataset).labels}
        assert len(scopes) >= 2, (record.id, scopes)
