"""Incremental derive: serve's reading of the derive stage (`render.derive_stage`, the
one path a build takes too). Each derived fact is kept with the dependency keys its
computation read through the tracking views (`track.py`); an edit recomputes only the
facts whose keys meet the changed keys (a full derive costs 11 CPU seconds at 10,000
evaluations), and every fact whose value changed adds its key (`('flags', id)`,
`('table', protocol)`...) to the changed keys, which the later facts and then the page
jobs are checked against. Site-wide maps made whole (the site facts, the filter pages'
members, the JSON API slices, the family comparison links) are compared with their last
value. Artifacts are hashed again at each edit, as a build does.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

from .. import release
from ..derive.logs import LogFacts
from ..link import Catalogue
from ..render.contexts import SiteFacts
from ..render.derive_stage import plan_site, record_id
from ..render.plan import SitePlan
from .track import ANY, Key, Recorder, TrackedMap, TrackingCatalogue, fact_maps, tracked_facts

T = TypeVar("T")
V = TypeVar("V")
K = TypeVar("K")


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


class Derived:
    """The derived facts of one preview and their recorded inputs, kept between edits
    (a `render.derive_stage.Reading`)."""

    def __init__(self, root: Path, release_date: date | str | None = None) -> None:
        self.root = root.resolve()
        self.day = release.build_date(release_date)
        """Fixed when serving starts: an edit after midnight changes no page."""
        self.recorder = Recorder()
        self.items: dict[str, dict[str, Item]] = {}  # tag -> name -> item
        self.wholes: dict[str, Mapping[Any, Any]] = {}  # tag -> a map made whole
        self.made: dict[str, tuple[Any]] = {}  # tag -> a site-wide value (`whole`)
        self.known_logs: dict[str, LogFacts] = {}
        self.plan: SitePlan | None = None
        self.changed: set[Key] | None = None  # None: compute everything
        self.seen: Catalogue | None = None  # the catalogue through tracking views

    @property
    def catalogue(self) -> Catalogue:
        assert self.seen is not None, "derive() sets it"
        return self.seen

    def derive(self, catalogue: Catalogue, changed: set[Key] | None) -> tuple[SitePlan, set[Key]]:
        """The plan of `catalogue`; `changed`: the record keys an edit changed (None:
        compute everything). Returns the plan and every changed key, derived ones too."""
        self.changed = None if changed is None else set(changed)
        self.seen = TrackingCatalogue(catalogue, self.recorder)
        self.plan = plan_site(catalogue, self.root, self.day, preview=True, reading=self)
        return self.plan, self.changed or set()

    def _note(self, keys: set[Key]) -> None:
        if self.changed is not None:
            self.changed |= keys

    def each(
        self,
        tag: str,
        items: Iterable[T],
        compute: Callable[[T], V],
        name: Callable[[T], str] = record_id,
    ) -> dict[str, V]:
        before = self.items.get(tag, {})
        fresh: dict[str, Item] = {}
        old: dict[str, Any] = {}
        new: dict[str, Any] = {}
        for thing in items:
            key = name(thing)
            item = before.get(key)
            if item is None or self.changed is None or not item.keys.isdisjoint(self.changed):
                value, keys = self.recorder.run(functools.partial(compute, thing))
                if item is not None:
                    old[key] = item.value
                new[key] = value
                item = Item(value, keys | {("id", key)})
            fresh[key] = item
        old.update((k, before[k].value) for k in before.keys() - fresh.keys())
        self._note(diff(tag, old, new))
        self.items[tag] = fresh
        return {k: i.value for k, i in fresh.items()}

    def whole(self, tag: str, inputs: tuple[str, ...], compute: Callable[[], V]) -> V:
        kept = self.made.get(tag)
        if kept is None or self.changed is None or any((t, ANY) in self.changed for t in inputs):
            kept = self.made[tag] = (compute(),)
        return kept[0]

    def facts(self, facts: SiteFacts) -> SiteFacts:
        if self.plan is not None:
            old = fact_maps(self.plan.facts)
            for tag, values in fact_maps(facts).items():
                self._note(diff(tag, old[tag], values))
        return tracked_facts(facts, self.recorder)

    def view(self, tag: str, values: Mapping[K, V]) -> Mapping[K, V]:
        return TrackedMap(values, tag, self.recorder)

    def compare(self, tag: str, values: Mapping[Any, Any]) -> None:
        if tag in self.wholes:
            self._note(diff(tag, self.wholes[tag], values))
        self.wholes[tag] = values

    def logs(
        self, catalogue: Catalogue, root: Path, hashes: Mapping[str, str | None]
    ) -> dict[str, LogFacts]:
        self.known_logs = release.read_logs(catalogue, root, hashes, self.known_logs)
        return self.known_logs
