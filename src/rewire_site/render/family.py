"""The page of a model family (issue 25): its answer in a sentence, each checkpoint's key
facts with citations, links to compare it with the families it shares tasks with, every
result across tasks by task family and protocol class, the memory curves, then "how we
know" (model facts by checkpoint, papers, configurations, evidence, sources) collapsed."""

from __future__ import annotations

from collections.abc import Mapping

from ..derive.concerns import Flag
from ..derive.fits import curves
from ..derive.model_compare import family_pairs, family_triples
from ..derive.model_results import model_results
from ..link import Catalogue
from ..models import Configuration, ModelFamily
from .chooser.pages import task_path
from .contexts import Fact, FamilyPage, Link, SiteFacts
from .cross_source import family_section
from .fits.pages import family_curves
from .model_compare import compare_path, triple_links
from .model_directory import family_entry
from .model_facts import fact_rows
from .model_page import answer, compare_links, fact_lines, key_facts, task_groups
from .parts import common_fields, link_to, value_fact


def family_compare_links(
    catalogue: Catalogue, flags: Mapping[str, tuple[Flag, ...]]
) -> dict[str, tuple[Link, ...]]:
    """Family id -> the two- and three-model comparison pages it is on: every pair and
    triple computed once for the site (`SitePlan.family_links`; each family page
    computing them cost 0.13 CPU s, 6.5 s over the 51 family pages of the 10,000-
    evaluation catalogue, benchmarks/bench_incremental.py)."""
    pairs = family_pairs(catalogue, flags)
    triples = family_triples(pairs)
    return {
        f.id: compare_links(f.id, pairs, compare_path)
        + triple_links(tuple(t for t in triples if f.id in t.ids))
        for f in catalogue.families()
    }


def family_page(
    family: ModelFamily,
    catalogue: Catalogue,
    facts: SiteFacts,
    compare: tuple[Link, ...],
) -> FamilyPage:
    """`compare`: the family's `family_compare_links`."""
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
    entry = family_entry(f, catalogue)
    results = model_results(f.id, catalogue)
    return FamilyPage(
        **common_fields(f, catalogue, facts, "family.html"),
        answer=answer(f.name, entry, results),
        key_facts=key_facts(entry),
        compare=compare,
        result_groups=task_groups(results),
        facts=page_facts,
        fact_rows=fact_lines(fact_rows(f, catalogue)),
        configurations=tuple(link_to(catalogue, c.id) for c in configurations),
        papers=tuple(link_to(catalogue, p) for p in f.papers),
        memory_curves=family_curves(f, curves(catalogue), catalogue),
        cross_source=family_section(f.id, catalogue, task_path),
    )
