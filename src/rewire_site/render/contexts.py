"""Typed contexts of the page types: what each template receives as `page`.

Built by `pages` (record pages) and `index_pages` (home, search, downloads, filter lists)
from the derived facts; templates only display them. `tests/test_pages.py` checks that
every field is shown by its template.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field

from markupsafe import Markup

from .derive.concerns import Flag
from .derive.coverage import BaselineCoverage
from .derive.evidence import SourceList
from .derive.filters import FilterIndex
from .derive.findings import ClaimView, Headline
from .derive.model_facts import FactRow
from .derive.readiness import Readiness
from .derive.reproduction import ReproductionGroup
from .metadata import MetaItem
from .models import Protocol, Question, Source
from .sections import (
    ComparisonView,
    EvaluationList,
    EvidenceView,
    Link,
    ResultsTable,
)


@dataclass(frozen=True)
class SiteFacts:
    """What the derive stage computed once for the whole build."""

    release_id: str
    flags: Mapping[str, tuple[Flag, ...]]
    """Evaluation id -> concern flags."""
    artifact_hashes: Mapping[str, str | None]
    """Artifact path -> SHA-256 the builder computed (None: no file found)."""
    filters: FilterIndex
    """Facet values of every evaluation (derive.filters)."""
    filter_hrefs: Mapping[tuple[str, str], str]
    """(facet key, token) -> page listing every evaluation with that value."""
    downloads: tuple[Link, ...]
    """The release's CSV downloads, in display order."""
    release_download: Link
    """The release and checksums CSV."""
    shared_titles: frozenset[str] = frozenset()
    """Record titles that more than one record carries: the <title> of their pages adds
    the record id, so no two pages share a <title>."""


# ----------------------------------------------------------------- contexts


@dataclass(frozen=True)
class Page:
    template: str
    path: str
    """Output path under the site root, e.g. 'protocols/<id>/index.html'."""
    root: str
    """Relative prefix back to the site root: '' or '../../'."""
    title: str
    description: str
    release_id: str
    nav: str
    """Navigation item marked current: 'home', 'search', 'downloads' or ''."""
    head_title: str = field(default="", kw_only=True)
    """The page's <title> (before ' · Rewire') when it is not `title`: the title and the
    record id, for a title several records share. Empty: `title`."""
    json_ld: Markup = field(default=Markup(""), kw_only=True)
    """schema.org JSON-LD for the page's head (protocol and evaluation pages; see
    export/jsonld.py); empty on other pages."""


@dataclass(frozen=True)
class RecordPage(Page):
    kind: str
    kind_label: str
    record_id: str
    summary: str
    """Markdown."""
    review_label: str
    """'source checked', 'not reviewed', 'disputed'."""
    limitations: tuple[str, ...]
    evidence: EvidenceView
    sources: SourceList
    metadata: tuple[MetaItem, ...]
    related: tuple[RelatedLink, ...]
    correction_url: str
    api_href: str
    downloads: tuple[Link, ...]
    release_download: Link


@dataclass(frozen=True)
class RelatedLink:
    relation: str
    """'uses data', 'assessment', 'configuration of', 'system', 'assessed by', ..."""
    text: str
    href: str


@dataclass(frozen=True)
class Fact:
    """A labelled value; `missing` when the value is a missing-metadata text."""

    label: str
    value: str
    missing: bool = False
    markdown: bool = False


@dataclass(frozen=True)
class ProtocolPage(RecordPage):
    protocol: Protocol
    comparison: ComparisonView
    results: ResultsTable
    facts: tuple[Fact, ...]
    datasets: tuple[Link, ...]
    recipe_missing: str
    """Why there is no recipe ('' when there is one)."""
    baselines: BaselineCoverage
    questions: tuple[Link, ...]
    evaluations: tuple[Link, ...]
    recipe_minutes: str
    reproductions: tuple[ReproductionGroup, ...]
    """One per published evaluation that Rewire measurements reproduce."""
    measurements: ComparisonView | None
    """Rewire measurements in their own table (rows by setup); None without any."""
    counts_text: str
    """Both tables together: '42 recorded evaluations, 42 metric rows'."""
    headline: Headline
    """The page's finding first: each published value and whether it reproduced."""
    run_minutes: str
    """What the measurements record of their own wall time ('' without any)."""
    results_link_text: str
    """'All 4 result rows ...', or what the published rows table holds beside the
    measurements' own pages."""
    notes: tuple[str, ...]
    """The protocol's reader-facing notes (Markdown)."""


@dataclass(frozen=True)
class SortedPage(Page):
    """A protocol's comparison table pre-sorted by one column (sorting without JS)."""

    protocol_title: str
    protocol_href: str
    comparison: ComparisonView
    measurements: ComparisonView | None


@dataclass(frozen=True)
class ObservationRow:
    """One quantity measured beside a result (step time, rate, memory), for display."""

    column: str
    """Label of the protocol column the result belongs to."""
    name: str
    value: str
    """Rounded for display; `exact` holds the stored value."""
    exact: str
    unit: str
    note: str


@dataclass(frozen=True)
class EvaluationPage(RecordPage):
    status_line: str
    """'Published result; transcribed, not reproduced.' or what a measurement is."""
    results: ResultsTable
    flags: tuple[Flag, ...]
    readiness: Readiness
    readiness_key: Hashable
    """Everything the readiness section shows: equal keys render the same HTML."""
    procedure: tuple[Fact, ...]
    conditions_unreported: bool
    """True when a comparison condition is missing (automatic comparison is blocked)."""
    configuration: Link
    protocol: Link
    dataset: Link
    reproduction_facts: tuple[Fact, ...]
    recipe_command: str | None
    recipe_missing: str
    environment: tuple[Fact, ...]
    reproductions: tuple[ReproductionGroup, ...]
    """The measurement's reproduction, or the reproductions of this published result."""
    observations: tuple[ObservationRow, ...]
    """Quantities measured beside the results, in record order."""
    headline: Headline
    """The page's finding first: the value, and whether and how closely it reproduced."""
    claims: tuple[ClaimView, ...]
    """Claims as printed (not one value each; never ranked)."""


@dataclass(frozen=True)
class ConfigurationPage(RecordPage):
    results: ResultsTable
    family: Link
    facts: tuple[Fact, ...]


@dataclass(frozen=True)
class DatasetPage(RecordPage):
    results: EvaluationList
    facts: tuple[Fact, ...]
    protocols: tuple[Link, ...]


@dataclass(frozen=True)
class FamilyPage(RecordPage):
    results: EvaluationList
    facts: tuple[Fact, ...]
    fact_rows: tuple[FactRow, ...]
    """Each checkpoint's model facts with value as printed, unit, source and concerns."""
    configurations: tuple[Link, ...]
    papers: tuple[Link, ...]


@dataclass(frozen=True)
class SourcePage(RecordPage):
    source: Source
    facts: tuple[Fact, ...]
    citing: tuple[Link, ...]


@dataclass(frozen=True)
class QuestionPage(RecordPage):
    question: Question
    results: EvaluationList
    protocols: tuple[Link, ...]
