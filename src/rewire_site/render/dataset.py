"""The page of a dataset: its facts, the protocols that use it and its evaluations."""

from __future__ import annotations

from ..link import Catalogue
from ..models import Dataset, Protocol
from .contexts import DatasetPage, Fact, SiteFacts
from .leads import list_answer
from .parts import common_fields, evaluation_list, evaluations_referring, link_to, value_fact


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
    )
