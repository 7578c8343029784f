"""The site plan: what the derive stage computes once for the whole build (`SiteFacts`,
the search entries, the filter members, the release) and the page jobs the render
stage runs from it (`SitePlan.jobs`, `SitePlan.make`).

A page job is a small picklable tuple (`('record', '<id>')`, `('home',)`); `make` turns
one into the page contexts (or `DataFile`s) it renders. A new page family plugs in here:
one job in `jobs` and one branch in `make` that calls its context builder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import release
from ..derive.model_compare import family_pairs, family_triples
from ..derive.overlaps import task_groups
from ..link import Catalogue
from ..models import (
    Configuration,
    Dataset,
    Evaluation,
    ModelFamily,
    Protocol,
    Question,
    RecordBase,
    ResultTable,
    Source,
)
from . import cross_source, downloads, home, index, table_downloads
from .chooser.pages import chooser_index, matrix_files, task_files, task_path
from .comparison_table import ProtocolTables
from .configuration import configuration_page
from .contexts import DownloadItem, Link, SiteFacts
from .coverage import ProtocolCoverage
from .dataset import dataset_page
from .evaluation import EvaluationWords, evaluation_page
from .export import SITE_URL, export_files
from .export.jsonld import with_json_ld
from .family import family_page
from .findings import Headline
from .fits.pages import fits_page
from .model_compare import compare_links, compare_pages, triple_links, triple_page
from .models import MODELS_PATH, models_page
from .pool import DataFile, Job
from .protocol import protocol_page, sorted_pages
from .question import question_page
from .reproduction import ReproductionGroup
from .result_table import download_path, rows_pages, table_page
from .search import SearchEntry
from .source import source_page
from .urls import api_path, kind_of

API_CHUNK = 250
"""Records per job that writes their JSON files (`api/<kind>/<id>.json`)."""

EXPORTS = "exports"
SITEMAP_JOBS = ("chooser", "task", "matrix", "fits", "models")
"""The kinds of job whose pages the sitemap lists after the record pages."""
DATA_JOBS = (
    downloads.EVALUATION_MATRIX,
    EXPORTS,
    downloads.API_DERIVED,
    downloads.PROTOCOL_COVERAGE,
    downloads.SOURCE_TABLE,
    downloads.API_INDEX,
    table_downloads.TASK_IDENTITY,
    table_downloads.CHECKPOINT_IDENTITY,
    cross_source.CROSS_SOURCE,
)
"""The jobs `('data', name)`: each gzip CSV (the release table aside, written last), the
API index and api/derived.json, and the exports (Every Eval Ever, citations): one job
each, so they run side by side and `rewire serve` remakes only those an edit changes.
The heaviest first: the pool stays balanced."""

RECORD_PAGES: dict[type[RecordBase], Any] = {
    Configuration: configuration_page,
    Dataset: dataset_page,
    Source: source_page,
    Question: question_page,
    ResultTable: table_page,
}
"""Record type -> builder of its page context (protocols have a job of their own; a
family's page also takes its `SitePlan.family_links`, an evaluation's its
`SitePlan.evaluations`)."""


def api_slices(record_ids: tuple[str, ...]) -> dict[tuple[str, str], tuple[str, ...]]:
    """The record ids of each JSON API job (`('api', start, stop)`), by (start, stop)."""
    return {
        (str(i), str(i + API_CHUNK)): record_ids[i : i + API_CHUNK]
        for i in range(0, len(record_ids), API_CHUNK)
    }


@dataclass(frozen=True)
class SitePlan:
    """Everything the render workers need, computed before anything is written."""

    release: release.Release
    """The release id, date and content hash."""
    catalogue: Catalogue
    facts: SiteFacts
    entries: tuple[SearchEntry, ...]
    """The search index, one entry per record."""
    members: dict[tuple[str, str], tuple[str, ...]]
    """(facet key, token) -> evaluation ids: one filter page each."""
    download_items: tuple[DownloadItem, ...]
    record_ids: tuple[str, ...]
    """Every record id, sorted (the JSON API jobs take slices of it)."""
    tables: Mapping[str, ProtocolTables]
    """Protocol id -> its comparison tables in default order, computed once: the protocol
    pages, their sorted views, the evaluation matrix CSV and api/derived.json use them."""
    headlines: Mapping[str, Headline]
    """Protocol id -> its headline finding, computed once: the protocol page, the home
    page and api/derived.json use it."""
    reproductions: Mapping[str, tuple[ReproductionGroup, ...]]
    """Protocol id -> its reproduction groups, computed once: the protocol page and the
    verdicts of the evaluation matrix CSV and api/derived.json use them."""
    coverage: tuple[ProtocolCoverage, ...]
    """Every protocol's coverage row, computed once from `reproductions` (the home page
    and the coverage CSV show them)."""
    results: Mapping[str, downloads.Derived]
    """Protocol id -> the standing and verdict of each of its results, computed once from
    `tables` and `reproductions`: the evaluation matrix CSV and api/derived.json read
    them (computed in each of those jobs, it cost 1 CPU s twice at 10,000 evaluations;
    `rewire serve` now recomputes only an edited protocol's)."""

    eee_lines: Mapping[str, str | None]
    """Evaluation id -> its Every Eval Ever line (export.eee.eee_line), computed once: the
    exports job joins them (2.2 CPU s at 10,000 evaluations in that job; `rewire serve`
    now recomputes only the lines whose records an edit changed)."""
    family_links: Mapping[str, tuple[Link, ...]]
    """Family id -> links to the comparison pages it is on (`family.family_compare_links`),
    computed once for every family page."""
    evaluations: Mapping[str, EvaluationWords]
    """Evaluation id -> the derived facts its page shows (`derive.evaluation_facts`) and
    their words (`evaluation.evaluation_words`), made once: the page's context builder
    derives nothing itself."""

    def derived_results(self) -> downloads.Derived:
        """(evaluation id, column id) -> standing and verdict, over every protocol."""
        return {key: found for one in self.results.values() for key, found in one.items()}

    def protocol_coverage(self) -> tuple[ProtocolCoverage, ...]:
        """Every protocol's coverage row (`rewire serve` records this read)."""
        return self.coverage

    def models_href(self) -> str | None:
        """The model directory's page when the site plan has a job for it (the home page
        links to it only then)."""
        return MODELS_PATH if any(job[0] == "models" for job in self.jobs()) else None

    def make(self, job: Job) -> Sequence[Any]:
        """The page contexts of one job."""
        kind = job[0]
        if kind == "protocol":
            protocol = self.catalogue.get(job[1], Protocol)
            table = self.tables[protocol.id]
            page = protocol_page(
                protocol,
                self.catalogue,
                self.facts,
                table,
                headline=self.headlines[protocol.id],
                reproductions=self.reproductions[protocol.id],
            )
            return [
                with_json_ld(
                    page,
                    protocol,
                    self.catalogue,
                    SITE_URL,
                ),
                *sorted_pages(protocol, self.catalogue, self.facts, table),
            ]
        if kind == "record":
            record = self.catalogue.by_id[job[1]]
            if isinstance(record, ModelFamily):
                links = self.family_links[record.id]
                made: Any = family_page(record, self.catalogue, self.facts, links)
            elif isinstance(record, Evaluation):
                derived = self.evaluations[record.id]
                made = evaluation_page(record, self.catalogue, self.facts, derived)
            else:
                made = RECORD_PAGES[type(record)](record, self.catalogue, self.facts)
            if isinstance(record, ResultTable):
                return [
                    made,
                    *rows_pages(record, self.catalogue, self.facts),
                    DataFile(
                        download_path(record.id), table_downloads.table_csv(record, self.catalogue)
                    ),
                ]
            return [with_json_ld(made, record, self.catalogue, SITE_URL)]
        if kind == "filter":
            key, value = job[1], job[2]
            ids = self.members[(key, value)]
            return index.filter_pages(key, value, ids, self.catalogue, self.facts)
        if kind == "chooser":  # the index and the comparisons of two configurations
            return chooser_index(self.catalogue, self.facts.flags, self.facts.release_id)
        if kind == "task":
            return task_files(job[1], self.catalogue, self.facts.flags, self.facts.release_id)
        if kind == "matrix":
            return matrix_files(job[1], self.catalogue, self.facts.release_id)
        if kind == "fits":
            return [fits_page(self.catalogue, self.facts.release_id)]
        if kind == "models":
            pairs = family_pairs(self.catalogue, self.facts.flags)
            release = self.facts.release_id
            triples = family_triples(pairs)
            links = compare_links(pairs) + triple_links(triples)
            return [
                models_page(self.catalogue, release, links),
                *compare_pages(pairs, release),
                *(triple_page(t, release) for t in triples),
            ]
        if kind == "home":
            return [home.home_page(self.catalogue, self.facts, self.models_href())]
        if kind == "findings":
            coverage = self.protocol_coverage()
            return [index.findings_page(self.catalogue, self.facts, self.headlines, coverage)]
        if kind == "search":
            return list(index.search_pages(self.entries, self.facts))
        if kind == "downloads":
            return [index.downloads_page(self.download_items, self.facts)]
        if kind == "data":  # one site-wide file (or the exports), see DATA_JOBS
            return [DataFile(path, data) for path, data in sorted(self._data(job[1]).items())]
        if kind == "api":
            start, stop = int(job[1]), int(job[2])
            by_id = self.catalogue.by_id
            return [
                DataFile(api_path(kind_of(r), r.id), downloads.record_json(r))
                for r in (by_id[i] for i in self.record_ids[start:stop])
            ]
        raise ValueError(f"unknown page job {job!r}")

    def _data(self, name: str) -> dict[str, bytes]:
        """The files of the job `('data', name)`."""
        flags = self.facts.flags
        if name == downloads.PROTOCOL_COVERAGE:
            csv = downloads.protocol_coverage_csv(self.catalogue, rows=self.protocol_coverage())
            return {name: downloads.gzip_bytes(csv)}
        if name == downloads.SOURCE_TABLE:
            return {name: downloads.gzip_bytes(downloads.source_table_csv(self.catalogue))}
        if name == table_downloads.TASK_IDENTITY:
            return {name: table_downloads.task_identity_csv(self.catalogue)}
        if name == table_downloads.CHECKPOINT_IDENTITY:
            return {name: table_downloads.checkpoint_identity_csv(self.catalogue)}
        if name == cross_source.CROSS_SOURCE:
            return {name: cross_source.cross_source_csv(self.catalogue, task_path)}
        if name == downloads.API_INDEX:
            return {name: downloads.api_index(self.catalogue)}
        if name == EXPORTS:  # the sitemap: written after rendering, from the chooser pages
            return export_files(
                self.catalogue, self.facts.release_id, sitemap=False, lines=self.eee_lines
            )
        derived = self.derived_results()
        if name == downloads.EVALUATION_MATRIX:
            csv = downloads.evaluation_matrix_csv(self.catalogue, flags, derived)
            return {name: downloads.gzip_bytes(csv)}
        if name == downloads.API_DERIVED:
            return {name: downloads.derived_json(self.catalogue, flags, derived, self.headlines)}
        raise ValueError(f"unknown data job {name!r}")

    def jobs(self) -> list[Job]:
        """Every page job: the heavy record pages first, so the pool stays balanced."""
        found: list[Job] = [("data", name) for name in DATA_JOBS]
        found += [("protocol", p.id) for p in self.catalogue.protocols()]
        found += [
            ("record", r.id)
            for r in sorted(self.catalogue.by_id.values(), key=lambda r: (kind_of(r), r.id))
            if not isinstance(r, Protocol)
        ]
        found += [("filter", key, value) for key, value in self.members]
        found += [("home",), ("findings",), ("search",), ("downloads",), ("chooser",)]
        found += [("task", group[0]) for group in task_groups(self.catalogue)]
        found += [("matrix", f.id) for f in self.catalogue.of_kind(ModelFamily)]
        found += [("fits",), ("models",)]
        found += [("api", *span) for span in api_slices(self.record_ids)]  # light: last
        return found
