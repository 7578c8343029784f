"""The derive stage, one path for `rewire build` and `rewire serve`: from the records,
everything the page jobs read (`SitePlan`), each fact computed once.

`plan_site` computes the per-record facts (concern flags, filter facets, search entries,
Every Eval Ever lines, each evaluation page's derived facts) and the per-protocol ones
(comparison tables, headline, reproduction groups, coverage row, standings and verdicts)
through a `Reading`:
- a build reads once (`Once`): every fact computed, nothing kept;
- `rewire serve` reads through `incremental.derive.Derived`, which keeps each fact with
  the dependency keys its computation read, recomputes after an edit only the facts whose
  keys the edit reached, and collects the key of every fact whose value changed (so the
  page jobs that read it are remade).
The computations are the same functions either way: a served site settles to the bytes
of a full build (tests/test_incremental.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Protocol, TypeVar

from .. import release
from ..derive.concerns import Flag, flags
from ..derive.evaluation_facts import evaluation_facts
from ..derive.logs import LogFacts
from ..link import Catalogue
from ..models import Evaluation, RecordBase
from . import downloads, index
from .contexts import Link, SiteFacts
from .coverage import coverage_row
from .evaluation import evaluation_words
from .export.eee import eee_line
from .family import family_compare_links
from .filters import FilterIndex, evaluation_facets, index_of
from .findings import protocol_headline
from .plan import SitePlan, api_slices
from .protocol import protocol_table
from .reproduction import protocol_reproduction_groups
from .search import ordered_entries, search_entry

T = TypeVar("T")
V = TypeVar("V")
K = TypeVar("K")


def record_id(record: Any) -> str:
    """The name of a per-record fact: its record's id."""
    return str(record.id)


class Reading(Protocol):
    """How the derive stage computes and reads its facts (`Once`, or serve's `Derived`)."""

    @property
    def catalogue(self) -> Catalogue:
        """The catalogue the computations read (serve: a view that records each read)."""
        ...

    def each(
        self,
        tag: str,
        items: Iterable[T],
        compute: Callable[[T], V],
        name: Callable[[T], str] = record_id,
    ) -> dict[str, V]:
        """`compute(item)` by `name(item)`, for every item, in order; `tag` names the
        fact (the page jobs read it by that tag)."""
        ...

    def whole(self, tag: str, inputs: tuple[str, ...], compute: Callable[[], V]) -> V:
        """`compute()`: a site-wide value made from the facts of the `each` tags
        `inputs` only (serve keeps it while none of them changed)."""
        ...

    def facts(self, facts: SiteFacts) -> SiteFacts:
        """The site facts as the later computations read them."""
        ...

    def view(self, tag: str, values: Mapping[K, V]) -> Mapping[K, V]:
        """A derived map as the later computations read it."""
        ...

    def compare(self, tag: str, values: Mapping[Any, Any]) -> None:
        """A site-wide map the page jobs read by key, made whole (not fact by fact)."""
        ...

    def logs(
        self, catalogue: Catalogue, root: Path, hashes: Mapping[str, str | None]
    ) -> dict[str, LogFacts]:
        """The facts of each hashed raw log (`release.read_logs`)."""
        ...


@dataclass(frozen=True)
class Once:
    """A build's reading: every fact computed once, read as it is."""

    catalogue: Catalogue

    def each(
        self,
        tag: str,
        items: Iterable[T],
        compute: Callable[[T], V],
        name: Callable[[T], str] = record_id,
    ) -> dict[str, V]:
        return {name(item): compute(item) for item in items}

    def whole(self, tag: str, inputs: tuple[str, ...], compute: Callable[[], V]) -> V:
        return compute()

    def facts(self, facts: SiteFacts) -> SiteFacts:
        return facts

    def view(self, tag: str, values: Mapping[K, V]) -> Mapping[K, V]:
        return values

    def compare(self, tag: str, values: Mapping[Any, Any]) -> None:
        return None

    def logs(
        self, catalogue: Catalogue, root: Path, hashes: Mapping[str, str | None]
    ) -> dict[str, LogFacts]:
        return release.read_logs(catalogue, root, hashes)


def shared_titles(records: Iterable[RecordBase]) -> frozenset[str]:
    """Titles more than one record carries (their pages' <title> adds the record id)."""
    counts = Counter(r.title for r in records)
    return frozenset(title for title, count in counts.items() if count > 1)


def _filters(
    facets: Mapping[str, Mapping[str, tuple[tuple[str, str], ...]]],
) -> tuple[FilterIndex, dict[tuple[str, str], str], dict[tuple[str, str], tuple[str, ...]]]:
    """The filter index of the evaluations' facets, its pages' links and members."""
    filters = index_of(facets.items())
    return filters, index.filter_hrefs(filters), index.filter_members(filters)


def plan_site(
    catalogue: Catalogue,
    root: Path,
    release_date: date | str | None,
    *,
    preview: bool = False,
    reading: Reading | None = None,
) -> SitePlan:
    """The site plan of `catalogue` (artifact paths relative to `root`): the release,
    the site facts, the search index, every protocol's and every evaluation's derived
    facts. `preview`: the release of a preview (`release.preview_release`), no content
    hash. `reading`: how facts are computed and read (default: `Once`)."""
    read = reading if reading is not None else Once(catalogue)
    seen = read.catalogue
    made = (
        release.preview_release(len(catalogue.by_id), release_date)
        if preview
        else release.make_release(
            catalogue.by_id.values(), release_date, rows_sha256=catalogue.result_rows.sha256()
        )
    )
    evaluations = catalogue.of_kind(Evaluation)
    by_flags: Mapping[str, tuple[Flag, ...]] = read.each(
        "flags", evaluations, lambda e: flags(e, seen)
    )
    facets = read.each("facets", evaluations, lambda e: evaluation_facets(e, seen))
    filters, hrefs, members = read.whole("filters", ("facets",), lambda: _filters(facets))
    hashes = release.hash_artifacts(catalogue, root)
    facts = SiteFacts(
        release_id=made.id,
        flags=by_flags,
        artifact_hashes=hashes,
        filters=filters,
        filter_hrefs=hrefs,
        downloads=tuple(Link(d.label, d.path) for d in (*downloads.DOWNLOADS, *downloads.EXPORTS)),
        release_download=Link(downloads.RELEASE_LINK_TEXT, downloads.RELEASE_PAGE),
        shared_titles=shared_titles(catalogue.by_id.values()),
        artifact_logs=read.logs(catalogue, root, hashes),
    )
    record_ids = tuple(sorted(catalogue.by_id))
    read.compare("members", members)
    read.compare("api", api_slices(record_ids))
    got = read.facts(facts)
    by_record = read.each("entries", catalogue.by_id.values(), lambda r: search_entry(r, seen))
    entries = read.whole("search", ("entries",), lambda: ordered_entries(by_record.values()))
    eee = read.each("eee", evaluations, lambda e: eee_line(e, seen))
    protocols = catalogue.protocols()
    groups = read.each(
        "reproduction",
        protocols,
        lambda p: protocol_reproduction_groups(p, seen, flags=got.flags),
    )
    seen_groups = read.view("reproduction", groups)
    tables = read.each("table", protocols, lambda p: protocol_table(p, seen, got))
    seen_tables = read.view("table", tables)
    coverage = read.each(
        "coverage", protocols, lambda p: coverage_row(p, seen, got.flags, seen_groups[p.id])
    )
    links = read.each(
        "links", ("links",), lambda _: family_compare_links(seen, got.flags), name=str
    )["links"]
    read.compare("compare", links)
    group_facts = read.view(
        "reproduction", {k: tuple(g.facts for g in v) for k, v in groups.items()}
    )
    return SitePlan(
        release=made,
        catalogue=catalogue,
        facts=facts,
        entries=entries,
        members=members,
        download_items=index.download_items(facts.downloads),
        record_ids=record_ids,
        tables=tables,
        headlines=read.each("headline", protocols, lambda p: protocol_headline(p, seen, got.flags)),
        reproductions=groups,
        coverage=tuple(coverage.values()),
        results=read.each(
            "results",
            protocols,
            lambda p: downloads.protocol_derived(
                p.id, seen, got.flags, {p.id: seen_tables[p.id]}, {p.id: seen_groups[p.id]}
            ),
        ),
        eee_lines=eee,
        family_links=links,
        evaluations=read.each(
            "evaluation",
            evaluations,
            lambda e: evaluation_words(
                e,
                seen,
                got.flags,
                evaluation_facts(
                    e, seen, got.flags, got.artifact_hashes, got.artifact_logs, group_facts
                ),
            ),
        ),
    )
