"""The page of a model family: its facts, model facts by checkpoint, configurations,
papers and the evaluations of its configurations."""

from __future__ import annotations

from ..derive.fits import curves
from ..derive.model_facts import fact_rows
from ..fits.pages import family_curves
from ..link import Catalogue
from ..models import Configuration, ModelFamily
from .contexts import Fact, FamilyPage, SiteFacts
from .parts import common_fields, evaluation_list, evaluations_referring, link_to, value_fact


def family_page(
    family: ModelFamily,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> FamilyPage:
    f = family
    configurations = catalogue.referring(f.id, Configuration)
    evaluations = [e for c in configurations for e in evaluations_referring(catalogue, c.id)]
    checkpoints = tuple(
        Fact("checkpoint", "; ".join(x for x in (cp.name, cp.parameters, cp.url, cp.note) if x))
        for cp in f.checkpoints
    )
    page_facts = (
        Fact("name", f.name),
        Fact("developers", "; ".join(f.developers)),
        value_fact(f, "architecture", f.architecture),
        value_fact(f, "tokenisation", f.tokenisation),
        *checkpoints,
    )
    return FamilyPage(
        **common_fields(f, catalogue, facts, "family.html"),
        results=evaluation_list(
            "Evaluations of configurations in this family", evaluations, catalogue, facts
        ),
        facts=page_facts,
        fact_rows=fact_rows(f, catalogue),
        configurations=tuple(link_to(catalogue, c.id) for c in configurations),
        papers=tuple(link_to(catalogue, p) for p in f.papers),
        memory_curves=family_curves(f, curves(catalogue), catalogue),
    )
