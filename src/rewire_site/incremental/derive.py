"""Incremental derive: the site plan of a preview (what `render.plan.plan_site` gives,
from the same per-item functions), recomputed only where the recorded inputs of a
derived fact changed: a full re-derive costs 11 CPU seconds at 10,000 evaluations.

Per evaluation: concern flags, filter facets, Every Eval Ever line, the derived facts
of its page (`derive.evaluation_facts`); per record: its search entry; per protocol:
comparison tables, headline, reproduction groups, coverage row and derived results; the
family comparison links. Artifacts are hashed again at each edit (as a build does).
Each item keeps the keys it read through the tracking views (`track.py`); an edit
recomputes the items whose keys meet the changed keys, then the cheap whole-site
assemblies. Every derived fact whose value changed adds its key (`('flags', id)`,
`('table', protocol)`...) to the changed keys the page jobs are checked against.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from .. import release
from ..derive.concerns import flags
from ..derive.evaluation_facts import evaluation_facts
from ..derive.logs import LogFacts
from ..link import Catalogue
from ..models import Evaluation
from ..render import index
from ..render.contexts import SiteFacts
from ..render.coverage import coverage_row
from ..render.downloads import protocol_derived
from ..render.evaluation import evaluation_words
from ..render.export.eee import eee_line
from ..render.family import family_compare_links
from ..render.filters import evaluation_facets, index_of
from ..render.findings import protocol_headline
from ..render.plan import API_CHUNK, SitePlan, facts_of, shared_titles
from ..render.protocol import protocol_table
from ..render.reproduction import protocol_reproduction_groups
from ..render.search import ordered_entries, search_entry
from .track import ANY, PLAN_MAPS, Key, Recorder, TrackedMap, TrackingCatalogue, tracked_facts


@dataclass(frozen=True)
class Item:
    """A derived value and the dependency keys it read."""

    value: Any
    keys: frozenset[Key]


def diff(tag: str, old: Mapping[Any, Any], new: Mapping[Any, Any]) -> set[Key]:
    """`(tag, key)` for every key whose value differs (or is only on one side), and
    `(tag, ANY)` when there is any."""
    found: set[Key] = {(tag, k) for k in old.keys() ^ new.keys()}
    found.update((tag, k) for k in old.keys() & new.keys() if old[k] != new[k])
    if found:
        found.add((tag, ANY))
    return found


def _fact_changes(old: SiteFacts, new: SiteFacts) -> set[Key]:
    """The keys of the site facts that differ."""
    found = diff("flags", old.flags, new.flags) | diff("href", old.filter_hrefs, new.filter_hrefs)
    found |= diff("artifact", old.artifact_hashes, new.artifact_hashes)
    found |= diff("shared", dict.fromkeys(old.shared_titles), dict.fromkeys(new.shared_titles))
    for key, values in new.filters.index.items():
        found |= diff(f"facet:{key}", old.filters.index[key], values)
        found |= diff(f"label:{key}", old.filters.labels[key], new.filters.labels[key])
    return found


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
        self.items: dict[str, dict[str, Item]] = {}  # tag -> name -> item
        self.logs: dict[str, LogFacts] = {}
        self.plan: SitePlan | None = None

    def _refresh(
        self,
        tag: str,
        wanted: Iterable[Any],
        changed: set[Key] | None,
        compute: Callable[[Any], Any],
        name: Callable[[Any], str] = lambda record: str(record.id),
    ) -> tuple[dict[str, Any], bool]:
        """The values of `wanted` by name, recomputed where their keys meet `changed`
        (None: all), and whether any value changed, came or went."""
        before = self.items.get(tag, {})
        fresh: dict[str, Item] = {}
        differ = False
        for thing in wanted:
            key = name(thing)
            item = before.get(key)
            if item is None or changed is None or not item.keys.isdisjoint(changed):
                value, keys = self.recorder.run(functools.partial(compute, thing))
                differ = differ or item is None or item.value != value
                item = Item(value, keys | {("id", key)})
            fresh[key] = item
        self.items[tag] = fresh
        return {k: i.value for k, i in fresh.items()}, differ or before.keys() != fresh.keys()

    def derive(self, catalogue: Catalogue, changed: set[Key] | None) -> tuple[SitePlan, set[Key]]:
        """The plan of `catalogue`; `changed`: the record keys an edit changed (None:
        compute everything). Returns the plan and every changed key, derived ones too."""
        out: set[Key] = set(changed or ())
        seen = TrackingCatalogue(catalogue, self.recorder)
        evaluations = catalogue.of_kind(Evaluation)
        old = self.plan
        by_flags, _ = self._refresh("flags", evaluations, changed, lambda e: flags(e, seen))
        eee, _ = self._refresh("eee", evaluations, changed, lambda e: eee_line(e, seen))
        facets, differ = self._refresh(
            "facets", evaluations, changed, lambda e: evaluation_facets(e, seen)
        )
        hrefs: Mapping[tuple[str, str], str]
        if old is None or differ:
            filters = index_of(facets.items())
            hrefs, members = index.filter_hrefs(filters), index.filter_members(filters)
        else:  # no evaluation's facets changed: nor did the index, its links or its pages
            filters, hrefs, members = old.facts.filters, old.facts.filter_hrefs, old.members
        # every artifact hashed again: 0.03 CPU s at 10,000 evaluations (bench_incremental's
        # catalogue, 511 files), where keeping the hashes of unchanged records cost 18 lines
        hashes = release.hash_artifacts(catalogue, self.root)
        self.logs = release.read_logs(catalogue, self.root, hashes, self.logs)
        release_id = release.preview_release(0, self.day).id
        titles = shared_titles(catalogue.by_id.values())
        facts = facts_of(release_id, by_flags, hashes, filters, lambda _: hrefs, titles, self.logs)
        by_id, differ = self._refresh(
            "entries", catalogue.by_id.values(), changed, lambda r: search_entry(r, seen)
        )
        entries = ordered_entries(by_id.values()) if old is None or differ else old.entries
        record_ids = tuple(sorted(catalogue.by_id))
        if old is not None:
            out |= _fact_changes(old.facts, facts)
            out |= diff("api", _api_slices(old.record_ids), _api_slices(record_ids))
            out |= {("entries",)} if old.entries != entries else set()
        tracked = tracked_facts(facts, self.recorder)

        def protocol_facts(protocol: Any) -> tuple[Any, ...]:
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

        again = None if changed is None else changed | out
        protocols, _ = self._refresh("protocols", catalogue.protocols(), again, protocol_facts)
        links, _ = self._refresh(
            "links", ("links",), again, lambda _: family_compare_links(seen, tracked.flags), str
        )
        groups = {k: v[2] for k, v in protocols.items()}
        if old is not None:  # the evaluations that show a protocol's groups read them
            out |= diff("reproduction", old.reproductions, groups)
        facts_of_groups = {k: tuple(g.facts for g in v) for k, v in groups.items()}
        seen_groups = TrackedMap(facts_of_groups, "reproduction", self.recorder)
        by_evaluation, _ = self._refresh(
            "evaluations",
            evaluations,
            None if changed is None else changed | out,
            lambda e: evaluation_words(
                e,
                seen,
                tracked.flags,
                evaluation_facts(
                    e, seen, tracked.flags, tracked.artifact_hashes, self.logs, seen_groups
                ),
            ),
        )
        plan = SitePlan(
            release=release.preview_release(len(catalogue.by_id), self.day),
            catalogue=catalogue,
            facts=facts,
            entries=entries,
            members=members,
            download_items=index.download_items(facts.downloads),
            record_ids=record_ids,
            tables={k: v[0] for k, v in protocols.items()},
            headlines={k: v[1] for k, v in protocols.items()},
            reproductions=groups,
            coverage=tuple(v[3] for v in protocols.values()),
            results={k: v[4] for k, v in protocols.items()},
            eee_lines=eee,
            family_links=links["links"],
            evaluations=by_evaluation,
        )
        if old is not None:
            out |= {("coverage",)} if old.coverage != plan.coverage else set()
            for field, tag in PLAN_MAPS.items():
                out |= diff(tag, getattr(old, field), getattr(plan, field))
        self.plan = plan
        return plan, out
