"""Typed contexts of every page type: what each template receives as `page`, and the
views of the sections several pages share.

One module holds them all, each field with a description (the docstring under it).
The page family modules of `render/` build them (`evaluation`, `configuration`,
`dataset`, `family`, `source`, `question`, `protocol`, `index`; the chooser pages in
`chooser/`) from the records and the derived facts; templates only display them.
`tests/test_render_contract.py` checks that every attribute a template reads is a field
here, and that it is described; `tests/test_pages.py` that every field is shown.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from ..derive.concerns import Flag
from ..derive.logs import LogFacts
from .comparison_table import Cell, ComparisonTable, TableColumn, TableRow
from .coverage import BaselineCoverage, CatalogueCounts, ProtocolCoverage
from .evaluation_rows import EvaluationRow
from .evidence import CitedSource, EvidenceRow, EvidenceTable, SourceList
from .filters import FilterIndex
from .findings import CatalogueFinding, ClaimView, Headline
from .metadata import MetaItem as MetaItem
from .metadata import MetaValue as MetaValue
from .page import Link as Link
from .page import Page as Page
from .page import PageHeader as PageHeader
from .page import page_header as page_header  # Page, Link: page.py (re-exported)
from .present.flags import FlagView
from .readiness_text import ReadinessView
from .reproduction import ReproductionGroup
from .reproduction_chart import Chart
from .search import SearchEntry

if TYPE_CHECKING:
    from .fits.contexts import FamilyCurves
    from .model_page import CheckpointFacts, FactLine, TaskGroup


@dataclass(frozen=True)
class SiteFacts:
    """What the derive stage computed once for the whole build."""

    release_id: str
    flags: Mapping[str, tuple[Flag, ...]]
    """Evaluation id -> concern flags."""
    artifact_hashes: Mapping[str, str | None]
    """Artifact path -> SHA-256 the builder computed (None: no file found)."""
    filters: FilterIndex
    """Facet values of every evaluation (render.filters)."""
    filter_hrefs: Mapping[tuple[str, str], str]
    """(facet key, token) -> page listing every evaluation with that value."""
    downloads: tuple[Link, ...]
    """The release's CSV downloads, in display order."""
    release_download: Link
    """The release and checksums CSV."""
    shared_titles: frozenset[str] = frozenset()
    """Record titles that more than one record carries: the <title> of their pages adds
    the record id, so no two pages share a <title>."""
    artifact_logs: Mapping[str, LogFacts] = field(default_factory=dict)
    """SHA-256 -> what the raw log of that hash records (commit, times, GPU), for the
    JSON logs whose file hashes to the recorded SHA-256 (`release.read_logs`)."""


# ----------------------------------------------------------------- contexts


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
    concerns: tuple[ConcernView, ...]
    """The concerns an editor recorded on the record, in reader words (an evaluation's
    page shows its own in its concerns section, with the builder's)."""
    related: tuple[RelatedLink, ...]
    correction_url: str
    api_href: str
    downloads: tuple[Link, ...]
    release_download: Link


@dataclass(frozen=True)
class ConcernView:
    """A concern recorded on a record, as a reader sees it."""

    id: str
    """The concern's id within its record (an evaluation's flag names it)."""
    label: str
    """The kind's label: 'Sources state different values', 'Checkpoint unclear', ..."""
    about: str
    """The field it concerns in reader words ('checkpoint 1, facts, layers'), or '' for
    the record as a whole."""
    text: str
    """What is wrong (Markdown)."""
    values: tuple[str, ...]
    """Each value a source states, with the source and where ('28 (Paper 2024, Table 1)')."""
    excludes: bool
    """True: the results it concerns leave comparisons and best in column."""


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
class RecipeView:
    """A protocol's runnable recipe, as its page shows it."""

    id: str
    """Recipe id known to `rewire measure list`."""
    command: str
    """The command that runs it."""
    hardware: str
    """The hardware it needs."""
    note: str | None
    """What the recipe leaves open (Markdown); None without a note."""


@dataclass(frozen=True)
class ProtocolPage(RecordPage):
    recipe: RecipeView | None
    """The protocol's runnable recipe; None without one (`recipe_missing` says why)."""
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
    """The recipe record's hand estimate of its run time, read as a duration ('1 minute',
    '2 minutes', '30 seconds'); '' without one."""
    reproductions: tuple[ReproductionGroup, ...]
    """One per published evaluation that Rewire measurements reproduce."""
    reproduction_charts: tuple[Chart | None, ...]
    """One per reproduction, in order: its bar chart (None: no value to draw)."""
    measurements: ComparisonView | None
    """Rewire measurements in their own table (rows by setup); None without any."""
    measurements_by_setup: bool
    """True when the measurements table has one row per measured setup (a model and the
    recipe's setup settings) rather than one per tested configuration."""
    setup_keys_text: str
    """The recipe's setup settings that make a setup, joined: 'gpus, cuda_graphs' ('' without
    a recipe)."""
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
    fits: Link | None = None
    """The "Does it fit on my GPU?" page when this protocol's points are memory curves
    (its recipe is `derive.fits.CURVE_RECIPE`), else None."""


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
    """'Published result, transcribed from its source, not run by Rewire.' or what a
    measurement is."""
    results: ResultsTable
    flags: tuple[FlagView, ...]
    flags_text: str
    """'2 concerns', '1 concern': how many concern flags the evaluation has."""
    readiness: ReadinessView
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
    reproduction_charts: tuple[Chart | None, ...]
    """One per reproduction, in order: its bar chart (None: no value to draw)."""
    observations: tuple[ObservationRow, ...]
    """Quantities measured beside the results, in record order."""
    headline: Headline
    """The page's finding first: the value, and whether and how closely it reproduced."""
    claims: tuple[ClaimView, ...]
    """Claims as printed (not one value each; never ranked)."""


@dataclass(frozen=True)
class ConfigurationPage(RecordPage):
    answer: str
    """The page's answer in plain words, built from its context (render/leads.py)."""
    results: ResultsTable
    family: Link
    facts: tuple[Fact, ...]


@dataclass(frozen=True)
class ProtocolCount:
    """How many evaluations and results of one protocol a page holds."""

    protocol: Link
    evaluations: int
    results: int


@dataclass(frozen=True)
class DatasetPage(RecordPage):
    answer: str
    """The page's answer in plain words, built from its context (render/leads.py)."""
    results: EvaluationList
    facts: tuple[Fact, ...]
    protocols: tuple[Link, ...]
    listed: bool
    """Whether the page lists its evaluations one row each; a dataset with more than
    render.dataset.LIST_LIMIT evaluations lists them per protocol (by_protocol), each
    protocol's page listing its own."""
    by_protocol: tuple[ProtocolCount, ...]


@dataclass(frozen=True)
class FamilyPage(RecordPage):
    answer: str
    """The page's answer in plain words: checkpoints, sizes, results and tasks."""
    key_facts: tuple[CheckpointFacts, ...]
    """Each checkpoint's key facts, cited or 'not reported by the cited sources'."""
    compare: tuple[Link, ...]
    """Pages comparing this family with another on their shared tasks."""
    result_groups: tuple[TaskGroup, ...]
    """Every result by task family, protocol class and protocol (not ranked)."""
    facts: tuple[Fact, ...]
    fact_rows: tuple[FactLine, ...]
    """Each checkpoint's model facts with value as printed, unit, source and concerns."""
    configurations: tuple[Link, ...]
    papers: tuple[Link, ...]
    memory_curves: FamilyCurves
    """The "Does it fit on my GPU?" section: memory-curve answers and charts of this
    family's models (fits.pages.family_curves)."""
    cross_source: CrossSourceSection | None = None
    """'Where sources overlap': this family's checkpoints on one task, metric and protocol
    class in two or more sources, side by side with the verdict (`render.cross_source`)."""


@dataclass(frozen=True)
class SourcePage(RecordPage):
    answer: str
    """The page's answer in plain words, built from its context (render/leads.py)."""
    url: str
    """Where the source is published ('Open the source')."""
    facts: tuple[Fact, ...]
    citing: tuple[Link, ...]


@dataclass(frozen=True)
class QuestionPage(RecordPage):
    answer: str
    """The page's answer in plain words, built from its context (render/leads.py)."""
    decision: str
    """The decision the reader faces (Markdown)."""
    considerations: tuple[str, ...]
    """What to weigh (Markdown each)."""
    results: EvaluationList
    protocols: tuple[Link, ...]


# ----------------------------------------------------------------- where sources overlap


@dataclass(frozen=True)
class CrossSourceSide:
    """One source's value for the key, as a reader sees it."""

    source: str
    """The publication ('Lindsey et al. 2025')."""
    label: str
    """The source's model label and its settings ('DNABERT2, learning rate 3e-05')."""
    value: str
    """'0.6681 ± 0.0148 (sd of 10 runs)', or '0.5466 (one run, spread not stated)'."""
    href: str
    """The page of the table or evaluation that holds the value."""
    evidence: str
    """Where the value is in the source's file ('best_replicates.csv, row 572, and 9
    more rows')."""


@dataclass(frozen=True)
class CrossSourceRow:
    """Two sides of one key: different sources (a pair) or one source twice (a
    conflict)."""

    task: Link
    """The task page the key belongs to."""
    checkpoint: str
    """The checkpoint both sides name (hub id)."""
    metric: str
    """The metric's label, with its scale ('MCC, as a fraction')."""
    protocol_class: str
    """'Fine-tuned', 'Frozen probe', ...: the class both sides share."""
    first: CrossSourceSide
    """The first side."""
    second: CrossSourceSide
    """The second side."""
    difference: str
    """second minus first, signed ('+0.1215')."""
    allowed: str
    """What the difference is held to: the stated spreads plus rounding ('0.0148')."""
    verdict: str
    """The verdict in words (`VERDICTS`)."""
    state: str
    """disagrees | within_spread | spread_not_stated | conflict."""


@dataclass(frozen=True)
class CrossSourceSection:
    """The 'Where sources overlap' section of a task or model page."""

    summary: str
    """One sentence: how many keys, pairs and verdicts; or that no two sources overlap."""
    reading: str
    """How the verdict is reached (`derive.cross_source.READING`)."""
    rows: tuple[CrossSourceRow, ...]
    """The pairs of sides of different sources the page lists: all of them up to
    `cross_source.ROW_LIMIT`, else the differences furthest beyond the stated spread."""
    conflicts: tuple[CrossSourceRow, ...]
    """Pairs of sides where one source gives two values for the same key (up to the
    limit)."""
    download: str
    """The site-wide CSV of every pair (path from the site root)."""


# ----------------------------------------------------------------- pages that are no record


@dataclass(frozen=True)
class FindingsPage(Page):
    """The findings page: each protocol's headline, the catalogue's counts, protocols by
    area, the newest records, decisions and the coverage table."""

    counts: CatalogueCounts
    """Records by kind, and how many evaluations are Rewire measurements."""
    areas: tuple[AreaView, ...]
    """Protocols grouped by area, for 'Protocols by area'."""
    newest: tuple[Link, ...]
    """The records added last (those that state when they were added)."""
    newest_dates: tuple[str, ...]
    """`added` date of each newest record (same order)."""
    findings: tuple[CatalogueFinding, ...]
    """Headline findings of the protocols where a measurement bears on a published value:
    the findings page leads with these."""
    unmeasured: tuple[CatalogueFinding, ...]
    """The other protocols' headlines (no published value measured yet), listed after."""
    unmeasured_text: str
    """'40 protocols hold 900 published values that no measurement reproduces yet.'"""
    coverage: tuple[ProtocolCoverage, ...]
    """Every protocol's coverage row: the coverage table."""
    questions: tuple[Link, ...]
    """Every decision (question record)."""
    downloads: tuple[Link, ...]
    """The release's download files."""


@dataclass(frozen=True)
class ProtocolLine:
    """One protocol in the home page's list by area."""

    title: str
    """The protocol's title."""
    href: str
    """Its page, relative to the site root."""
    metric_label: str
    """The metric it measures, e.g. 'Peak memory'."""
    counts_text: str
    """'4 evaluations (2 Rewire measurements)', '1 evaluation'."""


@dataclass(frozen=True)
class AreaView:
    """The protocols of one area."""

    area: str
    """Area slug ('' for protocols without an area): the heading's id."""
    label: str
    """The area as a heading reads."""
    protocols: tuple[ProtocolLine, ...]
    """Its protocols, in the order derive gives."""


@dataclass(frozen=True)
class SearchPage(Page):
    entries: tuple[SearchEntry, ...]
    """This part's share of every record's entry."""
    count_text: str
    parts: tuple[Link, ...] = ()
    """Every part of the list (empty when one page holds it all)."""
    index_href: str = ""
    """The whole index as JSON, from the site root."""
    searches_all: bool = False
    """True on the search page itself: with JavaScript it searches the whole index."""


@dataclass(frozen=True)
class DownloadItem:
    link: Link
    description: str


@dataclass(frozen=True)
class DownloadsPage(Page):
    files: tuple[DownloadItem, ...]
    api_note: str


@dataclass(frozen=True)
class FilterRow:
    evaluation: Link
    configuration: Link
    protocol: Link
    dataset: Link
    origin_label: str
    result_count: int


@dataclass(frozen=True)
class FilterPage(Page):
    """Every evaluation with one facet value: the no-JS result of a filter."""

    facet_label: str
    value_label: str
    rows: tuple[FilterRow, ...]
    count_text: str
    parts: tuple[Link, ...] = ()
    """The pages of a long list ('1 to 1,000', ...); empty when one page holds it."""
    part: int = 0
    """Index of this page in `parts`."""


# ----------------------------------------------------------------- sections several pages share


@dataclass(frozen=True)
class FacetOption:
    value: str
    """Token in the rows' `data-facet-<key>` attribute."""
    label: str
    count: int
    """Rows on this page with this value."""
    href: str | None
    """Pre-rendered page listing every evaluation with this value (works without JS)."""


@dataclass(frozen=True)
class Facet:
    key: str
    """'model', 'protocol', 'dataset', 'setup', 'metric' or 'origin'."""
    label: str
    options: tuple[FacetOption, ...]


@dataclass(frozen=True)
class NoteRef:
    """A cell's reference to a concern explained once in the table's legend."""

    index: int
    label: str


@dataclass(frozen=True)
class LegendView:
    index: int
    label: str
    text: str
    """Markdown."""
    count_text: str
    """'38 results'."""
    excludes: bool


@dataclass(frozen=True)
class ResultRowView:
    """One row of 'Exact evaluated configurations and original reported results'."""

    row: EvaluationRow
    anchor: str
    """Element id: the comparison cells link here ('result-<evaluation>-<column>')."""
    evaluation_href: str
    configuration_href: str
    protocol_href: str
    dataset_href: str
    source_href: str | None
    facet_values: tuple[tuple[str, str], ...]
    """(facet key, space-separated value tokens) -> `data-facet-<key>` attributes."""
    notes: tuple[NoteRef, ...] = ()
    """Computed concerns shown by label, explained in the table's legend (compact)."""


@dataclass(frozen=True)
class ResultsTable:
    """The evaluation rows of a page, with their filter form."""

    id: str
    """Table element id (the filter form's target)."""
    form_id: str
    caption: str
    rows: tuple[ResultRowView, ...]
    evaluation_count: int
    matching_text: str
    """'3 matching evaluations': the filter form's count before any filter is applied;
    '5 matching table rows' on a protocol page that lists no result rows (the filter then
    hides and counts its comparison tables' rows, as rewire.js does)."""
    counts_text: str
    """'1 evaluation · 1 result'."""
    facets: tuple[Facet, ...]
    show_protocol: bool
    """False on a protocol page with one dataset: every row would repeat them."""
    compact: bool = False
    """True: computed concerns by label and legend; no per-row repeats."""
    legend: tuple[LegendView, ...] = ()


@dataclass(frozen=True)
class ColumnView:
    column: TableColumn
    sort_href: str
    """Page with the table pre-sorted by this column (no-JS sorting)."""
    sorted: bool
    """True for the column the table is sorted by (aria-sort)."""
    aria_sort: str
    """'ascending' or 'descending' (in the metric's direction) when sorted, else ''."""


@dataclass(frozen=True)
class CellView:
    cell: Cell
    href: str | None
    """The evaluation row that shows the printed value and its source."""
    sort_value: str
    """Stored value as text for the sort script; empty for no value or an excluded one."""
    notes: tuple[NoteRef, ...] = ()
    """Every concern about this result, by its number in the table's legend."""
    label: str = ""
    """The column's header: the name a phone shows above the value when the table stacks
    into one card per row."""


@dataclass(frozen=True)
class ComparisonRowView:
    row: TableRow
    configuration_href: str
    evaluations: tuple[Link, ...]
    cells: tuple[CellView, ...]
    facet_values: tuple[tuple[str, str], ...]


class SharedRows:
    """The HTML of table rows rendered once and reused by the other pages that show the
    same row views (a protocol's sorted views: one table in several orders, the same
    page depth, no filter data). `shared(render, page, row)` in a template calls the macro
    `render(page, row)` for a row view object it has not seen with this `page.root`,
    and returns the HTML it gave before otherwise. Keyed by the row view object itself
    (its identity, checked through a weak reference: a row made again after it was
    dropped is rendered again), so only pages built from the same view objects share
    rows; `render.protocol.sorted_pages` makes one per protocol. The HTML of rows no
    longer alive is dropped as the cache grows."""

    def __init__(self) -> None:
        self._html: dict[tuple[int, str], tuple[weakref.ref[object], Markup]] = {}
        self._sweep_at = 1024
        self.hits = 0

    def __call__(self, render: Callable[[Any, Any], Any], page: Any, row: object) -> Markup:
        key = (id(row), page.root)
        found = self._html.get(key)
        if found is not None and found[0]() is row:
            self.hits += 1
            return found[1]
        html = Markup(render(page, row))
        self._html[key] = (weakref.ref(row), html)
        if len(self._html) >= self._sweep_at:  # amortised: the size doubles in between
            self._html = {k: v for k, v in self._html.items() if v[0]() is not None}
            self._sweep_at = max(1024, 2 * len(self._html))
        return html

    @property
    def kept(self) -> int:
        """Rows whose HTML is kept (some may have been dropped since the last sweep). Not
        `__len__`: templates test `if shared_rows`, which an empty one must pass."""
        return len(self._html)


@dataclass(frozen=True)
class ComparisonView:
    """A protocol's comparison table, ready to display."""

    id: str
    table: ComparisonTable
    columns: tuple[ColumnView, ...]
    rows: tuple[ComparisonRowView, ...]
    datasets: tuple[Link, ...]
    legend: tuple[LegendView, ...] = ()
    ranking_text: str = ""
    """How best is chosen: among results whose recorded conditions match."""
    excluded_text: str = ""
    shared_rows: SharedRows | None = field(default=None, compare=False)
    """Rows rendered once for every view of this table in another order (the sorted
    views of one protocol), or None: each row rendered here."""


@dataclass(frozen=True)
class EvaluationListRow:
    """One evaluation in a compact list (dataset, family, question and filter pages)."""

    evaluation: Link
    configuration: Link
    protocol: Link
    dataset: Link
    origin_label: str
    findings: str
    """'1.18 (Peak memory, stage + Checkpointing); ...': display values and column labels."""
    flag_labels: tuple[str, ...]
    facet_values: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class EvaluationList:
    """Evaluations, one row each, with the filter form (like ResultsTable)."""

    id: str
    form_id: str
    caption: str
    rows: tuple[EvaluationListRow, ...]
    evaluation_count: int
    matching_text: str
    """'3 matching evaluations': the filter form's count before any filter is applied."""
    counts_text: str
    facets: tuple[Facet, ...]


@dataclass(frozen=True)
class EvidenceGroup:
    """Evidence rows that cite the same source at the same place: the source and
    provenance cells span them (rowspan)."""

    cited: CitedSource
    shared_locator: bool
    rows: tuple[EvidenceRow, ...]


@dataclass(frozen=True)
class EvidenceView:
    table: EvidenceTable
    groups: tuple[EvidenceGroup, ...]
    record_review: str
    origin: str | None
    open: bool
    """True when the evidence table is short enough (`EVIDENCE_OPEN_ROWS` rows or fewer)
    to show open; a longer one starts folded."""
