"""Contexts of the pages that are not one record: findings, search, downloads, filter lists.

Like the record page modules, every value is computed here or in `derive`; templates only
display.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..derive.concerns import Flag
from ..link import Catalogue
from ..models import Configuration, Dataset, Evaluation, Protocol, Question
from .contexts import (
    AreaView,
    DownloadItem,
    DownloadsPage,
    FilterPage,
    FilterRow,
    FindingsPage,
    Link,
    ProtocolLine,
    SearchPage,
    SiteFacts,
    page_header,
)
from .coverage import (
    ProtocolCoverage,
    catalogue_counts,
    newest_records,
    protocol_coverage,
    protocols_by_area,
)
from .filters import FACETS, FilterIndex
from .findings import CatalogueFinding, Headline, catalogue_findings
from .present.labels import ORIGIN_LABELS
from .present.numbers import plural
from .reproduction import ReproductionGroup
from .search import SearchEntry
from .urls import (
    DOWNLOADS,
    FINDINGS,
    SEARCH_INDEX,
    filter_path,
    record_path,
    search_part_path,
)

DOWNLOAD_NOTES = {
    "downloads/protocol-coverage.csv.gz": "one row per protocol: evaluations by origin, "
    "results, results excluded from comparisons, columns with results, recipe, baseline "
    "roles, published values measured and those that agree within tolerance.",
    "downloads/model-evaluation-matrix.csv.gz": "one row per evaluation result: model, "
    "protocol, dataset, origin, column, value on its metric's scale as the pages show it "
    "(MCC and other correlations on -1 to 1) with its unit, the value as printed, "
    "uncertainty, coverage, concern flags and source.",
    "downloads/sources.csv.gz": "one row per source: citation, version as retrieved, URL, "
    "retrieval time, SHA-256 and hash scope.",
    "downloads/release.csv.gz": "the release id, the SHA-256 of the canonical records, and "
    "every other file of this site with its SHA-256 and size.",
    "downloads/every-eval-ever.jsonl.gz": "every evaluation as one JSON document per line in "
    "the Every Eval Ever schema (version 0.3.0), grouped by protocol, each score on its "
    "metric's scale as the pages show it; see the README for the "
    "fields it cannot hold.",
    "downloads/citations.bib": "a BibTeX entry for this release and for every source.",
    "downloads/citations.csl.json": "the same citations as CSL-JSON, for reference managers.",
}


def download_items(links: tuple[Link, ...]) -> tuple[DownloadItem, ...]:
    return tuple(DownloadItem(link, DOWNLOAD_NOTES.get(link.href, "")) for link in links)


def _unmeasured_text(rest: tuple[CatalogueFinding, ...]) -> str:
    """What the protocols without a measured value hold (`rest`: their findings)."""
    values = sum(len(f.headline.findings) for f in rest)
    if not rest:
        return ""
    return (
        f"{plural(len(rest), 'protocol')} hold{'s' if len(rest) == 1 else ''} "
        f"{plural(values, 'published value')} that no measurement reproduces yet."
    )


def findings_page(
    catalogue: Catalogue,
    facts: SiteFacts,
    headlines: Mapping[str, Headline] | None = None,
    coverage: tuple[ProtocolCoverage, ...] | None = None,
) -> FindingsPage:
    """The findings page; `headlines`: each protocol's headline, and `coverage`: every
    protocol's coverage row (`coverage_rows`), when computed already."""
    newest = newest_records(catalogue)
    if coverage is None:
        coverage = protocol_coverage(catalogue, facts.flags)
    if headlines is None:
        found = catalogue_findings(catalogue, facts.flags)
    else:
        found = tuple(
            CatalogueFinding(p.id, p.title, headlines[p.id])
            for p in sorted(catalogue.protocols(), key=lambda p: p.id)
        )
    measured = {f.protocol_id: bool(f.headline.measured) for f in found}
    rest = tuple(f for f in found if not measured[f.protocol_id])
    return FindingsPage(
        **page_header(
            "findings.html",
            FINDINGS,
            "Findings and coverage",
            "What each protocol's published values are, whether Rewire's measurements "
            "reproduced them, and how much of each protocol the records cover.",
            facts.release_id,
        ),
        counts=catalogue_counts(catalogue),
        areas=tuple(
            AreaView(
                group.area,
                group.label,
                tuple(
                    ProtocolLine(
                        p.title,
                        record_path("protocol", p.id),
                        p.metric_label,
                        plural(p.evaluation_count, "evaluation")
                        + (
                            f" ({plural(p.measurement_count, 'Rewire measurement')})"
                            if p.measurement_count
                            else ""
                        ),
                    )
                    for p in group.protocols
                ),
            )
            for group in protocols_by_area(catalogue, coverage)
        ),
        newest=tuple(Link(n.title, record_path(n.kind, n.id)) for n in newest),
        newest_dates=tuple(n.added for n in newest),
        findings=tuple(f for f in found if measured[f.protocol_id]),
        unmeasured=rest,
        unmeasured_text=_unmeasured_text(rest),
        coverage=coverage,
        questions=tuple(
            Link(q.title, record_path("question", q.id)) for q in catalogue.of_kind(Question)
        ),
        downloads=facts.downloads,
    )


def coverage_rows(
    catalogue: Catalogue,
    flags: Mapping[str, tuple[Flag, ...]],
    reproductions: Mapping[str, Sequence[ReproductionGroup]],
) -> tuple[ProtocolCoverage, ...]:
    """Every protocol's coverage row (the findings page's table, the coverage CSV), from the
    reproduction groups the derive stage computed."""
    return protocol_coverage(catalogue, flags, reproductions)


SEARCH_PER_PAGE = 1_200
"""Entries per part of the search list: about 530 bytes each, so a part stays near 640 KB
(the whole list was 1.88 MB at 3,543 records, over the 1 MB a page may weigh)."""


def split_in_parts(
    count: int, per_page: int, path_of: Callable[[int], str]
) -> tuple[list[int], tuple[Link, ...]]:
    """Where each page of a long list starts, and a link to every part ('1 to 1,000', ...)
    when there is more than one (`path_of(part)`, parts counted from 1)."""
    starts = list(range(0, count, per_page)) or [0]
    if len(starts) == 1:
        return starts, ()
    return starts, tuple(
        Link(f"{start + 1:,} to {min(start + per_page, count):,}", path_of(n + 1))
        for n, start in enumerate(starts)
    )


def search_pages(
    entries: tuple[SearchEntry, ...], facts: SiteFacts, per_page: int = SEARCH_PER_PAGE
) -> list[SearchPage]:
    """The search page and, past `per_page` entries, its further parts: each lists its share
    of every record (without JavaScript, the browser's find searches a part); with
    JavaScript the search page searches the whole index (search/index.json)."""
    starts, parts = split_in_parts(len(entries), per_page, search_part_path)
    pages = []
    for n, start in enumerate(starts):
        shown = entries[start : start + per_page]
        title = "All records" + (f" (part {n + 1} of {len(starts)})" if parts else "")
        pages.append(
            SearchPage(
                **page_header(
                    "search.html",
                    search_part_path(n + 1),
                    title,
                    "Search every record of the catalogue by title, id and model name.",
                    facts.release_id,
                    nav="search",
                ),
                entries=shown,
                count_text=f"{plural(len(entries), 'record')} in this release"
                + (f"; this part lists {start + 1:,} to {start + len(shown):,}" if parts else ""),
                parts=parts,
                index_href=SEARCH_INDEX,
                searches_all=n == 0,
            )
        )
    return pages


def downloads_page(files: tuple[DownloadItem, ...], facts: SiteFacts) -> DownloadsPage:
    return DownloadsPage(
        **page_header(
            "downloads.html",
            DOWNLOADS,
            "Downloads",
            "Release files: CSV tables (gzip), checksums and one JSON file per record.",
            facts.release_id,
            nav="downloads",
        ),
        files=files,
        api_note="Every record is also published as JSON at api/<kind>/<id>.json, the "
        "validated record as stored, with its id and kind.",
    )


RECORD_FACETS = {"model": "model_family", "protocol": "protocol", "dataset": "dataset"}
"""Facets whose values are records: their page already lists every matching evaluation."""


def filter_hrefs(filters: FilterIndex) -> dict[tuple[str, str], str]:
    """(facet key, token) -> the page that lists every evaluation with that value: the
    record's own page for model family, protocol and dataset, else a filter page."""
    hrefs = {}
    for key, index in filters.index.items():
        for tokens in index.values():
            for value in tokens:
                if key in RECORD_FACETS:
                    hrefs[(key, value)] = record_path(RECORD_FACETS[key], value) + "#results"
                else:
                    hrefs[(key, value)] = filter_path(key, value)
    return dict(sorted(hrefs.items()))


def filter_members(filters: FilterIndex) -> dict[tuple[str, str], tuple[str, ...]]:
    """(facet key, token) -> evaluation ids, for the facets that get filter pages
    (evaluation setup, metric, evidence origin), sorted."""
    members: dict[tuple[str, str], list[str]] = {}
    for key, index in filters.index.items():
        if key in RECORD_FACETS:
            continue
        for evaluation_id, tokens in index.items():
            for value in tokens:
                members.setdefault((key, value), []).append(evaluation_id)
    return {k: tuple(sorted(v)) for k, v in sorted(members.items())}


FILTER_ROWS_PER_PAGE = 500
"""Evaluations one filter page lists; a value with more gets further pages
(`filter_part_path`): no page over 1 MB however many evaluations match. Rows run to about
1 kB each where titles are long (Rewire's measurements: 1,000 rows made a 1,051 kB page on
2026-12-07), so 500 keeps a page near half a megabyte."""


def filter_part_path(facet: str, value_slug: str, number: int) -> str:
    """Path of part `number` (1-based) of a filter's list: part 1 is `filter_path`."""
    first = filter_path(facet, value_slug)
    return first if number == 1 else first.replace("index.html", f"part-{number}/index.html")


def filter_page(
    key: str,
    value: str,
    evaluation_ids: tuple[str, ...],
    catalogue: Catalogue,
    facts: SiteFacts,
) -> FilterPage:
    """The first page of every evaluation of the catalogue whose facet `key` has
    `value` (`filter_pages`: all of them)."""
    return filter_pages(key, value, evaluation_ids, catalogue, facts)[0]


def filter_pages(
    key: str,
    value: str,
    evaluation_ids: tuple[str, ...],
    catalogue: Catalogue,
    facts: SiteFacts,
    per_page: int = FILTER_ROWS_PER_PAGE,
) -> list[FilterPage]:
    """Every evaluation of the catalogue whose facet `key` has `value`, `per_page` to a
    page (one page for up to `per_page`)."""
    facet_label = dict(FACETS).get(key, key)
    value_label = facts.filters.labels.get(key, {}).get(value, value)
    rows = tuple(_filter_row(i, catalogue) for i in evaluation_ids)
    starts, parts = split_in_parts(
        len(rows), per_page, lambda part: filter_part_path(key, value, part)
    )
    pages = []
    for n, start in enumerate(starts):
        shown = rows[start : start + per_page]
        pages.append(
            FilterPage(
                **page_header(
                    "filter.html",
                    filter_part_path(key, value, n + 1),
                    f"{facet_label}: {value_label}"
                    + (f" (part {n + 1} of {len(starts)})" if parts else ""),
                    f"Every evaluation whose {facet_label.lower()} is {value_label}.",
                    facts.release_id,
                ),
                facet_label=facet_label,
                value_label=value_label,
                rows=shown,
                count_text=plural(len(rows), "evaluation")
                + (f"; this page lists {start + 1:,} to {start + len(shown):,}" if parts else ""),
                parts=parts,
                part=n,
            )
        )
    return pages


def _filter_row(evaluation_id: str, catalogue: Catalogue) -> FilterRow:
    evaluation = catalogue.get(evaluation_id, Evaluation)
    configuration = catalogue.get(evaluation.configuration, Configuration)
    protocol = catalogue.get(evaluation.protocol, Protocol)
    dataset = catalogue.get(evaluation.dataset, Dataset)
    return FilterRow(
        evaluation=Link(evaluation.title, record_path("evaluation", evaluation.id)),
        configuration=Link(configuration.title, record_path("configuration", configuration.id)),
        protocol=Link(protocol.title, record_path("protocol", protocol.id)),
        dataset=Link(dataset.title, record_path("dataset", dataset.id)),
        origin_label=ORIGIN_LABELS[evaluation.origin],
        result_count=len(evaluation.results),
    )
