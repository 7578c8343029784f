"""The page of a model family (issue 25): its answer in a sentence, each checkpoint's key
facts with citations, links to compare it with the families it shares tasks with, every
result across tasks by task family and protocol class, the memory curves, then "how we
know" (model facts by checkpoint, papers, configurations, evidence, sources) collapsed."""

from __future__ import annotations

from ..derive.fits import curves
from ..derive.model_compare import family_pairs, family_triples
from ..derive.model_directory import model_directory
from ..derive.model_facts import fact_rows
from ..derive.model_results import model_results
from ..link import Catalogue
from ..models import Configuration, ModelFamily
from .contexts import Fact, FamilyPage, Link, SiteFacts
from .fits.pages import family_curves
from .model_compare import compare_path, triple_links
from .model_page import answer, compare_links, fact_lines, key_facts, task_groups
from .parts import common_fields, link_to, value_fact


def _compare(family_id: str, catalogue: Catalogue, facts: SiteFacts) -> tuple[Link, ...]:
    """The two- and three-model comparison pages this family is on."""
    pairs = family_pairs(catalogue, facts.flags)
    triples = tuple(t for t in family_triples(pairs) if family_id in t.ids)
    return compare_links(family_id, pairs, compare_path) + triple_links(triples)


def family_page(
    family: ModelFamily,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> FamilyPage:
    f = family
    configurations = catalogue.referring(f.id, Configuration)
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
    entry = next((e for e in model_directory(catalogue) if e.family_id == f.id), None)
    results = model_results(f.id, catalogue)
    return FamilyPage(
        **common_fields(f, catalogue, facts, "family.html"),
        answer=answer(f.name, entry, results),
        key_facts=key_facts(entry),
        compare=_compare(f.id, catalogue, facts),
        result_groups=task_groups(results),
        facts=page_facts,
        fact_rows=fact_lines(fact_rows(f, catalogue)),
        configurations=tuple(link_to(catalogue, c.id) for c in configurations),
        papers=tuple(link_to(catalogue, p) for p in f.papers),
        memory_curves=family_curves(f, curves(catalogue), catalogue),
    )
