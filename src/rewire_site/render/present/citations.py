"""A citation resolved against its source record, as pages show it."""

from __future__ import annotations

from dataclasses import dataclass

from ...link import Catalogue
from ...models import Citation, Source
from ...models.common import CitationRole
from ..cache import IdentityCache

ROLE_LABELS: dict[CitationRole, str] = {
    CitationRole.original: "Original source",
    CitationRole.context_only: "Context-only reference",
}


@dataclass(frozen=True)
class CitationView:
    """A citation resolved against its source record."""

    source_id: str
    source_title: str
    short_citation: str
    url: str
    locator: str
    quote: str | None
    role: str
    """'original' or 'context_only'."""
    role_label: str
    """'Original source' or 'Context-only reference'."""
    version: str
    """The source artifact's version string as retrieved."""


_CITATIONS: IdentityCache[Citation, tuple[Source, CitationView]] = IdentityCache()


def cite(citation: Citation, catalogue: Catalogue) -> CitationView:
    """Resolve a citation. The link stage guarantees the source exists. Cached per
    citation object and source object (a changed source record is a new object)."""
    source = catalogue.get(citation.source, Source)
    found = _CITATIONS.get(citation, lambda c: (source, _cite(c, source)))
    if found[0] is not source:
        found = (source, _cite(citation, source))
        _CITATIONS.put(citation, found)
    return found[1]


def _cite(citation: Citation, source: Source) -> CitationView:
    return CitationView(
        source_id=source.id,
        source_title=source.title,
        short_citation=source.short_citation,
        url=source.url,
        locator=citation.locator,
        quote=citation.quote,
        role=citation.role.value,
        role_label=ROLE_LABELS[citation.role],
        version=source.version,
    )
