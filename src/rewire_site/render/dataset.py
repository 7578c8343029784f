"""The page of a dataset: its facts, the protocols that use it and its evaluations."""

from __future__ import annotations

from collections import Counter

from ..link import Catalogue
from ..models import Dataset, Evaluation, Protocol
from .contexts import DatasetPage, Fact, ProtocolCount, SiteFacts
from .leads import list_answer
from .parts import common_fields, evaluation_list, evaluations_referring, link_to, value_fact

LIST_LIMIT = 400
"""Above this many evaluations a dataset page lists them per protocol instead of one row
each: the synthetic random-DNA dataset of the GPU measurements holds over 1,700, a 1.57 MB
page listed in full (the budget is 1 MB a page); each protocol's page lists its own."""


def protocol_counts(
    evaluations: list[Evaluation], catalogue: Catalogue
) -> tuple[ProtocolCount, ...]:
    """Evaluations and results per protocol, most evaluations first."""
    evaluations_of = Counter(e.protocol for e in evaluations)
    results_of: Counter[str] = Counter()
    for e in evaluations:
        results_of[e.protocol] += len(e.results)
    return tuple(
        ProtocolCount(link_to(catalogue, pid), n, results_of[pid])
        for pid, n in sorted(evaluations_of.items(), key=lambda item: (-item[1], item[0]))
    )


def dataset_page(
    dataset: Dataset,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> DatasetPage:
    d = dataset
    evaluations = evaluations_referring(catalogue, d.id)
    splits = "; ".join(
        s.name
        + (f" ({s.size} samples)" if s.size is not None else "")
        + (f": {s.note}" if s.note else "")
        for s in d.splits
    )
    page_facts = (
        Fact("description", d.description, markdown=True),
        Fact("synthetic", "yes: generated, not collected" if d.synthetic else "no: collected"),
        value_fact(d, "version", d.version),
        value_fact(d, "generator", d.generator),
        value_fact(d, "seed", d.seed),
        value_fact(d, "access", d.access),
        value_fact(d, "licence", d.licence),
        *((Fact("splits", splits),) if d.splits else ()),
        *((Fact("tasks", "; ".join(d.tasks)),) if d.tasks else ()),
    )
    results = evaluation_list("Evaluations on this dataset", evaluations, catalogue, facts)
    return DatasetPage(
        **common_fields(d, catalogue, facts, "dataset.html"),
        answer=list_answer("on this dataset", results),
        results=results,
        facts=page_facts,
        protocols=tuple(link_to(catalogue, p.id) for p in catalogue.referring(d.id, Protocol)),
        listed=len(evaluations) <= LIST_LIMIT,
        by_protocol=protocol_counts(evaluations, catalogue),
    )
