"""Incremental derive: the site plan of a preview (what `render.plan.plan_site` gives,
from the same per-item functions), recomputed only where the recorded inputs of a
derived fact changed: a full re-derive costs 11 CPU seconds at 10,000 evaluations.

Per evaluation: concern flags and filter facets; per record: its search entry; per
protocol: comparison tables, headline, reproduction groups and coverage row; per
artifact path: the SHA-256 (re-hashed when an evaluation that cites it changes). Each is
computed through a tracking view of the catalogue (`track.py`) and keeps the keys it
read; an edit recomputes the items whose keys meet the changed keys, then the cheap
whole-site assemblies (filter index, links, members, shared titles, search order). Every
derived fact whose value changed adds its key (`('flags', id)`, `('table', protocol)`...)
to the changed keys the page jobs are checked against.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Generic, TypeVar

from .. import release
from ..derive.concerns import Flag, flags
from ..derive.coverage import coverage_row
from ..derive.filters import FilterIndex, evaluation_facets, index_of, labels_of
from ..derive.logs import LogFacts
from ..derive.reproduction import protocol_reproduction_groups
from ..link import Catalogue
from ..models import Evaluation
from ..render import index
from ..render.contexts import Link
from ..render.downloads import protocol_derived
from ..render.export.eee import eee_line
from ..render.family import family_compare_links
from ..render.findings import protocol_headline
from ..render.plan import API_CHUNK, SitePlan, facts_of, shared_titles
from ..render.protocol import protocol_table
from ..render.search import SearchEntry, ordered_entries, search_entry
from .track import ANY, Key, Recorder, TrackingCatalogue, tracked_facts

V = TypeVar("V")
Facets = dict[str, tuple[tuple[str, str], ...]]


@dataclass(frozen=True)
class Item(Generic[V]):
    """A derived value and the dependency keys it read."""

    value: V
    keys: frozenset[Key]


def diff(tag: str, old: Mapping[Any, Any], new: Mapping[Any, Any]) -> set[Key]:
    """`(tag, key)` for every key whose value differs (or is only on one side), and
    `(tag, ANY)` when there is any."""
    found: set[Key] = {(tag, k) for k in old.keys() ^ new.keys()}
    found.update((tag, k) for k in old.keys() & new.keys() if old[k] != new[k])
    if found:
        found.add((tag, ANY))
    return found


def _labels_only(
    before: Mapping[str, Item[Facets]], after: Mapping[str, Item[Facets]], differ: set[str]
) -> bool:
    """True when the evaluations in `differ` kept every facet value (token) and changed
    labels only (none came or went)."""
    for name in differ:
        old, new = before.get(name), after.get(name)
        if old is None or new is None or old.value.keys() != new.value.keys():
            return False
        for key, pairs in new.value.items():
            if [t for t, _ in pairs] != [t for t, _ in old.value[key]]:
                return False
    return True


def _api_slices(ids: tuple[str, ...]) -> dict[tuple[str, str], tuple[str, ...]]:
    return {
        (str(i), str(i + API_CHUNK)): ids[i : i + API_CHUNK] for i in range(0, len(ids), API_CHUNK)
    }


class Derived:
    """The derived facts of one preview and their recorded inputs, kept between edits."""

    def __init__(self, root: Path, release_date: date | str | None = None) -> None:
        self.root = root.resolve()
        self.day = release.build_date(release_date)
        """Fixed when serving starts: an edit after midnight changes no page."""
        self.recorder = Recorder()
        self.flags: dict[str, Item[tuple[Flag, ...]]] = {}
        self.facets: dict[str, Item[Facets]] = {}
        self.entries: dict[str, Item[SearchEntry]] = {}
        self.protocols: dict[str, Item[tuple[Any, Any, tuple[Any, ...], Any, Any]]] = {}
        self.eee: dict[str, Item[str | None]] = {}
        self.links: dict[str, Item[dict[str, tuple[Link, ...]]]] = {}
        self.hashes: dict[str, str | None] = {}
        self.logs: dict[str, LogFacts] = {}
        self.plan: SitePlan | None = None
        self.recomputed = 0
        """Items recomputed by the last `derive`."""

    def _item(self, own: str, compute: Callable[[], V]) -> Item[V]:
        self.recomputed += 1
        value, keys = self.recorder.run(compute)
        return Item(value, keys | {("id", own)})

    def _refresh(
        self,
        items: dict[str, Item[V]],
        wanted: Iterable[Hashable],
        changed: set[Key] | None,
        compute: Callable[[Any], V],
        name: Callable[[Any], str],
    ) -> tuple[dict[str, Item[V]], set[str]]:
        """The items of `wanted`, recomputed where their keys meet `changed`, and the
        names whose value changed (or that came or went)."""
        fresh: dict[str, Item[V]] = {}
        differ: set[str] = set()
        for thing in wanted:
            key = name(thing)
            item = items.get(key)
            if item is None or changed is None or not item.keys.isdisjoint(changed):
                item = self._item(key, functools.partial(compute, thing))
                before = items.get(key)
                if before is None or before.value != item.value:
                    differ.add(key)
            fresh[key] = item
        differ.update(items.keys() - fresh.keys())
        return fresh, differ

    def derive(
        self, catalogue: Catalogue, changed: set[Key] | None, changed_ids: Iterable[str] = ()
    ) -> tuple[SitePlan, set[Key]]:
        """The plan of `catalogue`; `changed`: the record keys an edit changed (None:
        compute everything). Returns the plan and every changed key, derived ones too."""
        self.recomputed = 0
        out: set[Key] = set(changed or ())
        seen = TrackingCatalogue(catalogue, self.recorder)
        evaluations = catalogue.of_kind(Evaluation)
        old = self.plan

        self.flags, differ = self._refresh(
            self.flags, evaluations, changed, lambda e: flags(e, seen), lambda e: e.id
        )
        new_flags = {k: i.value for k, i in self.flags.items()}
        out |= {("flags", k) for k in differ} | ({("flags", ANY)} if differ else set())

        self.eee, differ = self._refresh(
            self.eee, evaluations, changed, lambda e: eee_line(e, seen), lambda e: e.id
        )
        out |= {("eee", k) for k in differ} | ({("eee", ANY)} if differ else set())

        hrefs: Mapping[tuple[str, str], str]
        before = self.facets
        self.facets, differ = self._refresh(
            self.facets, evaluations, changed, lambda e: evaluation_facets(e, seen), lambda e: e.id
        )
        if old is not None and differ and _labels_only(before, self.facets, differ):
            # the same values, other labels (a protocol retitled): the same index of
            # values, links and pages; only the labels made again
            relabelled = labels_of((k, i.value) for k, i in self.facets.items())
            filters = FilterIndex(old.facts.filters.index, relabelled)
            hrefs, members = old.facts.filter_hrefs, old.members
        elif old is None or differ:
            filters = index_of((k, i.value) for k, i in self.facets.items())
            hrefs = index.filter_hrefs(filters)
            members = index.filter_members(filters)
        else:  # no evaluation's facets changed: nor did the index, its links or its pages
            filters, hrefs, members = old.facts.filters, old.facts.filter_hrefs, old.members
        hashes = self._hashes(evaluations, set(changed_ids), changed is None)
        titles = shared_titles(catalogue.by_id.values())
        self.logs = release.read_logs(catalogue, self.root, hashes, self.logs)
        facts = facts_of(
            release.preview_release(0, self.day).id,
            new_flags,
            hashes,
            filters,
            lambda _: hrefs,
            titles,
            self.logs,
        )
        self.entries, differ = self._refresh(
            self.entries,
            catalogue.by_id.values(),
            changed,
            lambda r: search_entry(r, seen),
            lambda r: r.id,
        )
        if old is None or differ:
            entries = ordered_entries(i.value for i in self.entries.values())
        else:
            entries = old.entries
        record_ids = tuple(sorted(catalogue.by_id))
        if old is not None:
            if filters is not old.facts.filters:
                for key, facet_index in filters.index.items():
                    if facet_index is not old.facts.filters.index[key]:
                        out |= diff(f"facet:{key}", old.facts.filters.index[key], facet_index)
                    labels = filters.labels[key]
                    out |= diff(f"label:{key}", old.facts.filters.labels[key], labels)
                if hrefs is not old.facts.filter_hrefs:
                    out |= diff("href", old.facts.filter_hrefs, facts.filter_hrefs)
                if members is not old.members:
                    out |= diff("members", old.members, members)
            out |= diff("artifact", old.facts.artifact_hashes, hashes)
            out |= diff("shared", dict.fromkeys(old.facts.shared_titles), dict.fromkeys(titles))
            out |= diff("api", _api_slices(old.record_ids), _api_slices(record_ids))
            if old.entries != entries:
                out.add(("entries",))

        tracked = tracked_facts(facts, self.recorder)

        def protocol_facts(protocol: Any) -> tuple[Any, Any, tuple[Any, ...], Any, Any]:
            groups = tuple(protocol_reproduction_groups(protocol, seen, flags=tracked.flags))
            table = protocol_table(protocol, seen, tracked)
            return (
                table,
                protocol_headline(protocol, seen, tracked.flags),
                groups,
                coverage_row(protocol, seen, tracked.flags, groups),
                protocol_derived(
                    protocol.id, seen, tracked.flags, {protocol.id: table}, {protocol.id: groups}
                ),
            )

        self.protocols, _ = self._refresh(
            self.protocols,
            catalogue.protocols(),
            None if changed is None else changed | out,
            protocol_facts,
            lambda p: p.id,
        )
        self.links, _ = self._refresh(
            self.links,
            ("links",),
            None if changed is None else changed | out,
            lambda _: family_compare_links(seen, tracked.flags),
            str,
        )
        links = self.links["links"].value
        tables = {k: i.value[0] for k, i in self.protocols.items()}
        headlines = {k: i.value[1] for k, i in self.protocols.items()}
        reproductions = {k: i.value[2] for k, i in self.protocols.items()}
        coverage = tuple(i.value[3] for i in self.protocols.values())
        results = {k: i.value[4] for k, i in self.protocols.items()}
        if old is not None:
            out |= {("coverage",)} if old.coverage != coverage else set()
            out |= diff("table", old.tables, tables)
            out |= diff("headline", old.headlines, headlines)
            out |= diff("reproduction", old.reproductions, reproductions)
            out |= diff("results", old.results, results)
            out |= diff("compare", old.family_links, links)
        plan = SitePlan(
            release=release.preview_release(len(catalogue.by_id), self.day),
            catalogue=catalogue,
            facts=facts,
            entries=entries,
            members=members,
            download_items=index.download_items(facts.downloads),
            record_ids=record_ids,
            tables=tables,
            headlines=headlines,
            reproductions=reproductions,
            coverage=coverage,
            results=results,
            eee_lines={k: i.value for k, i in self.eee.items()},
            family_links=links,
        )
        self.plan = plan
        return plan, out

    def _hashes(
        self, evaluations: list[Evaluation], changed: set[str], everything: bool
    ) -> dict[str, str | None]:
        """Artifact path -> SHA-256, as `release.hash_artifacts` gives it; a path is
        hashed again when an evaluation that cites it changed."""
        again = {a.path for e in evaluations if everything or e.id in changed for a in e.artifacts}
        hashes: dict[str, str | None] = {}
        for evaluation in evaluations:
            for artifact in evaluation.artifacts:
                path = artifact.path
                if path in hashes:
                    continue
                if path in again or path not in self.hashes:
                    self.hashes[path] = release.hash_artifact(self.root, path)
                    again.discard(path)
                hashes[path] = self.hashes[path]
        return hashes
