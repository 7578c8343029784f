"""The page of a source (a publication or artifact): its facts and the records that
cite it."""

from __future__ import annotations

from ..link import Catalogue
from ..models import Source
from .contexts import Fact, SiteFacts, SourcePage
from .evidence import iso_utc
from .leads import source_answer
from .parts import common_fields, link_to, value_fact
from .present.missing import missing_text
from .urls import KIND_LABELS, kind_of


def source_page(
    source: Source,
    catalogue: Catalogue,
    facts: SiteFacts,
) -> SourcePage:
    s = source
    retrieved = iso_utc(s.retrieved_at) or missing_text(s, "retrieved_at").label
    page_facts = (
        Fact("short citation", s.short_citation),
        Fact("venue", s.venue),
        *((Fact("authors", "; ".join(s.authors)),) if s.authors else ()),
        *((Fact("affiliations", "; ".join(s.affiliations)),) if s.affiliations else ()),
        value_fact(s, "published", s.published),
        Fact("version", s.version),
        value_fact(s, "revision", s.revision),
        value_fact(s, "licence", s.licence),
        Fact("URL", s.url),
        value_fact(s, "retrieval_url", s.retrieval_url),
        Fact("retrieved at", retrieved, missing=s.retrieved_at is None),
        value_fact(s, "sha256", s.sha256),
        value_fact(s, "hash_scope", s.hash_scope),
        value_fact(s, "independence", s.independence),
    )
    citing = catalogue.referring(s.id)
    links = tuple(link_to(catalogue, r.id) for r in citing)
    kinds = [KIND_LABELS[kind_of(r)].lower() for r in citing]
    return SourcePage(
        **common_fields(s, catalogue, facts, "source.html"),
        answer=source_answer(links, kinds),
        url=s.url,
        facts=page_facts,
        citing=links,
    )
